"""Movements made, checked by brute force, exported, and the Bridgemate sample's reproduced."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from cardlab.club.movement import (
    HOWELL_DESIGNS, MovementPlan, _howell_design, from_rounds, howell, mitchell,
    session_problems,
)
from cardlab.errors import MovementError
from cardlab.scoring.traveller import TravellerLine

SAMPLE = Path(__file__).parent / "data" / "12tables1section.bws"


def brute_force(plan: MovementPlan) -> dict[str, object]:
    """Counted here from the seatings alone, apart from the module's own checks."""
    per_board: Counter[int] = Counter()
    pair_board: Counter[tuple[object, int]] = Counter()
    meet: Counter[frozenset[object]] = Counter()
    per_round: Counter[tuple[int, object]] = Counter()
    for s in plan.seatings:
        boards = range((s.board_set - 1) * plan.boards_per_round + 1,
                       s.board_set * plan.boards_per_round + 1)
        for b in boards:
            per_board[b] += 1
            pair_board[(s.ns, b)] += 1
            pair_board[(s.ew, b)] += 1
        meet[frozenset((s.ns, s.ew))] += 1
        per_round[(s.round, s.ns)] += 1
        per_round[(s.round, s.ew)] += 1
    return {"board_plays": set(per_board.values()), "boards": sorted(per_board),
            "most_per_pair_board": max(pair_board.values()), "meet": meet,
            "most_per_round": max(per_round.values())}


ODD = [mitchell(t) for t in range(3, 16, 2)]
EVEN = [mitchell(t, even=e) for t in range(4, 15, 2) for e in ("skip", "relay")]
ARROW = [mitchell(7, arrow_rounds=(6, 7)), mitchell(12, even="relay", arrow_rounds=(12,))]
HOWELLS = [howell(t) for t in range(4, 11)]
THREE_QUARTER = [howell(t, rounds=round(0.75 * (2 * t - 1))) for t in range(4, 11)]


@pytest.mark.parametrize("plan", ODD + EVEN + ARROW, ids=repr)
def test_mitchell_properties(plan):
    found = brute_force(plan)
    t = plan.tables
    assert found["most_per_round"] == 1 and found["most_per_pair_board"] == 1
    assert found["boards"] == list(range(1, 2 * t + 1)) and found["board_plays"] == {t}
    ns_field = {("NS", str(i)) for i in range(1, t + 1)}
    ew_field = {("EW", str(i)) for i in range(1, t + 1)}
    meetings = Counter({pair: n for pair, n in found["meet"].items()})
    assert all(len(m & ns_field) == 1 and len(m & ew_field) == 1 for m in meetings)
    if "skip" in plan.name:
        # each EW pair meets one NS pair twice and misses one (see test_even_mitchell_cannot...)
        assert sorted(Counter(meetings.values()).items()) == [(1, t * (t - 2)), (2, t)]
    else:
        assert len(meetings) == t * t and set(meetings.values()) == {1}
    assert plan.problems() == []
    if plan.arrow_rounds:  # one field: pairs of both fields compared, only some boards
        figures = plan.balance()
        assert figures["fewest"] < figures["most"] <= 2 * t and figures["balance"] < 1
    else:  # every two pairs of a field hold the same cards on all 2t boards
        assert plan.balance() == {"fewest": 2 * t, "most": 2 * t, "mean": 2 * t, "balance": 1.0}


@pytest.mark.parametrize("plan", HOWELLS + THREE_QUARTER, ids=repr)
def test_howell_properties(plan):
    found = brute_force(plan)
    pairs = 2 * plan.tables
    assert found["most_per_round"] == 1 and found["most_per_pair_board"] == 1
    assert set(found["meet"].values()) == {1}  # nobody meets anybody twice
    if plan.rounds == pairs - 1:  # full: everybody meets everybody, each board n times
        assert len(found["meet"]) == pairs * (pairs - 1) // 2
        assert found["board_plays"] == {plan.tables}
        assert found["boards"] == list(range(1, 2 * (pairs - 1) + 1))
    else:  # cut short: fewer plays, never more than a full Howell's
        assert max(found["board_plays"]) <= plan.tables
    assert plan.problems() == []


def test_even_mitchell_cannot_meet_everyone_and_play_every_board():
    """NS stationary, boards down one table a round: EW pair meets NS t + e(r) and plays set
    t + e(r) + r, so a full even Mitchell needs e and e(r) + r both permutations of Z_n (an
    orthomorphism), which no cyclic group of even order has; checked by brute force."""
    for n in (2, 4, 6):
        assert not any(len({(e + r) % n for r, e in enumerate(perm)}) == n
                       for perm in itertools.permutations(range(n)))
    assert len({(e + r) % 5 for r, e in enumerate((0, 1, 2, 3, 4))}) == 5  # odd: e(r) = r


def test_two_table_howell_does_not_exist():
    """4 pairs, 3 rounds, 3 board sets, 2 tables on different sets: no assignment lets each
    pair play each set once (a Room square of side 3 does not exist; nor of side 5, the
    3-table case: W. D. Wallis, A. P. Street, J. S. Wallis, Combinatorics: Room Squares, Sum-free
    Sets, Hadamard Matrices, Springer LNM 292, 1972: Room squares exist for odd sides except 3
    and 5)."""
    rounds = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    choices = list(itertools.permutations(range(3), 2))
    for pick in itertools.product(choices, repeat=3):
        seen = Counter((p, s) for (tables, sets) in zip(rounds, pick)
                       for pair, s in zip(tables, sets) for p in pair)
        assert max(seen.values()) > 1
    with pytest.raises(MovementError, match="no Howell on 2 tables"):
        howell(2)
    with pytest.raises(MovementError, match="no Howell on 3 tables"):
        howell(3)


def test_the_search_finds_the_stored_designs():
    """Those of 5 and 7 tables are the published board flow's (consecutive offsets, one relay
    stack: tests/test_club_published.py), chosen over the search's first find; both are checked
    by brute force above."""
    for tables in (4, 6, 8):
        starter, offsets = _howell_design(tables)
        assert (tuple(starter[1:]), tuple(offsets[1:])) == HOWELL_DESIGNS[tables]
    for tables in (5, 7):
        half, n = tables // 2, 2 * tables - 1  # offsets -2..2 (5 tables), -3..3 (7 tables)
        assert {0, *HOWELL_DESIGNS[tables][1]} == {c % n for c in range(-half, half + 1)}


def test_the_bridgemate_sample_movement_is_reproduced():
    """The sample .bws's RoundData (a real session, tests/data/SOURCES.md) is a 12-table
    Mitchell with a skip after round 6 and rounds 11 and 12 arrow-switched, EW pairs numbered
    13-24: made here row for row."""
    pytest.importorskip("access_parser")
    from cardlab.club.bws import read_bws

    session = read_bws(SAMPLE)
    ours = mitchell(12, even="skip", arrow_rounds=(11, 12)).to_round_data()
    theirs = sorted(({"Section": r.section, "Table": r.table, "Round": r.round, "NSPair": r.ns,
                      "EWPair": r.ew, "LowBoard": r.boards[0], "HighBoard": r.boards[-1],
                      "CustomBoards": ""} for r in session.rounds),
                    key=lambda row: (row["Round"], row["Table"]))
    assert ours == theirs
    plan = from_rounds(session.rounds, name="sample")
    assert (plan.tables, plan.rounds, plan.boards) == (12, 12, 24)
    assert session_problems(plan, session.results().lines) == []


def test_session_problems_name_the_pair_board_and_seat():
    plan = mitchell(3)
    good = [TravellerLine.make(b, s.ns[1], s.ew[1], score=0) for s in plan.seatings
            for b in plan.board_numbers(s.board_set)]
    assert session_problems(plan, good) == []
    first = plan.seat(1, 1)  # NS 1 v EW 1 on boards 1-2
    swapped = [TravellerLine.make(1, "1", "1", score=0)] + good[1:]
    assert session_problems(plan, swapped) == []  # same numbers both ways: no seat to tell
    plan = howell(4)
    lines = [TravellerLine.make(b, s.ns[1], s.ew[1], score=0) for s in plan.seatings
             for b in plan.board_numbers(s.board_set)]
    s = plan.seat(2, 1)
    b = plan.board_numbers(s.board_set)[0]
    index = next(i for i, x in enumerate(lines) if x.board == b and x.ns == s.ns[1])
    wrong_way = lines[:index] + [TravellerLine.make(b, s.ew[1], s.ns[1], score=0)] + lines[index + 1:]
    assert session_problems(plan, wrong_way) == [
        f"board {b} ({s.ew[1]} v {s.ns[1]}): the pairs sat the wrong way: the movement seats "
        f"{s.ns[1]} NS and {s.ew[1]} EW at table 2 in round 1"]
    other = next(x for x in plan.seatings if x.board_set != s.board_set and x.round == 1)
    wrong_board = plan.board_numbers(other.board_set)[0]
    moved = lines[:index] + [TravellerLine.make(wrong_board, s.ns[1], s.ew[1], score=0)] + \
        lines[index + 1:]
    problems = session_problems(plan, moved)
    assert any(p.startswith(f"board {wrong_board} ({s.ns[1]} v {s.ew[1]})") for p in problems)
    assert f"table 2 round 1: no result on board {b} ({s.ns[1]} v {s.ew[1]})" in problems
    assert first.board_set == 1


def test_ebuscore_export():
    """Header: type, tables, boards, boards per round, rounds, missing pair (types 0 Howell,
    1 Mitchell, 2 switched Mitchell: EBU forum, 'Writing New Movements in EBU Score'); then a
    line per table of NS, EW, set for each round, as in that thread's example."""
    text = mitchell(5).to_ebuscore().splitlines()
    assert text[0] == "1,5,10,2,5,0" and len(text) == 6
    assert text[1].split(",")[:6] == ["1", "1", "1", "1", "5", "2"]
    assert howell(4).to_ebuscore().splitlines()[0] == "0,4,14,2,7,0"
    assert mitchell(5, arrow_rounds=(5,)).to_ebuscore().splitlines()[0].startswith("2,")


def test_bad_requests():
    for call, message in [(lambda: mitchell(4), "needs even='skip' or even='relay'"),
                          (lambda: mitchell(5, even="skip"), "needs no skip or relay"),
                          (lambda: mitchell(0), "tables must be 1 to 60"),
                          (lambda: mitchell(5, rounds=6), "rounds must be 1 to 5"),
                          (lambda: mitchell(5, arrow_rounds=(9,)), "arrow-switched rounds"),
                          (lambda: howell(11), "up to 10 tables"),
                          (lambda: mitchell(5).to_round_data("odd"), "unknown pair numbering")]:
        with pytest.raises(MovementError, match=message):
            call()
