"""Poker hand categories and rule variants: which straights exist, which category beats which.

A :class:`Category` names a kind of hand (its ``key`` is the snake_case name
used in JSON); a :class:`Rules` variant orders the categories and lists the
straights. :data:`STANDARD` is ordinary poker (ace-low straight A-2-3-4-5 is the
lowest); :data:`SHORT_DECK` is six-plus hold'em on 36 cards (A-6-7-8-9 is the
lowest straight and a flush beats a full house). Five of a kind, possible only
when a card can repeat (several decks, reels), beats everything in both.

>>> [c.key for c in STANDARD.order[-3:]]
['straight_flush', 'royal_flush', 'five_of_a_kind']
>>> SHORT_DECK.beats(Category.FLUSH, Category.FULL_HOUSE)
True
>>> rules_named("short").name
'short_deck'
>>> rules_named("omaha")
Traceback (most recent call last):
...
cardlab.errors.HandError: unknown poker rules 'omaha' (choose standard or short_deck)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Iterable

import numpy as np

from cardlab.cards import format_cards
from cardlab.errors import HandError
from cardlab.textformat import title

__all__ = ["Category", "Rules", "STANDARD", "SHORT_DECK", "rules_named"]


class Category(IntEnum):
    """Kinds of poker hand, numbered in the standard order (weakest first)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_OF_A_KIND = 10

    @property
    def key(self) -> str:
        """The snake_case name used in JSON, e.g. ``'three_of_a_kind'``."""
        return self.name.lower()

    @property
    def label(self) -> str:
        """The name for people, e.g. ``'three of a kind'``."""
        return self.name.lower().replace("_", " ")

    @property
    def title(self) -> str:
        """The name a table shows, e.g. ``'Three of a kind'`` (:func:`cardlab.textformat.title`)."""
        return title(self.key)

    @classmethod
    def from_key(cls, key: str) -> Category:
        """The category whose :attr:`key` (or label) this is."""
        try:
            return cls[key.strip().upper().replace(" ", "_")]
        except KeyError:
            raise HandError(f"unknown poker category '{key}'") from None


@dataclass(frozen=True)
class Rules:
    """A rule variant: the order of categories and the straights.

    ``order`` lists every category from weakest to strongest. ``straights`` maps
    the top rank (0 = two .. 12 = ace) of each straight, as counted for
    comparison, to the five ranks it needs. ``lowest_rank`` is the lowest rank in
    the variant's deck (0 for the standard deck, 4 = six for the short deck).
    """

    name: str
    order: tuple[Category, ...]
    straights: tuple[tuple[int, tuple[int, ...]], ...]
    lowest_rank: int = 0

    def __repr__(self) -> str:
        """The module constant's name (``STANDARD``, ``SHORT_DECK``), else the fields."""
        for constant in ("STANDARD", "SHORT_DECK"):
            if globals().get(constant) == self:
                return constant
        return f"Rules(name={self.name!r}, order={self.order!r}, straights={self.straights!r}, " \
               f"lowest_rank={self.lowest_rank!r})"

    def position(self, category: Category) -> int:
        """Place of ``category`` in :attr:`order` (0 = weakest)."""
        return self.order.index(category)

    def beats(self, a: Category, b: Category) -> bool:
        """Whether category ``a`` beats category ``b`` under these rules."""
        return self.position(a) > self.position(b)

    def check_cards(self, ids: Iterable[int] | np.ndarray, where: str = "") -> None:
        """Raise :class:`HandError` naming the first card not in this variant's deck.

        ``ids`` are card ids (any shape of array, or an iterable); ``where`` is
        added after the card in the message, e.g. ``"on the reels"``.

        >>> SHORT_DECK.check_cards([51, 47, 16])
        >>> SHORT_DECK.check_cards([51, 13], where="on the reels")
        Traceback (most recent call last):
        ...
        cardlab.errors.HandError: card 5d on the reels is not in the short deck
        """
        if self.lowest_rank == 0:
            return
        flat = np.asarray(ids if isinstance(ids, np.ndarray) else list(ids), dtype=np.int64).ravel()
        outside = np.flatnonzero(flat // 4 < self.lowest_rank)
        if len(outside):
            card = format_cards([int(flat[outside[0]])])
            place = f" {where}" if where else ""
            raise HandError(f"card {card}{place} is not in the {self.name.replace('_', ' ')}")


def _runs(lowest_top: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    return tuple((top, tuple(range(top - 4, top + 1))) for top in range(lowest_top, 13))


_STANDARD_ORDER = tuple(Category)
_SHORT_ORDER = (
    Category.HIGH_CARD,
    Category.ONE_PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
    Category.ROYAL_FLUSH,
    Category.FIVE_OF_A_KIND,
)

STANDARD = Rules(
    name="standard",
    order=_STANDARD_ORDER,
    # the wheel A-2-3-4-5 counts as five-high, below 2-3-4-5-6
    straights=((3, (12, 0, 1, 2, 3)),) + _runs(4),
)
SHORT_DECK = Rules(
    name="short_deck",
    order=_SHORT_ORDER,
    # A-6-7-8-9 counts as nine-high, below 6-7-8-9-T
    straights=((7, (12, 4, 5, 6, 7)),) + _runs(8),
    lowest_rank=4,
)

_BY_NAME = {"standard": STANDARD, "short_deck": SHORT_DECK, "short": SHORT_DECK}


def rules_named(name: str) -> Rules:
    """The rule variant called ``name`` (``standard``, ``short_deck`` or ``short``).

    >>> rules_named("short").name
    'short_deck'
    """
    try:
        return _BY_NAME[name.strip().lower().replace("-", "_")]
    except KeyError:
        raise HandError(f"unknown poker rules '{name}' (choose standard or short_deck)") from None
