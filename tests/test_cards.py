"""Card notation: every accepted spelling, round trips, and errors that name the token."""

from __future__ import annotations

import pytest

from cardlab.cards import Card, Rank, Suit, format_cards, format_pbn_hand, parse_card_ids, parse_cards, parse_pbn_hand
from cardlab.errors import CardError


def test_card_ids_follow_the_seed_deck_order() -> None:
    # 2c 2d 2h 2s 3c ... As: rank * 4 + suit
    assert [str(Card(i)) for i in range(5)] == ["2c", "2d", "2h", "2s", "3c"]
    assert Card("As").id == 51 and Card("2c").id == 0
    assert Card("Td").rank is Rank.TEN and Card("Td").suit is Suit.DIAMONDS


@pytest.mark.parametrize("text", ["As Kd", "AsKd", "A♠ K♦", "as,kd", "AS KD", "A♤K♢"])
def test_spellings_of_the_same_cards(text: str) -> None:
    assert format_cards(parse_cards(text)) == "As Kd"


def test_ten_spellings() -> None:
    assert parse_card_ids("10s Ts 10♠") == [35, 35, 35]


def test_seed_hand_parses_in_order() -> None:
    assert format_cards(parse_cards("Js3h7d7cAd")) == "Js 3h 7d 7c Ad"


def test_repr_round_trips() -> None:
    card = Card("Qh")
    assert eval(repr(card)) == card


def test_every_card_round_trips() -> None:
    text = format_cards(range(52))
    assert parse_card_ids(text) == list(range(52))


def test_pbn_hand_round_trip_and_order() -> None:
    hand = parse_pbn_hand("AKQJ.T98.765.432")
    assert format_cards(hand[:4]) == "As Ks Qs Js"
    assert format_pbn_hand(hand) == "AKQJ.T98.765.432"
    assert format_pbn_hand(parse_pbn_hand("AK..QJT98765432.")) == "AK..QJT98765432."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AKQZ", "unknown symbol 'Z' in 'AKQZ'"),
        ("AsKx", "unknown symbol 'x' in 'AsKx'"),
        ("AsK", "cannot read a card at 'K'"),
        ("1s", "cannot read a card at '1s'"),
        ("AKQJ.T98.765", "four suits"),
        ("AKQJ.T98.765.43Z", "unknown rank 'Z'"),
        ("", "no cards"),
    ],
)
def test_errors_name_the_token(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message.replace(".", r"\.")):
        parse_cards(text)


def test_card_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Card("Zz")
