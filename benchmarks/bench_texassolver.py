"""cardlab's solver beside TexasSolver's console build on the same spot, at equal exploitability.

Run: python benchmarks/bench_texassolver.py --texassolver PATH/console_solver --resources PATH/resources
         [--spot turn|flop] [--threads 2] [--target 1.0]
     python benchmarks/bench_texassolver.py --cardlab-only [--spot turn|flop] [--threads 2] [--target 0.469]
     (cardlab alone on the same spot to --target, e.g. the exploitability an earlier TexasSolver run reached)

TexasSolver (bupticybee/TexasSolver on GitHub, its ``console`` branch; GPL) is a benchmark peer
only: build it yourself outside this repository (``cmake .. -DCMAKE_BUILD_TYPE=Release && make
console_solver``); nothing of it is part of cardlab. Its resources folder needs
``compairer/card5_dic_sorted.txt`` (every five-card hand, ``Ac-Kc-Qc-Jc-Tc,1``, a smaller rank
the stronger hand); when the file is missing (a snapshot without its large files) this script
writes it from cardlab's evaluator.

Each solver gets the same spot: pot, stacks, board, ranges, a 50% bet on every street and an
all-in bet and raise (TexasSolver's ``allin``; no other raise), no all-in threshold (its 1.0, our
0), OOP leading into the last aggressor only all-in (its default without donk sizes plus
``allin``), suit isomorphism on. TexasSolver runs to ``--target`` (its ``set_accuracy``, % of the
pot, checked every 10 iterations as ``(BR_oop + BR_ip) / 2``, the measure cardlab prints too);
cardlab then runs to the exploitability TexasSolver reached, and the ratio of the two solve times
(the tree building left out of both) is printed. The trees are built by each solver's own rules
from these settings, so small differences in them remain (TexasSolver allows four raises).
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import resource
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from cardlab.solver import river_game, solve

IP = "22+, A2s+, K2s+, Q5s+, J7s+, T7s+, 97s+, 86s+, 75s+, 65s, 54s, A3o+, K9o+, Q9o+, J9o+, T9o"
OOP = ("22-99, A2s-AJs, K2s+, Q4s+, J6s+, T6s+, 96s+, 85s+, 74s+, 63s+, 53s+, 43s, A2o-AJo, K7o+, Q8o+, "
       "J8o+, T8o+, 98o, 87o, 76o")
SPOTS = {"turn": ("Qs Jh 2h 8d", 6.0, 97.0), "flop": ("Qs Jh 2h", 6.0, 97.0)}


def texas_ranges(text: str) -> str:
    """cardlab's range text as TexasSolver reads it: its classes, comma-separated, ``:weight``."""
    from cardlab.poker.ranges import parse_range

    r = parse_range(text)
    classes: dict[str, float] = {}
    for label, weight in zip(r.labels(), r.weights):
        a, b = sorted((label[0], label[2]), key="23456789TJQKA".index, reverse=True)
        name = a + b if a == b else a + b + ("s" if label[1] == label[3] else "o")
        classes[name] = float(weight)
    return ",".join(name if w == 1 else f"{name}:{w:g}" for name, w in classes.items())


def dictionary(resources: Path) -> None:
    """Write TexasSolver's five-card ranks from cardlab's evaluator if the file is missing."""
    path = resources / "compairer" / "card5_dic_sorted.txt"
    if path.exists():
        return
    from cardlab.poker.evaluator import strengths

    combos = np.array(list(itertools.combinations(range(52), 5)), dtype=np.int32)
    s = strengths(combos)
    levels = np.unique(s)
    rank = len(levels) - np.searchsorted(levels, s)
    names = np.array([r + su for r in "23456789TJQKA" for su in "cdhs"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{'-'.join(p)},{k}\n" for p, k in zip(names[combos].tolist(), rank.tolist())))


def texas_input(board: str, pot: float, stack: float, threads: int, target: float) -> str:
    streets = ["flop", "turn", "river"][len(board.split()) - 3:]
    lines = [f"set_pot {pot:g}", f"set_effective_stack {stack:g}", f"set_board {','.join(board.split())}",
             f"set_range_oop {texas_ranges(OOP)}", f"set_range_ip {texas_ranges(IP)}"]
    for street in streets:
        for who in ("oop", "ip"):
            lines += [f"set_bet_sizes {who},{street},bet,50", f"set_bet_sizes {who},{street},allin"]
    lines += ["set_allin_threshold 1.0", "build_tree", f"set_thread_num {threads}", f"set_accuracy {target:g}",
              "set_max_iteration 1000", "set_print_interval 10", "set_use_isomorphism 1", "start_solve"]
    return "\n".join(lines) + "\n"


def run_texas(binary: Path, resources: Path, text: str) -> tuple[float, float, float]:
    """TexasSolver's last printed exploitability (% of the pot), its solve time (s) and the CPU
    seconds of its whole run (reading its five-card table and building its tree included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "input.txt"
        config.write_text(text)
        log = subprocess.run([str(binary), "-i", str(config), "-r", str(resources)], cwd=folder, check=True,
                             capture_output=True, text=True).stdout
    exploitability = [float(x) for x in re.findall(r"Total exploitability ([-\d.eE]+) precent", log)]
    seconds = [float(x) for x in re.findall(r"time used: ([\d.]+)", log)]
    if not exploitability or not seconds:
        raise SystemExit("TexasSolver printed no exploitability: " + log[-500:])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return exploitability[-1], seconds[-1], cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texassolver", type=Path, help="TexasSolver's console_solver")
    parser.add_argument("--resources", type=Path, help="its resources folder")
    parser.add_argument("--cardlab-only", action="store_true", help="run cardlab alone to --target")
    parser.add_argument("--spot", choices=sorted(SPOTS), default="turn")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--target", type=float, default=1.0, help="TexasSolver's accuracy, %% of the pot")
    args = parser.parse_args()
    if not args.cardlab_only and (args.texassolver is None or args.resources is None):
        parser.error("give --texassolver and --resources, or --cardlab-only")
    board, pot, stack = SPOTS[args.spot]
    print(f"spot: {args.spot}, board {board}, pot {pot:g}, stacks {stack:g}, {args.threads} threads, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    theirs = args.target
    if not args.cardlab_only:
        dictionary(args.resources)
        theirs, their_seconds, their_cpu = run_texas(args.texassolver, args.resources,
                                                     texas_input(board, pot, stack, args.threads, args.target))
        print(f"TexasSolver: exploitability {theirs:.3f}% of the pot in {their_seconds:.1f} s "
              f"({their_cpu:.1f} s CPU for the whole run; load average now {os.getloadavg()[0]:.1f})", flush=True)
    game = river_game(OOP, IP, board, pot=pot, stack=stack, oop_bet="50%, a", ip_bet="50%, a", oop_raise="a",
                      ip_raise="a", max_raises=4, allin_threshold=0.0, oop_donk="a")
    start, start_cpu = time.perf_counter(), time.process_time()
    engine = solve(game, target=theirs, time_limit=3600, workers=args.threads)
    ours, our_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(f"cardlab: exploitability {engine.exploitability_pct:.3f}% of the pot in {ours:.1f} s "
          f"({engine.iterations} iterations, {game.tree.size:,} nodes, about {game.memory_bytes() / 2**20:,.0f} MB; "
          f"{our_cpu:.1f} s CPU; peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB; "
          f"load average now {os.getloadavg()[0]:.1f})")
    print("checks (iterations: % of the pot): " + ", ".join(f"{t}: {pct:.3f}" for t, pct in engine.checks))
    if args.cardlab_only:
        return
    print(f"ratio: cardlab takes {ours / their_seconds:.2f} x TexasSolver's time at equal exploitability "
          f"({our_cpu / their_cpu:.2f} x its CPU seconds, its start-up included)")


if __name__ == "__main__":
    main()
