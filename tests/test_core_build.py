"""The compiled core is built by the install, and threads run chunks of GIL-free tasks."""

from __future__ import annotations

import threading

import numpy as np

from cardlab import _core
from cardlab.engine import iter_chunks, local_executor


def test_core_is_compiled() -> None:
    assert _core.__file__ is not None and _core.__file__.endswith(".so")
    assert isinstance(_core.build_info()["compiler"], str)


class _ThreadName:
    releases_gil = True

    def __call__(self, seed: np.random.SeedSequence, n: int) -> tuple[str, int]:
        return threading.current_thread().name, int(np.random.default_rng(seed).integers(1 << 30))


def test_gil_free_tasks_run_on_threads_with_the_same_seeds() -> None:
    root = np.random.SeedSequence(5)
    inline = [r for _, r in iter_chunks(_ThreadName(), [1] * 6, root, workers=1)]
    threaded = [r for _, r in iter_chunks(_ThreadName(), [1] * 6, root, workers=2)]
    assert [v for _, v in inline] == [v for _, v in threaded]
    assert all(name.startswith("cardlab") for name, _ in threaded) or local_executor(2).slots == 1
