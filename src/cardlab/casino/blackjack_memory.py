"""A split whose second hand is played knowing the first hand's cards, exactly (no resplit).

The split values of :mod:`cardlab.casino.blackjack_split` are for plays that look only at a
hand's own cards. A player who remembers does better on the second hand; this module values
that, to settle the single-deck 2-2 against a 6 dispute (docs/casino.md).

>>> from cardlab.casino.blackjack_rules import Rules
>>> first, second = split_with_memory(Rules(composition=(1, 3, 1, 1, 1, 1, 1, 1, 1, 6), double="9-11"), 5, 1)
>>> second > first
True
"""

from __future__ import annotations

from cardlab.casino.blackjack_engine import Hands, Optimal
from cardlab.casino.blackjack_rules import Rules, hand_of, total_of
from cardlab.errors import BlackjackError

__all__ = ["split_with_memory", "MAX_REMEMBERED_HANDS"]


MAX_REMEMBERED_HANDS = 5000
"""The most first-hand compositions :func:`split_with_memory` values (one table each)."""


def split_with_memory(rules: Rules, up: int, rank: int) -> tuple[float, float]:
    """Split, no resplit, the second hand played knowing the first hand's cards: the exact
    values of the first hand (its own best play, CDP1) and of the second (its best play for
    the shoe less every card seen), each per its bet, joint with no dealer blackjack.

    The first hand's value is the one-hand figure whatever the second hand does (the dealer's
    cards after any stopping rule are a fresh draw); the second hand's is averaged over the
    first hand's final cards, one table per composition (so single and double decks; raises
    :class:`~cardlab.errors.BlackjackError` past :data:`MAX_REMEMBERED_HANDS` compositions).
    """
    first = Hands(rules, up)
    best = Optimal()
    hit = first._plan(best)[0]
    ends: dict[tuple[int, ...], float] = {}

    def play(cards: tuple[int, ...], gone: tuple[int, ...], count: int) -> str:
        i = first.index[(cards, gone)]
        if rank == 0 and count == 2 or total_of(cards)[0] >= 21:
            return "stand"
        values = {"stand": float(first.stand_values[i]), "hit": float(hit[i])}
        if count == 2 and first.may_double(cards, True):
            values["double"] = first.value(cards, gone, "double", best)
        return max(values, key=lambda k: values[k])

    def deal(cards: tuple[int, ...], chance: float, count: int, doubled: bool) -> None:
        gone = tuple(c + (r == rank) for r, c in enumerate(cards))
        act = "stand" if doubled else play(cards, gone, count)
        if act == "stand" or total_of(cards)[0] > 21:
            ends[cards] = ends.get(cards, 0.0) + chance
            if len(ends) > MAX_REMEMBERED_HANDS:
                raise BlackjackError(f"split with memory: more than {MAX_REMEMBERED_HANDS} first hands; "
                                     "use one or two decks")
            return
        left = [b - g for b, g in zip(first.base, gone)]
        size = sum(left)
        for card, n in enumerate(left):
            if n:
                deal(cards[:card] + (cards[card] + 1,) + cards[card + 1:], chance * n / size, count + 1, act == "double")

    shoe = [c - 2 * (r == rank) for r, c in enumerate(first.base)]
    for card, n in enumerate(shoe):
        if n:
            deal(hand_of(rank, card), n / sum(shoe), 2, False)
    second = 0.0
    for cards, chance in ends.items():
        seen = tuple(c - (r == rank) for r, c in enumerate(cards))
        second += chance * Hands(rules, up, tuple(s + r for s, r in zip(seen, first.removed))).split_hand(rank, best)
    return first.split_hand(rank, best), second
