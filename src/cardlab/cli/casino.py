"""``cardlab casino games`` and ``cardlab casino analyse GAME``: table games, exactly
(:mod:`cardlab.casino`). Parsing and printing only."""

from __future__ import annotations

import argparse

from cardlab.cli.options import decimal_number, seed_value, whole_number

__all__ = ["register", "register_blackjack"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``games`` and ``analyse`` to the ``casino`` group."""
    games = subparsers.add_parser(
        "games", help="list the built-in table games (each a TOML file you can copy and change)",
        description="The built-in table games and the file each is read from. Copy one, change its "
                    "rules or pay tables, and give the copy to 'cardlab casino analyse'. See docs/casino.md.")
    games.set_defaults(func=_games)
    analyse = subparsers.add_parser(
        "analyse", help="house edge, element of risk and optimal strategy of a table game, exactly",
        description="Every deal of a table game counted exactly (suit symmetry, compiled core): the house "
                    "edge, element of risk, standard deviation and hit frequency of each bet, and the "
                    "optimal strategy as a rule. GAME is a built-in game (three-card-poker, let-it-ride, "
                    "mississippi-stud, baccarat, casino-war, caribbean-stud, casino-holdem, ultimate-holdem, texas-holdem-bonus) or a TOML game file (docs/casino.md). "
                    "Example: cardlab casino analyse three-card-poker "
                    "--simulate 1e6 --seed 1")
    analyse.add_argument("game", metavar="GAME", help="a built-in game name or a TOML game file")
    analyse.add_argument("--simulate", type=whole_number(1, 10**9), metavar="DEALS",
                         help="also play DEALS seeded random deals by the same strategy (the second route)")
    analyse.add_argument("--seed", type=seed_value, help="random seed of the simulation (default: fresh, and printed)")
    analyse.add_argument("--ties", choices=("fold", "bet"), default="fold",
                         help="between decisions of equal expectation take the one with less money at risk "
                              "(fold, default) or more (bet): the same house edge, another element of risk")
    analyse.add_argument("--meter", type=decimal_number(0, 10**7), metavar="JACKPOT",
                         help="the jackpot meter of the game's progressive side bet, in units of the bet "
                              "(Caribbean Stud: --meter 250000), in place of the game file's")
    analyse.add_argument("--side-bets", action="store_true",
                         help="only the side bets of Caribbean Stud or a hold'em game (seconds; the main bet "
                              "takes minutes)")
    analyse.add_argument("--format", choices=("table", "csv", "json"), default="table",
                         help="output format (default: an aligned table)")
    analyse.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    analyse.set_defaults(func=_analyse)
    register_blackjack(subparsers)


def _games(args: argparse.Namespace) -> int:
    from cardlab.casino.game import builtin_games, game_file, load_game
    from cardlab.cli.output import write_text

    lines = [f"{name:<20} {load_game(name).name:<24} {game_file(name)}" for name in builtin_games()]
    write_text(args, "\n".join(lines) + "\n")
    return 0


def _analyse(args: argparse.Namespace) -> int:
    from cardlab.casino.analysis import analyse
    from cardlab.cli.output import write_result

    write_result(args, analyse(args.game, simulate=args.simulate, seed=args.seed, ties=args.ties, meter=args.meter,
                               side_bets_only=args.side_bets))
    return 0


def register_blackjack(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``blackjack`` to the ``casino`` group."""
    from cardlab.cli.output import add_output_options

    parser = subparsers.add_parser(
        "blackjack", help="blackjack by combinatorial analysis: basic strategy and exact house edges",
        description="The exact house edge of basic strategy and of the composition-dependent strategy "
                    "for the rules given, and the basic strategy table (H hit, S stand, D double else hit, "
                    "Ds double else stand, P split, R surrender). Splits exact for a stated post-split "
                    "strategy, resplits with --split-hands (docs/casino.md). Example: cardlab casino blackjack --decks 6 --h17 --surrender")
    parser.add_argument("--decks", type=whole_number(1, 8), default=6, help="decks in the shoe, 1 to 8 (default 6)")
    parser.add_argument("--shoe", metavar="A,2,...,9,T", help="any shoe: ten counts of A, 2, ..., 9 and ten-valued cards (replaces --decks)")
    parser.add_argument("--h17", action="store_true", help="the dealer hits soft 17 (default: stands)")
    parser.add_argument("--double", choices=("any", "9-11", "10-11"), default="any", help="which first two cards may double (default any)")
    parser.add_argument("--no-das", action="store_true", help="no doubling after a split")
    parser.add_argument("--no-peek", action="store_true", help="no hole card: a dealer blackjack takes doubles and splits too")
    parser.add_argument("--blackjack-pays", choices=("3:2", "6:5"), default="3:2", help="what a blackjack pays (default 3:2)")
    parser.add_argument("--surrender", action="store_true", help="late surrender allowed")
    parser.add_argument("--early-surrender", action="store_true",
                        help="early surrender allowed: before the dealer checks for blackjack (matters against a ten or an ace)")
    parser.add_argument("--split-hands", type=whole_number(2, 4), default=2, metavar="N",
                        help="the most hands a pair may make: 2 no resplit (default), 3 or 4 (resplits; slower)")
    parser.add_argument("--resplit-aces", action="store_true", help="aces may be resplit too (with --split-hands 3 or 4)")
    parser.add_argument("--post-split", choices=("cdp1", "cdz"), default="cdp1",
                        help="how split hands are played by the composition-dependent strategy: cdp1 best for the hand's "
                             "cards with both pair cards out (default), cdz the pre-split best play")
    parser.add_argument("--removal", action="store_true",
                        help="also the effects of removal: the player's expectation when one card of each rank is out (ten more analyses)")
    parser.add_argument("--hands", action="store_true",
                        help="also every first hand's exact value of stand, hit, double, surrender, split and the best (the CSV then lists these)")
    parser.add_argument("--count", metavar="NAME|A,2,...,9,T",
                        help="also a counting system's betting correlation, insurance correlation and playing efficiency: "
                             "hi-lo, hi-opt-i, hi-opt-ii, omega-ii, zen or ten whole-number tags (implies --removal; "
                             "about ten more analyses for the playing efficiency)")
    add_output_options(parser, plot=False)
    parser.set_defaults(func=_blackjack)


def _blackjack(args: argparse.Namespace) -> int:
    from fractions import Fraction

    from cardlab.casino.blackjack import analyse
    from cardlab.casino.blackjack_rules import Rules, parse_shoe
    from cardlab.cli.output import about_option, write_result

    with about_option("--shoe"):
        composition = parse_shoe(args.shoe) if args.shoe is not None else None
    rules = Rules(decks=args.decks, h17=args.h17, double=args.double, das=not args.no_das, peek=not args.no_peek,
                  blackjack_pays=Fraction(3, 2) if args.blackjack_pays == "3:2" else Fraction(6, 5),
                  surrender=args.surrender, early_surrender=args.early_surrender, composition=composition,
                  split_hands=args.split_hands,
                  resplit_aces=args.resplit_aces, post_split=args.post_split)
    count = None
    if args.count is not None:
        from cardlab.casino.blackjack_sim import parse_count

        with about_option("--count"):
            count = parse_count(args.count)
    result = analyse(rules, removal=args.removal or count is not None, hands=args.hands)
    if count is not None and result.removal is not None:
        from dataclasses import replace

        from cardlab.casino.blackjack_efficiency import count_figures

        result = replace(result, count=count_figures(rules, *count, result.removal))
    write_result(args, result)
    return 0
