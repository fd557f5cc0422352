"""The workbench's video poker page as plain functions: a pay table in, its figures out; and the
trainer (deal a hand, pick a hold, see what it cost).

The pay table is a built-in game (``paytable`` field) or the bytes of an uploaded TOML file,
read by :func:`cardlab.casino.video_paytable.read_paytable`, the reader ``cardlab poker video
FILE`` uses. The figures come from :func:`cardlab.casino.video.analyse` and
:func:`cardlab.casino.video.hold_values`, formatted as the command line prints them.

>>> view = trainer_view({"paytable": "jacks-or-better-9-6", "hand": "Ah Kh Qh Jh 2c",
...                      "hold": ["0", "1", "2", "3"]})
>>> view["verdict"]["best"], view["verdict"]["rank"], view["holds"][0]["hold"]
(True, 1, 'Ah Kh Qh Jh')
>>> trainer_view({"paytable": "jacks-or-better-9-6", "hand": "Ah Kh Qh Jh"})
Traceback (most recent call last):
...
cardlab.errors.HandError: a video poker hand has 5 cards; 'Ah Kh Qh Jh' has 4
"""

from __future__ import annotations

import base64
from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np

from cardlab.errors import CardlabError, PayTableError
from cardlab.web.page import Answer, JobSpec, Page
from cardlab.web.pages.poker import field

__all__ = ["PAGE", "compute", "paytable_choices", "read_table", "video_view", "deal_view", "trainer_view",
           "MAX_PAYTABLE_BYTES", "figure_uri", "SUIT_NAMES"]

#: The largest pay table file the page reads (a real one is under 2 kB).
MAX_PAYTABLE_BYTES = 64 * 1024


def paytable_choices() -> list[tuple[str, str]]:
    """(value, label) of each built-in pay table."""
    from cardlab.casino.video_paytable import builtin_names, paytable

    return [(name, paytable(name).name) for name in builtin_names()]


def read_table(form: Mapping[str, Any], upload: bytes | None = None, upload_name: str = "") -> Any:
    """The pay table of a form: an uploaded file (``upload``), else the TOML text of the field
    ``paytable_text`` (the trainer carries an uploaded table in it), else the built-in game
    named by ``paytable``."""
    from cardlab.casino.video_paytable import builtin_names, paytable, read_paytable

    if upload:
        if len(upload) > MAX_PAYTABLE_BYTES:
            raise PayTableError(f"{upload_name or 'the upload'}: {len(upload):,} bytes; a pay table file "
                                f"is at most {MAX_PAYTABLE_BYTES:,}")
        return read_paytable(upload, _safe_name(upload_name))
    text = form.get("paytable_text") or ""
    if isinstance(text, str) and text.strip():
        data = text.encode("utf-8")
        if len(data) > MAX_PAYTABLE_BYTES:
            raise PayTableError(f"pay table text: at most {MAX_PAYTABLE_BYTES:,} bytes")
        return read_paytable(data, _safe_name(field(form, "paytable_name")) or "uploaded pay table")
    name = field(form, "paytable") or "jacks-or-better-9-6"
    if name not in builtin_names():
        raise PayTableError(f"unknown pay table '{name}': choose one of {', '.join(builtin_names())} "
                            "or upload a TOML file")
    return paytable(name)


def _safe_name(name: str) -> str:
    """The last part of an uploaded file's name, printable, for messages."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(ch for ch in base if ch.isprintable())[:80]


def _deck(form: Mapping[str, Any]) -> Any:
    from cardlab.casino.video import parse_deck

    deck = field(form, "deck", "deck") or None
    remove = field(form, "remove", "cards removed") or None
    return parse_deck(deck, remove=remove)


def figure_uri(fig: Any) -> str:
    """A matplotlib figure as a ``data:image/png`` address (the page ships it inline)."""
    from cardlab.report.figures import figure_png

    return "data:image/png;base64," + base64.b64encode(figure_png(fig)).decode("ascii")


def _pays(x: Fraction) -> str:
    return f"{int(x) if x.denominator == 1 else float(x):g}"


def video_view(form: Mapping[str, Any], upload: bytes | None = None, upload_name: str = "",
               *, plot: bool = True) -> dict[str, Any]:
    """The whole game under optimal play, as ``cardlab poker video PAYTABLE`` prints it: the
    ``rows`` of the combination table (outcome, pays, combinations, probability, return), the
    summary figures, the plot (a PNG address) and ``toml`` (the uploaded table's text, for the
    trainer)."""
    from cardlab.casino.video import analyse

    table = read_table(form, upload, upload_name)
    result = analyse(table, _deck(form))
    rows = [{"name": r["name"], "pays": f"{r['pays']:g}", "count": f"{r['count']:,}",
             "probability": f"{r['probability']:.8f}", "contribution": f"{r['contribution']:.6f}"}
            for r in result.rows()]
    ret = result.return_exact
    royal = result.hands_per_royal
    view: dict[str, Any] = {
        "name": table.name, "deck": result.deck, "rows": rows,
        "total": {"count": f"{result.total:,}", "contribution": f"{float(ret):.6f}"},
        "return": f"{100 * float(ret):.4f}%", "return_exact": f"{ret.numerator}/{ret.denominator}",
        "variance": f"{float(result.variance):.4f}", "std_dev": f"{result.std_dev:.4f}",
        "hit_frequency": f"{100 * float(result.hit_frequency):.4f}%",
        "hands_per_royal": None if royal is None else f"{royal:,.1f}",
        "tied_deals": f"{result.tied_deals:,}", "json": result.to_dict(), "text": result.table(),
        "csv": result.to_csv(), "json_text": result.to_json(),
        "toml": upload.decode("utf-8", "replace") if upload else None,
    }
    if plot:
        from cardlab.report.video_plot import return_figure

        view["plot"] = figure_uri(return_figure(result))
    return view


def deal_view(form: Mapping[str, Any]) -> dict[str, Any]:
    """A dealt hand for the trainer: five cards from the game's deck, drawn by the ``seed``
    field (a fresh seed when empty, shown so that the deal can be repeated)."""
    from cardlab.cards import format_cards
    from cardlab.casino.video import video_deck

    table = read_table(form)
    seed_text = field(form, "seed")
    if seed_text:
        cleaned = seed_text.replace(",", "").replace("_", "")
        if not cleaned.isdigit() or len(cleaned) > 19 or int(cleaned) >= 2**63:
            raise CardlabError(f"seed: expected a whole number from 0 to {2**63 - 1:,}, got '{seed_text}'")
        seed = int(cleaned)
    else:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))
    cards = video_deck(table, _deck(form))
    types = cards.types
    picked = np.random.default_rng(seed).choice(len(types), 5, replace=False)
    hand = " ".join("Jk" if int(types[i]) == 52 else format_cards([int(types[i])]) for i in picked)
    return {"seed": seed, "hand": hand, "cards": hand.split(), "name": table.name}


def _positions(values: Any) -> list[int]:
    if values is None:
        return []
    items: Sequence[Any] = [values] if isinstance(values, str) else list(values)
    out = []
    for item in items:
        text = str(item).strip()
        if text not in ("0", "1", "2", "3", "4"):
            raise CardlabError(f"hold: a held card is named by its place 0 to 4, got '{text[:20]}'")
        out.append(int(text))
    return sorted(set(out))


def trainer_view(form: Mapping[str, Any]) -> dict[str, Any]:
    """The 32 holds of the dealt ``hand`` ranked by exact expected pay (as ``cardlab poker video
    PAYTABLE --hand CARDS`` prints them), and the verdict on the hold the user picked (the field
    ``hold``: the places 0 to 4 of the cards kept, or the checkboxes ``hold0`` .. ``hold4``): its rank, whether it was the best (a hold of
    the same expected pay as the best is), and what it cost in expected pay per coin."""
    from cardlab.casino.video import hold_values
    from cardlab.report.video_plot import holds_figure

    table = read_table(form)
    hand = field(form, "hand", "hand")
    if not hand:
        raise CardlabError("hand: deal a hand first (or type five cards)")
    result = hold_values(table, hand, _deck(form))
    shown = result.hand.split()
    held = sorted(set(_positions(form.get("hold"))) |
                  {j for j in range(5) if str(form.get(f"hold{j}", "")).lower() in ("on", "1", "true")})
    if held and max(held) >= len(shown):
        raise CardlabError("hold: more places than cards")
    picked = " ".join(shown[j] for j in held)
    best = result.holds[0].ev
    holds = []
    rank = None
    for n, h in enumerate(result.holds, 1):
        mine = h.hold == picked and rank is None
        if mine:
            rank = n
        holds.append({"rank": n, "hold": h.hold or "(draw five)", "ev": f"{float(h.ev):.6f}",
                      "cost": f"{float(best - h.ev):.6f}", "mine": mine, "best": h.ev == best})
    assert rank is not None, "every hold of five cards is one of the 32"
    chosen = result.holds[rank - 1]
    verdict = {"hold": picked or "(draw five)", "rank": rank, "best": chosen.ev == best,
               "ev": f"{float(chosen.ev):.6f}", "best_ev": f"{float(best):.6f}",
               "cost": f"{float(best - chosen.ev):.6f}", "best_hold": result.holds[0].hold or "(draw five)"}
    return {"name": table.name, "hand": result.hand, "cards": shown, "deck": result.deck, "holds": holds,
            "verdict": verdict, "held": held, "plot": figure_uri(holds_figure(result)), "json": result.to_dict(),
            "text": result.table()}


# --- the page --------------------------------------------------------------------------------

#: Suit letters as words and symbols, for the cards the trainer shows.
SUIT_NAMES = {"c": ("clubs", "\u2663"), "d": ("diamonds", "\u2666"), "h": ("hearts", "\u2665"), "s": ("spades", "\u2660")}
_RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine", "8": "eight",
               "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}


def card_faces(cards: list[str]) -> list[dict[str, Any]]:
    """How the page shows each card: its text (Ah), rank and suit symbol, words for a screen
    reader (ace of hearts), and whether it is red."""
    out = []
    for text in cards:
        if len(text) == 2 and text[1].lower() in SUIT_NAMES and text[0].upper() in _RANK_NAMES:
            word, symbol = SUIT_NAMES[text[1].lower()]
            out.append({"text": text, "rank": "10" if text[0].upper() == "T" else text[0].upper(),
                        "symbol": symbol, "words": f"{_RANK_NAMES[text[0].upper()]} of {word}",
                        "red": text[1].lower() in "dh"})
        else:
            out.append({"text": text, "rank": "Joker", "symbol": "", "words": "joker", "red": False})
    return out


_FIELDS = ("paytable", "deck", "remove", "paytable_text", "paytable_name")


def _upload(form: Any) -> tuple[bytes | None, str]:
    files = getattr(form, "files", {})
    upload = files.get("paytable_file")
    if upload is None or not upload.data:
        return None, ""
    return upload.data, upload.filename


def prepare(form: Any) -> JobSpec:
    """The form as a whole-game job: the pay table read here first (a bad upload is refused at
    once, with the reader's message), then analysed in the job."""
    data, name = _upload(form)
    fields = {k: field(form, k) for k in _FIELDS if k != "paytable_text"}
    table = read_table(fields, data, name)
    _deck(fields)
    return JobSpec("cardlab.web.pages.video:compute", {"fields": fields, "upload": data, "upload_name": name},
                   f"{table.name}: every dealt hand played the best way")


def compute(progress: Any, *, fields: dict[str, str], upload: bytes | None, upload_name: str) -> Answer:
    """The return, the combination table and the plot (the CLI's figures), CSV, JSON and PNG."""
    from cardlab.web.render import fragment

    view = video_view(fields, upload, upload_name)
    picture = base64.b64decode(view["plot"].split(",", 1)[1])
    downloads = {"video.csv": view["csv"].encode(), "video.json": view["json_text"].encode(), "video.png": picture}
    figures = {k: v for k, v in view.items() if k not in ("csv", "json_text", "plot")}
    return Answer(fragment("video_answer.html", view=view, fields=fields, upload_name=_safe_name(upload_name)),
                  downloads, figures)


PAGE = Page(
    slug="video-poker", title="Video poker",
    summary="The exact return of a pay table under optimal play: the combination table, variance and "
            "the plot; a built-in game or your own pay table file.",
    template="video.html", prepare=prepare, uploads=("paytable_file",),
    defaults={"paytable": "jacks-or-better-9-6"}, quick_wait=4.0,
)


def _template_globals() -> None:
    """The built-in pay tables for the forms' select (``_paytable_fields.html``)."""
    from cardlab.web.render import environment

    environment().globals["video_paytables"] = paytable_choices


_template_globals()
