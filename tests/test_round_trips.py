"""Score -> export -> read back -> ``--check`` is clean for every pair of formats (issue 18:
a CSV scored in ACBL units and written as USEBIO or PBN used to give 23 differences on its own
``--check``), and ``--check`` tells conventions from differences (issue 18: tied places written
"3", totals that add board scores already rounded).

Exports write matchpoints in EBU units, the units USEBIO and PBN readers assume; a session scored
in ACBL units is converted exactly (EBU = 2 x ACBL, Neuberg included), so percentages and places
never change and the exported figures are exactly twice the ACBL ones.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardlab.cli.main import main
from cardlab.scoring import load_results
from cardlab.scoring.export import write_pbn, write_usebio

DATA = Path(__file__).parent / "data"
SOURCES = ["mitchell.csv", "howell.csv", "real-mp.xml", "real-cross-imp.xml", "real-butler.xml",
           "real-scoretable.pbn", "real-tables.pbn", "pary-imp-szczyrk.pbn",
           "pary-mp-wb120802.pbn"]
WRITERS = {"usebio": write_usebio, "pbn": write_pbn}


def _ranking(result):  # type: ignore[no-untyped-def]
    return sorted((p.direction or "", p.pair, None if p.percentage is None
                   else round(p.percentage, 6), p.place, p.boards) for p in result.pairs)


@pytest.mark.parametrize("target", ["usebio", "pbn"])
@pytest.mark.parametrize("source", SOURCES)
def test_export_reads_back_to_the_same_session_and_checks_clean(source: str, target: str) -> None:
    doc = load_results(DATA / source)
    result = doc.score()
    text = WRITERS[target](result, deals=dict(doc.deals))
    back = load_results(text.encode(), source=f"out.{target}")
    again = back.score()
    assert again.method is result.method
    report = back.check(again)
    assert report.ok, report.differences[:3]
    if not result.method.is_imps:
        assert _ranking(again) == _ranking(result)
        factor = again.scale.per_win / result.scale.per_win
        assert sorted(round(p.total, 6) for p in again.pairs) == \
            sorted(round(p.total * factor, 6) for p in result.pairs)
    else:
        assert sorted(round(p.total, 6) for p in again.pairs) == \
            sorted(round(p.total, 6) for p in result.pairs)


@pytest.mark.parametrize("chain", [("usebio", "pbn"), ("pbn", "usebio"), ("usebio", "usebio"),
                                   ("pbn", "pbn")])
@pytest.mark.parametrize("source", ["mitchell.csv", "real-mp.xml", "real-scoretable.pbn"])
def test_chains_of_exports_stay_clean(source: str, chain: tuple[str, str]) -> None:
    doc = load_results(DATA / source)
    first = doc.score()
    for step, target in enumerate(chain):
        text = WRITERS[target](doc.score(), deals=dict(doc.deals))
        doc = load_results(text.encode(), source=f"step{step}.{target}")
        assert doc.check(doc.score()).ok
    assert _ranking(doc.score()) == _ranking(first)


@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_the_issue_18_commands_now_check_clean(fmt: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # before: "out.usebio: 23 difference(s)" (ACBL figures read back as EBU)
    out = tmp_path / f"out.{fmt}"
    assert main(["bridge", "score", str(DATA / "mitchell.csv"), "--format", fmt,
                 "-o", str(out)]) == 0
    assert f"{fmt} figures are written in EBU units" in capsys.readouterr().err
    assert main(["bridge", "score", str(out), "--check"]) == 0
    assert capsys.readouterr().out == f"out.{fmt}: no differences (17 lines, 6 pairs checked)\n"
    # the ACBL figures doubled: board 1's top of 2 (3 results) is 4 in the file
    assert main(["bridge", "score", str(DATA / "mitchell.csv"), "--scale", "ebu", "--format",
                 fmt, "-o", str(tmp_path / "ebu")]) == 0
    assert capsys.readouterr().err == ""  # already in EBU units: no notice
    assert (tmp_path / "ebu").read_text() == out.read_text()


# Board 1 played four times (N = 4, EBU top 6), boards 2-4 three times with NS 1 bottom each
# time: raw 0 of 4, Neuberg (0 + 1)·4/3 − 1 = 1/3 each.  NS 1 total 6 + 3 × 1/3 = 7 exactly,
# 7 / (4 × 6) = 29.1667 %; a program that rounds each factored score to 2 decimals first
# prints 6 + 3 × 0.33 = 6.99 and 6.99 / 24 = 29.125 % -> 29.13.
NEUBERG_CSV = """board,ns,ew,contract,declarer,tricks,score
1,1,1,,,,420
1,2,2,,,,400
1,3,3,,,,-50
1,4,4,,,,-100
2,1,2,,,,-100
2,2,3,,,,100
2,3,4,,,,200
3,1,3,,,,-100
3,3,1,,,,100
3,4,2,,,,200
4,1,4,,,,-100
4,4,1,,,,100
4,2,3,,,,200
"""


def _usebio_with(total: str, percentage: str) -> bytes:
    result = load_results(NEUBERG_CSV.encode(), source="club.csv").score(scale="ebu")
    ns1 = next(p for p in result.pairs if p.key == ("NS", "1"))
    assert (round(ns1.total, 4), round(ns1.percentage or 0, 4)) == (7.0, 29.1667)
    text = write_usebio(result)
    block = re.search(r"<PAIR>\s*<PAIR_NUMBER>1NS</PAIR_NUMBER>.*?</PAIR>", text, re.S)
    assert block is not None and "<TOTAL_SCORE>7.00</TOTAL_SCORE>" in block.group(0)
    edited = block.group(0).replace("<TOTAL_SCORE>7.00</TOTAL_SCORE>",
                                    f"<TOTAL_SCORE>{total}</TOTAL_SCORE>")
    edited = edited.replace("<PERCENTAGE>29.17</PERCENTAGE>",
                            f"<PERCENTAGE>{percentage}</PERCENTAGE>")
    assert "0.33" in text  # the line figures are written to 2 decimals
    return text.replace(block.group(0), edited).encode()


def test_a_total_of_rounded_board_scores_is_a_note_not_a_difference(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = load_results(_usebio_with("6.99", "29.13"), source="rounded.xml")
    report = doc.check(doc.score())
    assert report.ok and report.differences == ()
    assert report.notes == (
        "pair NS 1: PERCENTAGE 29.13 follows from the board scores rounded to 2 decimals "
        "before adding (ours 29.17 unrounded)",
        "pair NS 1: TOTAL_SCORE 6.99 is the sum of the board scores rounded to 2 decimals "
        "before adding (ours 7.00 unrounded)")
    path = tmp_path / "rounded.xml"
    path.write_bytes(_usebio_with("6.99", "29.13"))
    assert main(["bridge", "score", str(path), "--check"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("rounded.xml: no differences")
    assert "cardlab: note: pair NS 1: TOTAL_SCORE 6.99 is the sum" in captured.err


def test_a_total_off_by_more_than_rounding_is_still_a_difference() -> None:
    doc = load_results(_usebio_with("6.97", "29.04"), source="wrong.xml")
    report = doc.check(doc.score())
    assert report.differences == (
        "pair NS 1: PERCENTAGE file 29.04, ours 29.17; TOTAL_SCORE file 6.97, ours 7.00",)
    assert report.notes == ()


TIES_CSV = """board,ns,ew,contract,declarer,tricks,score
1,1,1,,,,420
1,2,2,,,,420
1,3,3,,,,-50
2,1,2,,,,100
2,2,3,,,,100
2,3,1,,,,-100
"""


def _ties_file(place_of: dict[str, str], unmark_others: bool = True) -> bytes:
    result = load_results(TIES_CSV.encode(), source="ties.csv").score()
    # NS 1 and NS 2 tie for first, and so do EW 1 and EW 3 (ours "1=")
    assert {p.key: p.place for p in result.pairs} == {
        ("NS", "1"): "1=", ("NS", "2"): "1=", ("NS", "3"): "3", ("EW", "1"): "1=",
        ("EW", "3"): "1=", ("EW", "2"): "3"}
    text = write_usebio(result)
    if unmark_others:
        text = text.replace("<PLACE>1=</PLACE>", "<PLACE>1</PLACE>")
    for pair_id, place in place_of.items():
        text = re.sub(rf"(<PAIR_NUMBER>{pair_id}</PAIR_NUMBER>.*?<PLACE>)[^<]*(</PLACE>)",
                      rf"\g<1>{place}\g<2>", text, count=1, flags=re.S)
    return text.encode()


def test_a_tied_place_written_without_a_mark_agrees() -> None:
    # a program that marks no tie anywhere writes "1" for both pairs tied first
    doc = load_results(_ties_file({}), source="ties.xml")
    assert b"<PLACE>1=</PLACE>" not in _ties_file({}) and doc.check(doc.score()).ok
    marked = load_results(_ties_file({"1NS": "=1", "2NS": "1-2"}, unmark_others=False))
    assert marked.check(marked.score()).ok


def test_places_still_differ_by_number_or_by_a_tie_the_file_does_mark() -> None:
    doc = load_results(_ties_file({"1NS": "2"}), source="ties.xml")
    assert doc.check(doc.score()).differences == ("pair NS 1: PLACE file 2, ours 1=",)
    # this file marks ties ("1=" for the others) but writes NS 1 as untied: a difference
    doc = load_results(_ties_file({"1NS": "1"}, unmark_others=False), source="ties.xml")
    assert doc.check(doc.score()).differences == ("pair NS 1: PLACE file 1, ours 1=",)
