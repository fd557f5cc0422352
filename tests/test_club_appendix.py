"""Appendix (web) Mitchells: made for every table count, proved by brute force."""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict

import pytest

from cardlab.club.appendix import appendix_core, appendix_mitchell
from cardlab.club.movement import MovementPlan
from cardlab.errors import MovementError


def counted(plan: MovementPlan) -> dict[str, object]:
    """Everything counted from the seatings alone, apart from the module's own checks."""
    board_plays: Counter[int] = Counter()
    pair_board: Counter[tuple[object, int]] = Counter()
    meet: Counter[frozenset[object]] = Counter()
    pair_rounds: Counter[tuple[object, int]] = Counter()
    sets_by_round: dict[int, Counter[int]] = defaultdict(Counter)
    for s in plan.seatings:
        first = (s.board_set - 1) * plan.boards_per_round + 1
        for b in range(first, first + plan.boards_per_round):
            board_plays[b] += 1
            pair_board[(s.ns, b)] += 1
            pair_board[(s.ew, b)] += 1
        meet[frozenset((s.ns, s.ew))] += 1
        pair_rounds[(s.ns, s.round)] += 1
        pair_rounds[(s.ew, s.round)] += 1
        sets_by_round[s.round][s.board_set] += 1
    return {"board_plays": board_plays, "pair_board": pair_board, "meet": meet,
            "pair_rounds": pair_rounds, "sets_by_round": sets_by_round}


PLANS = [appendix_mitchell(t) for t in range(6, 31)] + [
    appendix_mitchell(12, core=7), appendix_mitchell(10, core=5, boards_per_round=3)]


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: f"{p.tables}t-core{p.sets}")
def test_appendix_mitchell_properties(plan):
    t, n = plan.tables, plan.sets
    extra = t - n
    found = counted(plan)
    ns = {("NS", str(i)) for i in range(1, t + 1)}
    ew = {("EW", str(i)) for i in range(1, t + 1)}
    # 2t pairs, every one at exactly one table in every round (nobody sits out)
    assert {p for p, _ in found["pair_rounds"]} == ns | ew
    assert set(found["pair_rounds"].values()) == {1} and len(found["pair_rounds"]) == 2 * t * n
    # each pair plays each board at most once, and n * boards a round boards in all
    assert max(found["pair_board"].values()) == 1
    assert Counter(p for p, _ in found["pair_board"]) == {p: n * plan.boards_per_round
                                                          for p in ns | ew}
    # every board played once at every table over the n rounds: t times
    assert sorted(found["board_plays"]) == list(range(1, n * plan.boards_per_round + 1))
    assert set(found["board_plays"].values()) == {t}
    # every meeting is NS field v EW field, no two pairs meet twice, each pair meets n pairs
    assert all(len(m & ns) == 1 and len(m & ew) == 1 for m in found["meet"])
    assert set(found["meet"].values()) == {1}
    for pair in ns | ew:
        assert sum(pair in m for m in found["meet"]) == n
    # each round, exactly `extra` sets are shared, each by table i and appendix table n + i
    for round_, sets in found["sets_by_round"].items():
        assert sorted(Counter(sets.values()).items()) == ([(1, n - extra), (2, extra)]
                                                          if extra < n else [(2, n)])
        for i in range(1, extra + 1):
            assert plan.seat(i, round_).board_set == plan.seat(n + i, round_).board_set
    # the pairs at the appendix tables' stations stay put: NS n+i at table n+i, EW i at table i
    for i in range(1, extra + 1):
        assert {plan.seat(n + i, r).ns for r in range(1, n + 1)} == {("NS", str(n + i))}
        assert {plan.seat(i, r).ew for r in range(1, n + 1)} == {("EW", str(i))}
    # round 1: pairs numbered by their tables
    assert all((s.ns[1], s.ew[1]) == (str(s.table), str(s.table))
               for s in plan.seatings if s.round == 1)
    assert plan.problems() == []


def test_no_core_divisible_by_2_or_3():
    """The four speeds (NS movers, EW movers, stationary pairs, boards) must differ pairwise
    by a unit mod n, or two of them meet twice or never; four residues with pairwise differences
    prime to n exist for n prime to 6 and, by brute force here, not for n = 4, 6, 8, 9, 15."""
    def works(n: int) -> bool:
        return any(all(gcd_one(a - b, n) for a, b in itertools.combinations(speeds, 2))
                   for speeds in itertools.combinations(range(n), 4))

    def gcd_one(x: int, n: int) -> bool:
        return all(x % q or n % q for q in range(2, n + 1))

    assert not any(works(n) for n in (4, 6, 8, 9, 15))
    assert all(works(n) for n in (5, 7, 11, 13))
    assert [appendix_core(t) for t in range(6, 15)] == [5, 5, 7, 7, 7, 7, 11, 11, 13]


def test_cut_short_and_bad_requests():
    plan = appendix_mitchell(8, rounds=5)
    assert plan.rounds == 5 and plan.plays == -1 and plan.problems() == []
    assert max(counted(plan)["pair_board"].values()) == 1
    for call, message in [(lambda: appendix_mitchell(5), "tables must be 6 to 60, not 5"),
                          (lambda: appendix_mitchell(10, core=9), "not divisible by 3"),
                          (lambda: appendix_mitchell(12, core=5), "1 to 5 appendix tables"),
                          (lambda: appendix_mitchell(8, rounds=8), "rounds must be 1 to 7"),
                          (lambda: appendix_mitchell(8, boards_per_round=0), "boards a round")]:
        with pytest.raises(MovementError, match=message):
            call()


def test_cli_makes_and_prints_cards_for_an_appendix_mitchell(tmp_path, capsys):
    from cardlab.cli.main import main

    assert main(["club", "movement", "appendix", "8", "--format", "rounddata"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("Section,Table,Round") and len(rows) == 1 + 8 * 7
    assert rows[8] == "1,8,1,8,16,1,2,"  # appendix table 8 shares boards 1-2 with table 1
    out = tmp_path / "cards.html"
    assert main(["club", "cards", "appendix", "8", "-o", str(out)]) == 0
    cards = {title: body for title, body in re.findall(r"<h1>(Table \d+)</h1>(.*?)</section>",
                                                       out.read_text())}
    assert len(cards) == 8
    assert "Shares its boards with table 8." in cards["Table 1"]
    assert "Shares its boards with table 1." in cards["Table 8"]
    assert all("Shares" not in cards[f"Table {t}"] for t in range(2, 8))
    assert main(["club", "movement", "appendix", "8", "--even", "skip"]) == 2
    assert "--even and --arrow-switch are for a Mitchell" in capsys.readouterr().err
