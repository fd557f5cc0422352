"""The command line under stress: Ctrl-C with workers, huge requests, bad destinations."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _start(*argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "cardlab", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for_progress(proc: subprocess.Popen[str], seconds: float = 120.0) -> None:
    """Until the simulation reports its pace on stderr (its first chunk is done), however loaded
    the machine is: a fixed sleep was too short under load, and nothing had been simulated yet."""
    assert proc.stderr is not None
    fd = proc.stderr.fileno()
    os.set_blocking(fd, False)
    seen = b""
    deadline = time.monotonic() + seconds
    try:
        while b"simulating" not in seen:
            assert proc.poll() is None and time.monotonic() < deadline, seen
            try:
                seen += os.read(fd, 65536)
            except BlockingIOError:
                time.sleep(0.05)
    finally:
        os.set_blocking(fd, True)
    assert b"Traceback" not in seen


# 10^12 trials: a fast machine did 10^9 in under THRESHOLD (10 s) and so never announced it
@pytest.mark.parametrize("trials", ["1000000000000", "1e20"])
def test_ctrl_c_with_two_workers_exits_130_within_a_second(trials: str) -> None:
    proc = _start("poker", "odds", "--cards", "7", "--simulate", trials, "--seed", "1", "--workers", "2")
    _wait_for_progress(proc)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 1.0
    assert proc.returncode == 130
    assert "interrupted:" in out and "Traceback" not in err
    # a second Ctrl-C while the first is handled gives no traceback either
    proc = _start("poker", "odds", "--cards", "7", "--simulate", "1000000000000", "--seed", "1", "--workers", "2")
    _wait_for_progress(proc)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.05)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "Traceback" not in err


def test_more_workers_than_cores_is_capped_with_a_notice(run) -> None:
    status, out, err = run("poker", "odds", "--simulate", "20000", "--seed", "1", "--workers", "1000",
                           "--format", "json")
    assert status == 0
    assert "note: using" in err and "asked for 1000" in err
    assert '"trials": 20000' in out


def test_destinations_are_checked_before_the_work(tmp_path: Path) -> None:
    started = time.monotonic()
    proc = _start("poker", "odds", "--cards", "7", "--simulate", "100000000000", "--workers", "1",
                  "-o", str(tmp_path / "no" / "such" / "dir.txt"))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and time.monotonic() - started < 10
    assert err.count("\n") == 1 and "folder" in err and "does not exist" in err
    proc = _start("bridge", "hcp", "--simulate", "100000000000", "--plot", "table.jpg")
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "ending in .png" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_file_is_refused_first(tmp_path: Path, run) -> None:
    target = tmp_path / "locked.txt"
    target.write_text("")
    target.chmod(0o444)
    status, _, err = run("bridge", "hcp", "-o", str(target))
    assert status == 2 and "permission denied" in err


def test_main_called_from_python_gives_back_the_sigint_handler_after_an_interrupt() -> None:
    """A Ctrl-C inside ``main(argv)`` (exit 130) must not leave Ctrl-C ignored for the caller."""
    import signal
    from unittest import mock

    from cardlab.cli.main import main

    before = signal.getsignal(signal.SIGINT)
    with mock.patch("cardlab.cli.bridge_stats._hcp", side_effect=KeyboardInterrupt):
        assert main(["bridge", "hcp"]) == 130
    assert signal.getsignal(signal.SIGINT) is before
