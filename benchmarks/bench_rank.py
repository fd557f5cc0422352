"""End to end: ``cardlab poker rank --file`` on 10^6 hands, time and peak memory.

Run: python benchmarks/bench_rank.py [--hands N] [--repeat R]

Writes N random hands (5 cards, canonical text, one per line) to a temporary
file, then runs the command in a fresh process per format, interpreter start
and imports included, output written with ``-o``. Reports the best wall time of
R runs and the peak resident memory of the process (``ru_maxrss``). Goal from
the issue: 10^6 hands ranked end to end in <= 2 s and <= 300 MB (before the
vectorised parser: about 21 s and 0.8-1.6 GB).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from cardlab.cards import RANKS, SUITS
from cardlab.dealing import Deck, Draw

GOAL_SECONDS = 2.0
GOAL_MB = 300.0


def write_hands(path: Path, n: int, k: int = 5, seed: int = 1) -> None:
    hands = Draw(Deck.standard(), k).sample(np.random.default_rng(seed), n)
    names = np.array([r + s for r in RANKS for s in SUITS])
    text = names[hands]
    with open(path, "w") as out:
        for start in range(0, n, 100_000):
            out.write("".join(" ".join(row) + "\n" for row in text[start : start + 100_000]))


def run_once(argv: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak resident MB of one run of the
    command in a fresh process. On a busy machine the CPU time is the steadier figure."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "cardlab", *argv])
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"cardlab {' '.join(argv)} exited with {process.returncode}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # kilobytes on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}; {args.hands:,} five-card hands, "
          f"best of {args.repeat} runs in fresh processes")
    with tempfile.TemporaryDirectory() as tmp:
        hands, out = Path(tmp) / "hands.txt", Path(tmp) / "out.txt"
        write_hands(hands, args.hands)
        print(f"  input: {hands.stat().st_size / 1e6:.1f} MB")
        for fmt in ("table", "csv", "json"):
            runs = [run_once(["poker", "rank", "--file", str(hands), "--format", fmt, "-o", str(out)])
                    for _ in range(args.repeat)]
            seconds = min(r[0] for r in runs)
            cpu = min(r[1] for r in runs)
            mb = max(r[2] for r in runs)
            verdict = "ok" if seconds <= GOAL_SECONDS and mb <= GOAL_MB else "MISSED"
            print(f"  rank --format {fmt:<5}: {seconds:5.2f} s wall, {cpu:5.2f} s CPU (goal <= "
                  f"{GOAL_SECONDS:g} s: {seconds / GOAL_SECONDS:4.2f} of it), peak {mb:4.0f} MB (goal <= "
                  f"{GOAL_MB:g} MB: {mb / GOAL_MB:4.2f} of it)  {verdict}; output "
                  f"{out.stat().st_size / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
