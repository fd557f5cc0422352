"""Notebook-grade results: short reprs, HTML reprs, pandas with intervals and axes, named intervals."""

from __future__ import annotations

import html5lib
import numpy as np
import pytest

from cardlab.bridge.tables import joint_table, points_table, shape_table
from cardlab.dealing import Deck, Draw
from cardlab.bridge.features import Points
from cardlab.distribution import Interval, wilson
from cardlab.engine import simulate
from cardlab.report.plot import MAX_BARS, distribution_figure
from png_check import png_size


def _valid_html(fragment: str) -> None:
    html5lib.HTMLParser(strict=True).parseFragment(fragment)


def test_distribution_repr_is_short_and_html_is_valid() -> None:
    table = points_table()
    assert repr(table.main) == "<Distribution 'hcp': 38 values, total 635,013,559,600 (exact)>"
    assert len(repr(table)) < 120
    _valid_html(table.main._repr_html_())
    _valid_html(table._repr_html_())


def test_long_table_html_is_cut_with_a_pointer_to_pandas() -> None:
    text = shape_table("suits").main._repr_html_()
    assert "500 more rows" in text and text.count("<tr>") == 61 + 1  # header row + 60 + the note


def test_pandas_has_one_column_per_axis_and_the_intervals() -> None:
    exact_frame = joint_table("longest").to_pandas()
    assert list(exact_frame.columns[:2]) == ["hcp", "longest suit"]
    assert exact_frame["count"].sum() == 635013559600
    both = joint_table("longest", trials=20_000, seed=3).to_pandas()
    assert {"simulated_count", "ci95_low", "ci95_high", "within"} <= set(both.columns)
    assert both["simulated_count"].sum() == 20_000
    sim = simulate(Draw(Deck.standard(), 13), Points(), trials=10_000, seed=1).to_pandas()
    assert (sim["ci95_low"] <= sim["probability"]).all() and (sim["probability"] <= sim["ci95_high"]).all()


def test_intervals_are_named() -> None:
    interval = wilson(50, 100)
    assert isinstance(interval, Interval) and interval.low == pytest.approx(0.40383, abs=1e-5)
    assert interval.high == pytest.approx(0.59617, abs=1e-5)  # Wilson 95%, 50 of 100
    sim = simulate(Draw(Deck.standard(), 13), Points(), trials=1000, seed=1)
    ci = sim.confidence_interval()
    assert ci.low.shape == ci.high.shape == (38,)
    assert wilson(0, 10).low == 0.0 and wilson(10, 10).high == 1.0


@pytest.mark.parametrize("make", [
    lambda: 11,
    lambda: np.random.SeedSequence(11),
    lambda: np.random.default_rng(5),
])
def test_seed_takes_an_int_a_seedsequence_or_a_generator(make) -> None:
    draw = Draw(Deck.standard(), 13)
    first = simulate(draw, Points(), trials=3000, seed=make(), chunk=1000)
    again = simulate(draw, Points(), trials=3000, seed=make(), chunk=1000)
    assert first.counts == again.counts and first.total == 3000
    # the reported seed repeats the run
    assert simulate(draw, Points(), trials=3000, seed=first.simulation.seed, chunk=1000).counts == first.counts


def test_a_seedsequence_equals_its_int() -> None:
    draw = Draw(Deck.standard(), 13)
    assert (simulate(draw, Points(), trials=2000, seed=np.random.SeedSequence(4)).counts
            == simulate(draw, Points(), trials=2000, seed=4).counts)


def test_side_by_side_csv_and_json_agree() -> None:
    table = points_table(trials=5000, seed=2, workers=1)
    data = table.to_dict()
    lines = table.to_csv().splitlines()
    assert len(lines) == len(data["rows"]) + 1
    assert data["simulation"]["trials"] == 5000
    assert sum(r["simulated_count"] for r in data["rows"]) == 5000


def test_plots_of_long_tables_and_long_titles(tmp_path) -> None:
    from cardlab.report import plot

    table = shape_table("suits")
    path = table.plot(tmp_path / "suits.png")
    (ax,) = distribution_figure(table.main).axes  # what the picture holds: the 60 most frequent
    assert len(ax.patches) == MAX_BARS and f"of {len(table.main.values)} values" in ax.get_title()
    assert png_size(path)[0] == 18 * 110  # the widest figure, 18 inches at 110 dpi
    assert plot._wrap("x " * 200, 8).count("\n") >= 3  # a long title is wrapped, not clipped


def _draw_sum(seed, n):
    return int(np.random.default_rng(seed).integers(0, 10, n).sum())


def test_stopping_early_with_workers_never_hangs() -> None:
    """A generator that stops reading (a dealer script with enough deals) closes the worker
    processes at once. multiprocessing.Pool.terminate deadlocked here about one time in seven;
    the engine's own pool kills its workers instead (30 runs, each must end)."""
    import itertools
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import itertools, numpy as np
        from cardlab.engine import iter_chunks
        def task(seed, n):  # a big result, as a chunk of deals is: it fills the pipes
            return np.random.default_rng(seed).integers(0, 4, (n, 52), dtype=np.int8)
        for run in range(30):
            chunks = iter_chunks(task, itertools.repeat(20000), np.random.SeedSequence(run), workers=2)
            first = [part for _, part in itertools.islice(chunks, 3)]
            chunks.close()
        print("done")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "done", out.stderr
    # and the chunks still come back in order, with their own seeds, whatever the workers
    one = [p for _, p in itertools.islice(
        __import__("cardlab.engine", fromlist=["iter_chunks"]).iter_chunks(
            _draw_sum, itertools.repeat(500), np.random.SeedSequence(9), workers=1), 6)]
    two = [p for _, p in itertools.islice(
        __import__("cardlab.engine", fromlist=["iter_chunks"]).iter_chunks(
            _draw_sum, itertools.repeat(500), np.random.SeedSequence(9), workers=2), 6)]
    assert one == two
