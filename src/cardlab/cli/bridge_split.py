"""``cardlab bridge split``: exact suit splits and card placement (:mod:`cardlab.bridge.splits`)."""

from __future__ import annotations

import argparse

from cardlab.errors import DeckError

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``cardlab bridge split``."""
    split = subparsers.add_parser(
        "split", help="exact suit splits, card placement and restricted choice",
        description="How the N cards of a suit that your side is missing lie between West and East: "
                    "exact counts and probabilities. Examples: cardlab bridge split 5; "
                    "cardlab bridge split --cards KJ54; cardlab bridge split --cards QJxx --played W:Q. "
                    "See docs/splits.md.")
    split.add_argument("n", metavar="N", nargs="?", help="how many cards are missing (1..13)")
    split.add_argument("--cards", metavar="CARDS",
                       help="the missing cards, e.g. KJ54 or QJxx (A K Q J T are named; 9..2 and x are small)")
    split.add_argument("--vacant", metavar="W,E",
                       help="West's and East's unknown cards (vacant places) once other suits are known "
                            "(default 13,13)")
    split.add_argument("--played", metavar="PLAYS",
                       help="cards seen so far, in order: e.g. 'W:Q' or 'N:A W:Q E:x' (W:- = West shows out); "
                            "needs --cards")
    split.add_argument("--format", choices=("table", "csv", "json"), default="table",
                       help="output format (default: aligned tables)")
    split.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    split.set_defaults(func=_split)


def _split(args: argparse.Namespace) -> int:
    from cardlab.bridge.splits import card_layouts, parse_holding, suit_split
    from cardlab.cli.output import write_result

    n: int | None = None
    if args.n is not None:
        try:
            n = int(args.n)
        except ValueError:
            raise DeckError(f"N is how many cards are missing, a whole number 1..13, not {args.n!r}") from None
    if args.cards is None:
        if args.played:
            raise DeckError(f"--played {args.played!r} needs the missing cards: give --cards (e.g. --cards QJxx)")
        if n is None:
            raise DeckError("give N (how many cards are missing) or --cards (which)")
        result = suit_split(n, args.vacant)
    else:
        holding = parse_holding(args.cards)
        size = len(holding.honours) + holding.small
        if n is not None and n != size:
            raise DeckError(f"N is {n} but --cards {args.cards!r} names {size} cards")
        result = card_layouts(args.cards, args.vacant, args.played)
    write_result(args, result)
    return 0
