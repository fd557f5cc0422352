"""Session results as data: a JSON-ready dict, CSV text, a pandas frame, a short HTML table.

This is the library side of what the command line prints (``report/`` only renders).
Figures are rounded to 2 decimals, as results are published.  JSON shape::

    {"pairs": [{"pair": "1", "direction": "NS", "boards": 8, "matchpoints": 30.6,
                "percentage": 63.75, "place": "1"}, ...],
     "boards": [{"board": 1, "top": 6, "results": [{"ns": "1", "ew": "1",
                 "contract": "3C", "declarer": "E", "tricks": 10, "score": -130,
                 "ns_mp": 0.0, "ew_mp": 6.0}, ...]}, ...]}

With cross-IMPs or Butler a pair has ``total`` (IMPs) instead of
``matchpoints``/``percentage``, a result has ``ns_imps``/``ew_imps``, a board's
``top`` is null and Butler boards carry their ``datum``.  A phantom or sit-out
named in the session is listed under ``"phantoms"`` and never ranked.

>>> from cardlab.scoring.session import score_session
>>> from cardlab.scoring.traveller import TravellerLine as T
>>> result = score_session([T.make(1, "1", "1", contract="4SX", declarer="N", tricks=10),
...                         T.make(1, "2", "2", score="A6040")])
>>> session_json(result)["boards"][0]["results"][1]
{'ns': '2', 'ew': '2', 'contract': None, 'declarer': None, 'tricks': None, 'score': 'A6040', 'ns_mp': 0.6, 'ew_mp': 0.4}
>>> print(session_csv(result), end="")
pair,direction,boards,matchpoints,percentage,place
2,NS,1,0.60,60.00,1
1,NS,1,0.50,50.00,2
1,EW,1,0.50,50.00,1
2,EW,1,0.40,40.00,2
>>> session_json({"pairs": []})
Traceback (most recent call last):
...
TypeError: session_json needs a SessionResult, not dict
"""

from __future__ import annotations

import csv
import html
import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardlab.scoring.session import SessionResult

__all__ = ["session_json", "session_csv", "session_frame", "session_html_table", "fig",
           "field_title", "method_caption"]


def _r(value: float) -> float:
    return round(value, 2) + 0.0  # + 0.0 turns -0.0 into 0.0


def fig(value: float) -> str:
    """A figure to 2 decimals, never ``-0.00``.

    >>> fig(-0.0), fig(-0.001), fig(5.666666)
    ('0.00', '0.00', '5.67')
    """
    return f"{_r(value):.2f}"


def field_title(direction: str | None) -> str:
    """``North-South``, ``East-West`` or ``All pairs``."""
    return {"NS": "North-South", "EW": "East-West", None: "All pairs"}[direction]


def method_caption(result: "SessionResult") -> str:
    """How the session was scored, in words: ``matchpoints, EBU units, top 8``."""
    from cardlab.scoring.session import Method

    return {Method.MP: f"matchpoints, {result.scale.value.upper()} units, top {result.top}",
            Method.CROSS_IMPS: "cross-IMPs", Method.BUTLER: "Butler IMPs"}[result.method]


def _check(result: object, who: str) -> None:
    from cardlab.scoring.session import SessionResult

    if not isinstance(result, SessionResult):
        raise TypeError(f"{who} needs a SessionResult, not {type(result).__name__}")


def session_json(result: "SessionResult") -> dict[str, Any]:
    """The session as a JSON-ready dict (see the module docstring for the shape)."""
    from cardlab.scoring.session import Method

    _check(result, "session_json")
    imps = result.method.is_imps
    pairs: list[dict[str, Any]] = []
    for pair in result.pairs:
        row: dict[str, Any] = {"pair": pair.pair, "direction": pair.direction,
                               "boards": pair.boards}
        if imps:
            row["total"] = _r(pair.total)
        else:
            row["matchpoints"] = _r(pair.total)
            row["percentage"] = _r(pair.percentage or 0.0)
        row["place"] = pair.place
        if pair.names:
            row["names"] = list(pair.names)
        pairs.append(row)
    boards: list[dict[str, Any]] = []
    ns_key, ew_key = ("ns_imps", "ew_imps") if imps else ("ns_mp", "ew_mp")
    for board in result.boards:
        results = []
        for scored in board.lines:
            line = scored.line
            results.append({
                "ns": line.ns, "ew": line.ew,
                "contract": None if line.contract is None else str(line.contract),
                "declarer": None if line.declarer is None else line.declarer.value,
                "tricks": line.tricks,
                "score": line.score if isinstance(line.score, int) else str(line.score),
                ns_key: _r(scored.ns_points), ew_key: _r(scored.ew_points),
            })
        entry: dict[str, Any] = {"board": board.board, "top": board.top}
        if result.method is Method.BUTLER:
            entry["datum"] = board.datum
        entry["results"] = results
        boards.append(entry)
    out: dict[str, Any] = {"pairs": pairs, "boards": boards}
    if result.phantoms:
        out["phantoms"] = [{"pair": key[1], "direction": key[0]} for key in result.phantoms]
    return out


def session_csv(result: "SessionResult") -> str:
    """One row per pair: the ranking of every field."""
    _check(result, "session_csv")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    imps = result.method.is_imps
    writer.writerow(["pair", "direction", "boards"]
                    + (["total"] if imps else ["matchpoints", "percentage"]) + ["place"])
    for pair in result.pairs:
        figures = [fig(pair.total)] if imps else [fig(pair.total), fig(pair.percentage or 0.0)]
        writer.writerow([pair.pair, pair.direction or "", pair.boards, *figures, pair.place])
    return out.getvalue()


def session_frame(result: "SessionResult") -> Any:
    """The ranking as a pandas DataFrame (one row per pair, unrounded figures)."""
    import pandas as pd  # optional dependency: only when asked

    _check(result, "session_frame")
    rows = [{"pair": p.pair, "direction": p.direction, "names": " & ".join(p.names),
             "boards": p.boards, "total": p.total, "percentage": p.percentage,
             "place": p.place} for p in result.pairs]
    return pd.DataFrame(rows, columns=["pair", "direction", "names", "boards", "total",
                                       "percentage", "place"])


def session_html_table(result: "SessionResult") -> str:
    """A small HTML ranking (one table per field) for notebooks; not the published page."""
    _check(result, "session_html_table")
    imps = result.method.is_imps
    parts = [f"<p><b>{html.escape(result.title or 'Session')}</b>: "
             f"{result.movement.value}, {len(result.boards)} boards, "
             f"{html.escape(method_caption(result))}</p>"]
    for direction, pairs in result.fields:
        head = "<th>IMPs</th>" if imps else "<th>MPs</th><th>%</th>"
        rows = []
        for p in pairs:
            figures = (f"<td>{fig(p.total)}</td>" if imps else
                       f"<td>{fig(p.total)}</td><td>{fig(p.percentage or 0.0)}</td>")
            rows.append(f"<tr><td>{html.escape(p.place)}</td><td>{html.escape(p.pair)}</td>"
                        f"<td>{html.escape(' & '.join(p.names))}</td><td>{p.boards}</td>"
                        f"{figures}</tr>")
        parts.append(f"<table><caption>{field_title(direction)}</caption><tr><th>Place</th>"
                     f"<th>Pair</th><th>Names</th><th>Boards</th>{head}</tr>"
                     + "".join(rows) + "</table>")
    return "\n".join(parts)
