"""The fast path for big CSV traveller files: columns instead of one object per line.

:func:`read_csv_columns` reads a plain CSV traveller file (no quotes, no blank lines) into
numpy columns; each distinct (contract, declarer, tricks/result,
score, vulnerability) combination is checked once by :meth:`TravellerLine.make`, and every
line points to its combination.  :func:`score_columns` scores those columns with the same
kernels as :func:`~cardlab.scoring.session.score_session` and gives the same
:class:`~cardlab.scoring.session.SessionResult`; its ``boards`` build their lines only
when asked for (:class:`LazyBoards`), so a million lines are ranked without a million
objects.  Anything the fast path does not handle (a bad line, a pair twice on a board, a
phantom) returns None and the caller takes the line-by-line path, which gives the exact
error message with its line.

>>> text = "board,ns,ew,contract,declarer,tricks,score\\n1,1,1,4S,N,10,\\n1,2,2,4S,N,9,\\n"
>>> cols = read_csv_columns(text)
>>> cols.size, cols.score.tolist()
(2, [420, -50])
>>> result = score_columns(cols)
>>> [(p.key, p.percentage) for p in result.pairs]
[(('NS', '1'), 100.0), (('NS', '2'), 0.0), (('EW', '2'), 100.0), (('EW', '1'), 0.0)]
>>> result.boards[0].lines[1].line.score
-50
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence, overload

import numpy as np
from numpy.typing import NDArray

from cardlab.board import Vulnerability
from cardlab.scoring.csv_travellers import _header
from cardlab.scoring.matchpoints import Scale
from cardlab.scoring.session import (
    BoardResult,
    Method,
    Movement,
    PairKey,
    ScoredLine,
    SessionResult,
    _rank,
    line_points,
)
from cardlab.scoring.traveller import MAX_BOARD, MAX_PAIR_ID, PHANTOM_IDS, AdjustedScore, TravellerLine
from cardlab.errors import CardlabError
from cardlab.textfile import paused_gc

__all__ = ["TravellerColumns", "read_csv_columns", "score_columns", "LazyBoards", "LazyLines"]

_ID_RE = re.compile(r"[A-Za-z0-9]+")
_CYCLE = [Vulnerability.from_board(b) for b in range(1, 17)]


@dataclass(frozen=True)
class TravellerColumns:
    """Traveller lines as columns: per line the board, pair ids, the index of its distinct
    result (``kind``) and the NS score; per distinct result a checked template line."""

    board: NDArray[np.int64]
    ns: list[str]
    ew: list[str]
    kind: NDArray[np.int32]
    templates: tuple[TravellerLine, ...]
    first_line: int
    lead: list[str | None] | None = None

    @property
    def size(self) -> int:
        """The number of lines."""
        return int(self.board.size)

    @property
    def score(self) -> NDArray[np.int64]:
        """Each line's NS score (0 for an adjusted line)."""
        table = np.array([t.score if isinstance(t.score, int) else 0 for t in self.templates],
                         dtype=np.int64)
        return table[self.kind]

    def line(self, i: int) -> TravellerLine:
        """The ``i``-th line as a :class:`TravellerLine` (built on demand)."""
        t = self.templates[int(self.kind[i])]
        board = int(self.board[i])
        return TravellerLine(board, self.ns[i], self.ew[i], t.contract, t.declarer, t.tricks,
                             t.score, self.lead[i] if self.lead is not None else None,
                             t.vulnerability, self.first_line + i)


def read_csv_columns(text: str, source: str | None = None) -> TravellerColumns | None:
    """Columns of a plain CSV traveller text, or None when the text needs the line-by-line
    reader (quotes, blank lines, any line that does not read)."""
    with paused_gc():  # millions of short-lived strings: collections would only cost time
        return _read_columns(text, source)


#: Characters of the text split at a time: about ten thousand lines, so the short strings
#: of one block are all that exists at once (a million lines split whole took 400 MB).
_BLOCK_CHARS = 1 << 18


def _blocks(body: str, start: int) -> Iterator[str]:
    """``body[start:]`` in blocks of whole lines (about :data:`_BLOCK_CHARS` characters each)."""
    while start <= len(body):
        end = body.find("\n", start + _BLOCK_CHARS)
        end = len(body) if end < 0 else end
        yield body[start:end]
        start = end + 1


def _read_columns(text: str, source: str | None) -> TravellerColumns | None:
    if '"' in text:
        return None
    body = text.replace("\r\n", "\n").lstrip("\ufeff").rstrip("\n")
    cut = body.find("\n")
    header = body[:cut] if cut >= 0 else body
    if cut < 0 or cut + 1 >= len(body) or body.find("\n\n", cut + 1) >= 0 or not header.strip():
        return None
    try:
        names = _header(header.split(","), source, 1)
    except CardlabError:
        return None
    width = len(names)
    index = {name: i for i, name in enumerate(names)}
    # The text is split block by block; what a line keeps is small: its board (an int), its
    # pair ids and vulnerability (one shared string per distinct value), its result key (an int).
    shared: dict[str, str] = {}
    distinct: dict[str, int] = {}
    vul_texts: dict[str, str] = {}
    ns: list[str] = []
    ew: list[str] = []
    lead_cells: list[str | None] = []
    vul_cells: list[str] = []
    boards: list[NDArray[np.int64]] = []
    raws: list[NDArray[np.int32]] = []
    for block in _blocks(body, cut + 1):
        fields = block.replace("\n", ",").split(",")
        lines = block.count("\n") + 1
        if len(fields) != width * lines:
            return None
        cols = {name: fields[i::width] for name, i in index.items()}
        del fields
        try:
            boards.append(np.fromiter(map(int, cols["board"]), dtype=np.int64, count=lines))
        except (ValueError, OverflowError):
            return None  # the line-by-line reader says which line
        ns.extend(map(shared.setdefault, cols["ns"], cols["ns"]))
        ew.extend(map(shared.setdefault, cols["ew"], cols["ew"]))
        if "lead" in cols:
            lead_cells.extend(x.strip() or None for x in cols["lead"])
        if "vul" in cols:
            vul_cells.extend(map(vul_texts.setdefault, cols["vul"], cols["vul"]))
        empty = [""] * lines
        # One text key per line for what decides its score (the vulnerability aside): distinct
        # keys are few (contracts x declarers x tricks), each is checked once.
        texts = map(",".join, zip(cols["contract"], cols["declarer"], cols.get("tricks", empty),
                                  cols.get("result", empty), cols.get("score", empty)))
        raws.append(np.fromiter((distinct.setdefault(key, len(distinct)) for key in texts), dtype=np.int32,
                                count=lines))
        del cols
    board = np.concatenate(boards)
    raw = np.concatenate(raws)
    del boards, raws
    count = int(board.size)
    lead = lead_cells if any(x is not None for x in lead_cells) else None
    if board.min() < 1 or board.max() > MAX_BOARD:
        return None
    for ids in (set(ns), set(ew)):
        if not all(_ID_RE.fullmatch(x) and len(x) <= MAX_PAIR_ID for x in ids) or any(x.upper() in PHANTOM_IDS
                                                            for x in ids):
            return None
    vuls = list(Vulnerability)
    if "vul" in index:
        try:
            by_text = {v: vuls.index(Vulnerability.parse(v)) for v in vul_texts if v}
        except CardlabError:
            return None
        if "" in vul_texts:
            return None
        vul = np.fromiter(map(by_text.__getitem__, vul_cells), dtype=np.int64, count=count)
        del vul_cells
    else:
        cycle = np.array([vuls.index(v) for v in _CYCLE], dtype=np.int64)
        vul = cycle[(board - 1) % 16]
    # the distinct (key, vulnerability) codes in increasing order, and each line's rank among
    # them (np.unique's inverse, without sorting a million codes: the codes are few and small)
    codes = raw * 4 + vul.astype(np.int32)
    del raw, vul
    present = np.zeros(4 * len(distinct), dtype=bool)
    present[codes] = True
    combined = np.flatnonzero(present)
    kind = (np.cumsum(present, dtype=np.int32) - 1)[codes]
    del codes
    keys = list(distinct)
    templates = []
    for code in combined.tolist():
        contract, declarer, tricks, result, score = keys[code // 4].split(",")
        try:
            templates.append(TravellerLine.make(
                1, "1", "1", contract=contract, declarer=declarer, tricks=tricks,
                result=result, score=score, vulnerability=vuls[code % 4]))
        except CardlabError:
            return None
    return TravellerColumns(board, ns, ew, kind, tuple(templates), 2, lead)


class LazyLines(Sequence[TravellerLine]):
    """The lines of columns in file order, each built when it is read."""

    def __init__(self, cols: TravellerColumns) -> None:
        self.columns = cols

    def __len__(self) -> int:
        return self.columns.size

    @overload
    def __getitem__(self, i: int) -> TravellerLine: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[TravellerLine]: ...

    def __getitem__(self, i: int | slice) -> TravellerLine | Sequence[TravellerLine]:
        if isinstance(i, slice):
            return tuple(self.columns.line(j) for j in range(len(self))[i])
        j = i + len(self) if i < 0 else i
        if not 0 <= j < len(self):
            raise IndexError(i)
        return self.columns.line(j)

    def __iter__(self) -> Iterator[TravellerLine]:
        return (self.columns.line(i) for i in range(len(self)))


class LazyBoards(Sequence[BoardResult]):
    """The boards of a columnar session, sorted by number; each built when it is read."""

    def __init__(self, cols: TravellerColumns, ns_pts: NDArray[np.float64],
                 ew_pts: NDArray[np.float64], top: int | None,
                 datums: Mapping[int, int]) -> None:
        self._cols, self._ns, self._ew, self._top, self._datums = cols, ns_pts, ew_pts, top, datums
        self._order = np.argsort(cols.board, kind="stable")
        sorted_boards = cols.board[self._order]
        self._numbers, self._starts = np.unique(sorted_boards, return_index=True)
        self._ends = np.r_[self._starts[1:], sorted_boards.size]

    @property
    def line_count(self) -> int:
        """The number of traveller lines."""
        return self._cols.size

    def __len__(self) -> int:
        return int(self._numbers.size)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or len(other) != len(self):
            return False
        return all(a == b for a, b in zip(self, other))

    def __hash__(self) -> int:  # consistent with __eq__: equal sequences have equal sizes
        return hash((len(self), self.line_count))

    def __repr__(self) -> str:
        return f"<LazyBoards {len(self)} boards, {self.line_count} lines>"

    def _board(self, i: int) -> BoardResult:
        rows = self._order[self._starts[i]:self._ends[i]].tolist()
        number = int(self._numbers[i])
        lines = tuple(ScoredLine(self._cols.line(r), float(self._ns[r]), float(self._ew[r]))
                      for r in rows)
        return BoardResult(number, self._top, self._datums.get(number), lines)

    @overload
    def __getitem__(self, i: int) -> BoardResult: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[BoardResult]: ...

    def __getitem__(self, i: int | slice) -> BoardResult | Sequence[BoardResult]:
        if isinstance(i, slice):
            return tuple(self._board(j) for j in range(len(self))[i])
        j = i + len(self) if i < 0 else i
        if not 0 <= j < len(self):
            raise IndexError(i)
        return self._board(j)

    def __iter__(self) -> Iterator[BoardResult]:
        return (self._board(i) for i in range(len(self)))

    def board_slices(self) -> tuple[NDArray[np.int64], NDArray[np.intp], NDArray[np.intp],
                                    NDArray[np.intp]]:
        """Board numbers, start and end of each board in ``order``, and ``order`` (the line
        indices sorted by board, input order within a board), for fast writers."""
        return self._numbers, self._starts, self._ends, self._order

    def datum(self, board: int) -> int | None:
        """The Butler datum of ``board`` (None for other methods)."""
        return self._datums.get(board)

    @property
    def columns(self) -> TravellerColumns:
        """The columns the boards are built from."""
        return self._cols

    @property
    def points(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """NS and EW points of every line, in line order."""
        return self._ns, self._ew


def _repeats(keys: NDArray[np.integer[Any]]) -> bool:
    """Whether a value occurs twice (a sort, not a hash: faster on big int arrays)."""
    ordered = np.sort(keys)
    return bool(np.any(ordered[1:] == ordered[:-1]))


def _meet(a: NDArray[np.integer[Any]], b: NDArray[np.integer[Any]]) -> bool:
    """Whether the two arrays share a value."""
    ordered = np.sort(a)
    at = np.minimum(np.searchsorted(ordered, b), ordered.size - 1)
    return bool(np.any(ordered[at] == b))


def score_columns(
    cols: TravellerColumns,
    *,
    method: Method | str = Method.MP,
    scale: Scale | str = Scale.ACBL,
    movement: Movement | str | None = None,
    allow_repeated_pairs: bool = False,
    names: Mapping[PairKey, tuple[str, ...]] | None = None,
    title: str = "",
) -> SessionResult | None:
    """Score columns as :func:`score_session` scores lines; None when a pair plays a board
    twice (the line-by-line path then names the line)."""
    how = Method.parse(method)
    units = Scale.parse(scale)
    vocab = {x: i for i, x in enumerate(dict.fromkeys([*dict.fromkeys(cols.ns),
                                                       *dict.fromkeys(cols.ew)]))}
    # a million lines: every per-line array is held no longer than needed (int32 pair codes, the
    # (board, pair) keys dropped once checked) so the whole run stays in a few hundred MB
    ns_code = np.fromiter(map(vocab.__getitem__, cols.ns), dtype=np.int32, count=cols.size)
    ew_code = np.fromiter(map(vocab.__getitem__, cols.ew), dtype=np.int32, count=cols.size)
    width = len(vocab)
    ns_key = cols.board * width + ns_code
    ew_key = cols.board * width + ew_code
    if movement is not None:
        move = Movement.parse(movement)
    elif _meet(ns_key, ew_key):
        move = Movement.MITCHELL
    else:
        move = Movement.HOWELL if _meet(ns_code, ew_code) else Movement.MITCHELL
    if not allow_repeated_pairs:
        if move is Movement.MITCHELL:
            twice = _repeats(ns_key) or _repeats(ew_key)
        else:
            twice = bool(np.any(ns_code == ew_code)) or _repeats(np.concatenate([ns_key, ew_key]))
        if twice:
            return None
    del ns_key, ew_key
    adj_ns_t = np.array([t.score.ns if isinstance(t.score, AdjustedScore) else -1
                         for t in cols.templates], dtype=np.float64)
    adj_ew_t = np.array([t.score.ew if isinstance(t.score, AdjustedScore) else -1
                         for t in cols.templates], dtype=np.float64)
    if (adj_ns_t >= 0).any():
        adj_ns, adj_ew = adj_ns_t[cols.kind], adj_ew_t[cols.kind]
    else:  # no adjusted score: no per-line copies of "none"
        adj_ns = adj_ew = np.broadcast_to(np.float64(-1), (cols.size,))
    adjusted = adj_ns >= 0
    real = ~adjusted
    boards, scores = cols.board, cols.score
    most = int(np.bincount(boards).max())
    ns_pts, ew_pts, top, datums = line_points(how, units, boards, scores, real, adjusted, adj_ns, adj_ew,
                                              most)
    labels = list(vocab)
    totals: dict[PairKey, float] = {}
    played: dict[PairKey, int] = {}
    if move is Movement.MITCHELL:
        sides = (("NS", ns_code, ns_pts), ("EW", ew_code, ew_pts))
        for side, code, pts in sides:
            t = np.bincount(code, weights=pts, minlength=width)
            c = np.bincount(code, minlength=width)
            for i in np.flatnonzero(c).tolist():
                totals[(side, labels[i])] = float(t[i])
                played[(side, labels[i])] = int(c[i])
    else:
        code = np.concatenate([ns_code, ew_code])
        pts = np.concatenate([ns_pts, ew_pts])
        t = np.bincount(code, weights=pts, minlength=width)
        c = np.bincount(code, minlength=width)
        for i in np.flatnonzero(c).tolist():
            totals[(None, labels[i])] = float(t[i])
            played[(None, labels[i])] = int(c[i])
    lazy = LazyBoards(cols, ns_pts, ew_pts, top, datums)
    return SessionResult(how, units, move, top, lazy,
                         _rank(totals, played, top, names or {}), title)
