"""Reels files: parsing, errors with line numbers, round trip, sampling."""

from __future__ import annotations

import numpy as np
import pytest

from cardlab.errors import ReelsFileError
from cardlab.dealing import Reels


def test_read_fixture(reels_file) -> None:
    reels = Reels.read(reels_file)
    assert reels.k == 5 and reels.outcomes() == 10**5
    cards = [c for reel in reels.reels for c in reel]
    assert len(set(cards)) == 50 and not reels.can_repeat()


def test_round_trip(reels_file) -> None:
    reels = Reels.read(reels_file)
    assert Reels.parse(reels.format()) == reels
    assert eval(repr(reels)) == reels


@pytest.mark.parametrize("text, message", [
    ("As Ks\nQs Js\n\n# comment\nTs Xx 9s\n8s\n7s\n", "line 5: unknown card 'Xx' on reel 3"),
    ("As\nKs\nQs\n", "needs 5, 6 or 7 reels"),
    ("\n".join(["As"] * 8), "line 8: more than 7 reels"),
])
def test_bad_files(text: str, message: str) -> None:
    with pytest.raises(ReelsFileError, match=message):
        Reels.parse(text)


def test_error_names_the_file(tmp_path) -> None:
    path = tmp_path / "bad.reels"
    path.write_text("As Ks\nQs Js\nTs 9s\n8s 7s\n6s 1s\n")
    with pytest.raises(ReelsFileError, match=r"bad.reels: line 5: unknown card '1s'"):
        Reels.read(path)


def test_sample_takes_one_card_per_reel() -> None:
    reels = Reels.parse("As Ks\nQs Js\nTs 9s\n8s 7s\n6s 5s 4s\n")
    hands = reels.sample(np.random.default_rng(1), 10_000)
    assert hands.shape == (10_000, 5) and hands.dtype == np.uint8
    for j, reel in enumerate(reels.reels):
        assert set(hands[:, j].tolist()) == set(reel)
    assert reels.can_repeat() is False
    assert Reels.parse("As\nAs\nKs\nQs\nJs\n").can_repeat() is True
