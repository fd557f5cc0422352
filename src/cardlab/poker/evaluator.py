"""Vectorised poker hand evaluator: an array of hands in, categories and strengths out.

Hands are ``(n, k)`` arrays of card ids (``rank * 4 + suit``) with ``k`` = 5, 6
or 7; the best five cards count. No Python loop runs per hand:

0. five cards: one lookup by the unsorted ranks read in base 13 (371,293 entries);
   six and seven cards go through steps 1-2;
1. ranks are sorted by a sorting network of column-wise ``minimum``/``maximum``;
2. the sorted ranks give the index of the hand's rank multiset in the
   combinatorial number system (pairs of ranks are looked up together), and
   one lookup in a table of ``C(12 + k, k)`` strengths (50,388 for seven cards)
   gives the best hand that ignores suits;
3. suit counts packed three bits per suit flag the few hands holding five or
   more cards of one suit; only those get their flush looked up, from that
   suit's 13-bit rank mask.

Tables are generated from :mod:`cardlab.poker.kernel` on first use and cached.
A card may repeat within a hand (several decks, reels): five of a kind and
flushes with a repeated rank are evaluated exactly, on a slower path for the
few hands concerned.

>>> cats, strengths = evaluate(hand_array(["As Ks Qs Js Ts", "2c 2d 2h 7s 7c"]))
>>> [Category(c).key for c in cats], bool(strengths[0] > strengths[1])
(['royal_flush', 'full_house'], True)
>>> hand_array(["As Ks Qs Js"])
Traceback (most recent call last):
...
cardlab.errors.HandError: a hand has 5, 6 or 7 cards; 'As Ks Qs Js' has 4
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb
from typing import Iterable, Sequence

import numpy as np

from cardlab.cards import format_cards, parse_card_ids
from cardlab.errors import HandError
from cardlab.poker.kernel import category_codes, flush_strength, plain_strength
from cardlab.poker.rules import STANDARD, Category, Rules

__all__ = [
    "evaluate",
    "strengths",
    "hand_array",
    "parse_hand",
    "multiset_index",
    "SORTING_NETWORKS",
    "CHUNK",
]

CHUNK = 1 << 15
"""Hands per block: small enough for the temporaries to stay in cache."""

SORTING_NETWORKS: dict[int, tuple[tuple[int, int], ...]] = {
    5: ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)),
    6: ((1, 2), (0, 2), (0, 1), (4, 5), (3, 5), (3, 4), (0, 3), (1, 4), (2, 5), (2, 4), (1, 3),
        (2, 3)),
    7: ((0, 6), (2, 3), (4, 5), (0, 2), (1, 4), (3, 6), (0, 1), (2, 5), (3, 4), (1, 2), (4, 6),
        (2, 3), (4, 5), (1, 2), (3, 4), (5, 6)),
}
"""Comparator pairs sorting 5, 6 or 7 values ascending (checked by the 0-1 principle)."""


def parse_hand(text: str, *, repeats: bool = False) -> list[int]:
    """Card ids of one hand of 5 to 7 cards; a card twice is an error unless ``repeats``.

    >>> parse_hand("As Ks Qs Js Ts")
    [51, 47, 43, 39, 35]
    >>> parse_hand("As Ks Qs Js As")
    Traceback (most recent call last):
    ...
    cardlab.errors.HandError: card As is given twice in 'As Ks Qs Js As'
    """
    ids = parse_card_ids(text)
    if not 5 <= len(ids) <= 7:
        raise HandError(f"a hand has 5, 6 or 7 cards; '{text}' has {len(ids)}")
    if not repeats:
        seen: set[int] = set()
        for i in ids:
            if i in seen:
                raise HandError(f"card {format_cards([i])} is given twice in '{text}'")
            seen.add(i)
    return ids


def hand_array(hands: Iterable[str], *, repeats: bool = False) -> np.ndarray:
    """An ``(n, k)`` uint8 array from hand texts, which must all have ``k`` cards."""
    rows: list[list[int]] = []
    for text in hands:
        ids = parse_hand(text, repeats=repeats)
        if rows and len(ids) != len(rows[0]):
            raise HandError(f"hands must have the same number of cards: '{text}' has {len(ids)}, "
                            f"not {len(rows[0])}")
        rows.append(ids)
    if not rows:
        raise HandError("no hands given")
    return np.array(rows, dtype=np.uint8)


def multiset_index(sorted_ranks: Sequence[int]) -> int:
    """Index of a sorted rank multiset: ``sum(C(r_i + i, i + 1))``, a bijection
    from multisets of ``k`` ranks onto ``0 .. C(12 + k, k) - 1``.

    >>> multiset_index([0, 0, 0, 0, 0]), multiset_index([12] * 5)
    (0, 6187)
    """
    return sum(comb(int(r) + i, i + 1) for i, r in enumerate(sorted_ranks))


@lru_cache(maxsize=None)
def _plain_table(rules: Rules, k: int) -> np.ndarray:
    """Strength ignoring suits of every rank multiset of size ``k``, by multiset index."""
    multisets = np.array(list(combinations_with_replacement(range(13), k)), dtype=np.int64)
    counts = np.zeros((len(multisets), 13), dtype=np.int8)
    for j in range(k):
        np.add.at(counts, (np.arange(len(multisets)), multisets[:, j]), 1)
    index = sum(_binomial_column(i)[multisets[:, i]] for i in range(k))
    table = np.zeros(comb(12 + k, k), dtype=np.uint32)
    table[index] = plain_strength(counts, rules)
    return table


@lru_cache(maxsize=None)
def _binomial_column(i: int) -> np.ndarray:
    return np.array([comb(r + i, i + 1) for r in range(13)], dtype=np.int64)


_GROUPS = {5: ((0, 1, 2), (3, 4)), 6: ((0, 1, 2, 3), (4, 5)), 7: ((0, 1, 2, 3), (4, 5, 6))}


@lru_cache(maxsize=None)
def _group_tables(k: int) -> tuple[np.ndarray, ...]:
    """For each group of sorted positions: their index terms, by the ranks in base 13."""
    tables = []
    for group in _GROUPS[k]:
        digits = np.indices((13,) * len(group)).reshape(len(group), -1)
        terms = sum(_binomial_column(i)[digits[j]] for j, i in enumerate(group))
        tables.append(np.asarray(terms, dtype=np.uint16))
    return tuple(tables)


@lru_cache(maxsize=None)
def _direct_five(rules: Rules) -> np.ndarray:
    """Five-card strengths ignoring suits, indexed by the unsorted ranks in base 13."""
    digits = np.indices((13,) * 5).reshape(5, -1).T
    ordered = np.sort(digits, axis=1)
    index = sum(_binomial_column(i)[ordered[:, i]] for i in range(5))
    result: np.ndarray = _plain_table(rules, 5)[index]
    return result


@lru_cache(maxsize=None)
def _flush_table(rules: Rules) -> np.ndarray:
    """Flush strength of each 13-bit mask of distinct ranks in one suit."""
    masks = np.arange(1 << 13)
    counts = ((masks[:, None] >> np.arange(13)) & 1).astype(np.int8)
    return flush_strength(counts, rules).astype(np.uint32)


@lru_cache(maxsize=None)
def _popcount() -> np.ndarray:
    return np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.uint8)


def _flush_suit_table() -> np.ndarray:
    """For suit counts packed 3 bits per suit: the suit with 5 or more cards, or 4."""
    packed = np.arange(1 << 12)
    digits = (packed[:, None] >> (3 * np.arange(4))) & 7
    has = digits >= 5
    return np.where(has.any(axis=1), has.argmax(axis=1), 4).astype(np.uint8)


_FLUSH_SUIT = _flush_suit_table()


def _block(hands: np.ndarray, rules: Rules) -> np.ndarray:
    """Strengths (uint32) of one block of hands; see the module's description."""
    n, k = hands.shape
    cols = np.ascontiguousarray(hands.T)
    ranks = list(cols >> np.uint8(2))
    if k == 5:  # no sort: one lookup by the five ranks in base 13
        digits = ranks[0].astype(np.uint32)
        for r in ranks[1:]:
            digits *= np.uint32(13)
            digits += r
        out = _direct_five(rules)[digits]
        return _with_flushes(out, hands, cols, rules)
    for a, b in SORTING_NETWORKS[k]:
        low = np.minimum(ranks[a], ranks[b])
        np.maximum(ranks[a], ranks[b], out=ranks[b])
        ranks[a] = low
    index = np.zeros(n, dtype=np.uint16)
    for table, group in zip(_group_tables(k), _GROUPS[k]):
        digits = ranks[group[0]].astype(np.uint16)
        for j in group[1:]:
            digits *= np.uint16(13)
            digits += ranks[j]
        index += table[digits]
    return _with_flushes(_plain_table(rules, k)[index], hands, cols, rules)


def _with_flushes(out: np.ndarray, hands: np.ndarray, cols: np.ndarray, rules: Rules) -> np.ndarray:
    """``out`` raised to the flush strength where a hand holds five cards of a suit."""
    suit = _flush_suits(cols)
    rows = np.flatnonzero(suit < 4)
    if len(rows):
        out[rows] = np.maximum(out[rows], _flush_rows(hands[rows], suit[rows], rules))
    return out


def _flush_suits(cols: np.ndarray) -> np.ndarray:
    """Per hand, the suit holding five or more of its cards, or 4 if none."""
    k = len(cols)
    if k == 5:  # a flush iff all five suits agree
        low, high = cols[0] & np.uint8(3), cols[0] | np.uint8(252)
        for c in cols[1:]:
            low |= c
            high &= c
        same = (low & np.uint8(3)) == (high & np.uint8(3))
        return np.where(same, cols[0] & np.uint8(3), np.uint8(4))
    # suit counts packed three bits per suit: a flush needs a digit of 5 or more
    packed = np.zeros(len(cols[0]), dtype=np.uint16)
    for c in cols:
        shift = (c & np.uint8(3)).astype(np.uint16)
        shift *= np.uint16(3)
        packed += np.left_shift(np.uint16(1), shift)
    return _FLUSH_SUIT[packed]


def _flush_rows(hands: np.ndarray, suit: np.ndarray, rules: Rules) -> np.ndarray:
    in_suit = (hands & 3) == suit[:, None]
    bits = np.where(in_suit, np.left_shift(1, (hands >> 2).astype(np.int32)), 0)
    mask = np.bitwise_or.reduce(bits, axis=1)
    result = _flush_table(rules)[mask]
    repeated = np.flatnonzero(_popcount()[mask] != in_suit.sum(axis=1))
    if len(repeated):  # a card repeats within the flush suit: count its ranks
        counts = np.zeros((len(repeated), 13), dtype=np.int8)
        rank = (hands[repeated] >> 2).astype(np.int64)
        np.add.at(counts, (np.arange(len(repeated))[:, None], rank), in_suit[repeated].astype(np.int8))
        result[repeated] = flush_strength(counts, rules)
    return result


def strengths(hands: np.ndarray, rules: Rules = STANDARD, *, workers: int = 1) -> np.ndarray:
    """Strength (uint32, higher is better, equal is a tie) of each hand.

    ``hands`` is an ``(n, k)`` array of card ids 0..51 with ``k`` in 5..7;
    ``workers`` > 1 evaluates blocks on that many threads (numpy releases the
    interpreter lock in its loops).
    """
    hands = _checked(hands)
    n = len(hands)
    out = np.empty(n, dtype=np.uint32)
    starts = range(0, n, CHUNK)

    def run(start: int) -> None:
        out[start : start + CHUNK] = _block(hands[start : start + CHUNK], rules)

    if workers > 1 and n > CHUNK:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(run, starts))
    else:
        for start in starts:
            run(start)
    return out


def evaluate(hands: np.ndarray, rules: Rules = STANDARD, *,
             workers: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Categories (uint8 :class:`Category` values) and strengths (uint32) of each hand."""
    s = strengths(hands, rules, workers=workers)
    return category_codes(s, rules), s


def _checked(hands: np.ndarray) -> np.ndarray:
    hands = np.asarray(hands)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise HandError(f"hands must be an (n, k) array with k = 5, 6 or 7, got shape {hands.shape}")
    if hands.dtype != np.uint8:
        if hands.size and (hands.min() < 0 or hands.max() > 51):
            raise HandError("card ids must be in 0..51")
        hands = hands.astype(np.uint8)
    elif hands.size and hands.max() > 51:
        raise HandError("card ids must be in 0..51")
    return hands
