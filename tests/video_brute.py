"""An independent oracle for video poker: plain loops over every deal, hold and draw of a small
deck, with its own hand evaluator (wild cards by trying every substitution).

Cards are (rank, suit) with rank 0..12 = 2..A, suit 0..3, or None for a joker. Nothing here
uses cardlab's kernels or pay-table code.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Callable, Sequence

Card = tuple[int, int] | None
# a rule maps a final hand to the outcome name it pays
Rule = Callable[[Sequence[Card]], str]

_STRAIGHTS = [frozenset(range(lo, lo + 5)) for lo in range(9)] + [frozenset({12, 0, 1, 2, 3})]


def natural(cards: Sequence[tuple[int, int]]) -> tuple[str, tuple[int, ...]]:
    """Category of five natural cards and the ranks that matter (pair rank; quad rank, kicker)."""
    ranks = [r for r, _ in cards]
    counts = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    flush = len({s for _, s in cards}) == 1
    straight = len(set(ranks)) == 5 and frozenset(ranks) in _STRAIGHTS
    if straight and flush:
        return ("royal flush" if set(ranks) == {8, 9, 10, 11, 12} else "straight flush"), ()
    if counts[0][0] == 5:
        return "five of a kind", ()
    if counts[0][0] == 4:
        return "four of a kind", (counts[0][1], counts[1][1])
    if counts[0][0] == 3 and counts[1][0] == 2:
        return "full house", ()
    if flush:
        return "flush", ()
    if straight:
        return "straight", ()
    if counts[0][0] == 3:
        return "three of a kind", ()
    if counts[0][0] == 2 and counts[1][0] == 2:
        return "two pair", ()
    if counts[0][0] == 2:
        return "pair", (counts[0][1],)
    return "nothing", ()


def jacks_or_better(pays: dict[str, int], low_pair: int = 9) -> Callable[[Sequence[Card]], int]:
    """Pay of a hand in a jacks-or-better style game (no wild cards)."""
    def pay(hand: Sequence[Card]) -> int:
        name, ranks = natural([c for c in hand if c is not None])
        if name == "pair":
            return pays["pair"] if ranks[0] >= low_pair else 0
        if name == "five of a kind" and name not in pays:
            name = "four of a kind"
        return pays.get(name, 0)
    return pay


def double_double_bonus(hand: Sequence[Card]) -> int:
    """Pay of a hand in Double Double Bonus 9/6 (kicker quads)."""
    name, ranks = natural([c for c in hand if c is not None])
    if name == "five of a kind":  # several decks: four of a kind with a kicker of its rank
        name, ranks = "four of a kind", (hand[0][0], hand[0][0])  # type: ignore[index]
    if name == "four of a kind":
        quad, kicker = ranks
        if quad == 12:
            return 400 if kicker in (0, 1, 2) else 160
        if quad in (0, 1, 2):
            return 160 if kicker in (12, 0, 1, 2) else 80
        return 50
    if name == "pair":
        return 1 if ranks[0] >= 9 else 0
    return {"royal flush": 800, "straight flush": 50, "full house": 9, "flush": 6, "straight": 4,
            "three of a kind": 3, "two pair": 1}.get(name, 0)


def wild_game(pays: dict[str, int], deuces: bool, low_pair: int | None = None) -> Callable[[Sequence[Card]], int]:
    """Pay of a hand with wild cards: the best over every substitution of the wild cards (repeats
    allowed); natural royal and four deuces as special outcomes. Substitutes are every rank in
    the suit of the first natural card and in one other suit: only a flush needs a particular
    suit, so these reach every category any of the 52 cards would."""

    def value(name: str, ranks: tuple[int, ...], wild: int) -> int:
        if name == "royal flush" and wild:
            name = "wild royal flush"
        if name == "pair":
            return pays["pair"] if low_pair is not None and ranks[0] >= low_pair else 0
        if name == "five of a kind":
            return max(pays.get(name, 0), pays.get("four of a kind", 0))
        return pays.get(name, pays.get("straight flush", 0) if name == "wild royal flush" else 0)

    def pay(hand: Sequence[Card]) -> int:
        wild = [c for c in hand if c is None or (deuces and c[0] == 0)]
        kept = [c for c in hand if not (c is None or (deuces and c[0] == 0))]
        best = 0
        if deuces and sum(1 for c in hand if c is not None and c[0] == 0) == 4:
            best = pays.get("four deuces", 0)
        if not wild:
            return max(best, value(*natural(kept), 0))  # type: ignore[arg-type]
        first = kept[0][1] if kept else 0
        everything = [(r, s) for r in range(13) for s in (first, (first + 1) % 4)]
        for subs in combinations_with_replacement(everything, len(wild)):
            best = max(best, value(*natural(kept + list(subs)), len(wild)))  # type: ignore[arg-type]
        return best
    return pay


def optimal_return(deck: Sequence[Card], pay: Callable[[Sequence[Card]], int]) -> tuple[Fraction, dict[int, int]]:
    """The return of optimal play on ``deck`` by plain loops (every deal, every hold, every draw),
    and the weighted count of each final pay (each deal weighted by the lcm of the draw counts).

    Ties between holds of equal expected pay: the lower mean square pay, then more cards held,
    then the lower bit mask over the dealt cards in deck order (as cardlab documents)."""
    n = len(deck)
    positions = range(n)

    @lru_cache(maxsize=None)
    def final(hand: tuple[int, ...]) -> int:
        return pay([deck[i] for i in hand])

    from math import comb, lcm
    from functools import reduce
    big = reduce(lcm, [comb(n - 5, k) for k in range(6)])
    total = Fraction(0)
    tally: dict[int, int] = {}
    deals = 0
    for dealt in combinations(positions, 5):
        deals += 1
        rest = [i for i in positions if i not in dealt]
        best_key = None
        best_dist: dict[int, int] = {}
        for mask in range(32):
            held = tuple(dealt[j] for j in range(5) if mask >> j & 1)
            dist: dict[int, int] = {}
            draws = 0
            for drawn in combinations(rest, 5 - len(held)):
                value = final(tuple(sorted(held + drawn)))
                dist[value] = dist.get(value, 0) + 1
                draws += 1
            weight = big // draws
            mean = sum(v * c for v, c in dist.items()) * weight
            square = sum(v * v * c for v, c in dist.items()) * weight
            key = (mean, -square, len(held), -mask)
            if best_key is None or key > best_key:
                best_key = key
                best_dist = {v: c * weight for v, c in dist.items()}
        total += Fraction(best_key[0], big)  # type: ignore[index]
        for v, c in best_dist.items():
            tally[v] = tally.get(v, 0) + c
    return total / deals, tally
