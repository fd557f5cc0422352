"""``--north SPEC`` ... ``--west-cards CARDS``: the per-seat options of every command that deals
under constraints (``bridge deal``, ``bridge makes``, ``bridge lead``), with one rule for a seat
given twice: a seat's constraints given several times must all hold (contradictions are refused),
and a seat's cards may be given once only.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_seat_options(parser)
>>> args = parser.parse_args(["--north", "hcp=15-17", "--north", "spades=5+", "--south-cards", "AKQJ.T98.765.432"])
>>> cons, fixed = seat_options(args)
>>> cons["N"].text, fixed
('hcp=15-17 spades=5+', {'S': 'AKQJ.T98.765.432'})
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cardlab.board import SEAT_WORDS
from cardlab.errors import ConstraintError

if TYPE_CHECKING:
    from cardlab.bridge.deals import Constraint

__all__ = ["SEAT_OPTIONS", "add_seat_options", "seat_options"]

#: Option name -> seat letter (the board's seat words).
SEAT_OPTIONS = SEAT_WORDS


def add_seat_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--north`` .. ``--west`` (repeatable: all must hold) and ``--north-cards`` .. ``--west-cards``."""
    for seat in SEAT_OPTIONS:
        parser.add_argument(f"--{seat}", metavar="SPEC", action="append",
                            help=f"constraints on {seat.title()}'s hand (may be repeated: all must hold)")
        parser.add_argument(f"--{seat}-cards", metavar="CARDS", action="append",
                            help=f"{seat.title()}'s exact 13 cards")


def seat_options(args: argparse.Namespace) -> tuple[dict[str, Constraint], dict[str, str]]:
    """The constraints (each seat's specs combined: all must hold) and fixed hands the options give."""
    from cardlab.bridge.deals import combine_constraints

    constraints = {letter: combine_constraints(getattr(args, seat))
                   for seat, letter in SEAT_OPTIONS.items() if getattr(args, seat)}
    fixed: dict[str, str] = {}
    for seat, letter in SEAT_OPTIONS.items():
        given = getattr(args, f"{seat}_cards")
        if given:
            if len(given) > 1:
                raise ConstraintError(f"--{seat}-cards is given {len(given)} times: give {seat.title()}'s "
                                      f"13 cards once")
            fixed[letter] = given[0]
    return constraints, fixed
