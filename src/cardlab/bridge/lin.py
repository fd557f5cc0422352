"""BBO's LIN hand records: write and read the ``md`` (dealer and hands), ``sv`` (vulnerability)
and ``ah`` (board name) fields (docs/boards.md gives the format and its sources).

One board per line: ``pn|,,,|st||md|3S...H...D...C...,S...,S...|rh||ah|Board 1|sv|0|pg||``.
``md`` starts with the dealer (1 South, 2 West, 3 North, 4 East) and lists South's, West's
and North's hands (East has the rest; a fourth hand, if given, is checked); ``sv`` is ``o``
(``0`` is read too) none, ``n`` NS, ``e`` EW, ``b`` both.

>>> from cardlab.deal import Board
>>> b = Board.from_pbn(2, "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> line = write_lin([b])
>>> line.split("|")[5], line.split("|")[9], line.split("|")[11]
('4S765H432DAKQJCT98,S432HAKQJDT98C765,SAKQJHT98D765C432', 'Board 2', 'n')
>>> read_lin(line)[0] == b
True
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from cardlab.board import Seat, Vulnerability
from cardlab.cards import RANKS, SUIT_LETTERS, SUIT_ORDER
from cardlab.deal import Board, Deal
from cardlab.errors import CardError, CardlabError, InputFileError
from cardlab.pbn import MAX_BOARD_DIGITS, excerpt

__all__ = ["write_lin", "read_lin", "lin_line"]

_DEALER_DIGIT = {Seat.SOUTH: "1", Seat.WEST: "2", Seat.NORTH: "3", Seat.EAST: "4"}
_DIGIT_SEAT = {v: k for k, v in _DEALER_DIGIT.items()}
_VUL = {Vulnerability.NONE: "o", Vulnerability.NS: "n", Vulnerability.EW: "e", Vulnerability.BOTH: "b"}
_LIN_VUL = {"0": Vulnerability.NONE, "o": Vulnerability.NONE, "n": Vulnerability.NS, "e": Vulnerability.EW,
            "b": Vulnerability.BOTH}
_ORDER = (2, 3, 0, 1)  # md lists South, West, North (, East)


def _lin_hand(board: Board, seat: int) -> str:
    return "".join(letter + board.holding(seat, suit) for letter, suit in zip(SUIT_LETTERS, SUIT_ORDER))


def lin_line(board: Board) -> str:
    """One board as a LIN line (no newline)."""
    hands = ",".join(_lin_hand(board, seat) for seat in _ORDER[:3])
    return (f"pn|,,,|st||md|{_DEALER_DIGIT[board.dealer]}{hands}|rh||ah|Board {board.number}|"
            f"sv|{_VUL[board.vulnerability]}|pg||")


def write_lin(boards: Iterable[Board]) -> str:
    """Boards as a LIN file, one board a line."""
    return "".join(lin_line(b) + "\n" for b in boards)


def read_lin(text: str, source: str | None = None) -> list[Board]:
    """Every board (``md`` field) of a LIN file or string, numbered by its ``ah|Board N`` (else
    in order); its ``md`` dealer and ``sv`` must agree with the board number (checked).

    >>> read_lin("md|3SAK|ah|Board 1|")
    Traceback (most recent call last):
    ...
    cardlab.errors.InputFileError: board 1: md '3SAK' does not give 13 cards to each seat (N 0, E 0, S 2, W 0)
    """
    boards: list[Board] = []
    current: dict[str, str] = {}

    def finish() -> None:
        if "md" in current:
            boards.append(_board(current, boards[-1].number + 1 if boards else 1, source))
        current.clear()

    for key, value in _pairs(text):
        key = key.strip().lower()
        if key in ("md", "qx") and "md" in current:
            finish()
        if key in ("md", "sv", "ah"):
            current[key] = value.strip()
    finish()
    if not boards:
        raise InputFileError("no deal ('md|' field) found in this LIN file", source=source)
    return boards


def _pairs(text: str) -> Iterator[tuple[str, str]]:
    """The ``key|value|`` pairs of a LIN text in order, line ends ignored, one at a time."""
    if "\n" in text or "\r" in text:
        text = text.replace("\r", "").replace("\n", "")
    find, start, end = text.find, 0, len(text)
    while start < end:
        bar = find("|", start)
        if bar < 0:
            return
        close = find("|", bar + 1)
        if close < 0:
            close = end
        yield text[start:bar], text[bar + 1:close]
        start = close + 1


def _board(fields: dict[str, str], index: int, source: str | None) -> Board:
    md = fields["md"]
    name = fields.get("ah", "")
    match = re.search(r"([0-9]+)\s*$", name)
    number = index
    if match:
        digits = match.group(1).lstrip("0")
        if len(digits) > MAX_BOARD_DIGITS:
            raise InputFileError(f"ah {excerpt(name)}: a board number has at most {MAX_BOARD_DIGITS} digits",
                                 source=source)
        number = int(digits or "0")
        if number < 1:
            raise InputFileError(f"ah {excerpt(name)}: boards are numbered from 1", source=source)
    where = f"board {number}"
    if not md or md[0] not in _DIGIT_SEAT:
        raise InputFileError(f"{where}: md {excerpt(md)} must start with the dealer (1 S, 2 W, 3 N, 4 E)",
                             source=source)
    hands = md[1:].split(",")
    if len(hands) > 4:
        raise InputFileError(f"{where}: md {excerpt(md)} gives {len(hands)} hands (a deal has four)", source=source)
    board = _quick(number, hands)
    owner = [-1] * 52
    try:
        if board is None:
            for seat, text in zip(_ORDER, hands):
                if text.strip():
                    _place(owner, seat, text.strip(), md)
            board = Board(number, Deal.from_seats(owner, f"md {excerpt(md)}"))
    except CardError as error:
        raise InputFileError(f"{where}: {error}", source=source) from None
    dealer = _DIGIT_SEAT[md[0]]
    if dealer != board.dealer:
        raise InputFileError(f"{where}: md gives dealer {dealer.value}, but board {number}'s dealer is "
                             f"{board.dealer.value}", source=source)
    vul = fields.get("sv")
    if vul is not None and vul != "":
        if vul.lower() not in _LIN_VUL:
            raise InputFileError(f"{where}: unknown vulnerability sv|{excerpt(vul)}|", source=source)
        if _LIN_VUL[vul.lower()] != board.vulnerability:
            raise InputFileError(f"{where}: sv|{vul}| says {_LIN_VUL[vul.lower()].value} vulnerable, but board "
                                 f"{number} is {board.vulnerability.value}", source=source)
    return board


_LIN_HAND = re.compile(r"S([2-9TJQKA]*)H([2-9TJQKA]*)D([2-9TJQKA]*)C([2-9TJQKA]*)").fullmatch


def _quick(number: int, hands: list[str]) -> Board | None:
    """The board of md hands S, W, N (, E) in the usual form (suits S H D C in order, capital
    ranks), read as a PBN deal; None for any other form or a wrong deal (read card by card then)."""
    pbn_hands = []
    for text in hands:
        match = _LIN_HAND(text.strip())
        if match is None:
            if text.strip():
                return None
            pbn_hands.append("-")
        else:
            pbn_hands.append(".".join(match.groups()))
    pbn_hands += ["-"] * (4 - len(pbn_hands))
    try:
        return Board(number, Deal.from_pbn("S:" + " ".join(pbn_hands)))
    except CardlabError:
        return None


def _place(owner: list[int], seat: int, text: str, md: str) -> None:
    suit = None
    for ch in text.upper():
        if ch in SUIT_LETTERS:
            suit = SUIT_ORDER[SUIT_LETTERS.index(ch)]
            continue
        rank = RANKS.find(ch)
        if suit is None or rank < 0:
            raise CardError(f"cannot read {excerpt(text)} in md {excerpt(md)}")
        card = rank * 4 + suit
        if owner[card] not in (-1, seat):
            raise CardError(f"card {ch}{SUIT_LETTERS[SUIT_ORDER.index(suit)]} is given twice in md {excerpt(md)}")
        owner[card] = seat
