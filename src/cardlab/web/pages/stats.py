"""Hand statistics: ``cardlab bridge hcp``, ``shape`` and ``joint`` from a page (the same
:mod:`cardlab.bridge.tables` calls), the table as the CLI prints it and its plot."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from cardlab.web.page import Answer, JobSpec, Page, field_choice, field_number, field_text
from cardlab.web.uploads import Form

__all__ = ["PAGE", "compute"]

KINDS = ("points", "shape", "joint")
SHAPES = ("pattern", "suits", "longest")
BY = ("longest", "pattern", "suits")


def prepare(form: Form) -> JobSpec:
    """The form's question as a job (fields checked here, cards and schemes by the library)."""
    kind = field_choice(form, "kind", "Table", KINDS)
    trials = field_number(form, "simulate", "Simulated hands", 1, 10**9)
    kwargs: dict[str, Any] = {
        "kind": kind,
        "scheme": field_text(form, "scheme", "Point scheme", max_length=200) or "work",
        "cards": field_number(form, "cards", "Cards in the hand", 1, 52, default=13),
        "given": field_text(form, "given", "Cards known", max_length=400) or None,
        "given_points": field_text(form, "given_hcp", "Another hand's points", max_length=20) or None,
        "shape": field_choice(form, "shape", "Shape", SHAPES),
        "by": field_choice(form, "by", "Shape feature", BY),
        "trials": trials,
        "seed": field_number(form, "seed", "Seed", 0, 2**128 - 1),
    }
    return JobSpec("cardlab.web.pages.stats:compute", kwargs, f"{kind} table")


def compute(progress: Any, *, kind: str, scheme: str, cards: int, given: str | None, given_points: str | None,
            shape: str, by: str, trials: int | None, seed: int | None) -> Answer:
    """The table (the CLI's calls and text), its plot, CSV and JSON."""
    from cardlab.bridge.tables import joint_table, points_table, shape_table
    from cardlab.web.answers import cli_text, tabulation_html
    from cardlab.web.render import png

    simulation: dict[str, Any] = {"trials": trials, "seed": seed, "workers": 1, "progress": bool(trials)}
    if kind == "points":
        from cardlab.bridge.schemes import parse_points

        points = None if given_points is None else parse_points(given_points)
        result = points_table(scheme, cards, given, points, **simulation)
    elif kind == "shape":
        result = shape_table(shape, cards, given, "probability", **simulation)  # type: ignore[arg-type]
    else:
        result = joint_table(by, scheme, cards, given, **simulation)  # type: ignore[arg-type]
    text = result.text("table")
    downloads = {"table.csv": result.text("csv").encode(), "table.json": result.text("json").encode()}
    picture_html = ""
    if not result.interrupted:  # cancelled: the partial table at once, without drawing it
        with tempfile.TemporaryDirectory(prefix="cardlab-web-") as folder:
            picture = Path(folder) / "plot.png"
            result.plot(picture)
            data = picture.read_bytes()
        alt = (f"heat map of the probability of each pair of values: {result.title}" if result.joint
               else f"bar chart of the {kind} distribution in the table above")
        downloads["plot.png"] = data
        picture_html = png(data, alt)
    html = tabulation_html(result, picture_html) + cli_text(text)
    return Answer(html, downloads, {"table": text, "json": result.to_dict()})


PAGE = Page(
    slug="stats", title="Hand statistics",
    summary="Exact distribution of a hand's points or shape, given cards you know and another hand's points.",
    template="stats.html", prepare=prepare,
    defaults={"kind": "points", "scheme": "work", "cards": "13", "shape": "pattern", "by": "longest"},
)
