"""The C ``dealer`` program and ``cardlab bridge dealer`` on the same scripts, whole processes.

Run: python benchmarks/bench_dealer.py [--quick] [--workers W]
Needs the C program: ``apt-get install dealer`` (Debian/Ubuntu; it installs /usr/games/dealer).

Goals from issue 10, on the 2-core machine, end to end (process start to exit):
- 10,000,000 unconstrained deals with an ``average`` action: cardlab >= 2x faster than C;
- 200,000 15-17 balanced openers printed one line each: cardlab >= 3x faster than C.
Both programs write to /dev/null. Wall time depends on what else runs on the machine: the
script also prints CPU time (user + system, children included) and the machine's load average,
so figures measured while the machine is shared can be read for what they are.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPTS = {
    "10M unconstrained, average": "generate 10000000\naction average hcp(north)\n",
    "200k 1NT openers, printoneline": (
        "generate 100000000\nproduce 200000\n"
        "condition hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)\n"
        "action printoneline\n"),
}
QUICK = {
    "1M unconstrained, average": "generate 1000000\naction average hcp(north)\n",
    "20k 1NT openers, printoneline": SCRIPTS["200k 1NT openers, printoneline"].replace("200000", "20000"),
}
GOALS = {"10M unconstrained, average": 2.0, "200k 1NT openers, printoneline": 3.0}


def _dealer_binary() -> str | None:
    return shutil.which("dealer") or next((p for p in ("/usr/games/dealer",) if os.path.exists(p)), None)


def timed(command: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system of the process and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10x smaller jobs")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    c_dealer = _dealer_binary()
    if c_dealer is None:
        print("the C dealer is not installed: apt-get install dealer", file=sys.stderr)
        return 1
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; cardlab workers: "
          f"{args.workers}")
    print(f"{'script':34} {'C wall':>8} {'C cpu':>8} {'cardlab wall':>13} {'cardlab cpu':>12} {'ratio':>7}")
    scripts = QUICK if args.quick else SCRIPTS
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in scripts.items():
            path = Path(tmp) / "script.dl"
            path.write_text(text)
            c_wall, c_cpu = timed([c_dealer, "-s", "1", str(path)])
            py_wall, py_cpu = timed([sys.executable, "-m", "cardlab", "bridge", "dealer", str(path), "-s", "1",
                                     "--workers", str(args.workers)])
            ratio = c_wall / py_wall
            goal = GOALS.get(name)
            verdict = "" if goal is None else (" meets the goal" if ratio >= goal else f" below the {goal}x goal")
            print(f"{name:34} {c_wall:8.2f} {c_cpu:8.2f} {py_wall:13.2f} {py_cpu:12.2f} {ratio:6.2f}x{verdict}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
