"""``cardlab casino games`` and ``cardlab casino analyse GAME``: table games, exactly
(:mod:`cardlab.casino`). Parsing and printing only."""

from __future__ import annotations

import argparse

from cardlab.cli.options import seed_value, whole_number

__all__ = ["register"]


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
                    "mississippi-stud, baccarat, casino-war) or a TOML game file (docs/casino.md). Example: cardlab casino analyse three-card-poker "
                    "--simulate 1e6 --seed 1")
    analyse.add_argument("game", metavar="GAME", help="a built-in game name or a TOML game file")
    analyse.add_argument("--simulate", type=whole_number(1, 10**9), metavar="DEALS",
                         help="also play DEALS seeded random deals by the same strategy (the second route)")
    analyse.add_argument("--seed", type=seed_value, help="random seed of the simulation (default: fresh, and printed)")
    analyse.add_argument("--ties", choices=("fold", "bet"), default="fold",
                         help="between decisions of equal expectation take the one with less money at risk "
                              "(fold, default) or more (bet): the same house edge, another element of risk")
    analyse.add_argument("--format", choices=("table", "csv", "json"), default="table",
                         help="output format (default: an aligned table)")
    analyse.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    analyse.set_defaults(func=_analyse)


def _games(args: argparse.Namespace) -> int:
    from cardlab.casino.game import builtin_games, game_file, load_game
    from cardlab.cli.output import write_text

    lines = [f"{name:<20} {load_game(name).name:<24} {game_file(name)}" for name in builtin_games()]
    write_text(args, "\n".join(lines) + "\n")
    return 0


def _analyse(args: argparse.Namespace) -> int:
    from cardlab.casino.analysis import analyse
    from cardlab.cli.output import write_result

    write_result(args, analyse(args.game, simulate=args.simulate, seed=args.seed, ties=args.ties))
    return 0
