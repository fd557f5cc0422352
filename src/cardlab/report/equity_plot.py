"""Pictures of equity results (matplotlib, no screen needed): a bar per player, and for a hand
against a range the equity against each hand class of the range as a 13 x 13 grid."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from cardlab.poker.equity_result import EquityResult
from cardlab.poker.ranges import class_label
from cardlab.report.figures import save_figure

__all__ = ["plot_equity", "equity_figure"]


def plot_equity(result: EquityResult, path: str | Path) -> Path:
    """Draw ``result`` (:func:`equity_figure`) to a PNG at ``path``; returns the path."""
    return save_figure(equity_figure(result), path)


def equity_figure(result: EquityResult) -> Figure:
    """A bar per player (equity in percent, with 95% intervals when simulated), and for a hand
    against a range a 13 x 13 grid of its equity against each hand class."""
    grid = result.grid
    fig = Figure(figsize=(11 if grid else 6, 5), dpi=120)
    ax = fig.add_subplot(1, 2 if grid else 1, 1)
    names = [f"{n}. {p.spec}"[:28] for n, p in enumerate(result.players, 1)]
    eq = np.array([p.equity for p in result.players])
    ax.barh(names[::-1], eq[::-1] * 100, color="#4878a8")
    if not result.exact:
        lo = np.array([p.ci95[0] for p in result.players]) * 100
        hi = np.array([p.ci95[1] for p in result.players]) * 100
        ax.errorbar(eq[::-1] * 100, names[::-1], xerr=[(eq * 100 - lo)[::-1], (hi - eq * 100)[::-1]],
                    fmt="none", color="black", capsize=3)
    for y, v in enumerate(eq[::-1]):
        ax.text(v * 100 + 1, y, f"{v:.1%}", va="center")
    ax.set_xlim(0, 110)
    ax.set_xlabel("equity (%)")
    ax.set_title(result._caption(), fontsize=8)
    if grid:
        gx = fig.add_subplot(1, 2, 2)
        values = np.array([np.nan if v is None else v * 100 for v in grid]).reshape(13, 13)
        image = gx.imshow(values, cmap="RdYlGn", vmin=0, vmax=100)
        for i in range(169):
            r, c = divmod(i, 13)
            text = class_label(i) + ("" if np.isnan(values[r, c]) else f"\n{values[r, c]:.0f}")
            gx.text(c, r, text, ha="center", va="center", fontsize=5.5)
        gx.set_xticks([])
        gx.set_yticks([])
        gx.set_title(f"equity of {result.players[0].spec} against each class of {result.players[1].spec}"[:70],
                     fontsize=8)
        fig.colorbar(image, ax=gx, fraction=0.046, label="equity (%)")
    fig.tight_layout()
    return fig
