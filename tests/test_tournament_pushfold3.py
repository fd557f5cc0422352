"""Issue 30: three-handed push/fold (the button, the small blind, the big blind).

The three-way all-in table is checked against its definition (weights by brute force over the
combos, a chunk recomputed from its seed) and against the exact equity of three classes (within
the sampling interval); the equilibrium by evaluating every player's EV over the whole game tree,
written here apart from the solver's contractions, for pure changes of strategy.
"""

from __future__ import annotations

import json
import math
from itertools import product

import numpy as np
import pytest

from cardlab.errors import TournamentError
from cardlab.poker.equity import equity
from cardlab.poker.preflop import BOARDS, all_combos, class_matrix
from cardlab.poker.pushfold3 import (NODES, OWNER, THREE_WAY, TRIPLE_CHUNK, _margins, _ordered, _Tables, _values,
                                     compute_triples, pushfold3, sorted_triples, three_way_probabilities,
                                     triple_table, utilities)
from cardlab.poker.ranges import class_index, combo_classes


def _combos_of(label: str) -> list[tuple[int, int]]:
    combos = all_combos()
    h = class_index(label)
    return [tuple(int(c) for c in pair) for pair, cls in zip(combos, combo_classes(combos)) if cls == h]


# --- the three-way table ----------------------------------------------------------------------


@pytest.mark.parametrize("hands", [("AA", "AA", "KK"), ("AKo", "QQ", "JTs"), ("72o", "72o", "72o"),
                                   ("AKs", "AQs", "AJs"), ("22", "A2s", "32o")])
def test_triple_weights_by_brute_force(hands: tuple[str, str, str]) -> None:
    """A weight is the number of combo triples, one of each class, sharing no card."""
    count = sum(1 for a, b, c in product(*(_combos_of(h) for h in hands)) if len({*a, *b, *c}) == 6)
    assert three_way_probabilities(*hands)[0] == count


def test_triple_weights_total_and_symmetry() -> None:
    """Over every ordered class triple the weights count every deal of three hands once:
    1,326 x 1,225 x 1,128; AA-AA-AA cannot be dealt."""
    w, q = _ordered()
    assert int(w.sum()) == 1326 * 1225 * 1128
    assert w[0, 0, 0] == 0
    i, j, k = class_index("AKo"), class_index("T9s"), class_index("55")
    assert w[i, j, k] == w[k, i, j] == w[j, k, i]
    # seats permuted, the probabilities follow their seats
    a = np.array(three_way_probabilities("AKo", "T9s", "55")[1])
    b = np.array(three_way_probabilities("55", "AKo", "T9s")[1])
    assert np.allclose(a[[0, 1, 2]], b[[1, 2, 0]])
    assert np.allclose(q.sum(axis=1)[w.reshape(-1) > 0], 1, atol=1e-5)


def test_shipped_table_recomputes() -> None:
    """The first chunk of the shipped table, recomputed from its seed, is the same to the count."""
    weights, counts, samples = triple_table()
    tri = sorted_triples()[:TRIPLE_CHUNK]
    w, c = compute_triples(samples, triples=tri, workers=1)
    assert np.array_equal(w, weights[:TRIPLE_CHUNK]) and np.array_equal(c, counts[:TRIPLE_CHUNK])
    assert len(weights) == 818_805 == math.comb(169 + 2, 3)


@pytest.mark.parametrize("hands", [("AKo", "QQ", "JTs"), ("AA", "KK", "QQ"), ("A5s", "KQo", "88"),
                                   ("72o", "AKs", "T9s"), ("JJ", "JTs", "A2o")])
def test_three_way_within_sampling_interval(hands: tuple[str, str, str]) -> None:
    """The table's equity of each seat (alone, plus half the two-way splits, plus a third of the
    three-way) against the exact equity of the three classes over every combo triple and board
    (cardlab.poker.equity): within 4.5 standard errors of the sampling."""
    _, probs = three_way_probabilities(*hands)
    _, _, samples = triple_table()
    exact = equity(list(hands))
    for seat in range(3):
        share = np.array([1 / len(o) if seat in o else 0.0 for o in THREE_WAY])
        estimate = float(np.dot(probs, share))
        sd = math.sqrt(max(float(np.dot(probs, share ** 2)) - estimate ** 2, 1e-4) / samples)
        assert abs(estimate - exact.players[seat].equity) < 4.5 * sd, (hands, seat, estimate)


# --- the game ---------------------------------------------------------------------------------


def test_payoffs_conserve_chips_and_prizes() -> None:
    """Chip EV: every ending moves chips, none is made or lost; ICM: every ending shares the pool."""
    for stack, ante in ((10, 0), (3.5, 0.25)):
        for name, u in utilities(stack, ante).items():
            assert abs(u.sum()) < 1e-12, name
        for name, u in utilities(stack, ante, [50, 30, 20]).items():
            assert abs(u.sum() - 100) < 1e-9, name


def test_bad_input() -> None:
    with pytest.raises(TournamentError, match="stack"):
        pushfold3(0)
    with pytest.raises(TournamentError, match="payouts|prize|places"):
        pushfold3(10, payouts=[50, 30, 10, 10])
    with pytest.raises(TournamentError, match="iterations"):
        pushfold3(10, iterations=0)


def _tree_values(stack: float, payouts: list[int] | None, x: np.ndarray) -> np.ndarray:
    """Every player's EV per hand, summed over every ending of the game tree and every class
    triple with its weight, written apart from the solver (its own showdown equities from the
    class matrix, its own sums)."""
    u = utilities(stack, 0, payouts)
    w, q = _ordered()
    m = class_matrix()
    n = m.pairs * BOARDS
    win, tie = m.wins() / n, m.ties / n
    lose = 1 - win - tie
    p, sp, sc, c1, c2, c3 = x
    f = 1 - x
    out = np.zeros(3)
    q3 = q.reshape(169, 169, 169, 7).astype(np.float64)
    for player in range(3):
        def hu(name: str) -> np.ndarray:
            r: np.ndarray = win * u[f"{name}_win"][player] + tie * u[f"{name}_split"][player] + lose * u[f"{name}_lose"][player]
            return r

        three = q3 @ np.array([u[f"three_{k}"][player] for k in range(7)])
        total = np.einsum("ijk,i,j->", w, f[0], f[1]) * u["fold_fold"][player]
        total += np.einsum("ijk,i,j,k->", w, f[0], sp, f[3]) * u["fold_push_fold"][player]
        total += np.einsum("ijk,i,j,k,jk->", w, f[0], sp, c1, hu("sb_bb"))
        total += np.einsum("ijk,i,j,k->", w, p, f[2], f[4]) * u["push_fold_fold"][player]
        total += np.einsum("ijk,i,j,k,ik->", w, p, f[2], c2, hu("btn_bb"))
        total += np.einsum("ijk,i,j,k,ij->", w, p, sc, f[5], hu("btn_sb"))
        total += np.einsum("ijk,i,j,k,ijk->", w, p, sc, c3, three)
        out[player] = total / w.sum()
    return out


@pytest.mark.slow
@pytest.mark.parametrize("stack, payouts", [(5.0, [50, 30, 20]), (15.0, [65, 35]), (10.0, None)])
def test_no_pure_change_gains_more_than_reported(stack: float, payouts: list[int] | None) -> None:
    """The EVs reported are the game tree's; for every node, the pure change of the one class
    whose switch the solver's margins rank best, and one more class at random: the gain,
    evaluated over the whole tree, is what the margins say, and no more than the player's
    reported best-response gain, nor the exploitability."""
    r = pushfold3(stack, payouts=payouts, iterations=120)
    x = np.array(r.strategy)
    base = _tree_values(stack, payouts, x)
    assert np.allclose(base, r.ev, atol=1e-9)
    # the three-way probabilities are stored in single precision (each sums to 1 within 1e-7)
    assert (abs(base.sum() - 100) < 1e-5) if payouts else (abs(base.sum()) < 1e-6)
    assert r.exploitability == pytest.approx(sum(r.gains)) and r.exploitability < 0.01
    margins = _margins(_Tables(utilities(stack, 0, payouts)), x)
    total = 1326 * 1225 * 1128
    rng = np.random.default_rng(int(stack * 10))
    for node, owner in enumerate(OWNER):
        gain_by_margin = (1 - x[node]) * np.maximum(margins[node], 0) + x[node] * np.maximum(-margins[node], 0)
        for h in [int(np.argmax(gain_by_margin)), int(rng.integers(169))]:
            for action in (0.0, 1.0):
                y = x.copy()
                y[node, h] = action
                gain = _tree_values(stack, payouts, y)[owner] - base[owner]
                assert gain == pytest.approx((action - x[node, h]) * margins[node, h] / total, abs=1e-9), (NODES[node], h)
                assert gain <= r.gains[owner] + 1e-9 and gain <= r.exploitability + 1e-9


@pytest.mark.slow
def test_ten_big_blinds_icm() -> None:
    """At 10 BB each with 50/30/20: the values share the pool; the big blind overcalls only a few
    pairs; folded to, the small blind's push and the big blind's call are close to the heads-up
    game with the button folded (pushfold(players=3), the same payoffs without the button's
    cards removed): within three points of the combos."""
    from cardlab.poker.pushfold import pushfold

    r = pushfold3(10, payouts=[50, 30, 20])
    assert sum(r.ev) == pytest.approx(100, abs=1e-5)
    assert r.exploitability < 1e-3
    assert set(r.hands("bb_overcall")) <= {"AA", "KK", "QQ", "JJ", "AKs", "AKo", "TT"}
    assert {"AA", "KK"} <= set(r.hands("bb_overcall"))
    hu = pushfold(10, payouts=[50, 30, 20], players=3, chart_range=None)
    assert abs(r.share("sb_push") - hu.push_share) < 0.03 and abs(r.share("bb_call_sb") - hu.call_share) < 0.03
    assert r.share("btn_push") < r.share("sb_push")  # two players behind the button, one behind the small blind
    data = json.loads(r.to_json())
    assert data["players"] == 3 and set(data["ranges"]) == set(NODES) and data["exact"] is False
    assert "three-handed" in r.table() and len(r.to_pandas()) == 169 and "<table>" in r._repr_html_()


@pytest.mark.slow
def test_cli_three_handed(run) -> None:
    """``--players 3`` prints the six ranges and the exploitability; JSON as documented."""
    status, out, _ = run("poker", "pushfold", "--stack", "8", "--players", "3", "--payouts", "50,30,20",
                         "--iterations", "20", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["players"] == 3 and data["iterations"] == 20 and data["exploitability"] > 0
    assert set(data["strategy"]) == set(NODES) and len(data["strategy"]["btn_push"]) == 169
    assert data["ev"]["units"] == "prize money" and sum(data["ev"][k] for k in ("button", "sb", "bb")) == pytest.approx(100)
