"""USEBIO 1.2: the sample file reproduces exactly; export re-imports to the same numbers;
malformed or hostile XML is refused with its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.scoring.check import reported_differences
from cardlab.scoring.session import Movement, score_session
from cardlab.scoring.export import write_usebio
from cardlab.scoring.usebio import read_usebio
from cardlab.errors import ResultFileError

SAMPLE = Path(__file__).parent / "data" / "usebio-sample.xml"


def _score_sample(scale: str = "ebu"):  # type: ignore[no-untyped-def]
    doc = read_usebio(SAMPLE.read_bytes(), "usebio-sample.xml")
    # The made-up sample has EW pairs playing a board twice (board 1: EW 1 against NS 1 and
    # NS 3); its expected figures count each line as a board played, so allow that here.
    return doc, score_session(doc.lines, scale=scale, movement=doc.movement, names=doc.names,
                              allow_repeated_pairs=True)


def test_sample_reproduces_every_figure() -> None:
    doc, result = _score_sample()
    assert doc.movement is Movement.MITCHELL
    assert len(doc.lines) == 31 and result.top == 6
    # Every traveller line, to 2 decimals, in file order.
    ours = [(f"{s.ns_points:.2f}", f"{s.ew_points:.2f}")
            for s in sorted((s for b in result.boards for s in b.lines),
                            key=lambda s: s.line.source_line or 0)]
    assert ours == list(doc.reported.line_points)
    # Every pair: PERCENTAGE, PLACE, TOTAL_SCORE (= pct x most boards in field x top / 100).
    for pair in result.pairs:
        stated = doc.reported.pairs[pair.key]
        assert f"{pair.percentage:.2f}" == stated["PERCENTAGE"]
        assert pair.place == stated["PLACE"]
        total = pair.percentage * result.most_boards(pair.direction) * result.top / 100
        assert f"{total:.2f}" == stated["TOTAL_SCORE"]
    assert reported_differences(result, doc.reported) == []
    # Spot figures worked by hand: board 3 is Neuberg-factored around the A6040 line
    # (650 -> (4 + 1) * 4/3 - 1 = 5.67), NS 2 missed board 5: 19.667 / (7 x 6) = 46.83%.
    ns2 = next(p for p in result.pairs if p.key == ("NS", "2"))
    assert ns2.boards == 7 and round(ns2.total, 3) == 19.667
    assert [p.names for p in result.pairs if p.key == ("EW", "4")] == [
        ("Player EW4a", "Player EW4b")]


def test_sample_is_refused_without_permission_for_repeated_pairs() -> None:
    doc = read_usebio(SAMPLE.read_bytes(), "usebio-sample.xml")
    with pytest.raises(ResultFileError, match="line 106: pair EW 1 appears twice on board 1"):
        score_session(doc.lines, scale="ebu", movement=doc.movement)


def test_acbl_units_same_percentages() -> None:
    _, ebu = _score_sample("ebu")
    _, acbl = _score_sample("acbl")
    assert acbl.top == 3
    assert [round(p.percentage, 9) for p in acbl.pairs] == [
        round(p.percentage, 9) for p in ebu.pairs]


def test_export_reimports_to_the_same_numbers() -> None:
    _, result = _score_sample()
    text = write_usebio(result, club="Example Bridge Club", date="29/11/2026")
    again = read_usebio(text, "export.xml")
    assert again.movement is Movement.MITCHELL
    assert again.lines == tuple(s.line for b in result.boards for s in b.lines)
    rescored = score_session(again.lines, scale="ebu", movement=again.movement,
                             names=again.names, allow_repeated_pairs=True)
    assert rescored.pairs == result.pairs
    assert reported_differences(rescored, again.reported) == []
    assert again.club == "Example Bridge Club" and again.title == result.title


def test_check_lists_every_difference() -> None:
    text = SAMPLE.read_text()
    text = text.replace("<PERCENTAGE>63.75</PERCENTAGE>", "<PERCENTAGE>63.70</PERCENTAGE>")
    text = text.replace("<NS_MATCH_POINTS>5.67</NS_MATCH_POINTS>",
                        "<NS_MATCH_POINTS>5.00</NS_MATCH_POINTS>", 1)
    text = text.replace("<PLACE>3</PLACE>", "<PLACE>3=</PLACE>", 1)
    doc = read_usebio(text)
    result = score_session(doc.lines, scale="ebu", movement=doc.movement,
                           allow_repeated_pairs=True)
    # File order: PARTICIPANTS (EW pairs are listed first in the sample), then the boards.
    assert reported_differences(result, doc.reported, doc.lines) == [
        "pair EW 3: PLACE file 3=, ours 3",
        "pair NS 4: PERCENTAGE file 63.70, ours 63.75",
        "board 3, NS 2 v EW 2: file NS 5.00 EW 0.33, ours NS 5.67 EW 0.33",
    ]


def _board(body: str) -> str:
    return ("<USEBIO><EVENT><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n<TRAVELLER_LINE>\n"
            f"{body}\n</TRAVELLER_LINE></BOARD></EVENT></USEBIO>")


@pytest.mark.parametrize(
    "body, message",
    [
        ("<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>"
         "<CONTRACT>4Q</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS>",
         "line 2: unknown contract '4Q'"),
        ("<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>"
         "<CONTRACT>4S</CONTRACT><PLAYED_BY>Q</PLAYED_BY><TRICKS>10</TRICKS>",
         "line 2: declarer must be N, E, S or W"),
        ("<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>"
         "<CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>14</TRICKS>",
         "line 2: tricks must be a whole number from 0 to 13"),
        ("<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>"
         "<CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS><SCORE>620</SCORE>",
         "line 2: score 620 contradicts 4S= by N on board 1"),
        ("<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><SCORE>620</SCORE>",
         "line 2: TRAVELLER_LINE has no EW_PAIR_NUMBER"),
        ("<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER><SCORE>1</SCORE",
         "line 4: malformed XML: not well-formed \\(invalid token\\) at column 0"),
    ],
)
def test_bad_xml_lines(body: str, message: str) -> None:
    with pytest.raises(ResultFileError, match=message):
        read_usebio(_board(body), "bad.xml")


def test_external_entities_are_refused() -> None:
    hostile = ('<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
               "\n<USEBIO><EVENT><EVENT_DESCRIPTION>&e;</EVENT_DESCRIPTION></EVENT></USEBIO>")
    with pytest.raises(ResultFileError, match="refused XML"):
        read_usebio(hostile)


def test_not_usebio() -> None:
    with pytest.raises(ResultFileError, match="not a USEBIO file"):
        read_usebio("<html/>")
    with pytest.raises(ResultFileError, match="no TRAVELLER_LINE"):
        read_usebio("<USEBIO><EVENT/></USEBIO>")
    with pytest.raises(ResultFileError, match="line 2: TRAVELLER_LINE outside a BOARD"):
        read_usebio("<USEBIO><EVENT><BOARD><BOARD_NUMBER>1</BOARD_NUMBER></BOARD>\n"
                    "<TRAVELLER_LINE/></EVENT></USEBIO>")
    with pytest.raises(ResultFileError, match="unknown WINNER_TYPE"):
        read_usebio("<USEBIO><EVENT><WINNER_TYPE>3</WINNER_TYPE></EVENT></USEBIO>")
