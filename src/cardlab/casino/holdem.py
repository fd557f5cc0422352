"""Casino Hold'em, exactly: two hole cards and a flop; fold, or call and see the turn, river and dealer.

``game = "casino-holdem"`` (docs/casino.md): after an ante the player sees two hole cards and a
three-card flop and folds (losing the ante) or calls ``call`` antes. The turn and river are
dealt and the dealer shows two hole cards; both play the best five of their seven. The dealer
qualifies with ``qualifier`` or better (a pair of fours): when not, the ante pays by
``[ante_pays]`` (the player's hand) and the call pushes; when the dealer qualifies the better
hand wins (the ante by ``[ante_pays]``, the call even money) and a tie pushes.

How it is counted. The flops are folded by suit symmetry (1,755 classes of 22,100); for each,
the compiled core (csrc/casino_holdem.c) walks every turn and river, values the two-card
holdings of the cards left once, sorts them and sweeps up the list, so each hole hand meets
every dealer hand by counting, not comparing; the player calls when the exact expectation beats
folding's -1.

>>> from cardlab.casino.game import parse_game
>>> game = parse_game({"game": "casino-holdem", "deck": "As Ks Qs Js Ts 9h 8h 7h 6d 5d 4c"}, "small.toml")
>>> bet, rules, play, plan = analyse_holdem(game)
>>> bet.total == plan.deals, f"{bet.house_edge:.4%}"
(True, '-25.3030%')
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm
from typing import Callable, Sequence

import numpy as np

from cardlab.casino import kernel
from cardlab.casino.game import Game, checked_game
from cardlab.casino.result import BetAnalysis, OutcomeRow, exact_bet
from cardlab.casino.simulation import colex, positions_of
from cardlab.casino.table_rules import CATEGORIES, SHIFT

__all__ = ["FlopPlan", "HoldemPlan", "holdem_plan", "analyse_holdem", "flop_classes", "pay_lines", "flop_lookup",
           "showdown"]

_PERMUTATIONS = np.array([[p[c & 3] for c in range(52)] for p in permutations(range(4))], dtype=np.int64)


@dataclass(frozen=True)
class FlopPlan:
    """What every hold'em game's exact counts start from: the deck (``cards``) and its flop
    classes (``flops``: card ids, ``weights``: class sizes, ``rep``: the colex number of each
    class's representative among the deck's positions), as :func:`flop_classes` gives them."""

    cards: tuple[int, ...]
    flops: np.ndarray
    weights: np.ndarray
    rep: np.ndarray

    @property
    def n(self) -> int:
        """The deck's size."""
        return len(self.cards)


@dataclass(frozen=True)
class HoldemPlan(FlopPlan):
    """The exact counts: the flop classes (:class:`FlopPlan`), each hole hand's expected result
    of calling (``ev``, scaled, summed over its completions), the calls (``calls``) and the
    outcome tally of the calls."""

    ev: np.ndarray
    calls: np.ndarray
    tally: np.ndarray
    scale: int

    @property
    def per_hand(self) -> int:
        """The completions of one hole hand and flop: turn and river, then the dealer's two."""
        return comb(self.n - 5, 2) * comb(self.n - 7, 2)

    @property
    def deals(self) -> int:
        """Every deal: hole cards, flop, turn and river, the dealer's two."""
        return comb(self.n, 3) * comb(self.n - 3, 2) * self.per_hand


def flop_classes(cards: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The flop classes of a deck by suit symmetry: each class's representative (``rep``, a colex
    number of deck positions), its size (``weights``, int64) and its three card ids (``flops``).

    >>> rep, weights, flops = flop_classes((0, 1, 2, 3, 4))
    >>> len(rep), int(weights.sum()), flops.shape
    (10, 10, (10, 3))
    """
    reps, weights = np.unique(kernel.three_cards(cards)[2], return_counts=True)
    deck = np.array(cards, dtype=np.int64)
    return reps, weights.astype(np.int64), deck[positions_of(reps, 3)]


def pay_lines(game: Game) -> tuple[list[Fraction], int, list[int], list[int]]:
    """A game's pays by hand category, their common denominator (``scale``), the pay line of each
    of the kernels' 16 category slots and the pays times ``scale`` (whole numbers for the core).

    >>> from cardlab.casino.game import parse_game
    >>> pays, scale, line, scaled = pay_lines(parse_game({"game": "casino-holdem"}, "g.toml"))
    >>> scale, line[:3], len(line)
    (1, [0, 1, 2], 16)
    """
    pays = [p for _, p in game.pays]
    scale = lcm(*(p.denominator for p in pays))
    line = [min(i, len(CATEGORIES) - 1) for i in range(16)]
    return pays, scale, line, [int(p * scale) for p in pays]


def holdem_plan(game: Game, ties: str = "fold") -> HoldemPlan:
    """Count every deal of a Casino Hold'em game (see the module docstring)."""
    cards = checked_game(game, "casino-holdem", ties).cards
    reps, weights, flops = flop_classes(cards)
    pays, scale, line, scaled = pay_lines(game)
    ev, tally = kernel.holdem(cards, flops, weights, game.qualifier, line, scaled, scale, game.raise_bets, ties == "bet")
    per_hand = comb(len(cards) - 5, 2) * comb(len(cards) - 7, 2)
    calls = ev >= -per_hand * scale if ties == "bet" else ev > -per_hand * scale
    return HoldemPlan(tuple(cards), flops, weights, reps, ev, calls, tally, scale)


def flop_lookup(cards: tuple[int, ...], rep: np.ndarray, hole: np.ndarray, flop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For deals given as hole and flop card ids (rows of two and three): the row of the flop's
    class among the representatives ``rep`` (colex numbers of deck positions) and the hole hand's
    index among the cards off that representative, after a suit permutation taking the flop to it
    (the identity on a deck without suit symmetry)."""
    n = len(cards)
    position = np.full(52, -1, dtype=np.int64)
    position[list(cards)] = np.arange(n)
    rep_row = np.full(comb(n, 3), -1, dtype=np.int64)
    rep_row[rep] = np.arange(len(rep))
    rows = np.full(len(hole), -1, dtype=np.int64)
    index = np.zeros(len(hole), dtype=np.int64)
    for perm in _PERMUTATIONS:
        at = position[(flop & ~3) | perm[flop]]
        moved = position[(hole & ~3) | perm[hole]]
        ok = (rows < 0) & (at >= 0).all(axis=1) & (moved >= 0).all(axis=1)
        row = np.where(ok, rep_row[colex(np.where(at >= 0, at, 0))], -1)
        ok &= row >= 0
        flop_at = np.sort(at, axis=1)
        rest = np.sort(moved - (moved[:, :, None] > flop_at[:, None, :]).sum(axis=2), axis=1)
        rows[ok] = row[ok]
        index[ok] = _hole_index(rest[ok])
    if (rows < 0).any():
        raise AssertionError("a dealt flop is not in the counted classes")
    return rows, index


def _hole_index(rest: np.ndarray) -> np.ndarray:
    """The colex index of two sorted positions among the cards off the flop."""
    out: np.ndarray = rest[:, 1] * (rest[:, 1] - 1) // 2 + rest[:, 0]
    return out


def _rules(plan: HoldemPlan, expected: Fraction) -> list[str]:
    """The call as a rule in words (:mod:`cardlab.casino.rules_text`) and its exact cost."""
    from cardlab.casino.rules_text import flop_word_rule

    fold = np.full(plan.ev.shape, -plan.per_hand * plan.scale, dtype=np.int64)
    word = flop_word_rule(plan, np.ones(plan.ev.shape, dtype=bool), plan.ev, fold, expected, plan.scale, plan.deals,
                          ("call", "fold"))
    return [*word.lines, word.proof()]


def showdown(deck: np.ndarray, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Deals of nine positions of ``deck`` (hole cards, flop, turn, river, the dealer's two): the
    hole cards, the flop, the turn and river, and the player's and the dealer's strengths
    (cardlab's evaluator).

    >>> deck = np.array([51, 47, 43, 39, 35, 0, 1, 4, 8], dtype=np.int64)
    >>> hole, flop, board, mine, theirs = showdown(deck, np.arange(9)[None, :])
    >>> hole.tolist(), bool(mine[0] > theirs[0])
    ([[51, 47]], True)
    """
    from cardlab.poker.evaluator import strengths

    hole, flop = deck[positions[:, :2]], deck[positions[:, 2:5]]
    board = deck[positions[:, 5:7]]
    mine = strengths(np.concatenate([hole, flop, board], axis=1).astype(np.uint8))
    theirs = strengths(np.concatenate([deck[positions[:, 7:9]], flop, board], axis=1).astype(np.uint8))
    return hole, flop, board, mine, theirs


def analyse_holdem(game: Game, ties: str = "fold") -> tuple[BetAnalysis, list[str], Callable[[np.ndarray], list[np.ndarray]], HoldemPlan]:
    """The exact analysis of a Casino Hold'em game: the bet, the strategy in words, the
    simulation's play function (deals of nine positions: hole cards, flop, turn, river, the
    dealer's two) and the counts behind them."""
    plan = holdem_plan(game, ties)
    pays = [p for _, p in game.pays]
    call = game.raise_bets
    lines = len(pays)
    k = 2 * lines + 2
    on = plan.tally[:k]
    values: Counter[Fraction] = Counter()
    folded = int(plan.tally[2 * k])
    values[Fraction(-1)] += folded
    rows = [OutcomeRow("fold", folded, Fraction(-1)),
            OutcomeRow("dealer does not qualify", int(on[:lines].sum()), None)]
    for c, name in enumerate(CATEGORIES):
        values[pays[c]] += int(on[c])
        values[pays[c] + call] += int(on[lines + c])
        rows.append(OutcomeRow(f"player wins with {name}", int(on[lines + c]), pays[c] + call))
    rows += [OutcomeRow("tie", int(on[2 * lines]), Fraction(0)),
             OutcomeRow("dealer wins", int(on[2 * lines + 1]), Fraction(-1 - call))]
    values[Fraction(0)] += int(on[2 * lines])
    values[Fraction(-1 - call)] += int(on[2 * lines + 1])
    total = plan.deals
    bet = exact_bet("Ante & Call", values, 1 + Fraction(call * (total - folded), total), total, rows)
    rules = _rules(plan, bet.expected)
    deck = np.array(plan.cards, dtype=np.int64)
    net_win = np.array([float(p + call) for p in pays])
    net_nq = np.array([float(p) for p in pays])

    def play(positions: np.ndarray) -> list[np.ndarray]:
        hole, flop, _, mine, theirs = showdown(deck, positions)
        rows, index = flop_lookup(plan.cards, plan.rep, hole, flop)
        decide = plan.calls[rows, index]
        category = np.minimum(mine >> SHIFT, len(CATEGORIES) - 1)
        result = np.where(theirs < game.qualifier, net_nq[category],
                          np.where(mine > theirs, net_win[category], np.where(mine == theirs, 0.0, -1.0 - call)))
        return [np.where(decide, result, -1.0)]

    return bet, rules, play, plan
