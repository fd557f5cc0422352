"""The workbench's poker pages as plain functions: form fields in, a view of figures out.

Each function reads the fields of one form (text, as a browser sends it), checks them, calls the
library function the command line calls (:func:`cardlab.poker.equity.equity` for ``poker
equity``, :func:`cardlab.poker.board_stats.board_stats` for ``poker board``,
:func:`cardlab.poker.equity.range_of` for ``poker range``) and returns a dict of the figures,
formatted as the command line prints them. Bad input raises a :class:`~cardlab.errors.CardlabError`
naming the field and the offending text; the page shows its message.

>>> view = equity_view({"player1": "AsAh", "player2": "KdKc", "board": "2c 7d 9h"})
>>> [(p["spec"], p["equity"]) for p in view["players"]]
[('AsAh', '91.616%'), ('KdKc', '8.384%')]
>>> equity_view({"player1": "AsAh", "player2": "AsKd"})
Traceback (most recent call last):
...
cardlab.errors.DeckError: card As is given twice (player 1 and player 2)
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from cardlab.errors import CardlabError

__all__ = ["equity_view", "board_view", "range_cells", "read_equity_form", "EquityForm", "GAMES",
           "BOARD_GAMES", "OTHER_GAMES", "ALL_GAMES", "MAX_PLAYERS", "MAX_TRIALS", "EXACT_LIMIT", "RANKS_DOWN", "field", "field_grid",
           "FIELD_TRIALS", "FIELD_SEED"]

#: The games of the equity page (value, label): the keys of :data:`cardlab.poker.equity.GAMES`.
GAMES = (("holdem", "Hold'em"), ("shortdeck", "Short deck (6+)"), ("omaha", "Omaha (4 cards)"),
         ("omaha5", "Omaha, 5 cards"), ("omaha6", "Omaha, 6 cards"))
#: The games without a board (:func:`cardlab.poker.games.game_equity`): stud, razz, lowball, badugi.
OTHER_GAMES = (("stud", "Seven-card stud"), ("stud8", "Stud hi-lo (8 or better)"), ("razz", "Razz"),
               ("27", "2-7 lowball (draw)"), ("a5", "A-5 lowball (draw)"), ("badugi", "Badugi"))
#: Every game of the equity page.
ALL_GAMES = GAMES + OTHER_GAMES
#: The games of the board page (board statistics are for hold'em and short deck).
BOARD_GAMES = GAMES[:2]
#: Player boxes on the equity page (hold'em takes up to 9).
MAX_PLAYERS = 9
#: Most simulated boards one request may ask for: about a minute of the compiled kernel.
MAX_TRIALS = 100_000_000
#: Hand evaluations an exact answer may cost on the page (the command line's default is higher:
#: a page answers within a few seconds, and offers a simulation beyond this).
EXACT_LIMIT = 4_000_000_000
#: The ranks from the top row of the grid down.
RANKS_DOWN = "AKQJT98765432"

_LIMIT = 2000  # characters of one text field: far more than any range or card list needs


def field(form: Mapping[str, Any], name: str, label: str | None = None) -> str:
    """The text of field ``name`` ('' when absent), refused when longer than a form needs."""
    value = form.get(name, "")
    text = "" if value is None else str(value)
    if len(text) > _LIMIT:
        raise CardlabError(f"{label or name}: at most {_LIMIT:,} characters, got {len(text):,}")
    return text.strip()


def _whole(text: str, label: str, low: int, high: int) -> int:
    cleaned = text.replace("_", "").replace(",", "").replace(" ", "")
    if not re.fullmatch(r"\d{1,30}", cleaned):
        raise CardlabError(f"{label}: expected a whole number, got '{text}'")
    value = int(cleaned)
    if not low <= value <= high:
        raise CardlabError(f"{label}: expected a whole number from {low:,} to {high:,}, got '{text}'")
    return value


def _choice(text: str, label: str, choices: tuple[tuple[str, str], ...], default: str) -> str:
    value = text or default
    if value not in {c for c, _ in choices}:
        raise CardlabError(f"{label}: unknown choice '{value}' (choose {', '.join(c for c, _ in choices)})")
    return value


class EquityForm:
    """The checked fields of the equity form: the specs of the players, board, dead cards,
    game, hi-lo, and ``trials``/``seed`` when a simulation is asked for."""

    def __init__(self, specs: list[str], board: str, dead: str, game: str, hi_lo: bool,
                 trials: int | None, seed: int | None, draws: int | None = None) -> None:
        self.specs, self.board, self.dead, self.game = specs, board, dead, game
        self.hi_lo, self.trials, self.seed, self.draws = hi_lo, trials, seed, draws

    def argv(self) -> list[str]:
        """The same question as ``cardlab poker equity`` arguments (shown on the page, used by tests)."""
        words = ["poker", "equity", *self.specs]
        if self.board:
            words += ["--board", self.board]
        if self.dead:
            words += ["--dead", self.dead]
        if self.game != "holdem":
            words += ["--game", self.game]
        if self.hi_lo:
            words.append("--hi-lo")
        if self.draws is not None:
            words += ["--draws", str(self.draws)]
        if self.trials is not None:
            words += ["--simulate", str(self.trials)]
            if self.seed is not None:
                words += ["--seed", str(self.seed)]
        return words


def read_equity_form(form: Mapping[str, Any]) -> EquityForm:
    """The fields ``player1`` .. ``player9``, ``board``, ``dead``, ``game``, ``hilo``, ``mode``
    (``exact`` or ``simulate``), ``trials`` and ``seed``, checked."""
    specs = [field(form, f"player{n}", f"player {n}") for n in range(1, MAX_PLAYERS + 1)]
    specs = [s for s in specs if s]
    if len(specs) < 2:
        raise CardlabError("give at least two players a hand or a range")
    game = _choice(field(form, "game"), "game", ALL_GAMES, "holdem")
    hi_lo = field(form, "hilo").lower() in ("on", "1", "true", "yes")
    trials = seed = None
    if field(form, "mode") == "simulate":
        trials = _whole(field(form, "trials") or "1000000", "boards to simulate", 1, MAX_TRIALS)
        seed_text = field(form, "seed")
        seed = _whole(seed_text, "seed", 0, 2**64 - 1) if seed_text else None
    draws_text = field(form, "draws", "draws")
    draws = _whole(draws_text, "draws", 0, 3) if draws_text else None
    board = field(form, "board", "board")
    if game in dict(OTHER_GAMES) and (board or hi_lo):
        raise CardlabError(f"{dict(OTHER_GAMES)[game]} has no board and its own split rules: the board and "
                           "hi-lo are for hold'em and Omaha")
    if draws is not None and game not in ("27", "a5", "badugi"):
        raise CardlabError("draws: for the draw games (2-7 and A-5 lowball, badugi)")
    return EquityForm(specs, board, field(form, "dead", "dead cards"), game, hi_lo, trials, seed, draws)


def _command(argv: list[str]) -> str:
    import shlex

    return "cardlab " + shlex.join(argv)


def _weight(w: float) -> float:
    return round(w, 6)


def _num(x: int | float) -> str:
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    return f"{x:,}" if isinstance(x, int) else f"{x:,.2f}"


def equity_view(form: Mapping[str, Any], *, workers: int = 1, progress: bool = False) -> dict[str, Any]:
    """The equity page's answer: ``caption``, ``exact``, ``players`` (the figures of ``poker
    equity``'s table as text), ``grid`` (13 rows of cells: the first player's equity against each
    hand class of the second player's range, when there is one) and ``argv``.
    """
    from cardlab.poker.equity import equity

    question = read_equity_form(form)
    if question.game in dict(OTHER_GAMES):
        from cardlab.poker.games import game_equity

        result = game_equity(question.specs, question.game, question.dead, draws=question.draws,
                             trials=question.trials, seed=question.seed, workers=workers,
                             progress=progress and question.trials is not None)
    else:
        result = equity(question.specs, board=question.board, dead=question.dead, game=question.game,
                        hi_lo=question.hi_lo, trials=question.trials, seed=question.seed, workers=workers,
                        max_evaluations=EXACT_LIMIT, progress=progress and question.trials is not None)
    view = equity_result_view(result, question)
    view["field"] = field_grid(question, workers=workers)
    return view


#: Boards simulated for the grid of every starting hand against the second player (about 0.15 s:
#: each class is shown to the whole percent, within about 1% at 95%).
FIELD_TRIALS = 1_500_000
#: Its seed: the same question shows the same grid.
FIELD_SEED = 39


def field_grid(question: EquityForm, *, workers: int = 1) -> dict[str, Any] | None:
    """Every starting hand's equity against the second player's hand or range (two players,
    hold'em or short deck), as the equity grid colours it: the second player against ``random``
    simulated over :data:`FIELD_TRIALS` boards, each class's share being one minus the second
    player's equity against it. ``rows``: 13 rows of cells (label, ``equity`` text to the whole
    percent, ``band`` 0-9, ``mine``: the class is in the first player's range); ``command``:
    the CLI's question giving the same figures (its picture draws this grid)."""
    from cardlab.errors import CardlabError as _Error
    from cardlab.poker.equity import equity
    from cardlab.poker.ranges import class_label

    if len(question.specs) != 2 or question.game not in ("holdem", "shortdeck"):
        return None
    other = question.specs[1]
    try:
        result = equity([other, "random"], board=question.board, dead=question.dead, game=question.game,
                        hi_lo=question.hi_lo, trials=FIELD_TRIALS, seed=FIELD_SEED, workers=workers)
    except _Error:
        return None
    mine = {c["label"] for c in range_cells(question.specs[0], question.game)["cells"] if c["n"]}
    rows = []
    for r in range(13):
        row = []
        for c in range(13):
            against = result.grid[r * 13 + c] if result.grid is not None else None
            share = None if against is None else 1.0 - against
            label = class_label(r * 13 + c)
            row.append({"label": label, "value": share, "equity": None if share is None else f"{share:.0%}",
                        "band": None if share is None else min(9, int(share * 10)), "mine": label in mine})
        rows.append(row)
    argv = ["poker", "equity", other, "random", *(["--board", question.board] if question.board else []),
            *(["--dead", question.dead] if question.dead else []),
            *(["--game", question.game] if question.game != "holdem" else []),
            *(["--hi-lo"] if question.hi_lo else []), "--simulate", str(FIELD_TRIALS), "--seed", str(FIELD_SEED)]
    return {"rows": rows, "of": other, "trials": FIELD_TRIALS, "seed": FIELD_SEED, "command": _command(argv)}


def equity_result_view(result: Any, question: EquityForm) -> dict[str, Any]:
    """The view of an :class:`~cardlab.poker.equity_result.EquityResult` (see :func:`equity_view`)."""
    players = []
    for n, p in enumerate(result.players, 1):
        players.append({"n": n, "spec": p.spec, "win": f"{p.win:.3%}", "tie": f"{p.tie:.3%}",
                        "equity": f"{p.equity:.3%}", "wins": _num(p.wins), "ties": _num(p.ties),
                        "low": f"{p.ci95[0]:.3%}", "high": f"{p.ci95[1]:.3%}",
                        "value": p.equity})
    grid = None
    if result.grid is not None:
        from cardlab.poker.ranges import class_label

        grid = [[{"label": class_label(r * 13 + c),
                  "equity": None if result.grid[r * 13 + c] is None else f"{result.grid[r * 13 + c]:.1%}",
                  "value": result.grid[r * 13 + c],
                  "band": None if result.grid[r * 13 + c] is None else min(9, int(result.grid[r * 13 + c] * 10))}
                 for c in range(13)] for r in range(13)]
    sim = result.simulation
    return {"caption": result.table().splitlines()[0], "exact": result.exact, "players": players,
            "grid": grid, "grid_of": question.specs[1] if grid is not None else None,
            "argv": question.argv(), "command": _command(question.argv()), "total": _num(result.total),
            "seed": None if sim is None else sim.seed,
            "interrupted": bool(sim is not None and sim.interrupted), "json": result.to_dict(),
            "text": result.table(), "csv": result.to_csv(), "json_text": result.to_json()}


def board_view(form: Mapping[str, Any]) -> dict[str, Any]:
    """The board page's answer for the fields ``range``, ``board``, ``dead`` and ``game``:
    ``caption`` and ``groups`` (the sections of ``board_stats.SECTIONS``: made hands, three of a
    kind, one pair, underpairs, draws; rows of name, combos and share, as ``poker board`` prints
    them) and ``argv``."""
    from cardlab.poker.board_stats import SECTIONS, board_stats

    spec = field(form, "range", "range")
    board = field(form, "board", "board")
    dead = field(form, "dead", "dead cards")
    game = _choice(field(form, "game"), "game", BOARD_GAMES, "holdem")
    if not spec:
        raise CardlabError("range: give a range, e.g. QQ+, AK, KQs")
    if not board:
        raise CardlabError("board: give 3 to 5 cards, e.g. Qh 9c 2d")
    stats = board_stats(spec, board, dead=dead, game=game)
    by_name = {c.name: c for c in stats.classes}
    groups = []
    for title, names, _ in SECTIONS:
        groups.append({"title": title, "rows": [
            {"name": n, "combos": f"{by_name[n].combos:,}", "share": f"{by_name[n].probability:.2%}"}
            for n in names]})
    argv = ["poker", "board", spec, "--board", board] + (["--dead", dead] if dead else []) + \
        (["--game", game] if game != "holdem" else [])
    return {"caption": stats.table().splitlines()[0], "groups": groups, "total": stats.total,
            "hands": _hands_by_class(spec, board, dead, game),
            "argv": argv, "command": _command(argv), "json": stats.to_dict(), "text": stats.table(), "csv": stats.to_csv(),
            "json_text": stats.to_json()}


def _hands_by_class(spec: str, board: str, dead: str, game: str) -> list[list[dict[str, Any]]]:
    """The 13 x 13 grid of the range's hand classes on the board: each cell's combos in the range
    (``n``) and the board-statistics classes its combos make (``slugs``: a name with dashes, for
    the page to light up the hands of the class chosen)."""
    import numpy as np

    from cardlab.poker.board_stats import combo_masks
    from cardlab.poker.ranges import class_label, combo_classes

    _, _, holes, _, masks = combo_masks(spec, board, dead=dead, game=game)
    classes = combo_classes(holes)
    total = np.bincount(classes, minlength=169)
    made = {name: np.bincount(classes[mask], minlength=169) for name, mask in masks.items()}
    return [[{"label": class_label(k), "n": int(total[k]),
              "slugs": [name.replace(" ", "-") for name, counts in made.items() if counts[k]]}
             for k in range(r * 13, r * 13 + 13)] for r in range(13)]


def range_cells(text: str, game: str = "holdem") -> dict[str, Any]:
    """What the range grid shows for a range text, read by the library's range parser.

    ``cells`` holds 169 entries in grid order (``row * 13 + column``, aces first): the class
    label, the combos of the class in the range (``n``), the combos the class has in the game's
    deck (``of``), the mean weight of its combos in the range, and when the range takes only some
    of the class's combos, those combos (``AhKh``) so that the grid can write them back.
    ``combos`` is the range's size. A text that does not read gives ``error`` (the parser's
    message) and no cells.

    >>> cells = range_cells("QQ+, AhKh")
    >>> cells["combos"], cells["cells"][0]["n"], cells["cells"][1]["combos"]
    (19, 6, [['AhKh', 1.0]])
    >>> range_cells("AKx")["error"][:21]
    "cannot read 'AKx' in "
    """
    import numpy as np

    from cardlab.poker.equity import game_named
    from cardlab.poker.ranges import class_label, combo_classes, parse_range

    g = game_named(_choice(game, "game", BOARD_GAMES, "holdem"))
    text = text.strip()
    sizes = []
    for i in range(169):
        label = class_label(i)
        low_rank = RANKS_DOWN[::-1].index(label[1])
        per = 6 if len(label) == 2 else (4 if label[2] == "s" else 12)
        sizes.append(per if low_rank >= g.lowest_rank else 0)
    empty = {"combos": 0, "error": None, "game": g.name,
             "cells": [{"label": class_label(i), "n": 0, "of": sizes[i], "weight": 0.0, "combos": None}
                       for i in range(169)]}
    if not text:
        return empty
    if len(text) > _LIMIT:
        return {"combos": 0, "error": f"a range of at most {_LIMIT:,} characters", "cells": [], "game": g.name}
    try:
        rng = parse_range(text, lowest_rank=g.lowest_rank)
    except CardlabError as error:
        return {"combos": 0, "error": str(error), "cells": [], "game": g.name}
    classes = combo_classes(rng.combos)
    counts = np.bincount(classes, minlength=169)
    weights = np.bincount(classes, weights=rng.weights, minlength=169)
    members: dict[int, list[tuple[str, float]]] = {}
    for cls, label, w in zip(classes.tolist(), rng.labels(), rng.weights.tolist()):
        members.setdefault(int(cls), []).append((label, _weight(w)))
    cells = []
    for i in range(169):
        n = int(counts[i])
        own = sorted(members.get(i, []))
        uniform = len({w for _, w in own}) <= 1
        cells.append({"label": class_label(i), "n": n, "of": sizes[i],
                      "weight": _weight(float(weights[i] / n)) if n else 0.0,
                      "combos": [[c, w] for c, w in own] if n and (n < sizes[i] or not uniform) else None})
    return {"combos": len(rng), "error": None, "cells": cells, "game": g.name}
