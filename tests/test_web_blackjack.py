"""Issue 43: the workbench's blackjack and shoe simulator pages (cardlab.web.pages.blackjack,
.blackjack_shoe) against the command line's JSON for the same question (the command each answer
names, run here), and against independent routes: the basic strategy chart published for six
decks, the simulated flat result against the exact house edge at the top of the shoe, a bad field
refused with the command line's own message."""

from __future__ import annotations

import shlex
from typing import Any

import pytest

from cardlab.errors import CardlabError
from cardlab.web.pages import blackjack, blackjack_shoe
from cardlab.web.uploads import Form
from test_web_answers import _body, _cli_json, _parse

HALF_DECK = "2,2,2,2,2,2,2,2,2,8"  # 26 cards: the simulator's shoe
QUARTER = "1,1,1,1,1,1,1,1,1,4"  # 13 cards: every rule and figure of the exact engine, quickly


def _grid(html: str) -> dict[str, list[str]]:
    """The strategy grids read back: the command line's row name -> the letters of its cells."""
    rows: dict[str, list[str]] = {}
    current = None
    for tag, attrs in _parse(html).elements:
        if tag == "tr" and "data-hand" in attrs:
            current = rows.setdefault(attrs["data-hand"], [])
        elif tag == "td" and "data-letter" in attrs and current is not None:
            current.append(attrs["data-letter"])
    return rows


def _said(run: Any, capsys: Any, *argv: str) -> str:
    """The command line's one-line message for a refused question, without its prefix."""
    try:
        status, out, err = run(*argv)
    except SystemExit as stop:  # argparse's refusal
        status, (out, err) = int(str(stop.code)), capsys.readouterr()
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    import re

    line = err.strip().split("error: ", 1)[1].removeprefix("argument ")
    line = re.sub(r" \(see 'cardlab [a-z ]+--help'\)$", "", line)  # argparse's pointer to the help
    return line.split(": ", 1)[1] if line.startswith("--") else line


def test_blackjack_page_answers_as_the_command_it_names(run: Any) -> None:
    spec = blackjack.prepare(Form(fields={"shoe": "1-1-1-1-1-1-1-1-1-4", "dealer": "h17", "surrender": "late",
                                          "pays": "6:5", "removal": "yes", "das": "no"}))
    answer = blackjack.compute(lambda *a: None, **spec.kwargs)
    argv = answer.figures["command"]
    assert argv == ["casino", "blackjack", "--shoe", QUARTER, "--h17", "--no-das", "--surrender",
                    "--blackjack-pays", "6:5", "--removal"]
    assert shlex.join(["cardlab", *argv]) in answer.html  # the command shown is the command run here
    cli = _cli_json(run, *argv)
    assert answer.figures["json"] == cli
    page = _parse(answer.html)
    edges = _body(page.tables["bj-edges"])
    house = cli["house_edge"]
    assert [r[1] for r in edges] == [f"{house[k]:.4%}" for k in ("basic_strategy", "composition_dependent",
                                                                  "composition_dependent_no_splits",
                                                                  "composition_dependent_insuring")]
    key = next(a for tag, a in page.elements if "data-key" in a)
    assert key["data-key"] == f"{house['basic_strategy']:.4%}"  # the key figure comes first
    grid = _grid(answer.html)
    assert list(grid) == list(cli["basic_strategy"])
    for hand, letters in grid.items():
        assert letters == list(cli["basic_strategy"][hand].values()), hand
    removal = _body(page.tables["bj-removal"])
    assert [(r[0], r[1]) for r in removal] == [("10" if k == "T" else k, f"{v * 100:+.3f}")
                                               for k, v in cli["effects_of_removal"].items() if k != "A"] + \
        [("A", f"{cli['effects_of_removal']['A'] * 100:+.3f}")]


def test_every_cell_says_its_action_in_words_and_the_legend_names_every_letter() -> None:
    from cardlab.casino.blackjack import analyse

    result = analyse(blackjack.make_rules(blackjack.table_rules({"shoe": HALF_DECK, "surrender": "late"})))
    grids = blackjack.strategy_grids(result)
    letters = {c["letter"] for g in grids for r in g["rows"] for c in r["cells"]}
    assert {"H", "S", "D", "P", "R"} <= letters <= set(blackjack.LETTERS)
    for g in grids:
        for r in g["rows"]:
            assert all(c["words"] == blackjack.LETTERS[c["letter"]][1] and c["css"] for c in r["cells"])
    assert [len(g["rows"]) for g in grids] == [16, 8, 10]  # hard 5-20, soft 13-20 (A-2 .. A-9), 2-2 .. A-A


# Wizard of Odds, "4-Deck to 8-Deck Blackjack Strategy" (dealer stands on soft 17, double after a
# split allowed, no surrender, peek): cells read off the published chart.
PUBLISHED_S17_DAS = {
    ("hard 9", "2"): "H", ("hard 9", "3"): "D", ("hard 10", "9"): "D", ("hard 10", "T"): "H",
    ("hard 11", "A"): "H", ("hard 12", "2"): "H", ("hard 12", "4"): "S", ("hard 16", "T"): "H",
    ("hard 13", "2"): "S", ("soft 18 (A-7)", "2"): "S", ("soft 18 (A-7)", "3"): "Ds", ("soft 18 (A-7)", "9"): "H",
    ("soft 17 (A-6)", "2"): "H", ("soft 13 (A-2)", "5"): "D", ("pair 9-9", "7"): "S", ("pair 9-9", "8"): "P",
    ("pair 4-4", "5"): "P", ("pair 4-4", "4"): "H", ("pair 2-2", "2"): "P", ("pair 6-6", "2"): "P",
    ("pair 8-8", "A"): "P", ("pair T-T", "6"): "S", ("pair 5-5", "9"): "D",
}


def test_six_deck_chart_is_the_published_chart(run: Any) -> None:
    spec = blackjack.prepare(Form())  # the page's empty form: the command line's defaults
    assert spec.kwargs["rules"]["decks"] == 6 and spec.kwargs["rules"]["das"] and not spec.kwargs["rules"]["h17"]
    answer = blackjack.compute(lambda *a: None, **spec.kwargs)
    assert answer.figures["command"] == ["casino", "blackjack", "--decks", "6"]
    grid = _grid(answer.html)
    ups = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    for (hand, up), letter in PUBLISHED_S17_DAS.items():
        assert grid[hand][ups.index(up)] == letter, (hand, up)
    cli = _cli_json(run, "casino", "blackjack")
    assert answer.figures["json"] == cli


@pytest.mark.parametrize("fields,argv", [
    ({"decks": "0"}, ["casino", "blackjack", "--decks", "0"]),
    ({"decks": "9"}, ["casino", "blackjack", "--decks", "9"]),
    ({"shoe": "4,4,x"}, ["casino", "blackjack", "--shoe", "4,4,x"]),
    ({"shoe": "0,0,0,0,0,0,0,0,0,1"}, ["casino", "blackjack", "--shoe", "0,0,0,0,0,0,0,0,0,1"]),
    ({"count": "lo-hi"}, ["casino", "blackjack", "--count", "lo-hi"]),
    ({"count": "1,1,1,1,1,1,1,1,1,99"}, ["casino", "blackjack", "--count", "1,1,1,1,1,1,1,1,1,99"]),
])
def test_a_bad_field_is_the_command_lines_message(run: Any, capsys: Any, fields: dict[str, str], argv: list[str]) -> None:
    with pytest.raises(CardlabError) as refused:
        blackjack.prepare(Form(fields=fields))
    assert str(refused.value).split(": ", 1)[1] == _said(run, capsys, *argv)


@pytest.mark.parametrize("fields,argv", [
    ({"spread": "1,2:x"}, ["casino", "shoe", "--spread", "1,2:x"]),
    ({"spread": "1,2:2,1:4"}, ["casino", "shoe", "--spread", "1,2:2,1:4"]),
    ({"spread": "1,3:0"}, ["casino", "shoe", "--spread", "1,3:0"]),
    ({"penetration": "1"}, ["casino", "shoe", "--penetration", "1"]),
    ({"bankroll": "0"}, ["casino", "shoe", "--bankroll", "0"]),
    ({"shoe": "4,4,x"}, ["casino", "shoe", "--shoe", "4,4,x"]),
    ({"count": "lo-hi"}, ["casino", "shoe", "--count", "lo-hi"]),
    ({"decks": "0"}, ["casino", "shoe", "--decks", "0"]),
])
def test_a_bad_shoe_field_is_the_command_lines_message(run: Any, capsys: Any, fields: dict[str, str], argv: list[str]) -> None:
    with pytest.raises(CardlabError) as refused:
        blackjack_shoe.prepare(Form(fields=fields))
    assert str(refused.value).split(": ", 1)[1] == _said(run, capsys, *argv)


def test_the_shoe_page_takes_early_surrender_and_resplits_but_not_a_post_split_play(run: Any) -> None:
    # the simulator plays early surrender and resplits as the command does (the same argv);
    # split hands are played by the table, so the exact engine's post-split choice is not offered
    fields = {"shoe": HALF_DECK, "surrender": "early", "split_hands": "4", "resplit_aces": "yes",
              "penetration": "0", "rounds": "20,000", "seed": "5", "post_split": "cdz"}
    spec = blackjack_shoe.prepare(Form(fields=fields))
    assert "post_split" not in spec.kwargs["rules"]
    answer = blackjack_shoe.compute(lambda *a: None, **spec.kwargs)
    argv = answer.figures["command"]
    assert argv == ["casino", "shoe", "--shoe", HALF_DECK, "--early-surrender", "--split-hands", "4", "--resplit-aces",
                    "--penetration", "0", "--rounds", "20000", "--seed", "5"]
    assert answer.figures["json"] == _cli_json(run, *argv, "--workers", "1")
    with pytest.raises(CardlabError, match="Hands from a pair: expected one of 2, 3, 4, got '5'"):
        blackjack_shoe.prepare(Form(fields={"split_hands": "5"}))


def test_shoe_page_answers_as_the_command_and_holds_the_exact_edge_in_its_interval(run: Any) -> None:
    spec = blackjack_shoe.prepare(Form(fields={"shoe": HALF_DECK, "penetration": "0", "rounds": "400,000",
                                               "seed": "3"}))
    answer = blackjack_shoe.compute(lambda *a: None, **spec.kwargs)
    argv = answer.figures["command"]
    assert argv == ["casino", "shoe", "--shoe", HALF_DECK, "--penetration", "0", "--rounds", "400000", "--seed", "3"]
    cli = _cli_json(run, *argv, "--workers", "1")
    assert answer.figures["json"] == cli
    rows = {r[0]: r for r in _body(_parse(answer.html).tables["shoe-results"])}
    flat = cli["flat"]
    assert rows["flat bet"][1:] == [f"{flat['mean']:+.4%}", f"{flat['low']:+.4%} to {flat['high']:+.4%}"]
    # two routes: the simulation's interval holds the exact engine's house edge of the same strategy
    exact = cli["exact_house_edge"]
    assert flat["low"] <= -exact <= flat["high"]
    assert rows["exact, top of the shoe"][1:] == [f"{-exact:+.4%}", "inside the interval"]


def test_shoe_page_spread_ruin_and_true_counts_as_the_command(run: Any) -> None:
    fields = {"shoe": "3,3,3,3,3,3,3,3,3,12", "penetration": "0.6", "spread": "1,1:2,2:4", "bankroll": "500",
              "rounds": "300000", "seed": "5", "count": "zen", "dealer": "h17"}
    answer = blackjack_shoe.compute(lambda *a: None, **blackjack_shoe.prepare(Form(fields=fields)).kwargs)
    cli = _cli_json(run, *answer.figures["command"])
    assert answer.figures["json"] == cli
    page = _parse(answer.html)
    rows = {r[0]: r for r in _body(page.tables["shoe-results"])}
    won = cli["spread_result"]
    assert rows["spread, units a round"][1] == f"{won['mean']:+.5f}"
    assert rows["average bet"][1] == f"{won['average_bet']:.3f}"
    ruin = cli["risk_of_ruin"]
    assert rows["risk of ruin, 500 units"][1:] == [f"{ruin['value']:.2%}", f"{ruin['low']:.2%} to {ruin['high']:.2%}"]
    counts = _body(page.tables["shoe-counts"])
    assert len(counts) == len(cli["true_counts"])
    for row, r in zip(counts, cli["true_counts"]):
        assert row[1] == f"{r['flat_mean']:+.4%}" and row[3] == f"{r['rounds']:,}"
        assert int(row[5]) == cli["spread"][str(r["true_count"])]  # the bet the spread makes there
    # the rounds at each true count add up to the rounds played
    assert sum(int(r[3].replace(",", "")) for r in counts) == cli["rounds"]


def test_cancel_keeps_the_rounds_played_marked_partial_as_the_command(run: Any, ctrl_c_after: Any) -> None:
    """Cancel sends the job Ctrl-C: the chunks done are the answer, marked partial, as the command
    prints them (and exits 130) after Ctrl-C."""
    spec = blackjack_shoe.prepare(Form(fields={"shoe": HALF_DECK, "penetration": "0", "rounds": "3000000",
                                               "seed": "2"}))
    ctrl_c_after(1)
    answer = blackjack_shoe.compute(lambda *a: None, **spec.kwargs)
    data = answer.figures["json"]
    assert data["interrupted"] is True and data["rounds"] == 1_000_000 and data["requested"] == 3_000_000
    assert "Partial result:</strong> interrupted; 1,000,000 of 3,000,000 rounds were played." in answer.html
    assert "(interrupted)" in answer.figures["table"]
    status, out, _ = run(*answer.figures["command"], "--format", "json")
    assert status == 130 and __import__("json").loads(out) == data
