"""Exact point tables, each checked against an independent route."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from bruteforce import assert_simulation_agrees, enumerate_feature, hand_points, seed_hcp_counts
from cardlab.bridge.features import Points
from cardlab.bridge.schemes import SCHEMES, parse_scheme
from cardlab.dealing import Deck, Draw
from cardlab.bridge.polynomials import additive_counts
from cardlab.engine import exact, simulate
from cardlab.errors import SchemeError


def test_seed_table_matches_the_seed_method() -> None:
    dist = exact(Draw(Deck.standard(), 13), Points())
    reference = seed_hcp_counts(honours_each=4, low=36, k=13)
    assert dist.total == comb(52, 13) == 635_013_559_600
    assert [int(v) for v in dist.values] == list(range(38))
    assert dict(zip((int(v) for v in dist.values), dist.counts)) == reference
    assert dist.count(37) == 4


def test_seed_worked_example() -> None:
    # 1 ace, 2 kings, 3 queens, 4 jacks and 3 low cards: 4*6*4*1*7140 = 685,440 ways
    # (the seed document).
    # Give aces value 1000, kings 100, queens 10 and jacks 1: a hand's total then spells out
    # its (aces, kings, queens, jacks), so the coefficient at 1234 counts exactly that split.
    counts = additive_counts([(4, 1000), (4, 100), (4, 10), (4, 1), (36, 0)], 13)
    assert counts[1234] == 685_440
    assert counts[4000 + 400 + 40 + 1] == 4  # AKQ of every suit plus one jack: the 37-point hands


@pytest.mark.parametrize(
    ("points", "percent"),
    # Published HCP table (e.g. the standard bridge encyclopaedia table), percent to 4 places.
    [(0, 0.3639), (5, 5.1862), (10, 9.4051), (12, 8.0269), (15, 4.4237), (20, 0.6435), (25, 0.0264)],
)
def test_published_hcp_percentages(points: int, percent: float) -> None:
    dist = exact(Draw(Deck.standard(), 13), Points())
    assert round(100 * float(dist.probability(points)), 4) == percent


def test_partnership_table_against_seed_method() -> None:
    dist = exact(Draw(Deck.standard(), 26), Points())
    reference = seed_hcp_counts(honours_each=4, low=36, k=26)
    assert dist.total == comb(52, 26)
    assert dict(zip((int(v) for v in dist.values), dist.counts)) == reference
    assert len(dist.values) == 41  # 0..40: a partnership can hold all 40 points


def test_given_cards_against_seed_method() -> None:
    # Known hand AKQJ of spades + 9 low: partner's 13 come from 3 of each honour and 27 low cards.
    deck = Deck.standard().remove("AKQJ.T98.765.432")
    dist = exact(Draw(deck, 13), Points())
    reference = seed_hcp_counts(honours_each=3, low=27, k=13)
    counts = {int(v): c for v, c in zip(dist.values, dist.counts) if c}
    assert counts == reference
    assert dist.total == comb(39, 13)


SMALL = Deck.of("As Ks Qs Js Ts 9s 2s Ah Kh Qh Jh Th 3h Ad 4c 5c")


@pytest.mark.parametrize("scheme", sorted(SCHEMES) + ["A=7,K=5,Q=1/3,9=2"])
def test_every_scheme_against_enumeration(scheme: str) -> None:
    ps = parse_scheme(scheme)
    per_rank = {r: ps.value(r) for r in "23456789TJQKA"}
    draw = Draw(SMALL, 6)
    dist = exact(draw, Points(ps))
    brute = enumerate_feature(SMALL.physical().tolist(), 6, lambda h: hand_points(h, per_rank))
    got = {v: c for v, c in zip(dist.values, dist.counts) if c}
    assert got == dict(brute)


def test_several_decks_against_enumeration() -> None:
    deck = Deck.of("As As Ks Kh Qd Qd Jc 2c 2c 3h")
    draw = Draw(deck, 4)
    dist = exact(draw, Points())
    per_rank = {"A": Fraction(4), "K": Fraction(3), "Q": Fraction(2), "J": Fraction(1)}
    brute = enumerate_feature(deck.physical().tolist(), 4, lambda h: hand_points(h, per_rank))
    assert {v: c for v, c in zip(dist.values, dist.counts) if c} == dict(brute)


def test_fractional_points_stay_exact() -> None:
    dist = exact(Draw(Deck.standard(), 13), Points("bergen"))
    assert all(isinstance(v, Fraction) for v in dist.values)
    assert dist.total == comb(52, 13)
    top = dist.nonzero().values[-1]
    assert top == Fraction(4 * (9 / 2 + 3 + 3 / 2) + 1 * 3 / 4).limit_denominator()  # 4 AKQ + a jack


def test_controls_table_against_seed_style_count() -> None:
    # Controls: A=2, K=1 -> count by aces and kings directly.
    dist = exact(Draw(Deck.standard(), 13), Points("controls"))
    ref: dict[int, int] = {}
    for a in range(5):
        for k in range(5):
            ref[2 * a + k] = ref.get(2 * a + k, 0) + comb(4, a) * comb(4, k) * comb(44, 13 - a - k)
    assert dict(zip((int(v) for v in dist.values), dist.counts)) == ref


def test_simulation_agrees_with_exact() -> None:
    draw = Draw(Deck.standard(), 13)
    ex = exact(draw, Points())
    sim = simulate(draw, Points(), trials=200_000, seed=2024)
    assert_simulation_agrees(ex, sim)
    p = ex.probabilities
    lo, hi = sim.confidence_interval()
    inside = (lo <= p) & (p <= hi)
    assert inside[p > 1e-4].mean() > 0.85  # ~95% expected; a loose bound that still fails on a bias


def test_same_seed_same_counts_whatever_the_workers() -> None:
    draw = Draw(Deck.standard(), 13)
    one = simulate(draw, Points(), trials=120_000, seed=9, chunk=30_000)
    two = simulate(draw, Points(), trials=120_000, seed=9, chunk=30_000, workers=2)
    assert one.counts == two.counts
    other = simulate(draw, Points(), trials=120_000, seed=10, chunk=30_000)
    assert other.counts != one.counts


@pytest.mark.parametrize("spec", ["Z=4", "A=4,A=3", "A=-1", "A=x", "nonsense", "A4"])
def test_bad_schemes(spec: str) -> None:
    with pytest.raises(SchemeError):
        parse_scheme(spec)


class _StopAfter(Points):
    """Points, but Ctrl-C arrives while the third chunk is evaluated."""

    def __init__(self) -> None:
        super().__init__()
        object.__setattr__(self, "calls", 0)

    def encode(self, draw, hands):
        object.__setattr__(self, "calls", self.calls + 1)
        if self.calls == 3:
            raise KeyboardInterrupt
        return super().encode(draw, hands)


def test_ctrl_c_returns_what_was_simulated() -> None:
    draw = Draw(Deck.standard(), 13)
    sim = simulate(draw, _StopAfter(), trials=100_000, seed=1, chunk=10_000)
    assert sim.simulation is not None and sim.simulation.interrupted
    assert sim.total == sim.simulation.trials == 20_000 and sim.simulation.requested == 100_000
    # chunk i always uses the i-th child seed, so the two chunks done equal a 20,000-trial run
    assert sim.counts == simulate(draw, Points(), trials=20_000, seed=1, chunk=10_000).counts


def test_ctrl_c_before_any_chunk_propagates() -> None:
    class Immediately(Points):
        def encode(self, draw, hands):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(Draw(Deck.standard(), 13), Immediately(), trials=1000, seed=1)


@pytest.mark.parametrize("seed", [-1, 1.5, "7"])
def test_bad_seeds_are_input_errors(seed) -> None:
    from cardlab.errors import CardlabError

    with pytest.raises(CardlabError, match="a seed is a whole number from 0 up"):
        simulate(Draw(Deck.standard(), 13), Points(), trials=10, seed=seed)
