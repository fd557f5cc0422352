"""Levelled sets: exact counts per hand type, natural frequencies against cardlab's exact tables."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from cardlab.bridge.boardsets import Board, ScriptPart, deal_board_set
from cardlab.bridge.dealer import parse_script
from cardlab.bridge.levels import level_counts, parse_levels, script_levels
from cardlab.bridge.tables import joint_table, points_table
from cardlab.errors import ConstraintError

NT = """dealer north
nt = hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)
condition nt
"""
LEVELS = "major=hearts(north) >= 5 || spades(north) >= 5:50%,other:50%"


def _hcp(board: Board, seat: int) -> int:
    return sum(max(card // 4 - 8, 0) for card in range(52) if board.owner[card] == seat)


def _lengths(board: Board, seat: int) -> list[int]:
    return [sum(1 for c in range(52) if board.owner[c] == seat and c % 4 == suit) for suit in (3, 2, 1, 0)]


def _exact_nt_major() -> tuple[int, int]:
    """From the exact points x suit-lengths table: 15-17 balanced hands, and those with a 5-card major."""
    table = joint_table(by="suits").main
    balanced = {(3, 3, 3, 4), (2, 3, 4, 4), (2, 3, 3, 5)}
    hands = major = 0
    for (points, shape), count in zip(table.values, table.counts):
        lengths = tuple(int(x) for x in shape.split("-"))
        if 15 <= points <= 17 and tuple(sorted(lengths)) in balanced:
            hands += count
            if lengths[0] == 5 or lengths[1] == 5:
                major += count
    return major, hands


def test_natural_frequency_of_five_card_majors_is_exact() -> None:
    major, hands = _exact_nt_major()
    result = deal_board_set([ScriptPart(parse_script(NT, "nt.dlr"), NT, 8, parse_levels(LEVELS))], seed=1)
    (part,) = result.parts
    by_name = {level.name: level for level in part.levels}
    assert by_name["major"].natural == Fraction(major, hands)
    assert by_name["other"].natural == Fraction(hands - major, hands)
    assert hands == 30_897_212_184  # the 15-17 balanced count of the dealer tests (4.8656% of all hands)
    assert "exact" in result.summary()


def test_levelled_counts_equal_the_shares_exactly() -> None:
    levels = parse_levels("major=hearts(north) >= 5 || spades(north) >= 5:25%, flat=shape(north, any 4333):25%,"
                          " rest:50%")
    result = deal_board_set([ScriptPart(parse_script(NT, "nt.dlr"), NT, 40, levels)], seed=9, rotate=True,
                            shuffle=True)
    kinds = {"major": 0, "flat": 0, "rest": 0}
    for b in result.boards:
        seat = b.dealer.index
        lengths = _lengths(b, seat)
        assert 15 <= _hcp(b, seat) <= 17 and sorted(lengths) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5])
        kind = "major" if max(lengths[:2]) >= 5 else "flat" if sorted(lengths) == [3, 3, 3, 4] else "rest"
        kinds[kind] += 1
        assert b.origin.endswith(":" + kind)
    assert kinds == {"major": 10, "flat": 10, "rest": 20}
    freq = {lv.name: lv.natural for lv in result.parts[0].levels}
    assert sum(freq.values()) == 1  # the types cover the script's deals


def test_no_condition_types_on_one_seat_are_exact() -> None:
    from cardlab.bridge.tables import shape_table

    script = "generate 1000000\n"  # no condition: every deal
    flat = shape_table().main
    p_4333 = Fraction(flat.count("4-3-3-3"), flat.total)
    levels = parse_levels("flat=shape(north, any 4333):1/2, rest:1/2")
    result = deal_board_set([ScriptPart(parse_script(script, "any.dlr"), script, 4, levels)], seed=1)
    assert [lv.natural for lv in result.parts[0].levels] == [p_4333, 1 - p_4333]
    assert [sorted(_lengths(b, 0)) == [3, 3, 3, 4] for b in result.boards] == [True, True, False, False]


def test_simulated_natural_frequency_when_no_exact_table() -> None:
    # partner's points given opener's: two seats, so the class counts do not apply; the exact
    # answer comes from cardlab's conditional table of one hand given another's points.
    script = "condition hcp(north) == 15\n"
    exact = points_table(given_points=15).main
    p_exact = Fraction(sum(c for v, c in zip(exact.values, exact.counts) if v >= 10), exact.total)
    levels = parse_levels("strong=hcp(south) >= 10:1/4, weak:3/4")
    result = deal_board_set([ScriptPart(parse_script(script, "s.dlr"), script, 8, levels)], seed=3,
                            level_trials=20_000)
    strong = result.parts[0].levels[0]
    assert strong.natural is None and strong.trials == 20_000 and strong.interval is not None
    lo, hi = strong.interval
    assert lo < float(p_exact) < hi and hi - lo < 0.02
    assert "simulated" in strong.frequency_text()
    assert [_hcp(b, 2) >= 10 for b in result.boards].count(True) == 2


def test_declared_levels_in_the_script(run, tmp_path: Path) -> None:
    script = tmp_path / "nt.dlr"
    script.write_text(NT + "# level major = hearts(north) >= 5 || spades(north) >= 5 : 1/2\n# level other : 1/2\n")
    assert [lv.name for lv in script_levels(script.read_text())] == ["major", "other"]
    status, out, err = run("bridge", "dealer", str(script), "-p", "6", "-s", "2", "--format", "json")
    assert status == 0
    data = json.loads(out)
    levels = data["parts"][0]["levels"]
    major, hands = _exact_nt_major()
    assert levels[0]["natural_exact"] == str(Fraction(major, hands)) and levels[0]["boards"] == 3
    assert [b["origin"].rsplit(":", 1)[1] for b in data["boards"]].count("major") == 3
    assert "natural frequency" in err


@pytest.mark.parametrize("spec,token", [
    ("a=spades(north)>=5:60%,b:30%", "add up to 9/10, not 1"),
    ("a=spades(north)>=5:1/3,b:2/3", "not a whole number"),
    ("a=spades(north)>=5:50%,b", "no share for b"),
    ("a=spadez(north)>=5:50%,b:50%", "level 'a'"),
    ("a=spades(north)>=5:150%,b:50%", "150%"),
    ("a=spades(north)>=5,a=hearts(north)>=5", "named twice"),
])
def test_bad_levels_one_line_exit_2(run, tmp_path: Path, spec: str, token: str) -> None:
    script = tmp_path / "nt.dlr"
    script.write_text(NT)
    status, out, err = run("bridge", "dealer", str(script), "-p", "8", "--level", spec)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("cardlab: error: ") and token in err


def test_level_parsing() -> None:
    (a, b) = parse_levels("one=shape(north, any 5332 - 5xxx):0.25, two=hcp(north) > 16 ? 1 : 0 :75%")
    assert a.text == "shape(north, any 5332 - 5xxx)" and a.share == Fraction(1, 4)
    assert b.text == "hcp(north) > 16 ? 1 : 0" and b.share == Fraction(3, 4)
    assert level_counts(parse_levels("x=1,y=1,z=1"), 9) == [3, 3, 3]
    with pytest.raises(ConstraintError, match="not a whole number"):
        level_counts(parse_levels("x=1,y=1,z=1"), 10)


def test_mix_with_a_levelled_script(run, tmp_path: Path) -> None:
    (tmp_path / "nt.dlr").write_text(NT + "# level major = hearts(north) >= 5 || spades(north) >= 5 : 25%\n"
                                          "# level other : 75%\n")
    (tmp_path / "any.dlr").write_text("dealer east\ncondition hcp(east) >= 20\n")
    status, out, err = run("bridge", "dealer", "--mix", f"{tmp_path / 'nt.dlr'}:8,{tmp_path / 'any.dlr'}:4",
                           "--rotate", "-s", "11", "--format", "json")
    assert status == 0
    data = json.loads(out)
    origins = [b["origin"].rsplit("/", 1)[-1] for b in data["boards"]]
    assert origins == ["nt.dlr:major"] * 2 + ["nt.dlr:other"] * 6 + ["any.dlr"] * 4
    assert [b["board"] for b in data["boards"]] == list(range(1, 13))
    assert [p["boards"] for p in data["parts"]] == [8, 4] and len(data["parts"][1]["levels"]) == 0
    for row in data["boards"]:
        board = Board.from_pbn(row["board"], row["deal"])
        assert board.dealer.value == row["dealer"]
        if row["origin"].endswith("any.dlr"):
            assert _hcp(board, board.dealer.index) >= 20
