"""Session results as JSON, CSV and a terminal table.

Figures are rounded to 2 decimals, as results are published.  JSON shape::

    {"pairs": [{"pair": "1", "direction": "NS", "boards": 8, "matchpoints": 30.6,
                "percentage": 63.75, "place": "1"}, ...],
     "boards": [{"board": 1, "top": 6, "results": [{"ns": "1", "ew": "1",
                 "contract": "3C", "declarer": "E", "tricks": 10, "score": -130,
                 "ns_mp": 0.0, "ew_mp": 6.0}, ...]}, ...]}

With cross-IMPs or Butler a pair has ``total`` (IMPs) instead of
``matchpoints``/``percentage``, a result has ``ns_imps``/``ew_imps``, a board's
``top`` is null and Butler boards carry their ``datum``.

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
import io
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from cardlab.scoring.session import Method, SessionResult

__all__ = ["session_json", "session_csv", "print_session_table", "field_title", "fig"]


def _r(value: float) -> float:
    return round(value, 2) + 0.0  # + 0.0 turns -0.0 into 0.0


def fig(value: float) -> str:
    """A figure to 2 decimals, never ``-0.00``.

    >>> fig(-0.0), fig(-0.001), fig(5.666666)
    ('0.00', '0.00', '5.67')
    """
    return f"{_r(value):.2f}"


def session_json(result: SessionResult) -> dict[str, Any]:
    """The session as a JSON-ready dict (see the module docstring for the shape)."""
    if not isinstance(result, SessionResult):
        raise TypeError(f"session_json needs a SessionResult, not {type(result).__name__}")
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
    return {"pairs": pairs, "boards": boards}


def session_csv(result: SessionResult) -> str:
    """One row per pair: the ranking of every field."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    imps = result.method.is_imps
    writer.writerow(["pair", "direction", "boards"]
                    + (["total"] if imps else ["matchpoints", "percentage"]) + ["place"])
    for pair in result.pairs:
        figures = [fig(pair.total)] if imps else [fig(pair.total), fig(pair.percentage or 0.0)]
        writer.writerow([pair.pair, pair.direction or "", pair.boards, *figures, pair.place])
    return out.getvalue()


def field_title(direction: str | None) -> str:
    return {"NS": "North-South", "EW": "East-West", None: "All pairs"}[direction]


def print_session_table(result: SessionResult, console: Console | None = None) -> None:
    """Print one ranking table per field (plain text when not on a terminal)."""
    console = console or Console()
    imps = result.method.is_imps
    what = {Method.MP: f"matchpoints, {result.scale.value.upper()} units, top {result.top}",
            Method.CROSS_IMPS: "cross-IMPs", Method.BUTLER: "Butler IMPs"}[result.method]
    heading = f"{result.title} - " if result.title else ""
    console.print(f"{heading}{result.movement.value.capitalize()}, {len(result.boards)} boards, "
                  f"{what}")
    for direction, pairs in result.fields:
        table = Table(title=field_title(direction), box=box.SIMPLE, title_justify="left")
        table.add_column("Place", justify="right")
        table.add_column("Pair", justify="right")
        if any(p.names for p in pairs):
            table.add_column("Names")
        table.add_column("Boards", justify="right")
        if imps:
            table.add_column("IMPs", justify="right")
        else:
            table.add_column("MPs", justify="right")
            table.add_column("%", justify="right")
        for p in pairs:
            cells = [p.place, p.pair]
            if any(q.names for q in pairs):
                cells.append(" & ".join(p.names))
            cells.append(str(p.boards))
            cells += [fig(p.total)] if imps else [fig(p.total), fig(p.percentage or 0.0)]
            table.add_row(*cells)
        console.print(table)
