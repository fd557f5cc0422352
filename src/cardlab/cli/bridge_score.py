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
import json
import os
import sys
from typing import Iterable

from cardlab.scoring.matchpoints import matchpoint_board
from cardlab.scoring.output import iter_session_json
from cardlab.scoring.results_file import ResultsFile, load_results
from cardlab.scoring.session import SessionResult

__all__ = ["register", "check_writable", "write_text"]


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
    score.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE")
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
    score.set_defaults(func=_run_score)


def check_writable(path: str | None) -> None:
    """Fail now (OSError) if ``path`` cannot be written, before any long work."""
    if not path:
        return
    existed = os.path.exists(path)
    with open(path, "a", encoding="utf-8"):
        pass
    if not existed:
        os.remove(path)


def write_text(text: str | Iterable[str], path: str | None) -> None:
    """Write ``text`` (or its chunks) to ``path``, or to stdout."""
    chunks = [text] if isinstance(text, str) else text
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            handle.writelines(chunks)
    else:
        sys.stdout.writelines(chunks)


def _run_matchpoints(args: argparse.Namespace) -> int:
    check_writable(args.output)
    board = matchpoint_board(args.scores, scale=args.scale)
    if args.format == "json":
        text = json.dumps(board.to_json(), indent=2) + "\n"
    elif args.format == "csv":
        text = board.to_csv()
    else:
        text = board.table()
    write_text(text, args.output)
    return 0


def _run_score(args: argparse.Namespace) -> int:
    check_writable(args.output)
    doc = load_results(args.file)
    notice = doc.method_notice(args.method)
    if notice:
        print(f"cardlab: note: {notice}", file=sys.stderr)
    result = doc.score(method=args.method, scale=args.scale, movement=args.movement,
                       allow_repeated_pairs=args.allow_repeated_pairs, phantoms=args.phantom,
                       phantom_rule=args.phantom_score, title=args.title)
    if args.check:
        report = doc.check(result)
        write_text(report.table(), args.output)
        if not report.ok:
            print(f"{doc.source}: {len(report.differences)} difference(s)", file=sys.stderr)
            return 1
        return 0
    write_text(_render(result, doc, args.format), args.output)
    return 0


def _render(result: SessionResult, doc: ResultsFile, fmt: str) -> str | Iterable[str]:
    if fmt == "json":
        return iter_session_json(result)  # streamed: big sessions are never one dict
    if fmt == "csv":
        return result.to_csv()
    if fmt == "html":
        from cardlab.report.scoring_html import session_html  # jinja2: only when asked

        return session_html(result)
    if fmt == "usebio":
        from cardlab.scoring.usebio import write_usebio

        return write_usebio(result, club=doc.club, date=doc.date, deals=dict(doc.deals))
    if fmt == "pbn":
        from cardlab.scoring.pbn import write_pbn

        return write_pbn(result, deals=dict(doc.deals), date=doc.date, site=doc.club)
    return result.table()
