"""Many hands at once: read, check and rank them, fast enough for files of millions of lines.

:func:`rank_hands` takes hand texts, the text of a hands file, a file (a path
or a binary stream) or an array of card ids, and returns :class:`RankedHands`:
the cards, category and strength of every hand, in input order, with the text
the command line prints (table, CSV or JSON).

A file is read in blocks and parsed with numpy: the bytes are classified by a
lookup table (rank, suit, separator, comment, line end), the significant bytes
of each line must alternate rank and suit, and the card ids come from two
more lookups. Only the lines this fast path cannot read (``10h``, suit
symbols, PBN hands, mistakes) go through the exact per-line parser, which
either reads them or raises the error naming the line.

>>> ranked = rank_hands(["As Ks Qs Js Ts", "2c2d2h7s7c", "7c 5d 4h 3s 2c 9d Jh"])
>>> ranked
<RankedHands: 3 hands, standard rules>
>>> print(ranked.table(), end="")
As Ks Qs Js Ts        Royal flush      10271384
2c 2d 2h 7s 7c        Full house       6291541
7c 5d 4h 3s 2c 9d Jh  High card        619826
>>> ranked[1].describe()
'full house, twos full of sevens'
>>> rank_hands(["As Ks Qs Js Ts", "As Ks Qs Js"])
Traceback (most recent call last):
...
cardlab.errors.HandError: hand 2: a hand has 5, 6 or 7 cards; 'As Ks Qs Js' has 4
"""

from __future__ import annotations

import html
import io
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator, Sequence

import numpy as np

from cardlab.results import JsonText
from cardlab.cards import RANKS, SUITS, format_cards
from cardlab.errors import CardlabError, HandError
from cardlab.poker.comparison import HandValue, hand_value
from cardlab.poker.evaluator import parse_hand, strengths
from cardlab.poker.kernel import category_codes
from cardlab.poker.rules import STANDARD, Category, Rules
from cardlab.textfile import line_blocks

__all__ = ["RankedHands", "rank_hands", "FORMATS", "NO_CARD"]

FORMATS = ("table", "csv", "json")
"""Text formats of :meth:`RankedHands.text`."""

NO_CARD = 255
"""Padding in :attr:`RankedHands.cards` after a hand's last card."""

_BLOCK = 1 << 20
"""Bytes of a file parsed at once (cut at a line end): bounds the memory used."""

_ROWS = 1 << 15
"""Hands rendered to text at once."""

# byte classes of the fast parser
_SEP, _RANK, _SUIT, _LINE, _OTHER, _HASH = range(6)
_CLASS = np.full(256, _OTHER, dtype=np.uint8)
_VALUE = np.zeros(256, dtype=np.uint8)
for _i, _ch in enumerate(RANKS):
    for _b in {_ch, _ch.lower()}:
        _CLASS[ord(_b)], _VALUE[ord(_b)] = _RANK, _i
for _i, _ch in enumerate(SUITS):
    for _b in (_ch, _ch.upper()):
        _CLASS[ord(_b)], _VALUE[ord(_b)] = _SUIT, _i
for _b in " \t\r,;-":  # the card-list separators, and the CR of CRLF line ends
    _CLASS[ord(_b)] = _SEP
_CLASS[ord("\n")] = _LINE
_CLASS[ord("#")] = _HASH
_SIGNIFICANT = np.isin(_CLASS, (_RANK, _SUIT, _OTHER))
"""Per byte: whether it counts (a rank, a suit or anything unknown), not a separator."""


@dataclass(frozen=True, eq=False)
class RankedHands(JsonText):
    """Hands with their category and strength, in input order.

    ``cards`` is an ``(n, 7)`` uint8 array of card ids, each row padded with
    :data:`NO_CARD` after its ``sizes[i]`` cards (5, 6 or 7); ``strengths`` are
    uint32, higher is better, equal is a tie (see :mod:`cardlab.poker.kernel`).
    """

    cards: np.ndarray
    sizes: np.ndarray
    strengths: np.ndarray
    rules: Rules = STANDARD

    def __len__(self) -> int:
        return len(self.strengths)

    def __getitem__(self, i: int) -> HandValue:
        """The ``i``-th hand as a :class:`HandValue` (best five cards, description)."""
        row = self.cards[i]
        return hand_value([int(c) for c in row[: int(self.sizes[i])]], self.rules)

    @property
    def categories(self) -> np.ndarray:
        """:class:`Category` values (uint8) of the hands."""
        return category_codes(self.strengths, self.rules)

    def hand_texts(self) -> list[str]:
        """The canonical text of each hand, e.g. ``'As Ks Qs Js Ts'``."""
        return [format_cards(row[:k]) for row, k in zip(self.cards.tolist(), self.sizes.tolist())]

    def rows(self) -> list[dict[str, Any]]:
        """One dict per hand: hand, category, strength."""
        keys = [c.key for c in Category]
        return [{"hand": h, "category": keys[c], "strength": s}
                for h, c, s in zip(self.hand_texts(), self.categories.tolist(), self.strengths.tolist())]

    def to_dict(self) -> list[dict[str, Any]]:
        """The rows as JSON holds them: ``[{"hand", "category", "strength"}, ...]`` (a list,
        as ``cardlab poker rank --format json`` prints it)."""
        return self.rows()

    def to_csv(self) -> str:
        """CSV text: a header ``hand,category,strength`` and one row per hand."""
        return self.text("csv")

    def table(self) -> str:
        """The aligned text the command line prints: hand, category, strength."""
        return self.text("table")

    def to_pandas(self) -> Any:
        """A pandas DataFrame with columns hand, category, strength (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame(self.rows(), columns=["hand", "category", "strength"])

    def text(self, fmt: str = "table") -> str:
        """All the text of one format (``table``, ``csv`` or ``json``)."""
        return "".join(self.iter_text(fmt))

    def iter_text(self, fmt: str = "table") -> Iterator[str]:
        """The text of one format in pieces of at most 32,768 hands (bounded memory).

        ``json`` gives exactly ``json.dumps(self.to_dict(), indent=2)`` and a
        line end; every format ends with a line end.
        """
        for piece in self._iter_bytes(fmt):
            yield piece.decode("ascii")

    def _iter_bytes(self, fmt: str) -> Iterator[bytes]:
        if fmt not in FORMATS:
            raise CardlabError(f"unknown format '{fmt}' (choose {', '.join(FORMATS)})")
        n = len(self)
        if fmt == "csv":
            yield b"hand,category,strength\n"
        if fmt == "json":
            yield b"[\n" if n else b"[]\n"
        width = 3 * int(self.sizes.max()) - 1 if n else 0
        for start in range(0, n, _ROWS):
            yield _render(self, start, min(start + _ROWS, n), fmt, width)
        if fmt == "json" and n:
            yield b"]\n"

    def write(self, target: str | os.PathLike[str] | Any, fmt: str = "table") -> None:
        """Write :meth:`text` to a path (as bytes, piece by piece) or to a text stream."""
        if isinstance(target, (str, os.PathLike)):
            with open(target, "wb") as stream:
                stream.writelines(self._iter_bytes(fmt))
        else:
            target.writelines(self.iter_text(fmt))

    def __repr__(self) -> str:
        return f"<RankedHands: {len(self):,} hand{'s' if len(self) != 1 else ''}, {self.rules.name.replace('_', ' ')} rules>"

    def _repr_html_(self) -> str:
        shown = 20
        head = RankedHands(self.cards[:shown], self.sizes[:shown], self.strengths[:shown], self.rules)
        body = "".join(
            f"<tr><td>{html.escape(r['hand'])}</td><td>{r['category']}</td><td>{r['strength']}</td></tr>"
            for r in head.rows())
        more = f"<p>… and {len(self) - shown:,} more hands</p>" if len(self) > shown else ""
        return (f"<table><caption>{len(self):,} hands, {html.escape(self.rules.name)} rules</caption>"
                f"<tr><th>hand</th><th>category</th><th>strength</th></tr>{body}</table>{more}")


# --- rendering ----------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _card_tokens(pad: int) -> np.ndarray:
    """Per card id: its rank, its suit and a space; :data:`NO_CARD` gives three pad bytes."""
    table = np.full((256, 3), pad, dtype=np.uint8)
    for i in range(52):
        table[i] = (ord(RANKS[i // 4]), ord(SUITS[i % 4]), ord(" "))
    return table


@lru_cache(maxsize=None)
def _four_digits() -> np.ndarray:
    """Row ``i``: the four ASCII digits of ``i`` (0..9999), leading zeros included."""
    return np.frombuffer("".join(f"{i:04d}" for i in range(10_000)).encode(), dtype=np.uint8).reshape(-1, 4)


@lru_cache(maxsize=None)
def _category_bytes(pad: int) -> np.ndarray:
    table = np.full((len(Category), 15), pad, dtype=np.uint8)
    for c in Category:  # the table shows the title ('High card'), CSV and JSON the key
        name = c.title if pad == ord(" ") else c.key
        table[c, : len(name)] = np.frombuffer(name.encode(), dtype=np.uint8)
    return table


def _literal(text: str, n: int) -> np.ndarray:
    return np.broadcast_to(np.frombuffer(text.encode(), dtype=np.uint8), (n, len(text)))


def _render(ranked: RankedHands, start: int, stop: int, fmt: str, width: int) -> bytes:
    """Text of hands ``start:stop``, built as a byte matrix whose 0 bytes are dropped."""
    n = stop - start
    pad = ord(" ") if fmt == "table" else 0
    cards, sizes = ranked.cards[start:stop], ranked.sizes[start:stop].astype(np.intp)
    hand = _card_tokens(pad)[cards].reshape(n, -1)
    hand[np.arange(n), 3 * sizes - 1] = pad  # the space after the last card
    hand = hand[:, :width]
    strength = ranked.strengths[start:stop].astype(np.intp)
    four = _four_digits()
    digits = np.concatenate((four[strength // 10_000], four[strength % 10_000]), axis=1)
    lead = 10 ** np.arange(7, 0, -1)  # a leading zero is dropped (the last digit never is)
    digits[:, :7][strength[:, None] < lead] = 0
    category = _category_bytes(pad)[category_codes(ranked.strengths[start:stop], ranked.rules)]
    if fmt == "table":
        parts = [hand, _literal("  ", n), category, _literal("  ", n), digits, _literal("\n", n)]
    elif fmt == "csv":
        parts = [hand, _literal(",", n), category, _literal(",", n), digits, _literal("\n", n)]
    else:
        last = stop == len(ranked)
        ends = np.tile(np.frombuffer(b"\n  },\n", dtype=np.uint8), (n, 1))
        if last:
            ends[-1, -2:] = (ord("\n"), 0)
        parts = [_literal('  {\n    "hand": "', n), hand, _literal('",\n    "category": "', n), category,
                 _literal('",\n    "strength": ', n), digits, ends]
    matrix = np.concatenate(parts, axis=1)
    out: bytes = matrix[matrix != 0].tobytes()
    return out


# --- parsing ------------------------------------------------------------------------------------

def rank_hands(hands: Any, rules: Rules = STANDARD, *, repeats: bool = False,
               name: str | None = None) -> RankedHands:
    """Category and strength of many hands, in input order.

    ``hands`` is one of:

    * a sequence of hand texts (``["As Ks Qs Js Ts", ...]``); errors name ``hand N``;
    * a :class:`~pathlib.Path` (or other path object) of a hands file, or an open
      binary stream, or ``bytes``, or a ``str`` holding the text of such a file:
      one hand per line, ``#`` starts a comment, blank lines are skipped; errors
      name the file (``name``, default the file's name) and the line;
    * an ``(n, k)`` array of card ids (``k`` = 5, 6 or 7).

    A card twice in a hand is an error unless ``repeats`` (several decks);
    cards outside the rules' deck (``SHORT_DECK``: below six) are errors.

    >>> rank_hands("As Ks Qs Js Ts\\n# a comment\\n\\n2c 2d 2h 7s 7x\\n")
    Traceback (most recent call last):
    ...
    cardlab.errors.HandError: line 4: unknown symbol 'x' in '2c 2d 2h 7s 7x'
    """
    if isinstance(hands, np.ndarray):
        return _rank_array(hands, rules, repeats)
    if isinstance(hands, os.PathLike):
        path = Path(hands)
        label = name or path.name
        with open(path, "rb") as stream:
            return _rank_stream(stream, rules, repeats, label)
    if isinstance(hands, (bytes, bytearray)):
        return _rank_stream(io.BytesIO(hands), rules, repeats, name)
    if isinstance(hands, str):
        return _rank_stream(io.BytesIO(hands.encode("utf-8")), rules, repeats, name)
    if hasattr(hands, "read"):
        return _rank_stream(hands, rules, repeats, name or _stream_name(hands))
    return _rank_texts(list(hands), rules, repeats)


def _stream_name(stream: Any) -> str | None:
    value = getattr(stream, "name", None)
    return Path(value).name if isinstance(value, str) else None


def _rank_array(hands: np.ndarray, rules: Rules, repeats: bool) -> RankedHands:
    s = strengths(hands, rules)  # checks the shape and the ids
    hands = np.asarray(hands).astype(np.uint8)
    n, k = hands.shape
    suspect = ((hands >> 2) < rules.lowest_rank).any(axis=1)
    if not repeats:
        suspect |= _repeated(hands)
    for i in np.flatnonzero(suspect)[:1].tolist():  # the exact parser words the first error
        _exact_lines([format_cards(hands[i])], rules, repeats, lambda _: f"hand {i + 1}")
    cards = np.full((n, 7), NO_CARD, dtype=np.uint8)
    cards[:, :k] = hands
    return RankedHands(cards, np.full(n, k, dtype=np.uint8), s, rules)


def _rank_texts(texts: list[str], rules: Rules, repeats: bool) -> RankedHands:
    """Hand texts: joined into lines for the fast parser unless a text could change the lines."""
    if not texts:
        raise HandError("no hands given")
    if any(("\n" in t or "#" in t or "\r" in t or not t.strip()) for t in texts):
        return _finish(_exact_lines(texts, rules, repeats, lambda i: f"hand {i}"), rules)
    stream = io.BytesIO("\n".join(texts).encode("utf-8"))
    return _rank_stream(stream, rules, repeats, None, label=lambda i: f"hand {i}")


def _rank_stream(stream: BinaryIO, rules: Rules, repeats: bool, name: str | None,
                 label: Callable[[int], str] | None = None) -> RankedHands:
    if label is None:
        label = (lambda i: f"{name}: line {i}") if name else (lambda i: f"line {i}")
    parts = []
    first_line = 1
    for block in _blocks(stream, name):
        cards, sizes, lines = _parse_block(block, rules, repeats, first_line, label)
        parts.append((cards, sizes))
        first_line += lines
    cards = np.concatenate([c for c, _ in parts]) if parts else np.zeros((0, 7), dtype=np.uint8)
    sizes = np.concatenate([s for _, s in parts]) if parts else np.zeros(0, dtype=np.uint8)
    if not len(sizes):
        raise HandError(f"no hands in '{name}'" if name else "no hands given")
    return _finish((cards, sizes), rules)


def _finish(parsed: tuple[np.ndarray, np.ndarray], rules: Rules) -> RankedHands:
    cards, sizes = parsed
    out = np.empty(len(sizes), dtype=np.uint32)
    for k in np.unique(sizes).tolist():  # one vectorised call per hand size
        rows = np.flatnonzero(sizes == k)
        if len(rows) == len(sizes):
            out[:] = strengths(cards[:, :k], rules)
        else:
            out[rows] = strengths(cards[rows, :k], rules)
    return RankedHands(cards, sizes, out, rules)


def _blocks(stream: BinaryIO, name: str | None = None) -> Iterator[bytes]:
    """The stream's bytes in blocks that end at a line end (or at the end of the stream), within
    the input limits of :func:`cardlab.textfile.line_blocks` (so ``/dev/zero`` stops at once)."""
    return line_blocks(stream, name, _LimitError, _BLOCK)


class _LimitError(HandError):
    """An input over a size limit, named as the hands file's other errors are."""

    def __init__(self, reason: str, source: str | None = None) -> None:
        super().__init__(f"{source}: {reason}" if source else reason)


def _utf8(block: bytes, first_line: int, label: Callable[[int], str]) -> None:
    try:
        block.decode("utf-8")
    except UnicodeDecodeError as error:
        line = first_line + block.count(b"\n", 0, error.start)
        raise HandError(f"{label(line)}: not UTF-8 text (byte 0x{block[error.start]:02x}); "
                        f"save the file as UTF-8") from None


def _parse_block(block: bytes, rules: Rules, repeats: bool, first_line: int,
                 label: Callable[[int], str]) -> tuple[np.ndarray, np.ndarray, int]:
    """Card ids (``(m, 7)``, padded) and sizes of the hands in ``block``, and its number of lines."""
    b = np.frombuffer(block, dtype=np.uint8)
    if len(b) and b.max() >= 0x80:
        _utf8(block, first_line, label)
    ends = np.flatnonzero(b == ord("\n"))
    if not len(ends) or ends[-1] != len(b) - 1:
        ends = np.append(ends, len(b))
    n_lines = len(ends)
    starts = np.concatenate(([0], ends[:-1] + 1))
    significant = _SIGNIFICANT[b]
    hashes = np.flatnonzero(b == ord("#"))
    if len(hashes):  # a comment runs from '#' to the line end
        line_of = _line_of(b)
        cut = np.append(ends, len(b)).astype(np.int64)  # the last line end has its own entry
        np.minimum.at(cut, line_of[hashes], hashes)
        significant &= np.arange(len(b)) < cut[line_of]
    count, first = _counts(significant, starts)
    odd = (count & 1).astype(bool)
    if odd.any():  # leave out these lines' bytes so that every line starts on a rank
        significant &= ~np.append(odd, False)[_line_of(b)]
        count, first = _counts(significant, starts)
    odd |= (count != 0) & (count != 10) & (count != 12) & (count != 14)
    value = b[significant]
    kind = _CLASS[value]
    wrong = np.flatnonzero((kind[0::2] != _RANK) | (kind[1::2] != _SUIT))  # pairs not rank + suit
    odd[np.searchsorted(first, 2 * wrong, side="right") - 1] = True  # the exact parser decides
    ids = _VALUE[value[0::2]] * np.uint8(4) + _VALUE[value[1::2]]
    cards = np.full((n_lines, 7), NO_CARD, dtype=np.uint8)
    sizes = np.zeros(n_lines, dtype=np.uint8)
    for k in (5, 6, 7):
        rows = np.flatnonzero((count == 2 * k) & ~odd)
        if not len(rows):
            continue
        if len(rows) * k == len(ids):  # every card of the block is in these rows, in order
            hands = ids.reshape(-1, k)
        else:
            hands = ids[(first[rows] // 2)[:, None] + np.arange(k)]
        suspect = ((hands >> 2) < rules.lowest_rank).any(axis=1)
        if not repeats:
            suspect |= _repeated(hands)
        odd[rows[suspect]] = True  # the exact parser names the card
        keep = ~suspect
        cards[rows[keep], :k] = hands[keep]
        sizes[rows[keep]] = k
    lines = np.flatnonzero(odd).tolist()
    if lines:
        texts = [block[starts[i] : ends[i]].decode("utf-8").split("#", 1)[0] for i in lines]
        exact = _exact_lines(texts, rules, repeats, lambda i: label(first_line + lines[i - 1]),
                             skip_blank=True)
        where = [i for i, t in zip(lines, texts) if t.strip()]
        cards[where], sizes[where] = exact
    keep = sizes != 0
    return cards[keep], sizes[keep], n_lines


def _line_of(b: np.ndarray) -> np.ndarray:
    """The line of each byte (a line end counts for the next line)."""
    return np.cumsum(b == ord("\n"), dtype=np.int32)


def _counts(significant: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Significant bytes in each line, and the index of each line's first one among them."""
    # a line runs from its start to the next line's start (its line end is not significant);
    # an empty line's start is its line end, which reduceat gives alone: 0
    count = np.add.reduceat(significant, starts, dtype=np.int64)
    return count, np.cumsum(count) - count


def _repeated(hands: np.ndarray) -> np.ndarray:
    """Per row: whether a card id appears twice (column pairs compared, no sort)."""
    k = hands.shape[1]
    cols = [hands[:, j] for j in range(k)]
    out = np.zeros(len(hands), dtype=bool)
    for i in range(k):
        for j in range(i + 1, k):
            out |= cols[i] == cols[j]
    return out


def _exact_lines(texts: Sequence[str], rules: Rules, repeats: bool, label: Callable[[int], str],
                 skip_blank: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The exact per-line parser: card ids of each text (``label(i)`` names text ``i``, from 1)."""
    cards = np.full((len(texts), 7), NO_CARD, dtype=np.uint8)
    sizes = np.zeros(len(texts), dtype=np.uint8)
    row = 0
    for i, text in enumerate(texts, 1):
        text = text.strip()
        if skip_blank and not text:
            continue
        try:
            ids = parse_hand(text, repeats=repeats)
            rules.check_cards(ids)
        except CardlabError as error:
            raise HandError(f"{label(i)}: {error}") from None
        cards[row, : len(ids)] = ids
        sizes[row] = len(ids)
        row += 1
    return cards[:row], sizes[:row]
