"""Matchpoints with ties, Neuberg factoring, the IMP scale, cross-IMPs and Butler.

Everything here is array in, array out: a traveller is a pair of arrays
``boards`` (any integer board key) and ``scores`` (NS scores), one entry per
line, in any order.  Lines are grouped by board with one sort, so a million
lines are matchpointed without a Python loop per line.

Units: ``acbl`` gives 1 point per pair beaten and ½ per tie (top = n − 1);
``ebu`` gives 2 and 1 (top = 2·(n − 1)).

>>> board_matchpoints([650, 300, 300, 300, 200, 200, -200]).tolist()
[6.0, 4.0, 4.0, 4.0, 1.5, 1.5, 0.0]
>>> board_matchpoints([650, 300, 300, 300, 200, 200, -200], scale="ebu").tolist()
[12.0, 8.0, 8.0, 8.0, 3.0, 3.0, 0.0]
>>> imps([0, 10, 20, -50, 430, 4000]).tolist()
[0, 0, 1, -2, 10, 24]
>>> board_matchpoints([100], scale="wbf")
Traceback (most recent call last):
...
cardlab.errors.ScoringError: unknown matchpoint scale 'wbf' (expected acbl or ebu)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from cardlab.results import JsonText
from cardlab.choices import choose
from cardlab.errors import ScoringError

__all__ = [
    "Scale",
    "top",
    "board_matchpoints",
    "percentages",
    "matchpoint_lines",
    "IMP_BOUNDS",
    "imps",
    "cross_imps",
    "butler_datums",
    "median_datums",
    "round_to_ten",
    "BoardMatchpoints",
    "matchpoint_board",
]


class Scale(Enum):
    """Matchpoint units: ACBL (1 per pair beaten) or EBU/WBF (2 per pair beaten)."""

    ACBL = "acbl"
    EBU = "ebu"

    @classmethod
    def parse(cls, text: "str | Scale") -> "Scale":
        """The units a word names (``acbl``, ``ebu``); a ScoringError quoting any other."""
        return choose(cls, text, ScoringError, "matchpoint scale")

    @property
    def per_win(self) -> int:
        """Points for beating one other result."""
        return 1 if self is Scale.ACBL else 2


def top(results: int, scale: "Scale | str" = Scale.ACBL) -> int:
    """The top on a board with ``results`` results: n − 1 (ACBL) or 2·(n − 1) (EBU).

    >>> top(7), top(7, "ebu")
    (6, 12)
    """
    return Scale.parse(scale).per_win * (results - 1)


def _group(boards: NDArray[np.int64], scores: NDArray[np.int64]) -> tuple[
    NDArray[np.intp], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]
]:
    """Sort by (board, score); per line (in input order): count of lower scores on the board,
    count of equal scores (itself included), and number of results on the board.

    Also returns the sort order."""
    size = boards.shape[0]
    order = _sort_order(boards, scores)
    b = boards[order]
    s = scores[order]
    new_group = np.ones(size, dtype=bool)
    new_group[1:] = b[1:] != b[:-1]
    new_run = new_group.copy()
    new_run[1:] |= s[1:] != s[:-1]
    group_id = np.cumsum(new_group) - 1
    run_id = np.cumsum(new_run) - 1
    group_start = np.flatnonzero(new_group)
    run_start = np.flatnonzero(new_run)
    group_size = np.diff(np.append(group_start, size))
    run_size = np.diff(np.append(run_start, size))
    below = np.empty(size, dtype=np.int64)
    equal = np.empty(size, dtype=np.int64)
    count = np.empty(size, dtype=np.int64)
    below[order] = run_start[run_id] - group_start[group_id]
    equal[order] = run_size[run_id]
    count[order] = group_size[group_id]
    return order, below, equal, count


def _sort_order(boards: NDArray[np.int64], scores: NDArray[np.int64]) -> NDArray[np.intp]:
    """Order by (board, score): one radix-friendly key when it fits in 62 bits, else lexsort."""
    b0, s0 = int(boards.min()), int(scores.min())
    b_span = int(boards.max()) - b0 + 1
    s_span = int(scores.max()) - s0 + 1
    if b_span * s_span < 2**62:
        key = (boards - b0) * s_span + (scores - s0)
        return np.argsort(key, kind="stable")
    return np.lexsort((scores, boards))


def _as_int_array(values: ArrayLike, what: str) -> NDArray[np.int64]:
    array = np.asarray(values)
    if array.ndim != 1:
        raise ScoringError(f"{what} must be a one-dimensional sequence")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        if not np.all(np.isfinite(array)) or np.any(array != np.round(array)):
            raise ScoringError(f"{what} must be whole numbers")
    return array.astype(np.int64)


def matchpoint_lines(
    boards: ArrayLike,
    scores: ArrayLike,
    *,
    scale: "Scale | str" = Scale.ACBL,
    factor_to: int | None = None,
) -> NDArray[np.float64]:
    """NS matchpoints of every line, each compared with the lines of the same board.

    ``factor_to`` (N) Neuberg-factors every board with fewer results n up to N:
    M' = (M + 1)·N/n − 1 in EBU units, (M + ½)·N/n − ½ in ACBL units; by default
    N is the number of results on the most-played board.  EW matchpoints are
    ``top(N) − NS``.

    >>> matchpoint_lines([1, 1, 1, 2, 2, 2, 2], [-420, -650, -790, 10, 20, 30, 40],
    ...                  scale="ebu").round(2).tolist()
    [5.67, 3.0, 0.33, 0.0, 2.0, 4.0, 6.0]
    >>> matchpoint_lines([1, 1], [100, 200], factor_to=1)
    Traceback (most recent call last):
    ...
    cardlab.errors.ScoringError: cannot factor a board with 2 results down to 1
    """
    unit = Scale.parse(scale)
    b = _as_int_array(boards, "boards")
    s = _as_int_array(scores, "scores")
    if b.shape != s.shape:
        raise ScoringError(f"{b.size} boards but {s.size} scores")
    if b.size == 0:
        return np.zeros(0)
    _, below, equal, count = _group(b, s)
    most = int(count.max())
    target = most if factor_to is None else int(factor_to)
    if target < most:
        raise ScoringError(f"cannot factor a board with {most} results down to {target}")
    ebu = 2.0 * below + equal - 1.0  # EBU units: 2 per pair beaten, 1 per tie
    factored = np.where(count == target, ebu, (ebu + 1.0) * target / count - 1.0)
    return factored if unit is Scale.EBU else factored / 2.0


def board_matchpoints(scores: Sequence[int] | ArrayLike, scale: "Scale | str" = Scale.ACBL) -> NDArray[np.float64]:
    """Matchpoints of the NS scores of one board (no factoring)."""
    s = _as_int_array(scores, "scores")
    return matchpoint_lines(np.zeros(s.size, dtype=np.int64), s, scale=scale)


def percentages(points: ArrayLike, top_points: float) -> NDArray[np.float64]:
    """Points × 100 / top.

    >>> percentages([9, 8, 4.5, 0.5], 9).round(1).tolist()
    [100.0, 88.9, 50.0, 5.6]
    >>> percentages([1], 0)
    Traceback (most recent call last):
    ...
    cardlab.errors.ScoringError: the top is 0 (a board played once): no percentage
    """
    if top_points <= 0:
        raise ScoringError("the top is 0 (a board played once): no percentage")
    return np.asarray(points, dtype=np.float64) * 100.0 / top_points


#: Lower bounds of 1..24 IMPs on the standard scale (a difference of 0-10 is 0 IMPs).
IMP_BOUNDS = np.array(
    [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900,
     1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000]
)


def imps(differences: ArrayLike) -> NDArray[np.int64]:
    """IMPs for score differences on the standard 0-24 scale, sign kept."""
    d = np.asarray(differences, dtype=np.float64)
    return (np.sign(d) * np.searchsorted(IMP_BOUNDS, np.abs(d), side="right")).astype(np.int64)


def cross_imps(boards: ArrayLike, scores: ArrayLike) -> NDArray[np.float64]:
    """NS cross-IMPs of every line: IMPs against each other score of its board, averaged
    over the n − 1 comparisons (0 for a board played once).  EW gets the negative.

    >>> cross_imps([1, 1, 1], [620, 170, -100]).tolist()
    [11.0, -1.5, -9.5]
    """
    b = _as_int_array(boards, "boards")
    s = _as_int_array(scores, "scores")
    out = np.zeros(s.size)
    if s.size == 0:
        return out
    order = np.argsort(b, kind="stable")
    starts = np.flatnonzero(np.r_[True, b[order][1:] != b[order][:-1]])
    ends = np.r_[starts[1:], s.size]
    for start, end in zip(starts, ends):  # one loop per board, n x n inside
        idx = order[start:end]
        if idx.size < 2:
            continue
        board = s[idx]
        out[idx] = imps(board[:, None] - board[None, :]).sum(axis=1) / (idx.size - 1)
    return out


def round_to_ten(values: ArrayLike) -> NDArray[np.int64]:
    """Round to the nearest 10, halves away from zero.

    >>> round_to_ten([124, 125, -125, 0.4]).tolist()
    [120, 130, -130, 0]
    """
    v = np.asarray(values, dtype=np.float64)
    return (np.sign(v) * np.floor(np.abs(v) / 10.0 + 0.5) * 10).astype(np.int64)


def butler_datums(boards: ArrayLike, scores: ArrayLike) -> NDArray[np.int64]:
    """The Butler datum of each line's board: the mean NS score after dropping the single
    highest and lowest (all scores when a board has fewer than three), rounded to 10.

    >>> butler_datums([1, 1, 1, 1], [620, 170, 140, -100]).tolist()
    [160, 160, 160, 160]
    """
    groups = _board_groups(boards, scores)
    if groups is None:
        return np.zeros(0, dtype=np.int64)
    order, ss, starts, sizes = groups
    ends = starts + sizes
    sums = np.add.reduceat(ss, starts)
    trimmed = np.where(sizes >= 3, sums - ss[starts] - ss[ends - 1], sums)
    means = trimmed / np.where(sizes >= 3, sizes - 2, sizes)
    return _per_line(order, round_to_ten(means), sizes)


def median_datums(boards: ArrayLike, scores: ArrayLike) -> NDArray[np.int64]:
    """The median datum of each line's board: the middle NS score (with an even number of
    scores the mean of the two middle ones, rounded to 10, halves away from zero).  This is
    the datum JFR Pary, the Polish scoring program, prints for IMP pairs ("średnia
    rozdania"): it equals the median on every board of the session in tests/data/SOURCES.md.

    >>> median_datums([1, 1, 1, 2, 2, 2, 2], [620, 170, -100, 450, 420, 400, -50]).tolist()
    [170, 170, 170, 410, 410, 410, 410]
    """
    groups = _board_groups(boards, scores)
    if groups is None:
        return np.zeros(0, dtype=np.int64)
    order, ss, starts, sizes = groups
    low = ss[starts + (sizes - 1) // 2]
    high = ss[starts + sizes // 2]
    return _per_line(order, round_to_ten((low + high) / 2.0), sizes)


def _board_groups(boards: ArrayLike, scores: ArrayLike
                  ) -> tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.intp], NDArray[np.intp]] | None:
    """Lines sorted by board then score: (the order, the sorted scores as floats, each board's
    first position, each board's line count); None when there are no lines."""
    b = _as_int_array(boards, "boards")
    s = _as_int_array(scores, "scores")
    if s.size == 0:
        return None
    order = _sort_order(b, s)
    sb = b[order]
    starts = np.flatnonzero(np.r_[True, sb[1:] != sb[:-1]])
    return order, s[order].astype(np.float64), starts, np.diff(np.r_[starts, s.size])


def _per_line(order: NDArray[np.intp], per_board: NDArray[np.int64], sizes: NDArray[np.intp]) -> NDArray[np.int64]:
    """Each board's value given back to its lines, in the lines' own order."""
    out = np.empty(len(order), dtype=np.int64)
    out[order] = np.repeat(per_board, sizes)
    return out


@dataclass(frozen=True)
class BoardMatchpoints(JsonText):
    """The matchpoints and percentage of each NS score of one board (``bridge matchpoints``).

    >>> bm = matchpoint_board([420, 400, 400])
    >>> bm
    <BoardMatchpoints 3 results, top 2 (ACBL units)>
    >>> bm.to_dict()["results"][1]
    {'score': 400, 'points': 0.5, 'percentage': 25.0}
    >>> print(bm.to_csv(), end="")
    score,points,percentage
    420,2,100.00
    400,0.5,25.00
    400,0.5,25.00
    """

    scores: tuple[int, ...]
    points: tuple[float, ...]
    percentages: tuple[float, ...]
    top: int
    scale: Scale

    @property
    def caption(self) -> str:
        """``3 results, top 2 (ACBL units)``."""
        return f"{len(self.scores)} results, top {self.top} ({self.scale.value.upper()} units)"

    def __repr__(self) -> str:
        return f"<BoardMatchpoints {self.caption}>"

    def to_dict(self) -> dict[str, Any]:
        """Units, top and every result's points and percentage, as a JSON-ready dict."""
        return {"scale": self.scale.value, "top": self.top, "results": [
            {"score": s, "points": p, "percentage": round(q, 2)}
            for s, p, q in zip(self.scores, self.points, self.percentages)]}

    def to_csv(self) -> str:
        """One CSV row per result: score, points, percentage."""
        rows = ["score,points,percentage"]
        rows += [f"{s},{p:g},{q:.2f}" for s, p, q in zip(self.scores, self.points,
                                                         self.percentages)]
        return "\n".join(rows) + "\n"

    def to_pandas(self) -> Any:
        """The results as a pandas DataFrame (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame({"score": self.scores, "points": self.points,
                             "percentage": self.percentages})

    def table(self) -> str:
        """The text ``bridge matchpoints`` prints."""
        from cardlab.report.scoring_output import board_table_text  # rendering: lazily

        return board_table_text(self)

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{s}</td><td>{p:g}</td><td>{q:.2f}</td></tr>"
                       for s, p, q in zip(self.scores, self.points, self.percentages))
        return (f"<table><caption>{self.caption}</caption><tr><th>Score</th><th>Points</th>"
                f"<th>%</th></tr>{rows}</table>")


def matchpoint_board(scores: Sequence[int] | Sequence[str], scale: "Scale | str" = Scale.ACBL
                     ) -> BoardMatchpoints:
    """Matchpoint the NS scores of one board (text scores are checked to be whole numbers).

    >>> matchpoint_board(["420", "4S="])
    Traceback (most recent call last):
    ...
    cardlab.errors.ScoringError: score must be a whole number, not '4S='
    """
    values = [_board_score(item) for item in scores]
    unit = Scale.parse(scale)
    points = board_matchpoints(values, unit)
    board_top = top(len(values), unit)
    pct = percentages(points, board_top)
    return BoardMatchpoints(tuple(values), tuple(points.tolist()), tuple(pct.tolist()),
                            board_top, unit)


def _board_score(item: int | str) -> int:
    """One NS score of :func:`matchpoint_board`: a whole number no bridge score exceeds."""
    from cardlab.scoring.traveller import MAX_SCORE  # traveller reads contracts: only here

    text = str(item).strip()
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        raise ScoringError(f"score must be a whole number, not {item!r}")
    if len(text) > 12 or abs(int(text)) > MAX_SCORE:
        raise ScoringError(f"score {item!r} is out of range: no bridge score is more than {MAX_SCORE:,} "
                           f"either way (13 down, redoubled, vulnerable)")
    return int(text)
