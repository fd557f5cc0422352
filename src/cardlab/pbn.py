"""The PBN codec: every PBN reader and writer in cardlab goes through this module.

PBN 2.1 (Portable Bridge Notation, sections 3.1-3.8): a file is games separated by blank lines;
a game is tags ``[Name "value"]`` (several may share a line), each tag possibly followed by data
lines (the auction, the play, a table's rows). In a value ``\\"`` is a quote and ``\\\\`` a
backslash; any other backslash is kept (``\\2R`` in a table's column list). ``;`` starts a
comment to the end of the line and ``{ ... }`` a comment that may span lines (both outside
strings); a line starting with ``%`` is an escape line (``% PBN 2.1``). A value ``#`` repeats
the previous game's value of that tag.

:func:`games` splits a text into :class:`Game` records (tags with their line numbers, data
lines, raw lines); :func:`read_pbn_boards` gives each game's :class:`cardlab.deal.Board`;
:func:`format_tag` and :func:`format_game` write them. A malformed tag (an unclosed quote, a
file cut inside ``[Deal "N:AK``) is an :class:`cardlab.errors.InputFileError` naming the line
and quoting a short excerpt.

>>> text = '% PBN 2.1\\n[Board "2"] [Dealer "E"]\\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -"]\\n'
>>> [(b.number, b.dealer.value, b.vulnerability.value) for b in read_pbn_boards(text)]
[(2, 'E', 'NS')]
>>> read_pbn_boards('[Board "1"]\\n[Deal "N:AK')
Traceback (most recent call last):
...
cardlab.errors.InputFileError: line 2: unclosed PBN tag: '[Deal "N:AK' (the value's closing quote and ']' are missing)
>>> format_tag("Event", 'say "hi"')
'[Event "say \\\\"hi\\\\""]'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from collections import deque
from itertools import repeat
from typing import Iterable, Iterator, Sequence

from cardlab.deal import Board, Deal
from cardlab.errors import CardlabError, InputFileError
from cardlab.textfile import paused_gc

__all__ = ["TAG_PATTERN", "Game", "games", "line_tags", "read_pbn_boards", "format_tag", "format_game",
           "escape", "unescape", "export_tags", "excerpt", "board_number", "boards_from_owners", "looks_like_pbn", "MAX_BOARD_DIGITS",
           "MOST_SCANNED"]

#: One PBN tag: a name and a quoted value (escapes ``\\"`` and ``\\\\`` inside).
TAG_PATTERN = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_WHOLE_LINE = re.compile(r'\[([A-Za-z0-9_]+) "([^"\\]*)"\]').fullmatch
_ESCAPED = re.compile(r'\\(["\\])')
#: A backslash that must be doubled when written: one before a quote, a backslash or the end.
_TO_ESCAPE = re.compile(r'\\(?=["\\]|$)')
#: Board numbers have at most this many digits (a billion boards); longer ones are refused.
MAX_BOARD_DIGITS = 9
#: The most games or lines the compiled core's scanners take in one call (csrc/board_text.c).
MOST_SCANNED = 1 << 22
#: The longest excerpt of an input line an error message quotes.
EXCERPT = 40


def excerpt(line: str, start: int = 0, width: int = EXCERPT) -> str:
    """A short quoted piece of ``line`` from ``start`` (``...`` where cut), for error messages.

    >>> excerpt("x" * 100, 10, 5)
    "'xxxxx'... (column 11)"
    """
    piece = line[start:start + width]
    tail = "..." if start + width < len(line) else ""
    where = f" (column {start + 1})" if start else ""
    return f"{piece!r}{tail}{where}"


def unescape(value: str) -> str:
    r"""A tag value as read: ``\"`` -> ``"``, ``\\`` -> ``\``; other backslashes kept."""
    return _ESCAPED.sub(r"\1", value) if "\\" in value else value


def escape(value: str) -> str:
    r"""A value as written inside quotes (the inverse of :func:`unescape`)."""
    if "\\" in value:
        value = _TO_ESCAPE.sub(r"\\\\", value)
    return value.replace('"', '\\"')


def format_tag(name: str, value: str) -> str:
    """``[Name "value"]`` with the value escaped."""
    return f'[{name} "{escape(value)}"]'


def export_tags(board: str, dealer: str, vulnerable: str, deal: str, date: str) -> list[tuple[str, str]]:
    """The fifteen tags of PBN's mandatory tag set for an unplayed deal, as cardlab exports it
    (``"?"`` for an unknown event and site, ``""`` for players, declarer, contract and result)."""
    return [("Event", "?"), ("Site", "?"), ("Date", date), ("Board", board), ("West", ""), ("North", ""),
            ("East", ""), ("South", ""), ("Dealer", dealer), ("Vulnerable", vulnerable), ("Deal", deal),
            ("Scoring", ""), ("Declarer", ""), ("Contract", ""), ("Result", "")]


def format_game(tags: Iterable[tuple[str, str]]) -> str:
    """A game's tags, one a line, and the blank line that ends it."""
    return "".join(format_tag(k, v) + "\n" for k, v in tags) + "\n"


@dataclass
class Game:
    """One game of a PBN file: its tags (resolved ``#`` values) with the line of each, the data
    lines after each tag (``sections[name]`` = ``[(line number, text), ...]``), and its raw lines."""

    tags: dict[str, str] = field(default_factory=dict)
    where: dict[str, int] = field(default_factory=dict)
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    order: list[tuple[str, str]] = field(default_factory=list)

    def get(self, name: str, default: str = "") -> str:
        """The value of tag ``name``, or ``default``."""
        return self.tags.get(name, default)


def line_tags(line: str, number: int | None = None, source: str | None = None) -> tuple[list[tuple[str, str]], str]:
    """The tags on one line (values unescaped) and the rest of the line (data, comment removed).

    >>> line_tags('[Board "2"] [Dealer "E"] ; a comment')
    ([('Board', '2'), ('Dealer', 'E')], '')
    >>> line_tags('1 2 "4S" N 10')
    ([], '1 2 "4S" N 10')
    """
    found: list[tuple[str, str]] = []
    pos, end = 0, len(line)
    while pos < end and line[pos] in " \t":
        pos += 1
    while pos < end and line[pos] == "[":
        match = TAG_PATTERN.match(line, pos)
        if match is None:
            if '"' in line[pos:] and line.count('"', pos) % 2 == 1:
                raise InputFileError(f"unclosed PBN tag: {excerpt(line, pos)} (the value's closing quote and "
                                     f"']' are missing)", line=number, source=source)
            raise InputFileError(f"malformed PBN tag {excerpt(line, pos)}: write [Name \"value\"]", line=number,
                                 source=source)
        found.append((match.group(1), unescape(match.group(2))))
        pos = match.end()
        while pos < end and line[pos] in " \t":
            pos += 1
    rest = line[pos:] if pos else line
    if ";" in rest:
        rest = _cut_comment(rest)
    return found, rest.strip() if found else rest.rstrip()


def _cut_comment(text: str) -> str:
    """``text`` without a ``;`` comment (a ``;`` inside a quoted string is kept)."""
    quoted = False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            return text[:i]
    return text


def games(text: str, source: str | None = None, header: list[str] | None = None) -> Iterator[Game]:
    """The games of a PBN text, in order. A game ends at a blank line, or where a ``Board`` or
    ``Deal`` tag comes again; ``%`` lines before the first game are added to ``header`` when given."""
    game = Game()
    previous: dict[str, str] = {}
    section: str | None = None
    in_brace = False
    started = False
    for number, raw in enumerate(text.splitlines(), 1):
        if in_brace:
            if "}" in raw:
                in_brace = False
                raw = raw[raw.index("}") + 1:]
                if not raw.strip():
                    continue
            else:
                continue
        stripped = raw.strip()
        if not stripped:
            if game.tags:
                previous.update(game.tags)
                yield game
                game = Game()
            elif game.lines:
                game = Game()
            section = None
            continue
        if stripped.startswith("%"):
            if header is not None and not started:
                header.append(raw)
            continue
        if stripped.startswith("{"):
            close = stripped.find("}")
            if close < 0:
                in_brace = True
                continue
            stripped = stripped[close + 1:].strip()
            if not stripped:
                continue
        started = True
        match = _WHOLE_LINE(stripped) if stripped[-1] == "]" and "\\" not in stripped else None
        if match is not None:  # the common line: one tag, nothing else
            found, rest = [(match.group(1), match.group(2))], ""
        else:
            found, rest = line_tags(stripped, number, source)
        if found and found[0][0] in ("Board", "Deal") and found[0][0] in game.tags:
            previous.update(game.tags)
            yield game
            game = Game()
        game.lines.append(raw)
        for name, value in found:
            if name in ("Board", "Deal") and name in game.tags:
                previous.update(game.tags)
                yield game
                game = Game()
                game.lines.append(raw)
            if value == "#" and name in previous:
                value = previous[name]
            game.tags[name] = value
            game.where[name] = number
            game.order.append((name, value))
            section = name
        if rest and section is not None:
            game.sections.setdefault(section, []).append((number, rest))
    if game.tags:
        yield game


def board_number(value: str, line: int | None = None, source: str | None = None) -> int:
    """A ``[Board]`` value as a number: ASCII digits, 1 or more, at most :data:`MAX_BOARD_DIGITS`.

    >>> board_number(" 12 ")
    12
    >>> board_number("\\u00b2", 3)
    Traceback (most recent call last):
    ...
    cardlab.errors.InputFileError: line 3: board number '²' is not a whole number from 1 up
    """
    text = value.strip()
    if not (text.isascii() and text.isdigit()):
        raise InputFileError(f"board number {excerpt(text)} is not a whole number from 1 up", line=line,
                             source=source)
    digits = text.lstrip("0")
    if len(digits) > MAX_BOARD_DIGITS:
        raise InputFileError(f"board number {excerpt(text)} has {len(digits)} digits (at most "
                             f"{MAX_BOARD_DIGITS})", line=line, source=source)
    if not digits:
        raise InputFileError("board number 0: boards are numbered from 1", line=line, source=source)
    return int(digits)


def game_board(game: Game, index: int, source: str | None = None, by_number: bool = False) -> Board:
    """The :class:`Board` of a game that has a ``Deal``: numbered by its ``Board`` tag, else ``index``.
    With ``by_number``, a ``Dealer`` or ``Vulnerable`` tag must agree with the number's (the
    standard cycle), as for files that only carry the number (LIN, Duplimate)."""
    from cardlab.board import Vulnerability, dealer

    line = game.where.get("Deal")
    number = index
    given = game.tags.get("Board", "").strip()
    if given and given not in ("?", "-"):
        number = board_number(given, game.where.get("Board"), source)
    try:
        deal = Deal.from_pbn(game.tags["Deal"])
    except CardlabError as error:
        raise InputFileError(str(error), line=line, source=source) from None
    seat = game.tags.get("Dealer", "").strip().upper()
    if seat and seat not in ("?", "-"):
        if seat not in ("N", "E", "S", "W"):
            raise InputFileError(f"Dealer {excerpt(seat)}: the dealer is N, E, S or W", line=game.where.get("Dealer"),
                                 source=source)
        if by_number and seat != dealer(number).value:
            raise InputFileError(f"board {number}: Dealer {seat}, but board {number}'s dealer is "
                                 f"{dealer(number).value}", line=game.where.get("Dealer"), source=source)
    vul = game.tags.get("Vulnerable", "").strip()
    if vul and vul != "?":
        try:
            given_vul = Vulnerability.parse(vul)
        except CardlabError:
            raise InputFileError(f"board {number}: unknown vulnerability {excerpt(vul)}",
                                 line=game.where.get("Vulnerable"), source=source) from None
        if by_number and given_vul != Vulnerability.from_board(number):
            raise InputFileError(f"board {number}: Vulnerable {vul}, but board {number} is "
                                 f"{Vulnerability.from_board(number).value}", line=game.where.get("Vulnerable"),
                                 source=source)
    return Board(number, deal, tuple(pair for pair in game.order if pair[0] not in _DROPPED
                                     and pair[1] not in ("", "?")))


def boards_from_owners(numbers: Sequence[int], owners: bytes,
                       tags: Sequence[tuple[tuple[str, str], ...]] | None = None) -> list[Board]:
    """``Board(numbers[i], Deal(owners[52 i:52 i + 52]), tags[i])`` for every ``i``, made in bulk
    for the readers of large files: the seats were read by the compiled core, which checked 13
    cards a seat, so each :class:`Deal` is made without checking them again.

    >>> owner = bytes(range(4)) * 13
    >>> boards_from_owners([5], owner)[0].deal == Deal(owner)
    True
    """
    count = len(numbers)
    if len(owners) != 52 * count:
        raise ValueError(f"{count} boards need {52 * count} seats, not {len(owners)}")
    pieces = map(owners.__getitem__, map(slice, range(0, 52 * count, 52), range(52, 52 * count + 52, 52)))
    if count and min(numbers) < 1:
        raise ValueError(f"board numbers start at 1, not {min(numbers)}")
    deals = list(map(object.__new__, repeat(Deal, count)))
    deque(map(_SLOT["owner"], deals, pieces), maxlen=0)
    boards = list(map(object.__new__, repeat(Board, count)))
    for name, values in (("number", numbers), ("deal", deals), ("tags", repeat(()) if tags is None else tags),
                         ("origin", repeat(""))):
        deque(map(_SLOT[name], boards, values), maxlen=0)
    return boards


#: The slots of Deal and Board set directly (both are frozen): a million boards made in a second.
_SLOT = {"owner": Deal.__dict__["owner"].__set__,
         **{name: Board.__dict__[name].__set__ for name in ("number", "deal", "tags", "origin")}}


def read_pbn_boards(text: str, source: str | None = None, *, by_number: bool = False) -> list[Board]:
    """The boards of a PBN text: the :class:`Board` of every game with a ``Deal`` tag, in file
    order, numbered from its ``Board`` tag (else one more than the board before it). A board
    given again (a results file repeats it once per table) must have the same deal, and is
    listed once (found in a dict: a million boards read in seconds). ``by_number``: see
    :func:`game_board`.

    >>> text = '[Board "7"]\\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -"]\\n'
    >>> [b.number for b in read_pbn_boards(text + "\\n" + text)]
    [7]
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    if "\r" not in text:
        try:
            with paused_gc():
                quick = _simple_boards(text, source, by_number)
        except CardlabError:
            quick = None  # read again line by line, for the message with its line number
        if quick is not None:
            return quick
    return _collect(_each_board(text, source, by_number), source)


def _each_board(text: str, source: str | None, by_number: bool) -> Iterator[tuple[Board, int | None]]:
    """Each board with the line of its ``Deal`` tag (for a message about it)."""
    last = 0
    for game in games(text, source):
        if "Deal" in game.tags:
            board = game_board(game, last + 1, source, by_number)
            last = board.number
            yield board, game.where.get("Deal")


def _collect(boards: Iterable[tuple[Board, int | None]], source: str | None) -> list[Board]:
    by_number: dict[int, Board] = {}
    for board, line in boards:
        seen = by_number.get(board.number)
        if seen is None:
            by_number[board.number] = board
        elif seen.deal != board.deal:
            raise InputFileError(f"board {board.number} is given twice with different deals", line=line,
                                 source=source)
    return list(by_number.values())


#: A game in the common form, one tag a line and nothing else (no comment, escape or data line).
_SIMPLE_GAME = re.compile(r'(?:[ \t]*\[[A-Za-z0-9_]+[ \t]+"[^"\\\n]*"[ \t]*\][ \t]*(?:\n|$))+').fullmatch
_SIMPLE_TAG = re.compile(r'\[([A-Za-z0-9_]+)[ \t]+"([^"\\\n]*)"').findall
_ESCAPE_LINES = re.compile(r"^[ \t]*%[^\n]*(?:\n|$)", re.M)
#: The blank lines between games.
_GAP = re.compile(r"\n(?:[ \t]*\n)+")
_BOARD_VALUES = re.compile(r'\[Board[ \t]+"([^"\n]*)"').findall
_DEAL_VALUES = re.compile(r'\[Deal[ \t]+"([^"\n]*)"').findall
#: A game's own Board and Deal values, taken out to leave what games share.
_BOARD_VALUE = re.compile(r'\[Board "[^"\n]*(?=")').sub
_DEAL_VALUE = re.compile(r'\[Deal "[^"\n]*(?=")').sub
#: Tags kept on a board read from a file (its number and deal are the board's own fields).
_DROPPED = frozenset({"Board", "Deal"})
#: Characters of text the reader takes at a time (cut at a blank line).
_PIECE = 1 << 20


def _pieces(text: str) -> Iterator[str]:
    """``text`` in pieces of about :data:`_PIECE` characters, each cut at a blank line (a game
    never spans two pieces)."""
    start, end = 0, len(text)
    while start < end:
        cut = _GAP.search(text, min(start + _PIECE, end)) if start + _PIECE < end else None
        stop = cut.end() if cut else end
        yield text[start:stop]
        start = stop


def _simple_boards(text: str, source: str | None, by_number: bool) -> list[Board] | None:
    """:func:`read_pbn_boards` for a text whose every game is in the common form (one tag a line,
    no comment, escape or data line, no tag twice in a game, no ``#``): each piece of the text
    in one pass of the compiled core's ``pbn_scan`` (:func:`_scanned_piece`), else in a few
    regular-expression passes, every deal read by the compiled core, and the rest of a
    game (its tags but the number and the deal) checked and read once for all the games that
    share it; None when a game is not in that form (the line-by-line reader takes it). A piece
    whose every game has a plain number and deal is read without a Python step per game."""
    kinds: dict[str, tuple[bool, bool, tuple[tuple[str, str], ...], str, str] | None] = {}
    checked: set[tuple[str, int]] = set()
    boards: list[Board] = []
    last = 0
    for piece in _pieces(text):
        if "%" in piece:
            piece = _ESCAPE_LINES.sub("", piece)
        if '"#"' in piece:
            return None  # '#' repeats the last game's value: line by line
        scanned = _scanned_piece(piece, kinds, checked, source, by_number)
        if scanned is not None:
            boards += scanned
            last = scanned[-1].number
            continue
        board_values = _BOARD_VALUES(piece)
        deal_values = _DEAL_VALUES(piece)
        shared_games = _GAP.split(_DEAL_VALUE('[Deal "', _BOARD_VALUE('[Board "', piece)))
        for shared in set(shared_games):
            if shared not in kinds:
                kind = _game_kind(shared)
                if kind is False:
                    return None
                if len(kinds) < 10_000:
                    kinds[shared] = kind if kind is not True else None
        quick = _plain_piece(shared_games, board_values, deal_values, kinds, checked, source, by_number)
        if quick is not None:
            boards += quick
            if quick:
                last = quick[-1].number
            continue
        numbers: list[int] = []
        kept_tags: list[tuple[tuple[str, str], ...]] = []
        deals: list[str] = []
        board_iter, deal_iter = iter(board_values), iter(deal_values)
        for shared in shared_games:
            found_kind = kinds.get(shared) if shared in kinds else _game_kind(shared)
            if found_kind is None or found_kind is True:
                continue
            if found_kind is False:
                return None
            has_board, has_deal, kept, dealer_tag, vul_tag = found_kind
            given = next(board_iter).strip() if has_board else ""
            if not has_deal:
                continue
            if given.isdigit() and given.isascii() and len(given) <= MAX_BOARD_DIGITS and given[0] != "0":
                number = int(given)
            elif given and given not in ("?", "-"):
                number = board_number(given)
            else:
                number = last + 1
            last = number
            _check_kind(shared, number, dealer_tag, vul_tag, checked, source, by_number)
            kept_tags.append(kept)
            numbers.append(number)
            deals.append(next(deal_iter).strip())
        boards += map(Board, numbers, Deal.many_from_pbn(deals), kept_tags)
    if len({b.number for b in boards}) == len(boards):
        return boards
    return _collect(((board, None) for board in boards), source)


_Kind = tuple[bool, bool, tuple[tuple[str, str], ...], str, str]


def _game_kind(shared: str) -> _Kind | bool:
    """What a game's text without its Board and Deal values says: (has a Board tag, has a Deal
    tag, the tags a board keeps, the Dealer and Vulnerable values); True for blank text, False
    for a game not in the common form."""
    if not shared.strip():
        return True
    if _SIMPLE_GAME(shared.strip("\n")) is None:
        return False
    found = _SIMPLE_TAG(shared)
    tags = dict(found)
    if len(tags) != len(found):
        return False  # a repeated tag starts a new game: line by line
    kept = tuple(pair for pair in found if pair[0] not in _DROPPED and pair[1] not in ("", "?"))
    return "Board" in tags, "Deal" in tags, kept, tags.get("Dealer", ""), tags.get("Vulnerable", "")


def _check_kind(shared: str, number: int, dealer_tag: str, vul_tag: str, checked: set[tuple[str, int]],
                source: str | None, by_number: bool) -> None:
    """The checks of :func:`game_board` (Dealer, Vulnerable, by number), once per kind of game."""
    check = (shared, (number - 1) % 16 if by_number else 0)
    if check not in checked:
        game_board(Game({"Board": str(number), "Deal": _ANY_DEAL, "Dealer": dealer_tag, "Vulnerable": vul_tag}),
                   number, source, by_number)
        if len(checked) < 100_000:
            checked.add(check)


#: Board numbers as the plain reader takes them: 1 to 9 digits, no leading zero, one a line.
_PLAIN_NUMBERS = re.compile(r"[1-9][0-9]{0,8}(?:\n[1-9][0-9]{0,8})*").fullmatch


def _scanned_piece(piece: str, kinds: dict[str, _Kind | None], checked: set[tuple[str, int]], source: str | None,
                   by_number: bool) -> list[Board] | None:
    """The boards of a piece of plain games as the compiled core's ``pbn_scan`` reads it in one
    pass (numbers, deals, and which games share their other tags); each kind of game is then read
    and checked once, as :func:`_plain_piece` does. None when the scan stops (a game not in the
    plain form, or none at all): the regular-expression passes take the piece."""
    import numpy as np

    from cardlab._native import core

    try:
        data = piece.encode("ascii")
    except UnicodeEncodeError:
        return None
    cap = len(data) // 64 + 1  # a plain game is 75 characters at least (its Board and Deal lines)
    if cap > MOST_SCANNED:
        return None
    numbers, owner = np.empty(cap, np.int64), bytearray(52 * cap)
    kind_of, spans = np.empty(cap, np.int32), np.empty((cap, 6), np.int64)
    count = core.pbn_scan(data, cap, numbers, owner, kind_of, spans)
    if count <= 0:
        return None
    kind_of = kind_of[:count]
    shared_of: dict[int, str] = {}
    kept_of: dict[int, tuple[tuple[str, str], ...]] = {}
    for first in np.unique(kind_of).tolist():
        start, end, *values = spans[first].tolist()
        one, two = sorted((values[0:2], values[2:4]))
        shared = f'{piece[start:one[0]]}{piece[one[1]:two[0]]}{piece[two[1]:end]}'
        kind = kinds[shared] if shared in kinds else _game_kind(shared)
        if not isinstance(kind, tuple) or not (kind[0] and kind[1]):
            return None
        if len(kinds) < 10_000:
            kinds[shared] = kind
        shared_of[first], kept_of[first] = shared, kind[2]
    places = (numbers[:count] - 1) % 16 if by_number else np.zeros(count, np.int64)
    for pair in np.unique(kind_of.astype(np.int64) * 16 + places).tolist():
        shared = shared_of[pair // 16]
        if (shared, pair % 16) not in checked:
            kind = kinds.get(shared) or _game_kind(shared)
            assert isinstance(kind, tuple)
            _check_kind(shared, pair % 16 + 1, kind[3], kind[4], checked, source, by_number)
    return boards_from_owners(numbers[:count].tolist(), bytes(owner[:52 * count]),
                              list(map(kept_of.__getitem__, kind_of.tolist())))


def _plain_piece(shared_games: list[str], board_values: list[str], deal_values: list[str],
                 kinds: dict[str, _Kind | None], checked: set[tuple[str, int]], source: str | None,
                 by_number: bool) -> list[Board] | None:
    """The boards of a piece whose every game has a Board tag with a plain number and a Deal in
    the plain form (see ``pbn_deals`` in the compiled core), each kind of game known: the
    numbers, checks and deals in bulk; None for any other piece (read game by game)."""
    import numpy as np

    from cardlab._native import core

    while shared_games and not shared_games[-1].strip():
        shared_games = shared_games[:-1]
    while shared_games and not shared_games[0].strip():
        shared_games = shared_games[1:]
    count = len(shared_games)
    if count != len(board_values) or count != len(deal_values) or not count:
        return None
    found = list(map(kinds.get, set(shared_games)))
    if not all(kind is not None and kind[0] and kind[1] for kind in found):
        return None
    number_text = "\n".join(board_values)
    if _PLAIN_NUMBERS(number_text) is None:
        return None
    numbers = list(map(int, board_values))
    cycle = ((np.array(numbers, np.int64) - 1) % 16).tolist() if by_number else [0] * count
    for shared, place in set(zip(shared_games, cycle)):
        if (shared, place) not in checked:
            kind = kinds[shared]
            assert kind is not None
            _check_kind(shared, place + 1, kind[3], kind[4], checked, source, by_number)
    data = ("\n".join(deal_values) + "\n").encode("ascii", "replace")
    if data.count(b"\n") != count:
        return None
    owner, ok = bytearray(52 * count), bytearray(count)
    if core.pbn_deals(data, count, owner, ok) != count:
        return None
    kept = [kind[2] for kind in map(kinds.__getitem__, shared_games) if kind is not None]
    return boards_from_owners(numbers, bytes(owner), kept)


_ANY_DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def looks_like_pbn(text: str) -> bool:
    """Whether ``text`` starts like a PBN file (a ``%`` line, a ``{`` comment or a ``[Tag "value"]``)."""
    for raw in text.splitlines():
        line = raw.strip()
        if line:
            return line.startswith(("%", "{")) or bool(TAG_PATTERN.match(line))
    return False
