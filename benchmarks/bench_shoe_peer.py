"""The blackjack shoe simulator against FreeBJ, the fastest open simulator built here (issue 43).

Run: FREEBJ=/path/to/freebj python benchmarks/bench_shoe_peer.py [--rounds N] [--repeat N] [--cpu C]
(or --freebj PATH). Goal of issue 43: cardlab's shoe simulator at least twice as fast as the
fastest open simulator that plays basic strategy from a shoe with a cut card.

Nothing of FreeBJ is in this repository. To build it (Rust, MIT licence; kevin-lesenechal/freebj
on GitHub, measured at commit fc7844f, version 1.1.3), outside the repository:

    apt-get install librust-clap-2-dev librust-rand-dev librust-serde-json-dev librust-crossbeam-dev \\
        librust-regex-dev librust-arrayvec-dev librust-bitflags-dev librust-serde-dev librust-serde-derive-dev
    git clone <freebj> /tmp/freebj && cd /tmp/freebj && rm Cargo.lock
    mkdir -p /tmp/freebj-cargo && printf '[source.crates-io]\\nreplace-with = "debian"\\n[source.debian]\\ndirectory = "/usr/share/cargo/registry"\\n' > /tmp/freebj-cargo/config.toml
    CARGO_HOME=/tmp/freebj-cargo RUSTFLAGS="-C target-cpu=native" cargo build --release --offline
    FREEBJ=/tmp/freebj/target/release/freebj python benchmarks/bench_shoe_peer.py

(the Debian packages carry the crates' sources; the cargo configuration points cargo at them.)

The same game for both: six decks, S17, double any two, DAS, peek, blackjack 3:2, no surrender,
a pair split once (FreeBJ ``--max-splits 2``), split aces one card each, a cut card at 75% (234
of 312 cards), flat bets, no insurance, one thread each, this process and the peer pinned to one
core, run alternately. The same strategy for both: FreeBJ plays its built-in chart (a total-
dependent basic strategy, the same chart for two cards and for three or more); cardlab plays
that chart (:func:`freebj_chart`: FreeBJ's tables in its src/basic_strategy.rs with the cells
that depend on the rules resolved for these) as a :class:`~cardlab.casino.blackjack.Strategy`.
So the results must agree: FreeBJ's mean per round is compared with cardlab's 95% interval,
and the difference with the two runs' combined standard error (agreeing within 3.29 of it,
99.9%: the check is rerun often). One rule differs: FreeBJ's dealer draws to 17 even when every
hand busted, which changes only how many rounds a shoe holds, so the cut-card effect a little.
The exact house edge of the chart at the top of the shoe (cardlab's engine) is printed beside
them. Speed is judged on CPU seconds (the machine may be shared: the
wall clock and the load average are printed too).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import time

from cardlab.casino.blackjack import Strategy, house_edge
from cardlab.casino.blackjack_rules import Rules
from cardlab.casino.blackjack_sim import simulate_shoe

GOAL = 2.0
PENETRATION = 0.75
PEER_ARGS = ["-d", "6", "--ahc", "--s17", "--das", "--db-any2", "--no-surr", "--max-splits", "2", "--no-playAA",
             "-p", "75%", "-j", "1"]

# FreeBJ's chart for AHC S17 DAS (its src/basic_strategy.rs with the rule-dependent cells resolved
# for these rules): per row the decision against A, 2, ..., 9, T. H hit, S stand, D double else
# hit, Ds double else stand, P split.
_HARD = {17: "SSSSSSSSSS", 16: "HSSSSSHHHH", 15: "HSSSSSHHHH", 14: "HSSSSSHHHH", 13: "HSSSSSHHHH",
         12: "HHHSSSHHHH", 11: "HDDDDDDDDD", 10: "HDDDDDDDDH", 9: "HHDDDDHHHH"}
_SOFT = {20: "SSSSSSSSSS", 19: "SSSSSSSSSS", 18: "HSDsDsDsDsSSHH", 17: "HHDDDDHHHH", 16: "HHHDDDHHHH",
         15: "HHHDDDHHHH", 14: "HHHHDDHHHH", 13: "HHHHDDHHHH", 12: "HHHHHDHHHH"}
_PAIRS = {0: "PPPPPPPPPP", 1: ".PPPPPP...", 2: ".PPPPPP...", 3: "....PP....", 5: ".PPPPP....",
          6: ".PPPPPP...", 7: "PPPPPPPPPP", 8: ".PPPPP.PP."}


def _row(text: str) -> list[str]:
    """'HSDsDs...' as ten letters (Ds is one letter)."""
    out, i = [], 0
    while i < len(text):
        step = 2 if text[i:i + 2] == "Ds" else 1
        out.append(text[i:i + step])
        i += step
    assert len(out) == 10, text
    return out


def freebj_chart() -> Strategy:
    """FreeBJ's basic strategy for these rules as a cardlab Strategy: the two-card letter, and
    for three or more cards the same chart (hit where it says H or D)."""
    letters: dict[tuple[str, int, int], str] = {}
    hits: dict[tuple[bool, int, int], bool] = {}
    for soft, table in ((False, _HARD), (True, _SOFT)):
        for total in range(12 if soft else 4, 22):
            for up, letter in enumerate(_row(table.get(total, "S" * 10 if total >= 17 else "H" * 10))):
                letters[("soft" if soft else "hard", total, up)] = letter
                hits[(soft, total, up)] = letter in ("H", "D") and total < 21
    for rank, text in _PAIRS.items():
        for up, mark in enumerate(text):
            if mark == "P":
                letters[("pair", rank, up)] = "P"
    return Strategy(letters, hits)


def run_peer(path: str, rounds: int) -> tuple[dict, float, float]:
    """One FreeBJ run: its JSON, CPU seconds and wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([path, "-n", str(rounds), *PEER_ARGS], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(done.stdout), cpu, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--freebj", default=os.environ.get("FREEBJ"), help="FreeBJ's binary (or FREEBJ=...)")
    parser.add_argument("--rounds", type=int, default=10_000_000, help="rounds per run (default 10 million)")
    parser.add_argument("--repeat", type=int, default=3, help="alternating runs of each (default 3)")
    parser.add_argument("--cpu", type=int, default=None, help="pin both to this core (default: the last one)")
    args = parser.parse_args()
    if not args.freebj or not os.access(args.freebj, os.X_OK):
        parser.error("give FreeBJ's binary with --freebj PATH or FREEBJ=PATH (the docstring says how to build it)")
    if hasattr(os, "sched_setaffinity"):
        cpu = args.cpu if args.cpu is not None else max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})  # the peer, a child, inherits it
    rules = Rules(decks=6)
    chart = freebj_chart()
    exact = house_edge(rules, chart)
    ours_cpu, ours_wall, peer_cpu, peer_wall = [], [], [], []
    flat_sum = flat_sq = peer_sum = peer_sq = 0.0
    ours_n = peer_n = 0
    for run in range(args.repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        sim = simulate_shoe(rules, penetration=PENETRATION, strategy=chart, trials=args.rounds, seed=run + 1)
        ours_wall.append(time.perf_counter() - start)
        ours_cpu.append((time.process_time() - start_cpu) / sim.rounds)
        flat_sum, flat_sq, ours_n = flat_sum + sim.flat_sum, flat_sq + sim.flat_squares, ours_n + sim.rounds
        peer, cpu, wall = run_peer(args.freebj, args.rounds)
        n = int(peer["rounds"])
        peer_cpu.append(cpu / n)
        peer_wall.append(wall / n)
        ours_wall[-1] /= sim.rounds
        mean, sd = float(peer["ev"]), float(peer["stddev"])
        peer_sum += mean * n
        peer_sq += (sd * sd + mean * mean) * n
        peer_n += n
        print(f"run {run + 1}: cardlab {sim.rounds / (ours_cpu[-1] * sim.rounds) / 1e6:.2f}M rounds/s cpu, "
              f"FreeBJ {1 / peer_cpu[-1] / 1e6:.2f}M rounds/s cpu (load {os.getloadavg()[0]:.1f})")
    ratio_cpu = min(peer_cpu) / min(ours_cpu)
    ratio_wall = min(peer_wall) / min(ours_wall)
    print(f"best of {args.repeat}: cardlab {1 / min(ours_cpu) / 1e6:.2f}M rounds/s cpu ({1 / min(ours_wall) / 1e6:.2f}M "
          f"wall), FreeBJ {1 / min(peer_cpu) / 1e6:.2f}M rounds/s cpu ({1 / min(peer_wall) / 1e6:.2f}M wall); "
          f"ratio {ratio_cpu:.2f}x cpu, {ratio_wall:.2f}x wall; goal >= {GOAL:.0f}x: "
          f"{'met' if ratio_cpu >= GOAL else 'NOT met'}")
    ours_mean, peer_mean = flat_sum / ours_n, peer_sum / peer_n
    ours_se = math.sqrt(max(flat_sq / ours_n - ours_mean ** 2, 0) / ours_n)
    peer_se = math.sqrt(max(peer_sq / peer_n - peer_mean ** 2, 0) / peer_n)
    low, high = ours_mean - 1.96 * ours_se, ours_mean + 1.96 * ours_se
    z = (peer_mean - ours_mean) / math.hypot(ours_se, peer_se)
    agree = abs(z) <= 3.29
    print(f"mean per round, same chart and rules: cardlab {ours_mean:+.4%} (95% {low:+.4%} to {high:+.4%}, "
          f"{ours_n:,} rounds), FreeBJ {peer_mean:+.4%} (+-{1.96 * peer_se:.4%}, {peer_n:,} rounds); FreeBJ "
          f"{'inside' if low <= peer_mean <= high else 'outside'} cardlab's interval; difference "
          f"{peer_mean - ours_mean:+.4%}, z = {z:+.2f} ({'agree' if agree else 'DISAGREE'}); exact, same chart, "
          f"top of the shoe: {-exact:+.4%}")
    return 0 if ratio_cpu >= GOAL and agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
