"""``bridge score`` as one library call: read, score, check or render, and say what to print.

:func:`score_file` does everything the command does but parse arguments and print: it reads
the file (:func:`~cardlab.scoring.load_results`), scores it, then checks it (``check=True``),
writes a results site (``fmt="html"`` and ``output`` a directory) or renders the session in
one format (:func:`render_session`, the one dispatcher of the output formats).  It returns a
:class:`ScoreRun`: the text for stdout or ``-o``, the notes for stderr and the exit status.

>>> data = b"board,ns,ew,contract,declarer,tricks,score\\n1,1,1,4S,N,10,\\n1,2,2,4S,N,9,\\n"
>>> run = score_file(data, fmt="pbn")
>>> run.status, run.notes[0][:40]
(0, 'pbn figures are written in EBU units (2 ')
>>> score_file(run.text.encode(), check=True).text
'<bytes>: no differences (2 lines, 4 pairs checked)\\n'
"""

from __future__ import annotations

import errno
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from cardlab.scoring.document import ResultsFile
from cardlab.scoring.results_file import load_results
from cardlab.scoring.session import SessionResult

__all__ = ["ScoreRun", "score_file", "render_session", "site_directory", "FORMATS", "MAX_HTML_LINES"]

#: What ``bridge score --format`` writes.
FORMATS = ("table", "csv", "json", "html", "usebio", "pbn")
MAX_HTML_LINES = 100_000
"""The most traveller lines a results page or site is made of: its pages are built in memory
(about 3 KB a line; 10^6 lines took 2.7 GB). The other formats stream any number."""


@dataclass(frozen=True)
class ScoreRun:
    """What one ``bridge score`` run gives: ``text`` for stdout or ``-o`` (a string or
    chunks, streamed), ``message`` for stdout even with ``-o`` (the site written), ``notes``
    for stderr (``cardlab: note: ...``), ``summary`` (the count of differences, for stderr)
    and the exit ``status`` (1 when ``--check`` found differences)."""

    text: str | Iterable[str] | None
    status: int = 0
    notes: tuple[str, ...] = ()
    message: str | None = None
    summary: str | None = None
    result: SessionResult | None = None


def render_session(result: SessionResult, fmt: str,
                   document: ResultsFile | None = None) -> str | Iterable[str]:
    """``result`` in one of :data:`FORMATS` (``html`` as one page); JSON and HTML are
    streamed (chunks), so a big session is never one string.

    >>> from cardlab.scoring.session import score_session
    >>> from cardlab.scoring.traveller import TravellerLine as T
    >>> result = score_session([T.make(1, "1", "1", score=100), T.make(1, "2", "2", score=50)])
    >>> render_session(result, "pbn").splitlines()[0]
    '% PBN 2.1'
    >>> render_session(result, "xls")
    Traceback (most recent call last):
    ...
    ValueError: unknown output format 'xls' (expected table, csv, json, html, usebio, pbn)
    """
    if fmt == "json":
        from cardlab.scoring.output import iter_session_json

        return iter_session_json(result)
    if fmt == "csv":
        return result.to_csv()
    if fmt == "html":
        from cardlab.report.scoring_html import iter_session_html  # jinja2: only when asked

        return iter_session_html(result)
    if fmt in ("usebio", "pbn"):
        from cardlab.scoring.export import export

        return export(result, fmt, document)
    if fmt == "table":
        return result.table()
    raise ValueError(f"unknown output format {fmt!r} (expected {', '.join(FORMATS)})")


def site_directory(fmt: str, output: str | os.PathLike[str] | None,
                   check: bool = False) -> Path | None:
    """The directory of ``--format html -o DIR/`` (the nearest folder of it that exists tried for
    writing, before any work; nothing is made until the site is written), else None (``-o`` is
    then one file)."""
    if fmt != "html" or not output or check:
        return None
    from cardlab.report.site import is_site_target  # jinja2: only when asked

    if not is_site_target(os.fspath(output)):
        return None
    directory = Path(output)
    existing = next(p for p in [directory, *directory.parents, Path(".")] if p.exists())
    if not existing.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), os.fspath(existing))
    try:
        handle, probe = tempfile.mkstemp(dir=existing, prefix=".cardlab-write-test-")
    except OSError as error:  # named by the folder the user gave, not by the probe
        raise OSError(error.errno, error.strerror, os.fspath(output)) from None
    os.close(handle)
    os.unlink(probe)
    return directory


def score_file(
    path_or_bytes: "str | os.PathLike[str] | bytes | ResultsFile",
    *,
    fmt: str = "table",
    output: str | os.PathLike[str] | None = None,
    check: bool = False,
    method: str | None = None,
    scale: str | None = None,
    movement: str | None = None,
    allow_repeated_pairs: bool = False,
    phantoms: Iterable[str] = (),
    phantom_rule: str = "session",
    title: str | None = None,
    source: str | None = None,
) -> ScoreRun:
    """Read, score and check or render a result file, as ``cardlab bridge score`` does.

    ``source`` names the file in messages when it is given as bytes (an upload's file name).

    ``output`` matters only for ``fmt="html"``: a directory gets a linked results site
    (written here; the run's ``message`` says what was written) and a file name one page
    (in ``text``, for the caller to write).  Errors are the library's
    (:class:`~cardlab.errors.ResultFileError`, :class:`~cardlab.errors.ScoringError`)."""
    site_dir = site_directory(fmt, output, check)
    doc = (path_or_bytes if isinstance(path_or_bytes, ResultsFile)
           else load_results(path_or_bytes, source))
    notes: list[str] = []
    notice = doc.method_notice(method)
    if notice:
        notes.append(notice)
    result = doc.score(method=method, scale=scale, movement=movement,
                       allow_repeated_pairs=allow_repeated_pairs, phantoms=phantoms,
                       phantom_rule=phantom_rule, title=title)
    if fmt == "html" and not check and result.line_count > MAX_HTML_LINES:
        from cardlab.errors import ScoringError

        raise ScoringError(f"{result.line_count:,} traveller lines are too many for HTML pages (at most "
                           f"{MAX_HTML_LINES:,}, built in memory); write csv or json")
    if check:
        report = doc.check(result)
        notes.extend(report.notes)
        if report.ok:
            return ScoreRun(report.table(), 0, tuple(notes), result=result)
        return ScoreRun(report.table(), 1, tuple(notes),
                        summary=f"{doc.source}: {len(report.differences)} difference(s)",
                        result=result)
    if site_dir is not None:
        from cardlab.report.site import write_site  # jinja2: only when asked

        site = write_site(result, site_dir, deals=doc.deals, club=doc.club, date=doc.date)
        return ScoreRun(None, 0, tuple(notes), message=f"wrote {site.table()} to {site_dir}",
                        result=result)
    from cardlab.scoring.export import export_notice

    converted = export_notice(result, fmt)
    if converted:
        notes.append(converted)
    return ScoreRun(render_session(result, fmt, doc), 0, tuple(notes), result=result)
