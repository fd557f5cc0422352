"""The rules of a Caribbean Stud description (``[caribbean_stud]`` and ``[raise_pays]``), read and checked.

:mod:`cardlab.casino.game` builds its :class:`~cardlab.casino.game.Game` from them;
:mod:`cardlab.casino.caribbean` analyses it.

>>> rules = caribbean_rules({"raise_pays": {"flush": 5}}, "g.toml")
>>> rules.raise_bets, rules.qualifier_text, dict(rules.pays)["flush"], dict(rules.pays)["straight"]
(2, 'A-K', Fraction(5, 1), Fraction(1, 1))
>>> hex(stud_qualifier("A-K")), hex(stud_qualifier("pair"))
('0xcb000', '0x100000')
>>> stud_qualifier("A-X")
Traceback (most recent call last):
...
cardlab.errors.PayTableError: qualifier: cannot read 'A-X': give high-card ranks such as "A-K", a hand such as "pair", or "any"
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from cardlab.cards import RANKS
from cardlab.errors import PayTableError

__all__ = ["CATEGORIES", "SHIFT", "CaribbeanRules", "caribbean_rules", "stud_qualifier"]

#: The player's hand categories, weakest first, as ``[raise_pays]`` names them.
CATEGORIES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
              "four of a kind", "straight flush", "royal flush")
SHIFT = 20  #: a five-card strength's category sits above five 4-bit ranks (cardlab.poker.kernel)
_KEYS = ("raise", "qualifier", "no_qualify_pays")


@dataclass(frozen=True)
class CaribbeanRules:
    """The raise in antes, the dealer's least qualifying strength (and its text), the ante's pay
    when the dealer does not qualify, and the raise's pay by hand category."""

    raise_bets: int
    qualifier: int
    qualifier_text: str
    no_qualify_pays: Fraction
    pays: tuple[tuple[str, Fraction], ...]


def stud_qualifier(text: object, source: str = "qualifier") -> int:
    """The five-card strength of the least hand that qualifies: leading high-card ranks
    (``"A-K"``), a category (``"pair"``) or ``"any"``."""
    if not isinstance(text, str):
        raise PayTableError(f"{source}: the qualifier must be text such as \"A-K\" or \"pair\", got {text!r}")
    word = text.strip().lower()
    if word == "any":
        return 0
    if word in CATEGORIES:
        return CATEGORIES.index(word) << SHIFT
    parts = word.replace("10", "t").split("-")
    ranks = [RANKS.find(p.upper()) if len(p) == 1 else -1 for p in parts]
    if not 1 <= len(ranks) <= 5 or min(ranks) < 0 or ranks != sorted(ranks, reverse=True) or len(set(ranks)) < len(ranks):
        raise PayTableError(f"{source}: cannot read {text!r}: give high-card ranks such as \"A-K\", a hand such as "
                            "\"pair\", or \"any\"")
    ranks += [0] * (5 - len(ranks))
    return sum(r << 4 * (4 - i) for i, r in enumerate(ranks))


def _pay(value: object, where: str) -> Fraction:
    """A pay from TOML: a number 0..10^7 with at most 4 decimals."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise PayTableError(f"{where} must be a number, got {value!r}")
    pay = Fraction(value) if isinstance(value, int) else Fraction(repr(value))
    if not 0 <= pay <= 10**7 or (pay * 10**4).denominator != 1:
        raise PayTableError(f"{where} must be 0..10,000,000 with at most 4 decimals, got {value!r}")
    return pay


def caribbean_rules(data: Mapping[str, object], source: str) -> CaribbeanRules:
    """The :class:`CaribbeanRules` of parsed TOML (a category ``[raise_pays]`` leaves out pays
    even money; raise 2, qualifier A-K and no_qualify_pays 1 by default)."""
    known = {"name", "game", "deck", "caribbean_stud", "raise_pays"}
    for key in data:
        if key not in known:
            raise PayTableError(f"{source}: unknown key '{key}' (expected one of: {', '.join(sorted(known))})")
    rules = data.get("caribbean_stud", {})
    if not isinstance(rules, dict):
        raise PayTableError(f"{source}: [caribbean_stud] must be a table")
    for key in rules:
        if key not in _KEYS:
            raise PayTableError(f"{source}: [caribbean_stud]: unknown key '{key}' (expected one of: "
                                f"{', '.join(sorted(_KEYS))})")
    raise_bets = rules.get("raise", 2)
    if isinstance(raise_bets, bool) or not isinstance(raise_bets, int) or not 1 <= raise_bets <= 10:
        raise PayTableError(f"{source}: [caribbean_stud] raise must be a whole number 1..10, got {raise_bets!r}")
    text = rules.get("qualifier", "A-K")
    qualifier = stud_qualifier(text, f"{source}: [caribbean_stud] qualifier")
    no_qualify = _pay(rules.get("no_qualify_pays", 1), f"{source}: [caribbean_stud] no_qualify_pays")
    table = data.get("raise_pays", {})
    if not isinstance(table, dict):
        raise PayTableError(f"{source}: [raise_pays] must be a table such as flush = 5")
    for key in table:
        if key not in CATEGORIES:
            raise PayTableError(f"{source}: [raise_pays]: unknown hand '{key}' (expected one of: {', '.join(CATEGORIES)})")
    pays = tuple((c, _pay(table.get(c, 1), f"{source}: [raise_pays] {c}")) for c in CATEGORIES)
    return CaribbeanRules(raise_bets, qualifier, str(text), no_qualify, pays)
