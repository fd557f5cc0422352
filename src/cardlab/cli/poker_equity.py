"""``cardlab poker equity``: all-in equity of hands and ranges, exact or simulated.

Parsing and printing only; the work is :func:`cardlab.poker.equity.equity`.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cardlab.cli.cluster_option import add_cluster_option, executor_for
from cardlab.cli.options import seed_value, trials, whole_number, workers_value
from cardlab.cli.output import replacing, write_result
from cardlab.cores import available_cores

if TYPE_CHECKING:
    from cardlab.poker.equity_result import EquityResult

__all__ = ["register", "GAME_NAMES"]

#: ``--game`` choices: the keys of :data:`cardlab.poker.equity.GAMES`, named here so that parsing
#: the options imports no numpy (a test checks that the two agree).
GAME_NAMES = ("holdem", "omaha", "omaha5", "omaha6", "shortdeck")

#: the games of :mod:`cardlab.poker.games` (stud, razz, lowball, badugi): no board
OTHER_GAMES = ("stud", "stud8", "razz", "27", "a5", "badugi")


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``equity`` to the ``poker`` group."""
    cmd = subparsers.add_parser(
        "equity", help="how often each hand or range wins: exact or simulated equity",
        description="Win, tie and equity of each player's hand or hold'em range, all in on any street. "
                    "Exact (every board) unless --simulate. Examples: cardlab poker equity AsAh KdKc; "
                    "cardlab poker equity AKs 'QQ+, AKo' --board 'Kh 7d 2c'; "
                    "cardlab poker equity 'As Ah Kd Qc' 'Js Ts 9h 8h' --game omaha --hi-lo")
    cmd.add_argument("specs", nargs="+", metavar="SPEC",
                     help="a hand (AsAh; 'As Ah Kd Qc' for Omaha) or a hold'em range (QQ+, AKs, A5s-A2s, "
                          "22-55, 0.5(AKo), top 15%%, random)")
    cmd.add_argument("--board", default="", metavar="CARDS", help="known board cards (0, 3, 4 or 5)")
    cmd.add_argument("--dead", default="", metavar="CARDS", help="cards out of play")
    cmd.add_argument("--game", choices=GAME_NAMES + OTHER_GAMES, default="holdem",
                     help="holdem (default), omaha (4 cards), omaha5, omaha6, shortdeck (36 cards, six-plus rules); "
                          "stud, stud8 (hi-lo), razz: starting hands of 3 to 7 cards ('As 2d 3c', razz also "
                          "'A23'); 27, a5 (lowball, 5 cards), badugi (4 cards): drawing hands, simulated "
                          "(docs/games.md)")
    cmd.add_argument("--draws", type=whole_number(0, 3), metavar="N",
                     help="draw games: 0 (showdown of the hands as dealt), 1 (single draw) or 3 (triple draw, "
                          "the default)")
    cmd.add_argument("--hi-lo", action="store_true", help="split each pot with the best 8-or-better low")
    cmd.add_argument("--simulate", type=trials, metavar="TRIALS",
                     help="simulate TRIALS random boards instead of enumerating them all")
    cmd.add_argument("--seed", type=seed_value, help="random seed of the simulation (default: fresh, and printed)")
    cmd.add_argument("--workers", type=workers_value, default=available_cores(),
                     help="processes for the simulation (default: one per core); the result does not depend on it")
    cmd.add_argument("--format", choices=("table", "csv", "json"), default="table", help="output format")
    cmd.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    cmd.add_argument("--plot", metavar="FILE.png", help="also draw the equities (and the 13x13 grid) as a PNG")
    add_cluster_option(cmd)
    cmd.set_defaults(func=_equity)


def _equity(args: argparse.Namespace) -> int:
    from cardlab.errors import CardlabError

    if args.game in OTHER_GAMES:
        from cardlab.poker.games import game_equity

        if args.board or args.hi_lo:
            raise CardlabError(f"--game {args.game} has no board and its own split rules: "
                               "--board and --hi-lo are for hold'em and Omaha")
        if args.plot:
            raise CardlabError("--plot is for hold'em and Omaha equity")
        result = game_equity(args.specs, args.game, args.dead, draws=args.draws, trials=args.simulate,
                             seed=args.seed, workers=args.workers, progress=bool(args.simulate),
                             executor=executor_for(args))
    else:
        if args.draws is not None:
            raise CardlabError("--draws is for the draw games (27, a5, badugi)")
        from cardlab.cli.suggest import read_as_note

        for note in filter(None, (read_as_note(spec, args.game) for spec in args.specs)):
            print(f"cardlab: note: {note}", file=sys.stderr)
        result = _board_equity(args)
    write_result(args, result)
    if args.plot:
        with replacing(args.plot, whole=True) as temporary:
            result.plot(temporary)
        print(f"plot written to {args.plot}", file=sys.stderr)
    interrupted = result.simulation is not None and result.simulation.interrupted
    return 130 if interrupted else 0


def _board_equity(args: argparse.Namespace) -> "EquityResult":
    from cardlab.poker.equity import equity

    return equity(args.specs, board=args.board, dead=args.dead, game=args.game, hi_lo=args.hi_lo,
                  trials=args.simulate, seed=args.seed, workers=args.workers,
                  progress=bool(args.simulate), executor=executor_for(args))
