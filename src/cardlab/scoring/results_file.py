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
from pathlib import Path

from cardlab import textfile
from cardlab.errors import ResultFileError
from cardlab.scoring.columns import LazyLines, read_csv_columns
from cardlab.scoring.csv_travellers import read_travellers
from cardlab.scoring.document import FORMATS, ResultsFile
from cardlab.scoring.pbn import looks_like_pbn, read_pbn
from cardlab.scoring.usebio import read_usebio

__all__ = ["ResultsFile", "load_results", "decode_text", "sniff_format", "FORMATS"]


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


def load_results(path_or_bytes: str | os.PathLike[str] | bytes, source: str | None = None
                 ) -> ResultsFile:
    """Read a result file (USEBIO, PBN or CSV travellers, chosen by content).

    ``path_or_bytes`` is a path or the file's bytes; ``source`` names it in messages
    (by default the file name).  Every format gives the same type, a
    :class:`~cardlab.scoring.document.ResultsFile`."""
    if isinstance(path_or_bytes, (bytes, bytearray)):
        data = bytes(path_or_bytes)
        name = source or "<bytes>"
    else:
        path = Path(path_or_bytes)
        name = source or path.name
        data = textfile.read_bytes(path, ResultFileError, name)  # within the line limit: /dev/zero stops
    kind = sniff_format(data)
    if kind == "usebio":
        return read_usebio(_xml_bytes(data, name), name)
    text = decode_text(data, name)
    del data  # a big CSV file's bytes are not needed beside its text while it is read
    if kind == "pbn":
        return read_pbn(text, name)
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
