"""Comparing hands in words: winners, ties, deciding cards, best five."""

from __future__ import annotations

import pytest

from cardlab.cards import format_cards
from cardlab.errors import HandError
from cardlab.poker.comparison import compare, hand_value
from cardlab.poker.rules import SHORT_DECK, Category


def test_kicker_decides() -> None:
    c = compare(["Ah Ad 8c 8s Kd", "As Ac 8h 8d Qc"])
    assert c.winners == (0,) and not c.tie
    assert "kicker decides, king against queen" in c.reason


def test_category_decides() -> None:
    c = compare(["Ah Kh Qh Jh Th", "9s 9d 9h 9c 2d", "2c 3d 4h 5s Ac"])
    assert c.winners == (0,)
    assert c.reason == "hand 1 wins: royal flush beats four nines, two kicker"


def test_wheel_loses_to_six_high() -> None:
    c = compare(["Ah 2d 3c 4s 5d", "2h 3d 4c 5s 6d"])
    assert c.winners == (1,)
    assert "top card decides, six against five" in c.reason


def test_tie_and_split() -> None:
    assert compare(["Ah 3c 3d 7s 9d", "Ad 3h 3s 7c 9h"]).reason.startswith("tie: all hands are one pair")
    c = compare(["Ah 3c 3d 7s 9d", "Ad 3h 3s 7c 9h", "Kd Kh 2c 4d 6s"])
    assert c.winners == (2,)
    c = compare(["As Ks Qd Jd Td 2c 3c", "Ah Kc Qc Jh Th 4d 2s", "2h 2d 7c 8c 9c Jc 4h"])
    assert c.tie and c.winners == (0, 1) and c.reason.startswith("hand 1 and hand 2 tie and win")


def test_best_five_of_seven() -> None:
    v = hand_value("As 5s 6s Ts Jd 3s 3c")
    assert v.category == Category.FLUSH
    assert format_cards(v.best) == "As Ts 6s 5s 3s"
    assert v.describe() == "flush, A-T-6-5-3"


def test_short_deck() -> None:
    assert hand_value("As 6d 7c 8h 9s", SHORT_DECK).describe() == "straight, nine high"
    with pytest.raises(HandError, match="card 5d is not in the short deck"):
        hand_value("As 5d 7c 8h 9s", SHORT_DECK)


def test_errors() -> None:
    with pytest.raises(HandError, match="at least two hands"):
        compare(["As Ks Qs Js Ts"])
    with pytest.raises(HandError, match="given twice"):
        compare(["As Ks Qs Js As", "2c 3c 4c 5c 7d"])
    assert hand_value("As As As As As", repeats=True).describe() == "five aces"


def test_hand_value_repr_is_short_and_pasteable() -> None:
    from cardlab.poker import SHORT_DECK, STANDARD  # noqa: F401  (names the repr uses)

    for value in (hand_value("As Ks Qs Js Ts"), hand_value("Ah 6d 7c 8h 9s Ts", SHORT_DECK),
                  hand_value("As As Ks Qs Js", repeats=True)):
        text = repr(value)
        assert len(text) < 60 and "Rules" not in text and "order" not in text
        assert eval(text) == value
    assert repr(hand_value("As Ks Qs Js Ts")) == "hand_value('As Ks Qs Js Ts')"
    assert repr(SHORT_DECK) == "SHORT_DECK"


def test_comparison_result_formats() -> None:
    import csv
    import io

    result = compare(["Ah Ad 8c 8s Kd", "As Ac 8h 8d Qc", "2c 3d 4h 5s 7c"])
    data = result.to_dict()
    assert data["winners"] == [1] and data["tie"] is False and data["reason"] == result.reason
    assert [h["winner"] for h in data["hands"]] == [True, False, False]
    assert data["hands"][2] == {"number": 3, "winner": False, "hand": "2c 3d 4h 5s 7c",
                                "best": "7c 5s 4h 3d 2c", "category": "high_card",
                                "strength": hand_value("2c 3d 4h 5s 7c").strength,
                                "description": "high card, 7-5-4-3-2"}
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert [r["hand"] for r in rows] == ["Ah Ad 8c 8s Kd", "As Ac 8h 8d Qc", "2c 3d 4h 5s 7c"]
    assert rows[0]["winner"] == "True" and rows[1]["strength"] == str(result.hands[1].strength)
    assert result.to_pandas()["category"].tolist() == ["two_pair", "two_pair", "high_card"]
    lines = result.table().splitlines()
    assert lines[0].startswith("* hand 1: Ah Ad 8c 8s Kd") and lines[-1] == result.reason
    assert repr(result) == "compare(['Ah Ad 8c 8s Kd', 'As Ac 8h 8d Qc', '2c 3d 4h 5s 7c'])"
    assert "★" in result._repr_html_() and "kicker decides" in result._repr_html_()
    tie = compare(["As Ks Qd Jd Td 2c 3c", "Ah Kc Qc Jh Th 4d 2s"])
    assert tie.to_dict()["winners"] == [1, 2] and tie.to_dict()["tie"] is True


def test_rules_check_cards() -> None:
    from cardlab.poker.rules import STANDARD

    STANDARD.check_cards(range(52))
    SHORT_DECK.check_cards(range(16, 52))
    with pytest.raises(HandError, match="^card 5s is not in the short deck$"):
        SHORT_DECK.check_cards([51, 15, 14])  # the first card outside is named
    import numpy as np

    with pytest.raises(HandError, match="card 2c on the reels is not in the short deck"):
        SHORT_DECK.check_cards(np.array([[20, 0], [1, 2]]), where="on the reels")
