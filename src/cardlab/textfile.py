"""Text files as users bring them: UTF-8 with or without a BOM, UTF-16 with one, or Windows-1252;
never binary.

>>> decode_text(b"\\xef\\xbb\\xbfname\\r\\n"), decode_text(b"M\\xfcller")
('name\\r\\n', 'Müller')
>>> decode_text(b"\\x00\\x01\\xff", "deal.dl")
Traceback (most recent call last):
...
cardlab.errors.InputFileError: deal.dl: not a text file (neither UTF-8 nor Windows-1252 text)
"""

from __future__ import annotations

import re
from pathlib import Path

from cardlab.errors import InputFileError

__all__ = ["decode_text", "read_text"]

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def decode_text(data: bytes, source: str | None = None,
                error: type[InputFileError] = InputFileError) -> str:
    """UTF-8 (BOM dropped), else Windows-1252 when that gives plain text; else ``error``
    naming ``source``. UTF-16 with a byte-order mark (as some Windows programs save) is read too.
    Nothing is replaced or dropped silently."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise error("not a text file (a UTF-16 byte-order mark, but not UTF-16 text)", source=source) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            text = "\x00"
        if _CONTROL.search(text):
            raise error("not a text file (neither UTF-8 nor Windows-1252 text)", source=source) from None
        return text
    if _CONTROL.search(text[:4096]) and "\x00" in text:
        raise error("not a text file (neither UTF-8 nor Windows-1252 text)", source=source)
    return text


def read_text(path: str | Path, error: type[InputFileError] = InputFileError) -> str:
    """The text of the file at ``path`` (see :func:`decode_text`); errors name the file."""
    return decode_text(Path(path).read_bytes(), str(path), error)
