"""The one interval module (cardlab.intervals) and the result objects that use it.

Coverage is checked two ways: exactly (the binomial probability that the Wilson interval
covers p, summed over every outcome) and empirically over 200 fixed seeds, so a wrong z, a
wrong variance or a swapped bound fails (a 1-sigma interval covers about 68% of seeds).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from cardlab.bridge.dd_sim import ContractStats
from cardlab.intervals import Interval, Z95, mean_interval, wilson, z_value

SEEDS = range(200)


def _binomial_pmf(n: int, p: float) -> list[float]:
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def test_z95_is_the_normal_quantile() -> None:
    assert Z95 == pytest.approx(NormalDist().inv_cdf(0.975), abs=1e-15)
    assert z_value(0.9) == pytest.approx(1.6448536269514722)  # NormalDist().inv_cdf(0.95)


def test_wilson_against_the_closed_form() -> None:
    # Wilson (1927) for k = 50, n = 100: centre 0.5, half-width z*sqrt(0.25/100 + z^2/40000)/(1 + z^2/100).
    z = Z95
    half = z * math.sqrt(0.25 / 100 + z * z / 40000) / (1 + z * z / 100)
    assert wilson(50, 100) == pytest.approx((0.5 - half, 0.5 + half))
    assert wilson(50, 100) == pytest.approx((0.40383153, 0.59616847))
    rows = wilson(np.array([0.0, 50.0, 100.0]), 100)
    edge = z * z / (100 + z * z)  # k = 0: the upper bound is z^2 / (n + z^2); k = n mirrors it
    assert isinstance(rows, Interval) and list(rows.low) == pytest.approx([0.0, 0.5 - half, 1 - edge])
    assert list(rows.high) == pytest.approx([edge, 0.5 + half, 1.0])
    assert wilson(3, 0) == (0.0, 1.0)


def test_mean_interval_against_the_sample_variance() -> None:
    values = [3.0, -1.0, 4.0, 1.0, 5.0, 9.0]
    n, mean = len(values), sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    lo, hi = mean_interval(sum(values), sum(v * v for v in values), n)
    assert (lo, hi) == pytest.approx((mean - Z95 * sd / math.sqrt(n), mean + Z95 * sd / math.sqrt(n)))
    assert mean_interval(7.0, 49.0, 1) == (7.0, 7.0)
    assert all(math.isnan(x) for x in mean_interval(0.0, 0.0, 0))


@pytest.mark.parametrize("n, p", [(16, 0.8), (48, 0.6), (200, 0.05)])
def test_wilson_exact_coverage_is_near_95_percent(n: int, p: float) -> None:
    pmf = _binomial_pmf(n, p)
    coverage = sum(q for k, q in enumerate(pmf) if wilson(k, n).low <= p <= wilson(k, n).high)
    # Wilson's coverage oscillates around the nominal level (Brown, Cai & DasGupta 2001, fig. 4):
    # within a couple of points of 95% for these n and p.
    assert 0.925 <= coverage <= 0.975


def test_double_dummy_intervals_cover_the_truth_in_about_95_percent_of_200_seeds() -> None:
    # The intervals a `bridge makes` run prints (ContractStats.make_interval, .expected_score),
    # fed with deals whose truth is known: each of 48 deals makes 3NT (+400) with p = 0.6,
    # else goes one down (-50). Counts drawn from seeds 0..199, all kept.
    n, p, made, down = 48, 0.6, 400.0, -50.0
    true_mean = p * made + (1 - p) * down
    make_hits = score_hits = 0
    for seed in SEEDS:
        k = int(np.random.default_rng(seed).binomial(n, p))
        tricks = tuple(k if t == 9 else n - k if t == 8 else 0 for t in range(14))
        stats = ContractStats("3NT", "N", n, tricks, k, k * made + (n - k) * down,
                              k * made**2 + (n - k) * down**2)
        lo, hi = stats.make_interval()
        make_hits += lo <= p <= hi
        _, slo, shi = stats.expected_score()
        score_hits += slo <= true_mean <= shi
    exact = sum(q for k, q in enumerate(_binomial_pmf(n, p)) if wilson(k, n).low <= p <= wilson(k, n).high)
    sd = math.sqrt(len(SEEDS) * exact * (1 - exact))
    assert abs(make_hits - len(SEEDS) * exact) <= 3 * sd, (make_hits, exact)
    # The normal interval of the mean has no exact coverage to compare with; 200 seeds at 95%
    # give 190 +- 3.1, so 180..199 holds unless the interval is wrong (a 1-sigma one gives ~136).
    assert 180 <= score_hits <= 199, score_hits
    assert 180 <= make_hits <= 199, make_hits
