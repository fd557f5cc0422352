"""Pictures of distributions as PNG files (matplotlib, no screen needed).

- :func:`plot_distribution`: a bar chart of probabilities; with a simulated
  distribution beside it, the simulated frequencies and their 95% intervals
  are drawn over the exact bars.
- :func:`plot_joint`: a heat map of a joint table (log colour scale, so rare
  cells stay visible).

:func:`distribution_figure` and :func:`joint_figure` give the matplotlib ``Figure`` itself
(for a notebook, or to check what is drawn); the ``plot_*`` functions save it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure

from cardlab.distribution import Distribution, format_value
from cardlab.intervals import wilson
from cardlab.report.figures import save_figure

__all__ = ["plot_distribution", "plot_joint", "distribution_figure", "joint_figure", "MAX_BARS"]

#: Most bars drawn; a longer table shows its most frequent values and says so in the title.
MAX_BARS = 60


def plot_distribution(dist: Distribution, path: str | Path, title: str | None = None,
                      simulated: Distribution | None = None, log: bool | None = None) -> Path:
    """Bar chart of ``dist`` (:func:`distribution_figure`) saved to ``path``; returns the path."""
    return save_figure(distribution_figure(dist, title, simulated, log), path)


def distribution_figure(dist: Distribution, title: str | None = None, simulated: Distribution | None = None,
                        log: bool | None = None) -> Figure:
    """Bar chart of the probabilities of ``dist``, one bar per value (at most :data:`MAX_BARS`).

    ``log`` uses a logarithmic probability axis (default: for named categories
    whose probabilities span more than two orders of magnitude, as poker
    hands do; numeric values such as points keep a linear axis so the shape of
    the distribution shows).
    """
    shown = ""
    total, sim_total = dist.total, simulated.total if simulated is not None else 0  # before any selection
    if len(dist.values) > MAX_BARS:  # hundreds of labels cannot be read: the most frequent, in order
        top = sorted(np.argsort(-np.asarray(dist.counts, dtype=float), kind="stable")[:MAX_BARS].tolist())
        shown = (f"; the {MAX_BARS} most frequent of {len(dist.values)} values "
                 f"({100 * sum(dist.counts[i] for i in top) / dist.total:.1f}% of all)")
        dist = dist.select(top)
        simulated = simulated.select(top) if simulated is not None else None
    probs = np.asarray(dist.counts, dtype=float) / total  # of all hands, also when only the top bars are shown
    labels = [format_value(v) for v in dist.values]
    positive = probs[probs > 0]
    if log is None:
        categorical = any(isinstance(v, str) for v in dist.values)
        log = categorical and bool(len(positive)) and positive.max() / positive.min() > 100
    width = max(6.0, min(18.0, 0.32 * len(labels) + 2))
    fig = Figure(figsize=(width, 4.8), dpi=110)
    ax = fig.subplots()
    x = np.arange(len(labels))
    bars = ax.bar(x, probs, color="#4C72B0", label="exact" if dist.exact else "simulated")
    if len(labels) <= 16:  # few bars: write each probability on its bar
        ax.bar_label(bars, labels=[_short(p) for p in probs], fontsize=7, padding=2)
    if simulated is not None:
        sim_counts = np.asarray(simulated.counts, dtype=float)
        lo, hi = wilson(sim_counts, sim_total)
        sp = sim_counts / sim_total
        ax.errorbar(x, sp, yerr=[np.clip(sp - lo, 0, None), np.clip(hi - sp, 0, None)], fmt="o", color="#DD8452", markersize=4,
                    capsize=3, label=f"simulated ({sim_total:,} trials, 95% interval)")
        ax.legend()
    ax.set_xticks(x)
    rotate = max(len(s) for s in labels) > 3 or len(labels) > 40
    ax.set_xticklabels(labels, rotation=90 if rotate else 0, fontsize=8 if len(labels) > 30 else 10)
    ax.set_xlabel(dist.name)
    ax.set_ylabel("probability")
    if log:
        ax.set_yscale("log")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    sub = f"total {total:,}" + (" (exact)" if dist.exact else " trials") + shown
    ax.set_title(_wrap(f"{title or dist.name}\n{sub}", width), fontsize=11)
    fig.tight_layout()
    return fig


def _wrap(text: str, inches: float) -> str:
    """Title lines broken to fit the figure (about 11 characters an inch at 11 points)."""
    return "\n".join(textwrap.fill(line, width=max(40, int(inches * 11))) for line in text.splitlines())


def _short(p: float) -> str:
    if p == 0:
        return "0"
    return f"{p:.3g}" if p >= 1e-3 else f"{p:.2e}"


def plot_joint(dist: Distribution, path: str | Path, title: str | None = None) -> Path:
    """Heat map of a joint distribution (:func:`joint_figure`) saved to ``path``; returns the path."""
    return save_figure(joint_figure(dist, title), path)


def joint_figure(dist: Distribution, title: str | None = None) -> Figure:
    """Heat map of a joint distribution (first feature down, second across; impossible cells blank)."""
    rows = list(dict.fromkeys(v[0] for v in dist.values))
    cols = list(dict.fromkeys(v[1] for v in dist.values))
    grid = np.zeros((len(rows), len(cols)))
    r_index = {v: i for i, v in enumerate(rows)}
    c_index = {v: i for i, v in enumerate(cols)}
    for (a, b), count in zip(dist.values, dist.counts):
        grid[r_index[a], c_index[b]] = count / dist.total
    keep_r: list[bool] = np.asarray(grid.any(axis=1)).tolist()
    keep_c: list[bool] = np.asarray(grid.any(axis=0)).tolist()
    grid = grid[keep_r][:, keep_c]
    rows = [r for r, k in zip(rows, keep_r) if k]
    cols = [c for c, k in zip(cols, keep_c) if k]
    fig = Figure(figsize=(max(6.0, 0.3 * len(cols) + 3), max(5.0, 0.2 * len(rows) + 2)), dpi=110)
    ax = fig.subplots()
    masked = np.ma.masked_equal(grid, 0)
    image = ax.imshow(masked, aspect="auto", origin="lower", cmap="viridis",
                      norm=LogNorm(vmin=masked.min(), vmax=masked.max()))
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels([format_value(c) for c in cols], rotation=90, fontsize=8)
    step = max(1, len(rows) // 20)
    ax.set_yticks(range(0, len(rows), step))
    ax.set_yticklabels([format_value(r) for r in rows[::step]], fontsize=8)
    axes = dist.axes or ("", "")
    ax.set_ylabel(axes[0])
    ax.set_xlabel(axes[1])
    fig.colorbar(image, ax=ax, label="probability (log scale); blank = impossible")
    ax.set_title(_wrap(title or dist.name, fig.get_figwidth()))
    fig.tight_layout()
    return fig
