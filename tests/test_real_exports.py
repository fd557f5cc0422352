"""Result files written the way real scoring programs export them (issue 8), and the
thin ``bridge score`` built on :func:`cardlab.scoring.load_results` (issue 7).

The session in ``tests/data/real-*.xml`` / ``real-*.pbn`` is a 3-table Mitchell, 3 boards,
worked by hand (EBU units, N = 3, top 4):

* board 1 (None): NS1 v EW1 4S= by N 420; NS2 v EW2 4S+1 450; NS3 v EW3 passed out
  (written ``PASS`` with ``PLAYED_BY`` N and an empty ``TRICKS``).  MPs 450: 4, 420: 2, 0: 0.
* board 2 (NS vul): NS1 v EW2 3NT= by S 600; NS2 v EW3 3NT-1 -100; NS3 v EW1 ``Pass`` by N
  with 0 tricks: 0.  MPs 600: 4, 0: 2, -100: 0.
* board 3 (EW vul), played twice: NS1 v EW3 2H= by E -110, NS2 v EW1 2H+1 -140.  Raw MPs
  (top 2) 2 / 0, shown raw on the file's traveller; Neuberg to 3: (M + 1)·3/2 − 1 = 3.5 / 0.5.
* NS1 2 + 4 + 3.5 = 9.5 / 12 = 79.17% (file: 79.2); NS2 4 + 0 + 0.5 = 4.5 -> 37.5%;
  NS3 0 + 2 = 2 / 8 = 25%; EW1 2 + 2 + 3.5 = 7.5 -> 62.5%; EW2 0 + 0 = 0%;
  EW3 4 + 4 + 0.5 = 8.5 -> 70.83% (file: 70.8).
* Cross-IMPs: board 1 420: (−1 + 9)/2 = 4, 450: (1 + 10)/2 = 5.5, 0: −9.5; board 2 600: 12,
  −100: (−12 − 3)/2 = −7.5, 0: (−12 + 3)/2 = −4.5; board 3 ±1.  NS1 17, NS2 −3, NS3 −14,
  EW1 1.5, EW2 −17.5, EW3 16.
* Butler: datums 420 (drop 450 and 0), 0 (drop 600 and −100), −125 -> −130 (two scores:
  their mean).  NS1 0 + 12 + 1 = 13, NS2 1 − 3 + 0 = −2, NS3 −9 + 0 = −9; EW1 0, EW2 −13, EW3 11.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardlab.cli.main import main
from cardlab.scoring import ResultsFile, load_results
from cardlab.scoring.export import write_pbn, write_usebio
from cardlab.scoring.pbn import read_pbn
from cardlab.scoring.usebio import read_usebio

DATA = Path(__file__).parent / "data"
MP, XIMP, BUTLER = DATA / "real-mp.xml", DATA / "real-cross-imp.xml", DATA / "real-butler.xml"
PBN_TABLES, PBN_SCORES = DATA / "real-tables.pbn", DATA / "real-scoretable.pbn"
DEAL1 = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def _line_key(line) -> tuple:  # type: ignore[no-untyped-def]
    return (line.board, line.ns, line.ew)


def _figures(result) -> dict:  # type: ignore[no-untyped-def]
    return {p.key: (round(p.total, 4), None if p.percentage is None else round(p.percentage, 2),
                    p.place) for p in result.pairs}


HAND_MP = {("NS", "1"): (9.5, 79.17, "1"), ("NS", "2"): (4.5, 37.5, "2"),
           ("NS", "3"): (2.0, 25.0, "3"), ("EW", "3"): (8.5, 70.83, "1"),
           ("EW", "1"): (7.5, 62.5, "2"), ("EW", "2"): (0.0, 0.0, "3")}
HAND_XIMP = {("NS", "1"): (17.0, None, "1"), ("NS", "2"): (-3.0, None, "2"),
             ("NS", "3"): (-14.0, None, "3"), ("EW", "3"): (16.0, None, "1"),
             ("EW", "1"): (1.5, None, "2"), ("EW", "2"): (-17.5, None, "3")}
HAND_BUTLER = {("NS", "1"): (13.0, None, "1"), ("NS", "2"): (-2.0, None, "2"),
               ("NS", "3"): (-9.0, None, "3"), ("EW", "3"): (11.0, None, "1"),
               ("EW", "1"): (0.0, None, "2"), ("EW", "2"): (-13.0, None, "3")}


@pytest.mark.parametrize("path, method, expected", [
    (MP, "mp", HAND_MP), (XIMP, "cross-imps", HAND_XIMP), (BUTLER, "butler", HAND_BUTLER),
    (PBN_SCORES, "mp", HAND_MP),
])
def test_real_files_score_to_hand_worked_figures(path: Path, method: str, expected: dict,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    doc = load_results(path)
    assert doc.method is not None and doc.method.value == method  # chosen by the event type
    result = doc.score()
    assert _figures(result) == expected
    assert doc.check(result).ok
    assert main(["bridge", "score", str(path), "--check"]) == 0
    assert capsys.readouterr().out == f"{path.name}: no differences (8 lines, 6 pairs checked)\n"


def test_real_mp_file_details() -> None:
    doc = load_results(MP)
    assert isinstance(doc, ResultsFile) and doc.format == "usebio"
    assert (doc.title, doc.club, doc.date, doc.event_type) == (
        "Tuesday Pairs", "Riverside Bridge Club", "24/11/2026", "MP_PAIRS")
    # 1NS / 1EW in PARTICIPANTS, 1 on the lines: names reach the pairs.
    result = doc.score()
    assert {p.key: p.names for p in result.pairs}[("EW", "3")] == ("Kit Kerr", "Len Lowe")
    # Pass-outs with a declarer and empty / 0 tricks score 0.
    passes = [s.line for b in result.boards for s in b.lines if s.line.contract
              and s.line.contract.is_pass]
    assert [(l.board, l.score, l.declarer, l.tricks) for l in passes] == [
        (1, 0, None, None), (2, 0, None, None)]
    assert {n: b.pbn_deal() for n, b in doc.deals.items()} == {1: DEAL1}
    assert "Tuesday Pairs" in repr(result) and len(repr(result)) < 200


def test_check_reports_edited_figures_once_in_file_order(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    text = MP.read_bytes().decode()  # CRLF kept, as exported
    text = text.replace("<TOTAL_SCORE>4.5</TOTAL_SCORE>", "<TOTAL_SCORE>5.5</TOTAL_SCORE>")
    text = text.replace("<PERCENTAGE>62.5</PERCENTAGE>", "<PERCENTAGE>61.5</PERCENTAGE>")
    # board 2, NS 2 v EW 3: 0.0 / 4.0 in the file -> 1.0 / 3.0
    text = text.replace("<SCORE>-100</SCORE>\r\n        <NS_MATCH_POINTS>0.0</NS_MATCH_POINTS>\r\n"
                        "        <EW_MATCH_POINTS>4.0</EW_MATCH_POINTS>",
                        "<SCORE>-100</SCORE>\r\n        <NS_MATCH_POINTS>1.0</NS_MATCH_POINTS>\r\n"
                        "        <EW_MATCH_POINTS>3.0</EW_MATCH_POINTS>")
    edited = tmp_path / "edited.xml"
    edited.write_bytes(text.encode())
    assert main(["bridge", "score", str(edited), "--check"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "pair NS 2: TOTAL_SCORE file 5.5, ours 4.50",
        "pair EW 1: PERCENTAGE file 61.5, ours 62.50",
        "board 2, NS 2 v EW 3: file NS 1.0 EW 3.0, ours NS 0.00 EW 4.00",
    ]
    assert captured.err == "edited.xml: 3 difference(s)\n"


def test_check_order_is_stable_across_hash_seeds(tmp_path: Path) -> None:
    text = MP.read_text()
    for old, new in (("<PLACE>1</PLACE>", "<PLACE>2</PLACE>"),
                     ("<PERCENTAGE>37.5</PERCENTAGE>", "<PERCENTAGE>36.5</PERCENTAGE>")):
        text = text.replace(old, new)
    edited = tmp_path / "edited.xml"
    edited.write_text(text)
    outputs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        run = subprocess.run([sys.executable, "-m", "cardlab", "bridge", "score", str(edited),
                              "--check"], capture_output=True, text=True, env=env, check=False)
        assert run.returncode == 1
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].splitlines()[0].startswith("pair NS 1: PLACE file 2, ours 1")


def test_unknown_event_type_is_one_line_exit_2(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "odd.xml"
    odd.write_text(MP.read_text().replace("MP_PAIRS", "PAIRS_AGGREGATE"))
    assert main(["bridge", "score", str(odd)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error: odd.xml: EVENT_TYPE 'PAIRS_AGGREGATE' is not one we "
                          "score") and err.count("\n") == 1
    # --method still overrides, with a notice.
    assert main(["bridge", "score", str(odd), "--method", "mp", "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ("cardlab: note: odd.xml: scoring by mp as asked; the file's event "
                            "type PAIRS_AGGREGATE is not one we score\n")
    assert captured.out.splitlines()[1] == "1,NS,3,9.50,79.17,1"
    teams = tmp_path / "teams.xml"
    teams.write_text(MP.read_text().replace("MP_PAIRS", "SWISS_TEAMS"))
    assert main(["bridge", "score", str(teams)]) == 2
    assert "is a team event" in capsys.readouterr().err
    bam = tmp_path / "bam.pbn"
    bam.write_text(PBN_SCORES.read_text().replace('[Scoring "MP"]', '[Scoring "BAM"]'))
    assert main(["bridge", "score", str(bam)]) == 2
    assert capsys.readouterr().err.startswith("cardlab: error: bam.pbn: Scoring 'BAM' is not")


def test_method_override_gives_one_line_notice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "score", str(XIMP), "--method", "mp", "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ("cardlab: note: real-cross-imp.xml: scoring by mp as asked, although "
                            "the file's event type CROSS_IMP means cross-imps\n")
    assert captured.out.splitlines()[1] == "1,NS,3,9.50,79.17,1"
    assert main(["bridge", "score", str(XIMP), "--method", "cross-imps", "--format", "csv"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("path", [MP, XIMP, BUTLER])
def test_usebio_writer_reads_back_identically(path: Path) -> None:
    doc = load_results(path)
    result = doc.score()
    text = write_usebio(result, club=doc.club, date=doc.date, deals=dict(doc.deals))
    assert "NSNS" not in text and "EWEW" not in text
    again = load_results(text.encode(), source="again.xml")
    assert again.method is doc.method and again.deals == doc.deals
    assert sorted(again.lines, key=_line_key) == sorted(doc.lines, key=_line_key)
    assert dict(again.names) == dict(doc.names)
    rescored = again.score()
    assert rescored.pairs == result.pairs
    assert again.check(rescored).ok


def test_pbn_per_table_records() -> None:
    doc = load_results(PBN_TABLES)
    assert doc.format == "pbn" and {n: b.pbn_deal() for n, b in doc.deals.items()} == {1: DEAL1}
    result = doc.score()
    # Pairs are numbered in order of first appearance; the figures are the session's.
    by_names = {p.names: (round(p.total, 4), round(p.percentage or 0, 2), p.place)
                for p in result.pairs}
    assert by_names[("Ann Archer", "Bob Baker")] == (9.5, 79.17, "1")
    assert by_names[("Kit Kerr", "Len Lowe")] == (8.5, 70.83, "1")
    assert by_names[("Ida Ince", "Jon Jury")] == (0.0, 0.0, "3")


def test_usebio_to_pbn_to_scores_round_trip(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    for path in (MP, XIMP, BUTLER):
        out = tmp_path / (path.stem + ".pbn")
        assert main(["bridge", "score", str(path), "--format", "pbn", "-o", str(out)]) == 0
        text = out.read_text()
        assert '[TotalScoreTable "' in text and f'[Deal "{DEAL1}"]' in text
        pbn = load_results(out)
        assert pbn.format == "pbn" and pbn.method is load_results(path).method
        result = pbn.score()
        assert _figures(result) == _figures(load_results(path).score())
        assert pbn.check(result).ok
        # ... and back to USEBIO: the same figures again.
        back = load_results(write_usebio(result, deals=dict(pbn.deals)).encode())
        assert _figures(back.score()) == _figures(result) and back.deals == pbn.deals
    capsys.readouterr()


def test_pbn_read_write_direct() -> None:
    doc = read_pbn(PBN_SCORES.read_text(), "real-scoretable.pbn")
    assert doc.event_type == "MP" and len(doc.lines) == 8
    result = load_results(PBN_SCORES).score()
    again = read_pbn(write_pbn(result))
    assert again.lines == doc.lines


def test_encodings_and_line_ends(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = "board,ns,ew,contract,declarer,tricks,score\r\n1,1,1,4S,N,10,\r\n1,2,2,3NT,S,9,\r\n"
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + csv.encode())
    assert load_results(bom).score().top == 1
    # A Windows-1252 PBN (a name with u-umlaut) reads; binary bytes are one line, exit 2.
    legacy = tmp_path / "legacy.pbn"
    legacy.write_bytes(PBN_TABLES.read_text().replace("Ann Archer", "Ann M\u00fcller")
                       .encode("cp1252"))
    names = {p.names for p in load_results(legacy).score().pairs}
    assert ("Ann M\u00fcller", "Bob Baker") in names
    blob = tmp_path / "blob.csv"
    blob.write_bytes(b"board,ns\n\x00\x81\xff\x00")
    assert main(["bridge", "score", str(blob)]) == 2
    assert capsys.readouterr().err == ("cardlab: error: blob.csv: not a text file (neither "
                                       "UTF-8 nor Windows-1252 text)\n")


def test_output_checked_before_work(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short relative path: the message shortens a long one (xdist's tmp_path)
    missing_dir = Path("no", "such", "out.txt")
    assert main(["bridge", "score", "absent.xml", "-o", str(missing_dir)]) == 2
    # The output is refused first, although the input does not exist either.
    assert "out.txt" in capsys.readouterr().err
    assert main(["bridge", "matchpoints", "1", "2", "-o", str(missing_dir)]) == 2
    assert "out.txt" in capsys.readouterr().err


def test_matchpoints_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "matchpoints", "420", "400", "400", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["top"] == 2 and [r["points"] for r in data["results"]] == [2.0, 0.5, 0.5]
    out = tmp_path / "mp.csv"
    assert main(["bridge", "matchpoints", "420", "400", "--format", "csv", "-o", str(out)]) == 0
    assert out.read_text() == "score,points,percentage\n420,1,100.00\n400,0,0.00\n"


def test_session_result_notebook_methods() -> None:
    result = load_results(MP).score()
    assert result.to_dict()["pairs"][0]["names"] == ["Ann Archer", "Bob Baker"]
    assert result.to_csv().splitlines()[0] == "pair,direction,boards,matchpoints,percentage,place"
    frame = result.to_pandas()
    assert list(frame["percentage"].round(2))[:3] == [79.17, 37.5, 25.0]
    assert "<table>" in result._repr_html_() and "Kit Kerr" in result._repr_html_()
    assert "North-South" in result.table()
    assert repr(result).startswith("<SessionResult 'Tuesday Pairs', mp, mitchell, 3 boards")
