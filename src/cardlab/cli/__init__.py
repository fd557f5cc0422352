"""The ``cardlab`` command line: argument parsing and printing only."""

import sys
from typing import NoReturn

__all__ = ["run"]


def run() -> NoReturn:
    """The ``cardlab`` program: :func:`cardlab.cli.main.main`, with a Ctrl-C that comes before its
    handlers are in place (while the command's modules are imported, in the first 50 ms) ending it
    as quietly as one that comes after: one line on stderr, exit 130, no traceback."""
    try:
        from cardlab.cli.main import main

        status = main()
    except KeyboardInterrupt:
        print("cardlab: interrupted", file=sys.stderr)
        status = 130
    sys.exit(status)
