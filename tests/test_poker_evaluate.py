"""The compiled evaluator: golden counts, agreement with the numpy oracle and treys, tie-breaks, repeats."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import numpy_evaluator
from poker_brute import combinations
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from cardlab.cards import RANKS, SUITS
from cardlab.errors import HandError
from cardlab.poker.evaluator import count_subsets, evaluate, hand_array, parse_hand, strengths
from cardlab.poker.rules import SHORT_DECK, STANDARD, Category


def s(*hands: str, rules=STANDARD, repeats: bool = False) -> list[int]:
    return [int(x) for x in strengths(hand_array(hands, repeats=repeats), rules)]


# Golden 5-card counts: every one of the 2,598,960 hands, one vectorised call
# (reference: the seed table; Wikipedia "Poker probability").
FIVE_CARD = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]


# Golden 7-card counts (Wikipedia "Poker probability", the seed table): all 133,784,560 hands.
SEVEN_CARD = [23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 37260, 4324]


def test_every_seven_card_hand_by_the_compiled_evaluator() -> None:
    assert count_subsets(range(52), 7) == SEVEN_CARD + [0]
    assert count_subsets(range(52), 5) == FIVE_CARD + [0]
    # short deck, 5 of 36 cards, by Category value (straights 6 * 4**5 - 24, flushes C(9,5)*4 - 24)
    short = count_subsets(range(16, 52), 5, SHORT_DECK)
    assert short[Category.STRAIGHT] == 6120 and short[Category.FLUSH] == 480


def test_every_five_card_hand() -> None:
    hands = combinations(52, 5).astype(np.uint8)
    cats, strength = evaluate(hands, workers=2)
    assert np.bincount(cats, minlength=11).tolist() == FIVE_CARD + [0]
    assert len(np.unique(strength)) == 7462  # the classic number of distinct hand values


@pytest.mark.parametrize("rules", [STANDARD, SHORT_DECK])
def test_every_five_card_hand_as_the_oracle_values_it(rules) -> None:
    """Compiled against the numpy evaluator (tests/numpy_evaluator.py, another method): every hand."""
    hands = combinations(52, 5).astype(np.uint8)
    if rules is SHORT_DECK:
        hands = hands[hands.min(axis=1) >= 16]
    cats, ours = evaluate(hands, rules)
    theirs_cats, theirs = numpy_evaluator.evaluate(hands, rules)
    assert np.array_equal(ours, theirs) and np.array_equal(cats, theirs_cats)


@pytest.mark.parametrize("k, n", [(6, 2_000_000), (7, 3_000_000)])
def test_millions_of_random_hands_as_the_oracle_values_them(k: int, n: int) -> None:
    rng = np.random.default_rng(100 + k)
    for start in range(0, n, 500_000):
        hands = np.argsort(rng.random((500_000, 52)), axis=1)[:, :k].astype(np.uint8)
        cats, ours = evaluate(hands)
        theirs_cats, theirs = numpy_evaluator.evaluate(hands)
        assert np.array_equal(ours, theirs) and np.array_equal(cats, theirs_cats)
    short = 16 + np.argsort(rng.random((300_000, 36)), axis=1)[:, :k].astype(np.uint8)
    assert np.array_equal(strengths(short, SHORT_DECK), numpy_evaluator.strengths(short, SHORT_DECK))


@pytest.mark.parametrize("k", [5, 6, 7])
def test_hands_with_repeated_cards_as_the_oracle_values_them(k: int) -> None:
    """Several decks and reels: cards drawn with replacement, some from a few ranks or one suit."""
    rng = np.random.default_rng(k)
    wide = rng.integers(0, 52, (200_000, k))
    narrow = rng.integers(0, 3, (100_000, k)) * 4 + rng.integers(0, 4, (100_000, k)) // 3 * 13 * 4 % 52
    one_suit = rng.integers(0, 13, (100_000, k)) * 4 + 2
    for hands in (wide, narrow, one_suit):
        hands = hands.astype(np.uint8)
        for rules in (STANDARD, SHORT_DECK):
            cats, ours = evaluate(hands, rules)
            theirs_cats, theirs = numpy_evaluator.evaluate(hands, rules)
            assert np.array_equal(ours, theirs) and np.array_equal(cats, theirs_cats)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_sorting_networks_by_the_zero_one_principle(k: int) -> None:
    """The oracle's sorting networks sort (the 0-1 principle)."""
    for bits in itertools.product([0, 1], repeat=k):
        v = list(bits)
        for a, b in numpy_evaluator.SORTING_NETWORKS[k]:
            if v[a] > v[b]:
                v[a], v[b] = v[b], v[a]
        assert v == sorted(v)


_TREYS = TreysEvaluator()


def _treys(hand: np.ndarray) -> int:
    return _TREYS.evaluate([TreysCard.new(RANKS[c // 4] + SUITS[c % 4]) for c in hand[:2]],
                                     [TreysCard.new(RANKS[c // 4] + SUITS[c % 4]) for c in hand[2:]])


def _same_order(ours: np.ndarray, theirs: np.ndarray) -> None:
    """Every pair of hands compares the same way (ours: higher wins; treys: lower wins)."""
    pairs = np.unique(np.column_stack([ours, theirs]), axis=0)  # sorted by our strength
    assert len(np.unique(pairs[:, 0])) == len(pairs), "one of our values maps to two treys ranks"
    assert len(np.unique(pairs[:, 1])) == len(pairs), "two of our values share a treys rank"
    assert np.all(np.diff(pairs[:, 1]) < 0), "the orders disagree"


@pytest.mark.parametrize("k, n", [(5, 30000), (6, 20000), (7, 30000)])
def test_order_agrees_with_treys(k: int, n: int) -> None:
    rng = np.random.default_rng(k)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)
    theirs = np.array([_treys(h) for h in hands])
    _same_order(strengths(hands).astype(np.int64), theirs)


def test_every_class_of_treys_in_order() -> None:
    """One hand of each of treys' 7,462 classes: the full order, every tie-break."""
    hands = combinations(52, 5)
    ours = strengths(hands.astype(np.uint8)).astype(np.int64)
    _, first = np.unique(ours, return_index=True)
    theirs = np.array([_treys(hands[i]) for i in first])
    _same_order(ours[first], theirs)


def test_seven_cards_are_the_best_five() -> None:
    rng = np.random.default_rng(7)
    hands = np.argsort(rng.random((3000, 52)), axis=1)[:, :7].astype(np.uint8)
    subsets = np.array(list(itertools.combinations(range(7), 5)))
    best = strengths(hands[:, subsets].reshape(-1, 5)).reshape(len(hands), -1).max(axis=1)
    assert np.array_equal(strengths(hands), best)


@pytest.mark.parametrize("better, worse", [
    ("2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c"),      # the wheel is the lowest straight
    ("Ac 2d 3h 4s 5c", "Ac Ad Ah Ks Qc"),      # any straight beats trips
    ("Ah Kh Qh Jh 9h", "Kd Qd Jd Td 8d"),
    ("As Ad Kc Kd 3h", "As Ad Qc Qd Jh"),      # two pair: the second pair decides before the kicker
    ("As Ad Kc Kd 4h", "Ah Ac Kh Ks 3h"),      # then the kicker
    ("9s 9d 9c 2d 2h", "8s 8d 8c Ad Ah"),      # full house: the trips decide
    ("5s 5d 5c 5h 2d", "4s 4d 4c 4h Ad"),
    ("Ks Kd 7c 6d 3h", "Ks Kd 7c 6d 2h"),      # third kicker
    ("Ac Kd 7c 5s 3d", "Ad Kc 7d 5c 2s"),
    ("2c 2d 3h 4s 6c 7d 8h", "Ac Kd Qh Js 9c 8d 7h"),
    ("Ts Js Qs Ks As 2d 3d", "9h Th Jh Qh Kh Ac Ad"),
])
def test_tie_breaks(better: str, worse: str) -> None:
    a, b = s(better, worse) if len(better.split()) == len(worse.split()) else (s(better)[0], s(worse)[0])
    assert a > b


@pytest.mark.parametrize("a, b", [
    ("As Kd 7c 5s 3d", "Ad Ks 7h 5c 3c"),
    ("Ac 2d 3h 4s 5c", "Ad 2c 3s 4h 5d"),
    ("As Ks Qd Jd Td 2c 3c", "Ah Kc Qc Jh Th 4d 2s"),  # the same straight, the rest does not count
])
def test_ties(a: str, b: str) -> None:
    x, y = s(a, b)
    assert x == y


def test_short_deck_rules() -> None:
    wheel, six_high, flush, full = s("As 6d 7c 8h 9s", "6h 7d 8c 9h Td", "Ah Jh 9h 7h 6h",
                                     "Ks Kd Kc 7d 7h", rules=SHORT_DECK)
    assert six_high > wheel
    assert flush > full
    assert s("As 6d 7c 8h 9s", rules=SHORT_DECK)[0] >> 20 == SHORT_DECK.position(Category.STRAIGHT)
    standard_full, standard_flush = s("Ks Kd Kc 7d 7h", "Ah Jh 9h 7h 6h")
    assert standard_full > standard_flush
    assert evaluate(hand_array(["As 6s 7s 8s 9s"]), SHORT_DECK)[0][0] == Category.STRAIGHT_FLUSH


def test_repeated_cards() -> None:
    cats = [Category(int(evaluate(hand_array([h], repeats=True))[0][0]))
            for h in ("As As As As As", "As As Ks Qs Js", "Ah Ah Ah Kh Kd Qh Jh", "Ah Ah Ah Ah Ah Kh Qh")]
    assert cats == [Category.FIVE_OF_A_KIND, Category.FLUSH, Category.FULL_HOUSE,
                    Category.FIVE_OF_A_KIND]
    pair_flush, plain_flush = s("As As Ks Qs Js", "As Ks Qs Js 9s", repeats=True)
    assert pair_flush > plain_flush  # A-A-K-Q-J against A-K-Q-J-9, card by card
    # a flush beats a full house in the short deck, even made of the same five cards
    assert evaluate(hand_array(["As As Ks Ks Ks"], repeats=True), SHORT_DECK)[0][0] == Category.FLUSH
    assert evaluate(hand_array(["As As Ks Ks Ks"], repeats=True))[0][0] == Category.FULL_HOUSE


def test_repeats_need_permission() -> None:
    with pytest.raises(HandError, match="card As is given twice"):
        parse_hand("As Ks Qs Js As")


@pytest.mark.parametrize("text, message", [
    ("As Ks Qs Js", "has 4"),
    ("As Ks Qs Js Ts 9s 8s 7s", "has 8"),
    ("As Ks Qs Js Zz", "unknown symbol 'Z'"),
])
def test_bad_hands(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_hand(text)


def test_bad_arrays() -> None:
    with pytest.raises(HandError):
        strengths(np.zeros((3, 4), dtype=np.uint8))
    with pytest.raises(HandError):
        strengths(np.full((3, 5), 52, dtype=np.uint8))
    assert len(strengths(np.zeros((0, 5), dtype=np.uint8))) == 0


def test_workers_and_blocks_agree() -> None:
    rng = np.random.default_rng(3)
    hands = np.argsort(rng.random((300_000, 52)), axis=1)[:, :7].astype(np.uint8)
    hands[::1000, 1] = hands[::1000, 0]  # a card twice here and there: the slow rows too
    one = strengths(hands)
    for workers in (2, 3):
        assert np.array_equal(one, strengths(hands, workers=workers))
    assert np.array_equal(strengths(hands[:777]), one[:777])
    assert np.array_equal(strengths(np.asfortranarray(hands[:, ::-1])), one)  # any layout, any order


def test_other_integer_types_and_bad_ids() -> None:
    hands = np.array([[51, 47, 43, 39, 35]])
    assert strengths(hands.astype(np.int64)).tolist() == strengths(hands.astype(np.uint8)).tolist()
    with pytest.raises(HandError, match="0..51"):
        strengths(np.array([[51, 47, 43, 39, -1]]))
    with pytest.raises(HandError, match="0..51"):
        strengths(np.array([[51, 47, 43, 39, 200]], dtype=np.uint8))


def test_the_kernels_refuse_buffers_they_cannot_read() -> None:
    """The private kernels check sizes themselves (the wrappers are their only callers)."""
    from cardlab import _core
    from cardlab.poker.evaluator import tables

    flush = np.zeros(8192, dtype=np.uint32)
    with pytest.raises(ValueError, match="more than four"):
        _core.poker_tables(np.full((1, 13), 5, dtype=np.uint8), np.zeros(1, dtype=np.uint32), flush, b"")
    with pytest.raises(ValueError, match="wrong size"):
        _core.poker_evaluate(tables(), np.zeros(10, dtype=np.uint8), 5, np.zeros(3, dtype=np.uint32), None, True)
    with pytest.raises(ValueError, match="bad arguments"):
        _core.poker_count_subsets(tables(), bytes(range(10)), 8, np.zeros(16, dtype=np.int64))
