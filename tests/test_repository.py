"""The repository tracks sources only: no wheel, archive or build output (run inside a git checkout)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Wheels, source archives, compiled objects and extension modules, bytecode, build trees.
BUILD_OUTPUT = re.compile(
    r"(\.(whl|egg|tar|tgz|gz|bz2|xz|zip|7z|so|pyd|dll|dylib|o|a|obj|pyc|pyo)$)"
    r"|(^|/)(build|dist|__pycache__|[^/]+\.egg-info)/"
)


def _tracked() -> list[str] | None:
    git = shutil.which("git")
    if git is None:
        return None
    run = subprocess.run([git, "-C", str(ROOT), "ls-files", "-z"], capture_output=True, timeout=60)
    if run.returncode != 0:  # not a git checkout (e.g. an unpacked sdist)
        return None
    return [name for name in run.stdout.decode("utf-8", "replace").split("\0") if name]


def test_no_build_output_is_tracked() -> None:
    files = _tracked()
    if files is None:
        pytest.skip("not inside a git checkout")
    assert "pyproject.toml" in files and "setup.py" in files  # the listing is this repository's
    assert [f for f in files if BUILD_OUTPUT.search(f)] == []


@pytest.mark.parametrize("name, build_output", [
    ("pyflakes-4.1.0-py2.py3-none-any.whl", True),
    ("src/cardlab/_core.cpython-311-x86_64-linux-gnu.so", True),
    ("build/lib/cardlab/cards.py", True),
    ("src/cardlab.egg-info/PKG-INFO", True),
    ("tests/data/results.tar.gz", True),
    ("csrc/module.c", False),
    ("tests/data/usebio-hands.xml", False),
    ("docs/build.md", False),
])
def test_the_pattern(name: str, build_output: bool) -> None:
    assert bool(BUILD_OUTPUT.search(name)) is build_output
