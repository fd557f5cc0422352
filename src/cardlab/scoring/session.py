"""A session: traveller lines -> per-line scores -> pair totals -> percentages -> places.

Rules (see docs/scoring.md):

* Mitchell: NS and EW are separate fields (NS pair 1 is not EW pair 1), each
  ranked on its own; Howell: one field.  Detected from the lines unless given.
* N is the number of results on the most-played board; the top is N − 1 (ACBL)
  or 2·(N − 1) (EBU).  Boards with fewer real results are Neuberg-factored to N.
* An artificial adjusted score ``A6040`` gives NS 60% and EW 40% of the top
  (with IMPs: (p − 50)·0.3 IMPs, so 60% is +3) and is left out of the
  comparison of the real scores.
* Percentage = matchpoints / (boards played × top); place by percentage within
  the field, equal percentages share a place (``2=``).
* Cross-IMPs and Butler rank by total IMPs.

>>> from cardlab.scoring.traveller import TravellerLine as T
>>> lines = [T.make(1, "1", "1", score=620), T.make(1, "2", "2", score=170),
...     T.make(2, "1", "2", score=-100), T.make(2, "2", "1", score=-50)]
>>> result = score_session(lines)
>>> [(p.direction, p.pair, p.percentage, p.place) for p in result.pairs]
[('NS', '1', 50.0, '1='), ('NS', '2', 50.0, '1='), ('EW', '2', 100.0, '1'), ('EW', '1', 0.0, '2')]
>>> score_session(lines + [T.make(2, "1", "3", score=-50)])
Traceback (most recent call last):
...
cardlab.errors.ScoringError: pair NS 1 appears twice on board 2; if each line ...
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from cardlab.results import JsonText
from cardlab.scoring.matchpoints import (
    Scale,
    butler_datums,
    median_datums,
    cross_imps,
    imps,
    matchpoint_lines,
)
from cardlab.scoring.terms import Method, Movement, PairKey
from cardlab.scoring.traveller import PHANTOM_IDS, AdjustedScore, TravellerLine
from cardlab.choices import choose
from cardlab.errors import ResultFileError, ScoringError

__all__ = [
    "Movement",
    "Method",
    "ScoredLine",
    "BoardResult",
    "PairResult",
    "SessionResult",
    "detect_movement",
    "check_pairs",
    "score_session",
    "PairKey",
    "PhantomRule",
    "PHANTOM_IDS",
    "resolve_phantoms",
]

class PhantomRule(Enum):
    """What a real pair gets on a board against a phantom or sit-out (see docs/scoring.md).

    ``session``: its own session average (percentage on the boards it played; with IMPs its
    average IMPs per board), the ACBL and EBU practice for a sit-out: the board neither helps
    nor hurts.  ``average-plus``: 60% of the top (with IMPs +3), average plus as in Law 12C2(a)
    of the Laws of Duplicate Bridge 2017 for a side not at fault.
    """

    SESSION = "session"
    AVERAGE_PLUS = "average-plus"

    @classmethod
    def parse(cls, text: "str | PhantomRule") -> "PhantomRule":
        """The rule a word names; a ScoringError quoting any other."""
        return choose(cls, text, ScoringError, "phantom compensation")




@dataclass(frozen=True)
class ScoredLine:
    """A traveller line with the points each side earned (matchpoints or IMPs)."""

    line: TravellerLine
    ns_points: float
    ew_points: float


@dataclass(frozen=True)
class BoardResult:
    """One board of a session: its ``top`` (matchpoints; None with IMPs), its ``datum``
    (Butler and median IMPs; else None) and its lines with their points, in file order."""
    board: int
    top: int | None
    datum: int | None
    lines: tuple[ScoredLine, ...]


@dataclass(frozen=True)
class PairResult:
    """A pair's session: ``total`` is matchpoints (or IMPs); ``percentage`` None for IMPs."""

    pair: str
    direction: str | None
    boards: int
    total: float
    percentage: float | None
    place: str
    names: tuple[str, ...] = ()

    @property
    def key(self) -> PairKey:
        """The pair in its field: (direction, number), direction None in a Howell."""
        return (self.direction, self.pair)


@dataclass(frozen=True)
class SessionResult(JsonText):
    """A scored session: every board, every pair ranked in its field, and how it was scored.

    ``method``, ``scale`` (matchpoint units) and ``movement`` say how; ``top`` is the top of a
    board in matchpoints (None with IMPs); ``boards`` (:class:`BoardResult`, a lazy sequence
    for a big CSV file) and ``pairs`` (:class:`PairResult`, best first in each field) say
    what; ``phantoms`` are the pairs never ranked and ``phantom_rule`` how their opponents
    were scored.  Results are data: :meth:`to_dict`, :meth:`to_json`, :meth:`to_csv`, :meth:`to_pandas`,
    :meth:`table` and a notebook view.

    >>> from cardlab.scoring.traveller import TravellerLine as T
    >>> score_session([T.make(1, "1", "1", score=420), T.make(1, "2", "2", score=400)])
    <SessionResult mp, mitchell, 1 boards, 2 lines, 4 pairs; first: NS 1 100.00%, EW 2 100.00%>
    """
    method: Method
    scale: Scale
    movement: Movement
    top: int | None
    boards: Sequence[BoardResult]
    pairs: tuple[PairResult, ...]
    title: str = ""
    phantoms: tuple[PairKey, ...] = ()
    phantom_rule: str = ""

    @property
    def line_count(self) -> int:
        """The number of traveller lines scored."""
        count = getattr(self.boards, "line_count", None)
        return int(count) if count is not None else sum(len(b.lines) for b in self.boards)

    def __repr__(self) -> str:
        lines = self.line_count
        best = ", ".join(
            f"{_name(p.key)} {p.percentage:.2f}%" if p.percentage is not None
            else f"{_name(p.key)} {p.total:+.2f} IMPs"
            for p in self.pairs if p.place in ("1", "1=")
        )
        title = f"{self.title!r}, " if self.title else ""
        return (f"<SessionResult {title}{self.method.value}, {self.movement.value}, "
                f"{len(self.boards)} boards, {lines} lines, {len(self.pairs)} pairs; "
                f"first: {best}>")

    def to_dict(self) -> dict[str, Any]:
        """Everything as a JSON-ready dict (see :mod:`cardlab.scoring.output`)."""
        from cardlab.scoring.output import session_json

        return session_json(self)

    def to_csv(self) -> str:
        """One CSV row per pair (the ranking of each field)."""
        from cardlab.scoring.output import session_csv

        return session_csv(self)

    def to_pandas(self) -> Any:
        """The ranking as a pandas DataFrame (needs pandas)."""
        from cardlab.scoring.output import session_frame

        return session_frame(self)

    def table(self, width: int = 100) -> str:
        """The ranking tables the command line prints, as text."""
        from cardlab.report.scoring_output import session_table_text  # rendering: lazily

        return session_table_text(self, width)

    def _repr_html_(self) -> str:
        from cardlab.scoring.output import session_html_table

        return session_html_table(self)

    @property
    def fields(self) -> list[tuple[str | None, list[PairResult]]]:
        """Pairs grouped by field, best first: [("NS", [...]), ("EW", [...])] or [(None, [...])]."""
        groups: dict[str | None, list[PairResult]] = defaultdict(list)
        for pair in self.pairs:
            groups[pair.direction].append(pair)
        return list(groups.items())

    def in_scale(self, scale: Scale | str) -> "SessionResult":
        """The same session with matchpoints in other units (EBU figures are exactly twice
        the ACBL ones, Neuberg-factored and adjusted scores included); percentages and places
        do not change.  IMP sessions are returned as they are.

        >>> from cardlab.scoring.traveller import TravellerLine as T
        >>> acbl = score_session([T.make(1, "1", "1", score=420), T.make(1, "2", "2", score=400)])
        >>> ebu = acbl.in_scale("ebu")
        >>> (acbl.top, ebu.top), [p.total for p in ebu.pairs], ebu.pairs[0].percentage
        ((1, 2), [2.0, 0.0, 2.0, 0.0], 100.0)
        """
        units = Scale.parse(scale)
        if units is self.scale or self.method.is_imps:
            return self
        factor = units.per_win / self.scale.per_win
        boards = [BoardResult(b.board, None if b.top is None else int(b.top * factor), b.datum,
                              tuple(ScoredLine(s.line, s.ns_points * factor, s.ew_points * factor)
                                    for s in b.lines))
                  for b in self.boards]
        pairs = tuple(replace(p, total=p.total * factor) for p in self.pairs)
        return replace(self, scale=units, top=None if self.top is None else int(self.top * factor),
                       boards=boards, pairs=pairs)

    def most_boards(self, direction: str | None) -> int:
        """The most boards any pair of the field played."""
        return max((p.boards for p in self.pairs if p.direction == direction), default=0)


def detect_movement(lines: Sequence[TravellerLine]) -> Movement:
    """Mitchell when a pair number sits NS on a board that the same number plays EW (pair 1
    NS meets pair 1 EW, or both play the board), or when NS and EW numbers never overlap;
    otherwise Howell (pairs change direction and never meet their own number).

    >>> from cardlab.scoring.traveller import TravellerLine as T
    >>> detect_movement([T.make(1, "1", "1", score=0)]).value
    'mitchell'
    >>> detect_movement([T.make(1, "1", "2", score=0), T.make(2, "2", "1", score=0)]).value
    'howell'
    """
    ns_on: dict[int, set[str]] = defaultdict(set)
    ew_on: dict[int, set[str]] = defaultdict(set)
    for line in lines:
        ns_on[line.board].add(line.ns)
        ew_on[line.board].add(line.ew)
    if any(ns_on[b] & ew_on[b] for b in ns_on):
        return Movement.MITCHELL
    all_ns = set().union(*ns_on.values()) if ns_on else set()
    all_ew = set().union(*ew_on.values()) if ew_on else set()
    return Movement.HOWELL if all_ns & all_ew else Movement.MITCHELL


def _keys(line: TravellerLine, movement: Movement) -> tuple[PairKey, PairKey]:
    if movement is Movement.MITCHELL:
        return ("NS", line.ns), ("EW", line.ew)
    return (None, line.ns), (None, line.ew)


def _name(key: PairKey) -> str:
    return f"{key[0]} {key[1]}" if key[0] else key[1]


def check_pairs(lines: Sequence[TravellerLine], movement: Movement) -> None:
    """Raise if a pair plays one board twice (or, in a Howell, against itself)."""
    seen: dict[tuple[int, PairKey], TravellerLine] = {}
    for line in lines:
        ns_key, ew_key = _keys(line, movement)
        if ns_key == ew_key:
            raise _error(line, f"pair {line.ns} plays against itself on board {line.board}")
        for key in (ns_key, ew_key):
            first = seen.get((line.board, key))
            if first is not None:
                also = f" (first on line {first.source_line})" if first.source_line else ""
                raise _error(line, f"pair {_name(key)} appears twice on board {line.board}{also}; "
                                   "if each line really is a separate result, score with "
                                   "--allow-repeated-pairs")
            seen[(line.board, key)] = line


def _error(line: TravellerLine, reason: str) -> ScoringError:
    if line.source_line is not None:
        return ResultFileError(reason, line=line.source_line)
    return ScoringError(reason)


def _natural(text: str) -> tuple[int, int, str]:
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def _places(values: list[float]) -> list[str]:
    """Places for values sorted best first; equal values share the first place of the span."""
    places: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        label = f"{i + 1}=" if j > i else str(i + 1)
        places.extend([label] * (j - i + 1))
        i = j + 1
    return places


def line_points(how: Method, units: Scale, boards: np.ndarray, scores: np.ndarray, real: np.ndarray,
                adjusted: np.ndarray, adj_ns: np.ndarray, adj_ew: np.ndarray,
                most: int) -> tuple[np.ndarray, np.ndarray, int | None, dict[int, int]]:
    """NS and EW points of every line (matchpoints factored to ``most`` results, cross-IMPs or
    Butler IMPs; artificial scores as their percentage of the top, or ±0.3 IMP a point off 50%),
    the session top (matchpoints only) and the Butler datum of each board."""
    ns_pts = np.zeros(len(boards))
    ew_pts = np.zeros(len(boards))
    datum_of: dict[int, int] = {}
    top: int | None = None
    if real.all():  # every line real (the usual file): views, not copies of a million lines
        real = slice(None)  # type: ignore[assignment]
    if how is Method.MP:
        top = units.per_win * (most - 1)
        if top == 0:
            raise ScoringError("every board was played only once: there is nothing to compare")
        ns_pts[real] = matchpoint_lines(boards[real], scores[real], scale=units, factor_to=most)
        ew_pts[real] = top - ns_pts[real]
        ns_pts[adjusted] = adj_ns[adjusted] * top / 100.0
        ew_pts[adjusted] = adj_ew[adjusted] * top / 100.0
        return ns_pts, ew_pts, top, datum_of
    if how is Method.CROSS_IMPS:
        ns_pts[real] = cross_imps(boards[real], scores[real])
    else:
        rule = median_datums if how is Method.MEDIAN_IMPS else butler_datums
        datums = rule(boards[real], scores[real])
        ns_pts[real] = imps(scores[real] - datums)
        datum_of = dict(zip(boards[real].tolist(), datums.tolist()))
    ew_pts[real] = -ns_pts[real]
    ns_pts[adjusted] = (adj_ns[adjusted] - 50.0) * 0.3
    ew_pts[adjusted] = (adj_ew[adjusted] - 50.0) * 0.3
    return ns_pts, ew_pts, top, datum_of


def score_session(
    lines: Iterable[TravellerLine],
    *,
    method: Method | str = Method.MP,
    scale: Scale | str = Scale.ACBL,
    movement: Movement | str | None = None,
    allow_repeated_pairs: bool = False,
    names: Mapping[PairKey, tuple[str, ...]] | None = None,
    title: str = "",
    phantoms: Iterable[str | PairKey] = (),
    phantom_rule: PhantomRule | str = PhantomRule.SESSION,
) -> SessionResult:
    """Score a session from its raw traveller lines (any matchpoints in the input are ignored).

    ``allow_repeated_pairs`` accepts a pair on one board more than once (each line then counts
    as a board played); without it that is an error naming the board and pair.

    ``phantoms`` names pairs that are not real (a phantom, a sit-out line): pair ids, or
    ``"4EW"`` / ``("EW", "4")`` in a Mitchell; ids such as ``0`` or ``PHANTOM`` (see
    :data:`PHANTOM_IDS`) are recognised without being named.  Their lines take no part in the
    comparison of real results (nor in N, the Neuberg target), they are never ranked, and the
    real pair's score on such a line follows ``phantom_rule``.
    """
    all_lines = list(lines)
    if not all_lines:
        raise ScoringError("no traveller lines to score")
    how = Method.parse(method)
    units = Scale.parse(scale)
    move = Movement.parse(movement) if movement is not None else detect_movement(all_lines)
    rule = PhantomRule.parse(phantom_rule)
    ghost = resolve_phantoms(all_lines, move, phantoms)
    if not allow_repeated_pairs:
        check_pairs(all_lines, move)

    boards = np.array([line.board for line in all_lines], dtype=np.int64)
    keys = [_keys(line, move) for line in all_lines]
    on_phantom = np.array([k[0] in ghost or k[1] in ghost for k in keys], dtype=bool)
    adjusted = np.array([line.is_adjusted for line in all_lines], dtype=bool) & ~on_phantom
    real = ~adjusted & ~on_phantom
    counted = ~on_phantom
    scores = np.array([0 if line.is_adjusted else line.score for line in all_lines],
                      dtype=np.int64)
    adj_ns = np.array([line.score.ns if isinstance(line.score, AdjustedScore) else 0
                       for line in all_lines], dtype=np.float64)
    adj_ew = np.array([line.score.ew if isinstance(line.score, AdjustedScore) else 0
                       for line in all_lines], dtype=np.float64)
    if not counted.any():
        raise ScoringError("every line is against a phantom or sit-out: nothing to score")
    most = int(np.bincount(boards[counted]).max())
    ns_pts, ew_pts, session_top, datum_of = line_points(how, units, boards, scores, real, adjusted,
                                                        adj_ns, adj_ew, most)

    totals: dict[PairKey, float] = defaultdict(float)
    played: dict[PairKey, int] = defaultdict(int)
    for (ns_key, ew_key), ns_p, ew_p, real_pair in zip(keys, ns_pts.tolist(), ew_pts.tolist(),
                                                         counted.tolist()):
        if real_pair:
            totals[ns_key] += ns_p
            totals[ew_key] += ew_p
            played[ns_key] += 1
            played[ew_key] += 1
    if on_phantom.any():
        _score_phantom_lines(keys, on_phantom, ghost, rule, how, session_top, totals, played,
                             ns_pts, ew_pts)
    per_board: dict[int, list[ScoredLine]] = defaultdict(list)
    for line, ns_p, ew_p in zip(all_lines, ns_pts.tolist(), ew_pts.tolist()):
        per_board[line.board].append(ScoredLine(line, ns_p, ew_p))

    board_results = tuple(
        BoardResult(b, session_top, datum_of.get(b), tuple(per_board[b]))
        for b in sorted(per_board)
    )
    return SessionResult(
        how, units, move, session_top, board_results,
        _rank(totals, played, session_top, names or {}), title,
        tuple(sorted(ghost, key=lambda k: (k[0] or "", _natural(k[1])))),
        rule.value if ghost else "",
    )


def _score_phantom_lines(
    keys: list[tuple[PairKey, PairKey]],
    on_phantom: np.ndarray,
    ghost: set[PairKey],
    rule: PhantomRule,
    how: Method,
    session_top: int | None,
    totals: dict[PairKey, float],
    played: dict[PairKey, int],
    ns_pts: np.ndarray,
    ew_pts: np.ndarray,
) -> None:
    """Give the real pair of each phantom line its compensation (in place); the phantom side
    gets the rest of the top (MP) or the negative (IMPs) and is never ranked."""
    average: dict[PairKey, float] = {}
    for key, total in totals.items():  # averages over real boards only, before any phantom line
        if session_top is not None:
            average[key] = total / played[key] if played[key] else session_top / 2
        else:
            average[key] = total / played[key] if played[key] else 0.0
    for i in np.flatnonzero(on_phantom).tolist():
        ns_key, ew_key = keys[i]
        for real_key, mine, other in ((ns_key, ns_pts, ew_pts), (ew_key, ew_pts, ns_pts)):
            if real_key in ghost:
                continue
            if rule is PhantomRule.AVERAGE_PLUS:
                points = 0.6 * session_top if session_top is not None else 3.0
            elif session_top is not None:
                points = average.get(real_key, session_top / 2)
            else:
                points = average.get(real_key, 0.0)
            mine[i] = points
            other[i] = (session_top - points) if session_top is not None else -points
            totals[real_key] += points
            played[real_key] += 1
        if ns_key in ghost and ew_key in ghost:
            ns_pts[i] = ew_pts[i] = 0.0


def resolve_phantoms(
    lines: Sequence[TravellerLine], movement: Movement, named: Iterable[str | PairKey] = ()
) -> set[PairKey]:
    """The pair keys that are phantoms or sit-outs: those ``named`` and the ids of
    :data:`PHANTOM_IDS` found on the lines.

    >>> from cardlab.scoring.traveller import TravellerLine as T
    >>> lines = [T.make(1, "1", "2", score=100), T.make(1, "2", "phantom", score=0)]
    >>> sorted(resolve_phantoms(lines, Movement.MITCHELL, ["1NS"]))
    [('EW', 'phantom'), ('NS', '1')]
    >>> resolve_phantoms(lines, Movement.MITCHELL, ["2"])
    Traceback (most recent call last):
    ...
    cardlab.errors.ScoringError: phantom pair '2' is ambiguous in a Mitchell: say 2NS or 2EW
    """
    present: set[PairKey] = set()
    for line in lines:
        present.update(_keys(line, movement))
    found = {key for key in present if key[1].upper() in PHANTOM_IDS}
    for item in named:
        if isinstance(item, tuple):
            direction, number = item
            candidates = {(direction if movement is Movement.MITCHELL else None, number)}
        else:
            text = str(item).strip()
            upper = text.upper()
            direction = None
            for side in ("NS", "EW"):
                if upper.endswith(side) and len(text) > 2:
                    direction, text = side, text[:-2]
                elif upper.startswith(side) and len(text) > 2:
                    direction, text = side, text[2:]
            if movement is Movement.HOWELL:
                candidates = {(None, text)}
            elif direction is not None:
                candidates = {(direction, text)}
            else:
                candidates = {key for key in present if key[1] == text}
                if len(candidates) > 1:
                    raise ScoringError(f"phantom pair {item!r} is ambiguous in a Mitchell: "
                                       f"say {text}NS or {text}EW")
        hits = candidates & present
        if not hits:
            raise ScoringError(f"phantom pair {item!r} plays no board")
        found |= hits
    return found


def _rank(
    totals: Mapping[PairKey, float],
    played: Mapping[PairKey, int],
    session_top: int | None,
    names: Mapping[PairKey, tuple[str, ...]],
) -> tuple[PairResult, ...]:
    field_order = {"NS": 0, "EW": 1, None: 2}
    by_field: dict[str | None, list[PairKey]] = defaultdict(list)
    for key in totals:
        by_field[key[0]].append(key)
    ranked: list[PairResult] = []
    for direction in sorted(by_field, key=lambda d: field_order[d]):
        rows = []
        for key in by_field[direction]:
            total = totals[key]
            pct = None
            if session_top is not None:
                pct = total * 100.0 / (played[key] * session_top)
            measure = pct if pct is not None else total
            rows.append((round(measure, 9), key, total, pct))
        rows.sort(key=lambda r: (-r[0], _natural(r[1][1])))
        for (measure, key, total, pct), place in zip(rows, _places([r[0] for r in rows])):
            ranked.append(PairResult(key[1], direction, played[key], total, pct, place,
                                     tuple(names.get(key, ()))))
    return tuple(ranked)
