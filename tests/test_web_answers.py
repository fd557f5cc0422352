"""Issue 39: the workbench's answers as HTML built from the result objects (src/cardlab/web/answers.py).

Each page's answer is read back from its HTML (the table cells, the key figures, the grid, the
steps of a line) and compared with the command line's ``--format json`` for the same question; a
second route checks the figures themselves (a published table, a count by hand)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from html.parser import HTMLParser
from typing import Any

import pytest

from cardlab.web.pages import dd, stats, suits

DEAL = "N:AKQ2.T98.765.432 JT98.AK7.AK2.T98 7653.J65.QJT.AKQ 4.Q432.9843.J765"


class _Tables(HTMLParser):
    """The rows of each table (by id) as lists of (text, attributes) cells, and every element's attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[tuple[str, dict[str, str]]]]] = {}
        self.elements: list[tuple[str, dict[str, str]]] = []
        self._table: str | None = None
        self._cell: tuple[list[str], dict[str, str]] | None = None
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a))
        if tag == "table":
            self._table = a.get("id", f"table{len(self.tables)}")
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = ([], a)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append(("".join(self._cell[0]).strip(), self._cell[1]))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[0].append(data)


def _parse(html: str) -> _Tables:
    parser = _Tables()
    parser.feed(html)
    return parser


def _cli_json(run: Any, *argv: str) -> Any:
    status, out, err = run(*argv, "--format", "json")
    assert status == 0, err
    return json.loads(out)


@pytest.fixture
def no_plot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables drawn as a 1-pixel PNG: what is tested here is the HTML around the picture (the
    plots have their own tests), and matplotlib costs half a second a table."""
    from pathlib import Path

    from cardlab.tabulation import Tabulation

    pixel = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                          "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")

    def plot(self: Any, path: Any) -> Path:
        Path(path).write_bytes(pixel)
        return Path(path)

    monkeypatch.setattr(Tabulation, "plot", plot)


def _body(table: list[list[tuple[str, dict[str, str]]]]) -> list[list[str]]:
    return [[text for text, _ in row] for row in table[1:]]


def test_points_table_shows_the_cli_probabilities_first_with_exact_fractions(run: Any, no_plot: None) -> None:
    answer = stats.compute(None, kind="points", scheme="work", cards=13, given=None, given_points="12",
                           shape="pattern", by="longest", trials=None, seed=None)
    page = _parse(answer.html)
    cli = _cli_json(run, "bridge", "hcp", "--given-hcp", "12")
    header = [text for text, _ in page.tables["figures"][0]]
    assert header[:2] == ["hcp", "probability"]  # the key figure right after the value
    rows = _body(page.tables["figures"])
    assert len(rows) == len(cli["rows"]) == 29
    for shown, row in zip(rows, cli["rows"]):
        assert shown[0] == str(row["value"])
        assert shown[1] == f"{row['probability']:.6f}" and shown[2] == f"{row['at_least']:.6f}"
        assert shown[4] == f"{row['count']:,}"
        num, den = (int(x.replace(",", "")) for x in shown[3].split("/"))
        assert Fraction(num, den) == Fraction(row["count"], cli["total"])
    # the total: C(39, 13) hands for each of the C(52, 13) hands given... the other hand holds 12:
    # every count sums to the total, and the fractions to one
    assert sum(Fraction(*(int(x.replace(",", "")) for x in r[3].split("/"))) for r in rows) == 1
    assert answer.html.index("<table") < answer.html.index("<img")  # a single table: the bars after it


def test_shape_table_equals_the_published_pattern_frequencies(run: Any, no_plot: None) -> None:
    answer = stats.compute(None, kind="shape", scheme="work", cards=13, given=None, given_points=None,
                           shape="pattern", by="longest", trials=None, seed=None)
    rows = {r[0]: r for r in _body(_parse(answer.html).tables["figures"])}
    cli = _cli_json(run, "bridge", "shape")
    for row in cli["rows"]:
        assert rows[row["value"]][1] == f"{row['probability']:.6f}"
    # Published (Wikipedia, "Contract bridge probabilities", hand patterns): 4-4-3-2 21.5512%,
    # 5-3-3-2 15.5168%, 4-3-3-3 10.5361%; exact: 4-4-3-2 = 136,852,887,600 of C(52,13) hands
    assert rows["4-4-3-2"][1] == "0.215512" and rows["5-3-3-2"][1] == "0.155168" and rows["4-3-3-3"][1] == "0.105361"
    assert rows["4-4-3-2"][-1] == "136,852,887,600"


def test_joint_table_shows_its_heat_map_first_and_its_rows_folded(run: Any, no_plot: None) -> None:
    answer = stats.compute(None, kind="joint", scheme="work", cards=13, given=None, given_points=None,
                           shape="pattern", by="longest", trials=None, seed=None)
    html = answer.html
    assert html.index("<img") < html.index("<details class=\"rows\">") < html.index("<table")
    rows = _body(_parse(html).tables["figures"])
    cli = _cli_json(run, "bridge", "joint", "--by", "longest")
    nonzero = [r for r in cli["rows"] if r["count"]]
    assert len(rows) == len(cli["rows"]) and len(nonzero) < len(rows)
    for shown, row in zip(rows, cli["rows"]):
        assert shown[0] == f"{row['value'][0]} × {row['value'][1]}"
        assert shown[1] == f"{row['probability']:.6f}"


def test_a_simulated_table_beside_the_exact_one(run: Any, no_plot: None) -> None:
    answer = stats.compute(None, kind="points", scheme="work", cards=13, given=None, given_points=None,
                           shape="pattern", by="longest", trials=20_000, seed=5)
    table = _parse(answer.html).tables["figures"]
    assert [t for t, _ in table[0]][:4] == ["hcp", "exact", "simulated", "95% interval"]
    cli = _cli_json(run, "bridge", "hcp", "--simulate", "20000", "--seed", "5")
    for shown, row in zip(_body(table), cli["rows"]):
        assert shown[2] == f"{row['simulated_probability']:.6f}"
        assert shown[3] == f"{row['ci95'][0]:.6f} – {row['ci95'][1]:.6f}"


def test_split_of_named_cards_as_tables_with_exact_fractions(run: Any) -> None:
    answer = suits.compute_split(None, n=None, cards="KJ54", vacant=None, played=None)
    page = _parse(answer.html)
    cli = _cli_json(run, "bridge", "split", "--cards", "KJ54")
    layouts = page.tables["by-seat"]
    for (west, east, p, exact, ways), row in zip(_body(layouts), cli["rows"]):
        assert (west, east) == (row["west"], row["east"])
        assert p == f"{row['probability']:.2%}" and exact.replace(",", "") == row["probability_exact"]
        assert ways == f"{row['count']:,}"
    lengths = {(r[0], r[1]): r[2] for r in _body(page.tables["by-length"])}
    # Published (Wikipedia, "Contract bridge probabilities", suit splits, 4 cards missing):
    # 2-2 40.70%, 3-1 49.74% (24.87% each way), 4-0 9.57%
    assert lengths[("2", "2")] == "40.70%" and lengths[("3", "1")] == "24.87%" and lengths[("4", "0")] == "4.78%"
    assert "K</strong>: West <span class=\"num\" title=\"1/2\">50.00%" in answer.html


def test_split_of_a_number_of_cards_either_way(run: Any) -> None:
    answer = suits.compute_split(None, n=5, cards=None, vacant=None, played=None)
    either = _body(_parse(answer.html).tables["either-way"])
    cli = _cli_json(run, "bridge", "split", "5")
    assert [r[2] for r in either] == [f"{r['probability']:.2%}" for r in cli["either_way"]]
    # Published (the same table): 5 missing, 3-2 67.83%, 4-1 28.26%, 5-0 3.91%
    assert {r[0] + "-" + r[1]: r[2] for r in either} == {"3-2": "67.83%", "4-1": "28.26%", "5-0": "3.91%"}


def test_suitplay_lines_are_numbered_tricks_that_say_the_cli_line(run: Any) -> None:
    answer = suits.compute_play(None, north="AQ10", south="432", targets=None, vacant=None, played=None,
                                entries=None, defence="omniscient", scoring="tricks")
    cli = _cli_json(run, "bridge", "suitplay", "AQ10", "432")
    keys = re.findall(r'class="key" data-key="([^"]+)" title="([^"]+)"', answer.html)
    assert keys[:len(cli["targets"])] == [(f"{t['probability']:.2%}", t["probability_exact"]) for t in cli["targets"]]
    assert keys[-1][0] == f"{cli['mean_tricks_line']['mean']:.4f}"
    # each line is an ordered list of tricks; its plays, read in order, are the CLI's line
    lines = re.findall(r'<ol class="steps">(.*?)</ol>', answer.html, re.S)
    assert len(lines) == len(cli["targets"]) + 1
    for html, target in zip(lines, [*cli["targets"], cli["mean_tricks_line"]]):
        tricks = re.findall(r'<span class="trick">Trick (\d+):</span> ([^<]*)', html)
        assert [int(n) for n, _ in tricks] == list(range(1, len(tricks) + 1))
        plays = " ".join(text.strip() for _, text in tricks)
        said = [w.strip(";:.") for w in re.sub(r"\[[^\]]*\]", "", target["line"]).split()]
        assert [w.strip(";:.").lower() for w in plays.split()] == [w.lower() for w in said if w != "then"]
    # by hand: the double finesse makes three tricks when West holds both K and J, (13/26)(12/25)
    # = 6/25, and two unless East holds both, 1 - 6/25 = 19/25 (vacant places 13-13)
    assert ("24.00%", "6/25") in keys and ("76.00%", "19/25") in keys


def test_dd_answer_is_a_diagram_a_four_by_five_grid_and_par(run: Any) -> None:
    answer = dd.compute_table(None, deal=DEAL, dealer=None, vul="All")
    page = _parse(answer.html)
    cli = _cli_json(run, "bridge", "dd", DEAL, "--vul", "All")
    grid = page.tables["dd-grid"]
    assert len(grid) == 5 and all(len(row) == 6 for row in grid)
    for row in grid[1:]:
        seat = row[0][0]
        for text, attrs in row[1:]:
            assert int(text) == cli["tricks"][seat][attrs["data-strain"]]
    assert re.search(r'Par <strong class="key" data-key="\+90">\+90</strong> for NS: 1NT= by N, 1NT= by S', answer.html)
    assert cli["par"] == {"score": 90, "contracts": ["1NT= by N", "1NT= by S"]}
    # the diagram: every card of the deal once, each suit named for a screen reader and coloured by class
    holdings = re.findall(r'<abbr class="sym ([shdc])" title="(\w+)">.*?<span class="holding">([^<]*)</span>',
                          answer.html)
    assert len(holdings) == 16
    assert {(c, t) for c, t, _ in holdings} == {("s", "spades"), ("h", "hearts"), ("d", "diamonds"), ("c", "clubs")}
    cards = sorted(c + s for s, _, held in holdings for c in held)
    assert len(cards) == 52 and len(set(cards)) == 52
    hands = DEAL[2:].split()
    assert [h for _, _, h in holdings[:4]] == hands[0].split(".")  # North first: AKQ2 T98 765 432


@pytest.mark.parametrize("mode,fields", [
    ("split", {"mode": "split", "cards": "KJ54"}),
    ("split", {"mode": "split", "cards": "KJ54", "n": ""}),
])
def test_the_split_question_as_typed_works_with_the_pages_defaults(mode: str, fields: dict[str, str]) -> None:
    form = dict(suits.PAGE.defaults, **fields)
    spec = suits.prepare(form)
    assert spec.function.endswith("compute_split") and spec.kwargs["cards"] == "KJ54"
    assert spec.kwargs["n"] is None


def test_deals_are_drawn_as_the_cli_deals_them(run: Any) -> None:
    from cardlab.web.pages import deals

    answer = deals.compute(None, count=3, constraints={"N": "hcp=20+"}, fixed={}, seed=4, max_tries=10**6)
    status, pbn, _ = run("bridge", "deal", "-n", "3", "--north", "hcp=20+", "--seed", "4", "--format", "pbn")
    assert status == 0
    cli_deals = []
    for first, hands in re.findall(r'\[Deal "([NESW]):([^"]+)"\]', pbn):  # hands clockwise from the first seat
        turn = "NESW".index(first)
        cli_deals.append(" ".join(hands.split()[(4 - turn) % 4:] + hands.split()[:(4 - turn) % 4]))
    assert len(cli_deals) == 3
    boxes = re.findall(r'<section class="diagram-box">(.*?)</section>', answer.html, re.S)
    assert len(boxes) == 3
    for box, deal in zip(boxes, cli_deals):
        held = re.findall(r'<span class="holding">([^<]*)</span>', box)
        # diagram order North, West, East, South; PBN order from North clockwise: N E S W
        n, e, s, w = (hand.split(".") for hand in deal.split())
        assert held == [x or "—" for x in n + w + e + s]
        hcp = {who: int(v) for who, v in re.findall(r'<p class="who">(\w+).*?<span class="hcp"[^>]*>(\d+)<', box)}
        assert hcp["North"] >= 20 and sum(hcp.values()) == 40


def _key_rows(html: str, ident: str) -> dict[str, str]:
    return {row[0]: row[1] for row in _body(_parse(html).tables[ident])}


def test_makes_shows_contracts_side_by_side_as_the_cli(run: Any) -> None:
    answer = dd.compute_makes(None, contracts=["3NT", "4S"], by="S", vulnerable=False, deals=30, seed=3,
                              constraints={"N": "hcp=15-17"}, fixed={})
    cli = _cli_json(run, "bridge", "makes", "--contract", "3NT", "--contract", "4S", "--by", "S", "-n", "30",
                    "--seed", "3", "--north", "hcp=15-17")
    assert json.loads(answer.downloads["makes.json"]) == cli
    shown = _key_rows(answer.html, "makes")
    for c in cli["contracts"]:
        assert shown[f"{c['contract']} by {c['declarer']}"] == f"{100 * c['make']['probability']:.1f}%"
    # a second route: the share of deals with at least the contract's tricks, from the tricks table
    tricks = _body(_parse(answer.html).tables["tricks"])
    for column, needed in ((1, 9), (2, 10)):
        share = sum(float(r[column].rstrip("%")) for r in tricks if r[column] != "—" and int(r[0]) >= needed)
        assert abs(share - 100 * cli["contracts"][column - 1]["make"]["probability"]) < 0.02
    cmp = cli["comparison"]
    assert f"{cmp['imps']['mean']:+.2f}</span> IMPs a board" in answer.html


def test_several_contracts_are_each_compared_with_the_first_on_the_same_deals(run: Any) -> None:
    answer = dd.compute_makes(None, contracts=["3NT", "4S", "5C"], by="S", vulnerable=False, deals=12, seed=8,
                              constraints={}, fixed={})
    pairs = json.loads(answer.downloads["makes.json"])
    for pair, other in zip(pairs, ("4S", "5C")):
        assert pair == _cli_json(run, "bridge", "makes", "--contract", "3NT", "--contract", other, "--by", "S",
                                 "-n", "12", "--seed", "8")
    assert pairs[0]["contracts"][0] == pairs[1]["contracts"][0]  # the same deals: 3NT's figures agree
    shown = _key_rows(answer.html, "makes")
    assert list(shown) == ["3NT by S", "4S by S", "5C by S"]
    assert shown["5C by S"] == f"{100 * pairs[1]['contracts'][1]['make']['probability']:.1f}%"
    assert answer.html.count('class="comparison"') == 2


def test_leads_ranked_as_the_cli(run: Any) -> None:
    answer = dd.compute_lead(None, hand="AKQ2.T98.765.432", contract="3NT", by="S", deals=20, seed=5,
                             constraints={}, fixed={})
    cli = _cli_json(run, "bridge", "lead", "--hand", "AKQ2.T98.765.432", "--contract", "3NT", "--by", "S",
                    "-n", "20", "--seed", "5")
    shown = _body(_parse(answer.html).tables["leads"])
    assert [(r[0], r[1]) for r in shown] == [(lead["lead"], f"{100 * lead['set']['probability']:.1f}%")
                                             for lead in cli["leads"]]
    # by hand: 20 deals, so every set rate is a whole number of deals out of 20
    assert all(round(float(r[1].rstrip("%")) / 5, 9).is_integer() for r in shown)


def test_scoring_ranking_as_the_cli(run: Any) -> None:
    from pathlib import Path

    from cardlab.web.pages import scoring

    path = Path(__file__).resolve().parents[1] / "examples" / "session.xml"
    answer = scoring.compute(lambda *a: None, data=path.read_bytes(), name="session.xml", method=None, scale=None,
                             movement=None, title=None)
    cli = _cli_json(run, "bridge", "score", str(path))
    page = _parse(answer.html)
    for direction in ("NS", "EW"):
        shown = _body(page.tables[f"ranking-{direction.lower()}"])
        pairs = [p for p in cli["pairs"] if p["direction"] == direction]
        assert [(r[0], r[1], r[2], r[3]) for r in shown] == [
            (p["place"], f"{p['percentage']:.2f}", f"{p['matchpoints']:.2f}", p["pair"]) for p in pairs]
        # by hand: a percentage is the matchpoints over the boards' tops (top 8 a board here)
        for r in shown:
            assert abs(float(r[2]) / (8 * int(r[5])) * 100 - float(r[1])) < 0.006


def test_push_or_fold_verdict_and_charts_as_the_cli_and_the_published_chart(run: Any) -> None:
    from cardlab.web.pages import pushfold

    spec = pushfold.prepare({"stack": "10", "hand": "a5o"})
    answer = pushfold.compute(None, **spec.kwargs)
    cli = _cli_json(run, "poker", "pushfold", "--stack", "10")
    assert 'data-key="push">push</span>' in answer.html and "A5o" in cli["push"]
    cells = {which: dict(re.findall(r'data-label="(\w+)" data-stack="([^"]+)"',
                                    re.search(rf'id="{which}-chart">(.*?)</table>', answer.html, re.S).group(1)))
             for which in ("push", "call")}
    for which in ("push", "call"):
        assert len(cells[which]) == 169
        for label, value in cli["chart"][which].items():
            shown = cells[which][label]
            if value == "inf":
                assert shown == "25+"
            elif not value:
                assert shown == "-"
            else:
                assert float(shown) == round(value, 2), (which, label)
    # HoldemResources' heads-up Nash chart ("Using the Nash Charts", holdemresources.net/h/poker-theory/
    # hune/usage.html): the small blind pushes T3s up to 7.7 BB, the big blind calls Q2o up to 5.6 BB
    assert cells["push"]["T3s"] == "7.7" and cells["call"]["Q2o"] == "5.6"
    # the cells outlined are the classes played at 10 BB: the CLI's ranges (mixed ones at half or more)
    outlined = re.findall(r'class="pf\d mine(?: yours)?" data-label="(\w+)"',
                          re.search(r'id="push-chart">(.*?)</table>', answer.html, re.S).group(1))
    half = {h for h, p in cli["mixed"]["push"].items() if p < 0.5}
    assert set(outlined) == set(cli["push"]) - half
    assert re.search(r'class="pf6 mine yours" data-label="A5o"', answer.html)  # the hand asked about


def test_three_handed_push_or_fold_as_the_cli_with_charts_in_the_heads_up_colours(run: Any) -> None:
    """Issue 39: the page answers ``poker pushfold --players 3``: the same JSON, six charts whose
    cells show each class's frequency as the CLI's strategy has it, outlined where the CLI lists the
    class in the range, and each node's share of hands counted here over the 1,326 combos."""
    from itertools import combinations

    from cardlab.web.pages import pushfold

    spec = pushfold.prepare({"stack": "10", "hand": "k9o", "players": "3"})
    assert spec.function.endswith(":compute3")
    answer = pushfold.compute3(None, **spec.kwargs)
    cli = _cli_json(run, "poker", "pushfold", "--stack", "10", "--players", "3")
    assert json.loads(answer.downloads["pushfold.json"]) == cli
    ranks = "23456789TJQKA"
    combos: dict[str, int] = {}
    for a, b in combinations(range(52), 2):  # each class's combos, card by card
        high, low = sorted((a // 4, b // 4), reverse=True)
        label = ranks[high] + ranks[low] + ("" if high == low else "s" if a % 4 == b % 4 else "o")
        combos[label] = combos.get(label, 0) + 1
    for node, strategy in cli["strategy"].items():
        ident = node.replace("_", "-")
        chart = re.search(rf'id="{ident}-chart">(.*?)</table>', answer.html, re.S).group(1)
        cells = re.findall(r'class="pf(\d)( mine)?(?: yours)?" data-label="(\w+)" data-stack="(\d+)"', chart)
        assert len(cells) == 169
        for band, mine, label, shown in cells:
            assert int(shown) == round(100 * strategy[label]), (node, label)
            assert int(band) == pushfold.share_band(strategy[label])
            assert bool(mine) == (label in cli["ranges"][node]), (node, label)
        share = sum(combos[h] * p for h, p in strategy.items()) / 1326
        assert f"{share:.2%} of hands" in answer.html
    button = "push" if "K9o" in cli["ranges"]["btn_push"] else "fold"
    assert f'data-key="{button}">{button}</span></strong> on the button' in answer.html
    assert re.search(r'class="pf\d( mine)? yours" data-label="K9o"', answer.html)


@pytest.mark.parametrize("typed,error", [("A5", "say suited or offsuit"), ("AAs", "a pair is neither"),
                                         ("Z5o", "a starting hand such as"), ("A5os", "a starting hand such as")])
def test_push_or_fold_refuses_a_hand_it_cannot_read(typed: str, error: str) -> None:
    from cardlab.errors import WebInputError
    from cardlab.web.pages import pushfold

    with pytest.raises(WebInputError, match=error):
        pushfold.prepare({"hand": typed})


def _harville(stacks: list[int], payouts: list[int]) -> list[Fraction]:
    """Each player's expected prize by the Malmuth-Harville model, every finishing order listed."""
    from itertools import permutations

    value = [Fraction(0)] * len(stacks)
    for order in permutations(range(len(stacks))):
        chance, left = Fraction(1), sum(stacks)
        for player in order:
            chance *= Fraction(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order[:len(payouts)]):
            value[player] += chance * payouts[place]
    return value


def test_icm_equities_as_the_cli_and_by_every_finishing_order(run: Any) -> None:
    from cardlab.web.pages import icm

    spec = icm.prepare({"stacks": "4000,2500,2500,1000", "payouts": "50,30,20", "allin": "A:AsKs D:QQ"})
    answer = icm.compute(None, **spec.kwargs)
    cli = _cli_json(run, "poker", "icm", "4000,2500,2500,1000", "--payouts", "50,30,20", "--allin", "A:AsKs D:QQ")
    rows = _body(_parse(answer.html).tables["icm"])
    assert [r[0] for r in rows] == ["A", "B", "C", "D"]
    by_hand = _harville([4000, 2500, 2500, 1000], [50, 30, 20])
    for row, value, exact, mine in zip(rows, cli["equity"], cli["equity_exact"], by_hand):
        assert row[1] == f"{value:.4f}" and row[3] == exact == f"{mine.numerator}/{mine.denominator}"
    allin = _body(_parse(answer.html).tables["allin"])
    assert [(r[0], r[1]) for r in allin] == [(p, f"{c:+.4f}") for p, c in zip(cli["allin"]["players"],
                                                                              cli["allin"]["change"])]


def test_a_number_typed_as_the_missing_cards_is_how_many() -> None:
    spec = suits.prepare(dict(suits.PAGE.defaults, mode="split", cards="5"))
    assert spec.kwargs["n"] == 5 and spec.kwargs["cards"] is None
    with pytest.raises(Exception, match="Missing cards: expected a whole number from 1 to 13"):
        suits.prepare(dict(suits.PAGE.defaults, mode="split", cards="14"))


def test_travellers_show_the_deal_of_each_board_the_file_gives() -> None:
    from pathlib import Path

    from cardlab.web.pages import scoring

    text = (Path(__file__).resolve().parents[1] / "examples" / "results.pbn").read_text()
    answer = scoring.compute(lambda *a: None, data=text.encode(), name="results.pbn", method=None, scale=None,
                             movement=None, title=None)
    given = dict(re.findall(r'\[Board "(\d+)"\]\s*\n(?:\[[^\n]*\n)*?\[Deal "N:([^"]+)"\]', text))
    shown = re.findall(r'<div class="traveller">(.*?)</figure>', answer.html, re.S)
    assert len(shown) == len(given) >= 1
    for box, deal in zip(shown, given.values()):
        held = re.findall(r'<span class="holding">([^<]*)</span>', box)
        n, e, s, w = (hand.split(".") for hand in deal.split())
        assert held == [x or "—" for x in n + w + e + s]


def _verdict_of(comparison: Any) -> str:
    """The verdict the page must give, from the CLI's comparison: who is better at IMPs and at
    matchpoints (the 95% interval clear of 0 IMPs, of 50%), or too close to call."""
    said = []
    for scoring, middle in (("imps", 0.0), ("matchpoints", 0.5)):
        low, high = comparison[scoring]["ci95"]
        said.append(None if low <= middle <= high else ("3NT" if low > middle else "4S") + " by S")
    if said[0] == said[1]:
        return (f"{said[0]} is better" if said[0] else "Too close to call on these deals,") + " at IMPs and at matchpoints"
    return "; ".join(f"{name} " + (f"{b} is better" if b else "too close to call")
                     for name, b in zip(("At IMPs", "at matchpoints"), said))



@pytest.mark.parametrize("fields,error", [
    ({"contracts": ""}, "Contracts: please fill this in"),
    ({"contracts": "3NT, 4S, 5C, 6NT, 7NT"}, "one to 4 contracts"),
    ({"deals": "0"}, "Random deals: expected a whole number from 1 to 1,000,000"),
    ({"north_cards": "x" * 201}, "North's cards: at most 200 characters"),
])
def test_which_contract_refuses_a_bad_field_naming_it(fields: dict[str, str], error: str) -> None:
    from cardlab.errors import WebInputError
    from cardlab.web.pages import makes

    with pytest.raises(WebInputError, match=error):
        makes.prepare(dict(makes.PAGE.defaults, **fields))


def test_which_contract_as_typed_is_bridge_makes_with_the_two_hands(run: Any) -> None:
    """The page's defaults with a few deals: the same JSON as ``bridge makes`` for the two hands,
    3NT against 4S by South, and the verdict agrees with the IMPs' interval."""
    from cardlab.web.pages import makes

    spec = makes.prepare(dict(makes.PAGE.defaults, deals="12", seed="7"))
    answer = dd.compute_makes(None, **spec.kwargs)
    cli = _cli_json(run, "bridge", "makes", "--contract", "3NT", "--contract", "4S", "--by", "S", "-n", "12",
                    "--seed", "7", "--north-cards", makes.PAGE.defaults["north_cards"],
                    "--south-cards", makes.PAGE.defaults["south_cards"])
    assert json.loads(answer.downloads["makes.json"]) == cli
    assert _verdict_of(cli["comparison"]) in answer.html
    assert f'data-key="{cli["comparison"]["imps"]["mean"]:+.2f}"' in answer.html
    assert "North AK32.K54.A32.K32; South QJ54.A32.K54.A54; the other hands random" in answer.html
    assert "<strong>3NT by S</strong> rather than <strong>4S by S</strong>" in answer.html


@pytest.mark.parametrize("answer_note", [True, False])
def test_a_cancelled_answer_says_partial_result_once_and_announces_it(answer_note: bool) -> None:
    """The job box of a cancelled job with its partial answer: "Partial result" once (the answer's
    own note, with how much was done, when it has one; else the job box's), in a live region
    (role="status") that a screen reader announces."""
    from cardlab.web.answers import partial_note
    from cardlab.web.jobs import Job
    from cardlab.web.page import Answer
    from cardlab.web.render import fragment

    body = "<table><caption>3NT by S</caption></table>"
    html = (partial_note("12 of 1,000,000 deals were solved") if answer_note else "") + body
    job = Job("j1", "s", "Which contract?", "dd", state="cancelled", answer=Answer(html), message="cancelled")
    page = fragment("job.html", job=job)
    assert page.count("Partial result") == 1
    status = re.findall(r'<p class="partial" role="status">(.*?)</p>', page)
    assert len(status) == 1 and "Partial result" in status[0]
    assert ("12 of 1,000,000 deals were solved" in status[0]) == answer_note
    assert body in page
