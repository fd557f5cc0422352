"""Ultimate Texas Hold'em, exactly: ante and blind; play 4x or 3x, 2x, 1x, or fold on the river.

``game = "ultimate-holdem"`` (docs/casino.md): the player puts up an ante and an equal blind and
sees two hole cards; before the flop the player may play 4 or 3 antes or check; after the flop
(if checked) play 2 antes or check; after the turn and river (if checked twice) play 1 ante or
fold, losing the ante and the blind. One play bet at most. The dealer opens with ``qualifier``
or better (a pair): when not, the ante pushes. The better hand wins the play bet and the ante
(when the dealer opens) even money and the blind by ``[blind_pays]`` (hands it leaves out push);
the worse loses all three; a tie pushes them.

How it is counted. The flops are folded by suit symmetry; for each, the compiled core
(csrc/casino_uth.c, the board sweep of csrc/holdem_board.h) walks every turn and river,
sorts the two-card holdings of the cards left and sweeps up the list (as Casino Hold'em),
giving each hole hand its river choice and the values of its 4x, 3x and 2x bets over every
completion. The flop choice is made per
(flop, hole cards), the pre-flop one per hole hand class summed over every flop; a second walk
tallies the outcomes under those choices.

>>> from cardlab.casino.game import parse_game
>>> game = parse_game({"game": "ultimate-holdem", "deck": "As Ks Qs Js Ts 9h 8h 7h 6d 5d"}, "small.toml")
>>> bet, rules, play, plan = analyse_uth(game)
>>> bet.total == plan.deals
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Callable

import numpy as np

from cardlab.cards import RANKS
from cardlab.casino import kernel
from cardlab.casino.game import Game
from cardlab.casino.holdem import FlopPlan, flop_classes, flop_lookup, pay_lines, showdown
from cardlab.casino.result import BetAnalysis, OutcomeRow, sd_of
from cardlab.casino.simulation import positions_of
from cardlab.casino.table_rules import CATEGORIES, SHIFT

__all__ = ["UthPlan", "uth_plan", "analyse_uth"]

_OUTCOMES = ("wins, dealer opens", "wins, dealer does not open", "ties", "loses, dealer opens",
             "loses, dealer does not open")


@dataclass(frozen=True)
class UthPlan(FlopPlan):
    """The exact counts: the flop classes (:class:`~cardlab.casino.holdem.FlopPlan`), each (flop,
    hole hand)'s values (``values``: 4x, 3x, 2x, check to the river; scaled, summed over
    completions), the stake played (``stake``: 4, 3, 2 or 0 for the river) and the tally under it."""

    values: np.ndarray
    stake: np.ndarray
    preflop: dict[int, int]
    tally: np.ndarray
    scale: int

    @property
    def deals(self) -> int:
        """Every deal: hole cards, flop, turn and river, the dealer's two."""
        return comb(self.n, 3) * comb(self.n - 3, 2) * comb(self.n - 5, 2) * comb(self.n - 7, 2)


def _hole_class(cards: np.ndarray, symmetric: bool) -> np.ndarray:
    """A number for each hole hand (rows of two card ids): its rank pair and suitedness when the
    deck is suit-symmetric, else the cards themselves."""
    if not symmetric:
        out: np.ndarray = np.sort(cards, axis=1) @ np.array([52, 1])
        return out
    ranks = np.sort(cards >> 2, axis=1)
    key: np.ndarray = ranks[:, 1] * 13 + ranks[:, 0] + 169 * ((cards[:, 0] & 3) == (cards[:, 1] & 3))
    return key


def _classes_by_flop(deck: np.ndarray, flops: np.ndarray, holes: np.ndarray,
                     symmetric: bool) -> tuple[np.ndarray, np.ndarray]:
    """The hole hand classes met (``keys``, as :func:`_hole_class` numbers them) and the index
    among them of each (flop, hole hand): ``holes`` are the hole hands' positions among the cards
    off the flop."""
    classes = np.stack([_hole_class(deck[~np.isin(deck, f)][holes], symmetric) for f in flops])
    keys, where = np.unique(classes, return_inverse=True)
    return keys, where.reshape(classes.shape)


def _sum_by(group: np.ndarray, value: np.ndarray, count: int) -> np.ndarray:
    """Exact int64 sums of ``value`` by ``group``."""
    out = np.zeros(count, dtype=np.int64)
    np.add.at(out, group, value)
    return out


def uth_plan(game: Game, ties: str = "fold") -> UthPlan:
    """Count every deal of an Ultimate Texas Hold'em game (see the module docstring)."""
    cards = game.cards
    reps, weights, flops = flop_classes(cards)
    symmetric = kernel.suit_symmetric(cards)
    deck = np.array(cards, dtype=np.int64)
    pays, scale, line, blind = pay_lines(game)
    values = kernel.uth(cards, flops, weights, game.qualifier, line, blind, scale, ties == "bet")
    holes = positions_of(np.arange(values.shape[1]), 2)
    bet_ties = ties == "bet"
    flop_bets = values[:, :, 2] >= values[:, :, 3] if bet_ties else values[:, :, 2] > values[:, :, 3]
    after = np.maximum(values[:, :, 2], values[:, :, 3])
    keys, where = _classes_by_flop(deck, flops, holes, symmetric)
    totals = np.zeros((len(keys), 3), dtype=np.int64)
    for column, value in enumerate((values[:, :, 0], values[:, :, 1], after)):
        totals[:, column] = _sum_by(where.ravel(), (value * weights[:, None]).ravel(), len(keys))
    preflop = {}
    for k, (four, three, later) in zip(keys.tolist(), totals.tolist()):
        options = [(later, 0), (three, 3), (four, 4)]  # the least money at risk first
        if bet_ties:
            options.reverse()
        preflop[int(k)] = max(options, key=lambda o: o[0])[1]
    chosen = np.array([preflop[int(k)] for k in keys], dtype=np.int8)[where]
    stake = np.where(chosen > 0, chosen, np.where(flop_bets, 2, 0)).astype(np.int8)
    tally = kernel.uth(cards, flops, weights, game.qualifier, line, blind, scale, bet_ties, stake)
    return UthPlan(tuple(cards), flops, weights, reps, values, stake, preflop, tally, scale)


def _hand_rule(preflop: dict[int, int], play: int) -> str:
    """The hole hands that play ``play`` antes before the flop, as players list them."""
    def acts(hi: int, lo: int, suited: bool) -> bool:
        return preflop.get(hi * 13 + lo + 169 * suited, -1) == play

    parts = []
    pairs = [r for r in range(13) if acts(r, r, False)]
    if pairs:
        parts.append(f"pairs {RANKS[min(pairs)]}{RANKS[min(pairs)]}+" if pairs == list(range(min(pairs), 13))
                     else "pairs " + ", ".join(RANKS[r] * 2 for r in pairs))
    for suited, word in ((True, "s"), (False, "o")):
        for hi in range(12, 0, -1):
            kickers = [lo for lo in range(hi) if acts(hi, lo, suited)]
            if not kickers:
                continue
            least = min(kickers)
            if kickers == list(range(least, hi)):
                parts.append(f"{RANKS[hi]}{RANKS[least]}{word}+" if least < hi - 1 else f"{RANKS[hi]}{RANKS[least]}{word}")
            else:
                parts.append(", ".join(f"{RANKS[hi]}{RANKS[lo]}{word}" for lo in kickers))
    return ", ".join(parts) if parts else "none"


def _rules(plan: UthPlan, symmetric: bool, expected: Fraction) -> list[str]:
    """The strategy in words: the pre-flop raises by hand, the flop bets as a rule by what the hole
    cards make with the flop (:mod:`cardlab.casino.rules_text`, with its exact cost)."""
    from cardlab.casino.rules_text import flop_word_rule

    lines = []
    if symmetric:
        lines.append(f"before the flop: play 4x with {_hand_rule(plan.preflop, 4)}; otherwise check")
        three = _hand_rule(plan.preflop, 3)
        if three != "none":
            lines.append(f"before the flop: play 3x with {three}")
    else:
        share = sum(1 for v in plan.preflop.values() if v == 4) / max(1, len(plan.preflop))
        lines.append(f"before the flop: play 4x with {share:.1%} of the hole hands; otherwise check")
    word = flop_word_rule(plan, plan.stake < 3, plan.values[:, :, 2], plan.values[:, :, 3], expected, plan.scale,
                          plan.deals, ("play 2x", "check"))
    lines += [f"on the flop (after checking): {text}" for text in word.lines]
    return lines + [word.proof()]


def analyse_uth(game: Game, ties: str = "fold") -> tuple[BetAnalysis, list[str], Callable[[np.ndarray], list[np.ndarray]], UthPlan]:
    """The exact analysis of an Ultimate Texas Hold'em game: the bet (ante, blind and play
    together, per unit of the ante), the strategy in words, the simulation's play function (deals
    of nine positions: hole cards, flop, turn, river, the dealer's two) and the counts behind them."""
    plan = uth_plan(game, ties)
    pays = [p for _, p in game.pays]
    lines = len(pays)
    values: Counter[Fraction] = Counter()
    rows = []
    folded = int(plan.tally[20 * lines])
    values[Fraction(-2)] += folded
    rows.append(OutcomeRow("fold on the river", folded, Fraction(-2)))
    played = 0
    for p in (4, 3, 2, 1):
        for o, name in enumerate(_OUTCOMES):
            counts = plan.tally[((p - 1) * 5 + o) * lines:((p - 1) * 5 + o + 1) * lines]
            for at, count in enumerate(counts.tolist()):
                net = [1 + p + pays[at], p + pays[at], Fraction(0), Fraction(-2 - p), Fraction(-1 - p)][o]
                values[Fraction(net)] += count
            fixed = o in (2, 3, 4)
            rows.append(OutcomeRow(f"play {p}x, player {name}", int(counts.sum()),
                                   [None, None, Fraction(0), Fraction(-2 - p), Fraction(-1 - p)][o] if fixed else None))
            played += p * int(counts.sum())
    for c, name in enumerate(CATEGORIES):
        wins = sum(int(plan.tally[((p - 1) * 5 + o) * lines + c]) for p in (1, 2, 3, 4) for o in (0, 1))
        if pays[c]:
            rows.append(OutcomeRow(f"blind pays: {name}", wins, pays[c]))
    total = plan.deals
    assert sum(values.values()) == total
    expected = sum((v * c for v, c in values.items()), Fraction(0)) / total
    average = 2 + Fraction(played, total)
    bet = BetAnalysis("Ante, Blind & Play", expected, average, sd_of(list(values.items())), total, tuple(rows))
    symmetric = kernel.suit_symmetric(plan.cards)
    rules = _rules(plan, symmetric, expected)
    deck = np.array(plan.cards, dtype=np.int64)
    _, _, line, blind_scaled = pay_lines(game)
    blind_net = np.array([float(p) for p in pays])

    def play(positions: np.ndarray) -> list[np.ndarray]:
        hole, flop, board, mine, theirs = showdown(deck, positions)
        classes = _hole_class(hole, symmetric)
        stake = np.array([plan.preflop[int(k)] for k in classes], dtype=np.int64)
        rows, index = flop_lookup(plan.cards, plan.rep, hole, flop)
        later = plan.stake[rows, index].astype(np.int64)
        stake = np.where(stake > 0, stake, later)
        river = stake == 0
        if river.any():
            seven = np.concatenate([hole, flop, board], axis=1)[river]
            bets = kernel.uth_river(plan.cards, seven, game.qualifier, line, blind_scaled, plan.scale, ties == "bet")
            stake[np.flatnonzero(river)] = np.where(bets, 1, 0)
        blind = blind_net[np.minimum(mine >> SHIFT, len(CATEGORIES) - 1)]
        opens = theirs >= game.qualifier
        result = np.where(mine > theirs, stake + opens + blind,
                          np.where(mine == theirs, 0.0, -stake - 1.0 - opens))
        return [np.where(stake == 0, -2.0, result)]

    return bet, rules, play, plan
