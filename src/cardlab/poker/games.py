"""The other poker games: seven-card stud (high and hi-lo 8 or better), razz, 2-7 and A-5 lowball,
badugi. Hand values, exact category tables and equity between starting hands.

The rules and deck rules of each game are in ``docs/games.md``. Every hand is valued by one
kernel of the compiled core (``csrc/poker_games.c``); higher values win, equal values split.

* **stud**: best five of seven, the high evaluator of hold'em (its 7-card table is
  :func:`cardlab.poker.odds.poker_odds` of 7 cards).
* **stud8**: stud hi-lo; half the pot to the best high, half to the best ace-to-five low of five
  different ranks eight or lower (no such low: the high takes it all).
* **razz**: stud for the best ace-to-five low (aces low, straights and flushes do not count,
  pairs are bad).
* **a5**: ace-to-five lowball, five cards, single or triple draw.
* **27**: deuce-to-seven lowball, five cards: aces are high, straights and flushes count against
  the hand, 7-5-4-3-2 is the best.
* **badugi**: four cards, triple draw: the best set of cards of different ranks and different
  suits, more cards first, then the lower highest card (ace low).

>>> [c for c in categories_of(hand_array("27", ["7c 5d 4h 3s 2c", "As Ks Qs Js Ts"]), "27")]
['7_high', 'straight_flush']
>>> r = game_equity(["A23", "K89"], "razz")
>>> round(r.players[0].equity, 4), r.exact
(0.7971, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Any, ClassVar, Sequence

import numpy as np

from cardlab._native import core as _core
from cardlab.cards import RANKS, card_id_array, format_cards, parse_card_ids
from cardlab.distribution import Distribution, Simulation
from cardlab.engine import Executor, SeedLike, available_cores, kernel_state, reduce_chunks, resolve_seed
from cardlab.errors import CardlabError, DeckError, HandError, TooLargeError, text_argument
from cardlab.results import csv_rows
from cardlab.intervals import Z95
from cardlab.poker.equity import UNIT
from cardlab.poker.equity_result import EquityResult, PlayerEquity
from cardlab.poker.evaluator import tables
from cardlab.poker.lowball import LOW_CATEGORIES
from cardlab.poker.rules import STANDARD
from cardlab.results import JsonText
from cardlab.tabulation import Tabulation

__all__ = ["GameRules", "GAMES", "game_rules", "hand_array", "game_values", "categories_of", "game_odds",
           "game_equity", "compare_hands", "GameComparison", "MAX_EXACT_DEALS", "A5_CATEGORIES",
           "DEUCE_CATEGORIES", "BADUGI_CATEGORIES", "EIGHT_CATEGORIES"]

_LOW_NAMES = ("king_high", "queen_high", "jack_high", "10_high", "9_high", "8_high", "7_high", "6_high",
              "5_high")

A5_CATEGORIES = ("four_of_a_kind", "full_house", "three_of_a_kind", "two_pair", "one_pair") + _LOW_NAMES
"""Ace-to-five lowball categories, weakest first."""

DEUCE_CATEGORIES = ("straight_flush", "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind",
                    "two_pair", "one_pair", "ace_high", "king_high", "queen_high", "jack_high", "10_high",
                    "9_high", "8_high", "7_high")
"""Deuce-to-seven categories, weakest first (no pair, no straight, no flush: by the highest card)."""

BADUGI_CATEGORIES = ("1_card", "2_card", "3_card", "king_high", "queen_high", "jack_high", "10_high", "9_high",
                     "8_high", "7_high", "6_high", "5_high", "4_high")
"""Badugi categories, weakest first: 1-, 2- and 3-card hands, then four-card badugis by the highest card."""

EIGHT_CATEGORIES = ("no_low", "8_high", "7_high", "6_high", "5_high")
"""Stud hi-lo's low, weakest first: no qualifying low, then the 8-or-better lows."""

MAX_EXACT_DEALS = 5_000_000
"""Deals an exact equity may enumerate (each a showdown of every player)."""


@dataclass(frozen=True)
class GameRules:
    """One game: its kernel code, cards a hand ends with, draws, category names (weakest first)."""

    name: str
    code: int
    cards: int
    draws: int
    categories: tuple[str, ...]
    suit_blind: bool
    title: str

    @property
    def max_players(self) -> int:
        """Players one deck deals to (stud games deal seven each; draw games reshuffle the discards)."""
        return 7 if self.cards == 7 else 8


_STUD_CATEGORIES = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
                    "four_of_a_kind", "straight_flush")

GAMES = {
    "stud": GameRules("stud", 0, 7, 0, _STUD_CATEGORIES, False, "seven-card stud"),
    "stud8": GameRules("stud8", 5, 7, 0, EIGHT_CATEGORIES, True, "seven-card stud hi-lo, 8 or better"),
    "razz": GameRules("razz", 1, 7, 0, LOW_CATEGORIES, True, "razz (ace-to-five low)"),
    "27": GameRules("27", 3, 5, 3, DEUCE_CATEGORIES, False, "deuce-to-seven lowball"),
    "a5": GameRules("a5", 2, 5, 3, A5_CATEGORIES, True, "ace-to-five lowball"),
    "badugi": GameRules("badugi", 4, 4, 3, BADUGI_CATEGORIES, False, "badugi"),
}


def game_rules(name: str | GameRules) -> GameRules:
    """The game called ``name`` (stud, stud8, razz, 27, a5, badugi)."""
    if isinstance(name, GameRules):
        return name
    key = text_argument(name, "a game", HandError).strip().lower().replace("-", "").replace("_", "")
    key = {"studhilo": "stud8", "2to7": "27", "deuce": "27", "deucetoseven": "27", "atofive": "a5"}.get(key, key)
    if key not in GAMES:
        raise HandError(f"unknown game '{name}' (choose {', '.join(GAMES)})")
    return GAMES[key]


def _hand_sizes(g: GameRules) -> tuple[int, ...]:
    # ace-to-five also as the best five of 6, 7 or 8 cards (8: the cards an Omaha hi-lo low is read from)
    return (4,) if g.name == "badugi" else (5, 6, 7) if g.cards == 7 else (5, 6, 7, 8) if g.name == "a5" else (5,)


def hand_array(game: str | GameRules, hands: Sequence[str]) -> np.ndarray:
    """``(n, k)`` uint8 card ids of complete hands of ``game`` (all the same size), checked."""
    g = game_rules(game)
    rows = []
    for text in hands:
        ids = parse_card_ids(text)
        if len(ids) not in _hand_sizes(g):
            raise HandError(f"a {g.name} hand has {' or '.join(map(str, _hand_sizes(g)))} cards; "
                            f"'{text}' has {len(ids)}")
        _no_repeats(ids, f"'{text}'")
        rows.append(ids)
    if len({len(r) for r in rows}) > 1:
        raise HandError("hands of one call must have the same number of cards")
    return np.array(rows, dtype=np.uint8).reshape(len(rows), len(rows[0]) if rows else _hand_sizes(g)[0])


def _no_repeats(ids: Sequence[int], where: str) -> None:
    seen: set[int] = set()
    for c in ids:
        if c in seen:
            raise DeckError(f"card {format_cards([c])} is given twice in {where}")
        seen.add(c)


def game_values(hands: np.ndarray, game: str | GameRules) -> tuple[np.ndarray, np.ndarray]:
    """Values (uint32, higher wins) and category indices (uint8) of an ``(n, k)`` array of hands.

    For stud8 the value is the 8-or-better low (0: none); its high is the stud value.
    """
    g = game_rules(game)
    arr = np.ascontiguousarray(card_id_array(hands, error=HandError))  # NaN, 3.7, -1 refused, never cast
    if arr.ndim != 2 or arr.shape[1] not in _hand_sizes(g):
        raise HandError(f"{g.name} hands are rows of {' or '.join(map(str, _hand_sizes(g)))} card ids 0..51")
    values = np.zeros(len(arr), dtype=np.uint32)
    cats = np.zeros(len(arr), dtype=np.uint8)
    _core.games_evaluate(g.code, tables(STANDARD), arr, arr.shape[1], values, cats)
    return values, cats


def categories_of(hands: np.ndarray, game: str | GameRules) -> list[str]:
    """The category name of each row of ``hands``."""
    g = game_rules(game)
    return [g.categories[c] for c in game_values(hands, g)[1]]


# --- exact category tables -------------------------------------------------------------------


def _rank_multisets(k: int, avail: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every multiset of ``k`` ranks within ``avail`` cards per rank, as ``(m, 13)`` counts,
    and its number of card hands (product of C(avail, count))."""
    rows = np.array(list(combinations_with_replacement(range(13), k)), dtype=np.int64)
    counts = np.zeros((len(rows), 13), dtype=np.int64)
    for j in range(k):
        counts += rows[:, j:j + 1] == np.arange(13)
    counts = counts[(counts <= avail).all(axis=1)]
    ways = np.ones(len(counts), dtype=np.int64)
    for r in range(13):
        ways *= np.array([comb(int(avail[r]), c) for c in range(5)], dtype=np.int64)[counts[:, r]]
    return counts, ways


def _representatives(counts: np.ndarray) -> np.ndarray:
    """One hand of card ids for each row of rank counts (suits 0, 1, 2, 3 in turn)."""
    k = int(counts[0].sum())
    # card r * 4 + s is in the hand when rank r is held more than s times: k cards a row, in order
    held = (np.asarray(counts)[:, :, None] > np.arange(4)).reshape(len(counts), 52)
    return np.nonzero(held)[1].astype(np.uint8).reshape(len(counts), k)


def game_odds(game: str | GameRules, cards: int | None = None, remove: str = "") -> Tabulation:
    """Exact number of ``cards``-card hands of a full deck (less the ``remove`` cards) in each
    category of ``game``: every distinct hand counted (suit-blind games by rank multisets weighted
    by their suit choices, the others by enumerating every hand in the compiled core). What
    ``cardlab poker odds --game`` prints. Ace-to-five takes 5 to 8 cards (its best five).

    >>> game_odds("a5", 5, remove="As 2d").exact.total == comb(50, 5)
    True
    """
    g = game_rules(game)
    k = cards if cards is not None else g.cards
    if k not in _hand_sizes(g):
        raise HandError(f"a {g.name} hand has {' or '.join(map(str, _hand_sizes(g)))} cards, not {k}")
    removed = parse_card_ids(remove) if text_argument(remove, "remove=", DeckError).strip() else []
    _no_repeats(removed, "the removed cards")
    if g.name == "stud":
        from cardlab.poker.odds import poker_odds

        return poker_odds(k, remove=remove if removed else None)
    deck = [c for c in range(52) if c not in set(removed)]
    if len(deck) < k:
        raise DeckError(f"{len(removed)} cards removed leave {len(deck)}, fewer than a hand of {k}")
    tally = np.zeros(16, dtype=np.int64)
    if g.suit_blind:
        avail = np.full(13, 4) - np.bincount([c // 4 for c in removed], minlength=13)
        counts, ways = _rank_multisets(k, avail)
        _, cats = game_values(_representatives(counts), g)
        tally[:len(g.categories)] = np.bincount(cats, weights=ways, minlength=len(g.categories)).round()
    else:
        _core.games_count(g.code, tables(STANDARD), bytes(deck), k, tally)
    exact = Distribution("category", g.categories, tuple(int(x) for x in tally[:len(g.categories)]))
    if exact.total != comb(len(deck), k):  # every hand counted once: a mismatch is a bug
        raise AssertionError(f"{g.name}: counted {exact.total} hands, not C({len(deck)}, {k})")
    base = f"a standard deck without {format_cards(removed)} ({len(deck)} cards)" if removed else \
        "a standard deck (52 cards)"
    return Tabulation(f"{g.title}, {k} cards from {base}", exact, None, value_key="category", cumulative=True)


# --- equity ------------------------------------------------------------------------------------

_RANKS_ONLY = re.compile(r"(?:10|[2-9tjqka])+", re.IGNORECASE)


@dataclass(frozen=True)
class _Hand:
    spec: str
    cards: list[int]        # card ids; for a ranks-only razz hand, -1 - rank each
    ranks_only: bool


def _parse_hand(spec: str, g: GameRules, n: int) -> _Hand:
    compact = "".join(text_argument(spec, f"player {n}'s hand", HandError).split())
    if g.name in ("razz", "a5") and _RANKS_ONLY.fullmatch(compact):  # games that ignore suits
        ranks = [8 if m == "10" else RANKS.index(m.upper()) for m in re.findall(r"10|[2-9tjqka]", compact, re.I)]
        return _Hand(spec, [-1 - r for r in ranks], True)
    if _RANKS_ONLY.fullmatch(compact):
        raise HandError(f"{g.name} hands need their suits (e.g. 'As 2d 3c'), not ranks alone: '{spec}'")
    ids = parse_card_ids(spec)
    _no_repeats(ids, f"player {n}'s hand '{spec}'")
    return _Hand(spec, ids, False)


def game_equity(
    specs: Sequence[str],
    game: str | GameRules,
    dead: str = "",
    *,
    draws: int | None = None,
    trials: int | None = None,
    seed: SeedLike = None,
    workers: int = 1,
    chunk: int = 200_000,
    progress: bool = False,
    executor: Executor | str | None = None,
    max_deals: int = MAX_EXACT_DEALS,
) -> EquityResult:
    """Equity of each player's starting hand in ``game``: exact over every deal of the cards to
    come when affordable (razz over rank multisets; others by enumerating the deals), else a
    seeded simulation of ``trials`` deals with 95% intervals.

    A hand is its known cards (``"As 2d 3c"``); in the games that ignore suits (razz, a5) ranks
    alone may be given (``"A23"``): the suits are then any unseen ones. ``dead``: cards out of play (seen folded cards). Draw games (27, a5, badugi) draw
    ``draws`` times (default 3) by the policy of ``docs/games.md``; drawing hands are simulated.
    """
    g = game_rules(game)
    specs = _spec_list(specs)
    if not 2 <= len(specs) <= g.max_players:
        raise HandError(f"{g.name} equity takes 2 to {g.max_players} players, got {len(specs)}")
    rounds = g.draws if draws is None else draws
    if g.draws == 0 and rounds:
        raise HandError(f"{g.name} has no draws")
    if rounds not in (0, 1, 3):
        raise HandError(f"draws are 0, 1 (single draw) or 3 (triple draw), not {rounds}")
    dead_ids = parse_card_ids(dead) if text_argument(dead, "the dead cards", DeckError).strip() else []
    _no_repeats(dead_ids, "the dead cards")
    hands = [_parse_hand(s, g, n) for n, s in enumerate(specs, 1)]
    owner: dict[int, str] = {c: "the dead cards" for c in dead_ids}
    rank_use = np.zeros(13, dtype=np.int64)
    for c in dead_ids:
        rank_use[c // 4] += 1
    for n, h in enumerate(hands, 1):
        if len(h.cards) > g.cards:
            raise HandError(f"a {g.name} hand ends with {g.cards} cards; player {n}'s '{h.spec}' has {len(h.cards)}")
        if g.cards == 7 and len(h.cards) < 3:  # stud, stud8, razz: three cards dealt before any betting
            raise HandError(f"a {g.name} hand starts with 3 cards (two down, one up); player {n}'s '{h.spec}' "
                            f"has {len(h.cards)}")
        for c in h.cards:
            if c >= 0:
                if c in owner:
                    raise DeckError(f"card {format_cards([c])} is given twice ({owner[c]} and player {n})")
                owner[c] = f"player {n}"
                rank_use[c // 4] += 1
            else:
                rank_use[-1 - c] += 1
    for r in range(13):
        if rank_use[r] > 4:
            raise DeckError(f"{rank_use[r]} cards of rank {RANKS[r]} are held or dead; a deck has four")
    to_come = sum(g.cards - len(h.cards) for h in hands)
    unseen = 52 - int(rank_use.sum())
    if rounds == 0 and to_come > unseen:
        raise DeckError(f"{len(hands)} players need {to_come} more cards; {unseen} are left")
    if trials is not None:
        return _simulate(g, hands, dead_ids, rank_use, rounds, trials, seed, workers, chunk, progress, executor)
    if rounds:
        raise TooLargeError("equity between drawing hands is simulated: add --simulate TRIALS "
                            "(e.g. --simulate 1000000 --seed 1); the draw policy is in docs/games.md")
    if g.name == "razz":
        return _razz_exact(g, hands, dead_ids, rank_use, max_deals)
    if any(h.ranks_only for h in hands):
        raise HandError(f"{g.name} hands need their suits (e.g. 'As 2d 3c')")
    return _enumerate(g, hands, dead_ids, max_deals)


def _spec_list(specs: Sequence[str]) -> list[str]:
    """The players' hands as a list of texts: one text alone, or a number, is refused."""
    if isinstance(specs, (str, bytes)) or not isinstance(specs, (list, tuple)):
        raise HandError(f"give one hand per player, as a list: ['As 2d 3c', 'Kh 8s 9d'], not {specs!r:.60}")
    return list(specs)


def _result(g: GameRules, hands: list[_Hand], dead: list[int], exact: bool, total: int, rows: np.ndarray,
            simulation: Simulation | None = None) -> EquityResult:
    """Each player's figures from ``rows`` (per player: wins, ties, share units, squared units, and
    in stud8 the deals whose share came from the high half alone and from the low half alone)."""
    players = []
    for h, row in zip(hands, rows):
        wins, ties, units, squares = row[:4]
        eq = float(units) / (UNIT * total)
        if exact:
            ci = (eq, eq)
        else:
            var = max(float(squares) / (UNIT * UNIT * total) - eq * eq, 0.0)
            half = Z95 * (var / total) ** 0.5
            ci = (max(0.0, eq - half), min(1.0, eq + half))
        split = (float(row[4]) / total, float(row[5]) / total) if g.name == "stud8" else (None, None)
        players.append(PlayerEquity(h.spec, float(wins) / total, float(ties) / total, eq, int(wins), int(ties), ci,
                                    high_only=split[0], low_only=split[1]))
    return EquityResult(game=g.name, board="", dead=format_cards(dead), hi_lo=g.name == "stud8", exact=exact,
                        total=total, players=tuple(players), simulation=simulation)


def _razz_exact(g: GameRules, hands: list[_Hand], dead: list[int], rank_use: np.ndarray,
                max_deals: int) -> EquityResult:
    need = [g.cards - len(h.cards) for h in hands]
    cost = 1
    for n in need:
        cost *= comb(13 + n - 1, n)
    if cost > max_deals:
        words = ["cardlab", "poker", "equity", "--game", "razz", *[repr(h.spec) for h in hands]]
        raise TooLargeError(f"exact razz equity would enumerate about {cost:,} rank deals (limit {max_deals:,}); "
                            f"simulate instead: {' '.join(words)} --simulate 10000000 --seed 1")
    known = np.zeros((len(hands), 13), dtype=np.uint8)
    for p, h in enumerate(hands):
        for c in h.cards:
            r = c // 4 if c >= 0 else -1 - c
            known[p, (r + 1) % 13] += 1  # low order: ace first
    avail = np.array([4 - rank_use[(i - 1) % 13] for i in range(13)], dtype=np.uint8)
    out = np.zeros((len(hands), 3), dtype=np.int64)
    total = _core.razz_equity_exact(known, np.array(need, dtype=np.int32), avail, out)
    rows = np.concatenate([out, np.zeros((len(hands), 3), dtype=np.int64)], axis=1)
    return _result(g, hands, dead, True, int(total), rows)


def _enumerate(g: GameRules, hands: list[_Hand], dead: list[int], max_deals: int) -> EquityResult:
    """Every deal of the unseen cards to the players' missing places, valued in the kernel."""
    used = set(dead) | {c for h in hands for c in h.cards}
    deck = [c for c in range(52) if c not in used]
    need = [g.cards - len(h.cards) for h in hands]
    count = 1
    left = len(deck)
    for n in need:
        count *= comb(left, n)
        left -= n
    if count > max_deals:
        words = ["cardlab", "poker", "equity", "--game", g.name, *[repr(h.spec) for h in hands]]
        raise TooLargeError(f"exact {g.name} equity would enumerate {count:,} deals (limit {max_deals:,}); "
                            f"simulate instead: {' '.join(words)} --simulate 10000000 --seed 1")
    deck_arr = np.array(deck, dtype=np.int64)
    chosen = np.zeros((1, 0), dtype=np.int64)  # the deal so far: positions in deck_arr
    masks = np.zeros(1, dtype=np.uint64)
    for n in need:  # each player's cards in turn, from what the earlier players left
        parts = np.array(list(combinations(range(len(deck)), n)), dtype=np.int64).reshape(-1, n)
        part_masks = np.zeros(len(parts), dtype=np.uint64)
        for j in range(n):
            part_masks |= np.left_shift(np.uint64(1), parts[:, j].astype(np.uint64))
        row, col = np.nonzero((masks[:, None] & part_masks[None, :]) == 0)
        chosen = np.concatenate([chosen[row], parts[col]], axis=1)
        masks = masks[row] | part_masks[col]
    full = np.zeros((len(chosen), len(hands), g.cards), dtype=np.uint8)
    at = 0
    for j, h in enumerate(hands):
        full[:, j, :len(h.cards)] = h.cards
        full[:, j, len(h.cards):] = deck_arr[chosen[:, at:at + need[j]]]
        at += need[j]
    return _showdowns(g, hands, dead, full)


def _showdowns(g: GameRules, hands: list[_Hand], dead: list[int], full: np.ndarray) -> EquityResult:
    """Exact figures of ``(deals, players, cards)`` complete hands: each pot split among its
    winners (stud8: half to the best high, half to the best qualifying low)."""
    n, p, k = full.shape
    flat = full.reshape(n * p, k)
    units = np.zeros((n, p), dtype=np.int64)
    if g.name == "stud8":
        high = game_values(flat, "stud")[0].reshape(n, p).astype(np.int64)
        low = game_values(flat, "stud8")[0].reshape(n, p).astype(np.int64)
        hw = high == high.max(axis=1, keepdims=True)
        lw = (low == low.max(axis=1, keepdims=True)) & (low > 0)
        has_low = lw.any(axis=1, keepdims=True)
        pot_high = np.where(has_low, UNIT // 2, UNIT)
        units += np.where(hw, pot_high // hw.sum(axis=1, keepdims=True), 0)
        units += np.where(lw, (UNIT // 2) // np.maximum(lw.sum(axis=1, keepdims=True), 1), 0)
        # a low qualified and the player's share came from one half alone
        sides = [(hw & ~lw & has_low).sum(axis=0), (lw & ~hw).sum(axis=0)]
    else:
        value = game_values(flat, g)[0].reshape(n, p).astype(np.int64)
        best = value == value.max(axis=1, keepdims=True)
        units += np.where(best, UNIT // best.sum(axis=1, keepdims=True), 0)
        sides = [np.zeros(p, dtype=np.int64)] * 2
    rows = np.stack([(units == UNIT).sum(axis=0), ((units > 0) & (units < UNIT)).sum(axis=0), units.sum(axis=0),
                     np.zeros(p, dtype=np.int64), *sides], axis=1)
    return _result(g, hands, dead, True, n, rows)


@dataclass(frozen=True, eq=False)
class _SimTask:
    """One chunk of simulated deals (and draws) in the compiled kernel; releases the GIL."""

    releases_gil: ClassVar[bool] = True
    code: int
    hands: bytes
    known: bytes
    final: int
    draws: int
    deck: bytes
    players: int

    def __call__(self, seed: np.random.SeedSequence, n: int) -> np.ndarray:
        out = np.zeros((self.players, 6), dtype=np.int64)
        status = _core.games_simulate(self.code, tables(STANDARD), self.hands, self.known, self.final, self.draws,
                                      self.deck, n, kernel_state(seed), out)
        if status < 0:
            raise DeckError("the deck ran out of cards during the draws")
        return out


def _simulate(g: GameRules, hands: list[_Hand], dead: list[int], rank_use: np.ndarray, rounds: int, trials: int,
              seed: SeedLike, workers: int, chunk: int, progress: bool,
              executor: Executor | str | None) -> EquityResult:
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
        raise CardlabError(f"the number of trials must be a whole number of at least 1, got {trials!r}")
    root, reported = resolve_seed(seed)
    used = set(dead) | {c for h in hands for c in h.cards if c >= 0}
    # a ranks-only card takes any unseen card of its rank (the game ignores suits)
    cards: list[list[int]] = []
    for h in hands:
        row = []
        for c in h.cards:
            if c < 0:
                c = next(r * 4 + s for r in [-1 - c] for s in range(4) if r * 4 + s not in used)
                used.add(c)
            row.append(c)
        cards.append(row)
    deck = bytes(c for c in range(52) if c not in used)
    grid = np.zeros((len(hands), g.cards), dtype=np.uint8)
    for j, row in enumerate(cards):
        grid[j, :len(row)] = row
    task = _SimTask(g.code, grid.tobytes(), np.array([len(r) for r in cards], dtype=np.int32).tobytes(), g.cards,
                    rounds, deck, len(hands))
    tables(STANDARD)  # built once, before the threads start
    run = reduce_chunks(task, int(trials), root, lambda a, b: a + b, np.zeros((len(hands), 6), dtype=np.int64),
                        chunk=chunk, workers=workers, executor=executor,
                        progress=f"simulating {g.name} equity" if progress else None)
    info = Simulation(trials=run.done, seed=reported, workers=min(workers, available_cores()), requested=int(trials),
                      interrupted=run.interrupted)
    return _result(g, hands, dead, False, run.done, run.value, info)


# --- comparison --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameComparison(JsonText):
    """Hands of one game compared: each hand's category and value, and the winners (indices).

    For stud8 ``lows`` holds the 8-or-better low of each hand (None: no low) and ``low_winners``
    the best low's hands; the high is the stud comparison.
    """

    game: str
    hands: tuple[str, ...]
    categories: tuple[str, ...]
    values: tuple[int, ...]
    winners: tuple[int, ...]
    lows: tuple[str | None, ...] = ()
    low_winners: tuple[int, ...] = ()

    def __repr__(self) -> str:
        won = ", ".join(self.hands[i] for i in self.winners)
        return f"GameComparison({self.game}: {'tie ' if len(self.winners) > 1 else ''}{won})"

    def to_dict(self) -> dict[str, Any]:
        """``{"game", "hands": [{"hand", "category", "value", "wins"}], "winners": [int]}``
        (stud8 adds ``"low"`` per hand and ``"low_winners"``)."""
        rows: list[dict[str, Any]] = [{"hand": h, "category": c, "value": v, "wins": i in self.winners}
                                      for i, (h, c, v) in enumerate(zip(self.hands, self.categories, self.values))]
        data: dict[str, Any] = {"game": self.game, "hands": rows, "winners": list(self.winners)}
        if self.lows:
            for row, low in zip(rows, self.lows):
                row["low"] = low
            data["low_winners"] = list(self.low_winners)
        return data

    def _rows(self) -> list[list[str]]:
        rows = []
        for i, (h, c) in enumerate(zip(self.hands, self.categories)):
            row = [h, c.replace("_", " "), "wins" if i in self.winners and len(self.winners) == 1 else
                   "ties" if i in self.winners else ""]
            if self.lows:
                low = self.lows[i]
                row += [low.replace("_", " ") if low else "no low",
                        ("wins" if len(self.low_winners) == 1 else "ties") if i in self.low_winners else ""]
            rows.append(row)
        return rows

    def _headers(self) -> list[str]:
        return ["hand", "category", "high" if self.lows else "result"] + (["low", "low result"] if self.lows else [])

    def table(self) -> str:
        """The aligned text the command line prints."""
        from cardlab.textformat import text_table

        return f"{GAMES[self.game].title}\n" + text_table(self._headers(), self._rows(), left={0, 1}) + "\n"

    def to_pandas(self) -> Any:
        """A DataFrame, one row per hand (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame(self.to_dict()["hands"])

    def to_csv(self) -> str:
        """CSV text, one row per hand (the fields of :meth:`to_dict`'s ``hands``)."""
        return csv_rows(self.to_dict()["hands"])

    def _repr_html_(self) -> str:
        import html

        head = "".join(f"<th>{h}</th>" for h in self._headers())
        body = "".join("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in row) + "</tr>" for row in self._rows())
        return (f"<table><caption>{html.escape(GAMES[self.game].title)}</caption><thead><tr>{head}</tr></thead>"
                f"<tbody>{body}</tbody></table>")


def compare_hands(hands: Sequence[str], game: str | GameRules) -> GameComparison:
    """Which of two or more complete hands of ``game`` wins (equal values tie).

    >>> compare_hands(["As 2d 3c 4h 6s 9c 9d", "2c 3d 4s 5h 7c Kd Kh"], "razz")
    GameComparison(razz: As 2d 3c 4h 6s 9c 9d)
    """
    g = game_rules(game)
    hands = _spec_list(hands)
    if len(hands) < 2:
        raise HandError(f"compare needs two or more hands, got {len(hands)}")
    arr = hand_array(g, hands)
    seen: dict[int, int] = {}
    for i, row in enumerate(arr):
        for c in row:
            if int(c) in seen and seen[int(c)] != i:
                raise DeckError(f"card {format_cards([int(c)])} is in hand {seen[int(c)] + 1} and hand {i + 1}")
            seen[int(c)] = i
    if g.name == "stud8":
        high, cats = game_values(arr, "stud")
        low, low_cats = game_values(arr, g)
        lows = tuple(g.categories[c] if v else None for v, c in zip(low, low_cats))
        low_winners = tuple(int(i) for i in np.flatnonzero((low == low.max()) & (low > 0)))
        names = tuple(_STUD_CATEGORIES[c] for c in _stud_category(cats))
        return GameComparison(g.name, tuple(hands), names, tuple(int(v) for v in high),
                              tuple(int(i) for i in np.flatnonzero(high == high.max())), lows, low_winners)
    values, cats = game_values(arr, g)
    names = tuple(_STUD_CATEGORIES[c] for c in _stud_category(cats)) if g.name == "stud" else \
        tuple(g.categories[c] for c in cats)
    return GameComparison(g.name, tuple(hands), names, tuple(int(v) for v in values),
                          tuple(int(i) for i in np.flatnonzero(values == values.max())))


def _stud_category(positions: np.ndarray) -> np.ndarray:
    """Index into the stud categories (high card .. straight flush) of the evaluator's category
    positions (royal flush counted as a straight flush)."""
    from cardlab.poker.rules import STANDARD as rules

    keys = [rules.order[int(p)].key for p in positions]
    return np.array([_STUD_CATEGORIES.index("straight_flush" if k == "royal_flush" else k) for k in keys],
                    dtype=np.int64)


def completion_odds(hand: str, game: str | GameRules = "razz", dead: str = "") -> Tabulation:
    """Exact chances of each final category of a razz, stud8 or stud starting hand (3 to 6 cards;
    razz and stud8 also ranks such as ``"A23"`` or fewer cards) once it has its seven cards, the
    unseen cards dealt at random (``dead``: cards seen out of play). Razz and stud8 are counted over
    rank multisets weighted by their suit choices; stud (high hands, where suits make flushes) by
    every completion from the unseen cards, valued in the compiled core.

    >>> t = completion_odds("A23")
    >>> round(float(t.exact.probability("5_high")), 4)
    0.0715
    >>> t = completion_odds("As Ad Ac 2s 3d 4c", "stud")   # trips, one card to come of 46
    >>> t.exact.count("four_of_a_kind"), t.exact.count("full_house"), t.exact.total
    (1, 9, 46)
    """
    g = game_rules(game)
    if g.cards != 7:
        raise HandError(f"completion odds are for stud, stud8 and razz, not {g.name}")
    h = _parse_hand(hand, g, 1)
    low = 3 if g.name == "stud" else 1
    if not low <= len(h.cards) <= 6:
        raise HandError(f"a {g.name} starting hand has {low} to 6 cards; '{hand}' has {len(h.cards)}")
    dead_ids = parse_card_ids(dead) if text_argument(dead, "the dead cards", DeckError).strip() else []
    _no_repeats(dead_ids, "the dead cards")
    counts = np.zeros(13, dtype=np.int64)
    for c in h.cards:
        if c >= 0 and c in dead_ids:
            raise DeckError(f"card {format_cards([c])} is given twice (the dead cards and the hand)")
        counts[c // 4 if c >= 0 else -1 - c] += 1
    used = counts.copy()
    for c in dead_ids:
        used[c // 4] += 1
    if (used > 4).any():
        r = int(np.argmax(used > 4))
        raise DeckError(f"{used[r]} cards of rank {RANKS[r]} are held or dead; a deck has four")
    if g.name == "stud":
        tally = _stud_completions(h.cards, dead_ids)
        names: tuple[str, ...] = _STUD_CATEGORIES
    else:
        extra, ways = _rank_multisets(7 - len(h.cards), 4 - used)
        _, cats = game_values(_representatives(extra + counts), g)
        tally = np.bincount(cats, weights=ways, minlength=len(g.categories)).round()
        names = g.categories
    exact = Distribution("category", names, tuple(int(x) for x in tally))
    what = f"{g.title}: {hand} after seven cards" + (f", dead {format_cards(dead_ids)}" if dead_ids else "")
    return Tabulation(what, exact, None, value_key="category", cumulative=True)


def _stud_completions(known: list[int], dead: list[int]) -> np.ndarray:
    """Count of each stud category (high card .. straight flush) over every completion of the
    ``known`` cards to seven from the unseen cards (at most C(49, 4) = 211,876: three known)."""
    used = set(known) | set(dead)
    deck = bytes(c for c in range(52) if c not in used)
    need = 7 - len(known)
    extra = np.zeros((comb(len(deck), need), need), dtype=np.uint8)
    _core.poker_hands(deck, need, extra)  # every completion, in the compiled core
    full = np.concatenate([np.broadcast_to(np.array(known, dtype=np.uint8), (len(extra), len(known))), extra],
                          axis=1)
    _, positions = game_values(full, "stud")
    kinds = np.unique(positions, return_counts=True)
    tally = np.zeros(len(_STUD_CATEGORIES), dtype=np.int64)
    for position, count in zip(*kinds):
        tally[_stud_category(np.array([position]))[0]] += int(count)
    return tally
