"""Double dummy: ``cardlab bridge dd`` (a deal or a PBN file: the 20-cell table and par),
``bridge makes`` and ``bridge lead`` (over random deals under constraints) from a page, through the
same calls (:func:`cardlab.bridge.dd.dd_tables`, :func:`cardlab.bridge.dd_sim.makes`, ``leads``)."""

from __future__ import annotations

from typing import Any

from cardlab.board import SEAT_WORDS
from cardlab.errors import WebInputError
from cardlab.web.page import Answer, JobSpec, Page, field_choice, field_number, field_text
from cardlab.web.uploads import Form

__all__ = ["PAGE", "compute_table", "compute_makes", "compute_lead"]

MODES = ("table", "makes", "lead")
MAX_CONTRACTS = 4
"""Most contracts side by side (each after the first is solved with it on the same deals)."""
MAX_DIAGRAMS = 50
"""Most deals shown as diagrams and grids (the files hold every table)."""
EXAMPLE = "N:AKQ2.T98.765.432 JT98.AK7.AK2.T98 7653.J65.QJT.AKQ 4.Q432.9843.J765"


def prepare(form: Form) -> JobSpec:
    """The form as a double-dummy job."""
    mode = field_choice(form, "mode", "Question", MODES)
    if mode == "table":
        deal = field_text(form, "deal", "Deal", required=True, max_length=2_000_000)
        return JobSpec("cardlab.web.pages.dd:compute_table",
                       {"deal": deal, "dealer": field_text(form, "dealer", "Dealer", max_length=5) or None,
                        "vul": field_text(form, "vul", "Vulnerability", max_length=5) or None}, "double-dummy table")
    simulation = {
        "deals": field_number(form, "deals", "Random deals", 1, 1_000_000, default=1000 if mode == "makes" else 500),
        "seed": field_number(form, "seed", "Seed", 0, 2**128 - 1),
        "constraints": {letter: text for seat, letter in SEAT_WORDS.items()
                        if (text := field_text(form, seat, f"{seat.title()}'s constraints", max_length=500))},
        "fixed": {letter: text for seat, letter in SEAT_WORDS.items()
                  if (text := field_text(form, f"{seat}_cards", f"{seat.title()}'s cards", max_length=200))},
    }
    contract = field_text(form, "contract", "Contract", required=True, max_length=40)
    by = field_text(form, "by", "Declarer", required=True, max_length=10)
    if mode == "makes":
        contracts = [c.strip() for c in contract.split(",") if c.strip()]
        if len(contracts) > MAX_CONTRACTS:
            raise WebInputError(f"Contract: at most {MAX_CONTRACTS} contracts side by side, not {len(contracts)}")
        return JobSpec("cardlab.web.pages.dd:compute_makes",
                       {"contracts": contracts, "by": by,
                        "vulnerable": form.get("vulnerable") == "on", **simulation}, f"{contract} over random deals")
    hand = field_text(form, "hand", "Leader's hand", required=True, max_length=100)
    return JobSpec("cardlab.web.pages.dd:compute_lead", {"hand": hand, "contract": contract, "by": by, **simulation},
                   f"leads against {contract}")


def compute_table(progress: Any, *, deal: str, dealer: str | None, vul: str | None) -> Answer:
    """``bridge dd DEAL`` (or ``--file`` when the text is a PBN file): the tables and par."""
    from cardlab.bridge.dd import dd_tables, read_pbn_games
    from cardlab.web.answers import cli_text, dd_html

    result: Any
    if "[Deal " in deal:
        header, games = read_pbn_games(deal, "pasted PBN")
        result = dd_tables([g.deal for g in games], [g.dealer or dealer for g in games],
                           [g.vulnerability or vul for g in games], games=games, header=header)
        tables = list(result)
    else:
        result = dd_tables([" ".join(deal.split())], dealer, vul)[0]
        tables = [result]
    text = result.table()
    files = {"dd.csv": result.to_csv().encode(), "dd.json": result.to_json().encode(), "dd.pbn": result.to_pbn().encode()}
    shown = "".join(dd_html(t) for t in tables[:MAX_DIAGRAMS])
    if len(tables) > MAX_DIAGRAMS:
        shown += f"<p class=\"notes\">The first {MAX_DIAGRAMS} of {len(tables):,} deals; all of them are in the files.</p>"
    return Answer(shown + cli_text(text), files, {"table": text})


def _constraints(constraints: dict[str, str]) -> dict[str, Any]:
    from cardlab.bridge.deals import combine_constraints

    return {seat: combine_constraints([text]) for seat, text in constraints.items()}


def compute_makes(progress: Any, *, contracts: list[str], by: str, vulnerable: bool, deals: int, seed: int | None,
                  constraints: dict[str, str], fixed: dict[str, str]) -> Answer:
    """``bridge makes``: tricks, P(make) and the score over random deals."""
    from cardlab.bridge.dd_sim import makes
    from cardlab.web.answers import cli_text, makes_html

    from cardlab.errors import ContractError

    seats = by.split(",") if "," in by else [by] * len(contracts)
    if len(seats) != len(contracts):
        raise ContractError(f"give one declarer, or one for each of the {len(contracts)} contracts, not {by!r}")
    if len(contracts) <= 2:
        declarer: Any = seats if "," in by else by
        result = makes(contracts, declarer, deals, constraints=_constraints(constraints), fixed=fixed,
                       vulnerable=vulnerable, seed=seed, workers=1, progress=True)
        text = result.table()
        return Answer(makes_html(result, fixed=fixed) + cli_text(text),
                      {"makes.csv": result.to_csv().encode(), "makes.json": result.to_json().encode()}, {"table": text})
    if seed is None:
        import secrets

        seed = secrets.randbits(64)  # the same deals for every pair of contracts
    results = [makes([contracts[0], other], [seats[0], seat], deals, constraints=_constraints(constraints),
                     fixed=fixed, vulnerable=vulnerable, seed=seed, workers=1, progress=True)
               for other, seat in zip(contracts[1:], seats[1:])]
    text = "\n".join(r.table() for r in results)
    commands = "; ".join(f"bridge makes --contract {contracts[0]} --contract {c} --seed {seed}" for c in contracts[1:])
    body = "[\n" + ",\n".join(r.to_json().rstrip() for r in results) + "\n]\n"
    return Answer(makes_html(*results, fixed=fixed) + cli_text(text, commands), {"makes.json": body.encode()}, {"table": text})


def compute_lead(progress: Any, *, hand: str, contract: str, by: str, deals: int, seed: int | None,
                 constraints: dict[str, str], fixed: dict[str, str]) -> Answer:
    """``bridge lead``: the opening leads ranked over random deals."""
    from cardlab.bridge.dd_sim import leads
    from cardlab.web.answers import cli_text, leads_html

    result = leads(hand, contract, by, deals, constraints=_constraints(constraints), fixed=fixed, seed=seed,
                   workers=1, progress=True)
    text = result.table()
    return Answer(leads_html(result) + cli_text(text),
                  {"leads.csv": result.to_csv().encode(), "leads.json": result.to_json().encode()}, {"table": text})


PAGE = Page(
    slug="dd", title="Double dummy",
    summary="The 20-cell double-dummy table and par of a deal; how often a contract makes; the best lead.",
    template="dd.html", prepare=prepare,
    defaults={"mode": "table", "deal": EXAMPLE, "contract": "3NT", "by": "S", "hand": "AKQ2.T98.765.432"},
)
