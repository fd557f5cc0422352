"""Deal 3.1 and cardlab's dealer on Deal's own example scripts, whole processes, run alternately.

Run: python benchmarks/bench_deal31.py [--quick] [--rounds N]
Needs Deal 3.1: ``apt-get install deal`` (Debian/Ubuntu: /usr/games/deal, its examples in
/usr/share/doc/deal/examples).

Goal (issue 41): the dealing part >= 3x Deal 3.1 on its own example scripts. Each example is
translated into cardlab's dealer language in tests/data/corpus/deal31/ (the comment at the top of each
file says which example and what it deals). Both programs deal until they have produced the same
number of deals and print them (Deal's default diagram, cardlab's ``printall``) to /dev/null.

First the translations are checked: Deal runs its example over 200,000 deals it wrote itself
(``deal -I line -l``) and cardlab runs the translation over the same file (``--deals``); the
number of deals each accepts must be equal, or the script stops. Then, for ``--rounds`` rounds,
Deal, cardlab with one worker and cardlab with two take turns on every example; the medians of
wall and CPU time count, and the load average is printed before and after (the machine may be
shared: the CPU ratio is then the steadier figure). Examples 6a, 6b and 6c are three Deal
scripts for one search (6b and 6c Deal's faster versions): cardlab's one translation is timed
against each.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_dealer import timed  # noqa: E402  (the one whole-process timer of the dealer benchmarks)

HERE = Path(__file__).resolve().parent
EXAMPLES = Path("/usr/share/doc/deal/examples")
#: cardlab's translations, shared with the tests (tests/test_script_corpus.py checks them too)
TRANSLATIONS = HERE.parent / "tests" / "data" / "corpus" / "deal31"
#: Deal's example, cardlab's translation, deals to produce (sized for about 3 s of Deal's CPU time
#: on the 2-core development machine)
JOBS = [("1", "1", 15_000), ("1-shapeclass", "1-shapeclass", 15_000), ("4-holding", "4-holding", 10_000),
        ("5", "5", 40_000), ("6a", "6a", 150), ("6b", "6a", 300), ("6c", "6a", 300),
        ("holdingProc", "holdingProc", 100_000)]


def _deal_binary() -> str | None:
    return shutil.which("deal") or ("/usr/games/deal" if os.path.exists("/usr/games/deal") else None)


def check_translations(deal: str, tmp: str) -> None:
    """Deal's examples and cardlab's translations accept the same deals out of 200,000 of Deal's."""
    import json

    saved = Path(tmp) / "deals.line"
    with open(saved, "wb") as out:
        subprocess.run([deal, "-s", "7", "-l", "200000"], stdout=out, check=True)
    for example, ours, _ in JOBS:
        with open(saved, "rb") as deals:
            text = subprocess.run([deal, "-I", "line", "-l", "-i", str(EXAMPLES / f"{example}.txt"), "200000"],
                                  stdin=deals, capture_output=True, check=True).stdout.decode()
        theirs = sum(1 for line in text.splitlines() if "|" in line)
        data = subprocess.run([sys.executable, "-m", "cardlab", "bridge", "dealer", str(TRANSLATIONS / f"{ours}.dl"),
                               "--deals", str(saved), "-q", "--format", "json"], capture_output=True, check=True)
        mine = json.loads(data.stdout)["produced"]
        print(f"  {example:14} Deal accepts {theirs:6,} of 200,000, cardlab's {ours}.dl {mine:6,}")
        if mine != theirs:
            raise SystemExit(f"the translation of {example} is not faithful: {mine} != {theirs}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10x smaller jobs (to try the script)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (medians count)")
    args = parser.parse_args()
    deal = _deal_binary()
    if deal is None or not EXAMPLES.is_dir():
        print("Deal 3.1 is not installed: apt-get install deal", file=sys.stderr)
        return 1
    scale = 10 if args.quick else 1
    cardlab = [sys.executable, "-m", "cardlab", "bridge", "dealer"]
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        print("translations, over the same 200,000 deals:")
        check_translations(deal, tmp)
        print(f"\n{'example':14} {'produce':>8} {'Deal s':>7} {'w1 s':>7} {'w2 s':>7} {'w1 x':>6} {'w2 x':>6} "
              f"{'CPU x':>6}  goal >= 3x (w1 wall)")
        for example, ours, produce in JOBS:
            n = str(max(1, produce // scale))
            commands = {"Deal": [deal, "-s", "1", "-i", str(EXAMPLES / f"{example}.txt"), n]}
            for w in ("1", "2"):
                commands[f"w{w}"] = [*cardlab, str(TRANSLATIONS / f"{ours}.dl"), "-s", "1", "-p", n,
                                     "-g", "1000000000", "--workers", w]
            runs: dict[str, list[tuple[float, float, float]]] = {k: [] for k in commands}
            for _ in range(max(1, args.rounds)):
                for key, command in commands.items():
                    runs[key].append(timed(command, tmp))
            wall = {k: statistics.median(r[0] for r in v) for k, v in runs.items()}
            cpu = {k: statistics.median(r[1] for r in v) for k, v in runs.items()}
            r1, r2 = wall["Deal"] / wall["w1"], wall["Deal"] / wall["w2"]
            verdict = "met" if r1 >= 3 else "not met"
            verdicts.append(verdict)
            print(f"{example:14} {int(n):8,} {wall['Deal']:7.2f} {wall['w1']:7.2f} {wall['w2']:7.2f} {r1:5.1f}x "
                  f"{r2:5.1f}x {cpu['Deal'] / cpu['w1']:5.1f}x  {verdict}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(f"goals met: {verdicts.count('met')} of {len(verdicts)}" + (" (quick sizes)" if args.quick else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
