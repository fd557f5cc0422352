"""The video poker trainer: deal a hand (seeded), pick the cards to hold, and see whether the hold
was the best and what it cost, with all 32 holds ranked by exact expected pay (the figures of
``cardlab poker video PAYTABLE --hand CARDS``, :func:`cardlab.casino.video.hold_values`; the view
is :func:`cardlab.web.pages.video.trainer_view`)."""

from __future__ import annotations

from typing import Any

from cardlab.web.page import Answer, JobSpec, Page
from cardlab.web.pages.poker import field
from cardlab.web.pages.video import _upload, card_faces, deal_view, read_table, trainer_view

__all__ = ["PAGE", "compute_deal", "compute_check"]

_FIELDS = ("paytable", "paytable_text", "paytable_name", "seed", "hand", "hold0", "hold1", "hold2", "hold3",
           "hold4")


def prepare(form: Any) -> JobSpec:
    """``action=deal`` (the page's form): a new hand; ``action=check`` (the dealt hand's form):
    the verdict on the hold."""
    fields = {k: field(form, k) for k in _FIELDS}
    data, name = _upload(form)
    if data is not None:  # the uploaded table travels on as text in the dealt hand's form
        table = read_table(fields, data, name)
        fields["paytable_text"] = data.decode("utf-8-sig", "replace")
        fields["paytable_name"] = name[:80]
    else:
        table = read_table(fields)
    if field(form, "action") == "check":
        return JobSpec("cardlab.web.pages.video_trainer:compute_check", {"fields": fields},
                       f"{table.name}: the 32 holds of {fields['hand'][:20]}")
    return JobSpec("cardlab.web.pages.video_trainer:compute_deal", {"fields": fields}, f"{table.name}: a deal")


def compute_deal(progress: Any, *, fields: dict[str, str]) -> Answer:
    """The dealt hand, as five cards to hold or not."""
    from cardlab.web.render import fragment

    view = deal_view(fields)
    return Answer(fragment("video_trainer_answer.html", deal=view, faces=card_faces(view["cards"]), fields=fields,
                           check=None), {}, {"hand": view["hand"], "seed": view["seed"]})


def compute_check(progress: Any, *, fields: dict[str, str]) -> Answer:
    """The verdict, the 32 holds ranked, and the plot of the best."""
    from cardlab.web.render import fragment

    view = trainer_view(fields)
    seed = fields.get("seed", "")
    following = str(int(seed) + 1) if seed.isdigit() and int(seed) < 2**63 - 1 else ""
    figures = {k: v for k, v in view.items() if k not in ("plot",)}
    return Answer(fragment("video_trainer_answer.html", deal=None, check=view, faces=card_faces(view["cards"]),
                           fields=fields, next_seed=following), {}, figures)


PAGE = Page(
    slug="video-trainer", title="Video poker trainer",
    summary="Deal a hand, choose what to hold, and see whether it was the best hold and what it cost, "
            "with all 32 holds ranked.",
    template="video_trainer.html", prepare=prepare, uploads=("paytable_file",),
    defaults={"paytable": "jacks-or-better-9-6"},
)
