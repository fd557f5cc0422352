"""The engine's fused route (cardlab.drawing, csrc/draw_tally.c) against its oracle, the generic
route (Draw.sample then the feature's encode): the same hands, hence the same counts, for the same
seed, on every built-in feature and deck it covers, for 1, 2 and 3 workers; and the counts
themselves against the exact distribution."""

from __future__ import annotations

from typing import Any, Hashable, Sequence

import numpy as np
import pytest

from cardlab import _core, engine
from cardlab.bridge.features import LongestSuit, Pattern, Points, SuitLengths
from cardlab.casino.reels import ReelCategory
from cardlab.dealing import Deck, Draw, Reels
from cardlab.drawing import hcp_weights, poker_counts, weight_tally
from cardlab.errors import CardlabError
from cardlab.poker.evaluator import tables
from cardlab.poker.odds import PokerCategory
from cardlab.poker.rules import SHORT_DECK


class Generic:
    """A built-in feature without its fused task: the engine takes the generic route for it."""

    def __init__(self, feature: Any) -> None:
        self.feature = feature
        self.name = feature.name
        self.axes = feature.axes

    def values(self, dealing: Any) -> Sequence[Hashable]:
        return self.feature.values(dealing)  # type: ignore[no-any-return]

    def exact_counts(self, dealing: Any) -> Sequence[int]:
        return self.feature.exact_counts(dealing)  # type: ignore[no-any-return]

    def encode(self, dealing: Any, hands: np.ndarray) -> np.ndarray:
        return self.feature.encode(dealing, hands)  # type: ignore[no-any-return]


FIVE_DECKS_OF_256 = Deck.standard(decks=5).remove("2c 2d 2h 2s")  # 256 cards: numpy takes bytes as they are

DRAWS = {  # id: (deck, k, which of Draw.sample's ways)
    "5 of 52": (Deck.standard(), 5),
    "6 of 52": (Deck.standard(), 6),
    "7 of 52": (Deck.standard(), 7),
    "5 of 36": (Deck.short(), 5),
    "6 of 36": (Deck.short(), 6),
    "7 of 36 (shuffled)": (Deck.short(), 7),
    "5 of 2 decks": (Deck.standard(decks=2), 5),
    "7 of 6 decks (16-bit)": (Deck.standard(decks=6), 7),
    "5 of 256": (FIVE_DECKS_OF_256, 5),
    "7 of 40 (shuffled)": (Deck.standard().remove("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s"), 7),
    "13 of 52 (shuffled)": (Deck.standard(), 13),
    "13 of 39 (shuffled)": (Deck.standard().remove("AKQJ.T98.765.432"), 13),
    "13 of 4 decks": (Deck.standard(decks=4), 13),
    "1 of 1": (Deck.of("As"), 1),
}


@pytest.mark.parametrize("name", list(DRAWS))
def test_the_kernel_draws_the_hands_draw_sample_draws(name: str) -> None:
    deck, k = DRAWS[name]
    draw = Draw(deck, k)
    for s in range(4):
        seed = np.random.SeedSequence(s)
        n = 1500 + s
        hands = np.empty((n, k), dtype=np.uint8)
        weight_tally(draw, hcp_weights(), 4 * 4 * k + 1, seed, n, hands=hands)
        expected = draw.sample(np.random.default_rng(seed), n)
        assert np.array_equal(hands, expected), (name, s)


@pytest.mark.parametrize("decks, k", [(1, 5), (1, 7), (2, 7)])
def test_the_poker_kernel_draws_the_same_hands_and_counts_what_the_evaluator_says(decks: int, k: int) -> None:
    # one deck: the by-card table and the bit test for a repeated place; two: positions and spills
    draw = Draw(Deck.standard(decks=decks), k)
    seed = np.random.SeedSequence(11)
    hands = np.empty((4000, k), dtype=np.uint8)
    counts, spill = poker_counts(draw, tables(), seed, 4000, hands=hands)
    assert np.array_equal(hands, draw.sample(np.random.default_rng(seed), 4000))
    codes = PokerCategory().encode(draw, hands)
    repeated = np.array([len(set(h)) < k for h in hands.tolist()])
    assert len(spill) == repeated.sum() and (repeated.sum() > 0) == (decks > 1)
    assert counts.tolist() == np.bincount(codes[~repeated], minlength=16).tolist()


POKER = {
    "5 of 52": PokerCategory(), "6 of 52": PokerCategory(), "7 of 52": PokerCategory(),
    "5 of 36": PokerCategory(SHORT_DECK), "6 of 36": PokerCategory(SHORT_DECK),
    "7 of 36 (shuffled)": PokerCategory(SHORT_DECK), "5 of 2 decks": PokerCategory(),
    "7 of 6 decks (16-bit)": PokerCategory(), "5 of 256": PokerCategory(), "7 of 40 (shuffled)": PokerCategory(),
}
BRIDGE = {"hcp": Points(), "fractional points": Points("A=4.5,K=3,Q=2,J=1,T=0.5"), "pattern": Pattern(),
          "suit lengths": SuitLengths(), "longest suit": LongestSuit()}
CASES = [(d, "category", POKER[d]) for d in POKER] + [
    (d, name, feature) for d in ("13 of 52 (shuffled)", "13 of 39 (shuffled)", "13 of 4 decks", "5 of 52")
    for name, feature in BRIDGE.items()]


@pytest.mark.parametrize("draw_name, feature_name, feature", CASES, ids=[f"{d}: {f}" for d, f, _ in CASES])
def test_fused_counts_are_the_generic_routes(draw_name: str, feature_name: str, feature: Any) -> None:
    deck, k = DRAWS[draw_name]
    draw = Draw(deck, k)
    assert engine.fused_task(draw, feature) is not None
    assert engine.fused_task(draw, Generic(feature)) is None
    fused = engine.simulate(draw, feature, 12_000, seed=21, chunk=5000)
    generic = engine.simulate(draw, Generic(feature), 12_000, seed=21, chunk=5000)
    assert fused.counts == generic.counts
    assert fused.total == 12_000 and fused.values == generic.values


@pytest.mark.parametrize("feature", [PokerCategory(), Points(), Pattern()], ids=["poker", "hcp", "pattern"])
def test_the_same_counts_for_one_two_and_three_workers(feature: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "MIN_PARALLEL_SECONDS", 0.0)  # workers even for this short job
    started: list[int] = []
    real = engine.local_executor
    monkeypatch.setattr(engine, "local_executor", lambda n, **kw: started.append(n) or real(n, **kw))
    draw = Draw(Deck.standard(), 7 if isinstance(feature, PokerCategory) else 13)
    runs = [engine.simulate(draw, feature, 40_000, seed=5, chunk=6000, workers=w).counts for w in (1, 2, 3)]
    assert runs[0] == runs[1] == runs[2]
    assert started == [2, 3]
    assert runs[0] == engine.simulate(draw, Generic(feature), 40_000, seed=5, chunk=6000).counts


def test_fused_categories_agree_with_the_exact_counts() -> None:
    # the independent route: every category of 200,000 seven-card hands within 4.5 standard
    # deviations of the exact probability (133,784,560 hands counted by rank classes)
    draw = Draw(Deck.standard(), 7)
    exact = engine.exact(draw, PokerCategory())
    simulated = engine.simulate(draw, PokerCategory(), 200_000, seed=8)
    for value, count in zip(exact.values, exact.counts):
        p = count / exact.total
        sd = (200_000 * p * (1 - p)) ** 0.5
        assert abs(simulated.count(value) - 200_000 * p) <= 4.5 * sd + 1, value
    assert simulated.total == 200_000


def test_features_and_dealings_without_a_kernel_take_the_generic_route() -> None:
    reels = Reels.parse("As Ks\nQs Js\nTs 9s\n8s 7s\n6s 5s")
    assert engine.fused_task(reels, PokerCategory()) is None
    assert engine.fused_task(Draw(Deck.standard(), 5), PokerCategory(SHORT_DECK)) is None  # 2c..5s outside its deck
    assert engine.fused_task(Draw(Deck.standard(decks=80), 5), PokerCategory()) is None  # past 4,096 cards
    assert engine.fused_task(Draw(Deck.standard(), 13), Points("A=1000000")) is None  # totals past the tally
    assert engine.fused_task(Draw(Deck.standard(), 40), Pattern()) is None  # a key table of 41^4
    spins = engine.simulate(reels, ReelCategory(), 500, seed=1)
    assert spins.total == 500


def test_bad_kernel_arguments_are_refused() -> None:
    draw = Draw(Deck.standard(), 5)
    with pytest.raises(CardlabError, match="hands must be a contiguous"):
        poker_counts(draw, tables(), np.random.SeedSequence(1), 10, hands=np.empty((10, 4), dtype=np.uint8))
    cards = bytes(range(52))
    seed = bytes(32)
    with pytest.raises(ValueError, match="bad arguments"):
        _core.draw_poker(tables(), cards, 8, False, 10, seed, np.zeros(16, np.int64), bytearray(), bytearray())
    with pytest.raises(ValueError, match="bad arguments"):
        _core.draw_poker(tables(), bytes([52]) + cards[1:], 5, False, 10, seed, np.zeros(16, np.int64), bytearray(), bytearray())
    with pytest.raises(ValueError, match="negative weight"):
        _core.draw_weights(cards, 13, True, 10, seed, np.full(52, -1, np.int32), np.zeros(41, np.int64), bytearray())
    with pytest.raises(ValueError, match="past the tally"):
        _core.draw_weights(cards, 13, True, 10, seed, hcp_weights(), np.zeros(5, np.int64), bytearray())


def test_a_subclass_with_its_own_encode_takes_the_generic_route() -> None:
    class Doubled(Points):
        def encode(self, draw: Draw, hands: np.ndarray) -> np.ndarray:
            return np.minimum(2 * super().encode(draw, hands), len(self.values(draw)) - 1)

    draw = Draw(Deck.standard(), 13)
    assert engine.fused_task(draw, Doubled()) is None
    doubled = engine.simulate(draw, Doubled(), 3000, seed=2)
    assert doubled.counts != engine.simulate(draw, Points(), 3000, seed=2).counts
    assert doubled.counts == engine.simulate(draw, Generic(Doubled()), 3000, seed=2).counts


@pytest.mark.parametrize("threshold, pooled", [(1000.0, False), (1e-9, True)],
                         ids=["a short job runs on one worker", "a longer one on two"])
def test_workers_start_only_for_a_job_worth_them(monkeypatch: pytest.MonkeyPatch, threshold: float,
                                                  pooled: bool) -> None:
    started: list[int] = []
    real = engine.local_executor
    monkeypatch.setattr(engine, "MIN_PARALLEL_SECONDS", threshold)
    monkeypatch.setattr(engine, "local_executor", lambda n, **kw: started.append(n) or real(n, **kw))
    draw = Draw(Deck.standard(), 5)
    run = engine.simulate(draw, PokerCategory(), 30_000, seed=9, chunk=5000, workers=2)
    assert started == ([2] if pooled else [])
    assert run.counts == engine.simulate(draw, Generic(PokerCategory()), 30_000, seed=9, chunk=5000).counts
