"""Issue 38, "tried with 5,800 hostile inputs": each attack finding reproduced by a test named after
it (silent wrong answers, unbounded inputs). Limits: docs/reliability.md."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab.errors import CardError, CardlabError, DealerScriptError, HandError


def _cli(*argv: str, cwd: Path | None = None, stdin: str | None = None, memory: int = 2 << 30,
         timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The command line in a subprocess whose address space is capped at ``memory`` bytes (a
    runaway read ends in a MemoryError there, not in the machine's swap)."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([sys.executable, "-m", "cardlab", *argv], capture_output=True, text=True, cwd=cwd,
                          input=stdin, timeout=timeout, preexec_fn=cap)


# --- silent wrong answers ------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["pointcount 4611686018427387904 0", "altcount 3 4611686018427387904",
                                  "pointcount -4611686018427387904"])
def test_pointcount_with_huge_values_is_refused(line: str) -> None:
    """A hand's points summed 13 such values in 64 bits: 'hcp(north) < 0' accepted every hand."""
    from cardlab.bridge.dealer import parse_script

    with pytest.raises(DealerScriptError, match=r"at most 1,000,000 points either way, not -?4611686018427387904"):
        parse_script(f"{line}\ncondition hcp(north) < 0\nproduce 2\n")
    assert parse_script("pointcount 1000000 0\nproduce 1\n").pointcount[12] == 1_000_000


def test_pointcount_with_huge_values_cli_exits_2(tmp_path: Path) -> None:
    script = tmp_path / "huge.dlr"
    script.write_text("pointcount 4611686018427387904 0\ncondition hcp(north) < 0\nproduce 2\n")
    done = _cli("bridge", "dealer", str(script), "-s", "1")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "at most 1,000,000" in done.stderr


def test_icm_float_route_gives_a_tiny_stack_its_equity() -> None:
    """`poker icm 1,1e17 --payouts 50,30` gave player A 0: total - placed cancelled in doubles."""
    from cardlab.poker.icm import icm

    floats = icm([1, 1e17], [50, 30])
    exact = icm([1, 10**17], [50, 30], exact=True)
    assert floats.equity_exact is None and exact.equity_exact is not None
    assert floats.equity[0] == pytest.approx(30.0, abs=1e-12)
    assert floats.equity == pytest.approx([float(e) for e in exact.equity_exact], abs=1e-12)


def test_icm_float_route_of_one_huge_stack_adds_up_to_the_pool() -> None:
    """21 stacks of 1 and one of 1e17 gave equities summing to 122.19 of a 100 (50+30) pool...
    wrong pool: they must sum to the 80 paid. The exact route (11 stacks of 1 and one of 10^17,
    within EXACT_PLAYERS) is the oracle."""
    from cardlab.poker.icm import icm

    many = icm([1] * 21 + [1e17], [50, 30])
    assert sum(many.equity) == pytest.approx(80, abs=1e-12)
    assert many.equity[-1] == pytest.approx(50, abs=1e-9)
    stacks = [1] * 11 + [10**17]
    floats = icm([float(x) for x in stacks], [50, 30, 20])
    exact = icm(stacks, [50, 30, 20], exact=True)
    assert exact.equity_exact is not None
    assert floats.equity == pytest.approx([float(e) for e in exact.equity_exact], abs=1e-12, rel=0)


@pytest.mark.parametrize("model", ["malmuth-harville", "malmuth-weitzman"])
def test_icm_float_route_of_a_1e12_stack_is_within_its_documented_1e12(model: str) -> None:
    """`icm([1e-12, 1.0], [50, 30])` was off by 2.7e-3 against the documented 1e-12."""
    from cardlab.poker.icm import icm

    floats = icm([1e-12, 1.0, 0.5, 2e-9], [50, 30, 20], model=model)
    exact = icm([Fraction(1e-12), Fraction(1), Fraction(1, 2), Fraction(2e-9)], [50, 30, 20], model=model)
    assert exact.equity_exact is not None and floats.equity_exact is None
    assert floats.equity == pytest.approx([float(e) for e in exact.equity_exact], abs=1e-12, rel=0)


def test_icm_float_route_takes_stacks_past_the_largest_double() -> None:
    from cardlab.poker.icm import icm

    r = icm([10**400] * 13 + [2 * 10**400], [60, 40])
    assert sum(r.equity) == pytest.approx(100, abs=1e-9)
    assert r.equity[-1] > r.equity[0]


@pytest.mark.parametrize("hands", [np.array([[0, 1, 2, 3, np.nan]]), np.array([[0, 1, 2, 3, 4.0]]),
                                   np.array([[0, 1, 2, 3, 4]], dtype="m8[ns]"),
                                   np.array([[0, 1, 2, 3, 300]]), np.array([[0, 1, 2, 3, -1]])],
                         ids=["nan", "float", "timedelta", "300", "-1"])
def test_game_values_of_nan_float_and_timedelta_card_arrays_raise(hands: np.ndarray) -> None:
    from cardlab.poker.games import game_values

    with pytest.raises(HandError, match="card ids"):
        game_values(hands, "27")


def test_game_values_of_whole_number_card_arrays_still_work() -> None:
    from cardlab.poker.games import game_values

    values, cats = game_values(np.array([[48, 49, 50, 51, 44], [0, 5, 10, 15, 20]], dtype=np.int64), "27")
    assert values[1] > values[0] and cats.dtype == np.uint8  # 7-5-4-3-2, the best deuce-to-seven low


def test_level_lines_of_a_script_on_stdin_are_levelled(tmp_path: Path) -> None:
    """`# level` lines were ignored when the script came on standard input."""
    script = "# level major = spades(north) >= 5 : 50%\n# level other : 50%\nproduce 4\n"
    (tmp_path / "lv.dlr").write_text(script)
    by_path = _cli("bridge", "dealer", "lv.dlr", "-s", "1", cwd=tmp_path)
    by_stdin = _cli("bridge", "dealer", "-", "-s", "1", cwd=tmp_path, stdin=script)
    assert by_path.returncode == by_stdin.returncode == 0
    assert "major: 2 board(s) = 50% of the part" in by_path.stderr
    assert "major: 2 board(s) = 50% of the part" in by_stdin.stderr
    assert by_stdin.stdout == by_path.stdout and by_stdin.stdout.count("[Board ") == 4


def test_bridge_boards_format_json_with_o_writes_json(tmp_path: Path) -> None:
    """`bridge boards F --format json -o out.json` wrote PBN."""
    from cardlab.cli.main import main

    (tmp_path / "in.pbn").write_text(_PBN)
    assert main(["bridge", "boards", str(tmp_path / "in.pbn"), "--format", "json", "-o", str(tmp_path / "out.json")]) == 0
    listed = json.loads((tmp_path / "out.json").read_text())
    assert listed == [{"board": 1, "dealer": "N", "vulnerable": "None", "deal": _DEAL}]


def test_bridge_boards_format_json_with_a_board_format_is_refused(tmp_path: Path, run) -> None:
    (tmp_path / "in.pbn").write_text(_PBN)
    status, out, err = run("bridge", "boards", str(tmp_path / "in.pbn"), "--format", "json", "--board-format",
                           "lin", "-o", str(tmp_path / "out.lin"))
    assert status == 2 and "--format json" in err and not (tmp_path / "out.lin").exists()


_DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
_PBN = f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{_DEAL}"]\n\n'


@pytest.mark.parametrize("argv", [["bridge", "boards", "in.pbn", "-o", "-"],
                                  ["bridge", "boards", "in.pbn", "-o", "-", "--board-format", "lin"],
                                  ["bridge", "dealer", "s.dlr", "--first-board", "3", "-o", "-", "-s", "1"],
                                  ["poker", "rank", "AsKsQsJsTs", "2c3c4c5c7d", "-o", "-"]],
                         ids=["boards-pbn", "boards-lin", "board-set", "rank"])
def test_o_dash_means_stdout(tmp_path: Path, argv: list[str]) -> None:
    """`-o -` created a file named '-': it means standard output, wherever -o exists."""
    (tmp_path / "in.pbn").write_text(_PBN)
    (tmp_path / "s.dlr").write_text("produce 2\n")
    done = _cli(*argv, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "-").exists()
    assert done.stdout.strip() != ""
    assert "written to -" not in done.stderr


def test_o_dash_for_a_results_site_writes_its_single_page_to_stdout(tmp_path: Path) -> None:
    """`bridge score --format html -o -` made a site folder named '-': it writes the one-page
    form (as `-o results.html` does) to standard output."""
    results = Path(__file__).parent / "data" / "mitchell.csv"
    done = _cli("bridge", "score", str(results), "--format", "html", "-o", "-", cwd=tmp_path)
    single = _cli("bridge", "score", str(results), "--format", "html", "-o", "one.html", cwd=tmp_path)
    assert done.returncode == single.returncode == 0, done.stderr
    assert done.stdout == (tmp_path / "one.html").read_text() and "<html" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.html"]


def test_class_label_out_of_the_grid_raises() -> None:
    """`ranges.class_label(169)` said 'AAo'."""
    from cardlab.poker.ranges import class_label

    assert class_label(168) == "22"
    for index in (169, -1, 10**6):
        with pytest.raises(CardError, match=f"0..168, not {index}"):
            class_label(index)


def test_hand_class_of_card_ids_outside_the_deck_raises() -> None:
    """`hand_class(-1, 3)` said '2As'."""
    from cardlab.poker.ranges import hand_class

    assert hand_class(51, 47) == "AKs"
    for c1, c2 in ((-1, 3), (0, 52), (5, 5)):
        with pytest.raises(CardError):
            hand_class(c1, c2)


def test_pbn_games_with_first_board_0_is_refused() -> None:
    """`pbn_games(first_board=0)` wrote boards its own reader refuses."""
    from cardlab.bridge.dealer.dealing import deal_masks
    from cardlab.bridge.deals import pbn_games
    from cardlab.pbn import read_pbn_boards

    masks = deal_masks(np.random.SeedSequence(2), 3)
    for first in (0, -5, 10**9 + 1):
        with pytest.raises(CardlabError, match="first board"):
            pbn_games(masks, first_board=first)
    assert [b.number for b in read_pbn_boards(pbn_games(masks, first_board=7))] == [7, 8, 9]


# --- unbounded inputs ----------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["poker", "odds", "--reels", "/dev/zero"], ["bridge", "boards", "/dev/zero"],
                                  ["bridge", "score", "/dev/zero"], ["bridge", "teams", "/dev/zero"]],
                         ids=["odds-reels", "boards", "score", "teams"])
def test_dev_zero_stops_after_16_mib(argv: list[str]) -> None:
    """`poker odds --reels /dev/zero` grew to 23.5 GB; boards, score and teams read it whole."""
    done = _cli(*argv, memory=1 << 30, timeout=60)
    assert done.returncode == 2, done.stderr[-300:]
    assert done.stderr.count("\n") == 1 and "longer than 16 MiB" in done.stderr and "zero" in done.stderr


def _small_line_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    from cardlab import textfile

    monkeypatch.setattr(textfile, "MAX_LINE_BYTES", 1024)
    return 1024


def test_reels_line_limit_is_not_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 16 MiB line limit was skipped by `--reels` (here 1 KiB, monkeypatched)."""
    from cardlab.dealing import Reels
    from cardlab.errors import ReelsFileError

    limit = _small_line_limit(monkeypatch)
    path = tmp_path / "long.reels"
    path.write_text("As Kd\n" * 4 + "Qh " * limit + "\n")
    with pytest.raises(ReelsFileError, match="long.reels: .*longer than"):
        Reels.read(path)
    path.write_text("As Kd\nQh 2c\n3d 4s\n5h 6c\n7d 8s\n")
    assert Reels.read(path).k == 5


@pytest.mark.parametrize("reader", ["boards", "score"])
def test_pbn_tag_line_limit_is_not_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str) -> None:
    """The line limit was skipped by a PBN tag (a tag over the limit, here 1 KiB)."""
    from cardlab.bridge.boardsets import read_board_file
    from cardlab.errors import InputFileError
    from cardlab.scoring.results_file import load_results

    limit = _small_line_limit(monkeypatch)
    path = tmp_path / "long.pbn"
    path.write_text(f'[Event "{"x" * limit}"]\n' + _PBN)
    read = read_board_file if reader == "boards" else load_results
    with pytest.raises(InputFileError, match="longer than"):
        read(path)
    path.write_text(_PBN)
    assert len(read_board_file(path)) == 1


_NESTED = "(" * 400 + "AA" + ")" * 400


def test_range_of_400_nested_parentheses_is_a_range_error(run) -> None:
    """A range of 400 nested parentheses was a RecursionError (CLI and workbench page)."""
    from cardlab.errors import RangeError
    from cardlab.poker.generic import MAX_NESTING, parse_generic
    from cardlab.web.pages.poker import board_view

    with pytest.raises(RangeError, match="nest more than 100 levels"):
        parse_generic(_NESTED, hole=4)
    status, out, err = run("poker", "range", _NESTED, "--game", "omaha")  # a generic (Omaha) range
    assert status == 2 and out == "" and err.count("\n") == 1 and "nest more than" in err
    with pytest.raises(CardlabError):  # was a RecursionError
        board_view({"range": _NESTED, "board": "Qh 9c 2d"})
    deepest = "(" * MAX_NESTING + "AA" + ")" * MAX_NESTING
    assert parse_generic(deepest, hole=4).combo_count == parse_generic("AA", hole=4).combo_count == 6961


def test_range_of_aa_30000_times_is_fast_or_refused() -> None:
    """`'AA,' * 30000` ran for minutes (an Omaha range: 30,000 passes over 270,725 hands)."""
    import time

    from cardlab.errors import RangeError
    from cardlab.poker.generic import parse_generic

    start = time.process_time()
    with pytest.raises(RangeError, match=r"30,001 patterns .* at most 738 patterns"):
        parse_generic("AA," * 30000 + "AA", hole=4)
    assert parse_generic("AA," * 30000 + "KK", hole=2).combo_count == 12  # hold'em: fast
    many = parse_generic("AA," * 700 + "KK", hole=4)  # each pattern matched once
    assert many.combo_count == parse_generic("AA,KK", hole=4).combo_count == 2 * 6961 - 36  # AAKK in both
    assert time.process_time() - start < 2


@pytest.mark.parametrize("argv", [["poker", "range", "random", "--game", "omaha6"],
                                  ["poker", "board", "random", "--flops", "all", "--game", "omaha6"]],
                         ids=["range", "board-flops"])
def test_omaha6_random_range_and_all_flops_are_refused_with_the_size(argv: list[str]) -> None:
    """`poker range random --game omaha6` and `poker board random --flops all --game omaha6` reached
    3.8-4.9 GB in 30 s: refused up front, naming the range's 20,358,520 hands (reading the range,
    every 6-card hand, takes under 1 GB)."""
    done = _cli(*argv, memory=1536 << 20, timeout=120)
    assert done.returncode == 2, done.stderr[-300:]
    assert done.stderr.count("\n") == 1 and "20,358,520 omaha6 hands" in done.stderr


def test_range_listing_and_all_flops_bounds_are_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardlab.errors import RangeError
    from cardlab.poker import board_stats, range_listing

    assert range_listing.list_range("AA", game="omaha").combos == 6961
    monkeypatch.setattr(range_listing, "MAX_LISTED", 6960)
    with pytest.raises(RangeError, match="6,961 omaha hands; a listing holds at most 6,960"):
        range_listing.list_range("AA", game="omaha")
    monkeypatch.setattr(board_stats, "MAX_FLOPS_COMBOS", 5)
    with pytest.raises(RangeError, match="at most 5 hands, and the range holds 6 holdem hands"):
        board_stats.all_flops_stats("AA")


@pytest.mark.parametrize("output", ["-", "one.html", "site/"])
def test_bridge_score_html_of_too_many_lines_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run,
                                                        output: str) -> None:
    """`bridge score` of 10^6 lines `--format html` took 2.7 GB: HTML is refused above
    MAX_HTML_LINES (here monkeypatched to one line under the file's 17), before any page is built."""
    from cardlab.report import scoring_run

    results = str(Path(__file__).parent / "data" / "mitchell.csv")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(scoring_run, "MAX_HTML_LINES", 16)
    status, out, err = run("bridge", "score", results, "--format", "html", "-o", output)
    assert status == 2 and out == "" and "17 traveller lines are too many for HTML pages (at most 16" in err
    assert not (tmp_path / "one.html").exists() and not any((tmp_path / "site").glob("*.html"))
    monkeypatch.setattr(scoring_run, "MAX_HTML_LINES", 17)
    assert run("bridge", "score", results, "--format", "html", "-o", output)[0] == 0
    assert run("bridge", "score", results, "--format", "csv")[0] == 0


# --- signals -------------------------------------------------------------------------------------


def _start(*argv: str, cwd: Path | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "cardlab", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=cwd)


def _children(pid: int) -> list[int]:
    """The live (not zombie) processes whose parent is ``pid``, from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_until(test: Any, seconds: float) -> bool:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.05)
    return bool(test())


# worker processes: the joint table has no fused route (a fused simulation runs on threads)
_LONG_RUN = ("bridge", "joint", "--by", "longest", "--simulate", "1000000000000", "--seed", "1", "--workers", "2")


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("to", ["process", "group"])
def test_sighup_is_handled_as_sigterm(tmp_path: Path, to: str) -> None:
    """SIGHUP (a closed terminal) killed the process by signal, leaving its `.cardlab-*`
    temporary file and its workers running; docs/reliability.md says it is SIGTERM. A closed
    terminal sends it to the whole process group, workers included."""
    import signal

    sys.path.insert(0, str(Path(__file__).parent))
    from test_cli_reliability import _wait_for_progress

    (tmp_path / "out.txt").write_text("before\n")
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", *_LONG_RUN, "-o", "out.txt"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path, start_new_session=True)
    _wait_for_progress(proc)
    workers = _children(proc.pid)
    assert len(workers) == 2
    if to == "group":
        os.killpg(proc.pid, signal.SIGHUP)
    else:
        proc.send_signal(signal.SIGHUP)
    out, err = proc.communicate(timeout=30)
    # as SIGTERM: inside the simulation loop, the partial result (130); a killed process gave -1
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "out.txt holds the partial result" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]  # no temporary file left
    assert "interrupted:" in (tmp_path / "out.txt").read_text()
    assert _wait_until(lambda: not any(_alive(w) for w in workers), 5)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_workers_exit_when_their_parent_is_sigkilled() -> None:
    """Workers outlived a SIGKILLed parent (one set was still running 23 minutes later)."""
    import signal

    sys.path.insert(0, str(Path(__file__).parent))
    from test_cli_reliability import _wait_for_progress

    proc = _start(*_LONG_RUN)
    try:
        _wait_for_progress(proc)
        workers = _children(proc.pid)
        assert len(workers) == 2
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
        assert _wait_until(lambda: not any(_alive(w) for w in workers), 5)
    finally:
        for pid in _children(proc.pid) if proc.poll() is None else []:
            os.kill(pid, signal.SIGKILL)


def test_ctrl_c_stops_bridge_joint_by_suits() -> None:
    """Ctrl-C did not stop `bridge joint --by suits --simulate 1e11` (still running 100 s later):
    the interrupted result's table of 15,156 rows took minutes (a quadratic loop, then rich)."""
    import signal
    import time

    sys.path.insert(0, str(Path(__file__).parent))
    from test_cli_reliability import _wait_for_progress

    proc = _start("bridge", "joint", "--by", "suits", "--simulate", "1e11", "--seed", "1", "--workers", "1")
    _wait_for_progress(proc)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err
    assert time.monotonic() - sent < 20
    assert "interrupted:" in out and out.count("\n") > 15_156


def test_ctrl_c_in_the_first_50_ms_prints_no_traceback(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A Ctrl-C before the command's handlers are in place (its modules being imported, the
    arguments parsed) printed a traceback: the program's entry point ends it with one line, 130."""
    import cardlab.cli.main as cli_main
    from cardlab.cli import run

    def interrupted(argv: Any = None) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "build_parser", interrupted)
    monkeypatch.setattr("sys.argv", ["cardlab", "bridge", "hcp"])  # not pytest's own arguments
    with pytest.raises(SystemExit) as exit_:
        run()
    assert exit_.value.code == 130
    assert capsys.readouterr().err == "cardlab: interrupted\n"


def test_ctrl_c_while_the_command_starts_prints_no_traceback() -> None:
    """The same through the real program: Ctrl-C at moments spread over the command's start (once
    Python itself has started: its own start-up, before any of cardlab runs, is not ours)."""
    import signal
    import time

    started = time.monotonic()
    probe = _start("--version")
    probe.communicate(timeout=60)
    startup = time.monotonic() - started  # this machine's time to start and end a command now
    for fraction in (0.6, 0.8, 1.0):
        proc = _start("bridge", "hcp", "--simulate", "1e9", "--seed", "1")
        time.sleep(startup * fraction)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        if "cardlab" not in err and proc.returncode in (-2, 1):  # still in Python's own start-up
            continue
        assert "Traceback" not in err, (fraction, err)
        assert proc.returncode == 130


# --- the workbench -------------------------------------------------------------------------------


def _through_sessions(method: str, headers: dict[str, str]) -> tuple[int, bool]:
    """(status, whether the app was reached) of one request through the session middleware."""
    import asyncio

    from cardlab.web.app import _Sessions

    reached = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["cardlab.session"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    scope = {"type": "http", "method": method, "path": "/equity",
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}
    asyncio.run(_Sessions(app)(scope, receive, send))
    return sent[0]["status"], bool(reached)


@pytest.mark.parametrize("headers", [{"Origin": "https://evil.example"}, {"Origin": "null"},
                                     {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                                     {"Origin": "http://127.0.0.1:8000.evil.example"}],
                         ids=["origin", "null-origin", "fetch-cross-site", "fetch-same-site", "lookalike"])
def test_workbench_refuses_cross_site_form_posts(headers: dict[str, str]) -> None:
    """A cross-origin POST without a cookie got a new session each time, so the 4-jobs cap never
    bound (60 posts: 55 jobs accepted); there was no Origin check."""
    host = {"Host": "127.0.0.1:8000"}
    assert _through_sessions("POST", {**host, **headers}) == (403, False)
    assert _through_sessions("GET", {**host, **headers}) == (200, True)  # reading a page is harmless


@pytest.mark.parametrize("headers", [{}, {"Origin": "http://127.0.0.1:8000"}, {"Sec-Fetch-Site": "same-origin"},
                                     {"Sec-Fetch-Site": "none"}],
                         ids=["no-headers", "same-origin", "fetch-same-origin", "fetch-typed"])
def test_workbench_takes_its_own_form_posts(headers: dict[str, str]) -> None:
    assert _through_sessions("POST", {"Host": "127.0.0.1:8000", **headers}) == (200, True)


def test_workbench_bounds_the_jobs_queued_in_all_sessions(monkeypatch: pytest.MonkeyPatch) -> None:
    """60 posts from 60 new sessions gave 55 accepted jobs, 51 queued, a thread each: the
    jobs waiting for a slot are bounded over all sessions (Limits.queued_in_all)."""
    from cardlab.errors import WebInputError
    from cardlab.web.jobs import JobRunner, Limits
    from cardlab.web.page import JobSpec

    monkeypatch.setattr(JobRunner, "_run", lambda self, job, spec: None)  # every job stays queued
    runner = JobRunner(Limits(concurrent=1, queued_in_all=5))
    spec = JobSpec("web_jobs:sleeper", {"seconds": 1}, "sleep")
    accepted = 0
    for n in range(60):
        try:
            runner.submit(f"session-{n}", "equity", spec)
            accepted += 1
        except WebInputError as error:
            assert "5 jobs waiting to start already" in str(error)
    assert accepted == 5
    assert Limits().queued_in_all == 32  # 20 concurrent users served (issue 39)


# --- last round's library functions (issues 43, 44): NaN, infinities, negative, huge, wrong type --

_NAN, _INF = float("nan"), float("inf")
_SMALL_DECK = "As Ks Qs Js Ts 9h 8h 7h 6d 5d 4c"


def _dealer_game(kind: str, **changed: Any) -> Any:
    from dataclasses import replace

    from cardlab.casino.game import parse_game

    return replace(parse_game({"game": kind, "deck": _SMALL_DECK}, "small.toml"), **changed)


def _with_pay(kind: str, pay: Any) -> Any:
    game = _dealer_game(kind)
    return _dealer_game(kind, pays=tuple((c, pay if c == "flush" else p) for c, p in game.pays))


_TABLE_GAMES = [("caribbean-stud", "caribbean", "analyse_caribbean"), ("casino-holdem", "holdem", "analyse_holdem"),
                ("ultimate-holdem", "uth", "analyse_uth"), ("texas-holdem-bonus", "thb", "analyse_thb")]
_GAME_VALUES = [("raise_bets", v, r"the (raise|call) must be a whole number from 1 to 10, not " + w)
                for v, w in ((-1, "-1"), (0, "0"), (10**30, "1000"), (2.5, "2.5"), (_NAN, "nan"), (True, "True"))] + \
               [("qualifier", v, "the qualifier's strength must be a whole number from 0 to .*, not " + w)
                for v, w in ((-1, "-1"), (2**40, "1099511627776"), (_NAN, "nan"), (1.5, "1.5"))] + \
               [("no_qualify_pays", v, "no_qualify_pays must be " + w)
                for v, w in ((Fraction(-3), "0..10,000,000"), (_INF, "0..10,000,000"), (_NAN, "a number"),
                             (10**30, "0..10,000,000"), ("1", "a number"))]


@pytest.mark.parametrize("kind, module, name", _TABLE_GAMES, ids=[g[0] for g in _TABLE_GAMES])
@pytest.mark.parametrize("field, value, message", _GAME_VALUES,
                         ids=[f"{f}={v!r}"[:30] for f, v, _ in _GAME_VALUES])
def test_table_game_analyses_name_a_bad_rule_of_a_game_built_in_python(kind: str, module: str, name: str, field: str,
                                                                      value: Any, message: str) -> None:
    """A Game changed with dataclasses.replace reached the analyses unchecked: a raise of -1 was
    analysed (a wrong answer), 2.5 or NaN gave TypeError, 10^30 OverflowError, an infinite pay
    AttributeError; Casino Hold'em's kernel said 'the call is out of range' (a ValueError, not
    naming the value). Each is a PayTableError naming the value now, before the compiled core. The
    games whose rules fix a value ignore it (Texas Hold'em Bonus has no qualifier, none but
    Caribbean Stud pays when the dealer does not qualify); a good game still runs."""
    import importlib

    from cardlab.errors import PayTableError

    analyse = getattr(importlib.import_module(f"cardlab.casino.{module}"), name)
    with pytest.raises(PayTableError, match=message):
        analyse(_dealer_game(kind, **{field: value}))
    assert analyse(_dealer_game(kind))[0].total > 0


@pytest.mark.parametrize("kind, module, name", _TABLE_GAMES, ids=[g[0] for g in _TABLE_GAMES])
@pytest.mark.parametrize("pay, message", [(Fraction(-5), "0..10,000,000"), (_NAN, "a number, got nan"),
                                          (_INF, "0..10,000,000 with at most 4 decimals, got inf"),
                                          (-_INF, "got -inf"), (10**30, "got 1000000"), ("x", "a number, got 'x'"),
                                          (Fraction(1, 3**30), "at most 4 decimals")],
                         ids=["negative", "nan", "inf", "-inf", "huge", "text", "long-fraction"])
def test_table_game_analyses_name_a_bad_pay(kind: str, module: str, name: str, pay: Any, message: str) -> None:
    import importlib

    from cardlab.errors import PayTableError

    analyse = getattr(importlib.import_module(f"cardlab.casino.{module}"), name)
    with pytest.raises(PayTableError, match=r"\[\w+\] flush must be .*" + message):
        analyse(_with_pay(kind, pay))


@pytest.mark.parametrize("kind, module, name", _TABLE_GAMES, ids=[g[0] for g in _TABLE_GAMES])
@pytest.mark.parametrize("game, ties, message", [
    ("three-card-poker", "fold", "takes a .* game .*, not a ante-play Game"), (None, "fold", "not NoneType None"),
    ("text", "fold", "not str 'casino-holdem'"), ("same", 3, "ties must be one of fold, bet, not 3"),
    ("same", "x", "ties must be one of fold, bet, not 'x'"), ("same", None, "not None")])
def test_table_game_analyses_name_a_wrong_game_or_ties(kind: str, module: str, name: str, game: Any, ties: Any,
                                                      message: str) -> None:
    """A string, None or another game's Game gave AttributeError; ties=3 or 'x' was read as 'fold'."""
    import importlib

    from cardlab.casino.game import load_game
    from cardlab.errors import PayTableError

    analyse = getattr(importlib.import_module(f"cardlab.casino.{module}"), name)
    given = {"three-card-poker": load_game("three-card-poker"), None: None, "text": "casino-holdem",
             "same": _dealer_game(kind)}[game]
    with pytest.raises(PayTableError, match=message):
        analyse(given, ties)


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e400"])
def test_an_infinite_pay_in_a_toml_game_is_a_pay_table_error(value: str) -> None:
    """TOML's inf and 1e400 made Fraction('inf') raise a bare ValueError (a traceback)."""
    from cardlab.casino.game import read_game
    from cardlab.errors import PayTableError

    with pytest.raises(PayTableError, match=r"x.toml: \[raise_pays\] flush must be"):
        read_game(f'game = "caribbean-stud"\n[raise_pays]\nflush = {value}\n'.encode(), "x.toml")


@pytest.mark.parametrize("kwargs, message", [({"ties": None}, "ties must be one of fold, bet, not None"),
                                             ({"simulate": -1}, "deals simulated must be a whole number .*, not -1"),
                                             ({"simulate": _NAN}, "not nan"), ({"simulate": 1.5}, "not 1.5"),
                                             ({"simulate": 10**30}, "not 1000000"), ({"simulate": True}, "not True")])
def test_casino_analyse_names_bad_ties_and_simulate(kwargs: dict[str, Any], message: str) -> None:
    """These gave a bare ValueError or TypeError (simulate=1.5 failed in numpy after the analysis)."""
    from cardlab.casino.analysis import analyse
    from cardlab.errors import PayTableError

    with pytest.raises(PayTableError, match=message):
        analyse("three-card-poker", **kwargs)


@pytest.mark.parametrize("target, message", [("/dev/null", "/dev/null: empty, not a game description"),
                                             ("/dev/zero", "/dev/zero: larger than 1024 KiB"),
                                             (".", ".: a folder, not a game description"),
                                             ("empty.toml", "empty.toml: empty, not a game description"),
                                             ("comment.toml", "comment.toml: empty, not a game description")])
def test_casino_analyse_of_an_empty_or_odd_file_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run,
                                                       target: str, message: str) -> None:
    """`cardlab casino analyse /dev/null` said "unknown game '/dev/null'"."""
    (tmp_path / "empty.toml").write_text("")
    (tmp_path / "comment.toml").write_text("# name = 'x'\n")
    monkeypatch.chdir(tmp_path)
    status, out, err = run("casino", "analyse", target)
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"cardlab: error: {message}") and "unknown game" not in err


_RULE_VALUES = [("h17", _NAN), ("h17", "yes"), ("h17", 2), ("das", "no"), ("peek", None), ("surrender", _NAN),
                ("resplit_aces", "x"), ("early_surrender", 1), ("decks", _NAN), ("decks", 2.0), ("decks", 10**30),
                ("double", None), ("blackjack_pays", _INF), ("split_hands", 2.0), ("split_hands", _NAN),
                ("post_split", 3), ("composition", (_NAN,) * 10), ("composition", (4.0,) * 10),
                ("composition", (10**30,) * 10), ("composition", "4,4,4,4,4,4,4,4,4,16"), ("composition", (-1,) * 9 + (40,))]


@pytest.mark.parametrize("field, value", _RULE_VALUES, ids=[f"{f}={v!r}"[:30] for f, v in _RULE_VALUES])
def test_blackjack_rules_refuse_each_bad_value(field: str, value: Any) -> None:
    """h17=nan, das='no', peek=None or split_hands=2.0 made Rules (read by truth: das='no' was
    DAS); each is a BlackjackError naming it now."""
    from cardlab.casino.blackjack_rules import Rules
    from cardlab.errors import BlackjackError

    with pytest.raises(BlackjackError, match=str(value)[:5].replace("(", r"\(").replace("+", r"\+")):
        Rules(**{field: value})


def test_blackjack_rules_take_numpy_values_and_a_list_shoe() -> None:
    from cardlab.casino.blackjack_rules import Rules

    rules = Rules(composition=[np.int64(4)] * 9 + [16], h17=np.bool_(True))
    assert rules.composition == (4,) * 9 + (16,) and type(rules.composition[0]) is int
    assert hash(rules) == hash(Rules(composition=(4,) * 9 + (16,), h17=True))  # the engine caches by rules


@pytest.mark.parametrize("call, message", [
    (lambda bj, sim, R: bj.analyse("6 decks"), "rules must be a blackjack Rules .*, not str '6 decks'"),
    (lambda bj, sim, R: bj.analyse(None), "not NoneType None"),
    (lambda bj, sim, R: bj.analyse(R(decks=1), removal=_NAN), "removal is true or false, got nan"),
    (lambda bj, sim, R: bj.house_edge(R(decks=1), bj.Optimal(), removed=(_NAN,) * 10), "As removed .*, not nan"),
    (lambda bj, sim, R: bj.house_edge(R(decks=1), bj.Optimal(), removed=(5,) + (0,) * 9), "from 0 to 4, not 5"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), spread=5, **_flat()), "a spread is text .*, got 5"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), spread=[1, 2], **_flat()), "got \\[1, 2\\]"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), count=None, **_flat()), "a count is a name or ten .*, got None"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), count=(_NAN,) * 10, **_flat()), "ten whole-number tags"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), workers=0, **_flat()), "workers must be a whole number .*, got 0"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), workers=_NAN, **_flat()), "got nan"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), workers="2", **_flat()), "got '2'"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), penetration=_INF, **_flat()), "penetration .*, got 'inf'"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), bankroll=_NAN, **_flat()), "bankroll .*, got 'nan'"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), trials=_NAN, strategy=sim.FLAT_TEST_STRATEGY), "got nan"),
    (lambda bj, sim, R: sim.simulate_shoe(R(), strategy="basic", trials=10), "strategy must be a blackjack Strategy"),
    (lambda bj, sim, R: sim.play_stacked(R(), sim.FLAT_TEST_STRATEGY, [_NAN] * 20), "rank code .*, not nan"),
    (lambda bj, sim, R: sim.play_stacked(R(), sim.FLAT_TEST_STRATEGY, [1.5] * 20), "rank code .*, not 1.5"),
    (lambda bj, sim, R: sim.play_stacked(R(), sim.FLAT_TEST_STRATEGY, [-1] * 20), "rank code .*, not -1"),
    (lambda bj, sim, R: sim.play_stacked(R(), None, [1] * 20), "strategy must be"),
    (lambda bj, sim, R: sim.play_stacked(None, sim.FLAT_TEST_STRATEGY, [1] * 20), "rules must be"),
], ids=["analyse-text", "analyse-none", "removal-nan", "removed-nan", "removed-too-many", "spread-int",
        "spread-list", "count-none", "count-nan", "workers-0", "workers-nan", "workers-text", "penetration-inf",
        "bankroll-nan", "trials-nan", "strategy-text", "stacked-nan", "stacked-float", "stacked-negative",
        "stacked-strategy", "stacked-rules"])
def test_blackjack_engine_and_shoe_name_each_bad_argument(call: Any, message: str) -> None:
    """Before: AttributeError or TypeError (rules as text, a spread of 5, count=None, a float
    rank code silently truncated to a card), or the value accepted (workers=0 or NaN, removal=NaN)."""
    from cardlab.casino import blackjack as bj
    from cardlab.casino import blackjack_sim as sim
    from cardlab.casino.blackjack_rules import Rules
    from cardlab.errors import BlackjackError

    with pytest.raises(BlackjackError, match=message):
        call(bj, sim, Rules)



def _flat() -> dict[str, Any]:
    """A short shoe simulation's other arguments: the fixed test strategy (no exact analysis first)."""
    from cardlab.casino.blackjack_sim import FLAT_TEST_STRATEGY

    return {"strategy": FLAT_TEST_STRATEGY, "trials": 1000, "seed": 1}


_SOLVER_NUMBERS = [_NAN, _INF, -_INF, -1, 10**30, "5", None, True]


@pytest.mark.parametrize("key", ["pot", "stack", "allin_threshold", "max_raises", "rake", "rake_cap", "target",
                                 "time_limit", "workers", "memory_mb"])
@pytest.mark.parametrize("value", _SOLVER_NUMBERS, ids=[repr(v)[:12] for v in _SOLVER_NUMBERS])
def test_flop_report_names_each_bad_number(key: str, value: Any) -> None:
    """'5' or None gave TypeError, True was read as 1, inf was a target met at once; each is a
    SolverError naming the value, before any flop is solved."""
    from cardlab.errors import SolverError
    from cardlab.solver.flops import flop_report

    with pytest.raises(SolverError, match=f"not {re.escape(repr(value))}$"):
        flop_report("AA", "KK", ["Qs Jh 2h"], **{"pot": 10, "stack": 0, key: value})


@pytest.mark.parametrize("kwargs, message", [
    ({"flops": 5}, "flops are a list of board texts"), ({"flops": "Qs Jh 2h"}, "flops are a list"),
    ({"flops": {"Qs Jh 2h"}}, "flops are a list"), ({"flops": [None]}, "a flop is given as text, not NoneType"),
    ({"oop": 5}, "OOP's range is given as text, not int 5"), ({"ip": None}, "IP's range is given as text"),
    ({"junk": 1}, "the sizes are river_game's keywords"), ({"oop_bet": 5}, "oop_bet .* is given as text, not int 5"),
    ({"oop_donk": 5}, "oop_donk"), ({"river": 5}, "river sizes are a mapping"),
    ({"river": {"oop_bet": 5}}, "river sizes are a mapping"), ({"suits": "x"}, "suits is true or false")])
def test_flop_report_names_each_wrong_type(kwargs: dict[str, Any], message: str) -> None:
    from cardlab.errors import SolverError
    from cardlab.solver.flops import flop_report

    args = {"oop": "AA", "ip": "KK", "flops": ["Qs Jh 2h"], "pot": 10, "stack": 10, **kwargs}
    with pytest.raises(SolverError, match=message):
        flop_report(args.pop("oop"), args.pop("ip"), args.pop("flops"), **args)


def test_a_locked_strategy_of_text_or_a_bad_node_is_a_solver_error() -> None:
    from cardlab.errors import SolverError
    from cardlab.solver.engine import Engine
    from cardlab.solver.game import river_game

    engine = Engine.new(river_game("AA", "KK", "Qs Jh 2h 3c 4d", pot=10, stack=10, oop_bet="100%"))
    for node, strategy, message in ((0, [["x"], ["y"]], "frequencies from 0 to 1"), (0, [[_NAN], [_NAN]], "from 0 to 1"),
                                    (1.5, [[1], [0]], "the node locked .*, not 1.5"), (10**6, [[1], [0]], "not 1000000")):
        with pytest.raises(SolverError, match=message):
            engine.lock(node, np.array(strategy, dtype=object))


@pytest.mark.parametrize("field, value", [("tables", v) for v in (_NAN, _INF, 8.0, 8.5, "8", None, True, 10**30, -8)] +
                         [("rounds", v) for v in ("8", 2.5, True)] + [("boards_per_round", v) for v in (8.0, None, True)] +
                         [("core", v) for v in (_NAN, 7.0, "7")])
def test_appendix_mitchell_names_a_count_that_is_not_a_whole_number(field: str, value: Any) -> None:
    """appendix_mitchell(8.0) gave TypeError, boards_per_round=8.5 made a movement of 59.5 boards."""
    from cardlab.club.appendix import appendix_mitchell
    from cardlab.errors import MovementError

    args = {"tables": 8, **{field: value}}
    with pytest.raises(MovementError, match=r"must be \d+ to \d+.*, not "):
        appendix_mitchell(args.pop("tables"), **args)
    assert appendix_mitchell(np.int64(8)).tables == 8
