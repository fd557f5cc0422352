"""Shared options of the commands (--format, -o, --plot, --simulate) and printing.

A table command makes one library call that returns a
:class:`~cardlab.tabulation.Tabulation` and hands it to :func:`emit`, which
prints or writes it in the chosen format.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from cardlab.cores import available_cores
from cardlab.errors import CardlabError

if TYPE_CHECKING:
    from cardlab.tabulation import Tabulation

__all__ = ["add_output_options", "add_simulation_options", "emit", "write_text", "write_result", "check_destinations",
           "cap_workers", "positive_int", "seed_value"]


def positive_int(text: str) -> int:
    """argparse type: an int >= 1 (accepts 10_000_000 and 1e7)."""
    try:
        value = int(float(text)) if "e" in text.lower() else int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got '{text}'")
    return value


def seed_value(text: str) -> int:
    """argparse type: a seed, a whole number from 0 up."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 up, got '{text}'")
    return value


def add_output_options(parser: argparse.ArgumentParser, plot: bool = True) -> None:
    parser.add_argument("--format", choices=("table", "csv", "json"), default="table",
                        help="output format (default: an aligned table)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    if plot:
        parser.add_argument("--plot", metavar="FILE.png", help="also draw the distribution as a PNG picture")


def add_simulation_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--simulate", type=positive_int, metavar="TRIALS",
                        help="also simulate TRIALS random hands and show them beside the exact answer")
    parser.add_argument("--seed", type=seed_value, help="random seed of the simulation (default: fresh, and printed)")
    parser.add_argument("--workers", type=positive_int, default=available_cores(),
                        help="processes for the simulation (default: one per core); the result does "
                             "not depend on it")


def emit(args: argparse.Namespace, result: Tabulation) -> int:
    """Print or write ``result`` in ``--format``, draw ``--plot``; 130 if the simulation was interrupted."""
    write_text(args, result.text(args.format))
    if getattr(args, "plot", None):
        result.plot(args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 130 if result.interrupted else 0


def write_text(args: argparse.Namespace, text: str | Iterable[str]) -> None:
    """``text`` (or its chunks, for streamed output) to ``-o FILE``, or to stdout (through rich on
    a terminal, for a table)."""
    chunks = [text] if isinstance(text, str) else text
    if getattr(args, "output", None):
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.writelines(chunks)
    elif getattr(args, "format", "table") == "table" and sys.stdout.isatty() and isinstance(text, str):
        from rich.console import Console  # only for a table on a terminal

        Console().print(text, end="", markup=False, highlight=False)
    else:
        sys.stdout.writelines(chunks)


def write_result(args: argparse.Namespace, result: Any) -> None:
    """A result object in ``--format``: its ``to_json()`` (indented), ``to_csv()``, ``to_pbn()``
    or ``table()``, written as :func:`write_text` does."""
    fmt = getattr(args, "format", "table")
    if fmt == "json":
        text = json.dumps(result.to_json(), indent=2) + "\n"
    elif fmt in ("csv", "pbn"):
        text = result.to_csv() if fmt == "csv" else result.to_pbn()
    else:
        text = result.table()
    write_text(args, text if text.endswith("\n") else text + "\n")


def check_destinations(args: argparse.Namespace) -> None:
    """Fail before any work if ``-o`` or ``--plot`` cannot be written (or ``--plot`` is not a .png)."""
    plot = getattr(args, "plot", None)
    if plot and not str(plot).lower().endswith(".png"):
        raise CardlabError(f"--plot writes a PNG picture: give a file name ending in .png, not '{plot}'")
    for option, path in (("-o", getattr(args, "output", None)), ("--plot", plot)):
        if not path or path == "-":
            continue
        target = Path(path)
        if str(path).endswith(("/", os.sep)) or target.is_dir():
            if option == "-o" and getattr(args, "output_may_be_folder", False):
                continue  # a folder of several files (a results site): that command checks it
            raise CardlabError(f"cannot use file '{path}' ({option}): it is a directory")
        folder = target.parent if str(target.parent) else Path(".")
        if not folder.is_dir():
            raise CardlabError(f"cannot use file '{path}' ({option}): folder '{folder}' does not exist")
        if (target.exists() and not os.access(target, os.W_OK)) or not os.access(folder, os.W_OK):
            raise CardlabError(f"cannot use file '{path}' ({option}): permission denied")


def cap_workers(args: argparse.Namespace) -> None:
    """At most one worker process per available core, with a notice when more were asked for."""
    asked = getattr(args, "workers", None)
    if isinstance(asked, int) and asked > available_cores():
        args.workers = available_cores()
        print(f"cardlab: note: using {args.workers} worker(s), one per available core "
              f"(asked for {asked})", file=sys.stderr)
