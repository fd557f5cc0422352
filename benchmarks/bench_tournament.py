"""Issue 30's speed goals: the 169-class equity matrix from scratch (<= 60 s on two cores), the whole
heads-up push/fold chart from 1 to 25 BB every 0.05 (<= 2 s), ICM for 20 players with 20 places
paid (<= 0.5 s). Prints each figure and whether the goal is met.

    python benchmarks/bench_tournament.py            # all three
    python benchmarks/bench_tournament.py --skip-matrix
    python benchmarks/bench_tournament.py --skip-matrix --three   # and one three-handed solve
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def _timed(label: str, goal: float | None, fn) -> float:  # type: ignore[no-untyped-def]
    """Wall time against the goal, and the CPU time beside it: on a loaded shared machine the
    wall time is the CPU time stretched by the other processes (no goal: the figures only)."""
    started, cpu = time.perf_counter(), time.process_time()
    fn()
    elapsed, used = time.perf_counter() - started, time.process_time() - cpu
    verdict = "" if goal is None else f" (goal <= {goal:g} s: {'met' if elapsed <= goal else 'not met'})"
    print(f"{label}: {elapsed:.3f} s wall, {used:.3f} s CPU{verdict}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skip-matrix", action="store_true", help="do not rebuild the class matrix")
    parser.add_argument("--three", action="store_true", help="also time one three-handed solve (no goal)")
    args = parser.parse_args()

    from cardlab.poker.icm import icm
    from cardlab.poker.preflop import class_matrix, compute_class_matrix
    from cardlab.poker.pushfold import chart

    stacks = [500 + 311 * k for k in range(20)]
    icm(stacks[:3], [1])  # warm up
    _timed("ICM, 20 players, 20 places paid", 0.5, lambda: icm(stacks, list(range(20, 0, -1))))

    class_matrix()
    _timed("push/fold chart, 1 to 25 BB every 0.05 (481 equilibria)", 2.0, lambda: chart())

    if args.three:
        from cardlab.poker.pushfold3 import pushfold3, triple_table

        _timed("three-handed tables read (first use)", None, triple_table)
        _timed("three-handed push/fold, 10 BB, ICM 50/30/20, 200 rounds", None,
               lambda: print("  ", repr(pushfold3(10, payouts=[50, 30, 20]))))

    if not args.skip_matrix:
        shipped = class_matrix()
        result: list[object] = []
        _timed("169 x 169 class matrix from scratch (2 threads)", 60.0,
               lambda: result.append(compute_class_matrix(workers=2)))
        fresh = result[0]
        same = all(np.array_equal(getattr(fresh, k), getattr(shipped, k)) for k in ("units", "pairs", "ties"))
        print(f"  rebuilt matrix equals the shipped package data: {same}")


if __name__ == "__main__":
    main()
