"""Bridgemate's .bws database read into the results document, checked on the public sample.

The sample is ``doc/12tables1section.bws`` of the jarronshih/bridgemate-ui repository
(tests/data/SOURCES.md); the field definitions tested are those of the Bridgemate developer's
guide, document revision 37 (18 November 2013), kept in the same repository as
``doc/BMdevguide.pdf``.
"""

from __future__ import annotations

import copy
import csv
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cardlab.club.access import read_tables
from cardlab.club.bws import ARBITRAL, read_bws, session_from_rows
from cardlab.club.files import load_any
from cardlab.cli.main import main
from cardlab.errors import ResultFileError
from cardlab.scoring.document import Movement
from cardlab.scoring.traveller import AdjustedScore

pytest.importorskip("access_parser")

SAMPLE = Path(__file__).parent / "data" / "12tables1section.bws"
TABLES = ("Section", "Tables", "RoundData", "ReceivedData", "PlayerNumbers")


@pytest.fixture(scope="module")
def session():
    return read_bws(SAMPLE)


@pytest.fixture(scope="module")
def rows():
    return read_tables(SAMPLE.read_bytes(), TABLES, "s.bws")


def test_sample_shape(session):
    """12 tables, 12 rounds, 288 results, one section A, 2 boards a round, 24 boards."""
    assert dict(session.sections) == {1: "A"}
    assert session.tables == tuple((1, t) for t in range(1, 13))
    assert sorted({r.round for r in session.rounds}) == list(range(1, 13))
    assert len(session.rounds) == 144 and len(session.scores) == 288
    assert not any(s.erased for s in session.scores)
    assert {r.boards for r in session.rounds} == {(b, b + 1) for b in range(1, 25, 2)}
    doc = session.results()
    assert (len(doc.lines), len({x.board for x in doc.lines})) == (288, 24)
    assert doc.format == "bws" and doc.date == "2005-05-09"
    # the player tables are present but empty (48 PlayerNumbers rows with no number or name)
    assert session.players == {} and doc.names == {}


def test_fields_as_the_developer_guide_defines_them(session, rows):
    """Contract 't c x' or PASS, Result -13..=..+6 (blank for PASS and arbitral scores),
    NS/EW the declarer's seat, PairNS/PairEW the movement's pairs at that table and round."""
    for score in session.scores:
        if score.remarks:
            assert (score.contract, score.result) == ("", "")
            continue
        assert re.fullmatch(r"[1-7] (C|D|H|S|NT)( x| xx)?|PASS", score.contract), score
        if score.contract == "PASS":
            assert score.result == ""
        else:
            assert re.fullmatch(r"=|-([1-9]|1[0-3])|\+[1-6]", score.result), score
            assert score.seat in "NESW"
        row = session.round_row(1, score.table, score.round)
        assert (row.ns, row.ew) == (score.ns, score.ew) and score.board in row.boards
    # the raw Declarer column is the declaring pair's number: NS pair for N/S, EW for E/W, on
    # every row but one (ID 213: pair 7 NS, seat E), where the reader follows the seat
    disagree = [raw["ID"] for raw in rows["ReceivedData"]
                if raw["Contract"] and raw["Contract"] != "PASS"
                and raw["Declarer"] != (raw["PairNS"] if raw["NS/EW"] in "NS" else raw["PairEW"])]
    assert disagree == [213]


def test_two_arbitral_remarks(session):
    remarks = sorted((s.id, s.table, s.round, s.board, s.remarks) for s in session.scores
                     if s.remarks)
    assert remarks == [(153, 7, 7, 1, "40%-60%"), (155, 7, 7, 2, "60%-60%")]
    assert len(ARBITRAL) == 9 and "40%-60%" in ARBITRAL
    lines = {(x.board, x.ns): x for x in session.results().lines}
    assert lines[(1, "7")].score == AdjustedScore(40, 60)
    assert lines[(2, "7")].score == AdjustedScore(60, 60)
    result = session.results().score()
    board1 = next(b for b in result.boards if b.board == 1)
    adjusted = next(s for s in board1.lines if s.line.ns == "7")
    # 12 results, top 11 (ACBL): 40% and 60% of the top
    assert (adjusted.ns_points, adjusted.ew_points) == pytest.approx((4.4, 6.6))


def test_arrow_switched_rounds(session):
    """Rounds 11 and 12 seat the EW pairs (13-24) North-South: the arrows are switched, so the
    session is ranked as one field (a Howell-like ranking, which is what the switch is for)."""
    switched = sorted({r.round for r in session.rounds if r.ns > 12})
    assert switched == [11, 12]
    assert all(r.ew > 12 for r in session.rounds if r.round <= 10)
    assert not session.two_numberings
    assert session.results().movement is Movement.HOWELL


def test_board_3_matchpoints_by_hand(session):
    """Board 3 (dealer S, EW vulnerable), its 12 scores worked by hand (Law 77) and
    matchpoints counted by hand (ACBL: 1 per score beaten, 1/2 per tie; top 11)."""
    by_hand = {  # NS pair: (contract as stored, score by hand, NS matchpoints by hand)
        "8": ("5 D x =", 550, 11), "15": ("5 D = by S", 400, 10), "6": ("4 S -2 by E", 200, 9),
        "9": ("2 D +4", 170, 8), "7": ("2 D +3", 150, 6.5), "5": ("2 D +3", 150, 6.5),
        "2": ("2 D +2", 130, 4.5), "11": ("2 D +2", 130, 4.5), "10": ("3 S -1 by E", 100, 3),
        "17": ("4 D -1", -50, 2), "1": ("2 S = by E", -110, 1), "12": ("4 S x = by E", -790, 0),
    }
    board = next(b for b in session.results().score().boards if b.board == 3)
    got = {s.line.ns: (s.line.score, s.ns_points) for s in board.lines}
    assert got == {ns: (score, mp) for ns, (_, score, mp) in by_hand.items()}
    assert all(s.ns_points + s.ew_points == 11 for s in board.lines)


def test_same_rows_as_mdbtools(rows):
    """An independent reader (mdbtools' mdb-export, when installed) gives the same rows."""
    if shutil.which("mdb-export") is None:
        pytest.skip("mdbtools not installed")
    for name in ("RoundData", "ReceivedData", "PlayerNumbers"):
        out = subprocess.run(["mdb-export", str(SAMPLE), name], capture_output=True, text=True,
                             check=True).stdout
        theirs = list(csv.DictReader(io.StringIO(out)))
        assert len(theirs) == len(rows[name])
        for ours, row in zip(rows[name], theirs):
            for key, value in row.items():
                if key not in ("DateLog", "TimeLog"):
                    mine = ours[key]
                    shown = "" if mine is None else str(int(mine) if isinstance(mine, bool) else mine)
                    assert shown == value, (name, key)


def _broken(rows, table, index, **changes):
    tables = copy.deepcopy(rows)
    if index is None:
        del tables[table]
    else:
        tables[table][index].update(changes)
    return tables


def _received(rows, ident):
    return next(i for i, r in enumerate(rows["ReceivedData"]) if r["ID"] == ident)


@pytest.mark.parametrize("table, change, message", [
    ("ReceivedData", {"Board": 9}, "ReceivedData ID 1 (section A table 4 round 1 board 9): "
                                   "this table played boards 7-8 in that round, not this one"),
    ("ReceivedData", {"PairEW": 17}, "pairs NS 4 and EW 17, but the movement seats NS 4 and EW 16"),
    ("ReceivedData", {"Result": "+7"}, "result '+7' on 3H would be 16 tricks (at most 13)"),
    ("ReceivedData", {"Contract": "8 H"}, "ReceivedData ID 1"),
    ("ReceivedData", {"Remarks": "Arbitral score", "Contract": None, "Result": None},
     "remark 'Arbitral score' without a score"),
    ("ReceivedData", {"LeadCard": "Z9"}, "lead card 'Z9' is not a suit and a rank"),
    ("ReceivedData", {"Round": 13}, "the movement (RoundData) has no such table and round"),
    ("Section", {"Letter": "AB"}, "letter 'AB' is not A-Z, AA-ZZ or AAA-ZZZ"),
    ("RoundData", {"NSPair": 2}, "NS pair 2 sits at tables"),
])
def test_impossible_rows_are_named(rows, table, change, message):
    index = _received(rows, 1) if table == "ReceivedData" else 0
    with pytest.raises(ResultFileError) as error:
        session_from_rows(_broken(rows, table, index, **change), "s.bws").results()
    assert message in str(error.value) and str(error.value).startswith("s.bws: ")
    assert "\n" not in str(error.value)


def test_missing_table_and_missing_table_row(rows):
    with pytest.raises(ResultFileError, match="s.bws: the database has no RoundData table"):
        session_from_rows(_broken(rows, "RoundData", None), "s.bws")
    tables = copy.deepcopy(rows)
    tables["Tables"] = [t for t in tables["Tables"] if t["Table"] != 5]
    with pytest.raises(ResultFileError, match="has 12 tables but the Tables table has no table 5"):
        session_from_rows(tables, "s.bws")
    tables = copy.deepcopy(rows)
    tables["RoundData"] = [r for r in tables["RoundData"] if (r["Table"], r["Round"]) != (3, 4)]
    with pytest.raises(ResultFileError, match="round 4 has no row for table 3"):
        session_from_rows(tables, "s.bws")


def test_remarks_mean_what_they_say(rows):
    """'Not played' drops the line, 'Wrong direction' swaps the pairs, an erased row is
    ignored (and a corrected score may then take its place)."""
    index = _received(rows, 1)  # table 4 round 1 board 7: NS 4, EW 16, 3H-1 by S
    base = {(x.board, x.ns, x.ew) for x in session_from_rows(rows, "s").results().lines}
    not_played = session_from_rows(_broken(rows, "ReceivedData", index, Remarks="Not played",
                                           Contract=None, Result=None), "s").results()
    assert len(not_played.lines) == 287 and (7, "4", "16") not in {
        (x.board, x.ns, x.ew) for x in not_played.lines}
    wrong = session_from_rows(_broken(rows, "ReceivedData", index, Remarks="Wrong direction"),
                              "s").results()
    swapped = {(x.board, x.ns, x.ew) for x in wrong.lines}
    assert (7, "16", "4") in swapped and swapped - {(7, "16", "4")} == base - {(7, "4", "16")}
    erased = _broken(rows, "ReceivedData", index, Erased=True)
    assert len(session_from_rows(erased, "s").results().lines) == 287
    again = copy.deepcopy(rows)
    again["ReceivedData"].append(dict(again["ReceivedData"][index], ID=999, Result="="))
    with pytest.raises(ResultFileError, match="scored twice at this table"):
        session_from_rows(again, "s").results()
    again["ReceivedData"][index]["Erased"] = True
    fixed = session_from_rows(again, "s").results()
    line = next(x for x in fixed.lines if (x.board, x.ns) == (7, "4"))
    assert line.tricks == 9 and line.score == 140  # 3H= by S: 90 + 50 for a part score


def test_cut_short_and_not_a_database(tmp_path):
    data = SAMPLE.read_bytes()
    for cut in (1000, len(data) - 100, 20480):
        with pytest.raises(ResultFileError) as error:
            read_bws(data[:cut], source="cut.bws")
        assert str(error.value).startswith("cut.bws: ") and "\n" not in str(error.value)
        assert "cut short" in str(error.value)
    with pytest.raises(ResultFileError, match="not an Access database"):
        read_bws(b"PK\x03\x04" + b"\x00" * 4092, source="x.bws")


def test_cli_scores_a_bws(tmp_path, capsys):
    assert main(["bridge", "score", str(SAMPLE), "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert "12" in out.splitlines()[1]  # the winner, pair 12 (62.52%)
    cut = tmp_path / "cut.bws"
    cut.write_bytes(SAMPLE.read_bytes()[:5000])
    assert main(["bridge", "score", str(cut)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cut.bws: the database is cut short" in err


def test_load_any_reads_both(tmp_path):
    assert load_any(SAMPLE).format == "bws"
    best = load_any(SAMPLE).score().pairs[0]
    assert (best.key, round(best.percentage, 2)) == ((None, "12"), 62.52)


def test_missing_reader_library_is_one_line(monkeypatch, capsys):
    """Without the club extra, one line names the install command."""
    import sys

    monkeypatch.setitem(sys.modules, "access_parser", None)
    with pytest.raises(ResultFileError, match=r"needs the access-parser package: "
                                              r"pip install 'cardlab\[club\]'"):
        read_bws(SAMPLE)
    assert main(["bridge", "score", str(SAMPLE)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'cardlab[club]'" in err
