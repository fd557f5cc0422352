"""``cardlab poker solve``, run in-process: formats, save and reload, locking, one-line errors."""

from __future__ import annotations

import json

import pytest

SPOT = ("poker", "solve", "--oop", "QQ+, AK, 76s", "--ip", "JJ-99, AQs, KQ", "--board", "Ks 9d 5c 2h 3s",
        "--pot", "10", "--stack", "50", "--oop-bet", "50%", "--ip-bet", "50%, a", "--oop-raise", "a",
        "--ip-raise", "")


def test_table_names_the_exploitability_and_the_node(run) -> None:
    status, out, err = run(*SPOT, "--node", "X")
    assert status == 0
    assert "exploitability:" in out and "% of the pot" in out and "node X: IP to act" in out
    assert "memory about" in err and "limit 4,096 MB" in err
    header = [line for line in out.splitlines() if line.startswith("class")][0].split()
    assert header == ["class", "combos", "X", "B5", "B50", "EV", "equity"]


def test_json_rows_are_frequencies(run) -> None:
    status, out, _ = run(*SPOT, "--by", "combo", "--format", "json", "--target", "0.1")
    data = json.loads(out)
    assert data["exploitability_pct"] <= 0.1 and data["actions"] == ["X", "B5"] and data["player"] == "OOP"
    for row in data["rows"]:
        assert row["X"] + row["B5"] == pytest.approx(1.0)
    assert sum(data["ev"]) == pytest.approx(10.0)


def test_csv_save_load_and_exact(run, tmp_path) -> None:
    saved = tmp_path / "spot.npz"
    status, out, err = run(*SPOT, "--format", "csv", "--save", str(saved), "--exact", "--node", "B5")
    assert status == 0 and out.splitlines()[0] == "class,combos,F,C,ev,equity"
    assert "exact value (LP)" in err
    status, again, _ = run("poker", "solve", "--load", str(saved), "--format", "csv", "--node", "B5")
    assert status == 0 and again == out


def test_lock(run) -> None:
    status, out, _ = run(*SPOT, "--lock", "=X:1", "--format", "json")
    data = json.loads(out)
    assert status == 0 and all(row["X"] == pytest.approx(1.0) for row in data["rows"])


@pytest.mark.parametrize("args, message", [
    (("--board", "Ks 9d"), "a board has 3 or 4 or 5 cards here"),
    (("--oop-bet", "50"), "cannot read bet size '50'"),
    (("--node", "X,B9"), "no action 'B9' at node 'X'"),
    (("--lock", "X=Q:1"), "no action 'Q'"),
    (("--memory-limit", "1", "--oop", "*", "--ip", "*", "--oop-bet", "33%,50%,75%,a", "--ip-raise", "60%,a"),
     "over the limit of 1 MB"),
    (("--oop", "AKx"), "--oop: cannot read 'AKx'"),
    (("--save", "/no/such/folder/spot.npz"), "cannot use file '/no/such/folder/spot.npz' (--save)"),
    (("--load", "/no/such/file.npz", "--oop-bet", "50%"), "--load shows a saved solve"),
])
def test_bad_input_is_one_line(run, args, message) -> None:
    status, out, err = run(*SPOT, *args)
    assert status == 2 and message in err and len(err.strip().splitlines()) <= 2
    assert "Traceback" not in err


def test_missing_spot(run) -> None:
    status, _, err = run("poker", "solve", "--oop", "AA")
    assert status == 2 and "give the spot: --ip, --board, --pot, --stack" in err


def test_ctrl_c_prints_the_answer_so_far(run, monkeypatch) -> None:
    from cardlab.solver.engine import Engine

    real = Engine.run
    calls = []

    def run_then_interrupt(self: Engine, iterations: int, workers: int = 1) -> None:
        calls.append(iterations)
        if len(calls) > 2:
            raise KeyboardInterrupt
        real(self, iterations, workers)

    monkeypatch.setattr(Engine, "run", run_then_interrupt)
    status, out, _ = run(*SPOT, "--target", "0.0001")
    assert status == 130
    done = f"{sum(calls[:2])} iterations"  # the two runs before the interrupt
    assert "exploitability:" in out and done in out and "(interrupted)" in out


def test_load_of_a_missing_file(run, tmp_path) -> None:
    status, _, err = run("poker", "solve", "--load", str(tmp_path / "none.npz"))
    assert status == 2 and "cannot read solve file" in err and len(err.strip().splitlines()) == 1


def test_export_range(run) -> None:
    status, out, _ = run(*SPOT, "--export-range", "ip", "--node", "")
    assert status == 0 and out == "AQs, KQs, KQo, JJ, TT, 99\n"
