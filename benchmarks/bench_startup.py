"""Start-up cost of the ``cardlab`` command, against the interpreter's own start-up.

Whole processes, run alternately (baseline, command, baseline, command ...) so a change
in the machine's load hits both sides alike; the median of the runs of each is compared:

- ``cardlab --help``                        within 0.10 s of ``python -c pass``
- ``cardlab bridge hcp``                    within 0.15 s of ``python -c "import numpy"``
- ``cardlab poker rank AsKsQsJsTs``         within 0.15 s of ``python -c "import numpy"``

Run: ``python benchmarks/bench_startup.py [--runs 15]``. The command runs as
``python -m cardlab`` from the same interpreter (what the ``cardlab`` script does).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

GOALS = [
    ("cardlab --help", ["-m", "cardlab", "--help"], "python -c pass", ["-c", "pass"], 0.10),
    ("cardlab bridge hcp", ["-m", "cardlab", "bridge", "hcp"], "python -c 'import numpy'",
     ["-c", "import numpy"], 0.15),
    ("cardlab poker rank AsKsQsJsTs", ["-m", "cardlab", "poker", "rank", "AsKsQsJsTs"],
     "python -c 'import numpy'", ["-c", "import numpy"], 0.15),
]


def _run(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each side (default 15)")
    opts = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    load = os.getloadavg()[0]
    print(f"start-up, {opts.runs} alternating runs each, medians (load average {load:.2f} on "
          f"{os.cpu_count()} cores{'' if load < 0.5 else ': LOADED machine'})")
    all_met = True
    for name, cmd, base_name, base, limit in GOALS:
        _run(cmd, env), _run(base, env)  # warm the file cache
        times: dict[str, list[float]] = {"cmd": [], "base": []}
        for _ in range(opts.runs):
            times["base"].append(_run(base, env))
            times["cmd"].append(_run(cmd, env))
        c, b = statistics.median(times["cmd"]), statistics.median(times["base"])
        met = c - b <= limit
        all_met &= met
        print(f"  {name:<32} {c * 1000:7.1f} ms   {base_name:<26} {b * 1000:7.1f} ms   "
              f"difference {1000 * (c - b):6.1f} ms (goal <= {1000 * limit:.0f} ms): {'met' if met else 'not met'}")
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
