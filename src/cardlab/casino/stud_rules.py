"""Mississippi Stud's three- and four-card decisions as rules in words, each proved exactly.

The exact strategy (:class:`cardlab.casino.stud.StudPlan`) decides for every hand and every
total already bet. The rule here reads as the published ones do: every hand falls in one family
(:data:`FAMILIES`, the first that fits: a pair, draws to a straight flush, a flush, a straight,
the rest) and within a family a number that orders it (a pair's rank; "points": 2 for each card
from a jack up, 1 from a six to a ten; high cards less gaps for a straight-flush draw; points,
then fewer gaps, for three to a straight; the top
card of an outside straight), and the rule raises the most from one threshold up, the least from
another, and folds below. Each family's two thresholds are those that lose least against the
exact decisions, with every (hand, bets made) weighed by the deals the optimal strategy brings
there and the later street played best; then the rule is played as a strategy (both streets,
then each alone with the other exact) and its exact expectation counted.

>>> ids = np.array([[48, 49, 0], [44, 40, 37]])   # As Ac 2c; Ks Qs Jh (6 points, no gap: 6 * 3 + 2)
>>> family, order = stud_families(ids)
>>> [FAMILIES[3][f] for f in family], order.tolist()
(['a pair', 'three to a straight'], [12, 20])
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from cardlab.cards import RANKS
from cardlab.casino.simulation import positions_of
from cardlab.casino.stud import BETS, StudPlan

__all__ = ["FAMILIES", "StudRules", "Thresholds", "stud_families", "stud_rules", "street_table"]

#: The families of three and of four cards, the first that fits.
FAMILIES = {3: ("a pair", "three to a straight flush", "three to a flush", "three to a straight", "the rest"),
            4: ("a pair or better", "four to a flush", "four to an outside straight", "four to an inside straight",
                "the rest")}
_ORDER = {3: ("a pair of {} or better", "three to a straight flush with {}", "three to a flush with {} points or more",
              "three to a straight with {} points or more", "{} points or more"),
          4: ("a pair of {} or better", "four to a flush with {} points or more", "four to an outside straight {} high or better",
              "four to an inside straight with {} points or more", "{} points or more")}
_PLURAL = ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
           "kings", "aces"]


def _spans(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each hand's least span of its ranks (the ace high or low) and its top card in that span."""
    high = ranks.max(axis=1) - ranks.min(axis=1)
    low_ranks = np.where(ranks == 12, -1, ranks)
    low = low_ranks.max(axis=1) - low_ranks.min(axis=1)
    return np.minimum(high, low), np.where(low < high, low_ranks.max(axis=1), ranks.max(axis=1))


def stud_families(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The family (:data:`FAMILIES` of the hand's size) and the ordinal within it of each hand
    (rows of three or four card ids)."""
    k = cards.shape[1]
    ranks = np.sort(cards >> 2, axis=1)
    suited = (cards & 3 == (cards[:, :1] & 3)).all(axis=1)
    same = ranks[:, 1:] == ranks[:, :-1]
    paired = same.any(axis=1)
    points = (np.where(ranks >= 9, 2, np.where(ranks >= 4, 1, 0))).sum(axis=1)
    span, top = _spans(ranks)
    straight = ~paired & (span <= 4)
    family = np.full(len(cards), 4, dtype=np.int64)
    order = points.copy()
    if k == 3:
        high = (ranks >= 9).sum(axis=1)
        gaps = span - 2
        rows = ((3, straight, points * 3 + 2 - gaps), (2, suited, points), (1, straight & suited, high - gaps))
    else:
        outside = straight & (span == 3) & (top >= 3) & (top <= 11)  # not A-2-3-4 nor J-Q-K-A
        rows = ((3, straight, points), (2, outside, top), (1, suited, points))
    for f, fits, value in rows:
        family = np.where(fits, f, family)
        order = np.where(fits, value, order)
    pair_rank = np.where(same, ranks[:, 1:], -1).max(axis=1)
    better = same.sum(axis=1) >= 2  # trips, two pair, quads
    family = np.where(paired, 0, family)
    order = np.where(paired, np.where(better, 13, pair_rank), order)
    return family, order


def _pick(totals: np.ndarray) -> tuple[int, int]:
    """The two cut points (the least raises from the first key index, the most from the second)
    that give the most: ``totals`` rows by key, columns fold, least raise, most raise."""
    keys = len(totals)
    fold = np.concatenate([[0.0], np.cumsum(totals[:, 0])])
    small = np.concatenate([[0.0], np.cumsum(totals[:, 1])])
    big = np.concatenate([[0.0], np.cumsum(totals[:, 2])])
    best, at = -np.inf, (keys, keys)
    for lo in range(keys + 1):  # from the bottom: among equals (hands never reached), the widest clause
        for hi in range(lo, keys + 1):
            value = fold[lo] + (small[hi] - small[lo]) + (big[keys] - big[hi])
            if value > best + 1e-9 * abs(best if np.isfinite(best) else 0.0):
                best, at = value, (lo, hi)
    return at


Thresholds = tuple[tuple[int, int], ...]  #: per family: the least ordinal raising the least, the most


@dataclass(frozen=True)
class StudRules:
    """The three- and four-card rules in words, their thresholds (per family: the least ordinal
    raising the least, the least raising the most), the decision tables they make, and the exact
    expected result per ante of the optimal strategy, of the two rules together and of each rule
    alone (the other street played exactly)."""

    lines: tuple[str, ...]
    thresholds3: Thresholds
    thresholds4: Thresholds
    choice3: np.ndarray
    choice4: np.ndarray
    optimal: Fraction
    expected: Fraction
    alone3: Fraction
    alone4: Fraction

    def proof(self) -> str:
        """The rules' exact house edges against the optimal one, in words."""
        def edge(x: Fraction) -> str:
            return f"{float(-x):.4%}"

        return (f"(these three- and four-card rules played as a strategy: house edge {edge(self.expected)}, against the "
                f"optimal {edge(self.optimal)}; the three-card rule alone {edge(self.alone3)}, the four-card rule "
                f"alone {edge(self.alone4)})")


def _values(plan: StudPlan, k: int) -> np.ndarray:
    """Each k-card hand's value at each total bet (scaled, per path) of folding, then of each raise."""
    n, bets = plan.n, np.arange(BETS)
    paths = (n - 4) if k == 4 else (n - 3) * (n - 4)
    options = [-bets[None, :] * paths * plan.scale * np.ones((comb(n, k), 1), dtype=np.int64)]
    for r in plan.raises.tolist():
        raised = np.full((comb(n, k), BETS), np.iinfo(np.int64).min // 4, dtype=np.int64)
        if k == 4:
            raised[:, :BETS - r] = (bets[:BETS - r] + r)[None, :] * plan.e4[:, None]
        else:
            raised[:, :BETS - r] = plan.w3[:, r:]
        options.append(raised)
    return np.stack(options, axis=2)


def _street(plan: StudPlan, k: int, hands: np.ndarray, family: np.ndarray, order: np.ndarray) -> Thresholds:
    """A street's thresholds: per family, those that lose least against the exact decisions."""
    values = _values(plan, k).astype(np.float64)
    mass = plan.walk(plan.choice3, plan.choice4)[k - 2].astype(np.float64)
    raises = plan.raises.tolist()
    small, big = raises.index(min(raises)), raises.index(max(raises))
    per_hand = np.stack([(mass * values[:, :, j]).sum(axis=1) for j in (0, 1 + small, 1 + big)], axis=1)
    out = []
    for f in range(len(FAMILIES[k])):
        mine = family == f
        if not per_hand[mine].any():  # no such hand, or none reached: fold them
            out.append((_PAST, _PAST))
            continue
        keys, where = np.unique(order[mine], return_inverse=True)
        totals = np.stack([np.bincount(where, weights=per_hand[mine, j], minlength=len(keys)) for j in range(3)], axis=1)
        if small == big:  # one raise allowed: the least is the most (the first equal split found has none)
            totals[:, 1] = totals[:, 2]
        lo, hi = _pick(totals)
        least, most = (int(keys[c]) if c < len(keys) else _PAST for c in (lo, hi))
        out.append((least, most))
    return tuple(out)


_PAST = 99  #: past every ordinal: never


def _words(k: int, thresholds: Thresholds, order: np.ndarray, family: np.ndarray) -> tuple[str, str]:
    """A street's thresholds in words: the hands raising the most, and the least."""
    most, least = [], []
    for f, (lo, hi) in enumerate(thresholds):
        name, mine = FAMILIES[k][f], family == f
        if not mine.any():
            continue
        bottom = int(order[mine].min())
        if hi != _PAST:
            most.append(f"any {name.removeprefix('a ')}" if hi <= bottom else _said(k, f, hi))
        if lo < hi:
            least.append(f"any {'other ' if hi != _PAST else ''}{name.removeprefix('a ')}" if lo <= bottom
                         else _said(k, f, lo))
    return "; ".join(most) or "none", "; ".join(least) or "none"


def street_table(plan: StudPlan, k: int, thresholds: Thresholds) -> np.ndarray:
    """The decision table (k-card hands by bets made: -1 fold, else the raise) of a street's
    thresholds: raise the most from a family's second threshold up, the least from its first."""
    hands = np.array(plan.cards, dtype=np.int64)[positions_of(np.arange(comb(plan.n, k)), k)]
    family, order = stud_families(hands)
    lo = np.array([t[0] for t in thresholds])[family]
    hi = np.array([t[1] for t in thresholds])[family]
    raises = plan.raises.tolist()
    choice = np.where(order >= hi, max(raises), np.where(order >= lo, min(raises), -1))
    return np.repeat(choice[:, None], BETS, axis=1)


def _said(k: int, f: int, least: int) -> str:
    """A family's threshold in words."""
    text = _ORDER[k][f]
    if f == 0:
        return ("three of a kind" if k == 3 else "two pair or better") if least >= 13 else text.format(_PLURAL[least])
    if k == 4 and f == 2:
        return text.format(RANKS[least])
    if k == 3 and f == 1:
        sign = "" if least == 0 else f" {'+' if least > 0 else '-'} {abs(least)}"
        return text.format(f"high cards (J-A) at least as many as its gaps{sign}")
    if k == 3 and f == 3:
        points, fewer = divmod(least, 3)
        gaps = ("no gap", "one gap at most", "two gaps at most")[2 - fewer]
        return (f"three to a straight with {points} points and {gaps}"
                f", or more points")
    return text.format(least)


def stud_rules(plan: StudPlan, fixed: dict[int, Thresholds] | None = None) -> StudRules:
    """The three- and four-card rules of a Mississippi Stud plan (see the module docstring); with
    ``fixed``, those thresholds for a street instead of the best ones (a rule to test)."""
    deck = np.array(plan.cards, dtype=np.int64)
    lines, tables, chosen = [], {}, {}
    big, small = max(plan.raises.tolist()), min(plan.raises.tolist())
    for k, street in ((3, "three cards"), (4, "four cards")):
        hands = deck[positions_of(np.arange(comb(plan.n, k)), k)]
        family, order = stud_families(hands)
        chosen[k] = (fixed or {}).get(k) or _street(plan, k, hands, family, order)
        tables[k] = street_table(plan, k, chosen[k])
        most, least = _words(k, chosen[k], order, family)
        lines.append(f"{street}: raise {big}x with: {most}; raise {small}x with: {least}; fold the rest")
    lines.append("(points: 2 for each card from a jack up, 1 for each from a six to a ten; a gap: a rank missing "
                 "inside the draw)")
    both = plan.expected_of(tables[3], tables[4])
    alone3 = plan.expected_of(tables[3], plan.choice4)
    alone4 = plan.expected_of(plan.choice3, tables[4])
    return StudRules(tuple(lines), chosen[3], chosen[4], tables[3], tables[4], plan.expected, both, alone3, alone4)
