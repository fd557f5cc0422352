"""Flop spots and suit isomorphism (cardlab.solver, docs/solver.md).

Independent routes: the sequence-form LP of a tiny flop tree (every turn and river card walked,
no isomorphism) against the engine's certified bounds; the isomorphic tree's values against
the full tree's for the same strategies; checked-down equity against cardlab.poker.equity's
exact enumeration; the suit classes against a count of each card's images by hand and by a
plain orbit count.
"""

from __future__ import annotations

import os
import signal
import threading
from itertools import permutations

import numpy as np
import pytest

from cardlab.cards import parse_card_ids
from cardlab.errors import SolverError
from cardlab.poker.equity import equity
from cardlab.solver import Solution, load_solution, river_game, solve
from cardlab.solver.engine import Engine
from cardlab.solver.lp import game_value
from cardlab.solver.suits import Dealer, suit_maps

SYMMETRIC_OOP, SYMMETRIC_IP = "QQ, AK, 76s", "JJ, 98s, KQs"


def orbits(board: list[int], dealt: tuple[int, ...]) -> int:
    """The classes of the cards left: each card's set of images under the suit permutations
    that map the board onto itself and fix the cards dealt, counted as distinct sets."""
    found = set()
    for card in range(52):
        if card in board or card in dealt:
            continue
        images = set()
        for perm in permutations(range(4)):
            def move(c: int) -> int:
                return c // 4 * 4 + perm[c % 4]
            if {move(c) for c in board} == set(board) and all(move(c) == c for c in dealt):
                images.add(move(card))
        found.add(frozenset(images))
    return len(found)


@pytest.mark.parametrize("board, turn, classes, river_classes", [
    # monotone: the three other suits are interchangeable; 10 hearts + 13 ranks of the rest.
    # After the 3c turn, clubs is fixed and only diamonds and spades swap: 10 hearts, 12 clubs,
    # 13 pairs of diamonds and spades.
    ("Ah 7h 2h", "3c", 23, 35),
    # two-tone Qs Jh 2h: clubs and diamonds swap; 12 spades + 11 hearts + 13 club/diamond pairs
    ("Qs Jh 2h", "8s", 36, 35),
    # rainbow: no permutation but the identity
    ("Ks 9d 5c", "2h", 49, 48),
    # paired 7s 7h 2d: spades and hearts swap (the pair's suits); 13 clubs + 12 diamonds + 12
    # spade/heart pairs; the Ac turn keeps the swap: 12 clubs + 12 diamonds + 12 pairs
    ("7s 7h 2d", "Ac", 37, 36),
])
def test_suit_classes(board, turn, classes, river_classes):
    cards = parse_card_ids(board)
    d = Dealer(cards, 2)
    t = parse_card_ids(turn)[0]
    assert len(d.classes(())) == classes == orbits(cards, ())
    assert len(d.classes((t,))) == river_classes == orbits(cards, (t,))
    for card, rep, k in d.deal(()):  # each card is its representative's image
        perm = d.perms[k]
        assert rep // 4 * 4 + perm[rep % 4] == card and rep <= card


def test_ranges_break_the_symmetry():
    board = parse_card_ids("Qs Jh 2h")
    game = river_game("AcKc", "QQ", "Qs Jh 2h", pot=10, stack=0)
    assert suit_maps(board, [(h.cards, h.weights) for h in game.hands]) == [(0, 1, 2, 3)]
    assert len(game.tree.suit_perms) == 1
    weighted = river_game("AK, 0.5(AdKd)", "QQ", "Qs Jh 2h", pot=10, stack=0)
    assert len(weighted.tree.suit_perms) == 1  # AcKc and AdKd weigh differently
    assert len(river_game(SYMMETRIC_OOP, SYMMETRIC_IP, "Qs Jh 2h", pot=10, stack=0).tree.suit_perms) == 2


@pytest.mark.parametrize("board", ["Ah 7h 2h", "Qs Jh 2h 8s"])
def test_isomorphic_tree_gives_the_full_trees_values(board):
    """The same (symmetric) strategies valued on both trees: the uniform start, and both best
    responses to it; a wrong permutation direction (the monotone board's three-cycles) fails."""
    sizes = dict(pot=10, stack=20, oop_bet="50%", ip_bet="50%", oop_raise="a", max_raises=1)
    iso, full = (Engine.new(river_game(SYMMETRIC_OOP, SYMMETRIC_IP, board, suits=s, **sizes)) for s in (True, False))
    assert iso.game.tree.size < full.game.tree.size
    for player in (0, 1):
        for mode in (1, 2, 4):
            assert np.allclose(iso.values(player, mode), full.values(player, mode), rtol=0, atol=1e-10)


def test_isomorphic_and_full_solves_agree_within_their_bounds():
    sizes = dict(pot=10, stack=20, oop_bet="50%", ip_bet="", oop_raise="", max_raises=0)
    bounds = []
    for s in (True, False):
        e = solve(river_game("QQ, 76s", "JJ, 98s", "Ah 7h 2h", suits=s, **sizes), target=0.05, time_limit=60)
        assert e.exploitability_pct <= 0.05
        bounds.append((-e.value(1, 2), e.value(0, 2)))
    (lo1, hi1), (lo2, hi2) = bounds
    assert lo1 <= hi2 + 1e-9 and lo2 <= hi1 + 1e-9


def flop_spot(suits: bool) -> object:
    """A tiny flop: OOP may bet the flop pot, the turn is checked through, either may bet half
    the pot on the river; combos with no suit symmetry (the LP walks every card)."""
    return river_game("AhKh, 7c7d, 5s4s", "QdQc, 9h8h, AcJc", "Ts 6h 2c", pot=10, stack=10, oop_bet="100%",
                      ip_bet="", oop_raise="", ip_raise="", turn=dict(oop_bet=""),
                      river=dict(oop_bet="50%", ip_bet="50%"), suits=suits)


def test_flop_value_within_the_lp_and_best_response_bounds():
    game = flop_spot(False)
    e = solve(game, target=0.01, time_limit=60)
    exact = game_value(game)
    assert -e.value(1, 2) - 1e-9 <= exact <= e.value(0, 2) + 1e-9
    assert abs(e.value(0) - exact) <= 2 * e.exploitability + 1e-9
    assert exact == pytest.approx(-0.5927172964, abs=1e-6)  # this LP's value, kept to see it move


def test_symmetric_flop_against_the_lp():
    """Suit isomorphism on (the engine) against every card walked (the LP)."""
    options = dict(pot=10, stack=10, oop_bet="100%", ip_bet="", oop_raise="", ip_raise="", turn=dict(oop_bet=""),
                   river=dict(oop_bet=""))
    iso = river_game("QQ", "98s", "Ah 7h 2h", suits=True, **options)
    assert len(iso.tree.suit_perms) == 6
    e = solve(iso, target=0.01, time_limit=60)
    exact = game_value(river_game("QQ", "98s", "Ah 7h 2h", suits=False, **options))
    assert -e.value(1, 2) - 1e-9 <= exact <= e.value(0, 2) + 1e-9
    with pytest.raises(SolverError, match="without suit isomorphism"):
        game_value(iso)


def test_checked_down_flop_equity_is_the_exact_enumeration():
    oop, ip = "QQ+, AK, 76s", "JJ-99, AQs, KQ, T8s"
    s = Solution.solve(river_game(oop, ip, "Ks 9d 5c", pot=10, stack=0), target=0.0)
    exact = equity([oop, ip], board="Ks 9d 5c")
    assert s.range_share(0, s.equity(0)) == pytest.approx(exact.players[0].equity, abs=1e-12)
    assert np.allclose(s.ev(0), 10 * s.equity(0))


def small_flop() -> object:
    return river_game(SYMMETRIC_OOP, SYMMETRIC_IP, "Qs Jh 2h", pot=10, stack=20, oop_bet="50%", ip_bet="50%",
                      oop_raise="a", ip_raise="", max_raises=1)


def test_threads_give_the_same_numbers_on_a_flop():
    game = small_flop()
    one, two = Engine.new(game), Engine.new(game)
    one.run(3)
    two.run(3, workers=2)
    assert np.array_equal(one.regrets, two.regrets) and np.array_equal(one.sums, two.sums)


def test_best_response_on_threads_gives_the_same_value(monkeypatch):
    """The exploitability's walks share the turn subtrees among threads as the iterations do, with
    the same numbers bit for bit as one thread's walk (which tests/solver_brute.py checks on
    rivers); with rake the average-play walks that measure() subtracts are shared too."""
    from cardlab.solver import engine as module

    raked = river_game(SYMMETRIC_OOP, SYMMETRIC_IP, "Qs Jh 2h", pot=10, stack=20, oop_bet="50%", ip_bet="50%",
                       oop_raise="", ip_raise="", max_raises=0, rake=0.05, rake_cap=1)
    real, calls = module._core.solver_deal, []

    def deal(*args: object) -> None:
        calls.append((threading.current_thread().name, args[-1]))
        real(*args)

    monkeypatch.setattr(module._core, "solver_deal", deal)
    for game in (small_flop(), raked):
        e = Engine.new(game)
        e.run(4)
        for player in (0, 1):
            for mode in (1, 2):
                one = e.values(player, mode)
                assert np.array_equal(one, e.values(player, mode, workers=2))
                assert np.array_equal(one, e.values(player, mode, workers=3))
            assert e.value(player, 2) > e.value(player) + 1e-6  # four iterations in: far from an equilibrium
        calls.clear()
        assert e.measure(workers=2) == e.measure() > 0
        modes = {mode for name, mode in calls if name.startswith("cardlab_solver")}
        assert modes == ({1, 2} if game is raked else {2})  # the walks ran on the pool's threads
    calls.clear()
    solve(small_flop(), max_iterations=3, workers=2)
    assert {mode for _, mode in calls} == {0, 2}  # solve() measures on its threads too


def test_ctrl_c_in_a_threaded_iteration_keeps_it_whole(monkeypatch):
    from cardlab.solver import engine as module

    game = small_flop()
    clean, stopped = Engine.new(game), Engine.new(game)
    clean.run(2)
    real, sent = module._core.solver_deal, []

    def deal_then_interrupt(*args: object) -> None:
        real(*args)
        if not sent and stopped.iterations == 1:  # in the second iteration, from a worker thread
            sent.append(1)
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(module._core, "solver_deal", deal_then_interrupt)
    assert threading.current_thread() is threading.main_thread()
    with pytest.raises(KeyboardInterrupt):
        stopped.run(5, workers=2)
    assert stopped.iterations == 2 and np.array_equal(stopped.sums, clean.sums)


def test_flop_reports_reloads_and_names_isomorphic_cards(tmp_path):
    s = Solution.solve(small_flop(), target=1.0, time_limit=60)
    assert s.engine.exploitability_pct <= 1.0
    assert "node X,X: the turn card is dealt (49 cards" in s.report("X,X").table()
    assert "node X,X,3s,X,X: the river card is dealt (48 cards" in s.report("X,X,3s,X,X").table()
    report = s.report("X,X,3c,X,X,8c", by="combo")
    assert report.summary["player"] == "OOP"
    assert all("3c" not in row["combo"] and "8c" not in row["combo"] for row in report.rows)
    with pytest.raises(SolverError, match="the card 3d at 'X,X' is solved as its suit-isomorphic card 3c"):
        s.report("X,X,3d")
    s.save(tmp_path / "flop.npz")
    again = load_solution(tmp_path / "flop.npz")
    assert again.report("X,B5", by="class").to_dict() == s.report("X,B5", by="class").to_dict()
    text = s.range_text("X,X,3c", 0)
    assert "QhQd:" in text and "3c" not in text


def test_flop_memory_is_refused_over_the_limit(run):
    status, out, err = run("poker", "solve", "--oop", "random", "--ip", "random", "--board", "Qs Jh 2h", "--pot", "6",
                           "--stack", "97", "--oop-bet", "50%", "--ip-bet", "50%", "--oop-raise", "", "--ip-raise", "",
                           "--memory-limit", "500")
    assert status == 2 and "over the limit of 500 MB" in err
    estimate = err.split("the solve needs about ")[1].split(" MB")[0]
    game = river_game("random", "random", "Qs Jh 2h", pot=6, stack=97, oop_bet="50%", ip_bet="50%")
    # the figure is the estimate of the 4-byte tables (8 bytes a cell for both), not the 8-byte ones
    assert estimate == f"{game.memory_bytes() / 2**20:,.2f}" and 500 < game.memory_bytes() / 2**20 < 1000
    assert game.memory_bytes() >= 8 * game.table_size


def test_flop_command(run):
    status, out, err = run("poker", "solve", "--oop", "QQ, AK", "--ip", "JJ, 98s", "--board", "Ah 7h 2h", "--pot", "10",
                           "--stack", "10", "--oop-bet", "100%", "--ip-bet", "", "--oop-raise", "", "--ip-raise", "",
                           "--turn-oop-bet", "", "--river-oop-bet", "", "--threads", "2", "--target", "0.5",
                           "--node", "X,X,3c,X,X,4d")
    assert status == 0 and out.startswith("flop spot:") and "node X,X,3c,X,X,4d: OOP to act" in out
    assert "exploitability:" in out and "solving a tree of" in err
    status, out, _ = run("poker", "solve", "--oop", "QQ, AK", "--ip", "JJ, 98s", "--board", "Ah 7h 2h", "--pot", "10",
                         "--stack", "10", "--oop-bet", "100%", "--ip-bet", "", "--turn-oop-bet", "", "--river-oop-bet", "",
                         "--node", "B10,C,4c")
    assert status == 0 and "node B10,C,4c: the river card is dealt (48 cards" in out
    status, _, err = run("poker", "solve", "--oop", "QQ", "--ip", "JJ", "--board", "Ah 7h 2h 3c", "--pot", "10",
                         "--stack", "10", "--turn-oop-bet", "50%")
    assert status == 2 and "turn sizes are given for a spot before the turn" in err


def test_kernel_refuses_broken_isomorphism_tables():
    from cardlab._native import core

    game = river_game(SYMMETRIC_OOP, SYMMETRIC_IP, "Qs Jh 2h 8s", pot=10, stack=0)
    e = Engine.new(game)
    iso = int(np.flatnonzero(game.tree.kind == 4)[0])
    rows = int(game.nodes[iso, 3])

    def values(nodes: np.ndarray, children: np.ndarray) -> np.ndarray:
        out = np.zeros(len(game.hands[0]))
        core.solver_values(nodes, children, game.payoffs, game.hand_rows, game.weights, len(game.hands[0]),
                           e.regrets, e.sums, 0, 1, 0, game.hands[0].weights, game.hands[1].weights, out)
        return out

    assert np.allclose(values(game.nodes, game.children), e.values(0, 1))
    broken = []
    nodes = game.nodes.copy(); nodes[iso, 3] = len(game.children); broken.append((nodes, game.children))  # its rows
    nodes = game.nodes.copy(); nodes[iso, 1] = iso; broken.append((nodes, game.children))        # its own twin
    kids = game.children.copy(); kids[rows] = 10**6; broken.append((game.nodes, kids))          # a combo index
    nodes = game.nodes.copy(); nodes[iso, 7] = 0; broken.append((nodes, game.children))          # no card
    nodes = game.nodes.copy(); nodes[0, 0] = 4; broken.append((nodes, game.children))            # a decision's child
    for nodes, kids in broken:
        with pytest.raises(ValueError, match="malformed"):
            values(nodes, kids)


def test_a_dealer_that_ignores_the_ranges_is_refused():
    from cardlab.solver import Game, build_tree
    from cardlab.solver.hands import river_hands
    from cardlab.solver.tree import BetSizes

    board = parse_card_ids("Qs Jh 2h 8s")
    dealer = Dealer(board, 1)  # clubs and diamonds swap on the board, but not in AcKc
    tree = build_tree(10, 0, (BetSizes(), BetSizes()), dealer=dealer)
    hands = [river_hands(text, board, dealer.boards) for text in ("AcKc, QQ", "JJ")]
    with pytest.raises(SolverError, match="does not map a range onto itself"):
        Game(tree, (hands[0], hands[1]))
