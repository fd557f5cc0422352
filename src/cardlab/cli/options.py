"""The argparse types of every numeric option, with their bounds (one place for all commands).

A bad value is an argparse error: one line ``cardlab ...: error: argument -n/--count: ...``
and exit status 2, before any work. Every type accepts the spellings people write
(``10_000_000``, ``10,000,000``, ``1e7``) and quotes the user's own text when it refuses one.

>>> count = whole_number(1, 10**6)
>>> count("1e3"), count("10_000"), count("2,500")
(1000, 10000, 2500)
>>> count("1e400")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a whole number from 1 to 1,000,000, got '1e400'
>>> count("2.5")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a whole number, got '2.5'

The module imports nothing heavy: ``cardlab --help`` loads it for every command.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

__all__ = ["WholeNumber", "whole_number", "DecimalNumber", "decimal_number", "parse_whole", "trials", "seed_value", "workers_value",
           "MAX_TRIALS", "MAX_SEED", "MAX_WORKERS"]

MAX_TRIALS = 10**20
"""Most trials, deals or tries any command takes: 10^20, as docs/design.md promises (far beyond a
lifetime of work; the engine's chunk counters stay within 64 bits, which 10^30 did not)."""
MAX_SEED = 2**128 - 1
"""Largest seed: numpy's SeedSequence keeps 128 bits of entropy; more would be silently folded."""
MAX_WORKERS = 4096
"""Most worker processes one may ask for (more than the available cores is then capped with a note)."""

_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?", re.IGNORECASE)


def parse_whole(text: str, low: int | None = None, high: int | None = None) -> int:
    """``text`` as a whole number within ``[low, high]``; ``ValueError`` quoting ``text`` otherwise.

    Exact for any spelling (``1e18`` is 10**18, never a rounded float), and quick for any
    length: a value far out of range is refused by its exponent, before it is built.

    >>> parse_whole("-3", low=0)
    Traceback (most recent call last):
    ...
    ValueError: expected a whole number from 0 up, got '-3'
    >>> parse_whole("1.5e3")
    1500
    """
    cleaned = text.strip().replace("_", "").replace(",", "")
    if _INTEGER.fullmatch(cleaned) and len(cleaned) <= 40:
        value = int(cleaned)
    elif _DECIMAL.fullmatch(cleaned):
        try:
            number = Decimal(cleaned)
        except InvalidOperation:  # pragma: no cover - the pattern admits only valid decimals
            raise ValueError(f"expected a whole number, got '{text}'") from None
        if number.adjusted() > 40:  # more than 41 digits: out of any range here, do not build it
            raise ValueError(_range_message(text, low, high))
        if number != number.to_integral_value():
            raise ValueError(f"expected a whole number, got '{text}'")
        value = int(number)
    else:
        raise ValueError(f"expected a whole number, got '{text}'")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(_range_message(text, low, high))
    return value


def _range_message(text: str, low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"expected a whole number from {_show(low)} to {_show(high)}, got '{text}'"
    if low is not None:
        return f"expected a whole number from {_show(low)} up, got '{text}'"
    if high is not None:
        return f"expected a whole number up to {_show(high)}, got '{text}'"
    return f"expected a whole number, got '{text}'"


def _show(value: int) -> str:
    """A bound as people read it: 1,000,000; 10^18; 2^128-1."""
    if value == MAX_SEED:
        return "2^128-1"
    if value >= 10**9 and str(value).rstrip("0") == "1":
        return f"10^{len(str(value)) - 1}"
    return f"{value:,}"


@dataclass(frozen=True)
class WholeNumber:
    """An argparse type: a whole number in ``[low, high]`` (either bound may be None)."""

    low: int | None = 1
    high: int | None = MAX_TRIALS

    def __call__(self, text: str) -> int:
        try:
            return parse_whole(text, self.low, self.high)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None


def whole_number(low: int | None = 1, high: int | None = MAX_TRIALS) -> WholeNumber:
    """The argparse type of a whole-number option from ``low`` to ``high``."""
    return WholeNumber(low, high)


trials = whole_number(1, MAX_TRIALS)
"""Trials, deals, tries: 1 to 10^20."""
seed_value = whole_number(0, MAX_SEED)
"""A random seed: 0 to 2^128-1."""
workers_value = whole_number(1, MAX_WORKERS)
"""Worker processes: 1 to 4096 (then capped at the available cores, with a note)."""


@dataclass(frozen=True)
class DecimalNumber:
    """An argparse type: a finite decimal number (``7.5``, ``1e1``, ``12_000``) in ``[low, high]``,
    returned as a float; ``low_open`` excludes ``low`` itself (a stack must be above 0).

    >>> stack = decimal_number(0, 10_000, low_open=True)
    >>> stack("7.5"), stack("1e1")
    (7.5, 10.0)
    >>> stack("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a number above 0 and up to 10,000, got '0'
    """

    low: float
    high: float
    low_open: bool = False

    def __call__(self, text: str) -> float:
        cleaned = text.strip().replace("_", "").replace(",", "")
        bounds = (f"a number {'above' if self.low_open else 'from'} {_show_decimal(self.low)} "
                  f"{'and up to' if self.low_open else 'to'} {_show_decimal(self.high)}")
        if not _DECIMAL.fullmatch(cleaned):
            raise argparse.ArgumentTypeError(f"expected {bounds}, got '{text}'")
        number = Decimal(cleaned)
        if number.adjusted() > 40 or number > Decimal(repr(self.high)) or number < Decimal(repr(self.low)) \
                or (self.low_open and number == Decimal(repr(self.low))):
            raise argparse.ArgumentTypeError(f"expected {bounds}, got '{text}'")
        return float(number)


def _show_decimal(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def decimal_number(low: float, high: float, *, low_open: bool = False) -> DecimalNumber:
    """The argparse type of a decimal option from ``low`` (excluded when ``low_open``) to ``high``."""
    return DecimalNumber(low, high, low_open)
