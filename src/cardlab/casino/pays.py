"""Pay tables in general: a line (:class:`Outcome`), a table (:class:`PayTable`), and the two
readers every pay table file shares, of a pay (:func:`parse_pay`) and of a set of ranks
(:func:`parse_rank_set`).

Video poker's tables (:mod:`cardlab.casino.video_paytable`) and the table games' three-card and
five-card tables (:mod:`cardlab.casino.paytable`, :mod:`cardlab.casino.game`) are built from these;
each gives its outcomes' fine codes (the final hands a line takes) from its own evaluator.

>>> table = PayTable("demo", (Outcome("pair", "pair", Fraction(1, 2), frozenset({1})),
...                           Outcome("nothing", "nothing", Fraction(0), frozenset({0}))), (1, 0))
>>> table.scale, table.int_pays()
(2, [1, 0])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from cardlab.cards import RANKS
from cardlab.errors import PayTableError

__all__ = ["Outcome", "PayTable", "PAY_STEPS", "parse_pay", "parse_rank_set"]

PAY_STEPS = 10_000
"""Pays are whole multiples of 1/10,000 of a coin."""


@dataclass(frozen=True)
class Outcome:
    """One line of a pay table: ``name`` (as printed), the ``hand`` it is, what it ``pays`` per
    coin, and the fine codes of the final hands it takes."""

    name: str
    hand: str
    pays: Fraction
    codes: frozenset[int]


@dataclass(frozen=True)
class PayTable:
    """A pay table: its outcomes (in the order given, then "nothing"), wild rule and jokers.

    ``code_outcome[c]`` is the index of the outcome a final hand of fine code ``c`` pays.
    """

    name: str
    outcomes: tuple[Outcome, ...]
    code_outcome: tuple[int, ...]
    wild: str = "none"
    jokers: int = 0

    @property
    def scale(self) -> int:
        """The least common denominator of the pays (pays × scale are integers)."""
        return lcm(*(o.pays.denominator for o in self.outcomes))

    def int_pays(self) -> list[int]:
        """The pays times :attr:`scale`, as integers."""
        return [int(o.pays * self.scale) for o in self.outcomes]

    def __repr__(self) -> str:
        return f"PayTable({self.name!r}, {len(self.outcomes) - 1} paying outcomes)"


def parse_rank_set(text: object, what: str, line: str) -> frozenset[int]:
    """The ranks (0 = deuce .. 12 = ace) a pay table line names: single ranks and low-high ranges
    separated by commas, ``A-4`` taking the ace low; ``what`` and ``line`` start the message of
    a :class:`~cardlab.errors.PayTableError`.

    >>> sorted(parse_rank_set("J-A", "ranks", "line 1")), sorted(parse_rank_set("A,2-4", "kickers", "line 2"))
    ([9, 10, 11, 12], [0, 1, 2, 12])
    >>> parse_rank_set("K-J", "ranks", "line 3")
    Traceback (most recent call last):
    ...
    cardlab.errors.PayTableError: line 3: ranks range 'K-J' runs downwards; write it low-high
    """
    if not isinstance(text, str) or not text.strip():
        raise PayTableError(f"{line}: {what} must be text such as \"J-A\" or \"A,2-4\", got {text!r}")
    out: set[int] = set()
    for part in text.replace(" ", "").split(","):
        ends = part.split("-")
        try:
            if not all(len(e) == 1 or e == "10" for e in ends):  # "" is no rank ("-" once meant twos)
                raise ValueError
            idx = [RANKS.index("T" if e.upper() == "10" else e.upper()) for e in ends]
        except ValueError:
            raise PayTableError(f"{line}: unknown rank in {what} '{text}'") from None
        if len(idx) == 1:
            out.add(idx[0])
        elif len(idx) == 2:
            low, high = idx
            if low > high and low == 12:  # the ace as the low end
                out.add(12)
                low = 0
            if low > high:
                raise PayTableError(f"{line}: {what} range '{part}' runs downwards; write it low-high")
            out.update(range(low, high + 1))
        else:
            raise PayTableError(f"{line}: cannot read {what} '{text}'")
    return frozenset(out)


def parse_pay(value: object, line: str) -> Fraction:
    """What a pay table line pays to one, exactly: a whole or decimal number from 0 to 10,000,000
    with at most 4 decimals (every exact count scales the pays to whole numbers); ``line`` starts
    the message of a :class:`~cardlab.errors.PayTableError`.

    >>> parse_pay(2.5, "line 1"), parse_pay(800, "line 2")
    (Fraction(5, 2), Fraction(800, 1))
    >>> parse_pay(-1, "line 3")
    Traceback (most recent call last):
    ...
    cardlab.errors.PayTableError: line 3: pays must not be negative, got -1
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PayTableError(f"{line}: pays must be a number, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise PayTableError(f"{line}: pays must be a finite number, got {value!r}")
    pay = Fraction(value) if isinstance(value, int) else Fraction(repr(value))
    if (pay * PAY_STEPS).denominator != 1:
        raise PayTableError(f"{line}: pays {value!r} has more than 4 decimals (the exact counts scale every pay "
                            "to a whole number)")
    if pay < 0:
        raise PayTableError(f"{line}: pays must not be negative, got {value!r}")
    if pay > 10**7:
        raise PayTableError(f"{line}: pays {value!r} is out of range (at most 10,000,000 per coin)")
    return pay
