"""Files for Jannersten's Duplimate dealing machines: ``.dup`` (DOS) and ``.dlm`` (Windows).

docs/boards.md gives both layouts and their sources. In both, cards are numbered 1..52
from the ace of spades down to the two of clubs (spades, hearts, diamonds, clubs; ace
first).

``.dup``: 156 bytes a board, no separators. Bytes 1-78 ("BRI"): North's, East's and South's
13 cards as two-digit numbers (West has the rest); bytes 79-146 ("DGE"): the four hands
N, E, S, W, 17 bytes each: for each suit its DOS symbol (6 spades, 3 hearts, 4 diamonds,
5 clubs) then its ranks; bytes 147-156: ``Y``/``N`` (random hands), ``Y``/``N`` (backwards
counting), the lowest board (3 bytes), copies of each board (2 bytes) and the highest board
(3 bytes), each left-aligned and padded with spaces.

``.dlm``: an INI-style text file. ``[Document]`` holds ``Status`` (``Show`` or ``Sealed``),
``Duplicates``, ``From board``, ``To board`` and a ``Checksum`` (``Duplicates`` xor ``From
board`` xor ``To board``, xor 1 when shown); then for every board 1..99 ``Duplicates NN=0``
and ``Board NN=`` 26 letters and a three-digit checksum. Letter ``i`` is
``'a' + 4·seat(card 2i+1) + seat(card 2i+2)`` (seats 0 N .. 3 W); the checksum is the board
number xor every letter's code. Boards outside the set are written as a fixed filler deal.

>>> from cardlab.deal import Board
>>> b = Board.from_pbn(1, "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> data = write_dup([b])
>>> len(data), data[:8], data[146:]
(156, b'01020304', b'YN1  1 1  ')
>>> read_dup(data) == [b]
True
>>> read_dlm(write_dlm([b])) == [b]
True
"""

from __future__ import annotations

import re
from typing import Sequence

from cardlab.cards import SUIT_ORDER
from cardlab.deal import Board, Deal
from cardlab.errors import CardError, InputFileError

__all__ = ["write_dup", "read_dup", "write_dlm", "read_dlm", "machine_order", "RECORD"]

#: Bytes per board in a ``.dup`` file.
RECORD = 156
_SYMBOLS = bytes([6, 3, 4, 5])  # DOS code page 437: spade, heart, diamond, club
_FILLER = "aaaaaabffffffkkkkkklpppppp"  # N 13, E 13, S 13, W 13 in a fixed order (a valid deal)


#: The highest board number a ``.dup`` file (three digits) and a ``.dlm`` file (boards 01..99) hold.
DUP_LAST = 999
DLM_LAST = 99


def machine_order() -> list[int]:
    """cardlab card ids in the machines' order: AS, KS, .. 2S, AH, .. 2C (number ``i + 1``).

    >>> machine_order()[:2], machine_order()[-1]
    ([51, 47], 0)
    """
    return [rank * 4 + suit for suit in SUIT_ORDER for rank in range(12, -1, -1)]


_ORDER = machine_order()
_NUMBER = {card: i + 1 for i, card in enumerate(_ORDER)}


def _bri(board: Board) -> bytes:
    return b"".join(b"%02d" % _NUMBER[c] for seat in range(3) for c in _ORDER if board.owner[c] == seat)


def _dge(board: Board) -> bytes:
    out = bytearray()
    for seat in range(4):
        for symbol, suit in zip(_SYMBOLS, SUIT_ORDER):
            out.append(symbol)
            out += board.holding(seat, suit).encode("ascii")
    return bytes(out)


def write_dup(boards: Sequence[Board], copies: int = 1) -> bytes:
    """``.dup`` records for ``boards`` (numbered consecutively, as the machine deals them)."""
    if not boards:
        return b""
    _consecutive(boards, "dup")
    low, high = boards[0].number, boards[-1].number
    if high > DUP_LAST:
        raise InputFileError(f"a .dup file numbers boards up to {DUP_LAST}, not {high}")
    tail = b"YN" + str(low).encode().ljust(3) + str(copies).encode().ljust(2) + str(high).encode().ljust(3)
    return b"".join(_bri(b) + _dge(b) + tail for b in boards)


def read_dup(data: bytes, source: str | None = None) -> list[Board]:
    """The boards of a ``.dup`` file; the DGE part, when present, must agree with the BRI part.

    >>> read_dup(b"01" * 73 + b"YN1  1 1  ", "x.dup")
    Traceback (most recent call last):
    ...
    cardlab.errors.InputFileError: x.dup: board 1 gives card 01 twice
    """
    if not data or len(data) % RECORD:
        raise InputFileError(f"not a .dup file: {RECORD} bytes a board expected, the file has {len(data)} bytes",
                             source=source)
    boards = []
    for index in range(len(data) // RECORD):
        record = data[index * RECORD:(index + 1) * RECORD]
        tail = record[146:]
        low = tail[2:5].strip()
        first = int(low) if low.isdigit() else 1
        number = first + index
        bri = record[:78]
        if not bri.isdigit():
            raise InputFileError(f"board {number}: bytes 1-78 must be 39 two-digit card numbers", source=source)
        owner = [3] * 52
        seen: set[int] = set()
        for k in range(39):
            value = int(bri[2 * k:2 * k + 2])
            if not 1 <= value <= 52 or value in seen:
                what = "twice" if value in seen else "(cards are 01..52)"
                raise InputFileError(f"board {number} gives card {value:02d} {what}", source=source)
            seen.add(value)
            owner[_ORDER[value - 1]] = k // 13
        board = Board(number, Deal(bytes(owner)))
        dge = record[78:146]
        if dge.strip(b" \x00") and dge != _dge(board):
            raise InputFileError(f"board {number}: the sorted hands (bytes 79-146) do not match the card numbers "
                                 f"(bytes 1-78)", source=source)
        boards.append(board)
    return boards


def _letters(board: Board) -> str:
    seats = [board.owner[c] for c in _ORDER]
    return "".join(chr(ord("a") + 4 * seats[2 * i] + seats[2 * i + 1]) for i in range(26))


def _checksum(number: int, letters: str) -> int:
    value = number
    for ch in letters:
        value ^= ord(ch)
    return value


def write_dlm(boards: Sequence[Board], show: bool = True, headline: str = "Generated by cardlab") -> str:
    """A ``.dlm`` file for ``boards`` (consecutive numbers within 1..99), CRLF line ends."""
    if not boards:
        raise InputFileError("a .dlm file needs at least one board")
    _consecutive(boards, "dlm")
    low, high = boards[0].number, boards[-1].number
    if high > DLM_LAST:
        raise InputFileError(f"a .dlm file holds boards 1 to {DLM_LAST}, not {high}")
    checksum = 0 ^ low ^ high ^ (1 if show else 0)
    lines = ["[Document]", f"Headline={headline}", f"Status={'Show' if show else 'Sealed'}", "Duplicates=0",
             f"From board={low}", f"To board={high}", "Next board to duplimate=0", "PrintOuts=0", "Crypto key=0",
             f"Checksum={checksum}"]
    by_number = {b.number: b for b in boards}
    for number in range(1, 100):
        letters = _letters(by_number[number]) if number in by_number else _FILLER
        lines.append(f"Duplicates {number:02d}=0")
        lines.append(f"Board {number:02d}={letters}{_checksum(number, letters):03d}")
    return "\r\n".join(lines) + "\r\n"


def read_dlm(text: str, source: str | None = None) -> list[Board]:
    """The boards ``From board`` .. ``To board`` of a ``.dlm`` file, checksums checked."""
    values: dict[str, str] = {}
    for line in text.replace("\r", "").split("\n"):
        key, sep, value = line.partition("=")
        if sep:
            values[key.strip().lower()] = value.strip()
    try:
        low, high = int(values["from board"]), int(values["to board"])
    except (KeyError, ValueError):
        raise InputFileError("not a .dlm file: no 'From board=' and 'To board=' lines", source=source) from None
    if not 1 <= low <= high <= 99:
        raise InputFileError(f"'From board={low}' and 'To board={high}': a .dlm file holds boards 1 to 99, "
                             f"the first not after the last", source=source)
    boards = []
    for number in range(low, high + 1):
        entry = values.get(f"board {number:02d}")
        if entry is None:
            raise InputFileError(f"board {number} is missing ('Board {number:02d}=' line)", source=source)
        match = re.fullmatch(r"([a-p]{26})(\d{3})", entry)
        if not match:
            raise InputFileError(f"board {number}: 'Board {number:02d}={entry}' is not 26 letters a-p and a "
                                 f"three-digit checksum", source=source)
        letters, check = match.group(1), int(match.group(2))
        if _checksum(number, letters) != check:
            raise InputFileError(f"board {number}: checksum {check:03d} does not match its cards (expected "
                                 f"{_checksum(number, letters):03d})", source=source)
        owner = [0] * 52
        for i, ch in enumerate(letters):
            code = ord(ch) - ord("a")
            owner[_ORDER[2 * i]], owner[_ORDER[2 * i + 1]] = code // 4, code % 4
        try:
            boards.append(Board(number, Deal.from_seats(owner, f"board {number}")))
        except CardError as error:
            raise InputFileError(str(error), source=source) from None
    return boards


def _consecutive(boards: Sequence[Board], fmt: str) -> None:
    for before, after in zip(boards, boards[1:]):
        if after.number != before.number + 1:
            raise InputFileError(f"a .{fmt} file holds consecutive boards; board {after.number} follows "
                                 f"board {before.number}")
