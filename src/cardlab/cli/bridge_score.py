"""``cardlab bridge matchpoints`` and ``cardlab bridge score``: duplicate scoring commands.

Parsing and printing only: ``score`` is one call of
:func:`cardlab.report.scoring_run.score_file` (read, score, check or render), ``matchpoints``
one of :func:`cardlab.scoring.matchpoints.matchpoint_board`.

>>> from cardlab.cli.main import main
>>> main(["bridge", "matchpoints", "420", "400", "400"])
3 results, top 2 (ACBL units)
<BLANKLINE>
  Score   Points        %
 ─────────────────────────
    420        2   100.00
    400      0.5    25.00
    400      0.5    25.00
<BLANKLINE>
0
>>> main(["bridge", "matchpoints", "420", "4S="])  # one line on stderr, status 2
2
"""

from __future__ import annotations

import argparse
import sys

from cardlab.cli.output import write_result, write_text

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add this group's commands to ``subparsers``."""
    mp = subparsers.add_parser(
        "matchpoints", help="matchpoint the scores of one board",
        description="Matchpoints and percentage of each NS score of one board "
                    "(1 per pair beaten, 1/2 per tie in ACBL units; 2 and 1 in EBU units).",
    )
    mp.add_argument("scores", nargs="+", metavar="SCORE", help="NS scores, e.g. 650 300 -200")
    mp.add_argument("--scale", choices=["acbl", "ebu"], default="acbl",
                    help="matchpoint units (default acbl)")
    mp.add_argument("--format", choices=["table", "csv", "json"], default="table",
                    help="output format (default table)")
    mp.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE")
    mp.set_defaults(func=_run_matchpoints)

    score = subparsers.add_parser(
        "score", help="score a session from a result file (USEBIO XML, PBN, CSV or Bridgemate .bws)",
        description="Recompute a session from its raw results: per-board scores, pair totals, "
                    "percentages and places.  The format is recognised by content.  "
                    "Matchpoints found in the file are ignored (use --check to compare them "
                    "with ours).",
    )
    score.add_argument("file", metavar="FILE", help="USEBIO 1.2 XML, PBN or CSV traveller file, or a Bridgemate .bws")
    score.add_argument("--scale", choices=["acbl", "ebu"], default=None,
                       help="matchpoint units (default: ebu for USEBIO and PBN, acbl for CSV)")
    score.add_argument("--method", choices=["mp", "cross-imps", "butler", "median-imps"],
                       default=None,
                       help="matchpoints, cross-IMPs, Butler IMPs or IMPs against the median "
                            "(default: the file's event type, else mp)")
    score.add_argument("--movement", choices=["mitchell", "howell"], default=None,
                       help="two fields (mitchell) or one (howell); detected when not given")
    score.add_argument("--format", choices=["table", "csv", "json", "html", "usebio", "pbn"],
                       default="table", help="output format (default table)")
    score.add_argument("-o", "--output", metavar="FILE",
                       help="write the output to FILE; with --format html, a directory "
                            "(DIR/) gets a linked site: ranking, scorecards, travellers, "
                            "hand records")
    score.add_argument("--check", action="store_true",
                       help="compare our figures with those the file states; list every "
                            "difference (exit status 1 if any)")
    score.add_argument("--allow-repeated-pairs", action="store_true",
                       help="accept a pair playing one board more than once (each line then "
                            "counts as a board played) instead of stopping with an error")
    score.add_argument("--phantom", action="append", default=[], metavar="PAIR",
                       help="a phantom or sit-out pair (e.g. 4, or 4EW in a Mitchell); "
                            "never ranked; may be repeated")
    score.add_argument("--phantom-score", choices=["session", "average-plus"],
                       default="session",
                       help="the real pair's score against a phantom: its session average "
                            "(default) or average plus, 60%%")
    score.add_argument("--title", help="event title for the report")
    score.set_defaults(func=_run_score, output_may_be_folder=True)


def _run_matchpoints(args: argparse.Namespace) -> int:
    from cardlab.scoring.matchpoints import matchpoint_board

    board = matchpoint_board(args.scores, scale=args.scale)
    write_result(args, board)
    return 0


def _run_score(args: argparse.Namespace) -> int:
    from cardlab.report.scoring_run import score_file

    from cardlab.club.files import load_any

    run = score_file(load_any(args.file), fmt=args.format, output=args.output, check=args.check,
                     method=args.method, scale=args.scale, movement=args.movement,
                     allow_repeated_pairs=args.allow_repeated_pairs, phantoms=args.phantom,
                     phantom_rule=args.phantom_score, title=args.title)
    for note in run.notes:
        print(f"cardlab: note: {note}", file=sys.stderr)
    if run.text is not None:
        write_text(args, run.text)
    if run.message:
        print(run.message)
    if run.summary:
        print(run.summary, file=sys.stderr)
    return run.status
