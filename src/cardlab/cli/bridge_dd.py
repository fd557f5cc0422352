"""``cardlab bridge dd``, ``bridge makes`` and ``bridge lead``: double-dummy analysis (DDS via endplay)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cardlab.cli.options import seed_value, trials, workers_value
from cardlab.cli.output import write_result
from cardlab.cli.cluster_option import add_cluster_option, executor_for
from cardlab.cli.seat_options import add_seat_options, seat_options
from cardlab.textfile import read_text

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the double-dummy commands to the ``bridge`` group."""
    dd = subparsers.add_parser("dd", help="double-dummy table and par of a deal (or a PBN file of deals)",
                               description="Tricks for each declarer in each strain, and par, solved by DDS.")
    dd.add_argument("deal", nargs="*", help='a PBN deal, e.g. "N:AKQ2.T98.765.432 ..." (quotes optional)')
    dd.add_argument("--file", metavar="FILE.pbn", help="a PBN file: every Deal in it (its Dealer and Vulnerable)")
    dd.add_argument("--dealer", help="dealer for par when the deal does not say (default N)")
    dd.add_argument("--vul", help="vulnerability for par when the deal does not say: None, NS, EW, All")
    _output(dd, ("table", "csv", "json", "pbn"))
    dd.set_defaults(func=_dd_command)

    mk = subparsers.add_parser("makes", help="how often a contract makes double dummy over random deals",
                               description="Deal random hands under constraints, solve them double dummy, and "
                                           "report the tricks, P(make) and the expected score with 95% intervals. "
                                           "Two --contract options are compared on the same deals (IMPs, "
                                           "matchpoints).")
    mk.add_argument("--contract", action="append", required=True, help="3NT, 4S, 4HX ... (at most two)")
    mk.add_argument("--by", required=True, help="declarer N, E, S or W (or one per contract: N,S)")
    mk.add_argument("--vulnerable", action="store_true", help="declarer's side is vulnerable")
    mk.add_argument("--tricks", action="store_true",
                    help="solve declarer's tricks: the distribution, mean tricks and expected score "
                         "(default for one contract: only whether it makes, DDS's faster target mode; "
                         "two contracts compared always solve the tricks)")
    _simulation(mk)
    _output(mk, ("table", "csv", "json"))
    mk.set_defaults(func=_makes_command)

    ld = subparsers.add_parser("lead", help="rank the opening leads from a hand against a contract",
                               description="For each lead from the leader's hand (cards in sequence together), "
                                           "the average defensive tricks and the set rate over random deals.")
    ld.add_argument("--hand", required=True, help="the leader's 13 cards (PBN S.H.D.C or a card list)")
    ld.add_argument("--contract", required=True, help="the contract, e.g. 3NT")
    ld.add_argument("--by", required=True, help="declarer N, E, S or W; the leader is on declarer's left")
    ld.add_argument("--tricks", action="store_true",
                    help="count the defence's tricks after each lead too (default: only which leads "
                         "set the contract, DDS's faster target mode)")
    _simulation(ld, default=500)
    _output(ld, ("table", "csv", "json"))
    ld.set_defaults(func=_lead_command)


def _output(parser: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    parser.add_argument("--format", choices=formats, default="table", help="output format (default: table)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")


def _simulation(parser: argparse.ArgumentParser, default: int = 1000) -> None:
    parser.add_argument("-n", "--deals", type=trials, default=default, help=f"random deals (default {default})")
    parser.add_argument("--seed", type=seed_value, help="random seed (default: fresh, and printed)")
    parser.add_argument("--workers", type=workers_value, default=1,
                        help="processes (default 1: DDS already runs a thread per core inside each "
                             "batch, and a second process only competes for the same cores); the "
                             "result does not depend on it")
    add_cluster_option(parser)
    add_seat_options(parser)


def _dd_command(args: argparse.Namespace) -> int:
    from cardlab.bridge.dd import dd_tables, read_pbn_games
    from cardlab.errors import CardlabError

    args.deal = " ".join(args.deal) or None  # the four hands may come as separate words
    if (args.deal is None) == (args.file is None):
        raise CardlabError("give a PBN deal or --file FILE.pbn (one of them)")
    if args.file:
        header, games = read_pbn_games(read_text(args.file), args.file)
        if not games:
            raise CardlabError(f"{args.file}: no [Deal \"...\"] tag found")
        result: Any = dd_tables([g.deal for g in games], [g.dealer or args.dealer for g in games],
                                [g.vulnerability or args.vul for g in games], games=games, header=header)
    else:
        result = dd_tables([args.deal], args.dealer, args.vul)[0]
    write_result(args, result)
    return 0


def _makes_command(args: argparse.Namespace) -> int:
    from cardlab.bridge.dd_sim import makes

    cons, fixed = seat_options(args)
    by = args.by.split(",") if "," in args.by else args.by
    result = makes(args.contract, by, args.deals, constraints=cons, fixed=fixed, vulnerable=args.vulnerable,
                   seed=args.seed, workers=args.workers, progress=True,
                   executor=executor_for(args), tricks=True if args.tricks else None)
    write_result(args, result)
    if args.format != "table":
        print(f"{result.deals:,} deals, seed {result.seed}", file=sys.stderr)
    return 130 if result.interrupted else 0


def _lead_command(args: argparse.Namespace) -> int:
    from cardlab.bridge.dd_sim import leads

    cons, fixed = seat_options(args)
    result = leads(args.hand, args.contract, args.by, args.deals, constraints=cons, fixed=fixed, seed=args.seed,
                   workers=args.workers, progress=True, executor=executor_for(args), tricks=args.tricks)
    write_result(args, result)
    return 130 if result.interrupted else 0
