"""Issue 18, "Nothing lost": a command that fails mid-run leaves an existing ``-o`` file as it
was (the output goes to a temporary file beside it, renamed on success); on Ctrl-C what was
completed is kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cardlab.cli.output import replacing

from interrupts import wait_for_output


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".cardlab-"))


def test_failed_deal_run_keeps_the_existing_file(run, tmp_path: Path) -> None:
    """Issue 18: ``bridge deal`` failing mid-run (the give-up limit, after 410 deals were written)
    left the existing ``-o`` file holding a partial PBN file; now it is untouched."""
    target = tmp_path / "deals.pbn"
    target.write_text("my own notes\n")
    status, out, err = run("bridge", "deal", "-n", "1000", "--north", "hcp=22+", "--max-tries", "100000",
                           "--seed", "1", "--workers", "1", "--format", "pbn", "-o", str(target))
    assert status == 2 and "give-up limit" in err
    assert target.read_text() == "my own notes\n"
    assert _leftovers(tmp_path) == []
    # the same command that succeeds replaces the file, keeping its permissions
    target.chmod(0o640)
    status, _, _ = run("bridge", "deal", "-n", "3", "--north", "hcp=22+", "--seed", "1", "--workers", "1",
                       "--format", "pbn", "-o", str(target))
    assert status == 0 and target.read_text().count("[Deal ") == 3
    assert target.stat().st_mode & 0o777 == 0o640 and _leftovers(tmp_path) == []


def test_failed_dealer_run_keeps_the_existing_file(run, tmp_path: Path) -> None:
    """Issue 18: ``bridge dealer`` failing mid-run (a division by zero met at some deal, after
    the first deals were printed) left the existing ``-o`` file emptied or half-written."""
    script = tmp_path / "zero.dl"
    # North holds exactly 28 points about once in 30,000 deals: deals are printed, then a division by zero
    script.write_text("produce 100000\naction printoneline, average 100 / (hcp(north) - 28)\n")
    status, out, err = run("bridge", "dealer", str(script), "-s", "3", "--workers", "1")
    assert status == 2 and "division by zero" in err and out.count("\n") > 1000  # it fails after writing
    target = tmp_path / "out.txt"
    target.write_text("kept\n")
    status, _, err = run("bridge", "dealer", str(script), "-s", "3", "--workers", "1", "-o", str(target))
    assert status == 2 and "division by zero" in err
    assert target.read_text() == "kept\n" and _leftovers(tmp_path) == []


def test_replacing_keeps_the_target_on_any_failure(tmp_path: Path) -> None:
    """The one helper every ``-o`` goes through: failure removes the temporary file, success and
    Ctrl-C put it in place (Ctrl-C keeps what was completed)."""
    target = tmp_path / "t.txt"
    target.write_text("old")
    with pytest.raises(ValueError):
        with replacing(target) as temporary:
            Path(temporary).write_text("half")
            raise ValueError("failed half-way")
    assert target.read_text() == "old" and _leftovers(tmp_path) == []
    with pytest.raises(KeyboardInterrupt):
        with replacing(target) as temporary:
            Path(temporary).write_text("what was done")
            raise KeyboardInterrupt
    assert target.read_text() == "what was done" and _leftovers(tmp_path) == []
    with replacing(tmp_path / "new.png") as temporary:
        assert temporary.endswith("new.png")  # the format is still told by the extension
        Path(temporary).write_text("new")
    assert (tmp_path / "new.png").read_text() == "new"
    with replacing(os.devnull) as name:  # not a regular file: written directly, never replaced
        assert name == os.devnull


def test_ctrl_c_keeps_the_deals_written_so_far(tmp_path: Path) -> None:
    """Issue 18: on Ctrl-C ``bridge deal -o`` keeps the deals completed, as before."""
    target = tmp_path / "many.pbn"
    target.write_text("old\n")
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", "bridge", "deal", "-n", "40000000", "--seed", "1",
                             "--workers", "1", "--format", "pbn", "-o", str(target)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_output(proc, tmp_path)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "Traceback" not in err
    assert f"note: {target} holds the partial result (interrupted)" in err  # the file is out of sight
    text = target.read_text()
    assert text.startswith("% PBN 2.1") and text.count("[Deal ") > 0
    assert _leftovers(tmp_path) == []
