"""The ``cardlab bridge matchpoints`` and ``cardlab bridge score`` commands, in-process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardlab.scoring.usebio import read_usebio
from cardlab.cli.main import main

DATA = Path(__file__).parent / "data"
SAMPLE = str(DATA / "usebio-sample.xml")
MITCHELL = str(DATA / "mitchell.csv")


def test_matchpoints_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "matchpoints", "650", "300", "300", "300", "200", "200", "-200"]) == 0
    out = capsys.readouterr().out
    assert "7 results, top 6 (ACBL units)" in out
    rows = [line.split() for line in out.splitlines()[1:] if len(line.split()) == 3
            and line.split()[0] != "Score"]
    assert rows == [["650", "6", "100.00"], ["300", "4", "66.67"], ["300", "4", "66.67"],
                    ["300", "4", "66.67"], ["200", "1.5", "25.00"], ["200", "1.5", "25.00"],
                    ["-200", "0", "0.00"]]


def test_matchpoints_ebu_and_bad_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "matchpoints", "--scale", "ebu", "100", "50"]) == 0
    out = capsys.readouterr().out
    assert "top 2 (EBU units)" in out and "100.00" in out
    assert main(["bridge", "matchpoints", "100", "4S="]) == 2
    err = capsys.readouterr().err
    assert err == "cardlab: error: score must be a whole number, not '4S='\n"


def test_score_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "score", MITCHELL, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"pairs", "boards"}
    # Figures worked by hand in tests/test_session.py::test_mitchell_fixture_by_hand.
    assert data["pairs"][0] == {"pair": "3", "direction": "NS", "boards": 6,
                                "matchpoints": 8.0, "percentage": 66.67, "place": "1"}
    assert data["pairs"][5] == {"pair": "1", "direction": "EW", "boards": 6,
                                "matchpoints": 5.5, "percentage": 45.83, "place": "3"}
    board4 = data["boards"][3]
    assert board4["board"] == 4 and board4["top"] == 2
    assert board4["results"][1] == {"ns": "1", "ew": "3", "contract": None, "declarer": None,
                                    "tricks": None, "score": "A6040", "ns_mp": 1.2,
                                    "ew_mp": 0.8}
    assert data["boards"][0]["results"][0] == {
        "ns": "1", "ew": "1", "contract": "4S", "declarer": "N", "tricks": 10, "score": 420,
        "ns_mp": 0.0, "ew_mp": 2.0}


def test_score_json_imps(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "score", MITCHELL, "--format", "json", "--method", "butler"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["pairs"][0]) == {"pair", "direction", "boards", "total", "place"}
    # Board 1: 420, 450, 430 -> drop both ends, datum 430: NS 1 -10 = 0 IMPs, NS 3 +20 = 1.
    b1 = data["boards"][0]
    assert b1["datum"] == 430 and b1["top"] is None
    assert [r["ns_imps"] for r in b1["results"]] == [0, 1, 0]
    assert main(["bridge", "score", MITCHELL, "--format", "csv", "--method", "cross-imps"]) == 0
    assert capsys.readouterr().out.startswith("pair,direction,boards,total,place\n")


def test_score_table_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "score", MITCHELL]) == 0
    out = capsys.readouterr().out
    assert "Mitchell, 6 boards, matchpoints, ACBL units, top 2" in out
    assert "North-South" in out and "East-West" in out and "66.67" in out
    assert main(["bridge", "score", str(DATA / "howell.csv"), "--format", "csv"]) == 0
    assert capsys.readouterr().out == (
        "pair,direction,boards,matchpoints,percentage,place\n"
        "3,,3,2.50,83.33,1\n2,,3,1.50,50.00,2=\n4,,3,1.50,50.00,2=\n1,,3,0.50,16.67,4\n")


def test_score_html_and_usebio_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "r.html"
    assert main(["bridge", "score", SAMPLE, "--allow-repeated-pairs", "--format", "html",
                 "-o", str(page)]) == 0
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "<link" not in html and "<script" not in html
    assert "Board 8" in html and "63.75" in html and "adjusted A6040" in html
    out = tmp_path / "r.xml"
    assert main(["bridge", "score", SAMPLE, "--allow-repeated-pairs", "--format", "usebio",
                 "-o", str(out)]) == 0
    # The export re-imports to the same numbers and passes its own --check.
    assert main(["bridge", "score", str(out), "--allow-repeated-pairs", "--check"]) == 0
    assert "no differences (31 lines, 8 pairs checked)" in capsys.readouterr().out
    assert read_usebio(out.read_bytes()).reported == read_usebio(
        Path(SAMPLE).read_bytes()).reported


def test_check_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "score", SAMPLE, "--allow-repeated-pairs", "--check"]) == 0
    assert "usebio-sample.xml: no differences" in capsys.readouterr().out
    changed = tmp_path / "changed.xml"
    changed.write_text(Path(SAMPLE).read_text().replace(
        "<TOTAL_SCORE>30.60</TOTAL_SCORE>", "<TOTAL_SCORE>30.00</TOTAL_SCORE>"))
    assert main(["bridge", "score", str(changed), "--allow-repeated-pairs", "--check"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "pair NS 4: TOTAL_SCORE file 30.00, ours 30.60\n"
    assert "1 difference(s)" in captured.err
    assert main(["bridge", "score", MITCHELL, "--check"]) == 2
    assert "--check needs a file that states figures" in capsys.readouterr().err


@pytest.mark.parametrize(
    "row, message",
    [
        ("1,2,2,4Q,N,,", "bad.csv: line 3: unknown contract '4Q'"),
        ("1,2,2,4S,X,=,", "bad.csv: line 3: declarer must be N, E, S or W, not 'X'"),
        ("1,2,2,7S,N,+1,", "bad.csv: line 3: result '+1' on 7S would be 14 tricks"),
        ("1,1,2,4S,N,=,", "bad.csv: line 3: pair NS 1 appears twice on board 1 (first on line 2)"),
        ("1,2,2,4S,N,=,620", "bad.csv: line 3: score 620 contradicts 4S= by N on board 1"),
        ("1,2,2,4S,N", "bad.csv: line 3: expected 7 fields, found 5"),
    ],
)
def test_bad_input_one_line_nonzero(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    row: str, message: str) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("board,ns,ew,contract,declarer,result,score\n1,1,1,4S,N,=,\n" + row + "\n")
    assert main(["bridge", "score", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardlab: error: {message}")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_xml_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.xml"
    shutil.copy(SAMPLE, bad)
    bad.write_text(bad.read_text().replace("<TRICKS>13</TRICKS>", "<TRICKS>14</TRICKS>", 1))
    assert main(["bridge", "score", str(bad)]) == 2
    assert capsys.readouterr().err == (
        "cardlab: error: bad.xml: line 106: tricks must be a whole number from 0 to 13, "
        "not '14'\n")
    assert main(["bridge", "score", SAMPLE]) == 2
    assert capsys.readouterr().err == (
        "cardlab: error: usebio-sample.xml: line 106: pair EW 1 appears twice on board 1 "
        "(first on line 86); if each line really is a separate result, score with "
        "--allow-repeated-pairs\n")
    assert main(["bridge", "score", str(tmp_path / "none.csv")]) == 2
    assert "cannot use file" in capsys.readouterr().err
