"""``cardlab bridge matchpoints`` and ``cardlab bridge score``: duplicate scoring commands.

Parsing and printing only; the scoring lives in :mod:`cardlab.bridge`.

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
import sys
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table

from cardlab.scoring.check import compare
from cardlab.scoring.csv_travellers import read_travellers
from cardlab.scoring.matchpoints import Scale, board_matchpoints, percentages, top
from cardlab.scoring.session import Method, PairKey, SessionResult, score_session
from cardlab.scoring.traveller import TravellerLine
from cardlab.scoring.usebio import Reported, read_usebio, write_usebio
from cardlab.errors import ResultFileError, ScoringError
from cardlab.report.scoring_output import print_session_table, session_csv, session_json

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
    mp.set_defaults(func=_run_matchpoints)

    score = subparsers.add_parser(
        "score", help="score a session from a traveller file (CSV or USEBIO XML)",
        description="Recompute a session from its raw results: per-board scores, pair totals, "
                    "percentages and places.  Matchpoints found in the file are ignored "
                    "(use --check to compare them with ours).",
    )
    score.add_argument("file", metavar="FILE", help="traveller CSV or USEBIO 1.2 XML file")
    score.add_argument("--scale", choices=["acbl", "ebu"], default=None,
                       help="matchpoint units (default: ebu for USEBIO files, acbl for CSV)")
    score.add_argument("--method", choices=["mp", "cross-imps", "butler"], default="mp",
                       help="matchpoints (default), cross-IMPs or Butler IMPs")
    score.add_argument("--movement", choices=["mitchell", "howell"], default=None,
                       help="two fields (mitchell) or one (howell); detected when not given")
    score.add_argument("--format", choices=["table", "csv", "json", "html", "usebio"],
                       default="table", help="output format (default table)")
    score.add_argument("-o", "--output", metavar="FILE",
                       help="write the output to FILE; with --format html, a directory "
                            "(DIR/) gets a linked site: ranking, scorecards, travellers, "
                            "hand records")
    score.add_argument("--check", action="store_true",
                       help="compare our figures with those in the USEBIO file; list every "
                            "difference (exit status 1 if any)")
    score.add_argument("--allow-repeated-pairs", action="store_true",
                       help="accept a pair playing one board more than once (each line then "
                            "counts as a board played) instead of stopping with an error")
    score.add_argument("--title", help="event title for the report")
    score.set_defaults(func=_run_score)


def _run_matchpoints(args: argparse.Namespace) -> int:
    scores = []
    for text in args.scores:
        try:
            scores.append(int(text))
        except ValueError:
            raise ScoringError(f"score must be a whole number, not {text!r}") from None
    points = board_matchpoints(scores, scale=args.scale)
    board_top = top(len(scores), args.scale)
    pct = percentages(points, board_top)
    console = Console(file=sys.stdout)
    console.print(f"{len(scores)} results, top {board_top} ({args.scale.upper()} units)")
    table = Table(box=box.SIMPLE)
    for name in ("Score", "Points", "%"):
        table.add_column(name, justify="right")
    for score, p, q in zip(scores, points.tolist(), pct.tolist()):
        table.add_row(str(score), f"{p:g}", f"{q:.2f}")
    console.print(table)
    return 0


def _run_score(args: argparse.Namespace) -> int:
    site_dir = _site_dir(args)
    path = Path(args.file)
    data = path.read_bytes()
    source = path.name
    is_xml = path.suffix.lower() == ".xml" or data.lstrip()[:1] == b"<"
    reported: Reported | None = None
    names: dict[PairKey, tuple[str, ...]] = {}
    lines: list[TravellerLine]
    title = args.title or ""
    club = date = ""
    movement = args.movement
    if is_xml:
        doc = read_usebio(data, source)
        lines = list(doc.lines)
        reported, names = doc.reported, doc.names
        title = title or doc.title
        club, date = doc.club, doc.date
        movement = movement or doc.movement
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ResultFileError(f"not UTF-8 text ({error.reason})", source=source) from None
        lines = read_travellers(text, source)
    scale = Scale.parse(args.scale or ("ebu" if is_xml else "acbl"))
    try:
        result = score_session(lines, method=args.method, scale=scale, movement=movement,
                               allow_repeated_pairs=args.allow_repeated_pairs, names=names,
                               title=title)
    except ResultFileError as error:
        if error.source is None:
            raise ResultFileError(error.reason, line=error.line, source=source) from None
        raise
    if args.check:
        return _check(result, reported, source)
    if site_dir is not None:
        from cardlab.report.site import write_site  # jinja2: only when asked
        from cardlab.report.site.deals import read_usebio_deals

        deals = read_usebio_deals(data, source) if is_xml else {}
        site = write_site(result, site_dir, deals=deals, club=club, date=date)
        print(f"wrote {site.table()} to {site_dir}")
        return 0
    _write(result, args, club, date)
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


def _check(result: SessionResult, reported: Reported | None, source: str) -> int:
    if reported is None:
        raise ScoringError("--check needs a USEBIO file (a CSV traveller states no figures)")
    if result.method is not Method.MP:
        raise ScoringError("--check compares matchpoints: use it with --method mp")
    differences = compare(result, reported)
    for line in differences:
        print(line)
    lines = sum(len(b.lines) for b in result.boards)
    if differences:
        print(f"{source}: {len(differences)} difference(s)", file=sys.stderr)
        return 1
    print(f"{source}: no differences ({lines} lines, {len(result.pairs)} pairs checked)")
    return 0


def _write(result: SessionResult, args: argparse.Namespace, club: str, date: str) -> None:
    if args.format == "table":
        if args.output:
            with open(args.output, "w", encoding="utf-8") as handle:
                print_session_table(result, Console(file=handle, width=100))
        else:
            print_session_table(result, Console(file=sys.stdout))
        return
    if args.format == "json":
        text = json.dumps(session_json(result), indent=2) + "\n"
    elif args.format == "csv":
        text = session_csv(result)
    elif args.format == "html":
        from cardlab.report.scoring_html import session_html  # jinja2: only when asked
        text = session_html(result)
    else:
        text = write_usebio(result, club=club, date=date)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
