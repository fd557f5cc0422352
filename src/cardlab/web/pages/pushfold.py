"""Push or fold: ``cardlab poker pushfold`` from a page (the same call,
:func:`cardlab.poker.pushfold.pushfold`): the heads-up equilibrium at a stack, a hand's verdict,
and the push and call charts coloured by the largest stack at which each hand is played, as
HoldemResources Calculator draws them (the number in each cell and its tooltip)."""

from __future__ import annotations

import math
from typing import Any

from cardlab.errors import WebInputError
from cardlab.web.page import Answer, JobSpec, Page, field_choice, field_decimal, field_text
from cardlab.web.uploads import Form

__all__ = ["PAGE", "compute", "compute3", "hand_class", "band", "share_band"]

#: The chart's colour bands: the largest stack (BB) below which a class falls in each band.
BANDS = (3.0, 6.0, 10.0, 15.0, 25.0)


def _decimal(form: Form, name: str, label: str, low: float, high: float, default: float, *,
             low_open: bool = False) -> float:
    value = field_decimal(form, name, label, low, high, default=default, low_open=low_open)
    return default if value is None else value


def hand_class(text: str) -> str | None:
    """A starting-hand class as the charts name it (``A5o``, ``KQs``, ``77``), from what a user
    types (``a5o``, ``5Ao``, ``A5 o``); None for nothing typed.

    >>> hand_class("a5o"), hand_class("5As"), hand_class("tt")
    ('A5o', 'A5s', 'TT')
    >>> hand_class("A5")
    Traceback (most recent call last):
    ...
    cardlab.errors.WebInputError: Hand: say suited or offsuit: A5s or A5o
    """
    ranks = "AKQJT98765432"
    cleaned = "".join(text.split()).replace("10", "T")
    if not cleaned:
        return None
    high, low, kind = cleaned[:1].upper(), cleaned[1:2].upper(), cleaned[2:].lower()
    if len(cleaned) > 3 or high not in ranks or low not in ranks:
        raise WebInputError(f"Hand: a starting hand such as A5o, KQs or 77, not {text[:20]!r}")
    if ranks.index(low) < ranks.index(high):
        high, low = low, high
    if high == low:
        if kind:
            raise WebInputError(f"Hand: a pair is neither suited nor offsuit: {high}{low}")
        return high + low
    if kind not in ("s", "o"):
        raise WebInputError(f"Hand: say suited or offsuit: {high}{low}s or {high}{low}o")
    return high + low + kind


def band(value: float) -> int:
    """The colour band of a chart value: 0 never, 1-5 by :data:`BANDS`, 6 at every stack charted."""
    if math.isinf(value):
        return 6
    if not value or math.isnan(value):
        return 0
    return 1 + sum(value >= b for b in BANDS)


def share_band(p: float) -> int:
    """The colour band of how often a class is played (the three-handed charts, in the heads-up
    chart's colours), by the whole percentage the cell shows: 0 never (0%), 6 always (100%), 1-5
    for 1-19%, 20-39%, ... 80-99%.

    >>> [share_band(p) for p in (0.0, 0.004, 0.01, 0.3, 0.99, 0.996, 1.0)]
    [0, 0, 1, 2, 5, 6, 6]
    """
    shown = round(100 * p)
    if shown <= 0:
        return 0
    if shown >= 100:
        return 6
    return 1 + min(4, shown // 20)


def _argv(stack: float, ante: float, payouts: list[Any] | None) -> list[str]:
    """The command line's options for the same question."""
    return ["--stack", f"{stack:g}", *(["--ante", f"{ante:g}"] if ante else []),
            *(["--payouts", ",".join(f"{p:g}" if isinstance(p, float) else str(p) for p in payouts)] if payouts else [])]


def prepare(form: Form) -> JobSpec:
    """The form as a push/fold job (numbers checked as the command line checks them)."""
    from cardlab.poker.icm import parse_numbers

    stack = _decimal(form, "stack", "Stack", 0, 10_000, 10.0, low_open=True)
    ante = _decimal(form, "ante", "Ante", 0, 1_000, 0.0)
    payouts_text = field_text(form, "payouts", "Payouts", max_length=200)
    payouts = list(parse_numbers(payouts_text, "payouts")) if payouts_text else None
    players = field_choice(form, "players", "Players", ("2", "3"))
    return JobSpec(f"cardlab.web.pages.pushfold:{'compute' if players == '2' else 'compute3'}",
                   {"stack": stack, "ante": ante, "payouts": payouts,
                    "hand": hand_class(field_text(form, "hand", "Hand", max_length=20))},
                   f"{'three-handed ' if players == '3' else ''}push/fold at {stack:g} BB")


def compute(progress: Any, *, stack: float, ante: float, payouts: list[Any] | None, hand: str | None) -> Answer:
    """The equilibrium, the hand's verdict, both charts; the CLI's text, CSV and JSON."""
    from cardlab.poker.pushfold import pushfold
    from cardlab.web.answers import cli_text
    from cardlab.web.render import fragment

    result = pushfold(stack, ante=ante, payouts=payouts)
    top = result.chart_range[1]
    where = {label: i for i, label in enumerate(result.labels)}
    charts = []
    for which, probs, values, verb in (("push", result.push, result.chart_push, "pushes"),
                                        ("call", result.call, result.chart_call, "calls")):
        texts = result.grid(which)
        rows = []
        for r in range(13):
            row = []
            for c in range(13):
                k = r * 13 + c
                label, value = result.labels[k], values[k]
                said = (f"{label}: {verb} at every stack to {top:g} BB" if math.isinf(value) else
                        f"{label}: never {verb}" if band(value) == 0 else
                        f"{label}: {verb} up to {texts[r][c]} BB")
                row.append({"label": label, "text": texts[r][c], "band": band(value), "title": said,
                            "now": probs[k] >= 0.5, "yours": label == hand})
            rows.append(row)
        charts.append({"which": which, "rows": rows, "share": f"{result.push_share if which == 'push' else result.call_share:.2%}",
                       "who": "the small blind pushes" if which == "push" else "the big blind calls"})
    verdict = None
    if hand is not None:
        k = where[hand]
        verdict = {"hand": hand, "push": result.push[k], "call": result.call[k],
                   "push_up_to": result.grid("push")[k // 13][k % 13], "call_up_to": result.grid("call")[k // 13][k % 13],
                   "push_text": _action(result.push[k], "push", "fold"), "call_text": _action(result.call[k], "call", "fold")}
    argv = ["poker", "pushfold", *_argv(stack, ante, payouts)]
    text = result.table()
    html = fragment("pushfold_answer.html", r=result, charts=charts, verdict=verdict, top=top, bands=BANDS,
                    command="cardlab " + " ".join(argv)) + cli_text(text)
    return Answer(html, {"pushfold.csv": result.to_csv().encode(), "pushfold.json": result.to_json().encode()},
                  {"table": text, "json": result.to_dict()})


#: What each three-handed node's chart shows, and who acts there.
_NODE_VERBS = {"btn_push": ("the button pushes", "push"), "sb_push": ("the small blind pushes (button folded)", "push"),
               "sb_call": ("the small blind calls the button", "call"),
               "bb_call_sb": ("the big blind calls the small blind", "call"),
               "bb_call_btn": ("the big blind calls the button (small blind folded)", "call"),
               "bb_overcall": ("the big blind overcalls (button pushed, small blind called)", "overcall")}


def compute3(progress: Any, *, stack: float, ante: float, payouts: list[Any] | None, hand: str | None) -> Answer:
    """Three-handed push/fold (``poker pushfold --players 3``): each of the six decisions' ranges
    on a 13 x 13 chart in the heads-up chart's colours (each class by how often it is played), the
    hand's verdict at each, the EVs and the exploitability; the CLI's text, CSV and JSON."""
    from cardlab.poker.pushfold3 import pushfold3
    from cardlab.web.answers import cli_text
    from cardlab.web.render import fragment

    result = pushfold3(stack, ante=ante, payouts=payouts)
    charts, verdict = [], []
    for node, probs in zip(result.nodes, result.strategy):
        who, verb = _NODE_VERBS[node]
        rows = [[{"label": result.labels[r * 13 + c], "text": f"{100 * probs[r * 13 + c]:.0f}",
                  "band": share_band(probs[r * 13 + c]), "now": probs[r * 13 + c] >= 0.5,
                  "yours": result.labels[r * 13 + c] == hand,
                  "title": f"{result.labels[r * 13 + c]}: {verb}s {probs[r * 13 + c]:.1%} of the time"}
                 for c in range(13)] for r in range(13)]
        charts.append({"which": node.replace("_", "-"), "rows": rows, "who": who, "share": f"{result.share(node):.2%}"})
        if hand is not None:
            p = probs[result.labels.index(hand)]
            mixed = f" ({verb}s {p:.1%} of the time)" if 0.005 <= p < 0.995 else ""
            verdict.append({"who": who, "text": verb if p >= 0.5 else "fold", "mixed": mixed})
    text = result.table()
    html = fragment("pushfold3_answer.html", r=result, charts=charts, verdict=verdict, hand=hand,
                    command="cardlab poker pushfold --players 3 " + " ".join(_argv(stack, ante, payouts))) + cli_text(text)
    return Answer(html, {"pushfold.csv": result.to_csv().encode(), "pushfold.json": result.to_json().encode()},
                  {"table": text, "json": result.to_dict()})


def _action(p: float, yes: str, no: str) -> str:
    if p >= 1:
        return yes
    if p <= 0:
        return no
    return f"{yes} {p:.0%} of the time, else {no}"


PAGE = Page(
    slug="pushfold", title="Push or fold",
    summary="Push/fold at a stack: heads-up (Nash, exact) with the push and call charts coloured by the largest "
            "stack each hand pushes or calls, or three-handed (button, small blind, big blind); a hand's verdict.",
    template="pushfold.html", prepare=prepare,
    defaults={"stack": "10", "ante": "0", "hand": "A5o", "players": "2"},
)
