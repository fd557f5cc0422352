"""Known games built for the engine: Kuhn poker, and the river clairvoyance game of Chen and
Ankenman on a real board.

Kuhn poker (H. W. Kuhn, 1950): three cards J < Q < K, one to each player, an ante of 1 each, one
bet of 1 with no raise; the first player's value is -1/18. It is a river spot with a pot of 2, a
stack of 1 and bets of 50% of the pot, whose "combos" are single cards (each paired with a
private mark, card ids 52..57, so only the real card blocks).

>>> g = kuhn()
>>> g.tree.size, [h.labels for h in g.hands][0]
(9, ['J', 'Q', 'K'])
"""

from __future__ import annotations

import numpy as np

from cardlab.solver.game import Game, river_game
from cardlab.solver.hands import Hands
from cardlab.solver.tree import BetSizes, build_tree

__all__ = ["kuhn", "clairvoyance"]


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
