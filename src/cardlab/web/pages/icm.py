"""Tournament equity: ``cardlab poker icm`` from a page (the same calls,
:func:`cardlab.poker.icm.icm` and :func:`~cardlab.poker.icm.icm_allin`): each stack's expected
prize first (exact fractions beside it), its chance of every place, and the money value of an
all-in between two players."""

from __future__ import annotations

from typing import Any

from cardlab.web.page import Answer, JobSpec, Page, field_choice, field_text
from cardlab.web.uploads import Form

__all__ = ["PAGE", "compute"]

MODELS = ("malmuth-harville", "malmuth-weitzman")


def prepare(form: Form) -> JobSpec:
    """The form as an ICM job (stacks and payouts read by the library's own reader)."""
    from cardlab.poker.icm import parse_numbers

    stacks = parse_numbers(field_text(form, "stacks", "Stacks", required=True, max_length=1_000), "stacks")
    payouts = parse_numbers(field_text(form, "payouts", "Payouts", required=True, max_length=1_000), "payouts")
    return JobSpec("cardlab.web.pages.icm:compute",
                   {"stacks": stacks, "payouts": payouts, "model": field_choice(form, "model", "Model", MODELS),
                    "allin": field_text(form, "allin", "All-in", max_length=200) or None},
                   f"ICM of {len(stacks)} stacks")


def compute(progress: Any, *, stacks: list[Any], payouts: list[Any], model: str, allin: str | None) -> Answer:
    """The equities, places and the all-in's value; the CLI's text, CSV and JSON."""
    from cardlab.poker.icm import icm, icm_allin
    from cardlab.poker.tournament_result import player_name
    from cardlab.web.answers import Cell, FigureTable, cli_text, figure_table

    result = icm_allin(stacks, payouts, allin, model=model) if allin else icm(stacks, payouts, model=model)
    pool = float(sum(payouts))
    total = float(sum(stacks))
    exact = result.equity_exact
    places = len(result.places[0]) if result.places else 0
    columns = ("player", "equity", "of the pool", *(("exact",) if exact else ()), "stack", "chips",
               *(f"P({_ordinal(k + 1)})" for k in range(places)))
    rows = []
    for i, (stack, value, chances) in enumerate(zip(result.stacks, result.equity, result.places)):
        fraction = None if exact is None else f"{exact[i].numerator}/{exact[i].denominator}"
        rows.append((Cell(player_name(i)), Cell(f"{value:.4f}", fraction, key=True), Cell(f"{value / pool:.2%}"),
                     *((Cell(fraction or ""),) if exact else ()), Cell(_amount(stack)), Cell(f"{float(stack) / total:.2%}"),
                     *(Cell(f"{p:.4f}") for p in chances)))
    payouts_text = ", ".join(_amount(p) for p in payouts)
    parts = [figure_table(FigureTable(f"ICM ({model}), {len(stacks)} players, payouts {payouts_text}",
                                      columns, rows, frozenset(range(1, len(columns))), "icm"))]
    if result.allin is not None:
        a = result.allin
        hands = " vs ".join(f"{player_name(p)} {h}" for p, h in zip(a.players, a.hands))
        body = [(Cell(player_name(p)), Cell(f"{change:+.4f}", key=True), Cell(f"{chips:+,.2f}"), Cell(f"{before:.4f}"),
                 Cell(f"{after:.4f}"))
                for p, change, chips, before, after in zip(a.players, a.change, a.chips_change, a.before, a.after)]
        wins = ", ".join(f"{w:.2%}" for w in a.win)
        parts.append(figure_table(FigureTable(f"All in: {hands} (win {wins}, tie {a.tie:.2%})",
                                              ("player", "equity change", "chips EV", "equity before",
                                               "after (expected)"), body, frozenset(range(1, 5)), "allin")))
    text = result.table()
    return Answer("\n".join(parts) + cli_text(text),
                  {"icm.csv": result.to_csv().encode(), "icm.json": result.to_json().encode()},
                  {"table": text, "json": result.to_dict()})


def _amount(x: Any) -> str:
    return f"{x:,}" if isinstance(x, int) else f"{float(x):,.6g}"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


PAGE = Page(
    slug="icm", title="Tournament equity (ICM)",
    summary="Each stack's expected prize and chance of every place (the Independent Chip Model, exact), "
            "and what an all-in between two players is worth.",
    template="icm.html", prepare=prepare,
    defaults={"stacks": "5000,3000,2000", "payouts": "50,30,20", "model": "malmuth-harville"},
)
