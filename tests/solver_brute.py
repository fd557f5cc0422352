"""Plain oracles for the river solver's tests: values over every pair of combos (no sorting, no
card sums) and best responses by trying every pure plan of each combo, one at a time."""

from __future__ import annotations

import itertools

import numpy as np

from cardlab.solver.game import Game
from cardlab.solver.tree import DECISION, FOLD


def deal_weights(game: Game) -> np.ndarray:
    """w0 * w1 for every pair of combos sharing no card, 0 otherwise (OOP's rows): every pair
    compared card by card."""
    a, b = (h.cards for h in game.hands)
    clash = (a[:, None, :, None] == b[None, :, None, :]).any(axis=(2, 3))
    return np.outer(game.hands[0].weights, game.hands[1].weights) * ~clash


def payoff(game: Game, z: int) -> np.ndarray:
    """OOP's gain at terminal ``z`` for every pair of combos."""
    tree = game.tree
    if tree.kind[z] == FOLD:
        return np.full((len(game.hands[0]), len(game.hands[1])), tree.amount[z] * (-1 if tree.player[z] == 0 else 1))
    s0, s1 = game.hands[0].strength[0], game.hands[1].strength[0]
    return tree.amount[z] * np.sign(s0[:, None] - s1[None, :]).astype(float)


def steps(game: Game, z: int) -> list[tuple[int, int]]:
    """(decision node, action index) on the way to ``z``."""
    tree = game.tree
    out = []
    while z > 0:
        parent = int(tree.parent[z])
        out.append((parent, tree.kids(parent).index(z)))
        z = parent
    return out[::-1]


def strategies(solution: object) -> dict[int, np.ndarray]:
    game = solution.game  # type: ignore[attr-defined]
    return {int(n): solution.strategy(int(n)) for n in np.flatnonzero(game.tree.kind == DECISION)}  # type: ignore[attr-defined]


def pair_value(game: Game, sigma: dict[int, np.ndarray]) -> float:
    """OOP's expected gain when both play ``sigma``, over every pair of combos."""
    deals = deal_weights(game)
    total = 0.0
    for z in np.flatnonzero(game.tree.kind != DECISION):
        reach = [np.ones(len(h)) for h in game.hands]
        for node, a in steps(game, int(z)):
            p = int(game.tree.player[node])
            reach[p] = reach[p] * sigma[node][a]
        total += float((deals * payoff(game, int(z)) * np.outer(reach[0], reach[1])).sum())
    return total / deals.sum()


def best_response(game: Game, sigma: dict[int, np.ndarray], player: int) -> float:
    """``player``'s best gain against the other's ``sigma``: for each combo, every pure plan
    (an action at each of its decision nodes) is tried and the best kept."""
    tree = game.tree
    deals = deal_weights(game) if player == 0 else deal_weights(game).T
    mine = [int(n) for n in np.flatnonzero((tree.kind == DECISION) & (tree.player == player))]
    terminals = [int(z) for z in np.flatnonzero(tree.kind != DECISION)]
    sign = 1.0 if player == 0 else -1.0
    table = {}
    for z in terminals:
        opp = np.ones(len(game.hands[1 - player]))
        own = []
        for node, a in steps(game, z):
            if tree.player[node] == player:
                own.append((node, a))
            else:
                opp = opp * sigma[node][a]
        pay = sign * (payoff(game, z) if player == 0 else payoff(game, z).T)
        table[z] = (own, (deals * pay * opp[None, :]).sum(axis=1))
    total = 0.0
    plans = itertools.product(*(range(int(tree.count[n])) for n in mine))
    plan_list = [dict(zip(mine, p)) for p in plans]
    for h in range(len(game.hands[player])):
        best = -np.inf
        for plan in plan_list:
            v = sum(vals[h] for own, vals in table.values() if all(plan[n] == a for n, a in own))
            best = max(best, v)
        total += best
    return total / deals.sum()
