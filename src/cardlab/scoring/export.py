"""Writing a scored session back out: USEBIO 1.2 XML and PBN 2.1 score tables.

The writers sit above :mod:`~cardlab.scoring.session` (they take a
:class:`~cardlab.scoring.session.SessionResult`); the format modules
:mod:`~cardlab.scoring.usebio` and :mod:`~cardlab.scoring.pbn` only read.  Matchpoints are
written in the format's native units, EBU units (2 per pair beaten), the units the programs
that write these formats use and the units a reader assumes
(:attr:`~cardlab.scoring.document.ResultsFile.default_scale`): a session scored in ACBL units
is converted (:meth:`~cardlab.scoring.session.SessionResult.in_scale`, exact), so score →
export → ``--check`` is clean for every pair of formats.

>>> from cardlab.scoring.document import ResultsFile
>>> from cardlab.scoring.session import score_session
>>> from cardlab.scoring.traveller import TravellerLine as T
>>> lines = [T.make(1, "1", "1", score=420), T.make(1, "2", "2", score=400)]
>>> result = score_session(lines)                  # ACBL units: top 1
>>> from cardlab.scoring.usebio import read_usebio
>>> back = read_usebio(write_usebio(result))
>>> back.reported.line_points[0], back.score().scale, back.check(back.score()).ok
(('2.00', '0.00'), <Scale.EBU: 'ebu'>, True)
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Mapping

from cardlab.board import SEATS, dealer
from cardlab.deal import Board
from cardlab.pbn import format_tag
from cardlab.scoring.document import Method, Movement
from cardlab.scoring.matchpoints import Scale
from cardlab.scoring.session import SessionResult
from cardlab.scoring.usebio import POINT_TAGS

if TYPE_CHECKING:
    from cardlab.scoring.document import ResultsFile

__all__ = ["write_usebio", "write_pbn", "export", "EXPORT_FORMATS", "NATIVE_SCALE",
           "export_notice"]

#: The formats :func:`export` writes.
EXPORT_FORMATS = ("usebio", "pbn")

#: The matchpoint units each export format is written in (and read back in).
NATIVE_SCALE = {"usebio": Scale.EBU, "pbn": Scale.EBU}


def export_notice(result: SessionResult, fmt: str) -> str | None:
    """A one-line notice when ``fmt`` writes ``result``'s matchpoints in other units."""
    native = NATIVE_SCALE.get(fmt)
    if native is None or result.method.is_imps or result.scale is native:
        return None
    return (f"{fmt} figures are written in {native.value.upper()} units ({native.per_win} per "
            f"pair beaten), the units {fmt} readers assume; percentages and places are the same")

_SUIT_TAGS = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")


def export(result: SessionResult, fmt: str, document: "ResultsFile | None" = None) -> str:
    """``result`` as a ``usebio`` or ``pbn`` file, with the club, date and hands of the
    ``document`` it was scored from (when given)."""
    club = document.club if document is not None else ""
    date = document.date if document is not None else ""
    deals = dict(document.deals) if document is not None else {}
    if fmt == "usebio":
        return write_usebio(result, club=club, date=date, deals=deals)
    if fmt == "pbn":
        return write_pbn(result, deals=deals, date=date, site=club)
    raise ValueError(f"export writes {' or '.join(EXPORT_FORMATS)}, not {fmt!r}")


_EVENT_TYPE_OF = {Method.MP: "MP_PAIRS", Method.CROSS_IMPS: "CROSS_IMP",
                  Method.BUTLER: "BUTLER_PAIRS", Method.MEDIAN_IMPS: "MEDIAN_IMP_PAIRS"}
_POINTS_OF = {Method.MP: POINT_TAGS[0], Method.CROSS_IMPS: POINT_TAGS[1],
              Method.BUTLER: POINT_TAGS[2], Method.MEDIAN_IMPS: POINT_TAGS[3]}


def _fig(value: float) -> str:
    return f"{round(value, 2) + 0.0:.2f}"


def _sub(parent: ET.Element, tag: str, text: str | None = None) -> ET.Element:
    child = ET.SubElement(parent, tag)
    if text is not None:
        child.text = text
    return child


def write_usebio(result: SessionResult, *, club: str = "", date: str = "",
                 deals: Mapping[int, Board] | None = None) -> str:
    """The session as USEBIO 1.2 XML text (figures to 2 decimals, matchpoints in EBU units);
    ``deals`` (the boards' hand records by number) are written as ``HAND`` elements."""
    result = result.in_scale(NATIVE_SCALE["usebio"])
    root = ET.Element("USEBIO", {"Version": "1.2"})
    if club:
        _sub(_sub(root, "CLUB"), "CLUB_NAME", club)
    event_type = _EVENT_TYPE_OF[result.method]
    event = _sub(root, "EVENT")
    event.set("EVENT_TYPE", event_type)
    if result.title:
        _sub(event, "EVENT_DESCRIPTION", result.title)
    _sub(event, "PROGRAM_NAME", "cardlab")
    _sub(event, "WINNER_TYPE", "2" if result.movement is Movement.MITCHELL else "1")
    if date:
        _sub(event, "DATE", date)
    participants = _sub(event, "PARTICIPANTS")
    participants.set("EVENT_TYPE", event_type)
    for pair in result.pairs:
        element = _sub(participants, "PAIR")
        _sub(element, "PAIR_NUMBER", pair.pair + (pair.direction or ""))
        if pair.direction:
            _sub(element, "DIRECTION", pair.direction)
        if pair.percentage is not None and result.top is not None:
            most = result.most_boards(pair.direction)
            _sub(element, "TOTAL_SCORE", _fig(pair.percentage * most * result.top / 100))
            _sub(element, "PERCENTAGE", _fig(pair.percentage))
        else:
            _sub(element, "TOTAL_SCORE", _fig(pair.total))
        _sub(element, "PLACE", pair.place)
        for name in pair.names:
            _sub(_sub(element, "PLAYER"), "PLAYER_NAME", name)
    for direction, number in result.phantoms:
        element = _sub(participants, "PAIR")
        _sub(element, "PAIR_NUMBER", number + (direction or ""))
        if direction:
            _sub(element, "DIRECTION", direction)
        _sub(_sub(element, "PLAYER"), "PLAYER_NAME", "Phantom")
    points = _POINTS_OF[result.method]
    for board in result.boards:
        b = _sub(event, "BOARD")
        _sub(b, "BOARD_NUMBER", str(board.board))
        deal = (deals or {}).get(board.board)
        if deal:
            _write_hands(b, deal)
        for scored in board.lines:
            line = scored.line
            tl = _sub(b, "TRAVELLER_LINE")
            _sub(tl, "NS_PAIR_NUMBER", line.ns)
            _sub(tl, "EW_PAIR_NUMBER", line.ew)
            if line.contract is not None:
                _sub(tl, "CONTRACT", str(line.contract))
                if line.declarer is not None:
                    _sub(tl, "PLAYED_BY", line.declarer.value)
                if line.tricks is not None:
                    _sub(tl, "TRICKS", str(line.tricks))
            if line.lead:
                _sub(tl, "LEAD", line.lead)
            _sub(tl, "SCORE", str(line.score))
            _sub(tl, points[0], _fig(scored.ns_points))
            _sub(tl, points[1], _fig(scored.ew_points))
    ET.indent(root)
    return '<?xml version="1.0"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _write_hands(board: ET.Element, deal: Board) -> None:
    for seat, name in enumerate(SEATS):
        element = _sub(board, "HAND")
        _sub(element, "DIRECTION", name)
        for tag, cards in zip(_SUIT_TAGS, deal.hand_text(seat).split(".")):
            _sub(element, tag, cards)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_pbn(result: SessionResult, *, deals: Mapping[int, Board] | None = None, event: str = "",
              date: str = "", site: str = "") -> str:
    """The session as PBN 2.1: one game per board with its ``ScoreTable`` (and the deal when
    known), the ``TotalScoreTable`` in the first game; matchpoints in EBU units.  Reads back
    to the same figures."""
    result = result.in_scale(NATIVE_SCALE["pbn"])
    imps = result.method.is_imps
    scoring = {Method.MP: "MP", Method.CROSS_IMPS: "Cross-IMP", Method.BUTLER: "Butler",
               Method.MEDIAN_IMPS: "IMP"}
    unit = "IMP" if imps else "MP"
    out = ["% PBN 2.1", "% EXPORT", "% written by cardlab", ""]
    mitchell = result.movement is Movement.MITCHELL
    for index, board in enumerate(result.boards):
        vul = board.lines[0].line.vulnerability
        out += [format_tag(name, value) for name, value in (
            ("Event", event or result.title), ("Site", site), ("Date", date), ("Board", str(board.board)),
            ("Dealer", dealer(board.board).value), ("Vulnerable", vul.value if vul else "None"))]
        deal = (deals or {}).get(board.board)
        if deal:
            out.append(format_tag("Deal", deal.pbn_deal()))
        out.append(format_tag("Scoring", scoring[result.method]))
        out.append(f'[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\5L;Declarer\\1R;'
                   f'Result\\2R;Score_NS\\6R;{unit}_NS\\6R;{unit}_EW\\6R"]')
        for s in board.lines:
            line = s.line
            contract = "-" if line.contract is None else str(line.contract)
            if line.contract is not None and line.contract.is_pass:
                contract = "Pass"
            out.append(" ".join([
                line.ns, line.ew, _quote(contract),
                line.declarer.value if line.declarer else "-",
                "-" if line.tricks is None else str(line.tricks),
                str(line.score), f"{s.ns_points:.2f}", f"{s.ew_points:.2f}"]))
        if index == 0:
            total = "TotalScoreIMP" if imps else "TotalScoreMP"
            direction = "Direction\\2L;" if mitchell else ""
            columns = f"Rank\\3R;PairId\\3R;{direction}{total}\\7R"
            if not imps:
                columns += ";TotalPercentage\\6R"
            columns += ";Names\\40L"
            out.append(f'[TotalScoreTable "{columns}"]')
            for pair in result.pairs:
                row = [pair.place, pair.pair] + ([pair.direction or ""] if mitchell else [])
                row.append(f"{pair.total:.2f}")
                if not imps:
                    row.append(f"{pair.percentage or 0.0:.2f}")
                row.append(_quote(" & ".join(pair.names)))
                out.append(" ".join(row))
        out.append("")
    return "\n".join(out)
