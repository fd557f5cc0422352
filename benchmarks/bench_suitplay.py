"""Speed of ``cardlab bridge suitplay`` (the whole command, one process per combination).

Run: python benchmarks/bench_suitplay.py [--all | --spots N | --big] [--limit N]

Goal from issue 29: every combination with 8 or 9 cards between the two hands and up to 5
honours (A K Q J T between both hands) solved in <= 1 s, whole command, on a 2-core machine.
Without options a sample is timed: SuitPlay's reference combinations (tests/data/suitplay), a
spread of 8- and 9-card combinations and the hardest ones found. ``--all`` walks every such
combination as SuitPlay's help asks them to be entered (honours named, "x's" for the spot cards:
the lowest cards free), North holding at least as many cards as South (the mirror is the same
problem): 1614 commands. ``--spots N`` times N combinations drawn (seeded) from the ones with
every spot card named (392,821 of them, 70,039 up to equal cards: too many to time one by one).
The last line says whether the goal is met. ``--big`` times the combinations with more than 64
layouts (more than one 64-bit word in the compiled search; before, the Python search took them
for minutes): no goal line, the figures are compared with the route before in docs/performance.md.
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


def x_combinations(total: int) -> list[tuple[str, str]]:
    """Every combination of ``total`` cards as SuitPlay's help has them entered: the honours
    A K Q J T each with North, South or the defenders, the other cards x's (North the longer)."""
    out = []
    for owners in itertools.product("NSM", repeat=len(HONOURS)):
        north = "".join(h for h, o in zip(HONOURS, owners) if o == "N")
        south = "".join(h for h, o in zip(HONOURS, owners) if o == "S")
        smalls = total - len(north) - len(south)
        if smalls < 0 or smalls > 8:
            continue
        for k in range(smalls + 1):
            n, s = north + "x" * k, south + "x" * (smalls - k)
            if len(n) >= len(s):
                out.append((n, s or "-"))
    return out


#: more than 64 layouts: 144 (KJ63/9), 72, 72, 162, 108
BIG = [("KJ63", "9"), ("KJ63", "Q9"), ("K863", "J2"), ("Q96", "3"), ("KT7", "42")]
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
    parser.add_argument("--all", action="store_true", help="every 8- and 9-card combination, spots as x (long)")
    parser.add_argument("--spots", type=int, default=0, help="this many combinations with every spot named")
    parser.add_argument("--big", action="store_true", help="the combinations with more than 64 layouts")
    parser.add_argument("--limit", type=int, default=0, help="stop after this many combinations")
    args = parser.parse_args()
    if args.all:
        combos = x_combinations(8) + x_combinations(9)
    elif args.big:
        combos = BIG
    elif args.spots:
        import random

        pool = combinations(8) + combinations(9)
        combos = random.Random(29).sample(pool, args.spots)
    else:
        combos = SAMPLE
    if args.limit:
        combos = combos[:args.limit]
    slow = 0
    worst = 0.0
    times: list[tuple[float, float, str, str]] = []
    started = time.perf_counter()
    for north, south in combos:
        wall, cpu = time_command(north, south)
        worst = max(worst, cpu)
        times.append((cpu, wall, north, south))
        slow += cpu > GOAL_S
        print(f"{north:>9} / {south:<9} {wall:7.2f} s wall {cpu:7.2f} s CPU{'  > goal' if cpu > GOAL_S else ''}",
              flush=True)
    total_cpu = sum(t[0] for t in times)
    print(f"{len(combos)} combinations in {time.perf_counter() - started:.0f} s wall, {total_cpu:.0f} s CPU; "
          f"worst {worst:.2f} s CPU, {slow} over the {GOAL_S:.0f} s goal")
    print("slowest: " + ", ".join(f"{n}/{s} {c:.2f} s CPU ({w:.2f} s wall)" for c, w, n, s in sorted(times)[::-1][:8]))
    if not args.big:
        print(f"goal (every combination <= {GOAL_S:.0f} s CPU, whole command): {'met' if slow == 0 else 'not met'}")


if __name__ == "__main__":
    main()
