"""``--cluster ADDRESS|local:N``: one line adds it to a simulating command.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_cluster_option(parser)
>>> parser.parse_args(["--cluster", "local:2"]).cluster
'local:2'

A command then passes ``executor=executor_for(args)`` to its simulation; that
is None (local worker processes) unless ``--cluster`` or ``$CARDLAB_CLUSTER``
names a Dask scheduler or ``local:N``. The answer is the same either way.
"""

from __future__ import annotations

import argparse
import atexit
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardlab.cluster import DaskExecutor

__all__ = ["add_cluster_option", "executor_for", "close_executors"]


def add_cluster_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--cluster`` to a command that simulates."""
    parser.add_argument(
        "--cluster", metavar="ADDRESS",
        help="run the simulation on a Dask cluster: a scheduler address such as tcp://host:8786, or "
             "local:N for N local worker processes (default: $CARDLAB_CLUSTER if set, else --workers "
             "local processes); the same seed gives the same answer; needs pip install 'cardlab[cluster]'")


def executor_for(args: argparse.Namespace) -> DaskExecutor | None:
    """The Dask executor ``--cluster`` or ``$CARDLAB_CLUSTER`` names, or None to run locally.

    Connects now, before any long work: a missing ``distributed`` package, a malformed
    ``local:N`` or an unreachable scheduler is a one-line error within seconds. Give the
    result to the simulation as ``executor=``; every simulation of the command shares it
    (one ``local:N`` cluster per command), it cancels what is still queued after Ctrl-C,
    and it is closed when the command ends.
    """
    import os

    if getattr(args, "cluster", None) is None and not os.environ.get("CARDLAB_CLUSTER", "").strip():
        return None  # the usual case: run locally, without loading the cluster module
    from cardlab.cluster import cluster_address, connect

    address = cluster_address(getattr(args, "cluster", None))
    if address is None:
        return None
    if address not in _opened:
        if not _opened:
            atexit.register(close_executors)
        _opened[address] = connect(address)
    return _opened[address]


def close_executors() -> None:
    """Close the executors :func:`executor_for` opened (at exit, or after each test)."""
    while _opened:
        _, executor = _opened.popitem()
        executor.close(cancel=True)


_opened: dict[str, DaskExecutor] = {}
