"""Side bets on the player's poker hand in the games against a dealer, counted exactly.

A ``[[side_bet]]`` of Casino Hold'em, Ultimate Texas Hold'em, Texas Hold'em Bonus or Caribbean
Stud (docs/casino.md) is paid on the player's cards whatever the main bet does:

``cards = 5``
    the player's first five cards: Caribbean Stud's hand (the progressive); in the hold'em games
    the hole cards and the flop (Casino Hold'em's AA Bonus, the hold'em progressives);
``cards = 7``
    in the hold'em games the best five of the player's seven (Ultimate Texas Hold'em's Trips);
``cards = 2``
    in the hold'em games the player's hole cards, a line may also name the dealer's (Texas Hold'em
    Bonus's Bonus bet).

Each ``[[side_bet.pays]]`` line names a ``hand`` (a category of :data:`CATEGORIES`, with
``ranks`` for a pair or three of a kind of those ranks; or hole cards in range notation,
``"AKs"``, ``"KK, QQ, JJ"``, ``"22-TT"``, with ``dealer`` the dealer's), and pays ``pays`` to
one, or ``percent_of_meter`` of the bet's ``meter`` (a progressive jackpot, in units of the
bet; ``--meter`` overrides it). A hand takes the first line it matches. With
``pays_for_one = true`` the bet is never returned (a progressive's unit drops into the meter):
a line paying 50 nets 49.

Counting: the five- and seven-card categories of every hand of the deck by the compiled core
(:func:`cardlab.poker.evaluator.count_subsets`), every five-card hand's strength when a line
names ranks, every (player, dealer) pair of hole cards by array operations.

>>> bets = parse_side_bets([{"name": "Trips", "cards": 7, "pays": [{"hand": "three of a kind", "pays": 3}]}],
...                        "g.toml", "ultimate-holdem")
>>> bet = side_bet_analysis(bets[0], list(range(52)))
>>> [(row.name, row.count) for row in bet.outcomes]
[('three of a kind', 6461620), ('nothing', 127322940)]
>>> parse_side_bets([{"pays": [{"hand": "trips", "pays": 3}]}], "g.toml", "ultimate-holdem")
Traceback (most recent call last):
...
cardlab.errors.PayTableError: g.toml: side bet 1 (side bet 1): line 1: unknown hand 'trips' (expected one of: high card, pair, two pair, three of a kind, straight, flush, full house, four of a kind, straight flush, royal flush)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Callable, Mapping, Sequence

import numpy as np

from cardlab.casino.pays import parse_pay, parse_rank_set
from cardlab.casino.result import BetAnalysis, MeterReturn, OutcomeRow, sd_of
from cardlab.casino.table_rules import CATEGORIES, SHIFT
from cardlab.errors import CardlabError, PayTableError
from cardlab.textfile import shortened, shown_text

__all__ = ["SideLine", "PokerSideBet", "parse_side_bets", "side_bet_analysis", "side_bet_net", "with_meter",
           "SIDE_CARDS", "DEALER_HOLE", "MAX_SIDE_BETS"]

#: The hands each game's side bets may be paid on (the first is the default).
SIDE_CARDS = {"casino-holdem": (5, 7, 2), "ultimate-holdem": (7, 5, 2), "texas-holdem-bonus": (2, 5, 7),
              "caribbean-stud": (5,)}
#: Where a simulated deal holds the dealer's hole cards: every game deals the player's cards
#: first (cardlab.casino.holdem.showdown: hole cards, flop, turn, river, the dealer's two;
#: cardlab.casino.caribbean: the player's five, then the dealer's).
DEALER_HOLE = (7, 8)
MAX_SIDE_BETS = 16  #: the most side bets a game describes
_MAX_LINES = 64  #: the most pay lines a side bet has
_NOTHING = "nothing"


@dataclass(frozen=True)
class SideLine:
    """One pay line: its ``name``, the hand category (:data:`CATEGORIES` index; -1 for hole
    cards), the ``ranks`` of a pair or three of a kind it asks for (empty: any), the hole-card
    combos of the player and of the dealer it asks for (card id pairs, low first; ``dealer``
    empty: any), and what it pays: ``pays`` to one plus ``meter_share`` of the meter."""

    name: str
    category: int
    pays: Fraction
    meter_share: Fraction = Fraction(0)
    ranks: frozenset[int] = frozenset()
    holes: frozenset[tuple[int, int]] = frozenset()
    dealer: frozenset[tuple[int, int]] = frozenset()


@dataclass(frozen=True)
class PokerSideBet:
    """A side bet paid on the player's ``cards`` (2, 5 or 7) by its ``lines``; ``meter`` the
    jackpot a line's share is of (``None``: not given), ``for_one`` when the bet is never
    returned."""

    name: str
    cards: int
    lines: tuple[SideLine, ...]
    meter: Fraction | None = None
    for_one: bool = False

    @property
    def progressive(self) -> bool:
        """Whether a line pays a share of the meter."""
        return any(line.meter_share for line in self.lines)


def _check_keys(entry: Mapping[str, object], known: tuple[str, ...], where: str) -> None:
    for key in entry:
        if key not in known:
            raise PayTableError(f"{where}: unknown key '{key}' (expected one of: {', '.join(known)})")


def _holes(text: object, where: str, key: str) -> frozenset[tuple[int, int]]:
    """The hole-card combos a line names in range notation (every weight 1)."""
    from cardlab.poker.ranges import parse_range

    if not isinstance(text, str) or not text.strip():
        raise PayTableError(f"{where}: {key} must be hole cards such as \"AKs\" or \"22-TT\", got {text!r}")
    try:
        found = parse_range(text)
    except CardlabError as error:
        raise PayTableError(f"{where}: {key}: {error}") from None
    if (found.weights != 1).any():
        raise PayTableError(f"{where}: {key} {text!r}: a pay line takes whole hands, without weights")
    return frozenset((int(min(a, b)), int(max(a, b))) for a, b in found.combos.tolist())


def _line(entry: object, where: str, cards: int) -> SideLine:
    if not isinstance(entry, dict):
        raise PayTableError(f"{where}: expected a table with hand= and pays= (or percent_of_meter=)")
    keys = ("name", "hand", "pays", "percent_of_meter") + (("dealer",) if cards == 2 else ("ranks",))
    _check_keys(entry, keys, where)
    hand = entry.get("hand")
    if not isinstance(hand, str) or not hand.strip():
        raise PayTableError(f"{where}: hand must be text such as " +
                            ("\"AKs\" or \"22-TT\"" if cards == 2 else "\"three of a kind\"") + f", got {hand!r}")
    if "pays" not in entry and "percent_of_meter" not in entry:
        raise PayTableError(f"{where} ({hand}): give pays = (to one) or percent_of_meter =")
    pays = parse_pay(entry.get("pays", 0), f"{where} ({hand})")
    percent = parse_pay(entry.get("percent_of_meter", 0), f"{where} ({hand}): percent_of_meter")
    if percent > 100:
        raise PayTableError(f"{where} ({hand}): percent_of_meter must be 0..100, got {entry['percent_of_meter']!r}")
    name = entry.get("name", hand)
    if not isinstance(name, str) or not name.strip():
        raise PayTableError(f"{where}: name must be text")
    if cards == 2:
        dealer = _holes(entry["dealer"], where, "dealer") if "dealer" in entry else frozenset()
        if "dealer" in entry and "name" not in entry:
            name = f"{hand.strip()}, dealer {str(entry['dealer']).strip()}"
        return SideLine(name.strip(), -1, pays, percent / 100, holes=_holes(hand, where, "hand"), dealer=dealer)
    word = " ".join(hand.lower().split())
    if word not in CATEGORIES:
        raise PayTableError(f"{where}: unknown hand '{hand}' (expected one of: {', '.join(CATEGORIES)})")
    ranks: frozenset[int] = frozenset()
    if "ranks" in entry:
        if word not in ("pair", "three of a kind") or cards != 5:
            raise PayTableError(f"{where} ({hand}): ranks are read for a pair or three of a kind of five cards only")
        ranks = parse_rank_set(entry["ranks"], "ranks", where)
    return SideLine(name.strip(), CATEGORIES.index(word), pays, percent / 100, ranks=ranks)


def parse_side_bets(data: object, source: str, kind: str) -> tuple[PokerSideBet, ...]:
    """The ``[[side_bet]]`` tables of a game of :data:`SIDE_CARDS` (see the module docstring);
    an error quotes a long name or hand cut short."""
    try:
        return _side_bets(data, source, kind)
    except PayTableError as error:
        raise PayTableError(shortened(str(error))) from None


def _side_bets(data: object, source: str, kind: str) -> tuple[PokerSideBet, ...]:
    if data is None:
        return ()
    if not isinstance(data, list) or len(data) > MAX_SIDE_BETS:
        raise PayTableError(f"{source}: side_bet must be a list of at most {MAX_SIDE_BETS} [[side_bet]] tables")
    bets = []
    for number, entry in enumerate(data, 1):
        where = f"{source}: side bet {number}"
        if not isinstance(entry, dict):
            raise PayTableError(f"{where}: expected a table with name= and [[side_bet.pays]]")
        _check_keys(entry, ("name", "cards", "pays", "meter", "pays_for_one"), where)
        name = entry.get("name", f"side bet {number}")
        if not isinstance(name, str) or not name.strip():
            raise PayTableError(f"{where}: name must be text")
        where = f"{where} ({name.strip() if len(name) <= 60 else shown_text(name.strip())})"
        allowed = SIDE_CARDS[kind]
        cards = entry.get("cards", allowed[0])
        if isinstance(cards, bool) or cards not in allowed:
            said = f"one of {', '.join(map(str, allowed))}" if len(allowed) > 1 else str(allowed[0])
            raise PayTableError(f"{where}: cards must be {said} in this game, not {cards!r}")
        lines = entry.get("pays")
        if not isinstance(lines, list) or not 1 <= len(lines) <= _MAX_LINES:
            raise PayTableError(f"{where}: give 1..{_MAX_LINES} [[side_bet.pays]] lines")
        parsed = tuple(_line(line, f"{where}: line {i}", cards) for i, line in enumerate(lines, 1))
        meter = None
        if "meter" in entry:
            meter = parse_pay(entry["meter"], f"{where}: meter")
        for_one = entry.get("pays_for_one", False)
        if not isinstance(for_one, bool):
            raise PayTableError(f"{where}: pays_for_one must be true or false, got {for_one!r}")
        bet = PokerSideBet(name.strip(), cards, parsed, meter, for_one)
        if meter is not None and not bet.progressive:
            raise PayTableError(f"{where}: meter is given but no line pays percent_of_meter")
        if meter is None and bet.progressive:
            line = next(line for line in parsed if line.meter_share)
            raise PayTableError(f"{where}: line '{line.name}' pays percent_of_meter but the bet has no meter: give "
                                "meter = (the jackpot now, in units of the bet; --meter changes it)")
        bets.append(bet)
    return tuple(bets)


def with_meter(bet: PokerSideBet, meter: object, source: str = "meter") -> PokerSideBet:
    """The bet with its meter set (a progressive's only; a number 0..10,000,000).

    >>> bet = PokerSideBet("Jackpot", 5, (SideLine("royal flush", 9, Fraction(0), Fraction(1)),), Fraction(10))
    >>> with_meter(bet, 250_000).meter
    Fraction(250000, 1)
    >>> with_meter(bet, "lots")
    Traceback (most recent call last):
    ...
    cardlab.errors.PayTableError: meter: the meter must be a number from 0 to 10,000,000 with at most 4 decimals, got 'lots'
    """
    if not bet.progressive:
        return bet
    try:
        return replace(bet, meter=parse_pay(meter, source))
    except PayTableError:
        raise PayTableError(f"{source}: the meter must be a number from 0 to 10,000,000 with at most 4 decimals, "
                            f"got {meter!r}") from None


def _strengths(cards: Sequence[int], hands: np.ndarray) -> np.ndarray:
    from cardlab.poker.evaluator import strengths

    deck = np.array(cards, dtype=np.uint8)
    out: np.ndarray = strengths(deck[hands]).astype(np.int64)
    return out


def _line_of_strength(bet: PokerSideBet, strength: np.ndarray) -> np.ndarray:
    """The line (index; len(lines) for nothing) each five- or seven-card strength takes."""
    category = strength >> SHIFT
    top = (strength >> 16) & 15
    line = np.full(len(strength), len(bet.lines), dtype=np.int64)
    for i in range(len(bet.lines) - 1, -1, -1):  # the first line a hand matches wins
        at = bet.lines[i]
        hit = category == at.category
        if at.ranks:
            hit &= np.isin(top, list(at.ranks))
        line[hit] = i
    return line


_CHUNK = 1 << 19


@lru_cache(maxsize=8)
def _category_counts(cards: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The deck's k-card hands by category (:data:`CATEGORIES`), counted by the compiled core once
    per deck and size (a pay table changed and analysed again is not counted again)."""
    from cardlab.poker.evaluator import count_subsets

    return tuple(count_subsets(cards, k)[:len(CATEGORIES)])


def _hand_counts(bet: PokerSideBet, cards: Sequence[int]) -> list[int]:
    """Every hand of ``bet.cards`` cards of the deck by the line it takes, the nothing last."""
    from cardlab.casino.simulation import positions_of

    counts = [0] * (len(bet.lines) + 1)
    if not any(line.ranks for line in bet.lines):
        for category, count in enumerate(_category_counts(tuple(sorted(cards)), bet.cards)):
            at = next((i for i, line in enumerate(bet.lines) if line.category == category), len(bet.lines))
            counts[at] += count
        return counts
    total = comb(len(cards), bet.cards)
    for start in range(0, total, _CHUNK):
        hands = positions_of(np.arange(start, min(total, start + _CHUNK)), bet.cards)
        found = np.bincount(_line_of_strength(bet, _strengths(cards, hands)), minlength=len(bet.lines) + 1)
        counts = [a + int(b) for a, b in zip(counts, found.tolist())]
    return counts


def _combo_masks(bet: PokerSideBet, combos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per line, which of ``combos`` (card id pairs, low first) the player's and the dealer's
    hole cards may be (lines x combos booleans)."""
    player = np.stack([_in(combos, line.holes) for line in bet.lines])
    dealer = np.stack([_in(combos, line.dealer) if line.dealer else np.ones(len(combos), dtype=bool)
                       for line in bet.lines])
    return player, dealer


def _hole_counts(bet: PokerSideBet, cards: Sequence[int]) -> list[int]:
    """Every (player, dealer) pair of hole cards of the deck by the line it takes."""
    ids = np.array(sorted(cards), dtype=np.int64)
    i, j = np.triu_indices(len(ids), 1)
    combos = np.stack([ids[i], ids[j]], axis=1)
    player, dealer = _combo_masks(bet, combos)
    bits = (np.int64(1) << combos[:, 0]) | (np.int64(1) << combos[:, 1])
    counts = [0] * (len(bet.lines) + 1)
    rows = 256  # player combos at a time: a (rows x combos) table per line
    for start in range(0, len(combos), rows):
        mine = slice(start, start + rows)
        apart = (bits[mine, None] & bits[None, :]) == 0
        free = apart.copy()
        for k in range(len(bet.lines)):
            hit = free & player[k, mine, None] & dealer[k, None, :]
            counts[k] += int(hit.sum())
            free &= ~hit
        counts[-1] += int(free.sum())
    return counts


def _nets(bet: PokerSideBet, meter: Fraction) -> list[Fraction]:
    """Each line's net per unit bet at that meter (the nothing last: -1)."""
    lost = 1 if bet.for_one else 0
    return [line.pays + line.meter_share * meter - lost for line in bet.lines] + [Fraction(-1)]


def side_bet_analysis(bet: PokerSideBet, cards: Sequence[int]) -> BetAnalysis:
    """The exact figures of a side bet on a deck (card ids): every hand counted by its line,
    and for a progressive the return as a function of the meter (:class:`MeterReturn`)."""
    if bet.progressive and bet.meter is None:
        raise PayTableError(f"side bet {bet.name!r} pays a share of the meter: give its meter = (the jackpot, in "
                            "units of the bet) or --meter")
    counts = _hole_counts(bet, cards) if bet.cards == 2 else _hand_counts(bet, cards)
    meter = bet.meter or Fraction(0)
    nets = _nets(bet, meter)
    total = sum(counts)
    expected = sum((net * n for net, n in zip(nets, counts)), Fraction(0)) / total
    rows = tuple(OutcomeRow(name, n, net) for name, n, net in
                 zip([line.name for line in bet.lines] + [_NOTHING], counts, nets))
    progressive = None
    if bet.progressive:
        per_unit = sum((line.meter_share * n for line, n in zip(bet.lines, counts)), Fraction(0)) / total
        progressive = MeterReturn(meter, expected - per_unit * meter, per_unit)
    return BetAnalysis(bet.name, expected, Fraction(1), sd_of(list(zip(nets, counts))), total, rows,
                       progressive=progressive)


def side_bet_net(bet: PokerSideBet, cards: Sequence[int]) -> Callable[[np.ndarray], np.ndarray]:
    """The net of a side bet for simulated deals (rows of deck positions, the player's cards
    first, the dealer's hole cards at :data:`DEALER_HOLE`), each hand looked up on its own."""
    mine, theirs = list(range(bet.cards)), list(DEALER_HOLE)
    nets = np.array([float(n) for n in _nets(bet, bet.meter or Fraction(0))])
    deck = np.array(cards, dtype=np.int64)
    if bet.cards == 2:
        player_sets = [line.holes for line in bet.lines]
        dealer_sets = [line.dealer for line in bet.lines]

        def hole_net(positions: np.ndarray) -> np.ndarray:
            out = np.full(len(positions), nets[-1])
            done = np.zeros(len(positions), dtype=bool)
            for k in range(len(bet.lines)):
                hit = ~done & _in(deck[positions[:, mine]], player_sets[k])
                if dealer_sets[k]:
                    hit &= _in(deck[positions[:, theirs]], dealer_sets[k])
                out[hit] = nets[k]
                done |= hit
            return out

        return hole_net

    def hand_net(positions: np.ndarray) -> np.ndarray:
        out: np.ndarray = nets[_line_of_strength(bet, _strengths(cards, positions[:, mine]))]
        return out

    return hand_net


def _in(pairs: np.ndarray, combos: frozenset[tuple[int, int]]) -> np.ndarray:
    """Whether each row of two card ids is one of ``combos``."""
    key = np.minimum(pairs[:, 0], pairs[:, 1]) * 52 + np.maximum(pairs[:, 0], pairs[:, 1])
    out: np.ndarray = np.isin(key, np.array([a * 52 + b for a, b in combos], dtype=np.int64))
    return out
