"""``cardlab bridge suitplay``: the best line of play in one suit (:mod:`cardlab.bridge.suitplay`)."""

from __future__ import annotations

import argparse

from cardlab.cli.options import whole_number

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``cardlab bridge suitplay``."""
    play = subparsers.add_parser(
        "suitplay", help="the best line of play in one suit, exactly",
        description="The best line for a suit combination: for each number of tricks, the line that "
                    "makes it most often (exact probability), the line with the most tricks on average, "
                    "and the tricks of each line against every layout. Examples: cardlab bridge suitplay "
                    "AQT98 5432; cardlab bridge suitplay AK10xx xxxx --defence random-equals --target 5. "
                    "See docs/suitplay.md.")
    play.add_argument("north", metavar="NORTH", help="North's cards in the suit, e.g. AQT98 (- for a void)")
    play.add_argument("south", metavar="SOUTH", help="South's cards in the suit, e.g. 5432 (- for a void)")
    play.add_argument("--target", type=whole_number(1, 13), action="append", metavar="N",
                      help="tricks to make (repeat for several; default: every number from 1 to the most possible)")
    play.add_argument("--vacant", metavar="W,E",
                      help="West's and East's unknown cards (vacant places) once other suits are known (default 13,13)")
    play.add_argument("--played", metavar="PLAYS",
                      help="cards of the suit already gone, e.g. 'W:Q N:3' (a defender's card was in his hand)")
    play.add_argument("--entries", metavar="N,S",
                      help="how many times North and South can be reached to lead (whole numbers or *; default "
                           "unlimited: declarer leads from either hand each round)")
    play.add_argument("--defence", choices=("omniscient", "random-equals"), default="omniscient",
                      help="omniscient: the defenders see every card and falsecard when it helps (SuitPlay); "
                           "random-equals: a defender plays equal cards at random (restricted choice)")
    play.add_argument("--line", metavar="LINE",
                      help="also evaluate a line of your own, trick by trick, e.g. 'S:x N:Q; N:A' (lead low from "
                           "South, finesse the queen, then cash the ace; x is the lowest card; 'cash' ends a line "
                           "by leading the highest cards): its chance of each number of tricks (docs/suitplay.md)")
    play.add_argument("--scoring", choices=("tricks", "mp", "imps"), default="tricks",
                      help="also compare the lines head to head at matchpoints or IMPs")
    play.add_argument("--format", choices=("table", "csv", "json"), default="table",
                      help="output format (default: the lines and the table of layouts)")
    play.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    play.set_defaults(func=_suitplay)


def _suitplay(args: argparse.Namespace) -> int:
    from cardlab.bridge.suitplay import suitplay
    from cardlab.cli.output import write_result, write_text

    result = suitplay(args.north, args.south, targets=args.target, vacant=args.vacant, played=args.played,
                      entries=args.entries, defence=args.defence, scoring=args.scoring, line=args.line,
                      progress=True)
    if args.format == "json":  # to_json() is JSON text (the results' convention), written as it is
        write_text(args, result.to_json() + "\n")
    else:
        write_result(args, result)
    return 0
