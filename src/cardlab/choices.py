"""Reading a user's word as a member of a string-valued Enum, with a clear error.

>>> from enum import Enum
>>> class Colour(Enum):
...     RED = "red"
>>> choose(Colour, " Red ", ValueError, "colour")
<Colour.RED: 'red'>
>>> choose(Colour, "blue", ValueError, "colour")
Traceback (most recent call last):
...
ValueError: unknown colour 'blue' (expected red)
"""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

__all__ = ["choose"]

E = TypeVar("E", bound=Enum)


def choose(cls: type[E], text: str | E, error: type[ValueError], what: str, upper: bool = False) -> E:
    """The member of ``cls`` whose value is ``text`` (case-insensitive), or ``error`` naming it."""
    if isinstance(text, cls):
        return text
    word = str(text).strip()
    try:
        return cls(word.upper() if upper else word.lower())
    except ValueError:
        names = ", ".join(str(m.value) for m in cls)
        names = " or ".join(names.rsplit(", ", 1))
        raise error(f"unknown {what} {str(text)!r} (expected {names})") from None
