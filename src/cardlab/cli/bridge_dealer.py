"""``cardlab bridge dealer`` (dealer scripts) and ``cardlab bridge deal`` (per-seat constraints),
both thin front ends over :mod:`cardlab.bridge.dealer`'s engine; deals stream to the output."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from cardlab.cli.cluster_option import add_cluster_option, executor_for
from cardlab.cli.output import positive_int, seed_value
from cardlab.cli.seat_options import add_seat_options, seat_options
from cardlab.cores import available_cores
from cardlab.textfile import read_text

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``cardlab bridge dealer`` and ``cardlab bridge deal``."""
    dealer = subparsers.add_parser(
        "dealer", help="run a dealer script (the 'dealer' program's language)",
        description="Run a script in the language of the 'dealer' program: deals meeting its condition "
                    "are printed by its actions, then the averages and frequency tables. Same flags as "
                    "the C program where it has them; see docs/dealer.md.")
    dealer.add_argument("script", metavar="SCRIPT", help="the script file, or - for standard input")
    dealer.add_argument("-g", "--generate", type=positive_int, help="deals to generate at most (script's "
                        "'generate', default 10,000,000)")
    dealer.add_argument("-p", "--produce", type=positive_int, help="deals to produce (meeting the condition)")
    dealer.add_argument("-s", "--seed", type=seed_value, help="random seed (default: the script's, or fresh)")
    dealer.add_argument("-q", "--quiet", action="store_true", help="do not print the deals")
    dealer.add_argument("-v", "--verbose", action="store_false", dest="verbose",
                        help="toggle the closing statistics off (as the C program's -v)")
    dealer.add_argument("--workers", type=positive_int, default=available_cores(),
                        help="worker processes (the output does not depend on it)")
    add_cluster_option(dealer)
    dealer.add_argument("--format", choices=("text", "json"), default="text", help="text (as the C program) "
                        "or json")
    dealer.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    dealer.set_defaults(func=_dealer_command)

    deal = subparsers.add_parser(
        "deal", help="random deals under constraints (PBN, diagrams or JSON)",
        description="Random deals whose hands meet constraints such as "
                    "--north 'hcp=15-17 shape=balanced' --south 'spades=5+ hcp=8-'. Measures: hcp, "
                    "controls, spades, hearts, diamonds, clubs (N, N-M, N+, N- or -M) and shape (balanced, "
                    "or patterns 4-4-3-2|5-3-3-2). A seat's option given twice must hold both times. "
                    "Deals stream to the output; also prints how often a random deal meets the constraints.")
    deal.add_argument("-n", "--count", type=positive_int, default=1, help="how many deals (default 1)")
    deal.add_argument("--seed", type=seed_value, help="random seed (default: fresh, and printed)")
    add_seat_options(deal)
    deal.add_argument("--max-tries", type=positive_int, default=50_000_000,
                      help="give up after this many random deals (default 50,000,000)")
    deal.add_argument("--workers", type=positive_int, default=available_cores(),
                      help="worker processes (the deals do not depend on it)")
    add_cluster_option(deal)
    deal.add_argument("--format", choices=("table", "text", "pbn", "json"), default="table",
                      help="hand diagrams (table, default; 'text' is an alias), PBN file or JSON")
    deal.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    deal.set_defaults(func=_deal_command)


def _open_output(path: str | None) -> TextIO:
    if path is None:
        return sys.stdout
    return Path(path).open("w", encoding="utf-8")  # fails now, before any long work


def _dealer_command(args: argparse.Namespace) -> int:
    from cardlab.bridge.dealer import parse_script, write_run

    if args.script == "-":
        text, source = sys.stdin.read(), "stdin"
    else:
        text, source = read_text(args.script), args.script
    script = parse_script(text, source)
    out = _open_output(args.output)
    try:
        result = write_run(script, out, format=args.format, verbose=args.verbose, generate=args.generate,
                           produce=args.produce, seed=args.seed, workers=args.workers, quiet=args.quiet,
                           progress=True, executor=executor_for(args))
    finally:
        if out is not sys.stdout:
            out.close()
    if result.interrupted:
        print("cardlab: interrupted: partial statistics", file=sys.stderr)
        return 130
    return 0


def _deal_command(args: argparse.Namespace) -> int:
    from cardlab.bridge.deals import DealWriter, generate_deals

    constraints, fixed = seat_options(args)  # one rule for a seat given twice, as makes and lead
    out = _open_output(args.output)
    try:
        writer = DealWriter(out, args.format)
        batch = generate_deals(args.count, writer, seed=args.seed, constraints=constraints, fixed=fixed,
                               max_tries=args.max_tries, workers=args.workers, progress=True,
                               executor=executor_for(args))
        writer.finish(batch)
    finally:
        if out is not sys.stdout:
            out.close()
    summary = "; ".join(f"{seat}: {c.text}" for seat, c in constraints.items()) or "no constraints"
    p, lo, hi = batch.acceptance()
    print(f"{batch.matched:,} deal(s), seed {batch.seed}; {summary}; {batch.matched:,} of {batch.tried:,} random "
          f"deals met the constraints: P = {100 * p:.4g}% (95% interval {100 * lo:.4g}% – {100 * hi:.4g}%)",
          file=sys.stderr)
    return 130 if batch.interrupted else 0
