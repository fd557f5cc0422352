"""A deal (the seat of each of the 52 cards) and a board (a number, a deal and its tags).

The one value every bridge reader and writer shares: :class:`Deal` is frozen and compares by
its cards, whatever the route it came by (PBN text, LIN, a Duplimate file, the dealer's suit
masks); :class:`Board` adds the board number and the tags of the file it came from, and takes
its dealer and vulnerability from the number by the standard cycle (:mod:`cardlab.board`)
unless a ``Dealer`` or ``Vulnerable`` tag says otherwise.

Card id ``rank * 4 + suit`` (rank 0..12 = 2..A, suit 0 clubs .. 3 spades); seats 0 N .. 3 W.

>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -")
>>> deal.hand_text(3), deal.to_pbn("E")[:19]
('432.AKQJ.T98.765', 'E:T98.765.432.AKQJ ')
>>> deal.rotated(1).hand_text(1) == deal.hand_text(0)
True
>>> Board(3, deal).dealer.value, Board(3, deal, (("Dealer", "W"),)).dealer.value
('S', 'W')
>>> Deal.from_pbn("N:AKQJ.T98.765.432 - - -")
Traceback (most recent call last):
...
cardlab.errors.CardError: deal 'N:AKQJ.T98.765.432 - - -' leaves out 3 hands: only one hand may be '-'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from cardlab.board import SEATS, Seat, Vulnerability, dealer
from cardlab.cards import RANKS, SUIT_ORDER, format_cards, format_pbn_hand
from cardlab.errors import CardError, CardlabError, ConstraintError, ContractError, DeckError

__all__ = ["Deal", "Board", "rotate_owner"]

#: The longest quoted excerpt of an input in an error message.
_SHOWN = 80


def _shown(text: str) -> str:
    """``text`` quoted for an error message, cut to a short excerpt when long."""
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "...")


def rotate_owner(owner: bytes, steps: int) -> bytes:
    """The deal with every hand moved ``steps`` seats clockwise (N -> E -> S -> W).

    >>> rotate_owner(bytes([0, 1, 2, 3]), 1)
    b'\\x01\\x02\\x03\\x00'
    """
    table = bytes((seat + steps) % 4 for seat in range(4)) + bytes(252)
    return owner.translate(table)


#: (suit, holding text) -> card ids, filled as holdings are met (at most 2^13 valid ones a suit and case).
_HOLDINGS: dict[tuple[int, str], tuple[int, ...]] = {}


def _cards(suit: int, holding: str, hand: str, deal: str) -> tuple[int, ...]:
    """The card ids of one suit's holding (``AKT2``, ``10`` for ``T``, any case), each rank once."""
    found = _HOLDINGS.get((suit, holding))
    if found is None:
        ranks = []
        for char in holding.strip().replace("10", "T").upper():
            rank = RANKS.find(char)
            if rank < 0:
                raise CardError(f"unknown rank {char!r} in PBN hand {_shown(hand)} (in {_shown(deal)})")
            ranks.append(rank)
        if len(set(ranks)) != len(ranks):
            raise DeckError(f"a rank is given twice in PBN hand {_shown(hand)} (in {_shown(deal)})")
        found = tuple(rank * 4 + suit for rank in ranks)
        if len(_HOLDINGS) < 100_000:
            _HOLDINGS[(suit, holding)] = found
    return found


@dataclass(frozen=True, slots=True)
class Deal:
    """The seat (0 N .. 3 W) of each card id, as 52 bytes; 13 cards a seat (checked)."""

    owner: bytes

    def __post_init__(self) -> None:
        owner = self.owner
        if not isinstance(owner, bytes):
            object.__setattr__(self, "owner", owner := bytes(owner))
        if len(owner) != 52 or any(owner.count(s) != 13 for s in range(4)):
            raise CardError("a deal gives each of the four seats 13 of the 52 cards")

    @classmethod
    def from_hands(cls, hands: Sequence[Iterable[int]]) -> Deal:
        """A deal from four hands of card ids, North, East, South, West."""
        owner = [-1] * 52
        for seat, hand in enumerate(hands):
            for card in hand:
                card = int(card)
                if not 0 <= card < 52:
                    raise CardError(f"card ids run from 0 to 51, not {card}")
                if owner[card] != -1:
                    raise DeckError(f"card {format_cards([card])} is dealt to both {SEATS[owner[card]]} "
                                    f"and {SEATS[seat]}")
                owner[card] = seat
        return cls.from_seats(owner, "the deal")

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """A deal from PBN ``"N:hand hand hand hand"`` (hands clockwise from the named seat,
        each ``S.H.D.C``); one hand may be ``-`` when the other three give it."""
        body = text.strip()
        if len(body) < 2 or body[1] != ":" or body[0].upper() not in SEATS:
            raise CardError(f"a PBN deal starts with the first seat and a colon, like 'N:', not {_shown(body)}")
        parts = body[2:].split()
        if len(parts) != 4:
            raise CardError(f"a PBN deal has four hands, found {len(parts)} in {_shown(body)}")
        start = SEATS.index(body[0].upper())
        left_out = parts.count("-")
        if left_out > 1:
            raise CardError(f"deal {_shown(body)} leaves out {left_out} hands: only one hand may be '-'")
        owner = bytearray(b"\xff" * 52)
        given = 0
        for i, part in enumerate(parts):
            if part == "-":
                continue
            seat = (start + i) % 4
            suits = part.split(".")
            if len(suits) != 4:
                raise CardError(f"a PBN hand has four suits separated by dots (S.H.D.C), got {_shown(part)} "
                                f"(in {_shown(body)})")
            hand = _cards(3, suits[0], part, body) + _cards(2, suits[1], part, body) + \
                _cards(1, suits[2], part, body) + _cards(0, suits[3], part, body)
            if len(hand) != 13:
                raise CardError(f"{SEATS[seat]} holds {len(hand)} cards, not 13, in {_shown(body)}")
            for card in hand:
                owner[card] = seat
            given += 13
        if owner.count(255) != 52 - given:  # a card given twice: find it for the message
            seen: dict[int, int] = {}
            for i, part in enumerate(parts):
                if part != "-":
                    suits = part.split(".")
                    for card in sum((_cards(SUIT_ORDER[k], suits[k], part, body) for k in range(4)), ()):
                        if card in seen:
                            raise DeckError(f"{format_pbn_hand([card])!r} is dealt to both {SEATS[seen[card]]} "
                                            f"and {SEATS[(start + i) % 4]} in {_shown(body)}")
                        seen[card] = (start + i) % 4
        if given == 39 and owner.count(255) == 13:  # the '-' hand holds the 13 cards left
            owner = owner.replace(b"\xff", bytes([(start + parts.index("-")) % 4]))
            given = 52
        return cls.from_seats([-1 if s == 255 else s for s in owner] if given < 52 else owner,
                              f"deal {_shown(body)}")

    @classmethod
    def from_seats(cls, owner: Sequence[int], label: str = "the deal") -> Deal:
        """The deal of ``owner`` (the seat of each card id; -1 for a card not placed: such cards go to
        the one seat left without any, when there are 13 of them). Errors name ``label``."""
        if isinstance(owner, (bytes, bytearray)):
            if len(owner) == 52 and all(owner.count(s) == 13 for s in range(4)):
                return cls(bytes(owner))
        owner = list(owner)
        counts = [owner.count(s) for s in range(4)]
        if owner.count(-1):
            missing = [s for s in range(4) if counts[s] == 0]
            if len(missing) == 1 and owner.count(-1) == 13:
                owner = [missing[0] if s == -1 else s for s in owner]
                counts[missing[0]] = 13
        if owner.count(-1) or counts != [13] * 4:
            shown = ", ".join(f"{SEATS[s]} {counts[s]}" for s in range(4))
            raise CardError(f"{label} does not give 13 cards to each seat ({shown})")
        return cls(bytes(owner))

    @classmethod
    def many_from_pbn(cls, texts: Sequence[str], *, or_none: bool = False) -> list[Any]:
        """:meth:`from_pbn` of many deal strings at once: deals in the plain form (a first seat, four
        hands of ranks ``AKQJT98765432`` in either case or one ``-``, every card once) are read by
        the compiled core, a chunk of deals a call; any other is read by :meth:`from_pbn` (and its
        error raised, or with ``or_none`` None in its place)."""
        from cardlab._native import core as _core

        def slow(text: str) -> Deal | None:
            try:
                return cls.from_pbn(text)
            except CardlabError:
                if or_none:
                    return None
                raise

        out: list[Deal | None] = []
        step = 1 << 16  # in chunks: bounded memory for any number of deals
        for start in range(0, len(texts), step):
            part = texts[start:start + step]
            data = ("\n".join(part) + "\n").encode("ascii", "replace") if part else b""
            if data.count(b"\n") != len(part):  # a newline inside a string: one at a time
                out += [slow(t) for t in part]
                continue
            owner, ok = bytearray(52 * len(part)), bytearray(len(part))
            _core.pbn_deals(data, len(part), owner, ok)
            blob = bytes(owner)
            new, put = object.__new__, object.__setattr__
            for i, (good, text) in enumerate(zip(ok, part)):
                if good:
                    deal = new(cls)
                    put(deal, "owner", blob[52 * i:52 * i + 52])
                    out.append(deal)
                else:
                    out.append(slow(text))
        return out

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """The four hands N, E, S, W as card ids, highest id first."""
        return tuple(tuple(c for c in range(51, -1, -1) if self.owner[c] == s) for s in range(4))

    def holding(self, seat: int, suit: int) -> str:
        """The ranks (highest first) ``seat`` holds in ``suit`` (0 clubs .. 3 spades)."""
        return "".join(RANKS[r] for r in range(12, -1, -1) if self.owner[r * 4 + suit] == seat)

    def hand_text(self, seat: int) -> str:
        """``AKQJ.T98.765.432``: the hand at ``seat`` in spades, hearts, diamonds, clubs."""
        return ".".join(self.holding(seat, suit) for suit in SUIT_ORDER)

    def suit_masks(self) -> tuple[tuple[int, ...], ...]:
        """``masks[seat][suit]``: bit ``rank`` (0 = two) set for each card the seat holds in the suit."""
        masks = [[0] * 4 for _ in range(4)]
        for card, seat in enumerate(self.owner):
            masks[seat][card % 4] |= 1 << (card // 4)
        return tuple(tuple(row) for row in masks)

    def rotated(self, steps: int) -> Deal:
        """The deal with every hand moved ``steps`` seats clockwise."""
        return Deal(rotate_owner(self.owner, steps))

    def to_pbn(self, first: str | int = "N") -> str:
        """The PBN deal string with hands clockwise from seat ``first`` (a letter or 0..3)."""
        start = first if isinstance(first, int) else SEATS.index(first)
        return SEATS[start] + ":" + " ".join(self.hand_text((start + i) % 4) for i in range(4))

    def __repr__(self) -> str:
        return f"Deal({self.to_pbn()!r})"


@dataclass(frozen=True, eq=False, slots=True)
class Board:
    """A board: its number, its deal, and the tags of the record it was read from (name, value
    pairs in order). The dealer and vulnerability follow from the number unless the tags give them.
    ``origin`` names the script (and hand type) that dealt it, for reports. Two boards are equal
    when their number, deal, dealer and vulnerability are (whichever file they were read from)."""

    number: int
    deal: Deal
    tags: tuple[tuple[str, str], ...] = ()
    origin: str = ""

    def _key(self) -> tuple[int, bytes, Seat, Vulnerability]:
        return self.number, self.deal.owner, self.dealer, self.vulnerability

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Board({self.number}, {self.deal.to_pbn()!r}, dealer {self.dealer.value}, {self.vulnerability.value})"

    def __post_init__(self) -> None:
        if not isinstance(self.deal, Deal):
            raise CardError(f"a board's deal is a Deal, not {type(self.deal).__name__}")
        if self.number < 1:
            raise ConstraintError(f"board number must be at least 1, not {self.number}")

    def tag(self, name: str) -> str | None:
        """The value of tag ``name`` (the last one given), or None."""
        found = None
        for key, value in self.tags:
            if key == name:
                found = value
        return found

    @property
    def dealer(self) -> Seat:
        """The seat that deals: the ``Dealer`` tag when given, else from the number (N E S W cycling)."""
        given = (self.tag("Dealer") or "").strip().upper()
        return Seat(given) if given in ("N", "E", "S", "W") else dealer(self.number)

    @property
    def vulnerability(self) -> Vulnerability:
        """Who is vulnerable: the ``Vulnerable`` tag when given, else the 16-board cycle."""
        given = (self.tag("Vulnerable") or "").strip()
        if given and given != "?":
            try:
                return Vulnerability.parse(given)
            except ContractError:
                pass
        return Vulnerability.from_board(self.number)

    @property
    def owner(self) -> bytes:
        """The deal's 52 seats, one per card id."""
        return self.deal.owner

    def holding(self, seat: int, suit: int) -> str:
        """The ranks (highest first) ``seat`` holds in ``suit`` (0 clubs .. 3 spades)."""
        return self.deal.holding(seat, suit)

    def hand_text(self, seat: int) -> str:
        """``AKQJ.T98.765.432``: spades, hearts, diamonds, clubs."""
        return self.deal.hand_text(seat)

    def pbn_deal(self, first: int = 0) -> str:
        """The PBN ``Deal`` value from seat ``first`` clockwise."""
        return self.deal.to_pbn(first)

    def rotated(self, from_seat: int, to_seat: int) -> Board:
        """The same board with the deal turned so that the hand at ``from_seat`` is at ``to_seat``."""
        return Board(self.number, self.deal.rotated(to_seat - from_seat), self.tags, self.origin)

    def renumbered(self, number: int) -> Board:
        """The same deal as board ``number`` (its dealer and vulnerability tags dropped)."""
        tags = tuple((k, v) for k, v in self.tags if k not in ("Board", "Dealer", "Vulnerable"))
        return Board(number, self.deal, tags, self.origin)

    @classmethod
    def from_pbn(cls, number: int, deal: str, origin: str = "") -> Board:
        """Board ``number`` with the PBN deal ``deal`` (see :meth:`Deal.from_pbn`)."""
        return cls(number, Deal.from_pbn(deal), (), origin)
