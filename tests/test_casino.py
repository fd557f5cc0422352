"""Casino table games (cardlab.casino): published figures, brute force on reduced decks, and the
seeded simulation agreeing with the exact route.

Sources of the published figures (cited beside each number below):
- [WoO-3CP] Wizard of Odds, "Three Card Poker", https://wizardofodds.com/games/three-card-poker/
  (hand counts of the 22,100 hands; Ante & Play house edge 3.37% of the ante with the Q-6-4
  rule; Pair Plus 40-30-6-4-1).
- [Grochowski 2014] J. Grochowski, "Three-card poker and roulette", Casino City Times, 26 January
  2014, quoting the Wizard of Odds: raising Q-6-4 loses 0.993378 per ante, Q-6-3 1.00255 (the
  hands of three different suits), 3.37% with Q-6-4.
- [Grochowski 2017] J. Grochowski, "The Three Card Poker problem", Casino City Times, 28 December
  2017: Ante & Play 3.37% of the ante, 2.01% of total action; Pair Plus with 4-1 flushes 2.32%.
- [WoO-LIR] Wizard of Odds, "Let it Ride" https://wizardofodds.com/games/let-it-ride/ (house edge
  3.51% for 1000/200/50/11/8/5/3/2/1) and its appendix 1,
  https://wizardofodds.com/games/let-it-ride/appendix/1/ (the three-card table: trips return
  6,360 over the 1,176 completions, three to a royal flush with the ace 1,172, queen highest
  1,736; the first bet rides with probability 0.07276018, expected return 0.10912580).
  Element of risk 2.85%.
- [WoO-MS] Wizard of Odds, "Mississippi Stud", https://wizardofodds.com/games/mississippi-stud/
  (500/100/40/10/6/4/3/2/1, pair 6-10 pushes: house edge 4.91%, average bet 3.59 antes, element
  of risk 4.91%/3.59 = 1.37%; as restated in J. Grochowski, "House edge and element of risk",
  Casino City Times, 19 April 2018). Its two-card strategy: raise 3x with any pair; 1x with a
  jack or better, two cards six to ten, or 6-5 suited; fold the rest.

- [WoO-Bac] Wizard of Odds, "Baccarat", https://wizardofodds.com/games/baccarat/ and its
  appendix 1 (eight decks: Banker 1.06% (1.0579%), Player 1.24% (1.2351%), Tie at 8 to 1 14.36%
  (14.3596%); probabilities 0.458597, 0.446247, 0.095156; Player Pair at 11 to 1 10.36%).

- [WoO-War] Wizard of Odds, "Casino War", https://wizardofodds.com/games/casino-war/ (six
  decks, going to war on ties: 2.88%; the tie bet at 10 to 1: 18.65%), and the Wizard of Macau's
  "Casino War" page (with a bonus equal to the first bet on a tie after the tie: 2.33%).

- [TGO-3CP] table-games-online.com, "Three Card Poker rules" (the 6-Card Bonus paying
  1000/200/50/25/20/10/5 on the best five of the player's and dealer's six cards: house
  advantage 10.23%).

Ties. The published elements of risk (2.85% for Let It Ride, 1.37% for Mississippi Stud) are
reached when a decision of exactly equal expectation is broken towards the bet (ties="bet"); with
the default ties="fold" (less money at risk) the house edge is the same and the average bet
smaller: Let It Ride 2.8648%, Mississippi Stud 1.4109%. Three Card Poker has no such tie.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest

from cardlab.casino import kernel
from cardlab.casino.analysis import analyse, ride_plan, three_card_tables
from cardlab.casino.game import load_game, parse_game, qualifier_value, read_game
from cardlab.cards import parse_card_ids
from cardlab.errors import CardlabError, DeckError, PayTableError

DATA = Path(__file__).parent / "data"


# --- an independent three-card evaluator (plain Python) -------------------------------------

def three_card_key(cards: tuple[int, ...]) -> tuple[int, ...]:
    """Category (high 0, pair 1, flush 2, straight 3, trips 4, straight flush 5), then ranks."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    if ranks[0] == ranks[2]:
        return (4, ranks[0])
    straight_top = None
    if len(set(ranks)) == 3 and ranks[0] - ranks[2] == 2:
        straight_top = ranks[0]
    if ranks == [12, 1, 0]:
        straight_top = 1
    if straight_top is not None:
        return (5 if flush else 3, straight_top)
    if len(set(ranks)) == 2:
        pair = ranks[1]
        kicker = ranks[0] if ranks[0] != pair else ranks[2]
        return (1, pair, kicker)
    return (2 if flush else 0, *ranks)


def category(cards: tuple[int, ...]) -> str:
    key = three_card_key(cards)
    if key[0] == 5 and key[1] == 12:
        return "mini royal"
    return ["high card", "pair", "flush", "straight", "three of a kind", "straight flush"][key[0]]


# --- published figures -----------------------------------------------------------------------

def test_three_card_hand_counts_as_published():
    # [WoO-3CP]: straight flush 48, three of a kind 52, straight 720, flush 1,096, pair 3,744,
    # high card 16,440 of 22,100
    tables = three_card_tables(list(range(52)))
    codes = np.bincount(tables.code, minlength=19)
    assert codes[17] + codes[18] == 48 and codes[18] == 4
    assert (codes[16], codes[15], codes[14], codes[1:14].sum(), codes[0]) == (52, 720, 1096, 3744, 16440)
    assert tables.weights.sum() == 22100 and len(tables.reps) == 1755
    # the compiled values order hands as the plain evaluator does, on every hand
    hands = list(combinations(range(52), 3))
    index = {h: sum(comb(p, j + 1) for j, p in enumerate(h)) for h in hands}
    keys = sorted(hands, key=three_card_key)
    values = [int(tables.value[index[h]]) for h in keys]
    assert values == sorted(values)
    for a, b in zip(keys, keys[1:]):
        assert (three_card_key(a) == three_card_key(b)) == (tables.value[index[a]] == tables.value[index[b]])


def test_three_card_poker_as_published():
    result = analyse("three-card-poker")
    ante = result.bet("Ante & Play")
    # [WoO-3CP], [Grochowski 2017]: 3.37% of the ante, 2.01% of the total action
    assert round(ante.house_edge * 100, 2) == 3.37
    assert round(ante.element_of_risk * 100, 2) == 2.01
    assert result.strategy[0] == "Ante & Play: raise with Q-6-4 or better; fold below"
    # [Grochowski 2017]: Pair Plus 40-30-6-4-1 at 2.32%; exactly -512/22100
    pair_plus = result.bet("Pair Plus")
    assert pair_plus.expected == Fraction(-512, 22100)
    assert round(pair_plus.house_edge * 100, 2) == 2.32
    assert ante.total == 22100 * 18424 == sum(o.count for o in ante.outcomes[:5])


def test_six_card_bonus_as_published():
    # [TGO-3CP] gives 10.23%; the exact figure is 15306/149695 = 10.2248%, which rounds to
    # 10.22 (the page rounds up, or counted otherwise): within 0.01 point, and the brute force
    # below and the six-card hand counts (royal flush 4 x 47 = 188 six-card hands) settle it
    bet = analyse("three-card-poker").bet("6-Card Bonus")
    assert abs(bet.house_edge * 100 - 10.23) < 0.01
    assert bet.expected == Fraction(-15306, 149695)
    assert bet.total == comb(52, 6) and bet.outcomes[0].count == 4 * 47


def test_six_card_bonus_by_brute_force():
    """The best five of every six-card hand of the 20-card deck T-A, by the plain classifier."""
    import tomllib

    data = tomllib.loads((Path(__file__).parents[1] / "src/cardlab/casino/data/three-card-poker.toml").read_text())
    game = parse_game(data | {"deck": "T-A"}, "t.toml")
    pays = {"royal flush": 1000, "straight flush": 200, "four of a kind": 50, "full house": 25, "flush": 20,
            "straight": 10, "three of a kind": 5}
    total = 0
    for six in combinations(game.cards, 6):
        total += max(pays.get(five_card_category(five), -1) for five in combinations(six, 5))
    assert analyse(game).bet("6-Card Bonus").expected == Fraction(total, comb(20, 6))


def test_marginal_raises_as_published():
    # [Grochowski 2014] quoting the Wizard of Odds: raising Q-6-4 loses 0.993378 per ante, Q-6-3
    # 1.00255 (both of three different suits; folding loses 1)
    tables = three_card_tables(list(range(52)))
    for text, published in (("Qs 6h 4d", -0.993378), ("Qs 6h 3d", -1.00255)):
        cards = sorted(parse_card_ids(text))
        hand = sum(comb(c, j + 1) for j, c in enumerate(cards))
        noq, win, tie, lose = kernel.versus(52, tables.value, np.array([hand]), qualifier_value("Q"))[0]
        assert tie + noq + win + lose == comb(49, 3)
        assert round((noq + 2 * win - 2 * lose) / comb(49, 3), 6) == pytest.approx(published, abs=6e-6)


def test_let_it_ride_as_published():
    result = analyse("let-it-ride")
    ride = result.bet("Let It Ride")
    # [WoO-LIR]: 3.51%
    assert round(ride.house_edge * 100, 2) == 3.51
    assert ride.total == comb(52, 5) * 20  # every final hand, its fourth and fifth cards ordered
    # the final hands by outcome are the five-card poker counts, whatever the strategy
    counts = {o.name: o.count // 20 for o in ride.outcomes[:10]}
    assert counts["royal flush"] == 4 and counts["four of a kind"] == 624 and counts["full house"] == 3744
    # the Bonus bet on the final five cards: the five-card hand counts times its pays
    bonus = result.bet("Bonus")
    assert bonus.expected == Fraction(4 * 20000 + 36 * 2000 + 624 * 400 + 3744 * 200 + 5108 * 50 + 10200 * 25
                                      + 54912 * 5 - (2598960 - 74628), 2598960)
    assert result.strategy[1] == ("second bet: let it ride with: any paying hand; four to a flush; "
                                  "K-Q-J-T (any suits); Q-J-T-9 (any suits); J-T-9-8 (any suits); "
                                  "T-9-8-7 (any suits)")


def test_let_it_ride_three_card_table_as_published():
    game = load_game("let-it-ride")
    tables = three_card_tables(game.cards)
    plan = ride_plan(game, tables)
    sums = {int(r): int(s) // 2 for r, s in zip(tables.reps, plan.sums)}  # over the 1,176 unordered pairs

    def total(text: str) -> int:
        cards = sorted(parse_card_ids(text))
        return sums[int(tables.klass[sum(comb(c, j + 1) for j, c in enumerate(cards))])]

    # [WoO-LIR appendix 1]: three of a kind 6,360; three to a royal, ace highest 1,172; queen highest 1,736
    assert total("7s 7h 7d") == 6360
    assert total("As Ks Qs") == total("As Js Ts") == 1172
    assert total("Qs Js Ts") == 1736
    riding = plan.sums > 0
    # the first bet rides with probability 0.07276018, for an expected return of 0.10912580 units
    assert round(int(tables.weights[riding].sum()) / 22100, 8) == 0.07276018
    ret = Fraction(int((tables.weights[riding] * plan.sums[riding]).sum()), 22100 * 49 * 48)
    assert round(float(ret), 8) == 0.10912580


def test_mississippi_stud_as_published():
    fold, bet = analyse("mississippi-stud"), analyse("mississippi-stud", ties="bet")
    # [WoO-MS]: 4.91% of the ante, either way
    assert fold.bets[0].expected == bet.bets[0].expected
    assert round(bet.bets[0].house_edge * 100, 2) == 4.91
    # [WoO-MS]: 3.59 antes on average and 1.37% with ties broken towards the bet
    assert round(float(bet.bets[0].average_bet), 2) == 3.59
    assert round(bet.bets[0].element_of_risk * 100, 2) == 1.37
    assert round(fold.bets[0].element_of_risk * 100, 4) == 1.4109
    # [WoO-MS] two-card strategy
    three, one = fold.strategy[:2]
    assert three == "two cards: raise 3x with: any pair"
    highs = [f"any {word} high" for word in ("ace", "king", "queen", "jack")]
    middles = [f"{a}-{b} (any suits)" for i, a in enumerate("T987") for b in "T9876"[i + 1:]]
    assert one == "two cards: raise 1x with: " + "; ".join(highs + middles + ["6-5 suited"])


def test_let_it_ride_ties_reach_the_published_element_of_risk():
    # [WoO-LIR]: element of risk 2.85% (ties broken towards the bet); the edge is the same
    fold, bet = analyse("let-it-ride"), analyse("let-it-ride", ties="bet")
    assert fold.bets[0].expected == bet.bets[0].expected
    assert round(bet.bets[0].element_of_risk * 100, 2) == 2.85
    assert round(fold.bets[0].element_of_risk * 100, 2) == 2.86


# --- brute force on reduced decks ------------------------------------------------------------

def brute_ante_play(cards: list[int], qualifier: tuple[int, ...], bonus: dict[str, int],
                    raise_bets: int = 1) -> Fraction:
    """Ante & Play by plain loops: each player hand's best decision, over every dealer hand."""
    total = Fraction(0)
    hands = list(combinations(cards, 3))
    keys = {h: three_card_key(h) for h in hands}
    for mine in hands:
        key = keys[mine]
        extra = bonus.get(category(mine), 0) if category(mine) != "mini royal" else bonus.get("straight flush", 0)
        played = 0
        dealt = 0
        for theirs in combinations([c for c in cards if c not in mine], 3):
            dealt += 1
            other = keys[theirs]
            if other < qualifier:
                played += 1 + extra
            elif key > other:
                played += 1 + raise_bets + extra
            elif key == other:
                played += extra
            else:
                played += -1 - raise_bets + extra
        total += max(Fraction(played, dealt), Fraction(-1)) if played != -dealt else Fraction(-1)
    return total / len(hands)


def _deck_game(deck: str, **changes: object) -> dict[str, object]:
    import tomllib

    data = tomllib.loads((Path(__file__).parents[1] / "src/cardlab/casino/data/three-card-poker.toml").read_text())
    data["deck"] = deck
    data.update(changes)
    return data


@pytest.mark.parametrize("deck", ["J-A", "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah"])
def test_ante_play_by_brute_force(deck: str):
    game = parse_game(_deck_game(deck), "reduced.toml")
    result = analyse(game)
    # the qualifier Q (queen high) as a plain key: any hand at least (0, Q, 0, 0)
    brute = brute_ante_play(game.cards, (0, 10, 0, 0), {"straight flush": 5, "three of a kind": 4, "straight": 1})
    assert result.bet("Ante & Play").expected == brute
    symmetric = deck == "J-A"
    assert ("by suit symmetry" in result.method) == symmetric


def test_user_game_by_brute_force():
    """A game written by a user (tests/data/casino-user-game.toml: raise 2 antes, the dealer
    qualifying with a pair, no ante bonus), checked on a 12-card copy by plain loops, and whole
    by the simulation."""
    game = load_game(DATA / "casino-user-game.toml")
    assert (game.raise_bets, game.qualifier_text) == (2, "pair")
    small = parse_game(_deck_game("Q-A", ante_play={"raise": 2, "qualifier": "pair"}, ante_bonus=None)
                       | {"ante_bonus": [{"hand": "straight flush", "pays": 0}]}, "small.toml")
    brute = brute_ante_play(small.cards, (1, 0, 0), {}, raise_bets=2)
    assert analyse(small).bet("Ante & Play").expected == brute
    whole = analyse(game, simulate=50_000, seed=7)
    assert all(within_999(b) for b in whole.bets)
    assert [b.name for b in whole.bets] == ["Ante & Play", "Pairs"]


def five_card_category(cards: tuple[int, ...]) -> str:
    """A plain five-card classifier (for the Let It Ride brute force)."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    straight = len(set(ranks)) == 5 and (ranks[0] - ranks[4] == 4 or ranks == [12, 3, 2, 1, 0])
    if straight and flush:
        return "royal flush" if ranks[4] == 8 else "straight flush"
    if counts[0] == 4:
        return "four of a kind"
    if counts == [3, 2]:
        return "full house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three of a kind"
    if counts == [2, 2, 1]:
        return "two pair"
    if counts[0] == 2 and max(r for r in ranks if ranks.count(r) == 2) >= 8:
        return "tens or better"
    return "nothing"


def test_let_it_ride_by_brute_force():
    pays = {"royal flush": 1000, "straight flush": 200, "four of a kind": 50, "full house": 11, "flush": 8,
            "straight": 5, "three of a kind": 3, "two pair": 2, "tens or better": 1, "nothing": -1}
    game = load_game("let-it-ride")
    small = parse_game({"game": "let-it-ride", "deck": "T-A", "outcome": [
        {"hand": o.hand, "pays": int(o.pays), **({"ranks": "T-A"} if o.hand == "pair" else {})}
        for o in game.main.outcomes[:-1]]}, "small.toml")
    cards = small.cards
    pay = {h: pays[five_card_category(h)] for h in combinations(cards, 5)}
    total = Fraction(0)
    for start in combinations(cards, 3):
        rest = [c for c in cards if c not in start]
        by_fourth = []
        for d in rest:
            s4 = sum(pay[tuple(sorted((*start, d, e)))] for e in rest if e != d)
            by_fourth.append((d, s4))
        s3 = sum(s for _, s in by_fourth)
        first = 1 if s3 > 0 else 0
        for d, s4 in by_fourth:
            riding = 1 + first + (1 if s4 > 0 else 0)
            total += riding * s4
    brute = total / (comb(len(cards), 3) * (len(cards) - 3) * (len(cards) - 4))
    assert analyse(small).bet("Let It Ride").expected == brute


def test_mississippi_stud_by_brute_force():
    """Backward induction over sets of cards (plain Python) on the 20-card deck T-A."""
    game = load_game("mississippi-stud")
    small = parse_game({"game": "mississippi-stud", "deck": "T-A", "outcome": [
        {"hand": o.hand, "name": o.name, "pays": int(o.pays), **({"ranks": "J-A" if o.pays else "6-T"} if o.hand == "pair" else {})}
        for o in game.main.outcomes[:-1]]}, "small.toml")
    pays = {"royal flush": 500, "straight flush": 100, "four of a kind": 40, "full house": 10, "flush": 6,
            "straight": 4, "three of a kind": 3, "two pair": 2, "nothing": -1}
    cards = small.cards

    def pay(hand: tuple[int, ...]) -> int:
        name = five_card_category(hand)
        if name == "tens or better":  # the plain classifier's pair of tens or better
            pair = max(r for r in (c // 4 for c in hand) if [c // 4 for c in hand].count(r) == 2)
            return 1 if pair >= 9 else 0
        return pays[name]

    five = {h: pay(h) for h in combinations(cards, 5)}
    e4 = {h: sum(five[tuple(sorted((*h, c)))] for c in cards if c not in h) for h in combinations(cards, 4)}
    n = len(cards)

    def v4(h: tuple[int, ...], b: int) -> int:  # units: (n - 4)
        return max([-b * (n - 4)] + [(b + r) * e4[h] for r in (1, 2, 3)])

    def v3(h: tuple[int, ...], b: int) -> int:  # units: (n - 3)(n - 4)
        return max([-b * (n - 3) * (n - 4)]
                   + [sum(v4(tuple(sorted((*h, c))), b + r) for c in cards if c not in h) for r in (1, 2, 3)])

    total = 0
    for h in combinations(cards, 2):
        total += max([-(n - 2) * (n - 3) * (n - 4)]
                     + [sum(v3(tuple(sorted((*h, c))), 1 + r) for c in cards if c not in h) for r in (1, 2, 3)])
    brute = Fraction(total, comb(n, 2) * (n - 2) * (n - 3) * (n - 4))
    result = analyse(small)
    assert result.bets[0].expected == brute
    assert result.bets[0].total == sum(o.count for o in result.bets[0].outcomes)


def test_mississippi_stud_play_is_the_exact_route_on_every_deal():
    """The simulation's player, run on every ordered deal of a 16-card deck, gives the exact mean."""
    from cardlab.casino.stud import analyse_stud

    game = parse_game({"game": "mississippi-stud", "deck": "J-A", "outcome": [
        {"hand": "three of a kind", "pays": 3}, {"hand": "two pair", "pays": 2},
        {"hand": "pair", "ranks": "Q-A", "pays": 1}, {"hand": "pair", "name": "jacks", "ranks": "J", "pays": 0}]},
        "small.toml")
    done = analyse_stud(game, "bet")
    n = len(game.cards)
    deals = np.array([(*h, c, d, e) for h in combinations(range(n), 2) for c in range(n) for d in range(n)
                      for e in range(n) if len({*h, c, d, e}) == 5])
    assert len(deals) == done.plan.total
    assert Fraction(float(done.play(deals)[0].sum())) == done.bet.expected * len(deals)


def test_baccarat_as_published():
    result = analyse("baccarat")
    edges = {b.name: round(b.house_edge * 100, 4) for b in result.bets}
    # [WoO-Bac] eight decks (the side bets: tests/test_casino_baccarat.py)
    assert edges.items() >= {"Player": 1.2351, "Banker": 1.0579, "Tie": 14.3596, "Player Pair": 10.3614,
                             "Banker Pair": 10.3614}.items()
    player = result.bet("Player")
    assert [round(o.count / player.total, 6) for o in player.outcomes] == [0.446247, 0.458597, 0.095156]
    assert player.total == 416 * 415 * 414 * 413 * 412 * 411


def plain_coup(cards: tuple[int, ...]) -> tuple[int, int, int, bool, bool]:
    """Punto banco by the tableau as written (ranks 0 = two .. 12 = ace): the totals, how many
    cards the coup used, and the pairs."""
    def value(r: int) -> int:
        return 1 if r == 12 else 0 if r >= 8 else r + 2

    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    used = 4
    total = lambda hand: sum(value(c) for c in hand) % 10  # noqa: E731
    if total(player) < 8 and total(banker) < 8:
        third = None
        if total(player) <= 5:
            third = cards[used]
            player.append(third)
            used += 1
        b = total(banker)
        if third is None:
            draws = b <= 5
        else:
            x = value(third)
            draws = (b <= 2 or (b == 3 and x != 8) or (b == 4 and 2 <= x <= 7) or (b == 5 and 4 <= x <= 7)
                     or (b == 6 and x in (6, 7)))
        if draws:
            banker.append(cards[used])
            used += 1
    return total(player), total(banker), used, cards[0] == cards[2], cards[1] == cards[3]


def test_baccarat_by_brute_force():
    """Every ordered deal of a 10-card shoe (its first six cards) by the plain tableau."""
    from itertools import permutations

    from cardlab.casino.baccarat import coups

    counts = np.zeros(13, dtype=np.int64)
    shoe = [12, 12, 0, 3, 4, 5, 7, 8, 11, 11]  # A A 2 5 6 7 9 T K K
    for r in shoe:
        counts[r] += 1
    expected = np.zeros((3, 2, 2), dtype=np.int64)
    for order in permutations(range(len(shoe)), 6):
        p, b, _, pp, bp = plain_coup(tuple(shoe[i] for i in order))
        expected[0 if p > b else 1 if b > p else 2, int(pp), int(bp)] += 1
    assert (coups(counts) == expected).all()


def test_baccarat_defaults_are_the_usual_pays():
    game = parse_game({"game": "baccarat"}, "b.toml")
    assert dict(game.pays) == {"Player": 1, "Banker": Fraction(19, 20), "Tie": 8, "Player Pair": 11,
                               "Banker Pair": 11}
    assert game.deck.size == 416


def test_baccarat_after_cards_seen():
    """The composition matters: with every eight and nine gone, naturals of 8-9 come only from
    sums, and the figures move (checked against the plain tableau on a small shoe above)."""
    import tomllib

    data = tomllib.loads((Path(__file__).parents[1] / "src/cardlab/casino/data/baccarat.toml").read_text())
    full = analyse(parse_game(data, "b.toml"))
    seen = analyse(parse_game(data | {"decks": 1, "remove": "8c 8d 8h 8s 9c 9d 9h 9s"}, "b.toml"))
    assert seen.bet("Banker").total == 44 * 43 * 42 * 41 * 40 * 39
    assert seen.bet("Banker").expected != full.bet("Banker").expected
    with pytest.raises(PayTableError, match="remove"):
        parse_game(data | {"decks": 1, "remove": "8c 8c"}, "b.toml")


def test_casino_war_as_published():
    import tomllib

    result = analyse("casino-war")
    # [WoO-War]: 2.88% going to war, 18.65% on the tie bet
    assert round(result.bets[0].house_edge * 100, 2) == 2.88
    assert round(result.bet("Tie").house_edge * 100, 2) == 18.65
    assert result.strategy == ("on a tie, go to war (with any rank)",)
    data = tomllib.loads((Path(__file__).parents[1] / "src/cardlab/casino/data/casino-war.toml").read_text())
    # [WoO-War], Macau: 2.33% with the bonus on a tie after the tie
    assert round(analyse(parse_game(data | {"war_bonus": 1}, "w.toml")).bets[0].house_edge * 100, 2) == 2.33


def test_casino_war_play_is_the_exact_route_on_every_deal():
    """The simulation's player (burning three real cards) on every ordered seven-card deal of a
    10-card shoe gives the exact figures (the burnt cards change nothing)."""
    from itertools import permutations

    import tomllib

    from cardlab.casino.war import analyse_war

    data = tomllib.loads((Path(__file__).parents[1] / "src/cardlab/casino/data/casino-war.toml").read_text())
    remove = " ".join(f"{r}{s}" for r in "23456789TJ" for s in "cdhs") + " Qc Ks"
    game = parse_game(data | {"decks": 1, "remove": remove, "war_bonus": 1}, "w.toml")
    bets, _, play = analyse_war(game, "fold")
    deals = np.array(list(permutations(range(game.deck.size), 7)))
    assert len(deals) == 604_800
    for bet, nets in zip(bets, play(deals)):
        assert Fraction(float(nets.sum())) == bet.expected * len(deals)


def test_casino_war_by_brute_force():
    """Every ordered deal of seven cards of a 9-card shoe (the first two, three burnt, the two war
    cards), each tie played the better way by the plain rules."""
    from itertools import permutations

    import tomllib

    data = tomllib.loads((Path(__file__).parents[1] / "src/cardlab/casino/data/casino-war.toml").read_text())
    remove = " ".join(f"{r}{s}" for r in "23456789TJQK" for s in "cdhs") + " As"
    game = parse_game(data | {"decks": 1, "remove": remove.replace("Kc ", "").replace("Kd ", "")
                              .replace("Qc ", "").replace("Tc ", "").replace("Td ", "").replace("2c ", "")},
                      "w.toml")
    shoe = sorted(c // 4 for c in game.cards)
    assert len(shoe) == 9
    by_tie: dict[int, list[Fraction]] = {}
    plain = Fraction(0)
    deals = list(permutations(range(len(shoe)), 7))
    for order in deals:
        p, d, p2, d2 = (shoe[order[i]] for i in (0, 1, 5, 6))
        if p != d:
            plain += 1 if p > d else -1
        else:
            by_tie.setdefault(p, []).append(Fraction(1) if p2 >= d2 else Fraction(-2))
    for wars in by_tie.values():
        plain += max(sum(wars), Fraction(-1, 2) * len(wars))
    assert analyse(game).bets[0].expected == plain / len(deals)


# --- the second route: seeded simulation -------------------------------------------------------

def within_999(bet: object) -> bool:
    """Whether the exact figure lies in the simulation's 99.9% interval (the printed one is 95%:
    with some twenty bets checked here, one would miss it by chance now and then)."""
    sim = bet.simulated  # type: ignore[attr-defined]
    half = (sim.interval.high - sim.interval.low) / 2 * 3.2905 / 1.95996
    return bool(abs(sim.mean - float(bet.expected)) <= half)  # type: ignore[attr-defined]


def _on_deck(name: str, deck: str) -> object:
    import tomllib

    data = tomllib.loads((Path(__file__).parents[1] / f"src/cardlab/casino/data/{name}.toml").read_text())
    return parse_game(data | ({"deck": deck} if "deck" in data else {}), f"{name}.toml")


@pytest.mark.parametrize("name, deck", [("three-card-poker", "standard"), ("let-it-ride", "standard"),
                                        ("three-card-poker", "8-A"), ("mississippi-stud", "standard"),
                                        ("baccarat", "standard"), ("casino-war", "standard")])
def test_simulation_agrees_with_exact(name: str, deck: str):
    game = _on_deck(name, deck)
    result = analyse(game, simulate=100_000, seed=43)  # type: ignore[arg-type]
    for bet in result.bets:
        assert bet.simulated is not None and bet.simulated.seed == 43
        if bet.name == "Bonus":  # 20,000 for a royal flush: 100,000 deals are far too few
            assert not bet.simulated.trustworthy
            continue
        assert bet.simulated.trustworthy and within_999(bet), (bet.name, bet.simulated, float(bet.expected))
    again = analyse(game, simulate=100_000, seed=43)  # type: ignore[arg-type]
    assert [b.simulated.mean for b in again.bets] == [b.simulated.mean for b in result.bets]


def test_deals_are_uniform():
    """Every ordered triple of an 8-card deck equally often (chi-square, 335 degrees of freedom:
    its 99.9% point is about 420)."""
    from cardlab.casino.simulation import deal

    positions = deal(np.random.default_rng(3), 8, 3, 336 * 600)
    cells = np.bincount(positions[:, 0] * 64 + positions[:, 1] * 8 + positions[:, 2], minlength=512)
    assert (cells > 0).sum() == 336
    assert ((cells[cells > 0] - 600) ** 2 / 600).sum() < 420


def test_simulation_can_disagree_with_a_wrong_figure():
    """The agreement test can fail: the simulated interval does not hold a figure 3% off."""
    result = analyse("three-card-poker", simulate=100_000, seed=5)
    ante = result.bet("Ante & Play")
    assert ante.simulated is not None and ante.simulated.agrees
    wrong = float(ante.expected) + 0.03
    assert not ante.simulated.interval.low <= wrong <= ante.simulated.interval.high


# --- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    (b'game = "ante-play"\n[ante_play]\nqualifier = "Q-Z"\n', "cannot read 'Q-Z'"),
    (b'game = "ante-play"\n[ante_play]\nraise = 0\n', "raise must be a whole number 1..10"),
    (b'game = "ante-play"\ncolour = 1\n', "unknown key 'colour'"),
    (b'game = "ante-play"\n[[ante_bonus]]\nhand = "full house"\npays = 3\n', "unknown hand 'full house'"),
    (b'game = "ante-play"\n[[side_bet]]\nname = "x"\n', "no pay lines"),
    (b'game = "let-it-ride"\n', "no outcomes"),
    (b'game = "let-it-ride"\ndeck = "Zz"\n[[outcome]]\nhand = "flush"\npays = 1\n', "deck"),
    (b'game = "ante-play"\n[[ante_bonus]]\nhand = "pair"\npays = -1\n', "must not be negative"),
    (b'game = 3 = 4', "not a well-formed TOML"),
    (b'game = "ante-play"\n[[side_bet]]\ncards = 5\n[[side_bet.pays]]\nhand = "flush"\npays = 1\n',
     "cards must be 3 or 6 in this game, not 5"),
    (b'game = "baccarat"\ndecks = 9\n', "decks must be a whole number 1..8"),
    (b'game = "casino-war"\ntie_pays = "ten"\n', "pays must be a number"),
])
def test_bad_descriptions_raise_one_clear_error(text: bytes, message: str):
    with pytest.raises(PayTableError, match=message):
        read_game(text, "bad.toml")


def test_decks_too_small_or_repeated():
    with pytest.raises(PayTableError, match="needs at least 6 cards; the deck has 5"):
        parse_game({"game": "ante-play", "deck": "As Ks Qs Js Ts"}, "x.toml")
    with pytest.raises(PayTableError, match="each card once"):
        parse_game({"game": "ante-play", "deck": "As As Qs Js Ts 9s 8s"}, "x.toml")
    with pytest.raises(DeckError, match="repeated"):
        kernel.three_cards([0, 1, 2, 2])
    with pytest.raises(CardlabError, match="larger than"):
        read_game(b"#" * (2 << 20), "huge.toml")


def test_cli(run, tmp_path: Path):
    status, out, _ = run("casino", "analyse", "three-card-poker")
    assert status == 0 and "raise with Q-6-4 or better" in out and "3.3730%" in out
    status, out, _ = run("casino", "analyse", "let-it-ride", "--format", "json")
    assert status == 0 and '"house_edge": 0.0350567' in out
    status, out, _ = run("casino", "analyse", "three-card-poker", "--format", "csv")
    assert status == 0 and out.startswith("bet,outcome,count,probability") and "Pair Plus,pair,3744," in out
    status, out, _ = run("casino", "games")
    assert status == 0 and "three-card-poker" in out and "mississippi-stud" in out
    status, out, _ = run("casino", "analyse", "let-it-ride", "--ties", "bet")
    assert status == 0 and "element of risk 2.8453%" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "ante-play"\n[ante_play]\nqualifier = 7\n')
    target = tmp_path / "out.txt"
    target.write_text("keep me")
    status, out, err = run("casino", "analyse", str(bad), "-o", str(target))
    assert status == 2 and target.read_text() == "keep me"
    assert err.strip() == "cardlab: error: bad.toml: [ante_play] qualifier: the qualifier must be text such as \"Q\" or \"pair\", got 7"


def test_kernels_refuse_bad_buffers():
    """Every value reaching the compiled core is checked by its wrapper (and again in C)."""
    from cardlab._native import core as _core
    from cardlab.casino.baccarat import coups

    value, _, _ = kernel.three_cards(list(range(12)))
    with pytest.raises(ValueError, match="out of range"):
        kernel.versus(12, value, np.array([len(value)]), 0)
    with pytest.raises(DeckError, match="6..52"):
        kernel.versus(5, value[:10], np.array([0]), 0)
    with pytest.raises(ValueError, match="past the pay table"):
        kernel.four_sums(5, np.array([3], dtype=np.uint8), np.array([1, -1]))
    with pytest.raises(ValueError, match="street table"):
        kernel.superset_sums(6, 2, np.zeros((5, 1), dtype=np.int64))
    with pytest.raises(ValueError, match="0..32 cards"):
        coups(np.full(13, 33))
    with pytest.raises(DeckError, match="not a card"):
        kernel.three_cards([0, 1, 52])
    # the C checks behind the wrappers
    with pytest.raises(ValueError, match="casino_versus: bad arguments"):
        _core.casino_versus(12, value, np.array([10**6], dtype=np.int32), 0, np.zeros(4, dtype=np.int64))
    with pytest.raises(ValueError, match="casino_baccarat: bad arguments"):
        _core.casino_baccarat(np.full(13, -1, dtype=np.int64), np.zeros(12, dtype=np.int64))
    with pytest.raises(ValueError, match="casino_subset_sums: bad arguments"):
        _core.casino_subset_sums(6, 5, 1, np.zeros(6, dtype=np.int64), np.zeros(1, dtype=np.int64))
