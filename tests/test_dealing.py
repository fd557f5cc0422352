"""Decks and draws: sizes, removal errors, and a sampler that is uniform."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from cardlab.dealing import Deck, Draw
from cardlab.errors import DeckError


def test_deck_sizes() -> None:
    assert Deck.standard().size == 52
    assert Deck.short().size == 36
    assert Deck.standard(decks=3).size == 156
    assert Deck.of("As Ks Ks").counts[47] == 2


def test_remove_known_cards() -> None:
    deck = Deck.standard().remove("AKQJ.T98.765.432")
    assert deck.size == 39
    assert Draw(deck, 13).outcomes() == comb(39, 13)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("As As", "card As is given 2 times but the deck holds 1"),
        ("5c", None),
    ],
)
def test_remove_errors(cards: str, message: str | None) -> None:
    if message is None:
        with pytest.raises(DeckError, match="card 5c is not in the deck"):
            Deck.short().remove(cards)
    else:
        with pytest.raises(DeckError, match=message):
            Deck.standard().remove(cards)


def test_too_many_cards() -> None:
    with pytest.raises(DeckError, match="cannot draw 40 cards from a deck of 39"):
        Draw(Deck.standard().remove("AKQJ.T98.765.432"), 40)


def test_samples_are_valid_hands() -> None:
    rng = np.random.default_rng(5)
    hands = Draw(Deck.standard(), 13).sample(rng, 2000)
    assert hands.shape == (2000, 13)
    assert all(len(set(row)) == 13 for row in hands.tolist())
    several = Draw(Deck.standard(decks=6), 7).sample(rng, 1000)
    assert several.max() <= 51 and several.shape == (1000, 7)


def test_sampler_is_uniform_over_cards() -> None:
    # Every card of a 10-card deck should be drawn in 3/10 of 3-card hands.
    deck = Deck.of("As Ks Qs Js Ts 9s 8s 7s 6s 5s")
    hands = Draw(deck, 3).sample(np.random.default_rng(11), 200_000)
    freq = np.bincount(hands.ravel(), minlength=52)[deck.physical()] / 200_000
    # standard error sqrt(.3*.7/2e5) ~ 0.001; 5 sigma
    assert np.all(np.abs(freq - 0.3) < 0.005)


def test_sampler_pairs_are_uniform() -> None:
    # All C(5,2)=10 two-card hands from a 5-card deck equally likely.
    deck = Deck.of("As Ks Qs Js Ts")
    hands = np.sort(Draw(deck, 2).sample(np.random.default_rng(3), 100_000), axis=1)
    _, counts = np.unique(hands, axis=0, return_counts=True)
    assert len(counts) == 10
    assert np.all(np.abs(counts / 100_000 - 0.1) < 0.005)
