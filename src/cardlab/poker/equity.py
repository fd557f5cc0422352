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
from itertools import permutations
from math import comb
from typing import Sequence

import numpy as np

from cardlab.cards import SUITS, format_cards, parse_card_ids
from cardlab.distribution import Simulation
from cardlab.engine import Executor, SeedLike, available_cores, reduce_chunks, resolve_seed
from cardlab.errors import CardlabError, DeckError, HandError, RangeError, TooLargeError
from cardlab.intervals import Z95
from cardlab.poker.equity_result import EquityResult, PlayerEquity
from cardlab.poker.holdem import BoardData, holdem_strengths
from cardlab.poker.omaha import NO_LOW, holdem_lows, omaha_lows, omaha_players
from cardlab.poker.ranges import combo_classes, parse_range
from cardlab.poker.rules import SHORT_DECK, STANDARD, Rules

__all__ = ["Game", "GAMES", "game_named", "equity", "Player", "parse_players", "UNIT",
           "MAX_EVALUATIONS", "SIMULATION_CHUNK"]

UNIT = 5040
"""A pot in share units: divisible by 2k for every k up to 9, so split and quartered pots stay whole."""

MAX_EVALUATIONS = 300_000_000
"""Hand evaluations an exact answer may cost by default (about 10 s on one core)."""

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
    """The :class:`Game` called ``name`` (holdem, omaha, omaha5, omaha6, shortdeck)."""
    if isinstance(name, Game):
        return name
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
    """Each spec as a :class:`Player`, checked against the game, the board and the dead cards."""
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
        rng = parse_range(spec, lowest_rank=game.lowest_rank).without(frozenset(known))
        if not len(rng):
            raise RangeError(f"range '{spec}' (player {n}) leaves no hands once the known cards "
                             f"({format_cards(sorted(known, reverse=True))}) are taken out")
        players.append(Player(spec, rng.combos, rng.weights, False))
    return players


def _as_hand(spec: str, game: Game) -> list[int] | None:
    """The cards of a spec that is one hand, or None for a range (hold'em only)."""
    try:
        cards = parse_card_ids(spec)
    except CardlabError:
        cards = []
    if game.omaha:
        if not cards:
            raise HandError(f"an {game.name} hand is {game.hole} cards such as 'As Ah Kd Qc'; "
                            f"cannot read '{spec}' (ranges are for hold'em)")
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


# --- the showdown: every player's hand on each row, shares of the pot --------------------------


def _high(game: Game, holes: np.ndarray, boards: np.ndarray, data: BoardData | None = None) -> list[np.ndarray]:
    """Each player's high strength on each row: ``holes`` ``(n, P, hole)``, or ``(P, hole)`` for all rows."""
    p = holes.shape[-2]
    same = holes.ndim == 2
    if game.omaha:
        return omaha_players(holes, boards, game.rules)
    if data is None:
        data = BoardData.of(boards)
    return [holdem_strengths(data, holes[i] if same else holes[:, i], game.rules) for i in range(p)]


def _showdown(game: Game, holes: np.ndarray, boards: np.ndarray, hi_lo: bool, data: BoardData | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """Share units ``(n, P)`` (a pot is :data:`UNIT`) and who takes part of the pot ``(n, P)``.

    ``holes`` is ``(n, P, hole)`` (or ``(P, hole)``, the same hands on every row), ``boards`` ``(n, 5)``.
    """
    n = len(boards)
    high = np.stack(_high(game, holes, boards, data), axis=1)
    top = high == high.max(axis=1, keepdims=True)
    k = top.sum(axis=1, dtype=np.int64)
    if not hi_lo:
        units = np.where(top, (UNIT // k)[:, None], 0)
        return units, top
    p = holes.shape[-2]
    if game.omaha:
        low = np.stack([omaha_lows(holes[i] if holes.ndim == 2 else holes[:, i], boards) for i in range(p)], axis=1)
    else:
        if holes.ndim == 2:
            holes = np.broadcast_to(holes, (n, *holes.shape))
        low = np.stack([holdem_lows(np.concatenate([holes[:, i], boards], axis=1)) for i in range(p)], axis=1)
    best_low = low.min(axis=1, keepdims=True)
    has_low = best_low[:, 0] < NO_LOW
    lowers = (low == best_low) & has_low[:, None]
    k_low = np.maximum(lowers.sum(axis=1, dtype=np.int64), 1)
    high_pot = np.where(has_low, UNIT // 2, UNIT)
    units = np.where(top, (high_pot // k)[:, None], 0) + np.where(lowers, (UNIT // 2 // k_low)[:, None], 0)
    return units, units > 0


def _summary(game: Game, holes: np.ndarray, boards: np.ndarray, hi_lo: bool,
             data: BoardData | None = None) -> np.ndarray:
    """Sums over the rows, ``(4, P)`` int64: boards won outright, boards split, units, squared units."""
    p = holes.shape[-2]
    out = np.zeros((4, p), dtype=np.int64)
    if hi_lo:
        units, part = _showdown(game, holes, boards, hi_lo, data)
        whole = units == UNIT
        out[0] = whole.sum(axis=0)
        out[1] = (part & ~whole).sum(axis=0)
        out[2] = units.sum(axis=0)
        out[3] = (units * units).sum(axis=0)
        return out
    cols = _high(game, holes, boards, data)
    n = len(cols[0])
    if p == 2:
        a, b = cols
        wins = np.array([np.count_nonzero(a > b), np.count_nonzero(b > a)], dtype=np.int64)
        ties = n - wins.sum()
        out[0] = wins
        out[1] = ties
        out[2] = wins * UNIT + ties * (UNIT // 2)
        out[3] = wins * UNIT * UNIT + ties * (UNIT // 2) ** 2
        return out
    best = cols[0].copy()
    for c in cols[1:]:
        np.maximum(best, c, out=best)
    tops = [c == best for c in cols]
    k = np.zeros(n, dtype=np.uint8)
    for t in tops:
        k += t
    share = np.array([0] + [UNIT // j for j in range(1, p + 1)], dtype=np.int64)
    for i, t in enumerate(tops):
        hist = np.bincount(k[t], minlength=p + 1).astype(np.int64)
        out[0, i] = hist[1]
        out[1, i] = hist[2:].sum()
        out[2, i] = (hist * share).sum()
        out[3, i] = (hist * share * share).sum()
    return out


# --- exact enumeration ------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _combinations(n: int, k: int) -> np.ndarray:
    """All ``C(n, k)`` increasing index tuples as a ``(C(n, k), k)`` uint8 array."""
    rows = np.zeros((1, 0), dtype=np.uint8)
    for col in range(k):
        last = rows[:, -1].astype(np.int64) if col else np.full(len(rows), -1)
        room = n - (k - col) - last  # choices for this column: last+1 .. n-(k-col)
        room = np.maximum(room, 0)
        rep = np.repeat(np.arange(len(rows)), room)
        start = np.cumsum(room) - room
        value = (np.arange(len(rep)) - np.repeat(start, room)) + np.repeat(last + 1, room)
        rows = np.concatenate([rows[rep], value[:, None].astype(np.uint8)], axis=1)
    rows.setflags(write=False)
    return rows


@lru_cache(maxsize=4)
def _completion_cards(common: tuple[int, ...], k: int) -> np.ndarray:
    """Every ``k``-card completion from the ``common`` cards (ascending within a row)."""
    if not k:
        return np.zeros((1, 0), dtype=np.uint8)
    result: np.ndarray = np.array(common, dtype=np.uint8)[_combinations(len(common), k)]
    return result


@lru_cache(maxsize=4)
def _completion_masks(common: tuple[int, ...], k: int) -> np.ndarray:
    return _masks(_completion_cards(common, k))


@lru_cache(maxsize=4)
def _board_data(common: tuple[int, ...], k: int, board: tuple[int, ...]) -> BoardData:
    """:class:`BoardData` of the known board completed in every way from ``common``."""
    completions = _completion_cards(common, k)
    if not board:  # ascending card ids: the ranks are already sorted
        return BoardData.of(completions, ranks_sorted=True)
    full = np.concatenate([np.broadcast_to(np.array(board, dtype=np.uint8), (len(completions), len(board))),
                           completions], axis=1)
    return BoardData.of(full)


def _suit_maps(board: Sequence[int], dead: Sequence[int], deck: Sequence[int]) -> list[np.ndarray]:
    """Card maps of the suit permutations that keep the board and the dead cards as sets."""
    maps = []
    for perm in permutations(range(4)):
        m = np.array([(c // 4) * 4 + perm[c % 4] for c in range(52)], dtype=np.uint8)
        if set(m[list(board)].tolist()) == set(board) and set(m[list(dead)].tolist()) == set(dead):
            maps.append(m)
    return maps


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
        result: np.ndarray = np.sort(x, axis=2)[:, :, ::-1].reshape(d, -1)
        return result

    best = flat(cards)
    for m in maps:
        cand = flat(m[cards])
        diff = cand != best
        first = diff.argmax(axis=1)
        rows = np.arange(d)
        less = diff.any(axis=1) & (cand[rows, first] < best[rows, first])
        best[less] = cand[less]
    return best


@dataclass
class _Tally:
    """Per deal and player: boards won outright, boards split, share units."""

    wins: np.ndarray
    ties: np.ndarray
    units: np.ndarray


def _exact_tally(game: Game, deals: np.ndarray, board: list[int], dead: list[int], hi_lo: bool,
                 block: int = 1 << 18) -> tuple[_Tally, int]:
    """Tally over every completion of the board, for each deal ``(D, P, hole)``."""
    d, p, h = deals.shape
    used = set(board) | set(dead)
    deal_masks = _masks(deals.reshape(d, -1))
    k = 5 - len(board)
    common_mask = np.bitwise_and.reduce(deal_masks) if d else np.uint64(0)
    if not game.omaha and comb(len(game.deck()) - len(used) - p * h, k) >= block // 4:
        # hold'em with many boards: one board list (and its board data) for every deal and matchup
        common_mask = np.uint64(0)
    common = tuple(c for c in game.deck() if c not in used and not (int(common_mask) >> c) & 1)
    completions = _completion_cards(common, k)
    known = np.array(board, dtype=np.uint8)
    tally = _Tally(np.zeros((d, p), np.int64), np.zeros((d, p), np.int64), np.zeros((d, p), np.int64))
    per_deal = comb(len(game.deck()) - len(used) - p * h, k)
    n_comp = len(completions)
    if n_comp >= block // 4:  # many boards per deal: one deal at a time, no per-row deal index
        data = None if game.omaha else _board_data(common, k, tuple(board))
        rows_needed = game.omaha or hi_lo
        for u in range(d):
            every = int(deal_masks[u]) & ~int(common_mask) == 0  # no completion uses the deal's cards
            valid = None if every else np.flatnonzero((_completion_masks(common, k) & deal_masks[u]) == 0)
            n_valid = n_comp if valid is None else len(valid)
            for cstart in range(0, n_valid, block):
                part: slice | np.ndarray = slice(cstart, cstart + block) if valid is None else \
                    valid[cstart: cstart + block]
                boards = np.zeros((0, 5), dtype=np.uint8)
                if rows_needed:
                    rows = completions[part]
                    boards = np.concatenate([np.broadcast_to(known, (len(rows), len(board))), rows], axis=1)
                sums = _summary(game, deals[u], boards, hi_lo, None if data is None else data.take(part))
                tally.wins[u] += sums[0]
                tally.ties[u] += sums[1]
                tally.units[u] += sums[2]
        return tally, per_deal
    comp_masks = _completion_masks(common, k)
    step = max(1, block // max(n_comp, 1))
    for start in range(0, d, step):
        ids = np.arange(start, min(d, start + step))
        for cstart in range(0, n_comp, block):
            cidx = np.arange(cstart, min(n_comp, cstart + block))
            di = np.repeat(ids, len(cidx))
            ci = np.tile(cidx, len(ids))
            ok = (deal_masks[di] & comp_masks[ci]) == 0
            di, ci = di[ok], ci[ok]
            if not len(di):
                continue
            boards = np.concatenate([np.broadcast_to(known, (len(ci), len(board))), completions[ci]], axis=1)
            units, part = _showdown(game, deals[di], boards, hi_lo)
            whole = units == UNIT
            for i in range(p):
                tally.wins[:, i] += np.bincount(di, weights=whole[:, i], minlength=d).astype(np.int64)
                tally.ties[:, i] += np.bincount(di, weights=part[:, i] & ~whole[:, i], minlength=d).astype(np.int64)
                tally.units[:, i] += np.bincount(di, weights=units[:, i], minlength=d).astype(np.int64)
    return tally, per_deal


def _evaluations(game: Game, deals: int, boards: int, players: int) -> int:
    """Estimated cost in seven-card-evaluation equivalents."""
    per = 1 if not game.omaha else 10 * comb(game.hole, 2) // 20
    return deals * boards * players * max(per, 1)


# --- the public function ----------------------------------------------------------------------


def equity(
    specs: Sequence[str],
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    game: str | Game = "holdem",
    hi_lo: bool = False,
    simulate: int | None = None,
    seed: SeedLike = None,
    workers: int = 1,
    chunk: int = SIMULATION_CHUNK,
    progress: bool = False,
    executor: Executor | str | None = None,
    max_evaluations: int = MAX_EVALUATIONS,
) -> EquityResult:
    """Equity of each player's hand or range; exact unless ``simulate`` gives a number of trials.

    Parameters
    ----------
    specs : one hand or hold'em range per player (2 to 9 players in hold'em, 6 in Omaha).
    board, dead : known board cards (0, 3, 4 or 5) and cards out of play.
    game : ``holdem``, ``omaha`` (4 cards), ``omaha5``, ``omaha6`` or ``shortdeck``.
    hi_lo : split each pot between the best high and the best 8-or-better low.
    simulate, seed, workers, chunk, progress, executor : a seeded simulation of ``simulate`` boards
        through :func:`cardlab.engine.iter_chunks` (same seed, same numbers, whatever ``workers``).
    max_evaluations : refuse an exact answer costing more hand evaluations than this.

    >>> equity(["AsAh", "KdKc"], board="2c 3c 4c 5c 6c 7c")
    Traceback (most recent call last):
    ...
    cardlab.errors.HandError: a board has 0, 3, 4 or 5 cards; '2c 3c 4c 5c 6c 7c' has 6
    """
    g = game_named(game)
    board_ids = _card_list(board)
    dead_ids = _card_list(dead)
    if len(board_ids) not in (0, 3, 4, 5):
        shown = board if isinstance(board, str) else format_cards(board_ids)
        raise HandError(f"a board has 0, 3, 4 or 5 cards; '{shown}' has {len(board_ids)}")
    if hi_lo and g.rules is SHORT_DECK:
        raise HandError("hi-lo is played with a standard deck, not short deck")
    players = parse_players(list(specs), g, board_ids, dead_ids)
    left = len(g.deck()) - len(board_ids) - len(dead_ids) - len(players) * g.hole
    if left < 5 - len(board_ids):
        raise DeckError(f"{len(players)} players of {g.hole} cards leave {left} cards for the board, "
                        f"which needs {5 - len(board_ids)}")
    if simulate is not None:
        return _simulate(g, players, board_ids, dead_ids, hi_lo, simulate, seed, workers, chunk,
                         progress, executor)
    return _exact(g, players, board_ids, dead_ids, hi_lo, max_evaluations)


def _card_list(cards: str | Sequence[int]) -> list[int]:
    if isinstance(cards, str):
        return _parse_cards(cards)
    return [int(c) for c in cards]


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


def _exact(g: Game, players: list[Player], board: list[int], dead: list[int], hi_lo: bool,
           max_evaluations: int) -> EquityResult:
    k = 5 - len(board)
    boards_per_deal = comb(len(g.deck()) - len(board) - len(dead) - len(players) * g.hole, k)
    n_raw = int(np.prod([len(p.combos) for p in players], dtype=np.float64))
    hint = _simulate_hint(g, players, board, dead, hi_lo)
    # suit symmetry divides the work by at most the number of suit maps
    maps = _suit_maps(board, dead, g.deck())
    floor = _evaluations(g, max(1, n_raw // len(maps)), boards_per_deal, len(players))
    if floor > 50 * max_evaluations:
        raise TooLargeError(_too_large(floor, max_evaluations, hint))
    deals, weights, index = _deals(players, limit=20_000_000)
    if deals.ndim != 3:
        raise TooLargeError(_too_large(floor, max_evaluations, hint))
    if not len(deals):
        raise RangeError("the ranges leave no deal in which the players hold different cards")
    if len(maps) > 1:
        canon = _canonical(deals, maps)
        unique, inverse = np.unique(canon, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    else:  # no suit permutation keeps the board: every deal is its own problem
        unique, inverse = deals.reshape(len(deals), -1), np.arange(len(deals))
    cost = _evaluations(g, len(unique), boards_per_deal, len(players))
    if cost > max_evaluations:
        raise TooLargeError(_too_large(cost, max_evaluations, hint))
    tally, per_deal = _exact_tally(g, unique.reshape(len(unique), len(players), g.hole), board, dead, hi_lo)
    assert per_deal == boards_per_deal
    w = weights
    integral = bool(np.all(w == np.round(w)))
    total_w = float(w.sum()) * per_deal
    result_players = []
    for i, pl in enumerate(players):
        wins = float(np.dot(w, tally.wins[inverse, i]))
        ties = float(np.dot(w, tally.ties[inverse, i]))
        units = float(np.dot(w, tally.units[inverse, i]))
        eq = units / (UNIT * total_w)
        result_players.append(PlayerEquity(
            spec=pl.spec, win=wins / total_w, tie=ties / total_w, equity=eq,
            wins=_number(wins, integral), ties=_number(ties, integral), ci95=(eq, eq),
            combos=len(pl.combos)))
    grid = None
    if len(players) == 2 and not g.omaha and not players[1].fixed:
        classes = combo_classes(players[1].combos[index[:, 1]])
        num = np.bincount(classes, weights=w * tally.units[inverse, 0], minlength=169)
        den = np.bincount(classes, weights=w * per_deal * UNIT, minlength=169)
        grid = tuple(float(a / b) if b > 0 else None for a, b in zip(num, den))
    return EquityResult(game=g.name, board=format_cards(board), dead=format_cards(dead), hi_lo=hi_lo,
                        exact=True, total=_number(total_w, integral), players=tuple(result_players),
                        simulation=None, grid=grid)


def _number(x: float, integral: bool) -> int | float:
    return int(round(x)) if integral else x


def _too_large(cost: int, limit: int, hint: str) -> str:
    return (f"exact equity would take about {cost:,} hand evaluations (limit {limit:,}, about "
            f"{cost / 3e7:,.0f} s on one core); simulate instead: {hint}")


# --- simulation -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _SimTask:
    """One chunk of simulated showdowns (picklable): returns sums per player and per class."""

    game: Game
    combos: tuple[np.ndarray, ...]
    cumulative: tuple[np.ndarray, ...]
    board: tuple[int, ...]
    common: np.ndarray
    hi_lo: bool
    grid: bool
    deal_cards: np.ndarray | None = None
    deal_cumulative: np.ndarray | None = None

    def __call__(self, seed: np.random.SeedSequence, n: int) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        fixed = all(len(c) == 1 for c in self.combos)
        if fixed:
            holes = np.stack([c[0] for c in self.combos])
        elif self.deal_cards is not None and self.deal_cumulative is not None:
            # every conflict-free deal listed with its weight: one draw per trial, no rejection
            cum = self.deal_cumulative
            pick = np.minimum(np.searchsorted(cum, rng.random(n) * cum[-1], side="right"), len(cum) - 1)
            holes = self.deal_cards[pick]
        else:
            holes = self._deal(rng, n)
        boards = self._boards(rng, holes, n)
        if self.grid and not self.hi_lo and len(self.combos) == 2:
            a, b = _high(self.game, holes, boards)
            win = np.array([np.count_nonzero(a > b), np.count_nonzero(b > a)], dtype=np.int64)
            tie = n - win.sum()
            share = (a > b).astype(np.float64) + 0.5 * (a == b)
            classes = combo_classes(holes[:, 1])
            return {"wins": win, "ties": np.array([tie, tie]), "units": win * UNIT + tie * (UNIT // 2),
                    "squares": win * UNIT * UNIT + tie * (UNIT // 2) ** 2,
                    "grid_units": np.bincount(classes, weights=share * UNIT, minlength=169),
                    "grid_count": np.bincount(classes, minlength=169)}
        if self.grid:
            units, part = _showdown(self.game, holes, boards, self.hi_lo)
            whole = units == UNIT
            out = {"units": units.sum(axis=0), "squares": (units * units).sum(axis=0),
                   "wins": whole.sum(axis=0), "ties": (part & ~whole).sum(axis=0)}
            classes = combo_classes(holes[:, 1])
            out["grid_units"] = np.bincount(classes, weights=units[:, 0], minlength=169)
            out["grid_count"] = np.bincount(classes, minlength=169)
            return out
        sums = _summary(self.game, holes, boards, self.hi_lo)
        return {"wins": sums[0], "ties": sums[1], "units": sums[2], "squares": sums[3]}

    def _deal(self, rng: np.random.Generator, n: int) -> np.ndarray:
        p = len(self.combos)
        h = self.game.hole
        holes = np.empty((n, p, h), dtype=np.uint8)
        todo = np.arange(n)
        for _ in range(10_000):
            m = len(todo)
            acc = np.zeros(m, dtype=np.uint64)
            ok = np.ones(m, dtype=bool)
            for i, (combos, cum) in enumerate(zip(self.combos, self.cumulative)):
                if len(combos) == 1:
                    pick = np.zeros(m, dtype=np.int64)
                else:
                    pick = np.searchsorted(cum, rng.random(m) * cum[-1], side="right")
                    pick = np.minimum(pick, len(combos) - 1)
                cards = combos[pick]
                holes[todo, i] = cards
                mask = _masks(cards)
                ok &= (acc & mask) == 0
                acc |= mask
            todo = todo[~ok]
            if not len(todo):
                return holes
        raise RangeError("the ranges almost never leave the players different cards")

    def _boards(self, rng: np.random.Generator, holes: np.ndarray, n: int) -> np.ndarray:
        """Known board plus distinct random cards from ``common`` avoiding each row's hole cards."""
        k = 5 - len(self.board)
        if holes.ndim == 2:  # the same hole cards on every row: nothing to avoid
            columns = np.empty((5, n), dtype=np.uint8)
            columns[: len(self.board)] = np.array(self.board, dtype=np.uint8)[:, None]
            if k:
                columns[len(self.board):] = self.common[_distinct(rng, n, len(self.common), k)]
            return columns.T
        # the range players' cards are in ``common``: skip them like cards already drawn
        where = np.full(52, -1, dtype=np.int16)
        where[self.common] = np.arange(len(self.common), dtype=np.int16)
        ranged = [i for i, c in enumerate(self.combos) if len(c) > 1]
        taken = np.sort(where[holes[:, ranged].reshape(n, -1)], axis=1).T
        columns = np.empty((5, n), dtype=np.uint8)
        columns[: len(self.board)] = np.array(self.board, dtype=np.uint8)[:, None]
        if k:
            columns[len(self.board):] = self.common[_distinct(rng, n, len(self.common), k, list(taken))]
        return columns.T


def _distinct(rng: np.random.Generator, m: int, n: int, k: int,
              taken: list[np.ndarray] | None = None) -> np.ndarray:
    """``(k, m)`` positions: ``k`` distinct values from ``range(n)`` per column, uniformly, avoiding
    each column's ``taken`` values (given as ascending rows).

    The ``j``-th value is uniform over the ``n - len(taken) - j`` values left: a uniform draw is
    shifted past every value already out, visited in ascending order.
    """
    out: list[np.ndarray] = [t.astype(np.int16) for t in taken] if taken else []
    drawn = []
    for j in range(k):
        x = rng.integers(0, n - len(out), size=m, dtype=np.int16)
        for prev in out:  # ascending: skip over every value already out
            x += prev <= x
        drawn.append(x.copy())
        for i in range(len(out)):  # insert x, keeping the columns ascending
            low = np.minimum(out[i], x)
            x = np.maximum(out[i], x)
            out[i] = low
        out.append(x)
    return np.stack(drawn)


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
    _warm_tables(g)  # built once here, so that forked workers inherit them
    task = _SimTask(g, tuple(pl.combos for pl in players), tuple(np.cumsum(pl.weights) for pl in players),
                    tuple(board), common, hi_lo, grid, deal_cards, deal_cum)
    p = len(players)
    sums: dict[str, np.ndarray] = {"units": np.zeros(p), "squares": np.zeros(p), "wins": np.zeros(p),
                                   "ties": np.zeros(p), "grid_units": np.zeros(169), "grid_count": np.zeros(169)}
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
            ci95=(max(0.0, float(mean - half)), min(1.0, float(mean + half))), combos=len(pl.combos)))
    grid_values = None
    if grid:
        grid_values = tuple(float(u / (UNIT * c)) if c > 0 else None
                            for u, c in zip(sums["grid_units"], sums["grid_count"]))
    info = Simulation(trials=done, seed=reported, workers=min(workers, available_cores()), requested=int(trials),
                      interrupted=interrupted)
    return EquityResult(game=g.name, board=format_cards(board), dead=format_cards(dead), hi_lo=hi_lo,
                        exact=False, total=done, players=tuple(result_players), simulation=info,
                        grid=grid_values)


def _warm_tables(g: Game) -> None:
    """Build the lookup tables a showdown needs (cached), by valuing one board."""
    holes = np.array([[51, 47, 43, 39, 35, 31][: g.hole], [50, 46, 42, 38, 34, 30][: g.hole]], dtype=np.uint8)
    _high(g, holes, np.array([[12, 16, 20, 24, 0]], dtype=np.uint8) + 1)


def _add_sums(sums: dict[str, np.ndarray], part: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A chunk's sums added to the totals (a chunk gives only the keys it counted)."""
    return {key: value + part[key] if key in part else value for key, value in sums.items()}
