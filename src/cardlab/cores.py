"""How many cores this process may use; light (no numpy), so the command line can ask at start-up.

>>> available_cores() >= 1
True
"""

from __future__ import annotations

import os

__all__ = ["available_cores"]


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
