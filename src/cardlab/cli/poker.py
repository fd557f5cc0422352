"""``cardlab poker compare|rank|odds``: poker hands from the command line.

Parsing and printing only; the work is in :mod:`cardlab.poker`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from cardlab.cards import format_cards
from cardlab.cli.cluster_option import add_cluster_option, executor_for
from cardlab.cli.output import add_output_options, add_simulation_options, emit, positive_int
from cardlab.dealing import Deck, Draw
from cardlab.distribution import Distribution
from cardlab.engine import exact, simulate
from cardlab.errors import CardlabError, HandError, TooLargeError
from cardlab.poker.comparison import compare, hand_value
from cardlab.poker.evaluator import parse_hand, strengths
from cardlab.poker.kernel import category_codes
from cardlab.poker.odds import PokerCategory
from cardlab.dealing import Reels
from cardlab.poker.rules import SHORT_DECK, STANDARD, Category, Rules

__all__ = ["register"]

_HAND_HELP = "a hand of 5, 6 or 7 cards such as 'As Ks Qs Js Ts' or 'AsKsQsJsTs'"


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the poker commands to the ``poker`` group."""
    cmp = subparsers.add_parser(
        "compare", help="which hand wins, and why",
        description="Compare two or more hands (best five of 5-7 cards each): the winner or a tie, "
                    "with the categories and the deciding cards. Example: cardlab poker compare "
                    "'Ah Ad 8c 8s Kd' 'As Ac 8h 8d Qc'")
    cmp.add_argument("hands", nargs="+", metavar="HAND", help=_HAND_HELP)
    _add_rule_options(cmp)
    cmp.set_defaults(func=_compare)

    rank = subparsers.add_parser(
        "rank", help="category and strength of each hand",
        description="One line per hand: its cards, category and strength (higher is better, equal "
                    "strengths tie). Hands come from the arguments or a file with one hand per line.")
    rank.add_argument("hands", nargs="*", metavar="HAND", help=_HAND_HELP)
    rank.add_argument("--file", metavar="FILE", help="read hands from FILE, one per line ('-' = stdin)")
    rank.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    _add_rule_options(rank)
    rank.set_defaults(func=_rank)

    odds = subparsers.add_parser(
        "odds", help="probability of each poker hand, exact and simulated",
        description="Exact number and probability of each category for a hand drawn from a deck "
                    "(cards removed, short deck, several decks) or spun on a reel machine; with "
                    "--simulate, simulated beside exact with 95%% intervals. Example: cardlab poker "
                    "odds --simulate 10000000 --seed 1")
    odds.add_argument("--cards", type=int, choices=(5, 6, 7), default=5,
                      help="cards in the hand; the best five count (default 5)")
    odds.add_argument("--remove", metavar="CARDS", help="cards taken out of the deck, e.g. 'Ts Jh'")
    odds.add_argument("--short-deck", action="store_true",
                      help="36-card deck 6..A; A-6-7-8-9 is the lowest straight, a flush beats a full house")
    odds.add_argument("--decks", type=positive_int, default=1, metavar="N",
                      help="N decks shuffled together (cards repeat; five of a kind appears)")
    odds.add_argument("--reels", metavar="FILE",
                      help="a reel machine: one reel per line, cards separated by spaces; a hand is one "
                           "card from each reel")
    add_output_options(odds)
    add_simulation_options(odds)
    add_cluster_option(odds)
    odds.set_defaults(func=_odds)


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--short-deck", action="store_true",
                        help="short-deck rules (cards 6..A, A-6-7-8-9 lowest straight, flush beats full house)")
    parser.add_argument("--repeats", action="store_true",
                        help="allow a card twice in a hand (several decks, reels)")


def _rules(args: argparse.Namespace) -> Rules:
    return SHORT_DECK if args.short_deck else STANDARD


def _compare(args: argparse.Namespace) -> int:
    result = compare(args.hands, _rules(args), repeats=args.repeats)
    for n, value in enumerate(result.hands, 1):
        mark = "*" if n - 1 in result.winners else " "
        print(f"{mark} hand {n}: {value.text:<20}  best {format_cards(value.best)}  "
              f"{value.category.key:<15}  {value.describe()}")
    print(result.reason)
    return 0


def _read_hands(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(where, text) per hand: 'argument 2' or 'line 7'."""
    if args.file and args.hands:
        raise CardlabError("give hands as arguments or with --file, not both")
    if args.file:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        name = "stdin" if args.file == "-" else Path(args.file).name
        lines = [(f"{name}: line {i}", line.split("#", 1)[0].strip())
                 for i, line in enumerate(text.splitlines(), 1)]
        hands = [(where, line) for where, line in lines if line]
        if not hands:
            raise HandError(f"no hands in '{args.file}'")
        return hands
    if not args.hands:
        raise HandError("give one or more hands, or --file FILE")
    return [(f"hand {i}", h) for i, h in enumerate(args.hands, 1)]


def _rank(args: argparse.Namespace) -> int:
    rules = _rules(args)
    hands = _read_hands(args)
    ids: list[list[int]] = []
    for where, text in hands:
        try:
            ids.append(parse_hand(text, repeats=args.repeats))
            if rules is SHORT_DECK:
                hand_value(ids[-1], rules)
        except CardlabError as error:
            raise HandError(f"{where}: {error}") from None
    values: list[int] = [0] * len(ids)
    for k in {len(i) for i in ids}:  # one vectorised call per hand size
        rows = [n for n, i in enumerate(ids) if len(i) == k]
        got = strengths(np.array([ids[n] for n in rows], dtype=np.uint8), rules)
        for n, s in zip(rows, got):
            values[n] = int(s)
    cats = category_codes(np.array(values, dtype=np.int64), rules)
    out: list[dict[str, Any]] = [{"hand": format_cards(i), "category": Category(int(c)).key, "strength": s}
           for i, c, s in zip(ids, cats, values)]
    if args.format == "json":
        print(json.dumps(out, indent=2))
    else:
        width = max(len(r["hand"]) for r in out)
        for r in out:
            print(f"{r['hand']:<{width}}  {r['category']:<15}  {r['strength']}")
    return 0


def _odds(args: argparse.Namespace) -> int:
    rules = _rules(args)
    dealing: Any
    if args.reels:
        if args.remove or args.decks != 1:
            raise CardlabError("--reels sets the cards itself: it cannot be combined with --remove or --decks")
        dealing = Reels.read(args.reels)
        what = f"one card from each of {dealing.k} reels ({Path(args.reels).name})"
    else:
        deck = Deck.short(decks=args.decks) if args.short_deck else Deck.standard(decks=args.decks)
        if args.remove:
            deck = deck.remove(args.remove)
        dealing = Draw(deck, args.cards)
        what = f"{args.cards} cards from {_deck_words(args, deck)}"
    if rules is SHORT_DECK and isinstance(dealing, Reels):
        for reel in dealing.reels:
            for card in reel:
                if card // 4 < rules.lowest_rank:
                    raise HandError(f"card {format_cards([card])} on the reels is not in the short deck")
    feature = PokerCategory(rules)
    title = f"poker hands, {what}" + (", short-deck rules" if rules is SHORT_DECK else "")
    try:
        dist = exact(dealing, feature)
    except TooLargeError:
        if not args.simulate:
            raise
        alone = simulate(dealing, feature, args.simulate, seed=args.seed, workers=args.workers,
                         progress=True, executor=executor_for(args))
        print("cardlab: exact odds are too large to count here; showing the simulation alone",
              file=sys.stderr)
        return emit(args, alone, title=title, value_key="category")
    sim: Distribution | None = None
    if args.simulate:
        sim = simulate(dealing, feature, args.simulate, seed=args.seed, workers=args.workers,
                       progress=True, executor=executor_for(args))
    return emit(args, dist, title=title, simulated=sim, value_key="category")


def _deck_words(args: argparse.Namespace, deck: Deck) -> str:
    base = "the short deck" if args.short_deck else "a standard deck"
    if args.decks > 1:
        base = f"{args.decks} {'short' if args.short_deck else 'standard'} decks"
    if args.remove:
        base += f" without {args.remove}"
    return f"{base} ({deck.size} cards)"
