"""``cardlab bridge matchpoints`` and ``cardlab bridge score``: duplicate scoring commands.

Parsing and printing only; the scoring lives in :mod:`cardlab.scoring`
(:func:`~cardlab.scoring.load_results`, :meth:`ResultsFile.score`, :meth:`ResultsFile.check`).

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
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from cardlab.cli.output import write_result, write_text

if TYPE_CHECKING:
    from cardlab.scoring.results_file import ResultsFile
    from cardlab.scoring.session import SessionResult

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
        "score", help="score a session from a result file (USEBIO XML, PBN or CSV)",
        description="Recompute a session from its raw results: per-board scores, pair totals, "
                    "percentages and places.  The format is recognised by content.  "
                    "Matchpoints found in the file are ignored (use --check to compare them "
                    "with ours).",
    )
    score.add_argument("file", metavar="FILE", help="USEBIO 1.2 XML, PBN or CSV traveller file")
    score.add_argument("--scale", choices=["acbl", "ebu"], default=None,
                       help="matchpoint units (default: ebu for USEBIO and PBN, acbl for CSV)")
    score.add_argument("--method", choices=["mp", "cross-imps", "butler"], default=None,
                       help="matchpoints, cross-IMPs or Butler IMPs (default: the file's event "
                            "type, else mp)")
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
    from cardlab.scoring.results_file import load_results

    site_dir = _site_dir(args)
    doc = load_results(args.file)
    notice = doc.method_notice(args.method)
    if notice:
        print(f"cardlab: note: {notice}", file=sys.stderr)
    result = doc.score(method=args.method, scale=args.scale, movement=args.movement,
                       allow_repeated_pairs=args.allow_repeated_pairs, phantoms=args.phantom,
                       phantom_rule=args.phantom_score, title=args.title)
    if args.check:
        report = doc.check(result)
        write_text(args, report.table())
        if not report.ok:
            print(f"{doc.source}: {len(report.differences)} difference(s)", file=sys.stderr)
            return 1
        return 0
    if site_dir is not None:
        from cardlab.report.site import write_site  # jinja2: only when asked

        site = write_site(result, site_dir, deals=doc.deals, club=doc.club, date=doc.date)
        print(f"wrote {site.table()} to {site_dir}")
        return 0
    write_text(args, _render(result, doc, args.format))
    return 0


def _site_dir(args: argparse.Namespace) -> Path | None:
    """The directory of ``--format html -o DIR/`` (made now, before any work), else None."""
    if args.format != "html" or not args.output or args.check:
        return None
    from cardlab.report.site import is_site_target

    if not is_site_target(args.output):
        return None
    directory = Path(args.output)
    directory.mkdir(parents=True, exist_ok=True)
    probe = directory / ".cardlab-write-test"
    probe.write_text("")
    probe.unlink()
    return directory




def _render(result: SessionResult, doc: ResultsFile, fmt: str) -> str | Iterable[str]:
    if fmt == "json":
        from cardlab.scoring.output import iter_session_json

        return iter_session_json(result)  # streamed: big sessions are never one dict
    if fmt == "csv":
        return result.to_csv()
    if fmt == "html":
        from cardlab.report.scoring_html import iter_session_html  # jinja2: only when asked

        return iter_session_html(result)  # streamed: a big session is never one string
    if fmt == "usebio":
        from cardlab.scoring.usebio import write_usebio

        return write_usebio(result, club=doc.club, date=doc.date, deals=dict(doc.deals))
    if fmt == "pbn":
        from cardlab.scoring.pbn import write_pbn

        return write_pbn(result, deals=dict(doc.deals), date=doc.date, site=doc.club)
    return result.table()
