"""Package re-exports imported on first use (PEP 562), so that importing a package (and starting
the command line) does not load numpy and every engine behind the names it lists.

>>> getattr_, dir_ = lazy_exports("demo", {"sqrt": "math"})
>>> getattr_("sqrt")(9.0)
3.0
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

__all__ = ["lazy_exports"]


def lazy_exports(package: str, where: dict[str, str], namespace: dict[str, Any] | None = None
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module ``__getattr__`` and ``__dir__`` giving each name of ``where`` (name -> module) from
    its module when first asked for; ``namespace`` (the package's ``globals()``) keeps the value
    once loaded and adds its own names to ``dir()``."""

    def get(name: str) -> Any:
        if name in where:
            value = getattr(importlib.import_module(where[name]), name)
            if namespace is not None:
                namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def names() -> list[str]:
        return sorted(set(where) | set(namespace or ()))

    return get, names
