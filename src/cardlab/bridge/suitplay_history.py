"""How likely the cards already played are, layout by layout (``bridge suitplay --played`` with
``--defence random-equals``; docs/suitplay.md).

The model is the one ``bridge split --played`` uses, in suit play's terms: a defender follows
with a card of his lowest run of equal cards, and picks among the equal cards of that run at
random. Cards are equal when no declarer card still in play lies between them (a declarer card
played to the current trick still counts). Each layout of the cards still out is weighed by its
a-priori chance times the chance of the plays from it (Bayes), summed over the card-by-card
layouts it stands for: which cards of a group West holds matters for the past, when declarer's
cards since played still told them apart.

AKT98 opposite 5432, Q J 7 6 missing, the A cashed, East's Q and West's 6 fallen: of the
layouts of the J and the 7, West J 7 (East had the singleton Q; West's 6 was one of two equal
small cards) has chance 1/2 of those plays, West 7 / East J (East chose the Q of Q J, West the
6 of 7 6) 1/4, and the layouts where East had the 7 none (he would have followed with it):

>>> likelihoods([(9,), (5,)], [(1, 1), (1, 0), (0, 1), (0, 0)], (11, 8, 7, 6), (3, 2, 1),
...             (("N", "A"), ("E", "Q"), ("S", "2"), ("W", "6")))
[Fraction(1, 2), Fraction(0, 1), Fraction(1, 4), Fraction(0, 1)]
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product
from typing import Sequence

from cardlab.cards import RANKS

__all__ = ["likelihoods"]


def likelihoods(groups: Sequence[tuple[int, ...]], layouts: Sequence[tuple[int, ...]], north: Sequence[int],
                south: Sequence[int], plays: Sequence[tuple[str, str]]) -> list[Fraction]:
    """For each layout (West's count in each group of the missing ``groups``, ranks 0 for the
    two to 12 for the ace), the chance of the ``plays`` (seat, card) given the layout, averaged
    over the card-by-card layouts it stands for (each of them is equally likely a priori).
    ``north`` and ``south`` are declarer's cards still held; every played card is named."""
    ranked = [(seat, RANKS.index(card)) for seat, card in plays]
    live = _declarer_live(ranked, frozenset(north) | frozenset(south))
    played = {seat: frozenset(r for s, r in ranked if s == seat) for seat in "WE"}
    out: list[Fraction] = []
    for layout in layouts:
        total, count = Fraction(0), 0
        for choice in product(*(combinations(g, j) for g, j in zip(groups, layout))):
            west = frozenset(r for part in choice for r in part)
            east = frozenset(r for g in groups for r in g) - west
            total += _chance(ranked, live, west | played["W"], east | played["E"])
            count += 1
        out.append(total / count)
    return out


def _declarer_live(plays: Sequence[tuple[str, int]], held: frozenset[int]) -> list[frozenset[int]]:
    """For each play, declarer's cards still in play then: those held now, those played later,
    and those played earlier in the same trick (tricks are the plays taken four at a time)."""
    out = []
    for t in range(len(plays)):
        start = t - t % 4
        out.append(held | frozenset(r for u, (s, r) in enumerate(plays) if s in "NS" and u >= start))
    return out


def _chance(plays: Sequence[tuple[str, int]], live: Sequence[frozenset[int]], west: frozenset[int],
            east: frozenset[int]) -> Fraction:
    hands = {"W": set(west), "E": set(east)}
    chance = Fraction(1)
    for (seat, card), ours in zip(plays, live):
        if seat not in hands:
            continue
        hand = hands[seat]
        equal = [h for h in hand if not any(min(h, card) < x < max(h, card) for x in ours)]
        if min(hand) not in equal:
            return Fraction(0)  # he would have followed with a lower card
        chance /= len(equal)
        hand.remove(card)
    return chance
