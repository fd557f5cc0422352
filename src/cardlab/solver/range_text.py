"""A solved range written back in cardlab's range syntax, so it can start the next spot: the
combos reaching a node, each weighted by its range weight times how often it plays there.

A hand class whose combos (those missing the board) all share a weight is written as the class
(``KK:0.5``), the others combo by combo (``AhKh:0.25``); weights are rounded to 4 decimals and
combos below 0.0001 left out.

>>> import numpy as np
>>> cards = np.array([[51, 50], [51, 49], [50, 49], [47, 43]])  # AsAh AsAd AhAd KsQs
>>> weighted_range_text(cards, np.array([1.0, 1.0, 1.0, 0.25]), board=[48, 0, 4, 8, 12])
'AA, KsQs:0.25'
"""

from __future__ import annotations

from collections import defaultdict
from typing import Sequence

import numpy as np

from cardlab.cards import format_cards
from cardlab.poker.ranges import class_label, combo_classes, parse_range

__all__ = ["weighted_range_text"]


def weighted_range_text(cards: np.ndarray, weights: np.ndarray, board: Sequence[int]) -> str:
    """The range text of combos ``cards`` (n, 2) with ``weights``, beside ``board``."""
    rounded = np.round(np.asarray(weights, dtype=np.float64), 4)
    keep = rounded >= 1e-4
    by_class: dict[int, dict[tuple[int, int], float]] = defaultdict(dict)
    for (a, b), w, c in zip(cards[keep], rounded[keep], combo_classes(cards[keep])):
        by_class[int(c)][(int(max(a, b)), int(min(a, b)))] = float(w)
    parts: list[str] = []
    dead = set(int(c) for c in board)
    for c in sorted(by_class):
        label = class_label(c)
        members = by_class[c]
        live = {tuple(int(x) for x in combo) for combo in parse_range(label).without(dead).combos}
        values = set(members.values())
        if set(members) == live and len(values) == 1:
            parts.append(_weighted(label, values.pop()))
        else:
            parts += [_weighted(format_cards(combo, sep=""), w) for combo, w in sorted(members.items(), reverse=True)]
    return ", ".join(parts)


def _weighted(token: str, weight: float) -> str:
    return token if weight == 1 else f"{token}:{weight:g}"
