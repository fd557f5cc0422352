"""Compare our figures with the ones a result file reports (``--check``).

What a scorer needs to trust it on real exports:

* figures are compared at the file's own precision: ``5.7`` in a file that rounds to 1
  decimal agrees with our 5.6667;
* on a board played fewer times than the most-played one, a file may show the raw
  matchpoints of the traveller (compared among that board's results only) while its
  totals use the Neuberg-factored ones: either agrees;
* ``TOTAL_SCORE`` may be the matchpoint total or percentage × most boards × top / 100;
* places are compared by number and tie (``2=``, ``=2``, ``2-3`` are 2 tied); a file that
  marks no tie anywhere writes a tied place as a plain number, which agrees;
* a total (or percentage) that equals the sum of the board scores rounded to the file's
  decimals before adding (programs round each Neuberg-factored score), or cut to the file's
  decimals toward zero before adding (Compscore 3's MP_PAIRS exports: a board played 18 times
  of 19 adds 5.0556, written 5.05), or the sum of the unfactored scores (scaled to the top)
  plus each Neuberg correction cut toward zero (Compscore 3 on a real export: a top of 35.9444
  on such a board is 36 - 0.0556, added as 36 - 0.05 = 35.95), is a note naming the
  convention, not a difference;
* each difference is reported once, in file order (pairs as listed, then traveller lines
  board by board), naming the pair or line and both figures.  A pair the file lists with
  no figures (or as a phantom) is not a difference.

>>> from cardlab.scoring.session import score_session
>>> from cardlab.scoring.traveller import TravellerLine as T
>>> from cardlab.scoring.document import Reported
>>> result = score_session([T.make(1, "1", "1", score=100), T.make(1, "2", "2", score=50)])
>>> reported_differences(result, Reported((("1.0", "0.0"), ("0.00", "0.50")), {}))
['board 1, NS 2 v EW 2: file NS 0.00 EW 0.50, ours NS 0.00 EW 1.00']
>>> reported_differences(result, Reported((), {}))
Traceback (most recent call last):
...
cardlab.errors.ScoringError: the file reports no figures to check (0 lines, 0 pairs)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from cardlab.results import JsonText
from cardlab.scoring.matchpoints import board_matchpoints
from cardlab.scoring.session import PairResult, ScoredLine, SessionResult
from cardlab.scoring.terms import Method, Movement, PairKey, Reported
from cardlab.scoring.traveller import AdjustedScore, TravellerLine
from cardlab.errors import CardlabError, ScoringError

if TYPE_CHECKING:  # the document calls this module (ResultsFile.check); it is only named here
    from cardlab.scoring.document import ResultsFile

__all__ = ["reported_differences", "compare_figures", "CheckReport", "check_session", "check_document",
           "agrees", "place_key", "IMP_RULES"]


def agrees(text: str | None, *candidates: float) -> bool:
    """Whether the figure ``text`` equals one of ``candidates`` at the precision it is written.

    >>> agrees("5.7", 5.6667), agrees("5.67", 5.6667), agrees("5.66", 5.6667), agrees("6", 5.5)
    (True, True, False, True)
    """
    figure = _figure(text)
    if figure is None:
        return False
    value, decimals = figure
    tolerance = 0.5 * 10.0 ** -decimals + 1e-9
    return any(abs(value - c) <= tolerance for c in candidates)


def _figure(text: str | None) -> tuple[float, int] | None:
    """A figure as written: its value and its number of decimals (None if not a number)."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value, len(text.split(".", 1)[1]) if "." in text else 0


_PLACE_RE = re.compile(r"^=?(\d+)\s*(=|[-/]\s*\d+)?=?$")


def place_key(text: str) -> tuple[int | None, bool]:
    """A place as (number, tied): ``3=``, ``=3``, ``3-4`` and ``3/4`` are 3 tied, ``3`` is 3.

    >>> place_key("3="), place_key("=3"), place_key("3-4"), place_key("3"), place_key("x")
    ((3, True), (3, True), (3, True), (3, False), (None, False))
    """
    key = text.replace(" ", "")
    match = _PLACE_RE.match(key)
    if not match:
        return None, False
    return int(match.group(1)), "=" in key or match.group(2) is not None


def _same_place(text: str, ours: str, file_marks_ties: bool) -> bool:
    """Places agree by number, and by tie when the file marks ties at all (a file that
    writes a tied place "3" for both pairs shows no tie anywhere)."""
    theirs, mine = place_key(text), place_key(ours)
    if theirs[0] is None or mine[0] is None:
        return text.replace(" ", "") == ours.replace(" ", "")
    return theirs[0] == mine[0] and (theirs[1] == mine[1] or not file_marks_ties)


def _round_half_away(value: float, decimals: int) -> float:
    scale = 10.0 ** decimals
    return math.copysign(math.floor(abs(value) * scale + 0.5 + 1e-9) / scale, value)


def _cut_toward_zero(value: float, decimals: int) -> float:
    """``value`` with the digits after ``decimals`` dropped (5.0556 -> 5.05, -5.0556 -> -5.05);
    a value already at ``decimals`` stays (0.29 is not cut to 0.28 by its binary error)."""
    scale = 10.0 ** decimals
    return math.copysign(math.floor(abs(value) * scale + 1e-6) / scale, value)


def _cut_correction(value: float, unfactored: float | None, decimals: int) -> float:
    """``value`` as the unfactored score scaled to the top plus the Neuberg correction (the
    factored score minus that) cut to ``decimals`` toward zero: 35.9444 on a board played 18
    times of 19 (a top there, 36 scaled) is 36 - 0.0556, written 36 - 0.05 = 35.95; a line of a
    board played in full (``unfactored`` None) is ``value`` itself."""
    if unfactored is None:
        return value
    return unfactored + _cut_toward_zero(value - unfactored, decimals)


#: The per-board conventions a file's totals may follow: (how the note words it, the rule on
#: a line's (factored points, unfactored points scaled to the top or None, decimals)).
_BOARD_CONVENTIONS: tuple[tuple[str, Callable[[float, float | None, int], float]], ...] = (
    ("rounded to {d} decimals before adding", lambda p, _u, d: _round_half_away(p, d)),
    ("cut to {d} decimals toward zero before adding (Compscore 3's MP_PAIRS convention)",
     lambda p, _u, d: _cut_toward_zero(p, d)),
    ("unfactored (scaled to the top) plus the Neuberg correction cut to {d} decimals toward zero "
     "before adding (Compscore 3's MP_PAIRS Neuberg correction)", _cut_correction),
)


def _pair_lines(result: SessionResult) -> dict[PairKey, list[tuple[float, float | None]]]:
    """Each pair's points line by line (what its total adds up), each with the unfactored
    points scaled to the top on a board played fewer times (None on the others)."""
    mitchell = result.movement is Movement.MITCHELL
    scaled = _raw_points(result, scaled=True)
    out: dict[PairKey, list[tuple[float, float | None]]] = {}
    for board in result.boards:
        for s in board.lines:
            ns: PairKey = ("NS", s.line.ns) if mitchell else (None, s.line.ns)
            ew: PairKey = ("EW", s.line.ew) if mitchell else (None, s.line.ew)
            raw = scaled.get(id(s.line))
            out.setdefault(ns, []).append((s.ns_points, raw[0] if raw else None))
            out.setdefault(ew, []).append((s.ew_points, raw[1] if raw else None))
    return out


def _raw_points(result: SessionResult, scaled: bool = False) -> dict[int, tuple[float, float]]:
    """id(line) -> unfactored (NS, EW) points, for the lines of boards played fewer times
    (with ``scaled``, times the top over the board's own top: the plain ratio, no Neuberg)."""
    raw: dict[int, tuple[float, float]] = {}
    if result.method is not Method.MP or result.top is None:
        return raw
    phantom = set(result.phantoms)
    for board in result.boards:
        counted = [s for s in board.lines if not _on_phantom(s.line, result, phantom)]
        real = [s for s in counted if not s.line.is_adjusted]
        raw_top = result.scale.per_win * (len(counted) - 1)
        if raw_top == result.top or len(real) < 1:
            continue
        scores = [s.line.score for s in real if isinstance(s.line.score, int)]
        points = board_matchpoints(scores, result.scale).tolist()
        real_top = result.scale.per_win * (len(real) - 1)
        ratio = result.top / real_top if scaled and real_top else 1.0
        for s, p in zip(real, points):
            raw[id(s.line)] = (p * ratio, (real_top - p) * ratio)
        for s in counted:
            if isinstance(s.line.score, AdjustedScore):
                top = result.top if scaled else raw_top
                raw[id(s.line)] = (s.line.score.ns * top / 100, s.line.score.ew * top / 100)
    return raw


def _on_phantom(line: TravellerLine, result: SessionResult, phantom: set[Any]) -> bool:
    if not phantom:
        return False
    mitchell = result.movement.value == "mitchell"
    keys = (("NS", line.ns), ("EW", line.ew)) if mitchell else ((None, line.ns), (None, line.ew))
    return keys[0] in phantom or keys[1] in phantom


def _pair_name(key: tuple[str | None, str]) -> str:
    return f"pair {key[0] + ' ' if key[0] else ''}{key[1]}"


def _pair_differences(result: SessionResult, pair: PairResult, figures: dict[str, str],
                      file_marks_ties: bool, conventions: list[tuple[str, float]]
                      ) -> tuple[list[str], list[str]]:
    """(differences, convention notes) of one pair's figures; ``conventions`` are the pair's
    totals under each per-board convention, as (wording, total)."""
    def alternatives(total: float) -> tuple[float, float]:
        pct = pair.percentage * total / pair.total if pair.percentage is not None and pair.total else math.nan
        most = result.most_boards(pair.direction) if pair.percentage is not None else 0
        return pct, pct * most * (result.top or 0) / 100
    candidates = [(how, total, *alternatives(total)) for how, total in conventions
                  if abs(total - pair.total) > 1e-9]
    found: list[str] = []
    notes: list[str] = []
    if pair.percentage is not None and result.top is not None:
        most = result.most_boards(pair.direction)
        ours = {"PERCENTAGE": (f"{pair.percentage:.2f}", (pair.percentage,)),
                "TOTAL_SCORE": (f"{pair.total:.2f}", (pair.total, pair.percentage * most * result.top / 100))}
    else:
        ours = {"TOTAL_SCORE": (f"{pair.total:.2f}", (pair.total,))}
    for tag, text in figures.items():
        if tag == "PLACE":
            if not _same_place(text, pair.place, file_marks_ties):
                found.append(f"PLACE file {text}, ours {pair.place}")
        elif tag in ours and not agrees(text, *ours[tag][1]):
            for how, total, pct, scaled in candidates:
                alt = (pct,) if tag == "PERCENTAGE" else (total, scaled)
                if agrees(text, *(a for a in alt if not math.isnan(a))):
                    verb = "is the sum of" if tag == "TOTAL_SCORE" else "follows from"
                    notes.append(f"{tag} {text} {verb} the board scores {how} "
                                 f"(ours {ours[tag][0]} unrounded)")
                    break
            else:
                found.append(f"{tag} file {text}, ours {ours[tag][0]}")
    return found, notes


def reported_differences(result: SessionResult, reported: Reported,
                         lines: Sequence[TravellerLine] | None = None) -> list[str]:
    """Differences between ``result`` and the file's ``reported`` figures, one line each,
    in file order.  ``lines`` are the file's traveller lines in file order (the ones
    ``result`` was scored from); without them the lines' ``source_line`` gives the order."""
    return compare_figures(result, reported, lines)[0]


def compare_figures(result: SessionResult, reported: Reported,
                    lines: Sequence[TravellerLine] | None = None
                    ) -> tuple[list[str], list[str]]:
    """(differences, notes): :func:`reported_differences`, and the figures that agree only under the
    file's rounding convention (each board score rounded before adding), as notes."""
    scored: list[ScoredLine] = [s for board in result.boards for s in board.lines]
    stated_pairs = {k: v for k, v in reported.pairs.items() if v}
    if not any(a is not None or b is not None for a, b in reported.line_points) \
            and not stated_pairs:
        raise ScoringError(f"the file reports no figures to check ({len(reported.line_points)} "
                           f"lines, {len(stated_pairs)} pairs)")
    if reported.line_points and len(reported.line_points) != len(scored):
        raise ScoringError(
            f"the file reports matchpoints for {len(reported.line_points)} lines, "
            f"we scored {len(scored)}"
        )
    differences: list[str] = []
    notes: list[str] = []
    ours_by_key = {pair.key: pair for pair in result.pairs}
    marks_ties = any(place_key(f.get("PLACE", ""))[1] for f in stated_pairs.values())
    decimals = reported.decimals()
    decimals = 2 if decimals is None else decimals
    per_pair = _pair_lines(result) if stated_pairs else {}
    for key, figures in stated_pairs.items():
        pair = ours_by_key.get(key)
        if pair is None:
            differences.append(f"{_pair_name(key)}: in the file with figures but played no board")
            continue
        points = per_pair.get(key, [])
        conventions = ([(how.format(d=decimals), sum(rule(p, u, decimals) for p, u in points))
                        for how, rule in _BOARD_CONVENTIONS]
                       if points and abs(sum(p for p, _ in points) - pair.total) < 1e-6 else [])
        found, rounding = _pair_differences(result, pair, figures, marks_ties, conventions)
        if found:
            differences.append(f"{_pair_name(key)}: " + "; ".join(found))
        notes.extend(f"{_pair_name(key)}: {note}" for note in rounding)
    if stated_pairs:
        for pair in result.pairs:
            if pair.key not in reported.pairs:
                differences.append(f"{_pair_name(pair.key)}: not in the file")
    if lines is not None:
        position = {id(line): i for i, line in enumerate(lines)}
        ordered = sorted(scored, key=lambda s: position.get(id(s.line), len(position)))
    elif all(s.line.source_line for s in scored):
        ordered = sorted(scored, key=lambda s: s.line.source_line or 0)
    else:
        ordered = scored
    raw = _raw_points(result)
    cut_lines = 0  # traveller figures that are ours cut toward zero at the file's decimals
    for s, (ns_text, ew_text) in zip(ordered, reported.line_points):
        if ns_text is None and ew_text is None:
            continue
        alt = raw.get(id(s.line))
        ns_ok = ns_text is None or agrees(ns_text, s.ns_points, *(alt[:1] if alt else ()))
        ew_ok = ew_text is None or agrees(ew_text, s.ew_points, *(alt[1:] if alt else ()))
        if not (ns_ok and ew_ok) and _is_cut(ns_text, s.ns_points) and _is_cut(ew_text, s.ew_points):
            cut_lines += 1
            continue
        if not (ns_ok and ew_ok):
            line = s.line
            differences.append(
                f"board {line.board}, NS {line.ns} v EW {line.ew}: "
                f"file NS {ns_text or '-'} EW {ew_text or '-'}, "
                f"ours NS {s.ns_points:.2f} EW {s.ew_points:.2f}")
    if cut_lines:
        notes.append(f"{cut_lines} traveller line(s) show our board scores {_BOARD_CONVENTIONS[1][0].format(d=decimals).replace(' before adding', '')}")
    return differences, notes


def _is_cut(text: str | None, value: float) -> bool:
    """Whether ``text`` is ``value`` cut toward zero at the decimals it is written to (or absent)."""
    if text is None:
        return True
    figure = _figure(text)
    return figure is not None and abs(figure[0] - _cut_toward_zero(value, figure[1])) < 1e-9


@dataclass(frozen=True)
class CheckReport(JsonText):
    """The outcome of ``--check``: every difference (file order), what was compared, and
    notes: figures that agree only under a convention the file follows (rounding each board
    before adding, which IMP rule), which are not differences."""

    source: str
    differences: tuple[str, ...]
    lines: int
    pairs: int
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the file's figures are ours (notes aside)."""
        return not self.differences

    def table(self) -> str:
        """What the command line prints on stdout."""
        if self.ok:
            return (f"{self.source}: no differences ({self.lines} lines, {self.pairs} pairs "
                    "checked)\n")
        return "".join(line + "\n" for line in self.differences)

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready dict."""
        return {"source": self.source, "ok": self.ok, "lines": self.lines,
                "pairs": self.pairs, "differences": list(self.differences),
                "notes": list(self.notes)}

    def to_csv(self) -> str:
        """One CSV row per difference."""
        return "difference\n" + "".join('"' + d.replace('"', '""') + '"\n'
                                        for d in self.differences)

    def to_pandas(self) -> Any:
        """The differences as a one-column pandas DataFrame (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame({"difference": list(self.differences)})

    def __repr__(self) -> str:
        state = "no differences" if self.ok else f"{len(self.differences)} difference(s)"
        return f"<CheckReport {self.source!r}: {state}>"

    def _repr_html_(self) -> str:
        import html

        items = "".join(f"<li>{html.escape(d)}</li>" for d in self.differences)
        return f"<p>{html.escape(repr(self))}</p>" + (f"<ul>{items}</ul>" if items else "")


def check_session(result: SessionResult, reported: Reported | None, source: str = "",
                  lines: Sequence[TravellerLine] | None = None) -> CheckReport:
    """Compare ``result`` with the figures of the file it was read from."""
    if reported is None:
        raise ScoringError("--check needs a file that states figures (USEBIO or PBN score "
                           "tables); a CSV traveller states none (nor does a Bridgemate .bws)")
    differences, notes = compare_figures(result, reported, lines)
    return CheckReport(source, tuple(differences), sum(len(b.lines) for b in result.boards),
                       len(result.pairs), tuple(notes))


#: The IMP rules tried when a file's word for its method (PBN ``Scoring "IMP"``) names none.
IMP_RULES = (Method.MEDIAN_IMPS, Method.BUTLER, Method.CROSS_IMPS)


def check_document(document: ResultsFile, result: SessionResult) -> CheckReport:
    """Compare ``result`` (scored from ``document``) with the figures ``document`` states.

    When the file's own word leaves the IMP rule open (``Scoring "IMP"``), the report notes
    which rule its figures follow: the one used, another one (with the ``--method`` to give),
    or none of :data:`IMP_RULES`."""
    report = check_session(result, document.reported, document.source, document.lines)
    if document.method is not None or document.assumed_method is None \
            or result.method not in IMP_RULES:
        return report
    word = f"Scoring {document.event_type!r}"
    if report.ok:
        note = (f"{word}: the file's figures follow {result.method.value} "
                f"({result.method.caption})")
        return CheckReport(report.source, report.differences, report.lines, report.pairs,
                           report.notes + (note,))
    following = []
    for rule in IMP_RULES:
        if rule is result.method:
            continue
        try:
            other = document.score(method=rule, scale=result.scale, movement=result.movement,
                                   phantoms=result.phantoms,
                                   phantom_rule=result.phantom_rule or "session")
            if not compare_figures(other, document.reported or Reported(), document.lines)[0]:
                following.append(rule)
        except CardlabError:
            continue
    if following:
        note = (f"{word}: the file's figures follow {following[0].value} "
                f"({following[0].caption}), not {result.method.value}: give --method "
                f"{following[0].value}")
    else:
        note = (f"{word}: the file's figures follow none of "
                f"{', '.join(r.value for r in IMP_RULES)}")
    return CheckReport(report.source, report.differences, report.lines, report.pairs,
                       report.notes + (note,))
