"""A progress bar on stderr for long simulations (rich), fed by the engine as chunks finish."""

from __future__ import annotations

import sys

__all__ = ["ProgressBar"]


class ProgressBar:
    """``advance(n)`` as work is done; ``close()`` removes the bar (it is transient)."""

    def __init__(self, total: int, label: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._progress = Progress(
            TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            console=Console(file=sys.stderr), transient=True,
        )
        self._task = self._progress.add_task("work", total=total)
        self._progress.start()

    def advance(self, n: int) -> None:
        """Move the bar on by ``n`` units of work."""
        self._progress.advance(self._task, n)

    def close(self) -> None:
        """Stop the bar and clear it from the terminal."""
        self._progress.stop()
