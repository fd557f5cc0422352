"""Donk bets and rake in the solver's trees (cardlab.solver, docs/solver.md), on cases worked by hand.

Rake: the clairvoyance game (B. Chen and J. Ankenman, *The Mathematics of Poker*, 2006) with the
house taking a share r of each pot, at most a cap. The caller's bluff-catcher is indifferent when
bluffs : value = B : (P + B - R(P + 2B)); the bettor's bluff is indifferent when the caller
calls (P - R(P)) / (P - R(P) + B) of the time, R(x) = min(r x, cap) the rake of a pot x (an
uncalled bet is not raked). With P = B = 1, r = 5%, cap 0.1: bluffs 1 / 1.9 of the value, calls
0.95 / 1.95. Without rake both are 1/2.
"""

from __future__ import annotations

import pytest

from cardlab.errors import SolverError
from cardlab.solver import Solution, river_game
from cardlab.solver.lp import game_value


@pytest.mark.parametrize("rake, cap, bluff, call", [
    (0.05, 0.1, 1 / 1.9, 0.95 / 1.95),   # R(1) = 0.05, R(3) = min(0.15, 0.1) = 0.1
    (0.05, 0.0, 1 / 1.85, 0.95 / 1.95),  # no cap: R(3) = 0.15
    (0.0, 0.0, 0.5, 0.5),
])
def test_raked_clairvoyance_game(rake, cap, bluff, call):
    game = river_game("KhQh", "9h9d:1, 6d5d:1", "2c 3d 7h 9s Kc", pot=1.0, stack=10, ip_bet="100%",
                      allin_threshold=0.0, rake=rake, rake_cap=cap)
    s = Solution.solve(game, target=0.001)
    bets = {row["combo"]: row["B1"] for row in s.report("X", by="combo").rows}
    calls = {row["combo"]: row["C"] for row in s.report("X,B1", by="combo").rows}
    assert bets["9h9d"] == pytest.approx(1.0, abs=1e-3) and bets["6d5d"] == pytest.approx(bluff, abs=2e-3)
    assert calls["KhQh"] == pytest.approx(call, abs=2e-3)
    assert s.engine.exploitability_pct <= 0.001


def test_rake_at_a_showdown_and_a_split():
    # AA beats KK: OOP takes the pot of 10 less min(5% of 10, 0.3) = 0.3
    s = Solution.solve(river_game("AA", "KK", "2c 3d 7h 9s Qc", pot=10, stack=0, rake=0.05, rake_cap=0.3))
    assert s.summary()["ev"] == pytest.approx([9.7, 0.0], abs=1e-12)
    # the board plays (a royal flush): each gets half of 10 - 0.3
    s = Solution.solve(river_game("AA", "KK", "Ts Js Qs Ks As", pot=10, stack=0, rake=0.05, rake_cap=0.3))
    assert s.summary()["ev"] == pytest.approx([4.85, 4.85], abs=1e-12)
    with pytest.raises(SolverError, match=r"the rake \(a share of the pot\) must be a number at least 0 and below 1, not 1.5"):
        river_game("AA", "KK", "2c 3d 7h 9s Qc", pot=10, stack=0, rake=1.5)


def test_the_lp_refuses_rake():
    with pytest.raises(SolverError, match="zero-sum"):
        game_value(river_game("AA", "KK", "2c 3d 7h 9s Qc", pot=10, stack=0, rake=0.05))


def test_donk_sizes_only_where_oop_leads_into_the_last_aggressor():
    spot = dict(pot=10, stack=100, oop_bet="50%", ip_bet="50%", oop_raise="", ip_raise="")
    tree = river_game("AA", "KK", "2c 3d 7h 9s", oop_donk="", **spot).tree
    assert tree.actions(tree.find("X,B5,C,Qc")) == ["X"]  # IP bet the turn: OOP may not lead the river
    assert tree.actions(tree.find("B5,C,Qc")) == ["X", "B10"]  # OOP bet it: its usual 50% of 20
    assert tree.actions(tree.find("X,X,Qc")) == ["X", "B5"]  # nobody bet
    tree = river_game("AA", "KK", "2c 3d 7h 9s", oop_donk="100%", **spot).tree
    assert tree.actions(tree.find("X,B5,C,Qc")) == ["X", "B20"]  # a pot-sized lead into a pot of 20
    tree = river_game("AA", "KK", "2c 3d 7h 9s", **spot).tree
    assert tree.actions(tree.find("X,B5,C,Qc")) == ["X", "B10"]  # no donk sizes: the usual ones


def test_rake_and_donk_options(run):
    status, out, _ = run("poker", "solve", "--oop", "KhQh", "--ip", "9h9d, 6d5d", "--board", "2c 3d 7h 9s Kc",
                         "--pot", "1", "--stack", "10", "--oop-bet", "", "--ip-bet", "100%", "--allin-threshold", "0",
                         "--rake", "0.05", "--rake-cap", "0.1", "--node", "X,B1", "--by", "combo", "--target", "0.01")
    assert status == 0 and "rake 5% (cap 0.1)" in out
    row = [line.split() for line in out.splitlines() if line.startswith("KhQh")][0]
    assert float(row[3].rstrip("%")) == pytest.approx(100 * 0.95 / 1.95, abs=0.5)  # C, as worked above
    status, out, _ = run("poker", "solve", "--oop", "AA", "--ip", "KK", "--board", "2c 3d 7h 9s", "--pot", "10",
                         "--stack", "100", "--oop-bet", "50%", "--ip-bet", "50%", "--oop-raise", "", "--ip-raise", "",
                         "--oop-donk", "", "--node", "X,B5,C,Qc")
    assert status == 0 and [line.split()[2:] for line in out.splitlines() if line.startswith("class")] == \
        [["X", "EV", "equity"]]


def test_flop_report_weights_each_class_by_its_flops(monkeypatch):
    """Over the 56 flops of the aces and kings, the classes' weighted average is the plain
    average of every flop's exact equity (cardlab.poker.equity), and a flop and its suit image
    give the same row."""
    from itertools import combinations

    import numpy as np

    from cardlab.cards import format_cards
    from cardlab.poker import board_stats
    from cardlab.poker.equity import equity
    from cardlab.solver.flops import flop_report

    cards = [c for c in range(52) if c // 4 >= 11]  # Kc..As
    flops = np.array(list(combinations(cards, 3)), dtype=np.int64)
    monkeypatch.setattr(board_stats, "flop_classes", lambda: board_stats._canonical_flops(flops))
    report = flop_report("JJ", "T9s", None, pot=10, stack=0)
    assert report.summary["weight"] == 56 and report.summary["flops"] < 56
    plain = np.mean([equity(["JJ", "T9s"], board=format_cards(f)).players[0].equity for f in flops])
    assert report.summary["equity_oop"] == pytest.approx(plain, abs=1e-12)
    one, two = flop_report("JJ", "T9s", ["Ks Kh Ad", "Kc Kd As"], pot=10, stack=0).rows
    assert one["equity_oop"] == pytest.approx(two["equity_oop"], abs=1e-12)
    with pytest.raises(SolverError, match="treat the four suits alike"):
        flop_report("JJ, 0.5(9s8s)", "T9s", None, pot=10, stack=0)


def test_flops_command(run):
    status, out, _ = run("poker", "solve", "--oop", "AA", "--ip", "KK", "--flops", "Qs Jh 2h; Ah 7h 2h", "--pot", "10",
                         "--stack", "0", "--format", "csv")
    assert status == 0 and out.splitlines()[0] == "flop,weight,ev_oop,ev_ip,equity_oop,X,exploitability_pct"
    assert [line.split(",")[0] for line in out.splitlines()[1:]] == ["Qs Jh 2h", "Ah 7h 2h"]
    status, _, err = run("poker", "solve", "--oop", "AA", "--ip", "KK", "--flops", "all", "--board", "Qs Jh 2h",
                         "--pot", "10", "--stack", "0")
    assert status == 2 and "--flops reports over flops" in err
