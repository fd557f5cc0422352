"""``cardlab casino shoe``: the blackjack shoe simulator (:mod:`cardlab.casino.blackjack_sim`).
Parsing and printing only."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from cardlab.cli.options import decimal_number, seed_value, whole_number, workers_value
from cardlab.cores import available_cores

if TYPE_CHECKING:
    from cardlab.casino.blackjack_rules import Rules

__all__ = ["register"]

#: The table's rules: (flags, keyword arguments of add_argument), read back by :func:`_rules`.
_RULE_OPTIONS: tuple[tuple[tuple[str, ...], dict[str, Any]], ...] = (
    (("--decks",), {"type": whole_number(1, 8), "default": 6, "help": "decks in the shoe, 1 to 8 (default 6)"}),
    (("--shoe",), {"metavar": "A,2,...,9,T", "help": "any shoe: ten counts of A, 2, ..., 9 and tens (replaces --decks)"}),
    (("--h17",), {"action": "store_true", "help": "the dealer hits soft 17 (default: stands)"}),
    (("--double",), {"choices": ("any", "9-11", "10-11"), "default": "any", "help": "which two cards may double"}),
    (("--no-das",), {"action": "store_true", "help": "no doubling after a split"}),
    (("--no-peek",), {"action": "store_true", "help": "no hole card: a dealer blackjack takes every bet"}),
    (("--blackjack-pays",), {"choices": ("3:2", "6:5"), "default": "3:2", "help": "what a blackjack pays"}),
    (("--surrender",), {"action": "store_true", "help": "late surrender allowed"}),
    (("--early-surrender",), {"action": "store_true",
                              "help": "early surrender allowed: before the dealer checks for blackjack"}),
    (("--split-hands",), {"type": whole_number(2, 4), "default": 2, "metavar": "N",
                          "help": "the most hands a pair may make: 2 no resplit (default), 3 or 4 (resplits; the "
                                  "exact basic strategy then takes a minute or two)"}),
    (("--resplit-aces",), {"action": "store_true", "help": "aces may be resplit too (with --split-hands 3 or 4)"}),
)


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``shoe`` to the ``casino`` group."""
    parser = subparsers.add_parser(
        "shoe", help="blackjack shoe simulator: cut card, count, bet spread, risk of ruin",
        description="Rounds dealt from a shuffled shoe in the compiled core and played by the exact engine's basic "
                    "strategy for the rules (computed first, a few seconds); the count is kept from the cards "
                    "seen, the bet follows the true count. --penetration 0 reshuffles before every round: the "
                    "flat result is then the exact house edge, shown beside it. The same --seed gives the same "
                    "figures for any --workers. Example: cardlab casino shoe --decks 6 --penetration 0.75 "
                    "--spread 1,2:2,3:4,4:8 --bankroll 400 --rounds 10000000 --seed 1")
    for flags, options in _RULE_OPTIONS:
        parser.add_argument(*flags, **options)
    parser.add_argument("--penetration", type=decimal_number(0, 0.99), default=0.75,
                        help="share of the shoe dealt before the reshuffle, 0 to 0.99 (default 0.75; 0: every round)")
    parser.add_argument("--count", default="hi-lo", metavar="NAME|TAGS",
                        help="the point count: hi-lo (default), hi-opt-i, hi-opt-ii, omega-ii, zen, or ten tags A,2,...,9,T")
    parser.add_argument("--spread", metavar="BET,TC:BET,...",
                        help="the bet by true count, e.g. 1,2:2,3:4,4:8 (1 unit, 2 from a true count of 2, ...); "
                             "default 1 unit always")
    parser.add_argument("--insurance", nargs="?", const=True, type=whole_number(-20, 20), metavar="TC",
                        help="insure against an ace at this true count or more (alone: the count's default, "
                             "+3 for hi-lo); default never")
    parser.add_argument("--indexes", metavar="LIST",
                        help="index plays: i18 (Illustrious 18), fab4 (Fab 4 surrenders) and HANDvUP:INDEX:ACTION "
                             "items, e.g. i18,fab4,16v9:4:stand or 12v4:<0:hit (below the index)")
    parser.add_argument("--bankroll", type=decimal_number(0, 1e12, low_open=True), metavar="UNITS",
                        help="also the risk of ruin of this bankroll (in units)")
    parser.add_argument("--rounds", type=whole_number(1, 10**12), default=1_000_000,
                        help="rounds to play (default 1,000,000; then to the end of each chunk's last shoe)")
    parser.add_argument("--seed", type=seed_value, help="random seed (default: fresh, and printed)")
    parser.add_argument("--workers", type=workers_value, default=available_cores(),
                        help="workers (default: one per core); the result does not depend on it")
    parser.add_argument("--format", choices=("table", "csv", "json"), default="table",
                        help="output format (default: a table; csv: the rows per true count)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    parser.set_defaults(func=_shoe)


def _rules(args: argparse.Namespace) -> Rules:
    from fractions import Fraction

    from cardlab.casino.blackjack_rules import Rules, parse_shoe
    from cardlab.cli.output import about_option

    with about_option("--shoe"):
        composition = parse_shoe(args.shoe) if args.shoe is not None else None
    return Rules(decks=args.decks, h17=args.h17, double=args.double, das=not args.no_das, peek=not args.no_peek,
                 blackjack_pays=Fraction(3, 2) if args.blackjack_pays == "3:2" else Fraction(6, 5),
                 surrender=args.surrender, early_surrender=args.early_surrender, composition=composition,
                 split_hands=args.split_hands, resplit_aces=args.resplit_aces)


def _shoe(args: argparse.Namespace) -> int:
    from cardlab.casino.blackjack_sim import insurance_index, parse_count, parse_indexes, parse_spread, simulate_shoe
    from cardlab.cli.output import about_option, write_result

    rules = _rules(args)
    with about_option("--count"):
        name, _ = parse_count(args.count)
    with about_option("--spread"):
        parse_spread(args.spread)
    with about_option("--insurance"):
        insurance_index(name, args.insurance)
    with about_option("--indexes"):
        parse_indexes(args.indexes)
    result = simulate_shoe(rules, penetration=args.penetration, count=args.count, spread=args.spread,
                           bankroll=args.bankroll, trials=args.rounds, seed=args.seed, workers=args.workers,
                           progress=True, insurance=args.insurance, indexes=args.indexes)
    write_result(args, result)
    return 130 if result.simulation.interrupted else 0
