"""Ultimate Texas Hold'em, exactly: ante and blind; play 4x or 3x, 2x, 1x, or fold on the river.

``game = "ultimate-holdem"`` (docs/casino.md): the player puts up an ante and an equal blind and
sees two hole cards; before the flop the player may play 4 or 3 antes or check; after the flop
(if checked) play 2 antes or check; after the turn and river (if checked twice) play 1 ante or
fold, losing the ante and the blind. One play bet at most. The dealer opens with ``qualifier``
or better (a pair): when not, the ante pushes. The better hand wins the play bet and the ante
(when the dealer opens) even money and the blind by ``[blind_pays]`` (hands it leaves out push);
the worse loses all three; a tie pushes them.

How it is counted. The flops are folded by suit symmetry; for each, the compiled core
(csrc/casino_uth.c, the board sweep of csrc/holdem_board.h) walks every turn and river,
sorts the two-card holdings of the cards left and sweeps up the list (as Casino Hold'em),
giving each hole hand its river choice and the values of its 4x, 3x and 2x bets over every
completion. The flop choice is made per
(flop, hole cards), the pre-flop one per hole hand class summed over every flop; a second walk
tallies the outcomes under those choices.

>>> from cardlab.casino.game import parse_game
>>> game = parse_game({"game": "ultimate-holdem", "deck": "As Ks Qs Js Ts 9h 8h 7h 6d 5d"}, "small.toml")
>>> bet, rules, play, plan = analyse_uth(game)
>>> bet.total == plan.deals, f"{bet.house_edge:.4%}", rules[0]
(True, '11.6495%', 'before the flop: play 4x with 42.2% of the hole hands; otherwise check')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Callable

import numpy as np

from cardlab.casino import kernel
from cardlab.casino.flop_hands import FlopSetup, classes_by_flop, flop_setup, hand_rule, hole_class, sum_by
from cardlab.casino.game import Game
from cardlab.casino.holdem import FlopPlan, flop_lookup, showdown
from cardlab.casino.result import BetAnalysis, OutcomeRow, exact_bet
from cardlab.casino.table_rules import CATEGORIES, SHIFT

__all__ = ["UthPlan", "uth_plan", "analyse_uth"]

_OUTCOMES = ("wins, dealer opens", "wins, dealer does not open", "ties", "loses, dealer opens",
             "loses, dealer does not open")


@dataclass(frozen=True)
class UthPlan(FlopPlan):
    """The exact counts: the flop classes (:class:`~cardlab.casino.holdem.FlopPlan`), each (flop,
    hole hand)'s values (``values``: 4x, 3x, 2x, check to the river; scaled, summed over
    completions), the stake played (``stake``: 4, 3, 2 or 0 for the river) and the tally under it."""

    values: np.ndarray
    stake: np.ndarray
    preflop: dict[int, int]
    tally: np.ndarray
    scale: int

    @property
    def deals(self) -> int:
        """Every deal: hole cards, flop, turn and river, the dealer's two."""
        return comb(self.n, 3) * comb(self.n - 3, 2) * comb(self.n - 5, 2) * comb(self.n - 7, 2)


def uth_plan(game: Game, ties: str = "fold", setup: FlopSetup | None = None) -> UthPlan:
    """Count every deal of an Ultimate Texas Hold'em game (see the module docstring); ``setup`` is
    the game's :func:`~cardlab.casino.flop_hands.flop_setup` when the caller has it."""
    setup = setup or flop_setup(game, "ultimate-holdem", ties)
    cards, flops, weights, line, blind, scale = (setup.cards, setup.flops, setup.weights, setup.line, setup.scaled,
                                                 setup.scale)
    values = kernel.uth(cards, flops, weights, game.qualifier, line, blind, scale, ties == "bet")
    bet_ties = ties == "bet"
    flop_bets = values[:, :, 2] >= values[:, :, 3] if bet_ties else values[:, :, 2] > values[:, :, 3]
    after = np.maximum(values[:, :, 2], values[:, :, 3])
    keys, where = classes_by_flop(setup, values.shape[1])
    totals = np.zeros((len(keys), 3), dtype=np.int64)
    for column, value in enumerate((values[:, :, 0], values[:, :, 1], after)):
        totals[:, column] = sum_by(where.ravel(), (value * weights[:, None]).ravel(), len(keys))
    preflop = {}
    for k, (four, three, later) in zip(keys.tolist(), totals.tolist()):
        options = [(later, 0), (three, 3), (four, 4)]  # the least money at risk first
        if bet_ties:
            options.reverse()
        preflop[int(k)] = max(options, key=lambda o: o[0])[1]
    chosen = np.array([preflop[int(k)] for k in keys], dtype=np.int8)[where]
    stake = np.where(chosen > 0, chosen, np.where(flop_bets, 2, 0)).astype(np.int8)
    tally = kernel.uth(cards, flops, weights, game.qualifier, line, blind, scale, bet_ties, stake)
    return UthPlan(tuple(cards), flops, weights, setup.reps, values, stake, preflop, tally, scale)


def _rules(plan: UthPlan, symmetric: bool, expected: Fraction) -> list[str]:
    """The strategy in words: the pre-flop raises by hand, the flop bets as a rule by what the hole
    cards make with the flop (:mod:`cardlab.casino.rules_text`, with its exact cost)."""
    from cardlab.casino.rules_text import flop_word_rule

    lines = []
    if symmetric:
        lines.append(f"before the flop: play 4x with {hand_rule(plan.preflop, 4)}; otherwise check")
        three = hand_rule(plan.preflop, 3)
        if three != "none":
            lines.append(f"before the flop: play 3x with {three}")
    else:
        share = sum(1 for v in plan.preflop.values() if v == 4) / max(1, len(plan.preflop))
        lines.append(f"before the flop: play 4x with {share:.1%} of the hole hands; otherwise check")
    word = flop_word_rule(plan, plan.stake < 3, plan.values[:, :, 2], plan.values[:, :, 3], expected, plan.scale,
                          plan.deals, ("play 2x", "check"))
    lines += [f"on the flop (after checking): {text}" for text in word.lines]
    return lines + [word.proof()]


def analyse_uth(game: Game, ties: str = "fold") -> tuple[BetAnalysis, list[str], Callable[[np.ndarray], list[np.ndarray]], UthPlan]:
    """The exact analysis of an Ultimate Texas Hold'em game: the bet (ante, blind and play
    together, per unit of the ante), the strategy in words, the simulation's play function (deals
    of nine positions: hole cards, flop, turn, river, the dealer's two) and the counts behind them."""
    setup = flop_setup(game, "ultimate-holdem", ties)
    plan = uth_plan(game, ties, setup)
    pays = setup.pays
    lines = len(pays)
    values: Counter[Fraction] = Counter()
    rows = []
    folded = int(plan.tally[20 * lines])
    values[Fraction(-2)] += folded
    rows.append(OutcomeRow("fold on the river", folded, Fraction(-2)))
    played = 0
    for p in (4, 3, 2, 1):
        for o, name in enumerate(_OUTCOMES):
            counts = plan.tally[((p - 1) * 5 + o) * lines:((p - 1) * 5 + o + 1) * lines]
            for at, count in enumerate(counts.tolist()):
                net = [1 + p + pays[at], p + pays[at], Fraction(0), Fraction(-2 - p), Fraction(-1 - p)][o]
                values[Fraction(net)] += count
            fixed = o in (2, 3, 4)
            rows.append(OutcomeRow(f"play {p}x, player {name}", int(counts.sum()),
                                   [None, None, Fraction(0), Fraction(-2 - p), Fraction(-1 - p)][o] if fixed else None))
            played += p * int(counts.sum())
    for c, name in enumerate(CATEGORIES):
        wins = sum(int(plan.tally[((p - 1) * 5 + o) * lines + c]) for p in (1, 2, 3, 4) for o in (0, 1))
        if pays[c]:
            rows.append(OutcomeRow(f"blind pays: {name}", wins, pays[c]))
    bet = exact_bet("Ante, Blind & Play", values, 2 + Fraction(played, plan.deals), plan.deals, rows)
    rules = _rules(plan, setup.symmetric, bet.expected)
    blind_net = np.array([float(p) for p in pays])

    def play(positions: np.ndarray) -> list[np.ndarray]:
        hole, flop, board, mine, theirs = showdown(setup.deck, positions)
        classes = hole_class(hole, setup.symmetric)
        stake = np.array([plan.preflop[int(k)] for k in classes], dtype=np.int64)
        rows, index = flop_lookup(plan.cards, plan.rep, hole, flop)
        later = plan.stake[rows, index].astype(np.int64)
        stake = np.where(stake > 0, stake, later)
        river = stake == 0
        if river.any():
            seven = np.concatenate([hole, flop, board], axis=1)[river]
            bets = kernel.uth_river(plan.cards, seven, game.qualifier, setup.line, setup.scaled, plan.scale,
                                    ties == "bet")
            stake[np.flatnonzero(river)] = np.where(bets, 1, 0)
        blind = blind_net[np.minimum(mine >> SHIFT, len(CATEGORIES) - 1)]
        opens = theirs >= game.qualifier
        result = np.where(mine > theirs, stake + opens + blind,
                          np.where(mine == theirs, 0.0, -stake - 1.0 - opens))
        return [np.where(stake == 0, -2.0, result)]

    return bet, rules, play, plan
