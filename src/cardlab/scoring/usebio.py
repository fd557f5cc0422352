"""USEBIO 1.2 XML: read traveller lines (and the figures a file reports), write results.

The reader keeps only what scoring needs -- pairs and names, board numbers,
traveller lines -- and ignores the other elements real files carry.  The
matchpoints, percentages and places found in a file are returned separately as
:class:`Reported` figures for ``--check``; they are never used for scoring.
XML is parsed with defusedxml (no external entities, no entity expansion bombs).

>>> doc = read_usebio(b"<USEBIO><EVENT><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>"
...     b"<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>"
...     b"<CONTRACT>3NT</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>9</TRICKS>"
...     b"</TRAVELLER_LINE></BOARD></EVENT></USEBIO>")
>>> doc.lines[0].score
400
>>> read_usebio(b"<USEBIO><EVENT><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\\n"
...     b"<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER></TRAVELLER_LINE></BOARD></EVENT></USEBIO>")
Traceback (most recent call last):
...
cardlab.errors.ResultFileError: line 2: TRAVELLER_LINE has no EW_PAIR_NUMBER
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any

import defusedxml.ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from cardlab.scoring.session import Method, Movement, PairKey, SessionResult
from cardlab.scoring.traveller import TravellerLine
from cardlab.errors import CardlabError, ResultFileError

__all__ = ["Reported", "UsebioDocument", "read_usebio", "write_usebio"]

_LINE_ATTR = "{urn:cardlab}line"


@dataclass(frozen=True)
class Reported:
    """Figures a file states (for comparison only): per line (NS MP, EW MP) in line order,
    and per pair (percentage, place, total score) as text."""

    line_points: tuple[tuple[str | None, str | None], ...] = ()
    pairs: dict[PairKey, dict[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class UsebioDocument:
    lines: tuple[TravellerLine, ...]
    movement: Movement | None
    names: dict[PairKey, tuple[str, ...]]
    title: str
    club: str
    date: str
    reported: Reported


class _LineTreeBuilder(ET.TreeBuilder):
    """A tree builder that writes each element's line number into a private attribute."""

    def __init__(self) -> None:
        super().__init__()
        self.parser: Any = None

    def start(self, tag: Any, attrs: Any) -> ET.Element:
        element = super().start(tag, attrs)
        element.set(_LINE_ATTR, str(self.parser.parser.CurrentLineNumber))
        return element


def _parse(data: bytes, source: str | None) -> ET.Element:
    builder = _LineTreeBuilder()
    parser = SafeET.DefusedXMLParser(target=builder, forbid_dtd=False, forbid_entities=True,
                                     forbid_external=True)
    builder.parser = parser
    try:
        parser.feed(data)
        root: ET.Element = parser.close()
    except ET.ParseError as error:
        line = error.position[0] if error.position else None
        reason = re.sub(r": line \d+, column (\d+)$", r" at column \1", str(error))
        raise ResultFileError(f"malformed XML: {reason}", line=line, source=source) from None
    except DefusedXmlException as error:
        raise ResultFileError(f"refused XML: {error!r}", source=source) from None
    return root


def _line_of(element: ET.Element) -> int | None:
    text = element.get(_LINE_ATTR)
    return int(text) if text else None


def _text(element: ET.Element, tag: str) -> str | None:
    child = element.find(tag)
    if child is None or child.text is None or not child.text.strip():
        return None
    return child.text.strip()


def read_usebio(data: bytes | str, source: str | None = None) -> UsebioDocument:
    """Read a USEBIO document from its bytes (or text); ``source`` names it in messages."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    root = _parse(raw, source)
    if root.tag != "USEBIO":
        raise ResultFileError(f"not a USEBIO file (root element {root.tag})", line=_line_of(root),
                              source=source)
    events = root.findall("EVENT")
    if len(events) != 1:
        raise ResultFileError(f"expected one EVENT, found {len(events)}", source=source)
    event = events[0]
    winner = _text(event, "WINNER_TYPE")
    movement = {"1": Movement.HOWELL, "2": Movement.MITCHELL, None: None}.get(winner)
    if winner is not None and movement is None:
        raise ResultFileError(f"unknown WINNER_TYPE {winner!r} (expected 1 or 2)",
                              line=_line_of(event), source=source)
    names: dict[PairKey, tuple[str, ...]] = {}
    reported_pairs: dict[PairKey, dict[str, str]] = {}
    for pair in event.iter("PAIR"):
        key = _pair_key(pair, movement, source)
        players = tuple(
            n for n in (_text(p, "PLAYER_NAME") for p in pair.findall("PLAYER")) if n
        )
        names[key] = players
        reported_pairs[key] = {
            tag: value
            for tag in ("PERCENTAGE", "PLACE", "TOTAL_SCORE")
            if (value := _text(pair, tag)) is not None
        }
    lines: list[TravellerLine] = []
    points: list[tuple[str | None, str | None]] = []
    seen: set[int] = set()
    for board in event.iter("BOARD"):
        number = _text(board, "BOARD_NUMBER")
        if number is None:
            raise ResultFileError("BOARD has no BOARD_NUMBER", line=_line_of(board), source=source)
        for tl in board.findall("TRAVELLER_LINE"):
            lines.append(_traveller_line(number, tl, source))
            points.append((_text(tl, "NS_MATCH_POINTS"), _text(tl, "EW_MATCH_POINTS")))
            seen.add(id(tl))
    for tl in root.iter("TRAVELLER_LINE"):  # nothing silently dropped
        if id(tl) not in seen:
            raise ResultFileError("TRAVELLER_LINE outside a BOARD of the EVENT",
                                  line=_line_of(tl), source=source)
    if not lines:
        raise ResultFileError("no TRAVELLER_LINE in the file", source=source)
    club = root.find("CLUB")
    return UsebioDocument(
        tuple(lines), movement, names,
        _text(event, "EVENT_DESCRIPTION") or "",
        (_text(club, "CLUB_NAME") or "") if club is not None else "",
        _text(event, "DATE") or "",
        Reported(tuple(points), reported_pairs),
    )


def _pair_key(pair: ET.Element, movement: Movement | None, source: str | None) -> PairKey:
    number = _text(pair, "PAIR_NUMBER")
    if number is None:
        raise ResultFileError("PAIR has no PAIR_NUMBER", line=_line_of(pair), source=source)
    direction = _text(pair, "DIRECTION")
    if direction is not None:
        direction = direction.upper()
        if direction not in ("NS", "EW"):
            raise ResultFileError(f"unknown DIRECTION {direction!r}", line=_line_of(pair),
                                  source=source)
        if number.upper().endswith(direction):
            number = number[: -len(direction)]
    if movement is Movement.HOWELL:
        direction = None
    return (direction, number)


def _traveller_line(board: str, tl: ET.Element, source: str | None) -> TravellerLine:
    line_no = _line_of(tl)
    values = {tag: _text(tl, tag) for tag in (
        "NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "TRICKS", "SCORE", "LEAD")}
    for tag in ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER"):
        if values[tag] is None:
            raise ResultFileError(f"TRAVELLER_LINE has no {tag}", line=line_no, source=source)
    try:
        return TravellerLine.make(
            board, values["NS_PAIR_NUMBER"] or "", values["EW_PAIR_NUMBER"] or "",
            contract=values["CONTRACT"], declarer=values["PLAYED_BY"], tricks=values["TRICKS"],
            score=values["SCORE"], lead=values["LEAD"], source_line=line_no,
        )
    except ResultFileError:
        raise
    except CardlabError as error:
        raise ResultFileError(str(error), line=line_no, source=source) from None


_EVENT_TYPES = {Method.MP: "MP_PAIRS", Method.CROSS_IMPS: "CROSS_IMPS",
                Method.BUTLER: "BUTLER_PAIRS"}


def _fig(value: float) -> str:
    return f"{round(value, 2) + 0.0:.2f}"


def _sub(parent: ET.Element, tag: str, text: str | None = None) -> ET.Element:
    child = ET.SubElement(parent, tag)
    if text is not None:
        child.text = text
    return child


def write_usebio(result: SessionResult, *, club: str = "", date: str = "") -> str:
    """The session as USEBIO 1.2 XML text (figures to 2 decimals)."""
    root = ET.Element("USEBIO", {"Version": "1.2"})
    if club:
        _sub(_sub(root, "CLUB"), "CLUB_NAME", club)
    event_type = _EVENT_TYPES[result.method]
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
    points = ("NS_MATCH_POINTS", "EW_MATCH_POINTS") if result.method is Method.MP else (
        "NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS")
    for board in result.boards:
        b = _sub(event, "BOARD")
        _sub(b, "BOARD_NUMBER", str(board.board))
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
