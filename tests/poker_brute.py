"""Brute-force helpers for the poker tests: every combination, listed with numpy."""

from __future__ import annotations

import numpy as np


def combinations(n: int, k: int) -> np.ndarray:
    """All ``k``-subsets of ``range(n)`` as an ``(C(n, k), k)`` array, ascending rows."""
    rows = np.arange(n, dtype=np.int64)[:, None]
    for _ in range(k - 1):
        last = rows[:, -1]
        counts = n - 1 - last
        base = np.repeat(rows, counts, axis=0)
        starts = np.repeat(last + 1, counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        rows = np.column_stack([base, starts + offsets])
    return rows
