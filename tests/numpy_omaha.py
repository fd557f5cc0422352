"""The numpy Omaha showdown cardlab used before csrc/poker_equity.c: an oracle for the tests.

Omaha hands (exactly two hole cards and three board cards) and the 8-or-better low, vectorised.

Hands are arrays of card ids (``rank * 4 + suit``). :func:`omaha_strengths` takes each
player's hole cards ``(n, h)`` (h = 4, 5 or 6) and the boards ``(n, 5)`` and returns the
strength of the best five cards made of two hole cards and three board cards, on the same
scale as :func:`cardlab.poker.evaluator.strengths` (higher wins, equal ties). It works from the
ten board triples and the ``C(h, 2)`` hole pairs: a five-card hand's ranks read in base 13 are
the triple's three digits plus the pair's two, so each of the ``10 * C(h, 2)`` hands is one
addition and one lookup in the evaluator's five-card table; a flush needs a one-suited triple
and a pair of that suit, looked up by its rank mask.

The low (:func:`omaha_lows`, :func:`holdem_lows`): five cards of different ranks, all eight or
lower, aces low; straights and flushes do not count. A low is a mask of bits (ace = bit 0,
two = bit 1, ..., eight = bit 7) and compares as a number: a lower mask is a better low, because
the highest card decides first. :data:`NO_LOW` (512) means no qualifying low.

>>> import numpy as np
>>> from cardlab.cards import parse_card_ids as p
>>> hole = np.array([p("As 2s Kd Qd")], dtype=np.uint8)
>>> board = np.array([p("3s 4s 5c Kh Kc")], dtype=np.uint8)
>>> from cardlab.poker.kernel import unpack
>>> from cardlab.poker.rules import STANDARD
>>> unpack(int(omaha_strengths(hole, board)[0]), STANDARD)[0].key   # A-2 with 3-4-5, not K-K-K
'straight'
>>> bin(int(omaha_lows(hole, board)[0]))   # A-2-3-4-5, the wheel: the best low
'0b11111'
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np

from cardlab.poker.evaluator import _binomial_column, _flush_table, _plain_table
from cardlab.poker.rules import STANDARD, Rules

__all__ = ["omaha_strengths", "omaha_players", "omaha_lows", "holdem_lows", "NO_LOW", "low_ranks"]

NO_LOW = 1 << 9
_TRIPLES = tuple(combinations(range(5), 3))
_BLOCK = 1 << 14


@lru_cache(maxsize=None)
def _direct_five(rules: Rules) -> np.ndarray:
    """Five-card strengths ignoring suits, indexed by the unsorted ranks in base 13."""
    digits = np.indices((13,) * 5).reshape(5, -1).T
    ordered = np.sort(digits, axis=1)
    index = sum(_binomial_column(i)[ordered[:, i]] for i in range(5))
    table: np.ndarray = _plain_table(rules, 5)[index]
    return table


@lru_cache(maxsize=None)
def _low_bit() -> np.ndarray:
    """Low bit of each card id: ace = 1, two = 2, ..., eight = 128; 0 for nine and up."""
    out = np.zeros(52, dtype=np.uint16)
    for card in range(52):
        rank = card // 4
        if rank == 12:
            out[card] = 1
        elif rank <= 6:
            out[card] = 1 << (rank + 1)
    return out


@lru_cache(maxsize=None)
def _popcount9() -> np.ndarray:
    return np.array([bin(m).count("1") for m in range(1 << 10)], dtype=np.uint8)


@lru_cache(maxsize=None)
def _best_five_low() -> np.ndarray:
    """For a mask of low ranks: the five lowest bits if there are five, else NO_LOW."""
    out = np.full(256, NO_LOW, dtype=np.uint16)
    for mask in range(256):
        bits = [b for b in range(8) if mask >> b & 1]
        if len(bits) >= 5:
            out[mask] = sum(1 << b for b in bits[:5])
    return out


def low_ranks(low: int) -> str:
    """A low as text, highest card first: ``low_ranks(0b11111)`` is ``'5-4-3-2-A'``."""
    if low >= NO_LOW:
        return "no low"
    names = "A2345678"
    return "-".join(names[b] for b in range(7, -1, -1) if low >> b & 1)


def holdem_lows(hands: np.ndarray) -> np.ndarray:
    """Best 8-or-better low of any five of each row's cards (uint16; NO_LOW if none)."""
    bits = _low_bit()[np.asarray(hands)]
    mask = np.bitwise_or.reduce(bits, axis=1)
    return _best_five_low()[mask]


def _triples(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per board triple: rank code (three base-13 digits, high places), suit (4 = mixed), rank mask."""
    r = (boards >> 2).astype(np.int32)
    s = (boards & 3).astype(np.int8)
    code = np.stack([r[:, i] * 28561 + r[:, j] * 2197 + r[:, k] * 169 for i, j, k in _TRIPLES], axis=1)
    suit = np.stack([np.where((s[:, i] == s[:, j]) & (s[:, j] == s[:, k]), s[:, i], 4)
                     for i, j, k in _TRIPLES], axis=1).astype(np.int8)
    bit = np.left_shift(1, r)
    mask = np.stack([bit[:, i] | bit[:, j] | bit[:, k] for i, j, k in _TRIPLES], axis=1)
    return code, suit, mask


def omaha_strengths(holes: np.ndarray, boards: np.ndarray, rules: Rules = STANDARD) -> np.ndarray:
    """Best Omaha strength (uint32) of each row: two of the ``h`` hole cards and three of five board cards."""
    holes, boards = np.asarray(holes, dtype=np.uint8), np.asarray(boards, dtype=np.uint8)
    out = np.empty(len(holes), dtype=np.uint32)
    for start in range(0, len(holes), _BLOCK):
        stop = start + _BLOCK
        out[start:stop] = _omaha_block(holes[start:stop], _triples(boards[start:stop]), rules)
    return out


def omaha_players(holes: np.ndarray, boards: np.ndarray, rules: Rules = STANDARD) -> list[np.ndarray]:
    """Best Omaha strength of each player on each board, the board triples read once for all players.

    ``holes`` is ``(n, P, h)``, or ``(P, h)`` for the same hands on every board.
    """
    boards = np.asarray(boards, dtype=np.uint8)
    holes = np.asarray(holes, dtype=np.uint8)
    n, p = len(boards), holes.shape[-2]
    out = [np.empty(n, dtype=np.uint32) for _ in range(p)]
    for start in range(0, n, _BLOCK):
        stop = min(n, start + _BLOCK)
        triples = _triples(boards[start:stop])
        for i in range(p):
            if holes.ndim == 2:
                out[i][start:stop] = _fixed_block(holes[i], triples, rules)
            else:
                out[i][start:stop] = _omaha_block(holes[start:stop, i], triples, rules)
    return out


def _fixed_block(hole: np.ndarray, triples: tuple[np.ndarray, np.ndarray, np.ndarray], rules: Rules) -> np.ndarray:
    """One hand against many boards: per hole pair and board triple, one gather and one running maximum."""
    tcode, tsuit, tmask = (np.ascontiguousarray(x.T) for x in triples)  # (10, n) each
    table = _direct_five(rules)
    flush_table = _flush_table(rules)
    best = np.zeros(tcode.shape[1], dtype=np.uint32)
    for a, b in combinations(range(len(hole)), 2):
        ra, rb = int(hole[a]) >> 2, int(hole[b]) >> 2
        pc = ra * 13 + rb
        suited = (int(hole[a]) & 3) == (int(hole[b]) & 3)
        for t in range(10):
            np.maximum(best, table[tcode[t] + pc], out=best)
            if suited:
                rows = np.flatnonzero(tsuit[t] == (int(hole[a]) & 3))
                if len(rows):
                    value = flush_table[tmask[t, rows] | (1 << ra) | (1 << rb)]
                    best[rows] = np.maximum(best[rows], value)
    return best


def _omaha_block(holes: np.ndarray, triples: tuple[np.ndarray, np.ndarray, np.ndarray],
                 rules: Rules) -> np.ndarray:
    tcode, tsuit, tmask = triples
    r = (holes >> 2).astype(np.int32)
    s = (holes & 3).astype(np.int8)
    pairs = list(combinations(range(holes.shape[1]), 2))
    pcode = np.stack([r[:, a] * 13 + r[:, b] for a, b in pairs], axis=1)
    psuit = np.stack([np.where(s[:, a] == s[:, b], s[:, a], 5) for a, b in pairs], axis=1).astype(np.int8)
    code = tcode[:, :, None] + pcode[:, None, :]
    value = _direct_five(rules)[code]
    flush = tsuit[:, :, None] == psuit[:, None, :]
    if flush.any():
        bit = np.left_shift(1, r)
        pmask = np.stack([bit[:, a] | bit[:, b] for a, b in pairs], axis=1)
        where = np.nonzero(flush)
        value[where] = _flush_table(rules)[tmask[where[0], where[1]] | pmask[where[0], where[2]]]
    result: np.ndarray = value.reshape(len(holes), -1).max(axis=1)
    return result


def omaha_lows(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Best 8-or-better Omaha low (two hole cards, three board cards) of each row; NO_LOW if none.

    ``holes`` is ``(n, h)``, or ``(h,)``: the same hand on every board.
    """
    holes, boards = np.asarray(holes, dtype=np.uint8), np.asarray(boards, dtype=np.uint8)
    lowbit = _low_bit()
    pop = _popcount9()
    bb, hb = lowbit[boards], lowbit[holes]
    t = np.stack([bb[:, i] | bb[:, j] | bb[:, k] for i, j, k in _TRIPLES], axis=1)
    t = np.where(pop[t] == 3, t, 1 << 9)  # three different low ranks, or unusable
    if holes.ndim == 1:
        best = np.full(len(boards), NO_LOW, dtype=np.uint16)
        masks = {int(hb[a] | hb[b]) for a, b in combinations(range(len(holes)), 2)}
        tc = np.ascontiguousarray(t.T)
        for pm in masks:
            if pop[pm] != 2:
                continue
            for row in tc:
                both = row | pm
                np.minimum(best, np.where(pop[both & 1023] == 5, both, NO_LOW).astype(np.uint16), out=best)
        return best
    pairs = list(combinations(range(holes.shape[1]), 2))
    p = np.stack([hb[:, a] | hb[:, b] for a, b in pairs], axis=1)
    p = np.where(pop[p] == 2, p, 1 << 9)
    both = t[:, :, None] | p[:, None, :]
    value = np.where(pop[both & 1023] == 5, both, NO_LOW).astype(np.uint16)
    result: np.ndarray = value.reshape(len(holes), -1).min(axis=1)
    return result
