"""``cardlab completion bash|zsh``: the shell completion script, generated from the parser.

The script is made by shtab from the full argparse tree (every command, option and choice), so
it never lags behind the commands. Install (bash)::

    cardlab completion bash > ~/.local/share/bash-completion/completions/cardlab

or for zsh, into a folder of ``$fpath``: ``cardlab completion zsh > ~/.zfunc/_cardlab``.
"""

from __future__ import annotations

import argparse

__all__ = ["register", "completion_script"]

SHELLS = ("bash", "zsh")


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``completion`` to the top level."""
    cmd = subparsers.add_parser(
        "completion", help="print the shell completion script for bash or zsh",
        description="The completion script for your shell, from every command and option. "
                    "Example: cardlab completion bash > ~/.local/share/bash-completion/completions/cardlab")
    cmd.add_argument("shell", choices=SHELLS, help="bash or zsh")
    cmd.set_defaults(func=_completion)


def completion_script(shell: str) -> str:
    """The completion script of ``shell`` for the whole ``cardlab`` command.

    >>> "cardlab" in completion_script("bash") and "--payouts" in completion_script("bash")
    True
    """
    import shtab

    from cardlab.cli.main import build_parser

    text: str = shtab.complete(build_parser(), shell=shell)
    return text if text.endswith("\n") else text + "\n"


def _completion(args: argparse.Namespace) -> int:
    print(completion_script(args.shell), end="")
    return 0
