"""The Dask backend gives byte-identical answers to a local run, survives a lost worker,
and fails in one line on an unreachable scheduler.

One LocalCluster of 2 single-threaded worker processes on the loopback interface serves the
whole module. The independent route for every figure is the local run itself: the same
command (or the same chunks) computed in this process.
"""

from __future__ import annotations

from pathlib import Path

import itertools
import os
import signal
import sys
import time
from typing import Any, Iterator

import numpy as np
import pytest

from cardlab.bridge.features import Points
from cardlab.cli.main import main
from cardlab.dealing import Deck, Draw
from cardlab.engine import _CountTask, iter_chunks, simulate
from cardlab.poker.odds import PokerCategory
from extras import require


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    require("distributed", "slow")
    from cardlab.cluster import connect

    executor = connect("local:2")
    try:
        assert executor.cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        yield executor
    finally:
        executor.close()


@pytest.fixture(autouse=True)
def _close_cli_executors() -> Iterator[None]:
    yield
    from cardlab.cli.cluster_option import close_executors

    close_executors()


def _tasks_on_scheduler(dask_scheduler: Any) -> int:
    return len(dask_scheduler.tasks)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def same_output(capsys: pytest.CaptureFixture[str], address: str, *argv: str) -> str:
    code, local, _ = run(capsys, *argv, "--workers", "1")
    assert code == 0
    code, remote, _ = run(capsys, *argv, "--cluster", address)
    assert code == 0
    assert remote == local  # byte for byte
    return local


def test_poker_odds_identical_on_the_cluster(cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    out = same_output(capsys, cluster.cluster.scheduler_address,
                      "poker", "odds", "--simulate", "2000000", "--seed", "11", "--format", "json")
    assert '"trials": 2000000' in out


def test_hand_tables_identical_on_the_cluster(cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    address = cluster.cluster.scheduler_address
    same_output(capsys, address, "bridge", "joint", "--simulate", "600000", "--seed", "5", "--format", "csv")
    out = same_output(capsys, address, "bridge", "hcp", "--given-hcp", "15", "--simulate", "600000",
                      "--seed", "4")
    assert "seed 4" in out


def test_dealer_script_identical_on_the_cluster(cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    script = str(Path(__file__).parent / "data" / "dealer" / "notrump.dl")
    out = same_output(capsys, cluster.cluster.scheduler_address,
                      "bridge", "dealer", script, "-g", "300000", "-s", "9", "--format", "json")
    assert '"generated": 300000' in out


def test_equity_simulation_identical_on_the_cluster(cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    out = same_output(capsys, cluster.cluster.scheduler_address,
                      "poker", "equity", "AKs", "QQ", "random", "--simulate", "400000", "--seed", "3",
                      "--format", "json")
    assert '"exact": false' in out


def test_double_dummy_statistics_identical_on_the_cluster(cluster: Any,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = same_output(capsys, cluster.cluster.scheduler_address,
                      "bridge", "makes", "--north", "hcp=15-17 shape=balanced", "--south", "hcp=10-12",
                      "--contract", "3NT", "--by", "N", "-n", "12", "--seed", "2", "--format", "json")
    assert "3NT" in out


def test_environment_variable_names_the_cluster(cluster: Any, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ("bridge", "shape", "--simulate", "500000", "--seed", "8", "--format", "json")
    _, local, _ = run(capsys, *argv, "--workers", "1")
    monkeypatch.setenv("CARDLAB_CLUSTER", cluster.cluster.scheduler_address)
    code, remote, _ = run(capsys, *argv)
    assert code == 0 and remote == local


def test_batches_keep_each_chunk_and_its_seed(cluster: Any) -> None:
    from cardlab.cluster import DaskExecutor

    draw, feature = Draw(Deck.standard(), 13), Points()
    alone = simulate(draw, feature, 70_000, seed=3, chunk=5_000)
    batched = DaskExecutor(cluster.client, batch=4)
    on_cluster = simulate(draw, feature, 70_000, seed=3, chunk=5_000, executor=batched)
    assert on_cluster.counts == alone.counts and on_cluster.total == 70_000
    assert batched.tasks == 4  # 14 chunks in batches of 4: 4 + 4 + 4 + 2
    auto = DaskExecutor(cluster.client)  # tiny chunks: the batch grows towards a one-second task
    small = simulate(draw, feature, 70_000, seed=3, chunk=1_000)  # another chunk size: another sample
    assert simulate(draw, feature, 70_000, seed=3, chunk=1_000, executor=auto).counts == small.counts
    assert auto.batch > 1 and auto.chunk_seconds is not None
    by_name = simulate(draw, feature, 70_000, seed=3, chunk=5_000, executor=cluster.cluster.scheduler_address)
    assert by_name.counts == alone.counts  # an address: connected and closed by the engine


def test_no_cluster_named_means_local(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardlab.cluster import executor_from

    monkeypatch.delenv("CARDLAB_CLUSTER", raising=False)
    assert executor_from(None) is None
    assert executor_from("  ") is None


def test_stopping_early_cancels_what_is_queued(cluster: Any) -> None:
    from cardlab.cluster import DaskExecutor

    executor = DaskExecutor(cluster.client, batch=1)
    task = _CountTask(Draw(Deck.standard(), 7), PokerCategory(), 10)
    root = np.random.SeedSequence(1)
    chunks = iter_chunks(task, itertools.repeat(20_000), root, executor=executor)
    got = [counts for _, counts in itertools.islice(chunks, 3)]
    chunks.close()
    assert len(got) == 3 and not executor._inflight
    tasks_left = 1
    for _ in range(50):
        tasks_left = cluster.client.run_on_scheduler(_tasks_on_scheduler)
        if tasks_left == 0:
            break
        time.sleep(0.1)
    assert tasks_left == 0


class _CtrlCAfter:
    """An executor whose chunk number ``after`` (from 0) raises KeyboardInterrupt when waited for."""

    def __init__(self, inner: Any, after: int) -> None:
        self.inner, self.after, self.submitted = inner, after, 0

    @property
    def slots(self) -> int:
        return int(self.inner.slots)

    def submit(self, fn: Any, *args: Any) -> Any:
        pending = self.inner.submit(fn, *args)
        self.submitted += 1
        return _Interrupt(pending) if self.submitted == self.after + 1 else pending

    def close(self, cancel: bool = False) -> None:
        self.inner.close(cancel)


class _Interrupt:
    def __init__(self, pending: Any) -> None:
        self.pending = pending

    def result(self, timeout: float | None = None) -> Any:
        raise KeyboardInterrupt

    def cancel(self) -> None:
        self.pending.cancel()


def test_ctrl_c_returns_the_partial_result_and_cancels_the_rest(cluster: Any) -> None:
    from cardlab.cluster import DaskExecutor

    executor = DaskExecutor(cluster.client, batch=1)
    draw, feature = Draw(Deck.standard(), 7), PokerCategory()
    part = simulate(draw, feature, 10**9, seed=6, chunk=20_000, executor=_CtrlCAfter(executor, 3))
    assert part.simulation is not None and part.simulation.interrupted
    assert part.total == 3 * 20_000
    assert part.counts == simulate(draw, feature, 3 * 20_000, seed=6, chunk=20_000).counts
    assert not executor._inflight
    for _ in range(50):
        if cluster.client.run_on_scheduler(_tasks_on_scheduler) == 0:
            break
        time.sleep(0.1)
    assert cluster.client.run_on_scheduler(_tasks_on_scheduler) == 0


def test_a_lost_worker_changes_nothing(cluster: Any) -> None:
    """Kill one worker process after the first chunk comes back: Dask reruns its chunks elsewhere."""
    from cardlab.cluster import DaskExecutor

    client = cluster.client
    client.wait_for_workers(2, timeout=30)
    before = set(client.nthreads())
    task = _CountTask(Draw(Deck.standard(), 7), PokerCategory(), 10)
    sizes = [50_000] * 16
    expected = sum(counts for _, counts in iter_chunks(task, sizes, np.random.SeedSequence(9)))
    executor = DaskExecutor(client, batch=1)
    total, seen = np.zeros(10, dtype=np.int64), 0
    for _, counts in iter_chunks(task, sizes, np.random.SeedSequence(9), executor=executor):
        if seen == 0:
            busy = [w for w, keys in client.processing().items() if keys] or sorted(before)
            pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
            os.kill(pid, signal.SIGKILL)  # a worker process of this test's own LocalCluster
        total += counts
        seen += 1
    assert seen == 16
    assert total.tolist() == expected.tolist()
    client.wait_for_workers(2, timeout=30)  # the nanny starts a new worker in its place
    assert set(client.nthreads()) != before


def test_unreachable_scheduler_is_one_line_within_ten_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    require("distributed", "slow")
    start = time.monotonic()
    code, out, err = run(capsys, "poker", "odds", "--simulate", "1000", "--cluster", "tcp://127.0.0.1:1")
    assert time.monotonic() - start < 10
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("cardlab: error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'")


def test_without_distributed_the_flag_says_what_to_install(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    code, out, err = run(capsys, "bridge", "shape", "--simulate", "1000", "--cluster", "local:2")
    assert code == 2 and out == ""
    assert err == ("cardlab: error: running on a Dask cluster needs the 'distributed' package: "
                   "pip install 'cardlab[cluster]'\n")


def test_bad_local_spec(capsys: pytest.CaptureFixture[str]) -> None:
    require("distributed", "slow")
    code, _, err = run(capsys, "bridge", "hcp", "--simulate", "1000", "--cluster", "local:many")
    assert code == 2
    assert err == "cardlab: error: 'local:many': expected local:N with N a whole number of worker processes\n"


def _malloc_setting() -> str | None:
    import os

    return os.environ.get("MALLOC_TRIM_THRESHOLD_")


def test_local_workers_keep_glibcs_adaptive_malloc(cluster: Any) -> None:
    """Dask's default MALLOC_TRIM_THRESHOLD_ makes every numpy temporary an mmap (a chunk of
    poker hands ran about 25% slower); a local cluster leaves glibc's default."""
    assert cluster.client.submit(_malloc_setting, pure=False).result() is None
