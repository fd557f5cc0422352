"""Double-dummy tables per second: cardlab's chunked batches against a plain endplay loop.

Run: python benchmarks/bench_dd.py [DEALS]   (default 40 deals; DDS takes 10-400 ms a table)

Goal from the issue: >= 1.8x the plain loop on 2 cores, and no more than 5% overhead per
table on one worker. The plain loop is ``calc_dd_table(Deal(pbn))`` per deal; cardlab deals the
same random deals chunk by chunk (seeded by chunk) and solves each chunk with DDS's multi-deal
call ``calc_all_tables``. Note that DDS itself already runs threads inside one call, so "one
worker" is one process, not one core. Figures are noisy when other jobs share the machine.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass

import numpy as np

from cardlab.bridge.dd import deals_to_endplay, tricks_batch
from cardlab.engine import chunk_seed, chunk_sizes, iter_chunks

CHUNK = 40  # DDS solves up to 200 deal-strain pairs (40 full tables) in one multi-deal call


@dataclass(frozen=True)
class _Tables:
    """One chunk: random deals from the chunk's seed, full tables solved in one batch."""

    def __call__(self, seed: np.random.SeedSequence, size: int) -> int:
        rng = np.random.default_rng(seed)
        hands = rng.permuted(np.broadcast_to(np.arange(52), (size, 52)), axis=1).reshape(size, 4, 13)
        return int(tricks_batch(hands).sum())


def _same_deals(n: int) -> np.ndarray:
    root = np.random.SeedSequence(1)
    parts = []
    for i, size in enumerate(chunk_sizes(n, CHUNK)):
        rng = np.random.default_rng(chunk_seed(root, i))
        parts.append(rng.permuted(np.broadcast_to(np.arange(52), (size, 52)), axis=1).reshape(size, 4, 13))
    return np.concatenate(parts)


def plain_loop(n: int) -> tuple[float, int]:
    from endplay.dds import calc_dd_table
    from endplay.types import Denom, Player

    deals = deals_to_endplay(_same_deals(n))
    start = time.perf_counter()
    total = 0
    for deal in deals:
        table = calc_dd_table(deal)
        total += sum(table[d, p] for d in Denom for p in Player)
    return time.perf_counter() - start, total


def chunked(n: int, workers: int) -> tuple[float, int]:
    start = time.perf_counter()
    total = sum(part for _, part in iter_chunks(_Tables(), chunk_sizes(n, CHUNK), np.random.SeedSequence(1),
                                                workers=workers))
    return time.perf_counter() - start, total


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    base, check = plain_loop(n)
    print(f"{n} random deals, full tables (20 cells each); load average before the run {os.getloadavg()[0]:.1f}")
    print(f"{'route':<34}{'tables/s':>10}{'vs plain loop':>16}")
    print(f"{'endplay calc_dd_table loop':<34}{n / base:>10.2f}{1.0:>15.2f}x")
    for workers in (1, 2):
        elapsed, total = chunked(n, workers)
        assert total == check, "the chunked route solved different deals or got different tricks"
        print(f"{f'cardlab chunks, {workers} worker(s)':<34}{n / elapsed:>10.2f}{base / elapsed:>15.2f}x")


if __name__ == "__main__":
    main()
