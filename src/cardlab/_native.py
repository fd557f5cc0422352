"""The compiled core as the kernels' wrappers use it: ``from cardlab._native import core``.

``cardlab._core`` is the C extension built from ``csrc/``. A wheel holds it; a source install
compiles it, which needs a C compiler. When it is missing or fails to load, ``import cardlab``
and every command that needs no kernel keep working, and the first kernel call raises one
:class:`cardlab.errors.CoreMissingError` saying what is missing and how to get it (the command
line prints it as its one ``cardlab: error:`` line and exits 2).
"""

from __future__ import annotations

from typing import NoReturn

from cardlab.errors import CoreMissingError

__all__ = ["core", "core_error"]

HOW_TO_GET_IT = (
    "install a cardlab wheel for this platform (pip install --only-binary=cardlab cardlab), "
    "or install a C compiler (gcc, clang or MSVC) and reinstall from source"
)


class _MissingCore:
    """Stands in for ``cardlab._core`` when it cannot be imported: any kernel access raises."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __getattr__(self, name: str) -> NoReturn:
        if name.startswith("__"):
            raise AttributeError(name)
        raise core_error(self.reason)


def core_error(reason: str) -> CoreMissingError:
    """The one error for a missing compiled core; ``reason`` is why its import failed."""
    return CoreMissingError(f"cardlab's compiled core (cardlab._core) is not available ({reason}): {HOW_TO_GET_IT}")


try:
    from cardlab import _core as core
except ImportError as _error:
    core = _MissingCore(str(_error) or type(_error).__name__)  # type: ignore[assignment]
