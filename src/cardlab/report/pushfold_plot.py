"""The push/fold chart as the familiar coloured 13 x 13 grids (matplotlib Figure, no pyplot):
the small blind's pushes and the big blind's calls, each cell the hand and the largest stack (big
blinds) at which it is played, coloured by that stack; pairs on the diagonal, suited hands above
it, offsuit below."""

from __future__ import annotations

import math

import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure

from cardlab.poker.tournament_result import PushFoldResult

__all__ = ["pushfold_figure"]

_COLOURS = LinearSegmentedColormap.from_list("pushfold", ["#fde0c5", "#f59e72", "#e4572e", "#a4161a"])
_NEVER = "#eeeeee"


def pushfold_figure(result: PushFoldResult) -> Figure:
    """Two coloured grids: push (left) and call (right) charts of ``result``."""
    lo, hi, _ = result.chart_range
    fig = Figure(figsize=(14, 7.4), dpi=100)
    for k, (which, values) in enumerate((("small blind: push", result.chart_push),
                                         ("big blind: call", result.chart_call))):
        ax = fig.add_subplot(1, 2, k + 1)
        image = np.ones((13, 13, 4))
        for index, v in enumerate(values):
            row, col = divmod(index, 13)
            if v == 0 or math.isnan(v):
                image[row, col] = (0.933, 0.933, 0.933, 1.0)
            else:
                level = 1.0 if math.isinf(v) else (v - lo) / max(hi - lo, 1e-9)
                image[row, col] = _COLOURS(0.15 + 0.85 * min(max(level, 0.0), 1.0))
        ax.imshow(image, interpolation="nearest")
        for index, (label, v) in enumerate(zip(result.labels, values)):
            row, col = divmod(index, 13)
            shown = f"{hi:g}+" if math.isinf(v) else ("-" if v == 0 or math.isnan(v) else f"{v:.2f}".rstrip("0").rstrip("."))
            dark = not (v == 0 or math.isnan(v)) and (math.isinf(v) or (v - lo) / max(hi - lo, 1e-9) > 0.45)
            ax.text(col, row - 0.17, label, ha="center", va="center", fontsize=7.5, fontweight="bold",
                    color="white" if dark else "black")
            ax.text(col, row + 0.22, shown, ha="center", va="center", fontsize=6.5,
                    color="white" if dark else "black")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(f"{which} (largest stack in BB)", fontsize=11)
    what = "chip EV" if result.payouts is None else "ICM"
    ante = f", ante {result.ante:g} BB" if result.ante else ""
    fig.suptitle(f"Heads-up push/fold equilibrium ({what}{ante}), stacks {lo:g} to {hi:g} BB; "
                 f"'{hi:g}+' = every stack of the range, '-' = never. Suited above the diagonal.", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    return fig
