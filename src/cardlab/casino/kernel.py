"""The one Python wrapper of each casino kernel (csrc/casino.c): checks every buffer, then calls it.

Hands are numbered in colex order of their positions in the deck (``cards``, distinct card ids):
the hand of positions p0 < p1 < p2 is C(p0,1) + C(p1,2) + C(p2,3).

>>> value, code, klass = three_cards([48, 49, 50, 51, 44, 45, 46, 47], symmetric=True)
>>> len(value), int(code[0]), len(set(klass.tolist()))
(56, 16, 6)
>>> three_cards([0, 0, 1])
Traceback (most recent call last):
...
cardlab.errors.DeckError: a table game's deck holds each card once: 2c is repeated
"""

from __future__ import annotations

from math import comb
from typing import Sequence

import numpy as np

from cardlab.cards import Card
from cardlab.errors import DeckError

__all__ = ["three_cards", "versus", "ride", "four_sums", "four_tallies", "best_of_six", "superset_sums", "subset_sums", "suit_symmetric",
           "stud_versus", "holdem", "uth", "uth_river", "thb", "thb_turn", "thb_turn_values",
           "FLOPS_A_CALL"]


def _check_cards(cards: Sequence[int], least: int) -> bytes:
    seen: set[int] = set()
    for c in cards:
        if not 0 <= c < 52:
            raise DeckError(f"card id {c} is not a card (0..51)")
        if c in seen:
            raise DeckError(f"a table game's deck holds each card once: {Card(c)} is repeated")
        seen.add(c)
    if len(cards) < least:
        raise DeckError(f"this game needs a deck of at least {least} cards; this one has {len(cards)}")
    return bytes(cards)


def suit_symmetric(cards: Sequence[int]) -> bool:
    """Whether every rank of the deck has all four suits (a suit permutation maps it onto itself).

    >>> suit_symmetric(range(52)), suit_symmetric(range(1, 52))
    (True, False)
    """
    have = set(cards)
    return all((c & ~3) + s in have for c in have for s in range(4))


def three_cards(cards: Sequence[int], symmetric: bool | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every three-card hand of the deck: its three-card value (uint32), fine code (uint8)
    and class (int32: the least colex number of its suit images; itself without symmetry).
    ``symmetric`` defaults to whether the deck allows it."""
    from cardlab._native import core as _core

    deck = _check_cards(cards, 3)
    if symmetric is None:
        symmetric = suit_symmetric(cards)
    elif symmetric and not suit_symmetric(cards):
        raise DeckError("suit symmetry needs all four suits of each rank in the deck")
    total = comb(len(deck), 3)
    value = np.empty(total, dtype=np.uint32)
    code = np.empty(total, dtype=np.uint8)
    klass = np.empty(total, dtype=np.int32)
    _core.casino_three_cards(deck, int(symmetric), value, code, klass)
    return value, code, klass


def versus(n: int, value: np.ndarray, players: np.ndarray, qualify: int) -> np.ndarray:
    """For each player hand (colex numbers): the dealer hands of the other ``n - 3`` cards that do
    not qualify (value below ``qualify``), that it beats, ties and loses to: int64 rows of 4."""
    from cardlab._native import core as _core

    value = np.ascontiguousarray(value, dtype=np.uint32)
    players = np.ascontiguousarray(players, dtype=np.int32)
    if not 6 <= n <= 52 or len(value) != comb(n, 3):
        raise DeckError(f"a game against the dealer needs 6..52 cards, not {n}")
    if len(players) and (players.min() < 0 or players.max() >= len(value)):
        raise ValueError("a player hand number is out of range")
    if not 0 <= qualify < 1 << 16:
        raise ValueError(f"qualifier value {qualify} is out of range")
    out = np.zeros((len(players), 4), dtype=np.int64)
    _core.casino_versus(n, value, players, qualify, out)
    return out


def _check_ride(n: int, outcomes: np.ndarray, pays: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    outcomes = np.ascontiguousarray(outcomes, dtype=np.uint8)
    pays = np.ascontiguousarray(pays, dtype=np.int64)
    if not 5 <= n <= 52 or len(outcomes) != comb(n, 5):
        raise DeckError(f"Let It Ride needs 5..52 cards, not {n}")
    if not 1 <= len(pays) <= 64 or (len(outcomes) and int(outcomes.max()) >= len(pays)):
        raise ValueError("an outcome index is past the pay table")
    if np.abs(pays).max() > 2**40:
        raise ValueError("a pay is out of range")
    return outcomes, pays


def ride(n: int, outcomes: np.ndarray, pays: np.ndarray, starts: np.ndarray,
         weights: np.ndarray, ties: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Let It Ride from each start (a three-card hand's colex number, counted ``weights`` times):
    the final hands by bets riding (1..3, rows) and outcome (columns), and each start's sum of
    pays over its ordered fourth and fifth cards (``pays`` scaled to integers, a loss negative).
    A bet rides when its expectation is positive, or zero too with ``ties``."""
    from cardlab._native import core as _core

    outcomes, pays = _check_ride(n, outcomes, pays)
    starts = np.ascontiguousarray(starts, dtype=np.int32)
    weights = np.ascontiguousarray(weights, dtype=np.int64)
    if len(starts) != len(weights) or (len(starts) and (starts.min() < 0 or starts.max() >= comb(n, 3))):
        raise ValueError("starts and weights must be colex numbers of three-card hands, one weight each")
    counts = np.zeros((3, len(pays)), dtype=np.int64)
    sums = np.zeros(len(starts), dtype=np.int64)
    _core.casino_ride(n, outcomes, pays, starts, weights, counts, sums, bool(ties))
    return counts, sums


def four_sums(n: int, outcomes: np.ndarray, pays: np.ndarray) -> np.ndarray:
    """The sum of the pays of the fifth cards of every four-card hand (colex numbers), int64."""
    from cardlab._native import core as _core

    outcomes, pays = _check_ride(n, outcomes, pays)
    out = np.zeros(comb(n, 4), dtype=np.int64)
    _core.casino_four_sums(n, outcomes, pays, out)
    return out


def four_tallies(n: int, outcomes: np.ndarray, k: int) -> np.ndarray:
    """For every four-card hand (rows, colex numbers), its fifth cards by outcome (``k``
    columns, int32): the outcome table ``outcomes`` of every five-card hand read n - 4 times."""
    from cardlab._native import core as _core

    outcomes = np.ascontiguousarray(outcomes, dtype=np.uint8)
    if not 5 <= n <= 52 or len(outcomes) != comb(n, 5):
        raise DeckError(f"a five-card game needs 5..52 cards, not {n}")
    if not 1 <= k <= 64 or (len(outcomes) and int(outcomes.max()) >= k):
        raise ValueError("an outcome index is past the pay table")
    out = np.zeros((comb(n, 4), k), dtype=np.int32)
    _core.casino_four_tallies(n, outcomes, k, out)
    return out


def _street_table(n: int, k: int, table: np.ndarray, rows: int) -> np.ndarray:
    table = np.ascontiguousarray(table, dtype=np.int64)
    if table.ndim != 2 or not 1 <= k <= 4 or not k + 1 <= n <= 52 or len(table) != rows or not 1 <= table.shape[1] <= 64:
        raise ValueError(f"a street table of {n} cards, hands of {k} and {k + 1}, needs C(n, size) rows of 1..64 columns")
    if table.size and np.abs(table).max() > 2**52:
        raise ValueError("a street table's entries are out of range")
    return table


def superset_sums(n: int, k: int, table: np.ndarray) -> np.ndarray:
    """For every k-card hand: the rows of ``table`` (over (k+1)-card hands) summed over the
    hand and each card outside it.

    >>> superset_sums(4, 1, np.ones((6, 1), dtype=np.int64)).ravel().tolist()
    [3, 3, 3, 3]
    """
    from cardlab._native import core as _core

    table = _street_table(n, k, table, comb(n, k + 1))
    out = np.zeros((comb(n, k), table.shape[1]), dtype=np.int64)
    _core.casino_superset_sums(n, k, table.shape[1], table, out)
    return out


def subset_sums(n: int, k: int, table: np.ndarray) -> np.ndarray:
    """For every (k+1)-card hand: the rows of ``table`` (over k-card hands) summed over the
    hand's k-card subsets.

    >>> subset_sums(4, 1, np.arange(4, dtype=np.int64).reshape(4, 1)).ravel().tolist()
    [1, 2, 3, 3, 4, 5]
    """
    from cardlab._native import core as _core

    table = _street_table(n, k, table, comb(n, k))
    out = np.zeros((comb(n, k + 1), table.shape[1]), dtype=np.int64)
    _core.casino_subset_sums(n, k, table.shape[1], table, out)
    return out


def best_of_six(n: int, outcomes: np.ndarray, pays: np.ndarray) -> np.ndarray:
    """Every six-card hand of the deck counted by its best five cards' outcome (the highest pay
    of ``pays``; between equal pays the first outcome): int64 per outcome."""
    from cardlab._native import core as _core

    outcomes, pays = _check_ride(n, outcomes, pays)
    if n < 6:
        raise DeckError(f"a six-card bet needs at least 6 cards, not {n}")
    out = np.zeros(len(pays), dtype=np.int64)
    _core.casino_best_of_six(n, outcomes, pays, out)
    return out


def stud_versus(n: int, rank: np.ndarray, ranks: int, up: int, players: np.ndarray, qualify: int) -> np.ndarray:
    """Five-card stud against a dealer showing the card at position ``up`` (csrc/casino_stud.c):
    for each player hand (rows of five positions, none ``up``), the dealer's four hidden cards
    from the other n - 6 that leave the dealer not qualifying (rank below ``qualify``), losing,
    tying, winning: int64 rows of 4. ``rank`` gives every five-card hand's rank 0..ranks-1
    (colex order, higher better).

    >>> rank = np.arange(comb(10, 5), dtype=np.uint16) % 3
    >>> stud_versus(10, rank, 3, 0, np.array([[1, 2, 3, 4, 5]]), 1).sum(axis=1).tolist()
    [1]
    """
    from cardlab._native import core as _core

    rank = np.ascontiguousarray(rank, dtype=np.uint16)
    players = np.ascontiguousarray(players, dtype=np.uint8)
    if not 10 <= n <= 52 or len(rank) != comb(n, 5):
        raise DeckError(f"five-card stud against a dealer needs 10..52 cards, not {n}")
    if not 1 <= ranks <= 7462 or (len(rank) and int(rank.max()) >= ranks) or not 0 <= qualify <= ranks:
        raise ValueError("a hand rank or the qualifying rank is out of range")
    if not 0 <= up < n or players.ndim != 2 or players.shape[1] != 5:
        raise ValueError("player hands must be rows of five positions and the up card a position")
    if len(players) and (int(players.max()) >= n or (players == up).any()
                         or (np.diff(np.sort(players, axis=1), axis=1) == 0).any()):
        raise ValueError("a player hand holds a position twice, past the deck or the up card")
    out = np.zeros((len(players), 4), dtype=np.int64)
    _core.casino_stud_versus(n, rank, ranks, up, players, qualify, out)
    return out


FLOPS_A_CALL = 8
"""Flops per call of a flop kernel (holdem, uth, thb): each call is C without the GIL, a tenth of
a second a flop, so Ctrl-C and SIGTERM are acted on between calls, within a second or so (the
whole game in one call took minutes to stop)."""


def _flop_parts(flops: int) -> list[slice]:
    return [slice(start, start + FLOPS_A_CALL) for start in range(0, flops, FLOPS_A_CALL)]


def _check_pays(line: Sequence[int], pays: Sequence[int], scale: int) -> None:
    """The hold'em kernels' pay lines (16 categories to 1..16 lines), pays (whole numbers 0..2^40
    a line, scaled) and scale (1..2^20), as csrc/holdem_board.h checks them again."""
    if len(line) != 16 or not 1 <= len(pays) <= 16 or min(line) < 0 or max(line) >= len(pays):
        raise ValueError("a pay line is out of range")
    if any(isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not 0 <= p <= 2**40 for p in pays) or \
            isinstance(scale, bool) or not isinstance(scale, (int, np.integer)) or not 1 <= scale <= 2**20:
        raise ValueError(f"a pay or the scale is out of range (pays are whole numbers 0..2^40, the scale 1..2^20): "
                         f"{list(pays)!r:.80}, {scale!r:.20}")


def _check_holdem(cards: Sequence[int], flops: np.ndarray, weights: np.ndarray, line: Sequence[int],
                  pays: Sequence[int], scale: int) -> tuple[bytes, np.ndarray, np.ndarray]:
    deck = _check_cards(cards, 9)
    flops = np.ascontiguousarray(flops, dtype=np.uint8)
    weights = np.ascontiguousarray(weights, dtype=np.int64)
    if flops.ndim != 2 or flops.shape[1] != 3 or len(weights) != len(flops) or not set(flops.ravel().tolist()) <= set(cards):
        raise ValueError("flops must be rows of three cards of the deck, one weight each")
    _check_pays(line, pays, scale)
    if len(weights) and (weights.min() < 0 or weights.max() > 2**20):
        raise ValueError("a flop weight is out of range")
    return deck, flops, weights


def holdem(cards: Sequence[int], flops: np.ndarray, weights: np.ndarray, qualify: int, line: Sequence[int],
           pays: Sequence[int], scale: int, call: int, ties: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Casino Hold'em flop by flop (csrc/casino_holdem.c): for each flop (rows of three card ids
    of the deck ``cards``, each counted ``weights`` times) and each hole hand of the other cards
    (colex index among them, deck order), the expected result of calling times ``scale``, summed
    over every turn, river and dealer hand (int64, flops x holes); and the tally of the outcome
    counters (the dealer does not qualify by pay line, the player wins by pay line, tie, dealer
    wins) of the calls, then of the folds, then the deals folded. ``line`` maps each category
    position (16) to a pay line; ``pays`` are the ante's pays by line times ``scale``.
    """
    from cardlab._native import core as _core
    from cardlab.poker.evaluator import tables

    deck, flops, weights = _check_holdem(cards, flops, weights, line, pays, scale)
    if not 0 <= call <= 100:
        raise ValueError("the call is out of range")
    holes = comb(len(deck) - 3, 2)
    ev = np.zeros((len(flops), holes), dtype=np.int64)
    k = 2 * len(pays) + 2
    tally = np.zeros(2 * k + 1, dtype=np.int64)
    for part in _flop_parts(len(flops)):
        some = np.zeros_like(tally)
        _core.casino_holdem(tables(), deck, flops[part], weights[part], qualify, bytes(line), len(pays),
                            np.array(pays, dtype=np.int64), scale, call, int(ties), ev[part], some)
        tally += some
    return ev, tally


def uth(cards: Sequence[int], flops: np.ndarray, weights: np.ndarray, qualify: int, line: Sequence[int],
        blind: Sequence[int], scale: int, ties: bool = False, stake: np.ndarray | None = None) -> np.ndarray:
    """Ultimate Texas Hold'em flop by flop (csrc/casino_uth.c, the board sweep of
    csrc/holdem_board.h). Without ``stake``: for each flop and hole hand (as :func:`holdem`), the values (times ``scale``, summed over every
    turn, river and dealer hand) of playing 4x and 3x before the flop, 2x on the flop, and of
    checking to the river and playing 1x or folding, the better (int64, flops x holes x 4). With
    ``stake`` (flops x holes: 4, 3, 2, or 0 to decide on the river): the tally of the deals by
    play (1x..4x), outcome (win against a qualifying dealer, against one who does not, tie, lose
    to a qualifying dealer, to one who does not) and pay line, then the river folds (int64,
    20 L + 1). ``blind`` are the blind's pays by line, times ``scale``."""
    from cardlab._native import core as _core
    from cardlab.poker.evaluator import tables

    deck, flops, weights = _check_holdem(cards, flops, weights, line, blind, scale)
    holes = comb(len(deck) - 3, 2)
    pays = np.array(blind, dtype=np.int64)
    if stake is None:
        out = np.zeros((len(flops), holes, 4), dtype=np.int64)
        for part in _flop_parts(len(flops)):
            _core.casino_uth(tables(), deck, flops[part], weights[part], qualify, bytes(line), pays, scale, int(ties),
                             b"", out[part], np.zeros(0, dtype=np.int64))
        return out
    stake = np.ascontiguousarray(stake, dtype=np.int8)
    if stake.shape != (len(flops), holes) or not np.isin(stake, (0, 2, 3, 4)).all():
        raise ValueError("stake must give 4, 3, 2 or 0 for each flop and hole hand")
    tally = np.zeros(20 * len(pays) + 1, dtype=np.int64)
    for part in _flop_parts(len(flops)):
        some = np.zeros_like(tally)
        _core.casino_uth(tables(), deck, flops[part], weights[part], qualify, bytes(line), pays, scale, int(ties),
                         stake[part], np.zeros(0, dtype=np.int64), some)
        tally += some
    return tally


def uth_river(cards: Sequence[int], deals: np.ndarray, qualify: int, line: Sequence[int], blind: Sequence[int],
              scale: int, ties: bool = False) -> np.ndarray:
    """Ultimate Texas Hold'em's river decision (True: play 1x) for deals given as rows of seven
    card ids (the hole cards, then the board), counting every dealer hand one by one."""
    from cardlab._native import core as _core
    from cardlab.poker.evaluator import tables

    deck = _check_cards(cards, 9)
    deals = np.ascontiguousarray(deals, dtype=np.uint8)
    if deals.ndim != 2 or deals.shape[1] != 7 or not set(deals.ravel().tolist()) <= set(cards) or \
            (np.diff(np.sort(deals, axis=1), axis=1) == 0).any():
        raise ValueError("deals must be rows of seven distinct cards of the deck")
    _check_pays(line, blind, scale)
    out = np.zeros(len(deals), dtype=np.uint8)
    _core.casino_uth_river(tables(), deck, deals, qualify, bytes(line), np.array(blind, dtype=np.int64), scale,
                           int(ties), out)
    return out.astype(bool)


def thb(cards: Sequence[int], flops: np.ndarray, weights: np.ndarray, line: Sequence[int], ante: Sequence[int],
        scale: int, ties: bool = False, stake: np.ndarray | None = None) -> np.ndarray:
    """Texas Hold'em Bonus flop by flop (csrc/casino_thb.c, the board sweep of
    csrc/holdem_board.h). Without ``stake``: for each flop and hole hand (as :func:`holdem`), the values (times ``scale``, summed over every
    turn, river and dealer hand, either card the turn) of playing on without the flop's turn bet
    and with it, each turn card's river bet chosen the better way (int64, flops x holes x 2).
    With ``stake`` (flops x holes: -1 folded before the flop, 0 or 1 the turn bet): the tally by
    play bets (2..4 antes), outcome (win, tie, lose) and pay line, then the deals folded (int64,
    9 L + 1). ``ante`` are the ante's pays on a win by line, times ``scale``."""
    from cardlab._native import core as _core
    from cardlab.poker.evaluator import tables

    deck, flops, weights = _check_holdem(cards, flops, weights, line, ante, scale)
    holes = comb(len(deck) - 3, 2)
    pays = np.array(ante, dtype=np.int64)
    if stake is None:
        out = np.zeros((len(flops), holes, 2), dtype=np.int64)
        for part in _flop_parts(len(flops)):
            _core.casino_thb(tables(), deck, flops[part], weights[part], bytes(line), pays, scale, int(ties), b"",
                             out[part], np.zeros(0, dtype=np.int64))
        return out
    stake = np.ascontiguousarray(stake, dtype=np.int8)
    if stake.shape != (len(flops), holes) or not np.isin(stake, (-1, 0, 1)).all():
        raise ValueError("stake must give -1, 0 or 1 for each flop and hole hand")
    tally = np.zeros(9 * len(pays) + 1, dtype=np.int64)
    for part in _flop_parts(len(flops)):
        some = np.zeros_like(tally)
        _core.casino_thb(tables(), deck, flops[part], weights[part], bytes(line), pays, scale, int(ties), stake[part],
                         np.zeros(0, dtype=np.int64), some)
        tally += some
    return tally


def thb_turn(cards: Sequence[int], deals: np.ndarray, bets: np.ndarray, line: Sequence[int], ante: Sequence[int],
             scale: int, ties: bool = False) -> np.ndarray:
    """Texas Hold'em Bonus's river-bet choice (True: bet) for deals given as rows of six card ids
    (hole cards, flop, turn) with ``bets`` (0 or 1: the turn bet made on the flop), counting every
    river card and dealer hand one by one."""
    out = np.zeros(len(deals), dtype=np.uint8)
    _thb_turn(cards, deals, bets, line, ante, scale, ties, out)
    return out.astype(bool)


def thb_turn_values(cards: Sequence[int], deals: np.ndarray, bets: np.ndarray, line: Sequence[int],
                    ante: Sequence[int], scale: int) -> np.ndarray:
    """The two values behind :func:`thb_turn`'s choice: for each deal, checking and betting 1 ante
    on the turn (times ``scale``, summed over every river card and dealer hand; int64, deals x 2)."""
    out = np.zeros((len(deals), 2), dtype=np.int64)
    if len(deals):
        _thb_turn(cards, deals, bets, line, ante, scale, False, out)
    return out


def _thb_turn(cards: Sequence[int], deals: np.ndarray, bets: np.ndarray, line: Sequence[int], ante: Sequence[int],
              scale: int, ties: bool, out: np.ndarray) -> None:
    from cardlab._native import core as _core
    from cardlab.poker.evaluator import tables

    deck = _check_cards(cards, 9)
    deals = np.ascontiguousarray(deals, dtype=np.uint8)
    bets = np.ascontiguousarray(bets, dtype=np.int8)
    if deals.ndim != 2 or deals.shape[1] != 6 or not set(deals.ravel().tolist()) <= set(cards) or \
            (np.diff(np.sort(deals, axis=1), axis=1) == 0).any() or bets.shape != (len(deals),) or \
            not np.isin(bets, (0, 1)).all():
        raise ValueError("deals must be rows of six distinct cards of the deck, with a bet of 0 or 1 each")
    _check_pays(line, ante, scale)
    _core.casino_thb_turn(tables(), deck, deals, bets, bytes(line), np.array(ante, dtype=np.int64), scale, int(ties), out)
