"""Install anywhere: the wheel configuration, the CI workflow, and the wheel and sdist built here.

The slow tests run ``python -m build`` (an sdist, then a wheel from that sdist), install the wheel
into a fresh venv whose PATH holds no C compiler and run the CLI from outside the source tree, and
install the unpacked sdist into another fresh venv and run its tests.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "wheels.yml"
COMPILERS = ("cc", "gcc", "clang", "c++", "g++", "clang++", "cl", "tcc")


def _release_tool_missing(name: str) -> None:
    """Skip, with the reason, a test whose release tool is not installed (the ``release`` extra);
    under CI (``$CI`` set, ``.ci/run`` installs the extra) a missing tool fails instead, so CI
    cannot pass without running these tests (as the browser tests do)."""
    reason = f"{name} is not installed: the release tools come with pip install -e '.[release]'"
    if os.environ.get("CI"):
        pytest.fail(reason + " (CI must run this test)")
    pytest.skip(reason)


def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        _release_tool_missing(name)
    assert found is not None
    return found


def _module(name: str) -> None:
    """A release tool run as ``python -m NAME``: there, or the test skips (fails under CI)."""
    if importlib.util.find_spec(name) is None:
        _release_tool_missing(name)


# --- the configuration ------------------------------------------------------------------------

@pytest.mark.parametrize("platform, expected", [
    ("linux", {f"cp3{v}-{libc}_{arch}" for v in (11, 12, 13) for libc in ("manylinux", "musllinux")
               for arch in ("x86_64", "aarch64")}),
    ("macos", {f"cp3{v}-macosx_{arch}" for v in (11, 12, 13) for arch in ("x86_64", "arm64")}),
    ("windows", {f"cp3{v}-win_amd64" for v in (11, 12, 13)}),
])
def test_cibuildwheel_builds_the_intended_wheels(platform: str, expected: set[str]) -> None:
    if not (ROOT / ".github").exists():
        pytest.skip("the CI configuration is not shipped in the sdist")
    run = subprocess.run([_tool("cibuildwheel"), "--print-build-identifiers", "--platform", platform],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    assert set(run.stdout.split()) == expected


def test_the_workflow_passes_yaml_lint_and_builds_wheels_and_the_sdist() -> None:
    if not WORKFLOW.exists():
        pytest.skip("the CI configuration is not shipped in the sdist")
    _module("yamllint")
    run = subprocess.run([sys.executable, "-m", "yamllint", "-s", "-d", "{extends: default, rules: {line-length: {max: 120}}}",
                          str(WORKFLOW)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    text = WORKFLOW.read_text()
    assert "pypa/cibuildwheel@" in text and "python -m build --sdist" in text
    for runner in ("ubuntu-24.04", "ubuntu-24.04-arm", "macos-13", "macos-14", "windows-2022"):
        assert runner in text


def test_the_index_page_shows_no_broken_picture() -> None:
    source = (ROOT / "setup.py").read_text()
    namespace: dict[str, object] = {}
    exec("import re\n" + source[source.index("def index_readme"):source.index("with open(")], namespace)
    index_readme = namespace["index_readme"]
    readme = (ROOT / "README.md").read_text()
    pictures = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme)
    assert pictures and all((ROOT / p).exists() for p in pictures if not p.startswith("http"))
    page = index_readme(readme)  # type: ignore[operator]
    assert not [p for p in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", page) if not p.startswith("https://")]
    assert all(p in page for p in pictures)  # each is still named, with where it is


# --- the build here ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``python -m build``: the sdist, and the wheel built from it."""
    if not (ROOT / "setup.py").exists() or not (ROOT / "csrc").exists():
        pytest.skip("needs the project's sources")
    _module("build")
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return out


def _fresh_venv(where: Path) -> Path:
    venv.EnvBuilder(with_pip=True, clear=True).create(where)
    return where / ("Scripts" if os.name == "nt" else "bin")


def _no_compiler_env(bin_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CC", "CXX", "LDSHARED", "VIRTUAL_ENV")}
    env["PATH"] = str(bin_dir)
    assert all(shutil.which(c, path=env["PATH"]) is None for c in COMPILERS)
    return env


@pytest.mark.slow
def test_the_wheel_installs_without_a_compiler_and_runs(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "cardlab/py.typed" in names
    assert any(n.startswith("cardlab/report/templates/") for n in names)
    assert any(n.startswith("cardlab/report/site/templates/") for n in names)
    assert {"cardlab/web/templates/base.html", "cardlab/web/static/app.css", "cardlab/web/static/app.js"} <= set(names)
    assert any(re.fullmatch(r"cardlab/_core\.[^/]*(\.so|\.pyd)", n) for n in names)
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "examples/"))
                or "/tests/" in n or re.search(r"(^|/)(test_|bench_)[^/]*\.py$", n) or n.endswith((".c", ".h"))]
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    description = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "Picture: " in description and not re.search(r"!\[[^\]]*\]\((?!https?://)", description)

    if sys.platform == "linux":
        show = subprocess.run([_tool("auditwheel"), "show", str(wheel)], capture_output=True, text=True)
        assert show.returncode == 0, show.stderr
        assert re.search(r"manylinux_\d+_\d+_x86_64|manylinux_\d+_\d+_aarch64", show.stdout), show.stdout

    bin_dir = _fresh_venv(tmp_path / "venv")
    env = _no_compiler_env(bin_dir)
    python = str(bin_dir / "python")
    install = subprocess.run([python, "-m", "pip", "install", "-q", "--only-binary=:all:", str(wheel)],
                             capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    cardlab = str(bin_dir / "cardlab")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    version = subprocess.run([cardlab, "--version"], capture_output=True, text=True, env=env, cwd=outside)
    assert version.returncode == 0 and re.search(r"\d+\.\d+\.\d+", version.stdout), version.stderr
    hcp = subprocess.run([cardlab, "bridge", "hcp"], capture_output=True, text=True, env=env, cwd=outside)
    # hands with no honour point: C(36, 13) = 2,310,789,600 (none of the 16 honours)
    assert hcp.returncode == 0 and "2,310,789,600" in hcp.stdout, hcp.stderr
    equity = subprocess.run([cardlab, "poker", "equity", "AsKs", "QdQc"], capture_output=True, text=True, env=env,
                            cwd=outside)
    assert equity.returncode == 0, equity.stderr
    # AKs against QQ, exact over the 1,712,304 boards: 46.214 % to 53.786 % (the figure hold'em
    # equity calculators print; tests/test_poker_equity.py checks it against brute force)
    assert "46.214%" in equity.stdout and "53.786%" in equity.stdout, equity.stdout
    where = subprocess.run([python, "-c", "import cardlab._core as c; print(c.__file__)"], capture_output=True,
                           text=True, env=env, cwd=outside)
    assert str(tmp_path / "venv") in where.stdout and str(ROOT) not in where.stdout


@pytest.mark.slow
def test_the_unpacked_sdist_installs_and_passes_its_tests(dist: Path, tmp_path: Path) -> None:
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        archive.extractall(tmp_path / "unpacked", filter="data")
    (top,) = {n.split("/")[0] for n in names}
    inside = {n.split("/", 1)[1] for n in names if "/" in n}
    for needed in ("csrc/portable.h", "csrc/rng.h", "tests/conftest.py", "tests/data/SOURCES.md", "docs/design.md",
                   "docs/install.md", "docs/video-return.png", "examples/hands.pbn", "README.md", "conftest.py", "mkdocs.yml",
                   "CHANGELOG.md", "docs_tools/doctest_fences.py",
                   ".ci/run"):
        assert needed in inside, needed
    tracked_tests = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts}
    assert tracked_tests <= inside
    assert not [n for n in inside if n.endswith((".so", ".pyd", ".pyc"))]

    source = tmp_path / "unpacked" / top
    bin_dir = _fresh_venv(tmp_path / "venv")
    # a packager's machine, not CI: the release tools are not installed there, and the tests that
    # need them skip as they do for a contributor (under $CI they would have to run)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "CI")}
    env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
    python = str(bin_dir / "python")
    install = subprocess.run([python, "-m", "pip", "install", "-q", ".[test]"], capture_output=True, text=True,
                             env=env, cwd=source, timeout=1800)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    tests = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow"],
                           capture_output=True, text=True, env=env, cwd=source, timeout=3600)
    assert tests.returncode == 0, tests.stdout[-5000:] + tests.stderr[-3000:]
    # pyproject's addopts add a second -q, which drops the "N passed" line: the progress must end at 100 %
    assert "[100%]" in tests.stdout and "FAILED" not in tests.stdout and "ERROR" not in tests.stdout
