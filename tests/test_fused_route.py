"""The stream a seeded simulation draws a Draw's hands from (csrc/draw_tally.c, cardlab.drawing)
against its oracle, a plain-Python copy written from the definition (tests/stream_reference.py):
the same hands, on the processor's route and the portable one; the engine's fused route (drawn,
valued and counted in C) and its generic route (the hands drawn, then the feature's encode) count
exactly the reference's hands for the same seed, on every built-in feature and deck covered, for
1, 2 and 3 workers; and the counts themselves against the exact distribution."""

from __future__ import annotations

from typing import Any, Hashable, Sequence

import numpy as np
import pytest

from cardlab import _core, engine
from cardlab.bridge.features import LongestSuit, Pattern, Points, SuitLengths
from cardlab.casino.reels import ReelCategory
from cardlab.dealing import Deck, Draw, Reels
from cardlab.drawing import draw_hands, hcp_weights, poker_counts, weight_tally
from cardlab.errors import CardlabError
from cardlab.poker.evaluator import tables
from cardlab.poker.odds import PokerCategory
from cardlab.poker.rules import SHORT_DECK
from stream_reference import reference_hands


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


FIVE_DECKS_OF_256 = Deck.standard(decks=5).remove("2c 2d 2h 2s")  # 256 cards

DRAWS = {  # id: (deck, k)
    "5 of 52": (Deck.standard(), 5),
    "6 of 52": (Deck.standard(), 6),
    "7 of 52": (Deck.standard(), 7),
    "5 of 36": (Deck.short(), 5),
    "6 of 36": (Deck.short(), 6),
    "7 of 36": (Deck.short(), 7),
    "5 of 2 decks": (Deck.standard(decks=2), 5),
    "7 of 6 decks": (Deck.standard(decks=6), 7),
    "5 of 256": (FIVE_DECKS_OF_256, 5),
    "7 of 40": (Deck.standard().remove("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s"), 7),
    "13 of 52": (Deck.standard(), 13),
    "13 of 39": (Deck.standard().remove("AKQJ.T98.765.432"), 13),
    "13 of 4 decks": (Deck.standard(decks=4), 13),
    "64 of 4056 (many groups)": (Deck.standard(decks=78), 64),
    "52 of 52 (every card)": (Deck.standard(), 52),
    "1 of 1": (Deck.of("As"), 1),
}


def reference_counts(draw: Draw, feature: Any, trials: int, seed: int, chunk: int) -> tuple[int, ...]:
    """The counts of the reference's hands, chunk by chunk as the engine seeds them."""
    root, _ = engine.resolve_seed(seed)
    n_values = len(feature.values(draw))
    counts = np.zeros(n_values, dtype=np.int64)
    for i, size in enumerate(engine.chunk_sizes(trials, chunk)):
        hands = reference_hands(draw, engine.chunk_seed(root, i), size)
        counts += np.bincount(feature.encode(draw, hands), minlength=n_values)[:n_values]
    return tuple(int(c) for c in counts)


@pytest.fixture(params=["native", "portable"])
def route(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The kernels' route: the processor's wider instructions (PDEP) where it has them, or the
    portable one (CARDLAB_PORTABLE, read at each call)."""
    if request.param == "portable":
        monkeypatch.setenv("CARDLAB_PORTABLE", "1")
    else:
        monkeypatch.delenv("CARDLAB_PORTABLE", raising=False)
    return str(request.param)


@pytest.mark.parametrize("name", list(DRAWS))
def test_the_kernel_draws_the_reference_hands(name: str, route: str) -> None:
    deck, k = DRAWS[name]
    draw = Draw(deck, k)
    for s in range(3):
        seed = np.random.SeedSequence(s)
        n = 300 if k > 13 else 1200 + s
        expected = reference_hands(draw, seed, n)
        assert np.array_equal(draw_hands(draw, seed, n), expected), (name, s)
        hands = np.empty((n, k), dtype=np.uint8)
        weight_tally(draw, hcp_weights(), 4 * 4 * k + 1, seed, n, hands=hands)
        assert np.array_equal(hands, expected), (name, s)


def test_a_hand_of_every_card_is_a_permutation_and_the_stream_moves_on() -> None:
    hands = draw_hands(Draw(Deck.standard(), 52), np.random.SeedSequence(4), 50)
    assert all(sorted(h) == list(range(52)) for h in hands.tolist())
    assert len({tuple(h) for h in hands.tolist()}) == 50
    other = draw_hands(Draw(Deck.standard(), 52), np.random.SeedSequence(5), 50)
    assert not np.array_equal(hands, other)


@pytest.mark.parametrize("decks, k", [(1, 5), (1, 6), (1, 7), (2, 5), (2, 7), (6, 7)])
def test_the_poker_kernel_counts_the_reference_hands(decks: int, k: int, route: str) -> None:
    # one deck: the counting loop that writes no hand; several: a hand holding a card twice spilled
    draw = Draw(Deck.standard(decks=decks), k)
    seed = np.random.SeedSequence(11)
    expected = reference_hands(draw, seed, 4000)
    codes = PokerCategory().encode(draw, expected)
    repeated = np.array([len(set(h)) < k for h in expected.tolist()])
    for hands in (None, np.empty((4000, k), dtype=np.uint8)):
        counts, spill = poker_counts(draw, tables(), seed, 4000, hands=hands)
        assert counts.tolist() == np.bincount(codes[~repeated], minlength=16).tolist()
        assert np.array_equal(spill, expected[repeated])
        assert (len(spill) > 0) == (decks > 1)
        if hands is not None:
            assert np.array_equal(hands, expected)


POKER = {
    "5 of 52": PokerCategory(), "6 of 52": PokerCategory(), "7 of 52": PokerCategory(),
    "5 of 36": PokerCategory(SHORT_DECK), "6 of 36": PokerCategory(SHORT_DECK),
    "7 of 36": PokerCategory(SHORT_DECK), "5 of 2 decks": PokerCategory(),
    "7 of 6 decks": PokerCategory(), "5 of 256": PokerCategory(), "7 of 40": PokerCategory(),
}
BRIDGE = {"hcp": Points(), "fractional points": Points("A=4.5,K=3,Q=2,J=1,T=0.5"), "pattern": Pattern(),
          "suit lengths": SuitLengths(), "longest suit": LongestSuit()}
CASES = [(d, "category", POKER[d]) for d in POKER] + [
    (d, name, feature) for d in ("13 of 52", "13 of 39", "13 of 4 decks", "5 of 52")
    for name, feature in BRIDGE.items()]


@pytest.mark.parametrize("draw_name, feature_name, feature", CASES, ids=[f"{d}: {f}" for d, f, _ in CASES])
def test_both_routes_count_the_reference_hands(draw_name: str, feature_name: str, feature: Any) -> None:
    deck, k = DRAWS[draw_name]
    draw = Draw(deck, k)
    assert engine.fused_task(draw, feature) is not None
    assert engine.fused_task(draw, Generic(feature)) is None
    expected = reference_counts(draw, feature, 6000, seed=21, chunk=2500)
    fused = engine.simulate(draw, feature, 6000, seed=21, chunk=2500)
    generic = engine.simulate(draw, Generic(feature), 6000, seed=21, chunk=2500)
    assert fused.counts == expected
    assert generic.counts == expected
    assert fused.total == 6000 and fused.values == generic.values


@pytest.mark.parametrize("feature", [PokerCategory(), Points(), Pattern()], ids=["poker", "hcp", "pattern"])
def test_the_same_counts_for_one_two_and_three_workers(feature: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "MIN_PARALLEL_SECONDS", 0.0)  # workers even for this short job
    started: list[int] = []
    real = engine.local_executor
    monkeypatch.setattr(engine, "local_executor", lambda n, **kw: started.append(n) or real(n, **kw))
    draw = Draw(Deck.standard(), 7 if isinstance(feature, PokerCategory) else 13)
    runs = [engine.simulate(draw, feature, 12_000, seed=5, chunk=1500, workers=w).counts for w in (1, 2, 3)]
    assert started == [2, 3]
    expected = reference_counts(draw, feature, 12_000, seed=5, chunk=1500)
    assert runs == [expected] * 3
    assert expected == engine.simulate(draw, Generic(feature), 12_000, seed=5, chunk=1500, workers=2).counts


STATISTICAL = [(Draw(Deck.standard(), 7), PokerCategory(), 200_000), (Draw(Deck.standard(), 5), PokerCategory(), 300_000),
               (Draw(Deck.short(), 5), PokerCategory(SHORT_DECK), 200_000), (Draw(Deck.standard(), 13), Points(), 100_000),
               (Draw(Deck.standard(), 13), Pattern(), 100_000)]


@pytest.mark.parametrize("draw, feature, trials", STATISTICAL,
                         ids=["7 of 52 categories", "5 of 52 categories", "short deck", "hcp", "pattern"])
def test_the_stream_agrees_with_the_exact_counts(draw: Draw, feature: Any, trials: int) -> None:
    # the independent route: every value's count within 4.5 standard deviations of the exact
    # probability (counted by rank classes or polynomials), and a chi-square over the values
    # expected at least 20 times below its 99.99% point
    exact = engine.exact(draw, feature)
    simulated = engine.simulate(draw, feature, trials, seed=8)
    chi2, cells = 0.0, 0
    for value, count in zip(exact.values, exact.counts):
        p = count / exact.total
        sd = (trials * p * (1 - p)) ** 0.5
        assert abs(simulated.count(value) - trials * p) <= 4.5 * sd + 1, value
        if trials * p >= 20:
            chi2 += (simulated.count(value) - trials * p) ** 2 / (trials * p)
            cells += 1
    assert simulated.total == trials
    assert chi2 < cells + 6 * (2 * cells) ** 0.5 + 10, (chi2, cells)  # far past 99.99% for these sizes


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
        _core.draw_poker(tables(), cards, 8, 10, seed, np.zeros(16, np.int64), bytearray(), bytearray())
    with pytest.raises(ValueError, match="bad arguments"):
        _core.draw_poker(tables(), bytes([52]) + cards[1:], 5, 10, seed, np.zeros(16, np.int64), bytearray(), bytearray())
    with pytest.raises(ValueError, match="negative weight"):
        _core.draw_weights(cards, 13, 10, seed, np.full(52, -1, np.int32), np.zeros(41, np.int64), bytearray())
    with pytest.raises(ValueError, match="past the tally"):
        _core.draw_weights(cards, 13, 10, seed, hcp_weights(), np.zeros(5, np.int64), bytearray())
    with pytest.raises(ValueError, match="bad arguments"):
        _core.draw_hands(cards, 65, 1, seed, bytearray(65))  # past 64 cards a hand
    with pytest.raises(ValueError, match="bad arguments"):
        _core.draw_hands(cards, 5, 10, seed, bytearray(49))  # a hand short
    with pytest.raises(ValueError, match="bad arguments"):
        _core.draw_hands(cards, 5, 2**62, seed, bytearray())  # n * k past any buffer


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
