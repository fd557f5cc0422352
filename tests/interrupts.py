"""Waiting for a command under test to be well into its run before it is interrupted: a fixed
sleep is too short on a loaded machine (the command has not started writing) and wastes time on
an idle one."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

#: The hidden temporary file a command writes beside its ``-o`` target (cli/output.replacing).
TEMPORARY_PREFIX = ".cardlab-"


def wait_for_output(proc: subprocess.Popen[str], folder: Path, seconds: float = 120.0) -> None:
    """Return once ``proc`` has written some output (its temporary file in ``folder`` is not
    empty) and half a second more; fail if it ends or ``seconds`` pass first."""
    deadline = time.monotonic() + seconds
    while not any(p.stat().st_size > 0 for p in folder.iterdir() if p.name.startswith(TEMPORARY_PREFIX)):
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.1)
    time.sleep(0.5)
