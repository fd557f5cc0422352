"""One call to read any result file: :func:`load_results` sniffs the format by content.

USEBIO XML (first non-blank character ``<``), PBN (a ``%`` comment or a ``[Tag "value"]``
first) or CSV travellers (anything else); the file extension is never used.  Text is
decoded as UTF-8 (a byte-order mark is dropped); a file that is not UTF-8 but reads as
plain Windows-1252 text (the legacy encoding of many club scoring programs: ``Müller``
saved on Windows) is decoded as such; anything else, e.g. binary bytes, is an error naming
the file.  CRLF line ends are read like LF.  Every error names the file (and line).

>>> doc = load_results(b"board,ns,ew,contract,declarer,tricks,score\\r\\n1,1,1,4S,N,10,\\r\\n"
...                    b"1,2,2,3NT,S,9,\\r\\n", source="club.csv")
>>> doc
<ResultsFile 'club.csv' csv: 2 lines, 1 boards>
>>> doc.score().pairs[0].percentage
100.0
>>> load_results(b"\\x00\\x01\\x02", source="blob.bin")
Traceback (most recent call last):
...
cardlab.errors.ResultFileError: blob.bin: not a text file (neither UTF-8 nor Windows-1252 text)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from cardlab.scoring.check import CheckReport, check_session
from cardlab.scoring.columns import LazyLines, TravellerColumns, read_csv_columns, score_columns
from cardlab.scoring.csv_travellers import read_travellers, write_travellers
from cardlab.scoring.matchpoints import Scale
from cardlab.scoring.pbn import looks_like_pbn, method_of_scoring, read_pbn
from cardlab.scoring.session import (
    Method,
    Movement,
    PairKey,
    PhantomRule,
    SessionResult,
    score_session,
)
from cardlab.scoring.traveller import TravellerLine
from cardlab.scoring.usebio import Reported, method_of_event_type, read_usebio
from cardlab import textfile
from cardlab.errors import ResultFileError

__all__ = ["ResultsFile", "load_results", "decode_text", "sniff_format", "FORMATS"]

#: The formats :func:`load_results` recognises.
FORMATS = ("usebio", "pbn", "csv")


def decode_text(data: bytes, source: str | None = None) -> str:
    """A results file's text (:func:`cardlab.textfile.decode_text`); errors are ResultFileErrors.

    >>> decode_text(b"\\xef\\xbb\\xbfname\\r\\n"), decode_text(b"M\\xfcller")
    ('name\\r\\n', 'Müller')
    """
    return textfile.decode_text(data, source, ResultFileError)


def sniff_format(data: bytes) -> str:
    """``usebio``, ``pbn`` or ``csv``, from the first characters of the content.

    >>> sniff_format(b"\\xef\\xbb\\xbf  <?xml"), sniff_format(b"% PBN 2.1"), sniff_format(b"board,ns")
    ('usebio', 'pbn', 'csv')
    """
    head = data[:4096].lstrip(b"\xef\xbb\xbf").lstrip()
    if head.startswith(b"<"):
        return "usebio"
    if looks_like_pbn(head.decode("latin-1")):
        return "pbn"
    return "csv"


@dataclass(frozen=True)
class ResultsFile:
    """What a result file says: its traveller lines and everything around them.

    ``deals`` maps a board number to its PBN deal string (``N:AKQ.J.T98.7654 ...``) when the
    file has the hands (``HAND`` in USEBIO, ``Deal`` in PBN).  ``reported`` holds the
    figures the file states (None for CSV), used only by :meth:`check`.
    ``event_type`` is the file's own word (USEBIO ``EVENT_TYPE``, PBN ``Scoring``) and
    ``method`` the scoring method it means.
    """

    source: str
    format: str
    lines: Sequence[TravellerLine]
    names: Mapping[PairKey, tuple[str, ...]] = field(default_factory=dict)
    title: str = ""
    club: str = ""
    date: str = ""
    movement: Movement | None = None
    event_type: str | None = None
    method: Method | None = None
    reported: Reported | None = None
    deals: Mapping[int, str] = field(default_factory=dict)
    phantoms: tuple[PairKey, ...] = ()
    columns: TravellerColumns | None = None

    def __repr__(self) -> str:
        boards = (len(set(self.columns.board.tolist())) if self.columns is not None
                  else len({line.board for line in self.lines}))
        kind = f" {self.event_type}" if self.event_type else ""
        return (f"<ResultsFile {self.source!r} {self.format}{kind}: {len(self.lines)} lines, "
                f"{boards} boards>")

    @property
    def default_scale(self) -> Scale:
        """EBU units for USEBIO and PBN (the units of the programs that write them), else ACBL."""
        return Scale.EBU if self.format in ("usebio", "pbn") else Scale.ACBL

    def file_method(self) -> Method:
        """The method the file names (default matchpoints); an error naming an event type
        we do not score."""
        if self.method is not None or not self.event_type:
            return self.method or Method.MP
        if self.format == "pbn":
            return method_of_scoring(self.event_type, self.source)
        return method_of_event_type(self.event_type, self.source)

    def method_notice(self, method: Method | str | None) -> str | None:
        """A one-line notice when ``method`` overrides a different method the file names."""
        if method is None or not self.event_type:
            return None
        chosen = Method.parse(method)
        if self.method is None:
            return (f"{self.source}: scoring by {chosen.value} as asked; the file's event type "
                    f"{self.event_type} is not one we score")
        if chosen is self.method:
            return None
        return (f"{self.source}: scoring by {chosen.value} as asked, although the file's "
                f"event type {self.event_type} means {self.method.value}")

    def score(
        self,
        *,
        method: Method | str | None = None,
        scale: Scale | str | None = None,
        movement: Movement | str | None = None,
        allow_repeated_pairs: bool = False,
        phantoms: Iterable[str | PairKey] = (),
        phantom_rule: PhantomRule | str = PhantomRule.SESSION,
        title: str | None = None,
    ) -> SessionResult:
        """Score the session; arguments left out come from the file (or the defaults)."""
        try:
            if self.columns is not None and not list(phantoms) and not self.phantoms:
                fast = score_columns(
                    self.columns,
                    method=method if method is not None else self.file_method(),
                    scale=scale if scale is not None else self.default_scale,
                    movement=movement if movement is not None else self.movement,
                    allow_repeated_pairs=allow_repeated_pairs, names=dict(self.names),
                    title=self.title if title is None else title)
                if fast is not None:
                    return fast
            return score_session(
                self.lines,
                method=method if method is not None else self.file_method(),
                scale=scale if scale is not None else self.default_scale,
                movement=movement if movement is not None else self.movement,
                allow_repeated_pairs=allow_repeated_pairs, names=dict(self.names),
                title=self.title if title is None else title,
                phantoms=[*self.phantoms, *phantoms], phantom_rule=phantom_rule,
            )
        except ResultFileError as error:
            if error.source is None:
                raise ResultFileError(error.reason, line=error.line, source=self.source) from None
            raise

    def check(self, result: SessionResult) -> CheckReport:
        """Compare ``result`` (scored from this file) with the figures the file states."""
        return check_session(result, self.reported, self.source, self.lines)

    def to_csv(self) -> str:
        """The traveller lines as CSV travellers."""
        return write_travellers(self.lines)

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "format": self.format, "title": self.title,
                "club": self.club, "date": self.date, "event_type": self.event_type,
                "method": self.method.value if self.method else None,
                "movement": self.movement.value if self.movement else None,
                "lines": len(self.lines), "deals": dict(self.deals),
                "phantoms": [list(k) for k in self.phantoms]}


def load_results(path_or_bytes: str | os.PathLike[str] | bytes, source: str | None = None
                 ) -> ResultsFile:
    """Read a result file (USEBIO, PBN or CSV travellers, chosen by content).

    ``path_or_bytes`` is a path or the file's bytes; ``source`` names it in messages
    (by default the file name)."""
    if isinstance(path_or_bytes, (bytes, bytearray)):
        data = bytes(path_or_bytes)
        name = source or "<bytes>"
    else:
        path = Path(path_or_bytes)
        data = path.read_bytes()
        name = source or path.name
    kind = sniff_format(data)
    if kind == "usebio":
        doc = read_usebio(_xml_bytes(data, name), name)
        return ResultsFile(name, kind, doc.lines, doc.names, doc.title, doc.club, doc.date,
                           doc.movement, doc.event_type, doc.method, doc.reported,
                           doc.deals, doc.phantoms)
    text = decode_text(data, name)
    if kind == "pbn":
        pbn = read_pbn(text, name)
        return ResultsFile(name, kind, pbn.lines, pbn.names, pbn.title, pbn.club, pbn.date,
                           None, pbn.scoring, pbn.method, pbn.reported, pbn.deals)
    columns = read_csv_columns(text, name)
    if columns is not None:
        return ResultsFile(name, kind, LazyLines(columns), columns=columns)
    return ResultsFile(name, kind, tuple(read_travellers(text, name)))


def _xml_bytes(data: bytes, source: str) -> bytes:
    """XML without an encoding declaration that is not UTF-8: re-encode Windows-1252 text."""
    head = data[:200]
    if b"encoding" in head.split(b"?>", 1)[0]:
        return data
    try:
        data.decode("utf-8")
        return data
    except UnicodeDecodeError:
        return decode_text(data, source).encode("utf-8")
