"""Contracts, results and the duplicate contract score (Law 77).

A contract is written ``PASS`` or level + strain + doubling: ``3NT``, ``4SX``,
``7NTXX`` (strains ``C D H S NT``; ``N`` is read as ``NT``).  A result adds the
outcome relative to the contract: ``4SX=``, ``3NT-2``, ``4H+1``.  Every notation
has a parse/format pair that round-trips.

>>> c = Contract.parse("4sx")
>>> str(c), c.level, c.strain, c.doubling
('4SX', 4, <Strain.SPADES: 'S'>, <Doubling.DOUBLED: 2>)
>>> ns_score(c, Seat.NORTH, 10, Vulnerability.from_board(2))
790
>>> ns_score(Contract.parse("3NT"), "E", 9, Vulnerability.NONE)
-400
>>> str(Result.parse("1NTXX+1")), Result.parse("1NTXX+1").score("S", Vulnerability.NONE)
('1NTXX+1', 760)
>>> Contract.parse("8NT")
Traceback (most recent call last):
...
cardlab.errors.ContractError: unknown contract '8NT'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum

from cardlab.board import Seat, Vulnerability, parse_seat
from cardlab.errors import ContractError

__all__ = [
    "Strain",
    "Doubling",
    "Seat",
    "Vulnerability",
    "Contract",
    "Result",
    "parse_seat",
    "tricks_from_result",
    "format_result_suffix",
    "declarer_score",
    "ns_score",
    "MAX_ABS_SCORE",
]

#: The largest absolute score a board can produce (7NTXX vulnerable, down 13).
MAX_ABS_SCORE = 7600


class Strain(Enum):
    """The five strains, in rank order."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    NOTRUMP = "NT"


class Doubling(IntEnum):
    """Undoubled, doubled or redoubled; the value is the trick-score multiplier."""

    UNDOUBLED = 1
    DOUBLED = 2
    REDOUBLED = 4

    @property
    def suffix(self) -> str:
        """``""``, ``"X"`` or ``"XX"``."""
        return {1: "", 2: "X", 4: "XX"}[self.value]


_CONTRACT_RE = re.compile(r"([1-7])(NT|N|C|D|H|S)(XX|X)?")
_PASS_WORDS = ("PASS", "P", "PASSED", "AP", "ALLPASS", "PASSOUT", "PASSEDOUT", "PO")


@dataclass(frozen=True)
class Contract:
    """A final contract; ``level`` 0 means the board was passed out.

    >>> Contract.parse("7ntxx")
    Contract.parse('7NTXX')
    >>> Contract.parse("pass").is_pass
    True
    """

    level: int
    strain: Strain | None = None
    doubling: Doubling = Doubling.UNDOUBLED

    def __post_init__(self) -> None:
        if self.level == 0:
            if self.strain is not None or self.doubling is not Doubling.UNDOUBLED:
                raise ContractError("a passed-out board has no strain or doubling")
        elif not (1 <= self.level <= 7) or self.strain is None:
            raise ContractError(f"unknown contract level {self.level} / strain {self.strain}")

    @classmethod
    def parse(cls, text: str) -> "Contract":
        """Read ``PASS``, ``3NT``, ``4SX``, ``7NTXX`` (any case, spaces ignored)."""
        key = text.replace(" ", "").upper()
        if key in _PASS_WORDS:
            return cls(0)
        match = _CONTRACT_RE.fullmatch(key)
        if not match:
            raise ContractError(f"unknown contract {text!r}")
        level, strain, dbl = match.groups()
        return cls(
            int(level),
            Strain.NOTRUMP if strain in ("N", "NT") else Strain(strain),
            {None: Doubling.UNDOUBLED, "X": Doubling.DOUBLED, "XX": Doubling.REDOUBLED}[dbl],
        )

    @property
    def is_pass(self) -> bool:
        """Whether the board was passed out."""
        return self.level == 0

    def __str__(self) -> str:
        if self.strain is None:
            return "PASS"
        return f"{self.level}{self.strain.value}{self.doubling.suffix}"

    def __repr__(self) -> str:
        return f"Contract.parse({str(self)!r})"


def tricks_from_result(contract: Contract, text: str) -> int:
    """Total tricks taken by declarer from ``=``, ``+1``, ``-2`` (or ``0`` / ``+0``).

    >>> tricks_from_result(Contract.parse("4S"), "-2")
    8
    >>> tricks_from_result(Contract.parse("4S"), "+4")
    Traceback (most recent call last):
    ...
    cardlab.errors.ContractError: result '+4' on 4S would be 14 tricks (at most 13)
    """
    key = text.strip()
    if contract.is_pass:
        raise ContractError(f"a passed-out board has no result, got {text!r}")
    if key in ("=", "0", "+0", "-0"):
        offset = 0
    elif re.fullmatch(r"[+-][0-9]{1,2}", key):
        offset = int(key)
    else:
        raise ContractError(f"unknown result {text!r} (expected =, +N or -N)")
    tricks = contract.level + 6 + offset
    if not 0 <= tricks <= 13:
        raise ContractError(
            f"result {text!r} on {contract} would be {tricks} tricks (at most 13)"
            if tricks > 13
            else f"result {text!r} on {contract} would be {tricks} tricks (at least 0)"
        )
    return tricks


def format_result_suffix(contract: Contract, tricks: int) -> str:
    """``=``, ``+1`` or ``-2``: the inverse of :func:`tricks_from_result`.

    >>> format_result_suffix(Contract.parse("3NT"), 7)
    '-2'
    """
    offset = tricks - contract.level - 6
    return "=" if offset == 0 else f"{offset:+d}"


def _check_tricks(tricks: int) -> None:
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise ContractError(f"tricks must be a whole number from 0 to 13, not {tricks!r}")


def declarer_score(contract: Contract, tricks: int, vulnerable: bool) -> int:
    """The declaring side's score (negative when the contract fails), Law 77.

    >>> declarer_score(Contract.parse("4SX"), 10, True)
    790
    >>> declarer_score(Contract.parse("3NT"), 7, False)
    -100
    >>> declarer_score(Contract.parse("4SX"), 14, False)
    Traceback (most recent call last):
    ...
    cardlab.errors.ContractError: tricks must be a whole number from 0 to 13, not 14
    """
    _check_tricks(tricks)
    if contract.is_pass:
        return 0
    assert contract.strain is not None
    mult = int(contract.doubling)
    needed = contract.level + 6
    if tricks < needed:
        return -_undertrick_penalty(needed - tricks, contract.doubling, vulnerable)
    first, rest = _TRICK_VALUES[contract.strain]
    trick_points = (first + rest * (contract.level - 1)) * mult
    score = trick_points
    score += (500 if vulnerable else 300) if trick_points >= 100 else 50
    if contract.level == 6:
        score += 750 if vulnerable else 500
    elif contract.level == 7:
        score += 1500 if vulnerable else 1000
    over = tricks - needed
    if contract.doubling is Doubling.UNDOUBLED:
        score += over * rest
    else:
        score += over * (100 if vulnerable else 50) * mult
        score += 25 * mult  # the "insult": 50 doubled, 100 redoubled
    return score


_TRICK_VALUES = {
    Strain.CLUBS: (20, 20),
    Strain.DIAMONDS: (20, 20),
    Strain.HEARTS: (30, 30),
    Strain.SPADES: (30, 30),
    Strain.NOTRUMP: (40, 30),
}


def _undertrick_penalty(down: int, doubling: Doubling, vulnerable: bool) -> int:
    if doubling is Doubling.UNDOUBLED:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        penalty = 200 + 300 * (down - 1)
    else:
        penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return penalty * (int(doubling) // 2)


def ns_score(
    contract: Contract, declarer: Seat | str, tricks: int, vulnerability: Vulnerability
) -> int:
    """The score from North-South's point of view (what travellers record)."""
    if contract.is_pass:
        _check_tricks(tricks)
        return 0
    seat = parse_seat(declarer)
    score = declarer_score(contract, tricks, vulnerability.is_vulnerable(seat))
    return score if seat.side == "NS" else -score


@dataclass(frozen=True)
class Result:
    """A contract and the total number of tricks declarer took.

    >>> Result.parse("3NT-2")
    Result.parse('3NT-2')
    >>> Result.parse("3NT-2").tricks
    7
    >>> Result.parse("PASS").score("N", Vulnerability.BOTH)
    0
    >>> Result.parse("4S")
    Traceback (most recent call last):
    ...
    cardlab.errors.ContractError: unknown result '4S' (expected e.g. 4SX=, 3NT-2, 4H+1, PASS)
    """

    contract: Contract
    tricks: int | None = None

    def __post_init__(self) -> None:
        if self.contract.is_pass:
            if self.tricks is not None:
                raise ContractError("a passed-out board has no tricks")
        elif self.tricks is None:
            raise ContractError(f"result of {self.contract} needs the tricks taken")
        else:
            _check_tricks(self.tricks)

    @classmethod
    def parse(cls, text: str) -> "Result":
        """Read a contract with its result: ``4SX=``, ``3NT-2``, ``4H+1`` or ``PASS``."""
        key = text.replace(" ", "").upper()
        if key in _PASS_WORDS:
            return cls(Contract(0))
        match = re.fullmatch(r"(.+?)(=|[+-][0-9]{1,2})", key)
        if not match:
            raise ContractError(
                f"unknown result {text!r} (expected e.g. 4SX=, 3NT-2, 4H+1, PASS)"
            )
        contract = Contract.parse(match.group(1))
        return cls(contract, tricks_from_result(contract, match.group(2)))

    def score(self, declarer: Seat | str, vulnerability: Vulnerability) -> int:
        """NS score of this result played by ``declarer``."""
        return ns_score(self.contract, declarer, self.tricks or 0, vulnerability)

    def __str__(self) -> str:
        if self.tricks is None:
            return "PASS"
        return f"{self.contract}{format_result_suffix(self.contract, self.tricks)}"

    def __repr__(self) -> str:
        return f"Result.parse({str(self)!r})"
