"""Equity: golden AA-vs-KK counts, exact results against brute force (treys and a short-deck
evaluator written in tests/equity_brute.py), hi-lo by hand, ranges with weights and card
removal, and simulation against exact within its interval, seeded alike for any workers."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb

import numpy as np
import pytest

from cardlab.cards import parse_card_ids
from cardlab.errors import DeckError, HandError, RangeError, TooLargeError
from cardlab.poker.equity import UNIT, equity
from cardlab.poker.ranges import class_index

from equity_brute import brute_equity
from png_check import png_size


def ids(text: str) -> list[int]:
    return parse_card_ids(text) if text else []


def check_against_brute(holes: list[str], board: str, dead: str = "", game: str = "holdem",
                        hi_lo: bool = False) -> None:
    got = equity(holes, board=board, dead=dead, game=game, hi_lo=hi_lo)
    total, wins, ties, shares = brute_equity([ids(h) for h in holes], ids(board), ids(dead), game, hi_lo)
    assert got.exact and got.total == total
    assert [p.wins for p in got.players] == wins
    assert [p.ties for p in got.players] == ties
    for p, share in zip(got.players, shares):
        assert p.equity == pytest.approx(float(share / total), abs=1e-12)


def test_aa_vs_kk_all_suit_combinations() -> None:
    # Golden figures (PokerStove gives AA 81.946% against KK), derived below: 36 matchups x 1,712,304 boards.
    r = equity(["AA", "KK"])
    assert r.total == 61_642_944
    aa, kk = r.players
    assert (aa.wins, kk.wins, aa.ties) == (50_371_344, 10_986_372, 285_228)
    assert aa.wins + kk.wins + aa.ties == r.total
    assert round(aa.equity * 100, 3) == 81.946
    # Derived by suit symmetry and eval7: of the 6 x 6 suit pairs, the kings share no suit with
    # the aces in 6, one suit in 24 and both suits in 6; each kind is one matchup counted by eval7.
    kinds = [(6, "Kd Kc"), (24, "Ks Kd"), (6, "Ks Kh")]
    counts = [tuple(times * c for c in _eval7_counts("As Ah", kings)) for times, kings in kinds]
    wins, losses, ties = (sum(column) for column in zip(*counts))
    assert (aa.wins, kk.wins, aa.ties) == (wins, losses, ties)


@lru_cache(maxsize=None)
def _eval7_counts(hero: str, villain: str) -> tuple[int, int, int]:
    """(hero wins, villain wins, ties) over every board, each hand valued by eval7 (a peer)."""
    eval7 = pytest.importorskip("eval7")
    a, b = [eval7.Card(c) for c in hero.split()], [eval7.Card(c) for c in villain.split()]
    rest = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs" if r + s not in hero.split() + villain.split()]
    evaluate, wins, losses, ties = eval7.evaluate, 0, 0, 0
    for board in combinations(rest, 5):
        x, y = evaluate([*board, *a]), evaluate([*board, *b])
        wins, losses, ties = wins + (x > y), losses + (x < y), ties + (x == y)
    return wins, losses, ties


def test_aces_against_kings_with_no_suit_shared() -> None:
    r = equity(["AsAh", "KdKc"])
    assert r.total == comb(48, 5) == 1_712_304
    # Source of the counts: every one of the C(48, 5) boards valued by eval7 (a few seconds).
    wins, losses, ties = _eval7_counts("As Ah", "Kd Kc")
    assert (wins, losses, ties) == (1_388_072, 317_694, 6_538)
    assert [p.wins for p in r.players] == [wins, losses]
    assert r.players[0].ties == r.players[1].ties == ties
    assert r.players[0].equity == pytest.approx((wins + ties / 2) / r.total, abs=1e-12)


@pytest.mark.parametrize("holes, board, dead", [
    (["AsAh", "KdKc"], "2c 7d 9h", ""),
    (["Ah Kh", "Qs Qd"], "Jh Th 2c 4s", ""),
    (["7c 6c", "As Kd", "9h 9d"], "8c 5d Kc", ""),
    (["2c 2d", "3h 3s", "Ac Kc", "Td Jd"], "4c 5c 6h 9s", ""),
    # preflop on a small deck: 30 dead cards leave 18, so C(18, 5) = 8,568 boards
    (["Ah Kd", "Qc Qs"], "", "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s 9c 9d"),
])
def test_holdem_matches_brute_force(holes, board, dead) -> None:
    check_against_brute(holes, board, dead)


@pytest.mark.parametrize("holes, board, dead, game", [
    (["As Ah Kd Qc", "Js Ts 9h 8h"], "2c 7d 9s", "", "omaha"),
    (["As Ks Qh Jh", "Ac Kc 7d 7s", "9c 9d 8c 8d"], "Ts 9h 2c 3s", "", "omaha"),
    (["As Ks Qh Jh 2c", "Ac Kc 7d 7s 6d"], "Ts 9h 5c", "", "omaha5"),
    (["As Ks Qh Jh 2c 3d", "Ac Kc 7d 7s 6d 5h"], "Ts 9h 5c 4c", "", "omaha6"),
    # preflop on a small deck: 30 dead cards and 8 hole cards leave 14, so C(14, 5) = 2,002 boards
    (["As Ah Kd Qc", "Js Ts Jh Th"], "",
     "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s 9c 9d", "omaha"),
])
def test_omaha_matches_brute_force(holes, board, dead, game) -> None:
    check_against_brute(holes, board, dead, game)


@pytest.mark.parametrize("holes, board, dead", [
    (["As Kd", "Qc Qs"], "Ts 9h 6c", ""),
    (["Ah 9h", "Td 8d", "7c 7s"], "6h Jh Qc As", ""),
    # A-6-7-8-9 straights, and flushes above full houses, decide here
    (["Ah 9h", "Kd Kc"], "6h 7h 8c", ""),
    (["Ah Kh", "7c 7s"], "", "6c 6d 6h 6s 8c 8d 8h 8s 9c 9d 9h 9s Tc Td Th Ts Jc Jd"),
])
def test_short_deck_matches_brute_force(holes, board, dead) -> None:
    check_against_brute(holes, board, dead, "shortdeck")


@pytest.mark.parametrize("holes, board", [
    (["As 2s Kd Qd", "Ah 3h Jc Jd"], "4c 5d 9s"),
    (["As 2s 3d Qd", "Ah 2h 3c Jd", "Kc Kd 8h 7s"], "4c 5d 9s Ks"),
])
def test_omaha_hi_lo_matches_brute_force(holes, board) -> None:
    check_against_brute(holes, board, game="omaha", hi_lo=True)


def test_holdem_hi_lo_matches_brute_force() -> None:
    check_against_brute(["As 2s", "Ah 3h", "Kc Kd"], "4c 5d 8s", hi_lo=True)


def test_omaha_hi_lo_by_hand() -> None:
    # Board 2c 3d 4h Ks Kd. P1 As 5c Kc 9h: kings full (Kc + 9h? no: K K K needs Kc and one more hole card,
    # Kc 9h + Ks Kd 4h = K K K 9 4, trips) and the wheel A-2-3-4-5 low; P2 Ah 5s 8c 9d: the same wheel low,
    # high 5-4-3-2-A straight; P1's A-5 also makes that straight, with Kc-9h it has trip kings only.
    # Straight (P1 with A-5, P2 with A-5) ties high; both have the wheel low: each gets half of both halves.
    r = equity(["As 5c Kc 9h", "Ah 5s 8c 9d"], board="2c 3d 4h Ks Kd", game="omaha", hi_lo=True)
    assert r.total == 1
    assert [p.equity for p in r.players] == [0.5, 0.5]
    # Quartered: P1 and P2 split the low, P1 alone has the high (trip kings beat P2's ...).
    r = equity(["As 2h Kc Qh", "Ah 2s 9c 9d"], board="3c 4d 8h Ks Kd", game="omaha", hi_lo=True)
    # P1 high: Kc Qh + Ks Kd 8h = trip kings; P2 high: 9c 9d + Ks Kd 8h = kings and nines
    # low: both A-2 + 3-4-8 = 8-4-3-2-A, split; so P1 has 1/2 + 1/4, P2 1/4
    assert [p.equity for p in r.players] == [0.75, 0.25]
    assert [p.wins for p in r.players] == [0, 0] and [p.ties for p in r.players] == [1, 1]
    # no low on the board (only two low cards): the high hand scoops
    r = equity(["As 2h Kc Qh", "Ah 2s 9c 9d"], board="3c Jd Th Ks Kd", game="omaha", hi_lo=True)
    assert [p.equity for p in r.players] == [1.0, 0.0] and r.players[0].wins == 1


def test_multiway_nine_players_on_the_turn() -> None:
    hands = ["As Ks", "Qd Qc", "Jh Th", "9s 9c", "8d 7d", "6c 6h", "5s 4s", "3d 3c", "2h 2d"]
    check_against_brute(hands, "Ah 9d 5c 2s")


def test_range_is_the_weighted_mean_of_its_combos() -> None:
    # Card removal: the board's Kh and the hero's As take out KK and AA combos; weights renormalise.
    hero, board = "As Qs", "Kh 7d 2c"
    r = equity([hero, "0.5(AA), KK, AKs:0.25"], board=board)
    combos = {"AA": [("Ah Ad", .5), ("Ah Ac", .5), ("Ad Ac", .5)],
              "KK": [("Ks Kd", 1), ("Ks Kc", 1), ("Kd Kc", 1)],
              "AKs": [("Ad Kd", .25), ("Ac Kc", .25)]}  # AsKs and AhKh use a known card
    num = den = Fraction(0)
    for items in combos.values():
        for villain, w in items:
            total, _, _, shares = brute_equity([ids(hero), ids(villain)], ids(board), [])
            num += Fraction(w) * shares[0] / total
            den += Fraction(w)
    assert r.players[0].equity == pytest.approx(float(num / den), abs=1e-12)
    assert r.total == pytest.approx(float(den) * 990)
    assert r.players[1].combos == 8
    # the grid: hero's equity against each class of the range
    assert r.grid is not None and r.grid[class_index("QQ")] is None
    assert r.grid[class_index("KK")] == pytest.approx(float(
        sum(Fraction(brute_equity([ids(hero), ids(v)], ids(board), [])[3][0], 990) for v, _ in combos["KK"]) / 3))


def test_three_way_ranges_exact_and_simulated() -> None:
    specs = ["AKs", "QQ+", "JTs, 99"]
    board = "Qh 9c 2d"
    exact = equity(specs, board=board)
    sim = equity(specs, board=board, trials=300_000, seed=3, workers=1)
    for e, s in zip(exact.players, sim.players):
        lo, hi = s.ci95
        assert lo <= e.equity <= hi
    # the same seed gives the same numbers with two worker processes
    sim2 = equity(specs, board=board, trials=300_000, seed=3, workers=2)
    assert sim2.to_dict() == sim.to_dict()


def test_simulated_heads_up_preflop_within_interval() -> None:
    sim = equity(["AsAh", "KdKc"], trials=400_000, seed=11)
    lo, hi = sim.players[0].ci95
    exact = 1_388_072 / 1_712_304 + 6_538 / 2 / 1_712_304
    # within 3.29 standard errors (99.9%): one fixed seed misses a 95% interval one time in
    # twenty (seed 11 of the current stream lands 2.56 standard errors out; seeds 1-20 average
    # -0.23, unbiased); a bias of 0.2% or more still fails here
    assert abs(sim.players[0].equity - exact) <= 3.29 * (hi - lo) / 2 / 1.96
    assert sim.total == 400_000 and not sim.exact


def test_simulated_omaha_hi_lo_and_short_deck_within_interval() -> None:
    for specs, game, board, hi_lo in ((["As 2s Kd Qd", "Ah 3h Jc Jd"], "omaha", "4c 5d 9s", True),
                                      (["Ah 9h", "Kd Kc"], "shortdeck", "6h 7h 8c", False)):
        exact = equity(specs, board=board, game=game, hi_lo=hi_lo)
        sim = equity(specs, board=board, game=game, hi_lo=hi_lo, trials=100_000, seed=5)
        # four checks at once: within four standard errors (a 95% interval each would fail
        # about one seed in five; 20 seeds of each gave mean z -0.05 and -0.56)
        for e, s in zip(exact.players, sim.players):
            assert abs(s.equity - e.equity) <= (s.ci95[1] - s.ci95[0]) / 2 * 4 / 1.96


def test_equities_add_up_to_one() -> None:
    r = equity(["AKo", "random", "22"], board="Ah 7s 3d 3c")
    assert sum(p.equity for p in r.players) == pytest.approx(1.0)
    assert sum(p.wins for p in r.players) + max(p.ties for p in r.players) <= r.total


@pytest.mark.parametrize("specs, kwargs, error, words", [
    (["AsAh", "AsKd"], {}, DeckError, "As is given twice"),
    (["AsAh", "KdKc"], {"board": "Ks 2c 3c 4c 5c 6c"}, HandError, "has 6"),
    (["AsAh", "KdKc"], {"board": "Kd 2c 3c"}, DeckError, "Kd is given twice"),
    (["AsAh", "AA"], {"board": "Ad Ac 2c"}, RangeError, "leaves no hands"),
    (["As Ah Kd", "Js Ts 9h 8h"], {"game": "omaha"}, HandError, "has 3"),
    (["As Ah Kd Qc"] * 7, {"game": "omaha"}, HandError, "at most 6 players"),
    (["AsAh", "AK#"], {}, RangeError, "'AK#'"),
    (["As2h", "KdKc"], {"game": "shortdeck"}, HandError, "not in the short deck"),
])
def test_bad_input_names_the_problem(specs, kwargs, error, words) -> None:
    with pytest.raises(error, match=words):
        equity(specs, **kwargs)


def test_three_ranges_preflop_answered_exactly() -> None:
    """About 2.2 billion showdowns by plain enumeration (once refused as too large): exact, and
    agreeing with a seeded simulation within its interval; the same on one thread and two."""
    specs = ["TT+,AQs+,AQo+", "QQ+,AK", "TT"]
    exact = equity(specs, workers=2)
    assert exact.exact and sum(p.equity for p in exact.players) == pytest.approx(1.0, abs=1e-12)
    sim = equity(specs, trials=400_000, seed=2)
    for e, s in zip(exact.players, sim.players):  # within four standard errors
        assert abs(s.equity - e.equity) <= (s.ci95[1] - s.ci95[0]) / 2 * 4 / 1.96
    assert [p.wins for p in exact.players] == [3_213_892_992, 4_637_673_516, 2_923_177_728]
    one = equity(specs, workers=1)
    assert [p.wins for p in one.players] == [p.wins for p in exact.players]
    assert [p.ties for p in one.players] == [p.ties for p in exact.players]


def test_too_large_names_the_simulate_command() -> None:
    with pytest.raises(TooLargeError, match="--simulate 10000000"):
        equity(["random", "random", "random"])


def test_interrupted_simulation_returns_partial(monkeypatch) -> None:
    import cardlab.engine as module  # the chunk runner every simulation goes through

    real = module.iter_chunks

    def interrupted(*args, **kwargs):
        for n, item in enumerate(real(*args, **kwargs)):
            if n == 2:
                raise KeyboardInterrupt
            yield item

    monkeypatch.setattr(module, "iter_chunks", interrupted)
    r = equity(["AsAh", "KdKc"], trials=1_000_000, seed=1, chunk=10_000)
    assert r.simulation is not None and r.simulation.interrupted
    assert r.total == 20_000


def test_result_outputs() -> None:
    r = equity(["AsAh", "KdKc"], board="2c 7d 9h")
    data = r.to_dict()
    assert set(data) == {"total", "exact", "players"}
    assert set(data["players"][0]) == {"spec", "win", "tie", "equity", "wins", "ties", "ci95"}
    assert r.to_csv().splitlines()[1].startswith("AsAh,")
    assert "907" in r.table() and "AsAh" in r._repr_html_()
    assert repr(r) == "EquityResult(holdem exact: AsAh 91.62%, KdKc 8.38%)"
    frame = r.to_pandas()
    assert list(frame["wins"]) == [907, 83]
    assert UNIT % (2 * 9) == 0


def test_plot(tmp_path) -> None:
    r = equity(["AsKs", "QQ+, AK, 0.5(JJ)"], board="Kh 7d 2c")
    path = r.plot(tmp_path / "eq.png")
    assert png_size(path) == (1320, 600)  # contents checked in tests/test_plots.py


def test_fast_paths_agree_with_the_evaluator() -> None:
    """The numpy oracles (tests/numpy_holdem.py, tests/numpy_omaha.py) against the evaluator."""
    from cardlab.poker.evaluator import strengths
    from cardlab.poker.rules import SHORT_DECK, STANDARD
    from numpy_holdem import BoardData, holdem_strengths
    from numpy_omaha import omaha_lows, omaha_players

    rng = np.random.default_rng(8)
    for rules, low in ((STANDARD, 0), (SHORT_DECK, 16)):
        deck = np.arange(low, 52)
        rows = np.array([rng.choice(deck, 7, replace=False) for _ in range(20_000)], dtype=np.uint8)
        data = BoardData.of(rows[:, 2:])
        assert np.array_equal(holdem_strengths(data, rows[:, :2], rules), strengths(rows, rules))
    cards = np.array([rng.choice(52, 13, replace=False) for _ in range(5_000)], dtype=np.uint8)
    boards = cards[:, :5]
    fixed = np.array([[51, 47, 30, 26], [12, 8, 7, 3]], dtype=np.uint8)  # As Ks Th 8h / 5c 4c 3s 2s
    keep = ~np.isin(boards, fixed).any(axis=1)
    b = boards[keep]
    general = omaha_players(np.broadcast_to(fixed, (len(b), 2, 4)).copy(), b)
    assert all(np.array_equal(x, y) for x, y in zip(omaha_players(fixed, b), general))
    assert np.array_equal(omaha_lows(fixed[1], b), omaha_lows(np.tile(fixed[1], (len(b), 1)), b))


def _oracle_units(game: str, holes: np.ndarray, board: np.ndarray, hi_lo: bool) -> list[int]:
    """Share units of one river showdown by the numpy oracles."""
    from cardlab.poker.rules import SHORT_DECK, STANDARD
    from numpy_holdem import BoardData, holdem_strengths
    from numpy_omaha import NO_LOW, holdem_lows, omaha_lows, omaha_players

    rules = SHORT_DECK if game == "shortdeck" else STANDARD
    b = board[None, :]
    if game.startswith("omaha"):
        high = [int(v[0]) for v in omaha_players(holes, b, rules)]
        low = [int(omaha_lows(h, b)[0]) for h in holes]
    else:
        high = [int(holdem_strengths(BoardData.of(b), h, rules)[0]) for h in holes]
        low = [int(holdem_lows(np.concatenate([h, board])[None, :])[0]) for h in holes]
    top = [v == max(high) for v in high]
    best = min(low)
    if not hi_lo or best >= NO_LOW:
        return [UNIT // sum(top) if t else 0 for t in top]
    lows = [v == best for v in low]
    return [(UNIT // 2 // sum(top) if t else 0) + (UNIT // 2 // sum(lows) if w else 0) for t, w in zip(top, lows)]


@pytest.mark.parametrize("game, hole, hi_lo", [
    ("holdem", 2, False), ("holdem", 2, True), ("shortdeck", 2, False),
    ("omaha", 4, False), ("omaha", 4, True), ("omaha5", 5, True), ("omaha6", 6, True),
])
def test_compiled_showdown_against_the_numpy_oracles(game: str, hole: int, hi_lo: bool) -> None:
    """Random river showdowns of 2 to 6 players: the kernel's share units against the oracles'."""
    from cardlab.poker.equity import GAMES, _exact_tally

    g = GAMES[game]
    rng = np.random.default_rng(hole * 10 + hi_lo)
    deck = np.array(g.deck())
    for _ in range(300):
        p = int(rng.integers(2, 7))
        cards = rng.choice(deck, 5 + p * hole, replace=False).astype(np.uint8)
        board, holes = cards[:5], cards[5:].reshape(p, hole)
        acc, per_deal = _exact_tally(g, holes[None], board.tolist(), [], hi_lo)
        assert per_deal == 1
        assert acc[0, :, 2].tolist() == _oracle_units(game, holes, board, hi_lo)


@pytest.mark.parametrize("game, hole, hi_lo, known", [
    ("holdem", 2, False, 3), ("holdem", 2, True, 3), ("shortdeck", 2, False, 3),
    ("omaha", 4, False, 4), ("omaha", 4, True, 3), ("omaha5", 5, True, 4), ("omaha6", 6, False, 4),
])
def test_rank_class_counting_against_the_numpy_oracles(game: str, hole: int, hi_lo: bool, known: int) -> None:
    """Flop and turn spots: the kernel counts boards by rank classes plus the flush boards; the
    oracles value every completion one by one."""
    from itertools import combinations as subsets

    from cardlab.poker.equity import GAMES, _exact_tally

    g = GAMES[game]
    rng = np.random.default_rng(hole * 100 + hi_lo * 10 + known)
    deck = np.array(g.deck())
    for _ in range(3 if known == 3 else 10):
        p = int(rng.integers(2, 5))
        cards = rng.choice(deck, known + p * hole, replace=False).astype(np.uint8)
        board, holes = cards[:known], cards[known:].reshape(p, hole)
        acc, per_deal = _exact_tally(g, holes[None], board.tolist(), [], hi_lo)
        left = [c for c in g.deck() if c not in set(cards.tolist())]
        total = np.zeros(p, dtype=np.int64)
        count = 0
        for rest in subsets(left, 5 - known):
            total += _oracle_units(game, holes, np.concatenate([board, np.array(rest, dtype=np.uint8)]), hi_lo)
            count += 1
        assert per_deal == count
        assert acc[0, :, 2].tolist() == total.tolist()


def test_simulated_boards_avoid_the_range_players_cards() -> None:
    """On the turn, simulated against exact within four standard errors: a board card taken
    from a range player's hand (or a biased river) would move this by many."""
    for specs in (["AsAh", "KdKc"], ["AsAh", "KK, QQ"], ["8h 7h", "AK, 99"]):
        exact = equity(specs, board="Kh 9h 2c 5d")
        sim = equity(specs, board="Kh 9h 2c 5d", trials=1_000_000, seed=4, workers=2)
        for e, s in zip(exact.players, sim.players):
            half = (s.ci95[1] - s.ci95[0]) / 2
            assert abs(s.equity - e.equity) <= max(half * 4 / 1.96, 1e-9)
        assert sim.to_dict() == equity(specs, board="Kh 9h 2c 5d", trials=1_000_000, seed=4,
                                       workers=3).to_dict()


WALK_CASES = [
    (["AKs", "QQ+,AKo", "JTs,99"], "Qh9c2d", "", "holdem"),
    (["AKs", "QQ+,AKo", "JTs,99"], "Qh9c2d7h", "", "holdem"),
    (["AKs", "QQ+,AKo", "JTs,99"], "Qh9c2d7h4s", "", "holdem"),
    (["AA,KK,AKs", "TT-88,KQs,JTs"], "Ah Th 2h", "", "holdem"),
    (["22+,A2s+", "KQo,QJs,T9s", "AJo+,KTs+"], "5s6s7d", "2c", "holdem"),
    (["AhKh", "QQ", "JTs", "T9s,87s"], "9h8h2c", "", "holdem"),
    (["AhKh", "QQ", "JTs", "T9s,87s"], "9h8h2c3h", "Kc", "holdem"),
    (["0.5(AKs) AKo", "QQ+:0.3, JJ"], "Kh9h2h", "", "holdem"),
    (["AsAh", "KdKc"], "", "", "holdem"),
    (["AKs,QQ", "TT+"], "Ah9h6c", "", "shortdeck"),
    (["As Ah Kd Qc", "Js Ts 9h 8h", "7c 7d 6h 5s"], "Qh9c2d", "", "omaha"),
]


@pytest.mark.parametrize("specs, board, dead, game", WALK_CASES)
@pytest.mark.parametrize("hi_lo", [False, True])
def test_walked_deals_equal_the_listed_ones(specs, board, dead, game, hi_lo) -> None:
    """The whole enumeration in C (deals walked there, per-combo rank-class values for hold'em on
    the flop and turn) against the deals listed in Python, folded by suit symmetry and counted
    one by one by the older kernel (the oracle)."""
    from cardlab.poker import equity as E
    if hi_lo and game == "shortdeck":
        return
    g = E.game_named(game)
    b, d = ids(board), ids(dead)
    players = E.parse_players(specs, g, b, d)
    walked = E._exact(g, players, b, d, hi_lo, E.MAX_EVALUATIONS, 1, route="walk")
    listed = E._exact(g, players, b, d, hi_lo, E.MAX_EVALUATIONS, 1, route="deals")
    assert walked.total == pytest.approx(listed.total, rel=1e-12)
    for x, y in zip(walked.players, listed.players):
        assert type(x.wins) is type(y.wins)
        assert x.wins == pytest.approx(y.wins, rel=1e-12) and x.ties == pytest.approx(y.ties, rel=1e-12)
        assert x.equity == pytest.approx(y.equity, abs=1e-12)
        assert x.win == pytest.approx(y.win, abs=1e-12) and x.tie == pytest.approx(y.tie, abs=1e-12)
    assert (walked.grid is None) == (listed.grid is None)
    for u, v in zip(walked.grid or (), listed.grid or ()):
        assert (u is None) == (v is None)
        assert u is None or u == pytest.approx(v, abs=1e-12)


def test_walked_deals_on_random_ranges() -> None:
    """Random ranges of 2 to 4 players on random flops and turns: the walk equals the listed deals."""
    from cardlab.poker import equity as E
    from cardlab.poker.ranges import class_label
    rng = np.random.default_rng(27)
    g = E.game_named("holdem")
    for _ in range(12):
        board = [int(c) for c in rng.choice(52, int(rng.choice([3, 4])), replace=False)]
        specs = [",".join(class_label(int(c)) for c in rng.choice(169, int(rng.integers(1, 4)), replace=False))
                 for _ in range(int(rng.integers(2, 5)))]
        try:
            players = E.parse_players(specs, g, board, [])
            listed = E._exact(g, players, board, [], False, E.MAX_EVALUATIONS, 1, route="deals")
        except RangeError:
            continue
        walked = E._exact(g, players, board, [], False, E.MAX_EVALUATIONS, 1, route="walk")
        assert walked.total == listed.total
        for x, y in zip(walked.players, listed.players):
            assert (x.wins, x.ties) == (y.wins, y.ties)
            assert x.equity == pytest.approx(y.equity, abs=1e-12)


@pytest.mark.parametrize("specs, board", [
    (["AsAh", "KdKc"], "2c 7d 9h"),                  # the same hands every trial
    (["QQ+,AKs", "JJ,TT,99,AQs"], "Kh 9h 2c"),       # listed deals, each with its own pool
    (["QQ+,AKs", "JJ,TT,99,AQs"], ""),
    (["0.5(AKs) AKo", "QQ+:0.3, JJ"], "Kh 9h 2h"),   # unequal weights: deals drawn by weight
])
def test_blocked_simulation_is_unbiased_and_the_same_on_any_threads(specs, board) -> None:
    """The heads-up simulation (boards drawn in one generator word, trials in blocks): within its
    interval of the exact equity, and the same figures for 1, 2 and 3 threads."""
    sims = [equity(specs, board=board, trials=300_000, seed=9, workers=w, chunk=50_000) for w in (1, 2, 3)]
    assert sims[0].to_dict()["players"] == sims[1].to_dict()["players"] == sims[2].to_dict()["players"]
    assert sims[0].grid == sims[1].grid == sims[2].grid
    if board:
        exact = equity(specs, board=board)
        for s, e in zip(sims[0].players, exact.players):
            low, high = s.ci95  # 95%: a 3-sigma band (1.5 half-widths) keeps the test from failing 1 run in 20
            assert abs(s.equity - e.equity) <= 1.5 * (high - low) / 2
            assert 0 < high - low < 0.01
