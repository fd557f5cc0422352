"""Exact dealing under ``predeal SUIT(SEAT) == N`` (DealerV2's "bias deal", docs/dealer.md).

Every deal in which the named seats hold exactly the named numbers of cards of the named suits
(and any predealt cards), each with the same probability: the deals the condition
``spades(north) == 5 && ...`` would accept from random deals, drawn without rejecting any.

A deal's suit lengths form a 4 x 4 table ``X[seat, suit]`` (rows: the seats' free places, columns:
each suit's cards still to deal). The number of deals with a given table is
``prod_suit multinomial(cards of the suit; X[., suit])``, and given the table the cards of each
suit are divided at random. So the draw is:

1. the table, one suit column at a time, each column with probability proportional to its
   multinomial times the number of ways to deal the remaining suits into the places left
   (``ways``, computed once per script by dynamic programming over the suits, from exact integer
   counts held as 64-bit floats: relative error below 1e-15);
2. each suit's free cards shuffled and dealt to the seats by the table's counts.

Both steps are vectorised (numpy) over a chunk of deals.

>>> plan = LengthPlan.build({(0, 3): 5}, [-1] * 52)
>>> round(plan.ways / 53644737765488792839237440000, 6)  # North has 5 spades: C(13,5) C(39,8) / C(52,13)
0.124692
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import factorial
from typing import Mapping, Sequence

import numpy as np

from cardlab.bridge.dealer.dealing import masks_from_owner
from cardlab.errors import DealerScriptError

__all__ = ["LengthPlan"]


def _multinomial(parts: Sequence[int]) -> int:
    out = factorial(sum(parts))
    for p in parts:
        out //= factorial(p)
    return out


@dataclass(frozen=True)
class LengthPlan:
    """The column choices of each suit and the ways to complete a deal from each state."""

    fixed: tuple[int, ...]  # the seat of each predealt card id, -1 for free cards
    free: tuple[tuple[int, ...], ...]  # per suit (clubs..spades), the free card ids
    columns: tuple[np.ndarray, ...]  # per suit, (k, 4) allowed counts per seat
    weights: tuple[np.ndarray, ...]  # per suit, (k,) multinomial of each column
    ways_after: tuple[np.ndarray, ...]  # per suit, ways to deal the later suits: [14, 14, 14, 14]
    ways: float  # deals meeting the lengths (and the predeal)

    @classmethod
    def build(cls, lengths: Mapping[tuple[int, int], int], fixed: Sequence[int]) -> "LengthPlan":
        """The plan for ``lengths[(seat, suit)]`` (suit 0 clubs .. 3 spades) and the predealt
        cards ``fixed[card id]`` (a seat, or -1)."""
        places = [13 - sum(1 for s in fixed if s == seat) for seat in range(4)]
        free = tuple(tuple(c for c in range(52) if c % 4 == suit and fixed[c] < 0) for suit in range(4))
        need: dict[tuple[int, int], int] = {}
        for (seat, suit), length in lengths.items():
            held = sum(1 for c in range(52) if c % 4 == suit and fixed[c] == seat)
            if held > length:
                raise DealerScriptError(f"the predealt cards give {('north', 'east', 'south', 'west')[seat]} "
                                        f"{held} {('clubs', 'diamonds', 'hearts', 'spades')[suit]}, more than "
                                        f"the {length} of the predeal by suit length")
            need[seat, suit] = length - held
        columns, weights = [], []
        for suit in range(4):
            rows = [c for c in itertools.product(range(len(free[suit]) + 1), repeat=3)
                    if sum(c) <= len(free[suit])]
            cols = [(*c, len(free[suit]) - sum(c)) for c in rows]
            cols = [c for c in cols if all(need.get((seat, suit), c[seat]) == c[seat] for seat in range(4))
                    and all(c[seat] <= places[seat] for seat in range(4))]
            columns.append(np.array(cols, dtype=np.int64).reshape(-1, 4))
            weights.append(np.array([float(_multinomial(c)) for c in cols]))
        # ways[k][r]: ways to deal suits k.. into free places r (r sums to those suits' cards)
        ways = [np.zeros((14, 14, 14, 14)) for _ in range(5)]
        ways[4][0, 0, 0, 0] = 1.0
        for suit in range(3, -1, -1):
            after, here = ways[suit + 1], ways[suit]
            for col, w in zip(columns[suit].tolist(), weights[suit].tolist()):
                a, b, c, d = col
                here[a:, b:, c:, d:] += w * after[:14 - a, :14 - b, :14 - c, :14 - d]
        total = float(ways[0][tuple(places)])
        if total <= 0:
            raise DealerScriptError("no deal has the predealt suit lengths (with the predealt cards)")
        return cls(tuple(int(s) for s in fixed), free, tuple(columns), tuple(weights),
                   tuple(ways[1:]), total)

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` deals as ``masks[4, 4, n]``, uniform among those meeting the plan."""
        fixed = np.array(self.fixed)
        places = np.array([13 - int((fixed == seat).sum()) for seat in range(4)], dtype=np.int64)
        state = np.repeat(places[None, :], n, axis=0)
        owner = np.full((52, n), 4, dtype=np.uint8)
        for card in np.flatnonzero(fixed >= 0):
            owner[card] = fixed[card]
        for suit in range(4):
            cols, w, after = self.columns[suit], self.weights[suit], self.ways_after[suit]
            keys = ((state[:, 0] * 14 + state[:, 1]) * 14 + state[:, 2]) * 14 + state[:, 3]
            unique, inverse = np.unique(keys, return_inverse=True)
            states = np.stack(np.unravel_index(unique, (14, 14, 14, 14)), axis=1)  # (m, 4)
            left = states[:, None, :] - cols[None, :, :]  # (m, k, 4)
            ok = (left >= 0).all(axis=2)
            clipped = np.where(ok[:, :, None], left, 0)
            weight = np.where(ok, w[None, :] * after[clipped[..., 0], clipped[..., 1], clipped[..., 2],
                                                       clipped[..., 3]], 0.0)
            cumulative = np.cumsum(weight, axis=1)
            cumulative /= cumulative[:, -1:]
            k = cols.shape[0]
            flat = (cumulative + np.arange(len(unique))[:, None]).ravel()
            u = rng.random(n)
            pick = np.searchsorted(flat, inverse.reshape(-1) + u, side="right") - inverse.reshape(-1) * k
            pick = np.minimum(pick, k - 1)
            counts = cols[pick]  # (n, 4) cards of this suit to each seat
            state = state - counts
            cards = np.array(self.free[suit], dtype=np.int64)
            if cards.size:
                order = np.argsort(rng.random((n, cards.size)), axis=1)  # a random order of the free cards
                bounds = np.cumsum(counts, axis=1)  # positions [bounds[s-1], bounds[s]) go to seat s
                seat_of = (np.arange(cards.size)[None, :, None] >= bounds[:, None, :]).sum(axis=2)
                owner[cards[order], np.arange(n)[:, None]] = seat_of.astype(np.uint8)
        return masks_from_owner(owner)
