"""``cardlab poker board RANGE --board Qh9c2d``: how a range hits a board, class by class.

Parsing and printing only; the work is :func:`cardlab.poker.board_stats.board_stats`.
"""

from __future__ import annotations

import argparse
import json

from cardlab.cli.output import write_text
from cardlab.errors import CardlabError

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``board`` to the ``poker`` group."""
    cmd = subparsers.add_parser(
        "board", help="board statistics: made hands, sets, pairs and draws of a range",
        description="Exact combo counts and shares of a range on a board of 3 to 5 cards: made "
                    "hands, each combo in its best one (straight flush .. high card); three of a kind as set, "
                    "trips or trips on the board; one pair as overpair, top/middle/bottom pair, underpair or "
                    "board pair, and underpairs by the board cards above them (these add up to their class); "
                    "draws (flush draw, nut flush draw, open-ended, double gutshot, gutshot, combo draw, "
                    "backdoor draws). --flops all: the range over every flop by texture (paired, monotone, "
                    "two-tone, rainbow, connected, consecutive); without a RANGE, the 22,100 flops counted by "
                    "texture. Example: "
                    "cardlab poker board 'QQ+, AK, KQs' --board Qh9c2d")
    cmd.add_argument("range", metavar="RANGE", nargs="?", help="the range (QQ+, AK, AxKx, KK!AA ...)")
    cmd.add_argument("--board", metavar="CARDS", help="the board, 3 to 5 cards")
    cmd.add_argument("--flops", choices=("all",), help="all: every flop instead of --board, by texture")
    cmd.add_argument("--dead", default="", metavar="CARDS", help="cards out of play")
    cmd.add_argument("--game", choices=("holdem", "shortdeck", "omaha", "omaha5", "omaha6"), default="holdem",
                     help="holdem (default), shortdeck, or omaha/omaha5/omaha6 (two hole cards and three board "
                          "cards)")
    cmd.add_argument("--format", choices=("table", "csv", "json"), default="table", help="output format")
    cmd.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    cmd.set_defaults(func=_board)


def _board(args: argparse.Namespace) -> int:
    if args.flops == "all" and (args.board or args.dead):  # with or without a range: never ignored
        raise CardlabError("--flops all runs over every flop: it takes no --board or --dead")
    if args.flops == "all" and args.range:
        from cardlab.poker.board_stats import all_flops_stats

        stats = all_flops_stats(args.range, game=args.game)
        write_text(args, {"json": stats.to_json, "csv": stats.to_csv}.get(args.format, stats.table)())
        return 0
    if args.flops == "all":
        from cardlab.poker.board_stats import flop_textures

        counts = flop_textures()
        total = counts["unpaired"] + counts["paired"] + counts["trips"]
        if args.format == "json":
            text = json.dumps({"flops": total, "textures": [{"name": k, "flops": v, "probability": v / total}
                                                            for k, v in counts.items()]}, indent=2) + "\n"
        elif args.format == "csv":
            text = "name,flops,probability\n" + "".join(f"{k},{v},{v / total!r}\n" for k, v in counts.items())
        else:
            text = f"{total:,} flops by texture\n" + "".join(f"  {k:<10} {v:>6,}  {v / total:7.2%}\n"
                                                             for k, v in counts.items())
        write_text(args, text)
        return 0
    if not args.range or not args.board:
        raise CardlabError("give a RANGE and --board CARDS (or --flops all)")
    from cardlab.poker.board_stats import board_stats

    result = board_stats(args.range, args.board, dead=args.dead, game=args.game)
    write_text(args, {"json": result.to_json, "csv": result.to_csv}.get(args.format, result.table)())
    return 0
