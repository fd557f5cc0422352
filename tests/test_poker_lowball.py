"""Ace-to-five low (razz) category tables: the published 7-card frequencies (each of the nine
rows), closed forms for 5 cards, a plain-loop low evaluator written here against the vectorised
one, and the CLI."""

from __future__ import annotations

import json
import random
from math import comb

import numpy as np
import pytest

from cardlab.cli.main import main
from cardlab.poker.lowball import LOW_CATEGORIES, low_categories, razz_odds


def test_published_seven_card_low_frequencies() -> None:
    # Wikipedia, "Poker probability", section "Frequency of 7-card lowball poker hands" (ace-to-five,
    # exact frequencies): 5-high 781,824; 6-high 3,151,360; 7-high 7,426,560; 8-high 13,171,200;
    # 9-high 19,174,400; 10-high 23,675,904; jack-high 24,837,120; queen-high 21,457,920;
    # king-high 13,939,200; total 127,615,488 of 133,784,560.
    t = razz_odds(7).exact
    published = {"5_high": 781824, "6_high": 3151360, "7_high": 7426560, "8_high": 13171200,
                 "9_high": 19174400, "10_high": 23675904, "jack_high": 24837120, "queen_high": 21457920,
                 "king_high": 13939200}
    for name, count in published.items():
        assert t.count(name) == count, name
    assert sum(published.values()) == 127615488
    assert t.total == comb(52, 7) and t.count("paired") == comb(52, 7) - 127615488


def test_five_card_closed_forms() -> None:
    t = razz_odds(5).exact
    # x-high: the top card x and four lower different ranks (ace low), any suits
    for top, name in enumerate(("5_high", "6_high", "7_high", "8_high", "9_high", "10_high", "jack_high",
                                "queen_high", "king_high"), start=4):
        assert t.count(name) == comb(top, 4) * 4 ** 5
    assert t.count("paired") == comb(52, 5) - comb(13, 5) * 4 ** 5


def plain_low(cards: list[int]) -> str:
    ranks = sorted({(c // 4 + 1) % 13 for c in cards})  # ace 0, two 1, .. king 12
    if len(ranks) < 5:
        return "paired"
    top = ranks[4]  # the fifth lowest different rank
    return ["5_high", "6_high", "7_high", "8_high", "9_high", "10_high", "jack_high", "queen_high",
            "king_high"][top - 4]


def test_vectorised_low_against_plain_loop() -> None:
    rng = random.Random(7)
    hands = [rng.sample(range(52), rng.choice((5, 6, 7))) for _ in range(5000)]
    counts = np.zeros((len(hands), 13), dtype=np.int64)
    for i, h in enumerate(hands):
        for c in h:
            counts[i, c // 4] += 1
    got = [LOW_CATEGORIES[i] for i in low_categories(counts)]
    assert got == [plain_low(h) for h in hands]


def test_cli_razz_odds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["poker", "odds", "--game", "razz", "--cards", "7", "--format", "json"]) == 0
    rows = {r["category"]: r["count"] for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows["5_high"] == 781824 and rows["king_high"] == 13939200
    # cards removed (issue 38): the 7-card hands of the 51 cards left, C(51, 7) in all
    assert main(["poker", "odds", "--game", "razz", "--remove", "As", "--format", "json"]) == 0
    assert sum(r["count"] for r in json.loads(capsys.readouterr().out)["rows"]) == 115_775_100
