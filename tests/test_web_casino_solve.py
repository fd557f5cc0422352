"""Issue 39: the casino and river-solver pages' answers (cardlab.web.pages.casino, .solve) against
the command line's JSON for the same question, and each against an independent route: Pair Plus
counted hand by hand here, the published Three Card Poker figures, a solve's EV against the exact
value of its linear program."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from cardlab.web.pages import casino, solve
from cardlab.web.uploads import Form, Upload
from test_web_answers import _body, _cli_json, _parse


def _pair_plus_by_hand() -> Fraction:
    """Pair Plus 40-30-6-4-1 over the 22,100 three-card hands, counted here one by one."""
    total = Fraction(0)
    for hand in itertools.combinations(range(52), 3):
        ranks = sorted(c // 4 for c in hand)
        suited = len({c % 4 for c in hand}) == 1
        straight = ranks[2] - ranks[0] == 2 and len(set(ranks)) == 3 or ranks == [0, 1, 12]  # A-2-3 too
        pays = (40 if straight and suited else 30 if len(set(ranks)) == 1 else 6 if straight else 4 if suited
                else 1 if len(set(ranks)) == 2 else -1)
        total += pays
    return total / 22_100


def test_casino_page_shows_the_house_edge_first_as_the_cli_and_by_hand(run: Any) -> None:
    spec = casino.prepare(Form(fields={"game": "three-card-poker"}))
    answer = casino.compute(None, **spec.kwargs)
    cli = _cli_json(run, "casino", "analyse", "three-card-poker")
    tables = _parse(answer.html).tables
    bets = _body(tables["bets"])
    assert [r[0] for r in bets] == [b["bet"] for b in cli["bets"]]
    for row, bet in zip(bets, cli["bets"]):
        assert row[1] == f"{bet['house_edge']:.4%}" and row[2] == f"{bet['element_of_risk']:.4%}"
        assert row[3] == f"{bet['sd']:.4f}" and Fraction(row[5].replace(",", "")) == -Fraction(bet["expected"])
    # the key figure comes first: the first data-key of the page is Ante & Play's house edge
    key = next(a for tag, a in _parse(answer.html).elements if "data-key" in a)
    assert key["data-key"] == "3.3730%"  # Wizard of Odds: 3.37% of the ante
    pair_plus = Fraction(bets[1][5].replace(",", ""))
    assert pair_plus == -_pair_plus_by_hand() and f"{float(pair_plus):.2%}" == "2.32%"  # Wizard of Odds: 2.32%
    # each outcome's probability as the CLI's, its exact fraction beside it, the counts summing to the deals
    for i, bet in enumerate(cli["bets"]):
        rows = _body(tables[f"outcomes-{i}"])
        assert [r[0] for r in rows[:-1]] == [o["outcome"] for o in bet["outcomes"]]
        for row, o in zip(rows, bet["outcomes"]):
            assert row[1] == f"{o['probability']:.6f}"
            assert Fraction(row[2].replace(",", "")) == Fraction(o["count"], bet["deals"])
        assert rows[-1][3] == f"{bet['deals']:,}"
    assert "Q-6-4" in answer.html and answer.figures["json"] == cli  # the strategy rule, and the API's body


def test_casino_page_reads_an_uploaded_game_and_names_it_in_its_errors(run: Any, tmp_path: Any) -> None:
    from cardlab.errors import CardlabError

    game = b'name = "My Ride"\ngame = "let-it-ride"\n[[outcome]]\nhand = "flush"\npays = 8\n'
    spec = casino.prepare(Form(fields={"game": "baccarat"}, files={"file": Upload("mine.toml", game)}))
    answer = casino.compute(None, **spec.kwargs)
    (tmp_path / "mine.toml").write_bytes(game)
    assert answer.figures["json"] == _cli_json(run, "casino", "analyse", str(tmp_path / "mine.toml"))
    # refused when the form is read, before a job starts, and by the job's reader too
    with pytest.raises(CardlabError, match="broken.toml: not a well-formed TOML"):
        casino.prepare(Form(files={"file": Upload("broken.toml", b"game = [")}))
    with pytest.raises(CardlabError, match="broken.toml: not a well-formed TOML"):
        casino.compute(None, game=None, data=b"game = [", name="broken.toml", ties="fold")
    with pytest.raises(CardlabError, match="huge.toml: larger than 1024 KiB"):
        casino.prepare(Form(files={"file": Upload("huge.toml", b"#" * (2 << 20))}))
    with pytest.raises(CardlabError, match="Game: expected one of baccarat"):
        casino.prepare(Form(fields={"game": "../etc/passwd"}))


def test_casino_form_offers_every_built_in_game() -> None:
    from cardlab.casino.game import builtin_games
    import re

    from cardlab.web.render import environment

    source = environment().loader.get_source(environment(), "casino.html")[0]
    assert sorted(re.findall(r'\("([a-z-]+)", "[A-Z][^"]*"\)', source)) == builtin_games()


SPOT = {"oop": "QQ+, AK, 76s", "ip": "JJ-99, AQs, KQ", "board": "Ks 9d 5c 2h 3s", "pot": "10", "stack": "50",
        "oop_bet": "50%", "oop_raise": "", "ip_bet": "50%, a", "ip_raise": "", "target": "0", "max_iterations": "400"}
ARGV = ["poker", "solve", "--oop", "QQ+, AK, 76s", "--ip", "JJ-99, AQs, KQ", "--board", "Ks 9d 5c 2h 3s", "--pot", "10",
        "--stack", "50", "--oop-bet", "50%", "--oop-raise", "", "--ip-bet", "50%, a", "--ip-raise", "", "--target", "0",
        "--max-iterations", "400"]


@pytest.mark.parametrize("node", ["", "X"])
def test_solver_page_shows_the_cli_strategy_ev_and_exploitability(run: Any, node: str) -> None:
    spec = solve.prepare(Form(fields=dict(SPOT, node=node)))
    answer = solve.compute(lambda *a: None, **spec.kwargs)
    cli = _cli_json(run, *ARGV, *(["--node", node] if node else []))
    mine = dict(answer.figures["json"])
    assert mine.pop("seconds") >= 0 and cli.pop("seconds") >= 0  # the only figure the machine's speed moves
    assert mine == cli and cli["iterations"] == 400
    parsed = _parse(answer.html)
    key = next(a for tag, a in parsed.elements if "data-key" in a)
    assert key["data-key"] == f"{cli['exploitability_pct']:.4f}%"
    ranges = _body(parsed.tables["ranges"])
    assert [r[1] for r in ranges] == [f"{v:.4f}" for v in cli["ev"]]
    assert [r[3] for r in ranges] == [f"{100 * v:.2f}%" for v in cli["equity"]]
    rows = _body(parsed.tables["strategy"])
    actions = cli["actions"]
    assert [r[0] for r in rows] == [r["class"] for r in cli["rows"]]
    for row, r in zip(rows, cli["rows"]):
        assert row[1:1 + len(actions)] == [f"{100 * r[a]:.1f}%" for a in actions]
    # the grid: each class of the range coloured by the first action's share, the rest blank
    cells = [(a.get("data-label"), a.get("class", "")) for tag, a in parsed.elements if tag == "td" and "data-label" in a]
    assert len(cells) == 169
    shown = {label: cls for label, cls in cells if "in" in cls.split()}
    assert set(shown) == {r["class"] for r in cli["rows"]}
    for r in cli["rows"]:
        assert f"eq{min(9, int(r[actions[0]] * 10))}" in shown[r["class"]].split()


def test_solver_ev_agrees_with_the_exact_value_of_the_linear_program() -> None:
    pytest.importorskip("scipy")
    from cardlab.solver import river_game
    from cardlab.solver.lp import game_value

    spec = solve.prepare(Form(fields=dict(SPOT, target="0.05", max_iterations="100000")))
    answer = solve.compute(lambda *a: None, **spec.kwargs)
    s = answer.figures["json"]
    assert s["exploitability_pct"] <= 0.05
    game = river_game(SPOT["oop"], SPOT["ip"], SPOT["board"], pot=10, stack=50, oop_bet="50%", ip_bet="50%, a")
    exact = game_value(game) + 5  # OOP's share of the pot at the equilibrium
    # the solved strategies are each within the exploitability of a best response: the EV within twice it
    assert abs(s["ev"][0] - exact) <= 2 * s["exploitability_chips"] + 1e-6, (s["ev"][0], exact)


@pytest.mark.parametrize("fields,error", [
    ({"board": "Ks 9d"}, "'Ks 9d' has 2"),
    ({"board": "Ks 9d 5c 2h Zz"}, "Zz"),
    ({"pot": "-1"}, "Pot:"),
    ({"node": "B99"}, "B99"),
    ({"oop": "QQ+, XYZ"}, "XYZ"),
    ({"oop_bet": "33%, lots"}, "lots"),
    ({"target": "nan"}, "Target:"),
])
def test_solver_page_refuses_a_bad_spot_naming_the_token(fields: dict[str, str], error: str) -> None:
    from cardlab.errors import CardlabError

    with pytest.raises(CardlabError, match=error):
        spec = solve.prepare(Form(fields={**SPOT, **fields}))
        solve.compute(lambda *a: None, **spec.kwargs)


def test_solver_node_selector_lists_the_decision_nodes_and_asks_the_same_spot_again() -> None:
    from cardlab.solver import river_game

    spec = solve.prepare(Form(fields=dict(SPOT, max_iterations="50")))
    answer = solve.compute(lambda *a: None, **spec.kwargs)
    parsed = _parse(answer.html)
    hidden = {a["name"]: a["value"] for tag, a in parsed.elements if tag == "input" and a.get("type") == "hidden"}
    options = [a["value"] for tag, a in parsed.elements if tag == "option"]
    tree = river_game(SPOT["oop"], SPOT["ip"], SPOT["board"], pot=10, stack=50, oop_bet="50%", ip_bet="50%, a").tree
    assert options == [tree.path(i) for i in range(tree.size) if tree.kind[i] == 0] and "X" in options
    again = solve.prepare(Form(fields=dict(hidden, node="X")))
    assert again.kwargs == dict(spec.kwargs, node="X")


def test_cancel_keeps_the_partial_solve_marked_partial_as_the_cli() -> None:
    """Issue 39: Cancel during a solve answers with the solve so far (the engine stops between two
    runs, as after Ctrl-C at the command line), marked partial, its report saying "(interrupted)"
    with the iterations run, and its exploitability the one measured on those tables."""
    import re
    import time

    from cardlab.web.jobs import JobRunner, Limits

    runner = JobRunner(Limits(concurrent=1))
    try:
        spec = solve.prepare(Form(fields={**solve.PAGE.defaults, "target": "0", "max_iterations": "1000000"}))
        job = runner.submit("s", "solve", spec)
        waited = time.monotonic()
        while not (job.progress or 0) > 0 and time.monotonic() - waited < 120:
            time.sleep(0.02)
        time.sleep(2.0)  # some iterations
        started = time.monotonic()
        runner.cancel("s", job.id)
        assert job.finished.wait(solve.CANCEL_GRACE + 5)
        assert time.monotonic() - started < solve.CANCEL_GRACE + 1
        assert job.state == "cancelled" and job.answer is not None, job.message
        data = job.answer.figures["json"]
        assert data["interrupted"] is True and 0 < data["iterations"] < 1_000_000
        assert data["exploitability_pct"] > 0  # target 0: never reached, so the solve was cut short
        html = job.answer.html
        said = re.search(r"Partial result:</strong> interrupted; ([\d,]+) iterations were run", html)
        assert said and int(said.group(1).replace(",", "")) == data["iterations"], html[:400]
        assert f"{data['iterations']:,} iterations in" in job.answer.figures["table"]
        assert "(interrupted)" in job.answer.figures["table"]
        assert "solve.npz" not in job.answer.downloads and 'id="solve-file"' not in html  # a cancelled job offers none
    finally:
        runner.shutdown()
