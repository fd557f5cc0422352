"""Answers as HTML, built from the result objects the library returns (not from their text).

Each function takes a result (:class:`~cardlab.tabulation.Tabulation`,
:class:`~cardlab.bridge.splits.SplitTable`, :class:`~cardlab.bridge.suitplay.SuitPlayResult`,
:class:`~cardlab.bridge.dd.DDTable`) and returns an HTML fragment: tables whose key figure comes
right after the row's name (so it stays in sight on a phone), figures right-aligned and formatted
as the command line prints them, the exact fraction beside a probability wherever it is exact
(a column of its own and the cell's tooltip). The command line's own text follows, folded.

>>> from cardlab.bridge.splits import suit_split
>>> html = split_html(suit_split(4))
>>> 'data-key="40.70%"' in html, 'title="234/575"' in html
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

from cardlab.board import SEAT_NAMES, SEATS

__all__ = ["Cell", "FigureTable", "figure_table", "cli_text", "tabulation_html", "split_html", "suitplay_html",
           "dd_html", "hand_diagram", "percent", "makes_html", "leads_html", "ranking_html",
           "partial_note"]


@dataclass(frozen=True)
class Cell:
    """A table cell: its ``text``, the exact value behind it (``exact``: the tooltip) and whether it
    is the row's key figure (``key``: bold, kept in sight)."""

    text: str
    exact: str | None = None
    key: bool = False


@dataclass(frozen=True)
class FigureTable:
    """A table of figures: ``caption``; ``columns`` (their headings); ``numeric`` (the columns
    aligned right); ``rows`` of :class:`Cell`; ``ident`` (the table's id, for tests and links);
    ``sortable``: its headings sort the rows in the browser (static/sort-table.js), off for a table
    whose order is its meaning (a total row last)."""

    caption: str
    columns: tuple[str, ...]
    rows: Sequence[tuple[Cell, ...]]
    numeric: frozenset[int] = field(default_factory=frozenset)
    ident: str = ""
    sortable: bool = True


def figure_table(table: FigureTable) -> str:
    """``table`` as HTML: a captioned table in a box that scrolls sideways on its own, its first
    column sticky, so the name and key figure of each row stay in sight."""
    from cardlab.web.render import fragment

    return fragment("_figure_table.html", t=table)


def cli_text(text: str, command: str = "") -> str:
    """The command line's own text of the answer, folded (``<details>``) under the tables."""
    from cardlab.web.render import fragment

    return fragment("_cli_text.html", text=text.rstrip(), command=command)


def percent(value: Fraction | float, places: int = 2) -> str:
    """A probability as a percentage, as the command line prints it.

    >>> percent(Fraction(234, 575))
    '40.70%'
    """
    return f"{float(value) * 100:.{places}f}%"


def _ratio(value: Fraction) -> str:
    return f"{value.numerator:,}/{value.denominator:,}"


# --- hand statistics ---------------------------------------------------------------------------------

def tabulation_html(result: Any, plot_html: str = "") -> str:
    """A :class:`~cardlab.tabulation.Tabulation` (``bridge hcp``, ``shape``, ``joint``): the
    probability of each value first (6 decimals, as the command line; the exact fraction beside
    it), P(at least) and the count. A joint table shows its heat map (``plot_html``) first and
    its rows folded below it; a single table shows its bars after the table."""
    from cardlab.distribution import format_value

    main = result.main
    exact = result.exact
    both = exact is not None and result.simulated is not None
    rows = result.rows()
    joint = result.joint
    head = " × ".join(main.axes) if joint else (main.name or "value")
    if both:
        columns: tuple[str, ...] = (head, "exact", "simulated", "95% interval", "exact fraction", "count")
    else:
        columns = (head, "probability", *(("at least",) if "at_least" in rows[0] else ()),
                   *(("95% interval",) if exact is None else ("exact fraction",)), "count")
    body: list[tuple[Cell, ...]] = []
    total = main.total
    intervals = None
    if exact is None:
        lo, hi = main.confidence_interval()
        intervals = list(zip(lo.tolist(), hi.tolist()))
    for i, row in enumerate(rows):
        value = Cell(format_value(main.values[i]))
        fraction = _ratio(Fraction(row["count"], total)) if exact is not None else None
        p = Cell(f"{row['probability']:.6f}", fraction, key=True)
        if both:
            lo_, hi_ = row["ci95"]
            cells = (value, p, Cell(f"{row['simulated_probability']:.6f}"),
                     Cell(f"{lo_:.6f} – {hi_:.6f}"), Cell(fraction or ""), Cell(f"{row['count']:,}"))
        else:
            extra = (Cell(f"{row['at_least']:.6f}"),) if "at_least" in row else ()
            last = Cell(fraction or "") if intervals is None else Cell(
                f"{intervals[i][0]:.6f} – {intervals[i][1]:.6f}")
            cells = (value, p, *extra, last, Cell(f"{row['count']:,}"))
        body.append(cells)
    table = FigureTable(result.title, columns, body, frozenset(range(1, len(columns))), "figures")
    parts = []
    if joint:
        parts.append(plot_html)
        parts.append(_folded(f"The {len(body):,} rows (each pair of values and its probability)", figure_table(table)))
    else:
        parts.append(figure_table(table))
        parts.append(plot_html)
    if result.interrupted:
        sim = result.simulated.simulation
        parts.insert(0, partial_note(f"{sim.trials:,} of {sim.requested:,} trials were simulated"))
    if result.note:
        parts.append(f"<p class=\"notes\">{_escape(result.note)}</p>")
    return "\n".join(parts)


def _escape(text: str) -> str:
    import html

    return html.escape(text)


def _folded(summary: str, inner: str) -> str:
    return f"<details class=\"rows\"><summary>{_escape(summary)}</summary>{inner}</details>"


def partial_note(what: str) -> str:
    """The line above an answer cut short by Cancel, as the command line marks it after Ctrl-C.

    >>> partial_note("3 of 9 deals were solved")
    '<p class="partial" role="status"><strong>Partial result:</strong> interrupted; 3 of 9 deals were solved.</p>'
    """
    return (f"<p class=\"partial\" role=\"status\"><strong>Partial result:</strong> interrupted; "
            f"{_escape(what)}.</p>")


# --- suit splits ------------------------------------------------------------------------------------

def _split_rows(rows: Sequence[Any], caption: str, ident: str) -> str:
    plays = any(r.likelihood != 1 for r in rows)
    columns = ("West", "East", "probability", "exact", "ways", *(("chance of plays",) if plays else ()))
    body = [(Cell(r.west), Cell(r.east), Cell(percent(r.probability), _ratio(r.probability), key=True),
             Cell(_ratio(r.probability)), Cell(f"{r.count:,}"),
             *((Cell(_ratio(r.likelihood)),) if plays else ())) for r in rows]
    return figure_table(FigureTable(caption, columns, body, frozenset(range(2, len(columns))), ident))


def split_html(result: Any) -> str:
    """A :class:`~cardlab.bridge.splits.SplitTable` (``bridge split``): the splits either way,
    by seat (or each layout of the named cards), by length, and where each named card lies."""
    from cardlab.web.render import fragment

    tables = []
    if result.either_way:
        tables.append(_split_rows(result.either_way, "Split (either way)", "either-way"))
    tables.append(_split_rows(result.rows, "Layouts" if result.lengths else "By seat", "by-seat"))
    if result.lengths:
        tables.append(_split_rows(result.lengths, "By length", "by-length"))
    places = [{"card": p.card, "west": percent(p.west), "west_exact": _ratio(p.west), "east": percent(1 - p.west),
               "east_exact": _ratio(1 - p.west)} for p in result.places]
    return fragment("_split.html", r=result, tables=tables, places=places,
                    played=", ".join(f"{s}:{'x' if c == 'X' else c}" for s, c in result.played))


# --- suit play -------------------------------------------------------------------------------------

def suitplay_html(result: Any) -> str:
    """A :class:`~cardlab.bridge.suitplay.SuitPlayResult` (``bridge suitplay``): the chance of
    each number of tricks with its best line as numbered tricks (and what to do when another
    card appears), the line for the most tricks on average, and the tricks of each line per layout."""
    from cardlab.web.render import fragment

    lines = []
    for t in result.targets:
        lines.append({"title": f"{t.tricks} trick{'s' if t.tricks != 1 else ''}", "figure": percent(t.probability_exact),
                      "exact": _ratio(t.probability_exact), "tricks": _tricks(t.steps())})
    mean = result.mean_line
    lines.append({"title": "Most tricks on average", "figure": f"{float(mean.probability_exact):.4f}",
                  "exact": _ratio(mean.probability_exact), "tricks": _tricks(mean.steps())})
    ids = result._line_ids()
    columns = ("West", "East", "weight", "exact", *(f"line {i}" if i != "mean" else "mean line" for i in ids))
    body = [(Cell(r.west), Cell(r.east), Cell(percent(r.weight), _ratio(r.weight), key=True), Cell(_ratio(r.weight)),
             *(Cell(str(r.tricks[i])) for i in ids)) for r in result.layouts]
    layouts = figure_table(FigureTable("Tricks per layout (columns: the line for each target, and the mean line)",
                                       columns, body, frozenset(range(2, len(columns))), "layouts"))
    return fragment("_suitplay.html", r=result, lines=lines, layouts=layouts)


def _tricks(steps: Sequence[Any]) -> list[dict[str, Any]]:
    """Steps grouped by trick: each trick's plays, and the alternatives after them."""
    tricks: list[dict[str, Any]] = []
    for step in steps:
        if not tricks or tricks[-1]["n"] != step.trick:
            tricks.append({"n": step.trick, "plays": [], "alternatives": []})
        text = step.text.rstrip(";:.")
        if not tricks[-1]["plays"]:
            text = text.removeprefix("then ")
            text = text[:1].upper() + text[1:]
        tricks[-1]["plays"].append(text)
        seat = step.text.split()[0]
        tricks[-1]["alternatives"].extend(_instead(a.strip("[]"), seat) for a in step.alternatives)
    return tricks


def _instead(alternative: str, seat: str) -> str:
    """``if the J appears: ...`` as ``If West plays the J: ...`` (the seat of the step it follows).

    >>> _instead("if he shows out: lead the 8 from North", "West")
    'If West shows out: lead the 8 from North'
    """
    when, _, what = alternative.partition(": ")
    if when == "if he shows out":
        when = f"if {seat} shows out"
    elif when.startswith("if ") and when.endswith(" appears"):
        when = f"if {seat} plays {when[3:-8]}"
    return f"{when[:1].upper()}{when[1:]}: {what}"


# --- double dummy ----------------------------------------------------------------------------------

def _strain_columns() -> tuple[tuple[str, str, str, str], ...]:
    """Each strain of ``board.STRAINS`` as the DD grid shows it: letter, symbol, name, CSS class."""
    from cardlab.board import STRAINS
    from cardlab.cards import SUIT_NAMES, SUIT_SYMBOLS

    suits = tuple((s, SUIT_SYMBOLS[i], SUIT_NAMES[i], s.lower()) for i, s in enumerate(STRAINS[:4]))
    return (*suits, ("NT", "NT", "notrump", "nt"))


_DD_COLUMNS = _strain_columns()


def hand_diagram(deal: str, dealer: str | None = None, vulnerability: str | None = None) -> str:
    """A PBN deal (``N:AKQ2.T98.765.432 ...``) as a hand diagram: North on top, West and East
    beside the compass, South below; each suit's symbol coloured (red hearts and diamonds) and
    named for a screen reader; each hand's HCP."""
    from cardlab.board import Vulnerability
    from cardlab.deal import Deal
    from cardlab.report.site.model import hand_record
    from cardlab.web.render import fragment

    vul = Vulnerability.parse(vulnerability) if vulnerability else Vulnerability.NONE
    record = hand_record(1, Deal.from_pbn(deal), vul, with_dd=False)
    names = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
    return fragment("_diagram.html", hand=record, dealer=dealer, vul=vul.value, names=names,
                    seats=(("N", "North"), ("W", "West"), ("E", "East"), ("S", "South")))


def dd_html(table: Any) -> str:
    """A :class:`~cardlab.bridge.dd.DDTable` (``bridge dd``): the hand diagram, the tricks as a
    grid of the four declarers by the five strains, and par below."""
    from cardlab.web.render import fragment

    seats = (("N", "North"), ("E", "East"), ("S", "South"), ("W", "West"))
    data = table.to_dict()
    return fragment("_dd.html", t=table, tricks=data["tricks"], par=data["par"], seats=seats, strains=_DD_COLUMNS,
                    diagram=hand_diagram(table.deal, table.dealer.value, table.vulnerability.value))


# --- contracts and leads over random deals ------------------------------------------------------------

def _interval(ci: Sequence[float], scale: float = 100.0, form: str = ".1f", unit: str = "%") -> str:
    return f"{scale * ci[0]:{form}}{unit} – {scale * ci[1]:{form}}{unit}"


def makes_html(*results: Any, fixed: dict[str, str] | None = None) -> str:
    """:class:`~cardlab.bridge.dd_sim.MakesResult` s (``bridge makes``): the contracts side by side
    (how often each makes first, its interval, mean tricks and expected score), the comparison of
    two contracts on the same deals, and each one's tricks, folded. Several results (the first
    contract against each other one, on the same deals) show every contract once and each
    comparison. ``fixed``: the seats whose cards were given (``{"N": "AK32.K54.A32.K32"}``), named
    in the line above."""
    from cardlab.web.render import fragment

    data = results[0].to_dict()
    more = [r.to_dict() for r in results[1:]]
    contracts = data["contracts"] + [d["contracts"][1] for d in more]
    names = [f"{c['contract']} by {c['declarer']}" for c in contracts]
    rows: list[tuple[Cell, ...]] = []
    for name, c in zip(names, contracts):
        score = c.get("score")
        rows.append((Cell(name), Cell(f"{100 * c['make']['probability']:.1f}%", key=True),
                     Cell(_interval(c["make"]["ci95"])),
                     Cell(f"{c['mean_tricks']:.2f}" if "mean_tricks" in c else "—"),
                     Cell(f"{score['mean']:+.0f}" if score else "—"),
                     Cell(_interval(score["ci95"], 1, "+.0f", "") if score else "—")))
    columns: tuple[str, ...] = ("contract", "makes", "95% interval", "mean tricks", "expected score",
                                "score 95% interval")
    if not any("mean_tricks" in c for c in contracts):  # make or fail only (DDS's target mode)
        columns, rows = columns[:3], [row[:3] for row in rows]
    table = figure_table(FigureTable(f"{data['deals']:,} deals: how often each contract makes", columns, rows,
                                     frozenset(range(1, len(columns))), "makes"))
    tricks = ""
    if all("tricks" in c for c in contracts) and contracts:
        counts = [{t["tricks"]: t for t in c["tricks"]} for c in contracts]
        seen = sorted(set().union(*counts))
        body = [(Cell(str(t)), *(Cell(f"{100 * k[t]['probability']:.2f}%" if t in k else "—")
                                  for i, k in enumerate(counts))) for t in seen]
        tricks = _folded("Tricks taken, each contract side by side",
                         figure_table(FigureTable("Share of the deals on which declarer takes each number of tricks",
                                                  ("tricks", *names), body, frozenset(range(1, len(names) + 1)),
                                                  "tricks")))
    comparisons = [dict(c, first_name=_by(c["first"]), second_name=_by(c["second"]), imps_text=f"{c['imps']['mean']:+.2f}", imps_ci=_interval(c["imps"]["ci95"], 1, "+.2f", ""),
                        mp_text=f"{100 * c['matchpoints']['mean']:.1f}%", mp_ci=_interval(c["matchpoints"]["ci95"]),
                        verdict=_better(c))
                   for c in (d.get("comparison") for d in [data, *more]) if c]
    given = "; ".join(f"{_SEAT_NAMES[seat]} {cards}" for seat, cards in sorted(
        (fixed or {}).items(), key=lambda item: SEATS.index(item[0])) if seat in _SEAT_NAMES)
    parts = [fragment("_makes.html", d=data, table=table, tricks=tricks, comparisons=comparisons, given=given)]
    for d in [data, *more]:
        if d.get("interrupted"):
            parts.insert(0, partial_note(f"{d['deals']:,} of {d['requested']:,} deals were solved"))
            break
    return "\n".join(parts)


def _better(comparison: dict[str, Any]) -> str:
    """Which of two contracts scores more at IMPs and at matchpoints, or that the deals cannot
    tell (the 95% interval holds 0 IMPs a board, or 50% of the matchpoints).

    >>> imps, mp = {"mean": -0.26, "ci95": [-0.31, -0.2]}, {"mean": 0.72, "ci95": [0.68, 0.76]}
    >>> _better({"first": "3NT S", "second": "4S S", "imps": imps, "matchpoints": mp})
    'At IMPs 4S by S is better; at matchpoints 3NT by S is better'
    >>> _better({"first": "3NT S", "second": "4S S", "imps": {"mean": 0.3, "ci95": [0.1, 0.5]}, "matchpoints": mp})
    '3NT by S is better at IMPs and at matchpoints'
    >>> _better({"first": "3NT S", "second": "4S S", "imps": {"mean": 0.01, "ci95": [-0.1, 0.12]},
    ...          "matchpoints": {"mean": 0.5, "ci95": [0.4, 0.6]}})
    'Too close to call on these deals, at IMPs and at matchpoints'
    """
    said = []
    for scoring, middle in (("imps", 0.0), ("matchpoints", 0.5)):
        low, high = comparison[scoring]["ci95"]
        said.append(None if low <= middle <= high else _by(comparison["first"] if low > middle else comparison["second"]))
    imps, mp = said
    if imps == mp:
        return (f"{imps} is better" if imps else "Too close to call on these deals,") + " at IMPs and at matchpoints"
    return "; ".join(f"{name} " + (f"{better} is better" if better else "too close to call")
                     for name, better in (("At IMPs", imps), ("at matchpoints", mp)))


_SEAT_NAMES = dict(zip(SEATS, SEAT_NAMES))


def _by(contract: str) -> str:
    """``3NT S`` (the JSON's name of a contract) as ``3NT by S``."""
    level, _, declarer = contract.rpartition(" ")
    return f"{level} by {declarer}" if level else contract


def leads_html(result: Any) -> str:
    """A :class:`~cardlab.bridge.dd_sim.LeadResult` (``bridge lead``): the leads ranked, the set rate
    first, with the defence's mean tricks when they were counted."""
    data = result.to_dict()
    with_tricks = any("defence_tricks" in lead for lead in data["leads"])
    rows = []
    for lead in data["leads"]:
        t = lead.get("defence_tricks")
        rows.append((Cell(lead["lead"]), Cell(f"{100 * lead['set']['probability']:.1f}%", key=True),
                     Cell(_interval(lead["set"]["ci95"])),
                     *((Cell(f"{t['mean']:.2f}" if t else "—"),
                        Cell(_interval(t["ci95"], 1, ".2f", "") if t else "—")) if with_tricks else ())))
    columns = ("lead", "sets the contract", "95% interval", *(("defence tricks", "95% interval") if with_tricks else ()))
    html = figure_table(FigureTable(f"Opening leads against {data['contract']} by {data['declarer']}, "
                                    f"{data['deals']:,} deals (seed {data['seed']}), best first",
                                    columns, rows, frozenset(range(1, len(columns))), "leads"))
    if data.get("interrupted"):
        html = partial_note(f"{data['deals']:,} of {data['requested']:,} deals were solved") + html
    return html


# --- scoring ------------------------------------------------------------------------------------------

_DIRECTIONS = {"NS": "North-South", "EW": "East-West"}


def ranking_html(result: Any, title: str) -> str:
    """A :class:`~cardlab.scoring.session.SessionResult` (``bridge score``): the ranking of each
    direction, the percentage (or the IMPs) right after the place, then the pair and its names."""
    pairs = result.to_dict()["pairs"]
    directions: dict[str, list[dict[str, Any]]] = {}
    for pair in pairs:
        directions.setdefault(str(pair.get("direction") or ""), []).append(pair)
    parts = [f'<p class="lead-in"><strong>{_escape(title)}</strong></p>']
    for direction, rows in directions.items():
        percent_scored = "percentage" in rows[0]
        columns = ("place", "%" if percent_scored else "IMPs", *(("MPs",) if percent_scored else ()), "pair",
                   "names", "boards")
        body = []
        for r in rows:
            figure = f"{r['percentage']:.2f}" if percent_scored else f"{r['total']:+.2f}"
            body.append((Cell(str(r["place"])), Cell(figure, key=True),
                         *((Cell(f"{r['matchpoints']:.2f}"),) if percent_scored else ()),
                         Cell(str(r["pair"])), Cell(" & ".join(r.get("names") or ())), Cell(str(r["boards"]))))
        numeric = frozenset({1, 2, len(columns) - 1} if percent_scored else {1, len(columns) - 1})
        parts.append(figure_table(FigureTable(_DIRECTIONS.get(direction, direction or "Ranking"), columns, body,
                                              numeric, f"ranking-{direction.lower() or 'all'}")))
    return "\n".join(parts)
