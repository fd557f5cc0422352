"""The board-set writers on a full disk and under Ctrl-C / SIGTERM (issue 25, "nothing lost").

A full disk is simulated for the command's process alone with ``RLIMIT_FSIZE`` (a write past
the limit fails with EFBIG, as one past the free space fails with ENOSPC; ``SIGXFSZ`` ignored),
so no mount is needed. Each writer must leave the previous file as it was, no temporary file
beside it, and print one line naming the file."""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from interrupts import wait_for_output

OPENER = "condition hcp(north) >= 15\n"


def _small_disk(limit: int) -> None:  # runs in the child, before the command
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def _cli(cwd: Path, *argv: str, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardlab", *argv], capture_output=True, text=True, cwd=cwd,
                          timeout=300, preexec_fn=None if limit is None else (lambda: _small_disk(limit)))


WRITERS = {
    "lin": ("bridge", "dealer", "opener.dlr", "--board-format", "lin", "-p", "20000", "-o", "prev.lin"),
    "shuffled": ("bridge", "dealer", "opener.dlr", "--board-format", "lin", "--shuffle", "-p", "20000", "-o",
                 "prev.lin"),
    "json": ("bridge", "dealer", "opener.dlr", "--format", "json", "--rotate", "-p", "5000", "-o", "prev.json"),
    "dup": ("bridge", "dealer", "opener.dlr", "--board-format", "dup", "-p", "999", "-o", "prev.dup"),
    "convert": ("bridge", "boards", "set.lin", "-o", "prev.pbn"),
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_full_disk_leaves_the_previous_file_and_one_line(tmp_path: Path, writer: str) -> None:
    (tmp_path / "opener.dlr").write_text(OPENER)
    assert _cli(tmp_path, "bridge", "dealer", "opener.dlr", "--board-format", "lin", "-p", "3000", "--seed", "1",
                "-o", "set.lin").returncode == 0
    argv = WRITERS[writer]
    target = tmp_path / argv[-1]
    target.write_text("previous\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    done = _cli(tmp_path, *argv, "--seed", "2", limit=64 * 1024) if argv[1] == "dealer" else \
        _cli(tmp_path, *argv, limit=64 * 1024)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"cardlab: error: cannot use file '{argv[-1]}': File too large"]
    assert target.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no temporary file left
    done = _cli(tmp_path, *argv, "--seed", "2") if argv[1] == "dealer" else _cli(tmp_path, *argv)
    assert done.returncode == 0 and target.stat().st_size > 64 * 1024  # the same command, room enough


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_json_set_is_valid_json_of_the_boards_dealt(tmp_path: Path, sig: signal.Signals) -> None:
    """Streamed JSON cut by Ctrl-C or SIGTERM still parses: the boards completed, marked
    interrupted; no temporary file is left."""
    (tmp_path / "opener.dlr").write_text(OPENER)
    (tmp_path / "prev.json").write_text("previous\n")
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", "bridge", "dealer", "opener.dlr", "--format", "json",
                             "--rotate", "-p", "100000000", "--seed", "3", "--workers", "1", "-o", "prev.json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    wait_for_output(proc, tmp_path)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode in (130, 143) and "Traceback" not in err, err
    data = json.loads((tmp_path / "prev.json").read_text())
    assert data["interrupted"] is True and data["seed"] == 3 and len(data["boards"]) >= 1
    assert [b["board"] for b in data["boards"]] == list(range(1, len(data["boards"]) + 1))
    assert "prev.json holds the output completed before the interrupt" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["opener.dlr", "prev.json"]


def test_a_web_download_on_a_full_disk_is_one_clear_line(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The scoring page writes its site (for site.zip) in a temporary folder: a full disk there
    ends the job with one line saying what happened, not a traceback."""
    from cardlab.report import progress
    from cardlab.web.jobs import _work

    # _work is meant for the job's own process: it routes the engine's progress to the pipe by
    # replacing report.progress.Progress, which must not outlive this test in the test process
    monkeypatch.setattr(progress, "Progress", progress.Progress)

    sent: list[tuple[object, ...]] = []

    class Pipe:
        def send(self, item: tuple[object, ...]) -> None:
            sent.append(item)

        def close(self) -> None:
            pass

    def full(self: Path, *args: object, **kwargs: object) -> int:
        raise OSError(28, "No space left on device")

    data = (Path(__file__).parent.parent / "examples" / "session.xml").read_bytes()
    monkeypatch.setattr(Path, "write_text", full)
    _work(Pipe(), "cardlab.web.pages.scoring:compute", {"data": data, "name": "session.xml", "method": None,
                                                        "scale": None, "movement": None, "title": None}, 0)
    outcome = [item for item in sent if item[0] != "progress"]
    assert outcome == [("error", "the server could not write its working files (No space left on device); free "
                                 "some disk space and try again")]
    assert "Traceback" not in capsys.readouterr().err


def test_a_json_set_interrupted_before_any_board_keeps_the_previous_file(tmp_path: Path) -> None:
    """Nothing dealt yet: an existing -o file is kept; a new one is valid JSON of no boards."""
    import time

    (tmp_path / "rare.dlr").write_text("condition hcp(north) > 35 && hcp(east) > 3\ngenerate 1000000000\n")
    for previous in (True, False):
        target = tmp_path / "prev.json"
        if previous:
            target.write_text("previous\n")
        proc = subprocess.Popen([sys.executable, "-m", "cardlab", "bridge", "dealer", "rare.dlr", "--format", "json",
                                 "--rotate", "-p", "5", "--seed", "3", "--workers", "1", "-o", "prev.json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
        time.sleep(4)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130 and "Traceback" not in err, err
        if previous:
            assert target.read_text() == "previous\n" and "nothing was produced; prev.json was left as it was" in err
            target.unlink()
        else:
            assert json.loads(target.read_text()) == {"seed": 3, "rotated": True, "boards": [], "parts": [],
                                                      "interrupted": True}
        assert sorted(p.name for p in tmp_path.iterdir()) == (["rare.dlr"] if previous else ["prev.json", "rare.dlr"])


def test_a_full_disk_under_a_results_site_names_the_folder_and_leaves_none(tmp_path: Path) -> None:
    # issue 38: "cannot use file: File too large" (no name), and -o club/2024/site/ left the three
    # folders made for it, empty; an existing site is kept as it was
    (tmp_path / "mitchell.csv").write_bytes((Path(__file__).parent / "data" / "mitchell.csv").read_bytes())
    done = _cli(tmp_path, "bridge", "score", "mitchell.csv", "--format", "html", "-o", "club/2024/site/",
                limit=2000)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["cardlab: error: cannot use file 'club/2024/site': File too large"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mitchell.csv"]
    assert _cli(tmp_path, "bridge", "score", "mitchell.csv", "--format", "html", "-o", "club/2024/site/").returncode == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "club" / "2024" / "site").iterdir()}
    assert len(before) > 5
    done = _cli(tmp_path, "bridge", "score", "mitchell.csv", "--format", "html", "-o", "club/2024/site/",
                limit=2000)
    assert done.returncode == 2 and "'club/2024/site'" in done.stderr
    assert {p.name: p.read_bytes() for p in (tmp_path / "club" / "2024" / "site").iterdir()} == before
    assert sorted(p.name for p in (tmp_path / "club" / "2024").iterdir()) == ["site"]


# --- last round's writers (issues 43, 44; the club's appendix Mitchell) ----------------------------

_UTH = 'name = "small"\ngame = "ultimate-holdem"\ndeck = "As Ks Qs Js Ts 9h 8h 7h 6d 5d 4c"\n'
NEW_WRITERS = {
    "casino-shoe": ("casino", "shoe", "--decks", "1", "--rounds", "2000", "--seed", "1", "--workers", "1", "-o",
                    "prev.txt"),
    "casino-analyse": ("casino", "analyse", "uth.toml", "--format", "json", "-o", "prev.json"),
    "casino-blackjack": ("casino", "blackjack", "--shoe", "1,1,1,1,1,1,1,1,1,4", "-o", "prev.txt"),
    "flop-report": ("poker", "solve", "--oop", "AA", "--ip", "KK", "--flops", "Qs Jh 2h; Ah 7h 2h", "--pot", "10",
                    "--stack", "0", "-o", "prev.txt"),
    "solve-save": ("poker", "solve", "--oop", "AA", "--ip", "KK", "--board", "Qs Jh 2h 3c 4d", "--pot", "10", "--stack",
                   "0", "-o", "-", "--save", "prev.npz"),
    "movement": ("club", "movement", "appendix", "8", "-o", "prev.txt"),
    "cards": ("club", "cards", "appendix", "8", "--guide", "-o", "prev.html"),
}


@pytest.mark.parametrize("writer", list(NEW_WRITERS))
def test_last_rounds_writers_on_a_full_disk_keep_the_previous_file(tmp_path: Path, writer: str) -> None:
    """Each writes its whole output through cli.output.replacing: on a full disk (200 bytes) the
    previous file is kept, no temporary file is left and one line names the file; with room, the
    same command replaces it."""
    (tmp_path / "uth.toml").write_text(_UTH)
    argv = NEW_WRITERS[writer]
    target = tmp_path / argv[-1]
    target.write_text("previous\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    done = _cli(tmp_path, *argv, limit=200)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == f"cardlab: error: cannot use file '{argv[-1]}': File too large"
    assert "Traceback" not in done.stderr and target.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    done = _cli(tmp_path, *argv)
    assert done.returncode == 0 and target.stat().st_size > 200, done.stderr


@pytest.mark.parametrize("previous", [True, False], ids=["previous-file", "new-file"])
def test_ctrl_c_while_a_solve_is_saved_leaves_no_half_written_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 run, previous: bool) -> None:
    """A saved solve is of no use in part: Ctrl-C (or SIGTERM, turned into the same exception) in the
    middle of writing the .npz put the half-written archive in place of the previous one ('holds the
    output completed before the interrupt'), which --load then could not read. Now the previous
    file is kept, and none is made when there was none."""
    import numpy as np

    real = np.savez_compressed

    def interrupted(handle, **arrays):  # the archive's first bytes written, then Ctrl-C
        real(handle, **arrays)
        handle.truncate(100)
        raise KeyboardInterrupt

    monkeypatch.chdir(tmp_path)
    if previous:
        (tmp_path / "prev.npz").write_text("previous\n")
    monkeypatch.setattr(np, "savez_compressed", interrupted)
    status, _, err = run("poker", "solve", "--oop", "AA", "--ip", "KK", "--board", "Qs Jh 2h 3c 4d", "--pot", "10",
                         "--stack", "0", "--save", "prev.npz")
    assert status == 130 and "Traceback" not in err
    assert "nothing was produced; prev.npz was left as it was" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == (["prev.npz"] if previous else [])
    if previous:
        assert (tmp_path / "prev.npz").read_text() == "previous\n"


_LONG_RUNS = {
    "casino-shoe": ("casino", "shoe", "--decks", "2", "--rounds", "1000000000000", "--seed", "3", "--workers", "1",
                    "--format", "json", "-o", "prev.json"),
    "flop-report": ("poker", "solve", "--oop", "QQ+, AK", "--ip", "JJ-99, AQ", "--flops", "all", "--pot", "10",
                    "--stack", "20", "--format", "json", "-o", "prev.json"),
    "casino-analyse": ("casino", "analyse", "ultimate-holdem", "--format", "json", "-o", "prev.json"),
}


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("command", list(_LONG_RUNS))
def test_last_rounds_long_commands_interrupted_leave_the_old_file_or_a_whole_result(tmp_path: Path, command: str,
                                                                                  sig: signal.Signals) -> None:
    """Ctrl-C or SIGTERM a few seconds into a long run: the shoe simulation and the flop report
    write what they completed, whole and marked interrupted; the exact analysis, which has nothing
    until it ends, leaves the previous file. Never a traceback, a half-written file or a temporary
    file left behind."""
    import time

    (tmp_path / "prev.json").write_text("previous\n")
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", *_LONG_RUNS[command]], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    time.sleep(4)
    assert proc.poll() is None
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (130, 143) and "Traceback" not in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prev.json"]
    text = (tmp_path / "prev.json").read_text()
    if command == "casino-analyse":
        assert text == "previous\n"
    elif text != "previous\n":  # a whole result of the work done, marked interrupted
        data = json.loads(text)
        assert data["interrupted"] is True and "prev.json holds" in err
        assert (data["rounds"] > 0) if command == "casino-shoe" else (data["flops"] >= 1)
