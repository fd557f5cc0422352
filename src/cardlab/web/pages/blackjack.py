"""Blackjack by combinatorial analysis: ``cardlab casino blackjack`` from a page (the same calls,
:func:`cardlab.casino.blackjack.analyse` and, for a count,
:func:`cardlab.casino.blackjack_efficiency.count_figures`). The house edges first, the basic
strategy as players read it (hard, soft and pair grids, the dealer's up card across, each cell
coloured by its action and lettered, the action in words for a screen reader), the effects of
removal and a count's figures when asked.

The table's rules are read here for the shoe simulator's page too (:func:`table_rules`,
:func:`make_rules`, :func:`rules_argv`): one reading of the form, one command line.

>>> options = table_rules({"decks": "6", "dealer": "h17", "surrender": "late"})
>>> make_rules(options).describe()
'6 decks, H17, double any two, DAS, peek, blackjack 3:2, late surrender'
>>> " ".join(rules_argv(options))
'--decks 6 --h17 --surrender'
>>> table_rules({"shoe": "4,4,x"})
Traceback (most recent call last):
...
cardlab.errors.BlackjackError: Shoe: a shoe is ten counts (A,2,...,9,T), got '4,4,x'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from cardlab.web.page import Answer, JobSpec, Page, field_choice, field_number, field_text

__all__ = ["PAGE", "compute", "table_rules", "make_rules", "rules_argv", "strategy_grids", "LETTERS"]

#: Each letter of the basic strategy table: its CSS class and what it says in words.
LETTERS: dict[str, tuple[str, str]] = {
    "H": ("h", "hit"), "S": ("s", "stand"), "D": ("d", "double, else hit"), "Ds": ("ds", "double, else stand"),
    "P": ("p", "split"), "R": ("r", "surrender, else the hit or stand rule"), "-": ("none", "not dealt from this shoe"),
}
_SURRENDER = ("none", "late", "early")
_NO_YES = ("no", "yes", "on")  # "on": a JSON body's true (cardlab.web.api.body_fields)


def _flag(form: Mapping[str, Any], name: str, label: str) -> bool:
    """A yes/no choice that is "no" unless asked for (a JSON ``true`` says yes too)."""
    return field_choice(form, name, label, _NO_YES) != "no"


def table_rules(form: Mapping[str, Any], *, post_split: bool = True) -> dict[str, Any]:
    """The table's rules of a form as plain values (they travel to the job's process), each field
    checked, the rules as a whole checked by :class:`~cardlab.casino.blackjack_rules.Rules`;
    ``post_split``: the exact engine's post-split play may be chosen (not on the shoe simulator's
    page, which plays the table's split hands as the table says). The empty form is
    the command line's defaults: six decks, S17, double any two, DAS, peek, 3:2."""
    from cardlab.casino.blackjack_rules import DOUBLE_RULES, POST_SPLIT

    options: dict[str, Any] = {
        "decks": field_number(form, "decks", "Decks", 1, 8, default=6),
        "shoe": field_text(form, "shoe", "Shoe", max_length=200) or None,
        "h17": field_choice(form, "dealer", "Dealer", ("s17", "h17")) == "h17",
        "double": field_choice(form, "double", "Double on", DOUBLE_RULES),
        "das": field_choice(form, "das", "Double after a split", ("yes", "no")) == "yes",
        "peek": field_choice(form, "peek", "Hole card", ("peek", "no-hole-card")) == "peek",
        "pays": field_choice(form, "pays", "Blackjack pays", ("3:2", "6:5")),
        "surrender": field_choice(form, "surrender", "Surrender", _SURRENDER),
        "split_hands": int(field_choice(form, "split_hands", "Hands from a pair", ("2", "3", "4"))),
        "resplit_aces": _flag(form, "resplit_aces", "Resplit aces"),
    }
    if post_split:
        options["post_split"] = field_choice(form, "post_split", "Post-split play", POST_SPLIT)
    if options["shoe"] is not None:
        options["shoe"] = ",".join(map(str, make_rules(options).cards))  # as typed (4-4-...) or not, one spelling
    make_rules(options)
    return options


def make_rules(options: Mapping[str, Any]) -> Any:
    """The :class:`~cardlab.casino.blackjack_rules.Rules` of :func:`table_rules`' values; a bad
    shoe is the library's message, named as the form names the field."""
    from cardlab.casino.blackjack_rules import Rules, parse_shoe
    from cardlab.cli.output import about_option

    with about_option("Shoe"):
        composition = parse_shoe(options["shoe"]) if options["shoe"] else None
    return Rules(decks=options["decks"], h17=options["h17"], double=options["double"], das=options["das"],
                 peek=options["peek"], blackjack_pays=Fraction(3, 2) if options["pays"] == "3:2" else Fraction(6, 5),
                 surrender=options["surrender"] == "late", early_surrender=options["surrender"] == "early",
                 composition=composition, split_hands=options.get("split_hands", 2),
                 resplit_aces=options.get("resplit_aces", False), post_split=options.get("post_split", "cdp1"))


def rules_argv(options: Mapping[str, Any]) -> list[str]:
    """The command line's options for these rules (``cardlab casino blackjack`` and ``shoe``)."""
    argv = ["--shoe", options["shoe"]] if options["shoe"] else ["--decks", str(options["decks"])]
    argv += [flag for flag, on in (("--h17", options["h17"]), ("--no-das", not options["das"]),
                                   ("--no-peek", not options["peek"]), ("--surrender", options["surrender"] == "late"),
                                   ("--early-surrender", options["surrender"] == "early")) if on]
    if options["double"] != "any":
        argv += ["--double", options["double"]]
    if options["pays"] != "3:2":
        argv += ["--blackjack-pays", options["pays"]]
    if options.get("split_hands", 2) != 2:
        argv += ["--split-hands", str(options["split_hands"])]
    if options.get("resplit_aces"):
        argv.append("--resplit-aces")
    if options.get("post_split", "cdp1") != "cdp1":
        argv += ["--post-split", options["post_split"]]
    return argv


def prepare(form: Any) -> JobSpec:
    """The form as an analysis job: the rules and the count checked here (a bad one is refused at
    once with the command line's message)."""
    from cardlab.casino.blackjack_sim import parse_count
    from cardlab.cli.output import about_option

    rules = table_rules(form)
    count = field_text(form, "count", "Count", max_length=200) or None
    if count is not None:
        with about_option("Count"):
            parse_count(count)
    removal = _flag(form, "removal", "Effects of removal")
    hands = _flag(form, "hands", "Every first hand")
    return JobSpec("cardlab.web.pages.blackjack:compute",
                   {"rules": rules, "removal": removal, "hands": hands, "count": count},
                   f"blackjack, {make_rules(rules).describe()}")


def strategy_grids(result: Any) -> list[dict[str, Any]]:
    """The basic strategy table of a :class:`~cardlab.casino.blackjack.BlackjackAnalysis` as
    three grids (hard totals, soft totals, pairs), each row the command line's row (``name``) with
    a short label and its cells (letter, CSS class, words).

    >>> from cardlab.casino.blackjack import analyse
    >>> from cardlab.casino.blackjack_rules import Rules
    >>> grids = strategy_grids(analyse(Rules(composition=(1, 1, 1, 1, 1, 1, 1, 1, 1, 4))))
    >>> [g["ident"] for g in grids], grids[2]["rows"][-1]["label"]
    (['hard', 'soft', 'pairs'], 'A-A')
    """
    groups = {"hard": ("Hard totals", "hard"), "soft": ("Soft totals", "soft"), "pair": ("Pairs", "pairs")}
    grids: dict[str, dict[str, Any]] = {}
    for name, letters in result.rows():
        kind, _, rest = name.partition(" ")
        caption, ident = groups[kind]
        label = rest.split("(")[-1].rstrip(")") if kind == "soft" else rest.replace("T", "10")
        cells = [{"letter": letter, "css": LETTERS.get(letter, ("none", ""))[0],
                  "words": LETTERS.get(letter, ("", letter))[1]} for letter in letters]
        grids.setdefault(ident, {"caption": caption, "ident": ident, "rows": []})["rows"].append(
            {"name": name, "label": label, "cells": cells})
    return list(grids.values())


def _edges_table(result: Any) -> str:
    from cardlab.web.answers import Cell, FigureTable, figure_table

    rows = [("basic strategy", result.basic_edge), ("composition-dependent", result.optimal_edge),
            ("composition-dependent, never splitting", result.optimal_edge_no_splits),
            ("composition-dependent, insuring when it pays", result.optimal_edge - result.insurance)]
    body = [(Cell(name), Cell(f"{edge:.4%}", key=i == 0)) for i, (name, edge) in enumerate(rows)]
    return figure_table(FigureTable("House edge (exact; below 0 the player has the edge)", ("strategy", "house edge"),
                                    body, frozenset({1}), "bj-edges", sortable=False))


def _removal_table(removal: dict[str, float]) -> str:
    from cardlab.casino.blackjack_rules import RANKS
    from cardlab.web.answers import Cell, FigureTable, figure_table

    order = [r for r in (*RANKS[1:], "A") if r in removal]
    body = [(Cell("10" if r == "T" else r), Cell(f"{removal[r] * 100:+.3f}")) for r in order]
    return figure_table(FigureTable("The player's expectation, % per card of each rank taken out",
                                    ("card", "effect (%)"), body, frozenset({1}), "bj-removal"))


def _count_table(count: dict[str, Any]) -> str:
    from cardlab.casino.blackjack_rules import RANKS
    from cardlab.web.answers import Cell, FigureTable, figure_table

    tags = ", ".join(f"{'10' if r == 'T' else r} {t:+d}" if t else f"{'10' if r == 'T' else r} 0"
                     for r, t in zip(RANKS, count["tags"]))
    body = [(Cell(name), Cell(f"{count[key]:.3f}")) for name, key in (
        ("betting correlation", "betting_correlation"), ("playing efficiency", "playing_efficiency"),
        ("insurance correlation", "insurance_correlation"))]
    return figure_table(FigureTable(f"Count {count['count']} ({tags})", ("figure", "value"), body, frozenset({1}),
                                    "bj-count", sortable=False))


def _hands_table(hands: list[dict[str, Any]]) -> str:
    from cardlab.casino.blackjack_engine import ACTIONS
    from cardlab.web.answers import Cell, FigureTable, figure_table

    shown = [a for a in ACTIONS if any(row[a] is not None for row in hands)]
    body = [(Cell(f"{row['hand']} v {row['up']}"), *(Cell("" if row[a] is None else f"{row[a]:+.6f}",
                                                          key=a == row["best"]) for a in shown), Cell(row["best"]))
            for row in hands]
    return figure_table(FigureTable("Every first hand against each up card: expected value given no dealer blackjack",
                                    ("hand v up card", *shown, "best"), body, frozenset(range(1, len(shown) + 1)), "bj-hands"))


def compute(progress: Any, *, rules: dict[str, Any], removal: bool, hands: bool, count: str | None) -> Answer:
    """The analysis as ``cardlab casino blackjack`` makes it (the same calls, in stages so the page
    can say which is running); the house edges, the grids, removal, count; CSV and JSON."""
    import shlex
    from dataclasses import replace

    from cardlab.casino.blackjack import UP_ORDER, analyse, effects_of_removal, split_model
    from cardlab.casino.blackjack_rules import RANKS
    from cardlab.web.answers import cli_text
    from cardlab.web.render import fragment

    table = make_rules(rules)
    progress(0.0, "basic strategy and the exact house edges")
    result = analyse(table, hands=hands)
    tags = None
    if count is not None:
        from cardlab.casino.blackjack_sim import parse_count

        tags = parse_count(count)
    if removal or tags is not None:
        progress(0.25, "effects of removal: ten more analyses")
        result = replace(result, removal=effects_of_removal(table, result.strategy))
    if tags is not None and result.removal is not None:
        from cardlab.casino.blackjack_efficiency import count_figures

        progress(0.5, f"the {tags[0]} count's playing efficiency: about ten more analyses")
        result = replace(result, count=count_figures(table, *tags, result.removal))
    argv = ["cardlab", "casino", "blackjack", *rules_argv(rules),
            *(["--removal"] if removal and tags is None else []), *(["--hands"] if hands else []),
            *(["--count", count] if count is not None else [])]
    text = result.table()
    html = fragment("blackjack_answer.html", r=result, splits=split_model(table), edges=_edges_table(result), grids=strategy_grids(result),
                    ups=["10" if RANKS[u] == "T" else RANKS[u] for u in UP_ORDER],
                    legend=[(letter, css, words) for letter, (css, words) in LETTERS.items()],
                    removal=None if result.removal is None else _removal_table(result.removal),
                    count=None if result.count is None else _count_table(result.count),
                    hands=None if result.hands is None else _hands_table(result.hands))
    return Answer(html + cli_text(text, shlex.join(argv)),
                  {"blackjack.csv": result.to_csv().encode(), "blackjack.json": result.to_json().encode()},
                  {"table": text, "json": result.to_dict(), "command": argv[1:]})


PAGE = Page(
    slug="blackjack", title="Blackjack",
    summary="Exact house edge of basic and composition-dependent strategy for any rules, the basic "
            "strategy chart, effects of removal and a count's correlations.",
    template="blackjack.html", prepare=prepare, quick_wait=6.0,
    defaults={"decks": "6", "dealer": "s17", "double": "any", "das": "yes", "peek": "peek", "pays": "3:2",
              "surrender": "none", "split_hands": "2", "resplit_aces": "no", "post_split": "cdp1", "removal": "no",
              "hands": "no"},
)
