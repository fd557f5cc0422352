"""The errors cardlab raises for bad input.

Every error is a :class:`ValueError` subclass whose message quotes the offending
token (a card, a scheme, a contract, a line of a file), so a caller can catch
``ValueError`` or the specific class, and the command line can print the message
as one clear line.

>>> from cardlab.cards import parse_cards
>>> parse_cards("AsZd")
Traceback (most recent call last):
...
cardlab.errors.CardError: unknown symbol 'Z' in 'AsZd'
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "CardlabError",
    "CardError",
    "DeckError",
    "SchemeError",
    "TooLargeError",
    "SearchMemoryError",
    "ConstraintError",
    "ContractError",
    "ScoringError",
    "InputFileError",
    "ResultFileError",
    "HandError",
    "ReelsFileError",
    "ClusterError",
    "DealerScriptError",
    "RangeError",
    "PayTableError",
    "CoreMissingError",
    "TournamentError",
    "WebInputError",
    "SolverError",
    "BlackjackError",
    "text_argument",
    "number_argument",
    "whole_argument",
    "MissingDependencyError",
    "require",
    "MovementError",
]


def text_argument(value: object, what: str, error: type[CardlabError]) -> str:
    """``value`` when it is text, else ``error`` saying what ``what`` is written as: a library call
    given a number or None where it reads text fails with a cardlab error, never AttributeError.

    >>> text_argument(3, "a game", HandError)
    Traceback (most recent call last):
    ...
    cardlab.errors.HandError: a game is given as text, not int 3
    """
    if not isinstance(value, str):
        raise error(f"{what} is given as text, not {type(value).__name__} {value!r:.40}")
    return value


def number_argument(value: object, what: str, error: type[CardlabError], low: float, high: float, *,
                    low_open: bool = False, high_open: bool = False) -> float:
    """``value`` as a float when it is a finite real number from ``low`` to ``high`` (either end
    left out with ``low_open``/``high_open``), else ``error`` naming it: NaN, infinities, text,
    None and bools are refused (never compared, rounded or passed on to the compiled core).

    >>> number_argument(0.5, "the rake", SolverError, 0, 1, high_open=True)
    0.5
    >>> number_argument(float("nan"), "the rake", SolverError, 0, 1, high_open=True)
    Traceback (most recent call last):
    ...
    cardlab.errors.SolverError: the rake must be a number at least 0 and below 1, not nan
    """
    import math
    from numbers import Real

    try:
        number = float(value) if isinstance(value, Real) and not isinstance(value, bool) else math.nan
    except OverflowError:  # an int past the floats
        number = math.inf
    fits = math.isfinite(number) and (low < number if low_open else low <= number) and \
        (number < high if high_open else number <= high)
    if not fits:
        raise error(f"{what} must be a number {'above' if low_open else 'at least'} {low:g} and "
                    f"{'below' if high_open else 'at most'} {high:g}, not {_shown(value)}")
    return number


def whole_argument(value: object, what: str, error: type[CardlabError], low: int, high: int) -> int:
    """``value`` as an int when it is a whole number (an int or a numpy integer, not a bool or a
    float) from ``low`` to ``high``, else ``error`` naming it.

    >>> whole_argument(8, "tables", MovementError, 6, 60)
    8
    >>> whole_argument(8.0, "tables", MovementError, 6, 60)
    Traceback (most recent call last):
    ...
    cardlab.errors.MovementError: tables must be a whole number from 6 to 60, not 8.0
    """
    from numbers import Integral

    if isinstance(value, bool) or not isinstance(value, Integral) or not low <= int(value) <= high:
        raise error(f"{what} must be a whole number from {low:,} to {high:,}, not {_shown(value)}")
    return int(value)


def _shown(value: object) -> str:
    """A value as an error quotes it: its repr, a long one by its start and length."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**40 else f"an int of {len(str(value))} digits"
    return text if len(text) <= 60 else f"{text[:60]}... ({len(text):,} characters)"


class CardlabError(ValueError):
    """Base class of every input error cardlab raises."""


class CardError(CardlabError):
    """A card or card list that cannot be read (unknown rank or suit, bad PBN hand)."""


class DeckError(CardlabError):
    """A request the deck cannot satisfy: a card given twice, a card not in the deck,
    more cards than the deck holds."""


class SchemeError(CardlabError):
    """An unknown or malformed point scheme."""


class ConstraintError(CardlabError):
    """A deal constraint that cannot be read or cannot be met."""


class TooLargeError(CardlabError):
    """An exact computation that would take too long; the message says what to run instead."""


class SearchMemoryError(TooLargeError, MemoryError):
    """A search that would need more memory than its limit allows: a :class:`TooLargeError`
    (the command line prints the message as one line) and a :class:`MemoryError`."""


class ContractError(CardlabError):
    """An unknown contract, declarer, vulnerability or result, or an impossible number of tricks."""


class ScoringError(CardlabError):
    """Results that cannot be scored: a pair twice on one board, an unknown scale or method,
    a malformed artificial score, a score that contradicts its contract."""


class InputFileError(CardlabError):
    """A file that cannot be read (not text, a bad line); the message names the file and line.

    >>> str(InputFileError("not a text file", source="deal.dl"))
    'deal.dl: not a text file'
    """

    def __init__(self, reason: str, line: int | None = None, source: str | None = None) -> None:
        self.reason = reason
        self.line = line
        self.source = source
        where = [part for part in (source, f"line {line}" if line is not None else None) if part]
        super().__init__(": ".join([*where, reason]))


class ResultFileError(ScoringError, InputFileError):
    """A traveller file (CSV, USEBIO XML or PBN) that cannot be read; names the file and line.

    >>> str(ResultFileError("pair NS 7 appears twice on board 3", line=12, source="s.csv"))
    's.csv: line 12: pair NS 7 appears twice on board 3'
    """


class HandError(CardlabError):
    """A poker hand that cannot be evaluated: wrong number of cards, a card given
    twice, a card outside the rule variant's deck, an unknown category or rule."""


class ReelsFileError(CardlabError):
    """A reels file with a bad line; the message starts with the line number.

    >>> ReelsFileError("Xx 2c", 3)
    ReelsFileError('line 3: Xx 2c')
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class ClusterError(CardlabError):
    """A Dask cluster that cannot be used: unreachable scheduler, malformed address,
    ``distributed`` not installed, or the cluster lost while running."""


class DealerScriptError(CardlabError):
    """A dealer script that cannot be read or run: the message names the line and column
    and says what was expected.

    >>> str(DealerScriptError("unknown function 'hpc'", line=3, column=11, source="open.dl"))
    "open.dl: line 3, column 11: unknown function 'hpc'"
    """

    def __init__(self, reason: str, line: int | None = None, column: int | None = None,
                 source: str | None = None) -> None:
        self.reason, self.line, self.column, self.source = reason, line, column, source
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "")
        parts = [p for p in (source, where) if p]
        super().__init__(": ".join([*parts, reason]))


class RangeError(CardlabError):
    """A hand range that cannot be read, or that leaves no hands; names the token."""


class PayTableError(CardlabError):
    """A video poker pay table that cannot be used: an unknown game or outcome, a malformed
    file, a negative or non-numeric pay; names the file and the line."""


class CoreMissingError(CardlabError):
    """The compiled core (``cardlab._core``) is not installed or does not load: a source install
    without a C compiler, or a platform without a wheel. The message says what to install."""


class TournamentError(CardlabError):
    """Tournament input that cannot be used: a stack of 0 or below, more payouts than players,
    payouts that do not add up to a positive prize pool, an all-in that names no player."""


class WebInputError(CardlabError):
    """What the workbench (``cardlab serve``) refuses before any work: an upload over the size
    limit, a form field out of range, a job over its time or memory limit, too many jobs at once.
    The message says which field or limit, and is shown on the page."""


class SolverError(CardlabError):
    """A solver spot that cannot be solved: a bet size that cannot be read, a pot or stack out of
    range, a tree or memory estimate over its limit, a node path that names no node."""


class MissingDependencyError(CardlabError, ImportError):
    """An optional dependency is not installed: the message is one line naming it and the pip
    command that installs it (``to_pandas()`` without pandas). An :class:`ImportError` too, so
    code that tests for a missing module keeps working."""


def require(module: str, extra: str, what: str) -> Any:
    """Import an optional dependency for ``what``, or raise :class:`MissingDependencyError` with
    the install command of the extra that brings it.

    >>> require("math", "pandas", "to_pandas()").sqrt(4.0)
    2.0
    >>> require("no_such_module_here", "pandas", "to_pandas()")
    Traceback (most recent call last):
    ...
    cardlab.errors.MissingDependencyError: to_pandas() needs no_such_module_here, which is not installed: pip install 'cardlab[pandas]'
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependencyError(f"{what} needs {module}, which is not installed: "
                                     f"pip install 'cardlab[{extra}]'") from None


class MovementError(CardlabError):
    """A movement that cannot be made or read (a table count it does not exist for, rounds out
    of range, a board set that is no set), or session results that leave it; the message says
    which table, round, pair or board."""


class BlackjackError(CardlabError):
    """Blackjack rules or a shoe that cannot be used: decks out of 1..8, an unknown double rule,
    a payout other than 3:2 or 6:5, a shoe that is not ten counts or is too small or too large."""
