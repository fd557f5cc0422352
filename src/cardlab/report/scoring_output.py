"""Session results printed as a terminal table (the data side lives in the library).

:func:`session_json`, :func:`session_csv`, :func:`fig` and :func:`field_title` moved to
:mod:`cardlab.scoring.output`; they are re-exported here so existing imports keep working.

>>> from cardlab.scoring.session import score_session
>>> from cardlab.scoring.traveller import TravellerLine as T
>>> result = score_session([T.make(1, "1", "1", score=100), T.make(1, "2", "2", score=50)])
>>> "North-South" in session_table_text(result)
True
"""

from __future__ import annotations

import io

from rich import box
from rich.console import Console
from rich.table import Table

from cardlab.scoring.output import field_title, fig, method_caption, session_csv, session_json
from cardlab.scoring.matchpoints import BoardMatchpoints
from cardlab.scoring.session import SessionResult

__all__ = ["session_json", "session_csv", "print_session_table", "session_table_text",
           "field_title", "fig", "board_table_text"]


def print_session_table(result: SessionResult, console: Console | None = None) -> None:
    """Print one ranking table per field (plain text when not on a terminal)."""
    console = console or Console()
    imps = result.method.is_imps
    heading = f"{result.title} - " if result.title else ""
    console.print(f"{heading}{result.movement.value.capitalize()}, {len(result.boards)} boards, "
                  f"{method_caption(result)}")
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
    if result.phantoms:
        names = ", ".join(f"{k[0] + ' ' if k[0] else ''}{k[1]}" for k in result.phantoms)
        console.print(f"Not ranked (phantom or sit-out): {names}; "
                      f"compensation: {result.phantom_rule}")


def session_table_text(result: SessionResult, width: int = 100) -> str:
    """The table :func:`print_session_table` prints, as plain text."""
    out = io.StringIO()
    print_session_table(result, Console(file=out, width=width, color_system=None))
    return _unpadded(out.getvalue())


def board_table_text(board: BoardMatchpoints) -> str:
    """The score / points / % table of one board, as ``bridge matchpoints`` prints it."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    console.print(board.caption)
    table = Table(box=box.SIMPLE)
    for name in ("Score", "Points", "%"):
        table.add_column(name, justify="right")
    for score, p, q in zip(board.scores, board.points, board.percentages):
        table.add_row(str(score), f"{p:g}", f"{q:.2f}")
    console.print(table)
    return _unpadded(out.getvalue())


def _unpadded(text: str) -> str:
    """rich pads a table's lines to its width: the text drops those trailing spaces (one look)."""
    return "".join(line.rstrip() + "\n" for line in text.splitlines())
