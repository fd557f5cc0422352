"""Speed of exact and simulated equity, side by side with eval7 and pokerkit in one process.

Run: python benchmarks/bench_equity.py [--quick]      (peers: pip install -e '.[bench]')
     python benchmarks/bench_equity.py --ranking      (prints the 169-class order of cardlab.poker.ranges)

Goals (issue 11; benchmark goals, not timed tests):
- AA vs KK, all 36 suit combinations exact: <= 0.5 s on one core;
- one exact heads-up preflop matchup: >= 30x faster than eval7's exact routine. eval7's
  ``py_hand_vs_range_exact`` is exact for a complete (five-card) board only, so an exact preflop
  answer with it is a Python loop over the 1,712,304 boards, one call each, as its users write it;
  it is timed on the first ``--eval7-boards`` boards and scaled up (the per-board cost is flat);
- simulation: >= 10M hold'em showdowns a second on the 2-core machine (cardlab with 2 workers;
  eval7's and pokerkit's Monte Carlo routines on one core for the ratio);
- Omaha (4 cards) heads-up preflop exact <= 5 s.

The machine is shared while these figures are taken: treat them as rough, and the ratios
(measured in the same process, minutes apart at most) as the better guide.
"""

from __future__ import annotations

import os
import argparse
import importlib
import time
from itertools import combinations
from typing import Any, Callable

import numpy as np

from cardlab.cards import RANKS, SUITS
from cardlab.poker.equity import equity
from cardlab.poker.ranges import class_label


def seconds(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    runs = [seconds(fn) for _ in range(repeat)]
    return min(t for t, _ in runs), runs[0][1]


def name(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def eval7_exact_preflop(hero: str, villain: str, limit: int) -> tuple[float, float]:
    """(seconds for all boards, extrapolated; equity over the boards timed) with eval7's exact routine."""
    eval7 = importlib.import_module("eval7")
    h = [eval7.Card(hero[:2]), eval7.Card(hero[2:])]
    v = [((eval7.Card(villain[:2]), eval7.Card(villain[2:])), 1.0)]
    used = {hero[:2], hero[2:], villain[:2], villain[2:]}
    deck = [eval7.Card(name(c)) for c in range(52) if name(c) not in used]
    boards = combinations(deck, 5)
    total = 0.0
    n = 0
    start = time.perf_counter()
    for board in boards:
        total += eval7.py_hand_vs_range_exact(h, v, list(board))
        n += 1
        if n == limit:
            break
    spent = time.perf_counter() - start
    return spent * 1_712_304 / n, total / n


def eval7_monte_carlo(hero: str, villain: str, trials: int) -> float:
    eval7 = importlib.import_module("eval7")
    h = [eval7.Card(hero[:2]), eval7.Card(hero[2:])]
    v = eval7.HandRange(villain)
    t, _ = seconds(lambda: eval7.py_hand_vs_range_monte_carlo(h, v, [], trials))
    return trials / t


def pokerkit_rate(specs: list[str], trials: int, hole: int = 2) -> float:
    pk = importlib.import_module("pokerkit")
    ranges = [pk.parse_range(s) if hole == 2 else [tuple(pk.Card.parse(s))] for s in specs]
    hand = pk.StandardHighHand if hole == 2 else pk.OmahaHoldemHand
    t, _ = seconds(lambda: pk.calculate_equities(ranges, (), hole, 5, pk.Deck.STANDARD, (hand,),
                                                 sample_count=trials))
    return trials / t


def ranking(trials: int) -> None:
    """The 169 classes by equity against one random hand (seeded simulation), best first."""
    rows = []
    for i in range(169):
        label = class_label(i)
        suited = len(label) == 3 and label[2] == "s"
        hand = label[0] + "s" + label[1] + ("s" if suited else "h")
        r = equity([hand, "random"], trials=trials, seed=i, workers=2)
        rows.append((r.players[0].equity, label))
    rows.sort(reverse=True)
    print(" ".join(label for _, label in rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repeats and samples")
    parser.add_argument("--ranking", action="store_true", help="print the preflop ranking and stop")
    parser.add_argument("--eval7-boards", type=int, default=200_000)
    args = parser.parse_args()
    if args.ranking:
        ranking(400_000)
        return
    repeat = 1 if args.quick else 3
    rows: list[tuple[str, str, str, str]] = []
    # the first call of a session builds the lookup tables and the list of boards (cached after)
    t, _ = seconds(lambda: equity(["AsAh", "KdKc"]))
    rows.append(("first call in a session: AsAh vs KdKc, tables and board list built", f"{t:.2f} s", "", ""))
    equity(["AA", "KK"])

    t, r = best(lambda: equity(["AA", "KK"]), repeat)
    rows.append(("AA vs KK, 36 suit combinations, exact (61,642,944 showdowns)", f"{t:.3f} s", "<= 0.5 s",
                 f"AA {r.players[0].equity:.3%}"))

    t, r = best(lambda: equity(["AsKs", "QdQc"]), repeat)
    line = ("AsKs vs QdQc preflop exact (1,712,304 boards)", f"{t:.3f} s", ">= 30x eval7", f"{r.players[0].equity:.4%}")
    rows.append(line)
    try:
        e7, e7_eq = eval7_exact_preflop("AsKs", "QdQc", args.eval7_boards // (4 if args.quick else 1))
        rows.append(("  eval7 py_hand_vs_range_exact, one call per board (scaled)", f"{e7:.2f} s",
                     f"cardlab {e7 / t:.0f}x", f"{e7_eq:.4%} on the boards timed"))
    except ImportError:
        rows.append(("  eval7", "not installed", "", ""))

    t, r = best(lambda: equity(["As Ah Kd Qc", "Js Ts 9h 8h"], game="omaha"), 1)
    rows.append(("Omaha As Ah Kd Qc vs Js Ts 9h 8h preflop exact (1,086,008 boards)", f"{t:.2f} s", "<= 5 s",
                 f"{r.players[0].equity:.3%}"))
    t, r = best(lambda: equity(["As Ah Kd Qc", "Js Ts 9h 8h"], game="omaha", hi_lo=True), 1)
    rows.append(("  the same, hi-lo", f"{t:.2f} s", "", f"{r.players[0].equity:.3%}"))

    t, r = best(lambda: equity(["AKs", "QQ+, AKo", "JTs, 99"], board="Qh 9c 2d"), repeat)
    rows.append(("3-way ranges on a flop, exact", f"{t:.3f} s", "", f"{r.players[0].equity:.3%}"))

    trials = 2_000_000 if args.quick else 10_000_000
    for workers in (1, 2):
        t, r = seconds(lambda: equity(["AsAh", "KdKc"], trials=trials, seed=1, workers=workers))
        rows.append((f"simulation AsAh vs KdKc, {workers} worker(s)", f"{trials / t / 1e6:.1f}M showdowns/s",
                     ">= 10M/s on 2 cores" if workers == 2 else "", f"{r.players[0].equity:.3%}"))
    ours = trials / t
    t, r = seconds(lambda: equity(["AKs", "QQ+"], trials=trials // 2, seed=1, workers=2))
    rows.append(("simulation AKs vs QQ+ (ranges), 2 workers", f"{trials / 2 / t / 1e6:.1f}M showdowns/s", "",
                 f"{r.players[0].equity:.3%}"))
    try:
        rate = eval7_monte_carlo("AsAh", "KdKc", 1_000_000 if not args.quick else 200_000)
        rows.append(("  eval7 py_hand_vs_range_monte_carlo, one core", f"{rate / 1e6:.2f}M showdowns/s",
                     f"cardlab {ours / rate:.1f}x", ""))
    except ImportError:
        rows.append(("  eval7", "not installed", "", ""))
    try:
        rate = pokerkit_rate(["AsAh", "KdKc"], 20_000 if not args.quick else 5_000)
        rows.append(("  pokerkit calculate_equities, one core", f"{rate / 1e3:.1f}k showdowns/s",
                     f"cardlab {ours / rate:.0f}x", ""))
        rate_o = pokerkit_rate(["AsAhKdQc", "JsTs9h8h"], 2_000 if not args.quick else 500, hole=4)
        t, _ = seconds(lambda: equity(["As Ah Kd Qc", "Js Ts 9h 8h"], game="omaha", trials=1_000_000,
                                      seed=1, workers=1))
        rows.append(("  Omaha simulation: pokerkit vs cardlab, one core", f"{rate_o / 1e3:.2f}k vs "
                     f"{1e6 / t / 1e3:.0f}k showdowns/s", f"cardlab {1e6 / t / rate_o:.0f}x", ""))
    except ImportError:
        rows.append(("  pokerkit", "not installed", "", ""))

    width = max(len(r[0]) for r in rows)
    print(f"load average before the run {os.getloadavg()[0]:.1f}; ratios are within one process")
    for task, took, goal, note in rows:
        print(f"{task:<{width}}  {took:>22}  {goal:>20}  {note}")


if __name__ == "__main__":
    main()
