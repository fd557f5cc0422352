"""``--cluster ADDRESS|local:N``: one line adds it to a simulating command.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_cluster_option(parser)
>>> parser.parse_args(["--cluster", "local:2"]).cluster
'local:2'

A command then passes ``executor=executor_for(args)`` to its simulation; that
is None (local worker processes) unless ``--cluster`` or ``$CARDLAB_CLUSTER``
names a Dask scheduler. The answer is the same either way.
"""

from __future__ import annotations

import argparse

__all__ = ["add_cluster_option", "executor_for"]


def add_cluster_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--cluster`` to a command that simulates."""
    parser.add_argument(
        "--cluster", metavar="ADDRESS",
        help="run the simulation on a Dask cluster: a scheduler address such as tcp://host:8786, or "
             "local:N for N local worker processes (default: $CARDLAB_CLUSTER if set, else --workers "
             "local processes); the same seed gives the same answer; needs pip install 'cardlab[cluster]'")


def executor_for(args: argparse.Namespace) -> str | None:
    """The cluster ``--cluster`` or ``$CARDLAB_CLUSTER`` names, or None to run locally.

    Give it to the simulation as ``executor=``: the engine connects when the
    simulation starts (an unreachable address is a one-line error within seconds)
    and disconnects when it ends, cancelling what is queued after Ctrl-C. A missing
    ``distributed`` package or a malformed ``local:N`` is reported at once.
    """
    from cardlab.cluster import check_spec, cluster_address

    address = cluster_address(getattr(args, "cluster", None))
    if address is not None:
        check_spec(address)
    return address
