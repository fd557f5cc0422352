"""Issue 39: first-time tasks, done in a browser as a new user would do them without reading the
docs, each in at most 3 form actions (a field typed, a choice made, a file chosen, the button
pressed), from the page's first state; the figure the task asks for, read from the page, equals
the CLI's JSON for the same question (for random deals: with the seed the page shows)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable

import pytest

from test_web_answers import _verdict_of
from test_web_browser import _choose, _cli, _radio, _submit_and_wait, _type, pytestmark  # noqa: F401
from test_site_browser import _resize, browser  # noqa: F401  (the fixture)
from web_helpers import Server, served  # noqa: F401  (the fixture)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DEAL = "N:AKQ2.T98.765.432 JT98.AK7.AK2.T98 7653.J65.QJT.AKQ 4.Q432.9843.J765"
Action = Callable[[Any], None]


def _typed(field: str, text: str) -> Action:
    return lambda d: _type(d, field, text)


def _cell(driver: Any, table: str, row: str, column: int) -> str:
    text: str = driver.execute_script(
        "var t = document.getElementById(arguments[0]); var rows = t.querySelectorAll('tbody tr');"
        "for (var i = 0; i < rows.length; i++) { var c = rows[i].children;"
        "  if (c[0].textContent.trim() === arguments[1]) return c[arguments[2]].textContent.trim(); }"
        "return null;", table, row, column)
    return text


def _key(driver: Any) -> str:
    text: str = driver.execute_script("return document.querySelector('[data-key]').getAttribute('data-key');")
    return text


def _compared(driver: Any) -> str:
    """The IMPs a board of the first contract over the second, and the verdict."""
    text: str = driver.execute_script(
        "var c = document.querySelector('.comparison');"
        "return c.querySelector('.key').getAttribute('data-key') + ' ' + c.querySelector('.verdict-line').textContent;")
    return text


def _makes_argv(driver: Any) -> list[str]:
    """``bridge makes`` for the two hands typed, with the seed the page's answer names."""
    seed = re.search(r"seed (\d+)", driver.find_element("css selector", ".lead-in").text)
    assert seed, "the answer names its seed"
    return ["bridge", "makes", "--contract", "3NT", "--contract", "4S", "--by", "S", "-n", "500",
            "--north-cards", NORTH, "--south-cards", SOUTH, "--seed", seed.group(1)]


def _tree_size(driver: Any) -> str:
    """The solver's line before the solve, as the page shows it: the tree's nodes and the memory."""
    line = driver.find_element("id", "memory").text
    found = re.search(r"tree of ([\d,]+ nodes \([\d,]+ decisions\)), [\d,]+ x [\d,]+ combos, (memory about [\d.,]+ MB)", line)
    assert found, line
    return f"{found.group(1)}, {found.group(2)}"


def _solve_argv(driver: Any) -> list[str]:
    """``poker solve`` for the page's spot as it stands; one iteration (the tree and memory do not
    depend on the solve)."""
    from cardlab.web.pages.solve import PAGE

    fields = {k: PAGE.defaults[k] for k in ("oop", "ip", "pot", "stack", "oop_bet", "oop_raise", "ip_bet", "ip_raise")}
    return ["poker", "solve", "--board", "Ks 9d 5c 2h", *(x for k, v in fields.items() for x in (f"--{k.replace('_', '-')}", v)),
            "--max-iterations", "1"]


def _shoe_argv(driver: Any) -> list[str]:
    """``casino shoe`` with the page's first values (a 1-8 spread, 1,000 units) and the seed its answer names."""
    seed = re.search(r"seed (\d+)", driver.find_element("css selector", ".lead-in").text)
    assert seed, "the answer names its seed"
    return ["casino", "shoe", "--spread", "1,2:2,3:4,4:8", "--bankroll", "1000", "--seed", seed.group(1)]


def _verdict(j: Any) -> str:
    return f"{j['comparison']['imps']['mean']:+.2f} {_verdict_of(j['comparison'])}"


NORTH, SOUTH = "KQ76.A54.KJ3.Q98", "AJ84.K76.A52.A32"
# (task, page, actions before the button, what the page shows, the CLI's argv (or how to read it from
# the answer), the same figure from its JSON)
TASKS: list[tuple[str, str, list[Action], Callable[[Any], str], Any, Callable[[Any], str]]] = [
    ("3NT or 4S on these two hands over 500 deals", "makes",
     [_typed("north_cards", NORTH), _typed("south_cards", SOUTH)], _compared, _makes_argv, _verdict),
    ("chance partner has 10+ HCP given my hand", "stats", [_typed("given", "AKQ2.T98.765.432")],
     lambda d: _cell(d, "figures", "10", 2), ["bridge", "hcp", "--given", "AKQ2.T98.765.432"],
     lambda j: next(f"{r['at_least']:.6f}" for r in j["rows"] if r["value"] == 10)),
    ("AKs v QQ+ equity", "poker-equity", [_typed("player1", "AKs"), _typed("player2", "QQ+")], _key,
     ["poker", "equity", "AKs", "QQ+"], lambda j: f"{j['players'][0]['equity']:.3%}"),
    ("push or fold A5o at 10 BB", "pushfold", [_typed("hand", "A5o"), _typed("stack", "10")], _key,
     ["poker", "pushfold", "--stack", "10"], lambda j: "push" if "A5o" in j["push"] else "fold"),
    ("score tonight's USEBIO file", "scoring",
     [lambda d: d.find_element("id", "file").send_keys(str(EXAMPLES / "session.xml"))], _key,
     ["bridge", "score", str(EXAMPLES / "session.xml")], lambda j: f"{j['pairs'][0]['percentage']:.2f}"),
    ("best line with AQ10 opposite 432", "suits", [_typed("north", "AQ10"), _typed("south", "432")],
     lambda d: d.execute_script("return Array.from(document.querySelectorAll('#lines .key')).map("
                                "function (k) { return k.getAttribute('data-key'); }).join(' ');"),
     ["bridge", "suitplay", "AQ10", "432"],
     lambda j: " ".join([f"{t['probability']:.2%}" for t in j["targets"]] + [f"{j['mean_tricks_line']['mean']:.4f}"])),
    ("how 5 missing cards split", "suits", [lambda d: _radio(d, "split"), _typed("cards", "5")],
     lambda d: _cell(d, "either-way", "3", 2), ["bridge", "split", "5"],
     lambda j: next(f"{r['probability']:.2%}" for r in j["either_way"] if r["west"] == "3")),
    ("the double-dummy table and par of a deal", "dd", [_typed("deal", DEAL)], _key,
     ["bridge", "dd", DEAL], lambda j: f"{j['par']['score']:+d}"),
    ("chance of a 4-4-3-2 hand", "stats", [lambda d: _choose(d, "kind", "shape")],
     lambda d: _cell(d, "figures", "4-4-3-2", 1), ["bridge", "shape"],
     lambda j: next(f"{r['probability']:.6f}" for r in j["rows"] if r["value"] == "4-4-3-2")),
    ("tournament equity of 5000, 3000, 2000 for 50, 30, 20", "icm",
     [_typed("stacks", "5000,3000,2000"), _typed("payouts", "50,30,20")], _key,
     ["poker", "icm", "5000,3000,2000", "--payouts", "50,30,20"], lambda j: f"{j['equity'][0]:.4f}"),
    ("how a range hits a flop", "poker-board", [_typed("range", "QQ+, AK"), _typed("board", "Qh 9c 2d")],
     lambda d: _cell(d, "board-table", "three of a kind", 1), ["poker", "board", "QQ+, AK", "--board", "Qh 9c 2d"],
     lambda j: next(f"{c['probability']:.2%}" for c in j["classes"] if c["name"] == "three of a kind")),
    ("the tree and memory of a turn spot before solving it", "solve", [_typed("board", "Ks 9d 5c 2h")], _tree_size,
     _solve_argv, lambda j: f"{j['nodes']:,} nodes ({j['decisions']:,} decisions), memory about {j['memory_mb']:,.2f} MB"),
    ("house edge of six-deck H17 with late surrender", "blackjack",
     [lambda d: _choose(d, "dealer", "h17"), lambda d: _choose(d, "surrender", "late")], _key,
     ["casino", "blackjack", "--h17", "--surrender"], lambda j: f"{j['house_edge']['basic_strategy']:.4%}"),
    ("win rate of a 1-8 spread with Hi-Lo", "blackjack-shoe", [],
     lambda d: _cell(d, "shoe-results", "spread, units a round", 1), _shoe_argv,
     lambda j: f"{j['spread_result']['mean']:+.5f}"),
]


@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_a_first_time_task_in_three_actions(served: Server, browser: Any, task: Any,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    name, page, actions, shown, argv, expected = task
    assert len(actions) + 1 <= 3, name  # the actions, and the button
    _resize(browser, 390, 900)
    browser.get(f"{served.url}/{page}")
    for act in actions:
        act(browser)
    assert _submit_and_wait(browser) == "done", name
    if callable(argv):
        argv = argv(browser)
    assert shown(browser) == expected(json.loads(_cli(capsys, *argv, "--format", "json"))), name
    _resize(browser, 1280, 900)
