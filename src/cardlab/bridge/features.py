"""Bridge features of a hand: points under a scheme, suit lengths, patterns, longest suit, joints.

Each feature counts exactly by generating functions (never by listing hands)
and encodes sampled hands for simulation, so :func:`cardlab.engine.exact` and
:func:`cardlab.engine.simulate` accept them.

>>> from cardlab.dealing import Deck, Draw
>>> from cardlab.engine import exact
>>> shapes = exact(Draw(Deck.standard(), 13), Pattern()).nonzero()
>>> len(shapes.values), shapes.count("4-4-3-2")
(39, 136852887600)
>>> len(exact(Draw(Deck.standard(), 13), SuitLengths()).nonzero().values)
560
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction
from math import comb
from typing import Any, ClassVar

import numpy as np

from cardlab.cards import SUIT_ORDER
from cardlab.bridge.schemes import PointScheme, parse_scheme
from cardlab import drawing
from cardlab.dealing import Draw
from cardlab.drawing import WeightTask
from cardlab.errors import TooLargeError
from cardlab.bridge.polynomials import class_polynomial, shape_key, sparse_counts, suit_lengths

__all__ = ["Points", "ShapeFeature", "SuitLengths", "Pattern", "LongestSuit", "Joint", "lengths_text"]

_MAX_DENSE_TOTAL = 200_000
"""Widest scaled point range the joint tables count (one slot per total in each suit's polynomial)."""



def lengths_text(lengths: tuple[int, ...]) -> str:
    """"4-4-3-2" from a tuple of lengths."""
    return "-".join(str(n) for n in lengths)


@dataclass(frozen=True)
class Points:
    """Total points of the hand under a point scheme (default Work 4-3-2-1)."""

    scheme: PointScheme
    axes: ClassVar[tuple[str, ...]] = ()

    def __init__(self, scheme: PointScheme | str = "work") -> None:  # a name or spec is parsed
        object.__setattr__(self, "scheme", parse_scheme(scheme))

    @property
    def name(self) -> str:
        """``"hcp"`` for the 4-3-2-1 count, else ``"<scheme> points"``."""
        return "hcp" if self.scheme.name == "work" else f"{self.scheme.name} points"

    def top(self, draw: Draw) -> int:
        """Largest scaled total any hand of the draw can have."""
        values = np.array(self.scheme.card_values())[draw.deck.physical()]
        return int(np.sort(values)[::-1][: draw.k].sum())

    def totals(self, draw: Draw) -> dict[int, int]:
        """The scaled totals a hand of the draw can reach, in order, with the number of hands
        for each: counted by value classes without an array as wide as the largest total, so
        ``A=1000000`` is as quick as ``A=4``."""
        card_values = self.scheme.card_values()
        classes = Counter(card_values[i] for i in draw.deck.physical().tolist())
        return _sparse_totals(tuple(sorted(classes.items())), draw.k)

    def values(self, draw: Draw) -> list[Fraction]:
        """The totals a hand can have (those no hand can reach are left out), low to high."""
        scale = self.scheme.scale
        return [Fraction(v, scale) for v in self.totals(draw)]

    def exact_counts(self, draw: Draw) -> list[int]:
        """Hands with each total of :meth:`values`, by the scheme's value classes."""
        return list(self.totals(draw).values())

    def encode(self, draw: Draw, hands: np.ndarray) -> np.ndarray:
        """The index in :meth:`values` of each hand's total."""
        return self.index(draw, self.scaled_totals(hands))

    def scaled_totals(self, hands: np.ndarray) -> np.ndarray:
        """Each hand's total, scaled to an integer (int64: :func:`parse_scheme` keeps 52 cards' worth
        below 2^63)."""
        table = np.array(self.scheme.card_values(), dtype=np.int64)
        result: np.ndarray = table[hands].sum(axis=1)
        return result

    def index(self, draw: Draw, totals: np.ndarray) -> np.ndarray:
        """Positions of scaled ``totals`` in :meth:`values`."""
        support = np.fromiter(self.totals(draw), dtype=np.int64)
        return np.searchsorted(support, totals)

    def fused_task(self, draw: object) -> WeightTask | None:
        """The engine's fused route (:mod:`cardlab.drawing`): each hand's total summed in the
        compiled loop, for a draw within its limits and a scheme of non-negative card values whose
        totals stay below :data:`~cardlab.drawing.MAX_TALLY`; else ``None``."""
        if not isinstance(draw, Draw) or not drawing.fits(draw) or not drawing.encodes_as(self, Points):
            return None
        weights = np.array(self.scheme.card_values(), dtype=np.int64)
        if weights.min() < 0 or self.top(draw) >= drawing.MAX_TALLY:
            return None
        index = np.minimum(self.index(draw, np.arange(self.top(draw) + 1)), len(self.totals(draw)) - 1)
        return WeightTask(draw, weights.astype(np.int32), index, len(self.totals(draw)))


@lru_cache(maxsize=64)
def _sparse_totals(classes: tuple[tuple[int, int], ...], k: int) -> dict[int, int]:
    """``{total: ways}`` for ``k`` cards from classes ``(value, size)``: the cached kernel of
    :meth:`Points.totals` (a simulation asks for it once per chunk)."""
    return sparse_counts([(size, value) for value, size in classes], k)


class ShapeFeature:
    """Features of the suit lengths alone; subclasses name the value of a length vector."""

    name = "shape"
    axes: tuple[str, ...] = ()

    def key(self, lengths: tuple[int, ...]) -> Any:  # lengths in S, H, D, C order
        """The value of the feature for suit lengths in S, H, D, C order."""
        raise NotImplementedError

    def keys(self, draw: Draw) -> tuple[Any, ...]:
        """:meth:`key` of each of the draw's length vectors, in their order (kept per feature and
        deck for a feature that compares by value, as the built-in ones do)."""
        sizes = tuple(_suit_sizes(draw))
        try:
            return _keys_of(self, sizes, draw.k)
        except TypeError:  # a feature that cannot be hashed
            return tuple(self.key(v) for v in _vectors(sizes, draw.k))

    def values(self, draw: Draw) -> list[Any]:
        """Every value the draw's hands can take, in display order."""
        return sorted(set(self.keys(draw)), key=_sort_key, reverse=True)

    def exact_counts(self, draw: Draw) -> list[int]:
        """Hands with each value: a product of binomials per suit-length vector."""
        index = {v: i for i, v in enumerate(self.values(draw))}
        counts = [0] * len(index)
        binomials = [[comb(size, n) for n in range(draw.k + 1)] for size in _suit_sizes(draw)]
        bs, bh, bd, bc = binomials
        for (s, h, d, c), key in zip(_length_vectors(draw), self.keys(draw)):
            counts[index[key]] += bs[s] * bh[h] * bd[d] * bc[c]
        return counts

    def encode(self, draw: Draw, hands: np.ndarray) -> np.ndarray:
        """The index into :meth:`values` of each hand."""
        result: np.ndarray = self._code_table(draw)[_flat_hands(hands, draw.k + 1)]
        return result

    def _code_table(self, draw: Draw) -> np.ndarray:
        """The index into :meth:`values` of each :func:`shape_key` (base ``k + 1``) a hand can have."""
        index = {v: i for i, v in enumerate(self.values(draw))}
        k = draw.k + 1
        table = np.zeros(k**4, dtype=np.int64)
        for lengths, key in zip(_length_vectors(draw), self.keys(draw)):
            table[_flat(lengths, k)] = index[key]
        return table

    def fused_task(self, draw: object) -> WeightTask | None:
        """The engine's fused route (:mod:`cardlab.drawing`): a card weighs its suit's digit of
        :func:`shape_key`, so a hand's sum is its shape key; for a draw within the kernel's limits
        and of at most 30 cards (a key table of ``(k + 1)^4`` entries), else ``None``."""
        if not isinstance(draw, Draw) or not drawing.fits(draw) or (draw.k + 1) ** 4 > drawing.MAX_TALLY \
                or not drawing.encodes_as(self, ShapeFeature):
            return None
        weights = _flat_hands(np.arange(52).reshape(52, 1), draw.k + 1).astype(np.int32)
        return WeightTask(draw, weights, self._code_table(draw), len(self.values(draw)))


@lru_cache(maxsize=64)
def _keys_of(feature: ShapeFeature, sizes: tuple[int, ...], k: int) -> tuple[Any, ...]:
    return tuple(feature.key(v) for v in _vectors(sizes, k))


@dataclass(frozen=True)
class SuitLengths(ShapeFeature):
    """The specific distribution: spade-heart-diamond-club lengths, "5-4-3-1"."""

    name = "suit lengths"

    def key(self, lengths: tuple[int, ...]) -> str:
        """``"5-4-3-1"``: spades, hearts, diamonds, clubs."""
        return lengths_text(lengths)


@dataclass(frozen=True)
class Pattern(ShapeFeature):
    """The pattern: suit lengths longest first, "4-4-3-2"."""

    name = "pattern"

    def key(self, lengths: tuple[int, ...]) -> str:
        """``"5-4-3-1"``: the lengths longest first."""
        return lengths_text(tuple(sorted(lengths, reverse=True)))


@dataclass(frozen=True)
class LongestSuit(ShapeFeature):
    """Length of the longest suit."""

    name = "longest suit"

    def key(self, lengths: tuple[int, ...]) -> int:
        """The longest length."""
        return max(lengths)

    def values(self, draw: Draw) -> list[Any]:
        """Every longest length the draw's hands can have, shortest first."""
        return sorted(set(self.keys(draw)))


@dataclass(frozen=True)
class Joint:
    """Points (under a scheme) together with a shape feature: one row per pair of values."""

    points: Points
    shape: ShapeFeature

    @property
    def name(self) -> str:
        """``"<points> × <shape>"``."""
        return f"{self.points.name} × {self.shape.name}"

    @property
    def axes(self) -> tuple[str, str]:
        """The names of the two parts: points, then shape."""
        return (self.points.name, self.shape.name)

    def values(self, draw: Draw) -> list[tuple[Any, Any]]:
        """Every (points, shape) pair, points major."""
        return list(itertools.product(self.points.values(draw), self.shape.values(draw)))

    def exact_counts(self, draw: Draw) -> list[int]:
        """Hands with each (points, shape) pair, one polynomial per suit."""
        support = list(self.points.totals(draw))  # scaled totals that occur, low to high
        if support[-1] > _MAX_DENSE_TOTAL:
            raise TooLargeError(f"the joint table of scheme {self.points.scheme} needs a slot for every total "
                                f"from 0 to {self.points.values(draw)[-1]} in steps of 1/{self.points.scheme.scale}: "
                                f"too many; use point values whose totals stay within {_MAX_DENSE_TOTAL:,} steps")
        shape_values = self.shape.values(draw)
        index = {v: i for i, v in enumerate(shape_values)}
        dtype: Any = np.int64 if draw.outcomes() < 2**62 else object
        table = np.zeros((support[-1] + 1, len(shape_values)), dtype=dtype)
        slot, products = _packed_products(draw, self.points.scheme.card_values())
        columns = [0] * len(shape_values)  # each column's points table, packed: the products added
        for key, product in zip(self.shape.keys(draw), products):
            columns[index[key]] += product
        for column, packed in enumerate(columns):
            points = _unpack(packed, slot)
            table[: len(points), column] += points
        return [int(c) for c in table[support].ravel()]

    def encode(self, draw: Draw, hands: np.ndarray) -> np.ndarray:
        """The index into :meth:`values` of each hand."""
        n_shape = len(self.shape.values(draw))
        result: np.ndarray = self.points.encode(draw, hands) * n_shape + self.shape.encode(draw, hands)
        return result


def _sort_key(value: Any) -> Any:
    if isinstance(value, str):
        return tuple(int(n) for n in value.split("-"))
    return value


def _suit_sizes(draw: Draw) -> list[int]:
    counts = draw.deck.counts
    return [sum(counts[s::4]) for s in SUIT_ORDER]


def _length_vectors(draw: Draw) -> tuple[tuple[int, ...], ...]:
    """Every (S, H, D, C) length vector a hand of the draw can have."""
    return _vectors(tuple(_suit_sizes(draw)), draw.k)


@lru_cache(maxsize=64)
def _vectors(sizes: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for s in range(min(sizes[0], k) + 1):
        for h in range(min(sizes[1], k - s) + 1):
            for d in range(min(sizes[2], k - s - h) + 1):
                c = k - s - h - d
                if c <= sizes[3]:
                    out.append((s, h, d, c))
    return tuple(out)


def _packed_products(draw: Draw, card_values: list[int]) -> tuple[int, list[int]]:
    """For each length vector (in :func:`_length_vectors`' order), the ways to hold it by total
    (scaled) points, packed in one integer of ``slot``-bit coefficients; and ``slot``.

    One generating function per suit (cards of that suit grouped by value) gives
    ways[length][points]; a length vector's points table is the product of its
    four suits' rows. The rows are multiplied as big integers (Kronecker
    substitution: one fixed-width slot per coefficient, wide enough for any
    count, so that products may be added too before they are unpacked), which is
    exact and much faster than convolving arrays.
    """
    slot = max(64, -(-(draw.outcomes().bit_length() + 1) // 8) * 8)
    packed = []
    for suit in SUIT_ORDER:
        classes = Counter(card_values[i] for i in draw.deck.physical().tolist() if i % 4 == suit)
        poly = class_polynomial([(n, v) for v, n in classes.items()], draw.k)
        packed.append([_pack(row, slot) for row in poly])
    ps, ph, pd, pc = packed
    return slot, [ps[s] * ph[h] * pd[d] * pc[c] for s, h, d, c in _length_vectors(draw)]


def _pack(row: np.ndarray, slot: int) -> int:
    value = 0
    for coefficient in reversed(row.tolist()):
        value = (value << slot) | int(coefficient)
    return value


def _unpack(value: int, slot: int) -> np.ndarray:
    n_slots = max(1, -(-value.bit_length() // slot))
    if slot == 64:
        return np.frombuffer(value.to_bytes(n_slots * 8, "little"), dtype="<u8").astype(np.int64)
    mask = (1 << slot) - 1
    return np.array([(value >> (i * slot)) & mask for i in range(n_slots)], dtype=object)


def _flat(lengths: tuple[int, ...], k: int) -> int:
    s, h, d, c = lengths
    return shape_key(s, h, d, c, k)


def _flat_hands(hands: np.ndarray, k: int) -> np.ndarray:
    lengths = suit_lengths(hands)
    return shape_key(lengths[:, 0], lengths[:, 1], lengths[:, 2], lengths[:, 3], k)
