"""Single hands for people: their value, their best five cards, and why one beats another.

>>> a, b = hand_value("Ah Ad 8c 8s Kd"), hand_value("As Ac 8h 8d Qc")
>>> a.describe()
'two pair, aces and eights, king kicker'
>>> print(compare(["Ah Ad 8c 8s Kd", "As Ac 8h 8d Qc"]).reason)
hand 1 wins: both two pair, aces and eights; the kicker decides, king against queen
>>> compare(["Ah Ad 8c 8s Kd"])
Traceback (most recent call last):
...
cardlab.errors.HandError: compare needs at least two hands
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from cardlab.results import JsonText, csv_rows
from cardlab.cards import RANKS, format_cards
from cardlab.errors import HandError
from cardlab.poker.evaluator import parse_hand, strengths
from cardlab.poker.kernel import unpack
from cardlab.poker.rules import SHORT_DECK, STANDARD, Category, Rules

__all__ = ["HandValue", "Comparison", "hand_value", "compare", "rank_name"]

_NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
          "queen", "king", "ace"]
_PLURALS = ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
            "jacks", "queens", "kings", "aces"]
_ORDINALS = ["highest", "second", "third", "fourth", "fifth"]


def rank_name(rank: int, plural: bool = False) -> str:
    """``rank_name(12)`` is 'ace'; with ``plural`` 'aces'."""
    return (_PLURALS if plural else _NAMES)[rank]


@dataclass(frozen=True)
class HandValue(JsonText):
    """One evaluated hand: its cards, category, strength and best five cards.

    Its repr is the call that makes it again:

    >>> hand_value("As Ks Qs Js Ts")
    hand_value('As Ks Qs Js Ts')
    >>> hand_value("As Ks Qs Js Ts 9s 6s", SHORT_DECK)
    hand_value('As Ks Qs Js Ts 9s 6s', SHORT_DECK)
    """

    cards: tuple[int, ...]
    category: Category
    strength: int
    ranks: tuple[int, ...]
    best: tuple[int, ...]
    rules: Rules = STANDARD

    @property
    def text(self) -> str:
        """The hand's cards as text (``As Kd ...``)."""
        return format_cards(self.cards)

    def __repr__(self) -> str:
        rules = "" if self.rules == STANDARD else f", {self.rules!r}"
        repeats = ", repeats=True" if len(set(self.cards)) < len(self.cards) else ""
        return f"hand_value({self.text!r}{rules}{repeats})"

    def to_dict(self) -> dict[str, Any]:
        """``{"hand", "best", "category", "strength", "description"}``."""
        return {"hand": self.text, "best": format_cards(self.best), "category": self.category.key,
                "strength": self.strength, "description": self.describe()}

    def describe(self) -> str:
        """The category with its deciding ranks, in words."""
        c, r = self.category, self.ranks
        n = rank_name

        def p(x: int) -> str:
            return rank_name(x, True)

        if c in (Category.HIGH_CARD, Category.FLUSH):
            return f"{c.label}, " + "-".join(RANKS[x] for x in r)
        if c == Category.ONE_PAIR:
            return f"one pair of {p(r[0])}, " + "-".join(RANKS[x] for x in r[2:]) + " kickers"
        if c == Category.TWO_PAIR:
            return f"two pair, {p(r[0])} and {p(r[2])}, {n(r[4])} kicker"
        if c == Category.THREE_OF_A_KIND:
            return f"three {p(r[0])}, " + "-".join(RANKS[x] for x in r[3:]) + " kickers"
        if c in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
            return f"{c.label}, {n(r[0])} high"
        if c == Category.FULL_HOUSE:
            return f"full house, {p(r[0])} full of {p(r[3])}"
        if c == Category.FOUR_OF_A_KIND:
            return f"four {p(r[0])}, {n(r[4])} kicker"
        if c == Category.FIVE_OF_A_KIND:
            return f"five {p(r[0])}"
        return c.label  # royal flush


def hand_value(text: str | Sequence[int], rules: Rules = STANDARD, *, repeats: bool = False) -> HandValue:
    """Evaluate one hand given as text ("As Ks Qs Js Ts") or card ids.

    >>> hand_value("2c 2d 2h 5s 5d").category.name
    'FULL_HOUSE'
    """
    if isinstance(text, str):
        ids = parse_hand(text, repeats=repeats)
    else:
        ids = [int(i) for i in text]
        if not 5 <= len(ids) <= 7:
            raise HandError(f"a hand has 5, 6 or 7 cards, got {len(ids)}")
    rules.check_cards(ids)
    strength = int(strengths(np.array([ids], dtype=np.uint8), rules)[0])
    category, ranks = unpack(strength, rules)
    return HandValue(tuple(ids), category, strength, ranks, _best_five(ids, category, ranks), rules)


def _best_five(ids: list[int], category: Category, ranks: tuple[int, ...]) -> tuple[int, ...]:
    pool = list(ids)
    if category in (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH):
        suits = [i % 4 for i in ids]
        flush_suit = max(range(4), key=suits.count)
        pool = [i for i in ids if i % 4 == flush_suit]
    best = []
    for r in ranks:
        card = max(i for i in pool if i // 4 == r)
        pool.remove(card)
        best.append(card)
    return tuple(best)


def _part(category: Category, position: int) -> str:
    """What the ``position``-th deciding rank of a category is."""
    if category in (Category.HIGH_CARD, Category.FLUSH):
        return f"{_ORDINALS[position]} card"
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        return "top card"
    layout = {
        Category.ONE_PAIR: ["pair", "pair", "first kicker", "second kicker", "third kicker"],
        Category.TWO_PAIR: ["top pair", "top pair", "second pair", "second pair", "kicker"],
        Category.THREE_OF_A_KIND: ["three of a kind"] * 3 + ["first kicker", "second kicker"],
        Category.FULL_HOUSE: ["three of a kind"] * 3 + ["pair"] * 2,
        Category.FOUR_OF_A_KIND: ["four of a kind"] * 4 + ["kicker"],
    }
    return layout.get(category, ["rank"] * 5)[position]


@dataclass(frozen=True)
class Comparison(JsonText):
    """The hands compared, the indices of the winners (several on a tie), and why.

    >>> result = compare(["Ah Ad 8c 8s Kd", "As Ac 8h 8d Qc"])
    >>> result
    compare(['Ah Ad 8c 8s Kd', 'As Ac 8h 8d Qc'])
    >>> result.to_dict()["winners"], result.to_dict()["hands"][1]["description"]
    ([1], 'two pair, aces and eights, queen kicker')
    """

    hands: tuple[HandValue, ...]
    winners: tuple[int, ...]
    reason: str

    @property
    def tie(self) -> bool:
        """Whether more than one hand shares the best value."""
        return len(self.winners) > 1

    def __repr__(self) -> str:
        rules = self.hands[0].rules if self.hands else STANDARD
        extra = "" if rules == STANDARD else f", {rules!r}"
        if any(len(set(v.cards)) < len(v.cards) for v in self.hands):
            extra += ", repeats=True"
        return f"compare({[v.text for v in self.hands]!r}{extra})"

    def rows(self) -> list[dict[str, Any]]:
        """One dict per hand: number (from 1), winner, hand, best, category, strength, description."""
        return [{"number": n, "winner": n - 1 in self.winners, **v.to_dict()}
                for n, v in enumerate(self.hands, 1)]

    def to_dict(self) -> dict[str, Any]:
        """``{"winners": [hand numbers from 1], "tie": bool, "reason": str, "hands": rows}``."""
        return {"winners": [i + 1 for i in self.winners], "tie": self.tie, "reason": self.reason,
                "hands": self.rows()}

    def to_csv(self) -> str:
        """CSV text: one row per hand (see :meth:`rows`)."""
        return csv_rows(self.rows())

    def to_pandas(self) -> Any:
        """A pandas DataFrame of :meth:`rows` (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame(self.rows())

    def table(self) -> str:
        """The text the command line prints: a line per hand (``*`` marks a winner), then why.

        >>> print(compare(["Ah Ad 8c 8s Kd", "As Ac 8h 8d Qc"]).table())
        * hand 1: Ah Ad 8c 8s Kd        best Ah Ad 8s 8c Kd  Two pair         two pair, aces and eights, king kicker
          hand 2: As Ac 8h 8d Qc        best As Ac 8h 8d Qc  Two pair         two pair, aces and eights, queen kicker
        hand 1 wins: both two pair, aces and eights; the kicker decides, king against queen
        """
        lines = []
        for n, value in enumerate(self.hands, 1):
            mark = "*" if n - 1 in self.winners else " "
            lines.append(f"{mark} hand {n}: {value.text:<20}  best {format_cards(value.best)}  "
                         f"{value.category.title:<15}  {value.describe()}")
        return "\n".join([*lines, self.reason])

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{k}</th>" for k in ("", "hand", "best", "category", "description"))
        body = "".join(
            f"<tr><td>{'★' if r['winner'] else ''}</td><td>{r['hand']}</td><td>{r['best']}</td>"
            f"<td>{r['category']}</td><td>{html.escape(r['description'])}</td></tr>" for r in self.rows())
        return f"<table><tr>{head}</tr>{body}</table><p>{html.escape(self.reason)}</p>"


def _shared(v: HandValue, upto: int) -> str:
    """Words for what two hands of one category share before position ``upto``."""
    c, r = v.category, v.ranks
    if c == Category.TWO_PAIR and upto >= 4:
        return f"{rank_name(r[0], True)} and {rank_name(r[2], True)}"
    if c in (Category.ONE_PAIR, Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND) and upto >= 4 - (
            c == Category.ONE_PAIR) * 2:
        return f"{rank_name(r[0], True)}"
    if c == Category.FULL_HOUSE and upto >= 3:
        return f"{rank_name(r[0], True)} full"
    return ""


def _why(winner: HandValue, loser: HandValue) -> str:
    if winner.category != loser.category:
        return f"{winner.describe()} beats {loser.describe()}"
    position = next(i for i in range(5) if winner.ranks[i] != loser.ranks[i])
    shared = _shared(winner, position)
    both = f"both {winner.category.label}" + (f", {shared}" if shared else "")
    return (f"{both}; the {_part(winner.category, position)} decides, "
            f"{rank_name(winner.ranks[position])} against {rank_name(loser.ranks[position])}")


def compare(hands: Sequence[str], rules: Rules = STANDARD, *, repeats: bool = False) -> Comparison:
    """Which of two or more hands wins (several on a tie), and why in words.

    Hands may share cards (hold'em hands share the board); a card twice in one
    hand is an error unless ``repeats`` (several decks).

    >>> compare(["As Ks Qs Js Ts", "2c 2d 2h 5s 5d"]).winners
    (0,)
    """
    if len(hands) < 2:
        raise HandError("compare needs at least two hands")
    values = tuple(hand_value(h, rules, repeats=repeats) for h in hands)
    top = max(v.strength for v in values)
    winners = tuple(i for i, v in enumerate(values) if v.strength == top)
    if len(winners) == len(values):
        reason = f"tie: all hands are {values[0].describe()}"
    else:
        best_loser = max((v for i, v in enumerate(values) if i not in winners),
                         key=lambda v: v.strength)
        who = " and ".join(f"hand {i + 1}" for i in winners)
        verb = "tie and win" if len(winners) > 1 else "wins"
        reason = f"{who} {verb}: {_why(values[winners[0]], best_loser)}"
    return Comparison(values, winners, reason)
