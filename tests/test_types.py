"""mypy --strict (``strict = true`` in pyproject's [tool.mypy]) over the package, as part of the test command."""

from __future__ import annotations

from pathlib import Path

from mypy import api


def test_mypy_is_clean() -> None:
    root = Path(__file__).resolve().parents[1]
    out, err, status = api.run(["--config-file", str(root / "pyproject.toml"), str(root / "src" / "cardlab")])
    assert status == 0, out + err
