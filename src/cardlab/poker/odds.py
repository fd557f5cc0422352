"""Poker category odds: the :class:`PokerCategory` feature for the exact and simulated engines.

Exact counts for ``k`` cards drawn from any deck (cards removed, short deck,
several decks) are counted by rank classes, never hand by hand:

* every multiset of ``k`` ranks is weighted by ``prod C(N_r, m_r)`` (``N_r``
  physical cards of rank ``r`` in the deck, ``m_r`` of them in the hand) and
  valued by the suit-blind strength table;
* hands holding five or more cards of one suit are then re-valued: for each suit,
  every multiset of ranks in that suit (five or more) times every multiset of
  the remaining ranks from the other suits, weighted the same way. Suits with
  the same cards left in the deck are counted once and multiplied (suit
  symmetry). With at most nine cards only one suit can hold five.

That is 50,388 rank classes and 141,141 flush classes for seven cards (one suit
of a full deck, counted once: C(13,5)·91 + C(13,6)·13 + C(13,7) flush ranks times
the other cards' rank multisets) instead of 133,784,560 hands. Reel machines are counted by
:class:`cardlab.casino.reels.ReelCategory`.

>>> from cardlab.dealing import Deck, Draw
>>> from cardlab.engine import exact
>>> d = exact(Draw(Deck.standard(), 5), PokerCategory())
>>> d.count("royal_flush"), d.count("high_card"), d.total
(4, 1302540, 2598960)
>>> exact(Draw(Deck.standard(), 3), PokerCategory())
Traceback (most recent call last):
...
cardlab.errors.HandError: a poker hand has 5, 6 or 7 cards, not 3
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb
from typing import ClassVar

import numpy as np

from cardlab import drawing, engine
from cardlab._native import core as _core
from cardlab.dealing import Deck, Draw
from cardlab.distribution import Distribution, Simulation
from cardlab.engine import Executor, SeedLike
from cardlab.errors import CardlabError, DeckError, HandError, TooLargeError
from cardlab.poker.evaluator import _binomial_column, _plain_table, _repeated, strengths, tables
from cardlab.poker.kernel import CATEGORY_SHIFT, flush_strength
from cardlab.poker.rules import SHORT_DECK, STANDARD, Category, Rules
from cardlab.tabulation import Tabulation
from cardlab.textformat import Key

__all__ = ["PokerCategory", "category_odds", "poker_odds", "category_counts", "simulate_categories",
           "MAX_SIMULATED_CARDS", "hand_categories", "HAND_TABLE_MAX"]

MAX_SIMULATED_CARDS = 4096  #: the most physical cards the simulation kernel deals from (csrc/poker_sim.c)


@dataclass(frozen=True)
class PokerCategory:
    """The poker category of a hand (best five of its cards) under ``rules``.

    Values are the category keys from weakest to strongest in the rules'
    order, so each row's ``at_least`` is the chance of that hand or better;
    ``five_of_a_kind`` is listed only when a card can repeat in a hand.
    """

    rules: Rules = STANDARD
    name: str = "category"
    axes: ClassVar[tuple[str, ...]] = ()

    def values(self, dealing: Draw) -> list[str]:
        """The category keys in rank order (five of a kind only when a card can repeat)."""
        return self.category_keys(_can_repeat(dealing))

    def category_keys(self, repeats: bool) -> list[str]:
        """The category keys in rank order; five of a kind only when a hand can hold a card twice
        (``repeats``)."""
        order = list(self.rules.order)
        if not repeats:
            order.remove(Category.FIVE_OF_A_KIND)
        return [Key(c.key) for c in order]

    def exact_counts(self, dealing: Draw) -> list[int]:
        """Outcomes in each category (:func:`category_counts`)."""
        counts = category_counts(dealing, self.rules)
        return counts[: len(self.values(dealing))]

    def encode(self, dealing: object, hands: np.ndarray) -> np.ndarray:
        """The category position of each hand, from the evaluator's strengths."""
        return (strengths(hands, self.rules) >> CATEGORY_SHIFT).astype(np.intp)

    def fused_task(self, dealing: object) -> _DrawnCategoryTask | None:
        """The engine's fused route for a draw of 5 to 7 cards whose cards are all in the rules'
        deck (:mod:`cardlab.drawing`), else ``None``."""
        if not isinstance(dealing, Draw) or not 5 <= dealing.k <= 7 or not drawing.fits(dealing) \
                or not drawing.encodes_as(self, PokerCategory):
            return None
        try:
            self.rules.check_cards(np.flatnonzero(dealing.deck.counts), where="in the deck")
        except HandError:
            return None
        tables(self.rules)  # built once, before the engine's threads start
        return _DrawnCategoryTask(dealing, self.rules, len(self.values(dealing)))


@dataclass(frozen=True, eq=False)
class _DrawnCategoryTask:
    """One chunk of :meth:`PokerCategory.fused_task`: counts by category position, the hands
    holding a card twice (several decks) valued by the evaluator's own route."""

    releases_gil: ClassVar[bool] = True
    draw: Draw
    rules: Rules
    n_values: int

    def __call__(self, seed: np.random.SeedSequence, n: int) -> np.ndarray:
        counts, spill = drawing.poker_counts(self.draw, tables(self.rules), seed, n)
        if len(spill):
            codes = strengths(spill, self.rules) >> CATEGORY_SHIFT
            counts += np.bincount(codes, minlength=16)[:16]
        return counts[: self.n_values].copy()


def category_odds(dealing: Draw, rules: Rules = STANDARD, *, trials: int | None = None,
                  seed: SeedLike = None, workers: int = 1, progress: bool = False,
                  executor: Executor | str | None = None, title: str = "poker hands",
                  simulate: int | None = None) -> Tabulation:
    """Exact category odds of ``dealing`` and, with ``trials``, a seeded simulation beside
    them, as a :class:`~cardlab.tabulation.Tabulation` (what ``cardlab poker odds`` prints).
    ``simulate`` is the deprecated name of ``trials``.

    The cards that ``dealing`` can give must all be in the rules' deck. (A reel machine's odds:
    :func:`cardlab.casino.reels.reel_odds`.)

    >>> from cardlab.dealing import Deck
    >>> odds = category_odds(Draw(Deck.standard(), 5), trials=10_000, seed=1)
    >>> odds.exact.count("flush"), odds.simulated.total
    (5108, 10000)
    >>> from cardlab.poker.rules import SHORT_DECK
    >>> category_odds(Draw(Deck.standard(), 5), SHORT_DECK)
    Traceback (most recent call last):
    ...
    cardlab.errors.HandError: card 2c in the deck is not in the short deck
    """
    trials = engine.renamed_trials(trials, simulate, "simulate", "category_odds()")
    if not isinstance(dealing, Draw):
        raise HandError(f"category_odds takes a Draw, not {type(dealing).__name__} (a reel machine: "
                        "cardlab.casino.reels.reel_odds)")
    rules.check_cards(np.flatnonzero(dealing.deck.counts), where="in the deck")
    feature = PokerCategory(rules)
    try:
        exact: Distribution | None = engine.exact(dealing, feature)
    except TooLargeError:
        if not trials:
            raise
        exact = None
    simulated = None
    if trials:
        simulated = simulate_categories(dealing, rules, trials, seed=seed, workers=workers, progress=progress,
                                        executor=executor)
    note = "" if exact is not None else "exact counts are too large to compute here; the simulation is shown alone"
    return Tabulation(title, exact, simulated, value_key="category", cumulative=True, note=note)


SIMULATION_CHUNK = 250_000
"""Hands per chunk: a few milliseconds in the kernel, so Ctrl-C stops a run at once."""

TABLE_CHUNK = 1_000_000
"""Hands per chunk when they are drawn by number from a table (a few nanoseconds each): the same
few milliseconds a chunk, and fewer chunks to seed."""

HAND_TABLE_MAX = 1 << 22
"""Most hands a deck of distinct cards may have for a simulation to draw them by number from a table
of every hand's category (:func:`hand_categories`: five cards of 52 are 2,598,960 bytes)."""


@lru_cache(maxsize=4)
def hand_categories(rules: Rules, cards: bytes, k: int) -> np.ndarray:
    """The category position of every ``k``-card subset of ``cards`` (distinct card ids), one byte
    each, the subsets of the places in lexicographic order (``itertools.combinations``), found
    once by the compiled evaluator (``csrc/poker_eval.c``); a simulation then draws a uniform
    hand number and reads its byte.

    >>> t = hand_categories(STANDARD, bytes(range(52)), 5)
    >>> len(t), int(t[0]), int(t[-1])  # 2c 2d 2h 2s 3c and Ks Ac Ad Ah As: four of a kind
    (2598960, 7, 7)
    """
    out = np.empty(comb(len(cards), k), dtype=np.uint8)
    _core.poker_count_subsets(tables(rules), cards, k, np.zeros(16, dtype=np.int64), out)
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False)
class _CategoryTask:
    """One chunk of simulated hands, counted by category position (what ``encode`` gives).

    Draws from a deck are made and valued in the compiled kernel (``csrc/poker_sim.c``; GIL
    released, so the engine runs chunks on threads): by number from ``table``
    (:func:`hand_categories`) when there is one, else card by card."""

    releases_gil: ClassVar[bool] = True
    dealing: Draw
    rules: Rules
    cards: bytes
    table: np.ndarray | None = None

    def __call__(self, seed: np.random.SeedSequence, n: int) -> np.ndarray:
        positions = len(self.rules.order)
        k = self.dealing.k
        by_category = np.zeros(16, dtype=np.int64)
        if self.table is not None:
            _core.poker_simulate_table(self.table, n, engine.kernel_state(seed), by_category)
            return by_category[:positions].copy()
        can_repeat = len(set(self.cards)) < len(self.cards)
        spill = np.empty(n * k if can_repeat else 0, dtype=np.uint8)
        spilled = _core.poker_simulate(tables(self.rules), self.cards, k, n, engine.kernel_state(seed), by_category,
                                       spill)
        out = by_category[[int(c) for c in self.rules.order]]
        if spilled:
            codes = _repeated(spill[: spilled * k].reshape(spilled, k), self.rules) >> CATEGORY_SHIFT
            out += np.bincount(codes, minlength=positions).astype(np.int64)
        return out


def simulate_categories(dealing: Draw, rules: Rules = STANDARD, trials: int = 1, *, seed: SeedLike = None,
                        workers: int = 1, chunk: int | None = None, progress: bool = False,
                        executor: Executor | str | None = None) -> Distribution:
    """The category of ``trials`` random hands of ``dealing``, seeded per chunk through
    :func:`cardlab.engine.reduce_chunks` (the same seed gives the same table for any number of
    ``workers``; Ctrl-C returns the chunks done, marked interrupted). ``chunk`` hands per chunk:
    by default :data:`TABLE_CHUNK` when the hands are drawn by number, else :data:`SIMULATION_CHUNK`.

    >>> from cardlab.dealing import Deck
    >>> d = simulate_categories(Draw(Deck.standard(), 5), trials=100_000, seed=1)
    >>> d.total, d.values[0], 0.49 < float(d.probabilities[0]) < 0.51
    (100000, 'high_card', True)
    """
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
        raise CardlabError(f"the number of trials must be a whole number of at least 1, got {trials!r}")
    feature = PokerCategory(rules)
    values = tuple(feature.values(dealing))
    root, reported = engine.resolve_seed(seed)
    cards = bytes(int(c) for c in dealing.deck.physical())
    if len(cards) > MAX_SIMULATED_CARDS:
        raise TooLargeError(f"a simulated deck holds at most {MAX_SIMULATED_CARDS:,} cards (78 standard decks); "
                            f"this one has {len(cards):,}")
    tables(rules)  # built once, before the threads start
    table = None
    if len(set(cards)) == len(cards) and comb(len(cards), dealing.k) <= min(HAND_TABLE_MAX, 4 * int(trials)):
        table = hand_categories(rules, cards, dealing.k)  # worth it: a hand space at most four times the trials
    task = _CategoryTask(dealing, rules, cards, table)
    if chunk is None:
        chunk = SIMULATION_CHUNK if table is None else TABLE_CHUNK
    run = engine.reduce_chunks(task, int(trials), root, lambda total, part: total + part,
                               np.zeros(len(rules.order), dtype=np.int64), chunk=chunk, workers=workers,
                               executor=executor, progress="simulating category" if progress else None)
    info = Simulation(trials=run.done, seed=reported, workers=min(workers, engine.available_cores()),
                      requested=int(trials), interrupted=run.interrupted)
    counts = tuple(int(c) for c in run.value[: len(values)])
    return Distribution(feature.name, values, counts, simulation=info)


def poker_odds(cards: int = 5, *, remove: str | None = None, short_deck: bool = False, decks: int = 1,
               trials: int | None = None, seed: SeedLike = None,
               workers: int = 1, progress: bool = False, executor: Executor | str | None = None,
               simulate: int | None = None) -> Tabulation:
    """What ``cardlab poker odds`` prints: :func:`category_odds` of ``cards`` cards from a standard
    or short deck (``decks`` of them, without the ``remove`` cards), titled with the deck in words;
    ``trials`` (deprecated name: ``simulate``) adds a simulation. (A reel machine, ``poker odds
    --reels``: :func:`cardlab.casino.reels.reel_odds`.)

    >>> poker_odds(5, remove="As Ks").title
    'poker hands, 5 cards from a standard deck without As Ks (50 cards)'
    >>> poker_odds(5, remove="As Xx")
    Traceback (most recent call last):
    ...
    cardlab.errors.CardError: unknown symbol 'X' in 'As Xx'
    """
    trials = engine.renamed_trials(trials, simulate, "simulate", "poker_odds()")
    cards = engine.check_count(cards, "cards", HandError)
    decks = engine.check_count(decks, "decks", DeckError)
    if remove is not None and not isinstance(remove, str):
        raise DeckError(f"remove= names the cards as text ('As Kd'), not {type(remove).__name__}")
    deck = Deck.short(decks=decks) if short_deck else Deck.standard(decks=decks)
    if remove:
        deck = deck.remove(remove)
    dealing = Draw(deck, cards)
    base = "the short deck" if short_deck else "a standard deck"
    if decks > 1:
        base = f"{decks} {'short' if short_deck else 'standard'} decks"
    if remove:
        base += f" without {remove}"
    what = f"{cards} cards from {base} ({deck.size} cards)"
    rules = SHORT_DECK if short_deck else STANDARD
    title = f"poker hands, {what}" + (", short-deck rules" if rules is SHORT_DECK else "")
    return category_odds(dealing, rules, trials=trials, seed=seed, workers=workers, progress=progress,
                         title=title, executor=executor)


def _can_repeat(dealing: Draw) -> bool:
    if not isinstance(dealing, Draw):
        raise HandError(f"PokerCategory counts the hands of a Draw, not {type(dealing).__name__} (a reel "
                        "machine: cardlab.casino.reels.ReelCategory)")
    return bool(max(dealing.deck.counts) > 1)


def category_counts(dealing: Draw, rules: Rules = STANDARD) -> list[int]:
    """Exact number of outcomes of ``dealing`` in each category, by position in
    ``rules.order`` (all eleven positions).

    >>> from cardlab.dealing import Deck, Draw
    >>> category_counts(Draw(Deck.standard(), 5))[:3]
    [1302540, 1098240, 123552]
    """
    if not isinstance(dealing, Draw):
        raise HandError(f"cannot count poker hands exactly for {type(dealing).__name__} (a reel machine: "
                        "cardlab.casino.reels.reel_counts)")
    if not 5 <= dealing.k <= 7:
        raise HandError(f"a poker hand has 5, 6 or 7 cards, not {dealing.k}")
    return _draw_counts(dealing.deck.counts, dealing.k, rules)


@lru_cache(maxsize=None)
def _multisets(size: int) -> np.ndarray:
    """Every multiset of ``size`` ranks as rank counts, ``(C(12 + size, size), 13)`` int64."""
    rows = np.array(list(combinations_with_replacement(range(13), size)), dtype=np.int64)
    counts = np.zeros((len(rows), 13), dtype=np.int64)
    for j in range(size):
        np.add.at(counts, (np.arange(len(rows)), rows[:, j]), 1)
    return counts


def _weights(counts: np.ndarray, available: np.ndarray) -> np.ndarray:
    """``prod_r C(available_r, counts_r)`` per row (Python ints in an object array)."""
    table = [[comb(int(a), m) for m in range(8)] for a in available]
    w = np.ones(len(counts), dtype=object)
    for r in range(13):
        w = w * np.array(table[r], dtype=object)[counts[:, r]]
    return w


def _index(counts: np.ndarray) -> np.ndarray:
    """Multiset index (see :func:`cardlab.poker.evaluator.multiset_index`) of rank counts."""
    cumulative = np.cumsum(counts, axis=1)
    k = int(cumulative[0, -1])
    index = np.zeros(len(counts), dtype=np.int64)
    for i in range(k):
        rank = (cumulative <= i).sum(axis=1)  # the i-th smallest rank
        index += _binomial_column(i)[rank]
    return index


def _tally(totals: list[int], positions: np.ndarray, weights: np.ndarray, sign: int = 1) -> None:
    for p in np.unique(positions):
        totals[int(p)] += sign * int(weights[positions == p].sum())


def _draw_counts(deck_counts: tuple[int, ...], k: int, rules: Rules) -> list[int]:
    return list(_draw_counts_of(tuple(int(c) for c in deck_counts), k, rules))


@lru_cache(maxsize=64)
def _draw_counts_of(deck_counts: tuple[int, ...], k: int, rules: Rules) -> tuple[int, ...]:
    """The exact counts of :func:`_draw_counts`, kept per deck, hand size and rules (a pure
    function of them: a repeated question, such as a simulation beside the exact table run
    again with another seed, is not counted again)."""
    n = np.array(deck_counts, dtype=np.int64).reshape(13, 4)  # [rank, suit]
    totals = [0] * len(Category)
    plain = _plain_table(rules, k)
    # every hand, valued ignoring suits
    ranks = _multisets(k)
    w = _weights(ranks, n.sum(axis=1))
    keep = w != 0
    _tally(totals, plain[_index(ranks[keep])] >> CATEGORY_SHIFT, w[keep])
    # hands with five or more cards of one suit: take out, value again with the flush
    profiles: dict[tuple[int, ...], int] = {}
    for s in range(4):
        profiles[tuple(n[:, s])] = profiles.get(tuple(n[:, s]), 0) + 1
    for profile, times in profiles.items():
        in_suit = np.array(profile, dtype=np.int64)
        for f in range(5, k + 1):
            flush = _multisets(f)
            wf = _weights(flush, in_suit)
            flush = flush[wf != 0]
            wf = wf[wf != 0]
            if not len(flush):
                continue
            rest = _multisets(k - f) if k > f else np.zeros((1, 13), dtype=np.int64)
            wr = _weights(rest, n.sum(axis=1) - in_suit)
            rest, wr = rest[wr != 0], wr[wr != 0]
            if not len(rest):
                continue
            hand = (flush[:, None, :] + rest[None, :, :]).reshape(-1, 13)
            weight = (wf[:, None] * wr[None, :]).reshape(-1) * times
            before = plain[_index(hand)].astype(np.int64)
            with_flush = np.repeat(flush_strength(flush, rules), len(rest))
            after = np.maximum(before, with_flush)
            _tally(totals, before >> CATEGORY_SHIFT, weight, sign=-1)
            _tally(totals, after >> CATEGORY_SHIFT, weight)
    return tuple(totals)
