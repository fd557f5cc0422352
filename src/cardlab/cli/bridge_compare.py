"""``cardlab bridge compare``: bidding strategies compared double dummy (IMPs, matchpoints, BAM, points)."""

from __future__ import annotations

import argparse
import sys

from cardlab.cli.bridge_dd import _output, _simulation
from cardlab.cli.cluster_option import executor_for
from cardlab.cli.options import whole_number
from cardlab.cli.output import output_file, write_result
from cardlab.cli.seat_options import seat_options
from cardlab.textfile import read_text

__all__ = ["register"]

_DEFAULT_DEALS = 1000


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``compare`` to the ``bridge`` group."""
    cp = subparsers.add_parser(
        "compare", help="compare bidding strategies double dummy: IMPs, matchpoints, board-a-match",
        description="Each strategy is a rule from a deal to a contract: '4S by N', 'pass', 'pass 2H by W', "
                    "'best of 4S by N, 3NT by S', or '4H by N if hearts(north) + hearts(south) >= 8 else 3NT by S' "
                    "(conditions in the dealer script language). Deals come from seat constraints, a dealer "
                    "script (--script) or a board file (--file); each is solved double dummy once per declarer "
                    "and strain some strategy plays on it. Scores are North-South's (docs/strategy.md).")
    cp.add_argument("--strategy", "-s", action="append", required=True, metavar="RULE",
                    help="a strategy (give 2 to 10; they are labelled A, B, C ... in that order)")
    cp.add_argument("--vul", default="None,All",
                    help="vulnerabilities to score under, comma-separated: None, NS, EW, All (default None,All); "
                         "'board': each deal of --file at its board's vulnerability (and dealer, for --par)")
    cp.add_argument("--par", action="store_true",
                    help="IMPs of each strategy against each deal's par (solves every deal's full table: slower)")
    cp.add_argument("--dealer", default="N", help="the dealer, for par (default N)")
    cp.add_argument("--script", metavar="FILE", help="a dealer script: the deals meeting its condition")
    cp.add_argument("--file", metavar="FILE",
                    help="a board file (PBN, LIN, Duplimate .dup/.dlm, as bridge boards reads): its deals, "
                         "in order (-n: at most that many)")
    cp.add_argument("--differ", metavar="FILE.pbn",
                    help="write the deals where the strategies' contracts differ (first vulnerability) as PBN")
    cp.add_argument("--keep", type=whole_number(1), default=1000,
                    help="at most this many deals in --differ (default 1000, at most 10,000)")
    _simulation(cp, default=_DEFAULT_DEALS)
    cp.set_defaults(deals=None)
    _output(cp, ("table", "csv", "json"))
    cp.set_defaults(func=_compare_command)


def _compare_command(args: argparse.Namespace) -> int:
    from cardlab.bridge.strategy import compare_strategies
    from cardlab.errors import CardlabError

    cons, fixed = seat_options(args)
    script = deals = None
    if args.script:
        from cardlab.bridge.dealer import parse_script

        script = parse_script(read_text(args.script), args.script)
    if args.file:
        from cardlab.bridge.boardsets import read_board_file

        deals = list(read_board_file(args.file).boards)
        if not deals:
            raise CardlabError(f"{args.file}: no deal found")
    trials = args.deals if args.deals is not None or deals is not None else _DEFAULT_DEALS
    result = compare_strategies(args.strategy, trials, constraints=cons, fixed=fixed, script=script, deals=deals,
                     vulnerabilities=[v for v in args.vul.split(",") if v.strip()], par=args.par,
                     dealer=args.dealer, keep=args.keep if args.differ else 0, seed=args.seed,
                     workers=args.workers, progress=True, executor=executor_for(args))
    if args.differ:
        with output_file(args.differ) as out:
            out.write(result.to_pbn())
    write_result(args, result)
    if args.format != "table":
        print(f"{result.deals:,} deals, seed {result.seed}", file=sys.stderr)
    return 130 if result.interrupted else 0
