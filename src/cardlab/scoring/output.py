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
import json
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from cardlab.scoring.terms import Method

if TYPE_CHECKING:  # SessionResult calls this module to render itself; it is only named here
    from cardlab.scoring.session import SessionResult

__all__ = ["session_json", "session_csv", "session_frame", "session_html_table", "fig",
           "field_title", "method_caption", "iter_session_json", "session_json_pairs"]


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
    if result.method is Method.MP:
        return f"matchpoints, {result.scale.value.upper()} units, top {result.top}"
    return result.method.caption


def _check(result: object, who: str) -> None:
    # By what a session result has, not by its class: SessionResult's own to_dict()/to_csv() call
    # this module, which so never imports the session module (no import cycle)
    if not all(hasattr(result, name) for name in ("pairs", "boards", "method", "movement", "fields")):
        raise TypeError(f"{who} needs a SessionResult, not {type(result).__name__}")


def session_json(result: "SessionResult") -> dict[str, Any]:
    """The session as a JSON-ready dict (see the module docstring for the shape)."""

    _check(result, "session_json")
    imps = result.method.is_imps
    head = session_json_pairs(result)
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
        if result.method.has_datum:
            entry["datum"] = board.datum
        entry["results"] = results
        boards.append(entry)
    out: dict[str, Any] = {"pairs": head["pairs"], "boards": boards}
    if "phantoms" in head:
        out["phantoms"] = head["phantoms"]
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
    from cardlab.errors import require
    pd = require("pandas", "pandas", "to_pandas()")  # optional dependency: only when asked

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


def _figures(points: np.ndarray) -> list[str]:
    """Each figure to 2 decimals as JSON text; ``repr`` once per distinct value (there are few)."""
    values, index = np.unique(np.round(points, 2) + 0.0, return_inverse=True)
    texts = [repr(v) for v in values.tolist()]
    return [texts[i] for i in index.tolist()]


def iter_session_json(result: "SessionResult") -> Iterator[str]:
    """The JSON of :func:`session_json` as text chunks, without building it in memory first.

    A session scored from columns (big CSV files) is written board by board from its arrays.

    >>> import json
    >>> from cardlab.scoring.session import score_session
    >>> from cardlab.scoring.traveller import TravellerLine as T
    >>> result = score_session([T.make(1, "1", "1", score=100), T.make(1, "2", "2", score=50)])
    >>> json.loads("".join(iter_session_json(result))) == session_json(result)
    True
    """
    if not hasattr(result.boards, "board_slices"):
        yield json.dumps(session_json(result), indent=2) + "\n"
        return

    _check(result, "iter_session_json")
    head = session_json_pairs(result)
    yield '{"pairs": ' + json.dumps(head["pairs"], indent=2) + ',\n"boards": [\n'
    imps = result.method.is_imps
    ns_key, ew_key = ("ns_imps", "ew_imps") if imps else ("ns_mp", "ew_mp")
    boards: Any = result.boards
    cols = boards.columns
    ns_pts, ew_pts = boards.points
    ns_r, ew_r = _figures(ns_pts), _figures(ew_pts)
    middle = []
    for t in cols.templates:
        middle.append(json.dumps({
            "contract": None if t.contract is None else str(t.contract),
            "declarer": None if t.declarer is None else t.declarer.value,
            "tricks": t.tricks,
            "score": t.score if isinstance(t.score, int) else str(t.score)})[1:-1])
    top = json.dumps(result.top)
    numbers, starts, ends, order = boards.board_slices()
    step = max(1, 100_000 // max(1, int(np.max(ends - starts, initial=1))))
    for first_board in range(0, numbers.size, step):  # about 10^5 lines a chunk
        lo, hi = int(starts[first_board]), int(ends[min(first_board + step, numbers.size) - 1])
        rows = order[lo:hi].tolist()
        texts = [f'{{"ns": "{ns}", "ew": "{ew}", {mid}, "{ns_key}": {a}, "{ew_key}": {b}}}'
                 for ns, ew, mid, a, b in zip(map(cols.ns.__getitem__, rows), map(cols.ew.__getitem__, rows),
                                              map(middle.__getitem__, cols.kind[order[lo:hi]].tolist()),
                                              map(ns_r.__getitem__, rows), map(ew_r.__getitem__, rows))]
        chunk = []
        for b in range(first_board, min(first_board + step, numbers.size)):
            number = int(numbers[b])
            entry = f'{{"board": {number}, "top": {top}'
            if result.method.has_datum:
                entry += f', "datum": {json.dumps(boards.datum(number))}'
            body = ",\n  ".join(texts[int(starts[b]) - lo:int(ends[b]) - lo])
            chunk.append(("" if b == 0 else ",\n") + entry + ', "results": [\n  ' + body + "]}")
        yield "".join(chunk)
    tail = "\n]"
    if result.phantoms:
        tail += ', "phantoms": ' + json.dumps(session_json_pairs(result)["phantoms"])
    yield tail + "}\n"


def session_json_pairs(result: "SessionResult") -> dict[str, Any]:
    """The ``pairs`` (and ``phantoms``) part of :func:`session_json` alone."""
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
    out: dict[str, Any] = {"pairs": pairs}
    if result.phantoms:
        out["phantoms"] = [{"pair": key[1], "direction": key[0]} for key in result.phantoms]
    return out
