"""What a long job tells the user on stderr, fed by the engine as chunks finish.

Every simulating command (``hcp --simulate``, ``dealer``, ``deal``, ``equity``, ``makes``,
``lead``) runs its chunks through :func:`cardlab.engine.reduce_chunks` or
:func:`cardlab.engine.progress_bar`, which feed one :class:`Progress`:

- when the rest of the job is estimated to take longer than :data:`THRESHOLD` seconds, one line
  says how long, before the rest of the work. The estimate is the throughput measured after a
  warm-up: the first report (the first chunk, which also carries the start-up: worker pools,
  first calls, caches) is not extrapolated, only the pace from it on, so a 3.7 s job whose first
  1% took 1 s is not announced as "about 1 min 40 s", and a job that will end within the
  threshold says nothing;
- on a terminal a transient bar (rich) shows the progress; when stderr is not a terminal (a log,
  a pipe, a batch job) a line of progress is written every :data:`EVERY` seconds instead.

>>> import io
>>> clock = iter([0.0, 2.0, 4.0, 15.0, 16.0]).__next__
>>> out = io.StringIO()
>>> p = Progress(1000, "solving deals", stream=out, terminal=False, clock=clock)
>>> p.advance(10)   # at 2 s: the warm-up (1% done), not extrapolated
>>> p.advance(10)   # at 4 s: 10 in 2 s after it, so 980 more take about 196 s
>>> p.advance(60)   # at 15 s: a line of progress
>>> p.close()
>>> print(out.getvalue(), end="")
cardlab: solving deals: 1,000 in all, about 3 min 20 s (at the pace after the first 10 in 2 s)
cardlab: solving deals: 80 of 1,000 (8%), 15 s so far, about 2 min 51 s left
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, TextIO

__all__ = ["Progress", "ProgressBar", "THRESHOLD", "EVERY", "format_duration"]

#: A job whose rest is estimated to take longer than this (seconds) says so before the rest.
THRESHOLD = 10.0
#: Seconds between lines of progress when stderr is not a terminal.
EVERY = 10.0


def format_duration(seconds: float) -> str:
    """``45 s``, ``3 min 20 s``, ``2 h 5 min``.

    >>> format_duration(4.4), format_duration(200), format_duration(7500)
    ('4 s', '3 min 20 s', '2 h 5 min')
    """
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min" + (f" {s % 60} s" if s % 60 else "")
    return f"{s // 3600} h" + (f" {s % 3600 // 60} min" if s % 3600 // 60 else "")


class Progress:
    """``advance(n)`` as work is done (``fraction`` when the caller knows better than
    ``done / total``, e.g. a deal generator that stops once it has produced enough);
    ``close()`` when the job ends.

    ``stream`` (default stderr), ``terminal`` (default: whether ``stream`` is one), ``clock``,
    ``threshold`` and ``every`` (defaults :data:`THRESHOLD`, :data:`EVERY`) are for tests.
    """

    def __init__(self, total: int, label: str, *, stream: TextIO | None = None, terminal: bool | None = None,
                 clock: Callable[[], float] = time.monotonic, threshold: float | None = None,
                 every: float | None = None) -> None:
        self._total, self._label = max(int(total), 1), label
        self._stream = stream if stream is not None else sys.stderr
        self._terminal = bool(terminal if terminal is not None else getattr(self._stream, "isatty", lambda: False)())
        self._clock = clock
        self._threshold = THRESHOLD if threshold is None else threshold
        self._every = EVERY if every is None else every
        self._start = clock()
        self._done = 0
        self._warm: tuple[float, float, int] | None = None  # (time, share, done) at the warm-up's end
        self._long = False  # the estimate said "long": lines of progress follow (off a terminal)
        self._last_line = self._start
        self._bar: Any = None
        if self._terminal:
            self._start_bar()

    def _start_bar(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, \
            TimeRemainingColumn

        self._bar = RichProgress(TextColumn(self._label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                 console=Console(file=self._stream), transient=True)
        self._task = self._bar.add_task("work", total=self._total)
        self._bar.start()

    def _say(self, text: str) -> None:
        line = f"cardlab: {self._label}: {text}"
        if self._bar is not None:
            self._bar.console.print(line, markup=False, highlight=False)
        else:
            print(line, file=self._stream, flush=True)

    def advance(self, n: int, fraction: float | None = None) -> None:
        """``n`` more units done (``fraction``: the share of the whole job done so far, if known)."""
        self._done += n
        if self._bar is not None:
            self._bar.advance(self._task, n)
        now = self._clock()
        elapsed = now - self._start
        share = min(max(fraction if fraction is not None else self._done / self._total, 0.0), 1.0)
        if self._warm is None:
            self._warm = (now, share, self._done)  # the first report ends the warm-up
            return
        warm_time, warm_share, warm_done = self._warm
        if share <= warm_share or share >= 1.0 or now <= warm_time:
            return
        left = (1.0 - share) * (now - warm_time) / (share - warm_share)  # the measured pace
        if not self._long:
            if left > self._threshold:
                self._long = True
                self._last_line = now
                self._say(f"{self._total:,} in all, about {format_duration(elapsed + left)} "
                          f"(at the pace after the first {warm_done:,} in {format_duration(warm_time - self._start)})")
        elif not self._terminal and now - self._last_line >= self._every:
            self._last_line = now
            self._say(f"{self._done:,} of {self._total:,} ({100 * share:.0f}%), {format_duration(elapsed)} so far, "
                      f"about {format_duration(left)} left")

    def close(self) -> None:
        """End the report: remove the bar (it is transient); the lines written stay."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


#: The name the engine used before the estimates: the same object.
ProgressBar = Progress
