"""Independent routes for the tests: list every hand of a small deck, or count the seed's way.

Nothing here uses cardlab's counting engine; it only walks itertools.combinations
or nested loops over numbers of aces, kings, queens and jacks.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb
from typing import Callable, Iterable

RANKS = "23456789TJQKA"


def hand_points(ids: Iterable[int], per_rank: dict[str, Fraction]) -> Fraction:
    return sum((per_rank.get(RANKS[i // 4], Fraction(0)) for i in ids), Fraction(0))


def suit_lengths(ids: Iterable[int]) -> tuple[int, int, int, int]:
    ids = list(ids)
    return tuple(sum(1 for i in ids if i % 4 == s) for s in (3, 2, 1, 0))  # type: ignore[return-value]


def enumerate_feature(cards: list[int], k: int, feature: Callable[[tuple[int, ...]], object]) -> Counter:
    """Counts of ``feature`` over every k-subset of the physical cards (repeats are distinct)."""
    counts: Counter = Counter()
    for hand in itertools.combinations(cards, k):
        counts[feature(hand)] += 1
    return counts


def seed_hcp_counts(honours_each: int, low: int, k: int) -> dict[int, int]:
    """The seed method: C(h,a)C(h,k)C(h,q)C(h,j)C(low, k-a-k-q-j) summed per point total."""
    counts: dict[int, int] = {}
    r = range(honours_each + 1)
    for a, kk, q, j in itertools.product(r, r, r, r):
        rest = k - a - kk - q - j
        if 0 <= rest <= low:
            ways = comb(honours_each, a) * comb(honours_each, kk) * comb(honours_each, q) \
                * comb(honours_each, j) * comb(low, rest)
            p = 4 * a + 3 * kk + 2 * q + j
            counts[p] = counts.get(p, 0) + ways
    return counts


def assert_simulation_agrees(exact_dist, simulated, z_max: float = 4.5, tail_min: float = 1e-5) -> None:
    """Every row of a seeded simulation is consistent with the exact probability.

    Rows expecting at least 20 hits: |observed - expected| within ``z_max`` standard
    errors. Rarer rows: the observed count is not in a Poisson tail rarer than
    ``tail_min`` (the normal approximation fails there).
    """
    import math

    n = simulated.total
    for value, count, observed in zip(exact_dist.values, exact_dist.counts, simulated.counts):
        p = count / exact_dist.total
        expected = n * p
        if expected >= 20:
            z = abs(observed - expected) / math.sqrt(n * p * (1 - p))
            assert z < z_max, (value, observed, expected, z)
        else:
            upper = 1 - sum(math.exp(-expected) * expected**i / math.factorial(i) for i in range(observed))
            lower = sum(math.exp(-expected) * expected**i / math.factorial(i) for i in range(observed + 1))
            assert min(upper, lower) > tail_min, (value, observed, expected)


def poker_key(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """(category as CATEGORIES numbers it, tie-break ranks) of five cards, by plain rules."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    straight_top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_top = 3
    if straight_top is not None and flush:
        return (9 if straight_top == 12 else 8, (straight_top,))
    if shape[0] == 4:
        return 7, tuple(order)
    if shape == [3, 2]:
        return 6, tuple(order)
    if flush:
        return 5, tuple(ranks)
    if straight_top is not None:
        return 4, (straight_top,)
    if shape[0] == 3:
        return 3, tuple(order)
    if shape == [2, 2, 1]:
        return 2, tuple(order)
    if shape[0] == 2:
        return 1, tuple(order)
    return 0, tuple(ranks)


def poker_compare(key: tuple[int, tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
    return (8 if key[0] == 9 else key[0], key[1])  # a royal flush is the best straight flush
