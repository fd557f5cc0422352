"""The engine's fused route against its generic route: the seed job and a bridge table.

Run: python benchmarks/bench_fused.py [--quick]

The seed job is ``engine.simulate(Draw(Deck.standard(), 5), PokerCategory(), 10_000_000)``: by
the fused route (drawn, valued and counted in csrc/draw_tally.c) and by the generic route (the
same feature with its kernel hidden: the same hands drawn by ``drawing.draw_hands`` and handed to
Python, then the feature's ``encode``), which gives the same counts for the same seed (checked
here too). Each row prints wall seconds and the process's
CPU seconds (the fairer figure on a loaded machine) with one worker, and wall seconds with two.
The load average is printed first: figures taken while other work loads the machine are only
indicative; say so when quoting them.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any, Hashable, Sequence

import numpy as np

from cardlab import engine
from cardlab.bridge.features import Points
from cardlab.dealing import Deck, Draw
from cardlab.poker.odds import PokerCategory


class Generic:
    """The feature without its fused task: the engine's generic route."""

    def __init__(self, feature: Any) -> None:
        self.feature, self.name, self.axes = feature, feature.name, feature.axes

    def values(self, dealing: Any) -> Sequence[Hashable]:
        return self.feature.values(dealing)  # type: ignore[no-any-return]

    def exact_counts(self, dealing: Any) -> Sequence[int]:
        return self.feature.exact_counts(dealing)  # type: ignore[no-any-return]

    def encode(self, dealing: Any, hands: np.ndarray) -> np.ndarray:
        return self.feature.encode(dealing, hands)  # type: ignore[no-any-return]


def timed(draw: Draw, feature: Any, trials: int, workers: int, rounds: int) -> tuple[float, float, tuple[int, ...]]:
    """Best wall and CPU seconds of ``rounds`` runs, and the counts."""
    wall, cpu, counts = float("inf"), float("inf"), ()
    for _ in range(rounds):
        w, c = time.perf_counter(), time.process_time()
        counts = engine.simulate(draw, feature, trials, seed=1, workers=workers).counts
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
    return wall, cpu, counts


def row(label: str, draw: Draw, feature: Any, trials: int, rounds: int) -> None:
    engine.simulate(draw, feature, 1000, seed=1)  # tables built before timing
    fw, fc, fused = timed(draw, feature, trials, 1, rounds)
    gw, gc, generic = timed(draw, Generic(feature), trials, 1, rounds)
    fw2, _, fused2 = timed(draw, feature, trials, 2, rounds)
    gw2, _, _ = timed(draw, Generic(feature), trials, 2, rounds)
    same = fused == generic == fused2
    print(f"{label}, {trials:,} hands")
    print(f"  one worker:  fused {fw:.3f} s wall, {fc:.3f} s CPU;  generic {gw:.3f} s wall, {gc:.3f} s CPU;"
          f"  ratio {gc / fc:.2f}x by CPU, {gw / fw:.2f}x by wall")
    print(f"  two workers: fused {fw2:.3f} s wall;  generic {gw2:.3f} s wall;  ratio {gw2 / fw2:.2f}x")
    print(f"  the same counts by both routes and worker counts: {'yes' if same else 'NO'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the hands, one round")
    args = parser.parse_args()
    scale, rounds = (10, 1) if args.quick else (1, 3)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs"
          " (figures under load are indicative only)")
    row("the seed job: five cards of 52 by category", Draw(Deck.standard(), 5), PokerCategory(), 10_000_000 // scale,
        rounds)
    row("seven cards of 52 by category", Draw(Deck.standard(), 7), PokerCategory(), 5_000_000 // scale, rounds)
    row("bridge hands by points", Draw(Deck.standard(), 13), Points(), 2_000_000 // scale, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
