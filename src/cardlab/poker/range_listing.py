"""The hands of a range, listed: what ``cardlab poker range EXPR --game omaha`` prints.

JSON (:meth:`RangeListing.to_json`)::

    {"range": str, "game": str, "combos": int, "hands": [str]}

plus ``"weights": [int]`` beside ``hands`` when the range is weighted (``AA@10, KK@5``).

>>> r = list_range("AA:xxyy", game="omaha")
>>> r
RangeListing(omaha 'AA:xxyy': 864 combos)
>>> r.to_dict()["hands"][:2]
['AsAhKsKh', 'AsAhKsQh']
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.cards import RANKS, SUITS
from cardlab.errors import RangeError
from cardlab.poker.equity import Game, game_named, range_of
from cardlab.results import json_text

__all__ = ["RangeListing", "list_range", "MAX_LISTED"]

MAX_LISTED = 1_000_000
"""The most hands a listing holds (each a Python string: about 100 bytes with its table line):
every Omaha hand (270,725) fits, ``random`` Omaha 5 or 6 (2.6 and 20.4 million) is refused."""


@dataclass(frozen=True)
class RangeListing:
    """A range's hands for one game; ``weights`` is None when the range is not weighted."""

    range: str
    game: str
    hands: tuple[str, ...]
    weights: tuple[float, ...] | None = None

    @property
    def combos(self) -> int:
        """How many hands (combos) the range holds."""
        return len(self.hands)

    def __repr__(self) -> str:
        return f"RangeListing({self.game} {self.range!r}: {self.combos:,} combos)"

    def to_dict(self) -> dict[str, Any]:
        """A dict in the documented JSON schema."""
        data: dict[str, Any] = {"range": self.range, "game": self.game, "combos": self.combos,
                                "hands": list(self.hands)}
        if self.weights is not None:
            data["weights"] = [int(w) if float(w).is_integer() else w for w in self.weights]
        return data

    def to_json(self) -> str:
        """The JSON of :meth:`to_dict`, indented, with a final newline."""
        return json_text(self.to_dict()) + "\n"

    def to_csv(self) -> str:
        """One row per hand: hand, weight."""
        weights = self.weights or (1.0,) * self.combos
        return "hand,weight\n" + "".join(f"{h},{_w(w)}\n" for h, w in zip(self.hands, weights))

    def to_pandas(self) -> Any:
        """A DataFrame, one row per hand (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame({"hand": list(self.hands), "weight": list(self.weights or (1.0,) * self.combos)})

    def table(self) -> str:
        """The text the command prints: a caption with the count, then the hands, several a line."""
        what = self.game.replace("holdem", "hold'em").replace("shortdeck", "short deck")
        lines = [f"{what} range '{self.range}': {self.combos:,} combos"]
        shown = list(self.hands)
        if self.weights is not None:
            shown = [f"{h}@{_w(w)}" for h, w in zip(self.hands, self.weights)]
        per = max(1, 72 // (max(len(s) for s in shown) + 1))
        for i in range(0, len(shown), per):
            lines.append(" ".join(shown[i:i + per]))
        return "\n".join(lines) + "\n"

    def _repr_html_(self) -> str:
        head = html.escape(f"{self.game} range '{self.range}': {self.combos:,} combos")
        body = html.escape(" ".join(self.hands[:200]) + (" ..." if self.combos > 200 else ""))
        return f"<div><b>{head}</b><br><code>{body}</code></div>"


def _w(w: float) -> str:
    return str(int(w)) if float(w).is_integer() else f"{w:g}"


def list_range(expr: str, game: str | Game = "omaha") -> RangeListing:
    """Every hand of ``game`` (holdem, omaha, omaha5, omaha6, shortdeck) in the range ``expr``.

    Omaha ranges are read in the generic syntax (:mod:`cardlab.poker.generic`); hold'em and short
    deck ranges in the classic syntax when they read in it, else in the generic one.
    """
    g = game_named(game)
    rng = range_of(expr, g)
    if len(rng) > MAX_LISTED:  # before a string is made: 20 million of them took 4 GB
        raise RangeError(f"the range holds {len(rng):,} {g.name} hands; a listing holds at most {MAX_LISTED:,} "
                         f"(narrow the range; poker equity and poker board take it whole)")
    weights = rng.weights
    weighted = bool(len(weights)) and not bool((weights == weights[0]).all()) or \
        (len(weights) > 0 and float(weights[0]) != 1.0)
    names = np.array([RANKS[c // 4] + SUITS[c % 4] for c in range(52)])[np.asarray(rng.combos, dtype=np.int64)]
    joined = names[:, 0]
    for j in range(1, names.shape[1]):
        joined = np.char.add(joined, names[:, j])
    hands = tuple(str(h) for h in joined)
    return RangeListing(expr, g.name, hands, tuple(float(w) for w in weights) if weighted else None)
