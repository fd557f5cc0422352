"""Blackjack rules and shoe compositions: what the exact engine (:mod:`cardlab.casino.blackjack`)
is told about the table.

A shoe is ten counts, of aces, twos, ..., nines and ten-valued cards (``RANKS``). Rules are a
frozen :class:`Rules`; :func:`shoe` builds a shoe of ``decks`` standard decks.

>>> Rules(decks=6).describe()
'6 decks, S17, double any two, DAS, peek, blackjack 3:2, no surrender'
>>> shoe(1)
(4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
>>> Rules(decks=9)
Traceback (most recent call last):
...
cardlab.errors.BlackjackError: decks must be a whole number from 1 to 8, got '9'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from numbers import Integral

from cardlab.errors import BlackjackError

__all__ = ["RANKS", "DOUBLE_RULES", "POST_SPLIT", "Rules", "shoe", "parse_shoe", "MAX_SHOE_CARDS", "hand_of", "total_of", "add_card",
           "checked_rules", "check_flag"]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""The ten blackjack ranks in the order of a shoe's counts (T is any ten-valued card)."""
DOUBLE_RULES = ("any", "9-11", "10-11")
"""Which first two cards may double: any two, hard 9 to 11, hard 10 and 11."""
POST_SPLIT = ("cdp1", "cdz")
"""How split hands are played by the composition-dependent strategy (the exact engines' names):
``cdp1`` the best play for a split hand's own cards with both pair cards out of the shoe, the
same for every split hand; ``cdz`` the pre-split best play (as if the hand were not split: the
other pair card still in the shoe)."""
MAX_SHOE_CARDS = 8 * 52
"""The largest shoe the engine takes (eight decks' worth of cards)."""


@dataclass(frozen=True)
class Rules:
    """The table's rules. ``composition`` (ten counts, A..T) replaces ``decks`` when given.

    ``h17``: the dealer hits soft 17. ``double``: one of :data:`DOUBLE_RULES`. ``das``: double
    after a split. ``peek``: the dealer checks for blackjack under an ace or a ten (without it,
    no hole card: a dealer blackjack takes every bet, doubles included). ``blackjack_pays``:
    3:2 or 6:5. ``surrender``: late surrender (after the peek; with no hole card it gives up
    half the bet before the dealer draws). ``early_surrender``: surrender before the dealer
    checks for blackjack (half the bet back even against a dealer blackjack; against up cards
    other than an ace or a ten it is late surrender). ``split_hands``: the most hands a pair may make
    (2 no resplit, 3 or 4); ``resplit_aces``: aces resplit too (else a split ace dealt an ace
    keeps it). ``post_split``: one of :data:`POST_SPLIT`.
    """

    decks: int = 6
    h17: bool = False
    double: str = "any"
    das: bool = True
    peek: bool = True
    blackjack_pays: Fraction = Fraction(3, 2)
    surrender: bool = False
    early_surrender: bool = False
    composition: tuple[int, ...] | None = None
    split_hands: int = 2
    resplit_aces: bool = False
    post_split: str = "cdp1"

    def __post_init__(self) -> None:
        for name in ("h17", "das", "peek", "surrender", "early_surrender", "resplit_aces"):
            check_flag(getattr(self, name), name.replace("_", " "))
        if isinstance(self.decks, bool) or not isinstance(self.decks, int) or not 1 <= self.decks <= 8:
            raise BlackjackError(f"decks must be a whole number from 1 to 8, got '{self.decks}'")
        if self.double not in DOUBLE_RULES:
            raise BlackjackError(f"double must be one of {', '.join(DOUBLE_RULES)}, got '{self.double}'")
        if self.blackjack_pays not in (Fraction(3, 2), Fraction(6, 5)):
            raise BlackjackError(f"blackjack pays 3:2 or 6:5, got '{self.blackjack_pays}'")
        if isinstance(self.split_hands, bool) or not isinstance(self.split_hands, Integral) or \
                self.split_hands not in (2, 3, 4):
            raise BlackjackError(f"split hands must be 2, 3 or 4, got '{self.split_hands}'")
        if self.post_split not in POST_SPLIT:
            raise BlackjackError(f"post-split strategy must be one of {', '.join(POST_SPLIT)}, got '{self.post_split}'")
        if self.composition is not None:
            _check_composition(self.composition, f"{self.composition!r:.200}")
            object.__setattr__(self, "composition", tuple(int(c) for c in self.composition))  # hashable, plain ints

    @property
    def cards(self) -> tuple[int, ...]:
        """The shoe's ten counts, A..T."""
        return self.composition if self.composition is not None else shoe(self.decks)

    def describe(self, post_split: bool = True) -> str:
        """The rules in one line, as tables are labelled (``post_split=False``: without the
        exact engine's post-split play, for a strategy table that plays split hands itself)."""
        size = (f"shoe {'-'.join(map(str, self.composition))}" if self.composition is not None
                else f"{self.decks} deck{'s' if self.decks > 1 else ''}")
        pays = "3:2" if self.blackjack_pays == Fraction(3, 2) else "6:5"
        return (f"{size}, {'H17' if self.h17 else 'S17'}, double "
                f"{'any two' if self.double == 'any' else self.double}, {'DAS' if self.das else 'no DAS'}, "
                f"{'peek' if self.peek else 'no hole card'}, blackjack {pays}, "
                f"{self._surrender()}{self._splits(post_split)}")

    def _surrender(self) -> str:
        """Which surrender the table offers."""
        return "early surrender" if self.early_surrender else "late surrender" if self.surrender else "no surrender"

    def _splits(self, post_split: bool = True) -> str:
        """The split rules when they differ from the default (no resplit, CDP1)."""
        if self.split_hands == 2 and (self.post_split == "cdp1" or not post_split):
            return ""
        hands = f"resplit to {self.split_hands} hands" if self.split_hands > 2 else "no resplit"
        aces = ", resplit aces" if self.resplit_aces and self.split_hands > 2 else ""
        return f", {hands}{aces}" + (f", post-split {self.post_split.upper()}" if post_split else "")


def shoe(decks: int) -> tuple[int, ...]:
    """The counts of ``decks`` standard decks: four of each rank A..9 per deck, sixteen tens."""
    return (4 * decks,) * 9 + (16 * decks,)


def parse_shoe(text: str) -> tuple[int, ...]:
    """Ten counts A,2,...,9,T separated by commas or dashes (a reduced or custom shoe).

    >>> parse_shoe("1,1,1,1,1,1,1,1,1,4")
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)
    >>> parse_shoe("4,x")
    Traceback (most recent call last):
    ...
    cardlab.errors.BlackjackError: a shoe is ten counts (A,2,...,9,T), got '4,x'
    """
    parts = text.replace("-", ",").split(",")
    if len(text) > 200 or len(parts) != 10 or not all(p.strip().isdigit() for p in parts):
        raise BlackjackError(f"a shoe is ten counts (A,2,...,9,T), got '{text}'")
    counts = tuple(int(p) for p in parts)
    _check_composition(counts, text)
    return counts


def check_flag(value: object, what: str) -> bool:
    """``value`` when it is True or False (numpy's too), else a :class:`BlackjackError` naming it:
    NaN, 2 or "no" is never read as a rule by its truth.

    >>> check_flag("no", "das")
    Traceback (most recent call last):
    ...
    cardlab.errors.BlackjackError: das is true or false, got 'no'
    """
    if not isinstance(value, bool) and not (type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_")):
        raise BlackjackError(f"{what} is true or false, got {value!r:.60}")
    return bool(value)


def checked_rules(rules: object) -> Rules:
    """``rules`` when it is a :class:`Rules` (each checked as it was made), else a
    :class:`BlackjackError` naming what was given."""
    if not isinstance(rules, Rules):
        raise BlackjackError(f"the rules must be a blackjack Rules (cardlab.casino.blackjack_rules), not "
                             f"{type(rules).__name__} {rules!r:.40}")
    return rules


def _check_composition(counts: object, text: str) -> None:
    if isinstance(counts, (str, bytes)) or not isinstance(counts, (tuple, list)) or len(counts) != 10 or \
            not all(isinstance(c, Integral) and not isinstance(c, bool) and int(c) >= 0 for c in counts):
        raise BlackjackError(f"a shoe is ten counts (A,2,...,9,T), got '{text}'")
    if not 8 <= sum(int(c) for c in counts) <= MAX_SHOE_CARDS:
        raise BlackjackError(f"a shoe holds 8 to {MAX_SHOE_CARDS} cards, got '{text}'")


@lru_cache(maxsize=1 << 16)
def total_of(hand: tuple[int, ...]) -> tuple[int, bool]:
    """The hand's total (ten counts A..T) and whether it is soft (an ace counted as eleven)."""
    hard = sum((rank + 1) * n for rank, n in enumerate(hand))
    soft = hand[0] > 0 and hard + 10 <= 21
    return (hard + 10 if soft else hard), soft


def hand_of(*ranks: int) -> tuple[int, ...]:
    """The counts of a hand of these ranks (0 = ace .. 9 = ten)."""
    counts = [0] * 10
    for rank in ranks:
        counts[rank] += 1
    return tuple(counts)


def add_card(counts: tuple[int, ...], rank: int) -> tuple[int, ...]:
    """``counts`` with one more card of ``rank``."""
    return counts[:rank] + (counts[rank] + 1,) + counts[rank + 1:]
