"""Stud, stud hi-lo, razz, A-5 and 2-7 lowball, badugi (cardlab.poker.games, csrc/poker_games.c).

Every table is checked against a published figure (cited beside it) and a closed form; the
compiled values against plain-loop evaluators written here (best five of k by trying every
five, badugi by trying every subset); exact equities against plain enumeration of every deal on
reduced decks (dead cards), and simulations against the exact figures within their intervals.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb

import numpy as np
import pytest

from cardlab._native import core as _core
from cardlab.cli.main import main
from cardlab.errors import CardlabError, DeckError, HandError, TooLargeError
from cardlab.poker.evaluator import strengths, tables
from cardlab.poker.games import (A5_CATEGORIES, BADUGI_CATEGORIES, DEUCE_CATEGORIES, EIGHT_CATEGORIES, GAMES,
                                 compare_hands, completion_odds, game_equity, game_odds, game_values)
from cardlab.poker.lowball import LOW_CATEGORIES
from cardlab.poker.rules import STANDARD

# --- plain-loop evaluators (keys: larger is better) ----------------------------------------------

LOW_NAMES = ["5_high", "6_high", "7_high", "8_high", "9_high", "10_high", "jack_high", "queen_high", "king_high"]


def low_rank(c: int) -> int:
    return (c // 4 + 1) % 13  # ace 0 .. king 12


def grouped(ranks: list[int]) -> tuple[int, tuple[int, ...]]:
    """(pattern, ranks by count then rank, highest first) of five ranks; pattern 0 no pair .. 5 quads."""
    count = Counter(ranks)
    shape = sorted(count.values(), reverse=True)
    pattern = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5}[tuple(shape)]
    order = tuple(sorted(count, key=lambda r: (-count[r], -r)))
    return pattern, order


def a5_key(cards: list[int]) -> tuple[int, tuple[int, ...]]:
    """Ace-to-five badness of the best five (smaller is better), every five tried."""
    return a5_of_ranks(tuple(sorted(low_rank(c) for c in cards)))


@lru_cache(maxsize=None)
def a5_of_ranks(ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """a5_key of a hand with these low ranks (suits play no part): every five tried."""
    return min(grouped(list(five)) for five in combinations(ranks, 5))


def a5_category(cards: list[int], razz: bool) -> str:
    pattern, order = a5_key(cards)
    if pattern:
        return "paired" if razz else A5_CATEGORIES[5 - pattern]
    return LOW_NAMES[order[0] - 4]


def eight_key(cards: list[int]) -> tuple[int, ...] | None:
    ranks = sorted({low_rank(c) for c in cards if low_rank(c) <= 7})
    return tuple(sorted(ranks[:5], reverse=True)) if len(ranks) >= 5 else None


def deuce_key(cards: list[int]) -> tuple[int, tuple[int, ...]]:
    """Deuce-to-seven badness of five cards (smaller better): aces high, no wheel."""
    ranks = [c // 4 for c in cards]
    flush = len({c % 4 for c in cards}) == 1
    pattern, order = grouped(ranks)
    straight = pattern == 0 and order[0] - order[4] == 4
    category = {0: 0, 1: 1, 2: 2, 3: 3, 4: 6, 5: 7}[pattern]
    if straight and flush:
        category = 8
    elif flush and category < 5:
        category = 5
    elif straight:
        category = 4
    return category, order


def deuce_category(cards: list[int]) -> str:
    category, order = deuce_key(cards)
    made = {8: "straight_flush", 7: "four_of_a_kind", 6: "full_house", 5: "flush", 4: "straight",
            3: "three_of_a_kind", 2: "two_pair", 1: "one_pair"}
    if category:
        return made[category]
    return ["7_high", "8_high", "9_high", "10_high", "jack_high", "queen_high", "king_high",
            "ace_high"][order[0] - 5]


def badugi_key(cards: list[int]) -> tuple[int, tuple[int, ...]]:
    """(cards in the best badugi, minus its ranks highest first): larger is better."""
    best: tuple[int, tuple[int, ...]] = (0, ())
    for size in range(1, 5):
        for part in combinations(cards, size):
            if len({low_rank(c) for c in part}) == size and len({c % 4 for c in part}) == size:
                key = (size, tuple(-r for r in sorted((low_rank(c) for c in part), reverse=True)))
                best = max(best, key)
    return best


def badugi_category(cards: list[int]) -> str:
    size, ranks = badugi_key(cards)
    if size < 4:
        return f"{size}_card"
    return ["4_high", "5_high", "6_high", "7_high", "8_high", "9_high", "10_high", "jack_high", "queen_high",
            "king_high"][-ranks[0] - 3]


# --- published tables ---------------------------------------------------------------------------


def counts(game: str, cards: int | None = None) -> dict[str, int]:
    t = game_odds(game, cards).exact
    return {name: t.count(name) for name in t.values}


def test_a5_five_card_table_published() -> None:
    # Wikipedia, "Poker probability", "Frequency of 5-card lowball poker hands" (ace-to-five):
    # 5-high 1,024; 6-high 5,120; 7-high 15,360; 8-high 35,840; 9-high 71,680; 10-high 129,024;
    # jack-high 215,040; queen-high 337,920; king-high 506,880 (total 1,317,888). The paired rows are
    # the 5-card poker table's (straights and flushes do not count in ace-to-five): one pair
    # 1,098,240; two pair 123,552; three of a kind 54,912; full house 3,744; four of a kind 624.
    got = counts("a5")
    published = {"5_high": 1024, "6_high": 5120, "7_high": 15360, "8_high": 35840, "9_high": 71680,
                 "10_high": 129024, "jack_high": 215040, "queen_high": 337920, "king_high": 506880,
                 "one_pair": 1098240, "two_pair": 123552, "three_of_a_kind": 54912, "full_house": 3744,
                 "four_of_a_kind": 624}
    assert got == published
    assert sum(published[n] for n in LOW_NAMES) == 1317888 and sum(got.values()) == comb(52, 5)
    for top, name in enumerate(LOW_NAMES, start=4):  # closed form: the top card and four lower ranks
        assert got[name] == comb(top, 4) * 4 ** 5


def test_razz_seven_card_table_published_by_the_compiled_route() -> None:
    # Wikipedia, "Poker probability", "Frequency of 7-card lowball poker hands": 5-high 781,824 ..
    # king-high 13,939,200 (the nine rows; test_poker_lowball checks the numpy route)
    got = counts("razz", 7)
    published = [781824, 3151360, 7426560, 13171200, 19174400, 23675904, 24837120, 21457920, 13939200]
    assert [got[n] for n in LOW_NAMES] == published
    assert got["paired"] == comb(52, 7) - 127615488


def test_stud8_qualifying_low_frequency() -> None:
    # An 8-or-better low in seven cards: the 5- to 8-high rows of Wikipedia's 7-card lowball table,
    # 781,824 + 3,151,360 + 7,426,560 + 13,171,200 = 24,530,944, "18.3%" cumulative there.
    got = counts("stud8")
    assert got["5_high"] == 781824 and got["6_high"] == 3151360 and got["7_high"] == 7426560
    assert got["8_high"] == 13171200
    assert got["no_low"] == comb(52, 7) - 24530944
    assert round(24530944 / comb(52, 7), 3) == 0.183


def test_deuce_to_seven_table() -> None:
    # Wikipedia, "Poker probability", "Frequency of 5-card poker hands": straight flush 40 (royal
    # included), four of a kind 624, full house 3,744, flush 5,108, straight 10,200, three of a kind
    # 54,912, two pair 123,552, one pair 1,098,240, no pair 1,302,540. In deuce-to-seven the ace is
    # only high, so the wheel A-2-3-4-5 is no straight: its 4 straight flushes become flushes and its
    # 1,020 straights become no pair (as Wikipedia notes for lowball).
    got = counts("27")
    assert got["straight_flush"] == 40 - 4
    assert got["four_of_a_kind"] == 624 and got["full_house"] == 3744
    assert got["flush"] == 5108 + 4 and got["straight"] == 10200 - 1020
    assert got["three_of_a_kind"] == 54912 and got["two_pair"] == 123552 and got["one_pair"] == 1098240
    no_pair = ["7_high", "8_high", "9_high", "10_high", "jack_high", "queen_high", "king_high", "ace_high"]
    assert sum(got[n] for n in no_pair) == 1302540 + 1020
    for top, name in enumerate(no_pair, start=5):  # top card (two 0 .. ace 12), four lower ranks but not
        assert got[name] == (comb(top, 4) - 1) * (4 ** 5 - 4)  # the straight it tops; no flush
    assert got["7_high"] == 4080  # 7-5-4-3-2 .. 7-6-5-4-2: four rank sets, 1,020 suitings each


def test_badugi_table() -> None:
    # 17,160 four-card badugis: (52 * 36 * 22 * 10) / 4! (degen.club, "Rare hand of quads plus badugi",
    # 2019), also C(13, 4) * 4! (poker.stackexchange.com question 9790, "Badugi absolute strength").
    got = counts("badugi")
    four = ["4_high", "5_high", "6_high", "7_high", "8_high", "9_high", "10_high", "jack_high", "queen_high",
            "king_high"]
    assert sum(got[n] for n in four) == 17160 == comb(13, 4) * 24
    for top, name in enumerate(four, start=3):  # top card (ace 0) and three lower ranks, four suits in order
        assert got[name] == comb(top, 3) * 24
    assert got["1_card"] == 4 * comb(13, 4) + 13  # one suit, or one rank
    assert sum(got.values()) == comb(52, 4)


def test_stud_table_is_the_seven_card_high_table() -> None:
    t = game_odds("stud").exact
    assert t.total == comb(52, 7) and t.count("four_of_a_kind") == 224848  # Wikipedia's 7-card table


def test_razz_starting_hand_table_published() -> None:
    # Mike Caro (1976), Doyle Brunson's Super/System (1978) Table XLVI, "Chance of improvement for
    # various seven-card low (razz) hands" (poker1.com): the final low of a three-card start, in %.
    published = {"A23": (7.15, 11.80, 14.30, 15.02), "A2K": (1.25, 3.40, 6.07, 8.91),
                 "AQK": (0.12, 0.48, 1.21, 2.42)}
    for hand, row in published.items():
        t = completion_odds(hand).exact
        got = tuple(round(float(100 * t.probability(n)), 2) for n in ("5_high", "6_high", "7_high", "8_high"))
        assert got == row, hand
        assert t.total == comb(49, 4)


# --- the compiled values against the plain loops --------------------------------------------------


def random_hands(k: int, n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), k) for _ in range(n)]


def lowish_hands(k: int, n: int, seed: int) -> list[list[int]]:
    """Hands from the low cards (ace to 8) mostly, so pairs, lows and badugis are common."""
    rng = random.Random(seed)
    low = [c for c in range(52) if low_rank(c) <= 7]
    return [rng.sample(low if rng.random() < 0.7 else list(range(52)), k) for _ in range(n)]


def same_order(values: np.ndarray, keys: list) -> None:  # type: ignore[type-arg]
    for i in range(len(keys) - 1):
        assert (values[i] > values[i + 1]) == (keys[i] > keys[i + 1]), i
        assert (values[i] == values[i + 1]) == (keys[i] == keys[i + 1]), i


@pytest.mark.parametrize("k", [5, 6, 7])
def test_razz_and_a5_values(k: int) -> None:
    hands = random_hands(k, 1500, k) + lowish_hands(k, 1500, k + 10)
    arr = np.array(hands, dtype=np.uint8)
    for game, razz in (("razz", True), ("a5", False)):
        if game == "a5" and k != 5:
            continue
        values, cats = game_values(arr, game)
        same_order(values, [tuple(-x for x in (a5_key(h)[0],) + a5_key(h)[1]) for h in hands])
        assert [GAMES[game].categories[c] for c in cats] == [a5_category(h, razz) for h in hands]


def test_stud8_low_values() -> None:
    hands = lowish_hands(7, 3000, 3)
    values, cats = game_values(np.array(hands, dtype=np.uint8), "stud8")
    keys = [eight_key(h) for h in hands]
    for v, c, key in zip(values, cats, keys):
        assert (v == 0) == (key is None) and (c == 0) == (key is None)
        if key is not None:
            assert EIGHT_CATEGORIES[c] == LOW_NAMES[key[0] - 4]
    ordered = [(v, tuple(-x for x in key)) for v, key in zip(values, keys) if key is not None]
    same_order(np.array([v for v, _ in ordered]), [k for _, k in ordered])


def test_deuce_values() -> None:
    rng = random.Random(5)
    hands = random_hands(5, 2000, 6)
    for _ in range(500):  # straights and flushes, the wheel among them
        suit, top = rng.randrange(4), rng.randrange(3, 13)
        ranks = [12, 0, 1, 2, 3] if top == 3 else list(range(top - 4, top + 1))
        hands.append([r * 4 + (suit if rng.random() < 0.5 else rng.randrange(4)) for r in ranks])
    values, cats = game_values(np.array(hands, dtype=np.uint8), "27")
    same_order(values, [tuple(-x for x in (deuce_key(h)[0],) + deuce_key(h)[1]) for h in hands])
    assert [DEUCE_CATEGORIES[c] for c in cats] == [deuce_category(h) for h in hands]


def test_badugi_values() -> None:
    hands = random_hands(4, 3000, 8) + lowish_hands(4, 1000, 9)
    values, cats = game_values(np.array(hands, dtype=np.uint8), "badugi")
    same_order(values, [badugi_key(h) for h in hands])
    assert [BADUGI_CATEGORIES[c] for c in cats] == [badugi_category(h) for h in hands]


def test_stud_values_are_the_high_evaluator() -> None:
    arr = np.array(random_hands(7, 3000, 11), dtype=np.uint8)
    values, _ = game_values(arr, "stud")
    assert np.array_equal(values.astype(np.int64), strengths(arr).astype(np.int64))


@pytest.mark.parametrize("game,k", [("27", 5), ("badugi", 4), ("razz", 7), ("a5", 5), ("stud8", 6)])
def test_category_counts_on_a_reduced_deck(game: str, k: int) -> None:
    """The kernel's own enumeration of every hand of a 16-card deck, against the plain loop."""
    rng = random.Random(game)
    deck = sorted(rng.sample(range(52), 16))
    got = np.zeros(16, dtype=np.int64)
    _core.games_count(GAMES[game].code, tables(STANDARD), bytes(deck), k, got)
    plain: Counter[str] = Counter()
    for hand in combinations(deck, k):
        h = list(hand)
        if game == "27":
            plain[deuce_category(h)] += 1
        elif game == "badugi":
            plain[badugi_category(h)] += 1
        elif game == "stud8":
            key = eight_key(h)
            plain["no_low" if key is None else LOW_NAMES[key[0] - 4]] += 1
        else:
            plain[a5_category(h, game == "razz")] += 1
    names = GAMES[game].categories
    assert {names[i]: int(x) for i, x in enumerate(got[:len(names)]) if x} == dict(plain)


# --- equity ---------------------------------------------------------------------------------------


def plain_equity(game: str, hands: list[list[int]], dead: list[int]) -> list[Fraction]:
    """Every deal of the unseen cards to the players' missing places, each pot split in a plain loop."""
    deck = [c for c in range(52) if c not in set(dead) | {c for h in hands for c in h}]
    need = [7 - len(h) for h in hands]
    deals: list[list[list[int]]] = []

    def deal(p: int, left: list[int], done: list[list[int]]) -> None:
        if p == len(hands):
            deals.append(done)
            return
        for part in combinations(left, need[p]):
            rest = [c for c in left if c not in part]
            deal(p + 1, rest, done + [hands[p] + list(part)])

    deal(0, deck, [])
    high = strengths(np.array([h for d in deals for h in d], dtype=np.uint8)).reshape(len(deals), len(hands))
    shares = [Fraction(0)] * len(hands)
    for d, hi in zip(deals, high):
        for i, s in enumerate(pot(game, d, [int(x) for x in hi])):
            shares[i] += s
    return [s / len(deals) for s in shares]


def pot(game: str, full: list[list[int]], high: list[int]) -> list[Fraction]:
    def split(keys: list, share: Fraction) -> list[Fraction]:  # type: ignore[type-arg]
        best = max(k for k in keys if k is not None)
        won = [k == best for k in keys]
        return [share / sum(won) if w else Fraction(0) for w in won]

    if game == "razz":
        keys = [a5_key(h) for h in full]
        return split([tuple(-x for x in (k[0],) + k[1]) for k in keys], Fraction(1))
    if game == "stud":
        return split(high, Fraction(1))
    lows = [eight_key(h) for h in full]
    lows_key = [None if k is None else tuple(-x for x in k) for k in lows]
    if all(k is None for k in lows_key):
        return split(high, Fraction(1))
    return [a + b for a, b in zip(split(high, Fraction(1, 2)), split(lows_key, Fraction(1, 2)))]


def cards(text: str) -> list[int]:
    from cardlab.cards import parse_card_ids

    return parse_card_ids(text)


@pytest.mark.parametrize("game,specs,dead", [
    ("razz", ["As 2d 3c 9h 9s", "Kh 8s 7d 4c 5h"], "2c 2h 3d 3h 4d 4h 5c 5d 6c 6d 6h 6s 7c 7h 7s Tc Td Th Ts Jc Jd"),
    ("stud", ["As Ad Kc Kd 2s", "Qh Qs Jd Jh 4c"], "2c 2h 3d 3h 4d 4h 5c 5d 6c 6d 6h 6s 7c 7h 7s Tc Td Th Ts Jc Js"),
    ("stud8", ["As 2d 3c Kh Kd", "Qh Qs 4d 5h 8c"], "2c 2h 3d 3h 4c 4h 5c 5d 6c 6d 6h 6s 7c 7h 7s Tc Td Th Ts Jc Js"),
])
def test_exact_equity_against_plain_enumeration(game: str, specs: list[str], dead: str) -> None:
    r = game_equity(specs, game, dead)
    want = plain_equity(game, [cards(s) for s in specs], cards(dead))
    assert r.exact and r.total == comb(52 - 10 - 21, 2) * comb(52 - 12 - 21, 2)
    for p, w in zip(r.players, want):
        assert p.equity == pytest.approx(float(w), abs=1e-12)


def test_razz_rank_hands_are_the_suited_ones() -> None:
    a = game_equity(["A23", "K89"], "razz")
    b = game_equity(["As 2d 3c", "Kh 8s 9d"], "razz")
    assert a.equities == b.equities and a.total == b.total == comb(46, 4) * comb(42, 4)
    assert round(a.players[0].equity, 4) == 0.7971
    # the pot is shared: equities add to one
    assert sum(a.equities) == pytest.approx(1.0, abs=1e-12)


def test_simulations_within_their_intervals() -> None:
    exact = game_equity(["A23", "K89"], "razz")
    sim = game_equity(["A23", "K89"], "razz", trials=200_000, seed=3)
    lo, hi = sim.players[0].ci95
    half = (hi - lo) / 2
    assert abs(sim.players[0].equity - exact.players[0].equity) < 2 * half
    specs = ["As Ad Kc Kd 2s 3s", "Qh Qs Jd Jh 4c 5c"]
    for game in ("stud", "stud8"):
        exact = game_equity(specs, game)
        sim = game_equity(specs, game, trials=100_000, seed=4)
        lo, hi = sim.players[0].ci95
        assert abs(sim.players[0].equity - exact.players[0].equity) < max(hi - lo, 1e-9), game


def test_draw_games() -> None:
    # the nuts stands pat and can only be tied
    assert game_equity(["7s 5d 4c 3h 2s", "As 2d 3c 4h 8s"], "27", trials=20_000, seed=1).equities == (1.0, 0.0)
    r = game_equity(["As 2d 3c 4h", "Ac 2h 3d 4c"], "badugi", trials=20_000, seed=1)
    # the three-card A-2-3 draws until any four-card badugi (then stands pat, docs/games.md): it ties
    # with 4s (the first of the ten spades 4..K that completes it about 5% of the time), never wins
    assert r.players[1].wins == 0 and 0.03 < r.players[1].tie < 0.08
    # with no draw the hands as dealt meet (a complete pat hand against a worse one)
    r = game_equity(["8s 6d 4c 3h 2s", "9s 7d 5c 3d Ah"], "a5", draws=0, trials=1000, seed=1)
    assert r.equities == (1.0, 0.0)
    # single draw: four to a wheel against a pat 8-7-5-3-2 wins with any five to eight of the 42
    # unseen cards (no tie possible); three draws improve it
    pat, drawing = "8s 7d 5c 3h 2s", "Ad 2d 3c 4h Kd"
    one = game_equity([pat, drawing], "a5", draws=1, trials=40_000, seed=2)
    outs = [c for c in range(52) if c not in cards(pat + " " + drawing)]
    exact = sum(1 for c in outs if a5_key(cards("Ad 2d 3c 4h") + [c]) < a5_key(cards(pat))) / len(outs)
    assert exact == 13 / 42
    lo, hi = one.players[1].ci95
    assert lo - (hi - lo) / 2 < exact < hi + (hi - lo) / 2
    three = game_equity([pat, drawing], "a5", draws=3, trials=40_000, seed=2)
    assert three.players[1].equity == pytest.approx(1 - (29 / 42) * (28 / 41) * (27 / 40), abs=0.01)


def test_compare_hands() -> None:
    r = compare_hands(["As 2d 3c 4h 6s 9c 9d", "2c 3d 4s 5h 7c Kd Kh"], "razz")
    assert r.winners == (0,) and r.categories == ("6_high", "7_high")
    r = compare_hands(["As 2d 3c 4h 6s 9c 9d", "2c 3d 4s 5h 7c Kd Kh"], "stud8")
    assert r.low_winners == (0,) and r.winners == (1,)  # kings up beats nines; the 6 low beats the 7
    r = compare_hands(["7s 5d 4c 3h 2s", "7d 5c 4s 3d 2h"], "27")
    assert r.winners == (0, 1) and r.to_dict()["hands"][0]["category"] == "7_high"
    assert compare_hands(["As 2d 3c 4h", "Ac 2d 3h 4s"][:1] + ["Kc Qd Jh Ts"], "badugi").winners == (0,)
    with pytest.raises(DeckError, match="2d"):
        compare_hands(["As 2d 3c 4h", "Ac 2d 3h 4s"], "badugi")


# --- errors and the command line ------------------------------------------------------------------


@pytest.mark.parametrize("argv,words", [
    (["poker", "equity", "--game", "razz", "As 2d 3c", "K89", "--dead", "As"], "card As is given twice"),
    (["poker", "equity", "--game", "razz", "A2X", "K89"], "unknown symbol 'X'"),
    (["poker", "equity", "--game", "razz", "A23", "A89", "--dead", "Ah Ad Ac"], "rank A"),
    (["poker", "equity", "--game", "stud", "As Ad Kc", "Qh Qs Jd"], "--simulate"),
    (["poker", "equity", "--game", "razz", "A23", "K89", "--board", "2c 3c 4c"], "--board"),
    (["poker", "equity", "--game", "badugi", "As 2d 3c 4h", "Kh Qs Jd Tc"], "simulated"),
    (["poker", "equity", "--game", "stud", "As Ad", "Kc Kd", "--draws", "1"], "no draws"),
    (["poker", "equity", "--game", "razz", "A23", "K89", "Q45", "T67", "9JK", "876", "543", "A22"], "2 to 7"),
    (["poker", "compare", "--game", "badugi", "As 2d 3c", "Ac 2d 3h 4s"], "4 cards"),
    (["poker", "odds", "--game", "27", "--cards", "4"], "5 cards"),
    (["poker", "odds", "--game", "27", "--hand", "A23"], "--hand"),
    (["poker", "odds", "--game", "stud", "--hand", "A23"], "need their suits"),  # stud --hand takes cards (issue 38)
])
def test_cli_errors(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error: ") and err.count("\n") == 1 and words in err, err


def test_cli_odds_and_equity(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["poker", "odds", "--game", "badugi", "--format", "json"]) == 0
    rows = {r["category"]: r["count"] for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows["4_high"] == 24 and sum(rows.values()) == comb(52, 4)
    assert main(["poker", "odds", "--game", "razz", "--hand", "A23", "--format", "json"]) == 0
    rows = {r["category"]: r["count"] for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows["5_high"] == completion_odds("A23").exact.count("5_high")
    assert main(["poker", "equity", "--game", "razz", "A23", "K89", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] and round(data["players"][0]["equity"], 4) == 0.7971
    assert main(["poker", "equity", "--game", "27", "7s 5d 4c 3h 2s", "As 2d 3c 4h 8s", "--simulate", "2000",
                 "--seed", "1", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "deuce-to-seven lowball, simulated 2,000 deals, seed 1" in out
    assert main(["poker", "compare", "--game", "razz", "As 2d 3c 4h 6s 9c 9d", "2c 3d 4s 5h 7c Kd Kh"]) == 0
    assert "wins" in capsys.readouterr().out


def test_game_names_match() -> None:
    from cardlab.cli.poker import OTHER_GAMES
    from cardlab.cli.poker_equity import OTHER_GAMES as EQUITY_GAMES

    assert OTHER_GAMES == EQUITY_GAMES == tuple(GAMES)
    assert GAMES["razz"].categories == LOW_CATEGORIES


def test_library_errors() -> None:
    with pytest.raises(HandError, match="2 to 7 players"):
        game_equity(["A23"], "razz")
    with pytest.raises(TooLargeError, match="simulate"):
        game_equity(["A23", "K89", "Q45"], "razz")
    with pytest.raises(CardlabError, match="trials"):
        game_equity(["A23", "K89"], "razz", trials=0)
    with pytest.raises(HandError, match="suits"):
        game_equity(["As Ad Kc Kd 2s 3s", "QJT987"], "stud8")
    with pytest.raises(HandError, match="unknown game"):
        game_odds("omaha")


# --- the board statistics' flop kernel (board_flops, in poker_games.c) ----------------------

def test_flop_kernel_against_the_vectorised_classes_and_bad_arguments() -> None:
    # A few flops of each texture for a hold'em and an Omaha range (weighted), class by class
    # against the numpy routes of one board; here too so that the sanitizer and fallback builds
    # run the kernel (tests/test_core_build.py KERNEL_TESTS). Bad buffers raise ValueError.
    from cardlab.poker.board_stats import (CLASSES, _classify, _classify_omaha,
                                           _flop_tallies)
    from cardlab.poker.equity import game_named, range_of
    from cardlab.poker.generic import all_hands

    names = CLASSES
    flops = all_hands(3).astype(np.int64)[::1301]
    for spec, game in (("QQ+, AK, 76s:0.5, AhKh", "holdem"), ("AAxx@100, KQJT@40, 9876@10", "omaha")):
        g = game_named(game)
        rng = range_of(spec, g)
        holes = np.asarray(rng.combos, dtype=np.int64)
        weights = np.asarray(rng.weights, dtype=np.float64)
        combos, shares, live = _flop_tallies(holes, weights, flops, g.rules)
        bits = np.left_shift(1, holes).sum(axis=1)
        for j, flop in enumerate(flops):
            keep = (bits & int(np.left_shift(1, flop).sum())) == 0
            if game == "omaha":
                masks = _classify_omaha(holes[keep], [int(c) for c in flop], g.rules)
            else:
                masks = _classify(holes[keep], np.broadcast_to(flop, (int(keep.sum()), 3)), g.rules)
            assert live[j] == pytest.approx(weights[keep].sum())
            assert [int(combos[j, i]) for i in range(len(names))] == [int(masks[n].sum()) for n in names]
            assert shares[j] == pytest.approx([weights[keep][masks[n]].sum() for n in names])
    hole = np.array([[51, 50]], dtype=np.uint8)
    one, w = np.ones(1, dtype=np.int64), np.ones(1)
    flop = np.array([[0, 1, 2]], dtype=np.uint8)
    tops = np.full(8192, -1, dtype=np.int8)
    positions = np.arange(16, dtype=np.int8)
    out = (np.zeros((1, 29), dtype=np.int64), np.zeros((1, 29)), np.zeros(1))
    _core.board_flops(hole, 2, one, w, flop, tops, positions, 0, *out)
    assert out[0][0, names.index("full house")] == 1 and out[2][0] == 1.0  # AsAh on 2c2d2h
    for bad in ([hole, 3, one, w, flop, tops, positions, 0, *out],  # k = 3
                [np.array([[52, 50]], dtype=np.uint8), 2, one, w, flop, tops, positions, 0, *out],
                [hole, 2, one, w, np.array([[0, 1, 99]], dtype=np.uint8), tops, positions, 0, *out],
                [hole, 2, one, w, flop, np.full(8192, 13, dtype=np.int8), positions, 0, *out],
                [hole, 2, one, w, flop, tops, positions, 13, *out],
                [hole, 2, one, w, flop, tops, positions, 0, out[0][:, :28].copy(), out[1], out[2]]):
        with pytest.raises(ValueError):
            _core.board_flops(*bad)
