"""The numpy hold'em showdown cardlab used before csrc/poker_equity.c: an oracle for the tests.

Hold'em strengths for many boards at once: the board is read once, each player costs one lookup.

For equity, the same boards meet every player's two hole cards. So each board's five ranks are
sorted once and turned into the index of their multiset (6,188 of them); a table per pair of
hole ranks (91 pairs, generated from the evaluator's seven-card table) gives the suit-blind
strength of the seven cards in one lookup. At most one suit can hold three or more of the five
board cards; only the boards with such a suit, and only the players holding enough of it, get
their flush looked up by rank mask. The strengths are the evaluator's
(:func:`cardlab.poker.evaluator.strengths`), as the tests check.

>>> import numpy as np
>>> from cardlab.cards import parse_card_ids as p
>>> from cardlab.poker.evaluator import strengths
>>> boards = np.array([p("2c 7d 9h Jh Qh"), p("Ah Kh 3h 4s 5s")], dtype=np.uint8)
>>> hole = np.array(p("Th 8h"), dtype=np.uint8)
>>> data = BoardData.of(boards)
>>> list(holdem_strengths(data, hole)) == list(strengths(np.hstack([np.tile(hole, (2, 1)), boards])))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np

from cardlab.poker.evaluator import _binomial_column, _flush_table, _plain_table
from cardlab.poker.rules import STANDARD, Rules

__all__ = ["BoardData", "holdem_strengths"]


@dataclass(frozen=True, eq=False)
class BoardData:
    """Per board: rank multiset index, the suit with 3+ cards (4 if none) and its count; the cards by column."""

    index: np.ndarray
    suit: np.ndarray
    count: np.ndarray
    cards: np.ndarray

    def __len__(self) -> int:
        return len(self.index)

    @classmethod
    def of(cls, boards: np.ndarray, ranks_sorted: bool = False) -> BoardData:
        """From ``(n, 5)`` boards (a transposed ``(5, n)`` array is read without a copy);
        ``ranks_sorted`` says each row's cards are already in ascending order."""
        cards = np.ascontiguousarray(np.asarray(boards, dtype=np.uint8).T)
        cols = list(cards)
        ranks = [c >> np.uint8(2) for c in cols]
        for a, b in () if ranks_sorted else _SORT_FIVE:
            low = np.minimum(ranks[a], ranks[b])
            np.maximum(ranks[a], ranks[b], out=ranks[b])
            ranks[a] = low
        index = _index_terms(0)[ranks[0]]
        for i in range(1, 5):
            index += _index_terms(i)[ranks[i]]
        suit_bit = _suit_bits()
        packed = suit_bit[cols[0]]
        for c in cols[1:]:
            packed += suit_bit[c]
        suit, count = _suit_tables()
        return cls(index, suit[packed], count[packed], cards)

    def take(self, rows: np.ndarray | slice) -> BoardData:
        """The boards at ``rows`` only."""
        return BoardData(self.index[rows], self.suit[rows], self.count[rows], self.cards[:, rows])

    def suit_masks(self, rows: np.ndarray) -> np.ndarray:
        """Rank mask of the 3+ suit on the given rows."""
        fs = self.suit[rows]
        mask = np.zeros(len(rows), dtype=np.int32)
        for col in self.cards:
            c = col[rows]
            mask |= np.where((c & np.uint8(3)) == fs, np.left_shift(1, (c >> np.uint8(2)).astype(np.int32)), 0)
        return mask


_SORT_FIVE = ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2))
"""Comparator pairs sorting five values ascending."""


@lru_cache(maxsize=None)
def _index_terms(i: int) -> np.ndarray:
    return _binomial_column(i).astype(np.uint16)


@lru_cache(maxsize=None)
def _suit_bits() -> np.ndarray:
    """Per card id: 1 << (3 * suit), so five cards' suit counts add up three bits per suit."""
    return np.array([1 << (3 * (c & 3)) for c in range(52)], dtype=np.uint16)


@lru_cache(maxsize=None)
def _suit_tables() -> tuple[np.ndarray, np.ndarray]:
    """By suit counts packed three bits per suit: the suit holding 3+ cards (4 if none), and its count."""
    packed = np.arange(1 << 12)
    digits = (packed[:, None] >> (3 * np.arange(4))) & 7
    suit = np.where(digits.max(axis=1) >= 3, digits.argmax(axis=1), 4).astype(np.int8)
    return suit, digits.max(axis=1).astype(np.int8)


@lru_cache(maxsize=None)
def _pair_tables(rules: Rules) -> np.ndarray:
    """``(169, 6188)`` uint32: suit-blind strength of hole ranks ``a * 13 + b`` with each board multiset."""
    boards = np.array(list(combinations_with_replacement(range(13), 5)), dtype=np.int64)
    plain7 = _plain_table(rules, 7)
    columns = sum(_binomial_column(i)[boards[:, i]] for i in range(5))
    out = np.zeros((169, len(boards)), dtype=np.uint32)
    for a in range(13):
        for b in range(a, 13):
            seven = np.sort(np.concatenate([boards, np.full((len(boards), 1), a), np.full((len(boards), 1), b)],
                                           axis=1), axis=1)
            seven = np.minimum(seven, 12)
            index = sum(_binomial_column(i)[seven[:, i]] for i in range(7))
            out[a * 13 + b, columns] = plain7[index]
            out[b * 13 + a] = out[a * 13 + b]
    return out


def holdem_strengths(board: BoardData, hole: np.ndarray, rules: Rules = STANDARD) -> np.ndarray:
    """Strength (uint32) of two hole cards with each board: ``hole`` is one pair of card ids, or one per board."""
    hole = np.asarray(hole)
    if hole.ndim == 1:
        c1, c2 = int(hole[0]), int(hole[1])
        out: np.ndarray = _pair_tables(rules)[(c1 >> 2) * 13 + (c2 >> 2)][board.index]
        held = (board.suit == (c1 & 3)).astype(np.int8) + (board.suit == (c2 & 3))
        rows = np.flatnonzero(held >= 5 - board.count)
        if len(rows):
            fs = board.suit[rows]
            extra = np.where((c1 & 3) == fs, 1 << (c1 >> 2), 0) | np.where((c2 & 3) == fs, 1 << (c2 >> 2), 0)
            out[rows] = np.maximum(out[rows], _flush_table(rules)[board.suit_masks(rows) | extra])
        return out
    a, b = hole[:, 0].astype(np.int32), hole[:, 1].astype(np.int32)
    out = _pair_tables(rules).reshape(-1)[((a >> 2) * 13 + (b >> 2)) * _MULTISETS + board.index]
    sa, sb = a & 3, b & 3
    held = (board.suit == sa).astype(np.int8) + (board.suit == sb)
    rows = np.flatnonzero(held >= 5 - board.count)
    if len(rows):
        fs = board.suit[rows]
        extra = (np.where(sa[rows] == fs, np.left_shift(1, a[rows] >> 2), 0)
                 | np.where(sb[rows] == fs, np.left_shift(1, b[rows] >> 2), 0))
        out[rows] = np.maximum(out[rows], _flush_table(rules)[board.suit_masks(rows) | extra])
    return out


_MULTISETS = 6188
