"""Long single-suit searches (docs/suitplay.md, "The search and its cost"): the compiled search
run in a helper thread so that Ctrl-C stops it at once, its progress on stderr when it will take
long, and the limits of both searches.

The compiled kernel (``suitplay_search``, csrc/suitplay.c) writes into three control words the
states it has solved and its estimate of the share done (from the counts of the first moves'
options, in parts per billion), and stops (``RuntimeError``) as soon as the caller sets the first
word. :func:`run_core` waits on it in short steps, feeds :func:`cardlab.engine.progress_bar`, and on
Ctrl-C (or SIGTERM) sets the stop word, waits the few milliseconds the kernel needs to unwind,
and lets the interrupt go on: no thread is left running.

>>> run_core(lambda control: sum(control), progress=False, label="nothing")
0
"""

from __future__ import annotations

import signal
import threading
import time
from array import array
from typing import Any, Callable, TypeVar

__all__ = ["run_core", "ShareBar", "PYTHON_STATES", "PYTHON_WORK", "SHARE_UNITS"]

T = TypeVar("T")

#: The Python search stops (TooLargeError) past this many states: it spends about 30 microseconds
#: and 1 KB on each (``J92``/``A753``: 94,704 states, 2.8 s of CPU, 100 MB), so about 30 s and 1 GB.
PYTHON_STATES = 1_000_000
#: ... or past this many comparisons of outcome vectors (each option against each vector kept):
#: about 0.2 microseconds each (``K863``/``J2``: 109 million, 21 s of CPU), so about 2 minutes.
PYTHON_WORK = 600_000_000
#: The progress bar counts the share of the search done in these units.
SHARE_UNITS = 1000
#: Seconds a search runs before its progress is followed (a quicker one never loads the bar).
QUIET = 1.0
_STOP, _STATES, _DONE = 0, 1, 2  # the kernel's control words (CTL_* in csrc/suitplay.c)
_POLL = 0.05  # seconds between looks at the control words


def run_core(call: Callable[[memoryview[int]], T], progress: bool, label: str) -> T:
    """``call(control)`` (the compiled search, given its control words) in a helper thread while
    this thread shows its progress (``progress``: a bar or lines on stderr once the search is
    estimated to take longer than about 10 s, labelled ``label``) and waits for it in short
    steps. Ctrl-C stops the search and is raised here. Off the main thread the call runs in
    place (no signal can reach it there)."""
    control = memoryview(array("q", [0, 0, 0]))  # int64 words, as the kernel reads them
    if threading.current_thread() is not threading.main_thread():
        return call(control)
    box: list[T] = []
    errors: list[BaseException] = []
    finished = threading.Event()

    def run() -> None:
        if hasattr(signal, "pthread_sigmask"):  # Ctrl-C is for the waiting thread
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            box.append(call(control))
        except BaseException as error:  # noqa: BLE001 - raised again in the waiting thread
            errors.append(error)
        finally:
            finished.set()

    worker = threading.Thread(target=run, name="cardlab-suitplay", daemon=True)
    bar = ShareBar(progress, label)
    worker.start()
    try:
        # an Event, not join(): a join interrupted by Ctrl-C can mark a running thread stopped
        while not finished.wait(_POLL):
            bar(control[_DONE] / 1e9)
    except BaseException:
        control[_STOP] = 1  # the kernel looks at it at every state it enters
        finished.wait()
        raise
    finally:
        bar.close()
    if errors:
        raise errors[0]
    return box[0]


class ShareBar:
    """A search's progress given as the share done (0..1): :func:`cardlab.engine.progress_bar`
    on stderr (an estimate when the rest will take longer than about 10 s, then a bar or a line
    every 10 s), started only once the search has run :data:`QUIET` seconds, so a quick search
    never loads it (nor numpy, which the engine imports). Off when ``enabled`` is false.

    >>> bar = ShareBar(False, "solving")
    >>> bar(0.5); bar.close()
    """

    def __init__(self, enabled: bool, label: str) -> None:
        self._enabled, self._label = enabled, label
        self._start = time.monotonic()
        self._context: Any = None
        self._advance: Any = None
        self._shown = 0

    def __call__(self, share: float) -> None:
        """The search has done ``share`` of its work."""
        if not self._enabled:
            return
        if self._advance is None:
            if time.monotonic() - self._start < QUIET:
                return
            from cardlab.engine import progress_bar

            self._context = progress_bar(SHARE_UNITS, self._label)
            self._advance = self._context.__enter__()
        units = min(SHARE_UNITS - 1, int(share * SHARE_UNITS))
        if units > self._shown:
            self._advance(units - self._shown, fraction=share)
            self._shown = units

    def close(self) -> None:
        """The search has ended (or stopped): the bar goes."""
        if self._context is not None:
            self._context.__exit__(None, None, None)
            self._context = self._advance = None
