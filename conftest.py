"""Test collection at the checkout's root: the package's doctests run on the copy that is imported.

In a checkout (an editable install) that copy is ``src/cardlab``, and ``--doctest-modules``
collects it there. An unpacked sdist installed with ``pip install .`` imports the installed copy
(its ``src/cardlab`` has no compiled core), so collecting ``src/cardlab`` would import a second,
mismatched copy: the doctests are then run on the installed package by
``python -m pytest --doctest-modules --pyargs cardlab`` instead.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem

SOURCE = Path(__file__).resolve().parent / "src" / "cardlab"


def _imports_the_source() -> bool:
    spec = importlib.util.find_spec("cardlab")
    return spec is not None and spec.origin is not None and Path(spec.origin).resolve().parent == SOURCE


_SOURCE_IMPORTED = _imports_the_source()


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Skip ``src/cardlab`` when the package imported is an installed copy elsewhere."""
    if not _SOURCE_IMPORTED and (collection_path == SOURCE or SOURCE in collection_path.parents):
        return True
    return None


#: Modules whose examples need an optional extra, and the package that extra brings. README's
#: quick run installs only ``.[test]``: these examples are skipped there, saying why, not failed.
OPTIONAL_EXAMPLES = {"cardlab.cluster.": "distributed"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip a doctest of a module whose optional package is not installed."""
    for item in items:
        if not isinstance(item, DoctestItem):
            continue
        for prefix, package in OPTIONAL_EXAMPLES.items():
            if item.name.startswith(prefix) and importlib.util.find_spec(package) is None:
                item.add_marker(pytest.mark.skip(reason=f"needs the optional package {package!r} "
                                                        f"(pip install -e '.[cluster]')"))
