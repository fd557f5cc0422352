"""``cardlab poker range EXPR``: the hands of a range in the generic syntax, and their count.

Parsing and printing only; the work is :func:`cardlab.poker.range_listing.list_range`.
"""

from __future__ import annotations

import argparse

from cardlab.cli.output import write_text
from cardlab.cli.poker_equity import GAME_NAMES

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``range`` to the ``poker`` group."""
    cmd = subparsers.add_parser(
        "range", help="list the hands of a range in the generic syntax (Omaha too)",
        description="Every hand a range holds, and how many. Omaha ranges use ProPokerTools' generic "
                    "syntax (docs/ranges.md): AA (at least two aces), AxAyxy (double-suited aces), "
                    "RRON, KK!KKK, AA:xxyy, JT98+, 15%, AA@10,KK@5. Hold'em and short deck also take "
                    "the classic syntax (QQ+, AKs). Example: cardlab poker range 'AA:xxyy' --game omaha")
    cmd.add_argument("expr", metavar="EXPR", help="the range, e.g. 'AA:xxyy, KK!KKK'")
    cmd.add_argument("--game", choices=GAME_NAMES, default="holdem",
                     help="holdem (the default, as in every poker command), omaha (4 cards), omaha5, omaha6, shortdeck")
    cmd.add_argument("--format", choices=("table", "csv", "json"), default="table", help="output format")
    cmd.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    cmd.set_defaults(func=_range)


def _range(args: argparse.Namespace) -> int:
    from cardlab.poker.range_listing import list_range

    result = list_range(args.expr, game=args.game)
    text = {"json": result.to_json, "csv": result.to_csv}.get(args.format, result.table)()
    write_text(args, text)
    return 0
