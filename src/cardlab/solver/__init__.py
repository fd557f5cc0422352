"""A heads-up no-limit hold'em solver for river, turn and flop spots (docs/solver.md): the betting
tree from bet sizes in solver notation (donk bets, rake), suit isomorphism for the turn and river
cards, Discounted CFR in the compiled core with exploitability by best response, the exact
sequence-form LP for small trees, a report over a set of flops, known games (Kuhn, Leduc,
clairvoyance).

>>> from cardlab.solver import Solution, river_game
>>> game = river_game("AA, QQ, 76s", "KK, JJ", "Ks 9d 5c 2h 3s", pot=10, stack=20, oop_bet="75%")
>>> s = Solution.solve(game, target=0.1)
>>> s.engine.exploitability_pct <= 0.1
True
"""

from __future__ import annotations

from cardlab.solver.engine import Engine, solve
from cardlab.solver.flops import FlopReport, flop_report
from cardlab.solver.game import Game, river_game
from cardlab.solver.games import clairvoyance, kuhn, leduc
from cardlab.solver.solution import NodeReport, Solution, load_solution
from cardlab.solver.tree import BetSizes, Tree, build_tree

__all__ = ["Engine", "solve", "FlopReport", "flop_report", "Game", "river_game", "clairvoyance", "kuhn", "leduc", "NodeReport", "Solution",
           "load_solution", "BetSizes", "Tree", "build_tree"]
