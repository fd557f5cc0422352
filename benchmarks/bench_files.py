"""Benchmark: read a board file of 10^6 boards (PBN as cardlab writes it, and BBO LIN) and print
the CPU time, the wall time and the peak memory of each read, with the goals "met" or "not met".

Run:  python benchmarks/bench_files.py [--boards 1000000] [--formats pbn,lin]

The files are written once into a temporary folder (5,000 random deals repeated under their own
numbers; 10^6 PBN boards are about 290 MB, LIN about 100 MB), then each is read in a child
process (``read_pbn_boards(..., by_number=True)`` or ``read_lin``), which reports its
``time.process_time()``, wall time and ``ru_maxrss``.  Goals (issue 25, "10^6 boards must read
in seconds", read here as "a few seconds"; bounded memory): at most 5 s of CPU for either format
(it was 60 s for LIN and about two hours for PBN when the issue was filed; 20 s and 11.6 s before
the bulk readers, 7.1 s and 9.2 s before their compiled scanners), and a peak memory of at most the file's text, 400 bytes a board read and 64 MB
for the interpreter.  On a shared machine CPU time is the figure to compare; ``uptime``'s load is
printed beside it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

#: The goals: CPU seconds for 10^6 boards (scaled with --boards, at least 1 s); memory a board
#: read beyond the file's text and the interpreter's own.
CPU_GOAL_PER_MILLION = 5.0
MEMORY_PER_BOARD = 400
MEMORY_BASE = 64 * 2**20

_CHILD = """
import resource, sys, time
from pathlib import Path
fmt, path = sys.argv[1], sys.argv[2]
text = Path(path).read_text(encoding="utf-8")
cpu, wall = time.process_time(), time.perf_counter()
if fmt == "pbn":
    from cardlab.pbn import read_pbn_boards
    boards = read_pbn_boards(text, path, by_number=True)
else:
    from cardlab.bridge.lin import read_lin
    boards = read_lin(text, path)
print(len(boards), time.process_time() - cpu, time.perf_counter() - wall,
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def _write(folder: str, boards: int) -> dict[str, str]:
    from cardlab.bridge.boardsets import BoardSet
    from cardlab.deal import Board, Deal

    rng = np.random.default_rng(1)
    base = np.repeat(np.arange(4, dtype=np.uint8), 13)
    owners = [Deal(rng.permutation(base).tobytes()) for _ in range(min(boards, 5000))]
    paths = {fmt: os.path.join(folder, f"boards.{fmt}") for fmt in ("pbn", "lin")}
    with open(paths["pbn"], "wb") as pbn, open(paths["lin"], "wb") as lin:
        for start in range(0, boards, 5000):
            chunk = BoardSet(tuple(Board(n + 1, owners[n % len(owners)]) for n in range(start, min(boards, start + 5000))))
            text = chunk.encode("pbn")
            pbn.write(text if start == 0 else text.split(b"\n", 3)[3])
            lin.write(chunk.encode("lin"))
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1_000_000)
    parser.add_argument("--formats", default="pbn,lin")
    args = parser.parse_args(argv)
    all_met = True
    with tempfile.TemporaryDirectory() as folder:
        paths = _write(folder, args.boards)
        for fmt in args.formats.split(","):
            size = os.path.getsize(paths[fmt])
            done = subprocess.run([sys.executable, "-c", _CHILD, fmt, paths[fmt]], capture_output=True, text=True,
                                  check=True)
            count, cpu, wall, peak = done.stdout.split()
            load = os.getloadavg()[0]
            cpu_goal = max(1.0, CPU_GOAL_PER_MILLION * args.boards / 1e6)
            memory_goal = size + MEMORY_PER_BOARD * args.boards + MEMORY_BASE
            cpu_met = float(cpu) <= cpu_goal
            memory_met = int(peak) <= memory_goal
            all_met &= cpu_met and memory_met
            print(f"{fmt.upper():3}  {int(count):,} boards ({size / 2**20:,.0f} MB): {float(cpu):.1f} s CPU "
                  f"(goal <= {cpu_goal:.0f} s: {'met' if cpu_met else 'not met'}), {float(wall):.1f} s wall, "
                  f"peak {int(peak) / 2**20:,.0f} MB (goal <= {memory_goal / 2**20:,.0f} MB: "
                  f"{'met' if memory_met else 'not met'}); load {load:.1f}")
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
