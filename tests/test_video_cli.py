"""``cardlab poker video``, run in-process: formats, options, and one-line errors (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data" / "video"


def test_whole_game_json(run):
    status, out, _ = run("poker", "video", "jacks-or-better-9-6", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["paytable"] == "Jacks or Better 9/6" and data["cards"] == 52 and data["exact"] is True
    assert data["outcomes"][0] == {"name": "royal flush", "pays": 800, "count": 493512264,
                                   "probability": 493512264 / 19933230517200,
                                   "contribution": 800 * 493512264 / 19933230517200}
    assert round(100 * data["return"], 4) == 99.5439
    p, q = map(int, data["return_exact"].split("/"))
    assert abs(p / q - data["return"]) < 1e-15


def test_table_and_csv(run, tmp_path):
    status, out, _ = run("poker", "video", "jacks-or-better-8-5")
    assert status == 0 and "97.2984%" in out and "19,933,230,517,200" in out
    target = tmp_path / "jb.csv"
    status, _, _ = run("poker", "video", "jacks-or-better-8-5", "--format", "csv", "-o", str(target))
    lines = target.read_text().splitlines()
    assert status == 0 and lines[0] == "outcome,pays,count,probability,contribution" and len(lines) == 11


def test_hand_json(run):
    status, out, _ = run("poker", "video", "jacks-or-better-9-6", "--hand", "Ah Kh Qh Jh 2c", "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["hand"] == "Ah Kh Qh Jh 2c" and len(data["holds"]) == 32
    assert data["holds"][0]["hold"] == "Ah Kh Qh Jh" and data["holds"][0]["ev_exact"] == "872/47"
    assert set(data["holds"][0]) >= {"hold", "ev", "ev_exact"}


def test_hand_table_shows_best_distributions(run):
    status, out, _ = run("poker", "video", "deuces-wild-full-pay", "--hand", "2c 2d 2h 2s Ah")
    assert status == 0 and out.splitlines()[3].split()[1:] == ["2c", "2d", "2h", "2s", "Ah", "200.000000"]
    assert "four deuces" in out


def test_simulate_and_plot(run, tmp_path):
    picture = tmp_path / "r.png"
    status, out, err = run("poker", "video", "jacks-or-better-9-6", "--simulate", "50000", "--seed", "3",
                           "--plot", str(picture), "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["simulation"]["trials"] == 50000 and data["simulation"]["seed"] == 3
    lo, hi = data["simulation"]["ci95"]
    assert lo <= data["return"] <= hi
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "plot written" in err


def test_deck_options(run):
    status, out, _ = run("poker", "video", "jacks-or-better-9-6", "--deck", "9-A", "--format", "json")
    assert status == 0 and json.loads(out)["cards"] == 24
    status, out, _ = run("poker", "video", "jacks-or-better-9-6", "--jokers", "1", "--format", "json")
    assert status == 0 and json.loads(out)["cards"] == 53
    status, out, _ = run("poker", "video", "jacks-or-better-9-6", "--remove", "As Ks", "--wild", "deuces",
                         "--format", "json")
    assert status == 0 and json.loads(out)["cards"] == 50


@pytest.mark.parametrize("argv, message", [
    (["jacks-or-better-9-6", "--hand", "Ah Kh Qh Jh"], "a video poker hand has 5 cards; 'Ah Kh Qh Jh' has 4"),
    (["jacks-or-better-9-6", "--hand", "Ah Kh Qh Jh Ah"], "card Ah is given 2 times"),
    (["jacks-or-better-9-6", "--hand", "Ah Kh Qh Jh Xx"], "Xx"),
    (["jacks-or-worse"], "unknown pay table 'jacks-or-worse'"),
    ([str(DATA / "negative-pay.toml")], "must not be negative"),
    ([str(DATA / "text-pay.toml")], "must be a number"),
    ([str(DATA / "unknown-outcome.toml")], "unknown outcome 'royal flash'"),
    ([str(DATA / "malformed.toml")], "not a well-formed TOML"),
    (["jacks-or-better-9-6", "--decks", "300"], "at most 255 copies"),
    (["jacks-or-better-9-6", "--deck", "K-9"], "runs downwards"),
    (["jacks-or-better-9-6", "--hand", "Ah Kh Qh Jh 2c", "--simulate", "10"], "cannot be combined"),
])
def test_bad_input_one_line_exit_2(run, argv, message):
    status, out, err = run("poker", "video", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("cardlab: error: ") and message in err


def test_ctrl_c_prints_the_partial_simulation_and_exits_130(run, ctrl_c_after):
    ctrl_c_after(2)
    status, out, _ = run("poker", "video", "jacks-or-better-9-6", "--simulate", "1000000000", "--seed", "1",
                         "--workers", "2", "--format", "json")
    data = json.loads(out)["simulation"]
    assert status == 130 and data["interrupted"] is True
    assert data["trials"] == sum(data["counts"]) == 2 * (5_000_000 // 52) and data["requested"] == 10**9


def test_workers_do_not_change_the_simulation(run):
    outs = [run("poker", "video", "jacks-or-better-9-6", "--simulate", "40000", "--seed", "6", "--workers", w,
                "--format", "json")[1] for w in ("1", "2")]
    assert json.loads(outs[0])["simulation"]["counts"] == json.loads(outs[1])["simulation"]["counts"]
