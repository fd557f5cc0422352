"""Job functions for the job runner's tests (imported by the worker processes, by name)."""

from __future__ import annotations

import time
from typing import Any

from cardlab.web.page import Answer


def sleeper(progress: Any, *, seconds: float) -> Answer:
    """Sleep ``seconds`` in steps, reporting progress; answers how long it slept."""
    start = time.monotonic()
    steps = max(1, int(seconds / 0.05))
    for i in range(steps):
        time.sleep(seconds / steps)
        progress((i + 1) / steps, "sleeping")
    return Answer(f"<p>slept {time.monotonic() - start:.2f} s</p>", {"slept.txt": b"yes"})


def hog(progress: Any, *, megabytes: int) -> Answer:
    """Ask for ``megabytes`` of memory at once."""
    block = bytearray(megabytes * 1024 * 1024)
    return Answer(f"<p>{len(block)}</p>")


def crash(progress: Any) -> Answer:
    """A bug, not an input error: the page must show one line, never the traceback."""
    raise RuntimeError("boom in the job")
