"""The test command itself: README gives exactly what CI (``.ci/run``) runs, and the quick default
run leaves out the tests marked ``slow`` while ``--slow`` keeps them."""

from __future__ import annotations

import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ci_pytest_line() -> str:
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    runs = [line for line in lines if line.startswith("python -m pytest")]
    assert len(runs) == 1, runs
    return runs[0]


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("Run the tests"):]
    command = re.search(r"^    (python -m pytest.*)$", section, re.M)
    assert command is not None and command.group(1).strip() == _ci_pytest_line() == "python -m pytest --slow"
    assert "`python -m pytest`" in section.split("##")[0]  # the quick subset is named too


def _collected(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider",
                           "tests/test_types.py", "tests/test_suite_setup.py", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    return done.stdout


def test_slow_tests_run_only_with_the_slow_option() -> None:
    quick = _collected()
    assert "test_mypy_is_clean" not in quick and "deselected" in quick
    assert "test_readme_test_command_is_what_ci_runs" in quick
    assert "test_mypy_is_clean" in _collected("--slow")


def test_every_listed_slow_test_exists() -> None:
    from conftest import SLOW, SLOW_TESTS

    for key in SLOW_TESTS:
        module, name = key.split("::", 1)
        name = name.split("[")[0]  # a case of a parametrized test: its function (collecting the suite checks the case)
        assert f"def {name}(" in (ROOT / "tests" / module).read_text(encoding="utf-8"), key
    assert all((ROOT / "tests" / module).exists() for module in SLOW)



def test_xdist_comes_with_the_test_extra() -> None:
    # docs/testing.md: the quick run of the whole suite is on two xdist workers
    extra = re.search(r"^test = \[(.*?)\]", (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.M | re.S)
    assert extra is not None and '"pytest-xdist' in extra.group(1)


class _Config:
    """What ``pytest_cmdline_main`` of tests/conftest.py reads of a pytest config."""

    def __init__(self, source: str = "TESTPATHS", slow: bool = False, numprocesses: int | None = None,
                 usepdb: bool = False, xdist: bool = True) -> None:
        self.args_source = getattr(pytest.Config.ArgsSource, source)
        self.option = types.SimpleNamespace(numprocesses=numprocesses, dist="no")
        self._values = {"--slow": slow, "usepdb": usepdb}
        self.pluginmanager = types.SimpleNamespace(has_plugin=lambda name: xdist and name == "xdist")

    def getoption(self, name: str) -> bool:
        return self._values[name]


@pytest.mark.parametrize(("config", "workers"), [
    (_Config(), 2), (_Config(slow=True), None), (_Config(source="ARGS"), None),
    (_Config(numprocesses=0), 0), (_Config(usepdb=True), None), (_Config(xdist=False), None)],
    ids=["quick-whole-suite", "slow", "paths-given", "n-0", "pdb", "no-xdist"])
def test_only_the_quick_run_of_the_whole_suite_takes_two_workers(config: _Config, workers: int | None) -> None:
    from conftest import pytest_cmdline_main

    pytest_cmdline_main(config)  # type: ignore[arg-type]
    assert config.option.numprocesses == workers
    assert config.option.dist == ("loadfile" if workers else "no")


def test_readme_fits_a_few_screens() -> None:
    """Issue 40: README is at most 150 lines, its first screen leads to a first answer in one
    command (the set-up line ends with the main job), and the reference lives in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150
    setup = [line.strip() for line in lines if line.startswith("    python3 -m venv")]
    assert setup == ["python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && cardlab bridge hcp"]


def _extra(name: str) -> str:
    found = re.search(rf"^{name} = \[(.*?)\]", (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.M | re.S)
    assert found is not None, name
    return found.group(1)


def test_extras_fit_their_users() -> None:
    """Issue 40: the release tools are in their own extra, not in what a contributor installs to
    run the tests; CI installs the test, release and docs extras."""
    release = ("build", "cibuildwheel", "auditwheel", "yamllint")
    assert all(f'"{tool}>=' in _extra("release") for tool in release)
    assert not [tool for tool in release if f'"{tool}>=' in _extra("test")]
    assert '"mkdocs>=' in _extra("docs") and '"mkdocs-material>=' in _extra("docs")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[test,slow,release,docs]'" in ci
    slow = ("mypy", "selenium", "dask")
    assert all(f'"{tool}' in _extra("slow") for tool in slow) and not [t for t in slow if f'"{t}' in _extra("test")]
