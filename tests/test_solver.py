"""The river solver (cardlab.solver): tree, engine, exploitability, LP, known games, outputs.

Independent routes: the engine's showdown and fold values against every pair of combos
(tests/solver_brute.py); its best response against every pure plan of every combo; its
equilibrium against the sequence-form LP (HiGHS); Kuhn poker's value -1/18 (H. W. Kuhn, "A
simplified two-person poker", 1950); the clairvoyance game's frequencies and value (B. Chen and
J. Ankenman, *The Mathematics of Poker*, 2006, the clairvoyant bettor's game); check-down EVs
against cardlab.poker.equity's exact range-vs-range equity.
"""

from __future__ import annotations

import numpy as np
import pytest

from cardlab.cards import format_cards, parse_card_ids
from cardlab.poker.ranges import parse_range
from cardlab.errors import SolverError
from cardlab.poker.equity import equity
from cardlab.solver import BetSizes, Solution, build_tree, clairvoyance, kuhn, leduc, load_solution, river_game, solve
from cardlab.solver.engine import Engine
from cardlab.solver.game import Game
from cardlab.solver.hands import Hands
from cardlab.solver.lp import game_value
from tests import solver_brute as brute

BOARD = "Ks 9d 5c 2h 3s"


def random_game(seed: int, combos: int = 8, **sizes: object) -> object:
    """A small river spot: a random board, ``combos`` random weighted combos a player."""
    rng = np.random.default_rng(seed)
    deck = rng.permutation(52)
    board, rest = deck[:5], deck[5:]
    ranges = []
    for _ in range(2):
        picks = rng.choice(len(rest), size=(combos, 2), replace=True)
        parts = {format_cards(sorted((int(rest[a]), int(rest[b])), reverse=True), sep="")
                 for a, b in picks if a != b}
        ranges.append(", ".join(f"{p}:{rng.uniform(0.2, 1):.2f}" for p in sorted(parts)))
    options = dict(oop_bet="50%", ip_bet="75%, a", oop_raise="100%", ip_raise="", max_raises=1)
    options.update(sizes)
    return river_game(ranges[0], ranges[1], format_cards(board), pot=10, stack=25, **options)  # type: ignore[arg-type]


# --- the tree ---------------------------------------------------------------------------------

def test_sizes_parse_and_print_back():
    s = BetSizes.parse("75%, 33%, a", "60%")
    assert s.bets == (0.33, 0.75) and s.bet_allin and s.raises == (0.6,) and not s.raise_allin
    assert BetSizes.parse(*s.text()) == s
    for bad in ("75", "0%", "-5%", "x", "1e9%"):
        with pytest.raises(SolverError, match="cannot read bet size"):
            BetSizes.parse(bad, "")


def test_tree_rules_allin_threshold_min_raise_and_paths():
    sizes = BetSizes.parse("50%, 90%", "10%")
    tree = build_tree(100, 150, (sizes, sizes), allin_threshold=0.3, max_raises=2)
    # 90% of 100 leaves 60 behind, under 0.3 x (100 + 2 x 90): all-in (150)
    assert tree.actions(0) == ["X", "B50", "B150"]
    # the raise after it would leave 50 behind, under 0.3 x 300: all-in
    assert tree.actions(tree.find("B50")) == ["F", "C", "R150"]
    # a raise of 10% is below the bet it answers: raised by the size of that bet (min-raise)
    deep = build_tree(100, 400, (sizes, sizes), allin_threshold=0.0, max_raises=2)
    assert deep.actions(deep.find("B50")) == ["F", "C", "R100"]
    assert deep.actions(deep.find("B50,R100")) == ["F", "C", "R150"]
    assert deep.actions(deep.find("B50,R100,R150")) == ["F", "C"]  # two raises: no more
    for node in range(tree.size):
        assert tree.find(tree.path(node)) == node
    with pytest.raises(SolverError, match="no action 'B70' at node 'root'"):
        tree.find("B70")
    assert build_tree(10, 0, (sizes, sizes)).size == 3  # no chips behind: check, check


def test_geometric_bets_end_all_in_over_the_streets_left():
    sizes = BetSizes.parse("e", "")
    assert BetSizes.parse(*sizes.text()) == sizes
    river = build_tree(10, 40, (sizes, sizes))
    assert river.actions(0) == ["X", "B40"]  # one street left: all-in
    turn = build_tree(10, 40, (sizes, sizes), river_cards=list(range(4, 52)), allin_threshold=0)
    # pot 10 grows to 90 (both stacks in) in two bets of f: (1 + 2f)^2 = 9, f = 1 (the pot)
    assert turn.actions(0) == ["X", "B10"]
    assert turn.actions(turn.find("B10,C,3c")) == ["X", "B30"]
    with pytest.raises(SolverError, match="cannot read bet size 'e'"):
        BetSizes.parse("", "e")


def test_tree_amounts_are_each_players_chips():
    tree = build_tree(10, 20, (BetSizes.parse("50%", "a"), BetSizes.parse("", "")))
    assert tree.amount[tree.find("B5,F")] == 5  # IP folds the 5 it had in the pot
    assert tree.amount[tree.find("B5,C")] == 10
    assert tree.amount[tree.find("X,X")] == 5


def test_bad_spots_name_their_input():
    with pytest.raises(SolverError, match="a board has 3 or 4 or 5 cards here"):
        river_game("AA", "KK", "Ks 9d", pot=10, stack=10)
    with pytest.raises(SolverError, match="no combo left"):
        river_game("KsKd", "AA", BOARD, pot=10, stack=10)
    blocked = river_game("AhAd", "AhAs, AdAs", BOARD, pot=10, stack=10)
    with pytest.raises(SolverError, match="no deal is possible"):
        solve(blocked)
    with pytest.raises(SolverError, match="no deal is possible"):
        game_value(blocked)
    with pytest.raises(SolverError, match="pot"):
        river_game("AA", "KK", BOARD, pot=0, stack=10)
    with pytest.raises(SolverError, match="over the limit of 0.001 MB"):
        Engine.new(river_game("QQ+", "JJ-99", BOARD, pot=10, stack=100, oop_bet="33%,75%,a"), memory_mb=0.001)


# --- the engine's values against every pair ---------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_showdown_and_fold_values_match_every_pair(seed):
    game = random_game(seed, combos=30)
    e = Engine.new(game)
    deals = brute.deal_weights(game)
    margin = np.sign(game.hands[0].strength[0][:, None] - game.hands[1].strength[0][None, :])
    w0, w1 = (h.weights for h in game.hands)
    assert np.allclose(e.values(0, 3) * w0, (deals * margin).sum(axis=1))
    assert np.allclose(e.values(1, 3) * w1, -(deals * margin).sum(axis=0))
    assert np.allclose(e.values(0, 4) * w0, deals.sum(axis=1))
    assert np.allclose(e.values(1, 4) * w1, deals.sum(axis=0))


def test_full_ranges_share_a_shared_card_correctly():
    # every combo of both players: the blocker arithmetic meets combos sharing one card and
    # the same combo in both ranges
    game = river_game("*", "*", BOARD, pot=10, stack=10)
    e = Engine.new(game)
    deals = brute.deal_weights(game)
    margin = np.sign(game.hands[0].strength[0][:, None] - game.hands[1].strength[0][None, :])
    assert np.allclose(e.values(0, 3), (deals * margin).sum(axis=1))
    assert np.allclose(e.values(0, 4), deals.sum(axis=1))


@pytest.mark.parametrize("seed", range(3))
def test_best_response_and_values_against_every_pure_plan(seed):
    game = random_game(seed, combos=6)
    e = Engine.new(game)
    e.run(5)  # a mixed, unconverged strategy
    sigma = brute.strategies(Solution(e))
    assert e.value(0) == pytest.approx(brute.pair_value(game, sigma), abs=1e-9)
    assert e.value(1) == pytest.approx(-brute.pair_value(game, sigma), abs=1e-9)
    assert e.value(0, 2) == pytest.approx(brute.best_response(game, sigma, 0), abs=1e-9)
    assert e.value(1, 2) == pytest.approx(brute.best_response(game, sigma, 1), abs=1e-9)


@pytest.mark.parametrize("path", ["X", "B5", "X,B7.5"])
def test_ev_and_equity_at_a_node_against_every_pair(path):
    game = random_game(11, combos=8)
    e = Engine.new(game)
    e.run(7)
    s = Solution(e)
    sigma = brute.strategies(s)
    node = game.tree.find(path)
    player = int(game.tree.player[node])
    deals = brute.deal_weights(game) if player == 0 else brute.deal_weights(game).T
    here = [(n, a) for n, a in brute.steps(game, node)]
    opp_reach = np.ones(deals.shape[1])
    for n, a in here:
        if game.tree.player[n] != player:
            opp_reach = opp_reach * sigma[n][a]
    mass = deals @ opp_reach
    total = np.zeros(deals.shape[0])
    for z in np.flatnonzero(game.tree.kind != 0):
        path_z = brute.steps(game, int(z))
        if path_z[:len(here)] != here or int(z) == node:
            continue
        own, opp = np.ones(deals.shape[0]), np.ones(deals.shape[1])
        for n, a in path_z:
            if game.tree.player[n] == player:
                own = own * (sigma[n][a] if (n, a) not in here else 1.0)
            else:
                opp = opp * sigma[n][a]
        pay = brute.payoff(game, int(z)) if player == 0 else -brute.payoff(game, int(z)).T
        total += own * ((deals * pay) @ opp)
    ev = s.node_ev(player, node)
    live = mass > 0
    assert np.allclose(ev[live], total[live] / mass[live] + game.tree.pot / 2)
    strength = game.hands[player].strength[0], game.hands[1 - player].strength[0]
    margin = np.sign(strength[0][:, None] - strength[1][None, :])
    share = ((deals * (1 + margin) / 2) @ opp_reach)
    assert np.allclose(s.equity(player, node)[live], share[live] / mass[live])


# --- when the solve measures: few checks, the answer always a computed best response -----------

def test_checks_are_few_and_the_answer_is_measured(monkeypatch):
    # the exploitability is measured at iterations predicted from its fall (about a doubling at a
    # time, then near the crossing), not every few iterations; what the solve reports is a best
    # response computed on its final tables, at or below the target
    real, checks = Engine.measure, []

    def counted(self: Engine, workers: int = 1) -> float:
        checks.append(self.iterations)
        return real(self, workers)

    monkeypatch.setattr(Engine, "measure", counted)
    e = solve(leduc(), target=0.05, time_limit=60)
    assert e.exploitability_pct <= 0.05 and checks[-1] == e.iterations
    assert real(e) == e.exploitability  # the same tables, measured again
    assert e.iterations > 100 and len(checks) <= 4 + 2 * np.log2(e.iterations)
    assert checks[:5] == [0, 2, 4, 8, 16] and checks == sorted(checks)
    assert [t for t, _ in e.checks] == checks and e.checks[-1][1] == e.exploitability_pct


def test_next_check_predicts_the_crossing():
    from cardlab.solver.engine import _next_check

    # a power law: 1% at 100 iterations, 0.5% at 200 (1/t); 0.3% is met at 333.3
    assert _next_check([(0, 50.0), (100, 1.0), (200, 0.5)], 0.3, 200) == 334
    assert _next_check([(0, 50.0), (100, 1.0), (200, 0.5)], 0.01, 200) == 400  # never past twice
    assert _next_check([(0, 50.0), (100, 1.0), (200, 1.2)], 0.3, 200) == 400  # rising: doubling
    assert _next_check([(0, 50.0)], 0.3, 0) == 2 and _next_check([(0, 5.0), (2, 4.0)], 0.3, 2) == 4


# --- equilibrium: the LP and the iterative solver ----------------------------------------------

@pytest.mark.parametrize("seed", range(5))
def test_lp_value_lies_within_the_certified_exploitability(seed):
    game = random_game(100 + seed, combos=10)
    exact = game_value(game)
    e = solve(game, target=0.01, time_limit=20)
    assert e.exploitability_pct <= 0.01
    low, high = -e.value(1, 2), e.value(0, 2)
    assert low - 1e-7 <= exact <= high + 1e-7
    assert abs(e.value(0) - exact) <= 2 * e.exploitability + 1e-7


def test_kuhn_value_is_minus_one_eighteenth():
    # H. W. Kuhn (1950): the first player's value is -1/18
    assert game_value(kuhn()) == pytest.approx(-1 / 18, abs=1e-9)
    e = solve(kuhn(), target=0.05)
    assert -e.value(1, 2) - 1e-12 <= -1 / 18 <= e.value(0, 2) + 1e-12
    assert abs(e.value(0) + 1 / 18) <= 2 * e.exploitability
    assert e.exploitability_pct <= 0.05


def test_leduc_value(tmp_path):
    # Leduc hold'em (Southey et al. 2005): the first player's value -0.08560642418, as OpenSpiel's
    # regret-minimiser tests state it; the public card is dealt by the engine's chance node
    e = solve(leduc(), target=0.005, time_limit=30)
    assert e.exploitability_pct <= 0.005
    assert -e.value(1, 2) - 1e-12 <= -0.08560642418 <= e.value(0, 2) + 1e-12
    assert abs(e.value(0) + 0.08560642418) <= 2 * e.exploitability
    s = Solution(e)
    # equity of the first player's king (card 4) checked down: a pair with the public card wins,
    # else the higher card; counted by hand over the 5 x 4 (other card, public card) deals
    wins = 0.0
    for other in range(6):
        for public in range(6):
            if 4 in (other, public) or other == public:
                continue
            mine = 12 if public // 2 == 2 else 2
            theirs = 10 + other // 2 if public // 2 == other // 2 else other // 2
            wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    assert s.equity(0)[4] == pytest.approx(wins / 20)
    s.save(tmp_path / "leduc.npz")
    assert load_solution(tmp_path / "leduc.npz").engine.exploitability == pytest.approx(e.exploitability)


@pytest.mark.parametrize("b", [1.0, 0.5, 2.0])
def test_clairvoyance_game_frequencies_and_value(b):
    # Chen and Ankenman, The Mathematics of Poker: bluffs : value = b : (1 + b), the caller calls
    # 1 / (1 + b), the bettor's share of the pot v (1 + b / (1 + b)) with v its share of value hands
    s = Solution.solve(clairvoyance(b), target=0.0005, time_limit=20)
    tree = s.game.tree
    bet = tree.find("X")
    sigma = s.strategy(bet)  # IP: check, bet; combos 9h9d (value), 6d5d (air)
    value_bet, bluff = sigma[1]
    assert value_bet == pytest.approx(1.0, abs=0.01)
    assert bluff / value_bet == pytest.approx(b / (1 + b), abs=0.01)
    call = s.strategy(tree.kids(bet)[1])[1, 0]
    assert call == pytest.approx(1 / (1 + b), abs=0.01)
    v = 0.5
    assert s.range_share(1, s.ev(1)) == pytest.approx(v * (1 + b / (1 + b)), abs=0.001)
    assert game_value(s.game) == pytest.approx(0.5 - v * (1 + b / (1 + b)), abs=1e-7)


def test_checked_down_ranges_share_the_pot_by_equity():
    game = river_game("QQ+, AK, 76s, 0.5(A5s)", "JJ-99, AQs, KQ", BOARD, pot=10, stack=50, oop_bet="", ip_bet="")
    s = Solution.solve(game, target=0.0)
    assert s.engine.exploitability == pytest.approx(0.0, abs=1e-12)
    assert np.allclose(s.ev(0), 10 * s.equity(0))
    exact = equity(["QQ+, AK, 76s, 0.5(A5s)", "JJ-99, AQs, KQ"], board=BOARD)
    assert s.range_share(0, s.equity(0)) == pytest.approx(exact.players[0].equity, abs=1e-12)
    assert s.range_share(0, s.ev(0)) + s.range_share(1, s.ev(1)) == pytest.approx(10)


# --- node locking, outputs, save and reload ---------------------------------------------------

def test_locking_the_root_to_check_solves_the_game_without_oop_bets():
    game = random_game(7, combos=10)
    e = Engine.new(game)
    e.lock(0, np.array([[1.0], [0.0]]))
    solve(game, target=0.01, engine=e)
    no_bets = random_game(7, combos=10, oop_bet="")
    assert abs(e.value(0) - game_value(no_bets)) <= 2 * e.exploitability + 1e-7
    assert np.allclose(Solution(e).strategy(0)[0], 1.0)
    with pytest.raises(SolverError, match="summing to 1"):
        e.lock(0, np.array([[0.7], [0.7]]))


def test_report_rows_save_and_reload(tmp_path):
    game = river_game("QQ+, AK", "JJ-99, AQs, KQ", BOARD, pot=10, stack=50, oop_bet="50%", ip_bet="50%")
    s = Solution.solve(game, target=0.2)
    combos = s.report("", by="combo")
    assert len(combos.rows) == len(game.hands[0])
    for row in combos.rows:
        assert row["X"] + row["B5"] == pytest.approx(1.0)
    classes = s.report("", by="class")
    assert {r["class"] for r in classes.rows} == {"AA", "KK", "QQ", "AKs", "AKo"}
    assert sum(r["combos"] for r in classes.rows) == len(game.hands[0])
    assert classes.summary["exploitability_pct"] <= 0.2
    assert combos.to_csv().splitlines()[0] == "combo,weight,reach,X,B5,ev,equity"
    path = tmp_path / "spot.npz"
    s.save(path)
    again = load_solution(path)
    assert again.report("X", by="combo").to_dict() == s.report("X", by="combo").to_dict()
    (tmp_path / "bad.npz").write_bytes(b"not a solve")
    with pytest.raises(SolverError, match="cannot read solve file"):
        load_solution(tmp_path / "bad.npz")


def test_range_text_round_trips_through_the_range_syntax():
    game = river_game("QQ+, AK, 76s, 0.5(A5s)", "JJ-99, AQs, KQ", BOARD, pot=10, stack=50, oop_bet="50%",
                      ip_bet="50%")
    s = Solution.solve(game, target=0.2)
    for node, player in (("", 0), ("B5", 0), ("X,B5", 1), ("X", 1)):
        text = s.range_text(node, player)
        index = game.tree.find(node)
        want = np.round(game.hands[player].weights * s.reach(index, player), 4)
        back = parse_range(text).without(set(parse_card_ids(BOARD)))
        got = dict(zip(back.labels(), back.weights))
        for label, w in zip(game.hands[player].labels, want):
            assert got.get(label, 0.0) == pytest.approx(w, abs=1e-12), (node, label)
    assert s.range_text("", 1) == "AQs, KQs, KQo, JJ, TT, 99"  # whole classes at weight 1, in grid order


def test_full_ranges_reach_the_target():
    game = river_game("*", "*", "Qs Jh 2h 8d 3c", pot=100, stack=200, oop_bet="50%, 100%", ip_bet="50%, 100%",
                      oop_raise="60%", ip_raise="60%", max_raises=2)
    e = solve(game, target=0.3, time_limit=30)
    assert e.exploitability_pct <= 0.3


def test_deep_tree_keeps_converging():
    # four bet sizes, two raise sizes and three raises: a branch one player never takes must still
    # age the other's strategy sums (an engine that skipped it stalled near 0.2% of the pot)
    game = river_game("*", "*", "Qs Jh 2h 8d 3c", pot=100, stack=400, oop_bet="33%, 75%, 150%, a", oop_raise="60%, a",
                      ip_bet="33%, 75%, 150%, a", ip_raise="60%, a", max_raises=3)
    e = solve(game, target=0.1, max_iterations=1500)
    assert e.exploitability_pct <= 0.1


def test_malformed_tables_are_refused_by_the_kernel():
    # the kernel checks every index before it walks: a bad child, offset, card, order or board
    # is a ValueError, never a crash
    from cardlab._native import core

    game = random_game(3, combos=6)
    e = Engine.new(game)
    base = dict(nodes=game.nodes, children=game.children, amount=game.tree.amount, hands=game.hand_rows,
                weights=game.weights)

    def call(**bad: np.ndarray) -> None:
        t = {**base, **bad}
        core.solver_iterate(t["nodes"], t["children"], t["amount"], t["hands"], t["weights"], len(game.hands[0]),
                            t.get("regrets", e.regrets), t.get("sums", e.sums), 0, 1)

    call()  # the sound tables run
    broken = []
    nodes = game.nodes.copy(); nodes[0, 1] = 10**6; broken.append(dict(nodes=nodes))            # first child
    nodes = game.nodes.copy(); nodes[0, 3] = len(e.regrets); broken.append(dict(nodes=nodes))   # offset
    nodes = game.nodes.copy(); nodes[0, 0] = 7; broken.append(dict(nodes=nodes))                # kind
    nodes = game.nodes.copy(); nodes[-1, 6] = 5; broken.append(dict(nodes=nodes))               # board table
    kids = game.children.copy(); kids[0] = 0; broken.append(dict(children=kids))           # a cycle
    hands = game.hand_rows.copy(); hands[0, 0, 0] = 64; broken.append(dict(hands=hands))        # card id
    hands = game.hand_rows.copy(); hands[0, 0, 4] = hands[0, 1, 4]; broken.append(dict(hands=hands))  # order
    hands = game.hand_rows.copy(); hands[0, 0, 3] = 99; broken.append(dict(hands=hands))        # same combo
    weights = game.weights.copy(); weights[0] = np.nan; broken.append(dict(weights=weights))    # weight
    broken.append(dict(amount=game.tree.amount[:-1]))                                           # sizes
    weights = game.weights.copy(); weights[0] = 2e12; broken.append(dict(weights=weights))      # 4-byte sums overflow
    amount = game.tree.amount.copy(); amount[-1] = 2e12; broken.append(dict(amount=amount))     # likewise
    double = np.zeros(len(e.regrets))  # 8-byte tables: twice the bytes of the 4-byte ones the kernel reads
    broken.append(dict(regrets=double, sums=double.copy()))
    broken.append(dict(regrets=e.regrets[:-1], sums=e.sums[:-1]))                               # a cell short
    for bad in broken:
        with pytest.raises(ValueError, match="solver tables are malformed"):
            call(**bad)


def test_tables_are_four_byte_floats_and_must_stay_finite():
    # the regrets and strategy sums are float32 (half the memory of float64); the estimate counts
    # 4 bytes a cell for each; a table that does not fit in float32 is refused, not turned to inf
    game = random_game(5, combos=6)
    e = Engine.new(game)
    assert e.regrets.dtype == e.sums.dtype == np.float32 and len(e.sums) == game.table_size
    again = Engine(game, e.regrets.astype(np.float64), e.sums.astype(np.float64))
    assert again.sums.dtype == np.float32
    with pytest.raises(SolverError, match="finite numbers within the range of float32"):
        Engine(game, e.regrets, np.full(game.table_size, 1e300))
    locked = np.random.default_rng(1).dirichlet(np.ones(2), size=len(game.hands[0])).T  # actions x combos
    e.lock(0, locked)
    e.run(3)
    played = Solution(e).strategy(0)
    assert not np.array_equal(played, locked) and np.allclose(played, locked, rtol=0, atol=1e-7)
    heavy = Hands(game.hands[1].cards, game.hands[1].weights * 1e13, game.hands[1].strength, game.hands[1].labels)
    with pytest.raises(SolverError, match="weights are numbers from 0 to 1e"):
        Game(game.tree, (game.hands[0], heavy))


@pytest.mark.parametrize("seed", range(6))
def test_any_strategy_lies_between_the_two_best_responses(seed):
    # for every strategy pair, BR_oop >= value >= -BR_ip; random sizes, thresholds and raises
    rng = np.random.default_rng(seed)
    sizes = ["", "33%", "50%, a", "75%, 150%", "e", "25%, 60%, 100%, a"]
    pick = lambda: sizes[int(rng.integers(len(sizes)))]  # noqa: E731
    game = random_game(200 + seed, combos=12, oop_bet=pick(), ip_bet=pick(), oop_raise=pick().replace("e", "a"),
                       ip_raise=pick().replace("e", "a"), max_raises=int(rng.integers(0, 4)))
    e = Engine.new(game)
    for _ in range(3):
        e.run(int(rng.integers(1, 6)))
        assert e.value(0, 2) + 1e-12 >= e.value(0) >= -e.value(1, 2) - 1e-12
        assert e.value(0) == pytest.approx(-e.value(1), abs=1e-12)
