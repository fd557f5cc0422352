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
from cardlab.errors import SolverError, number_argument, text_argument, whole_argument
from cardlab.solver.hands import Hands, pair_table, parse_board, river_hands, strength_table
from cardlab.solver.suits import Dealer, suit_maps
from cardlab.solver.tree import CHANCE, DECISION, ISO, MAX_CHIPS, BetSizes, Tree, build_tree

__all__ = ["Game", "river_game", "TABLE_DTYPE", "river_game_check"]

TABLE_DTYPE = np.dtype(np.float32)
"""The type of a regret or a strategy sum in the engine's tables (the compiled core's ``cell_t``)."""
_MAX_WEIGHT = 1e12  # a combo's weight at most (the compiled core's MAX_WEIGHT: its 4-byte tables cannot overflow)


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
            if h.cards.min() < 0 or h.cards.max() > 63 or not (h.weights.min() >= 0 and h.weights.max() <= _MAX_WEIGHT):
                raise SolverError(f"combo cards are ids 0..63 and weights are numbers from 0 to {_MAX_WEIGHT:g}")
        tree = self.tree
        sizes = np.where(tree.kind == DECISION, tree.count * np.array([len(h) for h in self.hands])[tree.player % 2], 0)
        offsets = (np.cumsum(sizes) - sizes).astype(np.int64)
        total = int(sizes.sum())
        if total > 2**31 - 1:
            raise SolverError("the tree is too large for the engine: give fewer bet sizes")
        tables = {h.strength.shape[0] for h in self.hands}
        if len(tables) != 1 or min(tables) <= tree.board.max() or (tree.board.max() == 0 and min(tables) != 1):
            raise SolverError("both players' strengths cover the boards of the tree")
        assert tree.card is not None and tree.link is not None and tree.perm is not None
        nodes = np.zeros((tree.size, 8), dtype=np.int32)
        nodes[:, 0], nodes[:, 1], nodes[:, 2] = tree.kind, tree.first, tree.count
        nodes[:, 3], nodes[:, 4], nodes[:, 6], nodes[:, 7] = offsets, tree.player, tree.board, tree.card
        chances = np.flatnonzero(tree.kind == CHANCE)
        top = chances[[not _below_chance(tree, int(c)) for c in chances]]
        nodes[chances, 3] = -1
        nodes[top, 3] = np.arange(len(top))  # a first-level chance node's slot (threaded walks)
        perms = _perm_rows(tree.suit_perms, self.hands)
        iso = np.flatnonzero(tree.kind == ISO)
        nodes[iso, 1] = tree.link[iso]
        nodes[iso, 3] = len(tree.children) + tree.perm[iso] * perms.shape[1]
        rows = np.concatenate([pair_table(self.hands[0], self.hands[1]), pair_table(self.hands[1], self.hands[0])],
                              axis=1)
        for p, part in ((0, rows[0, :len(self.hands[0])]), (1, rows[0, len(self.hands[0]):])):
            same = part[:, 3] >= 0
            if (self.hands[p].strength[:, same] != self.hands[1 - p].strength[:, part[same, 3]]).any():
                raise SolverError("the same two cards must have the same strength for both players")
        object.__setattr__(self, "nodes", nodes)
        object.__setattr__(self, "children", np.concatenate([tree.children, perms.ravel()]).astype(np.int32))
        object.__setattr__(self, "hand_rows", rows)
        rakes = tree.rakes()  # the engine's amounts, then each terminal's rake when there is one
        object.__setattr__(self, "payoffs", np.concatenate([tree.amount, rakes]) if rakes.any() else tree.amount)
        object.__setattr__(self, "weights", np.concatenate([h.weights for h in self.hands]).astype(np.float64))
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "table_size", total)

    nodes: np.ndarray = field(init=False, repr=False)
    children: np.ndarray = field(init=False, repr=False)  # the tree's, then each suit permutation's combo rows
    hand_rows: np.ndarray = field(init=False, repr=False)
    payoffs: np.ndarray = field(init=False, repr=False)
    weights: np.ndarray = field(init=False, repr=False)
    offsets: np.ndarray = field(init=False, repr=False)
    table_size: int = field(init=False, repr=False)

    def memory_bytes(self) -> int:
        """What a solve holds: regrets and strategy sums (4 bytes a cell each,
        :data:`TABLE_DTYPE`), the walk's scratch (a few rows of 8-byte values per level of the tree),
        the tables, and on a turn spot the threaded route's rows per chance node and card."""
        depth = _depth(self.tree)
        widest = int(self.tree.count.max())
        most = max(len(h) for h in self.hands)
        chance = self.nodes[:, 3] >= 0  # the threaded route's reaches and values per first-level card
        chance &= self.tree.kind == CHANCE
        threaded = 8 * most * (3 * int(chance.sum()) + int(self.tree.count[chance].sum()))
        return (2 * TABLE_DTYPE.itemsize * self.table_size + 8 * (depth + 2) * (2 * widest + 2) * most
                + self.nodes.nbytes + self.hand_rows.nbytes + threaded)


def _depth(tree: Tree) -> int:
    at, depth = np.arange(tree.size), 0
    while (at > 0).any():
        at, depth = np.where(at > 0, tree.parent[np.maximum(at, 0)], 0), depth + 1
    return depth


def _below_chance(tree: Tree, node: int) -> bool:
    node = int(tree.parent[node])
    while node >= 0 and tree.kind[node] != CHANCE:
        node = int(tree.parent[node])
    return node >= 0


def _perm_rows(perms: tuple[tuple[int, ...], ...], hands: tuple[Hands, Hands]) -> np.ndarray:
    """Per suit permutation, the index of each combo's image among its player's combos (OOP's,
    then IP's); each must map both ranges onto themselves, weights kept."""
    out = np.zeros((len(perms), sum(len(h) for h in hands)), dtype=np.int32)
    for k, perm in enumerate(perms):
        move = np.array([r * 4 + perm[s] for r in range(13) for s in range(4)] + list(range(52, 64)))
        row = []
        for h in hands:
            where = {tuple(sorted(c)): i for i, c in enumerate(h.cards.tolist())}
            image = np.array([where.get(tuple(sorted(move[c].tolist())), -1) for c in h.cards])
            if image.min() < 0 or (h.weights[image] != h.weights).any():
                raise SolverError(f"the suit permutation {perm} of the tree does not map a range onto itself: "
                                  f"build the tree's dealer from the ranges (suit_maps)")
            row.append(image)
        out[k] = np.concatenate(row)
    return out


def river_game(oop: str, ip: str, board: str, *, pot: float, stack: float, oop_bet: str = "", oop_raise: str = "",
               ip_bet: str = "", ip_raise: str = "", allin_threshold: float = 0.15, max_raises: int = 3,
               river: Mapping[str, str] | None = None, turn: Mapping[str, str] | None = None,
               suits: bool = True, oop_donk: str | None = None, rake: float = 0.0, rake_cap: float = 0.0) -> Game:
    """A heads-up spot: ranges (cardlab's syntax, weights allowed), the board, the pot before this
    street's bets, each player's stack behind and the sizes (:class:`BetSizes`). Five board
    cards make a river spot; four a turn spot, its river cards dealt by a chance node (about 45
    times the river's memory and time); three a flop spot, turn then river cards dealt. ``turn``
    and ``river`` give a later street's sizes where they differ from this street's (keys
    ``oop_bet``, ``oop_raise``, ``ip_bet``, ``ip_raise``). With ``suits`` a card that a suit
    permutation fixing the board and both ranges maps to a lower one is solved as that one
    (:mod:`cardlab.solver.suits`). ``oop_donk`` gives OOP's bet sizes on the turn and river
    when it leads into the player who bet or raised last on the street before (a donk bet; None:
    its usual sizes, '' none); ``rake`` the house's share of each pot, at most ``rake_cap`` chips
    (0: no cap)."""
    river_game_check(oop, ip, board, pot=pot, stack=stack, oop_bet=oop_bet, oop_raise=oop_raise, ip_bet=ip_bet,
                     ip_raise=ip_raise, allin_threshold=allin_threshold, max_raises=max_raises, river=river, turn=turn,
                     suits=suits, oop_donk=oop_donk, rake=rake, rake_cap=rake_cap)
    cards = parse_board(board, (3, 4, 5))
    given = {"oop_bet": oop_bet, "oop_raise": oop_raise, "ip_bet": ip_bet, "ip_raise": ip_raise}
    streets = 5 - len(cards)
    for name, extra, allowed in (("river", river, streets >= 1), ("turn", turn, streets == 2)):
        if extra and (not set(extra) <= set(given) or not allowed):
            raise SolverError(f"{name} sizes are given for a spot before the {name}, as oop_bet, oop_raise, ip_bet "
                              f"and ip_raise")
    turn_text = {**given, **(turn or {})}
    later = ([turn_text] if streets == 2 else []) + ([{**given, **(river or {})}] if streets else [])

    def parsed(text: Mapping[str, str]) -> tuple[BetSizes, BetSizes]:
        return BetSizes.parse(text["oop_bet"], text["oop_raise"]), BetSizes.parse(text["ip_bet"], text["ip_raise"])

    hands = [river_hands(oop, cards, [()]), river_hands(ip, cards, [()])]
    dealer = None
    if streets:
        perms = suit_maps(cards, [(h.cards, h.weights) for h in hands]) if suits else [(0, 1, 2, 3)]
        dealer = Dealer(cards, streets, perms)
        hands = [Hands(h.cards, h.weights, strength_table(h.cards, cards, dealer.boards), h.labels) for h in hands]
    donk = None if oop_donk is None else BetSizes.parse(oop_donk, "")
    tree = build_tree(pot, stack, parsed(given), allin_threshold=allin_threshold, max_raises=max_raises,
                      dealer=dealer, later_sizes=[parsed(t) for t in later], donk=[donk] * len(later), rake=rake,
                      rake_cap=rake_cap)
    spec = {"game": ("flop", "turn", "river")[len(cards) - 3], "oop": oop, "ip": ip, "board": format_cards(cards),
            "pot": pot, "stack": stack,
            "oop_bet": oop_bet, "oop_raise": oop_raise, "ip_bet": ip_bet, "ip_raise": ip_raise,
            "allin_threshold": allin_threshold, "max_raises": max_raises, "river": dict(river or {}),
            "turn": dict(turn or {}), "suits": suits, "oop_donk": oop_donk, "rake": rake, "rake_cap": rake_cap}
    return Game(tree, (hands[0], hands[1]), spec)


def river_game_check(oop: object, ip: object, board: object, *, pot: object, stack: object, oop_bet: object = "",
                     oop_raise: object = "", ip_bet: object = "", ip_raise: object = "", allin_threshold: object = 0.15,
                     max_raises: object = 3, river: object = None, turn: object = None, suits: object = True,
                     oop_donk: object = None, rake: object = 0.0, rake_cap: object = 0.0) -> None:
    """:func:`river_game`'s arguments checked before any work (``board`` None: not checked, as for
    a report over flops), each error naming the value: NaN, infinities, text where a number goes,
    a float count, a number where a text goes; the tree builder then compares only numbers.

    >>> river_game_check("AA", "KK", None, pot=10, stack=float("inf"))
    Traceback (most recent call last):
    ...
    cardlab.errors.SolverError: the stack must be a number at least 0 and at most 1e+09, not inf
    """
    for text, what in ((oop, "OOP's range"), (ip, "IP's range"), *(((board, "the board"),) if board is not None else ())):
        text_argument(text, what, SolverError)
    number_argument(pot, "the pot", SolverError, 0, MAX_CHIPS, low_open=True)
    number_argument(stack, "the stack", SolverError, 0, MAX_CHIPS)
    number_argument(allin_threshold, "the all-in threshold", SolverError, 0, 10)
    whole_argument(max_raises, "the raises allowed after a bet", SolverError, 0, 16)
    number_argument(rake, "the rake (a share of the pot)", SolverError, 0, 1, high_open=True)
    number_argument(rake_cap, "the rake cap (chips, 0: none)", SolverError, 0, MAX_CHIPS)
    for name, text in (("oop_bet", oop_bet), ("oop_raise", oop_raise), ("ip_bet", ip_bet), ("ip_raise", ip_raise),
                       *((("oop_donk", oop_donk),) if oop_donk is not None else ())):
        text_argument(text, f"{name} (bet sizes such as '33%, 75%')", SolverError)
    for name, extra in (("river", river), ("turn", turn)):
        if extra is not None and (not isinstance(extra, Mapping) or
                                  not all(isinstance(k, str) and isinstance(v, str) for k, v in extra.items())):
            raise SolverError(f"{name} sizes are a mapping of oop_bet, oop_raise, ip_bet and ip_raise to size texts, "
                              f"not {extra!r:.60}")
    if not isinstance(suits, bool):
        raise SolverError(f"suits is true or false, not {suits!r:.40}")
