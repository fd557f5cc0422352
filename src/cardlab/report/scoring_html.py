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

from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from cardlab import __version__
from cardlab.scoring.session import Method, SessionResult
from cardlab.report.scoring_output import field_title, fig

__all__ = ["session_html"]

_env = Environment(
    loader=PackageLoader("cardlab.report", "templates"),
    autoescape=select_autoescape(["html", "j2"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.filters["fig"] = fig


def session_html(result: SessionResult) -> str:
    """Render ``result`` as an HTML page (text)."""
    if not isinstance(result, SessionResult):
        raise TypeError(f"session_html needs a SessionResult, not {type(result).__name__}")
    imps = result.method.is_imps
    method = {Method.MP: f"matchpoints ({result.scale.value.upper()} units, top {result.top})",
              Method.CROSS_IMPS: "cross-IMPs", Method.BUTLER: "Butler IMPs"}[result.method]
    fields = [
        {"title": field_title(direction), "pairs": pairs, "names": any(p.names for p in pairs)}
        for direction, pairs in result.fields
    ]
    boards: list[dict[str, Any]] = []
    for board in result.boards:
        first = board.lines[0].line
        vul = first.vulnerability.value if first.vulnerability else ""
        meta = f"vul {vul}"
        if board.datum is not None:
            meta += f", datum {board.datum:+d}"
        rows = []
        for s in sorted(board.lines, key=lambda s: -s.ns_points):
            line = s.line
            rows.append({
                "ns": line.ns, "ew": line.ew, "adjusted": line.is_adjusted,
                "contract": "" if line.contract is None else str(line.contract),
                "declarer": "" if line.declarer is None else line.declarer.value,
                "tricks": "" if line.tricks is None else line.tricks,
                "score": str(line.score),
                "negative": isinstance(line.score, int) and line.score < 0,
                "ns_points": s.ns_points, "ew_points": s.ew_points,
            })
        boards.append({"board": board.board, "meta": meta, "rows": rows})
    heading = result.title or "Session results"
    subtitle = (f"{result.movement.value.capitalize()}, {len(result.boards)} boards, "
                f"scored by {method}")
    return _env.get_template("scoring.html.j2").render(
        heading=heading, subtitle=subtitle, fields=fields, boards=boards, imps=imps,
        ns_head="NS IMPs" if imps else "NS MP", ew_head="EW IMPs" if imps else "EW MP",
        version=__version__,
    )
