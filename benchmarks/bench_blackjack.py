"""Speed of blackjack by combinatorial analysis (cardlab.casino.blackjack).

Run: python benchmarks/bench_blackjack.py [--repeat N]

Goal of issue 43: the six-deck S17 DAS basic-strategy house edge exact in <= 10 s: the basic
strategy derived from the full shoe's exact figures, then its house edge, every player
composition against every up card (the dealer sequences' cache cleared each run). Judged on CPU
seconds (numpy may use a second thread for its matrix products; the wall clock is printed too).
"""

from __future__ import annotations

import argparse
import os
import time

from cardlab.casino.blackjack import basic_strategy, house_edge
from cardlab.casino.blackjack_dealer import _design, dealer_sequences
from cardlab.casino.blackjack_engine import Hands
from cardlab.casino.blackjack_rules import Rules

GOAL_SECONDS = 10.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs; the best is kept (default 2)")
    args = parser.parse_args()
    rules = Rules(decks=6)
    wall, cpu, edge = [], [], 0.0
    for _ in range(args.repeat):
        dealer_sequences.cache_clear()
        _design.cache_clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        tables: dict[int, Hands] = {}
        edge = house_edge(rules, basic_strategy(rules, tables), tables=tables)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(f"six decks S17 DAS, basic strategy: house edge {edge:.4%}; best of {args.repeat}: "
          f"{min(cpu):.2f} s CPU, {min(wall):.2f} s wall (load average {os.getloadavg()[0]:.1f}); "
          f"goal <= {GOAL_SECONDS:.0f} s: {'met' if min(cpu) <= GOAL_SECONDS else 'NOT met'}")
    return 0 if min(cpu) <= GOAL_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
