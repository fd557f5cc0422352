"""cardlab's poker core side by side with OMPEval (C++), the goals of the compiled-core issue.

Run: OMPEVAL_DIR=/path/to/OMPEval python benchmarks/bench_ompeval.py [--quick]

``OMPEVAL_DIR`` is a checkout of zekyll/OMPEval (the directory holding ``omp/``). The script
writes a small C++ driver of its own into a temporary directory, builds it with OMPEval's
sources at ``-O3 -march=native`` (built for this very processor, as the issue
compares; nothing of OMPEval is kept or copied into cardlab), and then, task by task,
alternates runs of the two (OMPEval, cardlab, OMPEval, cardlab, ...) pinned to one core
(``taskset`` for the driver, the process's own CPU affinity for cardlab), keeping the best of
each. Both evaluate the same hands: the random hands are written once by numpy and read by the
driver. Every line prints the two figures, the ratio cardlab / OMPEval (speed, higher is better)
and "met" or "not met" for the goal. Figures taken while other work loads the machine are only
indicative: say so when quoting them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np

from cardlab.dealing import Deck, Draw
from cardlab.engine import simulate
from cardlab.poker.equity import equity
from cardlab.poker.evaluator import strengths
from cardlab.poker.odds import PokerCategory, category_odds

DRIVER = r"""
// A timing driver for OMPEval, written by cardlab's benchmark at run time.
#include <omp/HandEvaluator.h>
#include <omp/EquityCalculator.h>
#include <omp/CardRange.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
using namespace omp;
#include <ctime>
static const bool cpu_clock = getenv("CARDLAB_BENCH_CPU") != nullptr;  // --cpu: this process's CPU seconds
static double now() {
    if (cpu_clock) {
        timespec t;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return t.tv_sec + 1e-9 * t.tv_nsec;
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static std::vector<unsigned> cards_of(const char *text) {
    uint64_t mask = CardRange::getCardMask(text);
    std::vector<unsigned> out;
    for (unsigned c = 0; c < 52; c++) if (mask >> c & 1) out.push_back(c);
    return out;
}
int main(int argc, char **argv) {
    std::string mode = argv[1];
    if (mode == "eval") {  // eval FILE K REPEATS: evaluations per second from a uint8 card array
        FILE *f = fopen(argv[2], "rb");
        std::vector<unsigned char> cards;
        unsigned char buf[1 << 16];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, f)) > 0) cards.insert(cards.end(), buf, buf + got);
        fclose(f);
        int k = atoi(argv[3]), repeats = atoi(argv[4]);
        size_t n = cards.size() / k;
        HandEvaluator eval;
        double best = 1e300;
        unsigned long long sum = 0;
        for (int r = 0; r < repeats; r++) {
            double start = now();
            for (size_t i = 0; i < n; i++) {
                const unsigned char *c = &cards[i * k];
                Hand h = Hand::empty();
                for (int j = 0; j < k; j++) h += Hand(c[j]);
                sum += eval.evaluate(h);
            }
            double t = now() - start;
            if (t < best) best = t;
        }
        printf("%.6g %llu\n", n / best, sum);
        return 0;
    }
    if (mode == "drawcount") {  // drawcount N K REPEATS: best seconds to draw, evaluate and count N hands
        // OMPEval's own pieces as its Monte Carlo uses them: XoroShiro128Plus, and bounded draws by
        // FastUniformIntDistribution<unsigned,16> (four a generator word, no rejection: slightly
        // biased, cheaper than an unbiased draw), one per shuffle position; a partial shuffle of the
        // deck (left as it is for the next hand: a shuffle of any order is uniform), the hand
        // evaluated, counted by category.
        size_t n = strtoull(argv[2], nullptr, 10);
        int k = atoi(argv[3]), repeats = atoi(argv[4]);
        HandEvaluator eval;
        XoroShiro128Plus rng(1);
        FastUniformIntDistribution<unsigned, 16> pick[7];
        for (int j = 0; j < k; j++) pick[j] = FastUniformIntDistribution<unsigned, 16>(0, 51 - j);
        unsigned char deck[52];
        for (int c = 0; c < 52; c++) deck[c] = (unsigned char)c;
        double best = 1e300;
        unsigned long long counts[16] = {0};
        for (int r = 0; r < repeats; r++) {
            for (auto &c : counts) c = 0;
            double start = now();
            for (size_t i = 0; i < n; i++) {
                Hand h = Hand::empty();
                for (int j = 0; j < k; j++) {
                    unsigned at = j + pick[j](rng);
                    unsigned char c = deck[at];
                    deck[at] = deck[j];
                    deck[j] = c;
                    h += Hand(c);
                }
                counts[eval.evaluate(h) >> HAND_CATEGORY_SHIFT]++;
            }
            double t = now() - start;
            if (t < best) best = t;
        }
        printf("%.6g", best);
        for (int c = 1; c <= 9; c++) printf(" %llu", counts[c]);
        printf("\n");
        return 0;
    }
    if (mode == "exact") {  // exact REPEATS BOARD DEAD RANGE...: best seconds, equities
        int repeats = atoi(argv[2]);
        uint64_t board = strcmp(argv[3], "-") ? CardRange::getCardMask(argv[3]) : 0;
        uint64_t dead = strcmp(argv[4], "-") ? CardRange::getCardMask(argv[4]) : 0;
        std::vector<CardRange> ranges;
        for (int i = 5; i < argc; i++) ranges.emplace_back(argv[i]);
        double best = 1e300;
        EquityCalculator::Results res;
        for (int r = 0; r < repeats; r++) {
            EquityCalculator eq;
            double start = now();
            eq.start(ranges, board, dead, true, 0, nullptr, 1.0, 1);
            eq.wait();
            double t = now() - start;
            if (t < best) best = t;
            res = eq.getResults();
        }
        printf("%.6g", best);
        for (size_t i = 0; i < ranges.size(); i++) printf(" %.8f", res.equity[i]);
        printf("\n");
        return 0;
    }
    if (mode == "mc") {  // mc SECONDS BOARD RANGE...: Monte Carlo showdowns per second, one thread
        double seconds = atof(argv[2]);
        uint64_t board = strcmp(argv[3], "-") ? CardRange::getCardMask(argv[3]) : 0;
        std::vector<CardRange> ranges;
        for (int i = 4; i < argc; i++) ranges.emplace_back(argv[i]);
        EquityCalculator eq;
        eq.setTimeLimit(seconds);
        double start = now();
        eq.start(ranges, board, 0, false, 0, nullptr, 0.5, 1);
        eq.wait();
        double elapsed = now() - start;
        auto res = eq.getResults();
        printf("%.6g %.6f\n", res.hands / (cpu_clock ? elapsed : res.time), res.equity[0]);
        return 0;
    }
    if (mode == "omaha") {  // omaha REPEATS HOLE1 HOLE2: a plain loop over every board
        int repeats = atoi(argv[2]);
        std::vector<unsigned> h[2] = {cards_of(argv[3]), cards_of(argv[4])};
        uint64_t used = CardRange::getCardMask(argv[3]) | CardRange::getCardMask(argv[4]);
        std::vector<unsigned> deck;
        for (unsigned c = 0; c < 52; c++) if (!(used >> c & 1)) deck.push_back(c);
        HandEvaluator eval;
        Hand pairs[2][6];
        for (int p = 0; p < 2; p++) {
            int n = 0;
            for (int a = 0; a < 4; a++) for (int b = a + 1; b < 4; b++)
                pairs[p][n++] = Hand::empty() + Hand(h[p][a]) + Hand(h[p][b]);
        }
        const int T[10][3] = {{0,1,2},{0,1,3},{0,1,4},{0,2,3},{0,2,4},{0,3,4},{1,2,3},{1,2,4},{1,3,4},{2,3,4}};
        double best = 1e300;
        double share = 0;
        unsigned long long boards = 0;
        for (int r = 0; r < repeats; r++) {
            double start = now();
            unsigned long long wins = 0, ties = 0;
            boards = 0;
            unsigned m = deck.size(), c[5];
            for (c[0] = 0; c[0] < m; c[0]++) for (c[1] = c[0] + 1; c[1] < m; c[1]++)
            for (c[2] = c[1] + 1; c[2] < m; c[2]++) for (c[3] = c[2] + 1; c[3] < m; c[3]++)
            for (c[4] = c[3] + 1; c[4] < m; c[4]++) {
                Hand tri[10];
                for (int t = 0; t < 10; t++)
                    tri[t] = Hand(deck[c[T[t][0]]]) + Hand(deck[c[T[t][1]]]) + Hand(deck[c[T[t][2]]]);
                unsigned v[2] = {0, 0};
                for (int p = 0; p < 2; p++)
                    for (int q = 0; q < 6; q++)
                        for (int t = 0; t < 10; t++) {
                            unsigned x = eval.evaluate(pairs[p][q] + tri[t]);
                            if (x > v[p]) v[p] = x;
                        }
                wins += v[0] > v[1];
                ties += v[0] == v[1];
                boards++;
            }
            double t = now() - start;
            if (t < best) best = t;
            share = (wins + 0.5 * ties) / boards;
        }
        printf("%.6g %.8f\n", best, share);
        return 0;
    }
    return 2;
}
"""

ROUNDS = 3

SECTIONS = ("eval", "exact", "mc", "seed", "omaha", "three")
"""The benchmark's sections (``--only``): evaluations, exact equity, Monte Carlo, the seed job,
Omaha, the big three-way equity."""


def build(ompeval: Path, work: Path) -> Path:
    """The driver, compiled with OMPEval's sources at -O3 -march=native in ``work``.

    The sources are copied into ``work`` and two build fixes for current compilers applied to
    the copy (OMPEval dates from 2016): ``<functional>`` is included for every file (its
    EquityCalculator.h uses std::function without it), and the random generator's ``min`` and
    ``max`` are made ``constexpr`` (libstdc++'s std::shuffle now requires it). Neither changes
    what the code computes or how fast."""
    (work / "driver.cpp").write_text(DRIVER)
    copy = work / "ompeval"
    shutil.copytree(ompeval / "omp", copy / "omp")
    shutil.copytree(ompeval / "libdivide", copy / "libdivide")
    random_h = copy / "omp" / "Random.h"
    text = random_h.read_text()
    for name in ("min", "max"):
        text = text.replace(f"static uint64_t {name}()", f"static constexpr uint64_t {name}()")
    random_h.write_text(text)
    sources = sorted(str(p) for p in (copy / "omp").glob("*.cpp"))
    exe = work / "driver"
    subprocess.run(["g++", "-O3", "-march=native", "-std=c++11", "-pthread", "-include", "functional", "-I", str(copy), "-o", str(exe),
                    str(work / "driver.cpp"), *sources], check=True)
    return exe


def run_driver(exe: Path, *args: str) -> list[float]:
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    out = subprocess.run([*pin, str(exe), *args], capture_output=True, text=True, check=True).stdout
    return [float(x) for x in out.split()]


try:
    ALLOWED = frozenset(os.sched_getaffinity(0))
except AttributeError:  # pragma: no cover - not Linux
    ALLOWED = frozenset()


def pinned(cores: set[int]) -> None:
    """Run this process (and the threads it starts) on ``cores`` of those it was allowed at start."""
    try:
        os.sched_setaffinity(0, (cores & ALLOWED) or ALLOWED)
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        pass


#: The clock of one-thread timings: wall seconds, or with --cpu this process's CPU seconds (the
#: driver then reads its own, CARDLAB_BENCH_CPU): on a machine loaded by other work a CPU second
#: is steadier than a wall one. Two-thread rows always take wall seconds (CPU seconds add up).
ONE_THREAD_CLOCK: Callable[[], float] = time.perf_counter


def best_seconds(fn: Callable[[], object], repeat: int = 3, threads: int = 1) -> float:
    clock = ONE_THREAD_CLOCK if threads == 1 else time.perf_counter
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append(clock() - start)
    return min(times)


def verdict(ok: bool) -> str:
    return "met" if ok else "not met"


def line(task: str, omp: str, ours: str, ratio: float, goal: str, ok: bool) -> None:
    print(f"  {task:<44} OMPEval {omp:>12}  cardlab {ours:>12}  ratio {ratio:6.2f}  goal {goal:<8} {verdict(ok)}")


def evaluation(exe: Path, work: Path, n: int) -> float:
    """Random 5- and 7-card evaluations; returns OMPEval's 5-card rate (for the seed job)."""
    print("random evaluations from a card array (the same hands for both), evaluations/s")
    rate5 = 0.0
    for k in (7, 5):
        hands = Draw(Deck.standard(), k).sample(np.random.default_rng(k), n)
        path = work / f"hands{k}.bin"
        path.write_bytes(np.ascontiguousarray(hands).tobytes())
        strengths(hands[:10])
        out = np.empty(n, dtype=np.uint32)  # the caller's buffer, reused as a driver reuses its sum
        omp, one, two = 0.0, 0.0, 0.0
        for _ in range(ROUNDS):
            omp = max(omp, run_driver(exe, "eval", str(path), str(k), "2")[0])
            pinned({0})
            one = max(one, n / best_seconds(lambda: strengths(hands, out=out), 2))
            pinned({0, 1})
            two = max(two, n / best_seconds(lambda: strengths(hands, workers=2, out=out), 2, threads=2))
        if k == 5:
            rate5 = omp
        line(f"{k} cards, one core", f"{omp / 1e6:.1f} M/s", f"{one / 1e6:.1f} M/s", one / omp, ">= 1.0", one >= omp)
        line(f"{k} cards, cardlab on two threads", f"{omp / 1e6:.1f} M/s", f"{two / 1e6:.1f} M/s", two / omp,
             ">= 1.8", two >= 1.8 * omp)
    return rate5


EXACT = [
    ("AA vs KK, all 36 combinations", ["AA", "KK"], ""),
    ("AsKs vs QdQc preflop", ["AsKs", "QdQc"], ""),
    ("QQ+,AKs vs JJ,TT,99,AQs preflop", ["QQ+,AKs", "JJ,TT,99,AQs"], ""),
    ("AsAh, KdKc, QsQh preflop", ["AsAh", "KdKc", "QsQh"], ""),
    ("AKs vs QQ+,AKo vs JTs,99 on Qh9c2d", ["AKs", "QQ+,AKo", "JTs,99"], "Qh9c2d"),
]


def exact_rows(exe: Path) -> None:
    print("exact equity, one core, seconds per answer (best of the rounds)")
    for label, specs, board in EXACT:
        omp, ours = float("inf"), float("inf")
        for _ in range(ROUNDS):
            got = run_driver(exe, "exact", "3", board or "-", "-", *specs)
            omp = min(omp, got[0])
            pinned({0})
            ours = min(ours, best_seconds(lambda: equity(specs, board=board), 3))
        mine = [p.equity for p in equity(specs, board=board).players]
        agree = max(abs(a - b) for a, b in zip(mine, got[1:]))
        line(label, f"{omp * 1e3:.2f} ms", f"{ours * 1e3:.2f} ms", omp / ours, ">= 1.0", omp >= ours)
        print(f"      equities agree to {agree:.1e}")


def monte_carlo(exe: Path, seconds: float) -> None:
    print("Monte Carlo equity, showdowns/s (OMPEval on one thread)")
    for label, specs in (("hand vs hand, AsAh vs KdKc", ["AsAh", "KdKc"]),
                         ("range vs range, QQ+,AKs vs JJ,TT,99,AQs", ["QQ+,AKs", "JJ,TT,99,AQs"])):
        omp, one, two = 0.0, 0.0, 0.0
        trials = 4_000_000
        for _ in range(ROUNDS):
            omp = max(omp, run_driver(exe, "mc", str(seconds), "-", *specs)[0])
            pinned({0})
            one = max(one, trials / best_seconds(lambda: equity(specs, trials=trials, seed=1), 1))
            pinned({0, 1})
            two = max(two, trials / best_seconds(lambda: equity(specs, trials=trials, seed=1, workers=2), 1, threads=2))
        line(label + ", one thread", f"{omp / 1e6:.1f} M/s", f"{one / 1e6:.1f} M/s", one / omp, ">= 1.0", one >= omp)
        line(label + ", two threads", f"{omp / 1e6:.1f} M/s", f"{two / 1e6:.1f} M/s", two / omp, ">= 1.8",
             two >= 1.8 * omp)


def seed_job(exe: Path, rate5: float) -> None:
    print("the seed job: 10,000,000 seeded five-card hands, category table with intervals")
    dealing = Draw(Deck.standard(), 5)
    category_odds(dealing, trials=1000, seed=1)
    omp = 10_000_000 / rate5 if rate5 else 0.0
    for workers in (1, 2) if rate5 else ():  # against the evaluations of the eval section
        pinned({0} if workers == 1 else {0, 1})
        ours = min(best_seconds(lambda: category_odds(dealing, trials=10_000_000, seed=1, workers=workers), 1,
                                        threads=workers)
                   for _ in range(ROUNDS))
        line(f"10M hands, {workers} thread(s), vs 10M OMPEval evaluations", f"{omp:.3f} s", f"{ours:.3f} s",
             omp / ours, "faster", ours < omp)
    # the issue's own call, engine.simulate (the fused route, csrc/draw_tally.c), against OMPEval's
    # draw-evaluate-count loop (the driver's drawcount), alternating rounds
    simulate(dealing, PokerCategory(), 1000, seed=1)
    for k in (5, 7):
        dealing = Draw(Deck.standard(), k)
        omp, one, two = float("inf"), float("inf"), float("inf")
        for _ in range(ROUNDS):
            omp = min(omp, run_driver(exe, "drawcount", "10000000", str(k), "2")[0])
            pinned({0})
            one = min(one, best_seconds(lambda: simulate(dealing, PokerCategory(), 10_000_000, seed=1), 1))
            pinned({0, 1})
            two = min(two, best_seconds(lambda: simulate(dealing, PokerCategory(), 10_000_000, seed=1, workers=2), 1,
                                        threads=2))
        line(f"engine.simulate, 10M {k}-card hands, one thread", f"{omp:.3f} s", f"{one:.3f} s", omp / one,
             ">= 1.0", one <= omp)
        line(f"engine.simulate, 10M {k}-card hands, two threads", f"{omp:.3f} s", f"{two:.3f} s", omp / two,
             ">= 1.8", two * 1.8 <= omp)


def omaha(exe: Path) -> None:
    print("Omaha heads-up preflop exact (As Ah Kd Qc vs Js Ts 9h 8h), one core")
    holes = ["AsAhKdQc", "JsTs9h8h"]
    omp, ours = float("inf"), float("inf")
    for _ in range(ROUNDS):
        got = run_driver(exe, "omaha", "1", *holes)
        omp = min(omp, got[0])
        pinned({0})
        ours = min(ours, best_seconds(lambda: equity(["As Ah Kd Qc", "Js Ts 9h 8h"], game="omaha"), 2))
    mine = equity(["As Ah Kd Qc", "Js Ts 9h 8h"], game="omaha").players[0].equity
    line("vs a plain loop with OMPEval's evaluator", f"{omp:.3f} s", f"{ours:.3f} s", omp / ours, ">= 1.0",
         omp >= ours)
    print(f"      equities agree to {abs(mine - got[1]):.1e}")


def big_three_way() -> None:
    print("TT+,AQs+,AQo+ vs QQ+,AK vs TT preflop, exact, two cores (cardlab alone)")
    pinned({0, 1})
    specs = ["TT+,AQs+,AQo+", "QQ+,AK", "TT"]
    start = time.perf_counter()
    r = equity(specs, workers=2)
    seconds = time.perf_counter() - start
    print(f"  answered exactly in {seconds:.2f} s (goal <= 10 s): {verdict(r.exact and seconds <= 10)}; "
          f"equities {', '.join(f'{p.equity:.5f}' for p in r.players)}")


def commit_of(path: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return os.environ.get("OMPEVAL_COMMIT", "unknown (not a git checkout; set OMPEVAL_COMMIT)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and shorter Monte Carlo runs")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"the sections to run, comma-separated (default all: {','.join(SECTIONS)})")
    parser.add_argument("--cpu", action="store_true",
                        help="time one-thread rows by CPU seconds on both sides (a loaded machine)")
    args = parser.parse_args()
    if args.cpu:
        global ONE_THREAD_CLOCK
        ONE_THREAD_CLOCK = time.process_time
        os.environ["CARDLAB_BENCH_CPU"] = "1"
    root = os.environ.get("OMPEVAL_DIR")
    if not root or not (Path(root) / "omp" / "HandEvaluator.cpp").exists():
        print("set OMPEVAL_DIR to a checkout of zekyll/OMPEval (the directory holding omp/); "
              "every goal: not measured")
        return 2
    ompeval = Path(root)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"OMPEval {commit_of(ompeval)}; load average {load:.2f} on {os.cpu_count()} cores "
          f"({'idle' if load < 0.5 else 'LOADED: figures are indicative only'}); "
          f"one-thread rows in {'CPU' if args.cpu else 'wall'} seconds")
    with tempfile.TemporaryDirectory(prefix="cardlab-ompeval-") as tmp:
        work = Path(tmp)
        exe = build(ompeval, work)
        only = set(args.only.split(","))
        rate5 = evaluation(exe, work, 1_000_000 if args.quick else 4_000_000) if "eval" in only else 0.0
        if "exact" in only:
            exact_rows(exe)
        if "mc" in only:
            monte_carlo(exe, 1.0 if args.quick else 3.0)
        if "seed" in only:
            seed_job(exe, rate5)
        if "omaha" in only:
            omaha(exe)
        if "three" in only:
            big_three_way()
    return 0


if __name__ == "__main__":
    sys.exit(main())
