"""``cardlab poker video PAYTABLE``: the exact return of a video poker pay table under optimal play.

Parsing and printing only; the work is in :mod:`cardlab.casino.video`.
"""

from __future__ import annotations

import argparse
import sys

from cardlab.cli.cluster_option import add_cluster_option, executor_for
from cardlab.cli.options import seed_value, trials, whole_number, workers_value
from cardlab.cli.output import replacing, write_result
from cardlab.cores import available_cores
from cardlab.errors import CardlabError

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``video`` to the ``poker`` group."""
    video = subparsers.add_parser(
        "video", help="video poker: exact return of a pay table under optimal play",
        description="The exact return of a video poker pay table when every dealt hand is held the "
                    "best way: the combination table, variance, hit frequency and hands per royal; "
                    "with --hand, the 32 holds of one dealt hand ranked by exact expected value. "
                    "PAYTABLE is a built-in game (jacks-or-better-9-6, jacks-or-better-8-5, "
                    "tens-or-better-6-5, bonus-poker-8-5, double-bonus-10-7, double-double-bonus-9-6, "
                    "deuces-wild-full-pay, joker-poker-kings-or-better) or a TOML file (docs/video.md). "
                    "Example: cardlab poker video jacks-or-better-9-6 --hand 'Ah Kh Qh Jh 2c'")
    video.add_argument("paytable", metavar="PAYTABLE", help="a built-in game name or a TOML pay table file")
    video.add_argument("--hand", metavar="CARDS", help="one dealt hand of 5 cards ('Jk' for a joker): rank its 32 holds")
    video.add_argument("--deck", metavar="DECK",
                       help="the deck: 'standard' (default), 'short' (6-A), ranks such as '9-A' or '9TJQKA' "
                            "(all four suits of those ranks), or an exact list of cards")
    video.add_argument("--remove", metavar="CARDS", help="cards taken out of the deck, e.g. 'Ts Jh'")
    video.add_argument("--decks", type=whole_number(1, 1000), default=1, metavar="N", help="N decks shuffled together")
    video.add_argument("--jokers", type=whole_number(0, 2), help="jokers in the deck (default: the game's)")
    video.add_argument("--wild", choices=("deuces", "none"), help="wild deuces (default: the game's)")
    video.add_argument("--ties", choices=("steady", "volatile"), default="steady",
                       help="between holds of equal expected pay, play the less (default) or more volatile")
    video.add_argument("--simulate", type=trials, metavar="HANDS",
                       help="also play HANDS random hands under the computed strategy")
    video.add_argument("--seed", type=seed_value, help="random seed of the simulation (default: fresh, and printed)")
    video.add_argument("--workers", type=workers_value, default=available_cores(),
                       help="processes for the simulation (default: one per core); the result does not depend on it")
    video.add_argument("--format", choices=("table", "csv", "json"), default="table",
                       help="output format (default: an aligned table)")
    video.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    video.add_argument("--plot", metavar="FILE.png",
                       help="also draw the return contribution of each outcome (the EV of the best holds "
                            "with --hand) as a PNG picture")
    add_cluster_option(video)
    video.set_defaults(func=_video)


def _video(args: argparse.Namespace) -> int:
    from cardlab.casino.video import analyse, hold_values, parse_deck
    from cardlab.casino.video_result import HandAnalysis, VideoAnalysis

    deck = parse_deck(args.deck, decks=args.decks, remove=args.remove)
    result: HandAnalysis | VideoAnalysis
    if args.hand is not None:
        if args.simulate is not None:
            raise CardlabError("--simulate plays the whole game: it cannot be combined with --hand")
        result = hold_values(args.paytable, args.hand, deck, jokers=args.jokers, wild=args.wild)
    else:
        result = analyse(args.paytable, deck, jokers=args.jokers, wild=args.wild, trials=args.simulate,
                         seed=args.seed, workers=args.workers, progress=args.simulate is not None,
                         executor=executor_for(args) if args.simulate is not None else None, ties=args.ties)
    write_result(args, result)
    if args.plot:
        with replacing(args.plot, whole=True) as temporary:
            result.plot(temporary)
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 130 if isinstance(result, VideoAnalysis) and result.interrupted else 0
