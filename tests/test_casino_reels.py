"""Reel machines (cardlab.casino.reels): exact counts against Python's own enumeration of every
spin, the simulation within its interval, the odds table `poker odds --reels` prints."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from cardlab.casino.reels import ReelCategory, reel_odds
from cardlab.dealing import Reels
from cardlab.engine import exact, simulate
from cardlab.errors import HandError
from cardlab.poker.evaluator import strengths
from cardlab.poker.odds import PokerCategory
from cardlab.poker.rules import SHORT_DECK, Category
from test_poker_odds import _within


def test_trade_stimulator_exact_and_simulated(reels_file) -> None:
    reels = Reels.read(reels_file)
    d = exact(reels, ReelCategory())
    assert d.total == 10**5
    # brute force, hand by hand with Python's own product
    import itertools
    hands = np.array(list(itertools.product(*reels.reels)), dtype=np.uint8)
    assert list(d.counts) == _brute_codes(hands)[: len(d.counts)]
    # What that enumeration of all 10^5 reel positions gives (no reel combination makes a flush):
    assert dict(zip(d.values, d.counts)) == {
        "high_card": 43338, "one_pair": 45630, "two_pair": 6450, "three_of_a_kind": 3830, "straight": 312,
        "flush": 0, "full_house": 330, "four_of_a_kind": 110, "straight_flush": 0, "royal_flush": 0}
    _within(d, simulate(reels, ReelCategory(), trials=400_000, seed=12))


def _brute_codes(hands: np.ndarray) -> list[int]:
    counts = Counter((strengths(hands) >> 20).tolist())
    return [counts.get(p, 0) for p in range(len(Category))]


def test_reels_with_repeats_list_five_of_a_kind() -> None:
    reels = Reels.parse("\n".join(["As Ks Qs"] * 5))
    d = exact(reels, ReelCategory())
    assert d.values[-1] == "five_of_a_kind"
    assert d.count("five_of_a_kind") == 3 and d.count("royal_flush") == 0
    assert d.count("flush") == 3**5 - 3 - 30 - 60  # all spades, less fives, fours and fulls
    _within(d, simulate(reels, ReelCategory(), trials=200_000, seed=5))


def test_too_large_reels_are_refused() -> None:
    from cardlab.errors import TooLargeError

    big = Reels.parse("\n".join([" ".join(f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs")] * 6))
    with pytest.raises(TooLargeError, match="--simulate"):
        exact(big, ReelCategory())


def test_simulation_is_calibrated() -> None:
    """Over many seeds the chi-square statistic averages its degrees of freedom: the
    fixed seeds above are not hand-picked survivors of a biased sampler."""
    reels = Reels.parse("2c 3d 4h 5s 6c 7d\n8h 9s Tc Jd Qh Ks\nAc 2d 3h 4s 5c 6d\n"
                        "7h 8s 9c Td Jh Qs\nKc Ad 2h 3s 4c 5d\n")
    d = exact(reels, ReelCategory())
    p = d.probabilities
    keep = p > 0
    stats = []
    for seed in range(30):
        sim = simulate(reels, ReelCategory(), trials=50_000, seed=seed)
        observed, expected = np.array(sim.counts)[keep], p[keep] * 50_000
        stats.append(float(((observed - expected) ** 2 / expected).sum()))
    df = int(keep.sum()) - 1
    assert abs(np.mean(stats) - df) < 3 * np.sqrt(2 * df / len(stats))


def test_reel_odds_is_what_the_command_prints(reels_file, run) -> None:
    import json

    odds = reel_odds(reels_file, trials=50_000, seed=3)
    assert odds.exact == exact(Reels.read(reels_file), ReelCategory()) and odds.simulated.total == 50_000
    assert odds.title == "poker hands, one card from each of 5 reels (trade_stimulator.reels)"
    status, out, _ = run("poker", "odds", "--reels", str(reels_file), "--simulate", "50000", "--seed", "3",
                         "--format", "json")
    assert status == 0 and json.loads(out) == odds.to_dict()
    assert reel_odds(Reels.read(reels_file), trials=50_000, seed=3, workers=2).simulated.counts == odds.simulated.counts
    with pytest.raises(HandError, match="card 2c on the reels is not in the short deck"):
        reel_odds(reels_file, SHORT_DECK)
    status, _, err = run("poker", "odds", "--reels", str(reels_file), "--cards", "7")
    assert status == 2 and "cannot be combined with --remove, --decks or --cards" in err


def test_poker_category_sends_a_reel_machine_to_its_own_feature(reels_file) -> None:
    with pytest.raises(HandError, match="a reel machine: cardlab.casino.reels.ReelCategory"):
        exact(Reels.read(reels_file), PokerCategory())
    with pytest.raises(HandError, match="ReelCategory counts a reel machine"):
        ReelCategory().values(None)


def test_category_odds_too_large_falls_back_to_the_simulation() -> None:
    from cardlab.errors import TooLargeError
    
    big = Reels.parse("\n".join([" ".join(f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs")] * 6))
    with pytest.raises(TooLargeError):
        reel_odds(big)
    odds = reel_odds(big, trials=10_000, seed=1)
    assert odds.exact is None and odds.simulated.total == 10_000 and "too large" in odds.note
    assert odds.to_dict()["total"] == 10_000 and odds.main is odds.simulated
