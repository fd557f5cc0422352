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
...     b"<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><SCORE>420</SCORE></TRAVELLER_LINE>"
...     b"</BOARD></EVENT></USEBIO>")
Traceback (most recent call last):
...
cardlab.errors.ResultFileError: line 2: TRAVELLER_LINE has no EW_PAIR_NUMBER
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import defusedxml.ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from cardlab.deal import Board
from cardlab.scoring.document import Method, Movement, PairKey, Reported, ResultsFile, split_pair_id
from cardlab.scoring.usebio_hands import board_deals
from cardlab.scoring.traveller import TravellerLine
from cardlab.errors import CardlabError, ResultFileError

__all__ = ["read_usebio", "read_usebio_deals", "EVENT_TYPES", "method_of_event_type",
           "POINT_TAGS"]

_LINE_ATTR = "{urn:cardlab}line"


#: USEBIO ``EVENT_TYPE`` values we score, and the method each one means.  Team events
#: (``TEAMS``, ``SWISS_TEAMS`` ...) are IMP matches between two rooms: ``bridge teams``.
EVENT_TYPES: dict[str, Method] = {
    "MP_PAIRS": Method.MP, "PAIRS": Method.MP, "MATCH_POINTS": Method.MP,
    "SWISS_PAIRS": Method.MP, "INDIVIDUAL": Method.MP,
    "CROSS_IMP": Method.CROSS_IMPS, "CROSS_IMPS": Method.CROSS_IMPS,
    "CROSS_IMP_PAIRS": Method.CROSS_IMPS,
    "BUTLER_PAIRS": Method.BUTLER, "BUTLER": Method.BUTLER, "BUTLER_IMPS": Method.BUTLER,
    "MEDIAN_IMP_PAIRS": Method.MEDIAN_IMPS,
}
_TEAM_TYPES = ("TEAMS", "SWISS_TEAMS", "KO_TEAMS", "TEAMS_OF_FOUR", "IMP_TEAMS", "MULTI_TEAMS")


def method_of_event_type(event_type: str, source: str | None = None) -> Method:
    """The scoring method a USEBIO ``EVENT_TYPE`` names; an error naming any other type.

    >>> method_of_event_type("CROSS_IMP").value
    'cross-imps'
    >>> method_of_event_type("PAIRS_AGGREGATE")
    Traceback (most recent call last):
    ...
    cardlab.errors.ResultFileError: EVENT_TYPE 'PAIRS_AGGREGATE' is not one we score (known: MP_PAIRS, CROSS_IMP, BUTLER_PAIRS, ...); give --method to score it anyway
    """
    key = event_type.strip().upper()
    if key in EVENT_TYPES:
        return EVENT_TYPES[key]
    if key in _TEAM_TYPES:
        raise ResultFileError(f"EVENT_TYPE {event_type!r} is a team event: cardlab scores team "
                              "matches from a CSV of table results ('cardlab bridge teams')",
                              source=source)
    raise ResultFileError(f"EVENT_TYPE {event_type!r} is not one we score (known: MP_PAIRS, "
                          "CROSS_IMP, BUTLER_PAIRS, ...); give --method to score it anyway",
                          source=source)


_PHANTOM_WORDS = re.compile(r"phantom|sit[\s_-]*out|sitout|bye", re.IGNORECASE)
#: The (NS, EW) elements of a traveller line's points, by method: matchpoints, cross-IMPs,
#: Butler, and a generic IMP pair read as either.
POINT_TAGS = (("NS_MATCH_POINTS", "EW_MATCH_POINTS"),
               ("NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS"),
               ("NS_BUTLER_POINTS", "EW_BUTLER_POINTS"),
               ("NS_IMP_POINTS", "EW_IMP_POINTS"))


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
    except (LookupError, ValueError) as error:  # encoding="klingon" and other declarations Python lacks
        raise ResultFileError(f"cannot read the XML: {str(error)[:80]}", source=source) from None
    return root


def _line_of(element: ET.Element) -> int | None:
    text = element.get(_LINE_ATTR)
    return int(text) if text else None


def _text(element: ET.Element, tag: str) -> str | None:
    child = element.find(tag)
    if child is None or child.text is None or not child.text.strip():
        return None
    return child.text.strip()


def read_usebio_deals(data: bytes | str, source: str | None = None) -> dict[int, Board]:
    """Only the hands: board number -> :class:`~cardlab.deal.Board` for every board whose hands the file gives
    (in the event or in a hand-record ``HANDSET``)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return board_deals(_parse(raw, source), source)


def read_usebio(data: bytes | str, source: str | None = None) -> ResultsFile:
    """Read a USEBIO file from its bytes (or text) into a :class:`ResultsFile` (format
    ``usebio``); ``source`` names it in messages."""
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
    event_type = (event.get("EVENT_TYPE") or _text(event, "EVENT_TYPE")
                  or _participants_type(event))
    names: dict[PairKey, tuple[str, ...]] = {}
    reported_pairs: dict[PairKey, dict[str, str]] = {}
    phantoms: list[PairKey] = []
    for pair in event.iter("PAIR"):
        key = _pair_key(pair, movement, source)
        players = tuple(
            n for n in (_text(p, "PLAYER_NAME") for p in pair.findall("PLAYER")) if n
        )
        names[key] = players
        if players and all(_PHANTOM_WORDS.search(n) for n in players):
            phantoms.append(key)
            continue
        reported_pairs[key] = {
            tag: value
            for tag in ("PERCENTAGE", "PLACE", "TOTAL_SCORE")
            if (value := _text(pair, tag)) is not None
        }
    lines: list[TravellerLine] = []
    points: list[tuple[str | None, str | None]] = []
    deals = board_deals(root, source)
    seen: set[int] = set()
    for board in event.iter("BOARD"):
        number = _text(board, "BOARD_NUMBER")
        if number is None:
            raise ResultFileError("BOARD has no BOARD_NUMBER", line=_line_of(board), source=source)
        for tl in board.findall("TRAVELLER_LINE"):
            lines.append(_traveller_line(number, tl, source))
            points.append(_line_points(tl))
            seen.add(id(tl))
    for tl in root.iter("TRAVELLER_LINE"):  # nothing silently dropped
        if id(tl) not in seen:
            raise ResultFileError("TRAVELLER_LINE outside a BOARD of the EVENT",
                                  line=_line_of(tl), source=source)
    if not lines:
        raise ResultFileError("no TRAVELLER_LINE in the file", source=source)
    club = root.find("CLUB")
    method, method_error = _known_method(event_type)
    return ResultsFile(
        source or "", "usebio", tuple(lines), names,
        title=_text(event, "EVENT_DESCRIPTION") or "",
        club=(_text(club, "CLUB_NAME") or "") if club is not None else "",
        date=_text(event, "DATE") or "",
        movement=movement,
        event_type=event_type,
        method=method,
        method_error=method_error,
        reported=Reported(tuple(points), reported_pairs),
        deals=deals,
        phantoms=tuple(phantoms),
    )


def _known_method(event_type: str | None) -> tuple[Method | None, str | None]:
    """The method of a type we score, else why not (an error only when the session is
    scored without ``--method``: see :func:`method_of_event_type`)."""
    if not event_type:
        return None, None
    try:
        return method_of_event_type(event_type), None
    except ResultFileError as error:
        return None, error.reason


def _participants_type(event: ET.Element) -> str | None:
    participants = event.find("PARTICIPANTS")
    return None if participants is None else participants.get("EVENT_TYPE")


def _line_points(tl: ET.Element) -> tuple[str | None, str | None]:
    for ns_tag, ew_tag in POINT_TAGS:
        ns, ew = _text(tl, ns_tag), _text(tl, ew_tag)
        if ns is not None or ew is not None:
            return ns, ew
    return None, None


def _pair_key(pair: ET.Element, movement: Movement | None, source: str | None) -> PairKey:
    text = _text(pair, "PAIR_NUMBER")
    if text is None:
        raise ResultFileError("PAIR has no PAIR_NUMBER", line=_line_of(pair), source=source)
    number, suffix = split_pair_id(text)
    direction = _text(pair, "DIRECTION") or suffix
    if direction is not None:
        direction = {"N": "NS", "E": "EW", "S": "NS", "W": "EW"}.get(direction.upper(),
                                                                    direction.upper())
        if direction not in ("NS", "EW"):
            raise ResultFileError(f"unknown DIRECTION {direction!r}", line=_line_of(pair),
                                  source=source)
    if movement is Movement.HOWELL:
        direction = None
    return (direction, number)


def _traveller_line(board: str, tl: ET.Element, source: str | None) -> TravellerLine:
    line_no = _line_of(tl)
    values = {tag: _text(tl, tag) for tag in (
        "NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "TRICKS", "SCORE", "LEAD")}
    sat_out = values["CONTRACT"] is None and values["SCORE"] is None
    for tag in ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER"):
        if values[tag] is None and not sat_out:
            raise ResultFileError(f"TRAVELLER_LINE has no {tag}", line=line_no, source=source)
    try:
        return TravellerLine.make(
            board, split_pair_id(values["NS_PAIR_NUMBER"] or "")[0],
            split_pair_id(values["EW_PAIR_NUMBER"] or "")[0],
            contract=values["CONTRACT"], declarer=values["PLAYED_BY"], tricks=values["TRICKS"],
            score=values["SCORE"], lead=values["LEAD"], source_line=line_no,
        )
    except ResultFileError:
        raise
    except CardlabError as error:
        raise ResultFileError(str(error), line=line_no, source=source) from None
