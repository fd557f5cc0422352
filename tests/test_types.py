"""mypy --strict (``strict = true`` in pyproject's [tool.mypy]) over the package, as part of the test command."""

from __future__ import annotations

import tomllib
from pathlib import Path

from extras import needs

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_config_is_strict() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    # nothing that strict mode turns on is turned off again
    assert not [k for k, v in config.items() if k.startswith(("disallow_", "warn_")) and v is False]


@needs("mypy", "slow")
def test_mypy_is_clean() -> None:
    from mypy import api

    out, err, status = api.run(["--strict", "--config-file", str(ROOT / "pyproject.toml"), str(ROOT / "src" / "cardlab")])
    assert status == 0, out + err
