"""Ultimate Texas Hold'em's river decision as a rule in words, its cost measured on sampled deals.

After checking twice the player plays 1x or folds. The exact choice is made inside the compiled
walk for every hand and board (some two billion of them), so a rule cannot be summed over all of
them here as the flop's is (:mod:`cardlab.casino.rules_text`). Instead deals are drawn at random
(seeded), those that reach the river after two checks under the exact strategy are kept, and for
each the exact values of playing and folding are counted over all 990 dealer hands: the rule's
loss at that deal is exact, its average over deals an estimate with a 95% interval.

The rule is the published one's shape: play 1x with a pair or better made with a hole card (a
pocket pair, a hole card pairing the board, or a better category than the board's own); otherwise
count the dealer's "outs", the unseen cards that with the board alone beat the player's hand, and
play when there are fewer than a threshold. The threshold is the one that loses least on one
sample; the loss is then measured on another.

The shared steps (sampling, the hidden pair, the dealer's outs, the loss's interval) are in
:mod:`cardlab.casino.sampled_rules`.

>>> RiverRule(21, Interval(0.001, 0.0014), Interval(0.001, 0.0014), 20_000, 43).lines()[0][:45]
'on the river: play 1x with a pair or better m'
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from cardlab.casino.sampled_rules import (dealer_outs, hidden_pair, percent_range, sample_cards, sampled_loss,
                                          unseen_cards)
from cardlab.engine import SeedLike
from cardlab.intervals import Interval

if TYPE_CHECKING:
    from cardlab.casino.game import Game
    from cardlab.casino.uth import UthPlan

__all__ = ["RiverRule", "river_states", "river_rule", "river_loss"]

_PUBLISHED = 21  #: the Wizard of Odds' threshold: play when fewer than 21 dealer outs beat you


@dataclass(frozen=True)
class RiverRule:
    """The river rule's threshold (play with fewer dealer outs than ``outs``), and what it and the
    published threshold (21) give up per ante: the mean over ``deals`` sampled deals with its
    95% interval (``lost``, ``published``)."""

    outs: int
    lost: Interval[float]
    published: Interval[float]
    deals: int
    seed: int

    def lines(self) -> list[str]:
        """The rule in words, with its measured cost."""
        return [f"on the river: play 1x with a pair or better made with a hole card, or when fewer than {self.outs} "
                "of the unseen cards would beat you as a dealer's card; fold the rest",
                f"(the river rule played on {self.deals:,} sampled deals (seed {self.seed}), each river decision's "
                f"values exact: it gives up {percent_range(self.lost)} of the ante; fewer than {_PUBLISHED} outs, as the "
                f"Wizard of Odds publishes it: {percent_range(self.published)})"]


def river_states(game: Game, plan: UthPlan, deals: int, seed: SeedLike) -> tuple[np.ndarray, ...]:
    """Of ``deals`` sampled deals, those reaching the river after two checks under the plan: their
    seven cards (hole cards, then the board), the hidden-pair flag, the dealer's outs, and the
    exact values (per deal, in antes) of playing 1x and of folding."""
    from cardlab.casino.holdem import flop_lookup
    from cardlab.casino.kernel import suit_symmetric
    from cardlab.casino.flop_hands import hole_class
    from cardlab.poker.evaluator import strengths
    from cardlab.casino.table_rules import CATEGORIES, SHIFT

    n = plan.n
    seven = sample_cards(plan.cards, deals, seed, 7)
    hole, flop = seven[:, :2], seven[:, 2:5]
    checked = np.array([plan.preflop[int(c)] == 0 for c in hole_class(hole, suit_symmetric(plan.cards))])
    rows, index = flop_lookup(plan.cards, plan.rep, hole[checked], flop[checked])
    reach = np.flatnonzero(checked)[plan.stake[rows, index] == 0]
    seven = seven[reach]
    unseen = unseen_cards(plan.cards, seven)
    pays = np.array([float(p) for _, p in game.pays])
    dealers = np.array(np.triu_indices(n - 7, 1)).T  # every pair of unseen positions
    play = np.empty(len(seven))
    mine = strengths(seven.astype(np.uint8))
    for i in range(len(seven)):
        theirs = strengths(np.concatenate([unseen[i][dealers], np.repeat(seven[i:i + 1, 2:], len(dealers), axis=0)],
                                          axis=1).astype(np.uint8))
        opens = theirs >= game.qualifier
        blind = pays[min(int(mine[i]) >> SHIFT, len(CATEGORIES) - 1)]
        result = np.where(mine[i] > theirs, 1 + opens + blind, np.where(mine[i] == theirs, 0.0, -2.0 - opens))
        play[i] = result.mean()
    assert len(dealers) == comb(n - 7, 2)
    return seven, hidden_pair(seven), dealer_outs(seven, unseen, mine), play, np.full(len(seven), -2.0)


def river_loss(states: tuple[np.ndarray, ...], deals: int, outs: int) -> Interval[float]:
    """The river rule's loss per sampled deal (fewer than ``outs`` dealer outs) with its interval."""
    _, hidden, count, play, fold = states
    return sampled_loss(play - fold, hidden | (count < outs), deals)


def river_rule(game: Game, plan: UthPlan, deals: int = 20_000, seed: int = 43) -> RiverRule:
    """The river rule's threshold from one sample of ``deals`` deals and its cost (and the
    published threshold's) measured on another (see the module docstring)."""
    fit = river_states(game, plan, deals, np.random.SeedSequence([seed, 0]))
    best = min(range(0, 46), key=lambda k: sum(river_loss(fit, deals, k)))
    test = river_states(game, plan, deals, np.random.SeedSequence([seed, 1]))
    return RiverRule(best, river_loss(test, deals, best), river_loss(test, deals, _PUBLISHED), deals, seed)
