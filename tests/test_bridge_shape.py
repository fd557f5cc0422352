"""Suit patterns, specific distributions, longest suit and joint tables."""

from __future__ import annotations

from collections import Counter
from math import comb

import pytest

from bruteforce import assert_simulation_agrees, enumerate_feature, hand_points, suit_lengths
from cardlab.bridge.features import Joint, LongestSuit, Pattern, Points, SuitLengths
from cardlab.dealing import Deck, Draw
from cardlab.engine import exact, simulate

FULL = Draw(Deck.standard(), 13)

# Published pattern table (percent, 4 decimals), e.g. the bridge encyclopaedia's hand-pattern table.
PUBLISHED = {
    "4-4-3-2": 21.5512, "5-3-3-2": 15.5168, "5-4-3-1": 12.9307, "5-4-2-2": 10.5797,
    "4-3-3-3": 10.5361, "6-3-2-2": 5.6425, "6-4-2-1": 4.7021, "6-3-3-1": 3.4482,
    "5-5-2-1": 3.1739, "4-4-4-1": 2.9932, "7-3-2-1": 1.8808, "6-4-3-0": 1.3262,
}


def test_pattern_table_matches_published_table() -> None:
    dist = exact(FULL, Pattern()).nonzero()
    assert len(dist.values) == 39
    assert dist.total == comb(52, 13)
    for pattern, percent in PUBLISHED.items():
        assert round(100 * float(dist.probability(pattern)), 4) == percent, pattern
    assert dist.count("13-0-0-0") == 4 and dist.count("4-4-3-2") == 136_852_887_600


def test_specific_distributions_by_binomials() -> None:
    dist = exact(FULL, SuitLengths()).nonzero()
    assert len(dist.values) == 560
    for value, count in zip(dist.values, dist.counts):
        s, h, d, c = (int(n) for n in value.split("-"))
        assert count == comb(13, s) * comb(13, h) * comb(13, d) * comb(13, c)


SMALL = Deck.of("As Ks Qs Js 2s Ah Kh 3h 4h Ad Qd 5d Kc 6c")


@pytest.mark.parametrize("feature", [Pattern(), SuitLengths(), LongestSuit()])
def test_shapes_against_enumeration(feature) -> None:
    draw = Draw(SMALL, 5)
    dist = exact(draw, feature)
    brute = enumerate_feature(SMALL.physical().tolist(), 5, lambda h: feature.key(suit_lengths(h)))
    assert {v: c for v, c in zip(dist.values, dist.counts) if c} == dict(brute)


@pytest.mark.parametrize("shape", [Pattern(), LongestSuit(), SuitLengths()])
def test_joint_against_enumeration(shape) -> None:
    draw = Draw(SMALL, 5)
    dist = exact(draw, Joint(Points(), shape))
    from fractions import Fraction

    per_rank = {"A": Fraction(4), "K": Fraction(3), "Q": Fraction(2), "J": Fraction(1)}
    brute = enumerate_feature(
        SMALL.physical().tolist(), 5,
        lambda h: (hand_points(h, per_rank), shape.key(suit_lengths(h))),
    )
    assert {v: c for v, c in zip(dist.values, dist.counts) if c} == dict(brute)


def test_joint_margins_equal_the_single_tables() -> None:
    joint = exact(FULL, Joint(Points(), Pattern()))
    by_points: Counter = Counter()
    by_pattern: Counter = Counter()
    for (p, s), c in zip(joint.values, joint.counts):
        by_points[p] += c
        by_pattern[s] += c
    points = exact(FULL, Points())
    pattern = exact(FULL, Pattern())
    assert all(by_points[v] == c for v, c in zip(points.values, points.counts))
    assert all(by_pattern[v] == c for v, c in zip(pattern.values, pattern.counts))
    assert joint.count((10, "13-0-0-0")) == 4 and joint.count((11, "13-0-0-0")) == 0


def test_partnership_shape_total() -> None:
    dist = exact(Draw(Deck.standard(), 26), Pattern())
    assert dist.total == comb(52, 26)
    assert dist.count("13-13-0-0") == 6  # choose the two full suits


def test_shape_simulation_agrees() -> None:
    ex = exact(FULL, LongestSuit())
    sim = simulate(FULL, LongestSuit(), trials=100_000, seed=77)
    assert_simulation_agrees(ex, sim)
