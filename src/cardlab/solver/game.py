"""A game the engine solves: a betting tree and each player's combos, laid out as its tables.

>>> g = river_game("AA, 72o", "KK", "Ah 7c 5d 2s 3h", pot=10, stack=10, oop_bet="100%")
>>> g.tree.size, len(g.hands[0]), len(g.hands[1]), g.table_size
(6, 10, 6, 38)
>>> g.memory_bytes() < 10_000
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from cardlab.cards import format_cards
from cardlab.errors import SolverError
from cardlab.solver.hands import Hands, pair_table, parse_board, river_hands
from cardlab.solver.tree import CHANCE, DECISION, BetSizes, Tree, build_tree

__all__ = ["Game", "river_game"]


@dataclass(frozen=True, eq=False)
class Game:
    """``tree``, ``hands`` (OOP's, IP's) and ``spec`` (what made it: saved with a solution, so a
    reload rebuilds the same game). ``nodes``, ``hand_rows``, ``weights`` are the engine's tables."""

    tree: Tree
    hands: tuple[Hands, Hands]
    spec: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for p in (0, 1):
            h = self.hands[p]
            if len(h) == 0 or len(h) > 4096:
                raise SolverError(f"a player has 1 to 4,096 combos, not {len(h)}")
            if h.cards.min() < 0 or h.cards.max() > 63 or not np.isfinite(h.weights).all() or h.weights.min() < 0:
                raise SolverError("combo cards are ids 0..63 and weights are numbers from 0 up")
        offsets = np.zeros(self.tree.size, dtype=np.int64)
        total = 0
        for node in np.flatnonzero(self.tree.kind == DECISION):
            offsets[node] = total
            total += int(self.tree.count[node]) * len(self.hands[int(self.tree.player[node])])
        if total > 2**31 - 1:
            raise SolverError("the tree is too large for the engine: give fewer bet sizes")
        tables = {h.strength.shape[0] for h in self.hands}
        if len(tables) != 1 or min(tables) <= self.tree.board.max() or (self.tree.board.max() == 0 and min(tables) != 1):
            raise SolverError("both players' strengths cover the boards of the tree")
        nodes = np.zeros((self.tree.size, 7), dtype=np.int32)
        nodes[:, 0], nodes[:, 1], nodes[:, 2] = self.tree.kind, self.tree.first, self.tree.count
        nodes[:, 3], nodes[:, 4], nodes[:, 6] = offsets, self.tree.player, self.tree.board
        chances = np.flatnonzero(self.tree.kind == CHANCE)
        nodes[chances, 3] = np.arange(len(chances))  # a chance node's slot (threaded walks)
        rows = np.concatenate([pair_table(self.hands[0], self.hands[1]), pair_table(self.hands[1], self.hands[0])],
                              axis=1)
        for p, part in ((0, rows[0, :len(self.hands[0])]), (1, rows[0, len(self.hands[0]):])):
            same = part[:, 3] >= 0
            if (self.hands[p].strength[:, same] != self.hands[1 - p].strength[:, part[same, 3]]).any():
                raise SolverError("the same two cards must have the same strength for both players")
        object.__setattr__(self, "nodes", nodes)
        object.__setattr__(self, "hand_rows", rows)
        object.__setattr__(self, "weights", np.concatenate([h.weights for h in self.hands]).astype(np.float64))
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "table_size", total)

    nodes: np.ndarray = field(init=False, repr=False)
    hand_rows: np.ndarray = field(init=False, repr=False)
    weights: np.ndarray = field(init=False, repr=False)
    offsets: np.ndarray = field(init=False, repr=False)
    table_size: int = field(init=False, repr=False)

    def memory_bytes(self) -> int:
        """What a solve holds: regrets and strategy sums (8 bytes a cell each), the walk's scratch
        (a few rows of values per level of the tree), the tables, and on a turn spot the threaded
        route's rows per chance node and card."""
        depth = _depth(self.tree)
        widest = int(self.tree.count.max())
        most = max(len(h) for h in self.hands)
        chance = self.tree.kind == CHANCE  # the threaded route's reaches and values per card
        threaded = 8 * most * (3 * int(chance.sum()) + int(self.tree.count[chance].sum()))
        return (16 * self.table_size + 8 * (depth + 2) * (2 * widest + 2) * most + self.nodes.nbytes
                + self.hand_rows.nbytes + threaded)


def _depth(tree: Tree) -> int:
    depth = np.zeros(tree.size, dtype=np.int64)
    for node in range(1, tree.size):
        depth[node] = depth[tree.parent[node]] + 1
    return int(depth.max())


def river_game(oop: str, ip: str, board: str, *, pot: float, stack: float, oop_bet: str = "", oop_raise: str = "",
               ip_bet: str = "", ip_raise: str = "", allin_threshold: float = 0.15, max_raises: int = 3,
               river: Mapping[str, str] | None = None) -> Game:
    """A heads-up river spot: ranges (cardlab's syntax, weights allowed), five board cards, the pot
    before the river bets, each player's stack behind and the sizes (:class:`BetSizes`). Four
    board cards make a turn spot, its river cards dealt by chance nodes (about 45 times the
    river's memory and time); ``river`` gives its river sizes where they differ from the turn's
    (keys ``oop_bet``, ``oop_raise``, ``ip_bet``, ``ip_raise``)."""
    cards = parse_board(board, (4, 5))
    sizes = (BetSizes.parse(oop_bet, oop_raise), BetSizes.parse(ip_bet, ip_raise))
    rivers = [c for c in range(52) if c not in cards] if len(cards) == 4 else []
    given = {"oop_bet": oop_bet, "oop_raise": oop_raise, "ip_bet": ip_bet, "ip_raise": ip_raise}
    later = {**given, **(river or {})}
    if set(later) != set(given) or (river and not rivers):
        raise SolverError("river sizes are given for a turn spot, as oop_bet, oop_raise, ip_bet and ip_raise")
    river_sizes = (BetSizes.parse(later["oop_bet"], later["oop_raise"]), BetSizes.parse(later["ip_bet"], later["ip_raise"]))
    tree = build_tree(pot, stack, sizes, allin_threshold=allin_threshold, max_raises=max_raises, river_cards=rivers,
                      river_sizes=river_sizes)
    spec = {"game": "river" if len(cards) == 5 else "turn", "oop": oop, "ip": ip, "board": format_cards(cards),
            "pot": pot, "stack": stack,
            "oop_bet": oop_bet, "oop_raise": oop_raise, "ip_bet": ip_bet, "ip_raise": ip_raise,
            "allin_threshold": allin_threshold, "max_raises": max_raises, "river": dict(river or {})}
    return Game(tree, (river_hands(oop, cards), river_hands(ip, cards)), spec)
