"""The C ``dealer`` program and cardlab on the same jobs, whole processes, run alternately.

Run: python benchmarks/bench_dealer.py [--quick] [--repeat N]
Needs the C program: ``apt-get install dealer`` (Debian/Ubuntu; it installs /usr/games/dealer).

Goals (issue 17), end to end (process start to exit), both programs writing to /dev/null:
- every row: cardlab >= 3x faster than C with one thread (``--workers 1``), >= 5x with two;
- 1,000,000 deals as PBN (``cardlab bridge deal -n 1000000 --format pbn`` against the C
  program's ``printpbn``): >= 3x;
- peak memory flat: 10,000,000 deals with an ``average`` in <= 100 MB (the process's peak
  resident size, from the kernel's accounting of the child).

The rows: 10M unconstrained deals with an ``average``; 200,000 15-17 balanced openers with
``printoneline``; three practice-style scripts in benchmarks/dealer/ (a Stayman script with
``printpbn``, weak-two frequencies and averages, the shapes of all four hands); 1M deals as PBN.
Each job runs C, cardlab with one worker, cardlab with two, in turn, ``--repeat`` times; the
best wall time of each counts. "cpu x" is C's CPU time over cardlab's (one worker): on a
loaded machine it shows what the wall times cannot. Wall time depends on what else runs on the machine: the load
average is printed before and after, and every figure is marked "loaded" when it was above
0.5 per core, so figures taken on a shared machine are read for what they are.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
NT = "hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)"


@dataclass(frozen=True)
class Job:
    """One row: a dealer script for both programs, or (``pbn_deals``) PBN deals from each."""

    name: str
    script: str
    goal_one: float = 3.0
    goal_two: float = 5.0
    pbn_deals: int = 0


def jobs(scale: int) -> list[Job]:
    """The issue's rows; ``scale`` divides every size (1 for the real figures, 10 for --quick)."""
    def script(name: str) -> str:
        text = (HERE / "dealer" / f"{name}.dl").read_text()
        for word in ("generate", "produce"):
            text = text.replace(f"{word} 4000000", f"{word} {4_000_000 // scale}")
        return text

    million = 1_000_000 // scale
    return [
        Job(f"{10 * million:,} deals, average", f"generate {10 * million}\naction average hcp(north)\n"),
        Job(f"{200_000 // scale:,} 1NT openers, printoneline",
            f"generate 100000000\nproduce {200_000 // scale}\ncondition {NT}\naction printoneline\n"),
        Job(f"Stayman, printpbn, {4 * million:,} dealt", script("stayman")),
        Job(f"weak two, frequency + 4 averages, {4 * million:,}", script("weaktwo")),
        Job(f"four hands' shapes, {4 * million:,}", script("goulash")),
        Job(f"{million:,} deals as PBN", f"generate {million}\nproduce {million}\naction printpbn\n", goal_one=3.0,
            goal_two=3.0,
            pbn_deals=million),
    ]


def _dealer_binary() -> str | None:
    return shutil.which("dealer") or next((p for p in ("/usr/games/dealer",) if os.path.exists(p)), None)


def timed(command: list[str], cwd: str) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak resident megabytes of one process.

    Python children keep their compiled bytecode (PYTHONDONTWRITEBYTECODE is dropped), as an
    installed package does."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd, env=env)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}): {err.decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def _load() -> float:
    return os.getloadavg()[0] / (os.cpu_count() or 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10x smaller jobs (to try the script)")
    parser.add_argument("--repeat", type=int, default=1, help="alternate runs of each job (best time counts)")
    args = parser.parse_args()
    c_dealer = _dealer_binary()
    if c_dealer is None:
        print("the C dealer is not installed: apt-get install dealer", file=sys.stderr)
        return 1
    cardlab = [sys.executable, "-m", "cardlab"]
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'job':44} {'C s':>7} {'w1 s':>7} {'w2 s':>7} {'w1 x':>6} {'w2 x':>6} {'cpu x':>6} {'w1 MB':>6}  goals")
    verdicts: list[str] = []
    peak_10m = 0.0
    loads = [_load()]
    with tempfile.TemporaryDirectory() as tmp:
        for job in jobs(10 if args.quick else 1):
            path = Path(tmp) / "script.dl"
            path.write_text(job.script)
            c_cmd = [c_dealer, "-s", "1", str(path)]
            if job.pbn_deals:
                ours = [*cardlab, "bridge", "deal", "-n", str(job.pbn_deals), "--seed", "1", "--format", "pbn"]
            else:
                ours = [*cardlab, "bridge", "dealer", str(path), "-s", "1"]
            best: dict[str, tuple[float, float, float]] = {}
            for _ in range(max(1, args.repeat)):
                for key, command in (("C", c_cmd), ("w1", [*ours, "--workers", "1"]),
                                     ("w2", [*ours, "--workers", "2"])):
                    figures = timed(command, tmp)
                    if key not in best or figures[0] < best[key][0]:
                        best[key] = figures
                    loads.append(_load())
            c_wall, w1, w2 = best["C"][0], best["w1"][0], best["w2"][0]
            r1, r2 = c_wall / w1, c_wall / w2
            one = "met" if r1 >= job.goal_one else "not met"
            two = "met" if r2 >= job.goal_two else "not met"
            cpu = best["C"][1] / best["w1"][1]
            print(f"{job.name:44} {c_wall:7.2f} {w1:7.2f} {w2:7.2f} {r1:5.2f}x {r2:5.2f}x {cpu:5.2f}x {best['w1'][2]:6.0f}  "
                  f">= {job.goal_one:g}x w1: {one}; >= {job.goal_two:g}x w2: {two}")
            verdicts += [one, two]
            if job.name.endswith("deals, average"):
                peak_10m = max(best["w1"][2], best["w2"][2])
                memory = "met" if peak_10m <= 100 else "not met"
                print(f"{'  peak memory of that job (1 or 2 workers)':44} {peak_10m:7.0f} MB  <= 100 MB: {memory}")
                verdicts.append(memory)
    loads.append(_load())
    loaded = max(loads) > 0.5
    print(f"load average after: {os.getloadavg()[0]:.2f}; figures taken on a "
          f"{'LOADED machine (other work was running: ratios are indicative only)' if loaded else 'quiet machine'}")
    print(f"goals met: {verdicts.count('met')} of {len(verdicts)}" + (" (quick sizes)" if args.quick else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
