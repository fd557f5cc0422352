"""Any results file a club has, as one :class:`~cardlab.scoring.document.ResultsFile`.

A Bridgemate database (``.bws``, recognised by its first bytes, never by its name) is read by
:mod:`cardlab.club.bws`; anything else by :func:`cardlab.scoring.load_results` (USEBIO, PBN,
CSV travellers).  ``cardlab bridge score`` and ``cardlab club live`` read through here.

>>> load_any(b"board,ns,ew,contract,declarer,tricks\\n1,1,1,3NT,N,9\\n", source="a.csv")
<ResultsFile 'a.csv' csv: 1 lines, 1 boards>
"""

from __future__ import annotations

import os
from pathlib import Path

from cardlab.errors import ResultFileError
from cardlab.scoring.document import ResultsFile
from cardlab.scoring.results_file import load_results

from cardlab.club.bws import is_bws, read_bws

__all__ = ["load_any", "read_bytes", "MAX_FILE_BYTES"]

MAX_FILE_BYTES = 256 * 1024 * 1024
"""Largest results file read here (a club session is well under a megabyte)."""


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """A file's bytes, at most :data:`MAX_FILE_BYTES` of them: a ResultFileError naming a file
    over the limit (read in bounded steps, so a device such as ``/dev/zero`` stops too; an
    OSError, which the command line reports as it reports every unusable file, for one it cannot
    read)."""
    with open(path, "rb") as stream:
        data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ResultFileError(f"more than {MAX_FILE_BYTES:,} bytes, over the limit of a results file",
                              source=Path(path).name)
    return data


def _starts_as_bws(path: str | os.PathLike[str]) -> bool:
    with open(path, "rb") as stream:
        return is_bws(stream.read(64))


def load_any(path_or_bytes: str | os.PathLike[str] | bytes, source: str | None = None
             ) -> ResultsFile:
    """The results in a file (a path or its bytes): a ``.bws`` database or any format
    :func:`~cardlab.scoring.load_results` reads."""
    if isinstance(path_or_bytes, (bytes, bytearray)):
        data, name = bytes(path_or_bytes), source or "<bytes>"
    elif _starts_as_bws(path_or_bytes):
        data, name = read_bytes(path_or_bytes), source or Path(path_or_bytes).name
    else:  # a text format: read by scoring through the line limits (16 MiB a line)
        return load_results(path_or_bytes, source)
    if is_bws(data):
        return read_bws(data, name).results()
    return load_results(data, name)
