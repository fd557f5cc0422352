"""Generating-function counting of card classes: the exact route of every bridge table.

Cards of equal value form a class (the four aces, the four kings, ..., the 36
low cards); the ways to take ``t`` cards from each class are multiplied and added
per total value. Nothing lists the hands.
"""

from __future__ import annotations

import math
from typing import Any, Sequence, TypeVar

import numpy as np

from cardlab.cards import SUIT_ORDER

__all__ = ["additive_counts", "class_polynomial", "sparse_counts", "suit_lengths", "shape_key", "MAX_STATES"]

MAX_STATES = 400_000
"""Most (cards, total) pairs :func:`sparse_counts` keeps at once before it refuses (a few seconds of work)."""

_L = TypeVar("_L", int, np.ndarray)


def additive_counts(classes: Sequence[tuple[int, int]], k: int) -> list[int]:
    """Ways to choose ``k`` cards so their values add up to each total.

    ``classes`` lists ``(size, value)``: ``size`` physical cards each worth the
    integer ``value`` (a card class such as "the four aces"). The answer, indexed
    by total value, is the coefficient of ``x^k`` in the product over classes of
    ``(1 + x*y^value)^size``: the seed method of counting aces, kings, queens and
    jacks and multiplying binomials, for any classes at once.

    >>> counts = additive_counts([(4, 4), (4, 3), (4, 2), (4, 1), (36, 0)], 13)
    >>> sum(counts), counts[37]
    (635013559600, 4)
    """
    n = sum(size for size, _ in classes)
    if not 0 <= k <= n:
        return []
    return [int(c) for c in class_polynomial(classes, k)[k]]


def class_polynomial(classes: Sequence[tuple[int, int]], k: int) -> np.ndarray:
    """Coefficients ``[j, v]``: ways to choose ``j <= k`` cards worth ``v`` in all.

    The product over classes of ``(1 + x*y^value)^size``, truncated at ``x^k``;
    int64 when the largest count fits, Python ints (object array) otherwise.
    """
    if any(size < 0 or value < 0 for size, value in classes):
        raise ValueError("class sizes and values must be non-negative")
    n = sum(size for size, _ in classes)
    k = min(k, n)
    top = sum(min(size, k) * value for size, value in classes)
    dtype: Any = np.int64 if math.comb(n, n // 2) < 2**62 else object
    poly = np.zeros((k + 1, top + 1), dtype=dtype)
    poly[0, 0] = 1
    for size, value in classes:
        if size == 0:
            continue
        new = np.zeros_like(poly)
        for t in range(min(size, k) + 1):
            new[t:, t * value:] += math.comb(size, t) * poly[: k + 1 - t, : top + 1 - t * value]
        poly = new
    return poly


def sparse_counts(classes: Sequence[tuple[int, int]], k: int) -> dict[int, int]:
    """Ways to choose ``k`` cards, by total value, for totals that occur only: ``{total: ways}``.

    The same coefficients as :func:`additive_counts`, kept in a dictionary instead of an array
    indexed by the total, so the work depends on how many totals a hand can reach, never on how
    large they are: ``A=1000000`` costs what ``A=4`` costs. Classes are ``(size, value)``.
    Raises :class:`~cardlab.errors.TooLargeError` when more than :data:`MAX_STATES` partial sums
    would be needed (values with no common structure on many classes).

    >>> counts = sparse_counts([(4, 4), (4, 3), (4, 2), (4, 1), (36, 0)], 13)
    >>> sum(counts.values()), counts[37], 38 in counts
    (635013559600, 4, False)
    >>> sparse_counts([(4, 10**9), (48, 0)], 13)[4 * 10**9]
    1677106640
    """
    from cardlab.errors import TooLargeError

    if any(size < 0 or value < 0 for size, value in classes):
        raise ValueError("class sizes and values must be non-negative")
    if not 0 <= k <= sum(size for size, _ in classes):
        return {}
    remaining = sum(size for size, _ in classes)
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    for size, value in classes:
        remaining -= size
        grown: dict[tuple[int, int], int] = {}
        ways = [math.comb(size, t) for t in range(min(size, k) + 1)]
        for (cards, total), count in states.items():
            for t in range(max(0, k - cards - remaining), min(size, k - cards) + 1):
                key = (cards + t, total + t * value)
                grown[key] = grown.get(key, 0) + count * ways[t]
        if len(grown) > MAX_STATES:
            raise TooLargeError(f"this point scheme gives more than {MAX_STATES:,} distinct partial totals "
                                f"to count exactly; use fewer distinct values, or --simulate")
        states = grown
    return {total: count for (cards, total), count in sorted(states.items(), key=lambda kv: kv[0][1])
            if cards == k}


def suit_lengths(hands: np.ndarray) -> np.ndarray:
    """Suit lengths of each row of an ``(n, k)`` array of card ids, as ``(n, 4)`` in S, H, D, C order.

    >>> suit_lengths(np.array([[51, 47, 0, 1]])).tolist()  # As Ks 2c 2d
    [[2, 0, 1, 1]]
    """
    suits = hands % 4
    return np.stack([(suits == s).sum(axis=1) for s in SUIT_ORDER], axis=1).astype(np.int64)


def shape_key(spades: _L, hearts: _L, diamonds: _L, clubs: _L, base: int = 14) -> _L:
    """The one integer standing for a suit-length vector: ``((s*base + h)*base + d)*base + c``
    (ints, or arrays element by element). ``base`` 14 fits any 13-card hand; the hand-table
    features use the hand size plus one.

    >>> shape_key(5, 3, 3, 2)
    14352
    >>> shape_key(np.array([5, 4]), np.array([3, 4]), np.array([3, 3]), np.array([2, 2])).tolist()
    [14352, 11804]
    """
    key: _L = ((spades * base + hearts) * base + diamonds) * base + clubs
    return key
