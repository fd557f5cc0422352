"""Points of one hand given that another hand from the same deck holds exactly N points.

Counted over pairs of disjoint hands: for every way the known hand can hold N
points (how many cards it takes from each value class: aces, kings, ...), the
other hand is drawn from what is left, by the same class counting.

>>> from math import comb
>>> from cardlab.dealing import Deck
>>> d = given_points(Deck.standard(), 37)
>>> d.total == 4 * comb(39, 13), d.trim().values[0], d.trim().values[-1]
(True, Fraction(0, 1), Fraction(3, 1))
>>> given_points(Deck.standard(), 38)
Traceback (most recent call last):
...
cardlab.errors.DeckError: no 13-card hand holds exactly 38 hcp
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import ClassVar, Iterator

import numpy as np

from cardlab.bridge.features import Points
from cardlab.bridge.schemes import PointScheme, parse_points
from cardlab.dealing import Deck, Draw
from cardlab.distribution import Distribution, Simulation, format_value
from cardlab.bridge.polynomials import sparse_counts
from cardlab.engine import Executor, SeedLike, simulate
from cardlab.errors import DeckError, TooLargeError

__all__ = ["given_points", "simulate_given_points"]

_MAX_SPLITS = 2_000_000


def given_points(
    deck: Deck,
    points: int | Fraction | str,
    scheme: PointScheme | str = "work",
    known_cards: int = 13,
    cards: int = 13,
) -> Distribution:
    """Distribution of the points of a ``cards``-card hand given that a
    ``known_cards``-card hand dealt from the same ``deck`` holds exactly ``points``.

    Counts are pairs (known hand, other hand); their total is the number of such
    pairs, so probabilities are conditional on the known hand's points.

    >>> from cardlab.dealing import Deck
    >>> d = given_points(Deck.standard(), 15)
    >>> round(float(d.probability(10)), 4)
    0.094
    """
    feature = Points(scheme)
    points = parse_points(points)
    target = points * feature.scheme.scale
    if target.denominator != 1:
        raise DeckError(f"{format_value(points)} points cannot be made in scheme "
                        f"{feature.scheme}")
    if known_cards + cards > deck.size:
        raise DeckError(f"cannot deal {known_cards} + {cards} cards from a deck of {deck.size}")
    card_values = feature.scheme.card_values()
    sizes = Counter(card_values[i] for i in deck.physical().tolist())
    classes = sorted(sizes.items(), reverse=True)  # (value, size), high values first
    support = feature.totals(Draw(deck, cards))  # what the other hand can hold from the whole deck
    totals = dict.fromkeys(support, 0)
    found = False
    for splits, taken in enumerate(_splits(classes, known_cards, int(target))):
        if splits > _MAX_SPLITS:
            raise TooLargeError("this point scheme has too many card classes to condition on "
                                "exactly; use --simulate")
        found = True
        ways = 1
        for (_, size), t in zip(classes, taken):
            ways *= comb(size, t)
        left = [(size - t, value) for (value, size), t in zip(classes, taken)]
        for total, c in sparse_counts(left, cards).items():
            totals[total] += ways * c
    if not found:
        raise DeckError(f"no {known_cards}-card hand holds exactly "
                        f"{format_value(points)} {feature.name}")
    scale = feature.scheme.scale
    values = tuple(Fraction(v, scale) for v in totals)
    return Distribution(feature.name, values, tuple(totals.values()))


def _splits(classes: list[tuple[int, int]], cards: int, points: int) -> Iterator[list[int]]:
    """Every way to take ``cards`` cards worth ``points`` from the classes (value, size)."""
    n = len(classes)
    room_cards = np.cumsum([size for _, size in classes][::-1])[::-1].tolist() + [0]
    taken = [0] * n

    def walk(i: int, cards_left: int, points_left: int) -> Iterator[list[int]]:
        if i == n:
            if cards_left == 0 and points_left == 0:
                yield list(taken)
            return
        value, size = classes[i]
        if cards_left > room_cards[i]:
            return
        # classes are sorted by value, high first: the rest can add at most cards_left * value
        if points_left > cards_left * value:
            return
        for t in range(min(size, cards_left) + 1):
            if t * value > points_left:
                break
            taken[i] = t
            yield from walk(i + 1, cards_left - t, points_left - t * value)
        taken[i] = 0

    yield from walk(0, cards, points)


@dataclass(frozen=True)
class _PointsGivenPoints:
    """Simulation feature over draws of ``known_cards + cards`` cards: the points of the last
    ``cards`` when the first ``known_cards`` hold exactly ``target`` (scaled), else "rejected"."""

    feature: Points
    target: int
    known_cards: int
    cards: int
    axes: ClassVar[tuple[str, ...]] = ()

    @property
    def name(self) -> str:
        return self.feature.name

    def values(self, draw: Draw) -> list[object]:
        return [*self.feature.values(Draw(draw.deck, self.cards)), "rejected"]

    def exact_counts(self, draw: Draw) -> list[int]:
        raise TooLargeError("count this exactly with given_points()")

    def encode(self, draw: Draw, hands: np.ndarray) -> np.ndarray:
        known = self.feature.scaled_totals(hands[:, : self.known_cards])
        other = self.feature.index(Draw(draw.deck, self.cards), self.feature.scaled_totals(hands[:, self.known_cards:]))
        rejected = len(self.values(draw)) - 1
        return np.where(known == self.target, other, rejected)


def simulate_given_points(
    deck: Deck,
    points: int | Fraction | str,
    trials: int,
    scheme: PointScheme | str = "work",
    known_cards: int = 13,
    cards: int = 13,
    seed: SeedLike = None,
    workers: int = 1,
    progress: bool = False,
    executor: Executor | str | None = None,
) -> tuple[Distribution, int]:
    """The simulated counterpart of :func:`given_points`, by rejection: deal ``trials`` pairs
    of hands and keep those whose known hand holds exactly ``points``.

    Returns the distribution over the kept pairs (its ``simulation.trials``) and the number of
    pairs dealt. Rare point counts keep few pairs: the intervals say so.
    """
    feature = Points(scheme)
    points = parse_points(points)
    target = points * feature.scheme.scale
    if target.denominator != 1:
        raise DeckError(f"{format_value(points)} points cannot be made in scheme {feature.scheme}")
    if known_cards + cards > deck.size:
        raise DeckError(f"cannot deal {known_cards} + {cards} cards from a deck of {deck.size}")
    conditional = _PointsGivenPoints(feature, int(target), known_cards, cards)
    sim = simulate(Draw(deck, known_cards + cards), conditional, trials, seed=seed, workers=workers,
                   progress=progress, executor=executor)
    assert sim.simulation is not None
    kept = sim.counts[:-1]
    info = Simulation(trials=sum(kept), seed=sim.simulation.seed, workers=workers,
                      requested=trials, interrupted=sim.simulation.interrupted)
    return Distribution(feature.name, sim.values[:-1], kept, simulation=info), sim.total
