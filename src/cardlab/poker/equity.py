"""All-in equity of poker hands and ranges: exact by enumerating boards, or seeded simulation.

:func:`equity` takes one spec per player (a hand such as ``"AsAh"``, ``"As Ah Kd Qc"`` for
Omaha, or a hold'em range such as ``"QQ+, AKs"``), the known board (0, 3, 4 or 5 cards) and
dead cards, and returns an :class:`~cardlab.poker.equity_result.EquityResult`: per player the
share of boards won outright, the share split, and the equity (a ``k``-way split counts
``1/k``; in hi-lo each half of the pot is shared among its winners).

**Exact.** Every assignment of combos to players that shares no card (a *deal*, weighted by the
product of the combos' weights) is put in a canonical form under the suit permutations that
leave the board and the dead cards in place (AsAh-KdKc and AcAd-KhKs are the same problem), so
identical situations are counted once: AA against KK over all 36 suit combinations is three
problems. For each distinct deal every remaining board is enumerated as an index array and all
players' hands are evaluated at once by the vectorised evaluator. The cost (hand evaluations) is
estimated first; above ``max_evaluations`` a :class:`~cardlab.errors.TooLargeError` names it and
the ``--simulate`` command to run instead.

**Simulated.** Through the engine's chunk runner (:func:`cardlab.engine.iter_chunks`): chunk
``i`` draws from the ``i``-th child of the seed, so the numbers depend on the seed alone, not on
the number of workers; Ctrl-C returns the chunks finished so far, marked interrupted.

>>> r = equity(["AsAh", "KdKc"], board="2c 7d 9h")
>>> r.total, r.players[0].wins, r.players[1].wins, r.players[0].ties
(990, 907, 83, 0)
>>> equity(["AsAh", "AsKd"])
Traceback (most recent call last):
...
cardlab.errors.DeckError: card As is given twice (player 1 and player 2)
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from functools import lru_cache
from concurrent.futures import ThreadPoolExecutor
from itertools import permutations
from math import comb
from typing import ClassVar, Sequence

import numpy as np

from cardlab.cards import SUITS, card_id_array, format_cards, parse_card_ids
from cardlab.distribution import Simulation
from cardlab.engine import Executor, SeedLike, available_cores, kernel_state, reduce_chunks, renamed_trials, resolve_seed
from cardlab.errors import CardlabError, DeckError, HandError, RangeError, TooLargeError
from cardlab.intervals import Z95
from cardlab.poker.equity_result import EquityResult, PlayerEquity
from cardlab._native import core as _core
from cardlab.poker.evaluator import tables
from cardlab.poker.generic import GenericRange, parse_generic
from cardlab.poker.ranges import Range, combo_classes, parse_range
from cardlab.poker.rules import SHORT_DECK, STANDARD, Rules

__all__ = ["Game", "GAMES", "game_named", "equity", "Player", "parse_players", "range_of", "UNIT",
           "MAX_EVALUATIONS", "SIMULATION_CHUNK"]

UNIT = 5040
"""A pot in share units: divisible by 2k for every k up to 9, so split and quartered pots stay whole."""

MAX_EVALUATIONS = 20_000_000_000
"""Hand evaluations (hold'em showdowns, see :func:`_evaluations`) an exact answer may cost by
default: about 10 s on one core of the compiled kernel, 5 s on two."""

EVALUATIONS_PER_SECOND = 2e9
"""What one core does, in those units (hold'em counted by rank classes, measured; the message
of a refusal quotes the time from it)."""

SIMULATION_CHUNK = 200_000

DEAL_TABLE_LIMIT = 200_000
"""Range simulations list every conflict-free deal (and draw one per trial) up to this many deals."""


@dataclass(frozen=True)
class Game:
    """A poker game: hole cards per player, rules, deck and how many may play."""

    name: str
    hole: int
    rules: Rules
    max_players: int
    omaha: bool

    @property
    def lowest_rank(self) -> int:
        """Rank index of the lowest card in the deck (0 for a full deck, 4 for the short deck)."""
        return self.rules.lowest_rank

    def deck(self) -> list[int]:
        """The card ids of the game's deck."""
        return list(range(self.lowest_rank * 4, 52))


GAMES = {
    "holdem": Game("holdem", 2, STANDARD, 9, False),
    "omaha": Game("omaha", 4, STANDARD, 6, True),
    "omaha5": Game("omaha5", 5, STANDARD, 6, True),
    "omaha6": Game("omaha6", 6, STANDARD, 6, True),
    "shortdeck": Game("shortdeck", 2, SHORT_DECK, 9, False),
}


def game_named(name: str | Game) -> Game:
    """The :class:`Game` called ``name`` (holdem, omaha, omaha5, omaha6, shortdeck).

    >>> game_named("omaha").hole
    4
    """
    if isinstance(name, Game):
        return name
    if not isinstance(name, str):
        raise HandError(f"a game is named by a word ({', '.join(GAMES)}), not {type(name).__name__} {name!r:.40}")
    key = name.strip().lower().replace("-", "").replace("'", "").replace("_", "")
    key = {"omaha4": "omaha", "plo": "omaha", "short": "shortdeck", "sixplus": "shortdeck"}.get(key, key)
    if key not in GAMES:
        raise HandError(f"unknown game '{name}' (choose {', '.join(GAMES)})")
    return GAMES[key]


@dataclass(frozen=True, eq=False)
class Player:
    """A player's possible hole cards: ``combos`` ``(n, hole)`` uint8 with ``weights``; ``fixed`` if one hand."""

    spec: str
    combos: np.ndarray
    weights: np.ndarray
    fixed: bool

    @property
    def masks(self) -> np.ndarray:
        """A uint64 bit mask of cards for each of the player's combos."""
        return _masks(self.combos)


def _masks(cards: np.ndarray) -> np.ndarray:
    """uint64 bit mask of each row of card ids."""
    cards = np.asarray(cards)
    out = np.zeros(cards.shape[:-1], dtype=np.uint64)
    one = np.uint64(1)
    for j in range(cards.shape[-1]):
        out |= np.left_shift(one, cards[..., j].astype(np.uint64))
    return out


def _parse_cards(text: str) -> list[int]:
    if not text or not text.strip():
        return []
    return parse_card_ids(text)


def parse_players(specs: Sequence[str], game: Game, board: Sequence[int], dead: Sequence[int]) -> list[Player]:
    """Each spec as a :class:`Player`, checked against the game, the board and the dead cards.

    >>> [p.spec for p in parse_players(["AsKs", "QQ"], game_named("holdem"), [], [])]
    ['AsKs', 'QQ']
    """
    if isinstance(specs, str):
        raise HandError(f"give one hand or range per player, as a list: ['AsAh', 'KK'], not the text {specs!r:.60}")
    wrong = [spec for spec in specs if not isinstance(spec, str)]
    if wrong:
        raise HandError(f"a player's hand or range is text ('AsAh', 'QQ+'), not {type(wrong[0]).__name__} {wrong[0]!r:.40}")
    if len(specs) < 2:
        raise HandError(f"equity needs at least two players, got {len(specs)}")
    if len(specs) > game.max_players:
        raise HandError(f"{game.name} equity takes at most {game.max_players} players, got {len(specs)}")
    owner: dict[int, str] = {}

    def claim(cards: Sequence[int], who: str) -> None:
        for c in cards:
            if c // 4 < game.lowest_rank:
                raise HandError(f"card {format_cards([c])} ({who}) is not in the short deck (6 to A)")
            if c in owner:
                raise DeckError(f"card {format_cards([c])} is given twice ({owner[c]} and {who})")
            owner[c] = who

    claim(board, "the board")
    claim(dead, "the dead cards")
    parsed: list[tuple[str, list[int] | None]] = []
    for n, spec in enumerate(specs, 1):
        cards = _as_hand(spec, game)
        if cards is not None:
            claim(cards, f"player {n}")
        parsed.append((spec, cards))
    known = set(owner)
    players = []
    for n, (spec, cards) in enumerate(parsed, 1):
        if cards is not None:
            players.append(Player(spec, np.array([cards], dtype=np.uint8), np.ones(1), True))
            continue
        combos, weights, masks = _compiled_range(spec, game)
        known_mask = np.uint64(sum(1 << c for c in known))
        keep = (masks & known_mask) == 0
        if not keep.any():
            raise RangeError(f"range '{spec}' (player {n}) leaves no hands once the known cards "
                             f"({format_cards(sorted(known, reverse=True))}) are taken out")
        players.append(Player(spec, combos[keep], weights[keep], False))
    return players


@lru_cache(maxsize=512)
def _compiled_range(spec: str, game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A range's combos, weights and card masks, parsed once per spec and game (read-only arrays:
    players take copies of the rows they keep)."""
    rng = range_of(spec, game)
    arrays = (np.ascontiguousarray(rng.combos, dtype=np.uint8), np.asarray(rng.weights, dtype=np.float64),
              _masks(rng.combos))
    for a in arrays:
        a.flags.writeable = False
    return arrays


def range_of(spec: str, game: Game) -> Range | GenericRange:
    """The hands of a range for ``game``: Omaha ranges in the generic syntax; hold'em and short
    deck ranges in the classic syntax (``AKs``, ``QQ+``), else in the generic one (``AxKx``,
    ``KK!AA``), see :mod:`cardlab.poker.generic`."""
    if game.omaha:
        return parse_generic(spec, hole=game.hole, lowest_rank=game.lowest_rank)
    try:
        return parse_range(spec, lowest_rank=game.lowest_rank)
    except RangeError as classic:
        try:
            return parse_generic(spec, hole=game.hole, lowest_rank=game.lowest_rank)
        except RangeError:
            raise classic from None


def _as_hand(spec: str, game: Game) -> list[int] | None:
    """The cards of a spec that is one hand, or None for a range."""
    try:
        cards = parse_card_ids(spec)
    except CardlabError:
        cards = []
    if game.omaha:
        if not cards or not _looks_like_cards(spec):
            return None
        if len(cards) != game.hole:
            raise HandError(f"an {game.name} hand has {game.hole} cards; '{spec}' has {len(cards)}")
        if len(set(cards)) != len(cards):
            raise DeckError(f"a card is given twice in '{spec}'")
        return cards
    if len(cards) == 2 and cards[0] != cards[1] and _looks_like_cards(spec):
        return cards
    if len(cards) > 2 and _looks_like_cards(spec):
        raise HandError(f"a {game.name} hand has 2 cards; '{spec}' has {len(cards)}")
    return None


def _looks_like_cards(spec: str) -> bool:
    compact = "".join(spec.split())
    return len(compact) % 2 == 0 and all(compact[i + 1].lower() in SUITS for i in range(0, len(compact), 2))


# --- the compiled kernels (csrc/poker_equity.c) ------------------------------------------------


def _spec(game: Game, players: int, hi_lo: bool) -> tuple[int, int, bool, bool]:
    return players, game.hole, game.omaha, hi_lo


_PERMUTATION_MAPS = tuple(tuple((c // 4) * 4 + perm[c % 4] for c in range(52)) for perm in permutations(range(4)))
"""Card map of each of the 24 suit permutations."""


@lru_cache(maxsize=256)
def _suit_maps(board: tuple[int, ...], dead: tuple[int, ...]) -> list[np.ndarray]:
    """Card maps of the suit permutations that keep the board and the dead cards as sets."""
    board_set, dead_set = set(board), set(dead)
    return [np.array(m, dtype=np.uint8) for m in _PERMUTATION_MAPS
            if {m[c] for c in board_set} == board_set and {m[c] for c in dead_set} == dead_set]


def _deals(players: list[Player], limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All conflict-free deals: cards ``(D, P, hole)``, weights ``(D,)``, combo indices ``(D, P)``."""
    index = np.arange(len(players[0].combos))[:, None]
    masks = players[0].masks
    for pl in players[1:]:
        if len(index) * len(pl.combos) > limit:
            return np.zeros((0,)), np.zeros(0), np.zeros((0, 0))
        a = np.repeat(np.arange(len(index)), len(pl.combos))
        b = np.tile(np.arange(len(pl.combos)), len(index))
        ok = (masks[a] & pl.masks[b]) == 0
        a, b = a[ok], b[ok]
        index = np.concatenate([index[a], b[:, None]], axis=1)
        masks = masks[a] | pl.masks[b]
    cards = np.stack([pl.combos[index[:, i]] for i, pl in enumerate(players)], axis=1)
    weights = np.prod(np.stack([pl.weights[index[:, i]] for i, pl in enumerate(players)], axis=1), axis=1)
    return cards, weights, index


def _canonical(cards: np.ndarray, maps: list[np.ndarray]) -> np.ndarray:
    """The lexicographically least image of each deal under the suit maps (hole cards sorted)."""
    d = len(cards)

    def flat(x: np.ndarray) -> np.ndarray:
        rows: np.ndarray = np.sort(x, axis=2)[:, :, ::-1].reshape(d, -1)
        return rows

    best = flat(cards)
    for m in maps:
        cand = flat(m[cards])
        diff = cand != best
        first = diff.argmax(axis=1)
        rows = np.arange(d)
        less = diff.any(axis=1) & (cand[rows, first] < best[rows, first])
        best[less] = cand[less]
    return best


EXACT_SLICE = 64
"""Deals per kernel call when exact equity runs on several threads."""


def _exact_tally(game: Game, deals: np.ndarray, board: list[int], dead: list[int], hi_lo: bool,
                 workers: int = 1) -> tuple[np.ndarray, int]:
    """Sums over every completion of the board for each deal ``(D, P, hole)``: ``(D, P, 4)`` int64
    (boards won outright, boards split, share units, squared units; in hi-lo ``(D, P, 6)``, adding
    the boards whose share came from the high half alone and from the low half alone), and the
    boards per deal."""
    d, p, h = deals.shape
    used = set(board) | set(dead)
    deck = bytes(c for c in game.deck() if c not in used)
    per_deal = comb(len(deck) - p * h, 5 - len(board))
    acc = np.zeros((d, p, _width(hi_lo)), dtype=np.int64)
    flat = np.ascontiguousarray(deals, dtype=np.uint8)
    t, spec, known = tables(game.rules), _spec(game, p, hi_lo), bytes(board)

    def run(start: int) -> None:
        stop = min(d, start + EXACT_SLICE)
        _core.poker_equity_exact(t, spec, flat[start:stop], known, deck, acc[start:stop])

    threads = min(max(1, workers), available_cores())
    if threads > 1 and d > 1:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(run, range(0, d, EXACT_SLICE)))
    else:
        _core.poker_equity_exact(t, spec, flat, known, deck, acc)
    return acc, per_deal


def _width(hi_lo: bool) -> int:
    """The kernels' sums per player: wins, splits, units, squares, and in hi-lo the boards of the
    high half alone and of the low half alone."""
    return 6 if hi_lo else 4


def _evaluations(game: Game, deals: int, boards: int, players: int) -> int:
    """Estimated cost in hold'em showdown equivalents: one per player and board (the kernel
    counts hold'em boards by rank classes, so it does far fewer lookups than that); an Omaha
    player looks up every two-plus-three hand, each about three such units."""
    per = 1 if not game.omaha else 10 * comb(game.hole, 2) * 3
    return deals * boards * players * per


# --- the public function ----------------------------------------------------------------------


def equity(
    specs: Sequence[str],
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    game: str | Game = "holdem",
    hi_lo: bool = False,
    trials: int | None = None,
    seed: SeedLike = None,
    workers: int = 1,
    chunk: int = SIMULATION_CHUNK,
    progress: bool = False,
    executor: Executor | str | None = None,
    max_evaluations: int = MAX_EVALUATIONS,
    simulate: int | None = None,
) -> EquityResult:
    """Equity of each player's hand or range; exact unless ``trials`` gives a number of random boards.

    Parameters
    ----------
    specs : one hand or hold'em range per player (2 to 9 players in hold'em, 6 in Omaha).
    board, dead : known board cards (0, 3, 4 or 5) and cards out of play.
    game : ``holdem``, ``omaha`` (4 cards), ``omaha5``, ``omaha6`` or ``shortdeck``.
    hi_lo : split each pot between the best high and the best 8-or-better low.
    trials, seed, workers, chunk, progress, executor : a seeded simulation of ``trials`` boards
        through :func:`cardlab.engine.iter_chunks` (same seed, same numbers, whatever ``workers``).
    max_evaluations : refuse an exact answer costing more hand evaluations than this.
    simulate : the deprecated name of ``trials`` (one release, with a DeprecationWarning).

    Examples
    --------
    >>> equity(["AsAh", "KdKc"], board="2c 3c 4c 5c 6c 7c")
    Traceback (most recent call last):
    ...
    cardlab.errors.HandError: a board has 0, 3, 4 or 5 cards; '2c 3c 4c 5c 6c 7c' has 6
    """
    trials = renamed_trials(trials, simulate, "simulate", "equity()")
    g = game_named(game)
    board_ids = _card_list(board)
    dead_ids = _card_list(dead)
    if len(board_ids) not in (0, 3, 4, 5):
        shown = board if isinstance(board, str) else format_cards(board_ids)
        raise HandError(f"a board has 0, 3, 4 or 5 cards; '{shown}' has {len(board_ids)}")
    if hi_lo and g.rules is SHORT_DECK:
        raise HandError("hi-lo is played with a standard deck, not short deck")
    players = parse_players(specs if isinstance(specs, str) else list(specs), g, board_ids, dead_ids)
    left = len(g.deck()) - len(board_ids) - len(dead_ids) - len(players) * g.hole
    if left < 5 - len(board_ids):
        raise DeckError(f"{len(players)} players of {g.hole} cards leave {left} cards for the board, "
                        f"which needs {5 - len(board_ids)}")
    if trials is not None:
        return _simulate(g, players, board_ids, dead_ids, hi_lo, trials, seed, workers, chunk,
                         progress, executor)
    return _exact(g, players, board_ids, dead_ids, hi_lo, max_evaluations, workers)


def _card_list(cards: str | Sequence[int]) -> list[int]:
    if isinstance(cards, str):
        return _parse_cards(cards)
    if not isinstance(cards, (list, tuple, np.ndarray)):
        raise HandError(f"cards are given as text ('As Kd') or a list of card ids, not {type(cards).__name__}")
    ids: list[int] = card_id_array(list(cards)).tolist()
    return ids


def _simulate_hint(g: Game, players: list[Player], board: list[int], dead: list[int], hi_lo: bool) -> str:
    words = ["cardlab", "poker", "equity", *[p.spec for p in players]]
    if board:
        words += ["--board", format_cards(board, sep="")]
    if dead:
        words += ["--dead", format_cards(dead, sep="")]
    if g.name != "holdem":
        words += ["--game", g.name]
    if hi_lo:
        words.append("--hi-lo")
    words += ["--simulate", "10000000", "--seed", "1"]
    return " ".join(shlex.quote(w) for w in words)


WALK_ONE_THREAD = 200_000_000
"""Hand evaluations (see :func:`_evaluations`) below which an exact answer asked of several
workers still runs on one: thread start-up would cost more than it saves."""


def _exact(g: Game, players: list[Player], board: list[int], dead: list[int], hi_lo: bool,
           max_evaluations: int, workers: int, route: str = "auto") -> EquityResult:
    """Exact equity by one of two routes: ``walk`` (the deals walked in C, see
    :func:`_exact_walk`) or ``deals`` (the deals listed here, folded by suit symmetry and
    counted by the kernel deal by deal, on several threads); ``auto`` takes the walk when no
    suit permutation keeps the board and dead cards (nothing to fold) and one thread suffices."""
    k = 5 - len(board)
    boards_per_deal = comb(len(g.deck()) - len(board) - len(dead) - len(players) * g.hole, k)
    n_raw = int(np.prod([len(p.combos) for p in players], dtype=np.float64))
    # suit symmetry divides the work by at most the number of suit maps
    maps = _suit_maps(tuple(board), tuple(dead))
    floor = _evaluations(g, max(1, n_raw // len(maps)), boards_per_deal, len(players))
    if floor > 50 * max_evaluations:
        raise TooLargeError(_too_large(floor, max_evaluations, _simulate_hint(g, players, board, dead, hi_lo)))
    if route == "walk" or (route == "auto" and len(maps) == 1 and floor <= max_evaluations
                           and (workers <= 1 or floor <= WALK_ONE_THREAD)):
        return _exact_walk(g, players, board, dead, hi_lo, boards_per_deal)
    hint = _simulate_hint(g, players, board, dead, hi_lo)
    deals, weights, index = _deals(players, limit=20_000_000)
    if deals.ndim != 3:
        raise TooLargeError(_too_large(floor, max_evaluations, hint))
    if not len(deals):
        raise RangeError("the ranges leave no deal in which the players hold different cards")
    if len(maps) > 1 and len(deals) > 1:
        canon = _canonical(deals, maps)
        unique, inverse = np.unique(canon, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    else:  # one deal, or no suit permutation keeps the board: every deal is its own problem
        unique, inverse = deals.reshape(len(deals), -1), np.arange(len(deals))
    cost = _evaluations(g, len(unique), boards_per_deal, len(players))
    if cost > max_evaluations:
        raise TooLargeError(_too_large(cost, max_evaluations, hint))
    acc, per_deal = _exact_tally(g, unique.reshape(len(unique), len(players), g.hole), board, dead, hi_lo,
                                 workers)
    assert per_deal == boards_per_deal
    share = acc[:, :, 2]
    w = weights
    integral = bool(np.all(w == np.round(w)))
    total_w = float(w.sum()) * per_deal
    columns = [0, 1, 2, 4, 5] if hi_lo else [0, 1, 2]  # the squares are not kept
    sums = np.array([[np.dot(w, acc[inverse, i, c]) for c in columns] for i in range(len(players))],
                    dtype=np.float64).reshape(len(players), len(columns))
    grid = None
    if len(players) == 2 and not g.omaha and not players[1].fixed:
        classes = combo_classes(players[1].combos[index[:, 1]])
        num = np.bincount(classes, weights=w * share[inverse, 0], minlength=169)
        den = np.bincount(classes, weights=w * per_deal * UNIT, minlength=169)
        grid = tuple(float(a / b) if b > 0 else None for a, b in zip(num, den))
    return _exact_result(g, players, board, dead, hi_lo, sums, total_w, integral, grid)


def _exact_walk(g: Game, players: list[Player], board: list[int], dead: list[int], hi_lo: bool,
                boards_per_deal: int) -> EquityResult:
    """Exact equity with the whole enumeration in C (``poker_equity_ranges``): the deals
    (conflict-free assignments of combos) walked there and every board of each counted, the
    weighted totals summed there; no deal is listed or folded here."""
    p = len(players)
    used = set(board) | set(dead)
    deck = bytes(c for c in g.deck() if c not in used)
    combos = np.ascontiguousarray(np.concatenate([pl.combos for pl in players]), dtype=np.uint8)
    offsets = np.cumsum([0] + [len(pl.combos) for pl in players]).astype(np.int64)
    weights = np.ascontiguousarray(np.concatenate([pl.weights for pl in players]), dtype=np.float64)
    grid_on = p == 2 and not g.omaha and not players[1].fixed
    cols = _width(hi_lo) - 1  # the sums but the squares
    totals = np.zeros(cols * p + 2)
    grid_sums = np.zeros(2 * len(players[1].combos) if grid_on else 0)
    deals = _core.poker_equity_ranges(tables(g.rules), _spec(g, p, hi_lo), combos, offsets, weights,
                                      bytes(board), deck, totals, grid_sums)
    if not deals:
        raise RangeError("the ranges leave no deal in which the players hold different cards")
    sums = totals[:cols * p].reshape(p, cols)
    integral = totals[cols * p + 1] == 0
    total_w = float(totals[cols * p]) * boards_per_deal
    grid = None
    if grid_on:
        n2 = len(players[1].combos)
        classes = combo_classes(players[1].combos)
        num = np.bincount(classes, weights=grid_sums[:n2], minlength=169)
        den = np.bincount(classes, weights=grid_sums[n2:], minlength=169) * (boards_per_deal * UNIT)
        grid = tuple(float(a / b) if b > 0 else None for a, b in zip(num, den))
    return _exact_result(g, players, board, dead, hi_lo, sums, total_w, integral, grid)


def _exact_result(g: Game, players: list[Player], board: list[int], dead: list[int], hi_lo: bool,
                  sums: np.ndarray, total_w: float, integral: bool,
                  grid: tuple[float | None, ...] | None) -> EquityResult:
    """The result of an exact count: ``sums`` per player the weighted boards won, split and share
    units, and in hi-lo those of the high half alone and of the low half alone."""
    result_players = []
    for i, pl in enumerate(players):
        wins, ties, units = (float(x) for x in sums[i][:3])
        eq = units / (UNIT * total_w)
        high, low = (float(sums[i][3]) / total_w, float(sums[i][4]) / total_w) if hi_lo else (None, None)
        result_players.append(PlayerEquity(
            spec=pl.spec, win=wins / total_w, tie=ties / total_w, equity=eq,
            wins=_number(wins, integral), ties=_number(ties, integral), ci95=(eq, eq),
            combos=len(pl.combos), high_only=high, low_only=low))
    return EquityResult(game=g.name, board=format_cards(board), dead=format_cards(dead), hi_lo=hi_lo,
                        exact=True, total=_number(total_w, integral), players=tuple(result_players),
                        simulation=None, grid=grid)


def _number(x: float, integral: bool) -> int | float:
    return int(round(x)) if integral else x


def _too_large(cost: int, limit: int, hint: str) -> str:
    return (f"exact equity would take about {cost:,} hand evaluations (limit {limit:,}, about "
            f"{cost / EVALUATIONS_PER_SECOND:,.0f} s on one core); simulate instead: {hint}")


# --- simulation -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _SimTask:
    """One chunk of simulated showdowns in the compiled kernel: sums per player and per class.

    The kernel releases the interpreter lock, so the engine runs chunks on threads
    (``releases_gil``); chunk ``i`` draws from the ``i``-th child of the seed whatever the
    number of threads."""

    releases_gil: ClassVar[bool] = True
    spec: tuple[int, int, bool, bool]
    rules: Rules
    combos: np.ndarray
    offsets: np.ndarray
    cumulative: np.ndarray
    deals: np.ndarray
    deal_cumulative: np.ndarray
    board: bytes
    common: bytes
    classes: np.ndarray

    def __call__(self, seed: np.random.SeedSequence, n: int) -> dict[str, np.ndarray]:
        p, hi_lo = self.spec[0], self.spec[3]
        acc = np.zeros((p, _width(hi_lo)), dtype=np.int64)
        grid = np.zeros((2, 169), dtype=np.int64)
        status = _core.poker_equity_simulate(
            tables(self.rules), self.spec, self.combos, self.offsets, self.cumulative, self.deals,
            self.deal_cumulative, self.board, self.common, self.classes, n, kernel_state(seed), acc, grid)
        if status == -2:
            raise DeckError("the players' cards leave too few cards to complete the board")
        if status < 0:
            raise RangeError("the ranges almost never leave the players different cards")
        sides = {"high_only": acc[:, 4], "low_only": acc[:, 5]} if hi_lo else {}
        return {"wins": acc[:, 0], "ties": acc[:, 1], "units": acc[:, 2], "squares": acc[:, 3],
                "grid_units": grid[0], "grid_count": grid[1], **sides}


def _simulate(g: Game, players: list[Player], board: list[int], dead: list[int], hi_lo: bool,
              trials: int, seed: SeedLike, workers: int, chunk: int, progress: bool,
              executor: Executor | str | None) -> EquityResult:
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
        raise CardlabError(f"the number of trials must be a whole number of at least 1, got {trials!r}")
    root, reported = resolve_seed(seed)
    fixed = {int(c) for pl in players if pl.fixed for c in pl.combos[0]}
    common = np.array([c for c in g.deck() if c not in set(board) | set(dead) | fixed], dtype=np.uint8)
    grid = len(players) == 2 and not g.omaha and not players[1].fixed
    deal_cards = deal_cum = None
    if sum(not pl.fixed for pl in players) > 1 or (grid and len(players[1].combos) > 1):
        cards, weights, _ = _deals(players, limit=DEAL_TABLE_LIMIT)
        if cards.ndim == 3 and len(cards):
            deal_cards, deal_cum = cards, np.cumsum(weights)
        elif cards.ndim == 3:
            raise RangeError("the ranges leave no deal in which the players hold different cards")
    if deal_cards is not None and deal_cum is not None:
        combos, offsets, cumulative = np.zeros(0, np.uint8), np.zeros(len(players) + 1, np.int64), np.zeros(0)
        deals = np.ascontiguousarray(deal_cards, dtype=np.uint8)
        deal_cumulative = np.ascontiguousarray(deal_cum, dtype=np.float64)
        classes = combo_classes(deal_cards[:, 1]) if grid else np.zeros(0)
    else:
        combos = np.ascontiguousarray(np.concatenate([pl.combos for pl in players]), dtype=np.uint8)
        offsets = np.cumsum([0] + [len(pl.combos) for pl in players]).astype(np.int64)
        cumulative = np.concatenate([np.cumsum(pl.weights) for pl in players]).astype(np.float64)
        deals, deal_cumulative = np.zeros(0, np.uint8), np.zeros(0)
        classes = combo_classes(players[1].combos) if grid else np.zeros(0)
    tables(g.rules)  # built once, before the threads start
    task = _SimTask(_spec(g, len(players), hi_lo), g.rules, combos, offsets, cumulative, deals, deal_cumulative,
                    bytes(board), bytes(int(c) for c in common), np.ascontiguousarray(classes, dtype=np.int16))
    p = len(players)
    sums: dict[str, np.ndarray] = {"units": np.zeros(p), "squares": np.zeros(p), "wins": np.zeros(p),
                                   "ties": np.zeros(p), "grid_units": np.zeros(169), "grid_count": np.zeros(169)}
    if hi_lo:
        sums |= {"high_only": np.zeros(p), "low_only": np.zeros(p)}
    run = reduce_chunks(task, int(trials), root, _add_sums, sums, chunk=chunk, workers=workers,
                        executor=executor, progress="simulating equity" if progress else None)
    sums, done, interrupted = run.value, run.done, run.interrupted
    result_players = []
    for i, pl in enumerate(players):
        mean = sums["units"][i] / (UNIT * done)
        var = max(sums["squares"][i] / (UNIT * UNIT * done) - mean * mean, 0.0)
        half = Z95 * (var / done) ** 0.5
        result_players.append(PlayerEquity(
            spec=pl.spec, win=sums["wins"][i] / done, tie=sums["ties"][i] / done, equity=float(mean),
            wins=int(sums["wins"][i]), ties=int(sums["ties"][i]),
            ci95=(max(0.0, float(mean - half)), min(1.0, float(mean + half))), combos=len(pl.combos),
            high_only=float(sums["high_only"][i] / done) if hi_lo else None,
            low_only=float(sums["low_only"][i] / done) if hi_lo else None))
    grid_values = None
    if grid:
        grid_values = tuple(float(u / (UNIT * c)) if c > 0 else None
                            for u, c in zip(sums["grid_units"], sums["grid_count"]))
    info = Simulation(trials=done, seed=reported, workers=min(workers, available_cores()), requested=int(trials),
                      interrupted=interrupted)
    return EquityResult(game=g.name, board=format_cards(board), dead=format_cards(dead), hi_lo=hi_lo,
                        exact=False, total=done, players=tuple(result_players), simulation=info,
                        grid=grid_values)


def _add_sums(sums: dict[str, np.ndarray], part: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A chunk's sums added to the totals (a chunk gives only the keys it counted)."""
    return {key: value + part[key] if key in part else value for key, value in sums.items()}
