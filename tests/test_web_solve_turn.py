"""Issue 44: the solver page on turn spots (and small flop spots): the page's JSON and figures at
any node, a node after a river card included, equal ``cardlab poker solve --format json`` for the
same spot and node; the node selector offers the river cards (not their suit-isomorphic twins) and
asks the same spot again; a bad node or card, or a flop spot too big for the page, is refused with
one line naming the token (or the command line to use)."""

from __future__ import annotations

from typing import Any

import pytest

from cardlab.web.pages import solve
from cardlab.web.uploads import Form
from test_web_answers import _body, _cli_json, _parse

SPOT = {"oop": "QQ+, AK, 76s", "ip": "JJ-99, AQs", "board": "Ks 9d 5c 2h", "pot": "10", "stack": "30",
        "oop_bet": "50%", "oop_raise": "", "ip_bet": "50%", "ip_raise": "", "target": "0", "max_iterations": "40"}
ARGV = ["poker", "solve", "--oop", "QQ+, AK, 76s", "--ip", "JJ-99, AQs", "--board", "Ks 9d 5c 2h", "--pot", "10",
        "--stack", "30", "--oop-bet", "50%", "--oop-raise", "", "--ip-bet", "50%", "--ip-raise", "", "--target", "0",
        "--max-iterations", "40"]


def _answer(**fields: str) -> Any:
    spec = solve.prepare(Form(fields={**SPOT, **fields}))
    return solve.compute(lambda *a: None, **spec.kwargs)


@pytest.mark.parametrize("node", ["", "X,B5", "X,X,7c", "X,X,7c,B5"])
def test_turn_page_shows_the_cli_figures_at_any_node(run: Any, node: str) -> None:
    answer = _answer(node=node)
    cli = _cli_json(run, *ARGV, *(["--node", node] if node else []))
    mine = dict(answer.figures["json"])
    assert mine.pop("seconds") >= 0 and cli.pop("seconds") >= 0  # the only figure the machine's speed moves
    assert mine == cli and cli["iterations"] == 40 and cli["node"] == (node or "root")
    parsed = _parse(answer.html)
    ranges = _body(parsed.tables["ranges"])
    assert [r[1] for r in ranges] == [f"{v:.4f}" for v in cli["ev"]]
    actions = cli["actions"]
    rows = _body(parsed.tables["strategy"])
    assert [r[0] for r in rows] == [r["class"] for r in cli["rows"]] and rows
    for row, r in zip(rows, cli["rows"]):
        assert row[1:1 + len(actions)] == [f"{100 * r[a]:.1f}%" for a in actions]
    # the grid after a river card: the classes still in the range, coloured by the first action's share
    cells = {a["data-label"]: a.get("class", "").split() for tag, a in parsed.elements if tag == "td" and "data-label" in a}
    assert len(cells) == 169
    assert {k for k, c in cells.items() if "in" in c} == {r["class"] for r in cli["rows"]}
    for r in cli["rows"]:
        assert f"eq{min(9, int(r[actions[0]] * 10))}" in cells[r["class"]]
    combos = {r["class"]: r["combos"] for r in cli["rows"]}
    if node == "X,X,7c":  # OOP to act: the combo holding the river card is out of the range there
        assert combos["76s"] == 3 and combos["AA"] == 6
    elif not node:
        assert combos["76s"] == 4


def test_chance_node_offers_its_cards_and_the_selector_asks_the_same_spot_again() -> None:
    from cardlab.solver import river_game

    answer = _answer(node="X,X", max_iterations="5")
    parsed = _parse(answer.html)
    assert answer.figures["json"]["chance"] is True and answer.figures["json"]["street"] == "river"
    assert "the river card is dealt here" in answer.html and "strategy" not in parsed.tables
    options = [a["value"] for tag, a in parsed.elements if tag == "option"]
    game = river_game(SPOT["oop"], SPOT["ip"], SPOT["board"], pot=10, stack=30, oop_bet="50%", ip_bet="50%")
    cards = game.tree.actions(game.tree.find("X,X"))
    assert options[:3] == ["", "X", "X,X"] and options[3:] == [f"X,X,{c}" for c in cards]
    assert len(cards) == 48 and "X,X,Ks" not in options and "X,X,2h" not in options  # the board's cards are not dealt
    hidden = {a["name"]: a["value"] for tag, a in parsed.elements if tag == "input" and a.get("type") == "hidden"}
    again = solve.prepare(Form(fields=dict(hidden, node="X,X,Ad")))
    assert again.kwargs == dict(solve.prepare(Form(fields=dict(SPOT, max_iterations="5"))).kwargs, node="X,X,Ad")


def test_selector_leaves_out_suit_isomorphic_cards_and_the_path_names_their_twin() -> None:
    from cardlab.errors import CardlabError
    from cardlab.solver import river_game
    from cardlab.solver.tree import ISO

    fields = {"oop": "QQ, JJ", "ip": "AA, 99", "board": "Kh Kd 7h 7d", "max_iterations": "5"}
    game = river_game("QQ, JJ", "AA, 99", "Kh Kd 7h 7d", pot=10, stack=30, oop_bet="50%", ip_bet="50%")
    chance = game.tree.find("X,X")
    twins = [game.tree.path(k) for k in game.tree.kids(chance) if game.tree.kind[k] == ISO]
    assert twins  # hearts/diamonds and spades/clubs swap onto themselves: half the cards are twins
    options = solve.node_choices(game.tree, chance)
    assert not set(twins) & set(options) and len(options) == 3 + 48 - len(twins)
    with pytest.raises(CardlabError, match=twins[0].split(",")[-1] + ".*suit-isomorphic"):
        _answer(**fields, node=twins[0])


@pytest.mark.parametrize("fields,error", [
    ({"node": "X,X,Zz"}, "no action 'Zz'"),
    ({"node": "X,X,Ks"}, "no action 'Ks'"),  # a board card is never dealt
    ({"node": "X,B99"}, "B99"),
    ({"board": "Ks 9d 5c 2h Ks"}, "Ks"),
    ({"board": "Ks 9d"}, "Ks 9d"),
    ({"board": "Ks 9d 5c", "oop": "22+, AJ+, KQ", "ip": "22+, AJ+, KQ"},
     "Board: this flop spot needs about 175 MB, more than the page solves in 20 s .*: solve it with cardlab poker solve "),
])
def test_turn_page_refuses_a_bad_node_or_card_naming_the_token(fields: dict[str, str], error: str) -> None:
    from cardlab.errors import CardlabError

    with pytest.raises(CardlabError, match=error) as caught:
        _answer(**fields)
    assert "\n" not in str(caught.value)


def test_small_flop_spot_is_solved_on_the_page_as_at_the_command_line(run: Any) -> None:
    fields = {"oop": "AA, 76s", "ip": "KK", "board": "Ks 9d 5c", "stack": "10", "ip_bet": "", "max_iterations": "3"}
    answer = _answer(**fields, node="X,X,2c,B5")
    argv = [*ARGV, "--node", "X,X,2c,B5"]
    for k, v in fields.items():
        argv[argv.index("--" + k.replace("_", "-")) + 1] = v
    cli = _cli_json(run, *argv)
    mine = dict(answer.figures["json"])
    assert mine.pop("seconds") >= 0 and cli.pop("seconds") >= 0
    assert mine == cli and cli["actions"] == ["F", "C"] and cli["player"] == "IP"
