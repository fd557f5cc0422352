"""Point schemes: how many points each rank is worth.

Named schemes, or any custom spec ``"A=4,K=3,Q=2,J=1,T=0"`` (ranks not named
are worth 0; values may be fractions ``1/2`` or decimals ``0.75``). Values are
kept exact as :class:`~fractions.Fraction`.

>>> parse_scheme("bergen").value("A"), parse_scheme("bergen").value("T")
(Fraction(9, 2), Fraction(1, 4))
>>> str(parse_scheme("A=4,K=3,Q=2,J=1"))
'A=4,K=3,Q=2,J=1'
>>> parse_scheme("A=four")
Traceback (most recent call last):
...
cardlab.errors.SchemeError: bad point value 'four' for rank A in scheme 'A=four'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from cardlab.cards import RANKS
from cardlab.errors import SchemeError

__all__ = ["PointScheme", "SCHEMES", "parse_scheme", "parse_points", "MAX_POINTS"]

MAX_POINTS = 10**18
"""Largest point value (of a rank, or a total asked for), and the finest step is 1/10^18."""
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?(/\d+)?", re.IGNORECASE)


@dataclass(frozen=True)
class PointScheme:
    """Points per rank (index 0 = two .. 12 = ace), exact."""

    name: str
    points: tuple[Fraction, ...]

    def value(self, rank: str) -> Fraction:
        """Points of a rank (``'A'``, ``'T'``, ...) under this scheme."""
        return self.points[RANKS.index(rank.upper())]

    @property
    def scale(self) -> int:
        """Smallest integer that makes every rank's points whole."""
        return lcm(*(p.denominator for p in self.points))

    def scaled(self) -> list[int]:
        """Points per rank times :attr:`scale`, as ints."""
        return [int(p * self.scale) for p in self.points]

    def card_values(self) -> list[int]:
        """Scaled points of each card id 0..51."""
        per_rank = self.scaled()
        return [per_rank[i // 4] for i in range(52)]

    def __str__(self) -> str:
        parts = []
        for i in range(12, -1, -1):
            p = self.points[i]
            if p:
                parts.append(f"{RANKS[i]}={p.numerator if p.denominator == 1 else p}")
        return ",".join(parts)


def _scheme(name: str, spec: str) -> PointScheme:
    return PointScheme(name, _parse_spec(spec, spec))


def _parse_spec(spec: str, original: str) -> tuple[Fraction, ...]:
    points = [Fraction(0)] * 13
    seen: set[str] = set()
    for item in spec.replace(" ", "").split(","):
        if not item:
            continue
        if "=" not in item:
            raise SchemeError(f"expected RANK=POINTS, got '{item}' in scheme '{original}'")
        rank, value = item.split("=", 1)
        rank = "T" if rank == "10" else rank.upper()
        if len(rank) != 1 or rank not in RANKS:
            raise SchemeError(f"unknown rank '{rank}' in scheme '{original}'")
        if rank in seen:
            raise SchemeError(f"rank {rank} is given twice in scheme '{original}'")
        seen.add(rank)
        try:
            points[RANKS.index(rank)] = parse_points(value)
        except SchemeError as error:
            reason = "" if str(error).startswith("expected") else f" ({error})"
            raise SchemeError(f"bad point value '{value}' for rank {rank} in scheme '{original}'{reason}") from None
        if points[RANKS.index(rank)] < 0:
            raise SchemeError(f"negative points for rank {rank} in scheme '{original}'")
    if not seen:
        raise SchemeError(f"scheme '{original}' gives no points")
    scale = lcm(*(p.denominator for p in points))
    if max(points) * scale * 52 >= 2**63:  # a deck's worth of points, in steps of 1/scale, in 64 bits
        raise SchemeError(f"scheme '{original}' is too large or too fine to count: its values in steps "
                          f"of 1/{scale} would not fit in 64 bits")
    return tuple(points)


def parse_points(text: str | int | Fraction) -> Fraction:
    """A number of points, exact: ``4``, ``4.5``, ``4½``, ``9/2``, ``1e6``; at most 10^18 in size and
    no finer than 1/10^18 (beyond that no hand could tell the difference, and the counting
    tables would be astronomically wide).

    >>> parse_points("15½"), parse_points("0.75"), parse_points("1e6")
    (Fraction(31, 2), Fraction(3, 4), Fraction(1000000, 1))
    >>> parse_points("1e400")
    Traceback (most recent call last):
    ...
    cardlab.errors.SchemeError: points must be at most 10^18 in size, got '1e400'
    """
    if isinstance(text, (int, Fraction)):
        value = Fraction(text)
    else:
        cleaned = text.strip()
        if cleaned.endswith("½"):  # 15½ is 15.5, ½ is 0.5
            whole = cleaned[:-1]
            cleaned = whole + ".5" if whole[-1:].isdigit() else whole + "0.5"
        match = _NUMBER.fullmatch(cleaned)
        if not match:
            raise SchemeError(f"expected a number of points, got '{text}'")
        exponent = match.group(2)
        if exponent and abs(int(exponent[1:])) > 40:  # never build a 10^400
            raise SchemeError(f"points must be at most 10^18 in size, got '{text}'" if int(exponent[1:]) > 0
                              else f"points must be no finer than 1/10^18, got '{text}'")
        try:
            value = Fraction(cleaned)
        except (ValueError, ZeroDivisionError):
            raise SchemeError(f"expected a number of points, got '{text}'") from None
    if abs(value) > MAX_POINTS:
        raise SchemeError(f"points must be at most 10^18 in size, got '{text}'")
    if value.denominator > MAX_POINTS:
        raise SchemeError(f"points must be no finer than 1/10^18, got '{text}'")
    return value


SCHEMES: dict[str, PointScheme] = {
    "work": _scheme("work", "A=4,K=3,Q=2,J=1"),
    "bergen": _scheme("bergen", "A=4.5,K=3,Q=1.5,J=0.75,T=0.25"),
    "four-aces": _scheme("four-aces", "A=3,K=2,Q=1,J=1/2"),
    "banzai": _scheme("banzai", "A=5,K=4,Q=3,J=2,T=1"),
    "controls": _scheme("controls", "A=2,K=1"),
}
_ALIASES = {"hcp": "work", "milton": "work", "4321": "work", "fouraces": "four-aces",
            "four_aces": "four-aces"}


def parse_scheme(text: str | PointScheme) -> PointScheme:
    """A named scheme (work/hcp, bergen, four-aces, banzai, controls) or a custom spec.

    >>> parse_scheme("A=4,K=3,Q=2,J=1,T=0.5").name
    'A=4,K=3,Q=2,J=1,T=0.5'
    """
    if isinstance(text, PointScheme):
        return text
    key = text.strip().lower()
    key = _ALIASES.get(key, key)
    if key in SCHEMES:
        return SCHEMES[key]
    if "=" not in text:
        names = ", ".join(SCHEMES)
        raise SchemeError(f"unknown point scheme '{text}' (known: {names}; or a spec like A=4,K=3,Q=2,J=1)")
    return PointScheme(text.strip(), _parse_spec(text, text))

