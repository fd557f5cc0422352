"""``cardlab bridge teams``: IMPs, match totals, Victory Points and standings of team matches.

Parsing and printing only; the scoring is :func:`cardlab.scoring.teams.load_teams`.
"""

from __future__ import annotations

import argparse
import sys

from cardlab.cli.output import write_result

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``teams`` to ``subparsers``."""
    teams = subparsers.add_parser(
        "teams", help="score team matches (IMPs, WBF 20-point VPs, standings)",
        description="Team matches from a CSV of table results (board,room,ns,ew,contract,"
                    "declarer,tricks) or PBN games with HomeTeam/VisitTeam and Room (or, without Room, Table: the rooms "
                    "are inferred and said): IMPs per "
                    "board between the two rooms, match totals, Victory Points on the WBF "
                    "continuous 20-point scale, standings.",
    )
    teams.add_argument("file", metavar="FILE", help="team results (CSV or PBN)")
    teams.add_argument("--format", choices=["table", "csv", "json"], default="table",
                       help="output format (default table)")
    teams.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE")
    teams.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from cardlab.scoring.teams import load_teams

    result = load_teams(args.file)
    for note in result.notes:  # rooms inferred, boards left out: said, not silent
        print(f"cardlab: note: {note}", file=sys.stderr)
    write_result(args, result)
    return 0
