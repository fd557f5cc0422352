"""The bridge table: the four seats, and the dealer and vulnerability of a board number.

One place for the facts that hand statistics, deals and scoring all use: seats in
the order North, East, South, West (the order of a deal's hands), the suits in the
order a hand is written (spades, hearts, diamonds, clubs), and the standard
16-board cycle of dealers and vulnerability.

>>> dealer(5), Vulnerability.from_board(5).value
(<Seat.NORTH: 'N'>, 'NS')
>>> [Seat.from_index(i).value for i in range(4)] == list(SEATS)
True
>>> [STRAINS[s] for s in SUIT_ORDER], SEAT_WORDS["west"]
(['S', 'H', 'D', 'C'], 'W')
"""

from __future__ import annotations

from enum import Enum

from cardlab.cards import SUIT_ORDER
from cardlab.errors import ContractError

__all__ = ["SEATS", "SEAT_NAMES", "SEAT_WORDS", "STRAINS", "SUIT_ORDER", "Seat", "Vulnerability", "parse_seat", "dealer"]

#: Seat letters in deal order, North first, clockwise.
SEATS = "NESW"
#: Seat names in deal order, as PBN tags and the command-line options write them.
SEAT_NAMES = ("North", "East", "South", "West")
#: Lower-case seat name -> seat letter (``"north"`` -> ``"N"``).
SEAT_WORDS = {name.lower(): letter for name, letter in zip(SEAT_NAMES, SEATS)}
#: The five strains by id: a suit's strain id is its suit id (clubs 0 .. spades 3), notrump is 4.
#: Tables written from the top down (PBN's DoubleDummyTricks, hand records) use ``STRAINS[::-1]``.
STRAINS = ("C", "D", "H", "S", "NT")



class Seat(Enum):
    """A compass seat; ``side`` is ``"NS"`` or ``"EW"``."""

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    @property
    def index(self) -> int:
        """0..3 in deal order N, E, S, W."""
        return SEATS.index(self.value)

    @classmethod
    def from_index(cls, index: int) -> Seat:
        """The seat at position ``index`` (mod 4) in deal order N, E, S, W."""
        return cls(SEATS[index % 4])

    @property
    def side(self) -> str:
        """``"NS"`` or ``"EW"``: the partnership of this seat."""
        return "NS" if self in (Seat.NORTH, Seat.SOUTH) else "EW"


def parse_seat(text: str | Seat) -> Seat:
    """Read a declarer seat ``N``, ``E``, ``S`` or ``W`` (any case).

    >>> parse_seat("w")
    <Seat.WEST: 'W'>
    >>> parse_seat("X")
    Traceback (most recent call last):
    ...
    cardlab.errors.ContractError: declarer must be N, E, S or W, not 'X'
    """
    if isinstance(text, Seat):
        return text
    try:
        return Seat(text.strip().upper())
    except ValueError:
        raise ContractError(f"declarer must be N, E, S or W, not {text!r}") from None


class Vulnerability(Enum):
    """Who is vulnerable on a board."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    BOTH = "All"

    @classmethod
    def from_board(cls, board: int) -> "Vulnerability":
        """The standard 16-board cycle (board 1 None, 2 NS, 3 EW, 4 All, ...).

        >>> [Vulnerability.from_board(b).value for b in (1, 2, 3, 4, 5, 13, 16, 17)]
        ['None', 'NS', 'EW', 'All', 'NS', 'All', 'EW', 'None']
        """
        if board < 1:
            raise ContractError(f"board number must be at least 1, not {board}")
        return _CYCLE[(board - 1) % 16]

    @classmethod
    def parse(cls, text: str) -> "Vulnerability":
        """Read ``None``/``-``/``Love``, ``NS``, ``EW`` or ``All``/``Both`` (any case).

        >>> Vulnerability.parse("both")
        <Vulnerability.BOTH: 'All'>
        >>> Vulnerability.parse("maybe")
        Traceback (most recent call last):
        ...
        cardlab.errors.ContractError: unknown vulnerability 'maybe'
        """
        key = text.strip().upper()
        for names, vul in _VUL_NAMES:
            if key in names:
                return vul
        raise ContractError(f"unknown vulnerability {text!r}")

    def is_vulnerable(self, seat: Seat) -> bool:
        """Whether the side of ``seat`` is vulnerable."""
        return self is Vulnerability.BOTH or self.value == seat.side


_CYCLE = [
    Vulnerability[name]
    for name in (
        "NONE NS EW BOTH NS EW BOTH NONE EW BOTH NONE NS BOTH NONE NS EW".split()
    )
]
_VUL_NAMES = [
    (("NONE", "-", "LOVE", "O", "NEITHER"), Vulnerability.NONE),
    (("NS", "N-S"), Vulnerability.NS),
    (("EW", "E-W"), Vulnerability.EW),
    (("ALL", "BOTH", "B"), Vulnerability.BOTH),
]


def dealer(board: int) -> Seat:
    """The dealer of a board by the standard cycle: 1 North, 2 East, 3 South, 4 West, 5 North ..."""
    if board < 1:
        raise ContractError(f"board number must be at least 1, not {board}")
    return Seat.from_index(board - 1)
