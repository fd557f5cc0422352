"""The side bets of the games against a dealer (cardlab.casino.side_bets): Casino Hold'em's AA
Bonus, Ultimate Texas Hold'em's Trips, Texas Hold'em Bonus's Bonus bet and Caribbean Stud's
progressive, against published figures, brute forces on reduced decks with plain loops and exact
fractions, and the seeded simulation.

Sources of the published figures (cited beside each number below):
- [WP-PP] Wikipedia, "Poker probability" (the frequency tables of 5-card and 7-card hands):
  5 cards of 2,598,960: royal flush 4, straight flush 36, four of a kind 624, full house 3,744,
  flush 5,108, straight 10,200, three of a kind 54,912, two pair 123,552, one pair 1,098,240
  (a thirteenth of them, 84,480, aces); 7 cards of 133,784,560: royal flush 4,324, straight flush
  37,260, four of a kind 224,848, full house 3,473,184, flush 4,047,644, straight 6,180,020,
  three of a kind 6,461,620.
- [WoO-FL] Wizard of Odds, "Florida Variant of Trips Bet",
  https://wizardofodds.com/games/three-card-poker/side-bets/millionaire-maker/florida-variant-trips-bet/ :
  "the most common 50-40-30-8-7-4-3 Trips pay table under the conventional rules has a house
  edge of 3.50%".
- [CONT-2000] M. Shackleford, "The Wizard of Odds Analyzes the New Casino Games", Contingencies
  (American Academy of Actuaries), November/December 2000, Caribbean Stud, Table 3 (royal flush
  100% of the meter, straight flush 10%, fixed pays for four of a kind / full house / flush):
  100/75/50 breaks even at a meter of $263,205, 150/100/50 at $246,784. (The table's other
  columns could not be read reliably from the copy found: their figures are not used.)
- [USV] usvegas.com, "Caribbean Stud" (the jackpot bet): with 50/75/100 for flush/full
  house/quads the return per $1 is "approximately $0.23 plus 2.924 cents for each $10,000 in the
  jackpot"; with 100/250/500 "approximately $0.68".
- [RIV] Rivers Casino Des Plaines, "Texas Hold'em Bonus Poker" rules: the Bonus pays 1,000 (aces,
  the dealer aces too), 30 (aces), 25 (A-K suited), 20 (A-Q or A-J suited), 15 (A-K offsuit), 10
  (K-K, Q-Q, J-J), 5 (A-Q or A-J offsuit), 3 (tens to deuces): the table; its house edge could not
  be read at a source from here (8.5406% exact, checked by the closed form and brute force below).
- The AA Bonus table 100/50/40/30/20/7/7/7/7 (i-casinobonus.com, "Casino Hold'em Rules": royal
  100, straight flush 50, four of a kind 40, full house 30, flush 20, straight or lower down to a
  pair of aces 7): its house edge could not be read at a source from here either (6.2583% exact,
  from the [WP-PP] counts).
"""

from __future__ import annotations

import itertools
import json
import math
import tomllib
from collections import Counter
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from bruteforce import poker_key
from cardlab.casino.analysis import analyse
from cardlab.casino.game import game_file, parse_game, read_game
from cardlab.casino.side_bets import side_bet_analysis
from cardlab.cli.main import main
from cardlab.errors import CardlabError, PayTableError

RANKS = "23456789TJQKA"


def _game(name: str, deck: str = "standard", **side: object) -> object:
    """A built-in game with another deck and its first side bet's keys changed."""
    data = tomllib.loads(game_file(name).read_text())
    data["deck"] = deck
    data["side_bet"][0].update(side)
    return parse_game(data, "reduced.toml")


def _pays(bet, **changed: float) -> list[dict]:
    return [dict(line, pays=changed.get(line["hand"], line.get("pays", 0))) if "pays" in line else dict(line)
            for line in bet]


def _counts(bet) -> dict[str, int]:
    return {row.name: row.count for row in bet.outcomes}


# --- the published figures -------------------------------------------------------------------


def test_aa_bonus_counts_every_five_card_hand():
    bet = analyse("casino-holdem", side_bets_only=True).bet("AA Bonus")
    assert _counts(bet) == {"royal flush": 4, "straight flush": 36, "four of a kind": 624, "full house": 3744,
                            "flush": 5108, "straight": 10200, "three of a kind": 54912, "two pair": 123552,
                            "pair of aces": 1098240 // 13, "nothing": 2598960 - 282660}  # [WP-PP]
    assert bet.total == 2598960  # [WP-PP]
    assert bet.expected == Fraction(-162652, 2598960)
    assert f"{bet.house_edge:.4%}" == "6.2583%"


def test_trips_as_published():
    bet = analyse("ultimate-holdem", side_bets_only=True).bet("Trips")
    assert _counts(bet) == {"royal flush": 4324, "straight flush": 37260, "four of a kind": 224848,
                            "full house": 3473184, "flush": 4047644, "straight": 6180020,
                            "three of a kind": 6461620, "nothing": 113355660}  # [WP-PP]
    assert f"{bet.house_edge:.2%}" == "3.50%"  # [WoO-FL]: 50-40-30-8-7-4-3


@pytest.mark.parametrize("pays, edge", [((9, 7, 4), "0.9018%"), ((8, 6, 5), "1.9040%"), ((8, 6, 4), "6.5234%")])
def test_the_other_trips_tables_from_the_category_counts(pays, edge):
    """The tables the built-in file lists in a comment: the edge from the [WP-PP] counts by hand."""
    data = tomllib.loads(game_file("ultimate-holdem").read_text())
    lines = data["side_bet"][0]["pays"]
    for line, pay in zip(lines[3:6], pays):
        line["pays"] = pay
    bet = side_bet_analysis(parse_game(data, "g.toml").poker_side_bets[0], list(range(52)))
    counts = [4324, 37260, 224848, 3473184, 4047644, 6180020, 6461620]  # [WP-PP]
    won = sum(p * n for p, n in zip((50, 40, 30, *pays, 3), counts))
    assert bet.expected == Fraction(won - (133784560 - sum(counts)), 133784560)
    assert f"{bet.house_edge:.4%}" == edge


def test_holdem_bonus_bet_by_its_closed_form():
    """Every (player, dealer) pair of hole cards, 1,326 x 1,225 = 1,624,350; the table as [RIV]."""
    bet = analyse("texas-holdem-bonus", side_bets_only=True).bet("Bonus")
    dealer = comb(50, 2)
    assert bet.total == comb(52, 2) * dealer == 1624350
    assert list(_counts(bet).values()) == [6 * 1, 6 * dealer - 6, 4 * dealer, 8 * dealer, 12 * dealer, 18 * dealer,
                                           24 * dealer, 54 * dealer, bet.total - 126 * dealer]
    assert f"{bet.house_edge:.4%}" == "8.5406%"


def test_caribbean_progressive_as_published():
    bet = analyse("caribbean-stud", side_bets_only=True, meter=10_000).bet("Progressive")
    figures = bet.progressive
    assert figures is not None
    assert f"{1 + float(figures.base):.2f}" == "0.23"  # [USV]: $0.23 ...
    assert f"{float(figures.per_unit) * 10_000 * 100:.3f}" == "2.924"  # [USV]: ... plus 2.924 cents per $10,000
    assert round(figures.break_even) == 263205  # [CONT-2000] 100/75/50
    data = tomllib.loads(game_file("caribbean-stud").read_text())
    data["side_bet"][0]["pays"] = _pays(data["side_bet"][0]["pays"], **{"four of a kind": 150, "full house": 100})
    other = side_bet_analysis(parse_game(data, "g.toml").poker_side_bets[0], list(range(52)))
    assert round(other.progressive.break_even) == 246784  # [CONT-2000] 150/100/50
    data["side_bet"][0]["pays"] = _pays(data["side_bet"][0]["pays"], **{"four of a kind": 500, "full house": 250,
                                                                         "flush": 100})
    rich = side_bet_analysis(parse_game(data, "g.toml").poker_side_bets[0], list(range(52)))
    assert f"{1 + float(rich.progressive.base):.2f}" == "0.68"  # [USV] 100/250/500


def test_the_meter_moves_the_return_on_its_line():
    """The expected result is linear in the meter: at the break-even meter it is 0 exactly."""
    at = {m: analyse("caribbean-stud", side_bets_only=True, meter=m).bet("Progressive") for m in (0, 250_000)}
    slope = (at[250_000].expected - at[0].expected) / 250_000
    assert slope == at[0].progressive.per_unit == Fraction(76, 10 * 2598960)
    even = -at[0].expected / slope
    assert even == Fraction(2000360 * 10, 76)
    assert at[250_000].outcomes[0].net == 249_999  # pays for one: the unit is not returned


# --- brute force on reduced decks, plain loops and exact fractions -----------------------------


def _deck(text: str) -> list[int]:
    from cardlab.casino.video import parse_deck

    counts = parse_deck(text).counts
    return [i for i, c in enumerate(counts) if c]


def _line_of(key: tuple[int, tuple[int, ...]], lines: list[dict]) -> int:
    """The first pay line a five-card (category, ranks) key takes, by the words of the file."""
    words = ["high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
             "four of a kind", "straight flush", "royal flush"]
    for i, line in enumerate(lines):
        if words.index(line["hand"]) == key[0]:
            if "ranks" not in line or RANKS[key[1][0]] in line["ranks"]:
                return i
    return len(lines)


def _expected(lines: list[dict], counts: Counter, total: int, meter: Fraction = Fraction(0),
              for_one: bool = False) -> Fraction:
    nets = [Fraction(line.get("pays", 0)) + Fraction(line.get("percent_of_meter", 0)) / 100 * meter - for_one
            for line in lines] + [Fraction(-1)]
    return sum((nets[i] * n for i, n in counts.items()), Fraction(0)) / total


@pytest.mark.parametrize("name, deck", [("casino-holdem", "9-A"), ("caribbean-stud", "9-A")])
def test_five_card_bets_by_brute_force(name, deck):
    game = _game(name, deck)
    data = tomllib.loads(game_file(name).read_text())["side_bet"][0]
    cards = _deck(deck)
    counts = Counter(_line_of(poker_key(hand), data["pays"]) for hand in itertools.combinations(cards, 5))
    total = comb(len(cards), 5)
    bet = analyse(game, side_bets_only=True).bets[0]
    assert [row.count for row in bet.outcomes] == [counts[i] for i in range(len(data["pays"]) + 1)]
    meter = Fraction(data.get("meter", 0))
    assert bet.expected == _expected(data["pays"], counts, total, meter, data.get("pays_for_one", False))


def test_trips_by_brute_force():
    """Best five of seven on a 17-card deck with every category paid: each five-card hand valued
    once by the plain evaluator, each seven the best of its 21."""
    deck = "9s Ts Js Qs Ks As Th Jh Qh Kh Ah Td Jd Qd Tc Jc Qc"
    cards = _deck(deck)
    value = {five: poker_key(five)[0] for five in itertools.combinations(cards, 5)}
    data = tomllib.loads(game_file("ultimate-holdem").read_text())["side_bet"][0]
    counts: Counter = Counter()
    for seven in itertools.combinations(cards, 7):
        best = max(value[five] for five in itertools.combinations(seven, 5))
        counts[_line_of((best, (0,)), data["pays"])] += 1
    bet = analyse(_game("ultimate-holdem", deck), side_bets_only=True).bets[0]
    assert [row.count for row in bet.outcomes] == [counts[i] for i in range(len(data["pays"]) + 1)]
    assert all(counts[i] for i in range(len(data["pays"]) + 1))  # every line is reached on this deck
    assert bet.expected == _expected(data["pays"], counts, comb(len(cards), 7))


def test_holdem_bonus_by_brute_force():
    """Every player and dealer pair of hole cards of a 24-card deck, paid by plain rank and suit
    tests (not range notation)."""
    cards = _deck("9-A")

    def line(mine: tuple[int, int], theirs: tuple[int, int]) -> int:
        hi, lo = sorted((mine[0] >> 2, mine[1] >> 2), reverse=True)
        suited = mine[0] & 3 == mine[1] & 3
        A, K, Q, J, T = 12, 11, 10, 9, 8
        if hi == lo == A:
            return 0 if theirs[0] >> 2 == theirs[1] >> 2 == A else 1
        if (hi, lo) == (A, K):
            return 2 if suited else 4
        if hi == A and lo in (Q, J):
            return 3 if suited else 6
        if hi == lo and hi in (K, Q, J):
            return 5
        if hi == lo and hi <= T:
            return 7
        return 8

    counts: Counter = Counter()
    for mine in itertools.combinations(cards, 2):
        rest = [c for c in cards if c not in mine]
        for theirs in itertools.combinations(rest, 2):
            counts[line(mine, theirs)] += 1
    bet = analyse(_game("texas-holdem-bonus", "9-A"), side_bets_only=True).bets[0]
    assert [row.count for row in bet.outcomes] == [counts[i] for i in range(9)]
    data = tomllib.loads(game_file("texas-holdem-bonus").read_text())["side_bet"][0]
    assert bet.expected == _expected(data["pays"], counts, comb(24, 2) * comb(22, 2))


# --- the seeded simulation ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["casino-holdem", "ultimate-holdem", "texas-holdem-bonus", "caribbean-stud"])
def test_simulation_agrees_with_exact(name):
    """Full deck, side bets only (a progressive at a small meter, so its tail is not too heavy
    for the interval): the mean within 3.3 standard errors of the exact figure."""
    meter = 200 if name == "caribbean-stud" else None
    bet = analyse(name, side_bets_only=True, simulate=60_000, seed=7, meter=meter).bets[0]
    s = bet.simulated
    assert s is not None and s.trustworthy
    assert abs(s.mean - float(bet.expected)) <= 3.3 * bet.sd / math.sqrt(s.hands), (s.mean, float(bet.expected))


def test_a_five_card_progressive_in_ultimate_holdem_pays_on_the_hole_cards_and_flop():
    """cards = 5 in Ultimate Texas Hold'em: the first five of the player's seven (the [WP-PP]
    five-card counts), and its simulation deals them from the game's layout."""
    data = tomllib.loads(game_file("ultimate-holdem").read_text())
    data["side_bet"] = [{"name": "Progressive", "cards": 5, "meter": 20, "pays": [
        {"hand": "royal flush", "percent_of_meter": 100}, {"hand": "straight flush", "percent_of_meter": 10},
        {"hand": "four of a kind", "pays": 30}, {"hand": "flush", "pays": 12}]}]
    bet = analyse(parse_game(data, "g.toml"), side_bets_only=True, simulate=50_000, seed=5).bets[0]
    assert [row.count for row in bet.outcomes] == [4, 36, 624, 5108, 2598960 - 5772]  # [WP-PP]
    assert bet.expected == Fraction(4 * 20 + 36 * 2 + 624 * 30 + 5108 * 12 - (2598960 - 5772), 2598960)
    s = bet.simulated
    assert abs(s.mean - float(bet.expected)) <= 3.3 * bet.sd / math.sqrt(s.hands)


def test_the_simulation_reads_the_dealers_hole_cards_where_the_games_deal_them():
    """Every hold'em game deals hole cards, flop, turn, river, then the dealer's two (positions 7
    and 8, cardlab.casino.holdem.showdown): aces against aces there pays the 1,000 line."""
    from cardlab.casino.side_bets import side_bet_net

    game = _game("texas-holdem-bonus")
    net = side_bet_net(game.poker_side_bets[0], game.cards)
    aces = [51, 50, 0, 4, 8, 12, 16, 49, 48]  # As Ah, a flop, turn and river of deuces to sixes, Ad Ac
    rows = np.array([aces, aces[:7] + [20, 24], [51, 50, 49, 48, 0, 4, 8, 12, 16]])  # the last: aces on the flop
    assert net(rows).tolist() == [1000.0, 30.0, 30.0]


@pytest.mark.parametrize("name, bets", [("casino-holdem", ["Ante & Call", "AA Bonus"]),
                                        ("ultimate-holdem", ["Ante, Blind & Play", "Trips"]),
                                        ("texas-holdem-bonus", ["Ante & Bets", "Bonus"]),
                                        ("caribbean-stud", ["Ante & Raise", "Progressive"])])
def test_side_bets_ride_along_with_the_main_game(name, bets):
    """A whole analysis (reduced deck) carries the side bet beside the main bet, the same figures as
    alone, and its simulation deals both from one deal (a progressive at a small meter)."""
    game = _game(name, "9-A", **({"meter": 50} if name == "caribbean-stud" else {}))
    whole = analyse(game, simulate=20_000, seed=3)
    alone = analyse(game, side_bets_only=True)
    assert [b.name for b in whole.bets] == bets
    assert whole.bets[1].expected == alone.bets[0].expected
    data = tomllib.loads(game_file(name).read_text())
    data["deck"] = "9-A"
    del data["side_bet"]
    assert whole.bets[0] == analyse(parse_game(data, "plain.toml"), simulate=20_000, seed=3).bets[0]
    for bet in whole.bets:
        s = bet.simulated
        assert abs(s.mean - float(bet.expected)) <= 3.3 * bet.sd / math.sqrt(s.hands), (bet.name, s.mean)
    assert any(note.startswith("Side bets:") for note in whole.notes)


# --- output ------------------------------------------------------------------------------------


def test_cli_prints_json_and_csv_with_the_meter(capsys, tmp_path):
    assert main(["casino", "analyse", "caribbean-stud", "--side-bets", "--meter", "263205.26"]) == 0
    out = capsys.readouterr().out
    assert "break-even meter 263,205" in out and "house edge 0.0000%" in out
    target = tmp_path / "p.json"
    assert main(["casino", "analyse", "caribbean-stud", "--side-bets", "--meter", "250000", "--format", "json",
                 "-o", str(target)]) == 0
    bet = json.loads(target.read_text())["bets"][0]
    assert bet["progressive"]["meter"] == 250000 and round(bet["progressive"]["break_even_meter"]) == 263205
    assert bet["outcomes"][0] == {"outcome": "royal flush", "count": 4, "probability": 4 / 2598960, "net": 249999}
    assert main(["casino", "analyse", "texas-holdem-bonus", "--side-bets", "--format", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("bet,outcome,count") and rows[1].startswith("Bonus,\"aces, the dealer aces too\",6,")


# --- bad descriptions --------------------------------------------------------------------------


_HOLDEM = b'game = "casino-holdem"\n[[side_bet]]\nname = "AA"\n'
_THB = b'game = "texas-holdem-bonus"\n[[side_bet]]\nname = "Bonus"\n'
_STUD = b'game = "caribbean-stud"\n[[side_bet]]\nname = "Jackpot"\n'


@pytest.mark.parametrize("text, message", [
    (_HOLDEM + b'[[side_bet.pays]]\nhand = "flush"\npays = -5\n', "line 1 (flush): pays must not be negative, got -5"),
    (_HOLDEM + b'[[side_bet.pays]]\nhand = "flush"\npays = nan\n', "pays must be a finite number, got nan"),
    (_HOLDEM + b'[[side_bet.pays]]\nhand = "flush"\npays = inf\n', "pays must be a finite number, got inf"),
    (_HOLDEM + b'[[side_bet.pays]]\nhand = "trips"\npays = 3\n', "unknown hand 'trips'"),
    (_HOLDEM + b'[[side_bet.pays]]\nhand = "flush"\npay = 3\n', "unknown key 'pay'"),
    (_HOLDEM + b'[[side_bet.pays]]\nhand = "flush"\n', "give pays = (to one) or percent_of_meter ="),
    (_HOLDEM + b'[[side_bet.pays]]\nhand = "pair"\nranks = "A-Z"\npays = 7\n', "unknown rank in ranks 'A-Z'"),
    (_HOLDEM + b'cards = 6\n[[side_bet.pays]]\nhand = "flush"\npays = 3\n', "cards must be one of 5, 7, 2 in this game, not 6"),
    (_STUD + b'cards = 7\n[[side_bet.pays]]\nhand = "flush"\npays = 3\n', "cards must be 5 in this game, not 7"),
    (_HOLDEM + b'colour = "red"\n', "unknown key 'colour'"),
    (_HOLDEM, "give 1..64 [[side_bet.pays]] lines"),
    (_HOLDEM + b'[[side_bet.pays]]\nhand = "' + b"y" * 5000 + b'"\npays = 3\n', "...' (5,000 characters)"),
    (b'game = "ultimate-holdem"\n[[side_bet]]\n[[side_bet.pays]]\nhand = "pair"\nranks = "A"\npays = 1\n',
     "ranks are read for a pair or three of a kind of five cards only"),
    (_THB + b'[[side_bet.pays]]\nhand = "AXs"\npays = 3\n', "hand: cannot read 'AXs'"),
    (_THB + b'[[side_bet.pays]]\nhand = "AKs:0.5"\npays = 3\n', "a pay line takes whole hands, without weights"),
    (_THB + b'[[side_bet.pays]]\nhand = "AA"\ndealer = 5\npays = 3\n', "dealer must be hole cards"),
    (_STUD + b'[[side_bet.pays]]\nhand = "royal flush"\npercent_of_meter = 100\n',
     "line 'royal flush' pays percent_of_meter but the bet has no meter"),
    (_STUD + b'meter = 1000\n[[side_bet.pays]]\nhand = "royal flush"\npercent_of_meter = 150\n',
     "percent_of_meter must be 0..100, got 150"),
    (_STUD + b'meter = -3\n[[side_bet.pays]]\nhand = "royal flush"\npercent_of_meter = 100\n',
     "meter: pays must not be negative, got -3"),
    (_STUD + b'meter = 1000\n[[side_bet.pays]]\nhand = "flush"\npays = 5\n', "meter is given but no line pays"),
    (_STUD + b'pays_for_one = "yes"\n[[side_bet.pays]]\nhand = "flush"\npays = 5\n', "pays_for_one must be true"),
])
def test_bad_side_bets_raise_one_clear_error(text, message):
    with pytest.raises(PayTableError) as caught:
        read_game(text, "bad.toml")
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_cli_refuses_a_bad_side_bet_in_one_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_bytes(_STUD + b'[[side_bet.pays]]\nhand = "royal flush"\npercent_of_meter = 100\n')
    assert main(["casino", "analyse", str(path), "--side-bets"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "has no meter" in err
    assert main(["casino", "analyse", "ultimate-holdem", "--side-bets", "--meter", "5"]) == 2
    assert "a meter does not apply" in capsys.readouterr().err
    assert main(["casino", "analyse", "let-it-ride", "--side-bets"]) == 2
    assert "no side bets on the player's hand" in capsys.readouterr().err


def test_library_refuses_a_progressive_without_a_meter():
    from dataclasses import replace

    bet = _game("caribbean-stud").poker_side_bets[0]
    with pytest.raises(CardlabError, match="give its meter"):
        side_bet_analysis(replace(bet, meter=None), list(range(52)))
