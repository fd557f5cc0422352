"""Mississippi Stud exactly: three streets of fold-or-raise, every hand of every street.

The player's decision on a street depends on the cards seen and on the bets already made (a
fold loses them; a raise multiplies whatever the final hand pays), so each street's table has
one column per total bet so far (0..10 antes). Working backwards, on hands of the deck's cards
(colex numbers, no suit folding: the tables are small):

- four cards seen, bets B: fold loses B; raising r gives (B + r) times the hand's expected pay
  over its fifth cards (the compiled core's tallies of every four-card hand);
- three cards seen: fold, or raise r and face the best of the four-card street with B + r, summed
  over the fourth card (the core's superset sums); two cards seen (the hole cards) likewise.

Then forwards, the core's subset sums carry the deals (each ordered path: hole cards, then the
three community cards in order) through the chosen decisions to the final bets and outcomes.
Ties prefer folding, then the smaller raise (less money at risk).

>>> from cardlab.casino.game import load_game
>>> done = analyse_stud(load_game("mississippi-stud"), ties="bet")    # doctest: +SKIP
>>> f"{done.bet.house_edge:.4%}", f"{float(done.bet.average_bet):.4f}"  # doctest: +SKIP
('4.9149%', '3.5898')
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb, lcm

import numpy as np

from cardlab.casino import kernel
from cardlab.casino.game import Game
from cardlab.casino.result import BetAnalysis, OutcomeRow, sd_of
from cardlab.casino.simulation import colex, positions_of
from cardlab.casino.strategy import pattern_rule

__all__ = ["StudPlan", "stud_plan", "analyse_stud", "BETS"]

BETS = 11  #: columns of the street tables: total bets 0..10 antes


class StudPlan:
    """The decisions of every street (``choice2[h2]``, ``choice3[h3, B]``, ``choice4[h4, B]``:
    -1 fold, else the raise), the start values ``value2`` (scaled by ``scale`` times the paths
    from two cards), and the deals ending with each final bet and outcome (``counts[B, o]``) or
    folded with B lost (``folds[B]``)."""

    def __init__(self, game: Game, ties: str = "fold") -> None:
        from cardlab.casino.video import VideoDeck, final_outcomes

        assert game.main is not None
        n = len(game.cards)
        self.n, self.cards = n, tuple(game.cards)
        self.outcomes = final_outcomes(game.main, VideoDeck(game.deck))
        pays = [o.pays for o in game.main.outcomes[:-1]] + [Fraction(-1)]
        self.scale = lcm(*(p.denominator for p in pays))
        self.pays = np.array([int(p * self.scale) for p in pays], dtype=np.int64)
        self.tally = kernel.four_tallies(n, self.outcomes, len(pays)).astype(np.int64)
        raises = np.array(game.raises)
        self.raises = raises
        bets = np.arange(BETS)
        self.more = ties == "bet"
        # four cards seen: the expected pay times (n - 4) * scale
        e4 = self.tally @ self.pays
        self.e4 = e4  # kept for the rules in words (cardlab.casino.stud_rules)
        v4, self.choice4 = self._best(-bets[None, :] * (n - 4) * self.scale,
                                 [np.where(bets + r < BETS, (bets + r)[None, :] * e4[:, None], _NEVER) for r in raises],
                                 raises)
        w3 = kernel.superset_sums(n, 3, v4)  # sum over the fourth card: units (n-3)(n-4) scale
        self.w3 = w3
        v3, self.choice3 = self._best(-bets[None, :] * (n - 3) * (n - 4) * self.scale,
                                 [_shift(w3, r) for r in raises], raises)
        w2 = kernel.superset_sums(n, 2, v3)
        paths = (n - 2) * (n - 3) * (n - 4)
        v2, choice2 = self._best(np.full((len(w2), 1), -paths * self.scale),
                            [w2[:, 1 + r:2 + r] for r in raises], raises)
        self.value2, self.choice2 = v2[:, 0], choice2[:, 0]
        self._forward(raises)

    def _best(self, fold: np.ndarray, options: list[np.ndarray], raises: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return _best(fold, options, raises, self.more)

    def _forward(self, raises: np.ndarray) -> None:
        self.folds, _, _, mass4 = self.walk(self.choice3, self.choice4)
        self.counts = mass4.T @ self.tally  # [final bet, outcome]

    def walk(self, choice3: np.ndarray, choice4: np.ndarray) -> tuple[np.ndarray, ...]:
        """The deals carried forward through the plan's two-card decisions and these three- and
        four-card ones: those folded with each total bet lost, those reaching each three-card and
        each four-card hand with each total bet (before its decision), and after the last decision."""
        n, raises = self.n, self.raises
        folds = np.zeros(BETS, dtype=np.int64)
        folds[1] = int((self.choice2 < 0).sum()) * (n - 2) * (n - 3) * (n - 4)
        mass2 = np.zeros((comb(n, 2), BETS), dtype=np.int64)
        for r in raises:
            mass2[self.choice2 == r, 1 + r] = 1
        reach3 = kernel.subset_sums(n, 2, mass2)
        reach4 = kernel.subset_sums(n, 3, _after(reach3, choice3, raises, folds, (n - 3) * (n - 4)))
        return folds, reach3, reach4, _after(reach4, choice4, raises, folds, n - 4)

    def expected_of(self, choice3: np.ndarray, choice4: np.ndarray) -> Fraction:
        """The exact expected result per ante with other three- and four-card decisions (a rule
        to prove): the deals carried forward through them, each final hand's pays summed."""
        folds, _, _, mass4 = self.walk(choice3, choice4)
        nets = Fraction(int(np.arange(BETS) @ (mass4.T @ self.e4)), self.scale)
        return (nets - int(folds @ np.arange(BETS))) / self.total

    @property
    def expected(self) -> Fraction:
        """The exact expected result per ante of the decisions in the plan."""
        nets = Fraction(int((self.counts * self.pays[None, :]).sum(axis=1) @ np.arange(BETS)), self.scale)
        return (nets - int(self.folds @ np.arange(BETS))) / self.total

    @property
    def total(self) -> int:
        """Every ordered deal: hole cards, then the three community cards in order."""
        n = self.n
        return comb(n, 2) * (n - 2) * (n - 3) * (n - 4)


_NEVER = -(2**62)


def _shift(table: np.ndarray, r: int) -> np.ndarray:
    """Column B of the result is column B + r of ``table`` (never past the last)."""
    out = np.full_like(table, _NEVER)
    out[:, :BETS - r] = table[:, r:]
    return out


def _best(fold: np.ndarray, options: list[np.ndarray], raises: np.ndarray,
          more: bool) -> tuple[np.ndarray, np.ndarray]:
    """The best of folding and each raise, and the choice (ties: fold, then the smaller raise; or
    with ``more``, the larger raise, then the fold)."""
    best = np.broadcast_to(fold, options[0].shape).copy()
    choice = np.full(best.shape, -1, dtype=np.int64)
    for r, value in zip(raises.tolist(), options):
        better = (value >= best) if more else (value > best)
        best = np.where(better, value, best)
        choice = np.where(better, r, choice)
    return best, choice


def _after(mass: np.ndarray, choice: np.ndarray, raises: np.ndarray, folds: np.ndarray, paths: int) -> np.ndarray:
    """The deals at bets B moved by the street's choice: folded (counted in ``folds`` times the
    ``paths`` still to come) or raised to B + r."""
    out = np.zeros_like(mass)
    folds += (mass * (choice < 0)).sum(axis=0) * paths
    for r in raises.tolist():
        out[:, r:] += (mass * (choice == r))[:, :BETS - r]
    return out


def stud_plan(game: Game, ties: str = "fold") -> StudPlan:
    """The :class:`StudPlan` of a Mississippi Stud game (``ties`` as :func:`cardlab.casino.analysis.analyse`)."""
    return StudPlan(game, ties)


def analyse_stud(game: Game, ties: str = "fold") -> "_Analysed":
    """The exact analysis (a :class:`cardlab.casino.result.GameAnalysis` built by the caller)."""
    plan = stud_plan(game, ties)
    return _Analysed(game, plan)


class _Analysed:
    """What :func:`cardlab.casino.analysis.analyse` needs: the bet, the rules, the play."""

    def __init__(self, game: Game, plan: StudPlan) -> None:
        assert game.main is not None
        values: Counter[Fraction] = Counter()
        rows = []
        for o, outcome in enumerate(game.main.outcomes):
            net = Fraction(int(plan.pays[o]), plan.scale)
            rows.append(OutcomeRow(outcome.name, int(plan.counts[:, o].sum()), net))
            for b in range(BETS):
                values[net * b] += int(plan.counts[b, o])
        for b in range(BETS):
            if plan.folds[b]:
                values[Fraction(-b)] += int(plan.folds[b])
                rows.append(OutcomeRow(f"fold with {b} bet{'s' if b > 1 else ''} made", int(plan.folds[b]), Fraction(-b)))
        total = plan.total
        assert sum(values.values()) == total
        expected = sum((v * c for v, c in values.items()), Fraction(0)) / total
        average = Fraction(sum(b * int(plan.counts[b].sum() + plan.folds[b]) for b in range(BETS)), total)
        self.bet = BetAnalysis(game.name, expected, average,
                               sd_of(list(values.items())), total, tuple(rows))
        deck = np.array(game.cards)
        hands = deck[positions_of(np.arange(comb(plan.n, 2)), 2)]
        self.rules = [f"two cards: {line}" for r in sorted(set(game.raises), reverse=True)
                      if (plan.choice2 == r).any()
                      for line in pattern_rule(hands, plan.choice2 == r, f"raise {r}x", paying_words=False)]
        self.rules.append("two cards: fold the rest")
        self.plan = plan

    def play(self, positions: np.ndarray) -> list[np.ndarray]:
        """The net result of each deal (rows of five positions: hole cards, then the board)."""
        plan = self.plan
        rows = np.arange(len(positions))
        bets = np.ones(len(positions), dtype=np.int64)
        folded = np.zeros(len(positions), dtype=bool)
        for cards, choice in ((2, plan.choice2[:, None]), (3, plan.choice3), (4, plan.choice4)):
            hand = colex(positions[:, :cards])
            made = choice[hand, 0] if choice.shape[1] == 1 else choice[hand, np.minimum(bets, BETS - 1)]
            now = ~folded & (made < 0)
            folded |= now
            bets = np.where(folded, bets, bets + np.maximum(made, 0))
        pay = plan.pays[plan.outcomes[colex(positions)]] / plan.scale
        return [np.where(folded, -bets, bets * pay)[rows]]
