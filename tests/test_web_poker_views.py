"""The workbench's poker and video poker views (src/cardlab/web/pages/poker.py, video.py): the
figures each view gives equal what the command line prints for the same question, and a second,
independent route (brute force over boards or draws written here, a published return) agrees."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations

import pytest

from cardlab.cards import card_id, parse_card_ids
from cardlab.errors import CardlabError, PayTableError
from cardlab.web.pages.poker import board_view, equity_view, range_cells, read_equity_form
from cardlab.web.pages.video import deal_view, read_table, trainer_view, video_view

from equity_brute import brute_equity
from video_brute import jacks_or_better


def _cli_json(run, *argv: str) -> dict:
    status, out, err = run(*argv, "--format", "json")
    assert status == 0, err
    return json.loads(out)


def test_equity_of_two_hands_on_a_flop_equals_the_cli_and_brute_force(run) -> None:
    form = {"player1": "AsAh", "player2": "KdKc", "board": "2c 7d 9h"}
    view = equity_view(form)
    cli = _cli_json(run, *read_equity_form(form).argv())
    assert view["exact"] is True and cli["exact"] is True
    for shown, row in zip(view["players"], cli["players"]):
        assert shown["spec"] == row["spec"]
        assert shown["equity"] == f"{row['equity']:.3%}" and shown["win"] == f"{row['win']:.3%}"
        assert shown["wins"] == f"{row['wins']:,}"
    # the table the CLI prints holds the same strings
    status, text, _ = run(*read_equity_form(form).argv())
    assert status == 0 and view["caption"] == text.splitlines()[0]
    for shown in view["players"]:
        assert f"{shown['win']}" in text and f"{shown['equity']}" in text
    # brute force: every turn and river listed, hands valued by treys
    holes = [parse_card_ids("AsAh"), parse_card_ids("KdKc")]
    total, wins, ties, shares = brute_equity(holes, parse_card_ids("2c 7d 9h"), [])
    assert (total, wins) == (990, [907, 83])
    assert view["players"][0]["equity"] == f"{float(shares[0] / total):.3%}"


def test_hand_against_a_range_fills_the_grid_as_the_cli_json(run) -> None:
    form = {"player1": "AhKh", "player2": "QQ+, AKs", "board": "Kd 7c 2s"}
    view = equity_view(form)
    cli = _cli_json(run, *read_equity_form(form).argv())
    assert [p["equity"] for p in view["players"]] == [f"{p['equity']:.3%}" for p in cli["players"]]
    grid = {cell["label"]: cell for row in view["grid"] for cell in row}
    assert grid["QQ"]["value"] is not None and grid["AKs"]["value"] is not None
    assert grid["JJ"]["value"] is None and grid["AKo"]["equity"] is None
    # AhKh on Kd7c2s against QQ (6 combos): brute force over the 990 .. turn and river boards
    board = parse_card_ids("Kd 7c 2s")
    hero = parse_card_ids("AhKh")
    num = den = Fraction(0)
    for a, b in combinations([c for c in range(40, 44)], 2):  # the four queens: Qc Qd Qh Qs
        total, _, _, shares = brute_equity([hero, [b, a]], board, [])
        num += shares[0]
        den += total
    assert grid["QQ"]["equity"] == f"{float(num / den):.1%}"


def test_simulated_equity_is_seeded_and_within_its_interval_of_the_exact_answer(run) -> None:
    form = {"player1": "AsKs", "player2": "QQ", "mode": "simulate", "trials": "200000", "seed": "7"}
    view = equity_view(form)
    cli = _cli_json(run, *read_equity_form(form).argv())
    assert view["exact"] is False and view["seed"] == 7
    assert [p["equity"] for p in view["players"]] == [f"{p['equity']:.3%}" for p in cli["players"]]
    assert [p["low"] for p in view["players"]] == [f"{p['ci95'][0]:.3%}" for p in cli["players"]]
    exact = equity_view({"player1": "AsKs", "player2": "QQ"})["players"][0]["value"]
    low, high = cli["players"][0]["ci95"]
    assert low <= exact <= high


@pytest.mark.parametrize("form, words", [
    ({"player1": "AsAh"}, "at least two players"),
    ({"player1": "AsAh", "player2": "AsKd"}, "given twice"),
    ({"player1": "AsAh", "player2": "KK", "game": "poker"}, "unknown choice 'poker'"),
    ({"player1": "AsAh", "player2": "QQ++"}, "QQ++"),
    ({"player1": "AsAh", "player2": "KK", "mode": "simulate", "trials": "-5"}, "boards to simulate"),
    ({"player1": "AsAh", "player2": "KK", "mode": "simulate", "trials": "1e99"}, "boards to simulate"),
    ({"player1": "AsAh", "player2": "KK", "board": "Zz"}, "Zz"),
    ({"player1": "x" * 5000, "player2": "KK"}, "player 1: at most"),
])
def test_bad_equity_fields_are_named_in_one_message(form: dict, words: str) -> None:
    with pytest.raises(CardlabError) as caught:
        equity_view(form)
    assert words in str(caught.value)


def test_an_exact_question_too_large_for_a_page_says_to_simulate() -> None:
    with pytest.raises(CardlabError, match="simulate"):
        equity_view({"player1": "random", "player2": "random", "player3": "random", "player4": "random"})


def test_board_view_equals_the_cli_class_table(run) -> None:
    form = {"range": "QQ+, AK, KQs", "board": "Qh9c2d"}
    view = board_view(form)
    status, text, _ = run(*view["argv"])
    assert status == 0
    assert view["caption"] == text.splitlines()[0]
    cli = _cli_json(run, *view["argv"])
    rows = {r["name"]: r for g in view["groups"] for r in g["rows"]}
    assert [r["name"] for r in cli["classes"]] == list(rows)
    for row in cli["classes"]:
        assert rows[row["name"]]["combos"] == f"{row['combos']:,}"
        assert rows[row["name"]]["share"] == f"{row['probability']:.2%}"
        assert f"{rows[row['name']]['share']:>8}" in text
    # counted here: sets are the three QQ combos without the Qh; KK and AA are the 12 overpairs
    assert rows["three of a kind"]["combos"] == "3" and rows["overpair"]["combos"] == "12"
    assert view["total"] == 3 + 6 + 6 + 16 + 3  # QQ KK AA AK KQs (KhQh and KQ with Qh are gone)


def test_board_view_refuses_omaha_and_a_missing_board() -> None:
    with pytest.raises(CardlabError, match="unknown choice 'omaha'"):
        board_view({"range": "AA", "board": "Qh9c2d", "game": "omaha"})
    with pytest.raises(CardlabError, match="board: give 3 to 5 cards"):
        board_view({"range": "AA"})


def test_range_cells_count_each_class_as_the_cli_lists_the_range(run) -> None:
    text = "QQ+, A5s-A2s, KQo, 0.5(JTs), AhKh, 76s:0.25"
    cells = range_cells(text)
    assert cells["error"] is None
    listing = _cli_json(run, "poker", "range", text, "--game", "holdem")
    assert cells["combos"] == listing["combos"] == 6 * 3 + 4 * 4 + 12 + 4 + 1 + 4
    by_label = {c["label"]: c for c in cells["cells"]}
    # every hand the CLI lists, counted into its class here
    counted: dict[str, int] = {}
    for hand in listing["hands"]:
        a, b = card_id(hand[:2]), card_id(hand[2:])
        hi, lo = max(a, b), min(a, b)
        ranks = "23456789TJQKA"
        label = ranks[hi // 4] + ranks[lo // 4] + ("" if hi // 4 == lo // 4 else ("s" if a % 4 == b % 4 else "o"))
        counted[label] = counted.get(label, 0) + 1
    assert {k: v["n"] for k, v in by_label.items() if v["n"]} == counted
    assert by_label["AKs"]["combos"] == [["AhKh", 1.0]] and by_label["AKs"]["of"] == 4
    assert by_label["JTs"]["weight"] == 0.5 and by_label["JTs"]["combos"] is None
    assert by_label["76s"]["weight"] == 0.25
    assert range_cells("QQ+", "shortdeck")["cells"][168]["of"] == 0  # no 22 in the short deck
    assert "cannot read" in range_cells("AKx")["error"]


# --- video poker ---------------------------------------------------------------------------------

def test_video_view_equals_the_cli_and_the_published_return(run) -> None:
    view = video_view({"paytable": "jacks-or-better-9-6"}, plot=False)
    cli = _cli_json(run, "poker", "video", "jacks-or-better-9-6")
    assert view["return"] == f"{100 * cli['return']:.4f}%" == "99.5439%"  # the published 99.54%
    assert [r["count"] for r in view["rows"]] == [f"{r['count']:,}" for r in cli["outcomes"]]
    assert view["total"]["count"] == "19,933,230,517,200"  # C(52,5) x 5 x C(47,5): see poker/video.py
    status, text, _ = run("poker", "video", "jacks-or-better-9-6")
    for row in view["rows"]:
        assert row["probability"] in text and row["count"] in text


def test_an_uploaded_pay_table_is_read_as_the_cli_reads_the_file(run, tmp_path) -> None:
    toml = (b'name = "Tiny"\n[[outcome]]\nhand = "royal flush"\npays = 800\n'
            b'[[outcome]]\nhand = "flush"\npays = 6\n')
    path = tmp_path / "tiny.toml"
    path.write_bytes(toml)
    view = video_view({}, toml, "C:\\Users\\me\\tiny.toml", plot=False)
    cli = _cli_json(run, "poker", "video", str(path))
    assert view["name"] == "Tiny" and view["return"] == f"{100 * cli['return']:.4f}%"
    with pytest.raises(CardlabError, match="not a text file"):
        video_view({}, b"\x00\x01garbage\xff", "x.toml")
    with pytest.raises(PayTableError, match="not a well-formed TOML"):
        video_view({}, b"[[outcome]\nhand=", "bad.toml")
    with pytest.raises(PayTableError, match="at most"):
        video_view({}, b"#" * 70_000, "big.toml")
    with pytest.raises(PayTableError, match="unknown pay table"):
        read_table({"paytable": "../../etc/passwd"})


def test_the_deal_is_seeded_and_from_the_games_deck() -> None:
    first = deal_view({"paytable": "jacks-or-better-9-6", "seed": "12"})
    assert first == deal_view({"paytable": "jacks-or-better-9-6", "seed": "12"})
    assert len(set(first["cards"])) == 5
    assert deal_view({"paytable": "jacks-or-better-9-6", "seed": "13"})["hand"] != first["hand"]
    fresh = deal_view({"paytable": "jacks-or-better-9-6"})
    assert deal_view({"paytable": "jacks-or-better-9-6", "seed": str(fresh["seed"])})["hand"] == fresh["hand"]
    jokers = {c for s in range(60) for c in deal_view({"paytable": "joker-poker-kings-or-better",
                                                       "seed": str(s)})["cards"]}
    assert "Jk" in jokers
    with pytest.raises(CardlabError, match="seed"):
        deal_view({"paytable": "jacks-or-better-9-6", "seed": "-1"})


def test_trainer_ranks_the_32_holds_as_the_cli_and_prices_a_mistake_by_brute_force(run) -> None:
    hand = "Jh Js 5c 5d 9s"
    kept = ["0", "1"]  # the jacks alone: two pair is the better hold
    view = trainer_view({"paytable": "jacks-or-better-9-6", "hand": hand, "hold": kept})
    cli = _cli_json(run, "poker", "video", "jacks-or-better-9-6", "--hand", hand)
    assert [h["hold"] for h in view["holds"]] == [h["hold"] or "(draw five)" for h in cli["holds"]]
    assert [h["ev"] for h in view["holds"]] == [f"{h['ev']:.6f}" for h in cli["holds"]]
    assert len(view["holds"]) == 32
    verdict = view["verdict"]
    assert verdict["best"] is False and verdict["best_hold"] == "Jh Js 5c 5d"
    assert [h["hold"] for h in view["holds"] if h["mine"]] == ["Jh Js"]
    # brute force: every draw to Jh Js 5c 5d and to Jh Js, valued by the oracle's jacks or better
    pay = jacks_or_better({"royal flush": 800, "straight flush": 50, "four of a kind": 25, "full house": 9,
                           "flush": 6, "straight": 4, "three of a kind": 3, "two pair": 2, "pair": 1})
    dealt = parse_card_ids(hand)
    rest = [c for c in range(52) if c not in dealt]

    def ev(held: list[int]) -> Fraction:
        draws = list(combinations(rest, 5 - len(held)))
        return Fraction(sum(pay([(c // 4, c % 4) for c in held + list(d)]) for d in draws), len(draws))

    best, mine = ev(dealt[:4]), ev(dealt[:2])
    assert best == Fraction(47 * 2 + 4 * 9 - 4 * 2, 47)  # 43 two pairs and 4 full houses
    assert verdict["best_ev"] == f"{float(best):.6f}" and verdict["ev"] == f"{float(mine):.6f}"
    assert verdict["cost"] == f"{float(best - mine):.6f}"
    right = trainer_view({"paytable": "jacks-or-better-9-6", "hand": hand, "hold": ["3", "2", "1", "0"]})
    assert right["verdict"]["best"] is True and right["verdict"]["cost"] == "0.000000"
    assert right["verdict"]["rank"] == 1
    nothing = trainer_view({"paytable": "jacks-or-better-9-6", "hand": hand})
    assert nothing["verdict"]["hold"] == "(draw five)"


def test_trainer_refuses_bad_holds_and_hands() -> None:
    with pytest.raises(CardlabError, match="place 0 to 4"):
        trainer_view({"paytable": "jacks-or-better-9-6", "hand": "Jh Js 5c 5d 9s", "hold": ["7"]})
    with pytest.raises(CardlabError, match="deal a hand first"):
        trainer_view({"paytable": "jacks-or-better-9-6"})
    with pytest.raises(CardlabError, match="Jh is given 2 times"):
        trainer_view({"paytable": "jacks-or-better-9-6", "hand": "Jh Jh 5c 5d 9s"})


def test_every_starting_hand_against_the_second_player_agrees_with_exact_equities() -> None:
    """Issue 39: the grid of every class against player 2's range (simulated, seeded) against
    exact equities of a few classes computed on their own."""
    import math

    from cardlab.poker.equity import equity
    from cardlab.web.pages.poker import FIELD_TRIALS

    view = equity_view({"player1": "AA", "player2": "KK"})
    cells = {c["label"]: c for row in view["field"]["rows"] for c in row}
    assert sum(c["value"] is not None for c in cells.values()) == 169 and cells["AA"]["mine"]
    assert [label for label, c in cells.items() if c["mine"]] == ["AA"]
    for label in ("AA", "72o", "AKs", "QQ"):
        exact = equity([label, "KK"]).players[0].equity
        combos = 6 if len(label) == 2 else (4 if label.endswith("s") else 12)
        samples = FIELD_TRIALS * combos / 1225  # random's combos that miss KK's cards, about
        assert abs(cells[label]["value"] - exact) < 4 * math.sqrt(exact * (1 - exact) / samples) + 0.002, label
        assert cells[label]["band"] == min(9, int(cells[label]["value"] * 10))
    # against KK, KK itself is even, AA far ahead (exact 81.9%: the table above)
    assert abs(cells["KK"]["value"] - 0.5) < 0.02 and view["players"][0]["equity"] == "81.946%"
    assert equity_view({"player1": "AA", "player2": "KK", "player3": "QQ"})["field"] is None
    assert equity_view({"player1": "AsKsQsJs", "player2": "AhKhQhJh", "board": "2c 3d 4h", "game": "omaha"})["field"] is None


@pytest.mark.parametrize("form", [
    {"player1": "As 2d 3c 7h 9s", "player2": "Kh Qh 4d 5c 6s", "game": "razz"},
    {"player1": "As Ah Kd", "player2": "7c 8c 9c", "game": "stud", "mode": "simulate", "trials": "20000", "seed": "3"},
    {"player1": "As 2d 3c", "player2": "Ah Kh 8d", "game": "stud8", "mode": "simulate", "trials": "50000", "seed": "4"},
    {"player1": "2c 3d 4h 5s 9c", "player2": "2d 3h 4s 6c 8d", "game": "27", "draws": "1", "mode": "simulate",
     "trials": "100000", "seed": "1"},
    {"player1": "Ac 2d 3h 4s", "player2": "Kc Kd Qh Js", "game": "badugi", "mode": "simulate", "trials": "10000",
     "seed": "2"},
], ids=["razz", "stud", "stud8", "27", "badugi"])
def test_stud_razz_lowball_and_badugi_equity_equal_the_cli(run, form: dict) -> None:
    """Issue 39: the equity page asks the games without a board (cardlab.poker.games.game_equity)."""
    view = equity_view(form)
    cli = _cli_json(run, *read_equity_form(form).argv())
    assert [p["equity"] for p in view["players"]] == [f"{p['equity']:.3%}" for p in cli["players"]]
    assert view["exact"] is cli["exact"] and view["field"] is None and view["grid"] is None


def test_razz_exact_equity_lies_in_a_seeded_simulations_interval() -> None:
    view = equity_view({"player1": "As 2d 3c 7h 9s", "player2": "Kh Qh 4d 5c 6s", "game": "razz"})
    sim = equity_view({"player1": "As 2d 3c 7h 9s", "player2": "Kh Qh 4d 5c 6s", "game": "razz", "mode": "simulate",
                       "trials": "200000", "seed": "11"})
    exact = view["players"][0]["value"]
    low, high = (float(sim["players"][0][k].rstrip("%")) / 100 for k in ("low", "high"))
    assert view["exact"] and not sim["exact"] and low <= exact <= high


def test_a_board_or_draws_where_the_game_has_none_is_refused() -> None:
    with pytest.raises(CardlabError, match="has no board"):
        equity_view({"player1": "As 2d 3c", "player2": "Kh Qh Jh", "game": "razz", "board": "2c 3c 4c"})
    with pytest.raises(CardlabError, match="draws: for the draw games"):
        equity_view({"player1": "AsAh", "player2": "KK", "draws": "2"})


def test_board_grid_says_which_hands_make_each_class_as_board_stats_of_each_class() -> None:
    """Issue 39 (as Flopzilla lights up a category's combos): each cell's classes, against
    board_stats of that hand class alone."""
    from cardlab.poker.board_stats import board_stats

    view = board_view({"range": "QQ+, AK, KQs, 98s", "board": "Qh 9c 2d"})
    cells = {c["label"]: c for row in view["hands"] for c in row}
    assert sum(c["n"] for c in cells.values()) == view["total"]
    for label in ("QQ", "AKs", "KQs", "98s", "AA"):
        alone = board_stats(label, "Qh 9c 2d")
        assert cells[label]["n"] == alone.total
        assert cells[label]["slugs"] == [c.name.replace(" ", "-") for c in alone.classes if c.combos], label
    assert "three-of-a-kind" in cells["QQ"]["slugs"] and cells["22"]["n"] == 0
