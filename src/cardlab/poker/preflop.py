"""The exact all-in equity of every pair of the 169 starting-hand classes (hold'em, preflop).

:func:`class_matrix` gives a :class:`ClassMatrix`: for classes ``i`` (first player) and ``j``
(second player), ``pairs[i, j]`` is the number of ordered combo pairs (one combo of each class,
no card shared: the card-removal weight of the match-up) and ``units[i, j]`` the first player's
share of the pot summed over those pairs and over every one of the C(48, 5) = 1,712,304 boards,
in pot units of :data:`cardlab.poker.equity.UNIT` (a split pot gives each player half). So
``units / (UNIT * BOARDS * pairs)`` is the exact equity, and ``Fraction(units, UNIT * BOARDS *
pairs)`` the same as a fraction.

The table is computed once by the compiled exact kernel (the one behind
:func:`cardlab.poker.equity.equity`): every ordered pair of the 1,326 combos that shares no card
is put in its canonical form under the 24 suit permutations, and each distinct match-up (up to the
suit permutations and the exchange of the two seats) is enumerated over all its boards; the sums are then gathered by class. It ships as
package data (``poker/data/preflop_classes.npz``); :func:`compute_class_matrix` rebuilds it from
scratch (about a minute on two cores; ``benchmarks/bench_tournament.py`` times it).

>>> m = class_matrix()
>>> int(m.pairs[class_index("AA"), class_index("KK")]), int(m.pairs[class_index("AKs"), class_index("AA")])
(36, 12)
>>> round(m.equity(class_index("AA"), class_index("KK")), 4)
0.8195
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from itertools import permutations
from math import comb

import numpy as np

from cardlab.poker.equity import GAMES, UNIT, _canonical, _exact_tally
from cardlab.poker.ranges import class_index, class_label, combo_classes

__all__ = ["ClassMatrix", "class_matrix", "compute_class_matrix", "all_combos", "BOARDS", "CLASSES",
           "class_labels"]

BOARDS = comb(48, 5)
"""Boards dealt to a heads-up preflop all-in: 1,712,304."""
CLASSES = 169
"""Starting-hand classes of hold'em: 13 pairs, 78 suited and 78 offsuit hands."""
DATA_FILE = "preflop_classes.npz"


@dataclass(frozen=True, eq=False)
class ClassMatrix:
    """Exact class-against-class equity: ``units`` and ``pairs`` are ``(169, 169)`` int64
    (rows the first player's class, columns the second's, in :func:`class_index` order);
    ``ties[i, j]`` counts the boards split, over the same pairs (so the boards the first player
    wins outright are ``(units - ties * UNIT / 2) / UNIT``)."""

    units: np.ndarray
    pairs: np.ndarray
    ties: np.ndarray

    def __repr__(self) -> str:
        return f"ClassMatrix(169 x 169, {int(self.pairs.sum()):,} combo pairs)"

    def equity(self, i: int, j: int) -> float:
        """The first player's equity with class ``i`` against class ``j``."""
        return float(self.units[i, j]) / (UNIT * BOARDS * float(self.pairs[i, j]))

    def equity_exact(self, i: int, j: int) -> Fraction:
        """The same as a fraction."""
        return Fraction(int(self.units[i, j]), UNIT * BOARDS * int(self.pairs[i, j]))

    def wins(self) -> np.ndarray:
        """Boards won outright by the first player, summed over the pairs (int64)."""
        out: np.ndarray = (self.units - self.ties * (UNIT // 2)) // UNIT
        return out

    def equities(self) -> np.ndarray:
        """The ``(169, 169)`` float matrix of equities (NaN where no pair of combos fits: never)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            out: np.ndarray = self.units / (float(UNIT * BOARDS) * self.pairs)
        return out


def class_labels() -> list[str]:
    """The 169 class names (``AA``, ``AKs``, ``72o``) in :func:`class_index` order."""
    return [class_label(i) for i in range(CLASSES)]


def all_combos() -> np.ndarray:
    """The 1,326 hold'em combos as ``(1326, 2)`` uint8 card ids, higher card first."""
    return np.array([(a, b) for a in range(51, -1, -1) for b in range(a - 1, -1, -1)], dtype=np.uint8)


def compute_class_matrix(workers: int = 2) -> ClassMatrix:
    """The class matrix from scratch by the compiled exact kernel (about a minute on two cores)."""
    combos = all_combos()
    n = len(combos)
    a = np.repeat(np.arange(n), n)
    b = np.tile(np.arange(n), n)
    ca, cb = combos[a], combos[b]
    free = ((ca[:, 0, None] != cb) & (ca[:, 1, None] != cb)).all(axis=1)
    a, b = a[free], b[free]
    deals = np.stack([combos[a], combos[b]], axis=1)
    maps = [np.array([(c // 4) * 4 + p[c % 4] for c in range(52)], dtype=np.uint8)
            for p in permutations(range(4))]
    # a match-up and the same one with the players' seats swapped are one problem: keep the
    # lexicographically smaller canonical form, and read the other player's sums when swapped
    canon = _canonical(deals, maps)
    other = _canonical(deals[:, ::-1], maps)
    diff = canon != other
    first = diff.argmax(axis=1)
    rows = np.arange(len(canon))
    swapped = diff.any(axis=1) & (other[rows, first] < canon[rows, first])
    canon[swapped] = other[swapped]
    unique, inverse = np.unique(canon, axis=0, return_inverse=True)
    acc, per_deal = _exact_tally(GAMES["holdem"], unique.reshape(len(unique), 2, 2), [], [], False, workers)
    assert per_deal == BOARDS
    inverse = inverse.reshape(-1)
    seat = swapped.astype(np.int64)
    classes = combo_classes(combos)
    cell = classes[a].astype(np.int64) * CLASSES + classes[b]
    pairs = np.bincount(cell, minlength=CLASSES * CLASSES).astype(np.int64)
    units = np.zeros(CLASSES * CLASSES, dtype=np.int64)
    ties = np.zeros(CLASSES * CLASSES, dtype=np.int64)
    np.add.at(units, cell, acc[inverse, seat, 2])
    np.add.at(ties, cell, acc[inverse, seat, 1])
    shape = (CLASSES, CLASSES)
    return ClassMatrix(units=units.reshape(shape), pairs=pairs.reshape(shape), ties=ties.reshape(shape))


@lru_cache(maxsize=1)
def class_matrix() -> ClassMatrix:
    """The shipped class matrix (read once from the package data)."""
    with resources.files("cardlab.poker").joinpath("data", DATA_FILE).open("rb") as handle:
        data = np.load(handle)
        return ClassMatrix(units=data["units"].astype(np.int64), pairs=data["pairs"].astype(np.int64),
                           ties=data["ties"].astype(np.int64))



def _write_data(path: str) -> None:  # pragma: no cover - run once to build the package data
    m = compute_class_matrix()
    np.savez_compressed(path, units=m.units, pairs=m.pairs, ties=m.ties)


if __name__ == "__main__":  # pragma: no cover
    import sys

    _write_data(sys.argv[1])
    print(class_index("AA"))
