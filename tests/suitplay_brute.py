"""A plain brute force of single-suit play, for the tests of ``bridge suitplay``.

Every card is its own card (no equal cards merged, no groups): the layouts are the 2^n ways to
give the n missing cards to West or East, weighted one by one; declarer's strategies are
enumerated as the set of every outcome vector (tricks per layout) that some strategy reaches,
walking the public history card by card. Defenders see everything and answer each strategy with
their best play for the actual layout (omniscient). Only duplicate vectors are dropped."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Callable
from math import comb

RANKS = "23456789TJQKA"


def layouts(missing: list[int], vacant: tuple[int, int] = (13, 13)) -> list[tuple[frozenset[int], Fraction]]:
    """(West's cards, weight) for every way to split the missing cards."""
    w, e = vacant
    n = len(missing)
    out = []
    for bits in product((0, 1), repeat=n):
        west = frozenset(c for c, b in zip(missing, bits) if b)
        k = len(west)
        if 0 <= w - k <= w + e - n and n - k <= e:
            out.append((west, Fraction(comb(w + e - n, w - k), comb(w + e, w))))
    return out


def best(north: str, south: str, vacant: tuple[int, int] = (13, 13), gone: str = "",
         weigh: Callable[[frozenset[int]], Fraction] | None = None) -> tuple[dict[int, Fraction], Fraction]:
    """The best probability of at least t tricks for every t, and the best mean, by brute force;
    ``gone`` cards are out of play, ``weigh`` (West's cards -> a factor) reweighs the layouts
    (then scaled to add up to 1)."""
    n_cards = frozenset(RANKS.index(c) for c in north)
    s_cards = frozenset(RANKS.index(c) for c in south)
    out = frozenset(RANKS.index(c) for c in gone)
    missing = [r for r in range(13) if r not in n_cards and r not in s_cards and r not in out]
    lays = layouts(missing, vacant)
    if weigh is not None:
        lays = [(west, w * weigh(west)) for west, w in lays]
        total = sum((w for _, w in lays), Fraction(0))
        lays = [(west, w / total) for west, w in lays if w]
    ids = list(range(len(lays)))
    hands = [(lays[i][0], frozenset(missing) - lays[i][0]) for i in ids]
    _MEMO.clear()
    vectors = _node(n_cards, s_cards, [], tuple(ids), tuple(frozenset() for _ in ids), tuple(frozenset() for _ in ids),
                    hands)
    most = max(len(north), len(south))
    weights = [w for _, w in lays]
    by_target = {}
    for t in range(1, most + 1):
        by_target[t] = max(sum((weights[i] for i, v in zip(ids, vec) if v >= t), Fraction(0)) for vec in vectors)
    mean = max(sum((weights[i] * v for i, v in zip(ids, vec)), Fraction(0)) for vec in vectors)
    return by_target, mean


def _winner(trick: list[tuple[str, int]]) -> str:
    return max(trick, key=lambda sc: sc[1])[0]


_MEMO: dict = {}  # type: ignore[type-arg]


def _node(north, south, trick, ids, w_played, e_played, hands):  # type: ignore[no-untyped-def]
    """Every outcome vector (future tricks for each layout in ``ids``) some strategy reaches
    (the same public history is walked once: a cache, not a pruning)."""
    key = (north, south, tuple(trick), ids, w_played, e_played, id(hands))
    if key not in _MEMO:
        _MEMO[key] = _node_(north, south, trick, ids, w_played, e_played, hands)
    return _MEMO[key]


def _node_(north, south, trick, ids, w_played, e_played, hands):  # type: ignore[no-untyped-def]
    if len(trick) == 4:
        ours = _winner(trick) in "NS"
        sub = _node(north, south, [], ids, w_played, e_played, hands)
        return {tuple(v + ours for v in vec) for vec in sub}
    if not trick:
        if not north and not south:
            return {tuple(0 for _ in ids)}
        out = set()
        for seat, hand in (("N", north), ("S", south)):
            for card in sorted(hand):
                rest = (hand - {card})
                n2, s2 = (rest, south) if seat == "N" else (north, rest)
                out |= _node(n2, s2, [(seat, card)], ids, w_played, e_played, hands)
        return out
    seat = {"N": "E", "E": "S", "S": "W", "W": "N"}[trick[-1][0]]
    if seat in "NS":
        hand = north if seat == "N" else south
        if not hand:
            return _node(north, south, trick + [(seat, -1)], ids, w_played, e_played, hands)
        out = set()
        for card in sorted(hand):
            rest = hand - {card}
            n2, s2 = (rest, south) if seat == "N" else (north, rest)
            out |= _node(n2, s2, trick + [(seat, card)], ids, w_played, e_played, hands)
        return out
    # a defender: each card he may show splits the layouts; a strategy answers each card
    side = 0 if seat == "W" else 1
    played = w_played if seat == "W" else e_played
    options: dict[int, list[int]] = {}
    for pos, i in enumerate(ids):
        left = hands[i][side] - played[pos]
        for card in (left or {-1}):
            options.setdefault(card, []).append(pos)
    branches = []
    for card, positions in sorted(options.items()):
        sub_ids = tuple(ids[p] for p in positions)
        if seat == "W":
            wp = tuple(w_played[p] | {card} for p in positions)
            ep = tuple(e_played[p] for p in positions)
        else:
            wp = tuple(w_played[p] for p in positions)
            ep = tuple(e_played[p] | {card} for p in positions)
        sub = _node(north, south, trick + [(seat, card)], sub_ids, wp, ep, hands)
        branches.append((positions, sub))
    out = set()
    for choice in product(*(sorted(sub) for _, sub in branches)):
        vec = [99] * len(ids)
        for (positions, _), sub_vec in zip(branches, choice):
            for p, v in zip(positions, sub_vec):
                vec[p] = min(vec[p], v)
        out.add(tuple(vec))
    return out
