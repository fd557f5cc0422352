"""Shared test helpers."""

from __future__ import annotations

import pytest

from cardlab.cli.main import main


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
