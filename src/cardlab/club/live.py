"""Live results: keep a results site up to date while a session's file fills up.

:func:`publish` reads a results file (a ``.bws`` or any format
:func:`~cardlab.club.files.load_any` reads), scores only the boards that are complete (every
table that plays the board has a result; in a ``.bws`` the movement says how many, elsewhere
the most results any board has so far), and writes the results site (the one site writer,
:func:`cardlab.report.site.write_site`) with the title marked *provisional* until every board
is complete.  A board's matchpoints appear once it is complete, because only complete boards
are scored.  The site is built in a folder beside the target and swapped in whole, so a
reader or a stop never sees half a site.  :func:`watch` calls :func:`publish` whenever the
file changes (its size or modification time) and keeps the last good site when a read fails
(a file caught half-written).
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from cardlab.errors import CardlabError
from cardlab.scoring.document import ResultsFile

from cardlab.club.bws import is_bws, read_bws
from cardlab.club.files import load_any, read_bytes

__all__ = ["LiveState", "publish", "watch", "complete_boards"]


@dataclass(frozen=True)
class LiveState:
    """What the page shows: boards complete of boards in play, results in, whether final."""

    complete: int
    boards: int
    results: int

    @property
    def final(self) -> bool:
        """Whether every board is complete (the standings are no longer provisional)."""
        return self.boards > 0 and self.complete == self.boards

    def caption(self) -> str:
        """The words put after the title."""
        if self.final:
            return f"final: all {self.boards} boards complete"
        return (f"provisional: {self.complete} of {self.boards} boards complete, "
                f"{self.results} results in")


def complete_boards(doc: ResultsFile, expected: dict[int, int] | None = None) -> set[int]:
    """The boards with every result in: ``expected`` (board -> tables playing it) when known,
    else as many results as the board with the most."""
    counts = Counter(line.board for line in doc.lines)
    if expected:
        return {b for b, n in expected.items() if counts.get(b, 0) >= n}
    most = max(counts.values(), default=0)
    return {b for b, n in counts.items() if n == most and most > 0}


def _read(path: Path) -> tuple[ResultsFile, dict[int, int] | None]:
    data = read_bytes(path)
    if is_bws(data):
        session = read_bws(data, path.name)
        expected = Counter(b for r in session.rounds if r.ns and r.ew for b in r.boards)
        return session.results(), dict(expected)
    return load_any(data, path.name), None


def publish(path: str | os.PathLike[str], directory: str | os.PathLike[str],
            title: str | None = None) -> LiveState:
    """Score the complete boards of ``path`` and write the site to ``directory``."""
    from cardlab.report.site import write_site  # jinja2: only when a site is written

    source = Path(path)
    doc, expected = _read(source)
    done = complete_boards(doc, expected)
    in_play = set(expected) if expected else {line.board for line in doc.lines}
    state = LiveState(len(done & in_play), len(in_play), len(doc.lines))
    name = f"{title or doc.title or source.stem} ({state.caption()})"
    lines = tuple(line for line in doc.lines if line.board in done)
    if not lines:
        return state  # nothing complete yet: the last page (if any) stays
    kept = replace(doc, lines=lines, columns=None)
    result = kept.score(title=name)
    write_site(result, Path(directory), deals=doc.deals, club=doc.club, date=doc.date)
    return state


def watch(path: str | os.PathLike[str], directory: str | os.PathLike[str], *,
          interval: float = 0.5, stop: threading.Event | None = None,
          title: str | None = None, report: Callable[[str], None] = print) -> LiveState | None:
    """Publish now and whenever ``path`` changes, until ``stop`` is set (or Ctrl-C); one
    line per update (or per read that fails, the last site kept) goes to ``report``."""
    halt = stop or threading.Event()
    seen: tuple[int, int] | None = None
    state: LiveState | None = None
    try:
        while not halt.is_set():
            try:
                info = os.stat(path)
                stamp = (info.st_mtime_ns, info.st_size)
            except OSError as error:
                report(f"{Path(path).name}: cannot read: {error.strerror}")
                stamp = None
            if stamp is not None and stamp != seen:
                seen = stamp
                try:
                    state = publish(path, directory, title)
                    report(f"{Path(path).name}: {state.caption()}")
                except CardlabError as error:
                    report(f"{error} (the last page is kept)")
            halt.wait(interval)
    except KeyboardInterrupt:
        pass
    return state
