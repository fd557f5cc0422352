"""Dealing batches of bridge deals as ``owner[n, 52]`` (the seat holding each card id).

Cards are assigned one at a time, each going to a seat with probability
proportional to the cards that seat still needs: every deal consistent with
the predealt cards is equally likely (sequential sampling, Knuth's Algorithm S
generalised to four seats), and the whole batch moves one card per numpy step.
Card ``i`` of ``m`` still free goes to the first seat whose running total of
needs exceeds ``floor(r * m)`` for a uniform double ``r`` (53 random bits): each
outcome's probability is off by less than 1e-14 of itself.

>>> import numpy as np
>>> owner = deal_owners(np.random.default_rng(1), 5)
>>> owner.shape, sorted(np.bincount(owner[:, 0]).tolist())
((52, 5), [13, 13, 13, 13])
>>> fixed = np.full(52, -1, dtype=np.int8); fixed[51] = 2   # the ace of spades to South
>>> bool((deal_owners(np.random.default_rng(2), 100, fixed)[51] == 2).all())
True
"""

from __future__ import annotations

import numpy as np

__all__ = ["deal_owners", "deal_one_seat", "free_needs"]


def free_needs(fixed: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The free card ids and how many more cards each seat needs, given predealt cards."""
    if fixed is None:
        return np.arange(52), np.array([13, 13, 13, 13])
    counts = np.bincount(fixed[fixed >= 0].astype(np.int64), minlength=4)
    return np.flatnonzero(fixed < 0), 13 - counts


def deal_owners(rng: np.random.Generator, n: int, fixed: np.ndarray | None = None) -> np.ndarray:
    """``n`` random deals as ``owner[52, n]`` (uint8 seat per card id, one row per card so each
    card's seats are contiguous); ``fixed[card]`` = seat for predealt cards, -1 for cards to deal."""
    free, needs = free_needs(fixed)
    owner = np.empty((52, n), dtype=np.uint8)
    if fixed is not None:
        owner[:] = np.where(fixed < 0, 0, fixed).astype(np.uint8)[:, None]
    total = int(needs.sum())
    if total == 0:
        return owner
    bounds = np.cumsum(needs)[:3].astype(np.float64)
    c1 = np.full(n, bounds[0])
    c2 = np.full(n, bounds[1])
    c3 = np.full(n, bounds[2])
    x = np.empty(n)
    b1, b2, b3 = (np.empty(n, dtype=bool) for _ in range(3))
    seat = np.empty(n, dtype=np.uint8)
    for i, card in enumerate(free.tolist()):
        rng.random(out=x)
        x *= total - i
        np.less(x, c1, out=b1)
        np.less(x, c2, out=b2)
        np.less(x, c3, out=b3)
        np.add(b1.view(np.uint8), b2.view(np.uint8), out=seat)
        seat += b3.view(np.uint8)
        np.subtract(3, seat, out=owner[card])
        c1 -= b1
        c2 -= b2
        c3 -= b3
    return owner


def deal_one_seat(rng: np.random.Generator, n: int, seat: int) -> np.ndarray:
    """``n`` random hands for one seat only, as ``owner[52, n]`` with 4 (nobody in particular)
    for the other 39 cards: the seat's hand has the same distribution as in :func:`deal_owners`,
    for scripts that look at that seat alone and print nothing."""
    owner = np.empty((52, n), dtype=np.uint8)
    need = np.full(n, 13.0)
    x = np.empty(n)
    taken = np.empty(n, dtype=bool)
    for card in range(52):
        rng.random(out=x)
        x *= 52 - card
        np.less(x, need, out=taken)
        np.subtract(4, taken.view(np.uint8) * np.uint8(4 - seat), out=owner[card])
        need -= taken
    return owner
