"""Texas Hold'em Bonus, exactly: fold or bet 2 antes before the flop, then 1 ante on the flop and the turn.

``game = "texas-holdem-bonus"`` (docs/casino.md): after an ante the player sees two hole cards
and folds (losing it) or bets 2 antes; after the flop and again after the turn the player may
bet 1 ante or check. The dealer has two hole cards and no qualifier. The better hand wins every
bet even money, except the ante, which pays by ``[ante_pays]`` (Las Vegas rules: 1 on a straight
or better, a push otherwise); the worse loses them all; a tie pushes.

How it is counted. The flops are folded by suit symmetry; for each, the compiled core
(csrc/casino_thb.c, the board sweep of csrc/holdem_board.h) walks every unordered turn and
river once, sorts the holdings of the cards left and sweeps up the list (as Casino Hold'em), and adds each hole hand's
values with 2, 3 and 4 antes of play bets to both orders of the two cards. Each turn card's bet
is then chosen per (flop, hole cards, turn), the flop's per (flop, hole cards), the pre-flop
fold per hole hand class summed over every flop; a second walk tallies the outcomes.

>>> from cardlab.casino.game import parse_game
>>> game = parse_game({"game": "texas-holdem-bonus", "deck": "As Ks Qs Js Ts 9h 8h 7h 6d 5d"}, "small.toml")
>>> bet, rules, play, plan = analyse_thb(game)
>>> f"{bet.house_edge:.4%}", f"{float(bet.average_bet):.4f}", rules[0]
('-10.9788%', '3.2894', 'before the flop: fold 24.4% of the hole hands; bet with the rest')
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

__all__ = ["ThbPlan", "thb_plan", "analyse_thb"]


@dataclass(frozen=True)
class ThbPlan(FlopPlan):
    """The exact counts: the flop classes (:class:`~cardlab.casino.holdem.FlopPlan`), each (flop,
    hole hand)'s values of playing on without and with the flop's bet (``values``, scaled, summed
    over completions), the choice (``stake``: -1 folded, 0 or 1 the flop's bet), the pre-flop
    choice by hole class (``plays``) and the tally under them."""

    values: np.ndarray
    stake: np.ndarray
    plays: dict[int, bool]
    tally: np.ndarray
    scale: int

    @property
    def deals(self) -> int:
        """Every deal: hole cards, flop, the turn and the river in order, the dealer's two."""
        return comb(self.n, 3) * comb(self.n - 3, 2) * (self.n - 5) * (self.n - 6) * comb(self.n - 7, 2)


def thb_plan(game: Game, ties: str = "fold", setup: FlopSetup | None = None) -> ThbPlan:
    """Count every deal of a Texas Hold'em Bonus game (see the module docstring); ``setup`` is the
    game's :func:`~cardlab.casino.flop_hands.flop_setup` when the caller has it."""
    setup = setup or flop_setup(game, "texas-holdem-bonus", ties)
    cards, flops, weights, line, ante, scale = (setup.cards, setup.flops, setup.weights, setup.line, setup.scaled,
                                                setup.scale)
    bet_ties = ties == "bet"
    values = kernel.thb(cards, flops, weights, line, ante, scale, bet_ties)
    flop_bets = values[:, :, 1] >= values[:, :, 0] if bet_ties else values[:, :, 1] > values[:, :, 0]
    after = np.maximum(values[:, :, 0], values[:, :, 1])
    keys, where = classes_by_flop(setup, values.shape[1])
    n = len(cards)
    per_hand = (n - 5) * (n - 6) * comb(n - 7, 2)
    played = sum_by(where.ravel(), (after * weights[:, None]).ravel(), len(keys))
    folded = -scale * per_hand * sum_by(where.ravel(), np.broadcast_to(weights[:, None], after.shape).ravel(), len(keys))
    plays = {int(k): bool(p >= f if bet_ties else p > f) for k, p, f in zip(keys.tolist(), played.tolist(), folded.tolist())}
    chosen = np.array([plays[int(k)] for k in keys])[where]
    stake = np.where(chosen, flop_bets.astype(np.int8), -1).astype(np.int8)
    tally = kernel.thb(cards, flops, weights, line, ante, scale, bet_ties, stake)
    return ThbPlan(tuple(cards), flops, weights, setup.reps, values, stake, plays, tally, scale)


def _rules(plan: ThbPlan, symmetric: bool, expected: Fraction) -> list[str]:
    """The strategy in words: the pre-flop folds by hand, the flop bets as a rule by what the hole
    cards make with the flop (:mod:`cardlab.casino.rules_text`, with its exact cost)."""
    from cardlab.casino.rules_text import flop_word_rule

    if symmetric:
        folds = {k: (0 if v else 1) for k, v in plan.plays.items()}
        lines = [f"before the flop: fold {hand_rule(folds, 1)}; bet with the rest"]
    else:
        share = sum(1 for v in plan.plays.values() if not v) / max(1, len(plan.plays))
        lines = [f"before the flop: fold {share:.1%} of the hole hands; bet with the rest"]
    word = flop_word_rule(plan, plan.stake >= 0, plan.values[:, :, 1], plan.values[:, :, 0], expected, plan.scale,
                          plan.deals, ("bet", "check"))
    return lines + [f"on the flop: {text}" for text in word.lines] + [word.proof()]


def analyse_thb(game: Game, ties: str = "fold") -> tuple[BetAnalysis, list[str], Callable[[np.ndarray], list[np.ndarray]], ThbPlan]:
    """The exact analysis of a Texas Hold'em Bonus game: the bet (ante and play bets together, per
    unit of the ante), the strategy in words, the simulation's play function (deals of nine
    positions: hole cards, flop, turn, river, the dealer's two) and the counts behind them."""
    setup = flop_setup(game, "texas-holdem-bonus", ties)
    plan = thb_plan(game, ties, setup)
    pays = setup.pays
    lines = len(pays)
    values: Counter[Fraction] = Counter()
    folded = int(plan.tally[9 * lines])
    values[Fraction(-1)] += folded
    rows = [OutcomeRow("fold before the flop", folded, Fraction(-1))]
    staked = 0
    for s in (2, 3, 4):
        for o, name in enumerate(("wins", "ties", "loses")):
            counts = plan.tally[(s - 2) * 3 * lines + o * lines:(s - 2) * 3 * lines + (o + 1) * lines]
            for at, count in enumerate(counts.tolist()):
                values[[s + pays[at], Fraction(0), Fraction(-1 - s)][o]] += count
            rows.append(OutcomeRow(f"{s} antes bet, player {name}", int(counts.sum()),
                                   None if o == 0 else [Fraction(0), Fraction(-1 - s)][o - 1]))
            staked += s * int(counts.sum())
    for c, name in enumerate(CATEGORIES):
        if pays[c]:
            wins = sum(int(plan.tally[(s - 2) * 3 * lines + c]) for s in (2, 3, 4))
            rows.append(OutcomeRow(f"ante pays: {name}", wins, pays[c]))
    bet = exact_bet("Ante & Bets", values, 1 + Fraction(staked, plan.deals), plan.deals, rows)
    rules = _rules(plan, setup.symmetric, bet.expected)
    ante_net = np.array([float(p) for p in pays])

    def play(positions: np.ndarray) -> list[np.ndarray]:
        hole, flop, board, mine, theirs = showdown(setup.deck, positions)
        playing = np.array([plan.plays[int(k)] for k in hole_class(hole, setup.symmetric)], dtype=bool)
        rows, index = flop_lookup(plan.cards, plan.rep, hole, flop)
        flop_bet = np.maximum(plan.stake[rows, index], 0).astype(np.int64)
        turn_bet = np.zeros(len(positions), dtype=np.int64)
        if playing.any():
            six = np.concatenate([hole, flop, board[:, :1]], axis=1)[playing]
            turn_bet[playing] = kernel.thb_turn(plan.cards, six, flop_bet[playing], setup.line, setup.scaled,
                                                plan.scale, ties == "bet")
        stake = 2 + flop_bet + turn_bet
        ante = ante_net[np.minimum(mine >> SHIFT, len(CATEGORIES) - 1)]
        result = np.where(mine > theirs, stake + ante, np.where(mine == theirs, 0.0, -1.0 - stake))
        return [np.where(playing, result, -1.0)]

    return bet, rules, play, plan
