"""Script parity with Deal, redeal and DealerV2 (issue 41): correlation and bucketed frequencies,
scripts run over saved deals, user holding functions, the two meanings of "balanced".

Every figure is recomputed here by an independent route (numpy over the same deals, or plain
Python over the cards), on small seeded runs."""

from __future__ import annotations

import io
import re
import json
from typing import Any

import numpy as np
import pytest

from cardlab.bridge.dealer import parse_script, run_script
from cardlab.bridge.dealer.dealing import owner_from_masks
from cardlab.cli.main import main
from cardlab.errors import DealerScriptError


def _run_keeping(text: str, seed: int = 5, **options: Any) -> tuple[Any, np.ndarray]:
    """Run a script and keep its produced deals as ``owner[52, n]``."""
    kept: list[np.ndarray] = []
    result = run_script(parse_script(text), seed=seed, on_deals=lambda d, _: kept.append(owner_from_masks(d)),
                        **options)
    return result, np.concatenate(kept, axis=1)


def _hcp(owner: np.ndarray, seat: int) -> np.ndarray:
    """4-3-2-1 points from the cards themselves (card id // 4 is the rank, 9 the jack)."""
    points = np.maximum(np.arange(52) // 4 - 8, 0)
    return ((owner == seat) * points[:, None]).sum(axis=0)


def _length(owner: np.ndarray, seat: int, suit: int) -> np.ndarray:
    return (owner[suit::4] == seat).sum(axis=0)


# --- correlation and bktfreq ---------------------------------------------------------------------

STATS = """
generate 4000
produce 4000
condition hcp(north) >= 8
action correlation "ns" (hcp(north), hcp(south)),
  correlation (spades(north), hearts(north)),
  bktfreq "points" (hcp(north), 10, 20, 3),
  bktfreq "grid" (hcp(south), 0, 12, 4, spades(north) + spades(south), 5, 9, 2),
  printoneline
"""


def test_correlation_and_buckets_against_numpy() -> None:
    result, owner = _run_keeping(STATS)
    n_pts, s_pts = _hcp(owner, 0), _hcp(owner, 2)
    assert result.produced == owner.shape[1] > 1000
    first, second = result.correlations
    assert first.count == result.produced
    assert first.value == pytest.approx(np.corrcoef(n_pts, s_pts)[0, 1], abs=1e-12)
    assert first.value < -0.05  # partners' points are negatively correlated (they share 40)
    lo, hi = first.ci95()
    assert lo < first.value < hi
    sp, he = _length(owner, 0, 3), _length(owner, 0, 2)
    assert second.value == pytest.approx(np.corrcoef(sp, he)[0, 1], abs=1e-12)
    assert first.means() == pytest.approx((n_pts.mean(), s_pts.mean()))
    assert first.sdevs()[0] == pytest.approx(n_pts.std(ddof=1))
    # buckets: Low (< 10), 10-12, 13-15, 16-18, 19-21 (the one holding 20), High (DealerV2: 3 + 10 // 3)
    one, two = result.buckets
    edges = [-1000, 10, 13, 16, 19, 22, 1000]
    assert list(one.counts) == np.histogram(n_pts, bins=edges)[0].tolist()
    fits = sp + _length(owner, 2, 3)
    expected, _, _ = np.histogram2d(s_pts, fits, bins=[[-1000, 0, 4, 8, 12, 16, 1000], [-1000, 5, 7, 9, 11, 1000]])
    assert [list(r) for r in two.counts] == expected.astype(int).tolist()


def test_statistics_print_in_script_order_as_text_and_json() -> None:
    script = parse_script(STATS.replace("printoneline", "average hcp(north)"))
    out = io.StringIO()
    result = run_script(script, seed=5, out=out)
    text = result.table()
    assert text.index("Correlation ns:") < text.index("Correlation :") < text.index("Description: points")
    assert text.index("Description: grid") < text.index("Generated")
    assert "Value\t   Count\t    Pct.\t  CumPct\n" in text and "Total\t" in text
    assert " Low " in text and "\nSum  " in text
    data = result.to_dict()
    assert data["correlations"][0]["value"] == pytest.approx(result.correlations[0].value)
    assert data["bucket_frequencies"][0]["rows"][1] == {"bucket": 10, "count": result.buckets[0].counts[1]}
    assert data["bucket_frequencies"][1]["columns"] == ["low", 5, 7, 9, "high"]


def test_statistics_do_not_depend_on_workers() -> None:
    one = run_script(parse_script(STATS.replace("printoneline", "average 1")), seed=9, workers=1)
    two = run_script(parse_script(STATS.replace("printoneline", "average 1")), seed=9, workers=2)
    assert one.correlations == two.correlations and one.buckets == two.buckets


@pytest.mark.parametrize("text, message", [
    ("action bktfreq (hcp(north), 0, 10, 0)", "bucket size 0"),
    ("action bktfreq (hcp(north), 10, 0, 1)", "upper bound is below"),
    ("action bktfreq (hcp(north), 0, 10)", "expected ',', got ')'"),
    ("action correlation (hcp(north))", "','"),
])
def test_bad_statistics_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(DealerScriptError, match=re.escape(message)):
        parse_script(text)
