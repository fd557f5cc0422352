"""Real result files and the figures the scoring program published for them (issue 19: real
fixtures; issue 18: PBN ``Scoring "IMP"`` is read, the IMP-pairs rule is stated, ``--check``
says whether the file's figures follow it).

Sources (repository, path, commit) are in ``tests/data/SOURCES.md``.  The published figures
below were typed from JFR Pary's own travellers (HTML pages it generated, kept beside the PBN
files in the same repository); each test checks cardlab against them and against a second,
independent route written here (a median and an IMP-table lookup, a pair-by-pair count).
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from cardlab.cli.main import main
from cardlab.scoring import Method, load_results

DATA = Path(__file__).parent / "data"
IMP_GAMES = DATA / "pary-imp-szczyrk.pbn"
IMP_TABLE = DATA / "pary-imp-scoretable.pbn"
MP_GAMES = DATA / "pary-mp-wb120802.pbn"

# JFR Pary 4.1.0.23, "MFB, MP AZS - impy" (8 Nov 2013), traveller of board 1 (impy001.txt):
# (NS pair, EW pair, NS score, NS IMPs); its printed datum ("srednia rozdania") is 50.
PARY_IMP_BOARD1 = [
    (11, 16, 120, 2), (12, 18, 50, 0), (13, 20, 180, 4), (14, 17, 100, 2), (15, 19, -140, -5),
    (21, 26, 180, 4), (22, 28, 120, 2), (23, 30, -140, -5), (24, 27, -110, -4), (25, 29, -50, -3),
    (31, 36, 150, 3), (32, 38, 100, 2), (33, 40, 110, 2), (34, 37, -420, -10), (35, 39, 120, 2),
    (41, 46, -140, -5), (42, 48, 90, 1), (43, 50, -170, -6), (44, 47, 50, 0), (45, 49, -100, -4),
    (51, 56, 90, 1), (52, 58, -140, -5), (53, 60, 110, 2), (54, 57, 50, 0), (55, 59, 110, 2),
    (61, 66, 90, 1), (62, 68, 50, 0), (63, 70, 110, 2), (64, 67, -170, -6), (65, 69, 120, 2),
    (86, 76, 150, 3), (72, 78, -170, -6), (73, 80, -90, -4), (74, 77, -130, -5), (75, 79, -170, -6),
    (82, 88, -140, -5), (83, 90, -420, -10), (84, 87, 110, 2), (85, 89, -170, -6)]
# Its printed datums of boards 1, 2 and 3 (impy001.txt .. impy003.txt).
PARY_DATUMS = {1: 50, 2: 50, 3: 460}

# JFR Pary 4.1.0.23, "Turniej Par - Barometr Warszawa", 2 Aug 2012, travellers of boards 1 and 2
# (wb120802001.html, wb120802002.html): (NS pair, EW pair, NS score, NS %).  Both boards also
# list a director's line (pairs 17-18, 60% / 0%) that the PBN game records do not carry.
PARY_MP = {
    1: [(1, 2, -50, 85.71), (3, 4, -100, 50.0), (5, 6, -100, 50.0), (7, 8, -140, 28.57),
        (9, 10, -50, 85.71), (11, 12, -150, 7.14), (13, 14, -150, 7.14), (15, 16, -50, 85.71)],
    2: [(1, 2, 100, 71.43), (3, 4, -200, 42.86), (5, 6, 140, 85.71), (7, 8, 50, 57.14),
        (9, 10, -690, 0.0), (11, 12, -590, 21.43), (13, 14, -590, 21.43), (15, 16, 500, 100.0)],
}

# WBF IMP scale (Laws of Duplicate Bridge 2017, Law 78B): the lower bound of each IMP step.
WBF_STEPS = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000]


def _imps(difference: int) -> int:
    gained = sum(1 for bound in WBF_STEPS if abs(difference) >= bound)
    return gained if difference >= 0 else -gained


def _pair_number(doc, key) -> int:  # type: ignore[no-untyped-def]
    """The pair number in the players' names ``Para-N`` (the PBN game records name pairs so)."""
    return int(doc.names[key][0].split("-")[1])


def test_pbn_scoring_imp_is_read_with_the_stated_rule() -> None:
    doc = load_results(IMP_GAMES)
    assert (doc.format, doc.event_type, doc.method, doc.assumed_method) == (
        "pbn", "IMP", None, Method.MEDIAN_IMPS)
    assert len(doc.lines) == 116 and sorted({l.board for l in doc.lines}) == [1, 2, 3]
    result = doc.score()
    assert result.method is Method.MEDIAN_IMPS
    assert {b.board: b.datum for b in result.boards} == PARY_DATUMS


def test_every_line_of_board_1_gets_the_imps_jfr_pary_published() -> None:
    doc = load_results(IMP_GAMES)
    result = doc.score()
    board = next(b for b in result.boards if b.board == 1)
    ours = sorted((_pair_number(doc, (None, s.line.ns)), _pair_number(doc, (None, s.line.ew)),
                   s.line.score, s.ns_points) for s in board.lines)
    assert ours == sorted(PARY_IMP_BOARD1)
    # second route: the median of the scores and the WBF table, written here
    scores = [s for _, _, s, _ in PARY_IMP_BOARD1]
    datum = statistics.median(scores)
    assert datum == 50
    assert [_imps(s - int(datum)) for s in scores] == [i for *_, i in PARY_IMP_BOARD1]


def test_the_datum_with_an_even_number_of_results_is_the_mean_of_the_middle_two() -> None:
    doc = load_results(IMP_GAMES)
    scores = sorted(l.score for l in doc.lines if l.board == 3)  # type: ignore[type-var]
    assert len(scores) == 38 and (scores[18], scores[19]) == (460, 460)
    board3 = next(b for b in doc.score().boards if b.board == 3)
    assert board3.datum == PARY_DATUMS[3]


def test_method_chooses_another_imp_rule(capsys: pytest.CaptureFixture[str]) -> None:
    doc = load_results(IMP_GAMES)
    butler = doc.score(method="butler")
    board1 = next(b for b in butler.boards if b.board == 1)
    scores = sorted(s for _, _, s, _ in PARY_IMP_BOARD1)
    trimmed = sum(scores[1:-1]) / (len(scores) - 2)        # Butler: drop the top and bottom
    assert board1.datum == int(round(trimmed / 10.0)) * 10 == -10
    assert main(["bridge", "score", str(IMP_GAMES), "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert "does not say how pairs are IMPed: scoring by median-imps" in captured.err
    assert main(["bridge", "score", str(IMP_GAMES), "--method", "butler", "--format", "csv"]) == 0
    assert capsys.readouterr().err == ""


def test_check_says_the_file_follows_the_assumed_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "score", str(IMP_TABLE), "--check"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "pary-imp-scoretable.pbn: no differences (116 lines, 78 pairs checked)\n"
    assert "cardlab: note: Scoring 'IMP': the file's figures follow median-imps" in captured.err


def test_check_says_which_rule_the_figures_follow_when_another_is_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "score", str(IMP_TABLE), "--check", "--method", "butler"]) == 1
    captured = capsys.readouterr()
    assert ("Scoring 'IMP': the file's figures follow median-imps (IMPs v median), not butler: "
            "give --method median-imps") in captured.err
    assert captured.err.strip().endswith("pary-imp-scoretable.pbn: 89 difference(s)")
    doc = load_results(IMP_TABLE)
    report = doc.check(doc.score(method="cross-imps"))
    assert not report.ok and "follow median-imps" in report.notes[-1]


def test_a_pbn_without_figures_cannot_be_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bridge", "score", str(IMP_GAMES), "--check"]) == 2
    assert capsys.readouterr().err.startswith(
        "cardlab: error: the file reports no figures to check")


def test_matchpoints_of_a_real_barometer_match_jfr_pary() -> None:
    doc = load_results(MP_GAMES)
    assert (doc.event_type, doc.method, len(doc.lines)) == ("MP", Method.MP, 16)
    result = doc.score(scale="acbl")
    for board in result.boards:
        ours = sorted((_pair_number(doc, (None, s.line.ns)), _pair_number(doc, (None, s.line.ew)),
                       s.line.score, round(100 * s.ns_points / board.top, 2))  # type: ignore[operator]
                      for s in board.lines)
        assert ours == sorted(PARY_MP[board.board])
        # second route: count, for each score, the scores it beats and ties
        scores = [s for _, _, s, _ in PARY_MP[board.board]]
        brute = [round(100 * (sum(o < s for o in scores) + 0.5 * (scores.count(s) - 1))
                       / (len(scores) - 1), 2) for s in scores]
        assert brute == [p for *_, p in PARY_MP[board.board]]


@pytest.mark.parametrize("path", [IMP_GAMES, IMP_TABLE, MP_GAMES])
def test_real_files_are_read_with_their_crlf_line_ends(path: Path) -> None:
    raw = path.read_bytes()
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    assert load_results(raw, source=path.name).lines == load_results(
        raw.replace(b"\r\n", b"\n"), source=path.name).lines
