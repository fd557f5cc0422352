"""Speed of the river solver: full ranges (every combo that misses the board) to 0.3% of the pot.

Run: python benchmarks/bench_solver.py [--target 0.3] [--repeat 3] [--turn] [--flop] [--threads N]
     [--no-river] [--flop-spot NAME] [--max-iterations N]

The issue's goal: a river spot with full ranges solved to 0.3% of the pot in <= 1 s. Two spots,
both with both ranges full (1,081 combos each on a river board):

* "standard": bets 33% and 75% of the pot for each player, one raise size of 60%, three raises;
* "wide": bets 33%, 75%, 150% and all-in, raises 60% and all-in, three raises (the largest tree
  a river study usually asks for).

``--turn`` adds turn spots (goal <= 30 s): full ranges on the board Qs Jh 2h 8d, pot 100, stacks
200, the same sizes on the turn and the river: "one size" (bets 50%, raise all-in) and
"standard" (bets 33% and 75%, raise 60%, two raises). (Qs Jh 2h 8d has all four suits: suit
isomorphism saves nothing there.)

``--flop`` runs the flop goal (<= 5 min on the 2-core machine, <= 4 GB, to 0.5% of the pot): a
single-raised pot, pot 6 and stacks 97 (big blinds), the board Qs Jh 2h, ranges like a button
open (IP, 510 combos) against a big blind defence (OOP, 596 combos), one bet size a street (50%
of the pot) with "raise all-in" (one raise, all-in) or "raise 60%" (one raise of 60%). Clubs and
diamonds are interchangeable on this board, so 36 turn classes of 49 cards are solved. The
process's peak memory (its maximum resident size) is printed beside the estimate, and the CPU
seconds the process used beside the wall clock's (on a shared machine the CPU time is the firmer
figure). ``--flop-spot`` runs one of the two (a process each keeps the peaks apart);
``--max-iterations N`` stops after N iterations whatever the exploitability, so that two builds
can be compared on the same work; ``--no-river`` skips the river spots.

The time is the whole solve as `solve()` runs it: Discounted CFR iterations and the best
responses that measure the exploitability every few iterations (one thread; the engine releases
the interpreter lock). The best of ``--repeat`` runs is printed with the iterations and the
exploitability reached.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from cardlab.solver import river_game, solve

SPOTS = {
    "standard": dict(oop_bet="33%, 75%", ip_bet="33%, 75%", oop_raise="60%", ip_raise="60%", max_raises=3),
    "wide": dict(oop_bet="33%, 75%, 150%, a", ip_bet="33%, 75%, 150%, a", oop_raise="60%, a", ip_raise="60%, a",
                 max_raises=3),
}
BOARDS = ("Qs Jh 2h 8d 3c", "Ks 9d 5c 2h 3s", "Ah Kh Th 6c 6d")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=0.3, help="exploitability, %% of the pot (default 0.3)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per spot; the best is shown (default 3)")
    parser.add_argument("--turn", action="store_true", help="also the turn spots (tens of seconds)")
    parser.add_argument("--flop", action="store_true", help="also the flop spots (minutes each)")
    parser.add_argument("--threads", type=int, default=1, help="threads for the turn and flop spots (default 1)")
    parser.add_argument("--no-river", action="store_true", help="skip the river spots")
    parser.add_argument("--flop-spot", choices=list(FLOP_SPOTS), help="only this flop spot (default both)")
    parser.add_argument("--max-iterations", type=int, default=100_000, help="stop the flop solves after N iterations")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; one solver thread")
    if not args.no_river:
        _river(args.target, args.repeat)
    if args.turn:
        _turn(args.target, args.threads)
    if args.flop:
        spots = [args.flop_spot] if args.flop_spot else list(FLOP_SPOTS)
        _flop(0.5 if args.target == 0.3 else args.target, args.threads, spots, args.max_iterations)


def _river(target: float, repeat: int) -> None:
    print(f"{'spot':10} {'board':16} {'nodes':>5} {'MB':>5} {'iters':>6} {'expl %':>7} {'seconds':>8}  goal <= 1 s")
    for name, sizes in SPOTS.items():
        for board in BOARDS:
            game = river_game("*", "*", board, pot=100, stack=400, **sizes)  # type: ignore[arg-type]
            best = None
            for _ in range(repeat):
                start = time.perf_counter()
                engine = solve(game, target=target, time_limit=60)
                seconds = time.perf_counter() - start
                if best is None or seconds < best[0]:
                    best = (seconds, engine.iterations, engine.exploitability_pct)
            assert best is not None
            verdict = "met" if best[0] <= 1.0 and best[2] <= target else "NOT met"
            print(f"{name:10} {board:16} {game.tree.size:5} {game.memory_bytes() / 2**20:5.1f} {best[1]:6} "
                  f"{best[2]:7.3f} {best[0]:8.3f}  {verdict}")


TURN_SPOTS = {
    "one size": dict(oop_bet="50%", ip_bet="50%", oop_raise="a", ip_raise="a"),
    "standard": dict(oop_bet="33%, 75%", ip_bet="33%, 75%", oop_raise="60%", ip_raise="60%", max_raises=2),
}


def _turn(target: float, threads: int) -> None:
    print(f"turn spots on {threads} thread(s)")
    print(f"{'turn spot':10} {'board':16} {'nodes':>5} {'MB':>5} {'iters':>6} {'expl %':>7} {'seconds':>8}  goal <= 30 s")
    for name, sizes in TURN_SPOTS.items():
        game = river_game("*", "*", "Qs Jh 2h 8d", pot=100, stack=200, **sizes)  # type: ignore[arg-type]
        start = time.perf_counter()
        engine = solve(game, target=target, time_limit=300, workers=threads)
        seconds = time.perf_counter() - start
        verdict = "met" if seconds <= 30 and engine.exploitability_pct <= target else "NOT met"
        print(f"{name:10} {'Qs Jh 2h 8d':16} {game.tree.size:5} {game.memory_bytes() / 2**20:5.1f} "
              f"{engine.iterations:6} {engine.exploitability_pct:7.3f} {seconds:8.3f}  {verdict}")


FLOP_IP = "22+, A2s+, K2s+, Q5s+, J7s+, T7s+, 97s+, 86s+, 75s+, 65s, 54s, A3o+, K9o+, Q9o+, J9o+, T9o"
FLOP_OOP = ("22-99, A2s-AJs, K2s+, Q4s+, J6s+, T6s+, 96s+, 85s+, 74s+, 63s+, 53s+, 43s, A2o-AJo, K7o+, Q8o+, "
            "J8o+, T8o+, 98o, 87o, 76o")
FLOP_SPOTS = {
    "raise all-in": dict(oop_bet="50%", ip_bet="50%", oop_raise="a", ip_raise="a", max_raises=1),
    "raise 60%": dict(oop_bet="50%", ip_bet="50%", oop_raise="60%", ip_raise="60%", max_raises=1),
}


def _flop(target: float, threads: int, spots: list[str], max_iterations: int) -> None:
    import resource

    def cpu() -> float:
        use = resource.getrusage(resource.RUSAGE_SELF)
        return use.ru_utime + use.ru_stime

    print(f"flop spots on {threads} thread(s), load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'flop spot':12} {'board':9} {'nodes':>7} {'est MB':>7} {'peak MB':>7} {'iters':>5} {'expl %':>7} "
          f"{'seconds':>8} {'CPU s':>8}  goal <= 300 s")
    for name in spots:
        start, used = time.perf_counter(), cpu()
        game = river_game(FLOP_OOP, FLOP_IP, "Qs Jh 2h", pot=6, stack=97, **FLOP_SPOTS[name])  # type: ignore[arg-type]
        engine = solve(game, target=target, time_limit=1800, workers=threads, max_iterations=max_iterations)
        seconds, used = time.perf_counter() - start, cpu() - used
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        verdict = "met" if seconds <= 300 and engine.exploitability_pct <= target and peak <= 4096 else "NOT met"
        print(f"{name:12} {'Qs Jh 2h':9} {game.tree.size:7} {game.memory_bytes() / 2**20:7.0f} {peak:7.0f} "
              f"{engine.iterations:5} {engine.exploitability_pct:7.3f} {seconds:8.1f} {used:8.1f}  {verdict}",
              flush=True)


if __name__ == "__main__":
    main()
