"""Sessions: Mitchell and Howell fields, Neuberg, adjusted scores, places, cross-IMPs, Butler.

Every expected number below is worked by hand in the comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.scoring.csv_travellers import read_travellers, write_travellers
from cardlab.scoring.session import Movement, detect_movement, score_session
from cardlab.scoring.traveller import AdjustedScore, TravellerLine as T
from cardlab.errors import ContractError, ResultFileError, ScoringError

DATA = Path(__file__).parent / "data"


def _pct(result, direction, pair):  # type: ignore[no-untyped-def]
    for p in result.pairs:
        if p.direction == direction and p.pair == pair:
            return round(p.percentage, 2), p.place, p.boards, round(p.total, 4)
    raise AssertionError((direction, pair))


def test_mitchell_fixture_by_hand() -> None:
    # tests/data/mitchell.csv: 3-table Mitchell, 6 boards, ACBL units, N = 3, top 2.
    # b1 (None): 450 NS3 (2), 430 NS2 (1), 420 NS1 (0)
    # b2 (NS):   110 NS3 (2), 100 NS2 (1), 50 NS1 (0)
    # b3 (EW):   -500 NS1 (2), -650 NS3 (1), -790 NS2 (0)
    # b4 (All):  NS1 v EW3 A6040 -> 1.2 / 0.8; real 90 (NS3) and -100 (NS2), n = 2 -> Neuberg
    #            (M + 1/2) * 3/2 - 1/2: 90 -> 1.75, -100 -> 0.25 (EW 0.25 and 1.75)
    # b5 (NS):   140 NS2 (2), 0 NS3 passed out (1), -110 NS1 (0)
    # b6 (EW):   played twice: 200 NS2 -> 1.75, -600 NS3 -> 0.25
    # NS1: 0+0+2+1.2+0 = 3.2 over 5 boards -> 3.2/10 = 32%;   NS2: 1+1+0+.25+2+1.75 = 6 -> 50%;
    # NS3: 2+2+1+1.75+1+.25 = 8 -> 66.67%.
    # EW1 (v NS1 b1-2, NS3 b3-4, NS2 b5-6): 2+2+1+.25+0+.25 = 5.5 -> 45.83%
    # EW2 (v NS3 b1-2, NS2 b3-4, NS1 b5):   0+0+2+1.75+2 = 5.75 over 5 -> 57.5%
    # EW3 (v NS2 b1-2, NS1 b3-4, NS3 b5-6): 1+1+0+.8+1+1.75 = 5.55 -> 46.25%
    lines = read_travellers((DATA / "mitchell.csv").read_text(), "mitchell.csv")
    assert detect_movement(lines) is Movement.MITCHELL
    result = score_session(lines)
    assert result.top == 2
    assert _pct(result, "NS", "1") == (32.0, "3", 5, 3.2)
    assert _pct(result, "NS", "2") == (50.0, "2", 6, 6.0)
    assert _pct(result, "NS", "3") == (66.67, "1", 6, 8.0)
    assert _pct(result, "EW", "1") == (45.83, "3", 6, 5.5)
    assert _pct(result, "EW", "2") == (57.5, "1", 5, 5.75)
    assert _pct(result, "EW", "3") == (46.25, "2", 6, 5.55)
    b4 = {(s.line.ns, s.line.ew): (s.ns_points, s.ew_points) for s in result.boards[3].lines}
    assert b4 == {("2", "2"): (0.25, 1.75), ("1", "3"): (1.2, 0.8), ("3", "1"): (1.75, 0.25)}
    # Every line hands out exactly the top: 17 lines x 2.
    assert sum(p.total for p in result.pairs) == pytest.approx(34.0)
    # EBU units: every figure doubles, percentages do not move.
    ebu = score_session(lines, scale="ebu")
    assert ebu.top == 4
    assert [p.percentage for p in ebu.pairs] == pytest.approx([p.percentage for p in result.pairs])


def test_howell_fixture_by_hand() -> None:
    # tests/data/howell.csv, 4 pairs, 3 boards each played twice (ACBL top 1):
    # b1: 1 v 2 4S= 420, 3 v 4 4S+1 450 -> pair 3 1, pair 4 0, pair 1 0, pair 2 1
    # b2: 1 v 3 2H-1 (NS vul, N declares) -100, 4 v 2 2S by E -1 (EW nv) +50 -> 4 1, 2 0, 1 0, 3 1
    # b3: 1 v 4 2NT= 120, 2 v 3 1NT+2 120 -> all 0.5
    # 1: 0.5/3 = 16.67%; 2: 1.5 -> 50%; 3: 2.5 -> 83.33%; 4: 1.5 -> 50%  (2 and 4 share "2=")
    lines = read_travellers((DATA / "howell.csv").read_text())
    assert detect_movement(lines) is Movement.HOWELL
    result = score_session(lines)
    got = [(p.pair, p.direction, round(p.percentage, 2), p.place) for p in result.pairs]
    assert got == [("3", None, 83.33, "1"), ("2", None, 50.0, "2="), ("4", None, 50.0, "2="),
                   ("1", None, 16.67, "4")]
    # Forcing a Mitchell makes two fields out of the same lines: NS 1 (0.5/3) is one pair,
    # EW 2 (1 + 0 = 1 over 2 boards, 50%) another, second behind EW 3 (1 + 0.5 -> 75%).
    mitchell = score_session(lines, movement="mitchell")
    assert {p.direction for p in mitchell.pairs} == {"NS", "EW"}
    assert _pct(mitchell, "EW", "2")[:3] == (50.0, "2", 2)


def test_adjusted_scores_all_kinds() -> None:
    # One board, 5 lines (N = 5, ACBL top 4): three real scores 400, 420, 450 -> raw 0, 1, 2,
    # factored to 5: (M + 1/2) * 5/3 - 1/2 = 0.333, 2, 3.667.  Adjusted lines take no part:
    # A6040 -> 2.4 / 1.6; A5050 -> 2 / 2; a second board gives A6060 -> 2.4/2.4 and A4040 -> 1.6/1.6.
    lines = [
        T.make(1, "1", "1", contract="4H", declarer="N", tricks=10, score=420),
        T.make(1, "2", "2", contract="4H", declarer="N", tricks=11),
        T.make(1, "3", "3", contract="3NT", declarer="S", tricks=9),
        T.make(1, "4", "4", score="A6040"),
        T.make(1, "5", "5", score="A5050"),
        T.make(2, "4", "5", score="A6060"),
        T.make(2, "5", "4", score="A4040"),
    ]
    assert lines[1].score == 450 and lines[2].score == 400
    result = score_session(lines)
    assert result.top == 4
    pts = {(s.line.board, s.line.ns): (round(s.ns_points, 3), round(s.ew_points, 3))
           for b in result.boards for s in b.lines}
    assert pts[(1, "1")] == (2.0, 2.0)
    assert pts[(1, "2")] == (3.667, 0.333)
    assert pts[(1, "3")] == (0.333, 3.667)
    assert pts[(1, "4")] == (2.4, 1.6)
    assert pts[(1, "5")] == (2.0, 2.0)
    assert pts[(2, "4")] == (2.4, 2.4)
    assert pts[(2, "5")] == (1.6, 1.6)
    # NS 4: (2.4 + 2.4) / (2 x 4) = 60%.
    assert _pct(result, "NS", "4")[:2] == (60.0, "2")  # behind NS 2 (3.667/4 = 91.67%)
    assert str(AdjustedScore.parse("A6040")) == "A6040"


def test_cross_imps_session_by_hand() -> None:
    # Board 1: 620, 170, -100 -> NS 11, -1.5, -9.5 (see test_matchpoints); EW the negatives.
    # Board 2: 100 (NS 1 v EW 2), 100 (NS 2 v EW 3), A6040 (NS 3 v EW 1) -> 0, 0, +3 / -3.
    lines = [
        T.make(1, "1", "1", score=620), T.make(1, "2", "2", score=170),
        T.make(1, "3", "3", score=-100),
        T.make(2, "1", "2", score=100), T.make(2, "2", "3", score=100),
        T.make(2, "3", "1", score="A6040"),
    ]
    result = score_session(lines, method="cross-imps")
    totals = {(p.direction, p.pair): (p.total, p.place, p.percentage) for p in result.pairs}
    # NS 1: 11 + 0 = 11; NS 2: -1.5 + 0; NS 3: -9.5 + 3 = -6.5; EW 1: -11 - 3 = -14;
    # EW 2: 1.5 + 0; EW 3: 9.5 + 0.
    assert totals[("NS", "1")] == (11.0, "1", None)
    assert totals[("NS", "2")] == (-1.5, "2", None)
    assert totals[("NS", "3")] == (-6.5, "3", None)
    assert totals[("EW", "1")] == (-14.0, "3", None)
    assert totals[("EW", "2")] == (1.5, "2", None)
    assert totals[("EW", "3")] == (9.5, "1", None)
    assert result.top is None


def test_butler_session_by_hand() -> None:
    # Board 1: 620, 170, 140, -100 -> datum 160 -> NS 10, 0, -1, -6.
    lines = [T.make(1, str(i), str(i), score=s) for i, s in enumerate([620, 170, 140, -100], 1)]
    result = score_session(lines, method="butler")
    assert result.boards[0].datum == 160
    assert [s.ns_points for s in result.boards[0].lines] == [10, 0, -1, -6]
    assert [s.ew_points for s in result.boards[0].lines] == [-10, 0, 1, 6]
    assert [(p.direction, p.pair, p.total) for p in result.pairs][:2] == [
        ("NS", "1", 10.0), ("NS", "2", 0.0)]


def test_pair_twice_on_a_board() -> None:
    lines = [T.make(1, "1", "1", score=100, source_line=2),
             T.make(1, "1", "2", score=200, source_line=5)]
    with pytest.raises(ResultFileError, match="line 5: pair NS 1 appears twice on board 1 "
                                              r"\(first on line 2\)"):
        score_session(lines)
    # Accepted on request: the second line counts as one more board for NS 1.
    result = score_session(lines, allow_repeated_pairs=True)
    assert _pct(result, "NS", "1")[2] == 2
    # Howell: a pair cannot meet itself, nor play a board in both directions.
    with pytest.raises(ScoringError, match="pair 3 plays against itself on board 1"):
        score_session([T.make(1, "3", "3", score=0), T.make(1, "1", "2", score=0)],
                      movement="howell")
    with pytest.raises(ScoringError, match="pair 2 appears twice on board 1"):
        score_session([T.make(1, "1", "2", score=0), T.make(1, "2", "3", score=0)],
                      movement="howell")


def test_bad_lines() -> None:
    with pytest.raises(ScoringError, match="contradicts 3NT= by N on board 1"):
        T.make(1, "1", "1", contract="3NT", declarer="N", tricks=9, score=600)
    with pytest.raises(ContractError, match="declarer must be N, E, S or W, not 'X'"):
        T.make(1, "1", "1", contract="3NT", declarer="X", tricks=9)
    with pytest.raises(ScoringError, match="not '14'"):
        T.make(1, "1", "1", contract="3NT", declarer="N", tricks="14")
    with pytest.raises(ScoringError, match="needs a declarer"):
        T.make(1, "1", "1", contract="3NT", tricks=9)
    with pytest.raises(ScoringError, match="needs tricks or a result"):
        T.make(1, "1", "1", contract="3NT", declarer="N")
    with pytest.raises(ScoringError, match="disagree"):
        T.make(1, "1", "1", contract="3NT", declarer="N", tricks=9, result="+1")
    with pytest.raises(ScoringError, match="without a contract"):
        T.make(1, "1", "1", declarer="N", score="A6040")
    with pytest.raises(ScoringError, match="impossible bridge score 425"):
        T.make(1, "1", "1", score=425)
    with pytest.raises(ScoringError, match="board number"):
        T.make(0, "1", "1", score=420)
    with pytest.raises(ScoringError, match="every board was played only once"):
        score_session([T.make(1, "1", "1", score=100)])
    with pytest.raises(ScoringError, match="no traveller lines"):
        score_session([])
    with pytest.raises(ScoringError, match="unknown movement"):
        score_session([T.make(1, "1", "1", score=100)], movement="skip")
    with pytest.raises(ScoringError, match="unknown scoring method"):
        score_session([T.make(1, "1", "1", score=100)], method="imps")


def test_csv_round_trip() -> None:
    lines = read_travellers((DATA / "mitchell.csv").read_text())
    again = read_travellers(write_travellers(lines))
    assert again == lines
    assert score_session(again).pairs == score_session(lines).pairs


@pytest.mark.parametrize(
    "body, message",
    [
        ("1,1,1,4Q,N,10,", "line 2: unknown contract '4Q'"),
        ("1,1,1,4S,Z,10,", "line 2: declarer must be N, E, S or W, not 'Z'"),
        ("1,1,1,4S,N,14,", "line 2: tricks must be a whole number from 0 to 13, not '14'"),
        ("1,1,1,4S,N,10,450", "line 2: score 450 contradicts 4S= by N on board 1"),
        ("1,1,1,4S,N,10", "line 2: expected 7 fields, found 6"),
        ("x,1,1,4S,N,10,", "line 2: board number must be"),
        ("1,1,1,4S,N,10,A604", "line 2: unknown adjusted score 'A604'"),
        ('1,1,1,"4S,N,10,', "malformed CSV|expected 7 fields"),
    ],
)
def test_bad_csv_lines(body: str, message: str) -> None:
    text = "board,ns,ew,contract,declarer,tricks,score\n" + body + "\n"
    with pytest.raises(ResultFileError, match=message):
        read_travellers(text)


def test_bad_csv_header() -> None:
    with pytest.raises(ResultFileError, match="line 1: unknown column 'table'"):
        read_travellers("board,table,ns,ew,contract,declarer,tricks,score\n")
    with pytest.raises(ResultFileError, match="header lacks contract"):
        read_travellers("board,ns,ew,declarer,tricks\n1,1,1,,\n")
    with pytest.raises(ResultFileError, match="header lacks tricks or result"):
        read_travellers("board,ns,ew,contract,declarer,score\n")
    with pytest.raises(ResultFileError, match="empty file"):
        read_travellers("\n\n")
    with pytest.raises(ResultFileError, match="no traveller lines"):
        read_travellers("board,ns,ew,contract,declarer,tricks,score\n")
