"""The two engines: ``exact`` counting and seeded ``simulate``, one interface.

A *dealing* (:class:`cardlab.dealing.Draw`, reel machines, ...) says how many
equally likely outcomes it has and how to sample them; a *feature* says which
values it can take, how to count them exactly for a dealing, and how to turn
an array of sampled hands into value codes. Both engines return a
:class:`~cardlab.distribution.Distribution`.

>>> from cardlab.dealing import Deck, Draw
>>> from cardlab.bridge.features import Points
>>> d = exact(Draw(Deck.standard(), 13), Points())
>>> d.total, d.count(37)
(635013559600, 4)
>>> s = simulate(Draw(Deck.standard(), 13), Points(), trials=20000, seed=1)
>>> s.total, s.simulation.seed
(20000, 1)
"""

from __future__ import annotations

import math
import signal
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol, Sequence

import numpy as np

from cardlab.distribution import Distribution, Simulation
from cardlab.errors import CardlabError

__all__ = [
    "Dealing",
    "Feature",
    "exact",
    "simulate",
    "additive_counts",
    "class_polynomial",
    "fresh_seed",
    "DEFAULT_CHUNK",
]

DEFAULT_CHUNK = 250_000


class Dealing(Protocol):
    """A way of dealing a hand: a number of equally likely outcomes, and a sampler."""

    def outcomes(self) -> int: ...

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray: ...


class Feature(Protocol):
    """A function of a hand whose distribution we want."""

    @property
    def name(self) -> str: ...

    def values(self, dealing: Any) -> Sequence[Any]: ...

    def exact_counts(self, dealing: Any) -> Sequence[int]: ...

    def encode(self, dealing: Any, hands: np.ndarray) -> np.ndarray: ...


def exact(dealing: Any, feature: Feature) -> Distribution:
    """The exact distribution of ``feature`` over all outcomes of ``dealing``.

    The counts always add up to ``dealing.outcomes()``; a mismatch is a bug and
    raises ``AssertionError`` rather than printing a wrong table.
    """
    values = tuple(feature.values(dealing))
    counts = tuple(int(c) for c in feature.exact_counts(dealing))
    expected = dealing.outcomes()
    if sum(counts) != expected:
        raise AssertionError(f"{feature.name}: counts add up to {sum(counts)}, not {expected}")
    return Distribution(feature.name, values, counts, axes=tuple(getattr(feature, "axes", ())))


def simulate(
    dealing: Any,
    feature: Feature,
    trials: int,
    seed: int | None = None,
    workers: int = 1,
    chunk: int = DEFAULT_CHUNK,
    progress: bool = False,
) -> Distribution:
    """Count ``feature`` over ``trials`` random outcomes of ``dealing``.

    Trials are cut into fixed chunks of ``chunk`` hands; chunk ``i`` always uses
    the ``i``-th child of ``SeedSequence(seed)``, so the same seed gives the same
    counts whatever ``workers`` is. With no seed a fresh one is drawn and
    reported in ``simulation.seed`` so the run can be repeated. Ctrl-C stops the
    run and returns what was simulated so far (``simulation.interrupted``).
    """
    if trials < 1:
        raise CardlabError(f"the number of trials must be at least 1, got {trials}")
    if workers < 1:
        raise CardlabError(f"the number of workers must be at least 1, got {workers}")
    seed = fresh_seed(seed)
    n_values = len(feature.values(dealing))
    n_chunks = math.ceil(trials / chunk)
    sizes = [chunk] * (n_chunks - 1) + [trials - chunk * (n_chunks - 1)]
    seeds = np.random.SeedSequence(seed).spawn(n_chunks)
    totals = np.zeros(n_values, dtype=np.int64)
    done = 0
    interrupted = False
    bar = _Progress(trials, feature.name) if progress else None
    held: list[Any] = []  # the SIGINT handler to restore, once a first Ctrl-C is being handled
    try:
        if workers == 1 or n_chunks == 1:  # a pool would only add its start-up time
            for size, child in zip(sizes, seeds):
                totals += _run_chunk(dealing, feature, child, size, n_values)
                done += size
                if bar:
                    bar.advance(size)
        else:
            with ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint) as pool:
                pending: dict[Future[np.ndarray], int] = {
                    pool.submit(_run_chunk, dealing, feature, child, size, n_values): size
                    for size, child in zip(sizes, seeds)
                }
                try:
                    while pending:
                        finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                        for future in finished:
                            size = pending.pop(future)
                            totals += future.result()
                            done += size
                            if bar:
                                bar.advance(size)
                except KeyboardInterrupt:
                    _hold_sigint(held)
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
    except KeyboardInterrupt:
        _hold_sigint(held)
        interrupted = True
        if done == 0:
            raise
    finally:
        if bar:
            bar.close()
        if held:
            signal.signal(signal.SIGINT, held[0])
    info = Simulation(trials=done, seed=seed, workers=workers, requested=trials, interrupted=interrupted)
    return Distribution(
        feature.name,
        tuple(feature.values(dealing)),
        tuple(int(c) for c in totals),
        simulation=info,
        axes=tuple(getattr(feature, "axes", ())),
    )


def fresh_seed(seed: int | None) -> int:
    """``seed`` checked (a whole number >= 0), or a new random one to report when it is None."""
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0]) >> 1
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise CardlabError(f"a seed is a whole number from 0 up, not {seed!r}")
    return int(seed)


def _run_chunk(dealing: Any, feature: Feature, seed: np.random.SeedSequence, n: int,
               n_values: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hands = dealing.sample(rng, n)
    codes = feature.encode(dealing, hands)
    return np.bincount(codes, minlength=n_values)[:n_values].astype(np.int64)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _hold_sigint(held: list[Any]) -> None:
    """Ignore further Ctrl-C while the first one is handled (the partial result still prints)."""
    if not held and threading.current_thread() is threading.main_thread():
        held.append(signal.signal(signal.SIGINT, signal.SIG_IGN))


class _Progress:
    """A rich progress bar on stderr."""

    def __init__(self, total: int, name: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._progress = Progress(
            TextColumn(f"simulating {name}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            console=Console(file=sys.stderr), transient=True,
        )
        self._task = self._progress.add_task("sim", total=total)
        self._progress.start()

    def advance(self, n: int) -> None:
        self._progress.advance(self._task, n)

    def close(self) -> None:
        self._progress.stop()


def additive_counts(classes: Sequence[tuple[int, int]], k: int) -> list[int]:
    """Ways to choose ``k`` cards so their values add up to each total.

    ``classes`` lists ``(size, value)``: ``size`` physical cards each worth the
    integer ``value`` (a card class such as "the four aces"). The answer, indexed
    by total value, is the coefficient of ``x^k`` in the product over classes of
    ``(1 + x*y^value)^size``: the seed method of counting aces, kings, queens and
    jacks and multiplying binomials, for any classes at once.

    >>> counts = additive_counts([(4, 4), (4, 3), (4, 2), (4, 1), (36, 0)], 13)
    >>> sum(counts), counts[37]
    (635013559600, 4)
    """
    n = sum(size for size, _ in classes)
    if not 0 <= k <= n:
        return []
    return [int(c) for c in class_polynomial(classes, k)[k]]


def class_polynomial(classes: Sequence[tuple[int, int]], k: int) -> np.ndarray:
    """Coefficients ``[j, v]``: ways to choose ``j <= k`` cards worth ``v`` in all.

    The product over classes of ``(1 + x*y^value)^size``, truncated at ``x^k``;
    int64 when the largest count fits, Python ints (object array) otherwise.
    """
    if any(size < 0 or value < 0 for size, value in classes):
        raise ValueError("class sizes and values must be non-negative")
    n = sum(size for size, _ in classes)
    k = min(k, n)
    top = sum(min(size, k) * value for size, value in classes)
    dtype: Any = np.int64 if math.comb(n, n // 2) < 2**62 else object
    poly = np.zeros((k + 1, top + 1), dtype=dtype)
    poly[0, 0] = 1
    for size, value in classes:
        if size == 0:
            continue
        new = np.zeros_like(poly)
        for t in range(min(size, k) + 1):
            new[t:, t * value:] += math.comb(size, t) * poly[: k + 1 - t, : top + 1 - t * value]
        poly = new
    return poly
