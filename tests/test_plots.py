"""What the pictures contain, read from the matplotlib figure objects: bar heights, axes,
labels, titles, heat-map cells; and that a saved file is a PNG of the figure's size.

Figures come from cardlab.report.plot.distribution_figure / joint_figure and
cardlab.report.equity_plot.equity_figure, which the ``plot`` methods save.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure

from cardlab.bridge import Joint, LongestSuit, Pattern, Points, exact_hand_table
from cardlab.dealing import Deck, Draw
from cardlab.engine import exact, simulate
from cardlab.poker.equity import equity
from cardlab.poker.odds import PokerCategory
from cardlab.report.equity_plot import equity_figure
from cardlab.report.plot import MAX_BARS, distribution_figure, joint_figure

from png_check import png_size


def pixels(fig: Figure, dpi: float | None = None) -> tuple[int, int]:
    w, h = fig.get_size_inches() * (dpi or fig.dpi)
    return int(w), int(h)


def test_points_bars_are_the_exact_probabilities(tmp_path: Path) -> None:
    d = exact_hand_table(Points())
    fig = distribution_figure(d)
    (ax,) = fig.axes
    heights = [bar.get_height() for bar in ax.patches]
    assert len(heights) == 38 and heights == pytest.approx(list(d.probabilities), abs=1e-15)
    # Published: 10 HCP in 9.41% of hands, rounded to 0.01% (BridgeHands, "Probability of High Card
    # Point", bridgehands.com/P/Probability_HCP.htm).
    assert heights[10] == pytest.approx(0.0941, abs=5e-5)
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(v) for v in range(38)]
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_yscale()) == ("hcp", "probability", "linear")
    assert ax.get_title() == "hcp\ntotal 635,013,559,600 (exact)"
    assert png_size(d.plot(tmp_path / "hcp.png")) == pixels(fig)


def test_simulated_points_drawn_over_the_exact_bars() -> None:
    d = exact_hand_table(Points())
    sim = simulate(Draw(Deck.standard(), 13), Points(), trials=20_000, seed=3)
    (ax,) = distribution_figure(d, simulated=sim).axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["exact", "simulated (20,000 trials, 95% interval)"]
    (points,) = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert list(points.get_ydata()) == pytest.approx(list(sim.probabilities))


def test_poker_categories_use_a_log_axis() -> None:
    d = exact(Draw(Deck.standard(), 5), PokerCategory())
    (ax,) = distribution_figure(d).axes
    assert ax.get_yscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()][0] == "High card"
    # Royal flush: 4 of 2,598,960 five-card hands.
    assert ax.patches[-1].get_height() == pytest.approx(4 / 2_598_960)


def test_a_long_table_shows_its_most_frequent_values() -> None:
    d = exact_hand_table(Pattern())  # 39 patterns: all shown
    assert len(distribution_figure(d).axes[0].patches) == 39
    joint = exact_hand_table(Joint(Points(), Pattern()))
    flat = type(joint)(joint.name, tuple(str(v) for v in joint.values), joint.counts)
    (ax,) = distribution_figure(flat).axes
    assert len(ax.patches) == MAX_BARS
    assert f"the {MAX_BARS} most frequent of {len(flat.values)} values" in ax.get_title()
    assert f"total {flat.total:,} (exact)" in ax.get_title()
    # Bars are probabilities of all hands (not renormalised to the values shown).
    shown = sorted((c for c in flat.counts), reverse=True)[:MAX_BARS]
    assert sorted((b.get_height() for b in ax.patches), reverse=True) == pytest.approx(
        [c / flat.total for c in shown])


def test_joint_heat_map_cells_are_the_probabilities() -> None:
    d = exact_hand_table(Joint(Points(), LongestSuit()))
    fig = joint_figure(d)
    ax = fig.axes[0]
    (image,) = ax.get_images()
    cells = image.get_array()
    assert cells.sum() == pytest.approx(1.0)  # every hand is in one cell
    assert (ax.get_ylabel(), ax.get_xlabel()) == d.axes
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(v) for v in range(4, 14)]
    # 37 points hold four aces, kings and queens and one jack: longest suit 4 only.
    assert cells[37, 0] == pytest.approx(d.count((37, 4)) / d.total) and d.count((37, 4)) == 4
    assert np.ma.is_masked(cells[37, 1])  # impossible cells are blank, not zero-coloured


def test_equity_bars_and_grid(tmp_path: Path) -> None:
    r = equity(["AsKs", "QQ+, AK, 0.5(JJ)"], board="Kh 7d 2c")
    fig = equity_figure(r)
    bars, grid = fig.axes[0], fig.axes[1]
    widths = [p.get_width() for p in bars.patches]
    assert widths == pytest.approx([p.equity * 100 for p in r.players][::-1])
    assert bars.get_xlabel() == "equity (%)"
    assert [t.get_text() for t in bars.get_yticklabels()] == [f"{n}. {p.spec}" for n, p in enumerate(r.players, 1)][::-1]
    (image,) = grid.get_images()
    assert r.grid is not None
    expected = np.array([np.nan if v is None else v * 100 for v in r.grid]).reshape(13, 13)
    assert np.allclose(image.get_array(), expected, equal_nan=True)
    assert sum(v is not None for v in r.grid) == 6  # QQ, KK, AA, AKs, AKo and JJ (at half weight)
    assert png_size(r.plot(tmp_path / "eq.png")) == pixels(fig, 120)


def test_one_way_to_save_a_figure() -> None:
    """Every picture goes through report.figures: no other module of the package calls savefig."""
    import cardlab

    root = Path(cardlab.__file__).parent
    callers = sorted(str(p.relative_to(root)) for p in root.rglob("*.py") if ".savefig(" in p.read_text())
    assert callers == ["report/figures.py"]


def test_figure_png_bytes_equal_the_saved_file(tmp_path: Path) -> None:
    from cardlab.report.figures import figure_png, save_figure
    from cardlab.report.plot import distribution_figure

    fig = distribution_figure(exact_hand_table(Points()))
    saved = save_figure(fig, tmp_path / "points.png")
    data = figure_png(fig)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert saved.read_bytes() == data
