"""Three-handed push/fold: the button pushes or folds; the small blind calls the button's push or,
folded to, pushes or folds; the big blind calls whoever pushed, or overcalls two all-ins.

:func:`pushfold3` solves the game at one effective stack (every player holds ``stack`` big blinds
before posting) with the hand valued in chips or, with ``payouts``, by ICM at its end
(:func:`cardlab.poker.icm.prize_equity`, the busted sharing the places below the others).

**The deal.** A hand deals three combos that share no card: the weight of a class triple (button,
small blind, big blind) is the exact number of such combo triples (:func:`triple_table`), so every
card-removal effect between the three hands is exact. A heads-up all-in after one fold is settled
by the exact win/split/loss board counts of the two classes (:mod:`cardlab.poker.preflop`; the
folded hand's two cards are not taken out of the board's deck, the one approximation there). A
three-way all-in is settled by the seven outcome probabilities of the class triple (each seat
wins alone, two split, all three split), estimated once by the compiled core from
:data:`TRIPLE_SAMPLES` random deals per class triple (uniform combo triple, uniform board) and
shipped as package data: computing them exactly is 818,805 class triples times their combo
triples times 1,370,754 boards, about 10^13 showdowns, out of reach here.

**The solution.** Six decisions per class (:data:`NODES`); every player's margin at a node is
linear in each other decision. Regret matching+ on every node at once, averaged linearly, for
``iterations`` rounds; the result is the average strategy and its **exploitability**: what each
player gains by a best response to the others (summed over the player's nodes, per hand dealt),
and the total over the three players. Nothing is rounded afterwards: the reported exploitability
is that of the strategies returned.

>>> r = pushfold3(10, payouts=[50, 30, 20], iterations=60)  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

import numpy as np

from cardlab._native import core as _core
from cardlab.errors import TournamentError
from cardlab.poker.icm import check_payouts, prize_equity
from cardlab.poker.preflop import BOARDS, CLASSES, all_combos, class_labels, class_matrix
from cardlab.poker.pushfold import _fraction
from cardlab.poker.tournament_result import PushFold3Result

__all__ = ["pushfold3", "triple_table", "compute_triples", "sorted_triples", "NODES", "TRIPLE_SAMPLES",
           "ITERATIONS", "three_way_probabilities"]

TRIPLES_FILE = "preflop_triples.npz"
TRIPLE_SAMPLES = 255
"""Random deals per class triple behind the shipped three-way outcome counts (one byte each)."""
TRIPLE_SEED = 30
"""Seed of the shipped table (issue 30): :func:`compute_triples` with it rebuilds the file."""
TRIPLE_CHUNK = 32768
"""Class triples per seeded chunk of :func:`compute_triples` (the result does not depend on the
number of threads)."""
ITERATIONS = 200
"""Regret-matching rounds of :func:`pushfold3` by default."""

#: The decisions, in the order of a strategy: the button pushes; the small blind pushes when
#: folded to, or calls the button's push; the big blind calls the small blind's push, the
#: button's push (small blind folded), or both all-ins.
NODES = ("btn_push", "sb_push", "sb_call", "bb_call_sb", "bb_call_btn", "bb_overcall")
#: Whose decision each node is (0 button, 1 small blind, 2 big blind).
OWNER = (0, 1, 1, 2, 2, 2)
#: The seven outcomes of a three-way all-in, by seat (0 button, 1 small blind, 2 big blind).
THREE_WAY = ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2))


def sorted_triples() -> np.ndarray:
    """Every class triple ``x <= y <= z`` (818,805 of them), lexicographic, as ``(n, 3)`` int16."""
    axis = np.arange(CLASSES, dtype=np.int16)  # int16, not int64: the grids are 4.8 million cells
    x, y, z = np.meshgrid(axis, axis, axis, indexing="ij")
    keep = (x <= y) & (y <= z)
    return np.stack([x[keep], y[keep], z[keep]], axis=1).astype(np.int16)


@lru_cache(maxsize=1)
def _class_combos() -> tuple[np.ndarray, np.ndarray]:
    """The 1,326 combos grouped by class (``(1326, 2)`` uint8) and each class's offsets (170)."""
    from cardlab.poker.ranges import combo_classes

    combos = all_combos()
    classes = combo_classes(combos)
    order = np.argsort(classes, kind="stable")
    offsets = np.zeros(CLASSES + 1, dtype=np.int64)
    offsets[1:] = np.cumsum(np.bincount(classes, minlength=CLASSES))
    return np.ascontiguousarray(combos[order]), offsets


def compute_triples(samples: int = TRIPLE_SAMPLES, seed: int = TRIPLE_SEED, workers: int = 2,
                    triples: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The weights (exact) and three-way outcome counts (``samples`` random deals each) of the
    class triples (default :func:`sorted_triples`), by the compiled core: ``(n,)`` and ``(n, 7)``
    int64, seats in the triple's order, outcomes as in :data:`THREE_WAY`. The full table takes
    about a minute of CPU."""
    from cardlab.poker.evaluator import tables

    tri = np.ascontiguousarray(sorted_triples() if triples is None else triples, dtype=np.int16)
    n = len(tri)
    weights = np.zeros(n, dtype=np.int64)
    counts = np.zeros((n, len(THREE_WAY)), dtype=np.int64)
    combos, offsets = _class_combos()
    capsule = tables()

    def run(start: int) -> None:
        stop = min(n, start + TRIPLE_CHUNK)
        key = hashlib.sha256(f"cardlab pushfold3 {seed} {start}".encode()).digest()
        _core.pushfold_triples(capsule, combos, offsets, tri[start:stop], int(samples), key,
                               weights[start:stop], counts[start:stop])

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        list(pool.map(run, range(0, n, TRIPLE_CHUNK)))
    return weights, counts


@lru_cache(maxsize=1)
def triple_table() -> tuple[np.ndarray, np.ndarray, int]:
    """The shipped table: weights ``(818805,)`` and outcome counts ``(818805, 7)`` (int64) of
    :func:`sorted_triples`, and the samples per triple."""
    with resources.files("cardlab.poker").joinpath("data", TRIPLES_FILE).open("rb") as handle:
        data = np.load(handle)
        return data["weights"].astype(np.int64), data["counts"].astype(np.int64), int(data["samples"])


def three_way_probabilities(button: str, small_blind: str, big_blind: str) -> tuple[int, tuple[float, ...]]:
    """The weight and the seven outcome probabilities (:data:`THREE_WAY`) of one class triple,
    seats in this order, from the shipped table."""
    from cardlab.poker.ranges import class_index

    weights, q = _ordered()
    flat = (class_index(button) * CLASSES + class_index(small_blind)) * CLASSES + class_index(big_blind)
    return int(weights.reshape(-1)[flat]), tuple(float(x) for x in q[flat])


@lru_cache(maxsize=1)
def _ordered() -> tuple[np.ndarray, np.ndarray]:
    """The triple weights as a ``(169, 169, 169)`` float array by seat (button, small blind, big
    blind) and the outcome probabilities ``(169 ** 3, 7)`` float32, from the sorted table."""
    weights, counts, samples = triple_table()
    ids = np.full((CLASSES,) * 3, -1, dtype=np.int32)
    tri = sorted_triples().astype(np.intp)
    ids[tri[:, 0], tri[:, 1], tri[:, 2]] = np.arange(len(tri), dtype=np.int32)
    del tri
    w = np.empty((CLASSES,) * 3, dtype=np.float64)
    q = np.empty((CLASSES ** 3, len(THREE_WAY)), dtype=np.float32)
    remaps: dict[int, list[int]] = {}
    for perm in {(a, b, c) for a in range(3) for b in range(3) for c in range(3) if len({a, b, c}) == 3}:
        position = {seat: r for r, seat in enumerate(perm)}  # the sorted position of each seat
        remaps[perm[0] * 9 + perm[1] * 3 + perm[2]] = \
            [THREE_WAY.index(tuple(sorted(position[s] for s in outcome))) for outcome in THREE_WAY]
    rest = np.indices((CLASSES, CLASSES)).reshape(2, -1).T
    size = len(rest)
    # one button class at a time: the sorting temporaries are a 169th of the whole grid's
    for first in range(CLASSES):
        grid = np.column_stack([np.full(size, first), rest])
        order = np.argsort(grid, axis=1, kind="stable")  # order[r]: the seat at sorted position r
        ranked = np.take_along_axis(grid, order, axis=1)
        tid = ids[ranked[:, 0], ranked[:, 1], ranked[:, 2]]
        w[first] = weights[tid].reshape(CLASSES, CLASSES)
        code = order[:, 0] * 9 + order[:, 1] * 3 + order[:, 2]
        block = q[first * size:(first + 1) * size]
        for key, remap in remaps.items():
            rows = np.flatnonzero(code == key)
            block[rows] = counts[tid[rows]][:, remap] / samples
    return w, q


def _final_stacks(s: Fraction, a: Fraction) -> dict[str, tuple[Fraction, Fraction, Fraction]]:
    """Every player's chips at the end of the hand, for each way it can end (button, small
    blind, big blind): the blinds 0.5 and 1 and the antes ``a`` posted, everyone ``s`` before."""
    half = Fraction(1, 2)
    out = {
        "fold_fold": (s - a, s - half - a, s + half + 2 * a),
        "fold_push_fold": (s - a, s + 1 + 2 * a, s - 1 - a),
        "push_fold_fold": (s + 1 + half + 2 * a, s - half - a, s - 1 - a),
    }
    pot = 2 * s + a  # small blind against big blind; the button's ante is in the pot
    out.update({"sb_bb_win": (s - a, pot, Fraction(0)), "sb_bb_split": (s - a, pot / 2, pot / 2),
                "sb_bb_lose": (s - a, Fraction(0), pot)})
    pot = 2 * s + half + a  # button against big blind; the small blind's blind and ante are in
    out.update({"btn_bb_win": (pot, s - half - a, Fraction(0)), "btn_bb_split": (pot / 2, s - half - a, pot / 2),
                "btn_bb_lose": (Fraction(0), s - half - a, pot)})
    pot = 2 * s + 1 + a  # button against small blind; the big blind's blind and ante are in
    out.update({"btn_sb_win": (pot, Fraction(0), s - 1 - a), "btn_sb_split": (pot / 2, pot / 2, s - 1 - a),
                "btn_sb_lose": (Fraction(0), pot, s - 1 - a)})
    for k, winners in enumerate(THREE_WAY):
        share = 3 * s / len(winners)
        out[f"three_{k}"] = tuple(share if seat in winners else Fraction(0) for seat in range(3))  # type: ignore[assignment]
    return out


def utilities(stack: float | Fraction, ante: float | Fraction = 0,
              payouts: Sequence[Any] | None = None) -> dict[str, np.ndarray]:
    """Each way the hand can end (:func:`_final_stacks`) and the three players' payoffs: chips
    won or lost (big blinds), or with ``payouts`` the prize equity of the final stacks by ICM."""
    s, a = _fraction(stack, "stack"), _fraction(ante, "ante")
    if s <= 0:
        raise TournamentError(f"the stack must be positive, got {stack}")
    if a < 0:
        raise TournamentError(f"the ante cannot be negative, got {ante}")
    if s < 1 + a:
        raise TournamentError(f"a stack of {stack} BB cannot post the big blind and an ante of {ante}: "
                              "push/fold needs stack >= 1 + ante")
    if payouts is not None:
        check_payouts(3, payouts)
    out = {}
    for name, final in _final_stacks(s, a).items():
        if payouts is None:
            out[name] = np.array([float(x - s) for x in final])
        else:
            out[name] = np.array([float(x) for x in prize_equity(list(final), list(payouts), exact=True)])
    return out


class _Tables:
    """The per-stack arrays the margins are contracted from (weights per class pair or triple,
    times payoffs), built once per stack."""

    def __init__(self, u: dict[str, np.ndarray], dtype: type = np.float64) -> None:
        w, q = _ordered()
        w = w.astype(dtype, copy=False)
        m = class_matrix()
        pairs = m.pairs.astype(float) * BOARDS
        with np.errstate(invalid="ignore", divide="ignore"):
            win = np.where(pairs > 0, m.wins() / pairs, 0.0)
            tie = np.where(pairs > 0, m.ties / pairs, 0.0)
        lose = np.where(pairs > 0, 1.0 - win - tie, 0.0)

        def showdown(prefix: str, player: int) -> np.ndarray:
            out: np.ndarray = (win * u[f"{prefix}_win"][player] + tie * u[f"{prefix}_split"][player]
                               + lose * u[f"{prefix}_lose"][player])
            return out

        self.u = u
        self.total = float(w.sum())
        self.w = w                                            # (i, j, k)
        self.w_jik = np.ascontiguousarray(w.transpose(1, 0, 2))  # small blind first
        self.w_kij = np.ascontiguousarray(w.transpose(2, 0, 1))  # big blind first
        self.w_j1 = w.sum(axis=1)  # (i, k)
        self.w_i1 = w.sum(axis=0)  # (j, k)
        self.w_k1 = w.sum(axis=2)  # (i, j)
        # the two-way all-ins, each player's payoff: small blind v big blind (j, k), button v big
        # blind (i, k), button v small blind (i, j)
        self.e3: list[np.ndarray] = [showdown("sb_bb", p).astype(dtype) for p in range(3)]
        self.e5: list[np.ndarray] = [showdown("btn_bb", p).astype(dtype) for p in range(3)]
        self.e6: list[np.ndarray] = [showdown("btn_sb", p).astype(dtype) for p in range(3)]
        self.dtype = dtype
        three = np.stack([u[f"three_{k}"] for k in range(len(THREE_WAY))])  # (7, 3)
        value: np.ndarray = np.empty((len(q), 3), dtype=dtype)  # (169^3, 3), in the tables' precision, by slices
        for start in range(0, len(q), 1 << 20):
            value[start:start + (1 << 20)] = q[start:start + (1 << 20)].astype(dtype) @ three.astype(dtype)
        self.v = [(w.reshape(-1) * value[:, p]).reshape((CLASSES,) * 3) for p in range(3)]
        self.v_s = np.ascontiguousarray(self.v[1].transpose(1, 0, 2))
        self.v_bb = np.ascontiguousarray(self.v[2].transpose(2, 0, 1))


def _margins(t: _Tables, x: np.ndarray) -> np.ndarray:
    """Each node's margin per class (play minus fold, weighted by the deals, not normalised),
    the owner's payoff, against the strategies ``x`` (6, 169) of :data:`NODES`."""
    p, q, cs, c1, c2, c3 = x
    n = CLASSES
    u = t.u
    wj_cs = (cs @ t.w_jik.reshape(n, -1)).reshape(n, n)  # (i, k)
    wj_q = (q @ t.w_jik.reshape(n, -1)).reshape(n, n)    # (i, k)
    wk_c3 = t.w.reshape(-1, n) @ c3                      # (i*j,)
    wk_c3 = wk_c3.reshape(n, n)                          # (i, j)
    wi_p = (p @ t.w.reshape(n, -1)).reshape(n, n)        # (j, k)
    btn, sb, bb = 0, 1, 2
    # the button: push minus fold
    not_cs = t.w_j1 - wj_cs
    push = (not_cs * ((1 - c2) * u["push_fold_fold"][btn] + c2 * t.e5[btn])).sum(axis=1)
    push += ((t.w_k1 - wk_c3) * t.e6[btn]) @ cs
    push += (t.v[btn].reshape(-1, n) @ c3).reshape(n, n) @ cs
    fold = (t.w_j1 - wj_q).sum(axis=1) * u["fold_fold"][btn] + wj_q @ (1 - c1) * u["fold_push_fold"][btn]
    fold += t.w.reshape(n, -1) @ (np.outer(q, c1) * t.e3[btn]).reshape(-1)
    m_btn = push - fold
    # the small blind, folded to: push minus fold
    a = t.w_i1 - wi_p  # (j, k): deals the button folded
    m_sbp = (a * ((1 - c1) * (u["fold_push_fold"][sb] - u["fold_fold"][sb])
                  + c1 * (t.e3[sb] - u["fold_fold"][sb]))).sum(axis=1)
    # the small blind against the button's push: call minus fold
    m_sbc = p @ ((t.w_k1 - wk_c3) * t.e6[sb])
    m_sbc += (t.v_s.reshape(-1, n) @ c3).reshape(n, n) @ p
    m_sbc -= wi_p @ (1 - c2) * u["push_fold_fold"][sb]
    m_sbc -= t.w_jik.reshape(n, -1) @ (np.outer(p, c2) * t.e5[sb]).reshape(-1)
    # the big blind: call minus fold at each of its nodes
    m_bb1 = q @ (a * (t.e3[bb] - u["fold_push_fold"][bb]))
    m_bb2 = p @ (not_cs * (t.e5[bb] - u["push_fold_fold"][bb]))
    m_bb3 = (t.v_bb.reshape(-1, n) @ cs).reshape(n, n) @ p
    m_bb3 -= t.w_kij.reshape(n, -1) @ (np.outer(p, cs) * t.e6[bb]).reshape(-1)
    return np.stack([m_btn, m_sbp, m_sbc, m_bb1, m_bb2, m_bb3])


def _values(t: _Tables, x: np.ndarray) -> np.ndarray:
    """Each player's expected payoff per hand dealt under the strategies ``x``."""
    p, q, cs, c1, c2, c3 = x
    n = CLASSES
    u = t.u
    wj_cs = (cs @ t.w_jik.reshape(n, -1)).reshape(n, n)
    wj_q = (q @ t.w_jik.reshape(n, -1)).reshape(n, n)
    wk_c3 = (t.w.reshape(-1, n) @ c3).reshape(n, n)
    out = np.zeros(3)
    for player in range(3):
        fold = (t.w_j1 - wj_q).sum(axis=1) * u["fold_fold"][player] + wj_q @ (1 - c1) * u["fold_push_fold"][player]
        fold += t.w.reshape(n, -1) @ (np.outer(q, c1) * t.e3[player]).reshape(-1)
        push = ((t.w_j1 - wj_cs) * ((1 - c2) * u["push_fold_fold"][player] + c2 * t.e5[player])).sum(axis=1)
        push += ((t.w_k1 - wk_c3) * t.e6[player]) @ cs
        push += (t.v[player].reshape(-1, n) @ c3).reshape(n, n) @ cs
        out[player] = float((1 - p) @ fold + p @ push) / t.total
    return out


def _gains(margins: np.ndarray, x: np.ndarray, total: float) -> np.ndarray:
    """What each player gains per hand dealt by a best response at every one of its nodes."""
    gain = ((1 - x) * np.maximum(margins, 0) + x * np.maximum(-margins, 0)).sum(axis=1) / total
    out = np.zeros(3)
    for node, owner in enumerate(OWNER):
        out[owner] += gain[node]
    return out


def solve3(t: _Tables, iterations: int = ITERATIONS) -> np.ndarray:
    """Regret matching+ on the six nodes at once, linearly averaged: the average strategies
    ``(6, 169)`` (the rounds run in the precision of ``t``: single for speed)."""
    plus = np.zeros((len(NODES), CLASSES))
    minus = np.zeros((len(NODES), CLASSES))
    x = np.full((len(NODES), CLASSES), 0.5)
    avg = np.zeros_like(x)
    for it in range(1, iterations + 1):
        m = _margins(t, x.astype(t.dtype)).astype(np.float64)
        value = x * m
        plus = np.maximum(plus + m - value, 0.0)
        minus = np.maximum(minus - value, 0.0)
        total = plus + minus
        x = np.where(total > 0, plus / np.where(total > 0, total, 1.0), 0.5)
        avg += it * x
    out: np.ndarray = avg / (iterations * (iterations + 1) / 2)
    return out


def pushfold3(stack: float, *, ante: float = 0, payouts: Sequence[Any] | None = None,
              iterations: int = ITERATIONS) -> PushFold3Result:
    """The three-handed push/fold equilibrium at ``stack`` big blinds (every player's chips
    before posting), chip EV or ICM with ``payouts`` (at most three prizes).

    >>> pushfold3(0.5)
    Traceback (most recent call last):
    ...
    cardlab.errors.TournamentError: a stack of 0.5 BB cannot post the big blind and an ante of 0: push/fold needs stack >= 1 + ante
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= 100_000:
        raise TournamentError(f"iterations must be a whole number from 1 to 100,000, got {iterations!r}")
    u = utilities(stack, ante, payouts)
    x = solve3(_Tables(u, np.float32), iterations)  # the rounds in single precision (half the memory traffic)
    t = _Tables(u)  # the answer's margins, gains and values in double precision
    margins = _margins(t, x)
    gains = _gains(margins, x, t.total)
    values = _values(t, x)
    _, _, samples = triple_table()
    return PushFold3Result(stack=float(stack), ante=float(ante),
                           payouts=tuple(payouts) if payouts is not None else None,
                           labels=tuple(class_labels()), nodes=NODES,
                           strategy=tuple(tuple(float(v) for v in row) for row in x),
                           ev=(float(values[0]), float(values[1]), float(values[2])),
                           gains=(float(gains[0]), float(gains[1]), float(gains[2])),
                           exploitability=float(gains.sum()), iterations=iterations, samples=samples,
                           units="big blinds" if payouts is None else "prize money")
