"""Ace-to-five low (razz, the low of stud hi-lo): exact category tables of 5, 6 and 7 cards.

An ace-to-five low is the best five cards of *different* ranks, the ace lowest, straights and
flushes not counting; its category is its highest card (``5_high``, the wheel A-2-3-4-5, up to
``king_high``). A hand without five different ranks has no such low (``paired``: razz then plays
its pairs, and stud hi-lo has no low). Suits never matter, so a hand is counted by its ranks:
every multiset of ``k`` ranks (each at most four times) weighted by the ways its suits can be
chosen, the product of C(4, count) over its ranks.

>>> t = razz_odds(7)
>>> t.exact.count("5_high"), t.exact.count("king_high"), t.exact.total
(781824, 13939200, 133784560)
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb

import numpy as np

from cardlab.distribution import Distribution
from cardlab.errors import HandError
from cardlab.tabulation import Tabulation

__all__ = ["LOW_CATEGORIES", "razz_odds", "low_categories"]

LOW_CATEGORIES = ("paired", "king_high", "queen_high", "jack_high", "10_high", "9_high", "8_high", "7_high",
                  "6_high", "5_high")
"""Ace-to-five low categories, weakest first as the high categories are (so "at least" in a table
reads "this low or better"); ``paired`` has fewer than five different ranks."""


def low_categories(rank_counts: np.ndarray) -> np.ndarray:
    """Index into :data:`LOW_CATEGORIES` of each row of ``(n, 13)`` rank counts (two .. ace).

    >>> counts = np.zeros((2, 13), dtype=np.int64)
    >>> counts[0, [12, 0, 1, 2, 3]] = 1           # A 2 3 4 5
    >>> counts[1, [12, 0, 5, 6, 9]] = 1           # A 2 7 8 J
    >>> [LOW_CATEGORIES[i] for i in low_categories(counts)]
    ['5_high', 'jack_high']
    """
    counts = np.asarray(rank_counts)
    # ace low: columns in order A, 2, 3, ..., K
    low_order = np.concatenate([counts[:, 12:13], counts[:, :12]], axis=1) > 0
    held = np.cumsum(low_order, axis=1)
    enough = held[:, -1] >= 5
    fifth = np.argmax(held >= 5, axis=1)  # 0 = ace .. 12 = king: the fifth lowest different rank
    # the fifth card is at least a five (index 4, the best: the last category) and at most a king
    category: np.ndarray = np.where(enough, len(LOW_CATEGORIES) - 1 - (fifth - 4), 0)
    return category


def _rank_multisets(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every multiset of ``k`` ranks with each rank at most four times, as ``(m, 13)`` counts,
    and the number of card hands of each (product of C(4, count))."""
    rows = np.array(list(combinations_with_replacement(range(13), k)), dtype=np.int64)
    counts = np.zeros((len(rows), 13), dtype=np.int64)
    for j in range(k):
        counts += rows[:, j:j + 1] == np.arange(13)
    counts = counts[(counts <= 4).all(axis=1)]
    ways = np.array([comb(4, c) for c in range(5)], dtype=np.int64)[counts].prod(axis=1)
    return counts, ways


def razz_odds(cards: int = 7) -> Tabulation:
    """Exact number of ``cards``-card hands (5, 6 or 7 from one deck) in each ace-to-five low
    category of :data:`LOW_CATEGORIES`; what ``cardlab poker odds --game razz`` prints."""
    if cards not in (5, 6, 7):
        raise HandError(f"a razz hand has 5, 6 or 7 cards, not {cards}")
    counts, ways = _rank_multisets(cards)
    tally = np.bincount(low_categories(counts), weights=ways, minlength=len(LOW_CATEGORIES))
    exact = Distribution("category", LOW_CATEGORIES, tuple(int(round(x)) for x in tally))
    return Tabulation(f"ace-to-five low (razz), {cards} cards from a standard deck (52 cards)", exact,
                      None, value_key="category", cumulative=True)
