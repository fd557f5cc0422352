"""Tables conditioned on another hand's points, against enumeration and a marginal identity."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from bruteforce import hand_points
from cardlab.bridge.conditional import given_points
from cardlab.bridge.features import Points
from cardlab.dealing import Deck, Draw
from cardlab.engine import exact
from cardlab.errors import DeckError

HCP = {"A": Fraction(4), "K": Fraction(3), "Q": Fraction(2), "J": Fraction(1)}


@pytest.mark.parametrize("known", [0, 3, 5, 7])
def test_given_points_against_enumeration(known: int) -> None:
    deck = Deck.of("As Ks Qs Js 2s Ah Kh 3h Ad 4d Qc 5c")
    cards = deck.physical().tolist()
    brute: Counter = Counter()
    for first in itertools.combinations(range(len(cards)), 4):
        if hand_points((cards[i] for i in first), HCP) != known:
            continue
        rest = [cards[i] for i in range(len(cards)) if i not in first]
        for second in itertools.combinations(rest, 3):
            brute[hand_points(second, HCP)] += 1
    dist = given_points(deck, known, known_cards=4, cards=3)
    assert {v: c for v, c in zip(dist.values, dist.counts) if c} == dict(brute)


def test_marginal_identity_on_the_full_deck() -> None:
    # Summing over every value N of the first hand gives every pair of hands:
    # sum_N count_N(p) = C(39,13) * count(p).
    totals = np.zeros(38, dtype=object)
    for n in range(38):
        d = given_points(Deck.standard(), n)
        totals[: len(d.counts)] += np.array(d.counts[:38], dtype=object)
    single = exact(Draw(Deck.standard(), 13), Points())
    assert list(totals) == [comb(39, 13) * c for c in single.counts]


def test_given_37_leaves_at_most_three_points() -> None:
    d = given_points(Deck.standard(), 37).trim()
    assert d.total == 4 * comb(39, 13)
    assert [int(v) for v in d.values] == [0, 1, 2, 3]
    # other hand holds j of the 3 remaining jacks: C(3,j) C(36,13-j)
    assert list(d.counts) == [4 * comb(3, j) * comb(36, 13 - j) for j in range(4)]


def test_partner_given_15_published_mean() -> None:
    # With 15 points known, the other 25 are spread over 39 cards: partner expects 25/3.
    d = given_points(Deck.standard(), 15)
    assert d.mean() == Fraction(25, 3)


def test_fractional_given_points() -> None:
    d = given_points(Deck.standard(), "12.25", scheme="bergen")
    own = exact(Draw(Deck.standard(), 13), Points("bergen"))
    # Every own hand of 12.25 points, each with every partner hand from the 39 cards left.
    assert own.count(Fraction(49, 4)) == 16_085_312_752
    assert d.total == own.count(Fraction(49, 4)) * comb(39, 13)
    # The deck holds 4 x (mean of a hand) points; partner expects a third of what is left.
    assert d.mean() == (4 * own.mean() - Fraction(49, 4)) / 3


def test_impossible_given_points() -> None:
    with pytest.raises(DeckError, match="no 13-card hand holds exactly 38 hcp"):
        given_points(Deck.standard(), 38)
    with pytest.raises(DeckError, match="cannot be made"):
        given_points(Deck.standard(), "1/3")


def test_simulation_by_rejection_agrees_with_exact() -> None:
    from bruteforce import assert_simulation_agrees
    from cardlab.bridge.conditional import simulate_given_points

    ex = given_points(Deck.standard(), 12)
    sim, dealt = simulate_given_points(Deck.standard(), 12, trials=400_000, seed=21)
    assert dealt == 400_000
    # about 8.03% of hands hold exactly 12 points (published table), so about 32,000 are kept
    assert 30_000 < sim.total < 34_300
    assert_simulation_agrees(ex, sim)


def test_given_hcp_with_simulation_cli(run) -> None:
    import json

    status, out, _ = run("bridge", "hcp", "--given-hcp", "20", "--simulate", "200000", "--seed", "2",
                         "--format", "json")
    data = json.loads(out)
    assert status == 0
    assert data["total"] == sum(r["count"] for r in data["rows"])
    kept = data["simulation"]["trials"]
    assert kept == sum(r["simulated_count"] for r in data["rows"])
    assert 900 < kept < 1700  # P(20 HCP) = 0.6435%: about 1,287 of 200,000
