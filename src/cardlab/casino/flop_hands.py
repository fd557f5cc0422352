"""What Ultimate Texas Hold'em (:mod:`cardlab.casino.uth`) and Texas Hold'em Bonus
(:mod:`cardlab.casino.thb`) share: the game checked and its flops, pay lines and deck set up for
the compiled core, the hole hands classed by rank pair and suitedness (each flop's hole hands
among the classes), exact sums by class, and the pre-flop choices in the words players use.

>>> setup = flop_setup(load_game("texas-holdem-bonus"), "texas-holdem-bonus")
>>> len(setup.flops), int(setup.weights.sum()), setup.symmetric, setup.scale
(1755, 22100, True, 1)
>>> hand_rule({hole_key(12, 12, False): 4, hole_key(11, 11, False): 4, hole_key(12, 11, True): 4}, 4)
'pairs KK+, AKs'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from cardlab.cards import RANKS
from cardlab.casino import kernel
from cardlab.casino.game import Game, checked_game, load_game  # noqa: F401 (the module's example uses it)
from cardlab.casino.holdem import flop_classes, pay_lines

__all__ = ["FlopSetup", "flop_setup", "hole_class", "hole_key", "classes_by_flop", "sum_by", "hand_rule"]


@dataclass(frozen=True)
class FlopSetup:
    """A checked game's deck (``cards``, and as an int64 array ``deck``), whether it is
    suit-symmetric, its flop classes (``reps``, ``weights``, ``flops``: :func:`flop_classes`) and
    its pays by category with the kernels' pay lines (``pays``, ``scale``, ``line``, ``scaled``:
    :func:`pay_lines`)."""

    cards: list[int]
    deck: np.ndarray
    symmetric: bool
    reps: np.ndarray
    weights: np.ndarray
    flops: np.ndarray
    pays: list[Fraction]
    scale: int
    line: list[int]
    scaled: list[int]


def flop_setup(game: Game, kind: str, ties: str = "fold") -> FlopSetup:
    """The :class:`FlopSetup` of a game of ``kind`` (checked first: :func:`checked_game`)."""
    cards = checked_game(game, kind, ties).cards
    reps, weights, flops = flop_classes(cards)
    pays, scale, line, scaled = pay_lines(game)
    return FlopSetup(cards, np.array(cards, dtype=np.int64), kernel.suit_symmetric(cards), reps, weights, flops,
                     pays, scale, line, scaled)


def hole_key(high: int, low: int, suited: bool) -> int:
    """The number :func:`hole_class` gives the hole hands of ranks ``high`` >= ``low`` (0 = two)."""
    return high * 13 + low + 169 * suited


def hole_class(cards: np.ndarray, symmetric: bool) -> np.ndarray:
    """A number for each hole hand (rows of two card ids): its rank pair and suitedness when the
    deck is suit-symmetric (:func:`hole_key`), else the cards themselves."""
    if not symmetric:
        out: np.ndarray = np.sort(cards, axis=1) @ np.array([52, 1])
        return out
    ranks = np.sort(cards >> 2, axis=1)
    key: np.ndarray = ranks[:, 1] * 13 + ranks[:, 0] + 169 * ((cards[:, 0] & 3) == (cards[:, 1] & 3))
    return key


def classes_by_flop(setup: FlopSetup, holes: int) -> tuple[np.ndarray, np.ndarray]:
    """The hole hand classes met (``keys``, as :func:`hole_class` numbers them) and the index
    among them of each (flop, hole hand), for the ``holes`` hole hands of each flop (colex order of
    their positions among the cards off the flop)."""
    from cardlab.casino.simulation import positions_of

    at = positions_of(np.arange(holes), 2)
    deck = setup.deck
    classes = np.stack([hole_class(deck[~np.isin(deck, f)][at], setup.symmetric) for f in setup.flops])
    keys, where = np.unique(classes, return_inverse=True)
    return keys, where.reshape(classes.shape)


def sum_by(group: np.ndarray, value: np.ndarray, count: int) -> np.ndarray:
    """Exact int64 sums of ``value`` by ``group``."""
    out = np.zeros(count, dtype=np.int64)
    np.add.at(out, group, value)
    return out


def hand_rule(choice: dict[int, int], play: int) -> str:
    """The hole hands whose ``choice`` (by :func:`hole_key`) is ``play``, as players list them."""
    def acts(hi: int, lo: int, suited: bool) -> bool:
        return choice.get(hole_key(hi, lo, suited), -1) == play

    parts = []
    pairs = [r for r in range(13) if acts(r, r, False)]
    if pairs:
        parts.append(f"pairs {RANKS[min(pairs)]}{RANKS[min(pairs)]}+" if pairs == list(range(min(pairs), 13))
                     else "pairs " + ", ".join(RANKS[r] * 2 for r in pairs))
    for suited, word in ((True, "s"), (False, "o")):
        for hi in range(12, 0, -1):
            kickers = [lo for lo in range(hi) if acts(hi, lo, suited)]
            if not kickers:
                continue
            least = min(kickers)
            if kickers == list(range(least, hi)):
                parts.append(f"{RANKS[hi]}{RANKS[least]}{word}+" if least < hi - 1 else f"{RANKS[hi]}{RANKS[least]}{word}")
            else:
                parts.append(", ".join(f"{RANKS[hi]}{RANKS[lo]}{word}" for lo in kickers))
    return ", ".join(parts) if parts else "none"
