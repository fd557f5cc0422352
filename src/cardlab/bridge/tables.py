"""The hand-statistics tables the ``cardlab bridge hcp|shape|joint`` commands print, as library calls.

Each returns a :class:`~cardlab.tabulation.Tabulation`: the exact table, and with
``trials`` a seeded simulation beside it, rows already chosen and ordered the way
the command shows them.

>>> t = points_table()
>>> len(t.main.values), t.main.total, t.main.count(37)
(38, 635013559600, 4)
>>> shape_table().main.values[:3]
('4-4-3-2', '5-3-3-2', '5-4-3-1')
>>> points_table(given_points=15).main.mean()
Fraction(25, 3)
>>> points_table(scheme="nonsense")
Traceback (most recent call last):
...
cardlab.errors.SchemeError: unknown point scheme 'nonsense' (known: work, bergen, four-aces, banzai, controls; or a spec like A=4,K=3,Q=2,J=1)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from cardlab.bridge.conditional import given_points as _given_points
from cardlab.bridge.conditional import simulate_given_points
from cardlab.bridge.features import Joint, LongestSuit, Pattern, Points, ShapeFeature, SuitLengths
from cardlab.bridge.schemes import PointScheme, parse_points, parse_scheme
from cardlab.dealing import Deck, Draw
from cardlab.engine import DEFAULT_CHUNK, Executor, SeedLike, tabulate
from cardlab.errors import CardlabError
from cardlab.tabulation import Tabulation

__all__ = ["points_table", "shape_table", "joint_table", "hand_draw", "ShapeKind"]

ShapeKind = Literal["pattern", "suits", "longest"]
_SHAPES: dict[str, type[ShapeFeature]] = {"pattern": Pattern, "suits": SuitLengths, "longest": LongestSuit}


def hand_draw(cards: int = 13, given: str | None = None) -> tuple[Draw, str]:
    """A ``cards``-card hand from a standard deck without the ``given`` known cards, and the
    words that say so in a title."""
    deck = Deck.standard()
    where = ""
    if given:
        deck = deck.remove(given)
        where = f", {52 - deck.size} known cards removed ({given})"
    return Draw(deck, cards), where


def points_table(
    scheme: PointScheme | str = "work",
    cards: int = 13,
    given: str | None = None,
    given_points: int | Fraction | str | None = None,
    *,
    trials: int | None = None,
    seed: SeedLike = None,
    workers: int = 1,
    progress: bool = False,
    executor: Executor | str | None = None,
) -> Tabulation:
    """Points of a hand under ``scheme``; with ``given_points``, given that another 13-card
    hand from the same deck holds exactly that many (counts are then pairs of hands).

    >>> t = points_table()
    >>> t.exact.total, t.exact.count(37)
    (635013559600, 4)
    """
    point_scheme = parse_scheme(scheme)
    draw, where = hand_draw(cards, given)
    feature = Points(point_scheme)
    label = "Work 4-3-2-1" if point_scheme.name == "work" else str(point_scheme)
    if given_points is None:
        title = f"{feature.name} of a {cards}-card hand ({label}){where}"
        return tabulate(draw, feature, title, trials=trials, seed=seed, workers=workers,
                        progress=progress, executor=executor).nonzero()
    target = _points_value(given_points)
    exact = _given_points(draw.deck, target, point_scheme, known_cards=13, cards=cards)
    title = (f"{feature.name} of a {cards}-card hand given another hand holds exactly "
             f"{given_points} ({label}){where}")
    simulated = None
    if trials:
        simulated, dealt = simulate_given_points(draw.deck, target, trials, point_scheme, 13, cards, seed=seed,
                                                 workers=workers, progress=progress, executor=executor)
        if simulated.total == 0:
            raise CardlabError(f"none of the {dealt:,} simulated deals had a hand of exactly "
                               f"{given_points}: simulate more deals")
        title += f"; simulated: {simulated.total:,} of {dealt:,} deals had such a hand"
    return Tabulation(title, exact, simulated).nonzero()


def shape_table(
    kind: ShapeKind = "pattern",
    cards: int = 13,
    given: str | None = None,
    sort: Literal["probability", "shape"] = "probability",
    *,
    trials: int | None = None,
    seed: SeedLike = None,
    workers: int = 1,
    progress: bool = False,
    executor: Executor | str | None = None,
) -> Tabulation:
    """Suit patterns (4-4-3-2 ...), specific S-H-D-C distributions, or the longest suit's length;
    patterns and distributions most frequent first unless ``sort="shape"``.

    >>> round(float(shape_table().exact.probability("4-4-3-2")), 4)
    0.2155
    """
    draw, where = hand_draw(cards, given)
    feature = _shape(kind)
    title = f"{feature.name} of a {cards}-card hand{where}"
    table = tabulate(draw, feature, title, trials=trials, seed=seed, workers=workers, progress=progress,
                     executor=executor, cumulative=kind == "longest").nonzero()
    return table.sorted_by_count() if sort == "probability" and kind != "longest" else table


def joint_table(
    by: ShapeKind = "longest",
    scheme: PointScheme | str = "work",
    cards: int = 13,
    given: str | None = None,
    *,
    trials: int | None = None,
    seed: SeedLike = None,
    workers: int = 1,
    chunk: int = DEFAULT_CHUNK,
    progress: bool = False,
    executor: Executor | str | None = None,
) -> Tabulation:
    """Points together with a shape feature: one row per (points, shape) pair, every pair kept
    (a grid needs its empty cells).

    >>> joint_table("longest").exact.total
    635013559600
    """
    draw, where = hand_draw(cards, given)
    feature = Joint(Points(parse_scheme(scheme)), _shape(by))
    title = f"{feature.name} of a {cards}-card hand{where}"
    return tabulate(draw, feature, title, trials=trials, seed=seed, workers=workers, chunk=chunk,
                    progress=progress, executor=executor, cumulative=False)


def _shape(kind: str) -> ShapeFeature:
    try:
        return _SHAPES[kind]()
    except KeyError:
        raise CardlabError(f"unknown shape feature {kind!r} (pattern, suits or longest)") from None


def _points_value(value: int | Fraction | str) -> Fraction:
    return parse_points(value)
