"""Overhead of the Dask cluster path against local worker processes, on the same job.

Run: python benchmarks/bench_cluster.py [--seconds 60] [--workers 2]   (needs pip install -e '.[cluster]')

The job is a seeded simulation of 7-card poker categories, sized so that it takes
about ``--seconds`` on ``--workers`` local processes. It runs once on local worker
processes (``workers=W``) and once on a ``LocalCluster`` of W single-threaded
worker processes (``--cluster local:W``) started beforehand, whose start-up time is
printed apart (a real cluster is started once and used for many jobs). The counts
of the two runs must be identical. Goal from the issue: the cluster path at most 10%
slower than local processes on a 60-second job; the script also prints the compute
time of one chunk on a worker, the chunks per Dask task chosen from it, and the
round trip of an empty Dask task.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from cardlab.cluster import connect
from cardlab.dealing import Deck, Draw
from cardlab.engine import DEFAULT_CHUNK, _CountTask, simulate
from cardlab.poker.odds import PokerCategory


def _nothing(i: int) -> int:
    return i


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the job on local processes")
    parser.add_argument("--workers", type=int, default=2, help="local processes and cluster workers")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run both paths this many times, alternating which goes first (a shared "
                             "machine's load drifts: compare the totals)")
    args = parser.parse_args()
    draw, feature = Draw(Deck.standard(), 7), PokerCategory()
    task = _CountTask(draw, feature, len(feature.values(draw)))
    task(np.random.SeedSequence(0), 1000)  # build the lookup tables before timing
    times = []
    for i in range(3):
        start = time.perf_counter()
        task(np.random.SeedSequence(i), DEFAULT_CHUNK)
        times.append(time.perf_counter() - start)
    chunk_time = sorted(times)[1]
    chunks = max(args.workers, math.ceil(args.seconds * args.workers / chunk_time))
    trials = chunks * DEFAULT_CHUNK
    print(f"job: {trials:,} seven-card hands = {chunks} chunks of {DEFAULT_CHUNK:,} "
          f"({chunk_time:.3f} s per chunk here, one process)")

    start = time.perf_counter()
    executor = connect(f"local:{args.workers}")
    startup = time.perf_counter() - start
    print(f"Dask LocalCluster of {args.workers} single-threaded worker processes started in {startup:.1f} s")
    with executor:
        simulate(draw, feature, 2 * DEFAULT_CHUNK, seed=2, executor=executor)  # workers import cardlab
        client = executor.client
        start = time.perf_counter()
        for future in [client.submit(_nothing, i, pure=False) for i in range(200)]:
            future.result()
        round_trip = (time.perf_counter() - start) / 200
        totals = {"local": 0.0, "cluster": 0.0}
        busy = 0.0
        for r in range(args.rounds):
            order = ("local", "cluster") if r % 2 == 0 else ("cluster", "local")
            got = {}
            for path in order:
                before = executor.compute_seconds
                start = time.perf_counter()
                if path == "local":
                    result = simulate(draw, feature, trials, seed=1, workers=args.workers)
                else:
                    result = simulate(draw, feature, trials, seed=1, executor=executor)
                seconds = time.perf_counter() - start
                totals[path] += seconds
                got[path] = (seconds, result.counts)
                if path == "cluster":
                    busy = (executor.compute_seconds - before) / (seconds * args.workers)
            assert got["local"][1] == got["cluster"][1], "the cluster gave another answer"
            print(f"round {r + 1}: local processes {got['local'][0]:.2f} s, Dask {got['cluster'][0]:.2f} s "
                  f"(workers inside tasks {100 * busy:.0f}% of the time); identical counts")
        seconds = executor.chunk_seconds or 0.0
        print(f"chunk time on a worker: {seconds:.3f} s; chunks per Dask task: {executor.batch} "
              f"(about {seconds * executor.batch:.2f} s per task)")
        print(f"empty Dask task, submitted 200 at a time: {1000 * round_trip:.1f} ms each")
    ratio = totals["cluster"] / totals["local"] - 1
    print(f"overhead of the cluster path: {100 * ratio:+.1f}% over {args.rounds} round(s) "
          f"(goal <= 10% on a 60-second job)")


if __name__ == "__main__":
    main()
