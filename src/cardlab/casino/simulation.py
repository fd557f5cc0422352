"""The second route: seeded random deals played by the strategy, each bet's mean with its interval.

The deals are whole rounds (the player's cards, the dealer's or the community cards) drawn from
the deck by numpy in chunks; each final hand is looked up in the compiled core's tables (the
three-card values, the five-card outcomes) and paid by the game's rules, hand by hand, so the
counting and weighting of the exact route are not used. The strategy played is the one the
exact route found (its decisions per hand), so the two routes agree when the counting is right.

>>> import numpy as np
>>> positions = deal(np.random.default_rng(1), 52, 6, 4)
>>> positions.shape, bool((np.sort(positions, axis=1)[:, 1:] != np.sort(positions, axis=1)[:, :-1]).all())
((4, 6), True)
"""

from __future__ import annotations

from math import comb
from typing import Callable

import numpy as np

from cardlab.intervals import Interval, mean_interval

__all__ = ["deal", "colex", "positions_of", "run_chunks", "MAX_SIMULATED", "CHUNK"]

MAX_SIMULATED = 10**9  #: the most deals a simulation plays
CHUNK = 50_000  #: deals dealt at a time (memory: CHUNK x deck size floats)


def deal(rng: np.random.Generator, n: int, k: int, m: int) -> np.ndarray:
    """``m`` rounds of ``k`` distinct positions of an ``n``-card deck, in random order (int64):
    the j-th card is uniform among the n - j positions not yet dealt (the r-th of them: r moves
    past each dealt position at or below it, taken in increasing order)."""
    chosen = np.empty((m, k), dtype=np.int64)
    for j in range(k):
        r = rng.integers(0, n - j, m)
        dealt = np.sort(chosen[:, :j], axis=1)
        for i in range(j):
            r += r >= dealt[:, i]
        chosen[:, j] = r
    return chosen


def colex(positions: np.ndarray) -> np.ndarray:
    """The colex numbers of the hands given as rows of positions (any order within a row).

    >>> colex(np.array([[2, 0, 1], [0, 1, 3]])).tolist()
    [0, 1]
    """
    rows = np.sort(positions, axis=1)
    k = rows.shape[1]
    table = np.array([[comb(p, j) for j in range(k + 1)] for p in range(65)], dtype=np.int64)
    out = np.zeros(len(rows), dtype=np.int64)
    for j in range(k):
        out += table[rows[:, j], j + 1]
    return out


def run_chunks(play: Callable[[np.ndarray], list[np.ndarray]], n: int, k: int, hands: int,
               seed: np.random.SeedSequence) -> list[tuple[float, Interval[float]]]:
    """Deal ``hands`` rounds of ``k`` cards in chunks, ``play`` each chunk (one array of results
    per bet) and give each bet's mean and 95% interval."""
    if not 1 <= hands <= MAX_SIMULATED:
        raise ValueError(f"a simulation plays 1..{MAX_SIMULATED:,} deals, not {hands}")
    rng = np.random.default_rng(seed)
    sums: list[float] = []
    squares: list[float] = []
    done = 0
    while done < hands:
        m = min(CHUNK, hands - done)
        results = play(deal(rng, n, k, m))
        if not sums:
            sums, squares = [0.0] * len(results), [0.0] * len(results)
        for i, r in enumerate(results):
            sums[i] += float(r.sum())
            squares[i] += float((r * r).sum())
        done += m
    return [(s / hands, mean_interval(s, q, hands)) for s, q in zip(sums, squares)]


def positions_of(index: np.ndarray, k: int) -> np.ndarray:
    """The positions (rows of k, ascending) of the hands of these colex numbers (:func:`colex`
    undone).

    >>> positions_of(np.array([0, 1, 3]), 2).tolist()
    [[0, 1], [0, 2], [0, 3]]
    """
    rest = np.asarray(index, dtype=np.int64).copy()
    out = np.empty((len(rest), k), dtype=np.int64)
    top = 64
    table = np.array([[comb(p, j) for j in range(k + 1)] for p in range(top + 1)], dtype=np.int64)
    for j in range(k, 0, -1):
        # the largest p with C(p, j) <= rest
        p = np.searchsorted(table[:, j], rest, side="right") - 1
        out[:, j - 1] = p
        rest -= table[p, j]
    return out
