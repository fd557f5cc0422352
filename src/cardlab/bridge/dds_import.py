"""endplay's DDS bindings without endplay's package ``__init__``.

``import endplay.dds`` first runs ``endplay/__init__.py``, which imports the whole library,
``endplay.dealer`` among it, and that imports ``matplotlib.pyplot`` (endplay 0.5: about 0.9 s of a
1.0 s import on the 2-core machine). cardlab needs only ``endplay.dds`` and ``endplay.types``
(0.09 s), so before its first endplay import :func:`light_endplay` puts the package in
``sys.modules`` as a module made from its spec with its ``__init__`` not yet run. The first
attribute anyone asks of the package that it does not have then runs the real ``__init__`` into
it, so ``import endplay; endplay.generate_deal`` or ``from endplay import *`` in the same process
(a notebook) sees the whole library as usual. When endplay is already imported, or not installed,
nothing is done (the import that follows raises the usual ImportError).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from typing import Any

__all__ = ["light_endplay"]

_LOCK = threading.RLock()


def light_endplay() -> None:
    """Make the next ``import endplay.dds`` skip endplay's package ``__init__`` (see the module)."""
    if "endplay" in sys.modules:
        return
    with _LOCK:
        if "endplay" in sys.modules:
            return
        spec = importlib.util.find_spec("endplay")
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return
        module = importlib.util.module_from_spec(spec)
        loader = spec.loader

        def __getattr__(name: str) -> Any:  # noqa: N807 (the module hook, PEP 562)
            with _LOCK:
                if module.__dict__.pop("__getattr__", None) is not None:
                    loader.exec_module(module)  # the package's own __init__, once
            try:
                return module.__dict__[name]
            except KeyError:
                raise AttributeError(f"module 'endplay' has no attribute {name!r}") from None

        module.__dict__["__getattr__"] = __getattr__
        sys.modules["endplay"] = module
