"""Benchmark: matchpoint 10^6 traveller lines (10,000 boards x 100 results) and report lines/s.

Run:  python benchmarks/bench_scoring.py [--boards 10000] [--results 100] [--repeat 5]

The scores are realistic bridge scores (random contracts, declarers and tricks scored by
Law 77), so ties are as common as at a real table.  Only the vectorised matchpointing is
timed (sort + grouping + Neuberg), as the issue asks; reading files is not.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cardlab.scoring.contract import Contract, declarer_score
from cardlab.scoring.matchpoints import cross_imps, matchpoint_lines


def _score_table() -> np.ndarray:
    """Every (contract, vulnerable, tricks) score, to draw realistic scores from."""
    values = []
    for level in range(1, 8):
        for strain in ("C", "D", "H", "S", "NT"):
            for dbl in ("", "X"):
                contract = Contract.parse(f"{level}{strain}{dbl}")
                for vul in (False, True):
                    for tricks in range(max(0, level + 3), min(13, level + 8) + 1):
                        values.append(declarer_score(contract, tricks, vul))
    return np.array(values, dtype=np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=10_000)
    parser.add_argument("--results", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    table = _score_table()
    lines = args.boards * args.results
    boards = np.repeat(np.arange(1, args.boards + 1), args.results)
    # Each board: a few likely scores (the par-ish contracts) plus the odd outlier.
    per_board = table[rng.integers(0, table.size, (args.boards, 6))]
    pick = rng.choice(6, size=(args.boards, args.results), p=[.35, .25, .15, .1, .1, .05])
    sign = np.where(rng.random(args.boards) < 0.5, 1, -1)[:, None]
    scores = (np.take_along_axis(per_board, pick, axis=1) * sign).ravel()
    # Shuffle the lines so the kernel really has to group them.
    order = rng.permutation(lines)
    boards, scores = boards[order], scores[order]

    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        points = matchpoint_lines(boards, scores, scale="ebu")
        best = min(best, time.perf_counter() - start)
    assert points.shape == (lines,)
    print(f"matchpoints: {lines:,} lines ({args.boards:,} boards x {args.results} results) "
          f"in {best:.3f} s (best of {args.repeat}) = {lines / best:,.0f} lines/s")

    small = min(args.boards, 1000)
    mask = boards <= small
    start = time.perf_counter()
    cross_imps(boards[mask], scores[mask])
    took = time.perf_counter() - start
    print(f"cross-IMPs:  {int(mask.sum()):,} lines ({small:,} boards) in {took:.3f} s "
          f"= {mask.sum() / took:,.0f} lines/s (n x n per board)")


if __name__ == "__main__":
    main()
