"""The CSV traveller format: one line per table result, a header row naming the columns.

Columns (any order, names case-insensitive): ``board``, ``ns``, ``ew``,
``contract``, ``declarer``, ``tricks`` or ``result`` (or both, if they agree),
``score``; optional ``lead`` and ``vul``.  ``score`` may be empty, or the
column left out, when the contract is given, or an artificial adjusted score such as ``A6040``.  Blank
lines are skipped; anything else that cannot be read is an error naming the line.

>>> text = "board,ns,ew,contract,declarer,result,score\\n1,1,2,4SX,N,=,\\n1,2,1,,,,A6040\\n"
>>> [(l.board, l.ns, l.ew, str(l.score)) for l in read_travellers(text)]
[(1, '1', '2', '590'), (1, '2', '1', 'A6040')]
>>> read_travellers("board,ns,ew,contract,declarer,tricks,score\\n1,1,2,4SX,N,14,\\n")
Traceback (most recent call last):
...
cardlab.errors.ResultFileError: line 2: tricks must be a whole number from 0 to 13, not '14'
"""

from __future__ import annotations

import csv
import io
from typing import Iterable

from cardlab.scoring.traveller import TravellerLine
from cardlab.errors import CardlabError, ResultFileError

__all__ = ["COLUMNS", "read_travellers", "write_travellers"]

#: Every column the reader knows; all but ``score``, ``lead`` and ``vul`` (and one of
#: tricks/result) needed: without ``score`` every line is scored from its contract.
COLUMNS = ("board", "ns", "ew", "contract", "declarer", "tricks", "result", "score", "lead", "vul")
_REQUIRED = ("board", "ns", "ew", "contract", "declarer")


def _header(row: list[str], source: str | None, line: int) -> list[str]:
    names = [cell.strip().lower() for cell in row]
    for name in names:
        if name not in COLUMNS:
            raise ResultFileError(
                f"unknown column {name!r} (known: {', '.join(COLUMNS)})", line=line, source=source
            )
        if names.count(name) > 1:
            raise ResultFileError(f"column {name!r} appears twice", line=line, source=source)
    missing = [name for name in _REQUIRED if name not in names]
    if "tricks" not in names and "result" not in names:
        missing.append("tricks or result")
    if missing:
        raise ResultFileError(
            "header lacks " + ", ".join(missing)
            + " (expected board,ns,ew,contract,declarer,tricks, and score if any)", line=line, source=source,
        )
    return names


def read_travellers(text: str, source: str | None = None) -> list[TravellerLine]:
    """Read every traveller line of a CSV text; ``source`` names the file in messages."""
    reader = csv.reader(io.StringIO(text, newline=""))
    names: list[str] | None = None
    lines: list[TravellerLine] = []
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if names is None:
                names = _header(row, source, line)
                continue
            if len(row) != len(names):
                raise ResultFileError(
                    f"expected {len(names)} fields, found {len(row)}", line=line, source=source
                )
            cells = dict(zip(names, row))
            try:
                lines.append(TravellerLine.make(
                    cells["board"], cells["ns"], cells["ew"],
                    contract=cells["contract"], declarer=cells["declarer"],
                    tricks=cells.get("tricks"), result=cells.get("result"),
                    score=cells.get("score"), lead=cells.get("lead"), vulnerability=cells.get("vul"),
                    source_line=line,
                ))
            except CardlabError as error:
                raise ResultFileError(str(error), line=line, source=source) from None
    except csv.Error as error:
        raise ResultFileError(f"malformed CSV: {error}", line=reader.line_num,
                              source=source) from None
    if names is None:
        raise ResultFileError("empty file: no header row", source=source)
    if not lines:
        raise ResultFileError("no traveller lines after the header", source=source)
    return lines


def write_travellers(lines: Iterable[TravellerLine]) -> str:
    """The lines as CSV text that :func:`read_travellers` reads back to equal lines.

    >>> lines = read_travellers("board,ns,ew,contract,declarer,tricks,score\\n3,1,2,3NT,S,7,\\n")
    >>> print(write_travellers(lines), end="")
    board,ns,ew,contract,declarer,tricks,score,lead,vul
    3,1,2,3NT,S,7,-100,,EW
    >>> read_travellers(write_travellers(lines)) == lines
    True
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["board", "ns", "ew", "contract", "declarer", "tricks", "score", "lead", "vul"])
    for line in lines:
        writer.writerow([
            line.board, line.ns, line.ew,
            "" if line.contract is None else str(line.contract),
            "" if line.declarer is None else line.declarer.value,
            "" if line.tricks is None else line.tricks,
            str(line.score), line.lead or "",
            "" if line.vulnerability is None else line.vulnerability.value,
        ])
    return out.getvalue()
