"""A session as one self-contained HTML page: rankings per field and every traveller.

The page has no external resources (inline CSS, no scripts), so a club can
publish the single file.

>>> from cardlab.scoring.session import score_session
>>> from cardlab.scoring.traveller import TravellerLine as T
>>> page = session_html(score_session([T.make(1, "1", "1", score=100),
...                                    T.make(1, "2", "2", score="A6040")], title="Club <night>"))
>>> "<h1>Club &lt;night&gt;</h1>" in page and "adjusted A6040" in page
True
>>> session_html("not a result")
Traceback (most recent call last):
...
TypeError: session_html needs a SessionResult, not str
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterator

import numpy as np
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from cardlab import __version__
from cardlab.board import Vulnerability
from cardlab.scoring.session import SessionResult
from cardlab.scoring.traveller import TravellerLine
from cardlab.report.scoring_output import field_title, fig
from cardlab.scoring.output import method_caption

__all__ = ["session_html", "iter_session_html"]

_env = Environment(
    loader=PackageLoader("cardlab.report", "templates"),
    autoescape=select_autoescape(["html", "j2"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.filters["fig"] = fig


_MARK = "\x00travellers\x00"
_CHUNK_LINES = 100_000


def session_html(result: SessionResult) -> str:
    """Render ``result`` as an HTML page (text)."""
    return "".join(iter_session_html(result))


def iter_session_html(result: SessionResult) -> Iterator[str]:
    """The page of :func:`session_html` in chunks, so that a session of a million lines is
    written without holding the page in memory: the rankings through the template, the
    travellers row by row (f-strings over the result's arrays when it was scored from columns)."""
    if not isinstance(result, SessionResult):
        raise TypeError(f"session_html needs a SessionResult, not {type(result).__name__}")
    imps = result.method.is_imps
    method = method_caption(result)
    fields = [
        {"title": field_title(direction), "pairs": pairs, "names": any(p.names for p in pairs)}
        for direction, pairs in result.fields
    ]
    heading = result.title or "Session results"
    subtitle = (f"{result.movement.value.capitalize()}, {len(result.boards)} boards, "
                f"scored by {method}")
    page = _env.get_template("scoring.html.j2").render(
        heading=heading, subtitle=subtitle, fields=fields, travellers=Markup(_MARK), version=__version__)
    head, tail = page.split(_MARK)
    yield head
    top_row = ('  <tr><th>NS</th><th>EW</th><th class="l">Contract</th><th class="l">By</th><th>Tricks</th>'
               f'<th>Score</th><th>{"NS IMPs" if imps else "NS MP"}</th><th>{"EW IMPs" if imps else "EW MP"}</th></tr>')
    sections = _column_sections if hasattr(result.boards, "board_slices") else _board_sections
    yield from sections(result, top_row)
    yield tail


def _section(number: int, meta: str, top_row: str, rows: list[str]) -> str:
    return (f'<section>\n<h3>Board {number} <span class="meta">{meta}</span></h3>\n<table>\n{top_row}\n'
            + "\n".join(rows) + "\n</table>\n</section>\n")


def _meta(vulnerability: Vulnerability | None, datum: int | None) -> str:
    meta = f"vul {vulnerability.value if vulnerability else ''}"
    return meta if datum is None else f"{meta}, datum {datum:+d}"


def _middle(line: TravellerLine) -> str:
    """The cells between the pair ids and the points: the result, or the adjusted score."""
    if line.is_adjusted:
        return f'<td class="l adj" colspan="4">adjusted {escape(str(line.score))}</td>'
    contract = "" if line.contract is None else escape(str(line.contract))
    declarer = "" if line.declarer is None else line.declarer.value
    tricks = "" if line.tricks is None else line.tricks
    negative = ' class="neg"' if isinstance(line.score, int) and line.score < 0 else ""
    return (f'<td class="l">{contract}</td><td class="l">{declarer}</td><td>{tricks}</td>'
            f"<td{negative}>{escape(str(line.score))}</td>")


def _row(ns: str, ew: str, middle: str, ns_points: str, ew_points: str) -> str:
    return f"  <tr><td>{ns}</td><td>{ew}</td>{middle}<td>{ns_points}</td><td>{ew_points}</td></tr>"


def _board_sections(result: SessionResult, top_row: str) -> Iterator[str]:
    for board in result.boards:
        lines = sorted(board.lines, key=lambda s: -s.ns_points)
        rows = [_row(escape(s.line.ns), escape(s.line.ew), _middle(s.line), fig(s.ns_points), fig(s.ew_points))
                for s in lines]
        yield _section(board.board, _meta(board.lines[0].line.vulnerability, board.datum), top_row, rows)


def _column_sections(result: SessionResult, top_row: str) -> Iterator[str]:
    """The same sections from the arrays of a session scored from columns: each distinct
    result, pair id and figure is formatted once."""
    boards: Any = result.boards
    cols = boards.columns
    ns_pts, ew_pts = boards.points
    middles = [_middle(t) for t in cols.templates]
    ids = {i: escape(i) for i in {*cols.ns, *cols.ew}}  # few distinct pair ids
    ns_figs, ew_figs = _figures(ns_pts), _figures(ew_pts)
    numbers, starts, ends, order = boards.board_slices()
    by_points = np.lexsort((-ns_pts[order], cols.board[order]))  # within each board, best NS first
    shown = order[by_points]
    kinds = cols.kind
    start = 0
    while start < numbers.size:
        stop = int(np.searchsorted(ends, ends[start] + _CHUNK_LINES, side="right")) or start + 1
        stop = max(stop, start + 1)
        lo, hi = int(starts[start]), int(ends[stop - 1])
        rows_at = shown[lo:hi].tolist()
        rows = [f"  <tr><td>{a}</td><td>{b}</td>{c}<td>{d}</td><td>{e}</td></tr>" for a, b, c, d, e in zip(
            map(ids.__getitem__, map(cols.ns.__getitem__, rows_at)),
            map(ids.__getitem__, map(cols.ew.__getitem__, rows_at)),
            map(middles.__getitem__, kinds[shown[lo:hi]].tolist()),
            map(ns_figs.__getitem__, rows_at), map(ew_figs.__getitem__, rows_at))]  # as _row, inlined
        chunk = []
        for b in range(start, stop):
            number = int(numbers[b])
            first = cols.templates[int(kinds[order[starts[b]]])]
            chunk.append(_section(number, _meta(first.vulnerability, boards.datum(number)), top_row,
                                  rows[int(starts[b]) - lo:int(ends[b]) - lo]))
        yield "".join(chunk)
        start = stop


def _figures(points: np.ndarray) -> list[str]:
    """:func:`fig` of every value, computed once per distinct value."""
    values, index = np.unique(points, return_inverse=True)
    texts = [fig(v) for v in values.tolist()]
    return [texts[i] for i in index.tolist()]
