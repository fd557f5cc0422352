"""Text files as users bring them: UTF-8 with or without a BOM, UTF-16 with one, or Windows-1252;
never binary.

>>> decode_text(b"\\xef\\xbb\\xbfname\\r\\n"), decode_text(b"M\\xfcller")
('name\\r\\n', 'Müller')
>>> decode_text(b"\\x00\\x01\\xff", "deal.dl")
Traceback (most recent call last):
...
cardlab.errors.InputFileError: deal.dl: not a text file (neither UTF-8 nor Windows-1252 text)

Every text input is read through :func:`line_blocks` (or :func:`read_text` and
:func:`read_stream`, built on it), which checks the documented limits while reading, so
``/dev/zero``, an endless pipe or a 100 MB line stops with a clear error instead of filling
memory: a line holds at most :data:`MAX_LINE_BYTES`, an input at most :data:`MAX_INPUT_BYTES`
(docs/reliability.md).
"""

from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from cardlab.errors import InputFileError

__all__ = ["decode_text", "read_bytes", "read_text", "read_stream", "line_blocks", "excerpt", "shown_text", "shortened", "paused_gc", "MAX_LINE_BYTES",
           "MAX_INPUT_BYTES"]

MAX_LINE_BYTES = 16 * 2**20  #: the longest line a text input may hold (16 MiB)
MAX_INPUT_BYTES = 4 * 2**30  #: the largest text input read (4 GiB)
_BLOCK = 2**20

_QUOTED = re.compile(r"(?<![\w'])'([^'\n]{80,})'(?!\w)")  # an opening quote follows no letter
_LONG_WORD = re.compile(r"[^\s']{200,}")  # argparse quotes nothing in "unrecognized arguments: -n 999..."
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


def line_blocks(stream: BinaryIO | Any, source: str | None = None, error: Any = InputFileError,
                block: int = _BLOCK) -> Iterator[bytes]:
    """The bytes of a binary stream (a text stream's are encoded as UTF-8) in blocks that end at
    a line end (or at the end of the stream), checking while reading that no line is longer than
    :data:`MAX_LINE_BYTES` and the whole no larger than :data:`MAX_INPUT_BYTES`; else ``error``
    (called with the reason and ``source=``) naming the line.

    >>> list(line_blocks(__import__("io").BytesIO(b"a\\nbc\\nd"), block=3))
    [b'a\\n', b'bc\\n', b'd']
    """
    carry: list[bytes] = []
    carried = total = 0
    lines = 1
    while True:
        try:
            data = stream.read(block)
            if isinstance(data, str):  # a text stream such as sys.stdin: its undecodable bytes come
                data = data.encode("utf-8", "surrogateescape")  # back as they were (binary, UTF-16)
        except UnicodeError:  # a strict text stream, or a string no bytes make
            raise error("not a text file (neither UTF-8 nor Windows-1252 text)", source=source) from None
        if not data:
            if carry:
                yield b"".join(carry)
            return
        total += len(data)
        if total > MAX_INPUT_BYTES:
            raise error(f"the input is larger than {MAX_INPUT_BYTES // 2**30} GiB, the most cardlab reads",
                        source=source)
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            carried += len(data)
            if carried > MAX_LINE_BYTES:
                raise error(f"line {lines} is longer than {MAX_LINE_BYTES // 2**20} MiB, the most a line may hold "
                            "(is this a text file?)", source=source)
            carry.append(data)
            continue
        head = data[:cut]
        first = head.find(b"\n")
        if carried + first > MAX_LINE_BYTES or _longest_line(head, first) > MAX_LINE_BYTES:
            raise error(f"a line near line {lines} is longer than {MAX_LINE_BYTES // 2**20} MiB, the most a line "
                        "may hold (is this a text file?)", source=source)
        lines += head.count(b"\n")
        yield b"".join(carry) + head if carry else head
        carry = [data[cut:]] if cut < len(data) else []
        carried = len(data) - cut


def _longest_line(head: bytes, first: int) -> int:
    """The longest line of ``head`` after its first line end (only worth looking at when the
    block is longer than the limit)."""
    if len(head) <= MAX_LINE_BYTES:
        return 0
    longest, start = 0, first + 1
    while start < len(head):
        end = head.find(b"\n", start)
        longest = max(longest, end - start)
        start = end + 1
    return longest


def read_stream(stream: BinaryIO | Any, source: str | None = None, error: Any = InputFileError) -> str:
    """The text of an open stream (stdin), read within the limits (see :func:`line_blocks`)."""
    return decode_text(b"".join(line_blocks(stream, source, error)), source, error)


def read_bytes(path: str | Path, error: Any = InputFileError, source: str | None = None) -> bytes:
    """The bytes of the file at ``path``, read within the limits of :func:`line_blocks` (no line
    over 16 MiB, 4 GiB in all: ``/dev/zero`` stops after 16 MiB); errors name ``source`` (by
    default the path)."""
    with open(path, "rb") as stream:
        return b"".join(line_blocks(stream, str(path) if source is None else source, error))


def read_text(path: str | Path, error: type[InputFileError] = InputFileError) -> str:
    """The text of the file at ``path`` (see :func:`decode_text`), read within the limits of
    :func:`line_blocks`; errors name the file."""
    with open(path, "rb") as stream:
        return read_stream(stream, str(path), error)


def excerpt(text: str, position: int = 0, keep: int = 60) -> str:
    """At most ``keep`` characters of ``text`` from ``position`` (``...`` where it was cut), for
    an error message that quotes an input: never the whole of a long line.

    >>> excerpt("x" * 1000, 10, keep=8)
    'xxxxxxxx...'
    """
    part = text[position:position + keep]
    return part + ("..." if position + keep < len(text) else "")


def shown_text(text: str, keep: int = 60) -> str:
    """``text`` quoted as an error message shows an input: whole when short, else its first
    ``keep`` characters and its length (a 5,000-digit number or a 300 KB range is never copied
    whole to the terminal).

    >>> shown_text("AKs"), shown_text("9" * 5000, keep=8)
    ("'AKs'", "'99999999...' (5,000 characters)")
    """
    if len(text) <= keep:
        return repr(text)
    return f"{excerpt(text, keep=keep)!r} ({len(text):,} characters)"


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while a bulk reader makes millions of objects that form
    no cycle (boards and deals, short strings): the collections they would set off take about as
    long as making them. The collector's state before is restored after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def shortened(message: str) -> str:
    """An error message with each long quoted input (or long unquoted word, as argparse writes
    them) cut to :func:`shown_text`'s excerpt and length: a message may quote a 5,000-digit
    value or a 300 KB range, never copy it whole.

    >>> shortened("cannot read 'QQ+x' in range '" + "AK," * 100 + "QQ+x'")
    "cannot read 'QQ+x' in range 'AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,AK,...' (304 characters)"
    """
    message = _QUOTED.sub(lambda m: shown_text(m.group(1)), message)
    return _LONG_WORD.sub(lambda m: shown_text(m.group(0)), message)
