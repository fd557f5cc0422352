"""Optimal strategies as rules in words, each proved by its own exact house edge.

The hold'em games' flop decisions (Casino Hold'em's call, Ultimate Texas Hold'em's 2x after
checking, Texas Hold'em Bonus's flop bet) depend on all five cards seen, so the exact strategy is
a table of some two million (flop class, hole cards) entries. A rule a player can read is made
from it here: every five-card hand falls in one family of what the hole cards make with the flop
(:data:`FAMILIES`, the first that fits), and within a family the rule acts from a threshold up
(a pair rank, the higher hole card, the hidden flush card: "four to a flush with a hidden T or
better"). For each family the threshold is the one that loses least against the exact decisions
(by the exact expectations of both choices, every hand weighed by its deals), so the rule is the
best of its shape; and the rule is then played as a strategy and its exact expectation summed:
how much it gives up against the optimal strategy is printed beside it.

>>> fits = np.array([0, 0, 1, 1, 1]); order = np.array([0, 0, 3, 5, 9])
>>> gain = np.array([5, 2, -4, 1, 6])       # acting's gain over not acting, by hand
>>> best_thresholds(fits, order, gain, 2).tolist()
[0, 5]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Sequence

import numpy as np

from cardlab.cards import RANKS

if TYPE_CHECKING:
    from cardlab.casino.holdem import FlopPlan

__all__ = ["FAMILIES", "WordRule", "best_thresholds", "flop_families", "flop_word_rule", "rule_lines"]

#: The families of a (hole cards, flop) hand, the first that fits.
FAMILIES = ("two pair or better made with a hole card", "a pocket pair", "a pair made with a hole card",
            "three of a kind on the board", "a pair of twos or threes on the board", "a higher pair on the board",
            "four to a flush", "four to an open-ended straight", "four to an inside straight",
            "no pair, no four-card draw, a flop of one suit",
            *(f"no pair, no four-card draw, {o} overcard{'s' * (o != 'one')}{b}" for b in (", three to a flush", "")
              for o in ("two", "one", "no")))
_NAMES = ("two pair or better (made with a hole card)", "a pocket pair", "a pair made with a hole card",
          "trips on the board only", "a pair of twos or threes on the board only",
          "a pair of fours or better on the board only", "four to a flush", "four to an open-ended straight",
          "four to an inside straight", "a flop of one suit (no pair, no four-card draw)",
          *(f"{o}{b} (no pair, no four-card draw)" for b in (" and three to a flush", "")
            for o in ("two overcards", "one overcard", "no overcard")))
_BOARD_PAIR = ("bottom pair", "second pair", "top pair")
_HOLE = (3, 4, 5, 9, 10, 11, 12, 13, 14, 15)  # the families ordered by both hole cards ("K-8 or better")


def _threshold_words(family: int, least: int) -> str:
    """How a family's threshold reads: the least ordinal that acts."""
    if family == 1:
        return f"{RANKS[least] * 2} or better"
    if family == 2:
        return f"{_BOARD_PAIR[least]} or better" if least < 2 else "top pair"
    if family == 6:
        return f"a hidden {RANKS[least]} or better in the suit"
    if family in _HOLE:
        return f"hole cards {RANKS[least // 13]}-{RANKS[least % 13]} or better"
    return f"a hole card {RANKS[least]} or better"


@dataclass(frozen=True)
class WordRule:
    """A decision as a rule in words (``lines``), the decision it makes for every hand (``acts``,
    the shape of the plan's table), its thresholds by family (``thresholds``: the least ordinal
    that acts; past the largest: never) and the exact expected result of the game played by it
    (``expected``, per unit of the base bet) against the optimal strategy's (``optimal``)."""

    lines: tuple[str, ...]
    acts: np.ndarray
    thresholds: tuple[int, ...]
    expected: Fraction
    optimal: Fraction

    @property
    def gives_up(self) -> float:
        """How much more the house keeps under the rule, per unit of the base bet."""
        return float(self.optimal - self.expected)

    def proof(self) -> str:
        """The rule's exact house edge against the optimal one, in words."""
        return (f"(this rule played as a strategy: house edge {float(-self.expected):.4%}, against the optimal "
                f"{float(-self.optimal):.4%}: it gives up {self.gives_up:.4%} of the ante)")


def best_thresholds(fits: np.ndarray, order: np.ndarray, gain: np.ndarray, families: int) -> np.ndarray:
    """For each family (``fits``: each hand's family, -1 none), the least ordinal (``order``) from
    which acting gains most in total (``gain``: acting's exact gain over not acting, weighed);
    one past the family's largest ordinal when never acting is best."""
    out = np.zeros(families, dtype=np.int64)
    for f in range(families):
        mine = fits == f
        if not mine.any():
            continue
        keys, where = np.unique(order[mine], return_inverse=True)
        totals = np.bincount(where, weights=gain[mine].astype(np.float64), minlength=len(keys))
        from_top = np.concatenate([np.cumsum(totals[::-1])[::-1], [0.0]])
        best = int(np.argmax(from_top[::-1]))  # from the top: the fewest hands acting among equals
        at = len(keys) - best
        out[f] = int(keys[at]) if at < len(keys) else int(keys[-1]) + 1
    return out


def _present(ranks: np.ndarray) -> np.ndarray:
    """Which ranks (columns 1..13, with the ace also at 0) each hand holds."""
    present = np.zeros((len(ranks), 14), dtype=bool)
    present[np.arange(len(ranks))[:, None], ranks + 1] = True
    present[:, 0] = present[:, 13]
    return present


def flop_families(hands: np.ndarray, category: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The family (:data:`FAMILIES`) and the ordinal within it of each five-card hand (rows: the
    two hole cards, then the flop; ``category`` the evaluator's, 0 high card .. 9 royal flush).

    >>> from cardlab.cards import parse_card_ids
    >>> hands = np.array([parse_card_ids(h) for h in ("Ah Kh Qh 7h 2c", "9c 9d Ks 5h 2c", "Jd 4c Jh 7s 2c")])
    >>> family, order = flop_families(hands, np.array([0, 1, 1]))
    >>> [FAMILIES[f] for f in family], order.tolist()
    (['four to a flush', 'a pocket pair', 'a pair made with a hole card'], [12, 7, 2])
    """
    ranks = hands >> 2
    hole, flop = ranks[:, :2], np.sort(ranks[:, 2:], axis=1)
    high, low = hole.max(axis=1), hole.min(axis=1)
    pocket = hole[:, 0] == hole[:, 1]
    flop_pairs = (flop[:, 1:] == flop[:, :-1]).sum(axis=1)  # 0, 1 (a pair) or 2 (trips)
    hits = (hole[:, :, None] == flop[:, None, :])  # hole card i pairs flop card j
    uses_hole = pocket | hits.any(axis=(1, 2))
    family = np.full(len(hands), 15, dtype=np.int64)
    order = high * 13 + low
    # draws (no pair): four to a flush, then four to a straight
    suits = hands & 3
    counts = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    flush_suit = counts.argmax(axis=1)
    in_suit = suits[:, :2] == flush_suit[:, None]
    hidden = np.where(in_suit, hole, -1).max(axis=1)
    present = _present(ranks)
    windows = np.stack([present[:, i:i + 5].sum(axis=1) for i in range(10)], axis=1)
    runs = np.stack([present[:, i:i + 4].all(axis=1) for i in range(11)], axis=1)
    open_ended = runs[:, 1:10].any(axis=1)  # four in a row with a rank free at both ends (not A-2-3-4, J-Q-K-A)
    inside = (windows >= 4).any(axis=1)
    drawing = category == 0
    over = (hole > flop[:, 2:]).sum(axis=1)
    one_suit = (suits[:, 2:] == suits[:, 2:3]).all(axis=1)
    backdoor = counts.max(axis=1) == 3
    for fam, fits, value in ((15 - over - 3 * backdoor, drawing, order), (9, drawing & one_suit, order),
                             (8, drawing & inside, high), (7, drawing & open_ended, high),
                             (6, drawing & (counts.max(axis=1) >= 4), hidden)):
        family = np.where(fits, fam, family)
        order = np.where(fits, value, order)
    # made hands
    board_trips = (category == 3) & (flop_pairs == 2) & ~pocket
    board_pair = (category == 1) & (flop_pairs == 1) & ~uses_hole
    family = np.where(board_trips, 3, np.where(board_pair, np.where(flop[:, 1] <= 1, 4, 5), family))
    board_only = board_trips | board_pair
    one_pair = (category == 1) & ~board_only
    which = np.where(hits.any(axis=1), np.arange(3)[None, :], -1).max(axis=1)  # the flop card paired (sorted)
    paired = one_pair & ~pocket
    family = np.where(paired, 2, family)
    order = np.where(paired, which, order)
    family = np.where(one_pair & pocket, 1, family)
    order = np.where(one_pair & pocket, high, order)
    strong = (category >= 2) & ~board_only
    family = np.where(strong, 0, family)
    order = np.where(strong, 0, order)
    return family, order


def rule_lines(thresholds: Sequence[int], largest: Sequence[int], smallest: Sequence[int], act: str,
               other: str) -> list[str]:
    """The families' thresholds in words, one line each ("<act> with <family>, <threshold>"), then
    the rest ("<other> the rest")."""
    lines = []
    for f, (t, top, bottom) in enumerate(zip(thresholds, largest, smallest)):
        if t > top:
            continue
        said = f"any {_NAMES[f].removeprefix('a ')}" if t <= bottom else f"{_NAMES[f]}, {_threshold_words(f, t)}"
        lines.append(f"{act} with {said}")
    return lines + [f"{other} the rest" if lines else f"{other} every hand"]


def _flop_table(plan: FlopPlan) -> tuple[np.ndarray, np.ndarray]:
    """The family and ordinal of every (flop class, hole hand) of a plan, shaped as its tables."""
    from cardlab.casino.simulation import positions_of
    from cardlab.poker.evaluator import evaluate

    holes = positions_of(np.arange(comb(plan.n - 3, 2)), 2)
    deck = np.array(plan.cards, dtype=np.int64)
    family = np.empty((len(plan.flops), len(holes)), dtype=np.int64)
    order = np.empty_like(family)
    for i, flop in enumerate(plan.flops):
        rest = deck[~np.isin(deck, flop)]
        hands = np.concatenate([rest[holes], np.repeat(flop[None, :], len(holes), axis=0)], axis=1)
        category = evaluate(hands.astype(np.uint8))[0].astype(np.int64)
        family[i], order[i] = flop_families(hands, category)
    return family, order


def flop_word_rule(plan: FlopPlan, among: np.ndarray, act_value: np.ndarray, other_value: np.ndarray,
                   optimal: Fraction, scale: int, deals: int, words: tuple[str, str],
                   fixed: Sequence[int] | None = None) -> WordRule:
    """A flop decision as a :class:`WordRule`: over the (flop class, hole hand) entries ``among``
    (boolean, the plan's table shape) with the exact values of acting and of not acting
    (``act_value``, ``other_value``: scaled by ``scale``, summed over each entry's completions,
    ``deals`` in all), the best threshold of each family, or the ``fixed`` ones (a rule to test),
    and the game's exact expected result under the rule: the ``optimal`` one (the best choice at
    every entry) less the rule's departures from it, each weighed by its flop class's size."""
    family, order = _flop_table(plan)
    weights = plan.weights[:, None]
    gain = (act_value - other_value) * weights
    fits = np.where(among, family, -1)
    chosen = np.asarray(fixed, dtype=np.int64) if fixed is not None else \
        best_thresholds(fits, order, gain, len(FAMILIES))
    acts = among & (order >= chosen[np.maximum(family, 0)])
    best = np.maximum(act_value, other_value)
    played = np.where(acts, act_value, other_value)
    lost = int(((best - played) * weights)[among].sum())
    expected = optimal - Fraction(lost, scale * deals)
    largest = [int(order[fits == f].max()) if (fits == f).any() else -1 for f in range(len(FAMILIES))]
    smallest = [int(order[fits == f].min()) if (fits == f).any() else 0 for f in range(len(FAMILIES))]
    lines = rule_lines(chosen.tolist(), largest, smallest, *words)
    return WordRule(tuple(lines), acts, tuple(chosen.tolist()), expected, optimal)
