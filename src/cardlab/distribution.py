"""Distribution: counts of a feature's values, exact or simulated, and what to do with them.

Exact counts are Python ints (the number of equally likely outcomes with each
value); simulated counts come with their number of trials, seed and Wilson
confidence intervals.

>>> d = Distribution("coin", (0, 1, 2), (1, 2, 1))
>>> d.total, d.probability(1)
(4, Fraction(1, 2))
>>> [round(float(p), 2) for p in d.at_least]
[1.0, 0.75, 0.25]
>>> d.to_dict()["rows"][2]
{'value': 2, 'count': 1, 'probability': 0.25, 'at_least': 0.25}
>>> print(d.table())
 coin   count   probability   at least
───────────────────────────────────────
    0       1      0.250000   1.000000
    1       2      0.500000   0.750000
    2       1      0.250000   0.250000
            total 4 (exact)
>>> d.probability(3)
Traceback (most recent call last):
...
KeyError: 'coin has no value 3'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from cardlab.results import JsonText, csv_rows
from cardlab.intervals import Interval, wilson
from cardlab.textformat import Key

__all__ = ["Distribution", "Simulation", "Interval", "wilson", "format_value", "json_value", "side_by_side"]

_HTML_ROWS = 60


@dataclass(frozen=True)
class Simulation:
    """How a simulated distribution was made."""

    trials: int
    seed: int | None
    workers: int = 1
    requested: int = 0
    interrupted: bool = False


@dataclass(frozen=True, repr=False)
class Distribution(JsonText):
    """Counts per value of a feature.

    ``values`` are ints, Fractions, strings or (for joint tables) tuples, in
    display order; ``counts`` are exact ints. ``simulation`` is set when the
    counts come from random trials rather than exact counting.
    """

    name: str
    values: tuple[Any, ...]
    counts: tuple[int, ...]
    simulation: Simulation | None = None
    axes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.values) != len(self.counts):
            raise ValueError("values and counts differ in length")

    @property
    def exact(self) -> bool:
        """Whether the counts are exact (not simulated)."""
        return self.simulation is None

    @property
    def total(self) -> int:
        """The sum of the counts: outcomes (exact) or trials (simulated)."""
        return sum(self.counts)

    @property
    def probabilities(self) -> np.ndarray:
        """Each count over the total, as floats (all 0 when the total is 0)."""
        total = self.total
        return np.array([c / total if total else 0.0 for c in self.counts])

    @property
    def at_least(self) -> np.ndarray:
        """P(value >= this row's value): the tail sum from each row to the last."""
        total = self.total
        tails = np.cumsum(np.array(self.counts[::-1], dtype=object))[::-1]
        return np.array([float(Fraction(int(t), total)) if total else 0.0 for t in tails])

    def count(self, value: Any) -> int:
        """The count of one value; ``KeyError`` naming the value when it is not in the table."""
        try:
            return self.counts[self.values.index(value)]
        except ValueError:
            raise KeyError(f"{self.name} has no value {value}") from None

    def probability(self, value: Any) -> Fraction:
        """Exact probability of one value (a Fraction of the counts)."""
        return Fraction(self.count(value), self.total)

    def mean(self) -> Fraction:
        """Exact mean of a numeric feature."""
        return sum((Fraction(v) * c for v, c in zip(self.values, self.counts)), Fraction(0)) / self.total

    def confidence_interval(self, level: float = 0.95) -> Interval[np.ndarray]:
        """Wilson score interval per row for the probability, from ``total`` trials:
        ``Interval(low, high)`` of arrays aligned with the rows."""
        return wilson(np.array(self.counts, dtype=float), self.total, level)

    def select(self, indices: list[int]) -> Distribution:
        """Only the rows at ``indices``, in that order."""
        return Distribution(self.name, tuple(self.values[i] for i in indices),
                            tuple(self.counts[i] for i in indices), self.simulation, self.axes)

    def sorted_by_count(self) -> Distribution:
        """Rows from most to least frequent (ties keep their order)."""
        order = sorted(range(len(self.counts)), key=lambda i: -self.counts[i])
        return self.select(order)

    def trim(self) -> Distribution:
        """Without the zero-count rows at both ends (impossible extreme values)."""
        nonzero = [i for i, c in enumerate(self.counts) if c]
        if not nonzero:
            return self
        return self.select(list(range(nonzero[0], nonzero[-1] + 1)))

    def nonzero(self) -> Distribution:
        """Without any zero-count row."""
        return self.select([i for i, c in enumerate(self.counts) if c])

    def rows(self, value_key: str = "value", cumulative: bool = True) -> list[dict[str, Any]]:
        """One dict per value: value, count, probability and (if ``cumulative``) at_least."""
        probs, tails = self.probabilities, self.at_least
        rows = []
        for v, c, p, t in zip(self.values, self.counts, probs, tails):
            row = {value_key: json_value(v), "count": int(c), "probability": float(p)}
            if cumulative:
                row["at_least"] = float(t)
            rows.append(row)
        return rows

    def to_dict(self, value_key: str = "value", cumulative: bool = True) -> dict[str, Any]:
        """``{"total": int, "rows": [...]}``; simulated ones add trials, seed and intervals."""
        data: dict[str, Any] = {"total": self.total, "rows": self.rows(value_key, cumulative)}
        if self.simulation is not None:
            lo, hi = self.confidence_interval()
            for row, a, b in zip(data["rows"], lo, hi):
                row["ci95"] = [float(a), float(b)]
            data["simulation"] = {
                "trials": self.simulation.trials,
                "seed": self.simulation.seed,
                "interrupted": self.simulation.interrupted,
            }
        return data

    def to_csv(self, value_key: str = "value", cumulative: bool = True) -> str:
        """CSV text with a header row."""
        rows = self.rows(value_key, cumulative)
        for row in rows:
            row[value_key] = format_value(row[value_key])
        return csv_rows(rows, [value_key])

    def table(self, title: str | None = None) -> str:
        """The aligned text table the command line prints (see :mod:`cardlab.report.table`)."""
        from cardlab.report.table import distribution_text

        return distribution_text(self, title=title)

    def plot(self, path: Any, title: str | None = None, simulated: Distribution | None = None) -> Any:
        """Draw a PNG: a bar chart, or a heat map for a joint table (see :mod:`cardlab.report.plot`)."""
        from cardlab.report.plot import plot_distribution, plot_joint

        if self.axes:
            return plot_joint(self, path, title=title)
        return plot_distribution(self, path, title=title, simulated=simulated)

    def to_pandas(self) -> Any:
        """A pandas DataFrame, one row per value: one column per axis of a joint table (else the
        feature's name), count, probability, at_least, and for a simulation ci95_low/ci95_high.

        Needs pandas (``pip install 'cardlab[pandas]'``).
        """
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        columns: dict[str, Any] = {}
        if self.axes:
            for i, axis in enumerate(self.axes):
                columns[axis] = [v[i] for v in self.values]
        else:
            columns[self.name] = list(self.values)
        columns["count"] = list(self.counts)
        columns["probability"] = self.probabilities
        columns["at_least"] = self.at_least
        if self.simulation is not None:
            lo, hi = self.confidence_interval()
            columns["ci95_low"], columns["ci95_high"] = lo, hi
        return pd.DataFrame(columns)

    def __repr__(self) -> str:
        kind = "exact" if self.simulation is None else (
            f"simulated, {self.simulation.trials:,} trials, seed {self.simulation.seed}")
        return f"<Distribution {self.name!r}: {len(self.values)} values, total {self.total:,} ({kind})>"

    def _repr_html_(self) -> str:
        """A notebook table of the first rows (the full table is :meth:`to_pandas`)."""
        from html import escape

        simulated = self.simulation is not None
        head = [escape(self.name), "count", "probability"] + (["95% interval"] if simulated else [])
        lo, hi = self.confidence_interval() if simulated else (np.zeros(0), np.zeros(0))
        body = []
        for i, (v, c, p) in enumerate(zip(self.values, self.counts, self.probabilities)):
            if i == _HTML_ROWS:
                body.append(f"<tr><td colspan='{len(head)}'>… {len(self.values) - i} more rows "
                            f"(see .to_pandas())</td></tr>")
                break
            cells = [escape(format_value(v)), f"{c:,}", f"{p:.6g}"]
            if simulated:
                cells.append(f"{lo[i]:.6g} – {hi[i]:.6g}")
            body.append("<tr>" + "".join(f"<td>{x}</td>" for x in cells) + "</tr>")
        caption = escape(repr(self)[1:-1])
        return (f"<table><caption>{caption}</caption><thead><tr>"
                + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead><tbody>"
                + "".join(body) + "</tbody></table>")


def json_value(value: Any) -> Any:
    """A value as JSON can hold it exactly: ints stay ints, other fractions become strings."""
    if isinstance(value, tuple):
        return [json_value(v) for v in value]
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else format_value(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    return value


def format_value(value: Any) -> str:
    """Text of a value: fractions as exact decimals where they end (4.5, 0.75), else a/b; a
    :class:`~cardlab.textformat.Key` as its title ('High card')."""
    if isinstance(value, Key):
        return value.shown
    if isinstance(value, (list, tuple)):
        return " × ".join(format_value(v) for v in value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        den = value.denominator
        while den % 2 == 0:
            den //= 2
        while den % 5 == 0:
            den //= 5
        if den == 1:
            digits = 0
            d = value.denominator
            while d != 1:
                digits += 1
                d = d // math.gcd(d, 10)
            return f"{float(value):.{digits}f}"
        return f"{value.numerator}/{value.denominator}"
    return str(value)


def side_by_side(exact: Distribution, simulated: Distribution, value_key: str = "value") -> list[dict[str, Any]]:
    """Rows of exact and simulated probabilities with the simulation's 95% interval.

    ``within`` tells whether the exact probability lies inside the interval.
    """
    if list(exact.values) != list(simulated.values):
        raise ValueError("the two distributions have different values")
    lo, hi = simulated.confidence_interval()
    total, shares = exact.total, simulated.probabilities  # once: per row, 15,156 rows took minutes
    rows = []
    for i, (v, c) in enumerate(zip(exact.values, exact.counts)):
        p = c / total
        rows.append({
            value_key: json_value(v),
            "count": int(c),
            "probability": p,
            "simulated_count": int(simulated.counts[i]),
            "simulated_probability": float(shares[i]),
            "ci95": [float(lo[i]), float(hi[i])],
            "within": bool(lo[i] <= p <= hi[i]),
        })
    return rows

