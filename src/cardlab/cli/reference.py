"""The command-line reference page, docs/cli.md, generated from the parser.

``python -m cardlab.cli.reference > docs/cli.md`` writes it; tests/test_docs_site.py checks the
page is what this module generates today, so the reference cannot drift from the commands.
Help is formatted at a fixed width (100 columns), whatever the terminal.

>>> page = cli_reference()
>>> page.startswith("# Command-line reference") and "## cardlab poker icm" in page
True
"""

from __future__ import annotations

import argparse
import os
from typing import Iterator

__all__ = ["cli_reference", "WIDTH"]

#: The column width of the help texts on the page.
WIDTH = 100


def _commands(parser: argparse.ArgumentParser) -> Iterator[tuple[argparse.ArgumentParser, str]]:
    """Each parser of the tree, depth first, with its one-line help."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield sub, helps.get(name, "")
                yield from _commands(sub)


def cli_reference() -> str:
    """The whole reference: the top-level help, then each group and command's ``--help``."""
    from cardlab.cli.main import build_parser

    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        parser = build_parser()
        parts = ["# Command-line reference\n\n"
                 "Every command's `--help`, generated from the parser by `python -m cardlab.cli.reference > "
                 "docs/cli.md` (a test checks the page is current). `cardlab` alone prints an overview with "
                 "examples; `cardlab completion bash|zsh` prints a shell completion script.\n\n"
                 f"## cardlab\n\n```text\n{parser.format_help()}```\n"]
        for sub, line in _commands(parser):
            parts.append(f"\n## {sub.prog}\n\n{line[:1].upper() + line[1:]}.\n\n```text\n{sub.format_help()}```\n"
                         if line else f"\n## {sub.prog}\n\n```text\n{sub.format_help()}```\n")
        return "".join(parts)
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous


if __name__ == "__main__":  # pragma: no cover
    print(cli_reference(), end="")
