"""Entry point of the ``cardlab`` command.

Each command group lives in its own module with a ``register(subparsers)``
function that adds its commands; every command sets ``func(args) -> int``.
Input errors (any :class:`cardlab.errors.CardlabError`, and unreadable files)
print one line ``cardlab: error: ...`` on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any, NoReturn, Sequence

from cardlab import __version__
from cardlab.cli.output import cap_workers, check_destinations
from cardlab.errors import CardlabError

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors on one line (the usage itself is one --help away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    from cardlab.cli import bridge_dd, bridge_dealer, bridge_score, bridge_stats, bridge_teams, poker, poker_equity
    from cardlab.cli import poker_video

    parser = _Parser(
        prog="cardlab",
        description="Card-game probabilities (exact and simulated) and duplicate bridge scoring.",
    )
    parser.add_argument("--version", action="version", version=f"cardlab {__version__}")
    groups = parser.add_subparsers(dest="group", metavar="{bridge,poker}", required=True)
    bridge = groups.add_parser("bridge", help="bridge hand statistics and duplicate scoring")
    bridge_cmds = _commands(bridge)
    bridge_stats.register(bridge_cmds)
    bridge_dealer.register(bridge_cmds)  # dealer scripts, and random deals under constraints
    from cardlab.cli import bridge_boards, bridge_split  # suit splits; board files (docs/splits.md, boards.md)

    bridge_split.register(bridge_cmds)
    bridge_boards.register(bridge_cmds)
    bridge_score.register(bridge_cmds)
    bridge_dd.register(bridge_cmds)
    bridge_teams.register(bridge_cmds)
    poker_parser = groups.add_parser("poker", help="poker hands: evaluate, compare, odds")
    poker_cmds = _commands(poker_parser)
    poker.register(poker_cmds)
    poker_equity.register(poker_cmds)
    poker_video.register(poker_cmds)  # video poker (docs/video.md)
    return parser


def _commands(group: argparse.ArgumentParser) -> "argparse._SubParsersAction[argparse.ArgumentParser]":
    """The subcommand list of a group; its parsers are ``_Parser``s (one-line usage errors)."""
    return group.add_subparsers(dest="command", required=True, parser_class=_Parser)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    previous = _first_interrupt_only()
    try:
        check_destinations(args)
        cap_workers(args)
        status: int = args.func(args)
    except CardlabError as error:
        print(f"cardlab: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        name = getattr(error, "filename", None)
        where = f" '{name}'" if name else ""
        print(f"cardlab: error: cannot use file{where}: {error.strerror or error}", file=sys.stderr)
        return 2
    except MemoryError:
        print("cardlab: error: not enough memory for this request; ask for less (fewer trials, "
              "deals or hands at a time)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardlab: interrupted", file=sys.stderr)
        return 130
    if previous is not None and status != 130:
        signal.signal(signal.SIGINT, previous)
    return status


def _first_interrupt_only() -> Any:
    """Make the first Ctrl-C stop the work and ignore any later one: after it the command only
    prints what it has and exits 130, and a second Ctrl-C must not cut that short with a traceback.
    Returns the handler to restore when the command ends normally (None off the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    return signal.signal(signal.SIGINT, interrupt)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
