"""Tests that need an extra beyond ``test`` (docs/testing.md): the slow run's tools (``slow``:
mypy, selenium, Dask), the release tools (``release``) and the site tools (``docs``). Without the
extra such a test is skipped with the install command as its reason; under CI (``$CI`` set,
``.ci/run`` installs every extra) it is never skipped, so CI cannot pass without running it."""

from __future__ import annotations

import importlib.util
import os

import pytest

__all__ = ["missing", "needs", "require"]


def missing(module: str) -> bool:
    """Whether ``module`` cannot be imported here (and this is not CI, where it must be)."""
    return importlib.util.find_spec(module) is None and not os.environ.get("CI")


def _reason(module: str, extra: str) -> str:
    return f"{module} is not installed: it comes with pip install -e '.[{extra}]'"


def needs(module: str, extra: str) -> pytest.MarkDecorator:
    """A mark skipping the test (or module) without ``module``, except under CI."""
    return pytest.mark.skipif(missing(module), reason=_reason(module, extra))


def require(module: str, extra: str) -> None:
    """Inside a test or fixture: skip without ``module``, except under CI (then the import fails)."""
    if missing(module):
        pytest.skip(_reason(module, extra))
