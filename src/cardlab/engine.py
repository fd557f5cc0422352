"""The two engines, ``exact`` counting and seeded ``simulate``, and the chunk runner under them.

A *dealing* (:class:`~cardlab.dealing.Draw`, :class:`~cardlab.dealing.Reels`, ...)
says how many equally likely outcomes it has and how to sample them; a *feature*
says which values it can take, how to count them exactly for a dealing, and how
to turn an array of sampled hands into value codes. Both engines return a
:class:`~cardlab.distribution.Distribution`.

Every simulated job in cardlab (hand tables, dealer scripts, equity, double-dummy
statistics) runs through :func:`iter_chunks`: the work is cut into chunks of a
fixed size, chunk ``i`` always draws from the ``i``-th child of the root
``SeedSequence``, and the chunks run inline, in threads (tasks whose kernels
release the GIL), in local worker processes or on any other :class:`Executor`. So the answer depends on the seed and the chunk size,
never on the number of workers or where they run.

>>> from cardlab.dealing import Deck, Draw
>>> from cardlab.bridge.features import Points
>>> d = exact(Draw(Deck.standard(), 13), Points())
>>> d.total, d.count(37)
(635013559600, 4)
>>> s = simulate(Draw(Deck.standard(), 13), Points(), trials=20000, seed=1)
>>> s.total, s.simulation.seed
(20000, 1)
>>> simulate(Draw(Deck.standard(), 13), Points(), trials=10, seed=-1)
Traceback (most recent call last):
...
cardlab.errors.CardlabError: a seed is a whole number from 0 up, a SeedSequence or a Generator, not -1
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, Iterable, Iterator, Protocol, Sequence, TypeAlias, TypeVar, cast

import numpy as np

from cardlab import drawing
from cardlab.cores import available_cores
from cardlab.distribution import Distribution, Simulation
from cardlab.errors import CardlabError, TooLargeError
from cardlab.tabulation import Tabulation

__all__ = [
    "Dealing",
    "Feature",
    "SeedLike",
    "Executor",
    "exact",
    "simulate",
    "fused_task",
    "tabulate",
    "iter_chunks",
    "kernel_state",
    "reduce_chunks",
    "progress_bar",
    "Advance",
    "Reduced",
    "chunk_sizes",
    "chunk_seed",
    "resolve_seed",
    "fresh_seed",
    "check_count",
    "available_cores",
    "local_executor",
    "DEFAULT_CHUNK",
    "MIN_PARALLEL_SECONDS",
    "renamed_trials",
]

DEFAULT_CHUNK = 250_000

MIN_PARALLEL_SECONDS = 0.2
"""A simulation whose first chunk says the whole job is shorter than this runs on one worker
(:func:`simulate`; see :func:`reduce_chunks`): starting worker processes (about 0.85 s) would cost
more than they save. Chunks that run on threads (kernels releasing the GIL) start in about a
millisecond: for them the limit is a tenth of this."""

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

#: What ``seed=`` accepts, as numpy and scipy do: an int, a SeedSequence, a Generator or None.
#: (A string, so that importing the engine does not load numpy.random, about 15 ms, for exact work.)
SeedLike: TypeAlias = "int | np.integer | np.random.SeedSequence | np.random.Generator | None"


class Dealing(Protocol):
    """A way of dealing a hand: a number of equally likely outcomes, and a sampler."""

    @property
    def k(self) -> int:
        """Cards in a hand."""
        ...

    def outcomes(self) -> int:
        """The number of equally likely outcomes (hands)."""
        ...

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` random hands, an ``(n, k)`` array of card ids."""
        ...


class Feature(Protocol):
    """A function of a hand whose distribution we want.

    ``axes`` names the parts of a joint feature's tuple values (empty for a plain feature).
    A feature may also offer ``fused_task(dealing)``, its own compiled chunk task
    (:func:`fused_task`, :mod:`cardlab.drawing`).
    """

    @property
    def name(self) -> str:
        """What the feature measures, as a table heading."""
        ...

    @property
    def axes(self) -> tuple[str, ...]:
        """The names of a joint feature's parts (empty for a plain feature)."""
        ...

    def values(self, dealing: Any) -> Sequence[Hashable]:
        """Every value the feature can take under ``dealing``, in display order."""
        ...

    def exact_counts(self, dealing: Any) -> Sequence[int]:
        """Outcomes with each value, aligned with :meth:`values` (may raise ``TooLargeError``)."""
        ...

    def encode(self, dealing: Any, hands: np.ndarray) -> np.ndarray:
        """The index into :meth:`values` of each row of ``hands``, vectorised."""
        ...


def exact(dealing: Dealing, feature: Feature) -> Distribution:
    """The exact distribution of ``feature`` over all outcomes of ``dealing``.

    The counts always add up to ``dealing.outcomes()``; a mismatch is a bug and
    raises ``AssertionError`` rather than printing a wrong table.

    >>> from cardlab.dealing import Deck, Draw
    >>> from cardlab.bridge.features import Points
    >>> exact(Draw(Deck.standard(), 13), Points()).count(37)
    4
    """
    values = tuple(feature.values(dealing))
    counts = tuple(int(c) for c in feature.exact_counts(dealing))
    expected = dealing.outcomes()
    if sum(counts) != expected:
        raise AssertionError(f"{feature.name}: counts add up to {sum(counts)}, not {expected}")
    return Distribution(feature.name, values, counts, axes=tuple(feature.axes))


def simulate(
    dealing: Dealing,
    feature: Feature,
    trials: int,
    seed: SeedLike = None,
    workers: int = 1,
    chunk: int = DEFAULT_CHUNK,
    progress: bool = False,
    executor: Executor | str | None = None,
) -> Distribution:
    """Count ``feature`` over ``trials`` random outcomes of ``dealing``.

    Chunk ``i`` of ``chunk`` hands always uses the ``i``-th child of the seed's
    ``SeedSequence``, so the same seed gives the same counts whatever ``workers``
    is. The hands of a :class:`~cardlab.dealing.Draw` come from each chunk's own
    stream in the compiled core (:mod:`cardlab.drawing`), whichever route counts
    them: a feature with a kernel for the draw (:func:`fused_task`: poker
    categories, bridge points and shape) is drawn, valued and counted in one
    compiled loop per chunk, with the same counts as the generic route (the hands
    drawn, then ``encode``); other dealings are sampled by their ``sample``. With no seed a fresh one is drawn and reported in ``simulation.seed`` so
    the run can be repeated. Ctrl-C stops the workers and returns the chunks
    finished so far (``simulation.interrupted``); nothing is allocated up front,
    so ``trials`` may be as large as you have patience for. ``executor`` runs the
    chunks elsewhere: a :class:`cardlab.cluster.DaskExecutor`, or a cluster address.

    >>> from cardlab.dealing import Deck, Draw
    >>> from cardlab.bridge.features import Points
    >>> sim = simulate(Draw(Deck.standard(), 13), Points(), trials=10_000, seed=1)
    >>> sim.total
    10000
    """
    trials = check_count(trials, "trials")
    root, reported = resolve_seed(seed)
    values = tuple(feature.values(dealing))
    task = fused_task(dealing, feature) or _CountTask(dealing, feature, len(values))
    threaded = getattr(task, "releases_gil", False)
    run = reduce_chunks(task, trials, root, lambda totals, counts: [a + int(b) for a, b in zip(totals, counts)],
                        [0] * len(values), chunk=chunk, workers=workers, executor=executor,
                        progress=f"simulating {feature.name}" if progress else None,
                        min_parallel_seconds=MIN_PARALLEL_SECONDS / (10 if threaded else 1))
    info = Simulation(trials=run.done, seed=reported, workers=min(workers, available_cores()), requested=trials,
                      interrupted=run.interrupted)
    return Distribution(feature.name, values, tuple(run.value), simulation=info, axes=tuple(feature.axes))


def tabulate(
    dealing: Dealing,
    feature: Feature,
    title: str,
    *,
    trials: int | None = None,
    seed: SeedLike = None,
    workers: int = 1,
    chunk: int = DEFAULT_CHUNK,
    progress: bool = False,
    executor: Executor | str | None = None,
    value_key: str = "value",
    cumulative: bool = True,
) -> Tabulation:
    """The exact table of ``feature``, and with ``trials`` a simulation beside it.

    When the exact count is too large (:class:`~cardlab.errors.TooLargeError`) and
    ``trials`` is given, the simulation is shown alone with a note saying so.

    >>> from cardlab.dealing import Deck, Draw
    >>> from cardlab.bridge.features import Points
    >>> tabulate(Draw(Deck.standard(), 13), Points(), "hcp").exact.total
    635013559600
    """
    simulated = None
    try:
        dist: Distribution | None = exact(dealing, feature)
    except TooLargeError:
        if not trials:
            raise
        dist = None
    if trials:
        simulated = simulate(dealing, feature, trials, seed=seed, workers=workers, chunk=chunk,
                             progress=progress, executor=executor)
    note = "" if dist is not None else "exact counts are too large to compute here; the simulation is shown alone"
    return Tabulation(title, dist, simulated, value_key=value_key, cumulative=cumulative, note=note)


# --- the chunk runner ------------------------------------------------------------------------


class Pending(Protocol[T_co]):
    """A chunk submitted to an executor."""

    def result(self, timeout: float | None = None) -> T_co: ...


class Executor(Protocol):
    """Where chunks run: inline, local worker processes, or a cluster (``cardlab.cluster``)."""

    @property
    def slots(self) -> int:
        """How many chunks can usefully run at once."""
        ...

    def submit(self, fn: Callable[..., T], *args: Any) -> Pending[T]:
        """Start ``fn(*args)``; its result comes back through the returned handle."""
        ...

    def close(self, cancel: bool = False) -> None:
        """Release the workers; with ``cancel``, stop running chunks at once."""
        ...


def iter_chunks(
    task: Callable[[np.random.SeedSequence, int], T],
    sizes: Iterable[int],
    root: np.random.SeedSequence,
    *,
    workers: int = 1,
    executor: Executor | str | None = None,
    first: int = 0,
) -> Iterator[tuple[int, T]]:
    """``(size, task(chunk_seed(root, i), size))`` for each chunk ``i``, in chunk order.

    ``task`` must be picklable (a module-level function or a dataclass with
    ``__call__``) when it runs in other processes. At most two chunks per slot
    are in flight, so ``sizes`` may be endless: stop iterating when you have
    enough. Closing the iterator (or Ctrl-C while it waits) stops the workers at
    once; the chunks already yielded are the partial result. An ``executor``
    given by the caller stays open, but its chunks still in flight are cancelled;
    one given by name (a Dask address or ``local:N``, see :mod:`cardlab.cluster`)
    is opened here and closed at the end. ``first`` numbers the first chunk (its seed is
    ``chunk_seed(root, first)``) when the chunks before it ran elsewhere.
    """
    own = executor is None or isinstance(executor, str)
    sized = iter(sizes)
    if isinstance(executor, str):
        from cardlab.cluster import connect  # optional backend, imported only when named

        executor = connect(executor)
    elif executor is None:
        threads = bool(getattr(task, "releases_gil", False))
        head = list(itertools.islice(sized, 2))
        sized = itertools.chain(head, sized)
        # a job of one chunk runs here: no pool of processes to start (about 0.85 s) for it
        executor = _Inline() if workers <= 1 or len(head) < 2 else local_executor(workers, threads=threads)
    window: deque[tuple[int, Pending[T]]] = deque()
    index = itertools.count(first)
    finished = False
    try:
        while True:
            while len(window) < 2 * executor.slots:
                size = next(sized, None)
                if size is None:
                    break
                window.append((size, executor.submit(task, chunk_seed(root, next(index)), size)))
            if not window:
                finished = True
                return
            size, pending = window[0]
            result = _wait(pending)  # the chunk stays in the window (to cancel) until it is in
            window.popleft()
            yield size, result
    finally:
        if own:
            with _sigint_held(not finished):
                executor.close(cancel=not finished)
        elif not finished:
            for _, pending in window:
                getattr(pending, "cancel", lambda: None)()


@dataclass(frozen=True)
class Reduced(Generic[T]):
    """What :func:`reduce_chunks` gathered: the combined value, the trials done, and whether
    Ctrl-C stopped the run early (the value then covers the first ``done`` trials)."""

    value: T
    done: int
    interrupted: bool


def reduce_chunks(
    task: Callable[[np.random.SeedSequence, int], Any],
    trials: int,
    root: np.random.SeedSequence,
    combine: Callable[[T, Any], T],
    start: T,
    *,
    chunk: int = DEFAULT_CHUNK,
    workers: int = 1,
    executor: Executor | str | None = None,
    progress: str | None = None,
    empty_ok: bool = False,
    min_parallel_seconds: float = 0.0,
) -> Reduced[T]:
    """Run ``trials`` in chunks (see :func:`iter_chunks`) and fold each chunk's result into
    ``start`` with ``combine(value, part)``, in chunk order; ``progress`` labels a bar on stderr.

    Ctrl-C stops the workers and returns what was combined so far, marked ``interrupted``
    (when no chunk had finished: re-raises, or with ``empty_ok`` returns ``start`` and 0 done).

    With ``min_parallel_seconds``, ``workers`` > 1 and no ``executor``, the first chunk runs here
    first and is timed: when it says the whole job takes less than that, the rest runs here too
    (workers would cost more to start than they save). The chunks and their seeds are the same.

    >>> def count_heads(seed, n):
    ...     return int((np.random.default_rng(seed).random(n) < 0.5).sum())
    >>> run = reduce_chunks(count_heads, 10_000, np.random.SeedSequence(1), lambda a, b: a + b, 0, chunk=3000)
    >>> run.done, run.interrupted, 4800 < run.value < 5200
    (10000, False, True)
    """
    value, done, interrupted = start, 0, False
    sizes, first = chunk_sizes(trials, chunk), 0
    with progress_bar(trials if progress else 0, progress or "") as bar:
        try:
            if min_parallel_seconds > 0 and workers > 1 and executor is None and trials > chunk:
                began = time.perf_counter()
                value = combine(value, task(chunk_seed(root, 0), chunk))
                done, first = chunk, 1
                bar(chunk)
                if (time.perf_counter() - began) * trials / chunk < min_parallel_seconds:
                    workers = 1
                sizes = chunk_sizes(trials - chunk, chunk)
            for size, part in iter_chunks(task, sizes, root, workers=workers, executor=executor, first=first):
                value = combine(value, part)
                done += size
                bar(size)
        except KeyboardInterrupt:
            interrupted = True
            if done == 0 and not empty_ok:
                raise
    return Reduced(value, done, interrupted)


def chunk_sizes(trials: int, chunk: int = DEFAULT_CHUNK) -> Iterator[int]:
    """Full chunks, then the remainder: computed lazily, so ``trials`` may be huge.

    >>> list(chunk_sizes(10, 4))
    [4, 4, 2]
    """
    if chunk < 1:
        raise CardlabError(f"the chunk size must be at least 1, got {chunk}")
    full, rest = divmod(trials, chunk)
    yield from itertools.repeat(chunk, full)
    if rest:
        yield rest


def chunk_seed(root: np.random.SeedSequence, i: int) -> np.random.SeedSequence:
    """The ``i``-th child of ``root``, the same as ``root.spawn(i + 1)[i]`` on a fresh root.

    >>> root = np.random.SeedSequence(7)
    >>> chunk_seed(root, 3).generate_state(1) == np.random.SeedSequence(7).spawn(4)[3].generate_state(1)
    array([ True])
    """
    return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, i), pool_size=root.pool_size)


def kernel_state(seed: np.random.SeedSequence, block: int = 0) -> bytes:
    """The 32-byte state of a compiled kernel's generator (xoshiro256**, csrc/rng.h): words
    ``4 * block`` to ``4 * block + 3`` of ``seed.generate_state(4 * block + 4, uint64)``.

    The one seed convention of every kernel: block 0 for a chunk's only stream, further
    blocks for independent streams of the same chunk (the dealer keeps block 0 for the numpy
    generator its chunk also uses). The kernel makes an all-zero state (xoshiro's one
    forbidden state) a fixed non-zero one.

    >>> seed = np.random.SeedSequence(7)
    >>> kernel_state(seed, 1) == seed.generate_state(8, np.uint64)[4:].tobytes()
    True
    """
    return bytes(seed.generate_state(4 * block + 4, np.uint64)[4 * block:].tobytes())


def resolve_seed(seed: SeedLike) -> tuple[np.random.SeedSequence, int | None]:
    """The root ``SeedSequence`` of a run, and the int to report so it can be repeated.

    An int (or None, for a fresh one) is the entropy of the root; a SeedSequence
    is the root itself (reported when it is a plain int seed); a Generator gives
    a fresh int drawn from it, so the run is repeatable from the report.
    """
    if isinstance(seed, np.random.SeedSequence):
        entropy = seed.entropy
        return seed, (entropy if isinstance(entropy, int) and not seed.spawn_key else None)
    if isinstance(seed, np.random.Generator):
        seed = int(seed.integers(0, 2**63))
    number = fresh_seed(seed)
    return np.random.SeedSequence(number), number


def fresh_seed(seed: SeedLike) -> int:
    """``seed`` checked (a whole number >= 0), or a new random one to report when it is None."""
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0]) >> 1
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**63))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise CardlabError(f"a seed is a whole number from 0 up, a SeedSequence or a Generator, not {seed!r}")
    return int(seed)


def local_executor(workers: int, *, threads: bool = False) -> Executor:
    """Workers on this machine, at most one per available core: threads of this process when
    ``threads`` (for tasks whose work runs in compiled kernels that release the GIL: no pickling,
    no start-up cost), else worker processes.

    :func:`iter_chunks` chooses threads for a task that has a true ``releases_gil`` attribute.
    """
    count = max(1, min(workers, available_cores()))
    return _Threads(count) if threads else _Processes(count)


def renamed_trials(trials: int | None, old: int | None, old_name: str, where: str) -> int | None:
    """The number of trials given as ``trials=``, or (deprecated, for one release) under its old
    name ``old_name`` of ``where``, with a :class:`DeprecationWarning`; both at once is an error.

    ``trials`` is the one name of the number of random trials in the library
    (``simulate=``, ``n=`` and ``hands=`` were the others).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     renamed_trials(None, 500, "simulate", "equity()"), caught[0].category.__name__
    (500, 'DeprecationWarning')
    """
    if old is None:
        return trials
    if trials is not None:
        raise CardlabError(f"{where} takes the number of trials once: trials={trials!r} and "
                           f"{old_name}={old!r} were both given")
    import warnings

    warnings.warn(f"{where}: {old_name}= is deprecated, use trials=", DeprecationWarning, stacklevel=3)
    return old


def check_count(n: Any, what: str, error: type[CardlabError] = CardlabError) -> int:
    """``n`` as an int when it is a whole number of at least 1 (a count of trials, deals, ...),
    else ``error`` naming ``what``: 0, negative numbers, floats and bools are refused, never read
    as "the default" or "none"."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise error(f"the number of {what} must be a whole number of at least 1, got {n!r}")
    return int(n)


def fused_task(dealing: Dealing, feature: Feature) -> Callable[[np.random.SeedSequence, int], np.ndarray] | None:
    """The feature's own chunk task for ``dealing`` when it has one (a ``fused_task(dealing)``
    method that may return ``None``), else ``None``: :func:`simulate` then takes the generic route.
    A fused task returns the counts per value, as the generic route would for the same chunk seed
    (:mod:`cardlab.drawing`)."""
    make = getattr(feature, "fused_task", None)
    if make is None:
        return None
    task: Callable[[np.random.SeedSequence, int], np.ndarray] | None = make(dealing)
    return task


@dataclass(frozen=True)
class _CountTask:
    """One chunk of ``simulate``: the hands (a draw's from its stream, :func:`drawing.draw_hands`,
    the fused route's; another dealing's from its ``sample``), encoded, counted per value
    (picklable)."""

    dealing: Dealing
    feature: Feature
    n_values: int

    def __call__(self, seed: np.random.SeedSequence, n: int) -> np.ndarray:
        if drawing.fits(self.dealing):
            hands = drawing.draw_hands(self.dealing, seed, n)
        else:
            hands = self.dealing.sample(np.random.default_rng(seed), n)
        codes = self.feature.encode(self.dealing, hands)
        return np.bincount(codes, minlength=self.n_values)[: self.n_values].astype(np.int64)


def _wait(pending: Pending[T]) -> T:
    """The chunk's result; waits in short steps so Ctrl-C reaches the main thread at once."""
    while True:
        try:
            return pending.result(timeout=0.2)
        except TimeoutError:
            continue


class _Later(Generic[T]):
    """A chunk run in this process when its result is asked for."""

    def __init__(self, fn: Callable[..., T], args: tuple[Any, ...]) -> None:
        self._fn, self._args = fn, args

    def result(self, timeout: float | None = None) -> T:
        return self._fn(*self._args)


class _Inline:
    """Runs each chunk in this process, in order, when its result is needed."""

    slots = 1

    def submit(self, fn: Callable[..., T], *args: Any) -> Pending[T]:
        return _Later(fn, args)

    def close(self, cancel: bool = False) -> None:
        pass


class _Threads:
    """Threads of this process; for chunks that spend their time in GIL-free compiled kernels.

    A running chunk cannot be killed, so ``close(cancel=True)`` drops the queued chunks and
    leaves the running ones to finish (chunks are sized to take well under a second).
    """

    def __init__(self, workers: int) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.slots = workers
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cardlab")

    def submit(self, fn: Callable[..., T], *args: Any) -> Pending[T]:
        return self._pool.submit(fn, *args)

    def close(self, cancel: bool = False) -> None:
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)


class _Job(Generic[T]):
    """A chunk given to :class:`_Processes`; ``result`` drives the pool until it is back."""

    def __init__(self, pool: _Processes, call: tuple[Callable[..., Any], tuple[Any, ...]]) -> None:
        self._pool, self.call = pool, call
        self.done, self.ok = False, False
        self.value: object = None  # the chunk's result, or the exception it raised

    def result(self, timeout: float | None = None) -> T:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.done:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError
            self._pool.poll(left)
        if not self.ok:
            raise cast(BaseException, self.value)
        return cast(T, self.value)


class _Processes:
    """Worker processes on this machine, each fed through its own pipe; they ignore Ctrl-C.

    No helper threads and no shared queue: ``close(cancel=True)`` kills the workers outright,
    which cannot deadlock (``multiprocessing.Pool.terminate`` can, when it kills a worker
    while its task-feeding thread is writing to the shared queue).
    """

    def __init__(self, workers: int) -> None:
        import multiprocessing

        context: Any = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        self.slots = workers
        self._workers: list[tuple[Any, Any]] = []
        for _ in range(workers):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs,), daemon=True)
            process.start()
            theirs.close()
            self._workers.append((process, mine))
        self._idle = list(range(workers))
        self._queued: deque[_Job[Any]] = deque()
        self._busy: dict[int, _Job[Any]] = {}

    def submit(self, fn: Callable[..., T], *args: Any) -> Pending[T]:
        job: _Job[T] = _Job(self, (fn, args))
        self._queued.append(job)
        self._dispatch()
        return job

    def _dispatch(self) -> None:
        while self._idle and self._queued:
            worker = self._idle.pop()
            job = self._queued.popleft()
            self._workers[worker][1].send(job.call)
            self._busy[worker] = job

    def poll(self, timeout: float | None) -> None:
        """Wait up to ``timeout`` for results and hand them to their jobs."""
        from multiprocessing.connection import wait

        pipes: dict[Any, int] = {self._workers[w][1]: w for w in self._busy}
        ready: list[Any] = wait(list(pipes), timeout)
        for pipe in ready:
            worker = pipes[pipe]
            try:
                ok, value = pipe.recv()
            except (EOFError, OSError):
                raise CardlabError("a worker process stopped unexpectedly (out of memory?); "
                                   "try fewer --workers") from None
            job = self._busy.pop(worker)
            job.ok, job.value, job.done = ok, value, True
            self._idle.append(worker)
        self._dispatch()

    def close(self, cancel: bool = False) -> None:
        for process, pipe in self._workers:
            if cancel:
                process.kill()
            else:
                with contextlib.suppress(OSError):
                    pipe.send(None)
        for process, pipe in self._workers:
            process.join(timeout=None if cancel else 5)
            if process.is_alive():  # pragma: no cover - a worker that would not stop
                process.kill()
                process.join()
            pipe.close()


def _serve(pipe: Any) -> None:
    """A worker's loop: run each (function, arguments) it is sent and send back the outcome."""
    _ignore_sigint()
    # not the parent's handlers (they raise inside the chunk): a SIGTERM ends the worker; a closed
    # terminal's SIGHUP, sent to the parent too, is the parent's to act on (it stops the workers)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    _exit_with_parent()
    while True:
        try:
            call = pipe.recv()
        except EOFError:
            return
        if call is None:
            return
        fn, args = call
        try:
            outcome: tuple[bool, Any] = (True, fn(*args))
        except BaseException as error:  # noqa: BLE001 - handed back to the caller to raise
            outcome = (False, error)
        try:
            pipe.send(outcome)
        except Exception as error:  # noqa: BLE001 - a result or error that cannot be pickled
            pipe.send((False, CardlabError(f"a worker's result could not be sent back: {error!r}")))


#: How often a worker looks whether its parent is still there.
_PARENT_CHECK_SECONDS = 0.25


def _exit_with_parent() -> None:
    """End this worker process soon after its parent dies, even in the middle of a long chunk: a
    SIGKILLed command left its workers running (one set 23 minutes later). A daemon thread sees
    the parent go when this process is handed to another (its parent id changes); the chunks'
    kernels release the GIL, so it runs beside them."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="cardlab-parent-watch", daemon=True).start()


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _sigint_held(hold: bool) -> Iterator[None]:
    """Ignore a second Ctrl-C while the workers are being stopped after the first."""
    if not hold or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class Advance(Protocol):
    """What :class:`progress_bar` gives: ``advance(n)`` units done, or with ``fraction`` the share
    of the whole job done so far when the caller knows it better than ``done / total``."""

    def __call__(self, n: int, fraction: float | None = None) -> None: ...


def _no_progress(n: int, fraction: float | None = None) -> None:
    pass


class progress_bar:
    """A context giving an :class:`Advance`: the one place every simulating job reports to the
    user (:class:`cardlab.report.progress.Progress` on stderr: an estimate first when the job
    will take longer than about 10 s, then a bar on a terminal or a line every 10 s or so
    elsewhere) when ``total`` is not 0, else a no-op. :func:`reduce_chunks` uses it; runners
    with their own loop over :func:`iter_chunks` (the dealer scripts) use it directly."""

    def __init__(self, total: int, label: str) -> None:
        self._total, self._label = total, label
        self._bar: Any = None

    def __enter__(self) -> Advance:
        if self._total:
            from cardlab.report.progress import Progress

            self._bar = Progress(self._total, self._label)
            advance: Advance = self._bar.advance
            return advance
        return _no_progress

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()
