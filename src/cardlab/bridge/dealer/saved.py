"""Deals saved to a file, read back for a dealer script to run over them instead of dealing.

Formats: PBN, LIN, Duplimate ``.dup``/``.dlm`` (read by :func:`cardlab.bridge.boardsets.read_board_file`),
the dealer program's ``printoneline`` lines (``n AKQ.JT9.876.5432 e ... s ... w ...``, anything
after West's hand ignored, and so are the lines of statistics after the deals), Deal 3.1's ``-l``
"line" format (``north|east|south|west``, each hand four suits spades first separated by single
spaces, a void empty or ``-``: its C format ``%s %s %s %s`` joined by ``|``, read back by its
``input/line.tcl`` with ``split $val " "``) and Deal's ``ddline`` format (hands with ``.`` between
the suits, as its ``format/ddline`` writes them; the trick counts after the fourth ``|`` are ignored).

>>> masks = parse_line_deals("n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765\\n")
>>> masks.shape, int(masks[0, 3, 0]) == 0b1111000000000   # North's spades: A K Q J
((4, 4, 1), True)
>>> line = "AKQJ T98 765 432|T98 765 432 AKQJ|765 432 AKQJ T98|432 AKQJ T98 765"
>>> bool((parse_line_deals(line) == masks).all())
True
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from cardlab.board import SEATS
from cardlab.cards import RANKS, SUIT_LETTERS
from cardlab.errors import InputFileError

__all__ = ["read_saved_deals", "parse_line_deals", "ddline_text", "MAX_SAVED_DEALS"]

MAX_SAVED_DEALS = 2_000_000  #: the most deals read from one file (64 MB of suit masks)
_ONELINE = re.compile(r"^n (\S*) e (\S*) s (\S*) w (\S*)(?:\s|$)")


def read_saved_deals(path: str | Path) -> np.ndarray:
    """The deals of a saved file as suit masks ``masks[4, 4, n]`` (see :mod:`.dealing`), in file order."""
    from cardlab.textfile import decode_text, read_bytes

    name = str(path)
    try:
        data = read_bytes(path)
    except OSError as error:
        raise InputFileError(f"cannot read the deals file: {error.strerror or error}", source=name) from None
    head = data[:4096].lstrip()
    if head.startswith(b"n ") or _looks_like_deal_lines(head):
        return parse_line_deals(decode_text(data, name), name)
    from cardlab.bridge.boardsets import read_board_file
    from cardlab.bridge.dealer.dealing import masks_from_owner

    boards = read_board_file(path).boards
    if len(boards) > MAX_SAVED_DEALS:
        raise InputFileError(f"{len(boards)} deals: at most {MAX_SAVED_DEALS:,} are read from one file", source=name)
    owner = np.frombuffer(b"".join(b.owner for b in boards), dtype=np.uint8).reshape(-1, 52).T
    return masks_from_owner(owner)


def _looks_like_deal_lines(head: bytes) -> bool:
    first = head.split(b"\n", 1)[0]
    return first.count(b"|") >= 3 and b"md|" not in first and not first.startswith(b"[")


def parse_line_deals(text: str, source: str | None = None) -> np.ndarray:
    """Deals from ``printoneline`` lines or Deal's "line" format (one deal a line; blank lines and
    lines starting with ``#`` skipped, and in a ``printoneline`` file every line not starting with
    ``n ``: the statistics the dealer program prints after its deals); a bad line is an
    :class:`~cardlab.errors.InputFileError` naming the line and the offending hand."""
    deals: list[str] = []  # each deal as "S.H.D.C|S.H.D.C|S.H.D.C|S.H.D.C", North first
    numbers: list[int] = []
    oneline = False  # once a printoneline deal is seen, other lines (averages, counts) are skipped
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#") or (oneline and not line.startswith("n ")):
            continue
        if len(deals) >= MAX_SAVED_DEALS:
            raise InputFileError(f"at most {MAX_SAVED_DEALS:,} deals are read from one file", number, source)
        match = _ONELINE.match(line)
        if match is not None:
            oneline = True
            deals.append("|".join(match.groups()))
        elif line.count("|") >= 3:  # Deal: suits by single spaces (-l) or dots (ddline); a void empty or '-'
            hands = [h.split(".") if "." in h else h.split(" ") for h in raw.split("|")[:4]]
            deals.append("|".join(".".join("" if s == "-" else s for s in h) if len(h) == 4 else " ".join(h)
                                  for h in hands))
        else:
            raise InputFileError(f"not a deal: expected 'n S.H.D.C e ... s ... w ...' or four hands "
                                 f"separated by '|', got {line[:60]!r}", number, source)
        numbers.append(number)
    if not deals:
        raise InputFileError("no deals in the file", source=source)
    masks = _vector_masks(deals)
    if masks is None:  # some deal is not whole: find the first and name its fault
        for deal, number in zip(deals, numbers):
            _masks([h.split(".") for h in deal.split("|")], number, source)
        raise InputFileError("a deal is not whole (each seat 13 cards, each card once)", source=source)
    return masks


_CODES = np.full(256, -1, dtype=np.int8)  # byte -> rank 0..12; '.' -2, '|' -3, anything else -1
for _rank, _ch in enumerate(RANKS + RANKS.lower()):
    _CODES[ord(_ch)] = _rank % 13
_CODES[ord(".")], _CODES[ord("|")] = -2, -3


def _vector_masks(deals: list[str]) -> np.ndarray | None:
    """The masks of whole deals written ``S.H.D.C|...`` (all deals at once, in numpy), or None
    when some deal is not whole."""
    codes = _CODES[np.frombuffer("".join(deals).encode("ascii", "replace"), dtype=np.uint8)]
    if (codes == -1).any():
        return None
    n = len(deals)
    lengths = np.fromiter(map(len, deals), dtype=np.int64, count=n)
    line = np.repeat(np.arange(n, dtype=np.int32), lengths)
    separator = codes < 0
    before = np.cumsum(separator, dtype=np.int32)  # separators up to and including each byte
    first = np.r_[0, np.cumsum(lengths)[:-1]]
    place = before - np.repeat(before[first] - separator[first], lengths) - separator  # separators before it
    if (np.bincount(line[separator], minlength=n) != 15).any():
        return None  # not four hands of four suits
    if ((codes[separator] == -3) != (place[separator] % 4 == 3)).any():
        return None  # a '|' where a '.' belongs, or the other way round
    card = ~separator
    rank, spot, line = codes[card].astype(np.int32), place[card], line[card]
    seat, suit = spot // 4, 3 - spot % 4  # suits spades first in the text, clubs first in the masks
    if (np.bincount(line * 52 + rank * 4 + suit, minlength=52 * n) != 1).any():
        return None  # a card missing or given twice
    if (np.bincount(line * 4 + seat, minlength=4 * n) != 13).any():
        return None
    masks = np.zeros((4, 4, n), dtype=np.uint16)
    np.bitwise_or.at(masks, (seat, suit, line), np.left_shift(1, rank).astype(np.uint16))
    return masks


def _masks(hands: list[list[str]], line: int, source: str | None) -> np.ndarray:
    masks = np.zeros((4, 4), dtype=np.uint16)
    seen = 0
    for seat, suits in enumerate(hands):
        if len(suits) != 4:
            raise InputFileError(f"{SEATS[seat]}'s hand {' '.join(suits)!r} does not have four suits", line, source)
        count = 0
        for i, holding in enumerate(suits):  # spades first; masks are clubs first
            for ch in holding.upper():
                rank = RANKS.find(ch)
                if rank < 0:
                    raise InputFileError(f"{SEATS[seat]}'s hand: {ch!r} is not a rank ({RANKS})", line, source)
                bit = 1 << (rank + 13 * (3 - i))
                if seen & bit:
                    raise InputFileError(f"{ch}{SUIT_LETTERS[i]} appears twice", line, source)
                seen |= bit
                masks[seat, 3 - i] |= 1 << rank
                count += 1
        if count != 13:
            raise InputFileError(f"{SEATS[seat]}'s hand has {count} cards, not 13", line, source)
    return masks


def ddline_text(masks: np.ndarray) -> str:
    """Deals with their double-dummy tricks, one line each, in Deal 3.1's ``ddline`` format (its
    ``format/ddline``): the four hands North first with ``.`` between the suits, then for each
    hand its tricks as declarer in spades, hearts, diamonds, clubs and notrump, all joined by
    ``|``. Every deal's table is solved by DDS (:func:`cardlab.bridge.dd.tricks_batch`);
    :func:`parse_line_deals` reads the lines back."""
    from cardlab.bridge.dd import tricks_batch
    from cardlab.bridge.dealer.dealing import owner_from_masks
    from cardlab.bridge.dealer.output import holdings

    n = masks.shape[2]
    if n == 0:
        return ""
    hands = np.argsort(owner_from_masks(masks).T, axis=1, kind="stable").reshape(-1, 4, 13)
    tricks = tricks_batch(hands)[:, :, [3, 2, 1, 0, 4]]  # Deal's order: spades .. clubs, notrump
    lines = []
    for i in range(n):
        text = "|".join(".".join(holdings(masks, seat, i)) for seat in range(4))
        lines.append(text + "|" + "|".join(" ".join(str(int(t)) for t in tricks[i, seat]) for seat in range(4)))
    return "\n".join(lines) + "\n"
