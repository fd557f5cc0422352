"""Ranges in the generic syntax (ProPokerTools' "Generic Syntax Documentation",
propokertools.com/oracle_help/range_of_hands, and its "Weighted Ranges" page): combo counts
against plain loops over every hand written here (itertools, no cardlab matching), against
closed-form counts, and against published Omaha suit-distribution counts; then equity with Omaha
ranges (exact against the average of its hands, simulation within its interval) and the CLI."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from math import comb

import numpy as np
import pytest

from cardlab.cli.main import main
from cardlab.errors import RangeError
from cardlab.poker.equity import equity
from cardlab.poker.generic import all_hands, hand_order, parse_generic
from cardlab.poker.range_listing import list_range
from cardlab.poker.ranges import parse_range

ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8


@pytest.fixture(scope="module")
def omaha_hands() -> list[tuple[tuple[int, ...], Counter[int], Counter[int], frozenset[int]]]:
    """Every 4-card hand by plain itertools: (cards, rank counts, suit counts, card set); a module
    fixture, so that its 270,725 tuples (about 200 MB) are freed when the module's tests end."""
    out = []
    for hand in combinations(range(52), 4):
        out.append((hand, Counter(c // 4 for c in hand), Counter(c % 4 for c in hand), frozenset(hand)))
    return out


def brute(hands, predicate) -> set[frozenset[int]]:
    return {cards for hand, ranks, suits, cards in hands if predicate(hand, ranks, suits)}


def as_sets(hands: np.ndarray) -> set[frozenset[int]]:
    return {frozenset(int(c) for c in h) for h in hands}


def double_suited_aces(hand, ranks, suits) -> bool:
    # AxAyxy: an ace of suit x, an ace of suit y != x, one more card of x and one more of y
    return sorted(suits.values()) == [2, 2] and ranks[ACE] >= 2 and \
        len({c % 4 for c in hand if c // 4 == ACE}) == 2


BRUTE = {
    "AA": lambda h, r, s: r[ACE] >= 2,
    "AAKK": lambda h, r, s: r[ACE] == 2 and r[KING] == 2,
    "RRON": lambda h, r, s: sorted(r.values()) == [1, 1, 2],
    "RROO": lambda h, r, s: sorted(r.values()) == [2, 2],
    "AA:xxyy": lambda h, r, s: r[ACE] >= 2 and sorted(s.values()) == [2, 2],
    "AxAyxy": double_suited_aces,
    "KK!KKK, AA": lambda h, r, s: r[KING] == 2 or r[ACE] >= 2,
    "KK-TT": lambda h, r, s: any(r[k] >= 2 for k in (KING, QUEEN, JACK, TEN)),
    "JT98+": lambda h, r, s: len(r) == 4 and min(r) >= 6 and max(r) - min(r) == 3,
    "AsKs": lambda h, r, s: {51, 47} <= set(h),
    "Axx": lambda h, r, s: any(c // 4 == ACE and sum(1 for d in h if d % 4 == c % 4) >= 2 for c in h),
    "Ax": lambda h, r, s: r[ACE] >= 1,
    "[AK][AK]:xxyy": lambda h, r, s: r[ACE] + r[KING] >= 2 and sorted(s.values()) == [2, 2],
    "AARR": lambda h, r, s: r[ACE] == 2 and sorted(r.values()) == [2, 2],
    "sshh": lambda h, r, s: s[3] == 2 and s[2] == 2,
    "A*!xx": lambda h, r, s: r[ACE] >= 1 and len(s) == 4,
}


@pytest.mark.parametrize("expr", sorted(BRUTE))
def test_omaha_counts_against_plain_loops(expr: str, omaha_hands) -> None:
    got = parse_generic(expr, hole=4)
    expected = brute(omaha_hands, BRUTE[expr])
    assert as_sets(got.hands) == expected
    assert got.combo_count == len(expected)


def test_omaha_closed_form_counts() -> None:
    # at least two aces: C(4,2)C(48,2) + C(4,3)48 + 1
    assert parse_generic("AA", hole=4).combo_count == 6 * comb(48, 2) + 4 * 48 + 1 == 6961
    # one pair and two other ranks: 13 C(4,2) C(12,2) 4^2
    assert parse_generic("RRON", hole=4).combo_count == 13 * 6 * comb(12, 2) * 16 == 82368
    # double-suited aces: a pair of suits, then a non-ace of each
    assert parse_generic("AxAyxy", hole=4).combo_count == 6 * 12 * 12 == 864
    assert parse_generic("*", hole=4).combo_count == comb(52, 4) == 270725
    # exactly two kings, or at least two aces, less the 36 hands with both
    assert parse_generic("KK!KKK, AA", hole=4).combo_count == 6 * comb(48, 2) + 6961 - 36
    assert parse_generic("AA", hole=5).combo_count == comb(52, 5) - comb(48, 5) - 4 * comb(48, 4)
    assert parse_generic("AA", hole=6).combo_count == comb(52, 6) - comb(48, 6) - 4 * comb(48, 5)
    assert parse_generic("xxxyyy", hole=6).combo_count == 6 * comb(13, 3) ** 2


def test_published_omaha_suit_distribution() -> None:
    # poker-base.com, "Omaha Notes" (omaha/information.aspx): double suited 36,504; one suit 2-1-1
    # 158,184; 3-1 44,616; four of a suit 2,860; off suit (rainbow) 28,561; total 270,725.
    counts = {e: parse_generic(e, hole=4).combo_count for e in ("xxyy", "xxyz", "xxxy", "xxxx", "wxyz")}
    assert counts == {"xxyy": 36504, "xxyz": 158184, "xxxy": 44616, "xxxx": 2860, "wxyz": 28561}
    assert sum(counts.values()) == 270725
    # and they partition every hand
    union = np.zeros(270725, bool)
    hands = all_hands(4)
    index = {tuple(h): i for i, h in enumerate(hands.tolist())}
    for e in counts:
        for h in parse_generic(e, hole=4).hands.tolist():
            assert not union[index[tuple(h)]]
            union[index[tuple(h)]] = True
    assert union.all()


def test_holdem_generic_agrees_with_classic() -> None:
    for generic, classic in (("AxKx", "AKs"), ("AxKy", "AKo"), ("AK", "AK"), ("QQ+", "QQ+"), ("RR", "22+"),
                             ("A2-AK", "A2+"), ("JT+", "JT, QJ, KQ, AK"), ("*", "random")):
        g, c = parse_generic(generic, hole=2), parse_range(classic)
        assert as_sets(g.hands) == as_sets(c.combos), (generic, classic)
    assert parse_generic("A*", hole=2).combo_count == comb(52, 2) - comb(48, 2)
    # short deck: cards 6..A only
    assert parse_generic("*", hole=2, lowest_rank=4).combo_count == comb(36, 2)
    assert parse_generic("RR", hole=2, lowest_rank=4).combo_count == 9 * 6
    assert parse_generic("9-", hole=2, lowest_rank=4).combo_count == parse_generic("[6-9]", hole=2,
                                                                                lowest_rank=4).combo_count


def test_weights_and_percentages() -> None:
    r = parse_generic("AA@10, KK@5, AAKK@1", hole=4)
    by_hand = dict(zip(map(frozenset, r.hands.tolist()), r.weights))
    assert r.combo_count == parse_generic("AA, KK", hole=4).combo_count
    aakk = frozenset([51, 50, 47, 46])
    assert by_hand[aakk] == 10  # the largest weight given wins
    with pytest.raises(RangeError, match="weight all or none"):
        parse_generic("AA@10, KK", hole=4)
    with pytest.raises(RangeError, match="1 to 100"):
        parse_generic("AA@0", hole=4)
    # 15%: the first 15% of hand_order; 5%-15% the rest of them
    n = comb(52, 4)
    top = parse_generic("15%", hole=4)
    assert top.combo_count == round(0.15 * n)
    low, mid = parse_generic("5%", hole=4), parse_generic("5%-15%", hole=4)
    assert as_sets(low.hands) | as_sets(mid.hands) == as_sets(top.hands)
    assert not as_sets(low.hands) & as_sets(mid.hands)
    order = hand_order(4)
    assert sorted(order.tolist()) == list(range(n))
    best = all_hands(4)[order[0]]
    assert sorted(c // 4 for c in best) == [KING, KING, ACE, ACE]  # double-suited AAKK on top
    # hold'em percentages: whole classes, as the classic ranges have always done
    assert as_sets(parse_generic("15%", hole=2).hands) == as_sets(parse_range("15%").combos)


@pytest.mark.parametrize("expr, message", [
    ("AK?", "unknown symbol '?'"),
    ("AA!AA", "has no hands"),
    ("AAKKQ", "more than a hand of 4"),
    ("KK-T", "same shape"),
    ("KQ-JT9", "same shape"),
    ("(AA, KK", "unbalanced|ends too early"),
    ("AA,", "ends too early"),
    ("15%6h", "6-handed"),
    ("[AZ]", "unknown symbol 'Z'"),
    ("", "empty"),
])
def test_bad_ranges_name_the_problem(expr: str, message: str) -> None:
    with pytest.raises(RangeError, match=message):
        parse_generic(expr, hole=4)


def test_omaha_range_equity_exact_is_the_average_of_its_hands() -> None:
    board = "2c 7d 9h 3s"
    both = equity(["AsAhKsKh, AdAcKdKc", "QsQhJsJh"], board=board, game="omaha")
    one = equity(["As Ah Ks Kh", "Qs Qh Js Jh"], board=board, game="omaha")
    two = equity(["Ad Ac Kd Kc", "Qs Qh Js Jh"], board=board, game="omaha")
    assert both.exact and both.players[0].combos == 2
    assert both.players[0].equity == pytest.approx((one.players[0].equity + two.players[0].equity) / 2, abs=1e-12)


def test_omaha_range_simulation_within_interval_of_exact() -> None:
    specs, board = ["AAKK", "QQJJ:xxyy"], "2c 7d 9h 3s"
    exact = equity(specs, board=board, game="omaha")
    sim = equity(specs, board=board, game="omaha", trials=200_000, seed=5, workers=1)
    lo, hi = sim.players[0].ci95
    assert exact.exact and not sim.exact
    assert lo <= exact.players[0].equity <= hi
    assert hi - lo < 0.01


def test_holdem_takes_generic_ranges_too() -> None:
    a = equity(["AxKx", "QQ"], board="2c 7d 9h")
    b = equity(["AKs", "QQ"], board="2c 7d 9h")
    assert a.players[0].equity == b.players[0].equity and a.total == b.total


def test_cli_range_json_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["poker", "range", "AA:xxyy", "--game", "omaha", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["combos"] == 864 == len(data["hands"]) and data["game"] == "omaha"
    assert data["range"] == "AA:xxyy" and "AsAhKsKh" in data["hands"]
    assert main(["poker", "range", "AK?", "--game", "omaha"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown symbol '?'" in err
    assert main(["poker", "range", "KK!KK", "--game", "omaha"]) == 2
    assert "has no hands" in capsys.readouterr().err
    assert main(["poker", "equity", "AA", "KK!KKK", "--game", "omaha", "--dead", "As Ah Ad"]) == 2
    assert "leaves no hands" in capsys.readouterr().err


def test_listing_result_object() -> None:
    r = list_range("AA@2, KK@1", game="holdem")
    assert repr(r) == "RangeListing(holdem 'AA@2, KK@1': 12 combos)"
    assert r.to_dict()["weights"][:1] == [2] and json.loads(r.to_json())["combos"] == 12
    assert r.table().splitlines()[0] == "hold'em range 'AA@2, KK@1': 12 combos"
    assert r.to_csv().splitlines()[1] == "AsAh,2"
    assert "<b>" in r._repr_html_()


@pytest.mark.parametrize("hole", [2, 4, 5, 6])
def test_random_is_every_hand_in_every_flop_game(hole: int) -> None:
    # `poker board random --game omaha` was refused as "'random' has 5 cards": the word names
    # every hand as it does in hold'em's ranges, in any combination
    assert parse_generic("random", hole=hole).combo_count == comb(52, hole) == parse_generic("*", hole=hole).combo_count
    assert parse_generic("random!AA", hole=hole).combo_count == comb(52, hole) - parse_generic("AA", hole=hole).combo_count


def test_board_command_takes_random_for_omaha(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["poker", "board", "random", "--game", "omaha", "--board", "Qh9c2d", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["combos"] == comb(49, 4) == 211_876
