"""Casino Hold'em (cardlab.casino.holdem): the published house edge, a brute force on reduced decks
with its own hand evaluator, the suit folding against no folding, and the seeded simulation.

Sources of the published figures (cited beside each number below):
- [WoO-CH] Wizard of Odds (M. Shackleford), "Casino Hold'em",
  https://wizardofodds.com/games/casino-holdem/ : ante pays 100 (royal flush), 20 (straight
  flush), 10 (four of a kind), 3 (full house), 2 (flush), 1 (straight or less); call 2 antes; the
  dealer qualifies with a pair of fours: house edge 2.16% of the ante under optimal strategy.
"""

from __future__ import annotations

import itertools
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from bruteforce import poker_compare, poker_key
from cardlab.casino import kernel
from cardlab.casino.analysis import analyse, three_card_tables
from cardlab.casino.game import parse_game, read_game
from cardlab.casino.table_rules import CATEGORIES
from cardlab.errors import PayTableError

GAME_FILE = Path(__file__).parents[1] / "src/cardlab/casino/data/casino-holdem.toml"


def _game(deck: str, **rules) -> object:
    data = tomllib.loads(GAME_FILE.read_text())
    data["deck"] = deck
    data["casino_holdem"].update(rules)
    return parse_game(data, "reduced.toml")


def test_casino_holdem_as_published():
    bet = analyse("casino-holdem").bets[0]
    assert f"{bet.house_edge:.2%}" == "2.16%"  # [WoO-CH]


def _best(seven: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return max((poker_key(five) for five in itertools.combinations(seven, 5)), key=poker_compare)


def brute_holdem(cards: list[int], qualifies, pays: list[Fraction], call: int) -> tuple[Fraction, Fraction, Counter]:
    """The exact expected result per ante, average bet and outcomes, deal by deal, plain loops."""
    best = {s: _best(s) for s in itertools.combinations(sorted(cards), 7)}
    total, called, rows, deals = Fraction(0), 0, Counter(), 0
    for flop in itertools.combinations(cards, 3):
        rest = [c for c in cards if c not in flop]
        for hole in itertools.combinations(rest, 2):
            value, tally, n = Fraction(0), Counter(), 0
            others = [c for c in rest if c not in hole]
            for board in itertools.combinations(others, 2):
                me = best[tuple(sorted(hole + flop + board))]
                left = [c for c in others if c not in board]
                for dealer in itertools.combinations(left, 2):
                    them = best[tuple(sorted(dealer + flop + board))]
                    n += 1
                    if not qualifies(them):
                        value += pays[me[0]]
                        tally["dealer does not qualify"] += 1
                    elif poker_compare(me) > poker_compare(them):
                        value += pays[me[0]] + call
                        tally[f"player wins with {CATEGORIES[me[0]]}"] += 1
                    elif poker_compare(me) == poker_compare(them):
                        tally["tie"] += 1
                    else:
                        value -= 1 + call
                        tally["dealer wins"] += 1
            deals += n
            if value > -n:
                total += value
                called += n
                rows.update(tally)
            else:
                total -= n
                rows["fold"] += n
    return total / deals, 1 + Fraction(call * called, deals), rows


@pytest.mark.parametrize("deck, rules, qualifies", [
    ("As Ks Qs Js Ts 9h 8h 7h 6d 5d", {}, lambda k: k[0] > 1 or (k[0] == 1 and k[1][0] >= 2)),
    ("As Ks Qs Js Ts 9h 8h 7h 6d 5d Ad", {"call": 1, "qualifier": "any"}, lambda k: True),
])
def test_casino_holdem_by_brute_force(deck: str, rules: dict, qualifies):
    game = _game(deck, **rules)
    pays = [p for _, p in game.pays]
    expected, average, rows = brute_holdem(game.cards, qualifies, pays, game.raise_bets)
    bet = analyse(game).bets[0]
    assert bet.expected == expected and bet.average_bet == average
    counts = {row.name: row.count for row in bet.outcomes}
    for name, count in rows.items():
        assert counts[name] == count, name
    assert sum(counts.values()) == bet.total


def test_suit_folding_against_every_flop():
    """The 16-card deck J-A: the flops folded by suit symmetry (weighted by class size) give the
    tallies of every one of its 560 flops counted alone."""
    game = _game("J-A")
    cards = game.cards
    line = [min(i, 9) for i in range(16)]
    pays = [int(p) for _, p in game.pays]
    tables = three_card_tables(cards)
    deck = np.array(cards)
    from cardlab.casino.simulation import positions_of

    folded = kernel.holdem(cards, deck[positions_of(tables.reps, 3)], tables.weights, game.qualifier, line, pays, 1, 2)[1]
    every = np.array(list(itertools.combinations(cards, 3)))
    plain = kernel.holdem(cards, every, np.ones(len(every), dtype=np.int64), game.qualifier, line, pays, 1, 2)[1]
    assert len(tables.reps) < len(every) and folded.tolist() == plain.tolist()


def test_simulation_agrees_with_exact():
    from test_casino import within_999

    game = _game("9-A")
    result = analyse(game, simulate=100_000, seed=43)
    bet = result.bets[0]
    assert bet.simulated is not None and bet.simulated.trustworthy and within_999(bet)
    assert not bet.simulated.interval.low <= float(bet.expected) + 0.05 <= bet.simulated.interval.high


@pytest.mark.parametrize("text, message", [
    (b'game = "casino-holdem"\n[casino_holdem]\nqualifier = "4-5-5"\n', "cannot read '4-5-5'"),
    (b'game = "casino-holdem"\n[casino_holdem]\ncall = 11\n', "call must be a whole number 1..10"),
    (b'game = "casino-holdem"\n[casino_holdem]\nraise = 2\n', "unknown key 'raise'"),
    (b'game = "casino-holdem"\n[casino_holdem]\nno_qualify_pays = 2\n', "unknown key 'no_qualify_pays'"),
    (b'game = "casino-holdem"\n[ante_pays]\nflush = -2\n', "must be 0..10,000,000"),
    (b'game = "casino-holdem"\n[raise_pays]\nflush = 2\n', "unknown key 'raise_pays'"),
    (b'game = "casino-holdem"\ndeck = "As Ks Qs Js Ts 9s 8s 7s"\n', "needs at least 9 cards; the deck has 8"),
])
def test_bad_descriptions_raise_one_clear_error(text: bytes, message: str):
    with pytest.raises(PayTableError, match=message):
        read_game(text, "bad.toml")


def test_kernel_refuses_bad_buffers():
    from cardlab._native import core as _core
    from cardlab.poker.evaluator import tables

    cards = list(range(12))
    line = [0] * 16
    with pytest.raises(ValueError, match="three cards of the deck"):
        kernel.holdem(cards, np.array([[0, 1, 40]]), np.ones(1), 0, line, [1], 1, 2)
    with pytest.raises(ValueError, match="pay line"):
        kernel.holdem(cards, np.array([[0, 1, 2]]), np.ones(1), 0, [3] * 16, [1], 1, 2)
    with pytest.raises(ValueError, match="out of range"):
        kernel.holdem(cards, np.array([[0, 1, 2]]), np.ones(1), 0, line, [-1], 1, 2)
    with pytest.raises(ValueError, match="casino_holdem: bad arguments"):
        _core.casino_holdem(tables(), bytes(cards), bytes([0, 1, 1]), np.ones(1, dtype=np.int64), 0, bytes(16), 1,
                            np.ones(1, dtype=np.int64), 1, 2, 0, np.zeros(36, dtype=np.int64), np.zeros(9, dtype=np.int64))


@pytest.mark.parametrize("deck, lines", [(bytes(100_000), 1), (bytes(range(12)), 2**31 - 1)])
def test_kernel_refuses_sizes_that_would_overflow(deck: bytes, lines: int) -> None:
    # A deck of 100,000 bytes or 2**31 - 1 pay lines is refused before any count is derived from it
    # (the hole count and the counter width were computed, and could overflow, before the check).
    from cardlab._native import core as _core
    from cardlab.poker.evaluator import tables

    with pytest.raises(ValueError, match="casino_holdem: bad arguments"):
        _core.casino_holdem(tables(), deck, bytes([0, 1, 2]), np.ones(1, dtype=np.int64), 0, bytes(16), lines,
                            np.ones(1, dtype=np.int64), 1, 2, 0, np.zeros(36, dtype=np.int64), np.zeros(9, dtype=np.int64))
