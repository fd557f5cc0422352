"""Texas Hold'em Bonus's turn bet as a rule in words, its cost measured on sampled deals.

After the turn the player bets 1 ante or checks. The exact choice is made inside the compiled
walk per (flop, hole cards, turn card), so a rule cannot be summed over every deal here as the
flop's is (:mod:`cardlab.casino.rules_text`); it is measured as Ultimate Texas Hold'em's river
rule is (:mod:`cardlab.casino.sampled_rules`): seeded deals, those the player has not folded
before the flop kept, each turn valued exactly over every river card and dealer hand by the core
(:func:`cardlab.casino.kernel.thb_turn_values`, the simulation's own count).

Betting gains one ante on a win and loses one on a loss whatever was bet before, so the exact
choice is to bet when the player wins more often than he loses. The rule says it with the
dealer's "outs", as the Ultimate Texas Hold'em river rule does: how many of the unseen cards
would beat the player's six cards as one of the dealer's cards with the four on the board. Bet
when fewer than a threshold would; with four to a flush made with a hole card, when fewer than a
second, higher one would. Both thresholds are those that lose least on one sample; the loss is
measured on another. The published rule played beside it is table-games-online.com's (bet with
a hand using a hole card: a pair of sixes or better, two pair or better, four to a straight
flush, a straight, a flush).

>>> from cardlab.cards import parse_card_ids
>>> six = np.array([parse_card_ids(h) for h in ("6h 7h 8h 9h Kc 2d", "As 3c 3d 3h Kc 2d")])
>>> flush_draw(six).tolist(), published_turn(six).tolist()
([True, False], [True, True])
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from cardlab.casino.sampled_rules import dealer_outs, percent_range, sample_cards, sampled_loss, unseen_cards
from cardlab.engine import SeedLike
from cardlab.intervals import Interval

if TYPE_CHECKING:
    from cardlab.casino.game import Game
    from cardlab.casino.thb import ThbPlan

__all__ = ["TurnRule", "TurnStates", "flush_draw", "published_turn", "turn_states", "turn_loss", "turn_rule"]

_SIXES = 4  #: table-games-online.com's least pair: sixes (rank 4 counting from deuces)


@dataclass(frozen=True)
class TurnRule:
    """The turn rule's thresholds (bet with fewer dealer outs than ``outs``; with four to a flush
    made with a hole card, fewer than ``flush``), and what it and table-games-online.com's rule
    give up per ante: the mean over ``deals`` sampled deals with its 95% interval."""

    outs: int
    flush: int
    lost: Interval[float]
    published: Interval[float]
    deals: int
    seed: int
    unseen: int

    def lines(self) -> list[str]:
        """The rule in words, with its measured cost.

        >>> rule = TurnRule(12, 16, Interval(0.003, 0.0034), Interval(0.01, 0.011), 20_000, 43, 46)
        >>> rule.lines()[0].split("; ")[1]
        'with four to a flush made with a hole card, when fewer than 16 would'
        """
        flush = f"; with four to a flush made with a hole card, when fewer than {self.flush} would" \
            if self.flush > self.outs else ""
        return [f"on the turn: bet when fewer than {self.outs} of the {self.unseen} unseen cards would beat you as a "
                f"dealer's card with the board alone{flush}; check the rest",
                f"(the turn rule measured on {self.deals:,} sampled deals (seed {self.seed}), each turn decision's "
                f"values exact: it gives up {percent_range(self.lost)} of the ante; table-games-online.com's turn "
                "rule (bet with a pair of sixes or better, two pair or better, four to a straight flush, a straight "
                f"or a flush, each made with a hole card): {percent_range(self.published)})"]


@dataclass(frozen=True)
class TurnStates:
    """Sampled deals reaching the turn: their six cards (hole cards, flop, turn), the flop bets
    made, the dealer's outs, the flush-draw and published-rule flags, and what betting gains over
    checking (in antes, exact over every river card and dealer hand)."""

    six: np.ndarray
    bets: np.ndarray
    outs: np.ndarray
    flush: np.ndarray
    published: np.ndarray
    gain: np.ndarray


def flush_draw(six: np.ndarray) -> np.ndarray:
    """Whether each row (hole cards, then the board) holds exactly four of a suit, one of them a
    hole card."""
    out = np.zeros(len(six), dtype=bool)
    for suit in range(4):
        out |= (((six & 3) == suit).sum(axis=1) == 4) & (((six[:, 2:] & 3) == suit).sum(axis=1) < 4)
    return out


def _rank_bits(cards: np.ndarray, suit: int) -> np.ndarray:
    """Each row's ranks in ``suit`` as bits: bit r + 1 for rank r (deuce 0 ... ace 12), the ace
    also bit 0 (low)."""
    bits = np.where((cards & 3) == suit, np.left_shift(2, cards >> 2), 0)
    bits |= np.where(bits & (1 << 13), 1, 0)
    out: np.ndarray = np.bitwise_or.reduce(bits, axis=1)
    return out


def _straight_flush_draw(six: np.ndarray) -> np.ndarray:
    """Four consecutive ranks (the ace low too) of one suit, a hole card among them."""
    out = np.zeros(len(six), dtype=bool)
    for suit in range(4):
        held, hole = _rank_bits(six, suit), _rank_bits(six[:, :2], suit)
        for low in range(11):
            window = 15 << low
            out |= ((held & window) == window) & ((hole & window) != 0)
    return out


def published_turn(six: np.ndarray) -> np.ndarray:
    """table-games-online.com's turn rule: bet with a hand using a hole card, a pair of sixes or
    better, two pair or better (a straight, a flush), or four to a straight flush."""
    from cardlab.casino.sampled_rules import board_category
    from cardlab.casino.table_rules import SHIFT
    from cardlab.poker.evaluator import strengths

    category = strengths(six.astype(np.uint8)) >> SHIFT
    ranks = six >> 2
    pair_rank = np.max(np.where((ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) >= 2, ranks, -1), axis=1)
    made = (category > board_category(six[:, 2:])) & ((category >= 2) | (pair_rank >= _SIXES))
    out: np.ndarray = made | _straight_flush_draw(six)
    return out


def turn_states(game: Game, plan: ThbPlan, deals: int, seed: SeedLike) -> TurnStates:
    """Of ``deals`` sampled deals, those the plan plays past the flop (see the module docstring)."""
    from cardlab.casino.flop_hands import hole_class
    from cardlab.casino.holdem import flop_lookup, pay_lines
    from cardlab.casino.kernel import suit_symmetric, thb_turn_values
    from cardlab.poker.evaluator import strengths

    six = sample_cards(plan.cards, deals, seed, 6)
    playing = np.array([plan.plays[int(c)] for c in hole_class(six[:, :2], suit_symmetric(plan.cards))], dtype=bool)
    six = six[playing]
    rows, index = flop_lookup(plan.cards, plan.rep, six[:, :2], six[:, 2:5])
    bets = plan.stake[rows, index].astype(np.int8)
    _, scale, line, scaled = pay_lines(game)
    values = thb_turn_values(plan.cards, six, bets, line, scaled, scale)
    per_turn = scale * (plan.n - 6) * comb(plan.n - 7, 2)
    mine = strengths(six.astype(np.uint8))
    outs = dealer_outs(six, unseen_cards(plan.cards, six), mine)
    return TurnStates(six, bets, outs, flush_draw(six), published_turn(six), (values[:, 1] - values[:, 0]) / per_turn)


def turn_loss(states: TurnStates, deals: int, outs: int, flush: int) -> Interval[float]:
    """The turn rule's loss per sampled deal (bet with fewer than ``outs`` dealer outs, or fewer
    than ``flush`` with a flush draw) with its 95% interval."""
    bets = (states.outs < outs) | (states.flush & (states.outs < flush))
    return sampled_loss(states.gain, bets, deals)


def turn_rule(game: Game, plan: ThbPlan, deals: int = 20_000, seed: int = 43) -> TurnRule:
    """The turn rule's thresholds from one sample of ``deals`` deals and its cost (and the
    published rule's) measured on another (see the module docstring)."""
    fit = turn_states(game, plan, deals, np.random.SeedSequence([seed, 0]))
    unseen = plan.n - 6
    grid = [(k, f) for k in range(unseen + 1) for f in range(k, unseen + 1)]
    best = min(grid, key=lambda kf: sum(turn_loss(fit, deals, *kf)))
    test = turn_states(game, plan, deals, np.random.SeedSequence([seed, 1]))
    published = sampled_loss(test.gain, test.published, deals)
    return TurnRule(best[0], best[1], turn_loss(test, deals, *best), published, deals, seed, unseen)
