"""``bridge score`` is one library call (issue 19: the CLI logic moved into the library), and
every output format of ``bridge score`` and ``bridge teams`` says the hand-worked figures.

The session is ``tests/data/real-mp.xml``, worked by hand in ``tests/test_real_exports.py``:
NS1 9.5 MPs 79.17%, NS2 4.5 37.5%, NS3 2 25%, EW3 8.5 70.83%, EW1 7.5 62.5%, EW2 0 0%
(EBU units, top 4).  The team match ``teams-match.csv`` is worked in ``tests/test_teams.py``:
B wins 17-10 IMPs, 14.22 - 5.78 VPs.
"""

from __future__ import annotations

import ast
import csv
import io
import json
from pathlib import Path

import pytest

from cardlab.cli.main import main
from cardlab.report.scoring_run import FORMATS, render_session, score_file
from cardlab.scoring import load_results

DATA = Path(__file__).parent / "data"
MP = DATA / "real-mp.xml"
HAND = {("NS", "1"): ("9.50", "79.17", "1"), ("NS", "2"): ("4.50", "37.50", "2"),
        ("NS", "3"): ("2.00", "25.00", "3"), ("EW", "3"): ("8.50", "70.83", "1"),
        ("EW", "1"): ("7.50", "62.50", "2"), ("EW", "2"): ("0.00", "0.00", "3")}


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_command_prints_what_the_library_call_gives(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    run = score_file(MP, fmt=fmt)
    expected = run.text if isinstance(run.text, str) else "".join(run.text or ())
    assert main(["bridge", "score", str(MP), "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert out.rstrip("\n") == expected.rstrip("\n")
    doc = load_results(MP)
    again = render_session(doc.score(), fmt, doc)
    assert (again if isinstance(again, str) else "".join(again)) == expected


def test_csv_output_has_the_hand_worked_ranking() -> None:
    text = score_file(MP, fmt="csv").text
    assert isinstance(text, str)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {(r["direction"], r["pair"]): (r["matchpoints"], r["percentage"], r["place"])
            for r in rows} == HAND


def test_json_output_parses_and_has_the_hand_worked_ranking() -> None:
    data = json.loads("".join(score_file(MP, fmt="json").text or ()))
    assert {(p["direction"], p["pair"]): (f"{p['matchpoints']:.2f}", f"{p['percentage']:.2f}",
                                         p["place"]) for p in data["pairs"]} == HAND


def test_table_and_html_show_the_winners() -> None:
    table = score_file(MP).text
    assert isinstance(table, str)
    assert "top 4" in table and "79.17" in table and "70.83" in table
    page = "".join(score_file(MP, fmt="html").text or ())
    assert page.startswith("<!DOCTYPE html>") and "Ann Archer" in page and "79.17" in page


@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_usebio_and_pbn_output_read_back_to_the_same_ranking(fmt: str) -> None:
    text = score_file(MP, fmt=fmt).text
    assert isinstance(text, str)
    again = load_results(text.encode(), source=f"out.{fmt}")
    result = again.score()
    assert {p.key: (f"{p.total:.2f}", f"{p.percentage:.2f}", p.place)
            for p in result.pairs} == HAND
    assert again.check(result).ok


def test_a_site_directory_is_written_by_the_call(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    run = score_file(MP, fmt="html", output=f"{site}/")
    assert run.text is None and run.message is not None and run.message.endswith(f"{site}")
    assert (site / "index.html").exists()
    assert main(["bridge", "score", str(MP), "--format", "html", "-o", f"{tmp_path / 'b'}/"]) == 0
    assert capsys.readouterr().out.startswith("wrote ")


def test_check_status_and_summary_come_from_the_call() -> None:
    bad = MP.read_text(encoding="utf-8").replace("<PERCENTAGE>79.2</PERCENTAGE>",
                                                 "<PERCENTAGE>80.0</PERCENTAGE>")
    run = score_file(bad.encode(), check=True)
    assert run.status == 1 and run.summary == "<bytes>: 1 difference(s)"
    assert run.text == "pair NS 1: PERCENTAGE file 80.0, ours 79.17\n"
    assert score_file(MP, check=True).status == 0


def test_the_score_command_module_only_parses_and_prints() -> None:
    source = (Path(__file__).parent.parent / "src" / "cardlab" / "cli" / "bridge_score.py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    functions = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert functions == {"register", "_run_matchpoints", "_run_score"}
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported == {"__future__", "cardlab.cli.output", "cardlab.scoring.matchpoints",
                        "cardlab.report.scoring_run", "cardlab.club.files"}  # .bws or any file


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_teams_output_formats(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "teams", str(DATA / "teams-match.csv"), "--format", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        standings = json.loads(out)["standings"]
        assert [(s["team"], s["vp"], s["place"]) for s in standings] == [("B", 14.22, "1"),
                                                                          ("A", 5.78, "2")]
    elif fmt == "csv":
        assert out.splitlines() == ["place,team,matches,imps_for,imps_against,vp",
                                    "1,B,1,17,10,14.22", "2,A,1,10,17,5.78"]
    else:
        assert "A   10 - 17   B" in out and "VP  5.78 - 14.22" in out
