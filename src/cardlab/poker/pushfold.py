"""The heads-up push/fold equilibrium: the small blind pushes or folds, the big blind calls or folds.

:func:`pushfold` solves the game at one effective stack (big blinds, before the blinds and antes
are posted) and draws the chart: for every starting-hand class, the largest stack at which the
equilibrium pushes (calls) it at least half the time, on a grid of stacks (every 0.05 BB from 1
to 25 by default).

**The game.** Both players post the ante, the small blind 0.5 and the big blind 1. Over the 169
hand classes, the card-removal weight of a match-up is the number of combo pairs that share no
card (:mod:`cardlab.poker.preflop`: 36 for AA against KK, 12 for AKs against AA), and a call is
settled by the exact win, tie and loss counts of the two classes over every board. Payoffs are
chips (chip EV), or with ``payouts`` the prize equity of every player's stack at the end of the
hand (:func:`cardlab.poker.icm.icm`; three or more players make it differ from chip EV, the
others having folded their stacks untouched).

**The solution.** Each player's margin (push minus fold, call minus fold) is linear in the
other's strategy, so an equilibrium is pure but for the hands that are exactly indifferent. A
candidate comes from regret matching (or, along the chart, from the previous stack's solution);
its pure parts are the best responses, and the one mixed hand of each player solves the other's
indifference equation. The candidate is then checked *exactly*, in rational arithmetic from the
exact equities: if no pure change of strategy of either player gains anything, the exploitability
is an exact zero (``exact=True``). Otherwise the exploitability printed is what a best response
gains (chip EV: big blinds per hand, summed over both players).

>>> r = pushfold(10)
>>> r.exact, r.exploitability
(True, 0.0)
>>> "K2s" in r.pushes(), "72o" in r.pushes()
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from fractions import Fraction
from functools import lru_cache
from math import gcd, isfinite
from typing import Any, Sequence

import numpy as np

from cardlab._native import core as _core
from cardlab.errors import TournamentError
from cardlab.poker.icm import check_payouts, prize_equity
from cardlab.poker.preflop import BOARDS, CLASSES, class_labels, class_matrix
from cardlab.poker.tournament_result import PushFoldResult

__all__ = ["pushfold", "push_fold_game", "Game", "solve", "chart", "CHART_RANGE", "MAX_STACK", "MAX_CHART_STACKS"]

CHART_RANGE = (1.0, 25.0, 0.05)
"""Stacks of the default chart: from 1 to 25 big blinds, every 0.05."""
MAX_STACK = 10_000.0
"""Largest effective stack (big blinds) :func:`pushfold` takes."""

HINT_STEPS = 3
"""Alternating best responses tried from a nearby stack's solution before starting afresh."""

#: Outcomes of the hand, in the order of a utility vector: SB folds, SB pushes and BB folds,
#: SB wins the all-in, a split pot, BB wins the all-in.
OUTCOMES = ("fold", "steal", "sb_wins", "split", "bb_wins")


@dataclass(frozen=True)
class Game:
    """The push/fold game at one stack: ``u_sb``/``u_bb`` are each player's payoff of the five
    :data:`OUTCOMES`; the margins are linear: SB's push margin is ``base_sb + m_sb @ c`` and BB's
    call margin ``m_bb.T @ s`` (weighted by the card-removal counts, not yet normalised)."""

    stack: Fraction
    ante: Fraction
    u_sb: tuple[Fraction, ...]
    u_bb: tuple[Fraction, ...]
    zero_sum: bool

    def float_parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``base_sb`` (169,), ``m_sb`` and ``m_bb`` (169, 169) in floating point."""
        return _parts(tuple(float(x) for x in self.u_sb), tuple(float(x) for x in self.u_bb))


@lru_cache(maxsize=1)
def _weights() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pairs, wins, ties, losses of the SB class against the BB class, as board counts (int64)."""
    m = class_matrix()
    pairs = m.pairs * BOARDS
    wins = m.wins()
    ties = m.ties
    return pairs, wins, ties, pairs - wins - ties


@lru_cache(maxsize=1)
def _float_weights() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The same as probabilities times pairs (floats), and the pairs of each class (169,)."""
    pairs, wins, ties, losses = (x.astype(float) / BOARDS for x in _weights())
    return pairs, wins, ties, losses, pairs.sum(axis=1)


@lru_cache(maxsize=1)
def _float_net() -> np.ndarray:
    """Boards won minus boards lost, over the pairs, as probabilities times pairs (floats)."""
    _, wins, _, losses, _ = _float_weights()
    out: np.ndarray = wins - losses
    return out


def _parts(u_sb: Sequence[float], u_bb: Sequence[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pairs, wins, ties, losses, per_class = _float_weights()
    base_sb = per_class * (u_sb[1] - u_sb[0])
    if all(a == -b for a, b in zip(u_sb, u_bb)) and u_sb[2] - u_sb[3] == u_sb[3] - u_sb[4]:
        # chip EV: a win and a loss move the same amount, so the margin is one weighted table
        # (wins - losses) and the pairs: two array operations a stack instead of five
        m_sb = pairs * (u_sb[3] - u_sb[1]) + _float_net() * (u_sb[2] - u_sb[3])
        return base_sb, m_sb, -m_sb
    m_sb = wins * (u_sb[2] - u_sb[1]) + ties * (u_sb[3] - u_sb[1]) + losses * (u_sb[4] - u_sb[1])
    if all(a == -b for a, b in zip(u_sb, u_bb)):
        return base_sb, m_sb, -m_sb
    m_bb = wins * (u_bb[2] - u_bb[1]) + ties * (u_bb[3] - u_bb[1]) + losses * (u_bb[4] - u_bb[1])
    return base_sb, m_sb, m_bb


def _fraction(x: float | int | Fraction, what: str) -> Fraction:
    if isinstance(x, bool) or not isinstance(x, (int, float, Fraction)) or not np.isfinite(float(x)):
        raise TournamentError(f"the {what} must be a number, got {x!r}")
    return Fraction(x) if not isinstance(x, float) else Fraction(str(x))


def push_fold_game(stack: float | Fraction, ante: float | Fraction = 0, payouts: Sequence[Any] | None = None,
                   players: int = 2, others: Sequence[Any] | None = None) -> Game:
    """The game at effective ``stack`` big blinds (each player's chips before posting).

    With ``payouts`` the payoffs are prize equity by ICM: the small and big blind hold ``stack``
    each and the other ``players - 2`` players ``others`` (default: ``stack`` each)."""
    s = _fraction(stack, "stack")
    a = _fraction(ante, "ante")
    if s <= 0:
        raise TournamentError(f"the stack must be positive, got {stack}")
    if s > MAX_STACK:
        raise TournamentError(f"the stack must be at most {MAX_STACK:g} big blinds, got {stack}")
    if a < 0:
        raise TournamentError(f"the ante cannot be negative, got {ante}")
    if s < Fraction(1) + a:
        raise TournamentError(f"a stack of {stack} BB cannot post the big blind and an ante of {ante}: "
                              "push/fold needs stack >= 1 + ante")
    if players not in (2, 3):
        raise TournamentError(f"push/fold is played with 2 or 3 players, got {players}")
    if payouts is None:
        if players != 2:
            raise TournamentError("--players 3 values the hand by ICM: give --payouts")
        # chip EV of the small blind: folding loses the small blind and the ante, a steal wins
        # the big blind and the ante, an all-in wins or loses the stack
        u = (-(Fraction(1, 2) + a), Fraction(1) + a, s, Fraction(0), -s)
        return Game(s, a, u, tuple(-x for x in u), True)
    rest = [s] * (players - 2) if others is None else [_fraction(x, "stack") for x in others]
    if len(rest) != players - 2:
        raise TournamentError(f"{players} players need {players - 2} other stacks, got {len(rest)}")
    # the folded players' antes are in the pot: whoever takes the pot takes them too
    dead = a * len(rest)
    rest = [x - a for x in rest]
    if any(x <= 0 for x in rest):
        raise TournamentError("the other players' stacks must be above the ante")
    half, one = Fraction(1, 2) + a, Fraction(1) + a
    stacks = {
        "fold": (s - half, s + half + dead),
        "steal": (s + one + dead, s - one),
        "sb_wins": (2 * s + dead, Fraction(0)),
        "split": (s + dead / 2, s + dead / 2),
        "bb_wins": (Fraction(0), 2 * s + dead),
    }
    check_payouts(players, payouts)
    u_sb, u_bb = [], []
    for outcome in OUTCOMES:
        sb, bb = stacks[outcome]
        value = prize_equity([sb, bb, *rest], list(payouts), exact=True)
        u_sb.append(value[0])
        u_bb.append(value[1])
    return Game(s, a, tuple(u_sb), tuple(u_bb), False)


def _regret_matching(base: np.ndarray, m_sb: np.ndarray, m_bb: np.ndarray,
                     rounds: int = 1500) -> tuple[np.ndarray, np.ndarray]:
    """An approximate equilibrium by regret matching+ (alternating updates, linearly weighted
    averages; the loop runs in the compiled core, ``pushfold_regret``): a starting point for
    :func:`_polish`, never the answer itself."""
    s_avg, c_avg = np.empty(len(base)), np.empty(len(base))
    _core.pushfold_regret(np.ascontiguousarray(base, dtype=np.float64), np.ascontiguousarray(m_sb, dtype=np.float64),
                          np.ascontiguousarray(m_bb, dtype=np.float64), int(rounds), s_avg, c_avg)
    return s_avg, c_avg


def _polish(base: np.ndarray, m_sb: np.ndarray, m_bb: np.ndarray, s_hint: np.ndarray, c_hint: np.ndarray,
            tries: tuple[int, int] = (6, 3)) -> tuple[np.ndarray, np.ndarray] | None:
    """An equilibrium near the hint with up to two mixed hands per player, or None.

    Mixed hands are tried among those whose margins are closest to zero (``tries[0]`` for one
    each, ``tries[1]`` for two each). The small blind's mixed hands ``I`` make the big blind's
    mixed hands ``J`` indifferent and the other way round (|I| = |J| linear equations each
    side); the other hands play their best responses, recomputed a few times from the solution."""
    own = ((np.flatnonzero((s_hint > 0) & (s_hint < 1))).tolist(),
           (np.flatnonzero((c_hint > 0) & (c_hint < 1))).tolist())
    first = (np.round(s_hint), np.round(c_hint))
    tried: set[tuple[tuple[int, ...], tuple[int, ...], int]] = set()
    if len(own[0]) == len(own[1]) <= 3:  # the hint's own mixed hands: along the chart, usually the answer
        found = _support(base, m_sb, m_bb, own[0], own[1], *first)
        if found is not None:
            return found
        tried.add((tuple(own[0]), tuple(own[1]), 0))
    sb_margin = base + m_sb @ c_hint
    bb_margin = m_bb.T @ s_hint
    weight = _float_weights()[4]  # combos pairs per class: margins compared per pair
    most = max(tries)
    sb_order: list[int] = np.argsort(np.abs(sb_margin) / weight)[:most].tolist()
    bb_order: list[int] = np.argsort(np.abs(bb_margin) / weight)[:most].tolist()
    starts = [first, ((sb_margin > 0).astype(float), (bb_margin > 0).astype(float))]
    for n, (start_s, start_c) in enumerate(starts):
        sets = [own] if len(own[0]) == len(own[1]) <= 3 else []
        sets.append(([], []))
        sets += _feasible_pairs(base, m_sb, m_bb, sb_order[:tries[0]], bb_order[:tries[0]], start_s, start_c)
        sets += [(list(r), list(c)) for r in combinations(sb_order[:tries[1]], 2)
                 for c in combinations(bb_order[:tries[1]], 2)]
        for rows, cols in sets:
            key = (tuple(rows), tuple(cols), n)
            if key in tried:
                continue
            tried.add(key)
            found = _support(base, m_sb, m_bb, rows, cols, start_s, start_c)
            if found is not None:
                return found
    return None


def _feasible_pairs(base: np.ndarray, m_sb: np.ndarray, m_bb: np.ndarray, rows: list[int], cols: list[int],
                    s: np.ndarray, c: np.ndarray) -> list[tuple[list[int], list[int]]]:
    """The (SB hand, BB hand) pairs whose indifference equations, solved all at once, give both
    mixed probabilities strictly between 0 and 1 (the others cannot be an equilibrium's mixing)."""
    r, k = np.array(rows), np.array(cols)
    cross_bb = m_bb[r][:, k]
    cross_sb = m_sb[r][:, k]
    rest_bb = (m_bb[:, k].T @ s)[None, :] - cross_bb * s[r][:, None]
    rest_sb = (base[r] + m_sb[r] @ c)[:, None] - cross_sb * c[k][None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        ps = -rest_bb / cross_bb
        pc = -rest_sb / cross_sb
    ok = (ps > 0) & (ps < 1) & (pc > 0) & (pc < 1)
    return [([rows[a]], [cols[b]]) for a, b in zip(*np.nonzero(ok))]


def _support(base: np.ndarray, m_sb: np.ndarray, m_bb: np.ndarray, rows: list[int], cols: list[int],
             s: np.ndarray, c: np.ndarray, rounds: int = 3) -> tuple[np.ndarray, np.ndarray] | None:
    """The strategies with ``rows``/``cols`` mixed (solving the indifference equations) and every
    other hand at its best response, if they form an equilibrium.

    Each round sets the mixed hands' probabilities from the opponent's indifference equations
    (None when they are not strictly between 0 and 1), accepts the pair if every margin agrees
    with its hand's play, else plays every other hand's best response and tries again (None when
    nothing changes). It runs in the compiled core (``pushfold_support``);
    :func:`_support_python` is the same in numpy, for the tests."""
    if len(rows) != len(cols) or len(rows) > 2:
        return None
    s = np.array(s, dtype=np.float64)
    c = np.array(c, dtype=np.float64)
    mixed = np.array([*rows, *cols], dtype=np.int64)
    found = _core.pushfold_support(np.ascontiguousarray(base, dtype=np.float64),
                                   np.ascontiguousarray(m_sb, dtype=np.float64),
                                   np.ascontiguousarray(m_bb, dtype=np.float64), mixed, s, c, int(rounds),
                                   _tolerance(base))
    return (s, c) if found else None


def _support_python(base: np.ndarray, m_sb: np.ndarray, m_bb: np.ndarray, rows: list[int], cols: list[int],
                    s: np.ndarray, c: np.ndarray, rounds: int = 3) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`_support` in numpy (the tests compare the two)."""
    s, c = s.copy(), c.copy()
    tol = _tolerance(base)
    for _ in range(rounds):
        if rows:
            s[rows] = 0.0
            c[cols] = 0.0
            ps: tuple[float, ...] | None
            pc: tuple[float, ...] | None
            if len(rows) == 1:  # the common case, without fancy indexing
                i, j = rows[0], cols[0]
                a_bb, a_sb = m_bb[i, j], m_sb[i, j]
                ps = (float(-(m_bb[:, j] @ s) / a_bb),) if a_bb != 0 else None
                pc = (float(-(base[i] + m_sb[i] @ c) / a_sb),) if a_sb != 0 else None
            else:
                ps = _small_solve(m_bb[rows][:, cols].T, -(m_bb[:, cols].T @ s))
                pc = _small_solve(m_sb[rows][:, cols], -(base[rows] + m_sb[rows] @ c))
            if ps is None or pc is None or not all(0 < p < 1 for p in (*ps, *pc)):
                return None
            s[rows] = ps
            c[cols] = pc
        sb_margin = base + m_sb @ c
        if _violation(sb_margin, s) <= tol:  # the small blind's margins first: most candidates fail there
            bb_margin = m_bb.T @ s
            if _violation(bb_margin, c) <= tol:
                return s, c
        else:
            bb_margin = m_bb.T @ s
        new_s = (sb_margin > 0).astype(float)
        new_c = (bb_margin > 0).astype(float)
        new_s[rows] = s[rows]
        new_c[cols] = c[cols]
        if np.array_equal(new_s, s) and np.array_equal(new_c, c):
            return None
        s, c = new_s, new_c
    return None


def _small_solve(a: np.ndarray, b: np.ndarray) -> tuple[float, ...] | None:
    """``a x = b`` for a 1 x 1 or 2 x 2 system (Cramer's rule), None when singular."""
    if len(b) == 1:
        return (float(b[0] / a[0, 0]),) if a[0, 0] != 0 else None
    det = a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0]
    if det == 0:
        return None
    return (float((b[0] * a[1, 1] - a[0, 1] * b[1]) / det), float((a[0, 0] * b[1] - a[1, 0] * b[0]) / det))


def _tolerance(base: np.ndarray) -> float:
    """How far from zero a margin may be and count as zero: far above rounding, far below any
    real margin."""
    return 1e-9 * float(np.abs(base).max())


def _violation(margin: np.ndarray, p: np.ndarray) -> float:
    """The largest amount by which a hand played with probability ``p`` misses its best
    response: a margin above zero for a hand never played, below zero for one always played,
    not zero for a mixed one."""
    return float(np.where(p <= 0, margin, np.where(p >= 1, -margin, np.abs(margin))).max())


def _is_equilibrium(base: np.ndarray, m_sb: np.ndarray, m_bb: np.ndarray, s: np.ndarray, c: np.ndarray) -> bool:
    tol = _tolerance(base)
    return _violation(base + m_sb @ c, s) <= tol and _violation(m_bb.T @ s, c) <= tol


def solve(game: Game, hint: tuple[np.ndarray, np.ndarray] | None = None,
          parts: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """An equilibrium of ``game`` in floating point: push and call probabilities per class
    (``parts``: ``game.float_parts()`` when already computed)."""
    base, m_sb, m_bb = parts if parts is not None else game.float_parts()
    if hint is not None:  # from a nearby solution: alternate best responses, polishing each time
        s, c = hint
        for _ in range(HINT_STEPS):
            found = _polish(base, m_sb, m_bb, s, c)
            if found is not None:
                return found
            c = (m_bb.T @ s > 0).astype(float)
            s = (base + m_sb @ c > 0).astype(float)
    for rounds in (300, 3000):
        s, c = _regret_matching(base, m_sb, m_bb, rounds)
        found = _polish(base, m_sb, m_bb, s, c, tries=(10, 6))
        if found is not None:
            return found
    return s, c


def _exact_check(game: Game, s: np.ndarray, c: np.ndarray) -> tuple[Fraction, Fraction, Fraction, dict[int, Fraction], dict[int, Fraction]]:
    """Exploitability and each player's EV per hand dealt, exactly, and the exact probabilities of
    the mixed hands (re-solved in fractions from the indifference equations; pure hands are 0 or 1).

    Utilities are scaled to whole numbers and board counts are whole, so every margin is an
    integer (Python ints in object arrays) plus one fraction per mixed hand of the opponent."""
    pairs, wins, ties, losses = (x.astype(object) for x in _weights())
    scale = 1
    for x in (*game.u_sb, *game.u_bb):
        scale = scale * x.denominator // gcd(scale, x.denominator)
    u_sb = [int(x * scale) for x in game.u_sb]
    u_bb = [int(x * scale) for x in game.u_bb]
    m_sb = wins * u_sb[2] + ties * u_sb[3] + losses * u_sb[4] - pairs * u_sb[1]
    m_bb = wins * u_bb[2] + ties * u_bb[3] + losses * u_bb[4] - pairs * u_bb[1]
    row = pairs.sum(axis=1)
    base = row * (u_sb[1] - u_sb[0])
    mixed_s = [i for i in range(CLASSES) if 0 < s[i] < 1]
    mixed_c = [j for j in range(CLASSES) if 0 < c[j] < 1]
    sv = np.array([Fraction(int(round(x))) for x in s], dtype=object)
    cv = np.array([Fraction(int(round(x))) for x in c], dtype=object)
    for i in mixed_s:
        sv[i] = Fraction(0)
    for j in mixed_c:
        cv[j] = Fraction(0)
    if len(mixed_s) == len(mixed_c):
        # the mixed probabilities solve the opponent's indifference equations, exactly
        rest_bb = [-int(np.dot(m_bb[:, j], sv)) for j in mixed_c]
        rest_sb = [-int(base[i] + np.dot(m_sb[i], cv)) for i in mixed_s]
        probs_s = _solve_exact([[int(m_bb[i, j]) for i in mixed_s] for j in mixed_c], rest_bb)
        probs_c = _solve_exact([[int(m_sb[i, j]) for j in mixed_c] for i in mixed_s], rest_sb)
    else:
        probs_s = probs_c = None
    if probs_s is None or probs_c is None:
        probs_s = [Fraction(float(s[i])) for i in mixed_s]
        probs_c = [Fraction(float(c[j])) for j in mixed_c]
    for i, p in zip(mixed_s, probs_s):
        sv[i] = p
    for j, p in zip(mixed_c, probs_c):
        cv[j] = p
    sb_margin = base + m_sb.dot(cv)
    bb_margin = m_bb.T.dot(sv)
    zero = Fraction(0)
    gain_sb = sum(((1 - a) * max(m, zero) + a * max(-m, zero) for a, m in zip(sv, sb_margin)), zero)
    gain_bb = sum(((1 - a) * max(m, zero) + a * max(-m, zero) for a, m in zip(cv, bb_margin)), zero)
    folds = sum((r * (1 - a) for r, a in zip(row, sv)), zero)
    ev_sb = folds * u_sb[0] + sum((a * (r * u_sb[1] + m - b) for a, r, m, b in zip(sv, row, sb_margin, base)), zero)
    bb_showdown = m_bb.dot(cv)
    ev_bb = folds * u_bb[0] + sum((a * (r * u_bb[1] + m) for a, r, m in zip(sv, row, bb_showdown)), zero)
    total = int(row.sum()) * scale
    return ((gain_sb + gain_bb) / total, ev_sb / total, ev_bb / total,
            {i: sv[i] for i in mixed_s}, {j: cv[j] for j in mixed_c})


def _solve_exact(a: list[list[int]], b: list[int]) -> list[Fraction] | None:
    """The solution of the square system ``a x = b`` in fractions (Gaussian elimination), or None."""
    n = len(b)
    rows = [[Fraction(v) for v in row] + [Fraction(rhs)] for row, rhs in zip(a, b)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [rows[r][n] / rows[r][r] for r in range(n)]


def _float_values(game: Game, s: np.ndarray, c: np.ndarray) -> tuple[float, float, float]:
    base, m_sb, m_bb = game.float_parts()
    pairs = _weights()[0].astype(float) / BOARDS
    total = pairs.sum()
    row = pairs.sum(axis=1)
    sb_margin = base + m_sb @ c
    bb_margin = m_bb.T @ s
    gain = (np.sum((1 - s) * np.maximum(sb_margin, 0) + s * np.maximum(-sb_margin, 0)) +
            np.sum((1 - c) * np.maximum(bb_margin, 0) + c * np.maximum(-bb_margin, 0))) / total
    u_sb = [float(x) for x in game.u_sb]
    u_bb = [float(x) for x in game.u_bb]
    ev_sb = (np.sum(row * (1 - s)) * u_sb[0] + np.sum(s * (row * u_sb[1] + m_sb @ c))) / total
    ev_bb = (np.sum(row * (1 - s)) * u_bb[0] + np.sum(s * (row * u_bb[1] + m_bb @ c))) / total
    return float(gain), float(ev_sb), float(ev_bb)


#: The most stacks a chart holds (the command line says the same of --chart-step).
MAX_CHART_STACKS = 20_000


def _grid(*stacks: Any) -> np.ndarray:
    """The chart's stacks from ``(low, high, step)``, checked: finite numbers, low from 0, high
    above low, a step above 0 and at most :data:`MAX_CHART_STACKS` stacks."""
    try:
        lo, hi, step = (float(x) for x in stacks)
    except (TypeError, ValueError):
        raise TournamentError(f"a chart range is (low, high, step) in big blinds, not {stacks!r:.80}") from None
    if not all(isfinite(x) for x in (lo, hi, step)) or lo < 0 or hi <= lo or step <= 0:
        raise TournamentError(f"a chart range runs from a stack of 0 or more to a larger one by a step above 0, "
                              f"not ({lo:g}, {hi:g}, {step:g})")
    if (hi - lo) / step > MAX_CHART_STACKS:
        raise TournamentError(f"the chart would have more than {MAX_CHART_STACKS:,} stacks: use a larger step")
    n = int(round((hi - lo) / step))
    return np.round(lo + step * np.arange(n + 1), 10)


def chart(ante: float = 0, payouts: Sequence[Any] | None = None, players: int = 2,
          stacks: tuple[float, float, float] = CHART_RANGE) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The equilibrium at every stack of the range (from 1 + ante up): ``(grid, push, call, exact)`` with ``push`` and
    ``call`` of shape ``(len(grid), 169)`` and ``exact[k]`` whether stack ``k`` was solved with
    every margin of the right sign (floating point)."""
    grid = _grid(*(stacks if isinstance(stacks, (tuple, list)) else (stacks,)))
    grid = grid[grid >= 1 + float(ante) - 1e-9]  # a stack must cover the big blind and the ante
    if not len(grid):
        raise TournamentError(f"no stack of the chart's range covers the big blind and the ante {ante}")
    push = np.zeros((len(grid), CLASSES))
    call = np.zeros((len(grid), CLASSES))
    solved = np.zeros(len(grid), dtype=bool)
    hint: tuple[np.ndarray, np.ndarray] | None = None
    for k, x in enumerate(grid):
        game = push_fold_game(float(x), ante, payouts, players)
        base, m_sb, m_bb = parts = game.float_parts()
        s, c = solve(game, hint, parts)
        push[k], call[k] = s, c
        solved[k] = _is_equilibrium(base, m_sb, m_bb, s, c)
        hint = (s, c)
    return grid, push, call, solved


def _largest(grid: np.ndarray, plays: np.ndarray) -> tuple[float, ...]:
    """Per class, the largest stack of ``grid`` at which it is played at least half the time
    (``inf`` at the top of the grid, 0 for never): the convention of the published charts, whose
    values it reproduces; a hand mixed below one half at a stack is not counted there."""
    out = []
    for h in range(CLASSES):
        where = np.flatnonzero(plays[:, h] >= 0.5)
        if not len(where):
            out.append(0.0)
        elif where[-1] == len(grid) - 1:
            out.append(float("inf"))
        else:
            out.append(float(grid[where[-1]]))
    return tuple(out)


def pushfold(stack: float, *, ante: float = 0, payouts: Sequence[Any] | None = None, players: int = 2,
             chart_range: tuple[float, float, float] | None = CHART_RANGE, exact_check: bool = True) -> PushFoldResult:
    """The push/fold equilibrium at ``stack`` big blinds, and the chart over ``chart_range``.

    Parameters
    ----------
    stack : the effective stack in big blinds, before the blinds and antes are posted.
    ante : each player's ante in big blinds.
    payouts : prizes of the paid places: value the hand by ICM (with ``players`` at the table,
        the others holding ``stack`` each) instead of chips.
    players : 2, or 3 (with ``payouts``): the button has folded.
    chart_range : (low, high, step) of the chart's stacks, or None for no chart.
    exact_check : verify the solution in exact arithmetic (exploitability an exact zero).

    Examples
    --------
    >>> pushfold(0)
    Traceback (most recent call last):
    ...
    cardlab.errors.TournamentError: the stack must be positive, got 0
    """
    game = push_fold_game(stack, ante, payouts, players)
    if chart_range is not None:  # checked before any solving
        _grid(*(chart_range if isinstance(chart_range, (tuple, list)) else (chart_range,)))
    s, c = solve(game)
    if exact_check:
        gain, ev_sb, ev_bb, exact_s, exact_c = _exact_check(game, s, c)
        for i, p in exact_s.items():
            s[i] = float(p)
        for j, p in exact_c.items():
            c[j] = float(p)
        exploit, sb, bb, exact = float(gain), float(ev_sb), float(ev_bb), gain == 0
    else:
        exploit, sb, bb = _float_values(game, s, c)
        exact = False
    if chart_range is not None:
        grid, push, call, _ = chart(ante, payouts, players, chart_range)
        chart_push, chart_call = _largest(grid, push), _largest(grid, call)
        shown_range = (float(grid[0]), float(grid[-1]), float(chart_range[2]))
    else:
        chart_push = chart_call = tuple(float("nan") for _ in range(CLASSES))
        shown_range = (float("nan"),) * 3
    return PushFoldResult(stack=float(stack), ante=float(ante), players=players,
                          payouts=tuple(payouts) if payouts is not None else None,
                          labels=tuple(class_labels()), push=tuple(float(x) for x in s),
                          call=tuple(float(x) for x in c), ev_sb=sb, ev_bb=bb, exploitability=exploit,
                          exact=exact, chart_push=chart_push, chart_call=chart_call, chart_range=shown_range,
                          units="big blinds" if payouts is None else "prize money")
