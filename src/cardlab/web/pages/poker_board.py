"""Board statistics from a page: ``cardlab poker board RANGE --board CARDS`` (how a hold'em range
hits a board: made hands, pairs, draws) through the same call,
:func:`cardlab.poker.board_stats.board_stats` (the view is :func:`cardlab.web.pages.poker.board_view`).
"""

from __future__ import annotations

from typing import Any

from cardlab.web.page import Answer, JobSpec, Page
from cardlab.web.pages.poker import board_view, field

__all__ = ["PAGE", "compute"]

_FIELDS = ("range", "board", "dead", "game")


def prepare(form: Any) -> JobSpec:
    """The form as a board-statistics job (lengths checked here, cards and the range by the library)."""
    fields = {k: field(form, k) for k in _FIELDS}
    return JobSpec("cardlab.web.pages.poker_board:compute", {"fields": fields},
                   f"{fields['range'][:40]} on {fields['board'][:20]}")


def compute(progress: Any, *, fields: dict[str, str]) -> Answer:
    """The class table (the CLI's figures) and the CLI's CSV and JSON as downloads."""
    from cardlab.web.render import fragment

    view = board_view(fields)
    downloads = {"board.csv": view["csv"].encode(), "board.json": view["json_text"].encode()}
    figures = {k: v for k, v in view.items() if k not in ("csv", "json_text")}
    return Answer(fragment("poker_board_answer.html", view=view), downloads, figures)


PAGE = Page(
    slug="poker-board", title="Board statistics",
    summary="How a hold'em range hits a board: made hands, pairs and draws, combo by combo, exactly.",
    template="poker_board.html", prepare=prepare,
    defaults={"range": "QQ+, AK, KQs", "board": "Qh 9c 2d", "game": "holdem"},
)
