"""Issue 30: the 169-class equity matrix, the heads-up push/fold equilibrium and its chart.

The published chart compared is HoldemResources.net's heads-up push/fold Nash chart (no ante;
"Using the Nash Charts", holdemresources.net/h/poker-theory/hune/usage.html, which gives T3s 7.7
and the BB's Q2o 5.6, and 63s pushed between 5.1 and 7.1 BB and below 2.3), as reproduced in full
for the pusher and in part for the caller on diateforno1987.netlify.app/nash-chart-poker. A value
there is the largest effective stack (0.1 BB steps) at which a hand is played; "20+" is any stack
up to 20 and beyond.
"""

from __future__ import annotations

import json
import math
import time
from fractions import Fraction

import numpy as np
import pytest

from cardlab.poker.equity import UNIT, equity
from cardlab.poker.preflop import BOARDS, class_labels, class_matrix
from cardlab.poker.pushfold import chart, push_fold_game, pushfold, solve
from cardlab.poker.ranges import class_index

LABELS = class_labels()
RANKS = "AKQJT98765432"

#: The pusher chart, row by row as printed (row r, column c: suited above the diagonal).
PUBLISHED_PUSH = """
20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+
20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 19.9 19.3
20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 16.3 13.5 12.7
20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 18.6 14.7 13.5 10.6 8.5
20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 11.9 10.5 7.7 6.5
20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 14.4 6.9 4.9 3.7
20+ 18.0 13.0 13.3 17.5 20+ 20+ 20+ 20+ 18.8 10.1 2.7 2.5
20+ 16.1 10.3 8.5 9.0 10.8 14.7 20+ 20+ 20+ 13.9 2.5 2.1
20+ 15.1 9.6 6.5 5.7 5.2 7.0 10.7 20+ 20+ 16.3 * 2.0
20+ 14.2 8.9 6.0 4.1 3.5 3.0 2.6 2.4 20+ 20+ * 2.0
20+ 13.1 7.9 5.4 3.8 2.7 2.3 2.1 2.0 2.1 20+ * 1.8
20+ 12.2 7.5 5.0 3.4 2.5 1.9 1.8 1.7 1.8 1.6 20+ 1.7
20+ 11.6 7.0 4.6 2.9 2.2 1.8 1.6 1.5 1.5 1.4 1.4 20+
"""
#: The caller chart's first seven rows (the part reproduced), same layout.
PUBLISHED_CALL = """
20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+ 20+
20+ 20+ 20+ 20+ 20+ 20+ 17.6 15.2 14.3 13.2 12.1 11.4 10.7
20+ 20+ 20+ 20+ 20+ 16.1 13.0 10.5 9.9 8.9 8.4 7.8 7.2
20+ 20+ 19.5 20+ 18.0 13.4 10.6 8.8 7.0 6.9 6.1 5.8 5.6
20+ 20+ 15.3 12.7 20+ 11.5 9.3 7.4 6.3 5.2 5.2 4.8 4.5
20+ 17.1 11.7 9.5 8.4 20+ 8.2 7.0 5.8 5.0 4.3 4.1 3.9
20+ 13.8 9.7 7.6 6.6 6.0 20+ 6.5 5.6 4.8 4.1 3.6 3.5
"""


def _published(text: str) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for row, line in enumerate(text.strip().splitlines()):
        for col, cell in enumerate(line.split()):
            label = LABELS[row * 13 + col]
            out[label] = math.inf if cell == "20+" else None if cell == "*" else float(cell)
    return out


@pytest.fixture(scope="module")
def default_chart() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return chart()


# --- the class matrix -------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), [("AA", "KK"), ("AKs", "AA"), ("72o", "AKo"), ("T9s", "T9s"),
                                      ("22", "AKo"), ("K5o", "Q8s"), ("JJ", "J7o")])
def test_matrix_sample_recomputed(a: str, b: str) -> None:
    """A sample of entries recomputed by the exact equity of the two ranges (every combo pair
    that shares no card, every board): the same share units and the same number of pairs."""
    m = class_matrix()
    i, j = class_index(a), class_index(b)
    r = equity([a, b])
    pairs = r.total // BOARDS
    assert pairs == m.pairs[i, j]
    assert r.players[0].equity == pytest.approx(m.equity(i, j), abs=1e-13)
    assert round(r.players[0].equity * UNIT * r.total) == m.units[i, j]
    assert round(r.players[0].ties) == m.ties[i, j]


def test_matrix_is_consistent() -> None:
    """Seats swapped: the equities add up to one and the pair counts agree; 1,624,350 ordered
    combo pairs in all (1,326 x 1,225); the golden AA vs KK counts."""
    m = class_matrix()
    assert int(m.pairs.sum()) == 1326 * 1225
    assert np.array_equal(m.pairs, m.pairs.T) and np.array_equal(m.ties, m.ties.T)
    total = m.pairs * BOARDS * UNIT
    assert np.array_equal(m.units + m.units.T, total)
    aa, kk = class_index("AA"), class_index("KK")
    # AA vs KK over the 36 suit combinations (README: 50,371,344 / 10,986,372 / 285,228 boards)
    assert m.wins()[aa, kk] == 50_371_344 and m.wins()[kk, aa] == 10_986_372 and m.ties[aa, kk] == 285_228


# --- the equilibrium --------------------------------------------------------------------------


def _values(stack: float, push: np.ndarray, call: np.ndarray) -> tuple[float, float]:
    """The small blind's and big blind's chip EV per hand, summed over every combo pair directly
    from the class matrix (written here independently of the solver)."""
    m = class_matrix()
    e = m.equities()
    n = m.pairs.astype(float)
    steal, fold = 1.0, -0.5
    showdown = stack * (2 * e - 1)
    per = (1 - push)[:, None] * fold + push[:, None] * ((1 - call)[None, :] * steal + call[None, :] * showdown)
    ev = float((n * per).sum() / n.sum())
    return ev, -ev


@pytest.mark.parametrize("stack", [1.5, 3.0, 6.0, 10.0, 15.0, 20.0])
def test_no_pure_change_gains(stack: float) -> None:
    """The equilibrium is one: switching any single hand of either player to the other pure
    action gains nothing (the big blind's EV is minus the small blind's in chips)."""
    r = pushfold(stack, chart_range=None)
    push, call = np.array(r.push), np.array(r.call)
    sb, bb = _values(stack, push, call)
    assert sb == pytest.approx(r.ev_sb, abs=1e-12) and bb == pytest.approx(r.ev_bb, abs=1e-12)
    assert r.exact and r.exploitability == 0.0
    for h in range(169):
        for action in (0.0, 1.0):
            p = push.copy()
            p[h] = action
            assert _values(stack, p, call)[0] <= sb + 1e-12, (stack, LABELS[h], action)
            c = call.copy()
            c[h] = action
            assert _values(stack, push, c)[1] <= bb + 1e-12, (stack, LABELS[h], action)


def test_exploitability_is_exactly_zero_and_mixing_is_exact() -> None:
    r = pushfold(10.0, chart_range=None)
    assert r.exact and r.exploitability == 0.0
    # at most one hand of each player mixes, and its frequency is strictly between 0 and 1
    mixed = r.mixed()
    assert len(mixed["push"]) <= 1 and len(mixed["call"]) <= 1
    # a strategy that pushes one more hand than the equilibrium is exploitable: a positive gap
    game = push_fold_game(10.0)
    s, c = solve(game)
    worst = next(h for h in range(169) if s[h] == 0)
    s[worst] = 1.0
    base, m_sb, m_bb = game.float_parts()
    assert (base + m_sb @ c)[worst] < 0


def test_ranges_at_ten_big_blinds() -> None:
    """Published 10 BB push range (the same chart in list form, super-turbo-poker-tips.com
    "Heads-Up Push-Fold Table"): 22+, A2+, K2+, Q7o+, Q2s+, J8o+, J3s+, T8o+, T4s+, 97o+, 95s+,
    87o, 84s+, 76o, 74s+, 64s+, 53s+, 43s: 67% of hands."""
    r = pushfold(10.0, chart_range=None)
    pushed = set(r.pushes())
    for hand in ["22", "A2o", "K2o", "Q7o", "Q2s", "J8o", "J3s", "T8o", "T4s", "97o", "95s", "87o", "84s",
                 "76o", "74s", "64s", "53s", "43s"]:
        assert hand in pushed, hand
    for hand in ["Q6o", "J7o", "J2s", "T7o", "T3s", "96o", "94s", "86o", "83s", "75o", "73s", "63s", "52s",
                 "42s", "65o", "32s"]:
        assert hand not in pushed, hand
    assert f"{r.push_share:.0%}" == "67%"


def test_published_pusher_chart(default_chart: tuple[np.ndarray, ...]) -> None:
    """Every hand of the published pusher chart: ours floored to its 0.1 BB precision equals
    the printed value ("20+": we push at every stack up to 20). Differences are listed with the
    exact equities behind them (none today; a new one fails here with the numbers)."""
    grid, push, call, solved = default_chart
    assert solved.all()
    published = _published(PUBLISHED_PUSH)
    differences = []
    for label, value in published.items():
        h = class_index(label)
        pushes = grid[push[:, h] > 0]
        if value is None:
            continue  # the three hands with gaps, checked below
        if math.isinf(value):
            ok = bool(np.all(push[grid <= 20.0 + 1e-9, h] > 0))
        else:
            ours = float(pushes.max()) if len(pushes) else 0.0
            ok = math.floor(ours * 10 + 1e-6) / 10 == value
        if not ok:
            differences.append((label, value, float(pushes.max()) if len(pushes) else 0.0))
    assert not differences, differences


def test_published_gaps(default_chart: tuple[np.ndarray, ...]) -> None:
    """63s is pushed from 5.1 to 7.1 BB and below 2.3 BB, and not in between (the published note)."""
    grid, push, _, _ = default_chart
    h = class_index("63s")

    def at(x: float) -> bool:
        return bool(push[int(round((x - 1) / 0.05)), h] > 0)

    assert at(7.1) and not at(7.2) and at(5.1) and at(6.0) and not at(5.0) and not at(3.0)
    assert at(2.2) and not at(2.4)


def test_published_caller_chart(default_chart: tuple[np.ndarray, ...]) -> None:
    """The reproduced rows of the caller chart, to its printed precision, and the BB's Q2o 5.6."""
    grid, _, call, _ = default_chart
    published = _published(PUBLISHED_CALL)
    published["Q2o"] = 5.6
    differences = []
    for label, value in published.items():
        assert value is not None
        h = class_index(label)
        calls = grid[call[:, h] > 0]
        if math.isinf(value):
            ok = bool(np.all(call[grid <= 20.0 + 1e-9, h] > 0))
        else:
            ok = math.floor(float(calls.max()) * 10 + 1e-6) / 10 == value
        if not ok:
            differences.append((label, value, float(calls.max())))
    assert not differences, differences


def test_chart_speed_and_json() -> None:
    started = time.perf_counter()
    r = pushfold(8.0)
    elapsed = time.perf_counter() - started
    assert elapsed < 10  # the benchmark holds the chart to 2 s on an idle machine
    data = json.loads(r.to_json())
    assert data["stack"] == 8.0 and data["ante"] == 0.0 and data["exploitability"] == 0.0
    assert data["chart"]["push"]["AA"] == "inf" and data["chart"]["push"]["T3s"] == pytest.approx(7.7, abs=0.1)
    assert "72o" not in data["push"] and "AA" in data["call"]
    assert set(data["ev"]) >= {"sb", "bb"}
    assert repr(r).startswith("PushFoldResult(8 BB: push")
    assert "<table>" in r._repr_html_() and len(r.to_pandas()) == 169


def test_ante_widens_the_ranges() -> None:
    plain = pushfold(10.0, chart_range=None)
    ante = pushfold(10.0, ante=0.125, chart_range=None)
    assert ante.exact and ante.push_share > plain.push_share and ante.call_share > plain.call_share


def test_icm_three_players_is_tighter() -> None:
    """With three players and a 50/30/20 payout, the hand is valued by ICM: busting costs more
    than doubling up gains, so both ranges are tighter than in chips; no pure change gains."""
    chips = pushfold(10.0, chart_range=None)
    icm = pushfold(10.0, payouts=[50, 30, 20], players=3, chart_range=None)
    assert icm.push_share < chips.push_share and icm.call_share < chips.call_share
    assert icm.exact and icm.exploitability == 0.0
    # heads-up with payouts, ICM is linear in chips: the same ranges as chip EV
    hu = pushfold(10.0, payouts=[70, 30], players=2, chart_range=None)
    assert hu.pushes() == chips.pushes() and hu.calls() == chips.calls()


def test_plot(tmp_path) -> None:
    from cardlab.report.pushfold_plot import pushfold_figure

    r = pushfold(10.0, chart_range=(1.0, 5.0, 0.5))
    fig = pushfold_figure(r)
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "AA" in texts and "5+" in texts and len(fig.axes) == 2
    path = r.plot(tmp_path / "chart.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_exact_fraction_of_a_mixed_hand() -> None:
    """The mixed probability is an exact fraction solving the opponent's indifference."""
    from cardlab.poker.pushfold import _exact_check

    game = push_fold_game(10.0)
    s, c = solve(game)
    gain, _, _, exact_s, exact_c = _exact_check(game, s, c)
    assert gain == 0
    for p in [*exact_s.values(), *exact_c.values()]:
        assert isinstance(p, Fraction) and 0 < p < 1
