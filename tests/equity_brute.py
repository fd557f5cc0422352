"""Brute-force equity for the tests: plain loops over boards, hands valued by treys (hold'em,
Omaha) or by a small rank-count evaluator written here (short deck), independent of cardlab."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

from treys import Card, Evaluator

_EVAL = Evaluator()
_RANKS = "23456789TJQKA"
_SUITS = "cdhs"


def name(card: int) -> str:
    return _RANKS[card // 4] + _SUITS[card % 4]


def _treys(cards: list[int]) -> list[int]:
    return [Card.new(name(c)) for c in cards]


def holdem_value(hole: list[int], board: list[int]) -> int:
    """Higher is better (treys: lower is better)."""
    return -_EVAL.evaluate(_treys(board), _treys(hole))


def omaha_value(hole: list[int], board: list[int]) -> int:
    best = None
    for pair in combinations(hole, 2):
        for triple in combinations(board, 3):
            v = -_EVAL.evaluate(_treys(list(triple)), _treys(list(pair)))
            best = v if best is None else max(best, v)
    assert best is not None
    return best


def _short_five(cards: tuple[int, ...]) -> tuple[int, ...]:
    """Short-deck value of five cards: (category, tie-break ranks), higher is better.
    Categories: 0 high, 1 pair, 2 two pair, 3 trips, 4 straight, 5 full house, 6 flush, 7 quads, 8 straight flush."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    rs = set(ranks)
    straight_top = None
    if len(rs) == 5 and ranks[0] - ranks[4] == 4:
        straight_top = ranks[0]
    elif rs == {12, 4, 5, 6, 7}:  # A-6-7-8-9
        straight_top = 7
    counts = Counter(ranks)
    by = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in by]
    order = tuple(r for r, _ in by)
    if straight_top is not None and flush:
        return (8, straight_top)
    if shape[0] == 4:
        return (7,) + order
    if flush:
        return (6,) + tuple(ranks)
    if shape[:2] == [3, 2]:
        return (5,) + order
    if straight_top is not None:
        return (4, straight_top)
    if shape[0] == 3:
        return (3,) + order
    if shape[:2] == [2, 2]:
        return (2,) + order
    if shape[0] == 2:
        return (1,) + order
    return (0,) + tuple(ranks)


def shortdeck_value(hole: list[int], board: list[int]) -> tuple[int, ...]:
    return max(_short_five(five) for five in combinations(hole + board, 5))


def _low(cards: tuple[int, ...]) -> tuple[int, ...] | None:
    """8-or-better low of five cards: descending ranks with ace = 1, or None."""
    ranks = [1 if c // 4 == 12 else c // 4 + 2 for c in cards]
    if len(set(ranks)) < 5 or max(ranks) > 8:
        return None
    return tuple(sorted(ranks, reverse=True))


def omaha_low(hole: list[int], board: list[int]) -> tuple[int, ...] | None:
    lows = [_low(p + t) for p in combinations(hole, 2) for t in combinations(board, 3)]
    found = [x for x in lows if x is not None]
    return min(found) if found else None


def holdem_low(hole: list[int], board: list[int]) -> tuple[int, ...] | None:
    lows = [_low(five) for five in combinations(hole + board, 5)]
    found = [x for x in lows if x is not None]
    return min(found) if found else None


def brute_equity(holes: list[list[int]], board: list[int], dead: list[int], game: str = "holdem",
                 hi_lo: bool = False) -> tuple[int, list[int], list[int], list[Fraction]]:
    """(boards, wins, ties, equity shares) by listing every completion of the board."""
    lowest = 16 if game == "shortdeck" else 0
    used = set(board) | set(dead) | {c for h in holes for c in h}
    deck = [c for c in range(lowest, 52) if c not in used]
    value = {"holdem": holdem_value, "shortdeck": shortdeck_value}.get(game, omaha_value)
    p = len(holes)
    wins, ties = [0] * p, [0] * p
    shares = [Fraction(0)] * p
    total = 0
    for extra in combinations(deck, 5 - len(board)):
        full = board + list(extra)
        values = [value(h, full) for h in holes]
        best = max(values)
        top = [i for i in range(p) if values[i] == best]
        got = [Fraction(0)] * p
        if hi_lo:
            low_of = holdem_low if game == "holdem" else omaha_low
            lows = [low_of(h, full) for h in holes]
            qualified = [x for x in lows if x is not None]
            if qualified:
                low_best = min(qualified)
                low_top = [i for i in range(p) if lows[i] == low_best]
                for i in top:
                    got[i] += Fraction(1, 2 * len(top))
                for i in low_top:
                    got[i] += Fraction(1, 2 * len(low_top))
            else:
                for i in top:
                    got[i] += Fraction(1, len(top))
        else:
            for i in top:
                got[i] += Fraction(1, len(top))
        for i in range(p):
            shares[i] += got[i]
            if got[i] == 1:
                wins[i] += 1
            elif got[i] > 0:
                ties[i] += 1
        total += 1
    return total, wins, ties, shares
