"""Pictures of video poker results (matplotlib, no screen needed): each outcome's contribution to
the return of a whole game, and the expected pay of a dealt hand's best holds."""

from __future__ import annotations


from matplotlib.figure import Figure

from cardlab.casino.video_result import HandAnalysis, VideoAnalysis

__all__ = ["return_figure", "holds_figure"]

_BAR = "#4477aa"


def return_figure(analysis: VideoAnalysis) -> Figure:
    """A bar per paying outcome: its contribution to the return, in percent of the bet."""
    rows = [r for r in analysis.rows() if r["pays"] > 0]
    fig = Figure(figsize=(8, 4.5), dpi=100)
    ax = fig.add_subplot()
    names = [r["name"] for r in rows]
    values = [100 * r["contribution"] for r in rows]
    bars = ax.barh(names[::-1], values[::-1], color=_BAR)
    for bar, value in zip(bars, values[::-1]):
        ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, f" {value:.2f}%", va="center", fontsize=8)
    ax.set_xlabel("contribution to the return (% of the bet)")
    ax.set_title(f"{analysis.paytable.name} ({analysis.deck}): return {100 * float(analysis.return_exact):.4f}%",
                 fontsize=10)
    ax.set_xlim(0, max(values) * 1.18 if values else 1)
    fig.tight_layout()
    return fig


def holds_figure(analysis: HandAnalysis, best: int = 10) -> Figure:
    """A bar per hold, the ``best`` first: its exact expected pay per coin."""
    shown = analysis.holds[:best]
    fig = Figure(figsize=(8, 4.5), dpi=100)
    ax = fig.add_subplot()
    ax.barh([h.hold or "(draw five)" for h in shown][::-1], [float(h.ev) for h in shown][::-1], color=_BAR)
    ax.set_xlabel("expected pay per coin")
    ax.set_title(f"{analysis.paytable.name}: {analysis.hand}", fontsize=10)
    fig.tight_layout()
    return fig
