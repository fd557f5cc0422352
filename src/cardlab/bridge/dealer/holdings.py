"""User holding functions: a value for every holding of one suit, looked up per suit and summed.

Deal 3.1's ``holdingProc`` (its manual's holding.html: "general procedures for evaluating a
holding, while still taking advantage of fast lookup tables") defines an evaluation on one suit's
cards; a hand's value is the sum over its four suits. There are
only 8,192 holdings of a suit, so cardlab evaluates the definition once for each (a table of 8,192
integers) and a script's ``NAME(SEAT)`` / ``NAME(SEAT, SUIT)`` is then one lookup per suit in the
compiled core, exactly as ``hcp`` is.

In a script: ``holding NAME = EXPR``, where EXPR is written in the holding's words: ``A K Q J T``
(1 when the holding has that card, else 0), ``x9`` .. ``x2`` (the spot cards; ``x10`` is ``T``),
``length``; with the language's operators (comparisons and ``&&``/``||`` give 0 or 1, so true/false
evaluations are expressions too); :func:`cardlab.bridge.dealer.evaluate.values_on_masks`
tabulates it. From Python, :func:`holding_table` tabulates any function of the
holding's text, and fractional values are kept exactly as multiples of ``1/scale``.

>>> qt = holding_table("qt", lambda h: 2 if h[:2] == "AK" else 1 if "A" in h else 0.5 if h[:1] == "K" and len(h) > 1 else 0,
...                    scale=2)
>>> qt.value("AK2"), qt.value("K3"), qt.value("Q32")   # in halves: 2, 0.5, 0 quick tricks
(4, 1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from cardlab.cards import RANKS
from cardlab.errors import DealerScriptError

__all__ = ["HoldingTable", "ShapeTable", "holding_table", "holding_text", "checked_table", "checked_values",
           "MAX_HOLDING_VALUE"]

MAX_HOLDING_VALUE = 10 ** 12  #: the largest value (either sign) of one holding, so that sums stay far inside 64 bits
#: The words of a holding function's expression in a script: the card of each rank (2 = 0 .. A = 12)
#: and the holding's length (the parser turns them into nodes on North's spades).
HOLDING_RANKS = {"A": 12, "K": 11, "Q": 10, "J": 9, "T": 8, "x10": 8, **{f"x{r}": r - 2 for r in range(2, 10)}}
HOLDING_LENGTH = ("length", "len")


@dataclass(frozen=True)
class HoldingTable:
    """A holding function: ``name`` and the value of each of the 8,192 holdings (bit *r* = rank *r*,
    2 = 0 .. A = 12) as int64 bytes; ``scale`` > 1 when the values are fractions (value × scale)."""

    name: str
    data: bytes
    scale: int = 1

    @property
    def values(self) -> np.ndarray:
        """The 8,192 values (int64)."""
        return np.frombuffer(self.data, dtype=np.int64)

    def value(self, holding: str) -> int:
        """The table's value of a holding written as ranks (``"AQT4"``; ``""`` or ``"-"`` a void)."""
        mask = 0
        for ch in holding.upper().replace("-", ""):
            if ch not in RANKS:
                raise DealerScriptError(f"{ch!r} in holding {holding!r} is not a rank ({RANKS})")
            mask |= 1 << RANKS.index(ch)
        return int(self.values[mask])

    def __repr__(self) -> str:
        return f"HoldingTable({self.name!r})"


@dataclass(frozen=True)
class ShapeTable:
    """A shape function (``shapefunc NAME = EXPR``): a value for every suit-length vector, indexed
    by :func:`cardlab.bridge.polynomials.shape_key` (int64 bytes, 14**4 entries)."""

    name: str
    data: bytes

    @property
    def values(self) -> np.ndarray:
        """The values by shape key (int64)."""
        return np.frombuffer(self.data, dtype=np.int64)

    def __repr__(self) -> str:
        return f"ShapeTable({self.name!r})"


def holding_text(mask: int) -> str:
    """The ranks of a holding mask, highest first (``""`` for a void).

    >>> holding_text(0b1000000010001)
    'A62'
    """
    return "".join(RANKS[r] for r in range(12, -1, -1) if mask >> r & 1)


def checked_values(name: str, values: np.ndarray) -> np.ndarray:
    """``values`` as int64, each at most :data:`MAX_HOLDING_VALUE` in size (else refused naming
    the function), so that sums over a hand, a deal or a run stay far inside 64 bits."""
    values = np.ascontiguousarray(values, dtype=np.int64)
    worst = int(np.abs(values).max()) if values.size else 0
    if worst > MAX_HOLDING_VALUE:
        raise DealerScriptError(f"'{name}' has a value of size {worst}; at most {MAX_HOLDING_VALUE:,}")
    return values


def checked_table(name: str, values: np.ndarray, scale: int = 1) -> HoldingTable:
    """A :class:`HoldingTable` of 8,192 values, each at most :data:`MAX_HOLDING_VALUE` in size."""
    return HoldingTable(name, checked_values(name, values).tobytes(), scale)


def holding_table(name: str, function: Callable[[str], Any], scale: int = 1) -> HoldingTable:
    """Tabulate ``function(holding)`` (the holding's ranks, highest first; ``""`` for a void) over
    the 8,192 holdings, once each. Values may be whole numbers, ``True``/``False`` or fractions:
    each is stored as ``value * scale``, which must be whole (``scale=2`` for halves, 100 for
    hundredths); anything else is refused naming the holding."""
    if not isinstance(scale, int) or not 1 <= scale <= 10 ** 6:
        raise DealerScriptError(f"holding function '{name}': scale must be a whole number from 1 to 1,000,000")
    out = np.empty(8192, dtype=np.int64)
    for mask in range(8192):
        text = holding_text(mask)
        value = function(text)
        if isinstance(value, (bool, np.bool_)):
            value = int(value)
        try:
            scaled = Fraction(value) * scale
        except (TypeError, ValueError):
            raise DealerScriptError(f"holding function '{name}' gave {value!r} for {text or 'a void'}: "
                                    "not a number") from None
        if scaled.denominator != 1:
            raise DealerScriptError(f"holding function '{name}' gave {value!r} for {text or 'a void'}: not a "
                                    f"multiple of 1/{scale} (give scale= for fractional values)")
        if abs(scaled) > MAX_HOLDING_VALUE:
            raise DealerScriptError(f"holding function '{name}' gave {value!r} for {text or 'a void'}: too large")
        out[mask] = int(scaled)
    return checked_table(name, out, scale)
