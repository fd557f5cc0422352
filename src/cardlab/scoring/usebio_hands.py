"""The hands of each board as written in a USEBIO 1.2 file (``HAND`` elements).

:func:`~cardlab.scoring.usebio.read_usebio` gives them as ``deals`` (and so
``ResultsFile.deals``); :func:`read_usebio_deals` reads only them.  USEBIO writes a board's hands as four ``HAND`` elements inside its
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
>>> from cardlab.scoring.usebio import read_usebio_deals
>>> read_usebio_deals(xml)
{2: Board(2, 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765', dealer E, NS)}
>>> read_usebio_deals(xml.replace("1098</SPADES>", "1098X</SPADES>"), "club.xml")
Traceback (most recent call last):
...
cardlab.errors.ResultFileError: club.xml: line 1: unknown rank 'X' in SPADES of board 2
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from cardlab.board import SEAT_WORDS, SEATS
from cardlab.cards import RANKS, SUIT_NAMES, SUIT_ORDER
from cardlab.deal import Board, Deal
from cardlab.errors import CardlabError, ResultFileError

__all__ = ["board_deals"]

_LINE = "{urn:cardlab}line"
_SUITS = tuple(SUIT_NAMES[s].upper() for s in SUIT_ORDER)  # SPADES, HEARTS, DIAMONDS, CLUBS
_SEAT_WORDS = {**{seat: seat for seat in SEATS}, **{word.upper(): seat for word, seat in SEAT_WORDS.items()}}


def _text(element: ET.Element, tag: str) -> str:
    child = element.find(tag)
    return (child.text or "").strip() if child is not None else element.get(tag, "").strip()


def board_deals(root: ET.Element, source: str | None) -> dict[int, Board]:
    """Board number -> :class:`~cardlab.deal.Board` (dealer and vulnerability by its number) for
    every ``BOARD`` under ``root`` whose hands are given (in the board or a ``HANDSET`` in it); bad hands raise
    :class:`~cardlab.errors.ResultFileError` naming ``source`` and the line."""
    deals: dict[int, Board] = {}
    for board in root.iter("BOARD"):
        hands = list(board.iter("HAND"))
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


def _deal(number: int, hands: list[ET.Element], line: int | None, source: str | None) -> Board:
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
        return Board(number, Deal.from_pbn(text))
    except CardlabError as error:
        raise ResultFileError(f"board {number}: {error}", line=line, source=source) from None


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
