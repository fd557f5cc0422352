"""The compiled core: built by the install, portable C that gcc and clang compile without a warning,
the same kernels whichever compiler or fallback route built them, and GIL-free tasks on threads.

The slow tests build the extension again into a temporary folder (never over the installed one)
with clang, with the plain-C fallbacks forced (``CL_PORTABLE_FALLBACK``) and with gcc's address
and undefined-behaviour sanitizers, and run the kernel tests against each build.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path

import numpy as np
import pytest

from cardlab import _core
from cardlab.engine import iter_chunks, local_executor

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "csrc"
SOURCES = sorted(CSRC.glob("*.c"))
STRICT = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]
INCLUDES = ["-I" + sysconfig.get_paths()["include"], "-I" + str(CSRC)]


def test_core_is_compiled() -> None:
    assert _core.__file__ is not None and _core.__file__.endswith((".so", ".pyd"))
    info = _core.build_info()
    assert isinstance(info["compiler"], str) and info["route"] in ("gnu", "msvc", "plain")


class _ThreadName:
    releases_gil = True

    def __call__(self, seed: np.random.SeedSequence, n: int) -> tuple[str, int]:
        return threading.current_thread().name, int(np.random.default_rng(seed).integers(1 << 30))


def test_gil_free_tasks_run_on_threads_with_the_same_seeds() -> None:
    root = np.random.SeedSequence(5)
    inline = [r for _, r in iter_chunks(_ThreadName(), [1] * 6, root, workers=1)]
    threaded = [r for _, r in iter_chunks(_ThreadName(), [1] * 6, root, workers=2)]
    assert [v for _, v in inline] == [v for _, v in threaded]
    assert all(name.startswith("cardlab") for name, _ in threaded) or local_executor(2).slots == 1


# --- one home for the C core's facts ----------------------------------------------------------

def _defines(header: Path) -> dict[str, int]:
    found = {}
    for name, value in re.findall(r"^#define (CL_\w+) (?:UINT64_C\()?(0x[0-9A-Fa-f]+|\d+)\)?", header.read_text(), re.M):
        found[name] = int(value, 0)
    return found


def test_card_header_agrees_with_the_python_constants() -> None:
    from cardlab.cards import RANKS, SUITS, card_id
    from cardlab.poker.kernel import CATEGORY_SHIFT
    from cardlab.casino.video import JOKER

    d = _defines(CSRC / "cards.h")
    assert d["CL_RANKS"] == len(RANKS) == 13 and d["CL_SUITS"] == len(SUITS) == 4
    assert d["CL_CARDS"] == len(RANKS) * len(SUITS) and d["CL_JOKER"] == JOKER
    assert d["CL_CATEGORY_SHIFT"] == CATEGORY_SHIFT
    assert d["CL_HOLDINGS"] == 1 << len(RANKS) and d["CL_SUIT_MASK"] == (1 << len(RANKS)) - 1
    assert d["CL_SHAPES"] == 14 ** 4
    # the hand word: suit s in bits 16 s .. 16 s + 12, so all 52 cards make this word
    lane = d["CL_SUIT_LANE"]
    assert d["CL_FULL_DECK"] == sum(1 << (lane * (c % 4) + c // 4) for c in range(52))
    # the encoding itself, rank * 4 + suit, as cards.py reads cards
    assert card_id("2c") == 0 and card_id("As") == 12 * 4 + 3 and card_id("Td") == 8 * 4 + 1


def test_one_generator_and_no_compiler_specific_code_outside_the_portability_header() -> None:
    texts = {p.name: p.read_text() for p in sorted(CSRC.glob("*.[ch]"))}
    assert [n for n, t in texts.items() if "xoshiro" in t.lower() and "cl_next(" in t and "s[2] ^= s[0]" in t] == ["rng.h"]
    assert [n for n, t in texts.items() if re.search(r"\(uint32_t\)\(-\(?\w+\)?\) % \(?\w", t)] == ["rng.h"]
    for name, text in texts.items():
        if name != "portable.h":
            assert "__builtin" not in text and "__int128" not in text and "__attribute__" not in text, name
    for dead in ("best_kicker_pay", "cl_below(", "video_classify"):
        assert not any(dead in t for t in texts.values()), dead


# --- warnings as errors, with both compilers and both routes ----------------------------------

def _compiler(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (.ci/run installs Debian's clang)")
    return path


@pytest.mark.parametrize("fallback", [False, True], ids=["builtins", "fallback"])
@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_warnings_as_errors(compiler: str, fallback: bool) -> None:
    cc = _compiler(compiler)
    flags = [*STRICT, *INCLUDES, *(["-DCL_PORTABLE_FALLBACK"] if fallback else [])]
    for source in SOURCES:
        run = subprocess.run([cc, "-fsyntax-only", *flags, str(source)], capture_output=True, text=True)
        assert run.returncode == 0, f"{compiler} {source.name}:\n{run.stderr}"


# --- the portability header's two routes give the exact answers ---------------------------

ROUTES_PROGRAM = r"""
#include <inttypes.h>
#include <stdio.h>
#include "portable.h"
static const int64_t V[] = {0, 1, -1, 2, -2, 3037000499, -3037000500, INT32_MAX, INT32_MIN,
                            INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, 4611686018427387904};
int main(void)
{
    size_t n = sizeof V / sizeof V[0];
    for (size_t i = 0; i < n; i++) {
        uint64_t u = (uint64_t)V[i];
        printf("bits %" PRIu64 " %d %d %d\n", u, cl_popcount64(u), cl_popcount32((uint32_t)u),
               u ? cl_ctz64(u) : -1);
        for (size_t j = 0; j < n; j++) {
            int64_t r[3] = {0, 0, 0};
            int o[3] = {cl_add_overflow(V[i], V[j], &r[0]), cl_sub_overflow(V[i], V[j], &r[1]),
                        cl_mul_overflow(V[i], V[j], &r[2])};
            cl_i128 p = cl_i128_mul64(V[i], V[j]);
            printf("ops %" PRId64 " %" PRId64, V[i], V[j]);
            for (int k = 0; k < 3; k++)
                printf(o[k] ? " over" : " %" PRId64, r[k]);
            printf(" %" PRIu64 " %" PRIu64 "\n", cl_i128_hi(p), cl_i128_lo(p));
        }
    }
    return 0;
}
"""


@pytest.mark.parametrize("fallback", [False, True], ids=["builtins", "fallback"])
def test_portability_routes_give_the_exact_answers(fallback: bool, tmp_path: Path) -> None:
    """The builtin and plain-C routes of portable.h, checked value by value against Python's exact
    integers: overflow-checked add, sub and mul at the edges of int64 (INT64_MIN - 1, -INT64_MIN),
    the 128-bit product's two words, popcounts and the lowest set bit."""
    source = tmp_path / "routes.c"
    source.write_text(ROUTES_PROGRAM)
    program = tmp_path / "routes"
    flags = [*STRICT, "-I" + str(CSRC), *(["-DCL_PORTABLE_FALLBACK"] if fallback else [])]
    built = subprocess.run([_compiler("gcc"), *flags, str(source), "-o", str(program)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    lines = subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout.splitlines()
    low, high = -(1 << 63), (1 << 63) - 1
    checked = 0
    for line in lines:
        kind, *words = line.split()
        if kind == "bits":
            u, pop64, pop32, ctz = map(int, words)
            assert (pop64, pop32) == (bin(u).count("1"), bin(u & 0xFFFFFFFF).count("1"))
            assert ctz == ((u & -u).bit_length() - 1 if u else -1)
            continue
        a, b = int(words[0]), int(words[1])
        for shown, exact in zip(words[2:5], (a + b, a - b, a * b)):
            assert shown == (str(exact) if low <= exact <= high else "over"), (line, exact)
        assert (int(words[5]) << 64) | int(words[6]) == (a * b) & ((1 << 128) - 1), line
        checked += 1
    assert checked == 14 * 14


# --- the kernel tests against other builds of the core ----------------------------------------

KERNEL_TESTS = ["test_deal_kernels.py", "test_deal_program.py", "test_core_build.py", "test_poker_evaluate.py",
                "test_poker_odds.py", "test_poker_equity.py", "test_video.py", "test_core_fuzz.py",
                "test_suitplay_core.py", "test_poker_speed_kernels.py", "test_poker_games.py", "test_bulk_readers.py",
                "test_poker_equity_hilo_split.py", "test_fused_route.py", "test_solver.py", "test_casino.py",
                "test_casino_holdem.py", "test_casino_uth.py", "test_casino_caribbean.py", "test_blackjack_sim.py"]
# the sanitizer and fallback builds run the kernel tests without the longest published-table checks
QUICK = ("(test_deal_kernels or test_deal_program or test_core_build or test_poker_evaluate"
         " or test_core_fuzz or test_poker_odds or test_suitplay_core or test_poker_speed_kernels or test_poker_games"
         " or test_bulk_readers or test_poker_equity_hilo_split or test_fused_route or test_solver or test_casino"
         " or test_blackjack_sim"
         " or (test_video and (brute_force or kernel or hand_against or equal_ev or joker_hand))"
         " or (test_poker_equity and (aa_vs_kk or brute_force or fast_paths or compiled_showdown"
         " or rank_class or simulated_boards)))")

VARIANTS = {
    "clang": ("clang", ["-O2"], None),
    "fallback": ("gcc", ["-O2", "-DCL_PORTABLE_FALLBACK"], QUICK),
    "sanitizers": ("gcc", ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
                           "-fno-sanitize-recover=undefined"], QUICK),
}


def _build(cc: str, flags: list[str], into: Path) -> Path:
    """A copy of the package with the core compiled by ``cc``: the folder to put on PYTHONPATH."""
    package = into / "cardlab"
    shutil.copytree(ROOT / "src" / "cardlab", package,
                    ignore=shutil.ignore_patterns("_core*.so", "_core*.pyd", "__pycache__"))
    target = package / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    command = [cc, "-shared", "-fPIC", *STRICT, *flags, *INCLUDES, *map(str, SOURCES), "-o", str(target)]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return into


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="the variant builds use gcc/clang command lines")
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_kernel_tests_pass_on_another_build(variant: str, tmp_path: Path) -> None:
    name, flags, keyword = VARIANTS[variant]
    cc = _compiler(name)
    site = _build(cc, flags, tmp_path / "site")
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("PYTHONSAFEPATH", None)
    if variant == "sanitizers":
        libasan = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
        env["LD_PRELOAD"] = libasan
        env["ASAN_OPTIONS"] = "detect_leaks=0"
    probe = subprocess.run([sys.executable, "-c", "import cardlab._core as c; print(c.__file__); print(c.build_info())"],
                           capture_output=True, text=True, env=env, cwd=tmp_path)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.startswith(str(site)), probe.stdout
    info = probe.stdout.splitlines()[1]
    assert (("'route': 'plain'" in info and "'int128': 'two words'" in info) if variant == "fallback"
            else "'route': 'gnu'" in info), info
    assert info.startswith("{'compiler': '" + name), info
    files = [str(ROOT / "tests" / f) for f in KERNEL_TESTS if (ROOT / "tests" / f).exists()]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", "-o", "addopts=",
               "-m", "not slow", *files]
    if keyword:
        command += ["-k", keyword]
    run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    assert " passed" in run.stdout
