"""The hands of a :class:`Draw` in a seeded simulation: drawn from each chunk's own stream in the
compiled core (``csrc/draw_tally.c``, GIL released), and for the engine's fused route valued and
counted in the same loop, never handed to Python.

The stream of a chunk (its seed words: :func:`seed_words`): xoshiro256**; a hand is ``k`` ranks
``r_j`` uniform below ``size - j``, several from each 64-bit generator word (batched Lemire
draws, exactly uniform), and place ``j`` is the ``r_j``-th of the deck's places not yet taken
(``tests/stream_reference.py`` is a plain-Python copy, the tests' oracle). Both of the engine's
routes draw these hands (:func:`draw_hands` for the generic one), so a feature gives the same
counts whichever route counts it, for the same seed and chunk size, whatever the number of
workers. A feature offers the fused route with a ``fused_task(dealing)`` method
(:func:`cardlab.engine.simulate` calls it) returning a chunk task or ``None``.

>>> from cardlab.dealing import Deck, Draw
>>> draw = Draw(Deck.standard(), 13)
>>> seed = np.random.SeedSequence(5)
>>> hands = np.empty((3, 13), dtype=np.uint8)
>>> points = weight_tally(draw, hcp_weights(), 41, seed, 3, hands=hands)
>>> bool((hands == draw_hands(draw, seed, 3)).all()), int(points @ np.arange(41)) == int(hcp_weights()[hands].sum())
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeGuard

import numpy as np

from cardlab._native import core as _core
from cardlab.dealing import Draw
from cardlab.errors import CardlabError

__all__ = ["MAX_CARDS", "MAX_CARDS_IN_HAND", "MAX_TALLY", "fits", "encodes_as", "seed_words", "draw_hands",
           "poker_counts", "weight_tally", "hcp_weights", "WeightTask"]

MAX_CARDS = 4096
"""The most physical cards the kernel draws from (a bigger deck takes the generic route)."""

MAX_CARDS_IN_HAND = 64
"""The most cards in a hand the kernel draws."""

MAX_TALLY = 1 << 20
"""The most sums a weight tally counts (a point scheme whose totals reach further takes the generic route)."""


def fits(dealing: object) -> TypeGuard[Draw]:
    """Whether the kernel draws the hands of ``dealing``: a :class:`Draw` within its limits."""
    return (isinstance(dealing, Draw) and 1 <= dealing.k <= MAX_CARDS_IN_HAND
            and dealing.deck.size <= MAX_CARDS)


def encodes_as(feature: object, cls: type) -> bool:
    """Whether ``feature`` values hands with ``cls.encode`` itself: a subclass that overrides
    ``encode`` takes the generic route, so its own ``encode`` is what counts.

    >>> class Halved(WeightTask):
    ...     def encode(self) -> None: ...
    >>> encodes_as(Halved.__new__(Halved), WeightTask), encodes_as(Halved.__new__(Halved), Halved)
    (False, True)
    """
    return getattr(type(feature), "encode", None) is getattr(cls, "encode", object())


def seed_words(seed: np.random.SeedSequence) -> bytes:
    """The 32 bytes of a chunk's generator state: its first four 64-bit seed words (the kernels'
    one convention, :func:`cardlab.engine.kernel_state`)."""
    return bytes(seed.generate_state(4, np.uint64).tobytes())


def draw_hands(draw: Draw, seed: np.random.SeedSequence, n: int) -> np.ndarray:
    """The ``n`` hands of ``draw`` (a draw that :func:`fits`) of the stream of ``seed``, as an
    ``(n, k)`` uint8 array of card ids: the hands the fused route counts for that chunk seed."""
    hands = np.empty((n, draw.k), dtype=np.uint8)
    _core.draw_hands(draw.deck.physical().tobytes(), draw.k, n, seed_words(seed), hands)
    return hands


def _hands_out(hands: np.ndarray | None, n: int, k: int) -> np.ndarray:
    if hands is None:
        return np.empty(0, dtype=np.uint8)
    if hands.dtype != np.uint8 or hands.shape != (n, k) or not hands.flags.c_contiguous:
        raise CardlabError(f"hands must be a contiguous ({n}, {k}) uint8 array")
    return hands


def poker_counts(draw: Draw, tables: object, seed: np.random.SeedSequence, n: int,
                 hands: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The category positions (16 int64) of the ``n`` hands of ``draw`` of the stream of ``seed``
    (:func:`draw_hands`'s), and the hands holding a card twice (several decks), left for the caller
    to value; ``hands``, an ``(n, k)`` uint8 array, receives every hand.
    """
    cards = draw.deck.physical().tobytes()
    counts = np.zeros(16, dtype=np.int64)
    repeats = len(set(cards)) < len(cards)
    spill = np.empty((n if repeats else 0, draw.k), dtype=np.uint8)
    spilled = _core.draw_poker(tables, cards, draw.k, n, seed_words(seed), counts, spill,
                               _hands_out(hands, n, draw.k))
    return counts, spill[:spilled]


def weight_tally(draw: Draw, weights: np.ndarray, size: int, seed: np.random.SeedSequence, n: int,
                 hands: np.ndarray | None = None) -> np.ndarray:
    """How many of ``n`` hands of ``draw`` (drawn as :func:`poker_counts` draws them) have each sum
    ``0 .. size - 1`` of ``weights`` (52 non-negative ints, by card id)."""
    tally = np.zeros(size, dtype=np.int64)
    _core.draw_weights(draw.deck.physical().tobytes(), draw.k, n, seed_words(seed),
                       np.ascontiguousarray(weights, dtype=np.int32), tally, _hands_out(hands, n, draw.k))
    return tally


def hcp_weights() -> np.ndarray:
    """The 4-3-2-1 points of each card id (aces 4 ... jacks 1), the doctests' weights."""
    return np.array([max(0, c // 4 - 8) for c in range(52)], dtype=np.int32)


@dataclass(frozen=True, eq=False)
class WeightTask:
    """One chunk of a feature whose value depends on a sum of card weights: ``index[s]`` is the
    position in the feature's values of a hand whose weights add up to ``s``."""

    releases_gil: ClassVar[bool] = True
    draw: Draw
    weights: np.ndarray
    index: np.ndarray
    n_values: int

    def __call__(self, seed: np.random.SeedSequence, n: int) -> np.ndarray:
        tally = weight_tally(self.draw, self.weights, len(self.index), seed, n)
        counts = np.zeros(self.n_values, dtype=np.int64)
        np.add.at(counts, self.index, tally)
        return counts
