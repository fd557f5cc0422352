"""The faster poker kernels of issue 27 against oracles written here in plain Python.

* The seed job's card-by-card draw (csrc/poker_sim.c): one generator word per hand (the batched
  bounded draw), each card the pick-th one left in the deck's hand word. The oracle is
  xoshiro256**, the batched draw and the selection in Python integers, the hands valued by the
  compiled evaluator; the counts must be equal, on the processor's own instructions and on the
  portable path (CARDLAB_PORTABLE=1).
* The draw by number: the table of every hand's category equals the evaluator over
  itertools.combinations, its counts are the published 5-card ones, and the draws are the
  batched draw of three hand numbers per generator word (two for a table past 2,642,245 hands)
  as the oracle makes them.
"""

from __future__ import annotations

from itertools import chain, combinations
from math import comb

import numpy as np
import pytest

from cardlab import engine
from cardlab._native import core as _core
from cardlab.dealing import Deck, Draw
from cardlab.poker.evaluator import strengths, tables
from cardlab.poker.kernel import CATEGORY_SHIFT
from cardlab.poker.odds import hand_categories, simulate_categories
from cardlab.poker.rules import SHORT_DECK, STANDARD

M64 = (1 << 64) - 1


class Xoshiro:
    """xoshiro256** as csrc/rng.h runs it, from the kernel's 32-byte state."""

    def __init__(self, state: bytes) -> None:
        self.s = [int(w) for w in np.frombuffer(state, dtype=np.uint64)]
        self.word, self.halves = 0, 0

    def next(self) -> int:
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64  # noqa: E731
        result = rotl((s[1] * 5) & M64, 7) * 9 & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def batch(self, bounds: list[int]) -> list[int]:
        product = 1
        for b in bounds:
            product *= b
        threshold = ((1 << 64) - product) % product
        while True:
            low, out = self.next(), []
            for b in bounds:
                m = low * b
                out.append(m >> 64)
                low = m & M64
            if low >= threshold:
                return out

    def below_half(self, n: int) -> int:
        while True:
            if not self.halves:
                self.word, self.halves = self.next(), 2
            m = (self.word & 0xFFFFFFFF) * n
            self.word >>= 32
            self.halves -= 1
            if (m & 0xFFFFFFFF) >= ((1 << 32) - n) % n:
                return m >> 32


def oracle_hands(cards: list[int], k: int, n: int, state: bytes) -> np.ndarray:
    """The hands the card-by-card kernel deals: each card the pick-th still in the deck, in the
    order of the hand word's bits (16 * suit + rank)."""
    rng = Xoshiro(state)
    order = sorted(cards, key=lambda c: 16 * (c % 4) + c // 4)
    hands = np.empty((n, k), dtype=np.uint8)
    for i in range(n):
        left = list(order)
        picks = rng.batch([len(cards) - j for j in range(k)])
        hands[i] = [left.pop(p) for p in picks]
    return hands


def kernel_counts(cards: list[int], k: int, n: int, state: bytes) -> list[int]:
    counts = np.zeros(16, dtype=np.int64)
    assert _core.poker_simulate(tables(), bytes(cards), k, n, state, counts, np.empty(0, np.uint8)) == 0
    return [int(counts[int(c)]) for c in STANDARD.order]


@pytest.mark.parametrize("portable", ["", "1"])
@pytest.mark.parametrize("k, removed", [(5, ""), (7, ""), (6, "As Kd 7c 2h")])
def test_card_by_card_draws_are_the_oracles(monkeypatch, portable: str, k: int, removed: str) -> None:
    monkeypatch.setenv("CARDLAB_PORTABLE", portable)
    deck = Deck.standard().remove(removed) if removed else Deck.standard()
    cards = [int(c) for c in deck.physical()]
    state = engine.kernel_state(np.random.SeedSequence(27 + k))
    n = 3000
    hands = oracle_hands(cards, k, n, state)
    assert all(len(set(h)) == k for h in hands.tolist())
    expected = np.bincount(strengths(hands) >> CATEGORY_SHIFT, minlength=len(STANDARD.order)).tolist()
    assert kernel_counts(cards, k, n, state) == expected
    # a card-by-card run is the same whichever path the processor takes
    monkeypatch.setenv("CARDLAB_PORTABLE", "1" if not portable else "")
    assert kernel_counts(cards, k, n, state) == expected


def test_category_table_is_the_evaluator_over_every_subset() -> None:
    cards = [int(c) for c in Deck.short().physical()]
    table = hand_categories(SHORT_DECK, bytes(cards), 5)
    hands = np.array(list(combinations(cards, 5)), dtype=np.uint8)
    assert len(table) == comb(36, 5) == len(hands)
    assert np.array_equal(table, strengths(hands, SHORT_DECK) >> CATEGORY_SHIFT)
    full = hand_categories(STANDARD, bytes(range(52)), 5)
    # the published five-card counts, high card to royal flush
    assert np.bincount(full).tolist() == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]


def oracle_by_number(table: np.ndarray, n: int, state: bytes) -> list[int]:
    """Counts of n hands drawn by number: three numbers per generator word while the cube of the
    table's size is below 2^64, else two; the last word's unused numbers are dropped."""
    rng = Xoshiro(state)
    batch = 3 if len(table) ** 3 < 1 << 64 else 2
    picks: list[int] = []
    while len(picks) < n:
        picks += rng.batch([len(table)] * batch)
    return np.bincount([int(table[p]) for p in picks[:n]], minlength=16).tolist()


@pytest.mark.parametrize("n", [20_003, 20_001, 1, 0])
def test_draws_by_number_are_the_oracles(n: int) -> None:
    table = hand_categories(STANDARD, bytes(range(52)), 5)
    state = engine.kernel_state(np.random.SeedSequence(5))
    counts = np.zeros(16, dtype=np.int64)
    _core.poker_simulate_table(table, n, state, counts)
    assert counts.tolist() == oracle_by_number(table, n, state)
    with pytest.raises(ValueError):
        _core.poker_simulate_table(np.full(10, 200, dtype=np.uint8), 100, state, counts)


def test_draws_by_number_from_a_bigger_table_are_two_to_a_word() -> None:
    size = 2_642_246  # the least size whose cube passes 2^64
    assert size ** 3 >= 1 << 64 > (size - 1) ** 3
    table = (np.arange(size) % 11).astype(np.uint8)
    state = engine.kernel_state(np.random.SeedSequence(6))
    for n in (2001, 2000):
        counts = np.zeros(16, dtype=np.int64)
        _core.poker_simulate_table(table, n, state, counts)
        assert counts.tolist() == oracle_by_number(table, n, state)


def test_the_simulation_draws_by_number_when_the_hand_space_is_small(monkeypatch) -> None:
    import cardlab.poker.odds as odds

    calls = []
    real = _core.poker_simulate_table
    monkeypatch.setattr(odds._core, "poker_simulate_table", lambda *a: calls.append(a[1]) or real(*a), raising=False)
    five = simulate_categories(Draw(Deck.standard(), 5), trials=700_000, seed=3, chunk=100_000)
    assert sum(calls) == 700_000 and five.total == 700_000
    calls.clear()
    simulate_categories(Draw(Deck.standard(), 5), trials=600_000, seed=3)  # 2,598,960 > 4 x 600,000
    simulate_categories(Draw(Deck.standard(), 7), trials=100_000, seed=3)
    simulate_categories(Draw(Deck.standard(decks=2), 5), trials=100_000, seed=3)  # cards repeat
    assert calls == []


# --- the evaluator: the processor's own instructions and the portable path, threads, out= ------

def _both_paths(monkeypatch, fn):
    monkeypatch.setenv("CARDLAB_PORTABLE", "1")
    portable = fn()
    monkeypatch.setenv("CARDLAB_PORTABLE", "")
    return portable, fn()


def test_evaluator_paths_agree_on_every_five_card_hand(monkeypatch) -> None:
    from cardlab.poker.evaluator import evaluate

    hands = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.uint8,
                        count=5 * comb(52, 5)).reshape(-1, 5)
    (cats_p, plain), (cats_n, native) = _both_paths(monkeypatch, lambda: evaluate(hands))
    assert np.array_equal(plain, native) and np.array_equal(cats_p, cats_n)
    assert np.bincount(plain >> CATEGORY_SHIFT).tolist() == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744,
                                                             624, 36, 4]


@pytest.mark.parametrize("k", [5, 6, 7])
def test_evaluator_paths_agree_with_the_numpy_oracle(monkeypatch, k: int) -> None:
    import numpy_evaluator

    rng = np.random.default_rng(270 + k)
    hands = Draw(Deck.standard(), k).sample(rng, 300_000)
    repeated = rng.integers(0, 52, size=(20_000, k)).astype(np.uint8)  # many hold a card twice
    for batch in (hands, repeated):
        plain, native = _both_paths(monkeypatch, lambda: strengths(batch))
        assert np.array_equal(plain, native)
        assert np.array_equal(native, numpy_evaluator.strengths(batch))
    bad = hands[:1000].copy()
    bad[500, 3] = 60
    for portable in ("1", ""):
        monkeypatch.setenv("CARDLAB_PORTABLE", portable)
        with pytest.raises(Exception, match="0..51"):
            strengths(bad)


def test_evaluator_threads_and_out_buffer_give_the_same_strengths() -> None:
    from cardlab.errors import HandError

    hands = Draw(Deck.standard(), 7).sample(np.random.default_rng(3), 400_001)
    one = strengths(hands)
    for workers in (2, 3):
        assert np.array_equal(strengths(hands, workers=workers), one)
        buffer = np.zeros(len(hands), dtype=np.uint32)
        assert strengths(hands, workers=workers, out=buffer) is buffer
        assert np.array_equal(buffer, one)
    for wrong in (np.zeros(len(hands), dtype=np.int64), np.zeros(5, dtype=np.uint32),
                  np.zeros(2 * len(hands), dtype=np.uint32)[::2], [0] * len(hands)):
        with pytest.raises(HandError, match="out must be"):
            strengths(hands, out=wrong)  # type: ignore[arg-type]


@pytest.mark.parametrize("portable", ["", "1"])
def test_threads_sharing_a_cursor_value_every_row_once(monkeypatch, portable: str) -> None:
    """The kernel's work queue: three threads take blocks from one cursor (the wrapper caps
    workers at the cores, so the kernel is called here directly); every row is valued once, as
    one call values it, with the rows that hold a card twice counted and a bad card reported."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("CARDLAB_PORTABLE", portable)
    rng = np.random.default_rng(2727)
    hands = np.concatenate([Draw(Deck.standard(), 7).sample(rng, 100_003),
                            rng.integers(0, 52, size=(3_001, 7)).astype(np.uint8)])
    hands = np.ascontiguousarray(rng.permutation(hands))
    n = len(hands)
    want, want_cats = np.zeros(n, np.uint32), np.zeros(n, np.uint8)
    twice = _core.poker_evaluate(tables(), hands, 7, want, want_cats, True)
    assert twice > 0
    for block in (1, 4093, n, 10 * n):
        cursor = np.zeros(1, dtype=np.int64)
        got, got_cats = np.zeros(n, np.uint32), np.zeros(n, np.uint8)
        with ThreadPoolExecutor(3) as pool:
            parts = list(pool.map(lambda _: _core.poker_evaluate(tables(), hands, 7, got, got_cats, True, cursor,
                                                                 block), range(3)))
        assert sum(parts) == twice and min(parts) >= 0
        assert np.array_equal(got, want) and np.array_equal(got_cats, want_cats)
        assert cursor[0] >= n
    bad = hands.copy()
    bad[n // 2, 3] = 60
    cursor = np.zeros(1, dtype=np.int64)
    with ThreadPoolExecutor(3) as pool:
        parts = list(pool.map(lambda _: _core.poker_evaluate(tables(), bad, 7, got, None, True, cursor, 4096),
                              range(3)))
    assert min(parts) == -1
    for wrong_cursor, block in ((np.zeros(2, np.int64), 10), (np.zeros(1, np.int64), 0), (np.zeros(1, np.int32), 5)):
        with pytest.raises(ValueError):
            _core.poker_evaluate(tables(), hands, 7, got, None, True, wrong_cursor, block)
    late = np.full(1, n + 1, dtype=np.int64)  # a cursor past the end, or before the start: nothing is read
    early = np.full(1, -5, dtype=np.int64)
    for cursor in (late, early):
        assert _core.poker_evaluate(tables(), hands, 7, got, None, True, cursor, 10) == 0


def test_evaluate_on_threads_gives_the_categories_of_one() -> None:
    from cardlab.poker.evaluator import evaluate

    hands = Draw(Deck.standard(), 5).sample(np.random.default_rng(8), 300_001)
    cats, values = evaluate(hands)
    cats2, values2 = evaluate(hands, workers=2)
    assert np.array_equal(cats, cats2) and np.array_equal(values, values2)
