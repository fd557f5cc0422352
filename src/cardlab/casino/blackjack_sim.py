"""Blackjack shoe simulation: a cut card, a point count, a bet spread by the true count and the
risk of ruin, played by the basic strategy the exact engine chooses (docs/casino.md).

:func:`simulate_shoe` deals rounds from a shuffled shoe in the compiled core
(``csrc/blackjack_sim.c``, the GIL released), in chunks seeded from one seed so the figures are
the same for any number of workers. Each round is played by a table strategy
(:class:`~cardlab.casino.blackjack.Strategy`, by default
:func:`~cardlab.casino.blackjack.basic_strategy` of the rules) exactly as the exact engine plays
it: the two-card decision from the table (double or surrender when the rules allow, else the
hit/stand rule), three or more cards by the hit/stand rule, a pair split into as many hands as the
rules allow (each hand dealt its second card and played in turn, a second card of the pair's rank
splitting again; split aces take one card and resplit only when the rules say so, a split hand of
21 stands, doubling after a split under DAS), the dealer peeking under
an ace or a ten (or, with no hole card, taking every bet with a blackjack). Early surrender,
when the rules offer it, comes first; insurance by the true count and index plays (deviations
by the true count, :func:`parse_indexes`) are played when asked for.

With ``penetration=0`` the shoe is shuffled before every round ("the top of the shoe"): the
mean result per round is then the exact house edge of the same strategy, within its interval.
With a cut card the count (``count``: tag values of A, 2, ..., 9, T) is kept from the cards
seen, the true count is the running count times 52 over the cards left (floored, the cards left
counted exactly), and the bet is the ``spread``'s bet at that true count.

>>> sim = simulate_shoe(Rules(decks=6), penetration=0.75, spread="1,2:2,3:4,4:8", trials=20_000, seed=1,
...                     strategy=FLAT_TEST_STRATEGY)
>>> sim.rounds >= 20_000, sim.spread[22], sim.count
(True, 2, 'hi-lo')
>>> simulate_shoe(Rules(decks=6), spread="1,3:0", trials=10, strategy=FLAT_TEST_STRATEGY)
Traceback (most recent call last):
...
cardlab.errors.BlackjackError: a bet is a whole number of units from 1 to 1000, got '0' in '1,3:0'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, NamedTuple, Sequence

import numpy as np

from cardlab.casino.blackjack import Strategy, basic_strategy, house_edge
from cardlab.casino.blackjack_engine import total_of, hand_of
from cardlab.casino.blackjack_rules import RANKS, Rules, checked_rules
from cardlab.cores import available_cores
from cardlab.distribution import Simulation
from cardlab.engine import Executor, SeedLike, check_count, kernel_state, reduce_chunks, resolve_seed
from cardlab.errors import BlackjackError, whole_argument
from cardlab.intervals import Interval, mean_interval
from cardlab.results import JsonText, csv_rows

__all__ = ["COUNTS", "TC_MAX", "MAX_BET", "CHUNK", "INDEX_SETS", "INSURANCE_INDEX", "IndexPlay", "ShoeSimulation",
           "simulate_shoe", "strategy_table", "parse_count", "parse_spread", "parse_indexes", "insurance_index",
           "risk_of_ruin", "play_stacked", "FLAT_TEST_STRATEGY"]

#: Point counts by name: the tag of A, 2, 3, ..., 9, T (all balanced: a deck's tags sum to 0).
#: Source of the tag values: each system's author as tabulated on the Wizard of Odds "Card
#: Counting" page (Hi-Lo: Harvey Dubner; Hi-Opt I/II: Lance Humble, Charles Einstein; Omega II:
#: Bryce Carlson; Zen: Arnold Snyder).
COUNTS: dict[str, tuple[int, ...]] = {
    "hi-lo": (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    "hi-opt-i": (0, 0, 1, 1, 1, 1, 0, 0, 0, -1),
    "hi-opt-ii": (0, 1, 1, 2, 2, 1, 1, 0, 0, -2),
    "omega-ii": (0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
    "zen": (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
}
TC_MAX = 20
"""True counts beyond +-20 are bet and tallied as +-20 (the kernel's bins)."""
MAX_BET = 1000
"""The largest bet of a spread, in units (the kernel's sums stay exact in 64 bits)."""
CHUNK = 1_000_000
"""Rounds per chunk (then on to the end of that chunk's last shoe): a few tens of milliseconds."""
_CODE = {"H": 0, "S": 1, "D": 2, "Ds": 2, "R": 3, "P": 4}
_BINS = 2 * TC_MAX + 1
_TOTALS = 11
_INSURE_NEVER = 1000
#: Index plays by name, for Hi-Lo (floored true count; multi-deck, S17): Don Schlesinger's
#: "Illustrious 18" less insurance (its first entry, here ``insurance=``) and his "Fab 4"
#: late-surrender indexes, both from *Blackjack Attack* (3rd ed., 2005, chapter 5).
INDEX_SETS: dict[str, str] = {
    "i18": "16v10:0:stand,15v10:4:stand,10-10v5:5:split,10-10v6:4:split,10v10:4:double,12v3:2:stand,"
           "12v2:3:stand,11vA:1:double,9v2:1:double,10vA:4:double,9v7:3:double,16v9:5:stand,13v2:<-1:hit,"
           "12v4:<0:hit,12v5:<-2:hit,12v6:<-1:hit,13v3:<-2:hit",
    "fab4": "14v10:3:surrender,15v10:0:surrender,15v9:2:surrender,15vA:1:surrender",
}
INSURANCE_INDEX: dict[str, int] = {"hi-lo": 3}
"""The true count from which a count insures by default (Hi-Lo: +3, the Illustrious 18's first
entry); other counts need the index given."""
_ACTIONS = {"hit": 0, "h": 0, "stand": 1, "s": 1, "double": 2, "d": 2, "surrender": 3, "r": 3, "split": 4, "p": 4}
_DEV_CELLS, _DEV_MAX, _DEV_PAIRS = 540, 4, 440
_DEV_SIZE = 1 + 3 * _DEV_MAX


def strategy_table(strategy: Strategy) -> bytes:
    """The strategy as the kernel reads it (``csrc/blackjack_sim.c``): for every soft flag, total
    and up card the two-card decision (hit 0, stand 1, double 2, surrender 3, each falling back
    to the hit/stand rule when the rules forbid it), that fallback, the decision on each pair
    (split 4) and the rule for three or more cards; the same decisions as
    :meth:`Strategy.decide <cardlab.casino.blackjack.Strategy.decide>` and the exact engine.

    >>> len(strategy_table(FLAT_TEST_STRATEGY))
    1420
    """
    first = np.zeros((2, 22, 10), dtype=np.uint8)
    fallback = np.zeros((2, 22, 10), dtype=np.uint8)
    pair = np.zeros((10, 10), dtype=np.uint8)
    hit = np.zeros((2, 22, 10), dtype=np.uint8)
    for soft in (0, 1):
        for total in range(22):
            for up in range(10):
                rule = strategy.hit_rule.get((bool(soft), total, up))
                fall = total < 17 if rule is None else rule  # Strategy.decide's fallback
                fallback[soft, total, up] = fall
                hit[soft, total, up] = bool(rule) and total < 21  # the engine's plan: unlisted totals stand
                letter = strategy.letters.get(("soft" if soft else "hard", total, up), "H" if fall else "S")
                first[soft, total, up] = _CODE.get(letter, 0 if fall else 1)
    for rank in range(10):
        total, soft = total_of(hand_of(rank, rank))
        for up in range(10):
            own = first[int(soft), total, up]
            chosen = strategy.letters.get(("pair", rank, up))
            pair[rank, up] = own if chosen is None or chosen not in _CODE else _CODE[chosen]
    return b"".join(a.tobytes() for a in (first, fallback, pair, hit))


def _test_strategy() -> Strategy:
    """A small fixed strategy for examples: stand on 17 or more, double 11, split aces and eights."""
    letters: dict[tuple[str, int, int], str] = {}
    hits: dict[tuple[bool, int, int], bool] = {}
    for up in range(10):
        for total in range(4, 22):
            hits[(False, total, up)] = total < 17
            letters[("hard", total, up)] = "D" if total == 11 else "H" if total < 17 else "S"
        for total in range(12, 22):
            hits[(True, total, up)] = total < 18
            letters[("soft", total, up)] = "H" if total < 18 else "S"
        letters[("pair", 0, up)] = letters[("pair", 7, up)] = "P"
    return Strategy(letters, hits)


FLAT_TEST_STRATEGY = _test_strategy()
"""A simple fixed strategy (hit to hard 17 and soft 18, double 11, split aces and eights) for
examples and tests that need no exact analysis first."""


def parse_count(spec: str | Sequence[int]) -> tuple[str, tuple[int, ...]]:
    """A count by name (:data:`COUNTS`) or as ten tags A,2,...,9,T (whole numbers -10..10): its
    name and tags.

    >>> parse_count("hi-lo")
    ('hi-lo', (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1))
    >>> parse_count("0,1,1,1,1,1,0,0,0,-1")[1][1]
    1
    >>> parse_count("lo-hi")
    Traceback (most recent call last):
    ...
    cardlab.errors.BlackjackError: unknown count 'lo-hi': give one of hi-lo, hi-opt-i, hi-opt-ii, omega-ii, zen or ten tags A,2,...,9,T
    """
    if isinstance(spec, str):
        name = spec.strip().lower()
        if name in COUNTS:
            return name, COUNTS[name]
        parts = spec.split(",")
        if len(spec) > 200 or len(parts) != 10 or not all(p.strip().lstrip("+-").isdigit() for p in parts):
            raise BlackjackError(f"unknown count '{spec[:200]}': give one of {', '.join(COUNTS)} or ten tags "
                                 "A,2,...,9,T")
        tags = tuple(int(p) for p in parts)
        name = "tags " + ",".join(map(str, tags))
    else:
        if not isinstance(spec, (tuple, list)):
            raise BlackjackError(f"a count is a name or ten whole-number tags A,2,...,9,T, got {spec!r:.60}")
        tags = tuple(spec)
        name = "tags " + ",".join(f"{t!r:.20}" for t in tags)
        if len(tags) != 10 or not all(isinstance(t, int) and not isinstance(t, bool) for t in tags):
            raise BlackjackError(f"a count is ten whole-number tags A,2,...,9,T, got {spec!r}")
    if not all(-10 <= t <= 10 for t in tags):
        raise BlackjackError(f"a tag is a whole number from -10 to 10, got {name[5:]}")
    return name, tags


def parse_spread(spec: str | Mapping[int, int] | None) -> tuple[int, ...]:
    """The bet at each true count -20..20 from a spread: ``"1,2:2,3:4,4:8"`` bets 1 unit, 2 from
    a true count of 2, 4 from 3 and 8 from 4 (a mapping ``{true count: bet}`` says the same, its
    lowest entry applying below it too); None bets 1 unit always.

    >>> s = parse_spread("1,2:2,3:4,4:8")
    >>> s[TC_MAX - 5], s[TC_MAX + 1], s[TC_MAX + 2], s[TC_MAX + 9]
    (1, 1, 2, 8)
    >>> parse_spread("1,2:2,1:4")
    Traceback (most recent call last):
    ...
    cardlab.errors.BlackjackError: the true counts of a spread rise from left to right, got '1,2:2,1:4'
    """
    if spec is None:
        return (1,) * _BINS
    if not isinstance(spec, (str, Mapping)):
        raise BlackjackError(f"a spread is text such as '1,2:2,3:4' or a mapping {{true count: bet}}, got {spec!r:.60}")
    steps: list[tuple[int, int]] = []
    text = spec if isinstance(spec, str) else ",".join(f"{k}:{v}" for k, v in sorted(spec.items()))
    if len(text) > 1000:
        raise BlackjackError("a spread is at most 1000 characters")
    for number, part in enumerate(text.split(",")):
        count_text, _, bet_text = part.strip().rpartition(":")
        if number == 0 and not count_text and isinstance(spec, str):
            count_text = str(-TC_MAX)
        try:
            count, bet = int(count_text), int(bet_text)
        except ValueError:
            raise BlackjackError(f"a spread is a base bet then TRUE_COUNT:BET items, e.g. '1,2:2,3:4', "
                                 f"got '{text}'") from None
        if not 1 <= bet <= MAX_BET:
            raise BlackjackError(f"a bet is a whole number of units from 1 to {MAX_BET}, got '{bet_text}' in '{text}'")
        if not -TC_MAX <= count <= TC_MAX:
            raise BlackjackError(f"a spread's true counts run from -{TC_MAX} to {TC_MAX}, got '{count_text}'")
        if steps and count <= steps[-1][0]:
            raise BlackjackError(f"the true counts of a spread rise from left to right, got '{text}'")
        steps.append((count, bet))
    bets = []
    for tc in range(-TC_MAX, TC_MAX + 1):
        chosen = [bet for count, bet in steps if count <= tc]
        bets.append(chosen[-1] if chosen else steps[0][1])
    return tuple(bets)


class IndexPlay(NamedTuple):
    """One index play: against ``up`` (0 = ace .. 9 = ten), a ``kind`` of hand ("hard", "soft"
    or "pair") of ``value`` (its total, or its pair's rank code) takes ``action`` at a true count
    of ``tc`` or more (``below``: under ``tc``)."""

    kind: str
    value: int
    up: int
    below: bool
    tc: int
    action: str


def _card(text: str, item: str) -> int:
    """A rank code from 'A', '2'..'10' or 'T'."""
    text = text.strip().upper()
    if text == "A":
        return 0
    if text in ("T", "10"):
        return 9
    if len(text) == 1 and "2" <= text <= "9":
        return int(text) - 1
    raise BlackjackError(f"an index play's card is A, 2..9, 10 or T, got '{text}' in '{item}'")


def _index_play(item: str) -> IndexPlay:
    """``HANDvUP:INDEX:ACTION`` (e.g. ``16v10:0:stand``, ``12v4:<0:hit``, ``A7v2:1:double``,
    ``10-10v6:4:split``) as an :class:`IndexPlay`."""
    parts = item.split(":")
    hand, sep, up_text = parts[0].lower().partition("v")
    if len(parts) != 3 or not sep:
        raise BlackjackError(f"an index play is HANDvUP:INDEX:ACTION, e.g. 16v10:0:stand or 12v4:<0:hit, got '{item}'")
    up = _card(up_text, item)
    hand = hand.strip().upper()
    if "-" in hand:
        first, _, second = hand.partition("-")
        kind, value = "pair", _card(first, item)
        if _card(second, item) != value:
            raise BlackjackError(f"a pair is two cards of one rank, got '{hand}' in '{item}'")
    elif hand.startswith("A") and len(hand) == 2 and "2" <= hand[1] <= "9":
        kind, value = "soft", 12 + int(hand[1]) - 1
    elif hand.isdigit() and 4 <= int(hand) <= 20:
        kind, value = "hard", int(hand)
    else:
        raise BlackjackError(f"an index play's hand is a hard total 4..20, a soft A2..A9 or a pair like 8-8, "
                             f"got '{hand}' in '{item}'")
    index_text = parts[1].strip()
    below = index_text.startswith("<")
    try:
        index = int(index_text.lstrip("<"))
    except ValueError:
        raise BlackjackError(f"an index is a whole true count, '<' before it for 'below', got '{index_text}' "
                             f"in '{item}'") from None
    if not -TC_MAX <= index <= TC_MAX:
        raise BlackjackError(f"an index runs from -{TC_MAX} to {TC_MAX}, got '{index_text}' in '{item}'")
    action = parts[2].strip().lower()
    if action not in _ACTIONS:
        raise BlackjackError(f"an index play's action is hit, stand, double, split or surrender, got '{action}' "
                             f"in '{item}'")
    action = [name for name in _ACTIONS if len(name) > 1 and _ACTIONS[name] == _ACTIONS[action]][0]
    if action == "split" and kind != "pair":
        raise BlackjackError(f"only a pair splits, got '{item}'")
    return IndexPlay(kind, value, up, below, index, action)


def parse_indexes(spec: str | Sequence[IndexPlay] | None) -> tuple[IndexPlay, ...]:
    """Index plays from a comma-separated list of names of :data:`INDEX_SETS` and plays
    ``HANDvUP:INDEX:ACTION``: the hand (a hard total ``16``, a soft ``A7``, a pair ``8-8``)
    against the up card takes the action (hit, stand, double, split, surrender) at a true count
    of INDEX or more, or with ``<INDEX`` below it. At most four per hand and up card, the first
    that fires wins (a surrender index decides the surrender, the others the play: see
    docs/casino.md).

    >>> parse_indexes("16v10:0:stand,12v4:<0:hit")
    (IndexPlay(kind='hard', value=16, up=9, below=False, tc=0, action='stand'), IndexPlay(kind='hard', value=12, up=3, below=True, tc=0, action='hit'))
    >>> len(parse_indexes("i18,fab4"))
    21
    >>> parse_indexes("16v11:0:stand")
    Traceback (most recent call last):
    ...
    cardlab.errors.BlackjackError: an index play's card is A, 2..9, 10 or T, got '11' in '16v11:0:stand'
    """
    if spec is None:
        return ()
    if not isinstance(spec, str):
        plays = tuple(spec)
        if not all(isinstance(p, IndexPlay) for p in plays):
            raise BlackjackError("index plays are a string like '16v10:0:stand,i18' or IndexPlay items")
        plays = tuple(_index_play(f"{_hand_text(p)}v{'A' if p.up == 0 else p.up + 1}:{'<' if p.below else ''}"
                                  f"{p.tc}:{p.action}") for p in plays)
    else:
        if len(spec) > 4000:
            raise BlackjackError("index plays are at most 4000 characters")
        items = [item.strip() for item in spec.split(",") if item.strip()]
        plays = tuple(play for item in items
                      for play in (parse_indexes(INDEX_SETS[item.lower()]) if item.lower() in INDEX_SETS
                                   else (_index_play(item),)))
    if len(plays) > 200:
        raise BlackjackError(f"at most 200 index plays, got {len(plays)}")
    cells: dict[tuple[str, int, int], int] = {}
    for play in plays:
        key = (play.kind, play.value, play.up)
        cells[key] = cells.get(key, 0) + 1
        if cells[key] > _DEV_MAX:
            raise BlackjackError(f"at most {_DEV_MAX} index plays for one hand and up card, got more for "
                                 f"'{_hand_text(play)}v{'A' if play.up == 0 else play.up + 1}'")
    return plays


def _hand_text(play: IndexPlay) -> str:
    """The hand of an index play as it is written."""
    if play.kind == "pair":
        card = "A" if play.value == 0 else str(play.value + 1)
        return f"{card}-{card}"
    return f"A{play.value - 11}" if play.kind == "soft" else str(play.value)


def _index_table(plays: Sequence[IndexPlay]) -> bytes:
    """The plays as the kernel reads them (``csrc/blackjack_sim.c``); empty without plays."""
    if not plays:
        return b""
    table = np.zeros((_DEV_CELLS, _DEV_SIZE), dtype=np.int8)
    for play in plays:
        if play.kind == "pair":
            cell = _DEV_PAIRS + play.value * 10 + play.up
        else:
            cell = ((play.kind == "soft") * 22 + play.value) * 10 + play.up
        n = table[cell, 0]
        table[cell, 1 + 3 * n:4 + 3 * n] = (int(play.below), play.tc, _ACTIONS[play.action])
        table[cell, 0] = n + 1
    return table.tobytes()


def _check_named_sets(indexes: str | Sequence[IndexPlay] | None, count: str) -> None:
    """The named index sets are Hi-Lo's true counts: refused with another count, whose true counts
    are on another scale (its plays are given by the user)."""
    if not isinstance(indexes, str) or count == "hi-lo":
        return
    named = [item.strip() for item in indexes.split(",") if item.strip().lower() in INDEX_SETS]
    if named:
        raise BlackjackError(f"the index set '{named[0]}' is Hi-Lo's true counts, not the count '{count}': "
                             "give that count's own plays, such as 16v10:0:stand")


def insurance_index(count: str, insurance: int | bool | None) -> int | None:
    """The true count from which to insure: ``None``/``False`` never, ``True`` the count's
    default (:data:`INSURANCE_INDEX`), a whole number -20..20 that index.

    >>> insurance_index("hi-lo", True), insurance_index("zen", 2), insurance_index("hi-lo", None)
    (3, 2, None)
    """
    if insurance is None or insurance is False:
        return None
    if insurance is True:
        if count not in INSURANCE_INDEX:
            raise BlackjackError(f"no default insurance index for the count '{count}': give the true count")
        return INSURANCE_INDEX[count]
    if not isinstance(insurance, int) or not -TC_MAX <= insurance <= TC_MAX:
        raise BlackjackError(f"the insurance index is a whole true count from -{TC_MAX} to {TC_MAX}, got '{insurance}'")
    return insurance


def risk_of_ruin(mean: float, variance: float, bankroll: float) -> float:
    """The chance of ever losing ``bankroll`` units playing on forever at ``mean`` units won per
    round with ``variance`` per round: exp(-2 mean bankroll / variance), the diffusion
    approximation (1 when the game does not win on average).

    >>> round(risk_of_ruin(0.02, 1.3 * 16, 400), 4)
    0.4634
    """
    if mean <= 0 or variance <= 0:
        return 1.0
    return math.exp(-2.0 * mean * bankroll / variance)


def _check_strategy(strategy: object) -> None:
    if not isinstance(strategy, Strategy):
        raise BlackjackError(f"the strategy must be a blackjack Strategy (cardlab.casino.blackjack.basic_strategy), "
                             f"not {type(strategy).__name__} {strategy!r:.40}")


def _rules_row(rules: Rules, insure: int | None = None) -> bytes:
    double = ("any", "9-11", "10-11").index(rules.double)
    bj10 = 15 if rules.blackjack_pays == 1.5 else 12
    return np.array([rules.h17, double, rules.das, rules.peek, bj10, rules.surrender or rules.early_surrender,
                     rules.early_surrender, _INSURE_NEVER if insure is None else insure, rules.split_hands,
                     rules.resplit_aces], dtype=np.int32).tobytes()


def _shoe_cards(rules: Rules) -> bytes:
    return bytes(rank for rank, count in enumerate(rules.cards) for _ in range(count))


@dataclass(frozen=True)
class _ShoeTask:
    """One chunk: ``n`` rounds from freshly shuffled shoes (then to the end of the last shoe)."""

    cards: bytes
    rules: bytes
    strategy: bytes
    tags: bytes
    spread: bytes
    cut: int
    indexes: bytes = b""
    releases_gil = True

    def __call__(self, seed: np.random.SeedSequence, n: int) -> np.ndarray:
        from cardlab._native import core as _core

        totals = np.zeros(_TOTALS, dtype=np.int64)
        bins = np.zeros(3 * _BINS, dtype=np.int64)
        _core.blackjack_play(self.cards, False, self.rules, self.strategy, self.tags, self.spread, self.cut, n,
                             self.cut > 0, kernel_state(seed), totals, bins, np.empty(0, dtype=np.int64),
                             self.indexes)
        return np.concatenate([totals, bins])


@lru_cache(maxsize=8)
def _basic(rules: Rules) -> tuple[Strategy, float]:
    """The exact engine's basic strategy for ``rules`` and its exact house edge (kept per rules:
    the analysis takes seconds)."""
    tables: dict[int, Any] = {}
    strategy = basic_strategy(rules, tables)
    return strategy, house_edge(rules, strategy, tables=tables)


@dataclass(frozen=True)
class ShoeSimulation(JsonText):
    """What :func:`simulate_shoe` found. Results are per round, in units of the base bet: ``flat``
    the result of betting one unit every round (the house edge is minus its mean), ``won`` that of
    betting the spread. ``bins`` has one row per true count: rounds and the flat mean there."""

    rules: Rules
    penetration: float
    count: str
    tags: tuple[int, ...]
    spread: tuple[int, ...]
    simulation: Simulation
    rounds: int
    hands: int
    shoes: int
    ran_out: int
    units_bet: int
    flat_sum: float
    flat_squares: float
    won_sum: float
    won_squares: float
    bins: tuple[tuple[int, int, float, float], ...]
    exact_edge: float | None = None
    bankroll: float | None = None
    insurance: int | None = None
    indexes: tuple[IndexPlay, ...] = ()
    insured: int = 0
    index_plays: int = 0

    @property
    def flat_mean(self) -> float:
        """Units won per round betting one unit every round (minus the house edge)."""
        return self.flat_sum / self.rounds if self.rounds else math.nan

    @property
    def flat_interval(self) -> Interval[float]:
        """95% interval of :attr:`flat_mean`."""
        return mean_interval(self.flat_sum, self.flat_squares, self.rounds)

    @property
    def won_mean(self) -> float:
        """Units won per round betting the spread."""
        return self.won_sum / self.rounds if self.rounds else math.nan

    @property
    def won_interval(self) -> Interval[float]:
        """95% interval of :attr:`won_mean`."""
        return mean_interval(self.won_sum, self.won_squares, self.rounds)

    @property
    def won_sd(self) -> float:
        """Standard deviation of a round's result betting the spread (units)."""
        if self.rounds < 2:
            return math.nan
        mean = self.won_mean
        return math.sqrt(max(self.won_squares / self.rounds - mean * mean, 0.0) * self.rounds / (self.rounds - 1))

    @property
    def average_bet(self) -> float:
        """Units bet per round on average (splits and doubles not counted)."""
        return self.units_bet / self.rounds if self.rounds else math.nan

    def ruin(self) -> tuple[float, Interval[float]] | None:
        """The risk of ruin of :attr:`bankroll` at the simulated win rate and variance, and its
        range over the win rate's 95% interval (None without a bankroll)."""
        if self.bankroll is None:
            return None
        variance = self.won_sd ** 2
        low, high = self.won_interval
        return (risk_of_ruin(self.won_mean, variance, self.bankroll),
                Interval(risk_of_ruin(high, variance, self.bankroll), risk_of_ruin(low, variance, self.bankroll)))

    def bin_rows(self) -> list[dict[str, Any]]:
        """One row per true count seen: rounds, their share, the flat mean and its 95% interval."""
        rows = []
        for tc, n, total, squares in self.bins:
            low, high = mean_interval(total, squares, n)
            rows.append({"true_count": tc, "rounds": n, "frequency": n / self.rounds, "flat_mean": total / n,
                         "low": low, "high": high})
        return rows

    def to_dict(self) -> dict[str, Any]:
        """Plain data: rules, options, the results with their intervals, per true count rows."""
        ruin = self.ruin()
        return {"rules": self.rules.describe(post_split=False), "penetration": self.penetration, "count": self.count,
                "tags": dict(zip(RANKS, self.tags)),
                "spread": {str(tc): bet for tc, bet in zip(range(-TC_MAX, TC_MAX + 1), self.spread)},
                "requested": self.simulation.requested, "interrupted": self.simulation.interrupted,
                "seed": self.simulation.seed, "rounds": self.rounds, "hands": self.hands, "shoes": self.shoes,
                "shoe_ran_out": self.ran_out,
                "flat": {"mean": self.flat_mean, "low": self.flat_interval.low, "high": self.flat_interval.high},
                "exact_house_edge": self.exact_edge,
                "spread_result": {"mean": self.won_mean, "low": self.won_interval.low,
                                  "high": self.won_interval.high, "sd": self.won_sd,
                                  "average_bet": self.average_bet},
                "bankroll": self.bankroll, "insurance_index": self.insurance, "rounds_insured": self.insured,
                "index_plays": [f"{_hand_text(p)}v{'A' if p.up == 0 else p.up + 1}:{'<' if p.below else ''}"
                                f"{p.tc}:{p.action}" for p in self.indexes],
                "index_plays_fired": self.index_plays,
                "risk_of_ruin": None if ruin is None else {"value": ruin[0], "low": ruin[1].low, "high": ruin[1].high},
                "true_counts": self.bin_rows()}

    def to_csv(self) -> str:
        """The per true count rows as CSV."""
        return csv_rows(self.bin_rows(), ["true_count", "rounds", "frequency", "flat_mean", "low", "high"])

    def table(self) -> str:
        """The results as text: the flat result beside the exact house edge, the spread's win rate,
        risk of ruin, and the flat result at each true count."""
        from cardlab.textformat import text_table

        low, high = self.flat_interval
        pen = "reshuffled every round (the top of the shoe)" if self.penetration == 0 else \
            f"cut card at {self.penetration:.0%} of the shoe"
        lines = [f"Blackjack shoe simulation: {self.rules.describe(post_split=False)}",
                 f"{pen}; count {self.count}; {self.rounds:,} rounds ({self.hands:,} hands, {self.shoes:,} shoes), "
                 f"seed {self.simulation.seed}" + (" (interrupted)" if self.simulation.interrupted else ""),
                 f"flat bet: {self.flat_mean:+.4%} per round (95% {low:+.4%} to {high:+.4%})"]
        if self.insurance is not None or self.indexes:
            lines.append(("no insurance" if self.insurance is None else
                          f"insurance from a true count of {self.insurance:+d}: {self.insured:,} rounds insured")
                         + (f"; {len(self.indexes)} index plays, {self.index_plays:,} decisions by them"
                            if self.indexes else "; no index plays"))
        if self.exact_edge is not None and (self.insurance is not None or self.indexes):
            lines.append(f"exact, basic strategy alone, top of the shoe: {-self.exact_edge:+.4%} (the count's "
                         "plays change it)")
        elif self.exact_edge is not None:
            inside = ("inside" if low <= -self.exact_edge <= high else "OUTSIDE") + " the interval" \
                if self.penetration == 0 else "a cut card changes the flat result a little"
            lines.append(f"exact, same strategy, top of the shoe: {-self.exact_edge:+.4%} ({inside})")
        if self.penetration > 0:
            wl, wh = self.won_interval
            lines.append(f"bet spread: {self.won_mean:+.5f} units per round (95% {wl:+.5f} to {wh:+.5f}), "
                         f"{100 * self.won_mean:+.3f} per 100 rounds, average bet {self.average_bet:.3f}, "
                         f"sd {self.won_sd:.3f} per round")
        ruin = self.ruin()
        if ruin is not None:
            lines.append(f"risk of ruin with {self.bankroll:g} units: {ruin[0]:.2%} "
                         f"(over the win rate's 95% interval: {ruin[1].low:.2%} to {ruin[1].high:.2%})")
        if self.ran_out:
            lines.append(f"the shoe ran out in {self.ran_out:,} rounds (the discards were shuffled back)")
        if self.penetration > 0:
            lines += ["", text_table(["true count", "rounds", "share", "flat mean", "95% low", "95% high"],
                                     [(str(r["true_count"]), f"{r['rounds']:,}", f"{r['frequency']:.4f}",
                                       f"{r['flat_mean']:+.4%}", f"{r['low']:+.4%}", f"{r['high']:+.4%}")
                                      for r in self.bin_rows()])]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"<ShoeSimulation {self.rules.describe(post_split=False)}: {self.rounds:,} rounds, flat {self.flat_mean:+.4%}, "
                f"seed {self.simulation.seed}>")


def simulate_shoe(rules: Rules = Rules(), *, penetration: float = 0.75, count: str | Sequence[int] = "hi-lo",
                  spread: str | Mapping[int, int] | None = None, bankroll: float | None = None,
                  strategy: Strategy | None = None, trials: int = 1_000_000, seed: SeedLike = None,
                  workers: int = 1, progress: bool = False,
                  executor: Executor | str | None = None, insurance: int | bool | None = None,
                  indexes: str | Sequence[IndexPlay] | None = None) -> ShoeSimulation:
    """Play ``trials`` rounds (then on to the end of each chunk's last shoe) from a shuffled shoe
    of ``rules``, reshuffled once ``penetration`` of it is dealt (0: before every round), betting
    ``spread`` (:func:`parse_spread`) by the true count of ``count`` (:func:`parse_count`), and
    with ``bankroll`` (units) the risk of ruin. ``strategy`` defaults to the exact engine's basic
    strategy of the rules (computed once per rules, a few seconds), whose exact house edge is
    then shown beside the flat result. ``insurance``: insure against an ace (half the bet, paid
    2 to 1) at this true count or more (``True``: the count's default, +3 for Hi-Lo; None never);
    ``indexes``: index plays (:func:`parse_indexes`, e.g. ``"i18,fab4"``). Early surrender is
    played when the rules offer it.

    The same ``seed`` gives the same figures for any ``workers`` or ``executor``; Ctrl-C keeps the
    chunks done (``simulation.interrupted``).
    """
    rules = checked_rules(rules)
    trials = check_count(trials, "trials", BlackjackError)
    workers = check_count(workers, "workers", BlackjackError)
    if strategy is not None:
        _check_strategy(strategy)
    if trials > 10**12:
        raise BlackjackError(f"at most 10^12 rounds, got {trials:,}")
    if isinstance(penetration, bool) or not isinstance(penetration, (int, float)) or not 0 <= penetration < 1:
        raise BlackjackError(f"penetration is the share of the shoe dealt before the reshuffle, from 0 up to "
                             f"(not including) 1, got '{penetration}'")
    if bankroll is not None and (isinstance(bankroll, bool) or not isinstance(bankroll, (int, float))
                                 or not 0 < bankroll <= 1e12 or not math.isfinite(bankroll)):
        raise BlackjackError(f"the bankroll is a number of units above 0 (at most 10^12), got '{bankroll}'")
    name, tags = parse_count(count)
    bets = parse_spread(spread)
    insure = insurance_index(name, insurance)
    _check_named_sets(indexes, name)
    plays = parse_indexes(indexes)
    cards = _shoe_cards(rules)
    if len(cards) < 20:
        raise BlackjackError(f"the simulated shoe needs at least 20 cards, this one has {len(cards)}")
    exact_edge = None
    if strategy is None:
        strategy, exact_edge = _basic(rules)
    cut = round(penetration * len(cards))
    task = _ShoeTask(cards, _rules_row(rules, insure), strategy_table(strategy),
                     np.array(tags, dtype=np.int8).tobytes(), np.array(bets, dtype=np.int32).tobytes(), cut,
                     _index_table(plays))
    root, reported = resolve_seed(seed)
    run = reduce_chunks(task, trials, root, lambda total, part: total + part,
                        np.zeros(_TOTALS + 3 * _BINS, dtype=np.int64), chunk=CHUNK, workers=workers,
                        executor=executor, progress="simulating blackjack" if progress else None)
    totals, raw = run.value[:_TOTALS], run.value[_TOTALS:].reshape(3, _BINS)
    info = Simulation(trials=int(totals[0]), seed=reported, workers=min(workers, available_cores()),
                      requested=trials, interrupted=run.interrupted)
    bins = tuple((tc - TC_MAX, int(raw[0, tc]), float(raw[1, tc]) / 10, float(raw[2, tc]) / 100)
                 for tc in range(_BINS) if raw[0, tc])
    return ShoeSimulation(rules, float(penetration), name, tags, bets, info, int(totals[0]), int(totals[6]),
                          int(totals[7]), int(totals[8]), int(totals[1]), float(totals[4]) / 10,
                          float(totals[5]) / 100, float(totals[2]) / 10, float(totals[3]) / 100, bins,
                          exact_edge, None if bankroll is None else float(bankroll), insure, plays,
                          int(totals[9]), int(totals[10]))


def play_stacked(rules: Rules, strategy: Strategy, cards: Sequence[int], rounds: int = 1,
                 count: str | Sequence[int] = "hi-lo", spread: str | Mapping[int, int] | None = None,
                 insurance: int | bool | None = None, indexes: str | Sequence[IndexPlay] | None = None
                 ) -> list[dict[str, int | float]]:
    """Deal ``rounds`` rounds from a stacked shoe, ``cards`` (rank codes 0 = ace .. 9 = ten) in
    the order dealt (player, dealer up, player, dealer hole, then each card as drawn), never
    shuffled: per round the running and true count the bet was made at, the bet, the flat
    result (units, insurance included) and the cards used. For checking the play and the count
    by hand; ``insurance`` and ``indexes`` as in :func:`simulate_shoe`.

    >>> play_stacked(Rules(decks=1), FLAT_TEST_STRATEGY, [9, 9, 8, 7] + [5] * 30, rounds=2)
    [{'running': 0, 'true': 0, 'bet': 1, 'result': 1.0, 'cards': 4}, {'running': -2, 'true': -4, 'bet': 1, 'result': 0.0, 'cards': 6}]
    """
    from cardlab._native import core as _core

    rules = checked_rules(rules)
    _check_strategy(strategy)
    rounds = check_count(rounds, "rounds", BlackjackError)
    if rounds > 10_000:
        raise BlackjackError(f"at most 10,000 stacked rounds, got {rounds}")
    if isinstance(cards, (str, bytes)) or not 1 <= len(cards) <= 416:
        raise BlackjackError("a stacked shoe is 1 to 416 rank codes from 0 (ace) to 9 (ten)")
    deck = bytes(whole_argument(c, "a stacked shoe's rank code", BlackjackError, 0, 9) for c in cards)
    name, tags = parse_count(count)
    row = _rules_row(rules, insurance_index(name, insurance))
    trace = np.zeros(rounds * 5, dtype=np.int64)
    try:
        _core.blackjack_play(deck, True, row, strategy_table(strategy), np.array(tags, dtype=np.int8).tobytes(),
                             np.array(parse_spread(spread), dtype=np.int32).tobytes(), 0, rounds, False,
                             bytes(32), np.zeros(_TOTALS, dtype=np.int64), np.zeros(3 * _BINS, dtype=np.int64),
                             trace, _index_table(parse_indexes(indexes)))
    except ValueError as error:
        raise BlackjackError(f"stacked shoe: {error}".replace("blackjack_play: ", "")) from None
    return [{"running": int(r[0]), "true": int(r[1]), "bet": int(r[2]), "result": int(r[3]) / 10, "cards": int(r[4])}
            for r in trace.reshape(rounds, 5)]
