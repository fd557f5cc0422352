"""Benchmark: render the results site of a 30-board, 40-pair session (goal: under a second).

Run:  python benchmarks/bench_site.py [--boards 30] [--tables 20] [--repeat 5]

The session is a Mitchell of ``tables`` tables (NS pairs 1..T, EW pairs 1..T, so 40 pairs
for 20 tables) where every table plays every board, with random contracts and a random deal
per board: 40 scorecards of 30 rows, 30 travellers of 20 lines, 30 hand records.  The
double-dummy solver is left out (it is timed by its own benchmark): the figure is the
site's own work, rendering and writing the files.  Scoring the session is shown apart.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import numpy as np

from cardlab.board import SEATS, STRAINS
from cardlab.bridge.deals import random_deals
from cardlab.report.site import build_site
from cardlab.scoring.session import score_session
from cardlab.scoring.traveller import TravellerLine

def session_lines(boards: int, tables: int, seed: int) -> list[TravellerLine]:
    rng = np.random.default_rng(seed)
    lines = []
    for board in range(1, boards + 1):
        ns = rng.permutation(tables) + 1
        ew = rng.permutation(tables) + 1
        for table in range(tables):
            level = int(rng.integers(1, 8))
            contract = f"{level}{STRAINS[rng.integers(5)]}{'X' if rng.random() < 0.05 else ''}"
            tricks = int(np.clip(level + 6 + rng.integers(-3, 3), 0, 13))
            lines.append(TravellerLine.make(board, str(ns[table]), str(ew[table]),
                                            contract=contract, declarer=SEATS[rng.integers(4)],
                                            tricks=tricks))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    lines = session_lines(args.boards, args.tables, args.seed)
    names = {(d, str(p)): (f"Player {d}{p}a", f"Player {d}{p}b")
             for d in ("NS", "EW") for p in range(1, args.tables + 1)}
    start = time.perf_counter()
    result = score_session(lines, scale="ebu", movement="mitchell", names=names,
                           title="Benchmark session")
    scored = time.perf_counter() - start
    deals = {i + 1: d.to_pbn() for i, d in enumerate(random_deals(args.boards, seed=args.seed).deals)}

    build_site(result, deals=deals, double_dummy=False)  # warm up: templates compiled once per process
    render, write = [], []
    with tempfile.TemporaryDirectory() as out:
        for _ in range(args.repeat):
            start = time.perf_counter()
            site = build_site(result, deals=deals, club="Benchmark club", date="30/11/2026", double_dummy=False)
            middle = time.perf_counter()
            site.write(out)
            end = time.perf_counter()
            render.append(middle - start)
            write.append(end - middle)
    total = [r + w for r, w in zip(render, write)]
    size = sum(len(t.encode()) for t in site.files.values())
    print(f"session: {args.boards} boards, {len(result.pairs)} pairs, {len(lines)} lines "
          f"(scored in {scored * 1000:.0f} ms)")
    print(f"site: {len(site.files)} files, {size / 1024:.0f} KiB")
    print(f"render {statistics.median(render) * 1000:.0f} ms + write "
          f"{statistics.median(write) * 1000:.0f} ms = {statistics.median(total) * 1000:.0f} ms "
          f"(median of {args.repeat}); goal 1000 ms: {statistics.median(total):.2f}x the goal")


if __name__ == "__main__":
    main()
