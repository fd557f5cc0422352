"""The one way a picture is written: every plot of the package (distributions, equities, video
poker, push/fold charts) is a matplotlib ``Figure`` built without pyplot, written as PNG by
:func:`save_figure` (to a file) or :func:`figure_png` (to bytes, for a page that serves the
picture from memory), both at the resolution the figure was made with."""

from __future__ import annotations

import io
from pathlib import Path
from typing import BinaryIO

from matplotlib.figure import Figure

__all__ = ["save_figure", "figure_png"]


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` as a PNG file at ``path``; returns the path."""
    target = Path(path)
    _write_png(fig, target)
    return target


def figure_png(fig: Figure) -> bytes:
    """``fig`` as the bytes of a PNG file."""
    buffer = io.BytesIO()
    _write_png(fig, buffer)
    return buffer.getvalue()


def _write_png(fig: Figure, target: Path | BinaryIO) -> None:
    fig.savefig(target, format="png")
