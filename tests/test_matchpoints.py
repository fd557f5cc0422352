"""Matchpoints with ties, Neuberg, IMPs, cross-IMPs and Butler: seed examples and hand-worked
numbers, plus the vectorised kernel against a naive pairwise count on random boards."""

from __future__ import annotations

import numpy as np
import pytest

from cardlab.scoring.matchpoints import (
    Scale,
    board_matchpoints,
    butler_datums,
    cross_imps,
    imps,
    matchpoint_lines,
    percentages,
    round_to_ten,
    top,
)
from cardlab.errors import ScoringError


def test_seed_seven_results() -> None:
    # Issue 4 seed: 650, 300, 300, 300, 200, 200, -200 -> 6, 4, 4, 4, 1.5, 1.5, 0;
    # percentages 100, 66.67 (x3), 25, 25, 0.
    scores = [650, 300, 300, 300, 200, 200, -200]
    points = board_matchpoints(scores)
    assert points.tolist() == [6, 4, 4, 4, 1.5, 1.5, 0]
    assert percentages(points, top(7)).round(2).tolist() == [100, 66.67, 66.67, 66.67, 25, 25, 0]
    # EBU units double everything (top 12); percentages are the same.
    ebu = board_matchpoints(scores, "ebu")
    assert ebu.tolist() == [12, 8, 8, 8, 3, 3, 0]
    assert percentages(ebu, top(7, "ebu")).round(2).tolist() == [100, 66.67, 66.67, 66.67, 25, 25, 0]


def test_seed_ten_results() -> None:
    # 3rd to 8th tie, last two tie: 9, 8, 4.5 (x6), 0.5 (x2) -> 100%, 88.9%, 50%, 5.6%.
    # A 400 beats the two 100s (2) and ties 5 others (2.5) = 4.5.
    scores = [600, 500, 400, 400, 400, 400, 400, 400, 100, 100]
    points = board_matchpoints(scores)
    assert points.tolist() == [9, 8] + [4.5] * 6 + [0.5] * 2
    assert percentages(points, 9).round(1).tolist() == [100, 88.9] + [50.0] * 6 + [5.6] * 2


def test_seed_fourteen_results() -> None:
    # 13, 8.5 (x8), 4, 3, 1.5 (x2), 0: a 500 beats 5 and ties 7 -> 5 + 3.5 = 8.5.
    scores = [1000] + [500] * 8 + [300, 200, 100, 100, -50]
    assert board_matchpoints(scores).tolist() == [13] + [8.5] * 8 + [4, 3, 1.5, 1.5, 0]


def test_order_of_input_does_not_matter() -> None:
    scores = [200, -200, 650, 300, 200, 300, 300]
    assert board_matchpoints(scores).tolist() == [1.5, 0, 6, 4, 1.5, 4, 4]


def test_neuberg_by_hand() -> None:
    # Board 1 has 3 results, board 2 has 4, so N = 4.
    # EBU: -420 beats two -> M = 4 -> (4 + 1) * 4/3 - 1 = 5.667; -650: M = 2 -> 3 * 4/3 - 1 = 3;
    # -790: M = 0 -> 4/3 - 1 = 0.333 (the sample USEBIO file's board 5).
    boards = [1, 1, 1, 2, 2, 2, 2]
    scores = [-420, -650, -790, 10, 20, 30, 40]
    ebu = matchpoint_lines(boards, scores, scale="ebu")
    assert ebu.round(3).tolist() == [5.667, 3.0, 0.333, 0, 2, 4, 6]
    # ACBL: (M + 1/2) * N/n - 1/2: -420 M = 2 -> 2.5 * 4/3 - 0.5 = 2.833; exactly half of EBU.
    acbl = matchpoint_lines(boards, scores, scale=Scale.ACBL)
    assert acbl.round(3).tolist() == [2.833, 1.5, 0.167, 0, 1, 2, 3]
    # Factored to N = 5 (ACBL): 420, 400, 400 -> raw 2, 0.5, 0.5 ->
    # 2.5 * 5/3 - 0.5 = 3.667 and 1 * 5/3 - 0.5 = 1.167; they still share 3 x top/2 = 6 points.
    five = matchpoint_lines([1, 1, 1], [420, 400, 400], factor_to=5)
    assert five.round(3).tolist() == [3.667, 1.167, 1.167]
    assert five.sum() == pytest.approx(6.0)
    # A board played once gets 50% of the factored top: (0 + 1/2) * 5 - 1/2 = 2 = 4/2.
    assert matchpoint_lines([1], [100], factor_to=5).tolist() == [2.0]


def _naive(boards: list[int], scores: list[int], n_target: int) -> list[float]:
    """Straight pairwise count per line, then the EBU Neuberg formula; ACBL = half."""
    out = []
    for b, s in zip(boards, scores):
        others = [t for c, t in zip(boards, scores) if c == b]
        n = len(others)
        m = sum(2 if s > t else 1 if s == t else 0 for t in others) - 1  # minus itself
        out.append(((m + 1) * n_target / n - 1) / 2)
    return out


def test_kernel_against_naive_count() -> None:
    rng = np.random.default_rng(7)
    boards = rng.integers(1, 30, 600)
    scores = rng.integers(-8, 8, 600) * 10  # many ties
    n_target = int(np.bincount(boards).max())
    got = matchpoint_lines(boards, scores)
    assert np.allclose(got, _naive(boards.tolist(), scores.tolist(), n_target))
    # NS + EW = top on every line (EW = top - NS).
    assert np.all((n_target - 1 - got) >= -1e-12)


def test_huge_board_numbers_use_the_fallback_sort() -> None:
    boards = [2**40, 2**40, 1]
    scores = [-(2**30), 2**30, 0]
    assert matchpoint_lines(boards, scores).tolist() == [0.0, 1.0, 0.5]


def test_imp_table_every_boundary() -> None:
    # The standard 0-24 IMP scale: lower bound of each IMP count.
    bounds = [0, 20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900,
              1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000]
    for count, low in enumerate(bounds):
        assert imps([low])[0] == count
        assert imps([-low])[0] == -count
        if count:
            assert imps([low - 10])[0] == count - 1
    assert imps([7600]).tolist() == [24]


def test_cross_imps_by_hand() -> None:
    # 620 v 170: +450 = 10 IMPs; 620 v -100: +720 = 12 -> (10 + 12) / 2 = 11.
    # 170: -10 and +270 = +7 -> -1.5;  -100: -12 and -7 -> -9.5.
    assert cross_imps([1, 1, 1], [620, 170, -100]).tolist() == [11.0, -1.5, -9.5]
    # A board played once has nothing to compare: 0.
    assert cross_imps([1, 2, 2], [50, 100, 100]).tolist() == [0.0, 0.0, 0.0]


def test_butler_by_hand() -> None:
    # 620, 170, 140, -100: drop 620 and -100, mean (170 + 140) / 2 = 155 -> 160.
    datum = butler_datums([1, 1, 1, 1], [620, 170, 140, -100])
    assert datum.tolist() == [160] * 4
    assert imps(np.array([620, 170, 140, -100]) - datum).tolist() == [10, 0, -1, -6]
    # Two results: nothing to drop, plain mean (100 + 200) / 2 = 150.
    assert butler_datums([3, 3], [100, 200]).tolist() == [150, 150]
    assert round_to_ten([145, -145, 144.9]).tolist() == [150, -150, 140]


def test_errors() -> None:
    with pytest.raises(ScoringError, match="unknown matchpoint scale"):
        Scale.parse("wbf")
    with pytest.raises(ScoringError, match="down to"):
        matchpoint_lines([1, 1, 1], [1, 2, 3], factor_to=2)
    with pytest.raises(ScoringError, match="whole numbers"):
        board_matchpoints([1.5, 2])
    with pytest.raises(ScoringError, match="2 boards but 1 scores"):
        matchpoint_lines([1, 2], [3])
    with pytest.raises(ScoringError, match="top is 0"):
        percentages([0], 0)
