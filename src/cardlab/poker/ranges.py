"""Hold'em starting-hand ranges in the notation players use, as weighted two-card combos.

Syntax (PokerStove, Equilab, eval7, pokerkit): tokens separated by commas or spaces.

- ``QQ`` a pair (6 combos), ``AKs`` suited (4), ``AKo`` offsuit (12), ``AK`` both (16);
- ``QQ+`` QQ, KK, AA; ``A2s+`` A2s .. AKs (the second rank rises up to below the first);
- ``22-55`` pairs from 22 to 55; ``A5s-A2s`` A5s, A4s, A3s, A2s; ``T9s-65s`` the same
  shape shifted down (T9s, 98s, 87s, 76s, 65s);
- ``AhKh`` one exact combo;
- ``random``, ``*`` or ``any``: all 1,326 combos;
- ``top 15%`` (or ``15%``): the best hand classes by :data:`PREFLOP_ORDER` (all-in equity against
  one random hand) until at least 15% of the 1,326 combos are in;
- weights: ``0.5(AKs, AQs)`` or ``AKs:0.5`` (a combo given twice keeps the last weight).

A combo's weight is its relative frequency in the range; the combos that share a card with the
board, the dead cards or another player's known hand drop out when the equity is computed, and
the weights of the rest are used as they are (so they renormalise among themselves).

>>> r = parse_range("QQ+, AKs, A5s-A4s:0.5")
>>> len(r), r.combo_count, r.weight_sum
(30, 30, 26.0)
>>> parse_range("AhKh").labels()[:1]
['AhKh']
>>> parse_range("AKx")
Traceback (most recent call last):
...
cardlab.errors.RangeError: cannot read 'AKx' in range 'AKx': ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from cardlab.cards import RANKS, card_id, format_cards
from cardlab.errors import CardError, RangeError
from cardlab.textfile import shortened

__all__ = [
    "Range",
    "parse_range",
    "hand_class",
    "class_index",
    "class_label",
    "grid_position",
    "PREFLOP_ORDER",
    "top_classes",
]


@dataclass(frozen=True, eq=False)
class Range:
    """Weighted combos: ``combos`` is ``(n, 2)`` uint8 (high card first; ``(n, hole)`` for the
    generic ranges of :mod:`cardlab.poker.generic`), ``weights`` float64."""

    text: str
    combos: np.ndarray
    weights: np.ndarray

    def __len__(self) -> int:
        return len(self.combos)

    @property
    def combo_count(self) -> int:
        """How many combos the range holds."""
        return len(self.combos)

    @property
    def weight_sum(self) -> float:
        """The sum of the combos' weights."""
        return float(self.weights.sum())

    def labels(self) -> list[str]:
        """Each combo as text, e.g. ``'AhKh'``."""
        return [format_cards(c, sep="") for c in self.combos]

    def without(self, cards: set[int] | frozenset[int]) -> Range:
        """The combos that share no card with ``cards`` (weights unchanged)."""
        keep = ~np.isin(self.combos, list(cards)).any(axis=1) if cards else np.ones(len(self), bool)
        return type(self)(self.text, self.combos[keep], self.weights[keep])

    def __repr__(self) -> str:
        return f"Range({self.text!r}, {len(self)} combos)"


_SPLIT = re.compile(r"[\s,;]+")
_EXACT = re.compile(r"^[2-9TJQKA][cdhs][2-9TJQKA][cdhs]$", re.IGNORECASE)
_CLASS = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)$", re.IGNORECASE)


def _rank(char: str) -> int:
    return RANKS.index(char.upper())


def _combos_of_class(high: int, low: int, kind: str) -> list[tuple[int, int]]:
    """Combos (high card first) of a class; ``kind`` is 's', 'o' or '' (both; pairs)."""
    if high == low:
        return [(high * 4 + b, high * 4 + a) for a, b in combinations(range(4), 2)]
    out = []
    for s1 in range(4):
        for s2 in range(4):
            suited = s1 == s2
            if (kind == "s" and not suited) or (kind == "o" and suited):
                continue
            out.append((high * 4 + s1, low * 4 + s2))
    return out


def _parse_class(text: str, token: str) -> tuple[int, int, str]:
    m = _CLASS.match(text)
    if m is None:
        raise RangeError(f"cannot read '{token}'")
    a, b, kind = _rank(m.group(1)), _rank(m.group(2)), m.group(3).lower()
    if a < b:
        a, b = b, a
    if a == b and kind:
        raise RangeError(f"cannot read '{token}': a pair is neither suited nor offsuit")
    return a, b, kind


def _expand(token: str) -> list[tuple[int, int]]:
    """Combos of one token without its weight."""
    low = token.lower()
    if low in ("random", "*", "any", "xx"):
        return [(b, a) for a, b in combinations(range(52), 2)]
    m = re.fullmatch(r"(?:top)?(\d+(?:\.\d+)?)%", low)
    if m:
        share = float(m.group(1))
        if not 0 < share <= 100:
            raise RangeError(f"cannot read '{token}': a percentage is above 0 and at most 100")
        out: list[tuple[int, int]] = []
        for label in top_classes(share):
            out += _expand(label)
        return out
    if _EXACT.match(token):
        try:
            c1, c2 = card_id(token[:2]), card_id(token[2:])
        except CardError:
            raise RangeError(f"cannot read '{token}'") from None
        if c1 == c2:
            raise RangeError(f"cannot read '{token}': the same card twice")
        return [(max(c1, c2), min(c1, c2))]
    if token.endswith("+"):
        a, b, kind = _parse_class(token[:-1], token)
        if a == b:
            return [c for r in range(a, 13) for c in _combos_of_class(r, r, "")]
        return [c for r in range(b, a) for c in _combos_of_class(a, r, kind)]
    if "-" in token:
        left, right = token.split("-", 1)
        a1, b1, k1 = _parse_class(left, token)
        a2, b2, k2 = _parse_class(right, token)
        if k1 != k2:
            raise RangeError(f"cannot read '{token}': both ends must be of the same kind (s, o or both)")
        if a1 == b1 and a2 == b2:
            lo, hi = sorted((a1, a2))
            return [c for r in range(lo, hi + 1) for c in _combos_of_class(r, r, "")]
        if a1 == a2 and a1 != b1 and a2 != b2:
            lo, hi = sorted((b1, b2))
            return [c for r in range(lo, hi + 1) for c in _combos_of_class(a1, r, k1)]
        if a1 - b1 == a2 - b2 and a1 != b1:
            lo, hi = sorted((a1, a2))
            gap = a1 - b1
            return [c for r in range(lo, hi + 1) for c in _combos_of_class(r, r - gap, k1)]
        raise RangeError(f"cannot read '{token}': the ends of a dash range share their first rank "
                         f"(A5s-A2s), are both pairs (22-55) or are shifted alike (T9s-65s)")
    a, b, kind = _parse_class(token, token)
    return _combos_of_class(a, b, kind)


def _weight(text: str, token: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise RangeError(f"cannot read the weight in '{token}'") from None
    if not 0 <= value <= 1e9 or value != value:
        raise RangeError(f"cannot read the weight in '{token}': a weight is a number from 0 up")
    return value


def _tokens(text: str) -> list[tuple[str, float, str]]:
    """(token, weight, shown) triples: weights in groups ``w(a, b)`` and suffixes ``a:w``."""
    out: list[tuple[str, float, str]] = []
    pos = 0
    for m in re.finditer(r"([0-9.]+)\s*\(([^()]*)\)", text):
        out += _plain_tokens(text[pos:m.start()], 1.0)
        out += _plain_tokens(m.group(2), _weight(m.group(1), m.group(0)))
        pos = m.end()
    rest = text[pos:]
    if "(" in rest or ")" in rest:
        raise RangeError(f"cannot read '{rest.strip()}': a weight group is written 0.5(AKs, AQs)")
    out += _plain_tokens(rest, 1.0)
    return out


def _plain_tokens(text: str, weight: float) -> list[tuple[str, float, str]]:
    text = re.sub(r"(?i)\btop\s+", "top", text)
    out = []
    for raw in _SPLIT.split(text.strip()):
        if not raw:
            continue
        token, w = raw, weight
        if ":" in raw:
            token, wt = raw.rsplit(":", 1)
            w = weight * _weight(wt, raw)
        out.append((token, w, raw))
    return out


def parse_range(text: str, *, lowest_rank: int = 0) -> Range:
    """A :class:`Range` from its text; ``lowest_rank`` 4 keeps short-deck cards (6..A) only.

    >>> parse_range("22-44").combo_count, parse_range("KQo+").combo_count, parse_range("*").combo_count
    (18, 12, 1326)
    >>> parse_range("0.5(AKs) AKo").weight_sum
    14.0
    """
    weights: dict[tuple[int, int], float] = {}
    for token, w, shown in _tokens(text):
        try:
            combos = _expand(token)
        except RangeError as error:
            raise RangeError(shortened(f"{error} in range '{text}': a range is made of tokens such as QQ+, "
                             f"AKs, AKo, A5s-A2s, 22-55, AhKh, random, top 15%, 0.5(AKs) or AKs:0.5"
                             )) from None
        for c in combos:
            weights[c] = w
    if not weights:
        raise RangeError(shortened(f"range '{text}' has no hands"))
    items = [(c, w) for c, w in weights.items() if w > 0 and min(c) // 4 >= lowest_rank]
    if not items:
        raise RangeError(shortened(f"range '{text}' has no hands" +
                                   (" in the short deck" if lowest_rank else " with a weight above 0")))
    array = np.array([c for c, _ in items], dtype=np.uint8).reshape(-1, 2)
    return Range(text, array, np.array([w for _, w in items], dtype=np.float64))


# --- hand classes: 169 of them, drawn as the usual 13 x 13 grid ---------------------------------


def hand_class(c1: int, c2: int) -> str:
    """Class label of a combo: ``'AKs'``, ``'AKo'`` or ``'QQ'``.

    >>> hand_class(card_id("Kh"), card_id("Ah")), hand_class(card_id("2c"), card_id("2d"))
    ('AKs', '22')
    """
    if not all(isinstance(c, (int, np.integer)) and not isinstance(c, bool) and 0 <= c <= 51 for c in (c1, c2)):
        raise CardError(f"card ids are whole numbers 0..51, not {c1!r}, {c2!r}")
    if c1 == c2:
        raise CardError(f"a combo is two different cards, not card {c1} twice")
    r1, r2 = c1 // 4, c2 // 4
    hi, lo = max(r1, r2), min(r1, r2)
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if c1 % 4 == c2 % 4 else "o")


def grid_position(label: str) -> tuple[int, int]:
    """(row, column) in the 13 x 13 grid, aces first: pairs on the diagonal, suited above it.

    >>> grid_position("AA"), grid_position("AKs"), grid_position("AKo"), grid_position("22")
    ((0, 0), (0, 1), (1, 0), (12, 12))
    """
    hi, lo = 12 - _rank(label[0]), 12 - _rank(label[1])
    if len(label) == 3 and label[2] == "o":
        return lo, hi
    return hi, lo


def class_index(label: str) -> int:
    """Index 0..168 of a class: ``row * 13 + column`` of :func:`grid_position`."""
    row, col = grid_position(label)
    return row * 13 + col


def class_label(index: int) -> str:
    """The class at ``row * 13 + column`` of the grid.

    >>> [class_label(i) for i in (0, 1, 13, 168)]
    ['AA', 'AKs', 'AKo', '22']
    """
    if not isinstance(index, (int, np.integer)) or isinstance(index, bool) or not 0 <= index <= 168:
        raise CardError(f"class indexes are whole numbers 0..168, not {index!r}")
    row, col = divmod(index, 13)
    hi, lo = RANKS[12 - min(row, col)], RANKS[12 - max(row, col)]
    if row == col:
        return hi + lo
    return hi + lo + ("s" if row < col else "o")


@lru_cache(maxsize=None)
def _combo_class_table() -> np.ndarray:
    """Class index by ``c1 * 52 + c2``."""
    table = np.zeros(52 * 52, dtype=np.int16)
    for c1 in range(52):
        for c2 in range(52):
            if c1 != c2:
                table[c1 * 52 + c2] = class_index(hand_class(c1, c2))
    return table


def combo_classes(combos: np.ndarray) -> np.ndarray:
    """Class index (0..168) of each row of an ``(n, 2)`` combo array."""
    c = np.asarray(combos, dtype=np.int64)
    classes: np.ndarray = _combo_class_table()[c[:, 0] * 52 + c[:, 1]]
    return classes


#: The 169 classes from best to worst by all-in equity against one random hand, as computed by
#: cardlab itself (``python benchmarks/bench_equity.py --ranking``: 400,000 seeded deals per class, seed =
#: the class index; classes within about 0.2% of each other may trade places with other seeds).
PREFLOP_ORDER: tuple[str, ...] = tuple("""
AA KK QQ JJ TT 99 88 AKs AQs 77 AJs AKo ATs AQo AJo KQs 66 A9s ATo KJs A8s KTs KQo A7s A9o KJo 55
QJs A5s A8o K9s A6s KTo QTs A4s A7o K8s QJo A3s K9o A5o A6o Q9s JTs A2s K7s QTo 44 A4o K6s K8o Q8s
A3o J9s K5s JTo Q9o K7o A2o K4s K6o Q7s K3s J8s T9s 33 Q6s Q8o K5o K2s J9o Q5s T8s K4o J7s Q4s Q7o
T9o K3o J8o Q3s Q6o 98s T7s J6s K2o 22 Q5o Q2s J5s T8o J7o Q4o 97s J4s T6s J3s Q3o 98o T7o J6o 87s
96s J2s T5s Q2o J5o T4s 86s J4o 97o T6o 95s T3s 76s J3o 87o T2s 85s 96o T5o J2o 94s 75s T4o 93s
86o 65s 84s T3o 95o 92s 76o 74s T2o 54s 64s 85o 83s 94o 75o 82s 93o 73s 65o 53s 63s 84o 92o 74o
43s 54o 72s 64o 52s 62s 83o 42s 82o 73o 53o 32s 63o 43o 72o 52o 62o 42o 32o
""".split())


def top_classes(percent: float) -> list[str]:
    """The best classes of :data:`PREFLOP_ORDER` until at least ``percent`` % of 1,326 combos.

    >>> top_classes(1), top_classes(2.5)
    (['AA', 'KK', 'QQ'], ['AA', 'KK', 'QQ', 'JJ', 'TT', '99'])
    """
    need = percent / 100 * 1326
    out: list[str] = []
    have = 0
    for label in PREFLOP_ORDER:
        if have >= need - 1e-9:
            break
        out.append(label)
        have += 6 if len(label) == 2 else (4 if label[2] == "s" else 12)
    return out
