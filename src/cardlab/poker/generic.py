"""Ranges in the generic syntax (ProPokerTools' generic range syntax) for every flop game.

The reference is ProPokerTools' "Generic Syntax Documentation" (propokertools.com,
``oracle_help/range_of_hands``) and its "Weighted Ranges" page (``oracle_help/weighted_ranges``);
this module follows them for hold'em, Omaha (4, 5 and 6 cards) and short deck:

- ranks ``AKQJT98765432`` and suits ``shdc`` (case matters: ``s`` is spades); a rank alone is a
  card of that rank in any suit, a suit alone a card of that suit of any rank, ``*`` any rank;
- suit variables ``w x y z``: one suit each, different variables different suits, never a suit
  named outright in the same pattern (``AxAyxy`` double-suited aces, ``xxyy`` double suited);
- every other letter is a rank variable (``R``, ``O``, ``N`` ...): one rank each, different
  variables different ranks, never a rank named outright in the same pattern (``RRON`` one pair
  and two other ranks, ``AARR`` aces and another pair);
- a pattern of m cards matches a hand that holds m cards fitting it one to one; the hand's other
  cards are free (``AA`` in Omaha is every hand with at least two aces);
- rank lists ``[AKQ]``, ``[A-T]``, ``[A,K]`` (one card of any of those ranks) and suit lists
  ``[sh]``; rank spans ``KK-TT`` (the ranks that differ between the ends move together one step at
  a time: ``KQJT-QJT9``, ``A2-AK``) and trailing ``+``/``-`` (every named rank moves up, or down,
  together while all stay in the deck: ``TT+``, ``JT98+``);
- ``15%``: the top 15% of hands by :func:`hand_order`; ``5%-10%`` the hands between; ``random``
  (the word, as in hold'em's ranges) or ``*`` alone: every hand (as a pattern the same letters
  would be five rank variables and a diamond: write other letters for that);
- combinators: ``a, b`` either (union), ``a:b`` both (intersection), ``a!b`` a but not b; ``:`` and
  ``!`` bind tighter than ``,`` and are read left to right; parentheses group;
- weights ``@N`` (a whole number 1..100) at the end of a comma-separated sub-range or after a
  parenthesis: all sub-ranges weighted or none, and a hand weighted twice keeps the largest.

Matching is done over every hand of the game at once by the compiled kernel
(``csrc/poker_range.c``); the set algebra runs on boolean masks over that list of hands.

>>> r = parse_generic("AA:xxyy", hole=4)
>>> r.combo_count, r.labels()[0]
(864, 'AsAhKsKh')
>>> parse_generic("RRON", hole=4).combo_count, parse_generic("KK!KKK, AA", hole=4).combo_count
(82368, 13693)
>>> parse_generic("AQ", hole=2).combo_count, parse_generic("AxKx", hole=2).combo_count
(16, 4)
>>> parse_generic("AK?", hole=4)
Traceback (most recent call last):
...
cardlab.errors.RangeError: unknown symbol '?' in range 'AK?'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from cardlab._native import core as _core
from cardlab.cards import RANKS, SUITS
from cardlab.errors import RangeError
from cardlab.textfile import shortened
from cardlab.poker.ranges import Range

__all__ = ["GenericRange", "parse_generic", "all_hands", "hand_order", "RANK_LETTERS", "SUIT_VARIABLES",
           "MAX_NESTING", "MAX_MATCHING"]

RANK_LETTERS = RANKS[::-1]
"""The ranks in the syntax, highest first."""

SUIT_LETTERS = SUITS[::-1]
SUIT_VARIABLES = "wxyz"
_ALL_RANKS = (1 << 13) - 1
_ALL_SUITS = 15
_OPERATORS = ",:!@()"
MAX_NESTING = 100
"""The deepest a generic range's parentheses may nest."""
MAX_MATCHING = 200_000_000
"""A generic range's patterns times the hands each is matched against: at most this many (about
10 seconds; 738 patterns of an Omaha range, 150,000 of a hold'em one)."""


class GenericRange(Range):
    """The hands of a generic range: :class:`~cardlab.poker.ranges.Range` with ``combos``
    ``(n, hole)`` uint8, each hand highest card first."""

    @property
    def hole(self) -> int:
        """Cards per hand."""
        return int(self.combos.shape[1])

    @property
    def hands(self) -> np.ndarray:
        """The hands (the same array as ``combos``)."""
        return self.combos

    def __repr__(self) -> str:
        return f"GenericRange({self.text!r}, {len(self)} hands)"


# --- every hand of a game -----------------------------------------------------------------------


@lru_cache(maxsize=4)
def all_hands(hole: int, lowest_rank: int = 0) -> np.ndarray:
    """Every ``hole``-card hand of the deck from ``lowest_rank`` up, ``(C(n, hole), hole)`` uint8,
    each row highest card first, rows in lexicographic order of that (read-only)."""
    deck = bytes(range(51, lowest_rank * 4 - 1, -1))
    out = np.zeros((comb(len(deck), hole), hole), dtype=np.uint8)
    _core.poker_hands(deck, hole, out)
    out.setflags(write=False)
    return out


# --- patterns -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Card:
    """One card of a pattern: allowed ranks and suits (bit masks), and its variables (or -1)."""

    ranks: int
    rank_var: int
    suits: int
    suit_var: int


def _fail(message: str) -> RangeError:
    return RangeError(shortened(message))  # a 300 KB range is quoted by its start and length


def _read_bracket(body: str, atom: str, text: str) -> tuple[str, int]:
    """A list in brackets: ('rank', mask) or ('suit', mask)."""
    items = [p for p in re.split(r"[,\s]+", body) if p]
    if not items:
        raise _fail(f"empty list '[{body}]' in range '{text}'")
    if all(ch in SUIT_LETTERS for p in items for ch in p):
        return "suit", sum(1 << SUITS.index(ch) for p in items for ch in p)
    mask = 0
    for p in items:
        m = re.fullmatch(r"([AKQJT2-9])-([AKQJT2-9])", p)
        if m:
            lo, hi = sorted((RANKS.index(m.group(1)), RANKS.index(m.group(2))))
            mask |= sum(1 << r for r in range(lo, hi + 1))
            continue
        for ch in p:
            if ch not in RANK_LETTERS:
                raise _fail(f"unknown symbol '{ch}' in the list '[{body}]' of range '{text}' "
                            f"(a list holds ranks such as [AKQ], [A-T] or suits such as [sh])")
            mask |= 1 << RANKS.index(ch)
    return "rank", mask


def _cards(atom: str, text: str) -> tuple[list[_Card], int, int]:
    """The cards of one pattern, and the ranks and suits it names outright (masks)."""
    rank_vars: dict[str, int] = {}
    suit_vars: dict[str, int] = {}
    cards: list[_Card] = []
    forbid_ranks = forbid_suits = 0
    pending: tuple[int, int] | None = None  # (rank mask, rank variable) waiting for a suit
    i = 0

    def close(suits: int, suit_var: int) -> None:
        nonlocal pending
        ranks, rank_var = pending if pending is not None else (_ALL_RANKS, -1)
        cards.append(_Card(ranks, rank_var, suits, suit_var))
        pending = None

    while i < len(atom):
        ch = atom[i]
        if ch.isspace():
            i += 1
            continue
        if ch == "[":
            end = atom.find("]", i)
            if end < 0:
                raise _fail(f"unclosed '[' in range '{text}'")
            kind, mask = _read_bracket(atom[i + 1:end], atom, text)
            i = end + 1
            if kind == "rank":
                if pending is not None:
                    close(_ALL_SUITS, -1)
                pending = (mask, -1)
            else:
                close(mask, -1)
            continue
        if ch in RANK_LETTERS or ch == "*":
            if pending is not None:
                close(_ALL_SUITS, -1)
            if ch == "*":
                pending = (_ALL_RANKS, -1)
            else:
                pending = (1 << RANKS.index(ch), -1)
                forbid_ranks |= 1 << RANKS.index(ch)
        elif ch in SUIT_LETTERS:
            close(1 << SUITS.index(ch), -1)
            forbid_suits |= 1 << SUITS.index(ch)
        elif ch in SUIT_VARIABLES:
            close(_ALL_SUITS, suit_vars.setdefault(ch, len(suit_vars)))
        elif ch.isalpha() and ch.isascii():
            if pending is not None:
                close(_ALL_SUITS, -1)
            pending = (_ALL_RANKS, rank_vars.setdefault(ch, len(rank_vars)))
        else:
            raise _fail(f"unknown symbol '{ch}' in range '{text}'")
        i += 1
    if pending is not None:
        close(_ALL_SUITS, -1)
    if len(rank_vars) > 13 or len(suit_vars) > 4:
        raise _fail(f"too many variables in '{atom}' of range '{text}'")
    return cards, forbid_ranks, forbid_suits


def _match(atom: str, text: str, hands: np.ndarray) -> np.ndarray:
    """Boolean mask of the hands one pattern (no span, no operator) matches."""
    cards, forbid_ranks, forbid_suits = _cards(atom, text)
    hole = hands.shape[1]
    if not cards:
        raise _fail(f"empty pattern in range '{text}'")
    if len(cards) > hole:
        raise _fail(f"'{atom}' has {len(cards)} cards, more than a hand of {hole} in range '{text}'")
    if cards == [_Card(_ALL_RANKS, -1, _ALL_SUITS, -1)] * len(cards):
        return np.ones(len(hands), dtype=bool)
    # most constrained cards first: the search prunes sooner
    order = sorted(cards, key=lambda c: (bin(c.ranks).count("1") * bin(c.suits).count("1"),
                                         c.rank_var < 0, c.suit_var < 0))
    program = np.array([[c.ranks, c.rank_var, c.suits, c.suit_var] for c in order], dtype=np.int32)
    out = np.zeros(len(hands), dtype=np.uint8)
    _core.poker_range_match(np.ascontiguousarray(hands), hole, program.tobytes(),
                            (forbid_ranks, forbid_suits), out)
    return out.astype(bool)


_RANK_AT = re.compile(r"[AKQJT2-9]")


def _shift(atom: str, step: int, lowest_rank: int) -> str | None:
    """The atom with every named rank moved ``step`` ranks (None when one leaves the deck)."""
    out = []
    for ch in atom:
        if ch in RANK_LETTERS:
            r = RANKS.index(ch) + step
            if not lowest_rank <= r <= 12:
                return None
            out.append(RANKS[r])
        else:
            out.append(ch)
    return "".join(out)


def _expand_spans(atom: str, text: str, lowest_rank: int) -> list[str]:
    """The plain patterns of an atom with a span (``KK-TT``) or a trailing ``+``/``-``."""
    if "[" in atom:
        if re.search(r"\][+-]$|-\S*\[", atom):
            raise _fail(f"cannot read '{atom}' in range '{text}': a span has no lists")
        return [atom]
    if atom.endswith("+") or atom.endswith("-"):
        base, step = atom[:-1], 1 if atom.endswith("+") else -1
        if not _RANK_AT.search(base):
            raise _fail(f"cannot read '{atom}' in range '{text}': '+' and '-' move named ranks")
        out, k = [], 0
        while (moved := _shift(base, k * step, lowest_rank)) is not None:
            out.append(moved)
            k += 1
        return out
    if "-" in atom:
        left, right = atom.split("-", 1)
        if "-" in right or len(left) != len(right):
            raise _fail(f"cannot read the span '{atom}' in range '{text}': both ends have the same "
                        f"shape, e.g. KK-TT or KQJT-QJT9")
        steps = set()
        for a, b in zip(left, right):
            if a == b:
                continue
            if a not in RANK_LETTERS or b not in RANK_LETTERS:
                raise _fail(f"cannot read the span '{atom}' in range '{text}': only ranks may differ "
                            f"between its ends")
            steps.add(RANKS.index(b) - RANKS.index(a))
        if len(steps) > 1:
            raise _fail(f"cannot read the span '{atom}' in range '{text}': the ranks that differ "
                        f"between its ends must move by the same number of steps")
        if not steps:
            return [left]
        delta = steps.pop()
        unit = 1 if delta > 0 else -1
        out = []
        for k in range(abs(delta) + 1):
            chars = [a if a == b else RANKS[RANKS.index(a) + k * unit] for a, b in zip(left, right)]
            out.append("".join(chars))
        return out
    return [atom]


# --- percentages --------------------------------------------------------------------------------


@lru_cache(maxsize=4)
def hand_order(hole: int, lowest_rank: int = 0) -> np.ndarray:
    """Indices into :func:`all_hands` from the best hand to the worst, for ``%`` ranges.

    Hold'em and short deck: the hand classes of :data:`cardlab.poker.ranges.PREFLOP_ORDER` (all-in
    equity against one random hand), combos of a class in deck order. Omaha (4, 5, 6 cards): see
    :func:`_omaha_points`, a documented points ordering.
    """
    hands = all_hands(hole, lowest_rank)
    if hole == 2:
        from cardlab.poker.ranges import PREFLOP_ORDER, combo_classes, class_index

        place = np.zeros(169, dtype=np.int64)
        for n, label in enumerate(PREFLOP_ORDER):
            place[class_index(label)] = n
        key = place[combo_classes(hands)]
    else:
        key = -_omaha_points(hands)
    order: np.ndarray = np.argsort(key, kind="stable")
    order.setflags(write=False)
    return order


def _omaha_points(hands: np.ndarray) -> np.ndarray:
    """Points of Omaha hands (higher is better), vectorised: the ordering of ``%`` ranges.

    A points count in the manner of Hutchinson's Omaha system, computed alike for 4, 5 and 6
    cards (rank 0 = two .. 12 = ace):

    - pairs: a rank held exactly twice scores ``rank + 4`` (aces 36); held three times half of
      that; four times nothing;
    - suits: a suit held two or three times scores its top rank + 2 (+4 more when it is the ace),
      less 2 when held three times; four or more times 1;
    - straights: each two ranks held ``gap`` ranks apart (gap 0 to 3 between them) score
      ``4 - gap + higher rank / 4``; an ace with a two to five scores 1 more each;
    - ties are broken by the sum of the ranks, then by the order of :func:`all_hands`.
    """
    ranks = (hands >> 2).astype(np.int64)
    suits = (hands & 3).astype(np.int64)
    n, k = hands.shape
    rank_counts = np.zeros((n, 13), dtype=np.int8)
    suit_counts = np.zeros((n, 4), dtype=np.int8)
    suit_top = np.full((n, 4), -1, dtype=np.int64)
    for j in range(k):
        rank_counts += ranks[:, j:j + 1] == np.arange(13)
        hit = suits[:, j:j + 1] == np.arange(4)
        suit_counts += hit
        suit_top = np.where(hit, np.maximum(suit_top, ranks[:, j:j + 1]), suit_top)
    value = np.arange(13) + 4.0
    value[12] = 36.0
    total = ((rank_counts == 2) * value).sum(axis=1) + ((rank_counts == 3) * value / 2).sum(axis=1)
    flush = suit_top + 2.0 + np.where(suit_top == 12, 4.0, 0.0)
    total += np.where((suit_counts == 2) | (suit_counts == 3), flush, 0).sum(axis=1)
    total -= 2.0 * (suit_counts == 3).sum(axis=1)
    total += 1.0 * (suit_counts >= 4).sum(axis=1)
    held = rank_counts > 0
    for gap in range(4):
        step = gap + 1
        both = held[:, :13 - step] & held[:, step:]
        total += (both * (4.0 - gap + np.arange(step, 13) / 4)).sum(axis=1)
    total += (held[:, :4] & held[:, 12:13]).sum(axis=1)
    result: np.ndarray = total + ranks.sum(axis=1) / 1000
    return result


def _percent(atom: str, text: str, hole: int, lowest_rank: int) -> np.ndarray:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)%(?:-(\d+(?:\.\d+)?)%)?(6h)?", atom)
    if m is None:
        raise _fail(f"cannot read the percentage '{atom}' in range '{text}' (write 15% or 5%-10%)")
    if m.group(3):
        raise _fail(f"'{atom}' in range '{text}': cardlab has one ordering of hands, not a "
                    f"6-handed one; drop '6h'")
    lo, hi = (0.0, float(m.group(1))) if m.group(2) is None else (float(m.group(1)), float(m.group(2)))
    if not (0 <= lo <= hi <= 100) or hi == 0:
        raise _fail(f"'{atom}' in range '{text}': percentages run from above 0 to 100, low to high")
    order = hand_order(hole, lowest_rank)
    n = len(order)
    if hole == 2:  # whole hand classes, as the hold'em ranges always did
        from cardlab.poker.ranges import top_classes

        def classes(p: float) -> set[str]:
            return set(top_classes(p)) if p > 0 else set()

        want = classes(hi) - (classes(lo) if m.group(2) is not None and lo > 0 else set())
        from cardlab.poker.ranges import combo_classes, class_index

        wanted = np.zeros(169, dtype=bool)
        wanted[[class_index(c) for c in want]] = True
        mask: np.ndarray = wanted[combo_classes(all_hands(hole, lowest_rank))]
        return mask
    start = int(round(lo / 100 * n)) if m.group(2) is not None else 0
    stop = int(round(hi / 100 * n))
    mask = np.zeros(n, dtype=bool)
    mask[order[start:stop]] = True
    return mask


# --- expressions --------------------------------------------------------------------------------


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    buf = ""
    for ch in text:
        if ch in _OPERATORS:
            if buf.strip():
                out.append(buf.strip())
            buf = ""
            out.append(ch)
        else:
            buf += ch
    if buf.strip():
        out.append(buf.strip())
    return out


class _Parser:
    """Recursive descent over the tokens: ``expr := term (',' term)*``,
    ``term := factor ((':' | '!') factor)* ['@' N]``, ``factor := '(' expr ')' ['@' N] | atom``."""

    def __init__(self, text: str, hole: int, lowest_rank: int) -> None:
        self.text, self.hole, self.lowest_rank = text, hole, lowest_rank
        self.tokens = _tokens(text)
        self.pos = 0
        patterns = sum(token not in _OPERATORS for token in self.tokens)
        hands = comb(52 - 4 * lowest_rank, hole)
        if patterns * hands > MAX_MATCHING:  # before any work: each pattern is a pass over every hand
            raise _fail(f"a range of {patterns:,} patterns is too long for {hole}-card hands: each is matched "
                        f"against all {hands:,} hands, at most {MAX_MATCHING // hands:,} patterns")
        self.hands = all_hands(hole, lowest_rank)
        self.weighted: list[bool] = []
        self.depth = 0
        self.atoms: dict[str, np.ndarray] = {}  # 'AA, AA, ...': each pattern matched once

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise _fail(f"range '{self.text}' ends too early")
        self.pos += 1
        return token

    def expr(self) -> np.ndarray:
        """Weights over all hands (0 = not in the range, else the largest weight given)."""
        total = self.term()
        while self.peek() == ",":
            self.take()
            total = np.maximum(total, self.term())
        return total

    def term(self) -> np.ndarray:
        value = self.factor()
        while self.peek() in (":", "!"):
            op = self.take()
            other = self.factor()
            value = np.where(other > 0, value, 0).astype(np.float32) if op == ":" else \
                np.where(other > 0, 0, value).astype(np.float32)
        if self.peek() == "@":
            self.take()
            value = np.where(value > 0, self.weight(), 0).astype(np.float32)
        elif self.depth == 0:
            self.weighted.append(False)
        return value

    def weight(self) -> float:
        token = self.take()
        if not re.fullmatch(r"\d+", token) or not 1 <= int(token) <= 100:
            raise _fail(f"cannot read the weight '@{token}' in range '{self.text}': a weight is a "
                        f"whole number from 1 to 100")
        if self.depth == 0:
            self.weighted.append(True)
        return float(token)

    def factor(self) -> np.ndarray:
        token = self.take()
        if token == "(":
            if self.depth >= MAX_NESTING:  # the parser recurses three calls a level
                raise _fail(f"the range's parentheses nest more than {MAX_NESTING} levels deep")
            self.depth += 1
            inner = self.expr()
            self.depth -= 1
            if self.take() != ")":
                raise _fail(f"unbalanced parentheses in range '{self.text}'")
            return inner
        if token in _OPERATORS:
            raise _fail(f"unexpected '{token}' in range '{self.text}'")
        return self.atom(token)

    def atom(self, token: str) -> np.ndarray:
        compact = "".join(token.split())
        if compact not in self.atoms:
            self.atoms[compact] = self.match(compact)
        return self.atoms[compact]

    def match(self, compact: str) -> np.ndarray:
        if "%" in compact:
            return _percent(compact, self.text, self.hole, self.lowest_rank).astype(np.float32)
        if compact == "*" or compact == "random":  # the word as in hold'em's ranges: every hand
            return np.ones(len(self.hands), dtype=np.float32)
        mask = np.zeros(len(self.hands), dtype=bool)
        for pattern in _expand_spans(compact, self.text, self.lowest_rank):
            mask |= _match(pattern, self.text, self.hands)
        return mask.astype(np.float32)


def parse_generic(text: str, *, hole: int, lowest_rank: int = 0) -> GenericRange:
    """The hands of ``hole`` cards (from the deck above ``lowest_rank``) a generic range holds.

    Raises :class:`~cardlab.errors.RangeError` naming an unknown symbol, a malformed span or
    weight, or a range with no hands.

    >>> parse_generic("AA@2, KK@1", hole=2).weight_sum
    18.0
    >>> parse_generic("AA!AA", hole=4)
    Traceback (most recent call last):
    ...
    cardlab.errors.RangeError: range 'AA!AA' has no hands
    """
    if not text or not text.strip():
        raise _fail("the range is empty")
    if hole not in (2, 4, 5, 6):
        raise _fail(f"generic ranges are for hands of 2, 4, 5 or 6 cards, not {hole}")
    parser = _Parser(text, hole, lowest_rank)
    weights = parser.expr()
    if parser.peek() is not None:
        raise _fail(f"unexpected '{parser.peek()}' in range '{text}'")
    if any(parser.weighted) and not all(parser.weighted):
        raise _fail(f"range '{text}' weights some sub-ranges and not others: weight all or none")
    keep = np.flatnonzero(weights > 0)
    if not len(keep):
        raise _fail(f"range '{text}' has no hands")
    hands = np.array(parser.hands[keep])
    return GenericRange(text, hands, weights[keep].astype(np.float64))
