"""Compare our figures with the ones a result file reports (``--check``).

Every difference is listed: per traveller line the NS and EW matchpoints (to 2
decimals), per pair the percentage, place and total score.  A figure the file
states for a pair we never saw is a difference too.

>>> from cardlab.scoring.session import score_session
>>> from cardlab.scoring.traveller import TravellerLine as T
>>> from cardlab.scoring.usebio import Reported
>>> result = score_session([T.make(1, "1", "1", score=100), T.make(1, "2", "2", score=50)])
>>> compare(result, Reported((("1.00", "0.00"), ("0.00", "0.50")), {}))
['board 1, NS 2 v EW 2: EW_MATCH_POINTS file 0.50, ours 1.00']
>>> compare(result, Reported((), {}))
Traceback (most recent call last):
...
cardlab.errors.ScoringError: the file reports matchpoints for 0 lines, we scored 2
"""

from __future__ import annotations

from cardlab.scoring.session import SessionResult
from cardlab.scoring.usebio import Reported
from cardlab.errors import ScoringError

__all__ = ["compare"]


def _same(reported: str, ours: float) -> bool:
    try:
        return abs(float(reported) - round(ours, 2)) < 0.005
    except ValueError:
        return False


def compare(result: SessionResult, reported: Reported) -> list[str]:
    """Differences between ``result`` and the file's ``reported`` figures, one line each."""
    scored = [line for board in result.boards for line in board.lines]
    if reported.line_points and len(reported.line_points) != len(scored):
        raise ScoringError(
            f"the file reports matchpoints for {len(reported.line_points)} lines, "
            f"we scored {len(scored)}"
        )
    if not reported.line_points and not reported.pairs:
        raise ScoringError(
            f"the file reports matchpoints for 0 lines, we scored {len(scored)}"
        )
    # result.boards keeps each board's lines in input order and boards sorted; line_points
    # are in file order, so pair them up through the original line objects.
    differences: list[str] = []
    by_source = sorted(scored, key=lambda s: (s.line.source_line or 0))
    ordered = by_source if all(s.line.source_line for s in scored) else scored
    for s, (ns_text, ew_text) in zip(ordered, reported.line_points):
        line = s.line
        where = f"board {line.board}, NS {line.ns} v EW {line.ew}"
        for tag, text, ours in (("NS_MATCH_POINTS", ns_text, s.ns_points),
                                ("EW_MATCH_POINTS", ew_text, s.ew_points)):
            if text is None:
                differences.append(f"{where}: {tag} missing in file, ours {ours:.2f}")
            elif not _same(text, ours):
                differences.append(f"{where}: {tag} file {text}, ours {ours:.2f}")
    ours_by_key = {pair.key: pair for pair in result.pairs}
    for key, figures in reported.pairs.items():
        name = f"pair {key[0] + ' ' if key[0] else ''}{key[1]}"
        pair = ours_by_key.get(key)
        if pair is None:
            differences.append(f"{name}: in the file but played no board")
            continue
        mine: dict[str, str] = {"PLACE": pair.place}
        if pair.percentage is not None and result.top is not None:
            most = result.most_boards(pair.direction)
            mine["PERCENTAGE"] = f"{pair.percentage:.2f}"
            mine["TOTAL_SCORE"] = f"{pair.percentage * most * result.top / 100:.2f}"
        else:
            mine["TOTAL_SCORE"] = f"{pair.total:.2f}"
        for tag, text in figures.items():
            if tag not in mine:
                continue
            equal = text == mine[tag] if tag == "PLACE" else _same(text, float(mine[tag]))
            if not equal:
                differences.append(f"{name}: {tag} file {text}, ours {mine[tag]}")
    for key in ours_by_key.keys() - reported.pairs.keys():
        if reported.pairs:
            differences.append(f"pair {key[0] + ' ' if key[0] else ''}{key[1]}: not in the file")
    return differences
