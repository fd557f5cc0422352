"""``cardlab bridge dealer`` (dealer scripts) and ``cardlab bridge deal`` (per-seat constraints),
both thin front ends over :mod:`cardlab.bridge.dealer`'s engine; deals stream to the output."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from cardlab.cli.cluster_option import add_cluster_option, executor_for
from cardlab.cli.options import seed_value, trials, workers_value
from cardlab.cli.output import NothingProduced, output_file
from cardlab.cli.seat_options import add_seat_options, seat_options
from cardlab.cores import available_cores

_PRACTICE_FILES = ("north", "east", "south", "west")  # the suffixes of a practice set's files

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``cardlab bridge dealer`` and ``cardlab bridge deal``."""
    dealer = subparsers.add_parser(
        "dealer", help="run a dealer script (the 'dealer' program's language)",
        description="Run a script in the language of the 'dealer' program: deals meeting its condition "
                    "are printed by its actions, then the averages and frequency tables. Same flags as "
                    "the C program where it has them; see docs/dealer.md.")
    dealer.add_argument("script", metavar="SCRIPT", nargs="?", help="the script file, or - for standard input")
    dealer.add_argument("-g", "--generate", type=trials, help="deals to generate at most (script's "
                        "'generate', default 10,000,000)")
    dealer.add_argument("-p", "--produce", type=trials, help="deals to produce (meeting the condition)")
    dealer.add_argument("-s", "--seed", type=seed_value, help="random seed (default: the script's, or fresh)")
    dealer.add_argument("-q", "--quiet", action="store_true", help="do not print the deals")
    dealer.add_argument("-v", "--verbose", action="store_false", dest="verbose",
                        help="toggle the closing statistics off (as the C program's -v)")
    dealer.add_argument("--workers", type=workers_value, default=available_cores(),
                        help="worker processes (the output does not depend on it)")
    add_cluster_option(dealer)
    dealer.add_argument("--deals", metavar="FILE", help="run the script over the deals saved in FILE instead "
                        "of dealing (PBN, LIN, .dup/.dlm, printoneline lines, Deal's -l or ddline lines)")
    dealer.add_argument("--practice", metavar="PREFIX", help="also write a practice set: each seat's hands of "
                        "the produced deals, numbered, in PREFIX.north, PREFIX.east, PREFIX.south, PREFIX.west")
    dealer.add_argument("--ddline", metavar="FILE", help="also write the produced deals with their double-dummy "
                        "tricks, one line each (Deal's ddline format)")
    dealer.add_argument("--format", choices=("text", "json"), default="text", help="text (as the C program) "
                        "or json")
    dealer.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    from cardlab.cli.bridge_boards import add_board_set_options

    add_board_set_options(dealer)  # --rotate, --mix, --level, board files (docs/boards.md)
    dealer.set_defaults(func=_dealer_command)

    deal = subparsers.add_parser(
        "deal", help="random deals under constraints (PBN, diagrams or JSON)",
        description="Random deals whose hands meet constraints such as "
                    "--north 'hcp=15-17 shape=balanced' --south 'spades=5+ hcp=8-'. Measures: hcp, "
                    "controls, spades, hearts, diamonds, clubs (N, N-M, N+, N- or -M) and shape (balanced, "
                    "or patterns 4-4-3-2|5-3-3-2). A seat's option given twice must hold both times. "
                    "Deals stream to the output; also prints how often a random deal meets the constraints.")
    deal.add_argument("-n", "--count", type=trials, default=1, help="how many deals (default 1)")
    deal.add_argument("--seed", type=seed_value, help="random seed (default: fresh, and printed)")
    add_seat_options(deal)
    deal.add_argument("--max-tries", type=trials, default=50_000_000,
                      help="give up after this many random deals (default 50,000,000)")
    deal.add_argument("--workers", type=workers_value, default=available_cores(),
                      help="worker processes (the deals do not depend on it)")
    add_cluster_option(deal)
    deal.add_argument("--format", choices=("table", "text", "pbn", "json"), default="table",
                      help="hand diagrams (table, default; 'text' is an alias), PBN file or JSON")
    deal.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    deal.set_defaults(func=_deal_command)


def _dealer_command(args: argparse.Namespace) -> int:
    from cardlab.bridge.dealer import parse_script, write_run
    from cardlab.errors import DealerScriptError
    from cardlab.cli.bridge_boards import board_set_command, board_set_requested, script_text

    if board_set_requested(args):
        if args.deals:
            raise DealerScriptError("--deals runs a script over saved deals; it does not make board sets")
        return board_set_command(args)
    text, source = script_text(args)
    script = parse_script(text, source)
    deals = None
    if args.deals:
        from cardlab.bridge.dealer.saved import read_saved_deals

        deals = read_saved_deals(args.deals)
    with contextlib.ExitStack() as files:  # made now, before any long work; in place only if all goes well
        out = files.enter_context(output_file(args.output))
        practice = [files.enter_context(output_file(f"{args.practice}.{seat}")) for seat in _PRACTICE_FILES] \
            if args.practice else []
        ddline = files.enter_context(output_file(args.ddline)) if args.ddline else None
        kept: list[Any] = []
        result = write_run(script, out, format=args.format, verbose=args.verbose, generate=args.generate,
                           produce=args.produce, seed=args.seed, workers=args.workers, quiet=args.quiet,
                           progress=True, executor=executor_for(args), deals=deals,
                           on_deals=(lambda masks, before: _keep_practice(kept, masks))
                           if practice or ddline else None)
        if result.interrupted and result.produced == 0 and args.output not in (None, "-"):
            raise NothingProduced  # the previous -o file is kept
        if practice or ddline:
            from cardlab.bridge.dealer.output import seat_pages
            from cardlab.bridge.dealer.saved import ddline_text
            import numpy as np

            masks = np.concatenate(kept, axis=2) if kept else np.zeros((4, 4, 0), dtype=np.uint16)
            for index, stream in enumerate(practice):
                stream.write(seat_pages(masks, index))
            if ddline is not None:
                ddline.write(ddline_text(masks))
    if result.interrupted:
        print("cardlab: interrupted: partial statistics", file=sys.stderr)
        return 130
    return 0


MAX_PRACTICE = 100_000  #: the most deals kept for --practice and --ddline


def _keep_practice(kept: list[Any], masks: Any) -> None:
    """Collect the produced deals for ``--practice`` and ``--ddline`` (at most :data:`MAX_PRACTICE`)."""
    from cardlab.errors import DealerScriptError

    if sum(m.shape[2] for m in kept) + masks.shape[2] > MAX_PRACTICE:
        raise DealerScriptError(f"--practice and --ddline write at most {MAX_PRACTICE:,} deals; give -p N")
    kept.append(masks.copy())


def _deal_command(args: argparse.Namespace) -> int:
    from cardlab.bridge.deals import deal_summary, write_deals

    constraints, fixed = seat_options(args)  # one rule for a seat given twice, as makes and lead
    with output_file(args.output) as out:  # made now, before any long work; in place only if all goes well
        batch = write_deals(out, args.count, args.format, constraints=constraints, fixed=fixed, seed=args.seed,
                            max_tries=args.max_tries, workers=args.workers, progress=True,
                            executor=executor_for(args))
        if batch.interrupted and batch.matched == 0 and args.output not in (None, "-"):
            raise NothingProduced  # the previous -o file is kept
    print(deal_summary(batch, constraints), file=sys.stderr)
    return 130 if batch.interrupted else 0
