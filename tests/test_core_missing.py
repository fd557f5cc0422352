"""Without the compiled core, ``import cardlab`` works and the first kernel call says what is missing."""

from __future__ import annotations

import subprocess
import sys

import pytest

# A meta-path finder that refuses cardlab._core, as on a platform with no wheel and no compiler.
HIDE_CORE = """
import sys
class _NoCore:
    def find_spec(self, name, path=None, target=None):
        if name == "cardlab._core":
            raise ImportError("No module named 'cardlab._core'")
        return None
sys.meta_path.insert(0, _NoCore())
"""


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", HIDE_CORE + code], capture_output=True, text=True, timeout=120)


def test_import_and_pure_python_work_without_the_core() -> None:
    run = _python("import cardlab\nfrom cardlab import Deck, Draw, exact\nfrom cardlab.bridge import Points\n"
                  "print(exact(Draw(Deck.standard(), 13), Points()).total)")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["635013559600"]  # C(52, 13), computed without a kernel


def test_the_first_kernel_call_raises_one_clear_error() -> None:
    run = _python("from cardlab.errors import CoreMissingError\n"
                  "from cardlab.poker.equity import equity\n"
                  "try:\n    equity(['AsKs', 'QdQc'])\nexcept CoreMissingError as e:\n    print('caught:', e)\n")
    assert run.returncode == 0, run.stderr
    message = run.stdout.strip()
    assert message.startswith("caught: cardlab's compiled core (cardlab._core) is not available")
    assert "No module named 'cardlab._core'" in message and "wheel" in message and "C compiler" in message


@pytest.mark.parametrize("argv", [["poker", "equity", "AsKs", "QdQc"], ["bridge", "dealer", "--help"]])
def test_the_cli_prints_one_line_and_exits_2(argv: list[str]) -> None:
    run = _python(f"from cardlab.cli.main import main\nraise SystemExit(main({argv!r}))")
    if "--help" in argv:  # help needs no kernel
        assert run.returncode == 0, run.stderr
        return
    assert run.returncode == 2, run.stdout + run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardlab: error: cardlab's compiled core"), run.stderr
    assert "Traceback" not in run.stderr


def test_a_kernel_wrapper_raises_not_attribute_error() -> None:
    run = _python("from cardlab._native import core\nfrom cardlab.errors import CardlabError\n"
                  "print(hasattr(core, '__file__'))\n"
                  "try:\n    core.build_info()\nexcept CardlabError as e:\n    print(type(e).__name__)\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "CoreMissingError"]
