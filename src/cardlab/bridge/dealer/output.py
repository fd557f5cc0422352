"""Produced deals as text, in bulk: the dealer program's formats and PBN, written by the compiled core.

A batch of deals is ``masks[4, 4, k]`` (see :mod:`.dealing`). :func:`format_deals` writes a
*template* once per deal in one call of ``cardlab._core.format_deals`` (no per-deal Python):
literal text with placeholders (:data:`BOARD`, :data:`DEALER`, :data:`VULNERABLE`,
:data:`PBN_FROM_DEALER`, :data:`PBN_FROM_NORTH`, :data:`ONELINE`, :data:`PRINTALL`,
:data:`PRINTEW`, :data:`COMPACT`, :func:`extra`). The script's print actions become one template
(:func:`action_template`), so a deal printed by three actions is still one pass.

>>> from cardlab.bridge.deals import parse_pbn_deal
>>> masks = masks_from_deals([parse_pbn_deal("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")])
>>> format_deals(masks, ONELINE + "\\n")
'n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765 \\n'
>>> format_deals(masks, "[Board " + BOARD + "] " + PBN_FROM_DEALER, first_number=2)
'[Board 2] E:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432'
"""

from __future__ import annotations

from typing import Any, Sequence, TextIO

import numpy as np

from cardlab._native import core as _core
from cardlab.board import SEAT_NAMES as _SEAT_NAMES, SEATS
from cardlab.cards import RANKS as _RANKS, SUIT_ORDER
from cardlab.pbn import format_game
from cardlab.bridge.dealer.dealing import byte_view
from cardlab.errors import CardError

__all__ = ["format_deals", "emit", "action_template", "literal", "extra", "masks_from_deals", "holdings",
           "seat_pages", "pbn_template", "BOARD", "DEALER", "VULNERABLE", "PBN_FROM_DEALER", "PBN_FROM_NORTH",
           "ONELINE", "PRINTALL", "PRINTEW", "COMPACT"]

_MARK = "\x01"
BOARD = _MARK + "b"  #: the deal's number (first_number + i)
DEALER = _MARK + "d"  #: N, E, S, W by the board number
VULNERABLE = _MARK + "v"  #: None, NS, EW, All by the board number (the 16-board cycle)
PBN_FROM_DEALER = _MARK + "D"  #: "E:hand hand hand hand", from the board's dealer
PBN_FROM_NORTH = _MARK + "N"  #: "N:hand hand hand hand"
ONELINE = _MARK + "o"  #: "n S.H.D.C e ... s ... w ... " (printoneline without its newline)
PRINTALL = _MARK + "a"  #: printall: the number and the four hands side by side
PRINTEW = _MARK + "w"  #: printew: West and East side by side
COMPACT = _MARK + "c"  #: printcompact's four lines


def literal(text: str) -> str:
    """``text`` as template text (a stray placeholder byte in it is written as itself)."""
    return text.replace(_MARK, _MARK + _MARK)


def extra(column: int) -> str:
    """The placeholder of the ``column``-th extra value of each deal (0..254)."""
    if not 0 <= column < 255:
        raise ValueError("at most 255 printed expressions")
    return _MARK + "x" + chr(column)


def format_deals(masks: np.ndarray, template: str, first_number: int = 1, extras: np.ndarray | None = None,
                 encoded: bool = False) -> Any:
    """The template written once per deal of ``masks[4, 4, k]``, as one string (bytes if ``encoded``);
    ``extras[k, m]`` are the values of :func:`extra` placeholders."""
    masks = np.ascontiguousarray(masks, dtype=np.uint16)
    k = masks.shape[2]
    if extras is None:
        values = np.zeros((k, 0), dtype=np.int64)
    else:
        values = np.ascontiguousarray(extras, dtype=np.int64).reshape(k, -1)
    try:
        data = _core.format_deals(byte_view(masks), k, template.encode("utf-8"), int(first_number),
                                  byte_view(values), values.shape[1])
    except ValueError as error:  # the kernel refuses a hand of more than 13 cards (its output bound)
        raise CardError(str(error).removeprefix("format_deals: ")) from None
    return data if encoded else data.decode("utf-8")


def emit(out: TextIO, data: bytes) -> None:
    """Write UTF-8 ``data`` to a text stream: straight to its binary buffer when it has one in
    UTF-8 (files, stdout), else decoded."""
    buffer = getattr(out, "buffer", None)
    encoding = str(getattr(out, "encoding", "") or "").lower().replace("-", "").replace("_", "")
    if buffer is not None and encoding == "utf8":
        out.flush()
        buffer.write(data)
    else:
        out.write(data.decode("utf-8"))


def pbn_template(event: str, date: str, dealer: int | None, vulnerable: str | None) -> str:
    """``printpbn``'s game: the tags the C program writes (dealer and vulnerability from the
    board number unless the script fixes them)."""
    tags = [("Event", literal(event)), ("Site", "-"), ("Date", literal(date)), ("Board", BOARD), ("West", "-"),
            ("North", "-"), ("East", "-"), ("South", "-"),
            ("Dealer", DEALER if dealer is None else SEATS[dealer]),
            ("Vulnerable", VULNERABLE if vulnerable is None else literal(vulnerable)),
            ("Deal", PBN_FROM_NORTH), ("Declarer", "?"), ("Contract", "?"), ("Result", "?")]
    return format_game(tags)


def action_template(actions: Sequence[Any], columns: dict[int, int], event: str, date: str, dealer: int | None,
                    vulnerable: str | None) -> str:
    """One template for the per-deal print actions in script order (``print(SEAT)`` is written
    after the run, not here); ``columns[id(action)]`` is the first extra column of its expressions."""
    parts: list[str] = []
    for action in actions:
        kind = action.kind
        if kind == "printall":
            parts.append(PRINTALL)
        elif kind == "printew":
            parts.append(PRINTEW)
        elif kind == "printpbn":
            parts.append(pbn_template(event, date, dealer, vulnerable))
        elif kind == "printcompact":
            parts.append(COMPACT + (extra(columns[id(action)]) + "\n" if action.exprs else ""))
        elif kind == "printoneline":
            parts.append(ONELINE + (extra(columns[id(action)]) if action.exprs else "") + "\n")
        elif kind == "printes":
            column = columns[id(action)]
            for item in action.items:
                if isinstance(item, str):
                    parts.append(literal(item))
                else:
                    parts.append(extra(column))
                    column += 1
    return "".join(parts)


def masks_from_deals(deals: Sequence[Any]) -> np.ndarray:
    """``masks[4, 4, k]`` of :class:`~cardlab.bridge.deals.Deal` objects (hands N, E, S, W of card ids)."""
    masks = np.zeros((4, 4, len(deals)), dtype=np.uint16)
    for i, deal in enumerate(deals):
        for seat, hand in enumerate(deal.hands):
            for card in hand:
                masks[seat, card % 4, i] |= 1 << (card // 4)
    return masks


def holdings(masks: np.ndarray, seat: int, i: int = 0) -> list[str]:
    """Deal ``i``'s ``seat`` suits spades, hearts, diamonds, clubs as rank strings, highest first."""
    return ["".join(_RANKS[r] for r in range(12, -1, -1) if int(masks[seat, suit, i]) >> r & 1)
            for suit in SUIT_ORDER]


def _suit_line(parts: list[str]) -> str:
    """Hands side by side as the C program prints them: 'K J 7 ' padded to 20 columns, '- ' for a void."""
    out = []
    for i, holding in enumerate(parts):
        cell = " ".join(holding) + " " if holding else "- "
        if i < len(parts) - 1:
            cell = cell.ljust(20)
        out.append(cell)
    return "".join(out)


def seat_pages(masks: np.ndarray, seat: int) -> str:
    """``print(SEAT)``: the seat's hands of every produced deal, four across (written after the run)."""
    count = masks.shape[2]
    out = [f"\n\n{_SEAT_NAMES[seat]} hands:\n\n\n\n"]
    for start in range(0, count, 4):
        group = range(start, min(start + 4, count))
        out.append("".join(f"{i + 1:4d}.{' ':>15}" for i in group) + "\n")
        hands = [holdings(masks, seat, i) for i in group]
        for i in range(4):
            out.append(_suit_line([h[i] for h in hands]) + "\n")
        out.append("\n")
    out.append("\f")
    return "".join(out)
