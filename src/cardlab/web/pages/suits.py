"""Suit splits and suit play: ``cardlab bridge split`` and ``cardlab bridge suitplay`` from one page
(the same calls: :func:`cardlab.bridge.splits.suit_split`, :func:`~cardlab.bridge.splits.card_layouts`,
:func:`cardlab.bridge.suitplay.suitplay`), the tables as the CLI prints them."""

from __future__ import annotations

from typing import Any

from cardlab.errors import WebInputError
from cardlab.web.page import Answer, JobSpec, Page, field_choice, field_number, field_text
from cardlab.web.uploads import Form

__all__ = ["PAGE", "compute_split", "compute_play"]

MODES = ("play", "split")
DEFENCES = ("omniscient", "random-equals")
SCORINGS = ("tricks", "mp", "imps")


def prepare(form: Form) -> JobSpec:
    """The form as a split or suit-play job."""
    mode = field_choice(form, "mode", "Question", MODES)
    vacant = field_text(form, "vacant", "Vacant places", max_length=20) or None
    played = field_text(form, "played", "Cards played", max_length=200) or None
    if mode == "split":
        cards = field_text(form, "cards", "Missing cards", max_length=40) or None
        n = field_number(form, "n", "Cards missing", 1, 13)
        if cards is not None and cards.isdigit():  # "5": how many are missing, as bridge split 5
            n, cards = field_number({"cards": cards}, "cards", "Missing cards", 1, 13), None
        if cards is None and n is None:
            raise WebInputError("Cards missing: give how many (1 to 13) or which (e.g. KJ54 or QJxx)")
        return JobSpec("cardlab.web.pages.suits:compute_split", {"n": n, "cards": cards, "vacant": vacant,
                                                                "played": played}, "suit split")
    north = field_text(form, "north", "North's cards", required=True, max_length=20)
    south = field_text(form, "south", "South's cards", required=True, max_length=20)
    target = field_number(form, "target", "Tricks to make", 1, 13)
    return JobSpec("cardlab.web.pages.suits:compute_play", {
        "north": north, "south": south, "targets": None if target is None else [target], "vacant": vacant,
        "played": played, "entries": field_text(form, "entries", "Entries", max_length=20) or None,
        "defence": field_choice(form, "defence", "Defence", DEFENCES),
        "scoring": field_choice(form, "scoring", "Scoring", SCORINGS)}, f"suit play {north} opposite {south}")


def compute_split(progress: Any, *, n: int | None, cards: str | None, vacant: str | None, played: str | None) -> Answer:
    """``bridge split N`` or ``bridge split --cards CARDS [--played PLAYS]``."""
    from cardlab.bridge.splits import card_layouts, parse_holding, suit_split
    from cardlab.errors import DeckError
    from cardlab.web.answers import cli_text, split_html

    if cards is None:
        if played:
            raise DeckError(f"cards played {played!r} need the missing cards: give them (e.g. QJxx)")
        assert n is not None
        result = suit_split(n, vacant)
    else:
        holding = parse_holding(cards)
        size = len(holding.honours) + holding.small
        if n is not None and n != size:
            raise DeckError(f"{n} cards missing, but {cards!r} names {size} cards")
        result = card_layouts(cards, vacant, played)
    text = result.table()
    return Answer(split_html(result) + cli_text(text),
                  {"split.csv": result.to_csv().encode(), "split.json": result.to_json().encode()}, {"table": text})


def compute_play(progress: Any, *, north: str, south: str, targets: list[int] | None, vacant: str | None,
                 played: str | None, entries: str | None, defence: str, scoring: str) -> Answer:
    """``bridge suitplay NORTH SOUTH``: the best lines and the table of layouts."""
    from cardlab.bridge.suitplay import suitplay
    from cardlab.web.answers import cli_text, suitplay_html

    result = suitplay(north, south, targets=targets, vacant=vacant, played=played, entries=entries,
                      defence=defence, scoring=scoring)
    text = result.table()
    return Answer(suitplay_html(result) + cli_text(text),
                  {"suitplay.csv": result.to_csv().encode(), "suitplay.json": result.to_json().encode()},
                  {"table": text})


PAGE = Page(
    slug="suits", title="Suit splits and play",
    summary="How the missing cards of a suit lie, and the best line of play in one suit, exactly.",
    template="suits.html", prepare=prepare,
    defaults={"mode": "play", "north": "AQT98", "south": "5432", "cards": "KJxx", "defence": "omniscient",
              "scoring": "tricks"},
)
