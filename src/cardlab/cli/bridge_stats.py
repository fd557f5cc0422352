"""``cardlab bridge hcp|shape|joint``: bridge hand statistics (:mod:`cardlab.bridge.tables`)."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from cardlab.cli.cluster_option import add_cluster_option, executor_for
from cardlab.cli.options import whole_number
from cardlab.cli.output import add_output_options, add_simulation_options, emit
from cardlab.errors import SchemeError

if TYPE_CHECKING:
    from cardlab.bridge.tables import ShapeKind

__all__ = ["register"]

_SCHEME_HELP = ("point scheme: work (A=4 K=3 Q=2 J=1, the default), bergen, four-aces, banzai, "
                "controls, or a spec such as 'A=4,K=3,Q=2,J=1,T=0.5'")


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the hand-statistics commands to the ``bridge`` group."""
    hcp = subparsers.add_parser(
        "hcp", help="exact distribution of a hand's points",
        description="Exact number and probability of hands for each point total, by counting card "
                    "classes (never by listing hands). Example: cardlab bridge hcp --given-hcp 15")
    hcp.add_argument("--scheme", default="work", help=_SCHEME_HELP)
    _add_deal_options(hcp)
    hcp.add_argument("--given-hcp", metavar="N",
                     help="condition on another 13-card hand holding exactly N points (same scheme)")
    add_output_options(hcp)
    add_simulation_options(hcp)
    add_cluster_option(hcp)
    hcp.set_defaults(func=_hcp)

    shape = subparsers.add_parser(
        "shape", help="exact distribution of suit patterns",
        description="The 39 suit patterns (4-4-3-2 ...) or, with --specific, the 560 distributions by "
                    "spades-hearts-diamonds-clubs length.")
    _add_deal_options(shape)
    shape.add_argument("--specific", action="store_true",
                       help="suit by suit (S-H-D-C lengths) instead of the pattern")
    shape.add_argument("--longest", action="store_true", help="the length of the longest suit")
    shape.add_argument("--sort", choices=("probability", "shape"), default="probability",
                       help="row order (default: most frequent first)")
    add_output_options(shape)
    add_simulation_options(shape)
    add_cluster_option(shape)
    shape.set_defaults(func=_shape)

    joint = subparsers.add_parser(
        "joint", help="exact joint table of points and shape",
        description="Points together with the pattern, the longest suit or the specific suit lengths.")
    joint.add_argument("--by", choices=("pattern", "longest", "suits"), default="longest",
                       help="the shape feature across the table (default: longest suit)")
    joint.add_argument("--scheme", default="work", help=_SCHEME_HELP)
    _add_deal_options(joint)
    add_output_options(joint)
    add_simulation_options(joint)
    add_cluster_option(joint)
    joint.set_defaults(func=_joint)


def _add_deal_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cards", type=whole_number(1, 10_000), default=13,  # the deck says how many it allows
                        help="cards in the hand (default 13; 26 for a partnership)")
    parser.add_argument("--given", metavar="CARDS",
                        help="known cards that leave the deck: a card list 'As Kd 7c' or a PBN hand "
                             "'AKQJ.T98.765.432'")


def _simulation(args: argparse.Namespace) -> dict[str, Any]:
    return {"trials": args.simulate, "seed": args.seed, "workers": args.workers, "progress": True,
            "executor": executor_for(args)}


def _hcp(args: argparse.Namespace) -> int:
    from cardlab.bridge.tables import points_table

    given = None if args.given_hcp is None else _points(args.given_hcp)
    return emit(args, points_table(args.scheme, args.cards, args.given, given, **_simulation(args)))


def _points(text: str) -> Fraction:
    from cardlab.bridge.schemes import parse_points

    try:
        return parse_points(text)
    except SchemeError as error:
        reason = "" if str(error).startswith("expected") else f" ({error})"
        raise SchemeError(f"--given-hcp expects a number of points, got '{text}'{reason}") from None


def _shape(args: argparse.Namespace) -> int:
    from cardlab.bridge.tables import shape_table

    kind: ShapeKind = "longest" if args.longest else "suits" if args.specific else "pattern"
    return emit(args, shape_table(kind, args.cards, args.given, args.sort, **_simulation(args)))


def _joint(args: argparse.Namespace) -> int:
    from cardlab.bridge.tables import joint_table

    return emit(args, joint_table(args.by, args.scheme, args.cards, args.given, **_simulation(args)))
