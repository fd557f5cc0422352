"""The numpy evaluator cardlab used before its compiled core: kept here as an independent oracle.

It values hands another way than ``cardlab.poker.evaluator`` (a sorting network and the
combinatorial number system of the sorted ranks instead of a rank-key perfect hash; the
flush found from packed suit counts instead of suit counters), and it handles repeated cards
in the same vectorised pass. The tests compare the two on every five-card hand and millions of
six- and seven-card hands (tests/test_poker_evaluate.py).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb

import numpy as np

from cardlab.errors import HandError
from cardlab.poker.kernel import category_codes, flush_strength, plain_strength
from cardlab.poker.rules import STANDARD, Rules

__all__ = ["evaluate", "strengths", "SORTING_NETWORKS"]

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
    return _plain_table(rules, 5)[index]


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
