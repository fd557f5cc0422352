"""``cardlab poker compare|rank|odds``: poker hands from the command line.

Parsing and printing only; the work is in :mod:`cardlab.poker`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardlab.cli.options import whole_number
from cardlab.cli.output import replacing
from cardlab.cli.cluster_option import add_cluster_option, executor_for
from cardlab.cli.output import add_output_options, add_simulation_options, emit, write_result
from cardlab.errors import CardlabError, HandError

if TYPE_CHECKING:
    from cardlab.poker.rules import Rules

__all__ = ["register"]

#: the games of :mod:`cardlab.poker.games` (named here so parsing imports no numpy; a test
#: checks that the two agree)
OTHER_GAMES = ("stud", "stud8", "razz", "27", "a5", "badugi")

_HAND_HELP = "a hand of 5, 6 or 7 cards such as 'As Ks Qs Js Ts' or 'AsKsQsJsTs'"


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the poker commands to the ``poker`` group."""
    cmp = subparsers.add_parser(
        "compare", help="which hand wins, and why",
        description="Compare two or more hands (best five of 5-7 cards each): the winner or a tie, "
                    "with the categories and the deciding cards. Example: cardlab poker compare "
                    "'Ah Ad 8c 8s Kd' 'As Ac 8h 8d Qc'")
    cmp.add_argument("hands", nargs="+", metavar="HAND", help=_HAND_HELP)
    cmp.add_argument("--format", choices=("table", "json"), default="table",
                     help="output format (default: a line per hand, then the reason)")
    cmp.add_argument("--game", choices=("high",) + OTHER_GAMES, default="high",
                     help="high (default, 5-7 cards); stud, stud8 (high and 8-or-better low), razz (5-7 "
                          "cards); 27, a5 (5 cards); badugi (4 cards). Example: cardlab poker compare "
                          "--game razz 'As 2d 3c 4h 6s 9c 9d' '2c 3d 4s 5h 7c Kd Kh'")
    _add_output_file(cmp)
    _add_rule_options(cmp)
    cmp.set_defaults(func=_compare)

    rank = subparsers.add_parser(
        "rank", help="category and strength of each hand",
        description="One line per hand: its cards, category and strength (higher is better, equal "
                    "strengths tie). Hands come from the arguments or a file with one hand per line.")
    rank.add_argument("hands", nargs="*", metavar="HAND", help=_HAND_HELP)
    rank.add_argument("--file", metavar="FILE", help="read hands from FILE, one per line ('-' = stdin)")
    rank.add_argument("--format", choices=("table", "csv", "json"), default="table",
                      help="output format (default: an aligned table)")
    _add_output_file(rank)
    _add_rule_options(rank)
    rank.set_defaults(func=_rank)

    odds = subparsers.add_parser(
        "odds", help="probability of each poker hand, exact and simulated",
        description="Exact number and probability of each category for a hand drawn from a deck "
                    "(cards removed, short deck, several decks) or spun on a reel machine; with "
                    "--simulate, simulated beside exact with 95% intervals. Example: cardlab poker "
                    "odds --simulate 10000000 --seed 1")
    odds.add_argument("--cards", type=whole_number(4, 8), default=None,
                      help="cards in the hand, 5, 6 or 7; the best five count (default 5); --game a5 "
                           "5 to 8, 27 5, badugi 4 (its default), stud, stud8 and razz 5 to 7 (default 7)")
    odds.add_argument("--remove", metavar="CARDS", help="cards taken out of the deck, e.g. 'Ts Jh' (with --hand: "
                                                        "the dead cards)")
    odds.add_argument("--short-deck", action="store_true",
                      help="36-card deck 6..A; A-6-7-8-9 is the lowest straight, a flush beats a full house")
    odds.add_argument("--decks", type=whole_number(1, 1000), default=1, metavar="N",
                      help="N decks shuffled together, 1 to 1000 (cards repeat; five of a kind appears)")
    odds.add_argument("--game", choices=("high",) + OTHER_GAMES, default="high",
                      help="high (default): poker categories; razz: ace-to-five low categories (5-high .. "
                           "king-high, paired); stud (7-card high), stud8 (the 8-or-better low), a5 "
                           "(ace-to-five lowball), 27 (deuce-to-seven), badugi (4 cards): every hand "
                           "counted exactly (docs/games.md)")
    odds.add_argument("--hand", metavar="CARDS",
                      help="stud, stud8 and razz: the final categories of this starting hand (e.g. 'As 2d 3c', "
                           "or A23 in razz and stud8) after seven cards; --remove gives the dead cards")
    odds.add_argument("--reels", metavar="FILE",
                      help="a reel machine: one reel per line, cards separated by spaces; a hand is one "
                           "card from each reel")
    add_output_options(odds)
    add_simulation_options(odds)
    add_cluster_option(odds)
    odds.set_defaults(func=_odds)


def _add_output_file(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--short-deck", action="store_true",
                        help="short-deck rules (cards 6..A, A-6-7-8-9 lowest straight, flush beats full house)")
    parser.add_argument("--repeats", action="store_true",
                        help="allow a card twice in a hand (several decks, reels)")


def _rules(args: argparse.Namespace) -> Rules:
    from cardlab.poker.rules import SHORT_DECK, STANDARD

    return SHORT_DECK if args.short_deck else STANDARD


def _compare(args: argparse.Namespace) -> int:
    if args.game != "high":
        from cardlab.poker.games import compare_hands

        if args.short_deck or args.repeats:
            raise CardlabError(f"--game {args.game} is played with one standard deck: no --short-deck or --repeats")
        write_result(args, compare_hands(args.hands, args.game))
        return 0
    from cardlab.poker.comparison import compare

    result = compare(args.hands, _rules(args), repeats=args.repeats)
    write_result(args, result)
    return 0


def _rank(args: argparse.Namespace) -> int:
    from cardlab.poker.ranking import rank_hands

    if args.file and args.hands:
        raise CardlabError("give hands as arguments or with --file, not both")
    hands: Any = args.hands
    if args.file == "-":
        hands = sys.stdin.buffer
    elif args.file:
        hands = Path(args.file)
    elif not args.hands:
        raise HandError("give one or more hands, or --file FILE")
    ranked = rank_hands(hands, _rules(args), repeats=args.repeats, name="stdin" if args.file == "-" else None)
    if args.output in (None, "-"):
        ranked.write(sys.stdout, args.format)
    else:
        with replacing(args.output) as temporary:
            ranked.write(temporary, args.format)
    return 0


def _odds(args: argparse.Namespace) -> int:
    from cardlab.poker.odds import poker_odds

    if args.hand is not None:
        if args.game not in ("stud", "stud8", "razz") or args.cards is not None or args.simulate:
            raise CardlabError("--hand is for --game stud, stud8 or razz (seven cards; --remove the dead cards)")
        from cardlab.poker.games import completion_odds

        return emit(args, completion_odds(args.hand, args.game, args.remove or ""))
    if args.game != "high":
        if args.short_deck or args.decks != 1 or args.reels or args.simulate:
            raise CardlabError(f"--game {args.game} counts hands of one deck exactly: it takes only --cards and "
                               "--remove")
        if args.game == "razz" and not args.remove:
            from cardlab.poker.lowball import razz_odds

            return emit(args, razz_odds(5 if args.cards is None else args.cards))
        from cardlab.poker.games import game_odds

        return emit(args, game_odds(args.game, args.cards, args.remove or ""))
    if args.cards in (4, 8):
        raise CardlabError(f"--cards {args.cards} is for --game {'badugi' if args.cards == 4 else 'a5'}; a poker "
                           "hand has 5, 6 or 7 cards")

    if args.reels is not None:
        if args.remove or args.decks != 1 or args.cards is not None:
            raise CardlabError("--reels sets the cards itself: it cannot be combined with --remove, --decks or --cards")
        from cardlab.casino.reels import reel_odds
        from cardlab.poker.rules import SHORT_DECK, STANDARD

        return emit(args, reel_odds(args.reels, SHORT_DECK if args.short_deck else STANDARD, trials=args.simulate,
                                    seed=args.seed, workers=args.workers, progress=True, executor=executor_for(args)))
    return emit(args, poker_odds(5 if args.cards is None else args.cards, remove=args.remove, short_deck=args.short_deck, decks=args.decks,
                                 trials=args.simulate, seed=args.seed, workers=args.workers,
                                 progress=True, executor=executor_for(args)))
