"""The poker commands, run in-process: output formats and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from png_check import png_size

FIVE = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]


def test_odds_table(run) -> None:
    status, out, _ = run("poker", "odds")
    assert status == 0
    assert "1,302,540" in out and "0.501177" in out and "2,598,960" in out


def test_odds_json(run) -> None:
    status, out, _ = run("poker", "odds", "--format", "json")
    data = json.loads(out)
    assert data["total"] == 2598960
    assert [r["category"] for r in data["rows"]][-1] == "royal_flush"
    assert [r["count"] for r in data["rows"]] == FIVE
    assert set(data["rows"][0]) >= {"category", "count", "probability"}


def test_odds_simulated_json_is_seed_stable(run) -> None:
    args = ("poker", "odds", "--simulate", "300000", "--seed", "4", "--format", "json")
    _, one, _ = run(*args)
    _, two, _ = run(*args, "--workers", "2")
    a, b = json.loads(one), json.loads(two)
    assert a["rows"] == b["rows"]
    row = a["rows"][0]
    assert {"simulated_count", "ci95", "count", "probability"} <= set(row)
    assert a["simulation"]["seed"] == 4 and a["simulation"]["trials"] == 300000


def test_odds_options(run, reels_file) -> None:
    _, out, _ = run("poker", "odds", "--cards", "7", "--format", "csv")
    assert out.splitlines()[0].startswith("category,count,probability")
    assert "23294460" in out
    _, out, _ = run("poker", "odds", "--short-deck", "--format", "json")
    assert [r["category"] for r in json.loads(out)["rows"]][5:7] == ["full_house", "flush"]
    _, out, _ = run("poker", "odds", "--decks", "2", "--format", "json")
    assert json.loads(out)["rows"][-1] == {**json.loads(out)["rows"][-1], "category": "five_of_a_kind",
                                           "count": 728}
    _, out, _ = run("poker", "odds", "--remove", "Ts Jh", "--format", "json")
    assert json.loads(out)["total"] == 2118760
    status, out, _ = run("poker", "odds", "--reels", str(reels_file), "--simulate", "100000", "--seed", "1")
    assert status == 0 and "100,000" in out and "95% interval" in out


def test_odds_plot(run, tmp_path) -> None:
    path = tmp_path / "odds.png"
    status, _, err = run("poker", "odds", "--simulate", "50000", "--seed", "1", "--plot", str(path))
    assert status == 0 and "plot written" in err
    assert png_size(path) == (660, 528)  # 10 categories: the narrowest bar chart, 6 x 4.8 inches at 110 dpi


def test_rank(run, tmp_path) -> None:
    status, out, _ = run("poker", "rank", "As Ks Qs Js Ts", "2c2d2h7s7c", "--format", "json")
    data = json.loads(out)
    assert data[0]["hand"] == "As Ks Qs Js Ts" and data[0]["category"] == "royal_flush"
    assert data[1]["category"] == "full_house" and data[0]["strength"] > data[1]["strength"]
    assert set(data[0]) == {"hand", "category", "strength"}
    hands = tmp_path / "hands.txt"
    hands.write_text("# one hand per line\nAh Ad 8c 8s Kd\n\nAs Ac 8h 8d Qc 2s 3s\n")
    status, out, _ = run("poker", "rank", "--file", str(hands))
    lines = out.splitlines()
    assert status == 0 and len(lines) == 2 and "Two pair" in lines[0]


def test_compare(run) -> None:
    status, out, _ = run("poker", "compare", "Ah Ad 8c 8s Kd", "As Ac 8h 8d Qc")
    assert status == 0
    assert out.splitlines()[0].startswith("* hand 1")
    assert out.splitlines()[-1] == ("hand 1 wins: both two pair, aces and eights; the kicker decides, "
                                    "king against queen")


@pytest.mark.parametrize("argv, message", [
    (("poker", "rank", "As Ks Qs Js Zs"), "unknown symbol 'Z'"),
    (("poker", "rank", "As Ks Qs Js As"), "card As is given twice"),
    (("poker", "rank", "As Ks Qs Js"), "has 4"),
    (("poker", "compare", "As Ks Qs Js Ts", "2c 3c"), "has 2"),
    (("poker", "odds", "--remove", "As As"), "card As is given 2 times"),
    (("poker", "odds", "--remove", "Xy"), "unknown symbol 'X'"),
    (("poker", "odds", "--reels", "/nonexistent/reels"), "cannot use file"),
    (("poker", "rank", "--short-deck", "As 5d 7c 8h 9s"), "hand 1: card 5d is not in the short deck"),
])
def test_errors_are_one_line(run, argv, message: str) -> None:
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("cardlab: error: ") and message in err
    assert "Traceback" not in err


def test_bad_reels_line(run, tmp_path) -> None:
    path = tmp_path / "machine.reels"
    path.write_text("As Ks\nQs Js\nTs 9s\n8s 7s 7x\n6s 5s\n")
    status, _, err = run("poker", "odds", "--reels", str(path))
    assert status == 2 and "line 4: unknown card '7x' on reel 4" in err and err.count("\n") == 1


def test_rank_file_error_names_the_line(run, tmp_path) -> None:
    path = tmp_path / "hands.txt"
    path.write_text("As Ks Qs Js Ts\n2c 2d 2h\n")
    status, _, err = run("poker", "rank", "--file", str(path))
    assert status == 2 and "hands.txt: line 2: a hand has 5, 6 or 7 cards" in err


def test_too_large_reels_suggest_simulation(run, tmp_path) -> None:
    deck = " ".join(f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs")
    path = tmp_path / "big.reels"
    path.write_text("\n".join([deck] * 6) + "\n")
    status, _, err = run("poker", "odds", "--reels", str(path))
    assert status == 2 and "--simulate" in err
    status, out, err = run("poker", "odds", "--reels", str(path), "--simulate", "20000", "--seed", "1",
                           "--format", "json")
    assert status == 0 and json.loads(out)["total"] == 20000


def test_non_utf8_files_are_one_line_errors(run, tmp_path) -> None:
    """Before: UnicodeDecodeError traceback and exit 1."""
    hands = tmp_path / "hands.txt"
    hands.write_bytes("As Ks Qs Js Ts\n2c 3c 4c 5c 6c # café\n".encode("latin-1"))
    status, out, err = run("poker", "rank", "--file", str(hands))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("cardlab: error: hands.txt: line 2: not UTF-8 text (byte 0xe9)")
    reels = tmp_path / "machine.reels"
    reels.write_bytes("As Ks\nQs Js\nTs 9s\n8s 7s\n6s 5s # ré\n".encode("latin-1"))
    status, out, err = run("poker", "odds", "--reels", str(reels))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("cardlab: error: ") and f"{reels}: line 5: not UTF-8 text (byte 0xe9)" in err


def test_rank_formats_and_output_file(run, tmp_path) -> None:
    status, out, _ = run("poker", "rank", "As Ks Qs Js Ts", "2c2d2h7s7c", "--format", "csv")
    assert status == 0 and out.splitlines() == ["hand,category,strength", "As Ks Qs Js Ts,royal_flush,10271384",
                                                "2c 2d 2h 7s 7c,full_house,6291541"]
    path = tmp_path / "ranked.json"
    status, out, _ = run("poker", "rank", "As Ks Qs Js Ts", "-o", str(path), "--format", "json")
    assert status == 0 and out == ""
    assert json.loads(path.read_text()) == [{"hand": "As Ks Qs Js Ts", "category": "royal_flush",
                                             "strength": 10271384}]


def test_rank_reads_stdin(run, monkeypatch) -> None:
    import io
    import sys

    stdin = io.TextIOWrapper(io.BytesIO(b"As Ks Qs Js Ts\n2c 2d 2h 7s 7x\n"))
    monkeypatch.setattr(sys, "stdin", stdin)
    status, _, err = run("poker", "rank", "--file", "-")
    assert status == 2 and "stdin: line 2: unknown symbol 'x'" in err


def test_compare_json_and_output_file(run, tmp_path) -> None:
    status, out, _ = run("poker", "compare", "Ah Ad 8c 8s Kd", "As Ac 8h 8d Qc", "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["winners"] == [1] and data["tie"] is False
    assert data["hands"][0]["best"] == "Ah Ad 8s 8c Kd" and data["hands"][1]["category"] == "two_pair"
    assert data["reason"].startswith("hand 1 wins")
    path = tmp_path / "why.txt"
    status, out, _ = run("poker", "compare", "Ah Ad 8c 8s Kd", "As Ac 8h 8d Qc", "-o", str(path))
    assert status == 0 and out == "" and path.read_text().splitlines()[0].startswith("* hand 1")


@pytest.mark.parametrize("argv, target", [
    (("poker", "rank", "As Ks Qs Js Ts"), "cardlab.poker.ranking.rank_hands"),
    (("poker", "compare", "As Ks Qs Js Ts", "2c 3c 4c 5c 7d"), "cardlab.poker.comparison.compare"),
    (("poker", "odds", "--simulate", "1e15"), "cardlab.poker.odds.poker_odds"),
])
def test_output_file_is_checked_before_the_work(run, tmp_path, monkeypatch, argv, target) -> None:
    # the command imports its library function when it runs: patch it where it lives
    def refuse(*args, **kwargs):
        raise AssertionError("the work started before -o was checked")

    monkeypatch.setattr(target, refuse)
    monkeypatch.chdir(tmp_path)  # a short relative path: the message shortens a long one (xdist's tmp_path)
    status, _, err = run(*argv, "-o", str(Path("missing", "out.txt")))
    assert status == 2 and "cannot use file" in err and "missing" in err
    if target.endswith("poker_odds"):
        status, _, err = run(*argv, "--plot", str(Path("missing", "odds.png")))
        assert status == 2 and "cannot use file" in err
    fresh = tmp_path / "fresh.txt"
    monkeypatch.undo()
    status, _, _ = run("poker", "rank", "As Ks Qs Js Zs", "-o", str(fresh))
    assert status == 2 and not fresh.exists()  # the check leaves no empty file behind
