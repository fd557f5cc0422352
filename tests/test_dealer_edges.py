"""Edges of `bridge deal` and `bridge dealer` (issue 18: nothing silently wrong; issue 17: Ctrl-C)."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import cardlab

from cardlab.bridge.dealer import parse_script, run_script
from cardlab.bridge.deals import generate_deals, parse_constraint
from cardlab.errors import ConstraintError, DealerScriptError

from interrupts import wait_for_output

# the folder holding the imported package: src/ in a checkout, site-packages for an installed sdist
SRC = Path(cardlab.__file__).resolve().parents[1]


def _interrupting_writer(after: int) -> tuple[list[int], object]:
    """An ``on_deals`` that presses Ctrl-C (a real SIGINT to this process) while the ``after``-th
    batch is being written, as a user does when the output is slow."""
    received: list[int] = []

    def on_deals(masks: np.ndarray, before: int) -> None:
        received.append(masks.shape[2])
        if len(received) == after:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # the signal arrives while this batch is still being written

    return received, on_deals


@pytest.mark.parametrize(("spec", "exact"), [
    ("", 1.0),
    # P(15 <= hcp <= 17) for one hand: 4.424% + 3.311% + 2.362% (the exact points table, tests/test_bridge_points.py)
    ("hcp=15-17", 0.10097),
])
def test_issue18_interrupted_deal_counts_only_the_deals_examined(spec: str, exact: float) -> None:
    # Python's own Ctrl-C handler, as in a fresh process (a CLI test run earlier in this process
    # may have left its handler, or SIG_IGN, in place)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupted_run(spec, exact)
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupted_run(spec: str, exact: float) -> None:
    received, on_deals = _interrupting_writer(after=4)
    constraints = {"N": parse_constraint(spec)} if spec else {}
    batch = generate_deals(10_000_000, on_deals, seed=3, constraints=constraints, workers=1)  # type: ignore[arg-type]
    assert batch.interrupted
    assert batch.matched == sum(received)  # every deal written is counted, and only those
    rate, lo, hi = batch.acceptance()
    if exact == 1.0:
        assert batch.tried == batch.matched and rate == 1.0
    else:
        assert abs(rate - exact) < 4.5 * math.sqrt(exact * (1 - exact) / batch.tried)


def test_issue18_fixed_hand_contradicting_its_constraint_is_refused_before_dealing() -> None:
    started = time.perf_counter()
    with pytest.raises(ConstraintError, match=r"N's fixed cards '\.AKQJ\.AKQJT\.AKQJ' do not meet 'spades=5\+'"):
        generate_deals(1, lambda m, b: None, seed=1, constraints={"N": parse_constraint("spades=5+")},
                       fixed={"N": ".AKQJ.AKQJT.AKQJ"})
    # what the fixed hands leave: 10 hcp (the spade honours) for South
    with pytest.raises(ConstraintError, match="S cannot hold 11 hcp"):
        generate_deals(1, lambda m, b: None, seed=1, constraints={"S": parse_constraint("hcp=11+")},
                       fixed={"N": ".AKQJ.AKQJT.AKQJ"})
    assert time.perf_counter() - started < 1.0
    # a fixed hand that meets its constraint deals as usual
    batch = generate_deals(3, lambda m, b: None, seed=1, constraints={"N": parse_constraint("spades=0 hcp=30")},
                           fixed={"N": ".AKQJ.AKQJT.AKQJ"})
    assert batch.matched == 3 == batch.tried


def test_issue18_fixed_hand_contradiction_on_the_command_line(run) -> None:  # type: ignore[no-untyped-def]
    status, out, err = run("bridge", "deal", "--north-cards", ".AKQJ.AKQJT.AKQJ", "--north", "spades=5+")
    assert status == 2 and err.strip() == ("cardlab: error: impossible: N's fixed cards '.AKQJ.AKQJT.AKQJ' do not "
                                           "meet 'spades=5+'")


def test_issue18_json_with_two_print_actions_is_valid_json(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "two.dl"
    script.write_text("generate 20000\nproduce 5\ncondition hcp(north) >= 15\n"
                      "action printoneline, printpbn, print(north), average hcp(north)\n")
    status, out, err = run("bridge", "dealer", str(script), "-s", "1", "--format", "json", "--workers", "1")
    assert status == 0
    data = json.loads(out)
    assert len(data["deals"]) == data["produced"] == 5
    assert all(d.startswith("N:") and len(d.split()) == 4 for d in data["deals"])
    status, out, err = run("bridge", "dealer", str(script), "-s", "1", "--format", "json", "-q", "--workers", "1")
    quiet = json.loads(out)
    assert status == 0 and quiet["deals"] == [] and quiet["produced"] == 5
    assert quiet["averages"] == data["averages"]  # the same statistics, without the deals


def test_issue18_arithmetic_beyond_64_bits_is_an_error(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "big.dl"
    script.write_text("generate 1000\naction average 4000000000 * 4000000000 * hcp(north)\n")
    status, out, err = run("bridge", "dealer", str(script), "-s", "1")
    assert status == 2 and err.count("\n") == 1
    assert err.startswith("cardlab: error: arithmetic overflows 64 bits in '4000000000 * 4000000000'")
    script.write_text("generate 1000\naction average 99999999999999999999 + hcp(north)\n")
    status, out, err = run("bridge", "dealer", str(script), "-s", "1")
    assert status == 2 and "the number 99999999999999999999 does not fit in 64 bits" in err
    # an overflow only some deals reach: 9 * 10^18 + hcp(north) * 10^16 leaves 64 bits from 23 hcp
    s = parse_script("generate 200000\ncondition hcp(north) >= 23\naction average 9000000000000000000 + "
                     "hcp(north) * 10000000000000000")
    with pytest.raises(DealerScriptError, match="overflows 64 bits in '9000000000000000000 \\+ hcp"):
        run_script(s, seed=2, exact_draw=False)


def test_issue18_large_values_that_fit_are_summed_exactly() -> None:
    big = run_script(parse_script("generate 50000\naction average 3000000000000000000 + hcp(north)"), seed=5)
    plain = run_script(parse_script("generate 50000\naction average hcp(north)"), seed=5)
    assert big.averages[0].total == 3 * 10**18 * 50_000 + plain.averages[0].total  # beyond 64 bits, exact


def _start(args: list[str], tmp_path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.Popen([sys.executable, "-m", "cardlab", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=tmp_path)


@pytest.mark.parametrize("command", ["dealer", "deal"])
def test_ctrl_c_exits_130_within_a_second_with_what_was_done(command: str, tmp_path: Path) -> None:
    if command == "dealer":
        (tmp_path / "s.dl").write_text("generate 1000000000\nproduce 1000000000\ncondition hcp(north) >= 10\n"
                                       "action printpbn, average hcp(south)\n")
        args = ["bridge", "dealer", "s.dl", "-s", "1", "-o", "out.txt", "--workers", "2"]
    else:
        args = ["bridge", "deal", "-n", "40000000", "--seed", "1", "--format", "pbn", "-o", "out.pbn",
                "--workers", "2"]
    proc = _start(args, tmp_path)
    wait_for_output(proc, tmp_path)
    assert proc.poll() is None
    pressed = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    waited = time.perf_counter() - pressed
    assert proc.returncode == 130, err
    assert waited < 1.5, waited  # the goal is 1 s; the margin is for a loaded machine
    print(f"stopped {waited:.2f} s after Ctrl-C")
    if command == "dealer":
        written = (tmp_path / "out.txt").read_text()
        produced = int(written.split("Produced ")[1].split()[0])
        assert written.count("[Deal ") == produced > 0 and "Interrupted" in written
    else:
        written = (tmp_path / "out.pbn").read_text()
        matched = int(err.split(" deal(s)")[0].replace(",", "").split()[-1])
        assert written.count("[Deal ") == matched > 0 and "of " + f"{matched:,} random deals" in err


def _refuse_constant(name: str) -> None:
    raise ValueError(f"not JSON: {name}")


def test_json_with_no_deal_produced_is_strict_json(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # An average over no deals is not a number: it was written as NaN, which strict readers refuse.
    script = tmp_path / "none.dl"
    script.write_text("condition hcp(north) > 40\naction average hcp(south), frequency (hcp(south), 0, 3)\n")
    status, out, err = run("bridge", "dealer", str(script), "-g", "200", "-s", "1", "--format", "json",
                           "--workers", "1")
    assert status == 0, err
    data = json.loads(out, parse_constant=_refuse_constant)
    assert data["produced"] == 0
    assert data["averages"] == [{"label": "", "value": None, "ci95": [None, None], "count": 0}]
