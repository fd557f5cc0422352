"""``cardlab club ...``: the director's commands (docs/club.md).

``club movement`` makes a movement and prints or exports it, ``club cards`` writes table or
guide cards, ``club check`` checks a ``.bws`` session against its own movement, ``club live``
keeps a results site up to date while a results file fills.  Scoring a ``.bws`` is
``cardlab bridge score FILE.bws``, where every results file is scored.  Parsing and printing
only: the work is :mod:`cardlab.club`'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cardlab.cli.options import decimal_number, whole_number
from cardlab.cli.output import write_text
from cardlab.errors import MovementError

__all__ = ["register"]


def _movement_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=["mitchell", "howell", "appendix"],
                        help="the movement (appendix: a Mitchell with appendix tables sharing "
                             "boards)")
    parser.add_argument("tables", type=whole_number(1, 60), metavar="TABLES",
                        help="number of tables")
    parser.add_argument("--rounds", type=whole_number(1, 120), help="rounds played (default: all; fewer for a "
                                                   "three-quarter Howell)")
    parser.add_argument("--boards", type=whole_number(1, 12), default=2, metavar="N",
                        help="boards a round (default 2)")
    parser.add_argument("--even", choices=["skip", "relay"],
                        help="an even-table Mitchell: EW skip a table half way, or a relay and "
                             "bye stand")
    parser.add_argument("--arrow-switch", default="", metavar="ROUNDS",
                        help="Mitchell rounds played arrow-switched, e.g. 11,12")


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the club commands to ``subparsers``."""
    move = subparsers.add_parser(
        "movement", help="make a movement (Mitchell, Howell) and check, print or export it",
        description="Make a Mitchell or Howell movement, check it by brute force, and print it "
                    "or export it (EBUScore movement CSV, Bridgemate RoundData CSV, JSON).")
    _movement_options(move)
    move.add_argument("--format", choices=["table", "json", "ebuscore", "rounddata"],
                      default="table", help="output format (default table)")
    move.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE")
    move.set_defaults(func=_run_movement)

    cards = subparsers.add_parser(
        "cards", help="printable table cards or guide cards (HTML, A4 or Letter)",
        description="Table cards (per table: rounds, pairs, boards) or guide cards (per pair: "
                    "round, table, direction, boards) as one printable HTML page.")
    _movement_options(cards)
    cards.add_argument("--guide", action="store_true", help="guide cards (default: table cards)")
    cards.add_argument("--event", default="", help="the event's name, printed on every card")
    cards.add_argument("--paper", choices=["a4", "letter"], default="a4", help="paper (default a4)")
    cards.add_argument("--per-sheet", type=whole_number(1, 4), default=None,
                       help="cards a sheet (default 1 table card, 2 guide cards)")
    cards.add_argument("-o", "--output", metavar="FILE", help="write the page to FILE")
    cards.set_defaults(func=_run_cards)

    check = subparsers.add_parser(
        "check", help="check a Bridgemate .bws session against its own movement",
        description="Read the movement (RoundData) of a .bws and every result, and name each "
                    "pair on a wrong board or in a wrong seat, and each board with no result.")
    check.add_argument("file", metavar="FILE.bws", help="Bridgemate session database")
    check.set_defaults(func=_run_check)

    live = subparsers.add_parser(
        "live", help="keep a results site up to date while a results file fills",
        description="Watch a .bws (or any results file bridge score reads) and rewrite the "
                    "results site whenever it changes: complete boards scored, standings "
                    "marked provisional until every board is in.  Ctrl-C stops it; the site "
                    "is always whole.")
    live.add_argument("file", metavar="FILE", help="results file to watch")
    live.add_argument("-o", "--output", metavar="DIR", required=True,
                      help="the folder the site is written to")
    live.add_argument("--interval", type=decimal_number(0.1, 60), default=0.5, metavar="SECONDS",
                      help="how often the file is looked at (0.1 to 60, default 0.5)")
    live.add_argument("--title", help="event title for the page")
    live.add_argument("--once", action="store_true", help="publish once and stop")
    live.set_defaults(func=_run_live, output_may_be_folder=True)


def _plan(args: argparse.Namespace) -> Any:
    from cardlab.club.movement import howell, mitchell

    arrows = []
    for word in filter(None, (w.strip() for w in args.arrow_switch.split(","))):
        if not word.isdigit() or len(word) > 4:
            raise MovementError(f"--arrow-switch takes round numbers such as 11,12, not {word!r}")
        arrows.append(int(word))
    if args.kind != "mitchell" and (args.even or arrows):
        raise MovementError("--even and --arrow-switch are for a Mitchell")
    if args.kind == "appendix":
        from cardlab.club.appendix import appendix_mitchell

        return appendix_mitchell(args.tables, args.rounds, args.boards)
    if args.kind == "howell":
        return howell(args.tables, args.rounds, args.boards)
    return mitchell(args.tables, args.rounds, args.boards, even=args.even, arrow_rounds=arrows)


def _run_movement(args: argparse.Namespace) -> int:
    plan = _plan(args)
    problems = plan.problems()
    if args.format == "json":
        text = plan.to_json() + "\n"
    elif args.format == "ebuscore":
        text = plan.to_ebuscore() + "\n"
    elif args.format == "rounddata":
        text = plan.round_data_csv()
    else:
        text = _movement_table(plan)
    write_text(args, text)
    for problem in problems:
        print(f"cardlab: note: {problem}", file=sys.stderr)
    return 1 if problems else 0


def _movement_table(plan: Any) -> str:
    balance = plan.balance()
    lines = [f"{plan.name}: {plan.tables} tables, {plan.rounds} rounds, {plan.boards} boards "
             f"({plan.boards_per_round} a round)",
             "Round  Table  NS      EW      Boards"]
    for s in sorted(plan.seatings, key=lambda s: (s.round, s.table)):
        boards = plan.board_numbers(s.board_set)
        name = [f"{k[1]}{k[0] or ''}" for k in (s.ns, s.ew)]
        lines.append(f"{s.round:>5}  {s.table:>5}  {name[0]:<6}  {name[1]:<6}  "
                     f"{boards[0]}-{boards[-1]}")
    lines.append(f"Balance: comparisons between two pairs {balance['fewest']:g} to "
                 f"{balance['most']:g}, mean {balance['mean']:g} ({balance['balance']:.0%} of "
                 "the mean at the fewest)")
    return "\n".join(lines) + "\n"


def _run_cards(args: argparse.Namespace) -> int:
    from cardlab.club.cards import guide_cards, table_cards

    plan = _plan(args)
    if args.guide:
        page = guide_cards(plan, args.event, paper=args.paper, per_sheet=args.per_sheet or 2)
    else:
        page = table_cards(plan, args.event, paper=args.paper, per_sheet=args.per_sheet or 1)
    write_text(args, page)
    return 0


def _run_check(args: argparse.Namespace) -> int:
    from cardlab.club.bws import read_bws
    from cardlab.club.movement import from_rounds, session_problems

    session = read_bws(args.file)
    plan = from_rounds(session.rounds, name=session.source)
    problems = plan.problems() + session_problems(plan, session.results().lines)
    print(f"{session.source}: {plan.tables} tables, {plan.rounds} rounds, {plan.boards} boards, "
          f"{len(session.results().lines)} results: "
          + ("as the movement says" if not problems else f"{len(problems)} problem(s)"))
    for problem in problems:
        print(f"  {problem}")
    return 1 if problems else 0


def _run_live(args: argparse.Namespace) -> int:
    from cardlab.club.live import publish, watch

    if args.once:
        state = publish(args.file, args.output, args.title)
        print(f"{args.file}: {state.caption()}; site in {args.output}")
        return 0
    watch(args.file, args.output, interval=args.interval, title=args.title)
    return 0
