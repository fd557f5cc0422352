"""Entry point of the ``cardlab`` command.

Adding a command: one line in :data:`COMMANDS`
-----------------------------------------------
Every command is named once, in the table :data:`COMMANDS` below::

    ("bridge", "split"): ("cardlab.cli.bridge_split", "exact suit splits, card placement and restricted choice"),

(group, command) -> (module, one-line help). The parser is built from this table
*without importing the command modules*: ``cardlab --help`` and ``cardlab bridge
--help`` list the help texts of the table, and only the module of the command the
user chose is imported, so its ``register(subparsers)`` can add the full parser
(its options and ``func(args) -> int``). A module may register several commands
(``bridge_stats`` adds ``hcp``, ``shape`` and ``joint``): give each its own line
with the same module. A new group (``("scoring", "x")``) needs a line in
:data:`GROUPS` too. ``tests/test_cli_startup.py`` checks that the table and the
modules agree and that choosing any command, even with ``--help`` or a bad
option, imports no numpy: a command module imports its heavy stack inside the
``func`` it sets, never at module level.

Errors
------
Input errors (any :class:`cardlab.errors.CardlabError`, and unreadable files)
print one line ``cardlab: error: ...`` on stderr and exit with status 2. A closed
pipe (``cardlab ... | head``) ends the command quietly, as Unix tools do.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import textwrap
import threading
from typing import Any, NoReturn, Sequence

from cardlab import __version__
from cardlab.cli.output import cap_workers, check_destinations
from cardlab.cli.suggest import SuggestingParser, with_hint
from cardlab.errors import CardlabError
from cardlab.textfile import shortened

__all__ = ["main", "build_parser", "COMMANDS", "GROUPS", "TOP_COMMANDS"]

#: The command groups and their one-line help.
GROUPS: dict[str, str] = {
    "bridge": "bridge hand statistics, deals, double dummy and duplicate scoring",
    "poker": "poker hands: compare, rank, odds, equity, video poker",
    "casino": "casino table games: house edge and optimal strategy, exactly",
    "club": "club direction: movements, table and guide cards, Bridgemate .bws, live results",
}

#: Every command: (group, command) -> (module that registers it, one-line help for the listing).
COMMANDS: dict[tuple[str, str], tuple[str, str]] = {
    ("bridge", "hcp"): ("cardlab.cli.bridge_stats", "exact distribution of a hand's points"),
    ("bridge", "shape"): ("cardlab.cli.bridge_stats", "exact distribution of suit patterns"),
    ("bridge", "joint"): ("cardlab.cli.bridge_stats", "exact joint table of points and shape"),
    ("bridge", "dealer"): ("cardlab.cli.bridge_dealer", "run a dealer script (the 'dealer' program's language)"),
    ("bridge", "deal"): ("cardlab.cli.bridge_dealer", "random deals under constraints (PBN, diagrams or JSON)"),
    ("bridge", "matchpoints"): ("cardlab.cli.bridge_score", "matchpoint the scores of one board"),
    ("bridge", "score"): ("cardlab.cli.bridge_score", "score a session from a result file (USEBIO XML, PBN, CSV or Bridgemate .bws)"),
    ("bridge", "dd"): ("cardlab.cli.bridge_dd", "double-dummy table and par of a deal (or a PBN file of deals)"),
    ("bridge", "makes"): ("cardlab.cli.bridge_dd", "how often a contract makes double dummy over random deals"),
    ("bridge", "lead"): ("cardlab.cli.bridge_dd", "rank the opening leads from a hand against a contract"),
    ("bridge", "compare"): ("cardlab.cli.bridge_compare", "compare bidding strategies double dummy: IMPs, matchpoints, board-a-match"),
    ("bridge", "teams"): ("cardlab.cli.bridge_teams", "score team matches (IMPs, WBF 20-point VPs, standings)"),
    ("bridge", "split"): ("cardlab.cli.bridge_split", "exact suit splits, card placement and restricted choice"),
    ("bridge", "suitplay"): ("cardlab.cli.bridge_suitplay", "the best line of play in one suit, exactly"),
    ("bridge", "boards"): ("cardlab.cli.bridge_boards", "read a board file (PBN, LIN, Duplimate .dup/.dlm) and list or convert it"),
    ("club", "movement"): ("cardlab.cli.club", "make a movement (Mitchell, Howell) and check, print or export it"),
    ("club", "cards"): ("cardlab.cli.club", "printable table cards or guide cards (HTML, A4 or Letter)"),
    ("club", "check"): ("cardlab.cli.club", "check a Bridgemate .bws session against its own movement"),
    ("club", "live"): ("cardlab.cli.club", "keep a results site up to date while a results file fills"),
    ("poker", "compare"): ("cardlab.cli.poker", "which hand wins, and why"),
    ("poker", "rank"): ("cardlab.cli.poker", "category and strength of each hand"),
    ("poker", "odds"): ("cardlab.cli.poker", "probability of each poker hand, exact and simulated"),
    ("poker", "equity"): ("cardlab.cli.poker_equity", "how often each hand or range wins: exact or simulated equity"),
    ("poker", "board"): ("cardlab.cli.poker_board", "board statistics: made hands, sets, pairs and draws of a range"),
    ("poker", "range"): ("cardlab.cli.poker_range", "list the hands of a range in the generic syntax (Omaha too)"),
    ("poker", "video"): ("cardlab.cli.poker_video", "video poker: exact return of a pay table under optimal play"),
    ("poker", "icm"): ("cardlab.cli.poker_tournament", "tournament equity of each stack (the Independent Chip Model), exact"),
    ("poker", "pushfold"): ("cardlab.cli.poker_tournament", "heads-up push/fold equilibrium (Nash): ranges, chart, EV, exploitability"),
    ("poker", "solve"): ("cardlab.cli.poker_solve", "heads-up river, turn and flop solver: strategy, EV, equity and exploitability"),
    ("casino", "games"): ("cardlab.cli.casino", "list the built-in table games (each a TOML file you can copy and change)"),
    ("casino", "analyse"): ("cardlab.cli.casino", "house edge, element of risk and optimal strategy of a table game, exactly"),
    ("casino", "blackjack"): ("cardlab.cli.casino", "blackjack by combinatorial analysis: basic strategy and exact house edges"),
    ("casino", "shoe"): ("cardlab.cli.casino_shoe", "blackjack shoe simulator: cut card, count, bet spread, risk of ruin"),
}

#: Commands with no group (``cardlab serve``): name -> (module that registers it, one-line help).
#: The module's ``register(subparsers)`` adds the parser to the top level; like the others it is
#: imported only when its command is chosen.
TOP_COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("cardlab.web.command", "the workbench: every question from a page in the browser (local server)"),
    "completion": ("cardlab.cli.completion", "print the shell completion script for bash or zsh"),
}


#: What ``cardlab`` alone prints: the commands by group, and examples to start from.
OVERVIEW = """cardlab: card-game probabilities (exact where maths allows, seeded simulation elsewhere)
and duplicate bridge scoring.

Examples:
  cardlab bridge hcp                          high-card points of a hand, exactly
  cardlab bridge split 5                      how 5 missing cards split
  cardlab bridge deal -n 4 --north "hcp=15-17 shape=balanced"
  cardlab bridge score examples/session.csv   rank a pairs session from its travellers
  cardlab poker equity AsAh KdKc              who wins how often, over every board
  cardlab poker odds --cards 7                the best five of seven, exactly
  cardlab poker icm 5000,3000,2000 --payouts 50,30,20
  cardlab serve                               the same questions in the browser

{commands}
'cardlab --help' lists them with one line each; 'cardlab bridge hcp --help' shows a command's options."""


def _command_list() -> str:
    """The commands by group, from :data:`COMMANDS` and :data:`TOP_COMMANDS` (one home: a new
    command shows up in the overview by being registered)."""
    lines = [f"cardlab {g}: {', '.join(c for (grp, c) in COMMANDS if grp == g)}" for g in GROUPS]
    lines.append("cardlab " + ", cardlab ".join(TOP_COMMANDS))
    return "Commands:\n" + "\n".join(textwrap.fill(line, 100, initial_indent="  ", subsequent_indent="    ")
                                      for line in lines)


OVERVIEW = OVERVIEW.replace("{commands}", _command_list())


class _Parser(SuggestingParser):
    """argparse with usage errors on one line (the usage itself is one --help away) that say how
    to fix them (cli/suggest.py: "did you mean", the form of a list)."""

    def error(self, message: str) -> NoReturn:
        super().error(_shortened(message))


def _chosen(argv: Sequence[str]) -> tuple[str, str] | None:
    """The (group, command) the words of ``argv`` name, if any: the first two words that are not
    options (the program and the groups take no option with a value)."""
    words = [a for a in argv if not a.startswith("-")]
    if len(words) >= 2 and (words[0], words[1]) in COMMANDS:
        return words[0], words[1]
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``cardlab`` parser for ``argv``: every command of :data:`COMMANDS` is listed, and
    only the module of the command ``argv`` chooses is imported (to add its options).
    With ``argv=None`` every command module is imported (the full parser, for tests and tools)."""
    parser = _Parser(
        prog="cardlab",
        description="Card-game probabilities (exact and simulated) and duplicate bridge scoring.",
    )
    parser.add_argument("--version", action="version", version=f"cardlab {__version__}")
    groups = parser.add_subparsers(dest="group", metavar="{" + ",".join([*GROUPS, *TOP_COMMANDS]) + "}",
                                   required=True)
    chosen = _chosen(argv) if argv is not None else None
    wanted = {COMMANDS[chosen][0]} if chosen else (set() if argv is not None else
                                                   {module for module, _ in COMMANDS.values()})
    for group, group_help in GROUPS.items():
        commands = _commands(groups.add_parser(group, help=group_help, description=group_help))
        registered: set[str] = set()
        for (g, name), (module, help_text) in COMMANDS.items():
            if g != group:
                continue
            if module not in wanted:
                # listed with its help; never parsed (the module would have been imported if chosen)
                commands.add_parser(name, help=help_text, add_help=False)
            elif module not in registered:
                registered.add(module)
                importlib.import_module(module).register(commands)
    words = [a for a in argv if not a.startswith("-")] if argv is not None else []
    for name, (module, help_text) in TOP_COMMANDS.items():
        if argv is None or words[:1] == [name]:
            importlib.import_module(module).register(groups)
        else:
            groups.add_parser(name, help=help_text, add_help=False)
    return parser


def _commands(group: argparse.ArgumentParser) -> "argparse._SubParsersAction[argparse.ArgumentParser]":
    """The subcommand list of a group; its parsers are ``_Parser``s (one-line usage errors)."""
    return group.add_subparsers(dest="command", required=True, parser_class=_Parser)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    if not words:  # `cardlab` alone: what it does and how to start, not a usage error
        print(OVERVIEW)
        return 0
    parser = build_parser(words)
    args = parser.parse_args(words)
    previous = _first_interrupt_only()
    status = _run(args)
    if previous is not None and (status not in (130, _TERMINATED) or argv is not None):
        # after Ctrl-C the program keeps ignoring a second one while it exits; a caller of
        # main(argv) (a test, a notebook) gets its own handlers back whatever the status
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if argv is None:
        _end_now_if_native_work_runs(status)
    return status


def _run(args: argparse.Namespace) -> int:
    """The chosen command's status, its errors turned into one line on stderr."""
    try:
        check_destinations(args)
        cap_workers(args)
        status: int = args.func(args)
        _flush_stdout()
        if status == 130:  # a partial result, written as the command's output
            _say_where_the_partial_result_is(args)
    except BrokenPipeError:
        return _closed_pipe()
    except CardlabError as error:
        print(f"cardlab: error: {with_hint(_shortened(str(error)), args)}", file=sys.stderr)
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
    except Terminated:
        print("cardlab: terminated (SIGTERM)", file=sys.stderr)
        return _TERMINATED
    except KeyboardInterrupt:
        print("cardlab: interrupted", file=sys.stderr)
        return 130
    return status


def _say_where_the_partial_result_is(args: argparse.Namespace) -> None:
    """After an interrupted command wrote what it had to ``-o``/``--plot`` files: a line saying so
    (on a terminal the partial table shows it; a file is out of sight)."""
    for name in (getattr(args, "output", None), getattr(args, "plot", None)):
        if name not in (None, "-") and os.path.isfile(name):
            print(f"cardlab: note: {name} holds the partial result (interrupted)", file=sys.stderr)


_MAX_MESSAGE = 400


def _shortened(message: str) -> str:
    """An error message as printed: a long quoted input (or a long unquoted word, as argparse
    writes them) cut to a short excerpt with its length (a 100 MB line or a 5,000-digit value is
    never copied to stderr), then the whole message to :data:`_MAX_MESSAGE`."""
    message = shortened(message)
    if len(message) > _MAX_MESSAGE:
        message = f"{message[:_MAX_MESSAGE - 40]}... ({len(message):,} characters in all)"
    return message


def _end_now_if_native_work_runs(status: int) -> None:
    """After Ctrl-C a native solver (DDS) may still be running in a ``cardlab-native-...`` thread
    (left to finish so the command could stop at once; its ``finished`` Event is not set).
    Exiting normally under it frees the solver's memory while it runs (a crash), and waiting for
    it takes seconds: the program (not a caller of ``main(argv)``) ends here, output flushed."""
    def running(thread: threading.Thread) -> bool:
        finished = getattr(thread, "finished", None)
        return isinstance(finished, threading.Event) and not finished.is_set()

    def chunk_running(thread: threading.Thread) -> bool:
        # after Ctrl-C or SIGTERM, a chunk thread of the engine (named cardlab_N) may still be in a
        # native solver call that cannot be stopped: the exit would wait for it (24-57 s seen)
        return status in (130, _TERMINATED) and thread.name.startswith("cardlab_") and thread.is_alive()

    if any((t.name.startswith("cardlab-native") and running(t)) or chunk_running(t) for t in threading.enumerate()):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status)


def _flush_stdout() -> None:
    """Flush now, so a closed pipe is seen here (and ends quietly) rather than at exit."""
    if sys.stdout is not None:
        sys.stdout.flush()


def _closed_pipe() -> int:
    """The reader of our output went away (``| head``): stop quietly, as Unix tools do.

    stdout is pointed at /dev/null so the interpreter's own flush at exit cannot complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real stdout
        pass
    return 0


class Terminated(KeyboardInterrupt):
    """SIGTERM (a closed terminal, a killed job), handled as Ctrl-C is: the work stops, what was
    completed is kept or the previous output left as it was, temporary files are removed."""


_TERMINATED = 128 + signal.SIGTERM  # the status of a command ended by SIGTERM (143)


#: The signals that stop a command: Ctrl-C, SIGTERM, and SIGHUP (a closed terminal), which is
#: handled as SIGTERM (it killed the process, leaving its temporary files and workers behind).
_STOPPING = (signal.SIGINT, signal.SIGTERM) + ((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ())


def _first_interrupt_only() -> dict[int, Any] | None:
    """Make the first Ctrl-C (or SIGTERM, or SIGHUP) stop the work and ignore any later one: after
    it the command only prints what it has and exits 130 (143 after SIGTERM or SIGHUP), and a
    second signal must not cut that short with a traceback. Returns the handlers to restore when
    the command ends normally, by signal (None off the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum: int, frame: Any) -> None:
        for other in _STOPPING:
            signal.signal(other, signal.SIG_IGN)
        raise KeyboardInterrupt if signum == signal.SIGINT else Terminated

    return {signum: signal.signal(signum, interrupt) for signum in _STOPPING}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
