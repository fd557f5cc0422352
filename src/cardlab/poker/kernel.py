"""Hand strength from rank counts: the exact rules, vectorised over many hands.

A hand is described here by its rank counts, an ``(n, 13)`` integer array
(how many twos, threes, ..., aces), rather than by its cards. This is where
the rules live; the fast evaluator (:mod:`cardlab.poker.evaluator`) and the exact
counter (:mod:`cardlab.poker.odds`) build their lookup tables from it.

A *strength* is an int: the category's position in the rule variant's order
times ``2**20``, plus the five deciding ranks (0 = two .. 12 = ace) as 4-bit
digits in order of importance. For a full house kings over sevens the digits are
K K K 7 7; for a straight they run from the top card down (the ace-low wheel
ends in the ace). Higher is better; equal strengths tie.

>>> import numpy as np
>>> counts = np.zeros((1, 13), dtype=np.int8)
>>> counts[0, [11, 11, 11, 5, 5]] = 3, 3, 3, 2, 2   # K K K 7 7
>>> strength = int(plain_strength(counts, STANDARD)[0])
>>> hex(strength), unpack(strength, STANDARD)
('0x6bbb55', (<Category.FULL_HOUSE: 6>, (11, 11, 11, 5, 5)))
>>> plain_strength(np.zeros((1, 12)), STANDARD)
Traceback (most recent call last):
...
ValueError: rank counts must have shape (n, 13), got (1, 12)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cardlab.poker.rules import STANDARD, Category, Rules

__all__ = [
    "CATEGORY_SHIFT",
    "plain_strength",
    "flush_strength",
    "pack",
    "unpack",
    "category_codes",
    "straight_tops",
]

CATEGORY_SHIFT = 20
_POW2 = (1 << np.arange(13)).astype(np.int32)


def pack(position: np.ndarray | int, ranks: list[np.ndarray] | tuple[int, ...]) -> np.ndarray:
    """Strength from a category position and five ranks in order of importance."""
    value = np.asarray(position, dtype=np.int64) << CATEGORY_SHIFT
    for i, r in enumerate(ranks):
        value = value | (np.asarray(r, dtype=np.int64) << (4 * (4 - i)))
    return value


def unpack(strength: int, rules: Rules) -> tuple[Category, tuple[int, ...]]:
    """The category and the five deciding ranks of one strength."""
    category = rules.order[strength >> CATEGORY_SHIFT]
    return category, tuple((strength >> (4 * (4 - i))) & 15 for i in range(5))


def category_codes(strengths: np.ndarray, rules: Rules) -> np.ndarray:
    """:class:`Category` values (uint8) of an array of strengths."""
    table = np.array([int(c) for c in rules.order], dtype=np.uint8)
    codes: np.ndarray = table[np.asarray(strengths) >> CATEGORY_SHIFT]
    return codes


@lru_cache(maxsize=None)
def _top_table() -> np.ndarray:
    """Highest set bit (rank) of each 13-bit mask, -1 for the empty mask."""
    table = np.full(1 << 13, -1, dtype=np.int8)
    for bit in range(13):
        table[1 << bit : 1 << (bit + 1)] = bit
    return table


@lru_cache(maxsize=None)
def straight_tops(rules: Rules) -> np.ndarray:
    """Top rank of the best straight in each 13-bit rank mask, -1 if none."""
    masks = np.arange(1 << 13)
    best = np.full(1 << 13, -1, dtype=np.int8)
    for top, ranks in rules.straights:  # listed from lowest to highest
        need = sum(1 << r for r in ranks)
        best[(masks & need) == need] = top
    return best


@lru_cache(maxsize=None)
def _straight_ranks(rules: Rules) -> np.ndarray:
    """Row ``top``: the five ranks of that straight in order of importance."""
    table = np.zeros((13, 5), dtype=np.int64)
    for top, ranks in rules.straights:
        table[top] = sorted(ranks, key=lambda r: (r - top - 1) % 13, reverse=True)
    return table


def _masks(counts: np.ndarray, at_least: int) -> np.ndarray:
    return (counts >= at_least).astype(np.int32) @ _POW2


def _pop_top(mask: np.ndarray, n: int) -> list[np.ndarray]:
    """The ``n`` highest ranks in each mask (-1 where there are fewer)."""
    top = _top_table()
    out = []
    mask = mask.copy()
    for _ in range(n):
        r = top[mask].astype(np.int64)
        out.append(r)
        mask &= ~np.where(r >= 0, 1 << np.maximum(r, 0), 0).astype(np.int32)
    return out


def _without(mask: np.ndarray, rank: np.ndarray) -> np.ndarray:
    return mask & ~np.where(rank >= 0, 1 << np.maximum(rank, 0), 0).astype(np.int32)


def _candidate(best: np.ndarray, rules: Rules, category: Category, ranks: list[np.ndarray]) -> None:
    valid = np.logical_and.reduce([r >= 0 for r in ranks])
    value = pack(rules.position(category), [np.maximum(r, 0) for r in ranks])
    np.maximum(best, np.where(valid, value, 0), out=best)


def _check(counts: np.ndarray) -> np.ndarray:
    counts = np.asarray(counts)
    if counts.ndim != 2 or counts.shape[1] != 13:
        raise ValueError(f"rank counts must have shape (n, 13), got {counts.shape}")
    return counts


def plain_strength(counts: np.ndarray, rules: Rules = STANDARD) -> np.ndarray:
    """Best strength of each hand counting ranks only (suits ignored), int64.

    Every category but flush and straight flush: five of a kind, four of a
    kind, full house, straight, three of a kind, two pair, one pair, high card.
    The best of the categories a hand qualifies for wins, so the rule
    variant's order decides, e.g. when several decks make a full house and a
    straight at once.
    """
    counts = _check(counts)
    m1, m2, m3, m4, m5 = (_masks(counts, j) for j in range(1, 6))
    best = np.zeros(len(counts), dtype=np.int64)
    five = _pop_top(m5, 1)[0]
    _candidate(best, rules, Category.FIVE_OF_A_KIND, [five] * 5)
    quad = _pop_top(m4, 1)[0]
    _candidate(best, rules, Category.FOUR_OF_A_KIND, [quad] * 4 + _pop_top(_without(m1, quad), 1))
    trips = _pop_top(m3, 1)[0]
    pair = _pop_top(_without(m2, trips), 1)[0]
    _candidate(best, rules, Category.FULL_HOUSE, [trips] * 3 + [pair] * 2)
    top = straight_tops(rules)[m1].astype(np.int64)
    seq = _straight_ranks(rules)[np.maximum(top, 0)]
    _candidate(best, rules, Category.STRAIGHT, [np.where(top >= 0, seq[:, i], -1) for i in range(5)])
    _candidate(best, rules, Category.THREE_OF_A_KIND, [trips] * 3 + _pop_top(_without(m1, trips), 2))
    high, low = _pop_top(m2, 2)
    kicker = _pop_top(_without(_without(m1, high), low), 1)
    _candidate(best, rules, Category.TWO_PAIR, [high, high, low, low] + kicker)
    _candidate(best, rules, Category.ONE_PAIR, [high, high] + _pop_top(_without(m1, high), 3))
    _candidate(best, rules, Category.HIGH_CARD, _pop_top(m1, 5))
    return best


def flush_strength(counts: np.ndarray, rules: Rules = STANDARD) -> np.ndarray:
    """Best strength of five cards of one suit, given that suit's rank counts, int64.

    A straight flush (a royal flush when ace-high) if the suit holds a straight,
    else a flush of its five highest cards (a rank may repeat when several decks
    are shuffled together). Rows with fewer than five cards give 0.
    """
    counts = _check(counts).astype(np.int64)
    best = np.zeros(len(counts), dtype=np.int64)
    enough = counts.sum(axis=1) >= 5
    top = straight_tops(rules)[_masks(counts, 1)].astype(np.int64)
    seq = _straight_ranks(rules)[np.maximum(top, 0)]
    royal = top == 12
    for category, rows in ((Category.STRAIGHT_FLUSH, ~royal), (Category.ROYAL_FLUSH, royal)):
        ok = (top >= 0) & rows & enough
        _candidate(best, rules, category, [np.where(ok, seq[:, i], -1) for i in range(5)])
    # the five highest cards, repeats included: walk down the cumulative counts
    down = np.cumsum(counts[:, ::-1], axis=1)
    ranks = [np.where(enough, 12 - np.argmax(down > j, axis=1), -1) for j in range(5)]
    _candidate(best, rules, Category.FLUSH, ranks)
    return best
