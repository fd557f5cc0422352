"""Cards: values for people, small ints for machines, and their notations.

A card is the int ``rank * 4 + suit`` on every fast path: rank 0..12 is 2..A,
suit 0..3 is clubs, diamonds, hearts, spades, so the deck order is
2c 2d 2h 2s 3c ... As. :class:`Card` is the friendly frozen value.

>>> parse_cards("Js3h7d7cAd")
[Card('Js'), Card('3h'), Card('7d'), Card('7c'), Card('Ad')]
>>> format_cards(parse_cards("A♠ 10h, kd"))
'As Th Kd'
>>> format_pbn_hand(parse_pbn_hand("AKQJ.T98.765.432"))
'AKQJ.T98.765.432'
>>> parse_card("1s")
Traceback (most recent call last):
...
cardlab.errors.CardError: unknown card '1s'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Iterable

from cardlab.errors import CardError, text_argument

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "RANKS",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "SUIT_ORDER",
    "SUIT_LETTERS",
    "card_id",
    "parse_card",
    "parse_cards",
    "format_cards",
    "parse_pbn_hand",
    "format_pbn_hand",
    "parse_card_ids",
    "card_id_array",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
#: Suit names by suit id (clubs 0 .. spades 3).
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
#: Suit symbols by suit id.
SUIT_SYMBOLS = "♣♦♥♠"
#: Suits in the order a bridge hand is written (PBN hands, shapes such as 5-4-3-1): S, H, D, C.
SUIT_ORDER = (3, 2, 1, 0)
#: The suits' capital letters in that order (LIN hands): ``SUITS`` read by SUIT_ORDER, upper case.
SUIT_LETTERS = "SHDC"
_SUIT_SYMBOLS = {**{s: i for i, s in enumerate(SUIT_SYMBOLS)}, "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_SEPARATORS = set(" ,;\t\n-")


class Rank(IntEnum):
    """Card rank, 0 = two .. 12 = ace."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def symbol(self) -> str:
        """The rank's letter: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return RANKS[self]


class Suit(IntEnum):
    """Card suit in bridge order from lowest: clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """The suit's letter: ``c``, ``d``, ``h`` or ``s``."""
        return SUITS[self]


@dataclass(frozen=True, order=True)
class Card:
    """One card; ``Card('As')`` parses, ``str`` prints the canonical form.

    >>> Card("10h").id, Card("10h").rank, Card("10h").suit
    (34, <Rank.TEN: 8>, <Suit.HEARTS: 2>)
    >>> Card.from_id(51)
    Card('As')
    """

    id: int

    def __init__(self, text: str | int) -> None:
        value = text if isinstance(text, int) else card_id(text)
        if not 0 <= value < 52:
            raise CardError(f"card id {value} is outside 0..51")
        object.__setattr__(self, "id", value)

    @classmethod
    def from_id(cls, value: int) -> Card:
        """The card with id ``value`` (rank * 4 + suit)."""
        return cls(int(value))

    @property
    def rank(self) -> Rank:
        """The card's :class:`Rank`."""
        return Rank(self.id // 4)

    @property
    def suit(self) -> Suit:
        """The card's :class:`Suit`."""
        return Suit(self.id % 4)

    def __str__(self) -> str:
        return RANKS[self.id // 4] + SUITS[self.id % 4]

    def __repr__(self) -> str:
        return f"Card('{self}')"


def _rank_index(char: str) -> int:
    return RANKS.index(char.upper())


def _suit_index(char: str) -> int:
    if char in _SUIT_SYMBOLS:
        return _SUIT_SYMBOLS[char]
    return SUITS.index(char.lower())


_CARD_RE = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE)


def card_id(text: str) -> int:
    """The int id of one card written as ``As``, ``AS``, ``A♠``, ``10s`` or ``Ts``."""
    match = _CARD_RE.fullmatch(text.strip())
    if match is None:
        raise CardError(f"unknown card '{text}'")
    rank, suit = match.groups()
    return (8 if rank == "10" else _rank_index(rank)) * 4 + _suit_index(suit)


def parse_card(text: str) -> Card:
    """One card from its text."""
    return Card(card_id(text))


def _check_symbols(text: str) -> None:
    allowed = set(RANKS + RANKS.lower() + SUITS + SUITS.upper() + "1" + "0") | set(_SUIT_SYMBOLS)
    for char in text:
        if char not in allowed and char not in _SEPARATORS:
            raise CardError(f"unknown symbol '{char}' in '{text}'")


def parse_card_ids(text: str) -> list[int]:
    """Card ids from a card list ("As Kd", "AsKd", "A♠,10h") or a PBN hand with dots.

    Order is kept and repeats are kept: whether a repeat is allowed depends on
    the deck, which checks it.
    """
    text_argument(text, "a card list ('As Kd')", CardError)
    if "." in text:
        return parse_pbn_ids(text)
    _check_symbols(text)
    ids: list[int] = []
    pos = 0
    compact = "".join(ch for ch in text if ch not in _SEPARATORS)
    while pos < len(compact):
        match = _CARD_RE.match(compact, pos)
        if match is None:
            rest = compact[pos : pos + 3]
            raise CardError(f"cannot read a card at '{rest}' in '{text}': a card is a rank "
                            f"(2-9, T or 10, J, Q, K, A) followed by a suit (c, d, h, s)")
        ids.append(card_id(match.group(0)))
        pos = match.end()
    if not ids:
        raise CardError(f"no cards in '{text}'")
    return ids


def parse_cards(text: str) -> list[Card]:
    """Cards from a card list or a PBN hand; see :func:`parse_card_ids`.

    >>> parse_cards("As Kd 7c")
    [Card('As'), Card('Kd'), Card('7c')]
    """
    return [Card(i) for i in parse_card_ids(text)]


def format_cards(cards: Iterable[Card | int], sep: str = " ") -> str:
    """Canonical text of cards, in the order given.

    >>> format_cards(parse_cards("AsKd7c"))
    'As Kd 7c'
    """
    return sep.join(str(c if isinstance(c, Card) else Card(int(c))) for c in cards)


def parse_pbn_ids(text: str) -> list[int]:
    """Card ids of a PBN hand "AKQJ.T98.765.432" (spades.hearts.diamonds.clubs)."""
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise CardError(f"a PBN hand has four suits separated by dots (S.H.D.C), got '{text}'")
    ids: list[int] = []
    for suit_index, holding in zip(SUIT_ORDER, parts):
        holding = holding.strip().replace("10", "T")
        for char in holding:
            if char.upper() not in RANKS:
                raise CardError(f"unknown rank '{char}' in PBN hand '{text}'")
            ids.append(_rank_index(char) * 4 + suit_index)
    return ids


def parse_pbn_hand(text: str) -> list[Card]:
    """Cards of a PBN hand "AKQJ.T98.765.432" (spades.hearts.diamonds.clubs)."""
    return [Card(i) for i in parse_pbn_ids(text)]


def format_pbn_hand(cards: Iterable[Card | int]) -> str:
    """PBN text (S.H.D.C, ranks high to low) of a hand."""
    ids = sorted((c.id if isinstance(c, Card) else int(c) for c in cards), reverse=True)
    return ".".join(
        "".join(RANKS[i // 4] for i in ids if i % 4 == suit) for suit in SUIT_ORDER
    )


def card_id_array(values: Any, what: str = "card ids", error: type[CardError] | Any = CardError) -> np.ndarray:
    """``values`` (a sequence or array of card ids, any shape) as a uint8 array of that shape when
    every value is a whole number 0..51, else ``error`` naming the first value that is not: floats
    (``3.7``, NaN), complex numbers, bools and strings are refused, never rounded to a card.

    >>> card_id_array([[51, 47], [0, 3]]).tolist()
    [[51, 47], [0, 3]]
    >>> card_id_array([51, float("nan")])
    Traceback (most recent call last):
    ...
    cardlab.errors.CardError: card ids are whole numbers 0..51, not nan (at position 1; this array holds float64 values)
    """
    import numpy as np

    array = np.asarray(values)
    if array.size == 0:
        return np.zeros(array.shape, dtype=np.uint8)
    if array.dtype.kind == "f":  # NaN or 3.7 first; whole floats are still not card ids
        flat = array.reshape(-1)
        odd = np.flatnonzero(~np.isfinite(flat) | (flat != np.round(flat)))
        position = int(odd[0]) if len(odd) else 0
        raise error(f"{what} are whole numbers 0..51, not {_excerpt(flat[position].item())} (at position "
                    f"{position}; this array holds {array.dtype} values)")
    if array.dtype.kind in "mMV":  # timedeltas and dates list as plain ints: refused by their type
        raise error(f"{what} are whole numbers 0..51, not {array.dtype} values")
    if array.dtype.kind not in "iu":
        flat = array.reshape(-1)
        for position, value in enumerate(flat.tolist()):
            if isinstance(value, bool) or not isinstance(value, int):
                raise error(f"{what} are whole numbers 0..51, not {_excerpt(value)} (at position {position})")
        array = np.asarray(flat.tolist(), dtype=np.int64).reshape(array.shape)
    # one pass over the (often large, uint8) array on the good path: its extremes; the position
    # of the first bad value is looked for only when there is one
    if int(array.max()) > 51 or (array.dtype.kind == "i" and int(array.min()) < 0):
        outside = (array < 0) | (array > 51)
        position = int(np.flatnonzero(outside.reshape(-1))[0])
        raise error(f"{what} are whole numbers 0..51, not {array.reshape(-1)[position]} (at position {position})")
    return array if array.dtype == np.uint8 else array.astype(np.uint8)


def _excerpt(value: Any, keep: int = 20) -> str:
    text = repr(value)
    return text if len(text) <= keep else text[:keep] + "..."
