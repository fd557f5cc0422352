"""Distribution: totals, tails, exports, and honest confidence intervals."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np

from cardlab.distribution import Distribution, Simulation, format_value, side_by_side
from png_check import png_size


def test_exact_fields() -> None:
    d = Distribution("x", (0, 1, 2, 3), (1, 3, 3, 1))
    assert d.total == 8
    assert d.probability(1) == Fraction(3, 8)
    assert list(d.at_least) == [1.0, 0.875, 0.5, 0.125]
    assert d.mean() == Fraction(3, 2)


def test_json_and_csv() -> None:
    d = Distribution("x", (Fraction(0), Fraction(9, 4), Fraction(9, 2)), (2, 1, 1))
    data = json.loads(json.dumps(d.to_dict()))
    assert data["total"] == 4
    assert data["rows"][1] == {"value": "2.25", "count": 1, "probability": 0.25, "at_least": 0.5}
    assert d.to_csv().splitlines() == [
        "value,count,probability,at_least", "0,2,0.5,1.0", "2.25,1,0.25,0.5", "4.5,1,0.25,0.25"]


def test_format_value() -> None:
    assert format_value(Fraction(3, 4)) == "0.75"
    assert format_value(Fraction(1, 3)) == "1/3"
    assert format_value((Fraction(10), "4-4-3-2")) == "10 × 4-4-3-2"


def test_wilson_interval_known_value() -> None:
    # 50 successes in 100 trials: Wilson 95% interval is 0.4038..0.5962 (standard formula)
    d = Distribution("x", (0, 1), (50, 50), simulation=Simulation(100, 1))
    lo, hi = d.confidence_interval()
    assert np.allclose(lo, [0.40383, 0.40383], atol=1e-5)
    assert np.allclose(hi, [0.59617, 0.59617], atol=1e-5)


def test_interval_of_zero_count_starts_at_zero() -> None:
    d = Distribution("x", (0, 1), (0, 1000), simulation=Simulation(1000, 1))
    lo, hi = d.confidence_interval()
    assert lo[0] == 0.0 and 0.003 < hi[0] < 0.004 and hi[1] == 1.0


def test_side_by_side_flags_rows_outside() -> None:
    exact = Distribution("x", (0, 1), (1, 1))
    sim = Distribution("x", (0, 1), (600, 400), simulation=Simulation(1000, 1))
    rows = side_by_side(exact, sim)
    assert [r["within"] for r in rows] == [False, False]
    assert rows[0]["simulated_count"] == 600


def test_pandas_export() -> None:
    frame = Distribution("x", (0, 1), (1, 3)).to_pandas()
    assert list(frame["count"]) == [1, 3]


def test_table_and_plot_methods(tmp_path) -> None:
    from cardlab.bridge.features import LongestSuit, Points
    from cardlab.bridge.features import Joint
    from cardlab.dealing import Deck, Draw
    from cardlab.engine import exact

    d = exact(Draw(Deck.standard(), 13), Points())
    assert "total 635,013,559,600 (exact)" in d.table()
    # The figures' contents are checked in tests/test_plots.py; here the methods save them.
    assert png_size(d.plot(tmp_path / "a.png")) == (1557, 528)  # 14.16 x 4.8 inches (38 bars) at 110 dpi
    joint = exact(Draw(Deck.standard(), 13), Joint(Points(), LongestSuit()))
    assert png_size(joint.plot(tmp_path / "b.png")) == (660, 1056)  # 6 x (0.2 x 38 rows + 2) inches at 110 dpi
