"""``cardlab poker solve``: a heads-up river spot solved, its strategy at any node, EV, equity and
exploitability.

Parsing and printing only; the work is in :mod:`cardlab.solver`.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cardlab.cli.options import decimal_number, whole_number
from cardlab.cli.output import about_option, write_result
from cardlab.errors import CardlabError

if TYPE_CHECKING:
    from cardlab.solver.engine import Engine
    from cardlab.solver.game import Game

__all__ = ["register", "apply_lock", "memory_line"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``solve`` to the ``poker`` group."""
    cmd = subparsers.add_parser(
        "solve", help="heads-up river, turn and flop solver: strategy, EV, equity and exploitability",
        description="Solve a heads-up no-limit hold'em river, turn or flop spot by Discounted CFR, stopping at the target "
                    "exploitability (computed by a best response, in % of the pot) or the time limit; print "
                    "the strategy at a node per hand class or combo, with EV and equity. Sizes are percentages "
                    "of the pot, a (all-in) and e (geometric: the same share on each street left ends all-in), e.g. "
                    "'33%, 75%, a'. Four board cards make a turn spot, three a flop spot (suit-isomorphic turn and "
                    "river cards solved once). Example: cardlab poker solve --oop "
                    "'QQ+, AK, 76s' --ip 'JJ-99, AQs' --board 'Ks 9d 5c 2h 3s' --pot 10 --stack 50 --node X")
    spot = cmd.add_argument_group("the spot")
    spot.add_argument("--oop", metavar="RANGE", help="the out-of-position player's range, e.g. 'QQ+, 0.5(AKs)'")
    spot.add_argument("--ip", metavar="RANGE", help="the in-position player's range")
    spot.add_argument("--board", metavar="CARDS", help="the board: five cards (a river spot, e.g. 'Ks 9d 5c 2h 3s'), four (a turn spot) or three "
                           "(a flop spot)")
    spot.add_argument("--flops", metavar="all|FLOPS",
                      help="instead of --board, a report over flops: 'all' (every flop class, weighted by the flops it "
                           "stands for) or a list such as 'Qs Jh 2h; Ah 7h 2h'")
    spot.add_argument("--pot", type=decimal_number(0, 1e9, low_open=True), help="the pot before this street's bets")
    spot.add_argument("--stack", type=decimal_number(0, 1e9), help="each player's chips behind (effective stack)")
    for who in ("oop", "ip"):
        spot.add_argument(f"--{who}-bet", default="33%, 75%", metavar="SIZES",
                          help=f"{who.upper()}'s bet sizes (default '33%%, 75%%'; '' for none)")
        spot.add_argument(f"--{who}-raise", default="60%", metavar="SIZES",
                          help=f"{who.upper()}'s raise sizes (default 60%%: call, then 60%% of the pot)")
    for street in ("turn", "river"):
        for who in ("oop", "ip"):
            for kind in ("bet", "raise"):
                spot.add_argument(f"--{street}-{who}-{kind}", metavar="SIZES",
                                  help=f"{who.upper()}'s {street} {kind} sizes on a spot before the {street} "
                                       f"(default: the spot's first street's)")
    spot.add_argument("--oop-donk", metavar="SIZES",
                      help="OOP's bet sizes on the turn and river when it leads into the player who bet or raised last "
                           "on the street before (a donk bet; default: its usual sizes; '' for none)")
    spot.add_argument("--rake", type=decimal_number(0, 0.99), default=0.0, metavar="SHARE",
                      help="the house's share of each pot, e.g. 0.05 (default 0: none); an uncalled bet is not raked")
    spot.add_argument("--rake-cap", type=decimal_number(0, 1e9), default=0.0, metavar="CHIPS",
                      help="the most rake taken from one pot, in chips (default 0: no cap)")
    spot.add_argument("--allin-threshold", type=decimal_number(0, 10), default=0.15, metavar="SHARE",
                      help="a bet leaving less than SHARE times the pot behind becomes all-in (default 0.15)")
    spot.add_argument("--max-raises", type=whole_number(0, 16), default=3, metavar="N", help="raises allowed after a bet (default 3)")
    run = cmd.add_argument_group("the solve")
    run.add_argument("--target", type=decimal_number(0, 100), default=0.3, metavar="PCT",
                     help="stop at this exploitability, %% of the pot (default 0.3)")
    run.add_argument("--time-limit", type=decimal_number(0, 1e7, low_open=True), default=60.0, metavar="SECONDS",
                     help="stop after this long (default 60)")
    run.add_argument("--max-iterations", type=whole_number(0, 10**9), default=100_000, metavar="N",
                     help="stop after N iterations (default 100,000)")
    run.add_argument("--threads", type=whole_number(1, 256), default=1, metavar="N",
                     help="threads sharing a turn or flop spot's subtrees below its first chance nodes (default 1; the "
                          "answer does not depend on it)")
    run.add_argument("--memory-limit", type=decimal_number(1, 2**30), default=4096, metavar="MB",
                     help="refuse a spot whose memory estimate is above this (default 4096 MB)")
    run.add_argument("--lock", action="append", default=[], metavar="NODE=ACTION:FREQ,...",
                     help="node locking: play these frequencies at NODE with every combo, e.g. 'X=X:0.5,B3.3:0.5' "
                          "(repeat for several nodes); the rest is solved around it")
    run.add_argument("--exact", action="store_true",
                     help="also solve the spot's linear program (small trees only) and print its exact value")
    run.add_argument("--save", metavar="FILE.npz", help="save the solve to FILE.npz")
    run.add_argument("--load", metavar="FILE.npz", help="show a saved solve instead of solving (no spot options)")
    out = cmd.add_argument_group("the output")
    out.add_argument("--node", default="", metavar="PATH",
                     help="the node to show, by the actions that reach it: '' the root, 'X' after a check, "
                          "'X,B7.5' (actions X, C, F, B<chips>, R<chips>)")
    out.add_argument("--by", choices=("class", "combo"), default="class", help="a row per hand class or per combo")
    out.add_argument("--export-range", choices=("oop", "ip"),
                     help="print that player's range at --node in range syntax (weights times how often its "
                          "combos play to there), to start the next spot from")
    out.add_argument("--format", choices=("table", "csv", "json"), default="table", help="output format")
    out.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    cmd.set_defaults(func=_solve)


_SPOT = ("oop", "ip", "board", "pot", "stack")


def _solve(args: argparse.Namespace) -> int:
    from cardlab.solver import Solution, load_solution, river_game
    from cardlab.solver.engine import Engine, solve

    if args.flops is not None:
        return _flops(args)
    if args.load:
        if any(getattr(args, k) is not None for k in _SPOT) or args.lock or args.save:
            raise CardlabError("--load shows a saved solve: give no spot, --lock or --save with it")
        solution = load_solution(args.load, memory_mb=args.memory_limit)
    else:
        missing = [f"--{k}" for k in _SPOT if getattr(args, k) is None]
        if missing:
            raise CardlabError(f"give the spot: {', '.join(missing)} (or --load FILE.npz)")
        if args.save:
            _check_save(args.save)
        with about_option("--oop"):
            river_hands_check(args.oop)
        with about_option("--ip"):
            river_hands_check(args.ip)
        game = river_game(args.oop, args.ip, args.board, pot=args.pot, stack=args.stack, oop_bet=args.oop_bet,
                          oop_raise=args.oop_raise, ip_bet=args.ip_bet, ip_raise=args.ip_raise,
                          allin_threshold=args.allin_threshold, max_raises=args.max_raises,
                          river=_street(args, "river"), turn=_street(args, "turn"), oop_donk=args.oop_donk,
                          rake=args.rake, rake_cap=args.rake_cap)
        print(f"cardlab: {memory_line(game, args.memory_limit)}", file=sys.stderr)
        engine = Engine.new(game, args.memory_limit)
        for text in args.lock:
            with about_option("--lock"):
                apply_lock(engine, text)
        solve(game, target=args.target, time_limit=args.time_limit, max_iterations=args.max_iterations,
              engine=engine, workers=args.threads, progress=True)
        solution = Solution(engine)
        if args.exact:
            from cardlab.solver.lp import game_value

            value = game_value(game)
            print(f"cardlab: exact value (LP): OOP {value + game.tree.pot / 2:.6f}, IP "
                  f"{game.tree.pot / 2 - value:.6f} (share of the pot)", file=sys.stderr)
        if args.save:
            from cardlab.cli.output import replacing

            with replacing(args.save, whole=True) as temporary:
                solution.save(temporary)
    if args.export_range:
        from cardlab.cli.output import write_text

        with about_option("--node"):
            text = solution.range_text(args.node, ("oop", "ip").index(args.export_range))
        write_text(args, (text or "(no combo reaches this node)") + "\n")
        return 130 if solution.engine.interrupted else 0
    with about_option("--node"):
        report = solution.report(args.node, by=args.by)
    write_result(args, report)
    return 130 if solution.engine.interrupted else 0


def _flops(args: argparse.Namespace) -> int:
    """``--flops``: the spot solved on each flop, a row each."""
    from cardlab.solver.flops import flop_report

    missing = [f"--{k}" for k in _SPOT if k != "board" and getattr(args, k) is None]
    if missing or args.board is not None or args.load or args.lock or args.save or args.exact or args.export_range:
        raise CardlabError("--flops reports over flops: give --oop, --ip, --pot and --stack, and no --board, --load, "
                           "--lock, --save, --exact or --export-range")
    flops = None if args.flops.strip().lower() == "all" else [f for f in args.flops.split(";") if f.strip()]
    report = flop_report(args.oop, args.ip, flops, pot=args.pot, stack=args.stack, target=args.target,
                         time_limit=args.time_limit, workers=args.threads, memory_mb=args.memory_limit,
                         oop_bet=args.oop_bet, oop_raise=args.oop_raise, ip_bet=args.ip_bet, ip_raise=args.ip_raise,
                         allin_threshold=args.allin_threshold, max_raises=args.max_raises,
                         river=_street(args, "river"), turn=_street(args, "turn"), oop_donk=args.oop_donk,
                         rake=args.rake, rake_cap=args.rake_cap)
    write_result(args, report)
    return 130 if report.summary["interrupted"] else 0


def _street(args: argparse.Namespace, street: str) -> dict[str, str]:
    """A later street's sizes given apart from the first street's."""
    return {f"{who}_{kind}": getattr(args, f"{street}_{who}_{kind}") for who in ("oop", "ip")
            for kind in ("bet", "raise") if getattr(args, f"{street}_{who}_{kind}") is not None}


def _check_save(path: str) -> None:
    """Fail before the solve if ``--save`` cannot be written."""
    import os
    from pathlib import Path

    folder = Path(path).parent if str(Path(path).parent) else Path(".")
    if Path(path).is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise CardlabError(f"cannot use file '{path}' (--save): its folder is missing or not writable, or it is a folder")


def river_hands_check(text: str) -> None:
    """Parse a range early, so its error names its option."""
    from cardlab.poker.ranges import parse_range

    parse_range(text)


def memory_line(game: Game, limit_mb: float) -> str:
    """What the command prints before a solve: the tree's size, the combos and the memory estimate
    beside the limit (the workbench's solver page shows the same line)."""
    return (f"solving a tree of {game.tree.size:,} nodes ({game.tree.decision_count:,} decisions), "
            f"{len(game.hands[0]):,} x {len(game.hands[1]):,} combos, memory about "
            f"{game.memory_bytes() / 2**20:,.2f} MB (limit {limit_mb:,.0f} MB)")


def apply_lock(engine: Engine, text: str) -> None:
    """``--lock NODE=ACTION:FREQ,...``: every combo of the player acting at NODE plays those
    frequencies there (:meth:`cardlab.solver.engine.Engine.lock`); the workbench reads its locks
    with it too."""
    import numpy as np

    path, sep, freqs = text.rpartition("=")
    if not sep:
        raise CardlabError(f"cannot read '{text}': write NODE=ACTION:FREQ,ACTION:FREQ")
    tree = engine.game.tree
    node = tree.find(path)
    actions = tree.actions(node) if tree.kind[node] == 0 else []
    table = np.zeros(len(actions))
    for part in (p.strip() for p in freqs.split(",") if p.strip()):
        name, _, value = part.partition(":")
        if name.strip().upper() not in actions:
            raise CardlabError(f"no action '{name.strip()}' at node '{path or 'root'}': the actions there are "
                               f"{', '.join(actions) or 'none'}")
        try:
            table[actions.index(name.strip().upper())] = float(value)
        except ValueError:
            raise CardlabError(f"cannot read the frequency in '{part}'") from None
    engine.lock(node, table[:, None])
