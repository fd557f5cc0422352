"""Reading a form: fields and uploads, with the size limit enforced while the body is read.

:func:`read_form` counts the bytes as they arrive and stops keeping them at the limit: an upload
over it is refused with a :class:`~cardlab.errors.WebInputError` naming the limit (the rest of the
body is read and dropped, so the browser gets the page with the message, not a reset connection).
A page parses an upload's bytes with the same hardened readers as the CLI (``score_file``,
``read_pbn_games``: defusedxml for XML, text decoding that refuses binary).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, AsyncGenerator

from cardlab.errors import WebInputError

__all__ = ["Upload", "Form", "read_form", "read_body", "DEFAULT_UPLOAD_LIMIT"]

DEFAULT_UPLOAD_LIMIT = 20 * 1024 * 1024
"""Largest request body the workbench reads (20 MiB): far above any session's results file."""


@dataclass(frozen=True)
class Upload:
    """An uploaded file: the name the browser gave (never used as a path) and its bytes."""

    filename: str
    data: bytes


@dataclass
class Form:
    """A submitted form: its text fields and its uploads (empty file fields are left out)."""

    fields: dict[str, str] = field(default_factory=dict)
    files: dict[str, Upload] = field(default_factory=dict)

    def get(self, name: str, default: str = "") -> str:
        """The text of field ``name``, or ``default``."""
        return self.fields.get(name, default)

    def __contains__(self, name: object) -> bool:
        return name in self.fields or name in self.files


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):g} MB"


async def read_body(request: Any, limit: int = DEFAULT_UPLOAD_LIMIT, what: str = "the upload") -> bytes:
    """The body of ``request``, counted as it arrives: over ``limit`` bytes, the rest is read and
    dropped and a :class:`~cardlab.errors.WebInputError` names the limit."""
    declared = request.headers.get("content-length")
    too_large = WebInputError(f"{what} is larger than the limit of {_megabytes(limit)}; "
                              "send a smaller file" if what == "the upload" else
                              f"{what} is larger than the limit of {_megabytes(limit)}")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        await _drain(request)
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            await _drain(request)
            raise too_large
    return bytes(body)


async def read_form(request: Any, limit: int = DEFAULT_UPLOAD_LIMIT) -> Form:
    """The form of ``request`` (urlencoded or multipart), reading at most ``limit`` bytes of body."""
    from starlette.datastructures import UploadFile
    from starlette.formparsers import FormParser, MultiPartException, MultiPartParser

    body = await read_body(request, limit)

    async def replay() -> AsyncGenerator[bytes, None]:
        yield bytes(body)

    kind = request.headers.get("content-type", "")
    form = Form()
    if kind.startswith("multipart/form-data"):
        parser: Any = MultiPartParser(request.headers, replay(), max_files=8, max_fields=200, max_part_size=limit)
    elif kind.startswith("application/x-www-form-urlencoded") or not kind:
        parser = FormParser(request.headers, replay(), max_part_size=limit)
    else:
        raise WebInputError(f"a form was expected, not {kind[:60]!r}")
    try:
        parsed = await parser.parse()
    except MultiPartException as error:
        raise WebInputError(f"the form could not be read ({error.message})") from None
    for name, value in parsed.multi_items():
        if isinstance(value, UploadFile):
            data = await value.read()
            await value.close()
            if value.filename or data:
                form.files[name] = Upload(str(value.filename or "upload")[:200], data)
        else:
            form.fields[name] = str(value)
    return form


async def _drain(request: Any, cap: int = 1 << 30) -> None:
    """Read and drop the rest of the body (at most ``cap`` bytes) so the answer reaches the browser."""
    seen = 0
    try:
        async for chunk in request.stream():
            seen += len(chunk)
            if seen > cap:
                break
    except Exception:  # the client went away: nothing to answer
        pass
