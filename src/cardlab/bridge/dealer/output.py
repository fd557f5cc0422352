"""The C dealer's text formats for produced deals, from ``owner`` rows (the seat of each card id).

``oneline`` is vectorised (one numpy pass for a whole batch); the diagram
formats are built per deal.

>>> import numpy as np
>>> from cardlab.bridge.deals import parse_pbn_deal
>>> row = owner_from_deal(parse_pbn_deal("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"))
>>> oneline(row[None, :])[0]
'n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765 \\n'
"""

from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np

from cardlab.board import SEAT_NAMES, SEATS
from cardlab.cards import RANKS as _RANKS, SUIT_ORDER

__all__ = ["oneline", "oneline_block", "compact", "diagram", "east_west", "seat_pages", "pbn_game", "owner_from_deal",
           "holdings", "deal_pbn"]

_LETTERS = SEATS.lower()


class _HasHands(Protocol):
    @property
    def hands(self) -> Sequence[Sequence[int]]: ...


def owner_from_deal(deal: _HasHands) -> np.ndarray:
    """``owner[52]`` from a :class:`~cardlab.bridge.deals.Deal` (hands N, E, S, W of card ids)."""
    row = np.zeros(52, dtype=np.uint8)
    for seat, hand in enumerate(deal.hands):
        row[list(hand)] = seat
    return row


def holdings(row: np.ndarray, seat: int) -> list[str]:
    """The seat's suits spades, hearts, diamonds, clubs as rank strings, highest first."""
    cards = np.flatnonzero(row == seat)
    out = []
    for suit in SUIT_ORDER:
        ranks = sorted((c // 4 for c in cards.tolist() if c % 4 == suit), reverse=True)
        out.append("".join(_RANKS[r] for r in ranks))
    return out


def deal_pbn(row: np.ndarray, first: int = 0) -> str:
    """A PBN deal string (``N:...``) of one ``owner`` row, starting with seat ``first``."""
    order = [(first + i) % 4 for i in range(4)]
    return SEATS[first] + ":" + " ".join(".".join(holdings(row, s)) for s in order)


_PRINT_ORDER = np.array([rank * 4 + suit for suit in SUIT_ORDER for rank in range(12, -1, -1)])
_SUIT_STEP = np.repeat(np.arange(4), 13)  # dots passed before a card, in printing order
_CHARS = np.frombuffer(_RANKS.encode(), dtype=np.uint8)[_PRINT_ORDER // 4]
_WIDTH = 19
_TEMPLATE = np.frombuffer(("".join(f"{_LETTERS[s]} {'.' * 16} " for s in range(4)) + "\n").encode(),
                          dtype=np.uint8)


def oneline_block(rows: np.ndarray) -> str:
    """``printoneline`` for ``rows[k, 52]`` as one string, vectorised (no per-deal Python)."""
    k = len(rows)
    if k == 0:
        return ""
    seats = np.ascontiguousarray(rows.T[_PRINT_ORDER])  # (52, k): each card's seat, in printing order
    position = seats.astype(np.int32) * _WIDTH + (2 + _SUIT_STEP)[:, None]
    counts = np.zeros(4 * k, dtype=np.int32)  # cards of each seat placed so far, per deal
    base = np.arange(k, dtype=np.int32)
    for t in range(52):
        index = seats[t].astype(np.int32) * k + base
        position[t] += counts[index]
        counts[index] += 1
    size = _TEMPLATE.size
    position += np.arange(k, dtype=np.int32) * size
    line = np.tile(_TEMPLATE, k)
    line[position.ravel()] = np.repeat(_CHARS, k)
    return line.tobytes().decode("ascii")


def oneline(rows: np.ndarray, extra: Sequence[str] | None = None) -> list[str]:
    """``n AKQJ.T98.765.432 e ... w ... `` lines (with newline) for ``rows[k, 52]``, vectorised;
    ``extra`` values (printoneline's expression) end the lines."""
    text = oneline_block(rows)
    size = _TEMPLATE.size
    lines = [text[i * size:(i + 1) * size] for i in range(len(rows))]
    if extra is not None:
        lines = [f"{ln[:-1]}{e}\n" for ln, e in zip(lines, extra)]
    return lines


def compact(row: np.ndarray, extra: str | None = None) -> str:
    """``printcompact``: a line per seat (``n AKQ.JT9.876.5432``), then ``extra`` when given."""
    text = "".join(f"{_LETTERS[s]} {'.'.join(holdings(row, s))}\n" for s in range(4))
    return text + (f"{extra}\n" if extra is not None else "")


def _suit_line(parts: list[str]) -> str:
    """Hands side by side as the C program prints them: 'K J 7 ' padded to 20 columns, '- ' for a void."""
    out = []
    for i, holding in enumerate(parts):
        cell = " ".join(holding) + " " if holding else "- "
        if i < len(parts) - 1:
            cell = cell.ljust(20)
        out.append(cell)
    return "".join(out)


def diagram(row: np.ndarray, number: int) -> str:
    """``printall``: the four hands side by side, North, East, South, West."""
    hands = [holdings(row, s) for s in range(4)]
    lines = [f"{number:4d}."] + [_suit_line([hands[s][i] for s in range(4)]) for i in range(4)]
    return "\n".join(lines) + "\n\n"


def east_west(row: np.ndarray) -> str:
    """``printew``: West and East side by side."""
    west, east = holdings(row, 3), holdings(row, 1)
    return "\n".join(_suit_line([west[i], east[i]]) for i in range(4)) + "\n\n"


def seat_pages(rows: Sequence[np.ndarray], seat: int) -> str:
    """``print(SEAT)``: the seat's hands of every produced deal, four across."""
    out = [f"\n\n{SEAT_NAMES[seat]} hands:\n\n\n\n"]
    for start in range(0, len(rows), 4):
        group = rows[start:start + 4]
        out.append("".join(f"{start + i + 1:4d}.{' ':>15}" for i in range(len(group))) + "\n")
        hands = [holdings(r, seat) for r in group]
        for i in range(4):
            out.append(_suit_line([h[i] for h in hands]) + "\n")
        out.append("\n")
    out.append("\f")
    return "".join(out)


def pbn_game(row: np.ndarray, board: int, dealer: int | None, vulnerable: str | None, event: str,
             date: str) -> str:
    """``printpbn``: one PBN game with the tags the C program writes."""
    from cardlab.board import Vulnerability, dealer as board_dealer

    first = SEATS.index(board_dealer(board).value) if dealer is None else dealer
    vul = Vulnerability.from_board(board).value if vulnerable is None else vulnerable
    tags = [("Event", event), ("Site", "-"), ("Date", date), ("Board", str(board)), ("West", "-"),
            ("North", "-"), ("East", "-"), ("South", "-"), ("Dealer", SEATS[first]), ("Vulnerable", vul),
            ("Deal", deal_pbn(row, 0)), ("Declarer", "?"), ("Contract", "?"), ("Result", "?")]
    return "".join(f'[{name} "{value}"]\n' for name, value in tags) + "\n"
