"""The exact expected value of every blackjack decision against one up card, by recursion over
the player's card compositions, with the dealer's final totals from
:mod:`cardlab.casino.blackjack_dealer` for the shoe left by the up card and the player's cards.

Every composition the player can hold is one state (its hand and the cards gone); the
recursion runs from the longest hands back to the shortest, a level at a time, as array
operations (each state's hit value is the chance-weighted sum of its ten children's values).

Values are kept *joint with "no dealer blackjack"* in a peek game (the expectation times that
event), so every decision at one state compares on the same footing and the hole card
conditions the player's draws exactly; :meth:`Hands.ev` divides it out.

Splits: with no resplit and the CDP1 post-split play (the defaults) each of the two hands is
valued from the shoe less the up card and both pair cards, played by its own cards (doubling only
under DAS, no surrender), split aces take one card each, and the split is worth twice that --
exact for that play (the other hand's cards, unseen when the strategy is fixed, drop out in
expectation; see :mod:`cardlab.casino.blackjack_split`, which computes resplits and CDZ-).

>>> from cardlab.casino.blackjack_rules import Rules, add_card, hand_of, total_of
>>> hands = Hands(Rules(decks=6), up=9)                 # the dealer shows a ten
>>> round(hands.ev(hand_of(9, 5), "stand"), 3)          # T-6 stands
-0.541
>>> Hands(Rules(composition=(8, 0, 0, 0, 0, 0, 0, 0, 0, 0)), up=0)
Traceback (most recent call last):
...
cardlab.errors.BlackjackError: shoe 8-0-0-0-0-0-0-0-0-0 is too small: a round can use every card (the engine needs the dealer never to run out)
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from cardlab.casino.blackjack_dealer import BLACKJACK, BUST, dealer_probabilities
from cardlab.casino.blackjack_rules import Rules, add_card, hand_of, total_of
from cardlab.errors import BlackjackError

__all__ = ["ACTIONS", "Hands", "Counts", "Policy", "Optimal", "total_of", "hand_of"]

Counts = tuple[int, ...]
ACTIONS = ("stand", "hit", "double", "surrender", "split")
Floats = npt.NDArray[np.float64]


class Policy(Protocol):
    """How a hand is played: the decision on two cards, and hit or stand after that."""

    def decide(self, hands: "Hands", hand: Counts, removed: Counts, split: bool) -> str:
        """The decision on ``hand`` (stand, hit, double, split or surrender), the cards
        ``removed`` from the shoe besides it; ``split``: the hand may still be split."""
        ...

    def hits(self, up: int) -> dict[tuple[bool, int], bool] | None:
        """Per (soft, total) whether to hit a hand of three or more cards; None: the best."""


class Hands:
    """Every decision's value against up card ``up`` (0 = ace .. 9 = ten) from the shoe of
    ``rules`` less ``removed`` (cards known gone, e.g. for effects of removal)."""

    def __init__(self, rules: Rules, up: int, removed: Counts = (0,) * 10) -> None:
        self.rules = rules
        self.up = up
        self.removed = removed
        self.splits: dict[object, float] = {}
        self.extra: dict[tuple[int, int], "Hands"] = {}
        cards = [c - r for c, r in zip(rules.cards, removed)]
        cards[up] -= 1
        self.base = tuple(cards)
        self._plans: dict[object, tuple[Floats, Floats]] = {}
        self._build()

    def _build(self) -> None:
        """Index every (hand, cards gone) state, its children, and its dealer figures."""
        hands: list[Counts] = []

        def grow(start: int, left: int, cur: list[int]) -> None:
            hands.append(tuple(cur))
            for rank in range(start, 10):
                if rank + 1 <= left and cur[rank] < self.base[rank]:
                    cur[rank] += 1
                    grow(rank, left - rank - 1, cur)
                    cur[rank] -= 1

        grow(0, 21, [0] * 10)
        states = [(h, h) for h in hands]
        states += [(h, add_card(h, a)) for h in hands for a in range(10) if h[a] and h[a] < self.base[a]]
        states.sort(key=lambda s: -sum(s[0]))
        self.index = {s: i for i, s in enumerate(states)}
        hand = np.array([h for h, _ in states], dtype=np.int64)
        gone = np.array([r for _, r in states], dtype=np.int64)
        shoe = np.array(self.base, dtype=np.int64)[None, :] - gone
        size = shoe.sum(axis=1)
        values = np.arange(1, 11)
        hard = hand @ values
        self.soft = (hand[:, 0] > 0) & (hard + 10 <= 21)
        self.total = np.where(self.soft, hard + 10, hard)
        self.cards = hand.sum(axis=1)
        # the dealer, once per distinct set of cards gone
        distinct, which = np.unique(gone, axis=0, return_inverse=True)
        dealer = dealer_probabilities(np.array(self.base)[None, :] - distinct, self.up, self.rules.h17)
        short = np.flatnonzero(np.abs(dealer.sum(axis=1) - 1.0) > 1e-9)
        if len(short) or self.base[self.up] < 0:
            raise BlackjackError(f"shoe {'-'.join(map(str, self.rules.cards))} is too small: a round can use "
                                 "every card (the engine needs the dealer never to run out)")
        nets = np.zeros((7, 22))
        for total in range(22):
            for outcome in range(5):
                nets[outcome, total] = np.sign(total - 17 - outcome) if total >= 17 else -1.0
            nets[BUST, total] = 1.0
            nets[BLACKJACK, total] = 0.0 if self.rules.peek else -1.0
        self.stand_values = (dealer @ nets)[which.ravel(), self.total]
        self.clear = self._clear(shoe, size)
        # children: one more card of each rank, found by a key of (hand, cards gone)
        codes = (32 ** np.arange(10)).astype(np.int64)
        extra = (gone - hand) @ np.arange(1, 11)  # 0, or 1 + the rank of the other split card
        key = (hand @ codes) * 11 + extra
        order = np.argsort(key)
        self.chance = shoe / size[:, None]
        self.child = np.full((len(states), 10), -1)
        self.bust = np.zeros((len(states), 10))
        for rank in range(10):
            wanted = (hand @ codes + codes[rank]) * 11 + extra
            spot = np.minimum(np.searchsorted(key, wanted, sorter=order), len(key) - 1)
            found = key[order[spot]] == wanted
            self.child[:, rank] = np.where(found & (shoe[:, rank] > 0), order[spot], -1)
            after = shoe.copy()
            after[:, rank] -= 1
            busts = hard + rank + 1 > 21
            self.bust[:, rank] = np.where(busts & (shoe[:, rank] > 0), -self._clear(after, size - 1), 0.0)
        self.levels = [np.flatnonzero(self.cards == c) for c in range(int(self.cards.max()), 0, -1)]

    def _clear(self, shoe: npt.NDArray[np.int64], size: npt.NDArray[np.int64]) -> Floats:
        """The chance of no dealer blackjack for each shoe (1 without a peek)."""
        if not self.rules.peek or self.up not in (0, 9):
            return np.ones(len(shoe))
        result: Floats = 1.0 - shoe[:, 9 if self.up == 0 else 0] / size
        return result

    def _shoe(self, removed: Counts) -> Counts:
        return tuple(b - r for b, r in zip(self.base, removed))

    def no_blackjack(self, removed: Counts) -> float:
        """The chance the dealer has no blackjack (1 without a peek: it is then an outcome)."""
        return 1.0 - self.dealer_blackjack(removed) if self.rules.peek else 1.0

    def dealer_blackjack(self, removed: Counts) -> float:
        """The chance the dealer's hole card makes a blackjack."""
        if self.up not in (0, 9):
            return 0.0
        shoe = self._shoe(removed)
        return shoe[9 if self.up == 0 else 0] / sum(shoe)

    def _plan(self, policy: Policy) -> tuple[Floats, Floats]:
        """Hit values of every state and the values played on after a hit, by ``policy``."""
        hits = policy.hits(self.up)
        key = id(policy) if hits is not None else "optimal"
        if key in self._plans:
            return self._plans[key]
        wants = None
        if hits is not None:
            table = np.zeros((2, 22), dtype=bool)
            for (soft, total), yes in hits.items():
                if total <= 21:
                    table[int(soft), total] = yes
            wants = table[self.soft.astype(int), self.total]
        self._plans[key] = self.plan(wants)
        return self._plans[key]

    def plan(self, wants: npt.NDArray[np.bool_] | None) -> tuple[Floats, Floats]:
        """Hit values of every state and the values played on after a hit: a hand of three or
        more cards hits where ``wants`` (one flag per state) says so, or (None) when hitting
        is worth more than standing. 21 always stands."""
        n = len(self.total)
        hit = np.zeros(n)
        on = np.zeros(n)
        safe = np.maximum(self.child, 0)
        for level in self.levels:
            kids = safe[level]
            values = np.where(self.child[level] >= 0, on[kids], self.bust[level])
            hit[level] = (self.chance[level] * values).sum(axis=1)
            stand = self.stand_values[level]
            played = np.maximum(stand, hit[level]) if wants is None else np.where(wants[level], hit[level], stand)
            on[level] = np.where(self.total[level] == 21, stand, played)
        return hit, on

    def may_double(self, hand: Counts, split: bool) -> bool:
        """Whether the rules let this hand double."""
        if sum(hand) != 2 or (split and not self.rules.das):
            return False
        total, soft = total_of(hand)
        if self.rules.double == "any":
            return True
        low = 9 if self.rules.double == "9-11" else 10
        return not soft and low <= total <= 11

    def options(self, hand: Counts, split: bool) -> list[str]:
        """The decisions open to a hand of two cards (before or after a split)."""
        found = ["stand", "hit"]
        if self.may_double(hand, split):
            found.append("double")
        if not split:
            if self.rules.surrender or self.rules.early_surrender:
                found.append("surrender")
            if max(hand) == 2:
                found.append("split")
        return found

    def value(self, hand: Counts, removed: Counts, action: str, policy: Policy) -> float:
        """One decision's value (joint with no dealer blackjack), played on by ``policy``."""
        i = self.index[(hand, removed)]
        if action == "stand":
            return float(self.stand_values[i])
        if action == "surrender":
            # early: -0.5 whatever the hole card, i.e. joint with no blackjack -0.5 + P(blackjack)
            return 0.5 - float(self.clear[i]) if self.rules.early_surrender else -0.5 * float(self.clear[i])
        if action == "hit":
            return float(self._plan(policy)[0][i])
        if action == "double":
            stands = np.where(self.child[i] >= 0, self.stand_values[np.maximum(self.child[i], 0)], self.bust[i])
            return 2 * float((self.chance[i] * stands).sum())
        if self.rules.split_hands > 2 or self.rules.post_split != "cdp1":
            from cardlab.casino.blackjack_split import split_value
            return split_value(self, hand.index(2), policy)
        return 2 * self.split_hand(hand.index(2), policy)

    def split_hand(self, rank: int, policy: Policy) -> float:
        """One hand after splitting a pair of ``rank``s (both cards out of the shoe)."""
        removed = hand_of(rank, rank)
        value = 0.0
        for card, size in enumerate(self._shoe(removed)):
            if size == 0:
                continue
            hand, gone = hand_of(rank, card), add_card(removed, card)
            p = size / sum(self._shoe(removed))
            if rank == 0 or total_of(hand)[0] == 21:  # split aces take one card
                value += p * self.value(hand, gone, "stand", policy)
            else:
                value += p * self.value(hand, gone, policy.decide(self, hand, gone, True), policy)
        return value

    def ev(self, hand: Counts, action: str, policy: Policy | None = None) -> float:
        """The expected value of ``action`` on a first hand (two cards), given no dealer
        blackjack in a peek game; later decisions by ``policy`` (default: the best)."""
        chosen = policy or Optimal()
        return self.value(hand, hand, action, chosen) / self.no_blackjack(hand)


class Optimal:
    """The composition-dependent best play (``splits=False``: never split; ``insurance``: also
    insure when the cards seen make it pay, counted by
    :func:`cardlab.casino.blackjack.house_edge`)."""

    def __init__(self, splits: bool = True, insurance: bool = False) -> None:
        self.splits = splits
        self.insurance = insurance

    def hits(self, up: int) -> None:
        """None: a hand of three or more cards takes its best decision, not a table's."""
        return None

    def decide(self, hands: Hands, hand: Counts, removed: Counts, split: bool) -> str:
        """The decision of highest exact value for this hand and shoe."""
        choices = [a for a in hands.options(hand, split) if self.splits or a != "split"]
        return max(choices, key=lambda a: hands.value(hand, removed, a, self))
