"""The rules of a poker game against a dealer (Caribbean Stud's ``[caribbean_stud]`` and
``[raise_pays]``, Casino Hold'em's ``[casino_holdem]`` and ``[ante_pays]``), read and checked.

:mod:`cardlab.casino.game` builds its :class:`~cardlab.casino.game.Game` from them;
:mod:`cardlab.casino.caribbean` and :mod:`cardlab.casino.holdem` analyse it.

>>> rules = dealer_rules({"raise_pays": {"flush": 5}}, "g.toml", "caribbean-stud")
>>> rules.raise_bets, rules.qualifier_text, dict(rules.pays)["flush"], dict(rules.pays)["straight"]
(2, 'A-K', Fraction(5, 1), Fraction(1, 1))
>>> hex(stud_qualifier("A-K")), hex(stud_qualifier("pair")), hex(stud_qualifier("4-4"))
('0xcb000', '0x100000', '0x120000')
>>> stud_qualifier("A-X")
Traceback (most recent call last):
...
cardlab.errors.PayTableError: qualifier: cannot read 'A-X': give high-card ranks such as "A-K", a pair such as "4-4", a hand such as "pair", or "any"
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from cardlab.cards import RANKS
from cardlab.errors import PayTableError

__all__ = ["CATEGORIES", "SHIFT", "DealerRules", "dealer_rules", "stud_qualifier", "DEALER_GAMES", "TIES",
           "check_ties", "pay_value"]

TIES = ("fold", "bet")
"""Between decisions of equal expectation: the one with less money at risk, or more."""

#: The player's hand categories, weakest first, as ``[raise_pays]`` names them.
CATEGORIES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
              "four of a kind", "straight flush", "royal flush")
SHIFT = 20  #: a five-card strength's category sits above five 4-bit ranks (cardlab.poker.kernel)
#: Each game's section, its bet's key and default (antes; None: the bets are fixed), qualifier
#: default, pay table and the pay of a category the table leaves out.
DEALER_GAMES: dict[str, tuple[str, str | None, int, str, str, int]] = {
    "caribbean-stud": ("caribbean_stud", "raise", 2, "A-K", "raise_pays", 1),
    "casino-holdem": ("casino_holdem", "call", 2, "4-4", "ante_pays", 1),
    "ultimate-holdem": ("ultimate_holdem", None, 4, "pair", "blind_pays", 0),
    "texas-holdem-bonus": ("holdem_bonus", None, 2, "any", "ante_pays", 0)}


@dataclass(frozen=True)
class DealerRules:
    """The bet made to play on (antes), the dealer's least qualifying strength (and its text),
    the ante's pay when the dealer does not qualify (Caribbean Stud), and the pay by hand
    category (of the raise in Caribbean Stud, of the ante in Casino Hold'em)."""

    raise_bets: int
    qualifier: int
    qualifier_text: str
    no_qualify_pays: Fraction
    pays: tuple[tuple[str, Fraction], ...]


def stud_qualifier(text: object, source: str = "qualifier") -> int:
    """The five-card strength of the least hand that qualifies: leading high-card ranks
    (``"A-K"``), a pair of a rank (``"4-4"``), a category (``"pair"``) or ``"any"``."""
    if not isinstance(text, str):
        raise PayTableError(f"{source}: the qualifier must be text such as \"A-K\" or \"pair\", got {text!r}")
    word = text.strip().lower()
    if word == "any":
        return 0
    if word in CATEGORIES:
        return CATEGORIES.index(word) << SHIFT
    parts = word.replace("10", "t").split("-")
    ranks = [RANKS.find(p.upper()) if len(p) == 1 else -1 for p in parts]
    if len(ranks) == 2 and ranks[0] == ranks[1] >= 0:
        return 1 << SHIFT | ranks[0] << 16
    if not 1 <= len(ranks) <= 5 or min(ranks) < 0 or ranks != sorted(ranks, reverse=True) or len(set(ranks)) < len(ranks):
        raise PayTableError(f"{source}: cannot read {text!r}: give high-card ranks such as \"A-K\", a pair such as \"4-4\", a hand such as "
                            "\"pair\", or \"any\"")
    ranks += [0] * (5 - len(ranks))
    return sum(r << 4 * (4 - i) for i, r in enumerate(ranks))


def pay_value(value: object, where: str) -> Fraction:
    """A pay from TOML (or a :class:`Fraction` of a Game built in Python): a number 0..10^7 with at
    most 4 decimals (NaN, infinities and text refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)) or value != value:
        raise PayTableError(f"{where} must be a number, got {value!r:.60}")
    if not 0 <= value <= 10**7:  # an infinity or a huge number too, before Fraction reads it
        raise PayTableError(f"{where} must be 0..10,000,000 with at most 4 decimals, got {value!r:.60}")
    pay = Fraction(value) if not isinstance(value, float) else Fraction(repr(value))
    if (pay * 10**4).denominator != 1:
        raise PayTableError(f"{where} must be 0..10,000,000 with at most 4 decimals, got {value!r}")
    return pay


def dealer_rules(data: Mapping[str, object], source: str, kind: str) -> DealerRules:
    """The :class:`DealerRules` of parsed TOML for a game of :data:`DEALER_GAMES` (a category
    its pay table leaves out pays even money; in Ultimate Texas Hold'em's blind, nothing: a push)."""
    section, bet, default_bet, default_qualifier, table_key, left_out = DEALER_GAMES[kind]
    known = {"name", "game", "deck", section, table_key, "side_bet"}  # side bets: cardlab.casino.side_bets
    for key in data:
        if key not in known:
            raise PayTableError(f"{source}: unknown key '{key}' (expected one of: {', '.join(sorted(known))})")
    rules = data.get(section, {})
    if not isinstance(rules, dict):
        raise PayTableError(f"{source}: [{section}] must be a table")
    keys = ((bet,) if bet else ()) + (("qualifier",) if kind != "texas-holdem-bonus" else ()) + \
        (("no_qualify_pays",) if kind == "caribbean-stud" else ())
    for key in rules:
        if key not in keys:
            raise PayTableError(f"{source}: [{section}]: unknown key '{key}' (expected "
                                f"{'one of: ' + ', '.join(sorted(keys)) if keys else 'none: the rules are fixed'})")
    amount = rules.get(bet, default_bet) if bet else default_bet
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= 10:
        raise PayTableError(f"{source}: [{section}] {bet} must be a whole number 1..10, got {amount!r}")
    text = rules.get("qualifier", default_qualifier)
    qualifier = stud_qualifier(text, f"{source}: [{section}] qualifier")
    no_qualify = pay_value(rules.get("no_qualify_pays", 1), f"{source}: [{section}] no_qualify_pays")
    table = data.get(table_key, {})
    if not isinstance(table, dict):
        raise PayTableError(f"{source}: [{table_key}] must be a table such as flush = 5")
    for key in table:
        if key not in CATEGORIES:
            raise PayTableError(f"{source}: [{table_key}]: unknown hand '{key}' (expected one of: {', '.join(CATEGORIES)})")
    pays = tuple((c, pay_value(table.get(c, left_out), f"{source}: [{table_key}] {c}")) for c in CATEGORIES)
    return DealerRules(amount, qualifier, str(text), no_qualify, pays)


def check_ties(ties: object) -> str:
    """``ties`` when it is one of :data:`TIES`, else a :class:`PayTableError` naming it."""
    if not isinstance(ties, str) or ties not in TIES:
        raise PayTableError(f"ties must be one of {', '.join(TIES)}, not {ties!r:.60}")
    return ties
