"""Commands of this group are registered here (being built; see the issue tracker)."""

from __future__ import annotations

import argparse


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add this group's commands to ``subparsers``."""
