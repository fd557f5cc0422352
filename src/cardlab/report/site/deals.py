"""The hands of each board as written in a USEBIO 1.2 file (``HAND`` elements).

Kept apart on purpose: when the results reader gives the deals of a file
itself (``ResultsFile.deals``), the site takes them from there and this module
goes.  USEBIO writes a board's hands as four ``HAND`` elements inside its
``BOARD`` (in the ``EVENT``, or in a ``HANDSET`` of hand records), each with a
``DIRECTION`` (``N`` or ``North``; child element or attribute) and the four
suits ``SPADES``, ``HEARTS``, ``DIAMONDS``, ``CLUBS`` as rank letters (``10``
or ``T``; empty or ``-`` for a void).  A board with three hands gets the
remaining 13 cards as its fourth.

>>> xml = ("<USEBIO><EVENT><BOARD><BOARD_NUMBER>2</BOARD_NUMBER>"
...        + "".join(f"<HAND><DIRECTION>{d}</DIRECTION><SPADES>{s}</SPADES><HEARTS>{h}</HEARTS>"
...                  f"<DIAMONDS>{di}</DIAMONDS><CLUBS>{c}</CLUBS></HAND>" for d, s, h, di, c in [
...            ("North", "AKQJ", "1098", "765", "432"), ("E", "1098", "765", "432", "AKQJ"),
...            ("S", "765", "432", "AKQJ", "1098")])
...        + "</BOARD></EVENT></USEBIO>")
>>> read_usebio_deals(xml)
{2: 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765'}
>>> read_usebio_deals(xml.replace("1098</SPADES>", "1098X</SPADES>"), "club.xml")
Traceback (most recent call last):
...
cardlab.errors.ResultFileError: club.xml: line 1: unknown rank 'X' in SPADES of board 2
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import defusedxml.ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from cardlab.board import SEATS
from cardlab.bridge.deals import parse_pbn_deal
from cardlab.cards import RANKS
from cardlab.errors import CardlabError, ResultFileError

__all__ = ["read_usebio_deals"]

_LINE = "{urn:cardlab}line"
_SUITS = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")
_SEAT_WORDS = {"N": "N", "NORTH": "N", "E": "E", "EAST": "E", "S": "S", "SOUTH": "S",
               "W": "W", "WEST": "W"}


class _Lines(ET.TreeBuilder):
    def __init__(self) -> None:
        super().__init__()
        self.parser: Any = None

    def start(self, tag: Any, attrs: Any) -> ET.Element:
        element = super().start(tag, attrs)
        element.set(_LINE, str(self.parser.parser.CurrentLineNumber))
        return element


def _root(data: bytes, source: str | None) -> ET.Element:
    builder = _Lines()
    parser = SafeET.DefusedXMLParser(target=builder, forbid_dtd=False, forbid_entities=True,
                                     forbid_external=True)
    builder.parser = parser
    try:
        parser.feed(data)
        root: ET.Element = parser.close()
    except ET.ParseError as error:
        line = error.position[0] if error.position else None
        raise ResultFileError(f"malformed XML: {error}", line=line, source=source) from None
    except DefusedXmlException as error:
        raise ResultFileError(f"refused XML: {error!r}", source=source) from None
    return root


def _text(element: ET.Element, tag: str) -> str:
    child = element.find(tag)
    return (child.text or "").strip() if child is not None else element.get(tag, "").strip()


def read_usebio_deals(data: bytes | str, source: str | None = None) -> dict[int, str]:
    """Board number -> PBN deal ``"N:hand hand hand hand"`` for every board whose hands
    the file gives; boards without hands are left out.  Bad hands raise
    :class:`~cardlab.errors.ResultFileError` naming ``source`` and the line."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    deals: dict[int, str] = {}
    for board in _root(raw, source).iter("BOARD"):
        hands = board.findall("HAND")
        if not hands:
            continue
        line = int(board.get(_LINE, "0")) or None
        number_text = _text(board, "BOARD_NUMBER")
        if not number_text.isdigit():
            raise ResultFileError(f"BOARD with hands has no board number ({number_text!r})",
                                  line=line, source=source)
        number = int(number_text)
        deal = _deal(number, hands, line, source)
        if deals.setdefault(number, deal) != deal:
            raise ResultFileError(f"board {number} has two different sets of hands",
                                  line=line, source=source)
    return deals


def _deal(number: int, hands: list[ET.Element], line: int | None, source: str | None) -> str:
    by_seat: dict[str, str] = {}
    for hand in hands:
        where = int(hand.get(_LINE, "0")) or line
        word = (_text(hand, "DIRECTION") or _text(hand, "SEAT")).upper()
        seat = _SEAT_WORDS.get(word)
        if seat is None:
            raise ResultFileError(f"HAND of board {number} has no direction N, E, S or W "
                                  f"({word!r})", line=where, source=source)
        if seat in by_seat:
            raise ResultFileError(f"board {number} gives the {seat} hand twice", line=where,
                                  source=source)
        by_seat[seat] = ".".join(_holding(_text(hand, suit), suit, number, where, source)
                                 for suit in _SUITS)
    if len(by_seat) == 3:
        by_seat.update(_fourth(by_seat))
    if len(by_seat) != 4:
        raise ResultFileError(f"board {number} gives {len(by_seat)} hands (need 3 or 4)",
                              line=line, source=source)
    text = "N:" + " ".join(by_seat[s] for s in SEATS)
    try:
        parse_pbn_deal(text)
    except CardlabError as error:
        raise ResultFileError(f"board {number}: {error}", line=line, source=source) from None
    return text


def _holding(text: str, suit: str, number: int, line: int | None, source: str | None) -> str:
    ranks = re.sub(r"[\s,\-]", "", text).upper().replace("10", "T")
    for char in ranks:
        if char not in RANKS:
            raise ResultFileError(f"unknown rank {char!r} in {suit} of board {number}",
                                  line=line, source=source)
    return "".join(sorted(ranks, key=RANKS.index, reverse=True))


def _fourth(by_seat: dict[str, str]) -> dict[str, str]:
    missing = next(s for s in SEATS if s not in by_seat)
    suits = []
    for i in range(4):
        held = "".join(hand.split(".")[i] for hand in by_seat.values())
        suits.append("".join(r for r in reversed(RANKS) if r not in held))
    return {missing: ".".join(suits)}
