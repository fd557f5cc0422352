"""Strategy comparison (``bridge compare``): exact figures on hand-built deals, worked by hand;
a strategy against itself; random deals against a brute force over full double-dummy tables;
the deal sources; the command line."""

from __future__ import annotations

import json
import math
import statistics

import numpy as np
import pytest

from cardlab.board import Vulnerability
from cardlab.bridge.dd import dd_table, tricks_batch
from cardlab.bridge.dd_sim import constrained_hands, makes
from cardlab.bridge.deals import parse_constraint
from cardlab.bridge.strategy import compare_strategies, hands_from_deals
from cardlab.bridge.strategy_rules import parse_rule
from cardlab.cli.main import main
from cardlab.errors import ConstraintError, ContractError, DeckError
from cardlab.scoring.contract import Contract, declarer_score
from cardlab.scoring.matchpoints import imps

# One suit per hand: every double-dummy result is plain. X: N spades, E hearts, S diamonds, W clubs;
# Y: N hearts, E spades, S clubs, W diamonds.
X = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
Y = "N:.AKQJT98765432.. AKQJT98765432... ...AKQJT98765432 ..AKQJT98765432."
RULES = ["4S by N", "4H by N if hearts(north) == 13 else 4S by N", "pass", "best of 4S by N, 4H by N",
         "pass 4H by E", "4S by N"]


def _interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and normal 95% interval, computed here from the values themselves."""
    m = statistics.fmean(values)
    half = 1.959963984540054 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


@pytest.fixture(scope="module")
def two_deals():
    return compare_strategies(RULES, deals=[X, Y], vulnerabilities=["None", "All"], par=True)


def test_figures_worked_by_hand(two_deals):
    r = two_deals
    # A = 4S by N: X 13 tricks (+510 not vul: 120 + 300 + 90), Y no spade (0 tricks, 10 down, -500).
    a = r.strategy("A")
    assert (a.played, a.makes, a.mean_tricks()[0], a.mean_score()[0]) == (2, 1, 6.5, 5.0)
    # B = 4H by N on Y (13 tricks, +510), 4S by N on X (+510).
    b = r.strategy("B")
    assert (b.makes, b.mean_tricks()[0], b.mean_score()[0]) == (2, 13.0, 510.0)
    # A against B: X 0, Y -500 - 510 = -1010: 14 IMPs (900-1090).
    ab = r.pair("A", "B")
    assert ab.imps() == pytest.approx(_interval([0, -14]))
    assert ab.points() == pytest.approx(_interval([0, -1010]))
    assert ab.matchpoints()[0] == 0.25  # tie ½, loss 0, at a two-table pairs game
    assert (ab.wins, ab.ties, ab.losses) == (0, 1, 1) and ab.board_a_match()[0] == -0.5
    # A against pass: +510 (11 IMPs) and -500 (11 IMPs): 0 IMPs a board, +5 points a board.
    ac = r.pair("A", "C")
    assert ac.imps() == pytest.approx(_interval([11, -11])) and ac.points()[0] == 5
    assert ac.matchpoints()[0] == 0.5 and ac.board_a_match()[0] == 0.0
    # D, the better of 4S and 4H by N, is B on both deals.
    bd = r.pair("B", "D")
    assert bd.imps() == (0.0, 0.0, 0.0) and bd.points() == (0.0, 0.0, 0.0) and bd.matchpoints()[0] == 0.5
    # E: the opponents play 4H by E: X +510 for them (NS -510), Y 0 tricks for E (NS +500).
    assert r.strategy("E").mean_score()[0] == -5.0 and r.strategy("E").makes == 1
    # Vulnerable: 4S+3 is +710, 10 down -1000; A against B on Y: -1710, 17 IMPs (1500-1740).
    assert r.pair("A", "B", "All").imps() == pytest.approx(_interval([0, -17]))
    assert r.strategy("A", "All").mean_score()[0] == pytest.approx((710 - 1000) / 2)
    # F is A again: 0 IMPs, every deal tied.
    assert r.pair("A", "F").imps() == (0.0, 0.0, 0.0) and r.pair("A", "F").ties == 2
    # Pass: no contract played, score 0.
    c = r.strategy("C")
    assert c.played == 0 and c.mean_score() == (0.0, 0.0, 0.0) and math.isnan(c.make_rate()[0])


def test_imps_against_par_from_the_published_par_route(two_deals):
    # par from dd_table (DDS's DealerPar through the full-table route), scores by hand as above
    for vul, scores in (("None", {"A": [510, -500], "B": [510, 510]}), ("All", {"A": [710, -1000], "B": [710, 710]})):
        pars = [dd_table(d, "N", vul).par_score for d in (X, Y)]
        for label, s in scores.items():
            expected = _interval([int(imps(x - p)) for x, p in zip(s, pars)])
            assert two_deals.strategy(label, vul).imps_vs_par() == pytest.approx(expected)


def test_differing_deals_are_written_as_pbn():
    r = compare_strategies(["4S by N", "4H by N if hearts(north) == 13 else 4S by N"], deals=[X, Y, X], keep=10,
                vulnerabilities=["None"])
    assert len(r.differ) == 1  # only Y: on X both play 4S by N
    text = r.to_pbn()
    assert '[Deal "N:.AKQJT98765432.. AKQJT98765432... ...AKQJT98765432 ..AKQJT98765432."]' in text
    assert '[Contract "4S"]' in text and '[Result "0"]' in text
    assert "{A 4S by N: 0 tricks, NS -500; B 4H by N: 13 tricks, NS +510}" in text


def test_a_strategy_against_itself_gives_zero():
    r = compare_strategies(["3NT by N", "3NT by N"], 12, seed=5, constraints={"N": "hcp=15-17 shape=balanced"},
                vulnerabilities=["None"])
    p = r.pair("A", "B")
    assert r.deals == 12 and p.imps() == (0.0, 0.0, 0.0) and p.matchpoints()[0] == 0.5 and p.ties == 12


def test_random_deals_against_a_brute_force_over_full_tables():
    rules = ["4S by N", "3NT by S", "4S by N if spades(north) + spades(south) >= 8 else 3NT by S",
             "best of 4S by N, 3NT by S", "pass 2H by E"]
    hands, _ = constrained_hands(np.random.default_rng(11), 16,
                                 [(0, parse_constraint("hcp=15-17")), (2, parse_constraint("hcp=9-12"))])
    r = compare_strategies(rules, deals=hands, vulnerabilities=["NS"])
    tables = tricks_batch(hands)  # (n, 4, 5), strains C D H S NT: every cell, another DDS route
    def score(contract: str, seat: int, strain: int, deal: int) -> int:
        s = declarer_score(Contract.parse(contract), int(tables[deal, seat, strain]), seat in (0, 2))
        return s if seat in (0, 2) else -s
    per: dict[str, list[int]] = {k: [] for k in "ABCDE"}
    made = {"A": 0, "B": 0}
    for d in range(len(hands)):
        n_spades = sum(1 for c in hands[d, 0] if c % 4 == 3) + sum(1 for c in hands[d, 2] if c % 4 == 3)
        four, three = score("4S", 0, 3, d), score("3NT", 2, 4, d)
        made["A"] += int(tables[d, 0, 3]) >= 10
        made["B"] += int(tables[d, 2, 4]) >= 9
        per["A"].append(four)
        per["B"].append(three)
        per["C"].append(four if n_spades >= 8 else three)
        per["D"].append(max(four, three))
        per["E"].append(score("2H", 1, 2, d))
    assert (r.strategy("A", "NS").makes, r.strategy("B", "NS").makes) == (made["A"], made["B"])
    for a in per:
        assert r.strategy(a, "NS").mean_score() == pytest.approx(_interval(per[a]))
        for b in per:
            if a != b:
                diffs = [x - y for x, y in zip(per[a], per[b])]
                p = r.pair(a, b, "NS")
                assert p.imps() == pytest.approx(_interval([int(imps(d)) for d in diffs]))
                assert p.points() == pytest.approx(_interval(diffs))
                assert p.wins == sum(d > 0 for d in diffs) and p.ties == sum(d == 0 for d in diffs)


def test_two_fixed_contracts_agree_with_bridge_makes():
    # the same constrained dealing, seed and chunks: the same deals as makes() compares
    args = dict(constraints={"N": "hcp=15-17 shape=balanced", "S": "spades=5 hcp=10-12"}, seed=2)
    mine = compare_strategies(["4S by N", "3NT by N"], 10, vulnerabilities=["All"], **args)
    theirs = makes(["4S", "3NT"], "N", 10, vulnerable=True, **args)
    assert mine.pair("A", "B").imps() == pytest.approx(theirs.comparison.imps())
    assert mine.pair("A", "B").matchpoints() == pytest.approx(theirs.comparison.matchpoints())
    assert mine.strategy("A").make_rate()[0] == theirs.contracts[0].make_rate


def test_a_dealer_script_is_a_deal_source():
    from cardlab.bridge.dealer import parse_script

    script = parse_script("condition hcp(north) >= 22\n", "t.dl")
    r = compare_strategies(["3NT by N", "pass"], 6, script=script, seed=4, vulnerabilities=["None"], keep=6)
    assert r.deals == 6 and r.tried > 6
    for d in r.differ:  # every deal meets the condition
        assert sum(max(0, c // 4 - 8) for c in d.hands[0]) >= 22
    again = compare_strategies(["3NT by N", "pass"], 6, script=script, seed=4, vulnerabilities=["None"])
    assert again.to_dict()["pairs"] == r.to_dict()["pairs"]
    with pytest.raises(ConstraintError, match="script's condition"):
        compare_strategies(["3NT by N", "pass"], 2, script=parse_script("condition hcp(north) > 37\n"))


@pytest.mark.parametrize("rules, message", [
    (["4S by N"], "2 to 10 strategies"),
    (["4S by N"] * 11, "2 to 10 strategies"),
    (["4S by Q", "pass"], "unknown seat 'Q'"),
    (["4Z by N", "pass"], "unknown contract '4Z'"),
    (["4S by N if hcp(north) > 3", "pass"], "needs an 'else'"),
    (["4S by N if hcp(north >= 3 else pass", "pass"], "in the condition"),
    (["best of 4S by N", "pass"], "two contracts or more"),
    (["best of 4S by N, 4H by E", "pass"], "one side"),
    (["x" * 3000, "pass"], "one line"),
])
def test_bad_rules_name_the_offending_part(rules, message):
    with pytest.raises(ContractError, match=message):
        compare_strategies(rules, deals=[X])


def test_rule_parsing():
    rule = parse_rule("4H by N if hearts(north) >= 5 else 3NT by S if hcp(south) > 10 else pass")
    assert [str(c) for c in rule.choices] == ["4H by N", "3NT by S", "pass"]
    assert rule.tests == ("hearts(north) >= 5", "hcp(south) > 10")
    for text in [rule.text, "best of 4S by N, 3NT by S", "pass", "4SX by W", "4S by N if rnd(3) == 0 else pass"]:
        again = parse_rule(str(parse_rule(text)))  # the notation reads back what it writes
        assert (again.choices, again.tests) == (parse_rule(text).choices, parse_rule(text).tests)
    with pytest.raises(ContractError) as long_rule:
        parse_rule("4S by " + "Q" * 1500)
    assert len(str(long_rule.value)) < 200  # an excerpt, not the whole rule
    with pytest.raises(ContractError, match="dealer"):
        compare_strategies(["4S by N", "pass"], deals=[X], dealer="Z")
    with pytest.raises(ConstraintError, match="one way"):
        compare_strategies(["4S by N", "pass"], 2, deals=[X], constraints={"N": "hcp=10+"})
    with pytest.raises(DeckError, match="holds a card twice"):
        compare_strategies(["4S by N", "pass"], deals=np.zeros((1, 4, 13), dtype=np.uint8))
    with pytest.raises(ContractError, match="vulnerability"):
        compare_strategies(["4S by N", "pass"], deals=[X], vulnerabilities=["sometimes"])


def test_cli_json_csv_and_differ_file(tmp_path, capsys):
    deals = tmp_path / "d.pbn"
    deals.write_text(f'[Board "1"]\n[Deal "{X}"]\n\n[Board "2"]\n[Deal "{Y}"]\n', encoding="utf-8")
    differ = tmp_path / "differ.pbn"
    code = main(["bridge", "compare", "-s", "4S by N", "-s", "4H by N if hearts(north) == 13 else 4S by N",
                 "--file", str(deals), "--vul", "None", "--format", "json", "--differ", str(differ)])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    ab = next(p for p in data["pairs"] if p["first"] == "A" and p["second"] == "B")
    assert data["deals"] == 2 and ab["imps"]["mean"] == -7.0 and ab["board_a_match"]["losses"] == 1
    assert differ.read_text(encoding="utf-8").count("[Deal ") == 1
    assert main(["bridge", "compare", "-s", "4S by N", "-s", "pass", "--file", str(deals), "--format", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "kind,vulnerability,first,second,measure,mean,ci95_low,ci95_high"
    # not vulnerable +510 (11 IMPs) and -500 (-11); vulnerable +710 (12) and -1000 (-14)
    assert any(r.startswith("pair,None,A,B,imps,0.0,") for r in rows)
    assert any(r.startswith("pair,All,A,B,imps,-1.0,") for r in rows)
    assert "strategy,None,B,,make,,," in rows  # pass plays no contract: no make rate (empty cells, not nan)


@pytest.mark.parametrize("argv, message", [
    (["-s", "4S by N"], "2 to 10 strategies"),
    (["-s", "4S by N", "-s", "3NT by North-ish"], "unknown seat"),
    (["-s", "4S by N", "-s", "pass", "--vul", "Some"], "unknown vulnerability"),
    (["-s", "4S by N", "-s", "pass", "--north", "hcp=40"], "hcp"),
    (["-s", "4S by N", "-s", "pass", "--vul", "None,none"], "different vulnerabilities"),
    (["-s", "4S by N", "-s", "pass", "--differ", "/no/such/folder/d.pbn"], "does not exist"),
])
def test_cli_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(["bridge", "compare", *argv, "-n", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_published_stayman_or_not_iv():
    """Richard Pavlicek, "Stayman or Not IV", http://rpbridge.net/8z21.htm (10,000 deals, double
    dummy): 3NT 9.0023 tricks, makes 68.33%; 4S 9.9873, 72.30%; 4S over 3NT: net W-L +3050,
    net IMPs +9809 (declarer not vulnerable) and +11,175 (vulnerable), i.e. per deal +0.305,
    +0.98, +1.12. His deal is approximated (tests/data/SOURCES.md); each of his figures, whose own
    sampling error is 1/5 of ours, lies in our 95% interval from 400 deals."""
    from pathlib import Path

    from cardlab.bridge.dealer import parse_script

    path = Path(__file__).parent / "data" / "pavlicek_8z21_stayman.dl"
    script = parse_script(path.read_text(encoding="utf-8"), str(path))
    r = compare_strategies(["3NT by N", "4S by N"], 400, script=script, seed=3)
    def inside(figure: tuple[float, float, float], published: float) -> bool:
        return figure[1] <= published <= figure[2]
    assert inside(r.strategy("A").mean_tricks(), 9.0023) and inside(r.strategy("B").mean_tricks(), 9.9873)
    assert inside(r.strategy("A").make_rate(), 0.6833) and inside(r.strategy("B").make_rate(), 0.7230)
    assert inside(r.pair("B", "A", "None").imps(), 0.9809) and inside(r.pair("B", "A", "All").imps(), 1.1175)
    assert inside(r.pair("B", "A").board_a_match(), 0.305)
    assert r.pair("B", "A").imps()[1] > 0  # and 4S is better, as he found


def _strict(text: str) -> object:
    def refuse(token: str) -> None:
        raise AssertionError(f"not JSON: {token}")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("finished", [0, 1])
def test_ctrl_c_returns_the_deals_solved_so_far(monkeypatch, finished):
    import cardlab.bridge.strategy as strategy

    real, calls = strategy.declarer_tricks, []
    def interrupted(hands, plays):
        calls.append(1)
        if len(calls) > finished:
            raise KeyboardInterrupt
        return real(hands, plays)
    monkeypatch.setattr(strategy, "declarer_tricks", interrupted)
    r = compare_strategies(["4S by N", "pass"], deals=[X, Y, X], chunk=1, vulnerabilities=["None"])
    assert r.interrupted and r.deals == finished and r.requested == 3
    data = _strict(r.to_json())
    assert data["deals"] == finished and data["strategies"][1]["make"] is None  # pass: nothing played
    assert (data["pairs"][0]["imps"] is None) == (finished == 0)
    assert f"interrupted: {finished} of 3 deals were solved" in r.table()


def test_one_and_two_workers_give_the_same_figures():
    args = dict(constraints={"N": "hcp=15-17"}, seed=1, chunk=4, vulnerabilities=["None"])
    rules = ["4S by N", "3NT by N if hcp(north) > 15 else 2S by N"]
    assert compare_strategies(rules, 8, **args).to_dict() == compare_strategies(rules, 8, workers=2, **args).to_dict()


def test_rnd_in_a_condition_follows_the_seed():
    from cardlab.bridge.strategy import _owner_of_hands

    rule = parse_rule("4S by N if rnd(2) == 0 else 4H by N")
    owner = _owner_of_hands(hands_from_deals([X] * 64))
    one, two = np.random.SeedSequence(1), np.random.SeedSequence(2)
    assert (rule.pick(owner, one) == rule.pick(owner, np.random.SeedSequence(1))).all()
    assert (rule.pick(owner, one) != rule.pick(owner, two)).any()
    assert 10 < (rule.pick(owner, one) == 0).sum() < 54  # about half
    rules = [rule.text, "4S by N"]  # the chunks draw differently, a seed gives the same figures
    first = compare_strategies(rules, deals=[X] * 16, chunk=4, vulnerabilities=["None"])
    assert first.to_dict() == compare_strategies(rules, deals=[X] * 16, chunk=4, vulnerabilities=["None"]).to_dict()
    assert 0 < first.pair("A", "B").ties < 16


def test_cli_reads_a_lin_file(tmp_path, capsys):
    lin = tmp_path / "one.lin"  # LIN lists South first: South holds the spades
    lin.write_text("pn|a,b,c,d|st||md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|rh||ah|Board 1|sv|o|pg||\n",
                   encoding="utf-8")
    assert main(["bridge", "compare", "-s", "7S by S", "-s", "pass", "--file", str(lin), "--vul", "None",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["strategies"][0]["score"]["mean"] == 1510 and data["pairs"][0]["imps"]["mean"] == 17


def test_each_deal_is_solved_only_for_the_plays_its_strategies_need(monkeypatch):
    import cardlab.bridge.strategy as strategy

    real, asked = strategy.declarer_tricks, []
    def recording(hands, plays):
        asked.append((tuple(plays), len(hands)))
        return real(hands, plays)
    monkeypatch.setattr(strategy, "declarer_tricks", recording)
    compare_strategies(["4S by N", "4H by N if hearts(north) == 13 else 4S by N", "4S by N", "pass"],
                       deals=[X, Y, X], vulnerabilities=["None", "All"])
    # 4S by N once on the three deals (three strategies, two vulnerabilities); 4H by N on Y only
    assert sorted(asked) == [(((0, 2),), 1), (((0, 3),), 3)]
    asked.clear()
    compare_strategies(["best of 4S by N, 4H by N", "pass"], deals=[X, Y])
    assert sorted(asked) == [(((0, 2),), 2), (((0, 3),), 2)]


def test_each_board_at_its_own_vulnerability_and_dealer():
    from cardlab.deal import Board, Deal

    boards = [Board(1, Deal.from_pbn(X)), Board(2, Deal.from_pbn(Y))]  # N None; E NS (by the numbers)
    assert (boards[1].dealer.value, boards[1].vulnerability.value) == ("E", "NS")
    r = compare_strategies(["4S by N", "4H by N if hearts(north) == 13 else 4S by N"], deals=boards,
                           vulnerabilities=["board"], par=True, keep=5)
    # board 1 not vulnerable: +510 both; board 2 NS vulnerable: 4S 10 down -1000, 4H+3 +710 (17 IMPs)
    assert r.vulnerabilities == ("board",)
    assert r.strategy("A").mean_score()[0] == -245 and r.strategy("B").mean_score()[0] == 610
    assert r.pair("A", "B").imps() == pytest.approx(_interval([0, -17]))
    pars = [dd_table(X, "N", "None").par_score, dd_table(Y, "E", "NS").par_score]  # each board's dealer
    assert r.strategy("A").imps_vs_par() == pytest.approx(_interval([int(imps(510 - pars[0])),
                                                                     int(imps(-1000 - pars[1]))]))
    assert '[Dealer "E"]\n[Vulnerable "NS"]' in r.to_pbn()
    with pytest.raises(ContractError, match="needs boards"):
        compare_strategies(["4S by N", "pass"], deals=[X], vulnerabilities=["board"])
