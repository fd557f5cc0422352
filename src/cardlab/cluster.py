"""Run cardlab's simulations on a Dask cluster, with the same answer as on a laptop.

A :class:`DaskExecutor` is an :class:`~cardlab.engine.Executor` on a
``distributed.Client``: hand it to any simulation as ``executor=`` (or give the
address itself, ``executor="tcp://scheduler:8786"``) and its chunks run on the
cluster's workers. The engine still cuts the job into the same chunks with the
same seeds (chunk ``i`` draws from the ``i``-th child of the root seed), so the
counts are byte-identical to a run on one process, on local worker processes or
on a cluster of any size.

Dask spends milliseconds on each task, a large share of a chunk of a fast
simulation (250,000 five-card poker hands take about 25 ms). So the executor sends *batches* of consecutive chunks as one task: each
chunk in a batch still uses its own seed and comes back as its own small result
(counts, not hands: the chunk task reduces its hands on the worker), and the
batch size is chosen from the measured time of the first chunks so a task
lasts about ``task_seconds`` (one second by default). Batching changes how the
chunks travel, never which chunks there are, so it does not change the answer.
The answer depends on the seed and the chunk size (``chunk=``, the same default
on every executor), as it always has; never on the batch, the workers or the
cluster.

If a worker is lost, Dask runs its tasks again elsewhere; a chunk computed
twice from the same seed gives the same counts. Ctrl-C (or stopping the loop
early) cancels the tasks still queued.

Needs the optional ``distributed`` package: ``pip install 'cardlab[cluster]'``.

>>> cluster_address(None, environ={"CARDLAB_CLUSTER": "tcp://10.0.0.5:8786"})
'tcp://10.0.0.5:8786'
>>> parse_local("local:3")
3
>>> parse_local("local:0")
Traceback (most recent call last):
...
cardlab.errors.ClusterError: 'local:0': a local cluster needs at least 1 worker process (local:N)
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from concurrent.futures import CancelledError
from typing import Any, Callable, Generic, Mapping, TypeVar

from cardlab.cores import available_cores
from cardlab.errors import ClusterError
from cardlab.textfile import shown_text

__all__ = [
    "DaskExecutor",
    "connect",
    "executor_from",
    "cluster_address",
    "parse_local",
    "ENV_VAR",
    "INSTALL_HINT",
    "CONNECT_TIMEOUT",
    "TASK_SECONDS",
    "SCHEDULER_RATE",
]

T = TypeVar("T")

#: The environment variable read when no ``--cluster`` is given.
ENV_VAR = "CARDLAB_CLUSTER"
#: What to run when ``distributed`` is missing.
INSTALL_HINT = "pip install 'cardlab[cluster]'"
#: Seconds to wait for a scheduler before giving up.
CONNECT_TIMEOUT = 5.0
#: Target duration of one Dask task (a batch of chunks), in seconds.
TASK_SECONDS = 1.0
#: Tasks a second the scheduler is asked to handle at most (Dask spends about 1 ms on each).
SCHEDULER_RATE = 200.0
_MAX_BATCH = 100_000
_SLOTS_REFRESH = 2.0


def cluster_address(spec: str | None = None, environ: Mapping[str, str] | None = None) -> str | None:
    """The cluster to use: ``spec`` if given, else ``$CARDLAB_CLUSTER``, else None (run locally).

    >>> cluster_address("local:2", environ={"CARDLAB_CLUSTER": "tcp://h:8786"})
    'local:2'
    >>> cluster_address(None, environ={}) is None
    True
    """
    env = os.environ if environ is None else environ
    text = spec if spec is not None else env.get(ENV_VAR)
    text = (text or "").strip()
    return text or None


def parse_local(spec: str) -> int | None:
    """The number of worker processes of a ``local`` / ``local:N`` spec, None for an address."""
    text = spec.strip().lower()
    if text == "local":
        return available_cores()
    if not text.startswith("local:"):
        return None
    number = text[len("local:"):].strip()
    if not number.isdigit() or len(number) > 6:
        if number.isdigit():
            raise ClusterError(f"'{spec}': at most {4 * available_cores()} local worker processes on this "
                               f"machine (4 per available core)")
        raise ClusterError(f"'{spec}': expected local:N with N a whole number of worker processes")
    n = int(number)
    if n < 1:
        raise ClusterError(f"'{spec}': a local cluster needs at least 1 worker process (local:N)")
    if n > 4 * available_cores():  # each is a process of its own: thousands would never start
        raise ClusterError(f"'{spec}': at most {4 * available_cores()} local worker processes on this "
                           f"machine (4 per available core)")
    return n


def connect(spec: str, *, timeout: float = CONNECT_TIMEOUT, task_seconds: float = TASK_SECONDS,
            batch: int | None = None) -> DaskExecutor:
    """A :class:`DaskExecutor` on the scheduler at ``spec`` (``tcp://host:8786``, ``host:8786``),
    or on a new ``LocalCluster`` of N single-threaded worker processes for ``local:N``.

    An unreachable scheduler raises :class:`~cardlab.errors.ClusterError` after ``timeout`` seconds.
    The executor owns the client (and the local cluster): close it, or use it in a ``with`` block.
    """
    n = parse_local(spec)  # a malformed or unbounded local:N is refused with or without Dask installed
    distributed = _distributed()
    cluster: Any = None
    try:
        if n is not None:
            import dask

            # Dask starts workers with MALLOC_TRIM_THRESHOLD_=65536, which turns off glibc's
            # adaptive mmap threshold: every large numpy temporary is then mapped and unmapped
            # anew, and a chunk of poker hands runs about 25% slower. The chunks here free their
            # arrays at once, so the setting buys nothing; leave glibc's default.
            with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
                cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                   dashboard_address=None, silence_logs=logging.CRITICAL)
            client = distributed.Client(cluster, timeout=timeout, set_as_default=False)
        else:
            client = distributed.Client(_checked_address(spec), timeout=timeout, set_as_default=False)
    except ClusterError:
        raise
    except Exception as error:  # noqa: BLE001 - any failure to connect is one line for the user
        if cluster is not None:
            cluster.close()
        what = f"a local cluster of {n} worker processes could not start" if n is not None else \
            f"cannot reach the Dask scheduler at '{spec}'"
        reason = " ".join(str(error).split()) or type(error).__name__
        raise ClusterError(f"{what}: {reason}") from None
    return DaskExecutor(client, cluster=cluster, own=True, task_seconds=task_seconds, batch=batch)


_SCHEMES = ("tcp", "tls", "ws", "wss")


def _checked_address(spec: str) -> str:
    """``spec`` as a scheduler address (``tcp://HOST:PORT``, ``HOST:PORT``, or ``tls://``, ``ws://``,
    ``wss://``), checked before a ``distributed.Client`` is made: a Client that fails before it
    connects (no port, a port that is not a number, TLS without Dask's TLS configuration) leaves a
    half-made client whose clean-up waits 10 s and prints a traceback ("Exception ignored").

    >>> _checked_address(" sched.example:8786 ")
    'sched.example:8786'
    >>> _checked_address("bogus")
    Traceback (most recent call last):
    ...
    cardlab.errors.ClusterError: 'bogus' is not a scheduler address: write tcp://HOST:PORT (or local:N); missing port number in address 'bogus'
    """
    from distributed.comm.addressing import parse_address, parse_host_port

    text = spec.strip()
    shown = shown_text(text)

    def refuse(reason: str) -> ClusterError:
        return ClusterError(f"{shown} is not a scheduler address: write tcp://HOST:PORT (or local:N); {reason}")

    if len(text) > 1000:
        raise refuse("longer than any host name and port")
    try:
        scheme, location = parse_address(text if "://" in text else f"tcp://{text}")
        host, port = parse_host_port(location) if scheme in _SCHEMES else ("", 0)
    except ValueError as error:
        raise refuse(" ".join(str(error).split())) from None
    if scheme not in _SCHEMES:
        raise refuse(f"cardlab reaches a scheduler by {', '.join(s + '://' for s in _SCHEMES)}, not {scheme}://")
    if not host or not 0 < int(port) < 65536:
        raise refuse(f"a host and a port from 1 to 65535, not {location[:80]!r}")
    if scheme in ("tls", "wss"):
        import distributed.security

        module: Any = distributed.security  # (distributed's functions carry no types)
        security = module.Security()
        if security.get_connection_args("client").get("ssl_context") is None:
            raise ClusterError(f"{shown}: a {scheme}:// scheduler needs Dask's TLS configuration "
                               "(distributed.comm.tls in the Dask config: the CA file, the client's "
                               "certificate and key)")
    return text


def executor_from(spec: str | None = None, **options: Any) -> DaskExecutor | None:
    """:func:`connect` to ``spec`` or ``$CARDLAB_CLUSTER``; None when neither is set (run locally)."""
    address = cluster_address(spec)
    return connect(address, **options) if address else None


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"running on a Dask cluster needs the 'distributed' package: {INSTALL_HINT}") from None
    return distributed


def _run_batch(fn: Callable[..., Any], jobs: list[tuple[Any, ...]]) -> tuple[list[Any], float]:
    """One Dask task: the chunks of a batch, each with its own seed, and the seconds they took."""
    start = time.perf_counter()
    results = [fn(*args) for args in jobs]
    return results, time.perf_counter() - start


class _Batch:
    """Consecutive chunks sent to the cluster as one task."""

    def __init__(self, executor: DaskExecutor, fn: Callable[..., Any]) -> None:
        self.executor, self.fn = executor, fn
        self.jobs: list[tuple[Any, ...]] = []
        self.future: Any = None
        self.results: list[Any] | None = None
        self.cancelled = False
        self.done = threading.Event()

    def ship(self) -> None:
        if self.future is None and not self.cancelled:
            self.future = self.executor.client.submit(_run_batch, self.fn, self.jobs, pure=False)
            done = self.done
            self.future.add_done_callback(lambda _: done.set())
            self.executor._shipped(self)

    def values(self, timeout: float | None) -> list[Any]:
        if self.results is None:
            self.executor._ship_open(self)
            # Wait here rather than with Future.result(timeout): short timeouts there can fail
            # with a spurious UnboundLocalError (dask/distributed issue 8514).
            if not self.done.wait(timeout):
                raise TimeoutError(f"chunk batch not finished after {timeout} s")
            lost = _distributed().KilledWorker
            try:
                results, seconds = self.future.result()
            except (CancelledError, OSError, lost) as error:
                raise ClusterError(f"the Dask cluster at {self.executor.address} failed: "
                                   f"{type(error).__name__} {' '.join(str(error).split())}") from None
            self.results = results
            self.executor._finished(self, seconds)
            self._release()
        return self.results

    def cancel(self) -> None:
        if self.results is None and not self.cancelled:
            self.cancelled = True
            if self.future is not None:
                self.future.cancel()
                self._release()
            self.executor._forget(self)

    def _release(self) -> None:
        """Let the cluster drop the task's data now, not when the garbage collector finds the future."""
        future, self.future = self.future, None
        future.release()


class _Member(Generic[T]):
    """One chunk of a batch: what :func:`cardlab.engine.iter_chunks` waits on."""

    def __init__(self, batch: _Batch, index: int) -> None:
        self._batch, self._index = batch, index

    def result(self, timeout: float | None = None) -> T:
        value: T = self._batch.values(timeout)[self._index]
        return value

    def cancel(self) -> None:
        self._batch.cancel()


class DaskExecutor:
    """Chunks on a Dask cluster: an :class:`~cardlab.engine.Executor` on a ``distributed.Client``.

    ``batch`` fixes the chunks per task; by default it is chosen so a task takes
    about ``task_seconds``, from the compute time the workers report for the first
    chunks (longer on a big cluster, so the scheduler sees at most
    :data:`SCHEDULER_RATE` tasks a second). ``slots`` is the cluster's threads times the batch, so the engine keeps
    about two tasks per worker thread in flight. Built by :func:`connect`, or from
    a client you made yourself: ``DaskExecutor(distributed.Client(...))`` (then
    closing the executor leaves your client open).
    """

    def __init__(self, client: Any, *, cluster: Any = None, own: bool = False,
                 task_seconds: float = TASK_SECONDS, batch: int | None = None) -> None:
        if batch is not None and batch < 1:
            raise ClusterError(f"a batch is at least 1 chunk, got {batch}")
        self.client, self.cluster = client, cluster
        self.task_seconds = task_seconds
        self._own = own
        self._fixed = batch
        self._batch = batch or 1
        self._open: _Batch | None = None
        self._inflight: set[_Batch] = set()
        self._lock = threading.Lock()
        self._threads, self._threads_at = 0, -math.inf
        #: Chunks computed and the seconds the workers spent on them.
        self.chunks, self.compute_seconds, self.tasks = 0, 0.0, 0

    @property
    def address(self) -> str:
        """The scheduler's address (``tcp://host:port``)."""
        return str(getattr(self.client.scheduler, "address", "?"))

    @property
    def threads(self) -> int:
        """Worker threads on the cluster now (asked again every couple of seconds)."""
        now = time.monotonic()
        if now - self._threads_at > _SLOTS_REFRESH:
            try:
                self._threads = sum(self.client.nthreads().values())
            except Exception:  # noqa: BLE001 - keep the last count if the scheduler is busy
                pass
            self._threads_at = now
        return max(1, self._threads)

    @property
    def batch(self) -> int:
        """Chunks per Dask task now."""
        return self._batch

    @property
    def chunk_seconds(self) -> float | None:
        """Mean compute time of a chunk on a worker, once some have finished."""
        return self.compute_seconds / self.chunks if self.chunks else None

    @property
    def slots(self) -> int:
        """Chunks worth having in flight: worker threads times chunks per task."""
        return self.threads * self._batch

    def submit(self, fn: Callable[..., T], *args: Any) -> _Member[T]:
        """Queue ``fn(*args)``; consecutive calls of one function are shipped to Dask as one task."""
        with self._lock:
            group = self._open
            if group is None or group.fn is not fn:
                if group is not None:
                    group.ship()
                group = self._open = _Batch(self, fn)
            group.jobs.append(args)
            member: _Member[T] = _Member(group, len(group.jobs) - 1)
            if len(group.jobs) >= self._batch:
                group.ship()
        return member

    def close(self, cancel: bool = False) -> None:
        """Cancel what is still queued (nobody can ask for it after this); close what we opened."""
        with self._lock:
            pending = list(self._inflight)
            self._open = None
        for group in pending:
            group.cancel()
        if self._own:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(cancel=exc[0] is not None)

    def __repr__(self) -> str:
        return f"DaskExecutor({self.address!r}, threads={self.threads}, batch={self._batch})"

    # --- bookkeeping of the batches ---------------------------------------------------------

    def _shipped(self, group: _Batch) -> None:
        self.tasks += 1
        self._inflight.add(group)
        if self._open is group:
            self._open = None

    def _ship_open(self, group: _Batch) -> None:
        """Before waiting for ``group``: send it if it is still open, and send the open batch
        early when fewer batches than worker threads are running (the end of a job)."""
        with self._lock:
            group.ship()
            if self._open is not None and len(self._inflight) < self.threads:
                self._open.ship()

    def _forget(self, group: _Batch) -> None:
        self._inflight.discard(group)
        if self._open is group:
            self._open = None

    def _finished(self, group: _Batch, seconds: float) -> None:
        self._inflight.discard(group)
        self.chunks += len(group.jobs)
        self.compute_seconds += seconds
        if self._fixed is None and self.compute_seconds > 0:
            per_chunk = self.compute_seconds / self.chunks
            target = max(self.task_seconds, self.threads / SCHEDULER_RATE)  # big clusters: longer tasks
            self._batch = max(1, min(_MAX_BATCH, round(target / per_chunk)))
