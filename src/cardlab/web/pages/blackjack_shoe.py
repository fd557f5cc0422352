"""The blackjack shoe simulator: ``cardlab casino shoe`` from a page (the same call,
:func:`cardlab.casino.blackjack_sim.simulate_shoe`). The flat result and its interval first, the
exact house edge of the same strategy at the top of the shoe beside it, the bet spread's win
rate, the risk of ruin and the flat result per true count. Cancel keeps the rounds played, as
Ctrl-C does at the command line."""

from __future__ import annotations

import shlex
from typing import Any

from cardlab.web.page import Answer, JobSpec, Page, field_decimal, field_number, field_text
from cardlab.web.pages.blackjack import make_rules, rules_argv, table_rules

__all__ = ["PAGE", "compute", "MAX_ROUNDS"]

MAX_ROUNDS = 10**9
"""The most rounds a page asks for (about a minute of one core, well inside the job's time limit,
over which a job ends without its partial result; the command line takes more)."""


def prepare(form: Any) -> JobSpec:
    """The form as a simulation job: rules, count and spread checked here with the command
    line's messages (a shoe too small to simulate is the simulator's own message, from the job)."""
    from cardlab.casino.blackjack_sim import parse_count, parse_spread
    from cardlab.cli.output import about_option

    rules = table_rules(form, post_split=False)
    count = field_text(form, "count", "Count", max_length=200) or "hi-lo"
    with about_option("Count"):
        parse_count(count)
    spread = field_text(form, "spread", "Spread", max_length=1000) or None
    with about_option("Spread"):
        parse_spread(spread)
    kwargs = {"rules": rules, "count": count, "spread": spread,
              "penetration": field_decimal(form, "penetration", "Penetration", 0, 0.99, default=0.75),
              "bankroll": field_decimal(form, "bankroll", "Bankroll", 0, 1e12, low_open=True),
              "rounds": field_number(form, "rounds", "Rounds", 1, MAX_ROUNDS, default=1_000_000),
              "seed": field_number(form, "seed", "Seed", 0, 2**128 - 1)}
    return JobSpec("cardlab.web.pages.blackjack_shoe:compute", kwargs,
                   f"{kwargs['rounds']:,} rounds of {make_rules(rules).describe(post_split=False)}")


def _interval(low: float, high: float, form: str) -> str:
    return f"{low:{form}} to {high:{form}}"


def _results_table(sim: Any) -> str:
    from cardlab.web.answers import Cell, FigureTable, figure_table

    low, high = sim.flat_interval
    rows = [(Cell("flat bet"), Cell(f"{sim.flat_mean:+.4%}", key=True), Cell(_interval(low, high, "+.4%")))]
    if sim.exact_edge is not None:
        where = ("inside the interval" if low <= -sim.exact_edge <= high else "OUTSIDE the interval") \
            if sim.penetration == 0 else "a cut card moves the flat result a little"
        rows.append((Cell("exact, top of the shoe"), Cell(f"{-sim.exact_edge:+.4%}"), Cell(where)))
    if sim.penetration > 0:
        wl, wh = sim.won_interval
        rows += [(Cell("spread, units a round"), Cell(f"{sim.won_mean:+.5f}"), Cell(_interval(wl, wh, "+.5f"))),
                 (Cell("spread, per 100 rounds"), Cell(f"{100 * sim.won_mean:+.3f}"),
                  Cell(_interval(100 * wl, 100 * wh, "+.3f"))),
                 (Cell("average bet"), Cell(f"{sim.average_bet:.3f}"), Cell("")),
                 (Cell("sd a round"), Cell(f"{sim.won_sd:.3f}"), Cell(""))]
    ruin = sim.ruin()
    if ruin is not None:
        rows.append((Cell(f"risk of ruin, {sim.bankroll:g} units"), Cell(f"{ruin[0]:.2%}"),
                     Cell(_interval(ruin[1].low, ruin[1].high, ".2%"))))
    return figure_table(FigureTable(f"{sim.rounds:,} rounds: the result per round (units of the base bet)",
                                    ("figure", "value", "95% interval"), rows, frozenset({1, 2}), "shoe-results", sortable=False))


def _counts_table(sim: Any) -> str:
    from cardlab.casino.blackjack_sim import TC_MAX
    from cardlab.web.answers import Cell, FigureTable, figure_table

    rows = [(Cell(f"{r['true_count']:+d}" if r["true_count"] else "0"), Cell(f"{r['flat_mean']:+.4%}", key=True),
             Cell(_interval(r["low"], r["high"], "+.4%")), Cell(f"{r['rounds']:,}"), Cell(f"{r['frequency']:.4f}"),
             Cell(str(sim.spread[r["true_count"] + TC_MAX])))
            for r in sim.bin_rows()]
    return figure_table(FigureTable("The flat result at each true count", ("true count", "flat mean", "95% interval",
                                                                          "rounds", "share", "bet"),
                                    rows, frozenset({1, 2, 3, 4, 5}), "shoe-counts"))


def compute(progress: Any, *, rules: dict[str, Any], count: str, spread: str | None, penetration: float,
            bankroll: float | None, rounds: int, seed: int | None) -> Answer:
    """The simulation as ``cardlab casino shoe`` runs it (one worker: the figures do not depend on
    it); the results, the true-count rows, CSV and JSON. Cancelled, the rounds played so far,
    marked partial as the command line marks them after Ctrl-C."""
    from cardlab.casino.blackjack_sim import simulate_shoe
    from cardlab.web.answers import cli_text, partial_note
    from cardlab.web.render import fragment

    progress(None, "basic strategy for the rules: the exact engine, a few seconds")
    sim = simulate_shoe(make_rules(rules), penetration=penetration, count=count, spread=spread, bankroll=bankroll,
                        trials=rounds, seed=seed, workers=1, progress=True)
    argv = ["cardlab", "casino", "shoe", *rules_argv(rules), "--penetration", f"{penetration:g}",
            *(["--count", count] if count != "hi-lo" else []), *(["--spread", spread] if spread else []),
            *(["--bankroll", f"{bankroll:g}"] if bankroll is not None else []), "--rounds", str(rounds),
            "--seed", str(sim.simulation.seed)]
    text = sim.table()
    html = fragment("blackjack_shoe_answer.html", sim=sim, results=_results_table(sim),
                    counts=_counts_table(sim) if sim.penetration > 0 else None)
    if sim.simulation.interrupted:
        html = partial_note(f"{sim.rounds:,} of {sim.simulation.requested:,} rounds were played") + html
    return Answer(html + cli_text(text, shlex.join(argv)),
                  {"shoe.csv": sim.to_csv().encode(), "shoe.json": sim.to_json().encode()},
                  {"table": text, "json": sim.to_dict(), "command": argv[1:]})


PAGE = Page(
    slug="blackjack-shoe", title="Blackjack shoe",
    summary="The blackjack shoe simulator: a cut card, a count and a bet spread; the flat result beside the "
            "exact house edge, the spread's win rate and the risk of ruin of a bankroll.",
    template="blackjack_shoe.html", prepare=prepare,
    defaults={"decks": "6", "dealer": "s17", "double": "any", "das": "yes", "peek": "peek", "pays": "3:2",
              "surrender": "none", "penetration": "0.75", "count": "hi-lo", "spread": "1,2:2,3:4,4:8",
              "bankroll": "1000", "rounds": "1,000,000"},
)
