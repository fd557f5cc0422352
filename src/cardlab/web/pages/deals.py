"""Deals: ``cardlab bridge deal`` (constraints per seat) and ``cardlab bridge dealer`` (a dealer
script, errors shown at their line) from a page: the same calls (:func:`cardlab.bridge.deals.write_deals`,
:func:`cardlab.bridge.dealer.write_run`), the output the CLI prints, and the deals to download as
PBN, LIN and Duplimate ``.dup`` (the writers of ``cardlab bridge boards``)."""

from __future__ import annotations

import io
from typing import Any

from cardlab.board import SEAT_WORDS
from cardlab.web.page import Answer, JobSpec, Page, field_choice, field_number, field_text
from cardlab.web.uploads import Form

__all__ = ["PAGE", "compute", "MAX_DEALS"]

MAX_DEALS = 1000
"""Most deals one request shows (hand diagrams on a page)."""

MODES = ("constraints", "script")
MAX_DIAGRAMS = 100
"""Most deals drawn as diagrams (the files hold every deal)."""

EXAMPLE_SCRIPT = "# a strong notrump opposite a five-card major\ncondition\n    hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)\n    && hcp(south) >= 8 && (spades(south) >= 5 || hearts(south) >= 5)\nproduce 4\naction printall\n"


def prepare(form: Form) -> JobSpec:
    """The form as a deal job; a dealer script is parsed here so its error is shown at its line."""
    mode = field_choice(form, "mode", "Deal by", MODES)
    seed = field_number(form, "seed", "Seed", 0, 2**128 - 1)
    if mode == "script":
        from cardlab.bridge.dealer import parse_script

        text = field_text(form, "script", "Dealer script", required=True, max_length=100_000)
        parse_script(text, "script")  # DealerScriptError names the line: shown beside the editor
        produce = field_number(form, "produce", "Deals to produce", 1, MAX_DEALS)
        generate = field_number(form, "generate", "Deals to generate at most", 1, 10**9)
        return JobSpec("cardlab.web.pages.deals:compute_script",
                       {"text": text, "produce": produce, "generate": generate, "seed": seed}, "dealer script")
    count = field_number(form, "count", "Deals", 1, MAX_DEALS, default=1)
    constraints = {letter: field_text(form, seat, f"{seat.title()}'s constraints", max_length=500)
                   for seat, letter in SEAT_WORDS.items()}
    fixed = {letter: field_text(form, f"{seat}_cards", f"{seat.title()}'s cards", max_length=200)
             for seat, letter in SEAT_WORDS.items()}
    max_tries = field_number(form, "max_tries", "Give up after", 1, 10**9, default=50_000_000)
    return JobSpec("cardlab.web.pages.deals:compute",
                   {"count": count, "constraints": {k: v for k, v in constraints.items() if v},
                    "fixed": {k: v for k, v in fixed.items() if v}, "seed": seed, "max_tries": max_tries},
                   f"{count} deal(s)")


def compute(progress: Any, *, count: int, constraints: dict[str, str], fixed: dict[str, str], seed: int | None,
            max_tries: int) -> Answer:
    """``bridge deal``: the hand diagrams and the summary line, and the deals as board files."""
    from cardlab.bridge.deals import combine_constraints, deal_summary, write_deals
    from cardlab.web.answers import cli_text
    from cardlab.web.render import notes

    parsed = {seat: combine_constraints([text]) for seat, text in constraints.items()}
    if seed is None:
        import secrets

        seed = secrets.randbits(64)  # fixed here so the diagrams and the files are the same deals
    diagrams = io.StringIO()
    batch = write_deals(diagrams, count, "table", constraints=parsed, fixed=fixed, seed=seed,
                        max_tries=max_tries, workers=1, progress=True)
    pbn = io.StringIO()
    write_deals(pbn, count, "pbn", constraints=parsed, fixed=fixed, seed=seed, max_tries=max_tries, workers=1)
    summary = deal_summary(batch, parsed)
    html = notes([summary]) + _diagrams(pbn.getvalue()) + cli_text(diagrams.getvalue())
    return Answer(html, _board_files(pbn.getvalue()), {"summary": summary, "diagrams": diagrams.getvalue()})


def _diagrams(pbn: str) -> str:
    """Each deal of the PBN text as a hand diagram (the board's dealer and vulnerability)."""
    from cardlab.pbn import read_pbn_boards
    from cardlab.web.answers import hand_diagram

    if "[Deal " not in pbn:
        return ""
    shown = []
    for board in read_pbn_boards(pbn, "deals.pbn", by_number=True)[:MAX_DIAGRAMS]:
        shown.append(f'<section class="diagram-box"><h3>Deal {board.number}</h3>'
                     + hand_diagram(board.deal.to_pbn(), board.tag("Dealer"), board.tag("Vulnerable")) + "</section>")
    return '<div class="diagrams">' + "".join(shown) + "</div>"


def _board_files(pbn: str) -> dict[str, bytes]:
    """The deals as PBN (what ``--format pbn`` writes), LIN and ``.dup`` (as ``bridge boards`` converts)."""
    files = {"deals.pbn": pbn.encode("utf-8")}
    if "[Deal " in pbn:
        from cardlab.bridge.boardsets import BoardSet
        from cardlab.pbn import read_pbn_boards

        boards = BoardSet(tuple(read_pbn_boards(pbn, "deals.pbn", by_number=True)))
        files["deals.lin"] = boards.encode("lin")
        files["deals.dup"] = boards.encode("dup")
    return files


def compute_script(progress: Any, *, text: str, produce: int | None, generate: int | None,
                   seed: int | None) -> Answer:
    """``bridge dealer``: what the script prints (its deals and statistics)."""
    from cardlab.bridge.dealer import parse_script, write_run
    from cardlab.web.render import notes, pre

    out = io.StringIO()
    script = parse_script(text, "script")
    result = write_run(script, out, format="text", generate=generate, produce=produce,
                       seed=seed, workers=1, progress=True)
    printed = out.getvalue()
    files = {"dealer-output.txt": printed.encode("utf-8")}
    files.update(_script_board_files(script, text, produce, generate, seed))
    note = notes(["The board files are a board set dealt from the script, as cardlab bridge dealer SCRIPT "
                  "--board-format pbn|lin|dup writes it (with a seed, the same set every time)."])
    return Answer(pre(printed, "what the script prints") + note, files,
                  {"output": printed, "produced": result.produced})


def _script_board_files(script: Any, text: str, produce: int | None, generate: int | None,
                        seed: int | None) -> dict[str, bytes]:
    """The script's board set (``bridge dealer --board-format``) as PBN, LIN and ``.dup``."""
    from cardlab.bridge.boardsets import ScriptPart, deal_board_set
    from cardlab.bridge.levels import script_levels
    from cardlab.cli.bridge_boards import DEFAULT_BOARDS

    count = produce or script.produce or DEFAULT_BOARDS
    board_set = deal_board_set([ScriptPart(script, text, count, script_levels(text))], seed=seed,
                               generate=generate, workers=1).boards
    return {f"board-set.{fmt}": board_set.encode(fmt) for fmt in ("pbn", "lin", "dup")}


PAGE = Page(
    slug="deals", title="Deals",
    summary="Random deals under constraints per seat, or from a dealer script; hand diagrams and board files.",
    template="deals.html", prepare=prepare,
    defaults={"mode": "constraints", "count": "4", "north": "hcp=15-17 shape=balanced", "script": EXAMPLE_SCRIPT},
)
