"""The iterative route: Discounted CFR in the compiled core, and exploitability by best response.

The engine (``csrc/solver_river.c``) runs Discounted CFR (Brown and Sandholm, "Solving
Imperfect-Information Games via Discounted Regret Minimization", AAAI 2019; alpha 1.5, beta 0,
gamma 2, alternating updates) over a :class:`~cardlab.solver.game.Game`, vectorised over each
player's combos, with showdown and fold values in O(n) per node from the combos sorted by
strength (blocker-aware). It releases the interpreter lock while it runs.

Every few iterations a best response of each player to the other's average strategy is computed
exactly; the *exploitability* is the mean of the two best responders' gains over the game value,
``(BR_oop + BR_ip) / 2``, in % of the pot. The solve stops at the target exploitability, the time
limit or the iteration limit, whichever comes first.

The regrets and strategy sums are 4-byte floats (:data:`cardlab.solver.game.TABLE_DTYPE`); the
values, the strategy played and the best response are computed from them in double, so the
exploitability certifies the strategy the tables hold, their rounding included.

>>> from cardlab.solver.games import kuhn
>>> s = solve(kuhn(), target=0.01)
>>> round(s.value(0), 2), s.exploitability_pct <= 0.01
(-0.06, True)
"""

from __future__ import annotations

import time
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator

import numpy as np

from cardlab._native import core as _core
from cardlab.errors import SolverError, number_argument, whole_argument
from cardlab.solver.game import TABLE_DTYPE, Game
from cardlab.solver.tree import CHANCE, DECISION, ISO

__all__ = ["Engine", "solve", "DEFAULT_MEMORY_MB"]

DEFAULT_MEMORY_MB = 4096
"""The memory a solve may use unless told otherwise."""

_CFR, _AVERAGE, _BEST, _SHOWDOWN, _COMPATIBLE = 0, 1, 2, 3, 4


@dataclass(eq=False)
class Engine:
    """A game and its solver state: regrets and strategy sums (one ``TABLE_DTYPE`` number a
    node, action and combo of the player acting there; tables of another type are converted, and
    must hold finite numbers), the iterations run and the time spent."""

    game: Game
    regrets: np.ndarray
    sums: np.ndarray
    iterations: int = 0
    seconds: float = 0.0
    exploitability: float = float("nan")  # chips, after the last check
    nodes: np.ndarray | None = None  # the game's node table, with this engine's locks
    interrupted: bool = False  # Ctrl-C (or SIGTERM) ended the last solve early
    checks: list[tuple[int, float]] = field(default_factory=list)  # the last solve's (iterations, % of the pot)

    def __post_init__(self) -> None:
        if self.nodes is None:
            self.nodes = self.game.nodes.copy()
        with np.errstate(over="ignore"):  # a number too large for the type becomes inf, refused below
            self.regrets = np.ascontiguousarray(self.regrets, dtype=TABLE_DTYPE)
            self.sums = np.ascontiguousarray(self.sums, dtype=TABLE_DTYPE)
        # a sum in float64 of float32 numbers cannot overflow: it is finite exactly when they all
        # are (and needs no temporary array as long as the tables, as isfinite(...).all() would)
        if not (np.isfinite(self.regrets.sum(dtype=np.float64)) and np.isfinite(self.sums.sum(dtype=np.float64))):
            raise SolverError(f"the solver's tables hold finite numbers within the range of {TABLE_DTYPE.name}")

    @classmethod
    def new(cls, game: Game, memory_mb: float = DEFAULT_MEMORY_MB) -> Engine:
        """Fresh tables, after checking the memory estimate against ``memory_mb``."""
        need = game.memory_bytes()
        number_argument(memory_mb, "the memory limit (megabytes)", SolverError, 0, 1 << 30, low_open=True)
        if need > memory_mb * 2**20:
            raise SolverError(f"the solve needs about {need / 2**20:,.2f} MB, over the limit of {memory_mb:,g} MB: "
                              f"give fewer bet sizes, narrower ranges or a higher memory limit")
        return cls(game, np.zeros(game.table_size, dtype=TABLE_DTYPE), np.zeros(game.table_size, dtype=TABLE_DTYPE))

    def _tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        g = self.game
        assert self.nodes is not None
        return self.nodes, g.children, g.payoffs, g.hand_rows, g.weights, len(g.hands[0])

    def lock(self, node: int, strategy: np.ndarray) -> None:
        """Fix the strategy at decision ``node`` (actions x combos of the player acting, each
        column summing to 1): the solve plays it there and re-solves the rest (node locking)."""
        tree = self.game.tree
        node = whole_argument(node, "the node locked", SolverError, 0, tree.size - 1)
        if tree.kind[node] != DECISION:
            raise SolverError(f"node '{tree.path(node)}' ends the hand: there is nothing to lock")
        n = len(self.game.hands[int(tree.player[node])])
        shape = (int(tree.count[node]), n)
        try:
            table = np.broadcast_to(np.asarray(strategy, dtype=np.float64).reshape(shape[0], -1), shape)
        except (TypeError, ValueError):
            table = np.full(shape, np.nan)  # not numbers, or not a row per action: refused below
        if not np.isfinite(table).all() or (table < 0).any() or not np.allclose(table.sum(axis=0), 1.0):
            raise SolverError(f"a locked strategy at '{tree.path(node)}' gives each combo frequencies from 0 "
                              f"to 1 summing to 1 over the actions {', '.join(tree.actions(node))}")
        off = int(self.game.offsets[node])
        self.sums[off:off + table.size] = table.ravel()
        assert self.nodes is not None
        self.nodes[node, 5] = 1

    def run(self, iterations: int, workers: int = 1) -> None:
        """Run ``iterations`` more Discounted CFR iterations; with ``workers`` > 1 on a turn spot the
        river subtrees below the chance nodes are shared among that many threads (the same numbers)."""
        start = time.perf_counter()
        try:
            if workers <= 1 or not self._split():
                _core.solver_iterate(*self._tables(), self.regrets, self.sums, self.iterations, iterations)
                self.iterations += iterations
            else:
                with _deferred_interrupt() as stopped, _pool(workers) as pool:
                    for _ in range(iterations):
                        for i in (0, 1):
                            self._split_walk(i, _CFR, self.iterations + 1, pool, workers)
                        self.iterations += 1
                        if stopped:  # Ctrl-C during the iteration: raised now that its tables are whole
                            raise KeyboardInterrupt
        finally:
            self.seconds += time.perf_counter() - start

    def _split(self) -> bool:
        """Whether the tree has chance nodes, whose subtrees threads can share."""
        return bool((self.game.tree.kind == CHANCE).any())

    def _split_walk(self, i: int, mode: int, t: int, pool: ThreadPoolExecutor, workers: int) -> np.ndarray:
        """One walk from the root for player ``i`` with the subtrees below the first chance nodes
        (a chance node and a card each) shared by ``workers`` threads of ``pool``: iteration ``t``'s (mode 0,
        updating the tables), or the root's value of each of ``i``'s combos under average play (1)
        or best response (2), returned. The numbers are the one-thread walk's, bit for bit: the
        subtrees' rows are added in the order it adds them."""
        tree, nodes = self.game.tree, self.nodes
        assert nodes is not None
        top = [int(c) for c in np.flatnonzero((tree.kind == CHANCE) & (nodes[:, 3] >= 0))]  # no chance node above
        units = np.array([(node, a) for node in top for a, kid in enumerate(tree.kids(node)) if tree.kind[kid] != ISO],
                         dtype=np.int32)
        slot_of = nodes[units[:, 0], 3]
        n0, link = len(self.game.hands[0]), tree.link
        assert link is not None
        twins = [[self.game.children[nodes[kid, 3]:nodes[kid, 3] + len(self.game.weights)]
                  for kid in tree.kids(int(node)) if tree.kind[kid] == ISO and link[kid] == tree.kids(int(node))[a]]
                 for node, a in units]  # each unit's ISO siblings' permutation rows, in the walk's order
        tables = (*self._tables(), self.regrets, self.sums)
        ni, no = len(self.game.hands[i]), len(self.game.hands[1 - i])
        out = np.zeros(ni)
        given = () if mode == _CFR else (mode, out)
        slots = np.zeros((len(top), 2 * ni + no))
        _core.solver_step(*tables, i, t, 1, slots, *given)
        values = np.zeros((len(units), ni))
        cursor = np.zeros(1, dtype=np.int64)
        list(pool.map(lambda _: _core.solver_deal(*tables, i, t, slots, units, values, cursor, mode),
                      range(workers)))
        summed = np.zeros((len(top), ni))
        for u in range(len(units)):  # in the order the one-thread walk adds them
            summed[slot_of[u]] += values[u]
            for rows in twins[u]:
                summed[slot_of[u]][rows[n0:] if i else rows[:n0]] += values[u]
        slots[:, ni + no:] = summed
        _core.solver_step(*tables, i, t, 2, slots, *given)
        return out

    def values(self, player: int, mode: int = _AVERAGE, *, node: int = 0,
               reach: tuple[np.ndarray, np.ndarray] | None = None, workers: int = 1) -> np.ndarray:
        """Counterfactual value (chips times the opponent's compatible weight) of each of
        ``player``'s combos: both playing the average strategy (mode 1), or ``player``
        best-responding (2); 3 the showdown margin for 1 chip, 4 the compatible weight. From
        ``node`` with ``reach`` (the player's combos' weights there, the opponent's), else from
        the root with the ranges' weights. From the root of a turn or flop spot, modes 1 and 2
        share the subtrees below the first chance nodes among ``workers`` threads (the same
        numbers, bit for bit)."""
        g = self.game
        if workers > 1 and mode in (_AVERAGE, _BEST) and node == 0 and reach is None and self._split():
            with _pool(workers) as pool:
                return self._split_walk(player, mode, 1, pool, workers)
        own, opp = reach if reach is not None else (g.hands[player].weights, g.hands[1 - player].weights)
        out = np.zeros(len(g.hands[player]))
        _core.solver_values(*self._tables(), self.regrets, self.sums, player, mode, node,
                            np.ascontiguousarray(own, dtype=np.float64), np.ascontiguousarray(opp, dtype=np.float64),
                            out)
        return out

    def pair_weight(self) -> float:
        """The total weight of the deals (pairs of combos sharing no card)."""
        return float(self.game.hands[0].weights @ self.values(0, _COMPATIBLE))

    def value(self, player: int, mode: int = _AVERAGE, workers: int = 1) -> float:
        """``player``'s expected gain in chips over the deals (average play, or best response), the
        walk shared by ``workers`` threads as in :meth:`values`."""
        return float(self.game.hands[player].weights @ self.values(player, mode, workers=workers)) / self.pair_weight()

    def measure(self, workers: int = 1) -> float:
        """The exploitability in chips, ``(BR_oop + BR_ip) / 2``, stored and returned. With rake the
        game is not zero-sum: each best response's gain over its own value,
        ``(BR_oop - v_oop + BR_ip - v_ip) / 2``. ``workers`` threads share each walk of a turn or
        flop spot (the same value, bit for bit)."""
        total = self.value(0, _BEST, workers) + self.value(1, _BEST, workers)
        if self.game.tree.rake[0] > 0:
            total -= self.value(0, workers=workers) + self.value(1, workers=workers)
        self.exploitability = total / 2
        return self.exploitability

    @property
    def exploitability_pct(self) -> float:
        """The last measured exploitability in % of the pot."""
        return 100 * self.exploitability / self.game.tree.pot


def _pool(workers: int) -> ThreadPoolExecutor:
    """The threads that share a split walk's subtrees."""
    return ThreadPoolExecutor(workers, thread_name_prefix="cardlab_solver")


@contextmanager
def _deferred_interrupt() -> Iterator[list[int]]:
    """While it lasts, Ctrl-C (SIGINT) is noted in the list given instead of raised (on the main
    thread; elsewhere nothing changes)."""
    stopped: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield stopped
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stopped.append(signum))
    try:
        yield stopped
    finally:
        signal.signal(signal.SIGINT, previous)


def solve(game: Game, *, target: float = 0.3, time_limit: float = 60.0, max_iterations: int = 100_000,
          memory_mb: float = DEFAULT_MEMORY_MB, engine: Engine | None = None, workers: int = 1,
          progress: bool = False) -> Engine:
    """Run Discounted CFR on ``game`` until its exploitability is at most ``target`` % of the pot
    (give or take 1e-9 %, the rounding of its sums),
    ``time_limit`` seconds have passed or ``max_iterations`` have run; the engine is returned
    with its exploitability measured. ``engine`` continues an earlier solve (or a locked one);
    ``workers`` threads share a turn or flop spot's subtrees below its first chance nodes (the
    numbers do not depend on it). ``progress`` reports on stderr (:class:`cardlab.engine.progress_bar`:
    the share of the way done, the larger of the time used and the exploitability's fall on a
    log scale)."""
    number_argument(target, "the target exploitability (% of the pot)", SolverError, 0, 1e6)
    number_argument(time_limit, "the time limit (seconds)", SolverError, 0, 1e7, low_open=True)
    whole_argument(max_iterations, "the most iterations", SolverError, 0, 10**9)
    whole_argument(workers, "the threads", SolverError, 1, 256)
    if engine is None:
        engine = Engine.new(game, memory_mb)
    if engine.pair_weight() <= 0:
        raise SolverError("no deal is possible: every pair of combos shares a card or has weight 0")
    from cardlab.engine import progress_bar

    begin = time.perf_counter()
    deadline = begin + time_limit
    first = engine.measure(workers) * 100 / game.tree.pot
    with progress_bar(100 if progress else 0, "solving (% of the way)") as advance:
        done = 0

        def report(pct: float) -> None:
            nonlocal done
            share = min(1.0, max((time.perf_counter() - begin) / time_limit, _fall(first, pct, target)))
            advance(int(100 * share) - done, share)
            done = int(100 * share)

        _loop(engine, target, max_iterations, deadline, workers, report)
    return engine


def _fall(first: float, now: float, target: float) -> float:
    """How far the exploitability has come from ``first`` to ``target`` (0..1, log scale)."""
    if now <= target or first <= target:
        return 1.0
    return max(0.0, float(np.log(first / now) / np.log(first / max(target, 1e-12))))


def _next_check(seen: list[tuple[int, float]], target: float, now: int) -> int:
    """The iteration at which to measure the exploitability next, from the checks ``seen`` so far
    (iterations, % of the pot; ``now`` the last): where the exploitability, decaying as a power of
    the iterations fitted on log-log to the checks since 0.3 ``now`` (at least the last two), meets
    ``target``, never past twice ``now``; twice ``now`` while there is no fall to fit yet. A
    prediction only chooses when to look: the answer is always a computed best response.

    >>> _next_check([(100, 1.0), (200, 0.5)], 0.25, 200)   # halving as the iterations double
    400
    >>> _next_check([(100, 1.0), (200, 0.5)], 0.4, 200)
    250
    >>> _next_check([(100, 1.0), (200, 0.5)], 0.0, 200)   # a target of 0 is never met: no crossing
    400
    """
    if now < 2:
        return 2
    if target <= 0:
        return 2 * now
    usable = [(t, pct) for t, pct in seen if t >= 1 and pct > 0]
    recent = [(t, pct) for t, pct in usable if t >= 0.3 * now] if len(usable) >= 2 else []
    if 0 < len(recent) < 2:
        recent = usable[-2:]
    if len(recent) < 2:
        return 2 * now
    x = np.log([t for t, _ in recent])
    y = np.log([pct for _, pct in recent])
    slope = float(np.polyfit(x, y, 1)[0]) if np.ptp(x) > 0 else 0.0
    if slope > -0.05:  # not falling (yet): look again after as many iterations again
        return 2 * now
    crossing = now * (seen[-1][1] / target) ** (1 / -slope)
    return int(min(2 * now, max(now + 1, np.ceil(crossing - 1e-9))))


def _loop(engine: Engine, target: float, max_iterations: int, deadline: float, workers: int,
          report: Callable[[float], None]) -> None:
    """Run to the target, measuring at the iterations :func:`_next_check` picks; between two checks
    the iterations run in pieces of about a second, so Ctrl-C and the time limit are seen."""
    pot = engine.game.tree.pot
    seen = engine.checks = [(engine.iterations, engine.exploitability * 100 / pot)]
    each = 0.0  # seconds an iteration, once timed
    try:
        while seen[-1][1] > target + 1e-9 and engine.iterations < max_iterations and time.perf_counter() < deadline:
            goal = min(max_iterations, _next_check(seen, target, engine.iterations))
            while engine.iterations < goal and time.perf_counter() < deadline:
                piece = min(goal - engine.iterations, max(1, int(1.0 / each)) if each > 0 else 1)
                before = time.perf_counter()
                engine.run(piece, workers)
                each = (time.perf_counter() - before) / piece
            seen.append((engine.iterations, engine.measure(workers) * 100 / pot))
            report(seen[-1][1])
    except KeyboardInterrupt:
        engine.interrupted = True  # between two runs: the tables are whole, the answer is the last one
        seen.append((engine.iterations, engine.measure(workers) * 100 / pot))
