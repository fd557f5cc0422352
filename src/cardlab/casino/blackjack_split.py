"""Exact split values with resplits (to four hands), for a stated post-split strategy.

The engines that publish exact split values (Farmer's, MGP's, Cacarulo's) fix how split hands
are played and then compute exactly; so does this module. Split hands are played by a fixed
rule that looks only at the hand's own cards: for the composition-dependent strategy
``Rules.post_split`` says which (``cdp1``: the best play for the hand's cards with both pair
cards out; ``cdz``: the pre-split best play), for a table strategy (basic strategy) its table.
A pair card dealt to a split hand is always resplit while the rules allow another hand.

Why it is exact. (1) The chance of a whole round depends only on the multiset of cards dealt
and how many, not on who gets them in what order, and the resplit cap only looks at the order
of the *second* cards; so the round may be dealt as: every hand's second card first (resplitting
as they come), then each hand played out, then the dealer -- the same distribution. (2) After
any stopping rule, the cards still to come are distributed as a fresh draw from the shoe left
(a martingale), so the value of one hand played from a shoe is unchanged by first taking out a
card *at random*: f(S) = v f(S - p) + (1 - v) E[f(S - non-pair card)], v the chance of a pair
card. A hand's value given the other hands' second cards (so many pair cards, so many unknown
non-pair cards) is thus a combination of one-hand values with 0, 1, 2, ... extra pair cards
out (``_Values.g``); the other hands' later cards and any card taken after the cap count as
random and drop out. The tests check it against a brute force that deals whole rounds in
order on small shoes, and against a seeded simulation.

>>> from cardlab.casino.blackjack_engine import Hands, hand_of
>>> from cardlab.casino.blackjack_rules import Rules
>>> one = Hands(Rules(decks=6), up=5).ev(hand_of(7, 7), "split")
>>> four = Hands(Rules(decks=6, split_hands=4), up=5).ev(hand_of(7, 7), "split")
>>> round(one, 4), round(four, 4)       # 8-8 against a 6: split once, resplit to four hands
(0.3279, 0.4057)
"""

from __future__ import annotations

from functools import lru_cache
from math import prod
from typing import TYPE_CHECKING

import numpy as np

from cardlab.casino.blackjack_rules import add_card, hand_of

if TYPE_CHECKING:  # the engine imports this module (lazily): types only here
    from cardlab.casino.blackjack_engine import Counts, Hands, Policy

__all__ = ["split_value", "split_orders"]


@lru_cache(maxsize=8)
def split_orders(most: int) -> tuple[tuple[str, ...], ...]:
    """Every order of second cards dealt to split hands (``P`` a pair card that makes another
    hand, ``N`` a non-pair card, ``X`` any card once no more hands may be made), hands served
    in turn, up to ``most`` hands.

    >>> split_orders(3)
    (('P', 'X', 'X', 'X'), ('N', 'P', 'X', 'X'), ('N', 'N'))
    """
    found: list[tuple[str, ...]] = []

    def deal(hands: int, served: int, drawn: tuple[str, ...]) -> None:
        if served == hands:
            found.append(drawn)
        elif hands < most:
            deal(hands + 1, served, drawn + ("P",))
            deal(hands, served + 1, drawn + ("N",))
        else:
            deal(hands, served + 1, drawn + ("X",))

    deal(2, 0, ())
    return tuple(found)


def _falling(n: int, k: int) -> int:
    return prod(range(n - k + 1, n + 1)) if k <= n else 0


class _Values:
    """One split hand's value (joint with no dealer blackjack) with ``a`` extra pair cards out:
    ``x(a)`` whatever its second card, ``pair(a)`` when its second card is a pair card it keeps."""

    def __init__(self, hands: "Hands", rank: int, policy: "Policy") -> None:
        self.hands, self.rank, self.policy = hands, rank, policy
        shoe = [c - (2 if r == rank else 0) for r, c in enumerate(hands.base)]
        self.pairs, self.size = shoe[rank], sum(shoe)
        self.optimal = policy.hits(hands.up) is None
        self._one: dict[int, tuple[float, float]] = {}
        self._g: dict[tuple[str, int, int], float] = {}

    def table(self, a: int) -> "Hands":
        """The up card's values from the shoe less ``a`` more pair cards."""
        if a == 0:
            return self.hands
        key = (self.rank, a)
        if key not in self.hands.extra:
            removed = self.hands.removed
            for _ in range(a):
                removed = add_card(removed, self.rank)
            self.hands.extra[key] = type(self.hands)(self.hands.rules, self.hands.up, removed)
        return self.hands.extra[key]

    def _reference(self, hand: "Counts") -> tuple[int, str]:
        """Where the optimal post-split play of ``hand`` is read in the full table: the state
        and the two-card decision (stand, hit or double)."""
        base = self.hands
        gone = hand if base.rules.post_split == "cdz" else add_card(hand, self.rank)
        i = base.index[(hand, gone)]
        if sum(hand) != 2:
            return i, ""
        hit = base._plan(self.policy)[0]
        values = {"stand": float(base.stand_values[i]), "hit": float(hit[i])}
        if base.may_double(hand, True):
            values["double"] = base.value(hand, gone, "double", self.policy)
        return i, max(values, key=lambda k: values[k])

    def one(self, a: int) -> tuple[float, float]:
        """``(x(a), pair(a))``."""
        if a in self._one:
            return self._one[a]
        table = self.table(a)
        pair = hand_of(self.rank, self.rank)
        shoe = [c - n for c, n in zip(table.base, pair)]
        if self.optimal:
            ref_hit, _ = self.hands._plan(self.policy)
            wants = np.zeros(len(table.total), dtype=bool)
            for (hand, gone), i in table.index.items():
                if hand[self.rank] and gone == add_card(hand, self.rank) and sum(hand) > 2:
                    j = self._reference(hand)[0]
                    wants[i] = ref_hit[j] > self.hands.stand_values[j]
            hit, _ = table.plan(wants)
        else:
            hit = table._plan(self.policy)[0]
        x = paired = 0.0
        for card, count in enumerate(shoe):
            if count == 0:
                continue
            hand = hand_of(self.rank, card)
            gone = add_card(hand, self.rank)
            i = table.index[(hand, gone)]
            if self.rank == 0 or table.total[i] == 21:
                act = "stand"
            elif self.optimal:
                act = self._reference(hand)[1]
            else:
                act = self.policy.decide(table, hand, gone, True)
            value = (float(table.stand_values[i]) if act == "stand" else float(hit[i]) if act == "hit"
                     else table.value(hand, gone, "double", self.policy))
            x += count / sum(shoe) * value
            if card == self.rank:
                paired = value
        self._one[a] = (x, paired)
        return x, paired

    def g(self, kind: str, a: int, b: int) -> float:
        """A hand's value (``X`` any second card, ``N`` times "its second card is not a pair
        card") with ``a`` pair cards and ``b`` unknown non-pair cards out besides the pair."""
        key = (kind, a, b)
        if key not in self._g:
            if b == 0:
                x, paired = self.one(a)
                value = x if kind == "X" else x - (self.pairs - a) / (self.size - a) * paired
            else:
                v = (self.pairs - a) / (self.size - a - b + 1)
                value = self.g(kind, a, b - 1)
                if v > 0:
                    value = (value - v * self.g(kind, a + 1, b - 1)) / (1 - v)
            self._g[key] = value
        return self._g[key]


def split_value(hands: "Hands", rank: int, policy: "Policy") -> float:
    """The exact value of splitting a pair of ``rank``s against ``hands.up`` (all hands, per
    initial bet, joint with no dealer blackjack in a peek game), resplitting to
    ``rules.split_hands`` hands (aces only with ``resplit_aces``), split hands played by
    ``policy``'s table or, for the composition-dependent play, by ``rules.post_split``."""
    key = (rank, "optimal" if policy.hits(hands.up) is None else id(policy))
    if key in hands.splits:
        return hands.splits[key]
    rules = hands.rules
    most = rules.split_hands if rank != 0 or rules.resplit_aces else 2
    values = _Values(hands, rank, policy)
    others = values.size - values.pairs
    total = 0.0
    for order in split_orders(most):
        pairs, singles = order.count("P"), order.count("N")
        for kind in order:
            if kind == "P":
                continue
            b = singles - (kind == "N")
            chance = (_falling(values.pairs, pairs) * _falling(others, b)
                      / _falling(values.size, pairs + b))
            if chance > 0:
                total += chance * values.g(kind, pairs, b)
    hands.splits[key] = total
    return total

