"""Speed of club direction: reading and scoring Bridgemate's sample .bws.

Run: python benchmarks/bench_club.py   (needs: pip install -e '.[club]')

Goal from issue 42: reading and scoring the public sample (12 tables, 288 results) <= 0.5 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from cardlab.club.bws import read_bws

SAMPLE = Path(__file__).parent.parent / "tests" / "data" / "12tables1section.bws"
GOAL_S = 0.5


def best_seconds(repeat: int = 5) -> tuple[float, float]:
    """The best of ``repeat`` runs: (reading, reading and scoring)."""
    read, both = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        doc = read_bws(SAMPLE).results()
        middle = time.perf_counter()
        doc.score()
        end = time.perf_counter()
        read.append(middle - start)
        both.append(end - start)
    return min(read), min(both)


def main() -> int:
    read, both = best_seconds()
    print(f"read .bws sample: {read * 1000:.0f} ms; read and score: {both * 1000:.0f} ms "
          f"(goal <= {GOAL_S * 1000:.0f} ms): {'met' if both <= GOAL_S else 'NOT met'}")
    return 0 if both <= GOAL_S else 1


if __name__ == "__main__":
    sys.exit(main())
