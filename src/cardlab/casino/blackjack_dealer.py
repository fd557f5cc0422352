"""The dealer's final total in blackjack, exactly, for any shoe composition and up card.

Every way the dealer can draw from an up card is listed once (by :func:`dealer_sequences`):
each multiset of drawn cards with the number of orders in which the dealer draws exactly those
cards and stops. The chance of one order depends only on the multiset (the falling factorials
of the counts drawn over that of the shoe), so the final-total probabilities for a whole batch
of shoes are a few array products (:func:`dealer_probabilities`) -- a recursion over
compositions, memoised once per up card and rule instead of once per shoe.

Outcomes are indexed 17, 18, 19, 20, 21, bust, blackjack (``OUTCOMES``).

>>> p = dealer_probabilities((0, 0, 0, 0, 0, 0, 0, 0, 0, 4), 9, h17=False)  # only tens left: 20
>>> [round(float(x), 3) for x in p[0]]
[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

__all__ = ["OUTCOMES", "BUST", "BLACKJACK", "dealer_sequences", "dealer_probabilities"]

OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST = 5
BLACKJACK = 6


@lru_cache(maxsize=64)
def dealer_sequences(up: int, h17: bool) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """The dealer's drawings from up card ``up`` (0 = ace .. 9 = ten): the multisets drawn
    (rows of ten counts), the number of orders of each, and each one's outcome index."""
    found: dict[tuple[tuple[int, ...], int], int] = {}
    drawn = [0] * 10

    def draw(hard: int, ace: bool, cards: int) -> None:
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if cards == 2 and total == 21:
            outcome = BLACKJACK
        elif total > 21:
            outcome = BUST
        elif total >= 18 or (total == 17 and not (soft and h17)):
            outcome = total - 17
        else:
            for rank in range(10):
                drawn[rank] += 1
                draw(hard + rank + 1, ace or rank == 0, cards + 1)
                drawn[rank] -= 1
            return
        key = (tuple(drawn), outcome)
        found[key] = found.get(key, 0) + 1

    draw(up + 1, up == 0, 1)
    keys = sorted(found)
    counts = np.array([k[0] for k in keys], dtype=np.int64)
    orders = np.array([found[k] for k in keys], dtype=np.float64)
    outcomes = np.array([k[1] for k in keys], dtype=np.int64)
    return counts, orders, outcomes


def dealer_probabilities(shoes: npt.ArrayLike, up: int, h17: bool) -> npt.NDArray[np.float64]:
    """For each shoe (rows of ten counts A..T, the up card already out) the probabilities of the
    seven outcomes (``OUTCOMES``), shape ``(len(shoes), 7)``. Blackjack is listed; with a peek
    game drop that column to get the chances joint with "no dealer blackjack"."""
    rows = np.atleast_2d(np.asarray(shoes, dtype=np.float64))
    pick, length, weight = _design(up, h17)
    depth = pick.shape[0] // 10
    # log of S_r (S_r - 1) ... (S_r - k + 1) for every rank r and k < depth; an impossible
    # draw (k > S_r) gets a huge negative log, so its chance comes out exactly 0
    steps = np.arange(depth, dtype=np.float64)
    factors = rows[:, :, None] - steps[None, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(factors > 0, np.log(np.maximum(factors, 1.0)), -1e30)
    falling = np.concatenate([np.zeros(rows.shape + (1,)), np.cumsum(logs, axis=2)[:, :, :-1]], axis=2)
    total = rows.sum(axis=1)
    drawn = total[:, None] - np.arange(int(length.max()) + 1, dtype=np.float64)[None, :]
    shoe_logs = np.where(drawn > 0, np.log(np.maximum(drawn, 1.0)), -1e30)
    below = np.concatenate([np.zeros((len(rows), 1)), np.cumsum(shoe_logs, axis=1)[:, :-1]], axis=1)
    chance = np.exp(np.maximum(falling.reshape(len(rows), -1) @ pick - below[:, length], -1e4))
    result: npt.NDArray[np.float64] = chance @ weight
    return result


@lru_cache(maxsize=64)
def _design(up: int, h17: bool) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The drawings as matrices: ``pick`` (10*depth, rows) one-hot of (rank, count drawn),
    each drawing's length, and ``weight`` (rows, 7): its number of orders in its outcome."""
    counts, orders, outcomes = dealer_sequences(up, h17)
    depth = int(counts.max()) + 1
    pick = np.zeros((10 * depth, len(counts)))
    for rank in range(10):
        pick[rank * depth + counts[:, rank], np.arange(len(counts))] = 1.0
    weight = np.zeros((len(counts), 7))
    weight[np.arange(len(counts)), outcomes] = orders
    return pick, counts.sum(axis=1), weight
