"""Table cards and guide cards as one printable HTML page (A4 or Letter, CSS ``@page``).

A table card says, for one table, round by round, which pairs sit North-South and East-West
and which boards they play; a guide card says, for one pair, where it goes each round (table,
direction, boards, opponents).  Both carry the event's name.  ``per_sheet`` cards share a
sheet (1, 2 or 4; a page break after each sheet).

>>> from cardlab.club.movement import mitchell
>>> page = table_cards(mitchell(3), "Tuesday <pairs>")
>>> page.count('class="card"'), "Tuesday &lt;pairs&gt;" in page
(3, True)
"""

from __future__ import annotations

import html

from cardlab.errors import MovementError
from cardlab.club.movement import MovementPlan, Seating

__all__ = ["table_cards", "guide_cards", "PAPER"]

#: Paper sizes the page is laid out for (CSS ``@page size``).
PAPER = {"a4": "A4", "letter": "letter"}

_STYLE = """
@page {{ size: {paper} portrait; margin: 12mm; }}
body {{ font-family: "DejaVu Sans", Arial, sans-serif; margin: 0; color: #000; }}
.sheet {{ display: grid; grid-template-columns: repeat({columns}, 1fr); gap: 8mm;
         page-break-after: always; break-after: page; }}
.sheet:last-child {{ page-break-after: auto; break-after: auto; }}
.card {{ border: 0.6mm solid #000; padding: 4mm; break-inside: avoid; }}
.card h1 {{ font-size: {head}pt; margin: 0 0 1mm 0; }}
.card h2 {{ font-size: 10pt; font-weight: normal; margin: 0 0 3mm 0; color: #333; }}
table {{ border-collapse: collapse; width: 100%; font-size: {body}pt; }}
th, td {{ border: 0.3mm solid #555; padding: 1.2mm 2mm; text-align: center; }}
th {{ background: #e8e8e8; }}
td.switch {{ font-weight: bold; }}
.card p {{ font-size: 8pt; margin: 2mm 0 0 0; }}
"""


def _page(cards: list[str], title: str, paper: str, per_sheet: int) -> str:
    if paper.lower() not in PAPER:
        raise MovementError(f"paper must be A4 or Letter, not {paper!r}")
    if per_sheet not in (1, 2, 4):
        raise MovementError(f"cards a sheet must be 1, 2 or 4, not {per_sheet}")
    columns = 1 if per_sheet == 1 else 2
    style = _STYLE.format(paper=PAPER[paper.lower()], columns=columns,
                          head=20 if per_sheet == 1 else 14, body=13 if per_sheet == 1 else 9)
    sheets = ["<div class=\"sheet\">" + "".join(cards[i:i + per_sheet]) + "</div>"
              for i in range(0, len(cards), per_sheet)]
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{style}</style></head><body>\n"
            + "\n".join(sheets) + "\n</body></html>\n")


def _boards(plan: MovementPlan, seating: Seating) -> str:
    boards = plan.board_numbers(seating.board_set)
    return f"{boards[0]}-{boards[-1]}" if len(boards) > 1 else str(boards[0])


def _pair(key: tuple[str | None, str]) -> str:
    return f"{key[1]} {key[0]}" if key[0] else key[1]


def _sharing(plan: MovementPlan, table: int) -> str:
    """A note naming the tables that play this table's boards in the same round (a relay
    Mitchell's first and last tables, an appendix table and its core table)."""
    others = sorted({o.table for s in plan.seatings if s.table == table for o in plan.seatings
                     if o.round == s.round and o.board_set == s.board_set and o.table != table})
    if not others:
        return ""
    names = " and ".join(map(str, others))
    return f"<p>Shares its boards with table{'s' if len(others) > 1 else ''} {names}.</p>"


def table_cards(plan: MovementPlan, event: str = "", *, paper: str = "A4",
                per_sheet: int = 1) -> str:
    """One card per table: each round's NS pair, EW pair and boards (arrow-switched rounds in
    bold; a table that shares its boards with another says so)."""
    name = html.escape(event or plan.name)
    note = ("<p>Rounds in bold are played with the arrows switched: the East-West pair sits "
            "North-South.</p>" if plan.arrow_rounds else "")
    cards = []
    for table in range(1, plan.tables + 1):
        rows = []
        for s in sorted((s for s in plan.seatings if s.table == table), key=lambda s: s.round):
            mark = ' class="switch"' if s.round in plan.arrow_rounds else ""
            rows.append(f"<tr><td>{s.round}</td><td{mark}>{html.escape(_pair(s.ns))}</td>"
                        f"<td{mark}>{html.escape(_pair(s.ew))}</td>"
                        f"<td>{_boards(plan, s)}</td></tr>")
        cards.append(f'<section class="card"><h1>Table {table}</h1><h2>{name} &middot; '
                     f"{html.escape(plan.name)}</h2><table><thead><tr><th>Round</th>"
                     "<th>North-South</th><th>East-West</th><th>Boards</th></tr></thead>"
                     f"<tbody>{''.join(rows)}</tbody></table>{_sharing(plan, table)}{note}</section>")
    return _page(cards, f"{event or plan.name}: table cards", paper, per_sheet)


def guide_cards(plan: MovementPlan, event: str = "", *, paper: str = "A4",
                per_sheet: int = 2) -> str:
    """One card per pair: each round's table, direction, boards and opponents."""
    name = html.escape(event or plan.name)
    cards = []
    for pair in plan.pairs:
        rows = "".join(
            f"<tr><td>{r}</td><td>{t}</td><td>{side}</td><td>{b[0]}-{b[-1]}</td>"
            f"<td>{html.escape(_pair(opp))}</td></tr>"
            for r, t, side, b, opp in plan.pair_rounds(pair))
        cards.append(f'<section class="card"><h1>Pair {html.escape(_pair(pair))}</h1><h2>{name}'
                     "</h2><table><thead><tr><th>Round</th><th>Table</th><th>Sit</th>"
                     f"<th>Boards</th><th>Against</th></tr></thead><tbody>{rows}</tbody>"
                     "</table></section>")
    return _page(cards, f"{event or plan.name}: guide cards", paper, per_sheet)
