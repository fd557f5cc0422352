"""The one style of the text every command prints: aligned tables, percentages, exact fractions,
intervals and counted nouns. Plain strings only (no rich, no numpy), so any layer may use it.

>>> print(text_table(["outcome", "count", "share"], [["pair", "1,098,240", percent(0.422569)],
...                                                   ["two pair", "123,552", percent(0.047539)]]))
outcome       count   share
───────────────────────────
pair      1,098,240  42.26%
two pair    123,552   4.75%
>>> fraction_text(Fraction(872, 47)), interval("0.10", "0.20"), plural(1, "board"), plural(2, "board")
('872/47', '0.10 – 0.20', '1 board', '2 boards')
>>> percent(Fraction(1, 4), trim=True), percent(Fraction(1, 3), trim=True)
('25%', '33.33%')
>>> probability(0.422569), probability(4.846e-06), probability(0), Key("high_card").shown
('0.422569', '0.000004846', '0', 'High card')
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Collection, Sequence

__all__ = ["text_table", "percent", "probability", "fraction_text", "interval", "plural", "title", "Key", "RULE",
           "INTERVAL_SEPARATOR"]

#: The line under a table's header.
RULE = "─"
#: Between the ends of every interval a command prints.
INTERVAL_SEPARATOR = " – "


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], *, left: Collection[int] = (0,),
               caption: str = "") -> str:
    """An aligned table: the header, a rule, the rows; the columns numbered in ``left`` aligned
    left, the others right; two spaces between columns, no trailing spaces, no final newline."""
    cells = [list(header), *(list(r) for r in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(row, widths))).rstrip()

    lines = [line(header), RULE * (sum(widths) + 2 * (len(widths) - 1)), *(line(r) for r in rows)]
    if caption:
        lines.append(caption)
    return "\n".join(lines)


def percent(share: float | Fraction, digits: int = 2, *, trim: bool = False) -> str:
    """``share`` (0..1) as a percentage with ``digits`` decimals; ``trim`` drops trailing zeros
    (an exact 1/4 is '25%')."""
    text = f"{100 * float(share):.{digits}f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + "%"


def fraction_text(value: Fraction | int) -> str:
    """An exact ratio as 'p/q' (a whole number as itself)."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def interval(low: str, high: str) -> str:
    """The two ends of an interval, already formatted, with the one separator."""
    return f"{low}{INTERVAL_SEPARATOR}{high}"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """'1 board', '2 boards' (``nouns`` for an irregular plural)."""
    return f"{count:,} {noun if count == 1 else (nouns or noun + 's')}"


def probability(p: float) -> str:
    """A probability in the one number style of every table: six decimals, and for a tiny non-zero
    one the decimals that show four significant digits (never exponent notation)."""
    p = float(p)
    if p == 0:
        return "0"
    if p >= 1e-5:
        return f"{p:.6f}"
    return f"{p:.{3 - math.floor(math.log10(p))}f}"


def title(key: str) -> str:
    """A snake_case key as a table shows it: 'high_card' -> 'High card'."""
    return key.replace("_", " ").capitalize()


class Key(str):
    """A value's snake_case key (JSON, CSV and comparisons use it as the string it is) that a
    table shows as its :func:`title`."""

    __slots__ = ()

    @property
    def shown(self) -> str:
        """The key as a table shows it (:func:`title`)."""
        return title(self)
