"""Dealing batches of bridge deals as suit masks ``masks[seat, suit, deal]`` (the compiled core).

A batch of ``n`` deals is a ``(4, 4, n)`` uint16 array: bit ``r`` of ``masks[seat, suit, i]`` is
rank ``r`` (0 = the two .. 12 = the ace) of ``suit`` (0 clubs .. 3 spades, the order of card ids,
``id = rank * 4 + suit``) in ``seat``'s hand (0 North .. 3 West) of deal ``i``. Every feature a
dealer script reads is a table lookup on one suit's mask (:mod:`.functions`).

Deals are shuffled by the compiled kernel ``cardlab._core.deal_masks`` (Fisher-Yates over the
cards not predealt, xoshiro256** seeded from the chunk's ``SeedSequence``; see ``csrc/deal.c``),
with the GIL released, so chunks run on threads. The same seed gives the same deals on any
machine and for any number of threads. Predealt cards are placed first and the rest of the deck
is shuffled around them, so every deal consistent with them is equally likely.

>>> import numpy as np
>>> masks = deal_masks(np.random.SeedSequence(1), 5)
>>> masks.shape, [int(v) for v in popcount(masks).sum(axis=1)[:, 0]]
((4, 4, 5), [13, 13, 13, 13])
>>> fixed = np.full(52, -1, dtype=np.int8); fixed[51] = 2   # the ace of spades to South
>>> bool((deal_masks(np.random.SeedSequence(2), 100, fixed)[2, 3] >> 12 & 1).all())
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

import numpy as np

from cardlab._native import core as _core
from cardlab.board import SEAT_NAMES
from cardlab.engine import kernel_state
from cardlab.errors import CardError

__all__ = ["byte_view", "checked_masks", "deal_masks", "complete_deals", "deal_around", "deal_classes", "masks_from_owner", "owner_from_masks", "popcount",
           "hands_from_masks"]

_NO_FIXED = bytes([0xFF] * 52)  # int8 -1: every card to deal


def byte_view(array: np.ndarray) -> memoryview:
    """A C-contiguous array as the flat byte buffer a kernel takes (an empty writable one when it is empty)."""
    return array.data.cast("B") if array.size else memoryview(bytearray())


def deal_masks(seed: np.random.SeedSequence, n: int, fixed: np.ndarray | None = None,
               only_seats: Iterable[int] | None = None) -> np.ndarray:
    """``n`` random deals as ``masks[4, 4, n]``; ``fixed[card]`` is the seat of a predealt card
    (-1 for cards to deal). With ``only_seats`` (one or two seats, nothing predealt) only those
    seats' cards are dealt (a partial shuffle; the other seats' masks are 0): the same joint
    distribution for those hands, less work, for scripts that look at them alone."""
    out = np.empty((4, 4, n), dtype=np.uint16)
    fixed_bytes = _NO_FIXED if fixed is None else np.asarray(fixed, dtype=np.int8).tobytes()
    if fixed is not None and len(fixed_bytes) != 52:
        raise ValueError("fixed holds one seat (or -1) per card id, 52 in all")
    wanted = 0 if only_seats is None or fixed is not None else sum(1 << int(s) for s in set(only_seats))
    _core.deal_masks(kernel_state(seed, 1), n, fixed_bytes, wanted, memoryview(b""), -1, byte_view(out))
    return out


def complete_deals(seed: np.random.SeedSequence, masks: np.ndarray, seats: Iterable[int]) -> np.ndarray:
    """Deals of which only ``seats`` (one or two, as :func:`deal_masks` with ``only_seats``) were
    dealt, completed in place: the other seats get the cards left, shuffled uniformly (from words
    8..11 of the chunk seed's state, :func:`cardlab.engine.kernel_state` block 2, so the completion is
    independent of the first step)."""
    wanted = sum(1 << int(s) for s in set(seats))
    if masks.shape[2] and 0 < wanted < 15:
        _core.complete_deals(kernel_state(seed, 2), masks.shape[2], wanted, byte_view(masks))
    return masks


def deal_around(seed: np.random.SeedSequence, held: np.ndarray, seat: int) -> np.ndarray:
    """Deals where ``seat`` holds ``held[4, n]`` (suit masks of 13 cards each) and the other 39
    cards are shuffled to the other three seats (uniformly), as ``masks[4, 4, n]``."""
    held = np.ascontiguousarray(held, dtype=np.uint16)
    n = held.shape[1]
    out = np.empty((4, 4, n), dtype=np.uint16)
    _core.deal_masks(kernel_state(seed, 1), n, _NO_FIXED, 0, byte_view(held), seat,
                     byte_view(out))
    return out


def deal_classes(seed: np.random.SeedSequence, lengths: np.ndarray, points: np.ndarray, seat: int,
                 tables: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """Deals where ``seat`` holds, in each suit (clubs..spades), ``lengths[suit, i]`` cards worth
    ``points[suit, i]`` (4-3-2-1) points, drawn uniformly among such hands, and the other 39 cards
    are shuffled to the other seats, as ``masks[4, 4, n]``. ``tables`` are the holding weights of
    :func:`cardlab.bridge.dealer.conditional.holding_weights` (weights, honour masks, cumulative)."""
    weights, honours, cumulative = (np.ascontiguousarray(t, dtype=np.int64) for t in tables)
    lengths = np.ascontiguousarray(lengths, dtype=np.int8)
    points = np.ascontiguousarray(points, dtype=np.int8)
    n = lengths.shape[1]
    out = np.empty((4, 4, n), dtype=np.uint16)
    _core.deal_classes(kernel_state(seed, 1), n, seat, byte_view(lengths), byte_view(points), byte_view(weights),
                       byte_view(cumulative), byte_view(honours), byte_view(out))
    return out


@lru_cache(maxsize=1)
def _popcounts() -> np.ndarray:
    bits = (np.arange(8192)[:, None] >> np.arange(13)) & 1
    counts: np.ndarray = bits.sum(axis=1).astype(np.int64)
    return counts


def popcount(masks: np.ndarray) -> np.ndarray:
    """The number of cards in each mask (int64, same shape)."""
    counts: np.ndarray = _popcounts()[masks]
    return counts


def masks_from_owner(owner: np.ndarray) -> np.ndarray:
    """``masks[4, 4, n]`` from ``owner[52, n]`` (the seat 0..3 of each card id; other values: nobody)."""
    owner = np.asarray(owner)
    n = owner.shape[1]
    masks = np.zeros((4, 4, n), dtype=np.uint16)
    for card in range(52):
        rank, suit = divmod(card, 4)
        for seat in range(4):
            masks[seat, suit] |= (owner[card] == seat).astype(np.uint16) << np.uint16(rank)
    return masks


def owner_from_masks(masks: np.ndarray) -> np.ndarray:
    """``owner[52, n]`` (uint8 seat of each card id; 4 where no seat holds it) from ``masks[4, 4, n]``."""
    n = masks.shape[2]
    owner = np.full((52, n), 4, dtype=np.uint8)
    for seat in range(4):
        for suit in range(4):
            m = masks[seat, suit]
            for rank in range(13):
                owner[rank * 4 + suit][(m >> rank) & 1 == 1] = seat
    return owner


def hands_from_masks(masks: np.ndarray) -> list[tuple[tuple[int, ...], ...]]:
    """Each deal's four hands (N, E, S, W) as card ids, highest id first."""
    order = np.argsort(owner_from_masks(masks).T, axis=1, kind="stable")  # card ids grouped by seat
    return [tuple(tuple(row[13 * s: 13 * s + 13][::-1]) for s in range(4)) for row in order.tolist()]


def checked_masks(masks: np.ndarray, complete: bool = True) -> np.ndarray:
    """``masks[4, 4, k]`` given to a public function, as C-contiguous uint16 once checked: whole
    numbers of 13 bits, no card in two hands, every hand 13 cards (``complete``) or at most 13;
    else :class:`~cardlab.errors.CardError` naming the first deal and seat that is not."""
    array = np.asarray(masks)
    if array.ndim != 3 or array.shape[:2] != (4, 4):
        raise CardError(f"suit masks are an array of shape (4, 4, deals), not {array.shape}")
    if array.size and (array.dtype.kind not in "iu" or array.min() < 0 or array.max() > 0x1FFF):
        raise CardError("suit masks are whole numbers of 13 bits (0..8191), one bit per rank")
    array = np.ascontiguousarray(array, dtype=np.uint16)
    if not array.size:
        return array
    held = popcount(array).sum(axis=1)  # (4, k) cards per hand
    wrong = held != 13 if complete else held > 13
    if wrong.any():
        seat, deal = (int(v[0]) for v in np.nonzero(wrong))
        raise CardError(f"deal {deal + 1}: {SEAT_NAMES[seat]} holds {int(held[seat, deal])} cards, not "
                        f"{'' if complete else 'at most '}13")
    union = array[0] | array[1] | array[2] | array[3]
    twice = popcount(union).sum(axis=0) != held.sum(axis=0)
    if twice.any():
        raise CardError(f"deal {int(np.flatnonzero(twice)[0]) + 1}: a card is in two hands")
    return array
