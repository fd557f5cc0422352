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
from typing import Any, Iterable, Iterator

from cardlab.board import Seat, Vulnerability
from cardlab.cards import RANKS, SUIT_LETTERS, SUIT_ORDER
from cardlab.deal import Board, Deal
from cardlab.errors import CardError, CardlabError, InputFileError
from cardlab.pbn import MAX_BOARD_DIGITS, MOST_SCANNED, boards_from_owners, excerpt
from cardlab.textfile import paused_gc

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

    A million boards read in seconds: the fields are found a piece of the text at a time, the
    hands in the usual form (suits S H D C in order, capital ranks) read by the compiled core
    in batches, anything else card by card (and its error explained).

    >>> read_lin("md|3SAK|ah|Board 1|")
    Traceback (most recent call last):
    ...
    cardlab.errors.InputFileError: board 1: md '3SAK' does not give 13 cards to each seat (N 0, E 0, S 2, W 0)
    """
    with paused_gc():
        quick = _plain_lines(text)
    if quick:
        return quick
    boards: list[Board] = []
    batch: list[dict[str, str]] = []
    for record in _records(text):
        batch.append(record)
        if len(batch) == _BATCH:
            _read_batch(batch, boards, source)
            batch = []
    _read_batch(batch, boards, source)
    if not boards:
        raise InputFileError("no deal ('md|' field) found in this LIN file", source=source)
    return boards


#: Boards read together (their deals in one call of the compiled core).
_BATCH = 1 << 16
#: Characters of text split into fields at a time.
_PIECE = 1 << 20
_FIELDS = frozenset({"md", "sv", "ah", "qx"})
#: Keys of the other fields BBO writes, passed over without a look.
_OTHER_KEYS = frozenset({"pn", "st", "rh", "pg", "mb", "pc", "mc", "nt", "an", "rs", "vg", "pw", "bn", "sk", "pf",
                         "up", "at"})


def _records(text: str) -> Iterator[dict[str, str]]:
    """The ``md``, ``sv`` and ``ah`` fields of each board in order (a board ends where the next
    ``md`` or ``qx`` comes), the text split into ``key|value|`` pairs a piece at a time."""
    current: dict[str, str] = {}
    carry = ""
    start, end = 0, len(text)
    while start < end or carry:
        piece = carry + text[start:start + _PIECE]
        start += _PIECE
        last = start >= end
        if "\n" in piece or "\r" in piece:
            piece = piece.replace("\r", "").replace("\n", "")
        tokens = piece.split("|")
        pairs = (len(tokens) - 1) // 2  # complete key|value| pairs; the rest waits for the next piece
        carry = "" if last else "|".join(tokens[2 * pairs:])
        if last and len(tokens) % 2 == 0:  # a key and a value the text ends without its closing '|'
            pairs += 1
        keys, values = tokens[0:2 * pairs:2], tokens[1:2 * pairs:2]
        for i, key in enumerate(keys):
            if key in _OTHER_KEYS:
                continue
            if key not in _FIELDS:
                key = key.strip().lower()
                if key not in _FIELDS:
                    continue
            if key in ("md", "qx") and "md" in current:
                yield current
                current = {}
            if key != "qx":
                current[key] = values[i].strip()
        if last:
            break
    if "md" in current:
        yield current


#: A line as BBO (and cardlab) write a board: ``pn|..|st||md|D<S>,<W>,<N>|rh||ah|Board N|sv|V|pg||``,
#: the optional fields in that order, the hands in the usual form, East left out; any other
#: non-blank line is caught by the second alternative (and the whole text read field by field).
_PLAIN_LINE = re.compile(
    r"^(?:(?:pn\|[^|\n]*\|)?(?:st\|[^|\n]*\|)?md\|([1-4])((?:S[2-9TJQKA]*H[2-9TJQKA]*D[2-9TJQKA]*C[2-9TJQKA]*,){2}"
    r"S[2-9TJQKA]*H[2-9TJQKA]*D[2-9TJQKA]*C[2-9TJQKA]*),?\|(?:rh\|[^|\n]*\|)?ah\|Board ([1-9][0-9]{0,8})\|"
    r"sv\|([0onebONEB])\|(?:pg\|[^|\n]*\|)?[ \t]*|([^\n]*[^\s][^\n]*))$", re.M).findall
#: LIN hands (``SAKHQJDT9C8``, comma separated) to PBN's (``AK.QJ.T9.8``, space separated).
_LIN_TO_PBN = str.maketrans({"S": None, "H": ".", "D": ".", "C": ".", ",": " "})


def _plain_lines(text: str) -> list[Board] | None:
    """:func:`read_lin` for a text whose every line is one board in :data:`_PLAIN_LINE`'s form:
    a piece of text at a time, in one pass of the compiled core's ``lin_scan`` (:func:`_scanned`)
    or else a few regular-expression passes, the dealer and vulnerability
    checked against the numbers with numpy and every deal read by the compiled core; None when a
    line is in any other form or fails a check (the field-by-field reader then reads the text and
    explains the error)."""
    import numpy as np

    from cardlab.board import Vulnerability

    if "\r" in text:
        return None
    # allowed[(number - 1) % 16, byte]: the md dealer digits and sv letters each board number takes
    dealer_ok = np.zeros((4, 256), bool)
    for i, digit in enumerate(_DEALER_DIGITS):
        dealer_ok[i, ord(digit)] = True
    vul_ok = np.zeros((16, 256), bool)
    for i in range(16):
        for letter, vul in _LIN_VUL.items():
            if vul is Vulnerability.from_board(i + 1):
                vul_ok[i, [ord(letter), ord(letter.upper())]] = True
    boards: list[Board] = []
    start, end = 0, len(text)
    while start < end:
        stop = text.find("\n", min(start + _PIECE, end))
        stop = end if stop < 0 else stop + 1
        scanned = _scanned(text[start:stop])
        if scanned is None:
            rows = _PLAIN_LINE(text, start, stop)
        else:
            boards += scanned
            rows = []
        start = stop
        if not rows:
            continue
        dealers, hands, numbers, vuls, other = zip(*rows)
        if any(other):
            return None
        count = len(rows)
        number = np.fromiter(map(int, numbers), np.int64, count)
        if not (dealer_ok[(number - 1) % 4, np.frombuffer("".join(dealers).encode("ascii"), np.uint8)].all()
                and vul_ok[(number - 1) % 16, np.frombuffer("".join(vuls).encode("ascii"), np.uint8)].all()):
            return None
        deal_text = ("S:" + "\n".join(hands).translate(_LIN_TO_PBN).replace("\n", " -\nS:") + " -\n").encode("ascii")
        owner, ok = bytearray(52 * count), bytearray(count)
        if _core().pbn_deals(deal_text, count, owner, ok) != count:
            return None
        boards += boards_from_owners(number.tolist(), bytes(owner))
    return boards


def _scanned(piece: str) -> list[Board] | None:
    """The boards of a piece whose every line is blank or a plain board line with its number's
    dealer and vulnerability, read by the compiled core's ``lin_scan`` in one pass; None for any
    other piece (the regular-expression pass takes it)."""
    import numpy as np

    try:
        data = piece.encode("ascii")
    except UnicodeEncodeError:
        return None
    cap = len(data) // 48 + 1  # a plain board line is 60 characters at least
    if cap > MOST_SCANNED:
        return None
    numbers, owner = np.empty(cap, np.int64), bytearray(52 * cap)
    count = _core().lin_scan(data, cap, numbers, owner)
    if count < 0:
        return None
    return boards_from_owners(numbers[:count].tolist(), bytes(owner[:52 * count]))


def _core() -> Any:
    from cardlab._native import core

    return core


#: md in the usual form: the dealer digit, South's, West's and North's hands (East's or nothing).
_PLAIN_MD = re.compile(r"([1-4])" + r",".join([r"S([2-9TJQKA]*)H([2-9TJQKA]*)D([2-9TJQKA]*)C([2-9TJQKA]*)"] * 3)
                       + r"(?:,(?:S([2-9TJQKA]*)H([2-9TJQKA]*)D([2-9TJQKA]*)C([2-9TJQKA]*))?)?,?").fullmatch
_PBN_OF_MD = "S:{}.{}.{}.{} {}.{}.{}.{} {}.{}.{}.{} ".format
#: The md dealer digit and sv letter each board number asks for (by the number's place in the cycles).
_DEALER_DIGITS = tuple(_DEALER_DIGIT[Seat.from_index(i)] for i in range(4))
_SV_OF = tuple({k for k, v in _LIN_VUL.items() if v is Vulnerability.from_board(i + 1)} for i in range(16))
_AH_NUMBER = re.compile(r"([0-9]+)\s*$").search


def _read_batch(batch: list[dict[str, str]], boards: list[Board], source: str | None) -> None:
    """The boards of ``batch`` added to ``boards``: the plain ones through one
    :meth:`Deal.many_from_pbn` call, any other (or any that fails a check) by :func:`_board`,
    which reads it card by card and raises the error that names what is wrong."""
    numbers: list[int] = []
    texts: list[str] = []
    for fields in batch:
        index = boards[-1].number + 1 if boards else 1
        if numbers:
            index = numbers[-1] + 1
        number, text = index, ""
        name = fields.get("ah", "")
        if name:
            match = _AH_NUMBER(name)
            if match:
                digits = match.group(1).lstrip("0")
                number = int(digits) if 0 < len(digits) <= MAX_BOARD_DIGITS else -1
        md = _PLAIN_MD(fields["md"]) if number > 0 else None
        vul = fields.get("sv", "")
        if md is not None and md.group(1) == _DEALER_DIGITS[(number - 1) % 4] \
                and (not vul or vul.lower() in _SV_OF[(number - 1) % 16]):
            east = md.groups()[13:]
            text = _PBN_OF_MD(*md.groups()[1:13]) + (".".join(east) if east[0] is not None else "-")
        numbers.append(number)
        texts.append(text)
    plain = [t for t in texts if t]
    deals = iter(Deal.many_from_pbn(plain, or_none=True))
    for fields, number, text in zip(batch, numbers, texts):
        index = boards[-1].number + 1 if boards else 1
        if text:
            deal = next(deals)
            if deal is not None:
                boards.append(Board(number, deal))
                continue
        boards.append(_board(fields, index, source))


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
