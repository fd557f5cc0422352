"""Shared test helpers, and the ``slow`` marker.

``python -m pytest`` runs the quick suite (about 2 minutes on two cores): tests marked
``@pytest.mark.slow`` (or listed in :data:`SLOW` by their module) are deselected. ``--slow``
runs everything, as ``.ci/run`` and README's test command do. The selection never changes a
test's numbers: every simulated test has its own fixed seed.
"""

from __future__ import annotations

import pytest

from cardlab.cli.main import main

#: Whole modules that are slow (a browser, a Dask cluster, the C build, mypy over the package).
SLOW = {"test_site_browser.py", "test_cluster.py", "test_core_build.py", "test_types.py"}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow (the whole suite, as CI does)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long test, run with --slow (CI always does)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SLOW:
            item.add_marker(pytest.mark.slow)
    if config.getoption("--slow"):
        return
    quick = [item for item in items if item.get_closest_marker("slow") is None]
    if len(quick) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("slow")])
        items[:] = quick


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]):
    """Run the CLI in-process: returns (exit status, stdout, stderr)."""

    def _run(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return _run


@pytest.fixture
def reels_file():
    """The trade-stimulator reels: the 50-card deck without Ts and Jh on 5 reels of 10."""
    from pathlib import Path

    return Path(__file__).parent / "data" / "trade_stimulator.reels"
