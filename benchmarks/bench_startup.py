"""Start-up cost of the ``cardlab`` command, against the interpreter's own start-up.

Whole processes, run alternately (baseline, command, baseline, command ...) so a change
in the machine's load hits both sides alike; the median of the runs of each is compared:

- ``cardlab --help``                        within 0.10 s of ``python -c pass``
- ``cardlab bridge hcp``                    within 0.15 s of ``python -c "import numpy"``
- ``cardlab poker rank AsKsQsJsTs``         within 0.15 s of ``python -c "import numpy"``

Run: ``python benchmarks/bench_startup.py [--runs 15]``. The command runs as the ``cardlab``
console script does (``from cardlab.cli.main import main; sys.exit(main())``, from the same
interpreter, this tree's ``src`` first on the path). Besides the wall-clock medians (the goals),
the CPU time (user + system) of the processes is shown: it varies much less with the load of a
shared machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

#: What the console script ``cardlab`` runs (pip's generated wrapper, without its argv[0] fix-up).
CARDLAB = ["-c", "import sys\nfrom cardlab.cli.main import main\nsys.exit(main())"]

GOALS = [
    ("cardlab --help", [*CARDLAB, "--help"], "python -c pass", ["-c", "pass"], 0.10),
    ("cardlab bridge hcp", [*CARDLAB, "bridge", "hcp"], "python -c 'import numpy'", ["-c", "import numpy"], 0.15),
    ("cardlab poker rank AsKsQsJsTs", [*CARDLAB, "poker", "rank", "AsKsQsJsTs"], "python -c 'import numpy'",
     ["-c", "import numpy"], 0.15),
]


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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
        runs: dict[str, list[tuple[float, float]]] = {"cmd": [], "base": []}
        for _ in range(opts.runs):
            runs["base"].append(_run(base, env))
            runs["cmd"].append(_run(cmd, env))
        c, b = (statistics.median(w for w, _ in runs[k]) for k in ("cmd", "base"))
        cc, cb = (statistics.median(u for _, u in runs[k]) for k in ("cmd", "base"))
        met = c - b <= limit
        all_met &= met
        print(f"  {name:<30} {c * 1000:6.0f} ms   {base_name:<25} {b * 1000:6.0f} ms   "
              f"difference {1000 * (c - b):5.0f} ms (goal <= {1000 * limit:.0f} ms): {'met' if met else 'not met'}"
              f"   [CPU {1000 * cc:.0f} vs {1000 * cb:.0f} ms: {1000 * (cc - cb):+.0f} ms]")
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
