"""Property tests for :func:`load_results`: whatever bytes a user gives (CSV-like, PBN-like,
XML-like or junk), reading and scoring either succeed or raise a CardlabError."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.errors import CardlabError
from cardlab.scoring import load_results

CELLS = ["1", "2", "3", "", "4S", "PASS", "Pass", "3NT", "N", "E", "10", "9", "A6040", "420",
         "PHANTOM", "1NS", "x", "-"]
CSV_ROW = st.lists(st.sampled_from(CELLS), min_size=7, max_size=7).map(",".join)
CSV = st.lists(CSV_ROW, max_size=8).map(
    lambda rows: "board,ns,ew,contract,declarer,tricks,score\n" + "\n".join(rows))
PBN_TAG = st.tuples(st.sampled_from(["Board", "Contract", "Declarer", "Result", "North",
                                     "South", "East", "West", "PairId_NS", "PairId_EW",
                                     "Scoring", "ScoreTable"]),
                    st.sampled_from(CELLS + ["#", "PairId_NS;PairId_EW;Contract"])).map(
    lambda t: f'[{t[0]} "{t[1]}"]')
PBN = st.lists(st.one_of(PBN_TAG, CSV_ROW.map(lambda r: r.replace(",", " ")), st.just("")),
               max_size=14).map(lambda lines: "% PBN 2.1\n" + "\n".join(lines))
XML = st.lists(st.sampled_from(["<USEBIO>", "</USEBIO>", "<EVENT>", "</EVENT>", "<BOARD>",
                                "</BOARD>", "<BOARD_NUMBER>1</BOARD_NUMBER>", "<TRAVELLER_LINE>",
                                "</TRAVELLER_LINE>", "<NS_PAIR_NUMBER>1NS</NS_PAIR_NUMBER>",
                                "<EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>", "<CONTRACT>PASS</CONTRACT>",
                                "<TRICKS/>", "<SCORE>420</SCORE>", "<PLAYED_BY>N</PLAYED_BY>"]),
               max_size=16).map("".join)


@settings(max_examples=250, deadline=None)
@given(st.one_of(CSV, PBN, XML, st.text(max_size=80)).map(lambda t: t.encode()) | st.binary(
    max_size=60))
def test_any_input_reads_or_fails_cleanly(data: bytes) -> None:
    try:
        doc = load_results(data, source="f")
        result = doc.score()
        result.to_dict()
        result.table()
    except CardlabError:
        pass
