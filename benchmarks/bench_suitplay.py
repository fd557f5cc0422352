"""Speed of ``cardlab bridge suitplay`` (the whole command, one process per combination).

Run: python benchmarks/bench_suitplay.py [--all] [--limit N]

Goal from issue 29: every combination with 8 or 9 cards between the two hands and up to 5
honours (A K Q J T between both hands) solved in <= 1 s, whole command, on a 2-core machine.
Without ``--all`` a sample is timed: SuitPlay's reference combinations (tests/data/suitplay)
and a spread of 8- and 9-card combinations; ``--all`` walks every such combination (up to
symmetry: North holds at least as many cards as South), which takes long.
"""

from __future__ import annotations

import argparse
import itertools
import resource
import subprocess
import sys
import time

GOAL_S = 1.0
RANKS = "AKQJT98765432"
HONOURS = "AKQJT"


def combinations(total: int) -> list[tuple[str, str]]:
    """Every split of ``total`` cards of the suit between North and South (North the longer)
    with at most 5 honours between them; small cards are named by rank."""
    out = []
    for cards in itertools.combinations(RANKS, total):
        if sum(c in HONOURS for c in cards) > 5:
            continue
        for size in range((total + 1) // 2, total + 1):
            for north in itertools.combinations(cards, size):
                south = "".join(c for c in cards if c not in north) or "-"
                out.append(("".join(north), south))
    return out


SAMPLE = [("AQT98", "5432"), ("AKJT", "5432"), ("AJ92", "K843"), ("AJ32", "K954"), ("KJ2", "A9876"),
          ("QJ82", "A93"), ("AQ32", "J654"), ("KT98", "A432"), ("AK987", "6543"), ("QJ9", "A8765"),
          ("J92", "A743"), ("J92", "A753")]


def time_command(north: str, south: str) -> tuple[float, float]:
    """Wall-clock seconds of the whole command, and the CPU seconds it used (the fair figure
    on a shared machine: the wall clock grows with the other processes' load)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardlab", "bridge", "suitplay", north, south, "--format", "json"],
                   check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--all", action="store_true", help="every 8- and 9-card combination (long)")
    parser.add_argument("--limit", type=int, default=0, help="stop after this many combinations")
    args = parser.parse_args()
    combos = combinations(8) + combinations(9) if args.all else SAMPLE
    if args.limit:
        combos = combos[:args.limit]
    slow = 0
    worst = 0.0
    for north, south in combos:
        wall, cpu = time_command(north, south)
        worst = max(worst, cpu)
        slow += cpu > GOAL_S
        print(f"{north:>9} / {south:<9} {wall:7.2f} s wall {cpu:7.2f} s CPU{'  > goal' if cpu > GOAL_S else ''}",
              flush=True)
    print(f"{len(combos)} combinations, worst {worst:.2f} s CPU, {slow} over the {GOAL_S:.0f} s goal")


if __name__ == "__main__":
    main()
