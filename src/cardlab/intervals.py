"""Confidence intervals, in one place: the Wilson score interval of a proportion and the
normal interval of a mean from running sums, with their z values.

Every simulated figure the package prints (hand tables, dealer scripts, double-dummy
statistics, equity) takes its 95% interval from here.

>>> round(Z95, 6), round(z_value(0.99), 4)
(1.959964, 2.5758)
>>> wilson(50, 100)
Interval(low=0.4038..., high=0.5961...)
>>> wilson(0, 10).low, wilson(10, 10).high
(0.0, 1.0)
>>> [round(x, 3) for x in mean_interval(total=10.0, squares=30.0, n=4)]
[1.235, 3.765]
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Generic, NamedTuple, TypeVar, overload

import numpy as np

__all__ = ["Interval", "Z95", "z_value", "wilson", "mean_interval"]

#: The two-sided 95% normal quantile, ``NormalDist().inv_cdf(0.975)``.
Z95 = 1.959963984540054

T = TypeVar("T", float, np.ndarray)


class Interval(NamedTuple, Generic[T]):
    """A confidence interval ``(low, high)``: floats, or arrays with one entry per row."""

    low: T
    high: T


def z_value(level: float) -> float:
    """The two-sided normal quantile for a confidence ``level`` (``Z95`` at 0.95).

    >>> z_value(1.5)
    Traceback (most recent call last):
    ...
    ValueError: confidence level must be between 0 and 1, not 1.5
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level must be between 0 and 1, not {level}")
    return Z95 if level == 0.95 else NormalDist().inv_cdf(0.5 + level / 2)


@overload
def wilson(successes: np.ndarray, trials: int, level: float = 0.95) -> Interval[np.ndarray]: ...


@overload
def wilson(successes: float, trials: int, level: float = 0.95) -> Interval[float]: ...


def wilson(successes: float | np.ndarray, trials: int, level: float = 0.95) -> Interval[float] | Interval[np.ndarray]:
    """Wilson score interval for the proportion ``successes / trials`` (an array works row by row).

    Exact at the edges: no successes gives a low of 0, all successes a high of 1;
    no trials gives ``(0, 1)``.
    """
    z = z_value(level)
    k = np.asarray(successes, dtype=float)
    n = float(trials)
    if n <= 0:
        lo, hi = np.zeros_like(k), np.ones_like(k)
    else:
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        lo = np.where(k == 0, 0.0, np.maximum(centre - half, 0.0))
        hi = np.where(k == n, 1.0, np.minimum(centre + half, 1.0))
    if np.ndim(successes) == 0:
        return Interval(float(lo), float(hi))
    return Interval(lo, hi)


def mean_interval(total: float, squares: float, n: int, level: float = 0.95) -> Interval[float]:
    """Normal interval for the mean of ``n`` values from their sum and sum of squares
    (sample variance, ``n - 1`` in the denominator; one value gives a zero-width interval,
    none gives ``(nan, nan)``)."""
    if n <= 0:
        return Interval(math.nan, math.nan)
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1) if n > 1 else 0.0
    half = z_value(level) * math.sqrt(var / n)
    return Interval(mean - half, mean + half)
