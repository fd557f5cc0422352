"""Range notation: combo counts, agreement with pokerkit's parser, weights, errors naming the token."""

from __future__ import annotations

import pytest

from cardlab.errors import RangeError
from cardlab.poker.ranges import (PREFLOP_ORDER, class_index, class_label, grid_position, parse_range,
                                  top_classes)


@pytest.mark.parametrize("text, count", [
    ("QQ+", 18), ("AKs", 4), ("AKo", 12), ("AK", 16), ("A5s-A2s", 16), ("KQo+", 12), ("T9s+", 4),
    ("22-55", 24), ("AhKh", 1), ("random", 1326), ("*", 1326), ("A2s+", 48), ("T9s-65s", 20),
    ("QQ+, AKs AKo", 34), ("22+", 78), ("K9o+", 48),
])
def test_combo_counts(text: str, count: int) -> None:
    assert parse_range(text).combo_count == count


@pytest.mark.parametrize("text", ["QQ+", "AKs", "AKo", "AK", "KQo+", "T9s+", "22-55", "AhKh", "A2s+",
                                  "T9s-65s", "K9o+", "JJ-88"])
def test_same_combos_as_pokerkit(text: str) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    theirs = {frozenset(f"{c.rank}{c.suit}" for c in hand) for hand in pokerkit.parse_range(text)}
    ours = {frozenset((label[:2], label[2:])) for label in parse_range(text).labels()}
    assert ours == theirs


def test_weights() -> None:
    r = parse_range("0.5(AKs, QQ) AKo:0.25 JJ")
    by = dict(zip(r.labels(), r.weights))
    assert by["AsKs"] == 0.5 and by["QsQh"] == 0.5 and by["AsKh"] == 0.25 and by["JsJh"] == 1
    assert r.weight_sum == pytest.approx(4 * .5 + 6 * .5 + 12 * .25 + 6)
    # a combo given twice keeps its last weight
    assert parse_range("AKs, AsKs:0.1").weight_sum == pytest.approx(3.1)


def test_card_removal_keeps_weights() -> None:
    r = parse_range("AA, KK:0.5").without({51, 47})  # As Ks
    assert r.combo_count == 6  # AA 3 left, KK 3 left
    assert r.weight_sum == pytest.approx(3 + 1.5)


def test_short_deck_drops_low_cards() -> None:
    assert parse_range("22+", lowest_rank=4).combo_count == 9 * 6
    with pytest.raises(RangeError, match="no hands in the short deck"):
        parse_range("22-55", lowest_rank=4)


@pytest.mark.parametrize("text, token", [("AKx", "AKx"), ("QQ+, AZs", "AZs"), ("AKs-QJo", "AKs-QJo"),
                                         ("AAs", "AAs"), ("0.5(AKs", "0.5(AKs"), ("AKs:x", "AKs:x"),
                                         ("top 150%", "top150%"), ("AsAs", "AsAs")])
def test_errors_name_the_token(text: str, token: str) -> None:
    with pytest.raises(RangeError, match=f"'{token}'".replace("(", r"\(").replace("+", r"\+")):
        parse_range(text)


def test_grid_round_trip() -> None:
    assert [class_label(class_index(label)) for label in PREFLOP_ORDER] == list(PREFLOP_ORDER)
    assert sorted(class_index(label) for label in PREFLOP_ORDER) == list(range(169))
    assert grid_position("72o") == (12, 7)


def test_top_percent() -> None:
    assert sum(parse_range(label).combo_count for label in PREFLOP_ORDER) == 1326
    assert parse_range("top 100%").combo_count == 1326
    r = parse_range("top 15%")
    assert 0.15 * 1326 <= r.combo_count < 0.15 * 1326 + 12
    assert top_classes(0.4) == ["AA"]
