"""Video poker: the exact return of a pay table under optimal play, on any deck (docs/video.md).

:func:`analyse` plays every dealt hand the best way (the hold of highest expected pay) and
counts every final outcome exactly; :func:`hold_values` ranks the 32 holds of one dealt hand.

The method (csrc/video.c): the outcome of each of the C(n, 5) final hands is summed onto each
of its 32 subsets, so for a subset T, ``A(T)`` is the total pay of the final hands containing
T. For a dealt hand D and a hold H ⊆ D, the draws avoid the discards, and by inclusion-exclusion
their total pay is ``sum over H ⊆ T ⊆ D of (-1)^|T - H| A(T)``: 32 lookups and a Möbius
transform give all 32 holds at once. Each dealt hand is weighted by L, the least common multiple
of the numbers of draws C(n-5, k), so every count is an integer: for 52 cards the outcome counts
add up to C(52,5) × 5 × C(47,5) = 19,933,230,517,200, the denominator of the published tables.

Ties: among holds of equal expected pay (compared exactly), the less volatile is played (the
lower mean square pay; ``ties="volatile"`` for the other), then the one keeping more cards, then
the lower bit mask over the dealt cards in deck order (2c 2d ... As, wild deuces, jokers). The
return does not depend on this; the outcome counts may.

Decks with repeated cards (several decks, two jokers) or more than 64 cards go through a second
kernel whose tables are indexed by multisets of card types (docs/video.md).

>>> result = analyse("jacks-or-better-9-6")          # doctest: +SKIP
>>> f"{float(result.return_exact):.6f}"               # doctest: +SKIP
'0.995439'
>>> hold_values("jacks-or-better-9-6", "Ah Kh Qh Jh 2c").holds[0].hold
'Ah Kh Qh Jh'
>>> hold_values("jacks-or-better-9-6", "Ah Kh Qh Jh")
Traceback (most recent call last):
...
cardlab.errors.HandError: a video poker hand has 5 cards; 'Ah Kh Qh Jh' has 4
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, reduce
from math import comb, lcm
from pathlib import Path
import numpy as np

from cardlab.cards import RANKS, format_cards, parse_card_ids
from cardlab.casino.pays import PayTable
from cardlab.casino.video_paytable import NCODES, paytable
from cardlab.casino.video_result import HandAnalysis, HoldValue, VideoAnalysis
from cardlab.cores import available_cores
from cardlab.dealing import Deck
from cardlab.distribution import Simulation
from cardlab.engine import Executor, SeedLike, reduce_chunks, renamed_trials, resolve_seed
from cardlab.errors import CardError, DeckError, HandError, TooLargeError

__all__ = ["VideoDeck", "analyse", "hold_values", "video_deck", "parse_deck", "final_outcomes", "MAX_CARDS"]

#: Most physical cards of a deck without repeated cards that the physical kernel takes
#: (C(64,5) = 7.6 million final hands); larger decks use the multiset kernel.
MAX_CARDS = 64
JOKER = 52
_JOKER_WORDS = re.compile(r"^(jk|joker|jkr|\*)$", re.IGNORECASE)


@dataclass(frozen=True)
class VideoDeck:
    """The physical cards of a video poker deck: ``deck`` (cardlab's :class:`Deck`: removed
    cards, stripped or several decks), ``jokers`` added (wild) and whether deuces are wild.

    ``types`` lists the card type of each position (0..51, or 52 for a joker) in the order the
    kernel needs: naturals by rank and suit, then wild deuces, then jokers.

    >>> VideoDeck(Deck.standard(), 1, False).size
    53
    """

    deck: Deck
    jokers: int = 0
    deuces_wild: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.jokers <= 2:
            raise DeckError(f"a video poker deck takes 0, 1 or 2 jokers, not {self.jokers}")

    @property
    def size(self) -> int:
        """Number of physical cards."""
        return self.deck.size + self.jokers

    @property
    def types(self) -> np.ndarray:
        """Card type of each position (uint8), in the kernel's order."""
        ids = [int(i) for i in self.deck.physical()]
        if self.deuces_wild:
            ids = [i for i in ids if i >= 4] + [i for i in ids if i < 4]
        return np.array(ids + [JOKER] * self.jokers, dtype=np.uint8)

    def describe(self) -> str:
        """A few words for titles: '52 cards', '53 cards (1 joker), deuces wild'."""
        words = f"{self.size} cards"
        if self.jokers:
            words += f" ({self.jokers} joker{'s' if self.jokers > 1 else ''})"
        if self.deuces_wild:
            words += ", deuces wild"
        return words


def video_deck(table: PayTable, deck: Deck | None = None, jokers: int | None = None,
               wild: str | None = None) -> VideoDeck:
    """The deck a game is played on: ``deck`` (default a standard deck) with the pay table's
    jokers and wild rule unless ``jokers``/``wild`` say otherwise."""
    if wild not in (None, "none", "deuces"):
        raise DeckError(f"unknown wild rule '{wild}' (expected 'deuces' or 'none')")
    chosen = table.wild if wild is None else wild
    return VideoDeck(deck or Deck.standard(), table.jokers if jokers is None else jokers, chosen == "deuces")


_RANK_SPEC = re.compile(r"^[2-9tjqka](-?[2-9tjqka])*$", re.IGNORECASE)


def parse_deck(spec: str | None, decks: int = 1, remove: str | None = None) -> Deck:
    """A deck from words: None or 'standard', 'short' (6-A), ranks ('9-A', '9TJQKA': all four
    suits of those ranks) or an exact card list; ``decks`` copies; ``remove`` cards taken out.

    >>> parse_deck("9-A").size, parse_deck("standard", decks=2, remove="As").size
    (24, 103)
    """
    if decks < 1:
        raise DeckError(f"the number of decks must be at least 1, got {decks}")
    text = (spec or "standard").strip()
    if text.lower() == "standard":
        deck = Deck.standard(decks)
    elif text.lower() == "short":
        deck = Deck.short(decks)
    elif _RANK_SPEC.match(text.replace("10", "T")):
        ranks: set[int] = set()
        for part in re.findall(r"[2-9tjqka]-[2-9tjqka]|[2-9tjqka]", text.replace("10", "T"), re.IGNORECASE):
            ends = [RANKS.index(c.upper()) for c in part.split("-")]
            if ends[0] > ends[-1]:
                raise DeckError(f"rank range '{part}' in '{text}' runs downwards; write it low-high")
            ranks.update(range(ends[0], ends[-1] + 1))
        deck = Deck(tuple(decks if i // 4 in ranks else 0 for i in range(52)))
    else:
        base = Deck.of(text)
        deck = Deck(tuple(c * decks for c in base.counts))
    return deck.remove(remove) if remove else deck


def _check_size(cards: VideoDeck) -> int:
    n = cards.size
    if n > MAX_CARDS:
        raise TooLargeError(f"the exact analysis takes at most {MAX_CARDS} cards; this deck has {n} "
                            f"({comb(n, 5):,} final hands)")
    if n < 10:
        raise DeckError(f"a video poker deck needs at least 10 cards (5 dealt, 5 drawn); this one has {n}")
    return n


def _repeated(cards: VideoDeck) -> bool:
    """Whether the deck needs the multiset kernel: a card more than once, or too many cards."""
    return max(cards.deck.counts) > 1 or cards.jokers > 1 or cards.size > MAX_CARDS


def _type_list(cards: VideoDeck) -> tuple[list[int], list[int]]:
    """The distinct card types in kernel order and how many copies of each the deck holds."""
    types: list[int] = []
    mult: list[int] = []
    for t in (int(x) for x in cards.types):
        if types and types[-1] == t:
            mult[-1] += 1
        else:
            types.append(t)
            mult.append(1)
    if max(mult) > 255:
        raise TooLargeError(f"at most 255 copies of a card; this deck has {max(mult)}")
    return types, mult


@dataclass(frozen=True)
class _Multi:
    """What the multiset kernel returns: counts per number of cards drawn, and per dealt type
    multiset the best hold; per final type multiset the outcome."""

    counts: list[list[int]]
    strategy: np.ndarray
    outcomes: np.ndarray
    ties: int
    hand: np.ndarray | None


def _run_multi(table: PayTable, cards: VideoDeck, volatile: bool, dealt: list[int] | None = None) -> _Multi:
    from cardlab._native import core as _core

    types, mult = _type_list(cards)
    n = cards.size
    k = len(table.outcomes)
    if comb(n, 5) * max(1, max(table.int_pays())) >= 2**62:
        raise TooLargeError(f"{n} cards with pays this large overflow the exact counts")
    finals = comb(len(types) + 4, 5)
    draws = np.array([comb(n - 5, j) for j in range(6)], dtype=np.int64)
    raw = np.zeros(6 * k * 2, dtype=np.uint64)
    strategy = np.zeros(finals, dtype=np.uint8)
    outcomes = np.zeros(finals, dtype=np.uint8)
    hand = np.zeros(32 * k, dtype=np.int64)
    ties = _core.video_analyse_multi(bytes(types), bytes(mult), int(cards.deuces_wild), bytes(table.code_outcome),
                                     np.array(table.int_pays(), dtype=np.int64), draws, volatile, raw, strategy,
                                     outcomes, bytes(dealt or b""), hand)
    words = [int(w) for w in raw]
    counts = [[words[2 * (h * k + o)] + (words[2 * (h * k + o) + 1] << 64) for o in range(k)] for h in range(6)]
    return _Multi(counts, strategy, outcomes, int(ties), hand.reshape(32, k) if dealt else None)


def _weights(n: int) -> tuple[int, list[int]]:
    """L = lcm of C(n-5, k) for k = 0..5 and the weight L / C(n-5, k) of a draw of k cards."""
    big = reduce(lcm, [comb(n - 5, k) for k in range(6)])
    return big, [big // comb(n - 5, k) for k in range(6)]


@lru_cache(maxsize=4)
def _outcomes_cached(types: bytes, deuces_wild: bool, code_outcome: tuple[int, ...],
                     pays: tuple[int, ...]) -> np.ndarray:
    from cardlab._native import core as _core

    out = np.empty(comb(len(types), 5), dtype=np.uint8)
    _core.video_outcomes(types, int(deuces_wild), bytes(code_outcome), np.array(pays, dtype=np.int64), out)
    out.setflags(write=False)
    return out


def final_outcomes(table: PayTable, cards: VideoDeck) -> np.ndarray:
    """The outcome index (a line of ``table``) of every five-card hand of the deck, in colex order
    of positions, found once by the compiled core (read-only; the last few tables are kept).

    >>> out = final_outcomes(paytable("jacks-or-better-9-6"), VideoDeck(Deck.standard()))
    >>> len(out), int(out[0])  # 2c 2d 2h 2s 3c: four of a kind
    (2598960, 2)
    """
    if len(table.outcomes) > 64:
        raise TooLargeError(f"a pay table takes at most 63 paying outcomes; '{table.name}' has "
                            f"{len(table.outcomes) - 1}")
    assert len(table.code_outcome) == NCODES
    return _outcomes_cached(cards.types.tobytes(), cards.deuces_wild, table.code_outcome,
                            tuple(table.int_pays()))


def analyse(game: str | Path | PayTable, deck: Deck | None = None, *, jokers: int | None = None,
            wild: str | None = None, trials: int | None = None, seed: SeedLike = None,
            workers: int = 1, progress: bool = False, executor: Executor | str | None = None,
            ties: str = "steady", simulate: int | None = None) -> VideoAnalysis:
    """The whole game under optimal play: return, outcome counts, variance (exact), and with
    ``trials`` a seeded simulation of that play beside it.

    Parameters
    ----------
    game : a built-in pay table name, a TOML file, or a :class:`PayTable`.
    deck : the 52-card deck by default; any :class:`Deck` (cards removed, stripped, several).
    jokers, wild : override the pay table's jokers (0-2) and wild rule ("deuces" or "none").
    trials, seed, workers, progress, executor : hands to simulate under the computed strategy,
        through the engine's chunk runner (:func:`cardlab.engine.reduce_chunks`): the same seed
        gives the same counts whatever ``workers`` or ``executor``; Ctrl-C keeps the chunks done
        (``simulation.interrupted``). ``simulate`` is the deprecated name of ``trials``.
    ties : between holds of equal expected pay, "steady" (default) plays the less volatile
        (lower mean square pay), "volatile" the more volatile; then the one keeping more cards.

    Examples
    --------
    >>> analyse("jacks-or-better-9-6").return_exact
    Fraction(1653526326983, 1661102543100)
    """
    from cardlab._native import core as _core

    trials = renamed_trials(trials, simulate, "simulate", "analyse()")
    if ties not in ("steady", "volatile"):
        raise HandError(f"unknown tie rule '{ties}' (expected 'steady' or 'volatile')")
    play = _Play(trials, seed, workers, progress, executor)
    table = paytable(game)
    cards = video_deck(table, deck, jokers, wild)
    if _repeated(cards):
        return _analyse_multi(table, cards, ties == "volatile", play)
    n = _check_size(cards)
    outcomes = final_outcomes(table, cards)
    big, weights = _weights(n)
    pays = np.array(table.int_pays(), dtype=np.int64)
    if comb(n, 5) * big * max(1, int(pays.max())) >= 2**62:
        raise TooLargeError(f"pays this large on {n} cards overflow the exact counts")
    counts = np.zeros(len(pays), dtype=np.int64)
    # folded by suit symmetry unless the simulation needs the hold of every dealt hand
    fold = _fold and trials is None and _suit_symmetric(cards)
    strategy = np.empty(0 if fold else comb(n, 5), dtype=np.uint8)
    tied, total_pay = _core.video_analyse(n, outcomes, pays, np.array(weights, dtype=np.int64), counts, strategy,
                                          ties == "volatile", cards.types.tobytes() if fold else b"")
    total = comb(n, 5) * big
    int_counts = tuple(int(c) for c in counts)
    if sum(int_counts) != total or sum(c * int(p) for c, p in zip(int_counts, pays)) != total_pay:
        raise AssertionError("video poker counts do not add up: a bug, please report it")
    simulation, simulated = play.run(_PlayTask(cards.size, outcomes, strategy, len(table.outcomes)))
    return VideoAnalysis(table, cards.describe(), n, int_counts, total, int(tied), simulation, simulated)


#: Fold the dealt hands by suit symmetry where the deck allows it (tests turn it off to compare
#: the folded kernel with the one that solves every dealt hand).
_fold = True


def _suit_symmetric(cards: VideoDeck) -> bool:
    """Whether a permutation of the suits maps the deck onto itself: each rank has its four
    suits or none (once each), and at most one joker. Then every dealt hand plays like the other
    members of its suit orbit, and the kernel solves one of each (134,459 for 52 cards).

    >>> _suit_symmetric(VideoDeck(parse_deck("9-A"))), _suit_symmetric(VideoDeck(parse_deck(None, remove="As")))
    (True, False)
    """
    counts = cards.deck.counts
    return cards.jokers <= 1 and all(counts[4 * r:4 * r + 4] in ((0, 0, 0, 0), (1, 1, 1, 1)) for r in range(13))


def _analyse_multi(table: PayTable, cards: VideoDeck, volatile: bool, play: _Play) -> VideoAnalysis:
    """The whole game on a deck with repeated cards, by the multiset kernel."""
    n = cards.size
    if n < 10:
        raise DeckError(f"a video poker deck needs at least 10 cards (5 dealt, 5 drawn); this one has {n}")
    big, _ = _weights(n)
    result = _run_multi(table, cards, volatile)
    counts = tuple(sum(result.counts[h][o] * (big // comb(n - 5, h)) for h in range(6))
                   for o in range(len(table.outcomes)))
    total = comb(n, 5) * big
    if sum(counts) != total:
        raise AssertionError("video poker counts do not add up: a bug, please report it")
    types, _ = _type_list(cards)
    position_type = np.searchsorted(np.array(types), cards.types.astype(np.int64)).astype(np.int64)
    simulation, simulated = play.run(_PlayTask(n, result.outcomes, result.strategy, len(table.outcomes),
                                               position_type))
    return VideoAnalysis(table, cards.describe(), n, counts, total, result.ties, simulation, simulated)


# --- one dealt hand ---------------------------------------------------------------------------


def _parse_hand(text: str, cards: VideoDeck) -> tuple[list[int], list[str]]:
    """Card types (52 = joker) of a dealt hand and how each was written."""
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    types: list[int] = []
    shown: list[str] = []
    try:
        for token in tokens:
            if _JOKER_WORDS.match(token):
                types.append(JOKER)
                shown.append(token)
                continue
            ids = parse_card_ids(token)
            types.extend(ids)
            shown.extend([token] if len(ids) == 1 else format_cards(ids).split())
    except CardError:
        if any(_JOKER_WORDS.match(t) for t in tokens):
            raise
        types = parse_card_ids(text)
        shown = format_cards(types).split()
    if len(types) != 5:
        raise HandError(f"a video poker hand has 5 cards; '{text}' has {len(types)}")
    naturals = [t for t in types if t != JOKER]
    jokers = len(types) - len(naturals)
    if jokers > cards.jokers:
        raise DeckError(f"'{text}' holds {jokers} joker(s) but the deck has {cards.jokers}")
    cards.deck.remove(naturals)  # raises for a card given twice or not in the deck
    return types, shown


def _positions(types: list[int], cards: VideoDeck) -> list[int]:
    order = [int(t) for t in cards.types]
    used: set[int] = set()
    positions = []
    for t in types:
        p = next(i for i, u in enumerate(order) if u == t and i not in used)
        used.add(p)
        positions.append(p)
    return positions


def hold_values(game: str | Path | PayTable, hand: str, deck: Deck | None = None, *,
                jokers: int | None = None, wild: str | None = None) -> HandAnalysis:
    """The exact expected pay of each of the 32 holds of one dealt hand, best first.

    Every hold's draws are counted exactly (the outcome of each final hand from the deck minus
    the dealt cards); ties are ordered as in :func:`analyse`.

    >>> hold_values("jacks-or-better-9-6", "Ah Kh Qh Jh 2c").holds[0].hold
    'Ah Kh Qh Jh'
    """
    from cardlab._native import core as _core

    table = paytable(game)
    cards = video_deck(table, deck, jokers, wild)
    types, shown = _parse_hand(hand, cards)
    positions = _positions(types, cards)
    order = sorted(range(5), key=lambda j: positions[j])  # bit b of the kernel's mask = order[b]
    k = len(table.outcomes)
    n = cards.size
    if _repeated(cards):
        if n < 10:
            raise DeckError(f"a video poker deck needs at least 10 cards (5 dealt, 5 drawn); this one has {n}")
        kinds, _ = _type_list(cards)
        dealt = [kinds.index(types[j]) for j in order]
        multi = _run_multi(table, cards, False, dealt)
        assert multi.hand is not None
        grid = multi.hand
    else:
        n = _check_size(cards)
        outcomes = final_outcomes(table, cards)
        counts = np.zeros(32 * k, dtype=np.int64)
        _core.video_hand(n, outcomes, k, bytes(positions[j] for j in order), counts)
        grid = counts.reshape(32, k)
    holds = []
    for mask in range(32):
        held = [j for j in range(5) if mask >> j & 1]
        kernel_mask = sum(1 << b for b, j in enumerate(order) if mask >> j & 1)
        row = tuple(int(c) for c in grid[kernel_mask])
        draws = comb(n - 5, 5 - len(held))
        if sum(row) != draws:
            raise AssertionError("hold counts do not add up: a bug, please report it")
        ev = sum((c * o.pays for c, o in zip(row, table.outcomes)), Fraction(0)) / draws
        square = sum((c * o.pays**2 for c, o in zip(row, table.outcomes)), Fraction(0)) / draws
        holds.append((ev, square, len(held), kernel_mask, " ".join(shown[j] for j in held), row))
    # best first; equal EV: the less volatile, then more cards kept, then the lower kernel mask
    # (the whole-game analysis's rule)
    holds.sort(key=lambda h: (-h[0], h[1], -h[2], h[3]))
    values = tuple(HoldValue(text, ev, row) for ev, _, _, _, text, row in holds)
    return HandAnalysis(table, " ".join(shown), cards.describe(), values)


# --- simulation -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _PlayTask:
    """Play ``n`` random hands under the strategy: per chunk, the outcome counts."""

    n_cards: int
    outcomes: np.ndarray
    strategy: np.ndarray
    k: int
    position_type: np.ndarray | None = None  # several decks: the type index of each position
    releases_gil = True

    def __call__(self, seed: np.random.SeedSequence, n: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        top = self.n_cards + 5
        binom = np.array([[comb(i, j) for j in range(6)] for i in range(top)], dtype=np.int64)
        keys = rng.random((n, self.n_cards))
        picked = np.argpartition(keys, (4, 9), axis=1)[:, :10]
        if self.position_type is not None:  # positions -> types; multisets indexed as a_i + i
            picked = self.position_type[picked]
        shift = np.arange(5) if self.position_type is not None else np.zeros(5, dtype=np.int64)
        dealt = np.sort(picked[:, :5], axis=1)
        draws = picked[:, 5:10]
        index = binom[dealt + shift, np.arange(1, 6)].sum(axis=1)
        mask = self.strategy[index].astype(np.int64)
        held = ((mask[:, None] >> np.arange(5)) & 1).astype(bool)
        final = np.sort(np.where(held, dealt, draws), axis=1)
        final_index = binom[final + shift, np.arange(1, 6)].sum(axis=1)
        return np.bincount(self.outcomes[final_index], minlength=self.k).astype(np.int64)


@dataclass(frozen=True)
class _Play:
    """The simulation asked of :func:`analyse` (``trials`` None: none), checked before the exact work."""

    trials: int | None
    seed: SeedLike
    workers: int
    progress: bool
    executor: Executor | str | None

    def __post_init__(self) -> None:
        t = self.trials
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 1):
            raise HandError(f"the number of hands to simulate must be a whole number of at least 1, got {t!r}")

    def run(self, task: _PlayTask) -> tuple[Simulation | None, tuple[int, ...]]:
        """``trials`` hands played by ``task`` in the engine's chunks (the same counts for any
        workers): the simulation's record and the count of each outcome."""
        if self.trials is None:
            return None, ()
        trials = int(self.trials)
        root, reported = resolve_seed(self.seed)
        run = reduce_chunks(task, trials, root, _add_counts, np.zeros(task.k, dtype=np.int64),
                            chunk=max(5_000, 5_000_000 // task.n_cards), workers=self.workers,
                            executor=self.executor, progress="simulating video poker" if self.progress else None)
        info = Simulation(trials=run.done, seed=reported, workers=min(self.workers, available_cores()),
                          requested=trials, interrupted=run.interrupted)
        return info, tuple(int(c) for c in run.value)


def _add_counts(total: np.ndarray, part: np.ndarray) -> np.ndarray:
    added: np.ndarray = total + part
    return added
