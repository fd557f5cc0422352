"""Shared options of the commands (--format, -o, --plot, --simulate) and printing.

A table command makes one library call that returns a
:class:`~cardlab.tabulation.Tabulation` and hands it to :func:`emit`, which
prints or writes it in the chosen format.

Every file a command writes (``-o``, ``--plot``) goes through :func:`replacing`: the output is
written to a temporary file beside the target and renamed over it only when the command
succeeds, so a command that fails half-way never leaves an existing file emptied or
half-written. Interrupted (Ctrl-C or SIGTERM), it keeps the output completed so far when there
is some (streamed deals, an interrupted simulation's result) and otherwise leaves the previous
file as it was, and says on stderr which of the two happened.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Iterable, Iterator, Protocol, TextIO

from cardlab.cli.options import seed_value, trials, workers_value
from cardlab.cores import available_cores
from cardlab.errors import CardlabError

if TYPE_CHECKING:
    from cardlab.tabulation import Tabulation

__all__ = ["NothingProduced", "about_option", "add_output_options", "add_simulation_options", "emit", "write_text", "write_result", "check_destinations", "binary_output",
           "replacing", "output_file",
           "cap_workers"]


@contextlib.contextmanager
def about_option(flag: str) -> Iterator[None]:
    """Library errors speak of values; a command names the option the value came from:
    a :class:`CardlabError` raised in the block is raised again, of the same class where it
    can be, as ``'{flag}: {message}'``."""
    try:
        yield
    except CardlabError as error:
        message = f"{flag}: {error}"
        try:
            again = type(error)(message)
        except TypeError:  # an error class with its own constructor
            again = CardlabError(message)
        raise again from None


def add_output_options(parser: argparse.ArgumentParser, plot: bool = True) -> None:
    parser.add_argument("--format", choices=("table", "csv", "json"), default="table",
                        help="output format (default: an aligned table)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    if plot:
        parser.add_argument("--plot", metavar="FILE.png", help="also draw the distribution as a PNG picture")


def add_simulation_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--simulate", type=trials, metavar="TRIALS",
                        help="also simulate TRIALS random hands and show them beside the exact answer")
    parser.add_argument("--seed", type=seed_value, help="random seed of the simulation (default: fresh, and printed)")
    parser.add_argument("--workers", type=workers_value, default=available_cores(),
                        help="workers for the simulation (default: one per core; a job of under about "
                             "0.2 s of work, 0.02 s for the compiled routes, runs on one); the result does "
                             "not depend on it")


def emit(args: argparse.Namespace, result: Tabulation) -> int:
    """Print or write ``result`` in ``--format``, draw ``--plot``; 130 if the simulation was interrupted."""
    write_text(args, result.text(args.format))
    if getattr(args, "plot", None):
        with replacing(args.plot, whole=True) as temporary:
            result.plot(temporary)
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 130 if result.interrupted else 0


def write_text(args: argparse.Namespace, text: str | Iterable[str]) -> None:
    """``text`` (or its chunks, for streamed output) to ``-o FILE``, or to stdout (through rich on
    a terminal, for a table)."""
    chunks = [text] if isinstance(text, str) else text
    if getattr(args, "output", None) not in (None, "-"):
        with output_file(args.output) as handle:
            handle.writelines(chunks)
    elif getattr(args, "format", "table") == "table" and sys.stdout.isatty() and isinstance(text, str):
        from rich.console import Console  # only for a table on a terminal

        Console().print(text, end="", markup=False, highlight=False)
    else:
        sys.stdout.writelines(chunks)


class Result(Protocol):
    """What a command's result object offers :func:`write_result` (``to_pbn`` too when the
    command has ``--format pbn``)."""

    def to_json(self) -> str:
        """The result as JSON text (:class:`cardlab.results.JsonText`)."""
        ...

    def to_csv(self) -> str:
        """The result as CSV text."""
        ...

    def table(self) -> str:
        """The result as the text the command prints."""
        ...


def write_result(args: argparse.Namespace, result: Result) -> None:
    """A result object in ``--format``: its ``to_json()`` (indented text), ``to_csv()``, ``to_pbn()``
    or ``table()``, written as :func:`write_text` does."""
    fmt = getattr(args, "format", "table")
    if fmt == "json":
        text = result.to_json() + "\n"
    elif fmt == "pbn":
        text = getattr(result, "to_pbn")()
    elif fmt == "csv":
        text = result.to_csv()
    else:
        text = result.table()
    write_text(args, text if text.endswith("\n") else text + "\n")


class NothingProduced(KeyboardInterrupt):
    """Raised inside :func:`replacing` (or :func:`output_file`) by a command interrupted before it
    produced anything the user asked for (only statistics of zero deals): an existing file is
    kept, whatever was written (a new one gets what was written)."""


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], whole: bool = False) -> Iterator[str]:
    """The name of a temporary file beside ``path`` to write a command's output to.

    When the block ends normally the file replaces ``path`` (with the mode ``path`` had, or
    the usual mode of a new file); when the block fails the temporary file is removed and an
    existing ``path`` is left as it was. Interrupted (Ctrl-C, or SIGTERM, which the command line
    turns into the same exception), what was written so far replaces ``path`` if it is not
    empty (the output completed before the interrupt), else the temporary file is removed and
    ``path`` left as it was; either way a line on stderr says which.
    With ``whole`` (a saved solve, a picture: of no use in part) an interrupt always removes the
    temporary file and leaves ``path`` as it was (a new one is not made).
    A target that is not a regular file (``/dev/null``, ``/dev/stdout``, a named pipe) is
    written directly. The temporary name ends with the target's name, so its extension
    (``.png``) still says the format.
    """
    target = os.path.realpath(path)
    if os.path.exists(target) and not os.path.isfile(target):
        yield str(path)
        return
    folder, name = os.path.split(target)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=_TEMPORARY_PREFIX, suffix=_temporary_suffix(name, folder))
    os.close(handle)
    try:
        yield temporary
    except KeyboardInterrupt as interrupt:
        nothing = whole or (isinstance(interrupt, NothingProduced) and os.path.exists(target))
        if not nothing and os.path.getsize(temporary) > 0:
            _put_in_place(temporary, target)
            print(f"cardlab: note: {path} holds the output completed before the interrupt", file=sys.stderr)
        else:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            print(f"cardlab: note: nothing was produced; {path} was left as it was", file=sys.stderr)
        raise
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError) and error.filename in (None, temporary):
            error.filename = str(path)  # a full disk while writing: name the file the user gave
        raise
    _put_in_place(temporary, target)


_TEMPORARY_PREFIX = ".cardlab-"
_RANDOM_PART = 8  # the characters tempfile.mkstemp puts between prefix and suffix
_KEPT_TAIL = 24  # of a long target name, the end kept in the temporary name (its extension)


def _temporary_suffix(name: str, folder: str) -> str:
    """The end of the temporary name for target ``name``: ``-name`` (so ``.png`` still says the
    format), only its last characters when the whole temporary name would be too long."""
    if len(_TEMPORARY_PREFIX) + _RANDOM_PART + 1 + len(os.fsencode(name)) <= _name_max(folder):
        return f"-{name}"
    return f"-{name[-_KEPT_TAIL:]}"


def _name_max(folder: str = ".") -> int:
    """The longest file name the file system of ``folder`` takes (255 when it does not say)."""
    try:
        return int(os.pathconf(folder or ".", "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return 255


def _put_in_place(temporary: str, target: str) -> None:
    if os.path.exists(target):
        mode = os.stat(target).st_mode & 0o7777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temporary, mode)
    os.replace(temporary, target)


@contextlib.contextmanager
def output_file(path: str | None) -> Iterator[TextIO]:
    """A text stream for ``-o path`` (UTF-8, through :func:`replacing`), or stdout for None or ``-``."""
    if path is None or path == "-":
        yield sys.stdout
        return
    with replacing(path) as temporary:
        with open(temporary, "w", encoding="utf-8") as handle:
            yield handle


@contextlib.contextmanager
def binary_output(path: str | None) -> Iterator[BinaryIO]:
    """A binary stream for ``-o path`` (through :func:`replacing`), or standard output's for None
    or ``-`` (``-o -`` means standard output wherever ``-o`` exists)."""
    if path is None or path == "-":
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        stream: Any = buffer if buffer is not None else _TextBytes(sys.stdout)
        yield stream
        stream.flush()
        return
    with replacing(path) as temporary:
        with open(temporary, "wb") as handle:
            yield handle


class _TextBytes:
    """Bytes written to a text stream without a binary buffer (a captured stdout)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, data: bytes) -> int:
        return self.out.write(data.decode("latin-1"))

    def flush(self) -> None:
        self.out.flush()


def check_destinations(args: argparse.Namespace) -> None:
    """Fail before any work if ``-o``, ``--plot`` or ``--differ`` cannot be written (or ``--plot``
    is not a .png)."""
    plot = getattr(args, "plot", None)
    if plot and not str(plot).lower().endswith(".png"):
        raise CardlabError(f"--plot writes a PNG picture: give a file name ending in .png, not '{plot}'")
    for option, path in (("-o", getattr(args, "output", None)), ("--plot", plot),
                         ("--differ", getattr(args, "differ", None))):
        if not path or path == "-":
            continue
        target = Path(path)
        folder = target.parent if str(target.parent) else Path(".")
        if len(os.fsencode(target.name)) > _name_max(str(folder)):
            raise CardlabError(f"cannot use file '{_short(target.name)}' ({option}): the name is longer than "
                               f"the {_name_max(str(folder))} characters the file system allows")
        if str(path).endswith(("/", os.sep)) or target.is_dir():
            if option == "-o" and getattr(args, "output_may_be_folder", False):
                continue  # a folder of several files (a results site): that command checks it
            raise CardlabError(f"cannot use file '{path}' ({option}): it is a directory")
        if not folder.is_dir():
            raise CardlabError(f"cannot use file '{path}' ({option}): folder '{folder}' does not exist")
        if (target.exists() and not os.access(target, os.W_OK)) or not os.access(folder, os.W_OK):
            raise CardlabError(f"cannot use file '{path}' ({option}): permission denied")


def _short(name: str, keep: int = 40) -> str:
    """A long name as its start and end (messages quote at most a short excerpt)."""
    return name if len(name) <= keep else f"{name[:keep // 2]}...{name[-keep // 2:]}"


def cap_workers(args: argparse.Namespace) -> None:
    """At most one worker process per available core, with a notice when more were asked for."""
    asked = getattr(args, "workers", None)
    if isinstance(asked, int) and asked > available_cores():
        args.workers = available_cores()
        print(f"cardlab: note: using {args.workers} worker(s), one per available core "
              f"(asked for {asked})", file=sys.stderr)
