"""Optimal strategies as players read them: "raise with Q-6-4 or better", "let it ride with ...".

>>> hand_words(0xa42)
'Q-6-4'
>>> hand_words(1 << 12 | 8 << 8 | 3 << 4)
'a pair of tens'
>>> threshold_rule([0xa42, 0xa41, 0xc00], [True, False, True], "raise", "fold")
'raise with Q-6-4 or better; fold below'
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from cardlab.cards import RANKS

__all__ = ["hand_words", "threshold_rule", "pattern_rule"]

_PLURAL = ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
           "kings", "aces"]
_TEN = 8
_SINGULAR = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"]
_CATEGORY = ["high card", "pair", "flush", "straight", "three of a kind", "straight flush"]


def hand_words(value: int) -> str:
    """A three-card value (csrc/casino.c) in words: ranks for a high card, else its category."""
    category, a, b, c = value >> 12, value >> 8 & 15, value >> 4 & 15, value & 15
    if category == 0:
        return "-".join(RANKS[r] for r in (a, b, c))
    if category == 1:
        return f"a pair of {_PLURAL[a]}"
    if category in (3, 5):
        return f"{RANKS[a]}-high {_CATEGORY[category]}"
    if category == 2:
        return f"{RANKS[a]}-{RANKS[b]}-{RANKS[c]} flush"
    return f"three {_PLURAL[a]}"


def threshold_rule(values: Sequence[int], act: Sequence[bool], verb: str, other: str) -> str:
    """The decision as one threshold ("<verb> with X or better") when the hands that act are
    exactly those of value at least X, with the exceptions named when not."""
    acting = [v for v, a in zip(values, act) if a]
    if not acting:
        return f"always {other}"
    least = min(acting)
    if least == min(values):
        rule = f"always {verb}"
    else:
        rule = f"{verb} with {hand_words(least)} or better; {other} below"
    wrong = sorted({v for v, a in zip(values, act) if v >= least and not a})
    if wrong:
        rule += f" (but {other} with {', '.join(hand_words(v) for v in wrong[:10])}" + (" ..." if len(wrong) > 10 else "") + ")"
    return rule


def pattern_rule(cards: np.ndarray, act: np.ndarray, verb: str, paying_words: bool = True) -> list[str]:
    """The rank patterns on which the hands (rows of card ids) act, as players read them: first
    "any paying hand" (a pair of tens or better, two pair, trips: when every one acts), then
    "four to a flush" (when every unpaired suited hand acts), then "a pair of Xs" (every hand with
    one pair of X acts; "any pair" when every pair does), "any ace high" (every hand left with that
top card acts, from the ace down while it holds), then each remaining pattern of ranks
    that acts with any suits or only suited. ``paying_words=False`` leaves out the first.

    >>> hands = np.array([[48, 49, 0], [44, 40, 36], [45, 40, 36], [0, 4, 9]])
    >>> pattern_rule(hands, np.array([True, True, False, False]), "ride")
    ['ride with: any paying hand; K-Q-J suited']
    """
    k = cards.shape[1]
    ranks = np.sort(cards >> 2, axis=1)[:, ::-1]
    suited = (cards & 3 == (cards[:, :1] & 3)).all(axis=1)
    same = ranks[:, 1:] == ranks[:, :-1]
    paying = (same & (ranks[:, 1:] >= _TEN)).any(axis=1) | (same.sum(axis=1) >= 2)
    if not paying_words:
        paying[:] = False
    head: list[str] = []
    if paying.any():
        if act[paying].all():
            head.append("any paying hand")
        elif act[paying].any():
            head.append("some paying hands")
    rest = ~paying
    flush_draw = rest & suited & ~same.any(axis=1)
    if k >= 4 and flush_draw.any() and act[flush_draw].all():
        head.append(f"{'four' if k == 4 else k} to a flush")
        rest &= ~flush_draw
    one_pair = rest & (same.sum(axis=1) == 1)
    pair_rank = np.where(same, ranks[:, 1:], -1).max(axis=1)
    whole = [r for r in range(12, -1, -1) if (one_pair & (pair_rank == r)).any()
             and act[one_pair & (pair_rank == r)].all()]
    if whole and len(whole) == len(set(pair_rank[one_pair].tolist())):
        head.append("any pair")
    else:
        head += [f"a pair of {_PLURAL[r]}" for r in whole]
    rest &= ~(one_pair & np.isin(pair_rank, whole))
    for top in range(12, -1, -1):  # "any ace high": every hand left with that top card acts
        high = rest & ~same.any(axis=1) & (ranks[:, 0] == top)
        if not high.any() or not act[high].all():
            break
        head.append(f"any {_SINGULAR[top]} high")
        rest &= ~high
    key = (ranks * (13 ** np.arange(k - 1, -1, -1))).sum(axis=1)
    lines = []
    for value in np.unique(key[rest & act]):
        group = rest & (key == value)
        text = "-".join(RANKS[r] for r in ranks[np.flatnonzero(group)[0]])
        if act[group].all():
            lines.append(f"{text} (any suits)")
        elif act[group & suited].all() and not act[group & ~suited].any():
            lines.append(f"{text} suited")
        else:
            lines.append(f"{text} (some suit layouts)")
    lines.sort(key=lambda t: [RANKS.index(c) for c in t.split(" ")[0].split("-")], reverse=True)
    items = head + lines
    return [f"{verb} with: " + "; ".join(items)] if items else [f"never {verb}"]
