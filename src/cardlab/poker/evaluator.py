"""Poker hand evaluator: an array of hands in, categories and strengths out, in compiled code.

Hands are ``(n, k)`` arrays of card ids (``rank * 4 + suit``) with ``k`` = 5, 6 or 7; the best
five cards count. One kernel of ``cardlab._core`` (``csrc/poker_eval.c``) values every row:

* each card adds a *rank key* and one to its suit's counter to the hand's key, and or-s its bit
  into the hand's mask (bit ``16 * suit + rank``); the rank keys are chosen so that every
  multiset of at most seven ranks (each at most four times) has its own sum;
* a perfect hash of that sum (a displacement per row of 2,048 sums, then one table) gives the
  best hand ignoring suits; a suit counter that reaches five flags a flush, which is looked up
  by that suit's 13-bit rank mask instead;
* five-card hands read the same kind of index built over the 6,175 multisets of exactly five
  ranks alone (a 24 KB table that stays in the processor's nearest cache).

The tables are generated on first use, per rule variant, from the rules themselves
(:mod:`cardlab.poker.kernel`): about 74,000 rank multisets and 8,192 flush masks. A card may
repeat within a hand (several decks, reels): the kernel flags those few rows and they are valued
from their rank and suit counts by the same rules. The kernel releases the interpreter lock, so
``workers`` threads share a big array.

>>> cats, strengths = evaluate(hand_array(["As Ks Qs Js Ts", "2c 2d 2h 7s 7c"]))
>>> [Category(c).key for c in cats], bool(strengths[0] > strengths[1])
(['royal_flush', 'full_house'], True)
>>> hand_array(["As Ks Qs Js"])
Traceback (most recent call last):
...
cardlab.errors.HandError: a hand has 5, 6 or 7 cards; 'As Ks Qs Js' has 4
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from itertools import chain, combinations_with_replacement
from math import comb
from typing import Iterable, Sequence

import numpy as np

from cardlab._native import core as _core
from cardlab.cards import card_id_array, format_cards, parse_card_ids
from cardlab.cores import available_cores
from cardlab.engine import check_count
from cardlab.errors import HandError
from cardlab.poker.kernel import flush_strength, plain_strength
from cardlab.poker.rules import STANDARD, Category, Rules

__all__ = [
    "evaluate",
    "strengths",
    "hand_array",
    "parse_hand",
    "multiset_index",
    "tables",
    "count_subsets",
]

_THREAD_MIN = 1 << 16
"""Hands below which one thread evaluates everything (a thread costs more than it saves)."""

_THREAD_BLOCK = 1 << 14
"""Rows a thread takes from the shared cursor at a time (some 0.1 ms of work)."""


def parse_hand(text: str, *, repeats: bool = False) -> list[int]:
    """Card ids of one hand of 5 to 7 cards; a card twice is an error unless ``repeats``.

    >>> parse_hand("As Ks Qs Js Ts")
    [51, 47, 43, 39, 35]
    >>> parse_hand("As Ks Qs Js As")
    Traceback (most recent call last):
    ...
    cardlab.errors.HandError: card As is given twice in 'As Ks Qs Js As'
    """
    ids = parse_card_ids(text)
    if not 5 <= len(ids) <= 7:
        raise HandError(f"a hand has 5, 6 or 7 cards; '{text}' has {len(ids)}")
    if not repeats:
        seen: set[int] = set()
        for i in ids:
            if i in seen:
                raise HandError(f"card {format_cards([i])} is given twice in '{text}'")
            seen.add(i)
    return ids


def hand_array(hands: Iterable[str], *, repeats: bool = False) -> np.ndarray:
    """An ``(n, k)`` uint8 array from hand texts, which must all have ``k`` cards.

    >>> hand_array(["As Ks Qs Js Ts"]).shape
    (1, 5)
    """
    rows: list[list[int]] = []
    for text in hands:
        ids = parse_hand(text, repeats=repeats)
        if rows and len(ids) != len(rows[0]):
            raise HandError(f"hands must have the same number of cards: '{text}' has {len(ids)}, "
                            f"not {len(rows[0])}")
        rows.append(ids)
    if not rows:
        raise HandError("no hands given")
    return np.array(rows, dtype=np.uint8)


def multiset_index(sorted_ranks: Sequence[int]) -> int:
    """Index of a sorted rank multiset: ``sum(C(r_i + i, i + 1))``, a bijection
    from multisets of ``k`` ranks onto ``0 .. C(12 + k, k) - 1``.

    >>> multiset_index([0, 0, 0, 0, 0]), multiset_index([12] * 5)
    (0, 6187)
    """
    return sum(comb(int(r) + i, i + 1) for i, r in enumerate(sorted_ranks))


@lru_cache(maxsize=None)
def _plain_table(rules: Rules, k: int) -> np.ndarray:
    """Strength ignoring suits of every rank multiset of size ``k``, by multiset index
    (the exact counter of :mod:`cardlab.poker.odds` weighs rank classes with it)."""
    multisets = _multisets(k)
    counts = _counts_of(multisets).astype(np.int8)
    index = sum(_binomial_column(i)[multisets[:, i]] for i in range(k))
    table = np.zeros(comb(12 + k, k), dtype=np.uint32)
    table[index] = plain_strength(counts, rules)
    return table


@lru_cache(maxsize=None)
def _binomial_column(i: int) -> np.ndarray:
    return np.array([comb(r + i, i + 1) for r in range(13)], dtype=np.int64)


@lru_cache(maxsize=None)
def _flush_table(rules: Rules) -> np.ndarray:
    """Flush strength of each 13-bit mask of distinct ranks in one suit."""
    masks = np.arange(1 << 13)
    counts = ((masks[:, None] >> np.arange(13)) & 1).astype(np.int8)
    return flush_strength(counts, rules).astype(np.uint32)


@lru_cache(maxsize=None)
def _rank_multisets() -> np.ndarray:
    """Rank counts ``(n, 13)`` uint8 of every multiset of 5 to 7 ranks, no rank more than four times."""
    rows = []
    for k in (5, 6, 7):
        counts = _counts_of(_multisets(k))
        rows.append(counts[counts.max(axis=1) <= 4])
    return np.ascontiguousarray(np.concatenate(rows))


def _multisets(k: int) -> np.ndarray:
    """Every multiset of ``k`` ranks as sorted rows ``(C(12 + k, k), k)`` int64."""
    flat = np.fromiter(chain.from_iterable(combinations_with_replacement(range(13), k)), dtype=np.int64,
                       count=comb(12 + k, k) * k)
    return flat.reshape(-1, k)


def _counts_of(multisets: np.ndarray) -> np.ndarray:
    """Rank counts ``(n, 13)`` uint8 of rows of ranks (a column's entries fall on distinct rows, so a
    plain fancy-indexed add counts them)."""
    counts = np.zeros((len(multisets), 13), dtype=np.uint8)
    rows = np.arange(len(multisets))
    for j in range(multisets.shape[1]):
        counts[rows, multisets[:, j]] += 1
    return counts


@lru_cache(maxsize=None)
def tables(rules: Rules = STANDARD) -> object:
    """The compiled evaluator's tables for ``rules`` (generated once, then cached): for the
    kernels of :mod:`cardlab.poker` only."""
    counts = _rank_multisets()
    values = plain_strength(counts, rules).astype(np.uint32)
    order = bytes(int(c) for c in rules.order)
    return _core.poker_tables(counts, values, np.ascontiguousarray(_flush_table(rules)), order)


def _repeated(hands: np.ndarray, rules: Rules) -> np.ndarray:
    """Strengths of hands in which a card repeats, from their rank and suit counts (the rules' own
    functions, vectorised over the few rows concerned)."""
    n = len(hands)
    rows = np.repeat(np.arange(n), hands.shape[1])
    rank = (hands >> 2).astype(np.int64).reshape(-1)
    suit = (hands & 3).astype(np.int64).reshape(-1)
    counts = np.zeros((n, 4, 13), dtype=np.int64)
    np.add.at(counts, (rows, suit, rank), 1)
    best = plain_strength(counts.sum(axis=1), rules)
    for s in range(4):
        np.maximum(best, flush_strength(counts[:, s], rules), out=best)
    return best.astype(np.uint32)


@lru_cache(maxsize=None)
def _pool(workers: int) -> ThreadPoolExecutor:
    """The evaluator's threads, started once per size and kept (a pool per call cost more than
    the slice of a few million hands it ran)."""
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cardlab-eval")


def _out_buffer(out: np.ndarray | None, n: int) -> np.ndarray:
    """The caller's ``out`` (a writable C-contiguous uint32 array of ``n`` values), or a new
    array whose pages nothing has touched yet: each thread then first touches its own slice."""
    if out is None:
        return np.empty(n, dtype=np.uint32)
    if not isinstance(out, np.ndarray) or out.dtype != np.uint32 or out.shape != (n,) \
            or not out.flags.c_contiguous or not out.flags.writeable:
        shape = getattr(out, "shape", None)
        dtype = getattr(out, "dtype", type(out).__name__)
        raise HandError(f"out must be a writable contiguous uint32 array of shape ({n},), got {dtype} {shape}")
    return out


def _run(hands: np.ndarray, rules: Rules, workers: int, with_categories: bool, out: np.ndarray | None = None
         ) -> tuple[np.ndarray | None, np.ndarray]:
    hands = _checked(hands)
    workers = min(check_count(workers, "workers", HandError), available_cores())
    n, k = hands.shape
    values = _out_buffer(out, n)
    cats = np.empty(n, dtype=np.uint8) if with_categories else None
    t = tables(rules)

    if workers > 1 and n >= _THREAD_MIN:
        # the threads take blocks of rows from one shared cursor: one whose core is busier with
        # other work takes fewer, instead of the others waiting for its fixed half
        cursor = np.zeros(1, dtype=np.int64)

        def run(_: int) -> int:
            repeats: int = _core.poker_evaluate(t, hands, k, values, cats, True, cursor, _THREAD_BLOCK)
            return repeats

        counted = list(_pool(workers).map(run, range(workers)))
    else:
        counted = [_core.poker_evaluate(t, hands, k, values, cats, True)]
    if min(counted, default=0) < 0:
        raise HandError("card ids must be in 0..51")
    if sum(counted):
        rows = np.flatnonzero(values == 0)
        values[rows] = _repeated(hands[rows], rules)
        if cats is not None:
            table = np.array([int(c) for c in rules.order], dtype=np.uint8)
            cats[rows] = table[values[rows] >> 20]
    return cats, values


def strengths(hands: np.ndarray, rules: Rules = STANDARD, *, workers: int = 1,
              out: np.ndarray | None = None) -> np.ndarray:
    """Strength (uint32, higher is better, equal is a tie) of each hand.

    ``hands`` is an ``(n, k)`` array of card ids 0..51 with ``k`` in 5..7; ``workers`` > 1
    evaluates slices of a big array on that many threads. ``out``, a writable contiguous uint32
    array of ``n`` values, receives the strengths (and is returned): no new array per call,
    which is what repeated calls on big batches want.

    >>> [hex(v) for v in strengths(hand_array(["As Ks Qs Js Ts", "2c 3c 4c 5c Ah"]))]
    ['0x9cba98', '0x43210c']
    >>> buffer = np.zeros(2, dtype=np.uint32)
    >>> strengths(hand_array(["As Ks Qs Js Ts", "2c 3c 4c 5c Ah"]), out=buffer) is buffer, hex(buffer[1])
    (True, '0x43210c')
    """
    return _run(hands, rules, workers, False, out)[1]


def evaluate(hands: np.ndarray, rules: Rules = STANDARD, *,
             workers: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Categories (uint8 :class:`Category` values) and strengths (uint32) of each hand.

    >>> categories, strengths = evaluate(hand_array(["As Ks Qs Js Ts", "2c 2d 2h 5s 5d"]))
    >>> categories.tolist(), bool(strengths[0] > strengths[1])
    ([9, 6], True)
    """
    cats, out = _run(hands, rules, workers, True)
    assert cats is not None
    return cats, out


def count_subsets(cards: Sequence[int], k: int, rules: Rules = STANDARD) -> list[int]:
    """How many of the ``k``-card subsets of ``cards`` (distinct card ids) fall in each category,
    by :class:`Category` value: every subset evaluated, in compiled code, the outer cards' sums
    kept from one subset to the next (all 133,784,560 seven-card hands in well under a second).

    >>> count_subsets(range(52), 5)[:4]
    [1302540, 1098240, 123552, 54912]
    """
    ids = card_id_array(list(cards), error=HandError).tolist()
    if len(set(ids)) != len(ids):
        raise HandError("count_subsets takes distinct card ids in 0..51")
    if not 5 <= k <= 7:
        raise HandError(f"a poker hand has 5, 6 or 7 cards, not {k}")
    counts = np.zeros(16, dtype=np.int64)
    _core.poker_count_subsets(tables(rules), bytes(ids), k, counts)
    return [int(c) for c in counts[: len(Category)]]


def _checked(hands: np.ndarray) -> np.ndarray:
    hands = np.asarray(hands)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise HandError(f"hands must be an (n, k) array with k = 5, 6 or 7, got shape {hands.shape}")
    if hands.dtype != np.uint8:
        hands = card_id_array(hands, error=HandError)
    return np.ascontiguousarray(hands)


