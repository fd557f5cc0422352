"""The job runner: every answer is computed in a worker process, with progress, cancel and limits.

A job (:class:`~cardlab.web.page.JobSpec`) runs in a process of its own, started from a fork
server that has cardlab and numpy loaded already (so a job starts in milliseconds, not the second
an interpreter takes), at most :attr:`Limits.concurrent` at a time (the others wait, "queued").
The process reports progress through a pipe: the engine's own progress reports
(:class:`cardlab.report.progress.Progress`, which every simulating job already feeds) are
redirected there, and a job function may call its ``progress(fraction, note)`` too. Cancel, and a job
over its time limit, end the process (SIGTERM, then SIGKILL half a second later): it stops at once
whatever it was doing, native solvers included; Cancel first sends SIGINT, as Ctrl-C, and waits
:data:`CANCEL_GRACE` for the partial result a simulation then returns (shown, marked partial). The process's address space is capped at
:attr:`Limits.memory_mb`, so a job that outgrows it fails with that reason instead of taking the
machine.

Jobs belong to a session (a random cookie): :meth:`JobRunner.get` and :meth:`JobRunner.cancel`
find only the session's own jobs, so concurrent users never see each other's.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import secrets
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

from cardlab.errors import CardlabError, WebInputError
from cardlab.web.page import Answer, JobSpec

__all__ = ["Limits", "Job", "JobRunner", "Progress"]

#: A job function's progress callback: ``progress(fraction, note)``, fraction 0..1 or None.
Progress = Callable[[float | None, str], None]


@dataclass(frozen=True)
class Limits:
    """The server's limits: ``time_limit`` seconds per job, ``memory_mb`` of address space per job
    process (0: none), ``concurrent`` jobs running at once, ``per_session`` unfinished jobs of one
    session, ``queued_in_all`` jobs waiting for a slot in all sessions (a client without a cookie is
    a new session each time: the per-session cap alone never binds), ``upload_bytes`` of request
    body, ``kept`` finished jobs remembered per session, ``kept_in_all`` for all sessions, each for
    ``keep_seconds`` at most."""

    time_limit: float = 300.0
    memory_mb: int = 3072
    concurrent: int = max(1, min(4, os.cpu_count() or 1))
    per_session: int = 4
    queued_in_all: int = 32  # 20 users asking at once are all served (bench_web.py), with room to spare
    upload_bytes: int = 20 * 1024 * 1024
    kept: int = 20
    kept_in_all: int = 500
    keep_seconds: float = 3600.0


@dataclass
class Job:
    """One job: its state (``queued``, ``running``, ``done``, ``failed``, ``cancelled``), progress
    (0..1, None when unknown), the note beside it, the answer or the message saying why there is none."""

    id: str
    session: str
    title: str
    page: str
    state: str = "queued"
    progress: float | None = None
    note: str = ""
    answer: Answer | None = None
    message: str | None = None
    error_line: int | None = None
    cpu: float | None = None
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    ended: float | None = None
    fields: dict[str, str] = field(default_factory=dict, repr=False)
    finished: threading.Event = field(default_factory=threading.Event, repr=False)
    cancel_requested: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def over(self) -> bool:
        """Whether the job has ended (answer, failure or cancel)."""
        return self.state in ("done", "failed", "cancelled")

    def elapsed(self) -> float:
        """Seconds it has run (or ran)."""
        if self.started is None:
            return 0.0
        return (self.ended or time.monotonic()) - self.started

    def status(self) -> dict[str, Any]:
        """The job as the page's script polls it (JSON-ready; no answer HTML)."""
        return {"id": self.id, "state": self.state, "progress": self.progress, "note": self.note,
                "message": self.message, "line": self.error_line, "elapsed": round(self.elapsed(), 2),
                "cpu": None if self.cpu is None else round(self.cpu, 3), "title": self.title}


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["cardlab.web.worker"])
        return context
    return multiprocessing.get_context("spawn")


class JobRunner:
    """Runs jobs in worker processes within :class:`Limits`; one per server (the app's state)."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._context = _context()
        self._slots = threading.BoundedSemaphore(self.limits.concurrent)
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._processes: dict[str, Any] = {}
        self._closed = False

    def submit(self, session: str, page: str, spec: JobSpec) -> Job:
        """Start ``spec`` for ``session``; refused (:class:`WebInputError`) when the session has
        :attr:`Limits.per_session` unfinished jobs already."""
        with self._lock:
            if self._closed:
                raise WebInputError("the workbench is stopping; no new job is started")
            mine = [j for j in self._jobs.values() if j.session == session]
            if sum(not j.over for j in mine) >= self.limits.per_session:
                raise WebInputError(f"you have {self.limits.per_session} jobs running already: wait for one "
                                    "to finish or cancel one")
            if sum(j.state == "queued" for j in self._jobs.values()) >= self.limits.queued_in_all:
                raise WebInputError(f"the workbench has {self.limits.queued_in_all} jobs waiting to start "
                                    "already: try again when they have run")
            for old in sorted((j for j in mine if j.over), key=lambda j: j.created)[:-self.limits.kept or None]:
                if len(mine) > self.limits.kept:
                    self._jobs.pop(old.id, None)
                    mine.remove(old)
            self._forget_old()
            job = Job(secrets.token_urlsafe(12), session, spec.title, page)
            self._jobs[job.id] = job
        threading.Thread(target=self._run, args=(job, spec), name=f"cardlab-web-job-{job.id}",
                         daemon=True).start()
        return job

    def _forget_old(self) -> None:
        """Drop answers kept longer than :attr:`Limits.keep_seconds`, and the oldest beyond
        :attr:`Limits.kept_in_all` (every session's): the server's memory stays bounded."""
        now = time.monotonic()
        over = sorted((j for j in self._jobs.values() if j.over), key=lambda j: j.ended or 0.0)
        for old in over:
            if now - (old.ended or now) > self.limits.keep_seconds or len(self._jobs) > self.limits.kept_in_all:
                self._jobs.pop(old.id, None)

    def get(self, session: str, job_id: str) -> Job | None:
        """The session's job ``job_id`` (None for another session's or an unknown one)."""
        with self._lock:
            job = self._jobs.get(job_id)
        return job if job is not None and secrets.compare_digest(job.session, session) else None

    def cancel(self, session: str, job_id: str) -> Job | None:
        """Ask the session's job to stop; its process is ended within half a second."""
        job = self.get(session, job_id)
        if job is not None and not job.over:
            job.cancel_requested.set()
        return job

    def warm(self) -> None:
        """Start the fork server now (it loads numpy, matplotlib and the library once), so the first
        question is answered as fast as the others; in the background."""
        def start() -> None:
            process = self._context.Process(target=_warm, daemon=True)
            process.start()
            process.join(120)

        threading.Thread(target=start, name="cardlab-web-warm", daemon=True).start()

    def shutdown(self) -> None:
        """End every job (the server is stopping)."""
        with self._lock:
            self._closed = True
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel_requested.set()
        for job in jobs:
            job.finished.wait(2.0)

    # --- the thread that looks after one job ---------------------------------------------------

    def _run(self, job: Job, spec: JobSpec) -> None:
        try:
            while not self._slots.acquire(timeout=0.05):
                if job.cancel_requested.is_set():
                    self._end(job, "cancelled", "cancelled before it started")
                    return
            try:
                self._supervise(job, spec)
            finally:
                self._slots.release()
        except Exception as error:  # the runner's own failure: say so, never leave the job hanging
            print(f"cardlab serve: job {job.id} failed in the runner: {error!r}", file=sys.stderr)
            self._end(job, "failed", "the workbench could not run this job (see the server's log)")

    def _supervise(self, job: Job, spec: JobSpec) -> None:
        if job.cancel_requested.is_set():
            self._end(job, "cancelled", "cancelled before it started")
            return
        limit = min(self.limits.time_limit, spec.time_limit or self.limits.time_limit)
        receiver, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_work, args=(sender, spec.function, spec.kwargs,
                                                             self.limits.memory_mb), daemon=True)
        job.state = "running"
        process.start()  # the first one waits for the fork server to load the library
        job.started = time.monotonic()
        sender.close()
        outcome: tuple[str, Any] | None = None
        reason: tuple[str, str] | None = None
        interrupted: float | None = None  # when Cancel asked the job for what it has (SIGINT)
        try:
            while outcome is None and reason is None:
                if receiver.poll(0.05):
                    try:
                        message = receiver.recv()
                    except (EOFError, OSError):
                        break
                    if message[0] == "progress":
                        job.progress, job.note = message[1], message[2]
                    else:
                        outcome = message
                elif not process.is_alive():
                    # it may have sent its answer between the poll and now: read what is left
                    outcome = _last_words(receiver, job)
                    break
                if job.cancel_requested.is_set() and outcome is None:
                    if interrupted is None:  # as Ctrl-C: a simulation stops and answers with what it has
                        interrupted = _interrupt(process)
                    elif time.monotonic() - interrupted > (spec.cancel_grace or CANCEL_GRACE):
                        reason = ("cancelled", f"cancelled after {job.elapsed():.1f} s")
                elif job.elapsed() > limit:
                    reason = ("failed", f"stopped: it took longer than the limit of {limit:g} s; ask "
                                        "for less (fewer deals or trials)")
        finally:
            _stop(process)
            receiver.close()
        if job.cancel_requested.is_set() and outcome is not None and outcome[0] == "done":
            job.answer = outcome[1]  # the partial result, which the answer marks as such
            self._end(job, "cancelled", f"cancelled after {job.elapsed():.1f} s; the result so far is below")
        elif reason is not None or job.cancel_requested.is_set():
            self._end(job, *(reason or ("cancelled", f"cancelled after {job.elapsed():.1f} s")))
        elif outcome is None:
            code = process.exitcode
            self._end(job, "failed", "the job stopped without an answer"
                      + (f" (exit status {code})" if code else "") + "; it may have needed more memory "
                      f"than the limit of {self.limits.memory_mb:,} MB")
        elif outcome[0] == "done":
            job.answer, job.progress = outcome[1], 1.0
            job.cpu = outcome[2] if len(outcome) > 2 else None
            self._end(job, "done", None)
        else:
            job.error_line = outcome[2] if len(outcome) > 2 else None
            self._end(job, "failed", str(outcome[1]))

    def _end(self, job: Job, state: str, message: str | None) -> None:
        job.state, job.message, job.ended = state, message, time.monotonic()
        job.finished.set()


def _last_words(receiver: Any, job: Job) -> tuple[str, Any] | None:
    """The outcome a process that has ended sent before it ended (None if it sent none)."""
    try:
        while receiver.poll(0):
            message = receiver.recv()
            if message[0] == "progress":
                job.progress, job.note = message[1], message[2]
            else:
                return tuple(message)
    except (EOFError, OSError):
        pass
    return None


#: Seconds a cancelled job has to send the result it has (a simulation stops at its next chunk).
CANCEL_GRACE = 0.6


def _interrupt(process: Any) -> float:
    """Ask the job's process for what it has: SIGINT, which the engine handles as the command line's
    Ctrl-C (an interrupted simulation returns its partial result). Returns when it was sent."""
    import signal

    try:
        if process.pid is not None:
            os.kill(process.pid, signal.SIGINT)
    except OSError:
        pass
    return time.monotonic()


def _stop(process: Any) -> None:
    """End ``process`` now: SIGTERM, then SIGKILL if it is still there half a second later."""
    if process.is_alive():
        process.terminate()
        process.join(0.5)
        if process.is_alive():
            process.kill()
    process.join(2.0)


# --- the worker process ----------------------------------------------------------------------------

def _warm() -> None:
    """The first process of the fork server: it returns at once (the preloading is the point)."""

def _work(sender: Any, function: str, kwargs: dict[str, Any], memory_mb: int) -> None:
    """In the job's process: cap the memory, route progress to the pipe, run, send the outcome."""
    import signal

    cpu_start = time.process_time()
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Cancel: KeyboardInterrupt, as Ctrl-C
    try:
        if memory_mb and sys.platform.startswith("linux"):
            import resource

            cap = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        last = [0.0]

        def progress(fraction: float | None, note: str = "") -> None:
            now = time.monotonic()
            if now - last[0] >= 0.1:
                last[0] = now
                sender.send(("progress", None if fraction is None else min(max(fraction, 0.0), 1.0), note))

        _route_engine_progress(progress)
        module, name = function.split(":")
        answer = getattr(importlib.import_module(module), name)(progress, **kwargs)
        if not isinstance(answer, Answer):
            raise TypeError(f"{function} returned {type(answer).__name__}, not an Answer")
        sender.send(("done", answer, time.process_time() - cpu_start))
    except CardlabError as error:
        line = getattr(error, "line", None)
        sender.send(("error", _short(str(error)), line if isinstance(line, int) else None))
    except MemoryError:
        sender.send(("error", f"not enough memory: the job needed more than the limit of {memory_mb:,} MB; "
                              "ask for less"))
    except OSError as error:  # a full disk (the site's pages, a plot's file): the page says so in one line
        print(f"cardlab serve: a job could not write its working files: {error}", file=sys.stderr)
        sender.send(("error", f"the server could not write its working files ({error.strerror or error}); "
                              "free some disk space and try again"))
    except KeyboardInterrupt:  # cancelled where nothing partial can be shown
        sender.send(("error", "cancelled"))
    except Exception as error:  # never a traceback on the page: one line there, the rest in the log
        traceback.print_exc(file=sys.stderr)
        sender.send(("error", f"the job failed: {type(error).__name__}: {_short(str(error))}"))
    finally:
        sender.close()


def _short(message: str, most: int = 600) -> str:
    return message if len(message) <= most else message[:most - 20] + f"... ({len(message):,} characters)"


def _route_engine_progress(progress: Progress) -> None:
    """Make the engine's progress reports (:class:`cardlab.report.progress.Progress`, what
    ``progress=True`` feeds) go to ``progress`` in this process instead of stderr."""
    from cardlab.report import progress as module

    class Piped:
        def __init__(self, total: int, label: str, **_: Any) -> None:
            self._total, self._label, self._done = max(int(total), 1), label, 0

        def advance(self, n: int, fraction: float | None = None) -> None:
            self._done += n
            progress(fraction if fraction is not None else self._done / self._total, self._label)

        def close(self) -> None:
            pass

    module.Progress = Piped  # type: ignore[misc,assignment]
