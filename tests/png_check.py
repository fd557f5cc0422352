"""Reading a PNG file's header in the tests: a picture was written, and of which size."""

from __future__ import annotations

import struct
from pathlib import Path


def png_size(path: Path) -> tuple[int, int]:
    """Width and height in pixels of a PNG file, from its IHDR chunk (fails on anything else)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path} is not a PNG file"
    width, height = struct.unpack(">II", data[16:24])
    return width, height
