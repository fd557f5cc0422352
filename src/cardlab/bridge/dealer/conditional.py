"""Exact conditional dealing for a condition on one seat's suit lengths and high-card points.

When a script's condition looks at one seat only, and only through suit lengths,
``shape()`` and standard 4-3-2-1 points (total or per suit), every hand can be
classed by its suit lengths ``L`` and points per suit ``h``. The number of hands
in a class is exact, ``prod_i w(L_i, h_i)`` with ``w(l, h)`` the holdings of ``l``
cards worth ``h`` points (honour sets of that value times spot cards), so the
condition is evaluated once per class and the accepted hands are drawn directly:

1. a class, with probability proportional to its number of hands (exact integer weights);
2. in each suit, an honour set of the class's value (weighted by its spot-card completions),
   then the spot cards uniformly;
3. the other 39 cards dealt uniformly to the other three seats;
4. the number of rejected deals before each accepted one, geometric with the exact
   acceptance probability ``p``.

Rejection sampling produces accepted deals that are independent draws from the uniform
distribution on the deals meeting the condition, separated by independent geometric
runs of rejected ones; steps 1-4 draw exactly that, so every output (deals, "Generated",
averages) has the same distribution as dealing and rejecting. ``tests/test_dealer.py``
checks the class weights against cardlab's exact tables and the draws against them.

>>> from cardlab.bridge.dealer.parser import parse_script
>>> s = parse_script("hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)")
>>> plan = ConditionalPlan.build(s)
>>> plan.seat, plan.accepted_hands, round(plan.probability, 6)
(0, 30897212184, 0.048656)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any

import numpy as np

from cardlab.bridge.dealer.evaluate import Evaluator, seats_used
from cardlab.bridge.dealer.parser import Script
from cardlab.bridge.polynomials import shape_key
from cardlab.errors import DealerScriptError

__all__ = ["ConditionalPlan", "holding_weights"]

_HONOUR_VALUES = (1, 2, 3, 4)  # J Q K A (ranks 9..12)
_TOTAL_HANDS = comb(52, 13)


class _NotApplicable(Exception):
    """The condition uses something a class of hands does not determine."""


@lru_cache(maxsize=None)
def holding_weights() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``w[l, h]`` holdings of ``l`` cards of a suit worth ``h`` points, and per (l, h) the honour
    sets (4-bit masks J=1, Q=2, K=4, A=8) with their cumulative weights (padded)."""
    weights = np.zeros((14, 11), dtype=np.int64)
    masks = np.zeros((14, 11, 16), dtype=np.int64)
    cumulative = np.full((14, 11, 16), np.iinfo(np.int64).max, dtype=np.int64)
    for l in range(14):
        for h in range(11):
            running = 0
            slot = 0
            for mask in range(16):
                bits = [(mask >> b) & 1 for b in range(4)]
                size, value = sum(bits), sum(v for v, bit in zip(_HONOUR_VALUES, bits) if bit)
                if value != h or size > l or l - size > 9:
                    continue
                running += comb(9, l - size)
                masks[l, h, slot] = mask
                cumulative[l, h, slot] = running
                slot += 1
            weights[l, h] = running
    return weights, masks, cumulative


class _ClassHands:
    """Stands in for :class:`Hands` over classes: lengths and standard points per suit only."""

    def __init__(self, seat: int, lengths: np.ndarray, points: np.ndarray) -> None:
        self.seat, self.n = seat, lengths.shape[1]
        self._lengths, self._points = lengths, points
        self._cache: dict[Any, Any] = {}

    def per_suit(self, seat: int, table_key: Any) -> np.ndarray:
        if seat != self.seat:
            raise _NotApplicable
        if table_key == "length":
            return self._lengths
        if table_key == "hcp" and self._standard:
            return self._points
        raise _NotApplicable

    _standard = True

    def lengths(self, seat: int) -> np.ndarray:
        return self.per_suit(seat, "length")

    def suit_value(self, seat: int, suit: int, table_key: Any) -> np.ndarray:
        return np.asarray(self.per_suit(seat, table_key)[suit])

    def shape_in(self, seat: int, table: np.ndarray) -> np.ndarray:
        return np.asarray(table[self.shape_key(seat)])

    def total(self, seat: int, table_key: Any) -> np.ndarray:
        return np.asarray(self.per_suit(seat, table_key).sum(axis=0))

    def shape_key(self, seat: int) -> np.ndarray:
        c, d, h, s = self.lengths(seat)
        return shape_key(s, h, d, c)

    def __getattr__(self, name: str) -> Any:
        raise _NotApplicable


class _TotalsOnly:
    """Points per suit of a coarse class: only their total (``.sum(axis=0)``) is known."""

    def __init__(self, totals: np.ndarray) -> None:
        self.totals = totals

    def sum(self, axis: int = 0) -> np.ndarray:
        return self.totals

    def __getitem__(self, item: Any) -> Any:
        raise _NotApplicable


@lru_cache(maxsize=1)
def _coarse_classes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (lengths, total points) class: lengths (4, k) clubs..spades, totals (k,), hands (k,)."""
    weights = holding_weights()[0]
    grid = np.indices((14, 14, 14)).reshape(3, -1)
    grid = grid[:, grid.sum(axis=0) <= 13]
    L = np.vstack([grid, 13 - grid.sum(axis=0)])  # (4, 560)
    poly = weights[L[0]]  # (560, 11): hands by points, one suit at a time (batched convolution)
    for suit in range(1, 4):
        step = weights[L[suit]]
        grown = np.zeros((poly.shape[0], poly.shape[1] + 10), dtype=np.int64)
        for points in range(11):
            grown[:, points:points + poly.shape[1]] += poly * step[:, points:points + 1]
        poly = grown
    which, totals = np.nonzero(poly)
    return L[:, which], totals, poly[which, totals]


def _fine_classes(lengths: np.ndarray, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (lengths, points per suit) classes inside the given coarse classes, with their hands."""
    weights = holding_weights()[0]
    lens, pts, ws = [], [], []
    order = np.lexsort(lengths)
    lengths, totals = lengths[:, order], totals[order]
    keys = [tuple(col) for col in lengths.T.tolist()]
    for L, group in itertools.groupby(range(len(keys)), key=lambda i: keys[i]):
        wanted = totals[list(group)]
        options = [np.flatnonzero(weights[l]) for l in L]
        grid = np.array(np.meshgrid(*options, indexing="ij")).reshape(4, -1)
        grid = grid[:, np.isin(grid.sum(axis=0), wanted)]
        w = np.ones(grid.shape[1], dtype=np.int64)
        for i, l in enumerate(L):
            w *= weights[l, grid[i]]
        lens.append(np.repeat(np.array(L)[:, None], grid.shape[1], axis=1))
        pts.append(grid)
        ws.append(w)
    return np.concatenate(lens, axis=1), np.concatenate(pts, axis=1), np.concatenate(ws)


@dataclass(frozen=True)
class ConditionalPlan:
    """The accepted classes of a one-seat condition, with their exact weights."""

    seat: int
    lengths: np.ndarray  # (4, k) suit lengths, clubs..spades
    points: np.ndarray  # (4, k)
    cumulative: np.ndarray  # (k,) running hands
    accepted_hands: int

    @property
    def probability(self) -> float:
        """Share of all 13-card hands the plan's seat condition accepts."""
        return self.accepted_hands / _TOTAL_HANDS

    @classmethod
    def build(cls, script: Script) -> "ConditionalPlan | None":
        """The plan for ``script``, or None when its condition is not of the kind handled here."""
        if script.predeal or script.predeal_lengths or script.pointcount != Script.pointcount:
            return None
        variables = script.variable_map()
        seats = seats_used(script.condition, variables)
        if len(seats) != 1:
            return None
        seat = next(iter(seats))
        evaluator = Evaluator(script)
        lengths, totals, _ = _coarse_classes()
        try:  # conditions on total points (the common case): few classes
            coarse = _ClassHands(seat, lengths, _TotalsOnly(totals))  # type: ignore[arg-type]
            ok = evaluator.truth(script.condition, coarse)  # type: ignore[arg-type]
            keep = np.flatnonzero(ok)
            if keep.size == 0:
                return None
            lengths, points, weights = _fine_classes(lengths[:, keep], totals[keep])
        except (_NotApplicable, TypeError, KeyError, AssertionError, DealerScriptError):
            return None  # points per suit, or anything else: deal and reject as usual
        # small integer types: the plan travels to the workers with every chunk
        return cls(seat, lengths.astype(np.int8), points.astype(np.int8), np.cumsum(weights), int(weights.sum()))

    def sample(self, seed: np.random.SeedSequence, n: int) -> tuple[np.ndarray, np.ndarray, np.random.Generator]:
        """``n`` accepted deals as ``masks[4, 4, n]``, the rejected deals before each (geometric),
        and the chunk's numpy generator. The classes are picked here (numpy); the honours and
        spot cards of each suit, and the other 39 cards, are drawn by the compiled core
        (``cardlab._core.deal_classes``) from the same chunk seed."""
        from cardlab.bridge.dealer.dealing import deal_classes

        rng = np.random.default_rng(seed)
        pick = np.searchsorted(self.cumulative, rng.integers(0, self.accepted_hands, n), side="right")
        deals = deal_classes(seed, self.lengths[:, pick], self.points[:, pick], self.seat, holding_weights())
        gaps = rng.geometric(self.probability, n) - 1
        return deals, gaps, rng
