"""cardlab poker equity: formats, files, seeds and one-line errors (exit status 2)."""

from __future__ import annotations

import json

import pytest
from png_check import png_size


def test_table(run) -> None:
    status, out, _ = run("poker", "equity", "AsAh", "KdKc", "--board", "2c 7d 9h")
    assert status == 0
    assert "91.616%" in out and "907" in out and "exact over 990 boards" in out


def test_json_schema(run) -> None:
    status, out, _ = run("poker", "equity", "AKs", "QQ+, AKo", "--board", "Kh 7d 2c", "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["exact"] is True
    assert set(data) == {"total", "exact", "players"}
    p = data["players"][0]
    assert set(p) == {"spec", "win", "tie", "equity", "wins", "ties", "ci95"}
    assert p["spec"] == "AKs" and isinstance(p["wins"], int)
    assert data["players"][0]["equity"] + data["players"][1]["equity"] == pytest.approx(1)


def test_simulated_json_is_seed_stable(run) -> None:
    args = ("poker", "equity", "AsAh", "KdKc", "--simulate", "200000", "--seed", "4", "--format", "json")
    _, one, _ = run(*args, "--workers", "1")
    _, two, _ = run(*args, "--workers", "2")
    assert one == two
    data = json.loads(one)
    assert data["exact"] is False and data["total"] == 200000 and data["simulation"]["seed"] == 4
    lo, hi = data["players"][0]["ci95"]
    assert lo <= 0.81255 <= hi


def test_csv_output_file_and_plot(run, tmp_path) -> None:
    out, png = tmp_path / "eq.csv", tmp_path / "eq.png"
    status, _, err = run("poker", "equity", "AsKs", "QQ+", "--board", "Kh 7d 2c", "--format", "csv",
                         "-o", str(out), "--plot", str(png))
    assert status == 0 and "plot written" in err
    lines = out.read_text().splitlines()
    assert lines[0] == "spec,win,tie,equity,wins,ties,ci95_low,ci95_high" and len(lines) == 3
    assert png_size(png) == (1320, 600)  # bars and the 13 x 13 grid: 11 x 5 inches at 120 dpi


def test_omaha_and_short_deck(run) -> None:
    status, out, _ = run("poker", "equity", "As Ah Kd Qc", "Js Ts 9h 8h", "--game", "omaha", "--board", "2c 7d 9s")
    assert status == 0 and "omaha" in out
    status, out, _ = run("poker", "equity", "Ah9h", "KdKc", "--game", "shortdeck", "--board", "6h 7h 8c")
    assert status == 0 and "short deck" in out


@pytest.mark.parametrize("args, words", [
    (("AsAh", "AsKd"), "As is given twice"),
    (("AsAh", "KdKc", "--board", "2c 3c 4c 5c 6c 7c"), "has 6"),
    (("AsAh", "AA", "--board", "Ad Ac 2c"), "leaves no hands"),
    (("As Ah Kd", "Js Ts 9h 8h", "--game", "omaha"), "has 3"),
    (("AA", "KK", "QQ", "JJ", "TT", "99", "88", "77", "66", "55"), "at most 9 players"),
    (("AsAh", "KdKc", "--plot", "x.pdf"), "ending in .png"),
    (("random", "random", "random"), "--simulate"),
])
def test_bad_input_one_line_exit_2(run, args, words) -> None:
    status, out, err = run("poker", "equity", *args)
    assert status == 2 and out == ""
    assert err.startswith("cardlab: error:") and words in err and err.count("\n") == 1


def test_output_checked_before_work(run, tmp_path) -> None:
    status, _, err = run("poker", "equity", "random", "random", "-o", str(tmp_path))
    assert status == 2 and "directory" in err
