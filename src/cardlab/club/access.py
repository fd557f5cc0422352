"""The tables of an Access (Jet) database, through the optional ``access-parser`` package.

Bridgemate's ``.bws`` file is an Access 97 or 2000 database.  This module is the one place
that touches the reader library: :func:`read_tables` checks the file's header and size, then
gives each table asked for as a list of rows (``{column: value}``).  A file that is not an
Access database, is cut short (its size is not a whole number of pages) or whose pages do not
parse gives one :class:`~cardlab.errors.ResultFileError` naming the file and the table.

>>> read_tables(b"not a database", ("Section",), "x.bws")
Traceback (most recent call last):
...
cardlab.errors.ResultFileError: x.bws: not an Access database (a .bws file starts 'Standard Jet DB')
"""

from __future__ import annotations

import logging
import os
import struct
import tempfile
from typing import Any, Iterable

from cardlab.errors import ResultFileError

__all__ = ["read_tables", "INSTALL_HINT", "MAX_BYTES", "Rows"]

INSTALL_HINT = "pip install 'cardlab[club]'"
"""How to get the reader library (an optional extra: pure Python, no system package)."""

MAX_BYTES = 256 * 1024 * 1024
"""Largest database read: a club's session file is well under a megabyte."""

#: One table: its rows, each a {column: value} dict.
Rows = list[dict[str, Any]]

_MAGIC = b"\x00\x01\x00\x00Standard Jet DB\x00"
_PAGE_SIZES = {0: 2048}  # Jet 3 (Access 97): 2 KB pages; Jet 4 and later: 4 KB


def _library() -> Any:
    try:
        import access_parser  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise ResultFileError(f"reading a .bws file needs the access-parser package: "
                              f"{INSTALL_HINT}") from None
    return access_parser


def _check_header(data: bytes, source: str) -> None:
    if len(data) > MAX_BYTES:
        raise ResultFileError(f"{len(data):,} bytes is over the {MAX_BYTES:,}-byte limit for "
                              "a database", source=source)
    if not data.startswith(_MAGIC):
        raise ResultFileError("not an Access database (a .bws file starts 'Standard Jet DB')",
                              source=source)
    page = _PAGE_SIZES.get(data[0x14], 4096) if len(data) > 0x14 else 2048
    if len(data) < 2 * page or len(data) % page:
        raise ResultFileError(f"the database is cut short ({len(data):,} bytes is not a whole "
                              f"number of {page:,}-byte pages)", source=source)


class _Quiet:
    """The reader library logs what it skips; the caller sees errors instead."""

    def __enter__(self) -> None:
        self.logger = logging.getLogger("access_parser")
        self.level, self.propagate = self.logger.level, self.logger.propagate
        self.logger.setLevel(logging.CRITICAL + 1)
        self.logger.propagate = False

    def __exit__(self, *exc: object) -> None:
        self.logger.setLevel(self.level)
        self.logger.propagate = self.propagate


def _null_first(table: Any, record: bytes, column: Any, null_table: list[bool]) -> None:
    """access-parser 0.0.6 reads a fixed-width column's bytes before it looks at the column's
    null bit, so a NULL date at the end of a short record (Bridgemate's ``PlayerNumbers``
    rows, written before a time was logged) fails; a NULL column is None without reading."""
    if column.type != 1 and column.column_id < len(null_table) and not null_table[column.column_id]:
        table.parsed_table[column.col_name_str].append(None)
        return
    type(table)._parse_fixed_length_data(table, record, column, null_table)


def _padded_row(table: Any, record: bytes) -> None:
    """access-parser 0.0.6 appends nothing for the variable-width columns of a record that
    stores none (all of them NULL, as in most ``RoundData`` rows' ``CustomBoards``), which would
    shift the later rows' values into the wrong rows; every column a row leaves out is None."""
    names = [column.col_name_str for column in table.columns.values()]
    before = {name: len(table.parsed_table[name]) for name in names}
    type(table)._parse_row(table, record)
    if any(len(table.parsed_table[name]) > before[name] for name in names):
        for name in names:
            if len(table.parsed_table[name]) == before[name]:
                table.parsed_table[name].append(None)


def _patch(table: Any) -> None:
    table._parse_fixed_length_data = (
        lambda record, column, nulls: _null_first(table, record, column, nulls))
    table._parse_row = lambda record: _padded_row(table, record)


def read_tables(data: bytes, names: Iterable[str], source: str,
                optional: Iterable[str] = ()) -> dict[str, Rows]:
    """The rows of each table in ``names`` (an error when one is missing) and of each table in
    ``optional`` that the database has."""
    _check_header(data, source)
    library = _library()
    wanted = [(name, True) for name in names] + [(name, False) for name in optional]
    tables: dict[str, Rows] = {}
    with _Quiet():
        try:
            db = _open(library, data)
        except Exception as error:  # the library raises construct/struct/index errors alike
            raise ResultFileError(f"the database's catalog does not parse ({_why(error)}): the "
                                  "file is damaged or cut short", source=source) from None
        for name, required in wanted:
            if name not in db.catalog:
                if required:
                    raise ResultFileError(f"the database has no {name} table", source=source)
                continue
            try:
                table = db.get_table(name)
                _patch(table)
                columns = table.parse()
            except Exception as error:
                raise ResultFileError(f"the {name} table does not parse ({_why(error)}): the "
                                      "file is damaged or cut short", source=source) from None
            tables[name] = _rows(columns, name, source)
    return tables


def _open(library: Any, data: bytes) -> Any:
    """The library reads a path only: the checked bytes go through a private temporary file
    (so a file being written to while it is read is read once, as it was when checked)."""
    with tempfile.TemporaryDirectory(prefix="cardlab-bws-") as folder:
        path = os.path.join(folder, "session.bws")
        with open(path, "wb") as handle:
            handle.write(data)
        return library.AccessParser(path)


def _rows(columns: dict[str, Any], name: str, source: str) -> Rows:
    lengths = {len(v) for v in columns.values() if isinstance(v, list)}
    if not lengths:
        return []  # an empty table: the library gives each column ""
    if len(lengths) != 1:
        raise ResultFileError(f"the {name} table's rows do not parse (columns of "
                              f"{sorted(lengths)} values): the file is damaged", source=source)
    count = lengths.pop()
    return [{key: value[i] for key, value in columns.items()} for i in range(count)]


def _why(error: Exception) -> str:
    """What went wrong, in words (the library's own messages are bare offsets or None)."""
    if isinstance(error, struct.error):
        return "a record ends early"
    if isinstance(error, (KeyError, IndexError, TypeError)):
        return "a page it points to is missing"
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text[:80]
