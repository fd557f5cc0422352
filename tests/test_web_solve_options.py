"""Issue 44: the solver page at parity with ``cardlab poker solve``: sizes per street and per
player, donk bets, rake and its cap, the limits, node locks, the solve file saved and loaded back.

Each answer's JSON equals the command's for the same spot (the page builds the same command, shown
under the answer), and the figures are checked by hand besides: the action sizes at the nodes
where the per-street and donk sizes apply, the locked node's strategy equal to the lock, the
rake within its cap. Bad sizes, locks and files get the command's one-line message, after the
field's label."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from cardlab.errors import CardlabError
from cardlab.web.pages import solve
from cardlab.web.uploads import Form, Upload
from test_web_answers import _body, _cli_json, _parse

SPOT = {"oop": "QQ+, AK, 76s", "ip": "JJ-99, AQs", "board": "Ks 9d 5c 2h", "pot": "10", "stack": "30",
        "oop_bet": "50%", "oop_raise": "", "ip_bet": "50%", "ip_raise": "", "river_oop_bet": "75%",
        "river_ip_bet": "33%, a", "oop_donk": "25%", "rake": "0.05", "rake_cap": "1", "lock": "=X:0.5,B5:0.5",
        "target": "0", "max_iterations": "40"}
ARGV = ["poker", "solve", "--oop", "QQ+, AK, 76s", "--ip", "JJ-99, AQs", "--board", "Ks 9d 5c 2h", "--pot", "10",
        "--stack", "30", "--oop-bet", "50%", "--oop-raise", "", "--ip-bet", "50%", "--ip-raise", "",
        "--river-oop-bet", "75%", "--river-ip-bet", "33%, a", "--oop-donk", "25%", "--rake", "0.05", "--rake-cap", "1",
        "--lock", "=X:0.5,B5:0.5", "--target", "0", "--max-iterations", "40"]


def _answer(**fields: str) -> Any:
    spec = solve.prepare(Form(fields={**SPOT, **fields}))
    return solve.compute(lambda *a: None, **spec.kwargs)


def _same(page: dict[str, Any], cli: dict[str, Any]) -> None:
    mine, theirs = dict(page), dict(cli)
    assert mine.pop("seconds") >= 0 and theirs.pop("seconds") >= 0  # the only figure the machine's speed moves
    assert mine == theirs


# the actions by hand: pot 10, a 5-chip turn bet called makes 20 on the river
@pytest.mark.parametrize("node,player,actions", [
    ("", "OOP", ["X", "B5"]),  # the turn: 50% of 10, and locked at half and half
    ("X,B5,C,7c", "OOP", ["X", "B5"]),  # OOP leads into the turn's bettor: the donk size, 25% of 20
    ("B5,C,7c", "OOP", ["X", "B15"]),  # OOP bet the turn itself: its river size, 75% of 20
    ("X,X,7c", "OOP", ["X", "B7.5"]),  # nobody bet the turn: 75% of 10
    ("X,B5,C,7c,X", "IP", ["X", "B6.6", "B25"]),  # IP's river sizes: 33% of 20, and all-in (30 - 5 behind)
])
def test_page_solves_per_street_donk_rake_and_lock_as_the_cli(run: Any, node: str, player: str,
                                                               actions: list[str]) -> None:
    answer = _answer(node=node)
    cli = _cli_json(run, *ARGV, *(["--node", node] if node else []))
    _same(answer.figures["json"], cli)
    assert cli["player"] == player and cli["actions"] == actions and cli["iterations"] == 40
    assert cli["spot"].endswith("rake 5% (cap 1)")
    # the rake: the two ranges' shares of the pot of 10 sum to less than it, by at most the cap
    assert 10 - 1 <= sum(cli["ev"]) < 10 - 1e-6
    rows = _body(_parse(answer.html).tables["strategy"])
    assert [r[0] for r in rows] == [r["class"] for r in cli["rows"]]
    for row, r in zip(rows, cli["rows"]):
        assert row[1:1 + len(actions)] == [f"{100 * r[a]:.1f}%" for a in actions]
    if not node:  # the locked root plays the lock with every class
        assert all(r["X"] == pytest.approx(0.5, abs=1e-12) == r["B5"] for r in cli["rows"]) and cli["rows"]
    # the command shown under the answer is the one run here
    assert "--oop-donk 25% --rake 0.05 --rake-cap 1 --lock =X:0.5,B5:0.5" in answer.html
    assert "Estimated before the solve, as the command prints it: solving a tree of 1,737 nodes" in answer.html


def test_lock_form_locks_the_node_viewed_and_solves_again(run: Any) -> None:
    answer = _answer(node="X", lock="")
    parsed = _parse(answer.html)
    forms = answer.html.split('<form method="post" action="/solve#answer" class="lock">')
    assert len(forms) == 2
    hidden = dict((a["name"], a["value"]) for tag, a in _parse(forms[1].split("</form>")[0]).elements
                  if tag == "input" and a.get("type") == "hidden")
    start = forms[1].split('name="lock"')[1].split(">", 1)[1].split("</textarea>")[0]
    assert start.startswith("X=X:") and ",B5:" in start  # IP's frequencies at X, to change
    assert hidden["node"] == "X" and "lock" not in hidden and "strategy" in parsed.tables
    again = solve.prepare(Form(fields={**hidden, "lock": "X=X:0,B5:1"}))
    assert again.kwargs["locks"] == ["X=X:0,B5:1"] and again.kwargs["node"] == "X"
    locked = solve.compute(lambda *a: None, **again.kwargs)
    cli = _cli_json(run, *[a for a in ARGV if a != "=X:0.5,B5:0.5" and a != "--lock"], "--lock", "X=X:0,B5:1",
                    "--node", "X")
    _same(locked.figures["json"], cli)
    assert all(r["X"] == 0 and r["B5"] == pytest.approx(1, abs=1e-12) for r in cli["rows"])  # IP bets everything, as locked


def test_solve_file_downloaded_reads_back_in_the_cli_and_the_page(run: Any, tmp_path: Any) -> None:
    answer = _answer(node="X,B5")
    data = answer.downloads["solve.npz"]
    (tmp_path / "spot.npz").write_bytes(data)
    cli = _cli_json(run, "poker", "solve", "--load", str(tmp_path / "spot.npz"), "--node", "X,B5")
    assert cli == answer.figures["json"]  # the saved seconds too: the file keeps them
    spec = solve.prepare(Form(fields={"node": "X,B5"}, files={"file": Upload("spot.npz", data)}))
    assert spec.kwargs["spot"] is None and spec.kwargs["saved"] == (data, "spot.npz")
    loaded = solve.compute(lambda *a: None, **spec.kwargs)
    assert loaded.figures["json"] == cli and "solve.npz" not in loaded.downloads
    assert f"The saved solve <strong>spot.npz</strong>, shown as it was saved (not solved again): a tree of " \
           f"{cli['nodes']:,} nodes ({cli['decisions']:,} decisions)" in loaded.html
    assert "cardlab poker solve --load spot.npz --node X,B5" in loaded.html
    # another node of the loaded solve: the selector carries the file along, as the API takes it
    parsed = _parse(loaded.html)
    hidden = {a["name"]: a["value"] for tag, a in parsed.elements if tag == "input" and a.get("type") == "hidden"}
    assert base64.b64decode(hidden["solve_file"]) == data and hidden["solve_file_name"] == "spot.npz"
    again = solve.prepare(Form(fields=dict(hidden, node="X,X,Ad")))
    other = solve.compute(lambda *a: None, **again.kwargs)
    assert other.figures["json"] == _cli_json(run, "poker", "solve", "--load", str(tmp_path / "spot.npz"), "--node", "X,X,Ad")


def _cli_error(run: Any, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The command's one-line error (after the memory line it prints before a solve)."""
    try:
        status, _, err = run(*argv)
    except SystemExit as stop:  # an option's value refused by the parser: its message is on stderr
        status, err = stop.code, capsys.readouterr().err
    lines = err.strip().splitlines()
    assert status == 2 and all(line.startswith("cardlab: solving a tree") for line in lines[:-1]), err
    return lines[-1].removeprefix("cardlab: error: ")


@pytest.mark.parametrize("fields,option,label", [
    ({"river_oop_bet": "33%, lots"}, ("--river-oop-bet", "33%, lots"), "River: OOP bets: "),
    ({"turn_oop_bet": "50%"}, ("--turn-oop-bet", "50%"), "turn sizes are given for a spot before the turn"),
    ({"oop_donk": "0%"}, ("--oop-donk", "0%"), "OOP donk bets: "),
    ({"river_ip_raise": "e"}, ("--river-ip-raise", "e"), "River: IP raises: "),
    ({"lock": "=Q:1"}, ("--lock", "=Q:1"), "Locks: "),
    ({"lock": "X=X:0.5"}, ("--lock", "X=X:0.5"), "Locks: "),
    ({"lock": "=X"}, ("--lock", "=X"), "Locks: "),
    ({"lock": "X,B5,Zz=X:1"}, ("--lock", "X,B5,Zz=X:1"), "Locks: "),
    ({"rake": "1.5"}, ("--rake", "1.5"), "Rake: "),
])
def test_bad_sizes_and_locks_get_the_cli_message(run: Any, capsys: pytest.CaptureFixture[str], fields: dict[str, str], option: tuple[str, str],
                                                label: str) -> None:
    argv = [a for a in ARGV if a not in ("--lock", "=X:0.5,B5:0.5")]
    cli = _cli_error(run, capsys, *argv, *option)
    with pytest.raises(CardlabError) as caught:
        _answer(**{"lock": "", **fields})
    said = str(caught.value)
    assert "\n" not in said and said.startswith(label)
    # the command names its option where the page names its field; the rest is the command's words
    assert said.removeprefix(label) in cli or said == cli, (said, cli)


def test_memory_limit_refuses_the_spot_before_the_solve_with_the_cli_message(run: Any,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    cli = _cli_error(run, capsys, *ARGV, "--memory-limit", "1", "--ip", "22+, AQs")
    with pytest.raises(CardlabError) as caught:
        _answer(memory_limit="1", ip="22+, AQs")
    assert str(caught.value) == cli and "over the limit of 1 MB" in cli
    with pytest.raises(CardlabError, match="Memory limit: .* 512"):
        _answer(memory_limit="600")
    with pytest.raises(CardlabError, match="Time limit: "):
        _answer(time_limit="21")


def _saved_spot(tmp_path: Any, meta_change: dict[str, Any] | None = None, **spec: Any) -> bytes:
    """A solve file whose recorded spot (and meta) is changed as ``spec`` says (the tables kept)."""
    import numpy as np

    answer = _answer(max_iterations="2", lock="")
    with np.load(__import__("io").BytesIO(answer.downloads["solve.npz"])) as data:
        meta = json.loads(str(data["meta"]))
        meta["spec"].update(spec)
        meta.update(meta_change or {})
        path = tmp_path / "changed.npz"
        np.savez_compressed(path, meta=np.array(json.dumps(meta)), regrets=data["regrets"], sums=data["sums"])
    return path.read_bytes()


@pytest.mark.parametrize("change,message", [
    ({}, None),
    ({"river": {"oop_bet": 75}}, "solve file 'mine.npz': its river sizes must be text under oop_bet, oop_raise"),
    ({"river": {"oop_bet": "75%", "oop_lead": "5%"}}, "solve file 'mine.npz': its river sizes must be text under"),
    ({"river": ["75%"]}, "solve file 'mine.npz': its river sizes must be text under"),
    ({"turn": {"oop_bet": "75%"}}, "solve file 'mine.npz': it records turn sizes, but a turn spot has no turn to come"),
    ({"river": {"ip_raise": "e"}}, "solve file 'mine.npz': its river ip_raise sizes: cannot read bet size 'e'"),
    ({"oop_bet": "50%, lots"}, "solve file 'mine.npz': its oop_bet sizes: cannot read bet size 'lots'"),
    ({"oop_donk": ["5%"]}, "solve file 'mine.npz': its oop_donk sizes are not text"),
    ({"pot": "ten"}, "a solve file's spot has a value that is not a number"),
    ({"meta_change": {"iterations": "many"}}, "solve file 'mine.npz': its iterations and seconds are not numbers"),
    ({"meta_change": {"locked": [2]}}, "solve file 'mine.npz': its locked nodes are not decision nodes of its spot"),
    ({"meta_change": {"locked": [10**6]}}, "solve file 'mine.npz': its locked nodes are not decision nodes"),
])
def test_uploaded_solve_file_with_bad_sizes_gets_the_cli_message_naming_it(run: Any, capsys: pytest.CaptureFixture[str],
                                                                          tmp_path: Any, monkeypatch: pytest.MonkeyPatch,
                                                                          change: dict[str, Any],
                                                                          message: str | None) -> None:
    data = _saved_spot(tmp_path, **change)
    spec = solve.prepare(Form(fields={"node": ""}, files={"file": Upload("mine.npz", data)}))
    (tmp_path / "mine.npz").write_bytes(data)
    if message is None:  # the file as saved reads back
        assert solve.compute(lambda *a: None, **spec.kwargs).figures["json"]["iterations"] == 2
        return
    with pytest.raises(CardlabError) as caught:
        solve.compute(lambda *a: None, **spec.kwargs)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    monkeypatch.chdir(tmp_path)  # the CLI shortens a long path in its message: name the file as the page does
    cli = _cli_error(run, capsys, "poker", "solve", "--load", "mine.npz")
    assert cli == str(caught.value)


@pytest.mark.parametrize("data,message", [
    (b"hello", "cannot read solve file 'notes.npz': "),
    (b"PK\x03\x04" + b"\0" * 60, "cannot read solve file 'notes.npz': "),
])
def test_uploaded_file_that_is_not_a_solve_gets_the_reader_message(data: bytes, message: str) -> None:
    spec = solve.prepare(Form(files={"file": Upload("notes.npz", data)}))
    with pytest.raises(CardlabError, match=message):
        solve.compute(lambda *a: None, **spec.kwargs)
    with pytest.raises(CardlabError, match="Solve file: expected the file's bytes as base64 text"):
        solve.prepare(Form(fields={"solve_file": "not base64!"}))
    with pytest.raises(CardlabError, match="Solve file: 'empty.npz' is empty"):
        solve.prepare(Form(files={"file": Upload("empty.npz", b"")}))
    with pytest.raises(CardlabError, match="Solve file: 'big.npz' is larger than the limit of 20 MB"):
        solve.prepare(Form(files={"file": Upload("big.npz", b"x" * (20 * 2**20 + 1))}))


def test_tables_larger_than_their_spot_are_refused_before_they_are_read(tmp_path: Any) -> None:
    """A file declaring tables of another size than its spot's (a compressed run of zeros could
    declare gigabytes) is refused from the arrays' headers, before they are decompressed."""
    import numpy as np

    answer = _answer(max_iterations="2", lock="")
    with np.load(__import__("io").BytesIO(answer.downloads["solve.npz"])) as data:
        meta = str(data["meta"])
    huge = np.zeros(2_000_000)  # 16 MB of zeros: about 16 kB compressed
    np.savez_compressed(tmp_path / "big.npz", meta=np.array(meta), regrets=huge, sums=huge)
    data = (tmp_path / "big.npz").read_bytes()
    assert len(data) < 1_000_000
    import tracemalloc

    from cardlab.solver import load_solution

    tracemalloc.start()
    try:
        with pytest.raises(CardlabError, match="solve file 'big.npz' does not match its spot"):
            load_solution(data, name="big.npz")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8_000_000, peak  # neither 16 MB table was read
    # the spot's text: one string of at most a million characters, checked from its header too
    np.savez_compressed(tmp_path / "long.npz", meta=np.array(" " * 1_100_000), regrets=huge[:4], sums=huge[:4])
    with pytest.raises(CardlabError, match="^solve file 'long.npz': its spot is not one text of at most 1,048,576"):
        load_solution((tmp_path / "long.npz").read_bytes(), name="long.npz")
    with pytest.raises(CardlabError, match=r"solve file 'x.npz': its spot needs about 0.\d+ MB, over the limit of 0.1 MB"):
        load_solution(answer.downloads["solve.npz"], name="x.npz", memory_mb=0.1)


def test_tables_over_the_upload_limit_are_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A solve whose tables are over what the page reads back is not saved (nor compressed) for
    download: the answer says to save it with the command."""
    from cardlab.web.pages import solve_spot

    monkeypatch.setattr(solve_spot, "MAX_SOLVE_FILE", 1000)
    answer = _answer(max_iterations="2")
    assert "solve.npz" not in answer.downloads and sorted(answer.downloads) == ["solve.csv", "solve.json"]
    assert "more than the page reads back: save this solve with the command below" in answer.html
