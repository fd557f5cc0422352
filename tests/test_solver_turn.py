"""Turn spots: chance nodes deal the river card (cardlab.solver, docs/solver.md).

Independent routes: checked-down equity against cardlab.poker.equity's exact enumeration; a turn
with no turn bets is a set of river games, one per river card, so its value is their LP values
weighted by each card's chance.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from cardlab.cards import format_cards, parse_card_ids
from cardlab.errors import SolverError
from cardlab.poker.equity import equity
from cardlab.solver import BetSizes, Game, Solution, build_tree, load_solution, river_game, solve
from cardlab.solver.engine import Engine
from cardlab.solver.hands import river_hands
from cardlab.solver.lp import game_value
from tests import solver_brute as brute

OOP, IP, TURN = "QQ+, AK, 76s, 0.5(A5s)", "JJ-99, AQs, KQ, T8s", "Ks 9d 5c 2h"


def test_checked_down_equity_matches_exact_enumeration():
    game = river_game(OOP, IP, TURN, pot=10, stack=0)
    s = Solution.solve(game, target=0.0)
    exact = equity([OOP, IP], board=TURN)
    assert s.range_share(0, s.equity(0)) == pytest.approx(exact.players[0].equity, abs=1e-12)
    assert np.allclose(s.ev(0), 10 * s.equity(0))  # no chips behind: every hand checks down


def test_turn_without_turn_bets_is_the_river_games_weighted_by_chance():
    oop, ip = "AhAd, KsKc:0.5, 8h7h, 6c5c", "QhQd, JsTs, 9h8h:0.7, 4d3d"
    board = parse_card_ids("Qs Jh 2h 8d")
    rivers = [c for c in range(52) if c not in board]
    river_sizes = (BetSizes.parse("50%", "a"), BetSizes.parse("100%", ""))
    tree = build_tree(10, 30, (BetSizes(), BetSizes()), river_cards=rivers, river_sizes=river_sizes)
    game = Game(tree, (river_hands(oop, board), river_hands(ip, board)))
    e = solve(game, target=0.005, time_limit=30)
    expected, mass = 0.0, 0.0
    for card in rivers:
        five = format_cards(board + [card])
        try:
            sub = river_game(oop, ip, five, pot=10, stack=30, oop_bet="50%", oop_raise="a", ip_bet="100%")
        except SolverError:  # a range with no combo left beside this river card: no deal
            continue
        deals = brute.deal_weights(sub).sum()
        expected += deals * game_value(sub)
        mass += deals
    expected /= mass
    assert -e.value(1, 2) - 1e-9 <= expected <= e.value(0, 2) + 1e-9
    assert abs(e.value(0) - expected) <= 2 * e.exploitability + 1e-9


def test_turn_spot_converges_and_reloads(tmp_path):
    game = river_game(OOP, IP, TURN, pot=10, stack=50, oop_bet="50%", ip_bet="50%", oop_raise="a", ip_raise="a")
    s = Solution.solve(game, target=0.1, time_limit=30)
    assert s.engine.exploitability_pct <= 0.1
    report = s.report("X,X,3s", by="combo")
    assert report.summary["player"] == "OOP" and report.summary["actions"] == ["X", "B5"]
    assert all("3s" not in row["combo"] for row in report.rows)  # the river card is dead
    assert "node X,X: the river card is dealt (48 cards; add one to the node, e.g. 'X,X,As')" in \
        s.report("X,X").table()
    s.save(tmp_path / "turn.npz")
    assert load_solution(tmp_path / "turn.npz").report("X,B5", by="class").to_dict() == \
        s.report("X,B5", by="class").to_dict()


def test_threads_share_the_river_subtrees_with_the_same_numbers():
    game = river_game(OOP, IP, TURN, pot=10, stack=50, oop_bet="50%", ip_bet="50%", oop_raise="a", ip_raise="a")
    one, two = Engine.new(game), Engine.new(game)
    one.run(6)
    two.run(6, workers=2)
    assert np.array_equal(one.regrets, two.regrets) and np.array_equal(one.sums, two.sums)
    assert np.any(one.sums != 0)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the resident size from /proc")
def test_memory_estimate_is_what_the_solve_grows_by():
    """Measured in a fresh process: the peak resident size's growth (VmHWM: getrusage's peak may be
    the parent's, inherited through fork) from building the engine through an iteration and a best
    response on two threads, against the estimate less the game's tables (already held). The
    regrets and strategy sums are 4-byte floats: 8-byte ones would grow it about 1.6 times the
    estimate, and an estimate still counting 8 bytes would be 1.8 times the growth."""
    code = """
from cardlab.solver import river_game
from cardlab.solver.engine import Engine
game = river_game('*', '*', 'Qs Jh 2h 8d', pot=100, stack=200, oop_bet='33%, 75%', ip_bet='33%, 75%',
                  oop_raise='60%', ip_raise='60%', max_raises=2)
def kb(field):
    return int(open('/proc/self/status').read().split(field + ':')[1].split()[0]) * 1024
before = kb('VmRSS')
e = Engine.new(game)
e.run(1, workers=2)
e.measure(workers=2)
grown = kb('VmHWM') - before
print(grown, game.memory_bytes() - game.nodes.nbytes - game.hand_rows.nbytes, e.regrets.nbytes + e.sums.nbytes,
      game.table_size)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    grown, estimated, tables, cells = map(int, done.stdout.split())
    assert tables == 8 * cells and estimated > tables > 40 * 2**20  # about 43 MB of tables
    assert 0.7 * estimated <= grown <= 1.1 * estimated  # measured 47 MB grown for 56 MB estimated


def test_turn_command(run):
    status, out, err = run("poker", "solve", "--oop", OOP, "--ip", IP, "--board", TURN, "--pot", "10",
                           "--stack", "50", "--oop-bet", "50%", "--ip-bet", "50%", "--oop-raise", "", "--ip-raise", "",
                           "--node", "X,X,Ad", "--river-oop-bet", "100%", "--threads", "2")
    assert status == 0 and out.startswith("turn spot:") and "node X,X,Ad: OOP to act" in out
    assert [line for line in out.splitlines() if line.startswith("class")][0].split()[2:4] == ["X", "B10"]
    status, _, err = run("poker", "solve", "--oop", OOP, "--ip", IP, "--board", TURN + " 3s", "--pot", "10",
                         "--stack", "50", "--river-oop-bet", "100%")
    assert status == 2 and "river sizes are given for a spot before the river" in err


def test_threaded_kernels_refuse_bad_slots_and_units():
    from cardlab._native import core

    game = river_game(OOP, IP, TURN, pot=10, stack=0)
    e = Engine.new(game)
    tables = (game.nodes, game.children, game.tree.amount, game.hand_rows, game.weights, len(game.hands[0]),
              e.regrets, e.sums)
    n0, n1 = (len(h) for h in game.hands)
    chances = int((game.tree.kind == 3).sum())
    slots = np.zeros((chances, 2 * n0 + n1))
    with pytest.raises(ValueError, match="slots hold"):
        core.solver_step(*tables, 0, 1, 1, slots[:, 1:].copy())
    cursor = np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError, match="a unit names a first-level chance node's child"):
        core.solver_deal(*tables, 0, 1, slots, np.array([[0, 0]], dtype=np.int32), np.zeros((1, n0)), cursor)
    for tail in ((2,), (0, np.zeros(n0)), (2, np.zeros(n0 + 1)), (3, np.zeros(n0))):  # the best response's out
        with pytest.raises(ValueError, match="modes 1 and 2 a value per combo"):
            core.solver_step(*tables, 0, 1, 1, slots, *tail)
    core.solver_step(*tables, 0, 1, 1, slots, 2, np.zeros(n0))  # sound
    chance = int(np.flatnonzero(game.tree.kind == 3)[0])
    with pytest.raises(ValueError, match="the mode is 0"):
        core.solver_deal(*tables, 0, 1, slots, np.array([[chance, 0]], dtype=np.int32), np.zeros((1, n0)), cursor, 3)
