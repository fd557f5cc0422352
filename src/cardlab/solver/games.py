"""Known games built for the engine: Kuhn poker, and the river clairvoyance game of Chen and
Ankenman on a real board.

Kuhn poker (H. W. Kuhn, 1950): three cards J < Q < K, one to each player, an ante of 1 each, one
bet of 1 with no raise; the first player's value is -1/18. It is a river spot with a pot of 2, a
stack of 1 and bets of 50% of the pot, whose "combos" are single cards (each paired with a
private mark, card ids 52..57, so only the real card blocks).

Leduc hold'em (F. Southey et al., "Bayes' Bluff: Opponent Modelling in Poker", 2005): six cards
(J, Q, K in two suits), one private card each, an ante of 1; a betting round with bets of 2, a
public card dealt by a chance node, a round with bets of 4; at most a bet and a raise a round,
the first player acting first in both; a pair with the public card wins, else the higher card.
Its first player's value is -0.0856 (-0.08560642418 in OpenSpiel's tests of its regret minimisers).

>>> g = kuhn()
>>> g.tree.size, [h.labels for h in g.hands][0]
(9, ['J', 'Q', 'K'])
>>> leduc().tree.size, leduc().tree.decision_count
(465, 186)
"""

from __future__ import annotations

import numpy as np

from cardlab.solver.game import Game, river_game
from cardlab.solver.hands import Hands
from cardlab.solver.tree import CHANCE, DECISION, FOLD, SHOWDOWN, BetSizes, Tree, build_tree

__all__ = ["kuhn", "clairvoyance", "leduc"]


def kuhn() -> Game:
    """Kuhn poker as a river tree (value -1/18 to the first player)."""
    tree = build_tree(2.0, 1.0, (BetSizes.parse("50%", ""), BetSizes.parse("50%", "")))

    def hands(mark: int) -> Hands:
        cards = np.array([[c, mark + c] for c in range(3)], dtype=np.int32)
        return Hands(cards, np.ones(3), np.arange(3, dtype=np.int64)[None, :], ["J", "Q", "K"])

    return Game(tree, (hands(52), hands(55)), {"game": "kuhn"})


def clairvoyance(b: float, value: float = 1.0, bluffs: float = 1.0) -> Game:
    """The clairvoyance game (B. Chen and J. Ankenman, *The Mathematics of Poker*, 2006) on the board
    2c 3d 7h 9s Kc: OOP holds a bluff-catcher (KhQh, top pair), IP a polar range of sets (9h9d,
    weight ``value``) and air (6d5d, weight ``bluffs``) and may bet ``b`` times the pot once; OOP
    can only check, then call or fold. No card is shared, so no combo blocks another."""
    return river_game("KhQh", f"9h9d:{value}, 6d5d:{bluffs}", "2c 3d 7h 9s Kc", pot=1.0, stack=max(b, 1.0) * 10,
                      ip_bet=f"{b * 100:g}%", allin_threshold=0.0)


def leduc() -> Game:
    """Leduc hold'em through the engine: cards 0..5 are J, J, Q, Q, K, K (rank = card // 2)."""
    nodes: list[list[float]] = []  # kind, player, parent, amount, board
    kids: dict[int, list[int]] = {}
    labels: list[str] = []

    def add(parent: int, label: str, kind: int, player: int, amount: float, board: int) -> int:
        nodes.append([kind, player, parent, amount, board])
        labels.append(label)
        kids.setdefault(parent, []).append(len(nodes) - 1)
        return len(nodes) - 1

    def betting(parent: int, label: str, put: tuple[float, float], p: int, bets: int, street: int, board: int) -> int:
        node = add(parent, label, DECISION, p, 0.0, board)
        size = 2.0 if street == 0 else 4.0
        facing = put[1 - p] - put[p]
        if facing == 0:
            if p == 0 and bets == 0:
                betting(node, "X", put, 1, 0, street, board)
            else:
                end(node, "X", put, street, board)
        else:
            add(node, "F", FOLD, p, put[p], board)
            end(node, "C", (put[1 - p], put[1 - p]), street, board)
        if bets < 2:
            to = put[1 - p] + size
            after = (to, put[1]) if p == 0 else (put[0], to)
            betting(node, "B" if facing == 0 else "R", after, 1 - p, bets + 1, street, board)
        return node

    def end(parent: int, label: str, put: tuple[float, float], street: int, board: int) -> None:
        if street == 1:
            add(parent, label, SHOWDOWN, -1, put[0], board)
            return
        chance = add(parent, label, CHANCE, -1, 0.25, 0)
        for card in range(6):
            betting(chance, "JJQQKK"[card] + "ab"[card % 2], put, 0, 0, 1, card + 1)

    betting(-1, "", (1.0, 1.0), 0, 0, 0, 0)
    order = sorted(kids)
    first, count = [0] * len(nodes), [0] * len(nodes)
    children: list[int] = []
    for parent in order:
        if parent >= 0:
            first[parent], count[parent] = len(children), len(kids[parent])
            children.extend(kids[parent])
    table = np.array(nodes)

    def ints(values: object) -> np.ndarray:
        return np.asarray(values, dtype=np.int32)

    tree = Tree(2.0, 0.0, ints(table[:, 0]), ints(table[:, 1]), ints(table[:, 2]), ints(first), ints(count),
                ints(children), table[:, 3].astype(np.float64), tuple(labels), ints(table[:, 4]))
    strength = np.full((7, 6), -1, dtype=np.int64)
    for public in range(6):
        for card in range(6):
            if card != public:
                strength[public + 1, card] = 10 + card // 2 if card // 2 == public // 2 else card // 2

    def hands(mark: int) -> Hands:
        cards = np.array([[c, mark + c] for c in range(6)], dtype=np.int32)
        return Hands(cards, np.ones(6), strength, [f"{'JJQQKK'[c]}{'ab'[c % 2]}" for c in range(6)])

    return Game(tree, (hands(52), hands(58)), {"game": "leduc"})
