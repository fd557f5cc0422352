"""Board sets for practice sessions and dealing machines (docs/boards.md).

A :class:`Board` is a board number and a deal (the seat of each card); its dealer
and vulnerability follow from the number by the standard cycle
(:mod:`cardlab.board`). A :class:`BoardSet` is boards in order; it writes PBN,
BBO's LIN (:mod:`cardlab.bridge.lin`) and the Duplimate dealing machines' ``.dup``
and ``.dlm`` files (:mod:`cardlab.bridge.duplimate`), and :func:`read_board_file`
reads LIN, ``.dup`` and ``.dlm`` back.

:func:`deal_board_set` makes a set from dealer scripts: several scripts mixed
(``a.dlr:8,b.dlr:8``), each deal rotated so that the script's dealer sits where the
board number puts the dealer (``rotate``), and hand types levelled to chosen shares
(:mod:`cardlab.bridge.levels`). Deals come from the dealer runner's public entry
point, :func:`cardlab.bridge.dealer.run_script`.

>>> deal = Board.from_pbn(3, "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> deal.dealer.value, deal.vulnerability.value, deal.rotated(0, 2).hand_text(2)
('S', 'EW', 'AKQJ.T98.765.432')
>>> print(BoardSet((deal,)).to_pbn().splitlines()[7])
[Board "3"]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from cardlab.board import SEATS, dealer
from cardlab.deal import Board, Deal, rotate_owner
from cardlab.errors import ConstraintError, InputFileError, text_argument
from cardlab.pbn import format_tag, read_pbn_boards
from cardlab.results import JsonText
from cardlab.textfile import decode_text, shown_text
from cardlab.textformat import percent

__all__ = ["Board", "BoardSet", "encode_chunk", "STREAMED", "MAX_SHUFFLED", "board_entry", "json_stream", "check_range", "PBN_HEADER", "SetPart", "ScriptPart", "BoardSetResult", "PartReport", "parse_mix", "deal_board_set",
           "numbered", "read_board_file", "read_pbn_boards", "FORMATS", "format_for", "rotate_owner"]

#: Board-file formats cardlab writes, by name; ``.dup`` is binary.
FORMATS = ("pbn", "lin", "dup", "dlm")


@dataclass(frozen=True)
class BoardSet:
    """Boards in order, with writers for every board-file format.

    >>> s = BoardSet((Board.from_pbn(1, "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"),))
    >>> s.to_lin().split("|")[4:6]
    ['md', '3S765H432DAKQJCT98,S432HAKQJDT98C765,SAKQJHT98D765C432']
    """

    boards: tuple[Board, ...]

    def __len__(self) -> int:
        return len(self.boards)

    def __iter__(self) -> Iterator[Board]:
        return iter(self.boards)

    def to_pbn(self, event: str = "") -> str:
        """PBN 2.1 games: the mandatory tags, board number, dealer and vulnerability from the number."""
        return PBN_HEADER + _pbn_games(self.boards, event)

    def to_lin(self) -> str:
        """The set as BBO's LIN text (docs/boards.md)."""
        from cardlab.bridge.lin import write_lin

        return write_lin(self.boards)

    def to_dup(self) -> bytes:
        """The set as a Duplimate ``.dup`` file (docs/boards.md)."""
        from cardlab.bridge.duplimate import write_dup

        return write_dup(self.boards)

    def to_dlm(self) -> str:
        """The set as a Duplimate ``.dlm`` file (docs/boards.md)."""
        from cardlab.bridge.duplimate import write_dlm

        return write_dlm(self.boards)

    def encode(self, fmt: str) -> bytes:
        """The set as the bytes of a ``fmt`` file (text formats in UTF-8 or ASCII, CRLF for DLM)."""
        if fmt == "pbn":
            return self.to_pbn().encode("utf-8")
        if fmt == "lin":
            return self.to_lin().encode("utf-8")
        if fmt == "dup":
            return self.to_dup()
        if fmt == "dlm":
            return self.to_dlm().encode("ascii")
        raise ConstraintError(f"unknown board-file format {fmt!r} (known: {', '.join(FORMATS)})")


#: The most boards a shuffled set may have: it is held whole until its order is known.
MAX_SHUFFLED = 10_000_000
#: The lines a PBN board file starts with.
PBN_HEADER = "% PBN 2.1\n% EXPORT\n%Creator: cardlab\n"
#: Formats written a chunk of boards at a time (``.dup`` and ``.dlm`` hold at most 999 and 99
#: boards, each record naming the whole set's range: written whole).
STREAMED = ("pbn", "lin")


def _pbn_games(boards: Iterable[Board], event: str = "") -> str:
    out = []
    for b in boards:
        tags = [("Event", event or "cardlab board set"), ("Site", "?"), ("Date", "?"), ("Round", "?"),
                ("Board", str(b.number)), ("West", "?"), ("North", "?"), ("East", "?"), ("South", "?"),
                ("Dealer", b.dealer.value), ("Vulnerable", b.vulnerability.value),
                ("Deal", b.pbn_deal(b.dealer.index)), ("Scoring", "?"), ("Declarer", "?"),
                ("Contract", "?"), ("Result", "?")]
        out += [format_tag(k, v) for k, v in tags]
        out.append("")
    return "".join(line + "\n" for line in out)


def encode_chunk(fmt: str, boards: Sequence[Board], first: bool) -> bytes:
    """A chunk of a streamed board file (``fmt`` in :data:`STREAMED`): the chunk's boards, after
    the file's header when ``first``. The chunks joined are :meth:`BoardSet.encode` of all the boards.

    >>> b = Board.from_pbn(1, "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
    >>> encode_chunk("pbn", [b], True) + encode_chunk("pbn", [b.renumbered(2)], False) == \\
    ...     BoardSet((b, b.renumbered(2))).encode("pbn")
    True
    """
    if fmt == "pbn":
        return ((PBN_HEADER if first else "") + _pbn_games(boards)).encode("utf-8")
    if fmt == "lin":
        from cardlab.bridge.lin import write_lin

        return write_lin(boards).encode("utf-8")
    raise ConstraintError(f"{fmt} files are written whole, not streamed (streamed: {', '.join(STREAMED)})")


def check_range(fmt: str, first: int, count: int) -> None:
    """Refuse, before any dealing, ``count`` boards from ``first`` that a ``fmt`` file cannot
    number (``.dup`` holds boards up to 999, ``.dlm`` up to 99); PBN and LIN hold any number.

    >>> check_range("dlm", 90, 11)
    Traceback (most recent call last):
    ...
    cardlab.errors.ConstraintError: a .dlm file holds boards 1 to 99: boards 90-100 do not fit (from board 90, at most 10 boards)
    """
    from cardlab.bridge.duplimate import DLM_LAST, DUP_LAST

    limit = {"dup": DUP_LAST, "dlm": DLM_LAST}.get(fmt)
    last = first + count - 1
    if limit is not None and last > limit:
        room = f"at most {limit - first + 1} boards" if first <= limit else "none fits"
        raise ConstraintError(f"a .{fmt} file holds boards 1 to {limit}: boards {first}-{last} do not fit "
                              f"(from board {first}, {room})")


def format_for(path: str | None, given: str | None) -> str:
    """The format asked for, else the one ``path``'s suffix names, else PBN."""
    if given:
        if given not in FORMATS:
            raise ConstraintError(f"unknown board-file format {given!r} (known: {', '.join(FORMATS)})")
        return given
    suffix = Path(path).suffix.lower().lstrip(".") if path else ""
    return suffix if suffix in FORMATS else "pbn"


def read_board_file(path: str | Path) -> BoardSet:
    """Read a PBN, LIN, ``.dup`` or ``.dlm`` file (by its suffix, else by its content)."""
    from cardlab.textfile import read_bytes

    data = read_bytes(path)  # within the line limit: /dev/zero stops after 16 MiB
    name = str(path)
    suffix = Path(path).suffix.lower()
    from cardlab.bridge import duplimate, lin

    if suffix == ".dup":
        return BoardSet(tuple(duplimate.read_dup(data, name)))
    if suffix not in (".dlm", ".lin", ".pbn") and len(data) % 156 == 0 and data[:2].isdigit():
        return BoardSet(tuple(duplimate.read_dup(data, name)))
    text = decode_text(data, name)
    del data  # the text alone is held while the boards are read
    if suffix == ".dlm":
        return BoardSet(tuple(duplimate.read_dlm(text, name)))
    if suffix == ".lin":
        return BoardSet(tuple(lin.read_lin(text, name)))
    if suffix == ".pbn":
        return _pbn_set(text, name)
    if text.lstrip().startswith("[Document]"):
        return BoardSet(tuple(duplimate.read_dlm(text, name)))
    if "[Deal " in text:
        return _pbn_set(text, name)
    if "md|" in text:
        return BoardSet(tuple(lin.read_lin(text, name)))
    raise InputFileError("not a PBN, LIN, .dup or .dlm board file", source=name)


def _pbn_set(text: str, source: str | None) -> BoardSet:
    """The boards of a PBN file (:func:`cardlab.pbn.read_pbn_boards`), Dealer and Vulnerable tags
    checked against the numbers (the other formats carry only the number)."""
    boards = read_pbn_boards(text, source, by_number=True)
    if not boards:
        raise InputFileError("no [Deal] tag found in this PBN file", source=source)
    return BoardSet(tuple(boards))


# --- sets from dealer scripts --------------------------------------------------------------------


@dataclass(frozen=True)
class SetPart:
    """One script of a mixed set and how many boards it deals."""

    script: str
    count: int


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


def parse_mix(text: str, base: str | Path | None = None) -> tuple[SetPart, ...]:
    """``a.dlr:8,b.dlr:8``, or the name of a file with one ``SCRIPT COUNT`` (or ``SCRIPT:COUNT``)
    per line (``#`` comments); script paths in a file are relative to it.

    >>> parse_mix("a.dlr:8, b.dlr:4")
    (SetPart(script='a.dlr', count=8), SetPart(script='b.dlr', count=4))
    >>> parse_mix("a.dlr:eight")
    Traceback (most recent call last):
    ...
    cardlab.errors.ConstraintError: mix item 'a.dlr:eight': write SCRIPT:COUNT, e.g. open1nt.dlr:8
    """
    text_argument(text, "a mix", ConstraintError)
    items: list[tuple[str, str]] = []
    where = ""
    if ":" not in text and "," not in text and _is_file(text):
        folder = Path(text).parent
        where = f" in {text}"
        from cardlab.textfile import read_text

        for number, line in enumerate(read_text(text).splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if line:
                match = re.fullmatch(r"(.+?)\s*[:\s]\s*(\S+)", line)
                if not match:
                    raise ConstraintError(f"{text}: line {number}: write SCRIPT COUNT, not {line!r}")
                script = match.group(1)
                items.append((str(folder / script) if not Path(script).is_absolute() else script, match.group(2)))
    else:
        for item in (p.strip() for p in text.split(",")):
            if not item:
                continue
            script, sep, count = item.rpartition(":")
            if not sep or not script:
                raise ConstraintError(f"mix item {shown_text(item)}: write SCRIPT:COUNT, e.g. open1nt.dlr:8")
            items.append((script, count))
    parts = []
    for script, count in items:
        if not re.fullmatch(r"[0-9]{1,12}", count) or int(count) < 1:  # (int() of 5,000 digits refuses)
            raise ConstraintError(f"mix item {shown_text(f'{script}:{count}')}{where}: write SCRIPT:COUNT, "
                                  "e.g. open1nt.dlr:8")
        parts.append(SetPart(script, int(count)))
    if not parts:
        raise ConstraintError(f"the mix {text!r} names no scripts")
    return tuple(parts)


def numbered(boards: Iterable[Board], first: int = 1, rotate: Sequence[int] | None = None) -> BoardSet:
    """Number ``boards`` from ``first``; with ``rotate`` (each board's script dealer seat), turn each
    deal so that hand sits at the dealer seat its new number gives."""
    out = []
    for i, board in enumerate(boards):
        number = first + i
        b = board.renumbered(number)
        if rotate is not None:
            b = b.rotated(rotate[i], dealer(number).index)
        out.append(b)
    return BoardSet(tuple(out))


@dataclass(frozen=True)
class PartReport:
    """What one script of a set dealt: boards, and for a levelled script each type's report."""

    source: str
    boards: int
    dealer: int
    levels: tuple[Any, ...] = ()
    generated: int = 0


@dataclass(frozen=True)
class BoardSetResult(JsonText):
    """A dealt set and how it was made (seed, each script's part, levels, rotation)."""

    boards: BoardSet
    seed: int | None
    parts: tuple[PartReport, ...]
    rotated: bool
    #: Boards given to the sink as they were dealt (then ``boards`` is empty), and the first number.
    streamed: int = 0
    first_board: int = 1

    @property
    def count(self) -> int:
        """The number of boards dealt (held in ``boards`` or streamed)."""
        return len(self.boards) or self.streamed

    def summary(self) -> str:
        """The lines printed beside the file: parts, types with their natural frequencies."""
        lines = [f"{self.count} board(s), {self.first_board}-{self.first_board + self.count - 1}, "
                 f"seed {self.seed}" + ("; rotated so each script's dealer deals" if self.rotated else "")]
        for part in self.parts:
            lines.append(f"{part.source}: {part.boards} board(s), dealt with {SEATS[part.dealer]} as dealer")
            for level in part.levels:
                lines.append(f"  {level.name}: {level.boards} board(s) = {_percent(level.share)} of the part; "
                             f"natural frequency {level.frequency_text()}")
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """The set as a JSON-ready dict: seed, rotation and every board."""
        return {"seed": self.seed, "rotated": self.rotated, "boards": [board_entry(b) for b in self.boards],
                "parts": self.parts_list()}

    def parts_list(self) -> list[dict[str, Any]]:
        """Each script's part as a JSON-ready dict (the ``parts`` of :meth:`to_dict`)."""
        return [{"script": p.source, "boards": p.boards, "dealer": SEATS[p.dealer],
                 "levels": [lv.to_dict() for lv in p.levels]} for p in self.parts]


def board_entry(board: Board) -> dict[str, Any]:
    """One board of a dealt set as JSON-ready data (an item of ``boards`` in
    :meth:`BoardSetResult.to_dict`)."""
    return {"board": board.number, "dealer": board.dealer.value, "vulnerable": board.vulnerability.value,
            "deal": board.pbn_deal(), "origin": board.origin}


def json_stream(seed: int | None, rotated: bool) -> tuple[str, Callable[[Sequence[Board], bool], str], Callable[[BoardSetResult], str]]:
    """:meth:`BoardSetResult.to_json` written as the set is dealt: the text before the boards,
    a function giving a chunk of boards' text (``first``: the set's first chunk), and one giving
    the text after them from the result. Joined, they are the whole set's :meth:`~JsonText.to_json`.

    >>> head, chunk, tail = json_stream(3, False)
    >>> head.splitlines()[1:3]
    ['  "seed": 3,', '  "rotated": false,']
    """
    import json

    mark = "\u0000boards\u0000"
    template = json.dumps({"seed": seed, "rotated": rotated, "boards": [mark], "parts": mark}, indent=2)
    quoted = json.dumps(mark)
    head, after = template.split(quoted, 1)
    between, end = after.split(quoted, 1)

    def chunk(boards: Sequence[Board], first: bool) -> str:
        text = ",\n    ".join(json.dumps(board_entry(b), indent=2).replace("\n", "\n    ") for b in boards)
        return text if first or not text else ",\n    " + text

    def tail(result: BoardSetResult) -> str:
        parts = json.dumps(result.parts_list(), indent=2).replace("\n", "\n  ")
        return between + parts + end

    return head, chunk, tail


def _percent(share: Any) -> str:
    return percent(share, trim=True)


@dataclass(frozen=True)
class ScriptPart:
    """A parsed script to deal ``count`` boards from, with its text (for levels) and levels."""

    script: Any
    text: str
    count: int
    levels: tuple[Any, ...] = ()


def deal_board_set(parts: Sequence[ScriptPart], *, seed: Any = None, rotate: bool = False, first_board: int = 1,
                   shuffle: bool = False, generate: int | None = None, level_trials: int = 100_000,
                   workers: int = 1, executor: Any = None,
                   sink: Callable[[list[Board]], None] | None = None) -> BoardSetResult:
    """Deal a set: each part's ``count`` deals from its script (levelled when it has levels) through
    :func:`cardlab.bridge.dealer.run_script`, in order (or shuffled with the seed), numbered from
    ``first_board``; ``rotate`` turns each deal so its script's dealer (``dealer`` statement, else
    North) sits at the board's dealer seat. Part ``i`` (and type ``j``) deal from their own child of
    the seed, so a part's deals do not depend on the others.

    With ``sink``, each chunk of boards goes to ``sink`` as it is dealt, numbered and turned, and
    none is kept (the result's ``boards`` is empty, ``streamed`` counts them): memory stays flat
    whatever the count. A shuffled set is held whole first (53 bytes a board, at most
    :data:`MAX_SHUFFLED` boards), then numbered in its new order and given to ``sink`` (or kept)
    a chunk at a time.

    >>> from cardlab.bridge.dealer import parse_script
    >>> text = "dealer north\\ncondition hcp(north) >= 15 && hcp(north) <= 17\\n"
    >>> result = deal_board_set([ScriptPart(parse_script(text, "nt"), text, 4, ())], seed=7, rotate=True)
    >>> len(result.boards), result.rotated
    (4, True)
    """
    import numpy as np

    from cardlab.bridge.dealer.runner import run_script
    from cardlab.bridge.levels import LevelReport, compile_levels, level_counts, natural_frequencies
    from cardlab.engine import resolve_seed

    if not parts:
        raise ConstraintError("a board set needs at least one script")
    if first_board < 1:
        raise ConstraintError(f"the first board number must be at least 1, not {first_board}")
    total = sum(part.count for part in parts)
    if shuffle and total > MAX_SHUFFLED:
        raise ConstraintError(f"--shuffle holds the whole set in memory (53 bytes a board): at most "
                              f"{MAX_SHUFFLED:,} boards, not {total:,} (deal several sets, or leave out --shuffle)")
    root, reported = resolve_seed(seed)
    children = root.spawn(len(parts) + 1)
    reports = []
    streaming = sink is not None
    kept: list[Board] = []
    give: Callable[[list[Board]], None] = sink if sink is not None else kept.extend
    placed = 0  # boards numbered so far (in dealing order, when not shuffled)
    # a shuffled set waits whole for its order, as each deal's seats, its script's seat and origin
    held = np.empty((total if shuffle else 0, 52), np.uint8)
    held_seat = np.empty(total if shuffle else 0, np.uint8)
    held_origin = np.empty(total if shuffle else 0, np.uint32)
    origins: list[str] = []

    def place(rows: np.ndarray, seats: np.ndarray, names: Sequence[str]) -> None:
        """Number ``rows`` from the next board, turn them (``rotate``) and give them on."""
        nonlocal placed
        numbers = np.arange(first_board + placed, first_board + placed + len(rows))
        placed += len(rows)
        if rotate:  # the script's dealer seat to the seat the number makes dealer
            rows = ((rows + ((numbers - 1 - seats) % 4)[:, None]) % 4).astype(np.uint8)
        give([Board(int(n), Deal(row.tobytes()), (), origin) for n, row, origin in zip(numbers, rows, names)])

    filled = 0  # deals held so far (shuffled sets)

    def emit(rows: np.ndarray, seat: int, origin: str) -> None:
        nonlocal filled
        if not shuffle:
            place(rows, np.full(len(rows), seat), [origin] * len(rows))
            return
        if not origins or origins[-1] != origin:  # numbered and turned once the order is known
            origins.append(origin)
        held[filled:filled + len(rows)] = rows
        held_seat[filled:filled + len(rows)] = seat
        held_origin[filled:filled + len(rows)] = len(origins) - 1
        filled += len(rows)

    for part, child in zip(parts, children):
        script = part.script
        source = script.source or "stdin"
        seat = script.dealer if script.dealer is not None else 0
        runs: list[tuple[Any, int, str]]
        if part.levels:
            counts = level_counts(part.levels, part.count)
            types = compile_levels(part.text, script.source, part.levels)
            runs = [(replace(script, condition=_both(script.condition, t)), c, f"{source}:{lv.name}")
                    for t, c, lv in zip(types, counts, part.levels)]
        else:
            runs = [(script, part.count, source)]
        seeds = child.spawn(len(runs) + 1)
        generated = 0
        for (run, count, origin), run_seed in zip(runs, seeds):
            if count == 0:
                continue
            from cardlab.bridge.dealer.dealing import owner_from_masks

            got = [0]  # deals taken so far

            def take(masks: np.ndarray, before: int, count: int = count, seat: int = seat,
                     origin: str = origin, got: list[int] = got) -> None:
                rows = owner_from_masks(masks).T[:count - got[0]]  # owner rows (k, 52): each card's seat
                got[0] += len(rows)
                if len(rows):
                    emit(np.ascontiguousarray(rows), seat, origin)

            result = run_script(run, produce=count, generate=generate, seed=run_seed, quiet=True, workers=workers,
                                executor=executor, on_deals=take)
            generated += result.generated
            if result.interrupted:
                raise KeyboardInterrupt
            if got[0] < count:
                raise ConstraintError(f"{origin}: only {got[0]} of {count} deals met the condition in "
                                      f"{result.generated:,} deals tried (raise -g, or ask for fewer boards)")
        level_reports: tuple[Any, ...] = ()
        if part.levels:
            frequencies = natural_frequencies(script, types, trials=level_trials, seed=seeds[-1], generate=generate,
                                              workers=workers, executor=executor)
            level_reports = tuple(
                LevelReport(lv.name, lv.text, c, Fraction(c, part.count), nat, k, n, interval)
                for lv, c, (nat, k, n, interval) in zip(part.levels, counts, frequencies))
        reports.append(PartReport(source, part.count, seat, level_reports, generated))
    if shuffle:
        order = np.random.default_rng(children[-1]).permutation(total)
        for start in range(0, total, 4096):
            picked = order[start:start + 4096]
            place(held[picked], held_seat[picked].astype(np.int64), [origins[i] for i in held_origin[picked]])
    return BoardSetResult(BoardSet(tuple(kept)), reported, tuple(reports), rotate,
                          placed if streaming else 0, first_board)


def _both(left: Any, right: Any) -> Any:
    from cardlab.bridge.dealer.parser import Binary

    return Binary("&&", left, right)
