"""The dealer actions that summarise pairs of values: ``correlation`` and ``bktfreq``.

``correlation ["label"] (X, Y)`` is Pearson's correlation of two expressions over the produced
deals (Deal 3.1's ``correlation`` command, its manual's "Statistics" section: ``name add x y``,
``name correlate``), with its 95% interval from Fisher's z. ``bktfreq ["label"] (X, LO, HI, STEP)``
and its two-expression form are DealerV2's bucketed frequencies (``src/dealyacc.y``,
``src/deal_bktfreq_subs.c``): buckets ``LO, LO+STEP, ...`` up to the one holding ``HI``, with
``Low``/``High`` for the values outside.

>>> c = CorrelationStat("x y", 4, 10, 20, 30, 120, 60)
>>> round(c.value, 6)
1.0
>>> bucket_index(np.array([-5, 0, 1, 2, 9, 10, 11]), 0, 9, 2).tolist()   # buckets 0 2 4 6 8 and High
[0, 1, 1, 2, 5, 6, 6]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.intervals import Z95
from cardlab.results import JsonText

__all__ = ["CorrelationStat", "BucketStat", "bucket_count", "bucket_index"]


def bucket_count(lo: int, hi: int, step: int) -> int:
    """The number of buckets of ``bktfreq (X, lo, hi, step)`` with Low and High, as DealerV2
    counts them: ``3 + (hi - lo) / step``.

    >>> bucket_count(11, 22, 1), bucket_count(0, 9, 2)
    (14, 7)
    """
    return 3 + (hi - lo) // step


def bucket_index(values: np.ndarray, lo: int, hi: int, step: int) -> np.ndarray:
    """Each value's bucket: 0 below ``lo`` (Low), ``1 + (v - lo) // step`` inside, the last (High)
    from ``lo + (count - 2) * step`` up."""
    last = bucket_count(lo, hi, step) - 1
    v = np.clip(np.asarray(values, dtype=np.int64), lo - 1, lo + last * step)  # no overflow below
    inside = 1 + (v - lo) // step
    return np.where(v < lo, 0, np.minimum(inside, last)).astype(np.int64)


@dataclass(frozen=True)
class CorrelationStat(JsonText):
    """``correlation``: the sums of two expressions over the produced deals, and their correlation."""

    label: str | None
    count: int
    sum_x: int
    sum_y: int
    sum_xx: float
    sum_yy: float
    sum_xy: float

    def _spread(self) -> tuple[float, float, float]:
        n = self.count
        sxx = self.sum_xx - self.sum_x * self.sum_x / n
        syy = self.sum_yy - self.sum_y * self.sum_y / n
        sxy = self.sum_xy - self.sum_x * self.sum_y / n
        return sxx, syy, sxy

    @property
    def value(self) -> float:
        """Pearson's r (nan with fewer than two deals or when either expression is constant)."""
        if self.count < 2:
            return float("nan")
        sxx, syy, sxy = self._spread()
        if sxx <= 0 or syy <= 0:
            return float("nan")
        return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))

    def ci95(self) -> tuple[float, float]:
        """95% interval of r from Fisher's z (nan with fewer than four deals)."""
        r = self.value
        if self.count < 4 or math.isnan(r):
            return (float("nan"), float("nan"))
        if abs(r) == 1.0:
            return (r, r)
        z, half = math.atanh(r), Z95 / math.sqrt(self.count - 3)
        return math.tanh(z - half), math.tanh(z + half)

    def means(self) -> tuple[float, float]:
        """The means of the two expressions."""
        n = self.count or 1
        return self.sum_x / n, self.sum_y / n

    def sdevs(self) -> tuple[float, float]:
        """The two sample standard deviations (n - 1 in the divisor, as Deal's ``sdev``)."""
        if self.count < 2:
            return (float("nan"), float("nan"))
        sxx, syy, _ = self._spread()
        return math.sqrt(max(sxx, 0.0) / (self.count - 1)), math.sqrt(max(syy, 0.0) / (self.count - 1))

    def to_dict(self) -> dict[str, Any]:
        """``{label, value, ci95, count, mean, sdev}`` (mean and sdev as [x, y])."""
        lo, hi = self.ci95()
        return {"label": self.label or "", "value": self.value, "ci95": [lo, hi], "count": self.count,
                "mean": list(self.means()), "sdev": list(self.sdevs())}

    def text(self) -> str:
        """One line: ``Correlation LABEL: r (95% interval lo - hi, N deals)``."""
        lo, hi = self.ci95()
        return (f"Correlation {self.label or ''}: {self.value:.4f} "
                f"(95% interval {lo:.4f} - {hi:.4f}, {self.count} deals)\n")


@dataclass(frozen=True)
class BucketStat(JsonText):
    """``bktfreq``: counts per bucket of one expression, or a table of two (rows: the first)."""

    label: str | None
    bounds: tuple[int, ...]  # lo, hi, step (and lo2, hi2, step2)
    counts: tuple[Any, ...]

    def names(self, axis: int = 0) -> list[int]:
        """The first value of each bucket between Low and High."""
        lo, hi, step = self.bounds[3 * axis:3 * axis + 3]
        return [lo + k * step for k in range(bucket_count(lo, hi, step) - 2)]

    def to_dict(self) -> dict[str, Any]:
        """The buckets (``low``, each bucket's first value, ``high``) and their counts."""
        if len(self.bounds) == 3:
            keys: list[Any] = ["low", *self.names(), "high"]
            return {"label": self.label or "", "bounds": list(self.bounds),
                    "rows": [{"bucket": k, "count": c} for k, c in zip(keys, self.counts)]}
        return {"label": self.label or "", "bounds": [list(self.bounds[:3]), list(self.bounds[3:])],
                "rows": ["low", *self.names(0), "high"], "columns": ["low", *self.names(1), "high"],
                "counts": [list(r) for r in self.counts]}

    def text(self) -> str:
        """The table DealerV2 prints (``show_freq1D`` with percentages, ``show_freq2D`` with sums)."""
        out = [f"\nDescription: {self.label or ''}{'' if len(self.bounds) == 3 else ' '}\n"]
        if len(self.bounds) == 3:
            counts = self.counts
            total = sum(counts)
            scale = total / 100.0 if total else 1.0
            out.append("Value\t   Count\t    Pct.\t  CumPct\n")
            cum = 0.0
            rows = [("Low", counts[0])] if counts[0] else []
            rows += [(f"{v:5d}", c) for v, c in zip(self.names(), counts[1:-1])]
            rows += [("High", counts[-1])] if counts[-1] else []
            for name, c in rows:
                cum += c / scale
                out.append(f"{name}\t{c:8d}\t{c / scale:8.2f}\t{cum:8.2f}\n")
            out.append(f"    \t--------\nTotal\t{total:8d}\t{100.0:8.2f}\n")
            return "".join(out)
        out.append("           Low" + "".join(f" {v:8d}" for v in self.names(1)) + "     High    Sum\n")
        names = [" Low "] + [f"{v:4d} " for v in self.names(0)] + ["High "]
        for name, row in zip(names, self.counts):
            out.append(name + "".join(f" {c:8d}" for c in row) + f" {sum(row):8d}\n")
        columns = [sum(col) for col in zip(*self.counts)]
        out.append("Sum  " + "".join(f" {c:8d}" for c in columns) + f" {sum(columns):8d}\n")
        return "".join(out)
