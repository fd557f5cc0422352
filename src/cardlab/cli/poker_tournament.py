"""``cardlab poker icm`` and ``cardlab poker pushfold``: tournament equity and the push/fold equilibrium.

Parsing and printing only; the work is in :mod:`cardlab.poker.icm` and :mod:`cardlab.poker.pushfold`.
"""

from __future__ import annotations

import argparse
import sys

from cardlab.cli.options import decimal_number, whole_number
from cardlab.cli.output import add_output_options, replacing, write_text

__all__ = ["register"]

MODEL_NAMES = ("malmuth-harville", "malmuth-weitzman")
"""``--model`` choices: :data:`cardlab.poker.icm.MODELS`, named here so that parsing imports no numpy."""

stack_value = decimal_number(0, 10_000, low_open=True)
"""An effective stack in big blinds: above 0, at most 10,000."""
ante_value = decimal_number(0, 1_000)
"""An ante in big blinds: 0 to 1,000."""
chart_stack = decimal_number(0.05, 1_000)
"""A stack of the chart's range in big blinds."""


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``icm`` and ``pushfold`` to the ``poker`` group."""
    cmd = subparsers.add_parser(
        "icm", help="tournament equity of each stack (the Independent Chip Model), exact",
        description="Each player's expected prize and chance of every finishing place, from the chip "
                    "stacks and the payouts: exact fractions for whole numbers up to 12 players, floating "
                    "point beyond (up to 22). With --allin, the money value of an all-in between two players "
                    "before and after, from the exact all-in equity of their hands or ranges. Examples: "
                    "cardlab poker icm 5000,3000,2000 --payouts 50,30,20; "
                    "cardlab poker icm 5000,3000,2000 --payouts 50,30,20 --allin 'A:AsKs C:QQ'")
    cmd.add_argument("stacks", metavar="STACKS", help="chip stacks, comma-separated (players A, B, C, ...)")
    cmd.add_argument("--payouts", required=True, metavar="P1,P2,...",
                     help="prize of the 1st, 2nd, ... place, comma-separated (at most one per player)")
    cmd.add_argument("--model", choices=MODEL_NAMES, default="malmuth-harville",
                     help="malmuth-harville (the ICM, default): places in proportion to the stacks from the top; "
                          "malmuth-weitzman: the next player out in inverse proportion to the stacks")
    cmd.add_argument("--allin", metavar="'A:HAND B:HAND'",
                     help="an all-in between two players, each a hand (AsKs) or a range (QQ+, AKs)")
    add_output_options(cmd, plot=False)
    cmd.set_defaults(func=_icm)

    pf = subparsers.add_parser(
        "pushfold", help="heads-up push/fold equilibrium (Nash): ranges, chart, EV, exploitability",
        description="The heads-up push/fold game solved exactly: the small blind pushes or folds, the big "
                    "blind calls or folds. At --stack big blinds (effective, before posting): the push and "
                    "call ranges, each player's EV and the exploitability (exact zero when solved exactly); "
                    "and the chart of the largest stack at which each hand pushes (calls). With --payouts, "
                    "the hand is valued by ICM at its end. With --players 3, three-handed push/fold (equal stacks), "
                    "solved approximately with its exploitability reported. Example: cardlab poker pushfold --stack 10 --plot chart.png")
    pf.add_argument("--stack", type=stack_value, default=10.0, metavar="BB",
                    help="effective stack in big blinds before the blinds and antes (default 10)")
    pf.add_argument("--ante", type=ante_value, default=0.0, metavar="A", help="each player's ante in big blinds")
    pf.add_argument("--players", type=whole_number(2, 3), default=2, metavar="N",
                    help="players at the table: 2 (default), or 3: the button pushes or folds, the small "
                         "blind calls or pushes, the big blind calls or overcalls (no chart)")
    pf.add_argument("--iterations", type=whole_number(1, 100_000), default=200, metavar="N",
                    help="with --players 3: rounds of regret matching (200)")
    pf.add_argument("--payouts", metavar="P1,P2,...", help="value the hand by ICM with these prizes (default: chips)")
    pf.add_argument("--chart-from", type=chart_stack, default=1.0, metavar="BB", help="chart from this stack (1)")
    pf.add_argument("--chart-to", type=chart_stack, default=25.0, metavar="BB", help="chart up to this stack (25)")
    pf.add_argument("--chart-step", type=decimal_number(0.01, 100), default=0.05, metavar="BB",
                    help="chart every this many big blinds (0.05)")
    add_output_options(pf, plot=False)
    pf.add_argument("--plot", metavar="FILE.png", help="also draw the coloured 13x13 push and call charts as a PNG")
    pf.set_defaults(func=_pushfold)


def _text(args: argparse.Namespace, result: object) -> None:
    fmt = args.format
    text = getattr(result, "to_json")() if fmt == "json" else getattr(result, "to_csv")() if fmt == "csv" \
        else getattr(result, "table")()
    write_text(args, text)


def _icm(args: argparse.Namespace) -> int:
    from cardlab.poker.icm import icm, icm_allin, parse_numbers

    stacks = parse_numbers(args.stacks, "stacks")
    payouts = parse_numbers(args.payouts, "payouts")
    if args.allin:
        result = icm_allin(stacks, payouts, args.allin, model=args.model)
    else:
        result = icm(stacks, payouts, model=args.model)
    _text(args, result)
    return 0


def _pushfold(args: argparse.Namespace) -> int:
    from cardlab.errors import TournamentError
    from cardlab.poker.icm import parse_numbers
    from cardlab.poker.pushfold import pushfold

    if args.chart_to <= args.chart_from:
        raise TournamentError(f"--chart-to {args.chart_to:g} must be above --chart-from {args.chart_from:g}")
    if (args.chart_to - args.chart_from) / args.chart_step > 20_000:
        raise TournamentError("the chart would have more than 20,000 stacks: use a larger --chart-step")
    payouts = parse_numbers(args.payouts, "payouts") if args.payouts else None
    if args.players == 3:
        from cardlab.poker.pushfold3 import pushfold3

        if args.plot:
            raise TournamentError("--plot draws the heads-up chart: the three-handed game has no chart here")
        _text(args, pushfold3(args.stack, ante=args.ante, payouts=payouts, iterations=args.iterations))
        return 0
    result = pushfold(args.stack, ante=args.ante, payouts=payouts, players=args.players,
                      chart_range=(args.chart_from, args.chart_to, args.chart_step))
    _text(args, result)
    if args.plot:
        with replacing(args.plot, whole=True) as temporary:
            result.plot(temporary)
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0
