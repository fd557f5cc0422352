"""The cards chance deals on a flop or turn spot's later streets, grouped by suit isomorphism.

A suit permutation (clubs to hearts, ...) that maps the board onto itself and each player's
range onto itself (every combo to a combo of the same weight) maps the game onto itself: the
subtree below the turn card 7h is the image of the one below 7d, with each combo's value that
of its image. So at a chance node only one card of each class (its *representative*, the
lowest id) is solved, and each other card of the class takes the representative's values
through the permutation: the idea the open solvers use (b-inary's postflop-solver calls them
isomorphic chances; K. Waugh, "A fast and optimal hand isomorphism algorithm", AAAI 2013
workshop, counts the classes). Below a dealt card only the permutations that fix it count.

Card ids are ``rank * 4 + suit`` (:mod:`cardlab.cards`).

>>> from cardlab.cards import parse_card_ids
>>> d = Dealer(parse_card_ids("Qs Jh 2h"), 2)   # no ranges given: every permutation fixing the board
>>> len(d.perms), len(d.deal(())), len(d.classes(()))
(2, 49, 36)
>>> d.table(tuple(parse_card_ids("3d 4d")))
Traceback (most recent call last):
...
ValueError: 3d 4d is not a representative pair of cards
"""

from __future__ import annotations

from itertools import permutations
from typing import Sequence

import numpy as np

from cardlab.cards import format_cards

__all__ = ["Dealer", "suit_maps"]

_ALL = tuple(permutations(range(4)))


def suit_maps(board: Sequence[int], ranges: Sequence[tuple[np.ndarray, np.ndarray]] = ()) -> list[tuple[int, ...]]:
    """The suit permutations (``perm[suit]`` the new suit; the identity first) that map the board
    onto itself and every ``(cards, weights)`` range onto itself, each combo's weight kept."""
    out = []
    for perm in _ALL:
        move = np.array([rank * 4 + perm[suit] for rank in range(13) for suit in range(4)])
        if sorted(move[list(board)]) != sorted(board):
            continue
        if all(_keeps(cards, weights, move) for cards, weights in ranges):
            out.append(perm)
    return out


def _keeps(cards: np.ndarray, weights: np.ndarray, move: np.ndarray) -> bool:
    if (cards > 51).any():
        return False
    key = np.sort(cards, axis=1) @ np.array([1, 64])
    moved = np.sort(move[cards], axis=1) @ np.array([1, 64])
    where = dict(zip(key.tolist(), weights.tolist()))
    return all(where.get(k, -1.0) == w for k, w in zip(moved.tolist(), weights.tolist()))


class Dealer:
    """The later streets of a spot whose ``board`` has 3 or 4 cards (``streets`` cards still to
    come: 2 on the flop, 1 on the turn), with the suit permutations ``perms`` that fix the board
    and the ranges (:func:`suit_maps`). ``deal(dealt)`` lists each card chance may deal next
    after the cards ``dealt`` with its representative and the permutation taking one to the
    other; ``table(dealt)`` numbers the board a showdown below reads (its strengths' row)."""

    def __init__(self, board: Sequence[int], streets: int, perms: Sequence[tuple[int, ...]] | None = None) -> None:
        self.board = list(board)
        self.streets = streets
        self.perms = list(perms) if perms is not None else suit_maps(board)
        self._move = [np.array([r * 4 + p[s] for r in range(13) for s in range(4)]) for p in self.perms]
        self.boards: list[tuple[int, ...]] = [()]  # a table's cards beside the board, table 0 none
        self._tables: dict[tuple[int, ...], int] = {}
        if streets == 1:
            self.boards += [(c,) for c in range(52)]  # a turn spot: table c + 1 is river card c
            self._tables = {(c,): c + 1 for c in range(52)}
        else:
            for turn in self.classes(()):
                for river in self.classes((turn,)):
                    pair = (min(turn, river), max(turn, river))  # the same five cards, the same table
                    if pair not in self._tables:
                        self._tables[pair] = len(self.boards)
                        self.boards.append(pair)

    def deal(self, dealt: tuple[int, ...]) -> list[tuple[int, int, int]]:
        """``(card, representative, permutation index)`` for each card left after ``dealt``
        (the representative is the card itself, with permutation 0, for the cards solved)."""
        left = [c for c in range(52) if c not in self.board and c not in dealt]
        fixing = [k for k, move in enumerate(self._move) if all(move[c] == c for c in dealt)]
        out = []
        for card in left:  # the class of a card is its images; the identity (index 0) comes first
            rep = min(int(self._move[k][card]) for k in fixing)
            out.append((card, rep, next(k for k in fixing if self._move[k][rep] == card)))
        return out

    def classes(self, dealt: tuple[int, ...]) -> list[int]:
        """The representatives of the cards left after ``dealt``."""
        return [card for card, rep, _ in self.deal(dealt) if card == rep]

    def table(self, dealt: tuple[int, ...]) -> int:
        """The strengths' row of the board with the cards ``dealt`` (0 before the last street)."""
        if len(dealt) < self.streets:
            return 0
        pair = tuple(sorted(dealt))
        if pair not in self._tables:
            raise ValueError(f"{format_cards(dealt)} is not a representative pair of cards")
        return self._tables[pair]
