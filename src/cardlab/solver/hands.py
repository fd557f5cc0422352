"""Each player's combos in a spot: cards, weights and showdown strengths, as the engine reads them.

A river spot's combos come from a range (cardlab's syntax, weights included) less those touching
the board; their strengths are the board's seven-card values from :mod:`cardlab.poker.evaluator`.
Toy games (Kuhn poker, :mod:`cardlab.solver.games`) give their own cards and strengths: card ids
52..63 are private marks that no other player holds.

>>> h = river_hands("AA, KK", parse_board("Ah 7c 5d 2s 2h"))
>>> len(h), h.labels[:2]
(9, ['AdAc', 'AsAc'])
>>> river_hands("AhAs", parse_board("Ah 7c 5d 2s 2h"))
Traceback (most recent call last):
...
cardlab.errors.SolverError: range 'AhAs' has no combo left beside the board Ah 7c 5d 2s 2h
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardlab.cards import format_cards, parse_card_ids
from cardlab.errors import SolverError
from cardlab.poker.evaluator import strengths
from cardlab.poker.ranges import parse_range

__all__ = ["Hands", "river_hands", "parse_board", "pair_table", "strength_table"]


@dataclass(frozen=True, eq=False)
class Hands:
    """``cards`` (n, 2) int32 (ids 0..63), ``weights`` (n,) float64, ``strength`` (boards, n)
    int64 (higher wins at showdown; a river spot has one board, a turn spot 53: row ``c + 1`` is
    the board with river card ``c``, -1 for the combos holding it; a flop spot one per turn and
    river pair solved), ``labels`` for people."""

    cards: np.ndarray
    weights: np.ndarray
    strength: np.ndarray
    labels: list[str]

    def __len__(self) -> int:
        return len(self.cards)


def parse_board(text: str, sizes: tuple[int, ...] = (5,)) -> list[int]:
    """Card ids of a board: different cards, as many as one of ``sizes``.

    >>> parse_board("Ah 7c 5d 2s")
    Traceback (most recent call last):
    ...
    cardlab.errors.SolverError: a board has 5 cards here; 'Ah 7c 5d 2s' has 4
    """
    ids = parse_card_ids(text)
    if len(ids) not in sizes:
        raise SolverError(f"a board has {' or '.join(map(str, sizes))} cards here; '{text}' has {len(ids)}")
    if len(set(ids)) != len(ids):
        raise SolverError(f"a card is given twice in board '{text}'")
    return ids


def river_hands(range_text: str, board: list[int], boards: list[tuple[int, ...]] | None = None) -> Hands:
    """The combos of ``range_text`` that miss ``board`` (5 cards: a river spot, 4: a turn spot),
    with their strengths on the river (on each river card for a turn spot). ``boards`` gives the
    cards beside ``board`` of each table of strengths instead (a flop spot's turn and river
    pairs, :class:`~cardlab.solver.suits.Dealer`); -1 where a table's five cards are not whole
    or a combo holds one of them."""
    r = parse_range(range_text).without(set(board))
    if len(r) == 0:
        raise SolverError(f"range '{range_text}' has no combo left beside the board {format_cards(board)}")
    combos = r.combos.astype(np.int32)
    if boards is None:
        boards = [()] if len(board) == 5 else [()] + [(c,) for c in range(52)]
    return Hands(combos, r.weights.astype(np.float64), strength_table(combos, board, boards), r.labels())


def strength_table(combos: np.ndarray, board: list[int], boards: list[tuple[int, ...]]) -> np.ndarray:
    """(len(boards), n) strengths of the ``combos`` on ``board`` with each of ``boards``' cards
    beside it; -1 where the five cards are not whole or a combo holds one of them."""
    table = np.full((len(boards), len(combos)), -1, dtype=np.int64)
    for row, extra in enumerate(boards):
        if len(board) + len(extra) != 5 or set(extra) & set(board):
            continue
        live = ~np.isin(combos, extra).any(axis=1)
        table[row, live] = _strengths(combos[live], board + list(extra))
    return table


def _strengths(combos: np.ndarray, board: list[int]) -> np.ndarray:
    seven = np.concatenate([combos, np.broadcast_to(np.array(board, np.int32), (len(combos), 5))], axis=1)
    out: np.ndarray = strengths(seven).astype(np.int64)
    return out


def pair_table(mine: Hands, other: Hands) -> np.ndarray:
    """The engine's (boards, n, 5) int32 rows of ``mine``: two cards, dense strength rank on the
    board (shared with ``other``), the index of the same two cards in ``other`` (-1 none), the
    k-th weakest."""
    where = {tuple(sorted(map(int, c))): i for i, c in enumerate(other.cards)}
    same = [where.get(tuple(sorted(map(int, c))), -1) for c in mine.cards]
    rows = np.zeros((len(mine.strength), len(mine), 5), dtype=np.int32)
    for b, (strength, theirs) in enumerate(zip(mine.strength, other.strength)):
        levels = np.unique(np.concatenate([strength, theirs]))
        rows[b, :, :2] = mine.cards
        rows[b, :, 2] = np.searchsorted(levels, strength)
        rows[b, :, 3] = same
        rows[b, :, 4] = np.argsort(rows[b, :, 2], kind="stable")
    return rows
