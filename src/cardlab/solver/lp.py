"""The exact route for small trees: the game's sequence-form linear program (D. Koller, N. Megiddo
and B. von Stengel, "Fast algorithms for finding randomized strategies in game trees", 1994),
solved by HiGHS through :func:`scipy.optimize.linprog` (the ``solver`` extra).

Player 0 (OOP) chooses a realisation plan ``x`` (one variable per combo, decision node and
action, ``E x = e``); player 1's plan ``y`` obeys ``F y = f``. With ``A`` the payoff to OOP of
each pair of sequences (summed over the deals that reach it, each deal weighted by the product
of the two combos' weights over the total), the game value is

    max  f.q   over x >= 0, q free,   subject to  E x = e,  F^T q <= A^T x.

>>> from cardlab.solver.games import kuhn
>>> round(game_value(kuhn()), 6), round(-1 / 18, 6)
(-0.055556, -0.055556)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardlab.errors import SolverError
from cardlab.solver.game import Game
from cardlab.solver.tree import CHANCE, DECISION, FOLD, ISO, SHOWDOWN

__all__ = ["game_value", "MAX_LP_CELLS"]

MAX_LP_CELLS = 2_000_000
"""Largest payoff matrix (non-zero cells) the exact route builds."""


def _sequences(game: Game, player: int) -> tuple[dict[int, int], int]:
    """Column of each of ``player``'s decision nodes (its first action, combo 0); 0 is the empty sequence."""
    tree = game.tree
    start: dict[int, int] = {}
    total = 1
    for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == player)):
        start[int(node)] = total
        total += int(tree.count[node]) * len(game.hands[player])
    return start, total


def _last_own(game: Game, node: int, player: int) -> tuple[int, int] | None:
    """The last (decision node, action) of ``player`` on the way to ``node``, if any."""
    tree = game.tree
    while node > 0:
        parent = int(tree.parent[node])
        if tree.player[parent] == player:
            return parent, tree.kids(parent).index(node)
        node = parent
    return None


def game_value(game: Game) -> float:
    """OOP's equilibrium value in chips (the gain over the deals), exact to the LP's rounding."""
    try:
        from scipy import sparse
        from scipy.optimize import linprog
    except ImportError:
        raise SolverError("the exact route needs scipy: pip install 'cardlab[solver]'") from None

    tree = game.tree
    if tree.rake[0] > 0:
        raise SolverError("the exact route solves zero-sum spots: give no rake")
    if (tree.kind == ISO).any():
        raise SolverError("the exact route walks every card: build the spot without suit isomorphism (suits=False)")
    h0, h1 = game.hands
    n0, n1 = len(h0), len(h1)
    start = [_sequences(game, p)[0] for p in (0, 1)]
    sizes = [_sequences(game, p)[1] for p in (0, 1)]
    terminals = np.flatnonzero((tree.kind == FOLD) | (tree.kind == SHOWDOWN))
    if len(terminals) * n0 * n1 > MAX_LP_CELLS:
        raise SolverError(f"the exact route takes at most {MAX_LP_CELLS:,} payoff cells (terminals x combos x "
                          f"combos), not {len(terminals) * n0 * n1:,}: solve it with the iterative route")
    mask = [(np.uint64(1) << h.cards[:, 0].astype(np.uint64)) | (np.uint64(1) << h.cards[:, 1].astype(np.uint64))
            for h in (h0, h1)]
    deal = np.outer(h0.weights, h1.weights) * ((mask[0][:, None] & mask[1][None, :]) == 0)
    if deal.sum() <= 0:
        raise SolverError("no deal is possible: every pair of combos shares a card or has weight 0")
    deal /= deal.sum()
    chance = _chance(tree)

    def column(p: int, node: int) -> np.ndarray:
        last = _last_own(game, node, p)
        n = (n0, n1)[p]
        if last is None:
            return np.zeros(n, dtype=np.int64)
        return start[p][last[0]] + last[1] * n + np.arange(n)

    rows_, cols_, vals_ = [], [], []
    for z in terminals:
        if tree.kind[z] == FOLD:
            payoff = np.full((n0, n1), tree.amount[z] * (-1.0 if tree.player[z] == 0 else 1.0))
        else:
            board = int(tree.board[z])
            payoff = tree.amount[z] * np.sign(h0.strength[board][:, None] - h1.strength[board][None, :])
        dealt = tree.dealt(int(z))  # the cards chance dealt on the way: their holders never get here
        live = [~np.isin(h.cards, dealt).any(axis=1) for h in (h0, h1)]
        cell = deal * payoff * chance[z] * np.outer(live[0], live[1])
        r, c = np.broadcast_arrays(column(0, int(z))[:, None], column(1, int(z))[None, :])
        rows_.append(r.ravel())
        cols_.append(c.ravel())
        vals_.append(cell.ravel())
    a = sparse.coo_matrix((np.concatenate(vals_), (np.concatenate(rows_), np.concatenate(cols_))),
                          shape=(sizes[0], sizes[1])).tocsr()
    e = _constraints(game, 0, start[0], sizes[0])
    f = _constraints(game, 1, start[1], sizes[1])
    nx, nq = sizes[0], f.shape[0]
    cost = np.zeros(nx + nq)
    cost[nx] = -1.0  # maximise q of the empty sequence's row
    a_ub = sparse.hstack([-a.T, f.T]).tocsr()
    a_eq = sparse.hstack([e, sparse.csr_matrix((e.shape[0], nq))]).tocsr()
    b_eq = np.zeros(e.shape[0])
    b_eq[0] = 1.0
    bounds = [(0, None)] * nx + [(None, None)] * nq
    result = linprog(cost, A_ub=a_ub, b_ub=np.zeros(sizes[1]), A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")
    if result.status != 0:
        raise SolverError(f"the linear program was not solved: {result.message}")
    return float(-result.fun)


def _chance(tree: Any) -> np.ndarray:
    """Each node's chance: the product of the chance nodes' card probabilities on the way."""
    out = np.ones(tree.size)
    for node in range(1, tree.size):
        parent = int(tree.parent[node])
        out[node] = out[parent] * (tree.amount[parent] if tree.kind[parent] == CHANCE else 1.0)
    return out


def _constraints(game: Game, player: int, start: dict[int, int], size: int) -> Any:
    """The rows of ``E`` (or ``F``): the empty sequence is 1; at each node and combo the actions'
    plan sums to the plan of the sequence that leads there."""
    from scipy import sparse

    tree = game.tree
    n = len(game.hands[player])
    rows, cols, vals = [0], [0], [1.0]
    row = 1
    for node, first in start.items():
        last = _last_own(game, node, player)
        for h in range(n):
            for a in range(int(tree.count[node])):
                rows.append(row)
                cols.append(first + a * n + h)
                vals.append(1.0)
            rows.append(row)
            cols.append(0 if last is None else start[last[0]] + last[1] * n + h)
            vals.append(-1.0)
            row += 1
    return sparse.coo_matrix((vals, (rows, cols)), shape=(row, size)).tocsr()
