"""The exact analysis of a table game: every deal counted, the best decision at each stage.

Ante & Play (Three Card Poker): for each player hand, up to suit symmetry (1,755 classes of the
22,100 hands), the compiled core counts the dealer's 18,424 hands by outcome (does not qualify,
loses, ties, wins); playing is chosen when its exact expected result beats folding's -1 (a tie
folds: the same result for less money at risk).

Let It Ride: for each three-card start (suit classes) and each fourth card, the core counts the
fifth cards by final hand; the second bet rides when its four-card expectation is positive, the
first when the three-card one is.

Every figure is exact (integer counts, fractions); :func:`simulate` gives the second route.

>>> result = analyse("three-card-poker")
>>> f"{result.bet('Ante & Play').house_edge:.4%}", f"{result.bet('Pair Plus').house_edge:.4%}"
('3.3730%', '2.3167%')
>>> result.strategy[0]
'Ante & Play: raise with Q-6-4 or better; fold below'
>>> analyse("no-such-game")
Traceback (most recent call last):
...
cardlab.errors.PayTableError: unknown game 'no-such-game': give a TOML file or one of baccarat, caribbean-stud, casino-holdem, casino-war, let-it-ride, mississippi-stud, texas-holdem-bonus, three-card-poker, ultimate-holdem
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb, lcm
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from cardlab.casino import kernel
from cardlab.casino.game import Game, SideBet, load_game
from cardlab.casino.side_bets import SIDE_CARDS, PokerSideBet, side_bet_analysis, side_bet_net, with_meter
from cardlab.casino.paytable import NCODES3
from cardlab.casino.result import BetAnalysis, GameAnalysis, OutcomeRow, SimulatedBet, sd_of
from cardlab.casino.simulation import MAX_SIMULATED, colex, positions_of, run_chunks
from cardlab.casino.strategy import pattern_rule, threshold_rule
from cardlab.casino.table_rules import TIES, check_ties
from cardlab.engine import SeedLike, resolve_seed
from cardlab.errors import PayTableError, whole_argument
from cardlab.casino.pays import PayTable

if TYPE_CHECKING:
    from cardlab.casino.holdem import FlopPlan

_Play = Callable[[np.ndarray], list[np.ndarray]]

__all__ = ["analyse", "TIES", "ThreeCardTables", "three_card_tables", "RidePlan", "ride_plan"]


@dataclass(frozen=True)
class ThreeCardTables:
    """Every three-card hand of a deck: ``value``, ``code`` and suit ``klass`` (colex numbers),
    the classes' representatives ``reps`` and their sizes ``weights``."""

    cards: tuple[int, ...]
    value: np.ndarray
    code: np.ndarray
    klass: np.ndarray
    reps: np.ndarray
    weights: np.ndarray


def three_card_tables(cards: list[int]) -> ThreeCardTables:
    """The :class:`ThreeCardTables` of a deck (suit classes where the deck allows them)."""
    value, code, klass = kernel.three_cards(cards)
    reps, weights = np.unique(klass, return_counts=True)
    return ThreeCardTables(tuple(cards), value, code, klass, reps, weights.astype(np.int64))


def _scaled(pays: list[Fraction]) -> tuple[int, list[int]]:
    scale = lcm(*(p.denominator for p in pays))
    return scale, [int(p * scale) for p in pays]


def _side_bet(bet: SideBet, code: np.ndarray, game: Game) -> BetAnalysis:
    table = bet.table
    if bet.cards == 5:
        counts = np.bincount(_five(bet, game), minlength=len(table.outcomes)).tolist()
    elif bet.cards == 6:
        counts = kernel.best_of_six(game.deck.size, _five(bet, game), _scaled_pays(table)).tolist()
    else:
        per_code = np.bincount(code, minlength=NCODES3)
        counts = [0] * len(table.outcomes)
        for c, n in enumerate(per_code.tolist()):
            counts[table.code_outcome[c]] += n
    nets = [o.pays for o in table.outcomes[:-1]] + [Fraction(-1)]
    total = int(sum(counts))
    expected = sum((net * n for net, n in zip(nets, counts)), Fraction(0)) / total
    rows = tuple(OutcomeRow(o.name, n, net) for o, n, net in zip(table.outcomes, counts, nets))
    return BetAnalysis(bet.name, expected, Fraction(1), sd_of(list(zip(nets, counts))), total, rows)


def _ante_play(game: Game, tables: ThreeCardTables, ties: str) -> tuple[BetAnalysis, _Play, str]:
    n = len(tables.cards)
    tally = kernel.versus(n, tables.value, tables.reps, game.qualifier)
    dealer = comb(n - 3, 3)
    bonus_table = game.ante_bonus
    bonus_pays = [o.pays for o in bonus_table.outcomes] if bonus_table else [Fraction(0)]
    scale, scaled = _scaled([*bonus_pays, game.no_qualify_pays, Fraction(1)])
    bonus_scaled, no_qualify = scaled[:-2], scaled[-2]
    rep_codes = tables.code[tables.reps]
    if bonus_table:
        bonus_line = np.array(bonus_table.code_outcome, dtype=np.int64)[rep_codes]
    else:
        bonus_line = np.zeros(len(rep_codes), dtype=np.int64)
    bonus = np.array(bonus_scaled, dtype=np.int64)[bonus_line]
    stake = (1 + game.raise_bets) * scale
    # event nets (scaled) for the hands that play: no qualify, win, tie, lose
    nets = np.stack([no_qualify + bonus, stake + bonus, bonus, -stake + bonus], axis=1)
    play_total = (tally * nets).sum(axis=1)
    plays = (play_total >= -dealer * scale) if ties == "bet" else (play_total > -dealer * scale)
    weights = tables.weights
    values: Counter[Fraction] = Counter()
    values[Fraction(-1)] += int(weights[~plays].sum()) * dealer
    rows = [OutcomeRow("fold", int(weights[~plays].sum()) * dealer, Fraction(-1))]
    names = ["dealer does not qualify", "player wins", "tie", "dealer wins"]
    for event, name in enumerate(names):
        counts = weights[plays] * tally[plays, event]
        rows.append(OutcomeRow(name, int(counts.sum()), None))
        for net, count in zip(nets[plays, event].tolist(), counts.tolist()):
            values[Fraction(net, scale)] += count
    if bonus_table:
        for line, outcome in enumerate(bonus_table.outcomes[:-1]):
            hit = plays & (bonus_line == line)
            rows.append(OutcomeRow(f"ante bonus: {outcome.name}", int(weights[hit].sum()) * dealer, outcome.pays))
    total = len(tables.value) * dealer
    expected = sum((v * c for v, c in values.items()), Fraction(0)) / total
    average = 1 + Fraction(game.raise_bets * int(weights[plays].sum()), len(tables.value))
    bet = BetAnalysis("Ante & Play", expected, average, sd_of(list(values.items())), total, tuple(rows))
    rule = threshold_rule(tables.value[tables.reps].tolist(), plays.tolist(), "raise", "fold")
    play_of = np.zeros(len(tables.value), dtype=bool)
    play_of[tables.reps] = plays
    decide = play_of[tables.klass]
    bonus_by_code = _by_code(bonus_table, loss=0.0) if bonus_table else np.zeros(NCODES3)
    sides = [_by_code(side.table, loss=-1.0) for side in game.side_bets if side.cards == 3]
    sixes = {i: _best_six(side, game) for i, side in enumerate(game.side_bets) if side.cards == 6}
    raise_bets, nq, qualify = game.raise_bets, float(game.no_qualify_pays), game.qualifier

    def play(positions: np.ndarray) -> list[np.ndarray]:
        mine, theirs = colex(positions[:, :3]), colex(positions[:, 3:])
        pv, dv, code = tables.value[mine], tables.value[theirs], tables.code[mine]
        bonus = bonus_by_code[code]
        net = np.where(pv > dv, 1 + raise_bets, np.where(pv == dv, 0, -1 - raise_bets))
        result = np.where(dv < qualify, nq, net) + bonus
        threes = iter([side[code] for side in sides])
        return [np.where(decide[mine], result, -1.0)] + [sixes[i](positions) if i in sixes else next(threes)
                                                          for i in range(len(game.side_bets))]

    return bet, play, f"Ante & Play: {rule}"


def _five(bet: SideBet, game: Game) -> np.ndarray:
    """The outcome (line of the bet's five-card pay table) of every five-card hand of the deck."""
    from cardlab.casino.video import VideoDeck, final_outcomes

    return final_outcomes(bet.table, VideoDeck(game.deck))


def _scaled_pays(table: PayTable) -> np.ndarray:
    """A five-card pay table's pays as integers, the loss (nothing) last and negative."""
    return np.array(_scaled([o.pays for o in table.outcomes[:-1]] + [Fraction(-1)])[1], dtype=np.int64)


def _best_six(bet: SideBet, game: Game) -> Callable[[np.ndarray], np.ndarray]:
    """The net of a six-card bet for deals given as rows of six positions (each deal's best five
    cards: the highest pay, between equal pays the first outcome, as the core counts them)."""
    outcomes = _five(bet, game)
    scaled = _scaled_pays(bet.table)
    nets = np.array([float(o.pays) for o in bet.table.outcomes[:-1]] + [-1.0])

    def net(positions: np.ndarray) -> np.ndarray:
        drops = [np.delete(positions, i, axis=1) for i in range(6)]
        found = np.stack([outcomes[colex(d)] for d in drops], axis=1).astype(np.int64)
        key = scaled[found] * 256 - found  # the highest pay, then the lowest outcome
        best = np.take_along_axis(found, np.argmax(key, axis=1)[:, None], axis=1)[:, 0]
        return nets[best]

    return net


def _by_code(table: PayTable, loss: float) -> np.ndarray:
    """The pay of each three-card fine code under a three-card pay table (``loss`` for nothing)."""
    pays = np.array([float(o.pays) for o in table.outcomes[:-1]] + [loss])
    out: np.ndarray = pays[np.array(table.code_outcome)]
    return out


@dataclass(frozen=True)
class RidePlan:
    """Let It Ride's counts: ``counts[r - 1, o]`` final hands of outcome ``o`` with ``r`` bets
    riding (each start weighted by its class size, fourth and fifth cards ordered), each start
    class's pay ``sums`` (scaled by ``scale``), and the pays (scaled; the loss last)."""

    counts: np.ndarray
    sums: np.ndarray
    pays: list[int]
    scale: int
    outcomes: np.ndarray


def _main_pays(table: PayTable) -> tuple[int, list[int]]:
    return _scaled([o.pays for o in table.outcomes[:-1]] + [Fraction(-1)])


def ride_plan(game: Game, tables: ThreeCardTables, ties: str = "fold") -> RidePlan:
    """The exact counts of :class:`RidePlan` for a Let It Ride game."""
    from cardlab.casino.video import VideoDeck, final_outcomes

    assert game.main is not None
    outcomes = final_outcomes(game.main, VideoDeck(game.deck))
    scale, pays = _main_pays(game.main)
    counts, sums = kernel.ride(len(tables.cards), outcomes, np.array(pays), tables.reps, tables.weights,
                               ties == "bet")
    return RidePlan(counts, sums, pays, scale, outcomes)


def _let_it_ride(game: Game, tables: ThreeCardTables, ties: str) -> tuple[BetAnalysis, list[str], _Play]:
    assert game.main is not None
    plan = ride_plan(game, tables, ties)
    bet_ties = ties == "bet"
    n = len(tables.cards)
    total = int(plan.counts.sum())
    values: Counter[Fraction] = Counter()
    rows = []
    for o, outcome in enumerate(game.main.outcomes):
        net = Fraction(plan.pays[o], plan.scale)
        rows.append(OutcomeRow(outcome.name, int(plan.counts[:, o].sum()), net))
        for r in range(3):
            values[net * (r + 1)] += int(plan.counts[r, o])
    for r in range(3):
        rows.append(OutcomeRow(f"{r + 1} bet{'s' if r else ''} riding", int(plan.counts[r].sum()), None))
    expected = sum((v * c for v, c in values.items()), Fraction(0)) / total
    average = Fraction(sum((r + 1) * int(plan.counts[r].sum()) for r in range(3)), total)
    bet = BetAnalysis("Let It Ride", expected, average, sd_of(list(values.items())), total, tuple(rows))
    deck = np.array(tables.cards)
    starts = deck[positions_of(tables.reps, 3)]
    first_rides = (plan.sums >= 0) if bet_ties else (plan.sums > 0)
    rules = [f"first bet: {line}" for line in pattern_rule(starts, first_rides, "let it ride")]
    fours = kernel.four_sums(n, plan.outcomes, np.array(plan.pays))
    hands = deck[positions_of(np.arange(len(fours)), 4)]
    second = (fours >= 0) if bet_ties else (fours > 0)
    rules += [f"second bet: {line}" for line in pattern_rule(hands, second, "let it ride")]
    even = int((fours == 0).sum()) + int((tables.weights * (plan.sums == 0)).sum())
    if even:
        rules.append(f"({even:,} hands expect exactly 0 on their bet: pulling it back or not is the same; "
                     f"they {'ride' if bet_ties else 'pull back'} (ties = {ties!r}))")
    ride_of = np.zeros(len(tables.value), dtype=bool)
    ride_of[tables.reps] = first_rides
    first = ride_of[tables.klass]
    nets = np.array(plan.pays, dtype=float) / plan.scale
    sides = [(side.cards, _by_code(side.table, loss=-1.0) if side.cards == 3 else
              np.array([float(o.pays) for o in side.table.outcomes[:-1]] + [-1.0])[_five(side, game)])
             for side in game.side_bets]

    def play(positions: np.ndarray) -> list[np.ndarray]:
        start = colex(positions[:, :3])
        final = colex(positions)
        riding = 1 + first[start].astype(np.int64) + second[colex(positions[:, :4])]
        code = tables.code[start]
        return [riding * nets[plan.outcomes[final]]] + [side[code] if cards == 3 else side[final]
                                                        for cards, side in sides]

    return bet, rules, play


def _simulated(bets: list[BetAnalysis], play: _Play, n: int, k: int, simulate: int | None,
               seed: SeedLike) -> list[BetAnalysis]:
    """The bets with their simulation (``simulate`` deals of ``k`` cards played by ``play``)."""
    if simulate is None:
        return bets
    root, number = resolve_seed(seed)
    runs = run_chunks(play, n, k, simulate, root)
    return [replace(b, simulated=SimulatedBet(simulate, mean, interval, number, float(b.expected), _rare(b, simulate)))
            for b, (mean, interval) in zip(bets, runs)]


def _rare(bet: BetAnalysis, deals: int) -> float:
    """What the outcomes expected fewer than 5 times in ``deals`` contribute to the mean."""
    return sum(o.count / bet.total * abs(float(o.net)) for o in bet.outcomes
               if o.net is not None and o.count / bet.total * deals < 5)


def _stud(game: Game, simulate: int | None, seed: SeedLike, ties: str) -> GameAnalysis:
    from cardlab.casino.stud import analyse_stud
    from cardlab.casino.stud_rules import stud_rules

    done = analyse_stud(game, ties)
    bets = _simulated([done.bet], done.play, done.plan.n, 5, simulate, seed)
    n = done.plan.n
    method = (f"exact: every deal of the {n}-card deck counted ({done.plan.total:,}: hole cards, then the "
              "community cards in order), each street's decision for every hand and bets made")
    notes = ("House edge: expected loss per unit of the ante; element of risk: per unit of the average "
             "total bet.",)
    words = stud_rules(done.plan)
    rules = [*done.rules, *words.lines, words.proof(), "(the exact decisions for every hand and bets made: "
             "cardlab.casino.stud.stud_plan(game).choice3, .choice4)"]
    return GameAnalysis(game.name, tuple(bets), tuple(rules), method, notes)


def _caribbean(game: Game, simulate: int | None, seed: SeedLike, ties: str,
               sides: list[PokerSideBet]) -> GameAnalysis:
    from cardlab.casino.caribbean import analyse_caribbean

    bet, rules, play, pairs = analyse_caribbean(game, ties)
    bets = _simulated(*_plus_sides(game, sides, [bet], play), pairs.n, 10, simulate, seed)
    hands = f"{len(pairs.weight):,} pairs of a hand class (by suit symmetry) and an up card" if pairs.symmetric \
        else f"{len(pairs.weight):,} (hand, up card) pairs one by one"
    method = (f"exact: every deal of the {pairs.n}-card deck counted ({pairs.deals:,}: the player's five cards, the "
              f"up card, the dealer's other four), {hands}; the dealer's hands against each by inclusion-exclusion")
    return GameAnalysis(game.name, tuple(bets), tuple(rules), method,
                        ("House edge: expected loss per unit of the ante; element of risk: per unit of the average "
                         "total bet (the ante and the raise when made).",))


def _flop_game(game: Game, analysed: tuple[BetAnalysis, list[str], _Play, FlopPlan], simulate: int | None,
               seed: SeedLike, counted: str, notes: tuple[str, ...], sides: list[PokerSideBet],
               dealt: str = "hole cards, flop, turn and river") -> GameAnalysis:
    """A hold'em game's analysis from its module's (bet, rules, play, plan) and its ``sides`` bets:
    the simulation, and the method saying what was ``dealt`` and how the deals were ``counted``
    once the flops are classed."""
    bet, rules, play, plan = analysed
    bets = _simulated(*_plus_sides(game, sides, [bet], play), plan.n, 9, simulate, seed)
    folded = "by suit symmetry" if len(plan.flops) < comb(plan.n, 3) else "one by one"
    deals: int = plan.deals  # type: ignore[attr-defined]
    method = (f"exact: every deal of the {plan.n}-card deck counted ({deals:,}: {dealt}, "
              f"the dealer's two), the flops in {len(plan.flops):,} classes ({folded}); {counted}")
    return GameAnalysis(game.name, tuple(bets), tuple(rules), method, notes)


def _holdem(game: Game, simulate: int | None, seed: SeedLike, ties: str,
            sides: list[PokerSideBet]) -> GameAnalysis:
    from cardlab.casino.holdem import analyse_holdem

    return _flop_game(game, analyse_holdem(game, ties), simulate, seed,
                      "each board's holdings sorted once, the dealer's hands against each hole hand by counting",
                      ("House edge: expected loss per unit of the ante; element of risk: per unit of the average "
                       "total bet (the ante and the call when made).",), sides)


def _sampled_rule(analysed: tuple[Any, list[str], Any, Any], lines: Callable[[Any], list[str]], fallback: str) -> None:
    """Add a late decision's rule in words, its cost measured on sampled deals, to a hold'em game's
    strategy lines (on a deck with suit symmetry; otherwise say how the choice is made)."""
    plan = analysed[3]
    if kernel.suit_symmetric(plan.cards):
        analysed[1].extend(lines(plan))
    else:
        analysed[1].append(fallback)


def _uth(game: Game, simulate: int | None, seed: SeedLike, ties: str,
         sides: list[PokerSideBet]) -> GameAnalysis:
    from cardlab.casino.uth import analyse_uth
    from cardlab.casino.uth_river import river_rule

    analysed = analyse_uth(game, ties)
    _sampled_rule(analysed, lambda plan: river_rule(game, plan).lines(),
                  "on the river: play 1x or fold by the exact count of the dealer's hands")
    return _flop_game(game, analysed, simulate, seed,
                      "the river choice per hand and board, the flop choice per flop and hole cards, the pre-flop "
                      "choice per hole hand over every flop",
                      ("House edge: expected loss per unit of the ante (ante, blind and play bet together); element "
                       "of risk: per unit of the average total bet (ante, blind and play).",
                       "The 'blind pays' rows count the wins that also take a blind pay (they are inside the "
                       "rows above them; the total is of the rows before them)."), sides)


def _thb(game: Game, simulate: int | None, seed: SeedLike, ties: str,
         sides: list[PokerSideBet]) -> GameAnalysis:
    from cardlab.casino.thb import analyse_thb
    from cardlab.casino.thb_turn import turn_rule

    analysed = analyse_thb(game, ties)
    _sampled_rule(analysed, lambda plan: turn_rule(game, plan).lines(),
                  "on the turn: bet or check by the exact count of every river card and dealer hand")
    return _flop_game(game, analysed, simulate, seed,
                      "the turn's bet per flop, hole cards and turn, the flop's per flop and hole cards, the pre-flop "
                      "fold per hole hand over every flop",
                      ("House edge: expected loss per unit of the ante (ante and bets together); element of risk: "
                       "per unit of the average total bet.",
                       "The 'ante pays' rows count the wins that also take an ante pay (they are inside the rows "
                       "above them; the total is of the rows before them)."), sides, "hole cards, flop, turn, river")


def _baccarat(game: Game, simulate: int | None, seed: SeedLike) -> GameAnalysis:
    from cardlab.casino.baccarat import analyse_baccarat

    bets, play = analyse_baccarat(game)
    bets = _simulated(bets, play, game.deck.size, 6, simulate, seed)
    method = (f"exact: every ordered deal of the {game.deck.size}-card shoe's first six cards "
              f"({bets[0].total:,}), the coups by the tableau")
    return GameAnalysis(game.name, tuple(bets), ("no decisions: the tableau draws the third cards",), method,
                        ("House edge: expected loss per unit bet (a push counts as a bet).",))


def _war(game: Game, simulate: int | None, seed: SeedLike, ties: str) -> GameAnalysis:
    from cardlab.casino.war import analyse_war

    bets, rules, play = analyse_war(game, ties)
    bets = _simulated(bets, play, game.deck.size, 7, simulate, seed)
    method = (f"exact: every ordered deal of four cards of the {game.deck.size}-card shoe "
              f"({bets[0].total:,}; the burnt cards are unseen and change nothing)")
    return GameAnalysis(game.name, tuple(bets), tuple(rules), method,
                        ("House edge: expected loss per unit of the first bet; element of risk: per unit "
                         "of the average total bet (the raise at war).",))


def _poker_sides(game: Game, meter: object, only: bool) -> list[PokerSideBet]:
    """The side bets of a game against a dealer, with ``meter`` set on its progressives."""
    sides = list(game.poker_side_bets)
    if only and (game.kind not in SIDE_CARDS or not sides):
        raise PayTableError(f"{game.name}: no side bets on the player's hand to analyse apart (the side bets of "
                            "Caribbean Stud and the hold'em games are)")
    if meter is not None:
        if not any(side.progressive for side in sides):
            raise PayTableError(f"{game.name}: no side bet pays a share of a meter; a meter does not apply")
        sides = [with_meter(side, meter) for side in sides]
    return sides


def _plus_sides(game: Game, sides: list[PokerSideBet], bets: list[BetAnalysis],
                play: _Play) -> tuple[list[BetAnalysis], _Play]:
    """The bets and the simulation's play with the game's side bets added."""
    if not sides:
        return bets, play
    cards = game.cards
    nets = [side_bet_net(side, cards) for side in sides]

    def both(positions: np.ndarray) -> list[np.ndarray]:
        return play(positions) + [net(positions) for net in nets]

    return bets + [side_bet_analysis(side, cards) for side in sides], both


def _sides_only(game: Game, sides: list[PokerSideBet], simulate: int | None, seed: SeedLike) -> GameAnalysis:
    """The side bets of a game against a dealer alone."""
    bets, play = _plus_sides(game, sides, [], lambda positions: [])
    k = 10 if game.kind == "caribbean-stud" else 9
    bets = _simulated(bets, play, game.deck.size, k, simulate, seed)
    method = (f"exact: the side bets only, every hand of the {game.deck.size}-card deck they are paid on counted "
              "(the main bet is not analysed)")
    return GameAnalysis(game.name, tuple(bets), (), method, (_SIDE_NOTE,))


_SIDE_NOTE = ("Side bets: expected result per unit of the side bet, paid on the player's cards whatever the "
              "main bet does (house rules where a fold forfeits a side bet's win are not modelled).")


def analyse(game: str | Path | Game, *, simulate: int | None = None, seed: SeedLike = None,
            ties: str = "fold", meter: object = None, side_bets_only: bool = False) -> GameAnalysis:
    """The exact analysis of a game (a built-in name, a TOML file or a :class:`Game`); with
    ``simulate``, also that many seeded random deals played by the same strategy (each bet's
    mean and 95% interval beside its exact figure).

    ``ties``: between decisions of equal expectation, ``"fold"`` takes the one with less money at
    risk (fold, pull back, the smaller raise) and ``"bet"`` the one with more. The house edge is
    the same; the average bet, the element of risk and the outcome counts are not.

    ``meter``: the jackpot of the game's progressive side bets (units of the side bet), in place
    of the meter the game's file gives. ``side_bets_only``: the side bets of a game against a
    dealer (Caribbean Stud, the hold'em games) without the main bet (seconds, not minutes).
    """
    check_ties(ties)
    if simulate is not None:
        simulate = whole_argument(simulate, "the deals simulated", PayTableError, 1, MAX_SIMULATED)
    game = load_game(game)
    if game.kind == "mississippi-stud":
        return _stud(game, simulate, seed, ties)
    if game.kind == "baccarat":
        return _baccarat(game, simulate, seed)
    if game.kind == "casino-war":
        return _war(game, simulate, seed, ties)
    sides = _poker_sides(game, meter, side_bets_only)
    if side_bets_only:
        return _sides_only(game, sides, simulate, seed)
    against_dealer = {"caribbean-stud": _caribbean, "casino-holdem": _holdem, "ultimate-holdem": _uth,
                      "texas-holdem-bonus": _thb}
    if game.kind in against_dealer:
        result = against_dealer[game.kind](game, simulate, seed, ties, sides)
        return replace(result, notes=result.notes + (_SIDE_NOTE,)) if sides else result
    tables = three_card_tables(game.cards)
    strategy: list[str] = []
    if game.kind == "ante-play":
        bet, play, rule = _ante_play(game, tables, ties)
        strategy.append(rule)
        k = 6
    else:
        bet, rules, play = _let_it_ride(game, tables, ties)
        strategy += rules
        k = 5
    bets = [bet] + [_side_bet(side, tables.code, game) for side in game.side_bets]
    bets = _simulated(bets, play, len(tables.cards), k, simulate, seed)
    folded = "by suit symmetry" if len(tables.reps) < len(tables.value) else "one by one"
    method = (f"exact: every deal of the {len(tables.cards)}-card deck counted, the player's "
              f"{len(tables.value):,} three-card hands in {len(tables.reps):,} classes ({folded})")
    notes = ("House edge: expected loss per unit of the base bet (the ante; one of Let It Ride's three "
             "bets); element of risk: per unit of the average total bet.",)
    return GameAnalysis(game.name, tuple(bets), tuple(strategy), method, notes)
