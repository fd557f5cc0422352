"""Poker equity from a page: ``cardlab poker equity`` (hands or ranges, board, dead cards, the
game; exact, or a seeded simulation run as a job with progress and cancel) through the same call,
:func:`cardlab.poker.equity.equity` (the view is :func:`cardlab.web.pages.poker.equity_view`).

The page's range grid (``static/range-grid.js``) reads a range through ``/poker-equity/range``:
:func:`cardlab.web.pages.poker.range_cells`, the library's range parser, as JSON.
"""

from __future__ import annotations

from typing import Any

from starlette.routing import Route

from cardlab.web.page import Answer, JobSpec, Page
from cardlab.web.pages.poker import MAX_PLAYERS, equity_view, range_cells, read_equity_form

__all__ = ["PAGE", "compute", "range_endpoint"]


def prepare(form: Any) -> JobSpec:
    """The form as an equity job (every field checked here first; cards and ranges by the library)."""
    question = read_equity_form(form)
    fields = {k: str(form.get(k, "")) for k in _FIELDS}
    title = "equity of " + " vs ".join(s[:30] for s in question.specs)
    if question.trials is not None:
        title = f"simulating {question.trials:,} boards: {title}"
    return JobSpec("cardlab.web.pages.poker_equity:compute", {"fields": fields}, title)


_FIELDS = tuple(f"player{n}" for n in range(1, MAX_PLAYERS + 1)) + ("board", "dead", "game", "hilo", "draws", "mode",
                                                                    "trials", "seed")


def compute(progress: Any, *, fields: dict[str, str]) -> Answer:
    """The equities (the CLI's figures), the grid against the second player's classes, and the
    CLI's CSV and JSON as downloads."""
    from cardlab.web.render import fragment

    view = equity_view(fields, progress=True)
    downloads = {"equity.csv": view["csv"].encode(), "equity.json": view["json_text"].encode()}
    figures = {k: v for k, v in view.items() if k not in ("csv", "json_text")}
    return Answer(fragment("poker_equity_answer.html", view=view), downloads, figures)


def range_endpoint(request: Any) -> Any:
    """``GET /poker-equity/range?range=TEXT&game=holdem``: the grid's cells of a range, as JSON."""
    from starlette.responses import JSONResponse

    text = request.query_params.get("range", "")
    game = request.query_params.get("game", "holdem")
    if game not in ("holdem", "shortdeck"):
        return JSONResponse({"error": "the grid shows hold'em and short deck ranges; type Omaha ranges "
                                      "in the text box", "cells": [], "combos": 0})
    return JSONResponse(range_cells(text, game))


PAGE = Page(
    slug="poker-equity", title="Poker equity",
    summary="How often each hand or range wins, all in: hold'em, short deck, Omaha, stud, razz, lowball or "
            "badugi, exact or simulated, with the 13 x 13 range grid.",
    template="poker_equity.html", prepare=prepare,
    defaults={"player1": "AsKs", "player2": "QQ+, AKo, AQs+", "game": "holdem", "mode": "exact",
              "trials": "1000000"},
    routes=(Route("/poker-equity/range", range_endpoint),),
)
