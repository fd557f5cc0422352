"""Issue 24: team PBN exports from RealBridge have no ``Room`` tag. The rooms are inferred from
what the file says (the two tables where two teams meet, the teams named the other way round),
said in a note, and the file is scored; a board played in one room only is named and left out.

``tests/data/realbridge-teams.pbn`` is three matches (tables 1/17, 6/12, 7/11) of endplay's
``tests/pbn/example2.pbn`` (see tests/data/SOURCES.md), games unchanged. Every table carries
RealBridge's own ``ScoreIMP``: the independent route for every board's IMPs."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from cardlab.cli.main import main
from cardlab.scoring.teams import load_teams

FILE = Path(__file__).parent / "data" / "realbridge-teams.pbn"


def _games(text: str) -> list[dict[str, str]]:
    return [dict(re.findall(r'^\[(\w+) "([^"]*)"\]', g, re.M)) for g in text.split("\n\n")
            if "[Board " in g]


def _score_imp() -> dict[tuple[int, str], int]:
    """RealBridge's IMPs to the NS team of each table, by (board, NS team)."""
    out = {}
    for tags in _games(FILE.read_text(encoding="utf-8")):
        match = re.fullmatch(r"NS (-?\d+) EW -?\d+", tags["ScoreIMP"])
        assert match and "Room" not in tags
        out[(int(tags["Board"]), tags["HomeTeam"])] = int(match.group(1))
    return out


def test_realbridge_rooms_inferred_and_scored(capsys: pytest.CaptureFixture[str]) -> None:
    result = load_teams(str(FILE))
    published = _score_imp()
    assert len(published) == 59  # 3 matches x 10 boards x 2 tables, one table short on board 20
    assert [(m.home, m.away, m.home_imps, m.away_imps, len(m.boards)) for m in result.matches] == [
        ("AUSTRIA", "DENMARK", 20, 16, 10), ("TURKEY", "SWITZERLAND", 7, 20, 9),
        ("WALES", "ITALY", 0, 0, 10)]
    checked = 0
    for m in result.matches:
        for b in m.boards:  # IMPs to the home team = ScoreIMP at its NS table, and minus at the other
            assert published[(b.board, m.home)] == b.imps == -published[(b.board, m.away)]
            checked += 1
    assert checked == 29
    # margins by hand from the published ScoreIMP: AUSTRIA +4 over 10 boards
    home = sum(v for (board, team), v in published.items() if team == "AUSTRIA")
    assert home == 4 and result.matches[0].home_imps - result.matches[0].away_imps == 4
    tau = (math.sqrt(5) - 1) / 2
    vp = 10 + 10 * (1 - tau ** (3 * 4 / (15 * math.sqrt(10)))) / (1 - tau ** 3)
    assert result.matches[0].home_vp == round(vp, 2) == 11.5
    assert result.notes[0].startswith("no Room tags: rooms inferred from the tables of 3 match(es)")
    assert "HomeTeam sits NS" in result.notes[0]
    assert result.notes[1] == ("board 20 of TURKEY v SWITZERLAND was played in one room only "
                               "(the other room has no result): not scored")
    # the WALES v ITALY tables are played by "Dummy" players who pass every board: said
    assert result.notes[2] == "WALES v ITALY: every board (10) passed out in both rooms; scored as a 0-0 draw"
    assert len(result.notes) == 3
    assert main(["bridge", "teams", str(FILE)]) == 0
    captured = capsys.readouterr()
    assert "AUSTRIA   20 - 16   DENMARK" in captured.out
    assert "cardlab: note: board 20 of TURKEY v SWITZERLAND was played in one room only" in captured.err


def test_realbridge_same_orientation_first_table_is_open(tmp_path: Path) -> None:
    """Both tables of a match naming the teams the same way (HomeTeam the match's home team, not
    the NS team): the first table is the open room. Renaming table 7's teams so (the seats are
    the same) scores the same match."""
    text = FILE.read_text(encoding="utf-8")
    games = text.split("\n\n")
    edited = [g.replace('[HomeTeam "DENMARK"]', '[HomeTeam "@"]').replace(
        '[VisitTeam "AUSTRIA"]', '[VisitTeam "DENMARK"]').replace('[HomeTeam "@"]', '[HomeTeam "AUSTRIA"]')
        if '[Table "7"]' in g else g for g in games]
    assert edited != games
    path = tmp_path / "same.pbn"
    path.write_text("\n\n".join(edited), encoding="utf-8")
    result = load_teams(str(path))
    original = load_teams(str(FILE))
    assert [(m.home, m.away, [b.imps for b in m.boards]) for m in result.matches] == \
        [(m.home, m.away, [b.imps for b in m.boards]) for m in original.matches]
    assert any("1 match(es) every table names the teams the same way" in n for n in result.notes)
