"""Exact suit splits and card placement between the two unseen hands (docs/splits.md).

The cards of a suit that our side does not hold lie between West and East. If
West and East have ``w`` and ``e`` unknown cards ("vacant places": 13 each
before anything is known), every way of dividing the ``w + e`` unseen cards is
equally likely, so the number of ways West holds a given ``k`` of the ``n``
missing cards is ``C(w + e - n, w - k)`` and the tables are exact counts.
By Vandermonde's identity the counts of any table add up to ``C(w + e, w)``
(``C(26, 13) = 10,400,600`` with no vacant places known).

>>> t = suit_split(5)
>>> [(r.west, r.east, r.count) for r in t.either_way]
[('3', '2', 7054320), ('4', '1', 2939300), ('5', '0', 406980)]
>>> str(t.either_way[0].probability), t.total
('78/115', 10400600)

Card placement and the play so far (restricted choice):

>>> t = card_layouts("QJxx", played="W:Q")
>>> [(r.west, r.east, str(r.probability)) for r in t.rows]
[('QJ', 'xx', '6/17'), ('Q', 'Jxx', '11/17')]
>>> card_layouts("QJxx", played="N:Q")
Traceback (most recent call last):
...
cardlab.errors.DeckError: card 'Q' in --played 'N:Q' is both missing (QJxx) and played by N
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any, Iterator

from cardlab.results import JsonText
from cardlab.textformat import percent, text_table
from cardlab.errors import ConstraintError, DeckError

__all__ = ["SplitRow", "CardPlace", "SplitTable", "suit_split", "card_layouts", "parse_vacant", "parse_holding",
           "parse_plays", "layout_ways", "HONOURS"]

#: The cards that are named in layouts; 9 down to 2 (and ``x``) are small cards, all alike.
HONOURS = "AKQJT"
_SMALL = "98765432X"


@dataclass(frozen=True)
class SplitRow(JsonText):
    """One row: West's and East's holdings (or lengths), how many ways, and the exact probability.

    ``likelihood`` is the chance of the cards seen so far given this layout (1 with no plays)."""

    west: str
    east: str
    count: int
    probability: Fraction
    likelihood: Fraction = Fraction(1)

    def to_dict(self) -> dict[str, Any]:
        """The row as the JSON of ``bridge split``."""
        row: dict[str, Any] = {"west": self.west, "east": self.east, "count": self.count,
                               "probability": float(self.probability),
                               "probability_exact": _ratio(self.probability)}
        if self.likelihood != 1:
            row["likelihood_exact"] = _ratio(self.likelihood)
        return row


@dataclass(frozen=True)
class CardPlace(JsonText):
    """Where one missing honour lies: the exact chance that West holds it (East the rest)."""

    card: str
    west: Fraction

    def to_dict(self) -> dict[str, Any]:
        """Where the card lies, West and East, exact and as floats."""
        return {"card": self.card, "west": float(self.west), "west_exact": _ratio(self.west),
                "east": float(1 - self.west), "east_exact": _ratio(1 - self.west)}


@dataclass(frozen=True)
class SplitTable(JsonText):
    """An exact split table: ``rows`` by seat (layouts or lengths), ``either_way`` lengths folded
    (split-length view only), ``lengths`` (layout view: rows grouped by West's length), ``places``
    (each named card's location), ``total`` (the ways to divide the unseen cards)."""

    missing: str
    vacant: tuple[int, int]
    rows: tuple[SplitRow, ...]
    total: int
    either_way: tuple[SplitRow, ...] = ()
    lengths: tuple[SplitRow, ...] = ()
    places: tuple[CardPlace, ...] = ()
    played: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = field(default=(), repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The table as the JSON of ``bridge split`` (docs/splits.md)."""
        out: dict[str, Any] = {"missing": self.missing, "vacant": list(self.vacant),
                               "rows": [r.to_dict() for r in self.rows], "total": self.total}
        if self.either_way:
            out["either_way"] = [r.to_dict() for r in self.either_way]
        if self.lengths:
            out["lengths"] = [r.to_dict() for r in self.lengths]
        if self.places:
            out["places"] = [p.to_dict() for p in self.places]
        if self.played:
            out["played"] = [f"{seat}:{_card(card)}" for seat, card in self.played]
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def to_csv(self) -> str:
        """The rows as CSV (west, east, count, probability, probability_exact)."""
        lines = ["west,east,count,probability,probability_exact"]
        lines += [f"{r.west},{r.east},{r.count},{float(r.probability)!r},{_ratio(r.probability)}" for r in self.rows]
        return "\n".join(lines) + "\n"

    def table(self) -> str:
        """The text the command prints: the table(s), the card locations and the notes."""
        head = f"Missing {self.missing}; vacant places West {self.vacant[0]}, East {self.vacant[1]}"
        if self.played:
            head += "; played " + ", ".join(f"{s}:{_card(c)}" for s, c in self.played)
        parts = [head, ""]
        if self.either_way:
            parts += [_render(self.either_way, "Split (either way)"), ""]
        parts += [_render(self.rows, "By seat" if not self.lengths else "Layouts"), ""]
        if self.lengths:
            parts += [_render(self.lengths, "By length"), ""]
        if self.places:
            parts.append("Where each card lies:")
            parts += [f"  {p.card}: West {percent(p.west)} ({_ratio(p.west)}), East {percent(1 - p.west)} "
                      f"({_ratio(1 - p.west)})" for p in self.places]
            parts.append("")
        parts.append(f"Total ways to divide the unseen cards: C({sum(self.vacant)}, {self.vacant[0]}) = "
                     f"{comb(sum(self.vacant), self.vacant[0]):,}")
        parts += list(self.notes)
        return "\n".join(parts) + "\n"

    def __repr__(self) -> str:
        return f"<SplitTable {self.missing}: {len(self.rows)} rows, vacant {self.vacant[0]}-{self.vacant[1]}>"


def _card(card: str) -> str:
    return "x" if card == "X" else card


def _ratio(value: Fraction) -> str:
    """'p/q' always (the JSON schema keeps the denominator, even 1)."""
    return f"{value.numerator}/{value.denominator}"


def _render(rows: tuple[SplitRow, ...], title: str) -> str:
    plays = any(r.likelihood != 1 for r in rows)
    header = ("West", "East", "Ways", *(("Chance of plays",) if plays else ()), "Probability", "Exact")
    body = [(r.west, r.east, f"{r.count:,}", *((_ratio(r.likelihood),) if plays else ()), percent(r.probability),
             _ratio(r.probability)) for r in rows]
    return title + "\n" + text_table(header, body, left={0, 1})


def parse_vacant(text: str | tuple[int, int] | None) -> tuple[int, int]:
    """``"W,E"`` (or a pair) as West's and East's vacant places, each 0..13.

    >>> parse_vacant("10,12")
    (10, 12)
    >>> parse_vacant("10,14")
    Traceback (most recent call last):
    ...
    cardlab.errors.ConstraintError: vacant places '10,14': each hand has 0 to 13 unknown cards
    """
    if text is None:
        return (13, 13)
    if isinstance(text, tuple):
        w, e = text
        shown = f"{w},{e}"
    else:
        shown = text
        match = re.fullmatch(r"\s*(\d+)\s*[,-/ ]\s*(\d+)\s*", text)
        if not match:
            raise ConstraintError(f"vacant places {text!r}: give West's and East's unknown cards as W,E (e.g. 10,12)")
        w, e = int(match.group(1)), int(match.group(2))
    if not (0 <= w <= 13 and 0 <= e <= 13):
        raise ConstraintError(f"vacant places {shown!r}: each hand has 0 to 13 unknown cards")
    return (w, e)


def layout_ways(k: int, n: int, vacant: tuple[int, int]) -> int:
    """The ways to deal the other unseen cards when West holds ``k`` given cards of the ``n``
    missing (East the rest): ``C(w + e - n, w - k)``, 0 when the cards do not fit the places.
    One given layout's chance is this over ``C(w + e, w)`` (``bridge suitplay`` uses it too).

    >>> layout_ways(1, 2, (13, 13)), layout_ways(2, 2, (13, 13))
    (2704156, 2496144)
    """
    w, e = vacant
    rest = w + e - n
    return comb(rest, w - k) if 0 <= w - k <= rest else 0


def _check_fit(n: int, vacant: tuple[int, int], missing: str) -> None:
    if n > sum(vacant):
        raise ConstraintError(f"vacant places {vacant[0]},{vacant[1]} do not fit: West and East have "
                              f"{sum(vacant)} unknown cards between them, fewer than the {n} missing ({missing})")


def _check_count(n: int, shown: str) -> None:
    if not 1 <= n <= 13:
        raise DeckError(f"missing cards {shown!r}: a suit has 13 cards, so 1 to 13 can be missing, not {n}")


def suit_split(n: int, vacant: str | tuple[int, int] | None = None) -> SplitTable:
    """The a-priori split of ``n`` missing cards of a suit: by seat (West ``k``, East ``n - k``)
    and either way, with counts ``C(n, k)·C(w + e - n, w - k)`` and exact probabilities.

    >>> [str(r.probability) for r in suit_split(2).either_way]
    ['13/25', '12/25']
    >>> suit_split(14)
    Traceback (most recent call last):
    ...
    cardlab.errors.DeckError: missing cards '14': a suit has 13 cards, so 1 to 13 can be missing, not 14
    """
    _check_count(n, str(n))
    places = parse_vacant(vacant)
    _check_fit(n, places, f"{n} cards")
    w, e = places
    total = comb(w + e, w)
    rows = []
    for k in range(n, -1, -1):
        count = comb(n, k) * comb(w + e - n, w - k) if w - k >= 0 else 0
        if count:
            rows.append(SplitRow(str(k), str(n - k), count, Fraction(count, total)))
    folded: dict[tuple[int, int], int] = {}
    for row in rows:
        k = int(row.west)
        key = (max(k, n - k), min(k, n - k))
        folded[key] = folded.get(key, 0) + row.count
    either = tuple(SplitRow(str(a), str(b), c, Fraction(c, total))
                   for (a, b), c in sorted(folded.items(), key=lambda kv: kv[0][0] - kv[0][1]))
    return SplitTable(f"{n} cards", places, tuple(rows), total, either_way=either)


@dataclass(frozen=True)
class _Holding:
    honours: tuple[int, ...]  # indices into HONOURS, highest first
    small: int  # number of small cards
    named_small: frozenset[str]  # the small ranks written (9..2), for checking plays
    text: str


def parse_holding(text: str) -> _Holding:
    """Missing cards such as ``"KJ54"``, ``"QJxx"``, ``"A-10-x"``: honours A K Q J T (or 10) are
    named, 9 down to 2 and ``x`` are small cards (shown as ``x``).

    >>> h = parse_holding("KJ54")
    >>> h.honours, h.small, h.text
    ((1, 3), 2, 'KJxx')
    >>> parse_holding("KK3")
    Traceback (most recent call last):
    ...
    cardlab.errors.DeckError: card 'K' is given twice in 'KK3'
    """
    honours: list[int] = []
    named: set[str] = set()
    small = 0
    for token in _rank_tokens(text, text):
        if token in HONOURS:
            if HONOURS.index(token) in honours:
                raise DeckError(f"card {token!r} is given twice in {text!r}")
            honours.append(HONOURS.index(token))
        else:
            if token != "X":
                if token in named:
                    raise DeckError(f"card {token!r} is given twice in {text!r}")
                named.add(token)
            small += 1
    _check_count(len(honours) + small, text)
    ordered = tuple(sorted(honours))
    return _Holding(ordered, small, frozenset(named), _show(ordered, small))


def _rank_tokens(text: str, whole: str) -> Iterator[str]:
    i, s = 0, text.upper()
    while i < len(s):
        ch = s[i]
        if ch in " -,.":
            i += 1
            continue
        if s.startswith("10", i):
            yield "T"
            i += 2
            continue
        if ch in HONOURS or ch in _SMALL:
            yield ch
            i += 1
            continue
        raise DeckError(f"unknown card {text[i]!r} in {whole!r} (ranks A K Q J T 9 .. 2, or x for a small card)")


def _show(honours: tuple[int, ...], small: int) -> str:
    text = "".join(HONOURS[h] for h in honours) + "x" * small
    return text or "-"


def parse_plays(text: str | None) -> tuple[tuple[str, str], ...]:
    """``"W:Q"``, ``"W:Q E:x"`` or ``"W:Q,E:3,W:-"`` as (seat, card) pairs in order; ``-`` means
    the seat shows out (has no more cards of the suit).

    >>> parse_plays("w:q, e:x")
    (('W', 'Q'), ('E', 'X'))
    """
    if not text:
        return ()
    plays = []
    for item in re.split(r"[\s,;]+", text.strip()):
        if not item:
            continue
        match = re.fullmatch(r"([NESWnesw])\s*:\s*(10|[AKQJTakqjt2-9xX-])", item)
        if not match:
            raise DeckError(f"cannot read {item!r} in --played {text!r}: write SEAT:CARD such as W:Q, E:x or W:-")
        card = match.group(2).upper()
        plays.append((match.group(1).upper(), "T" if card == "10" else card))
    return tuple(plays)


def card_layouts(cards: str, vacant: str | tuple[int, int] | None = None, played: str | None = None) -> SplitTable:
    """Every layout of the missing ``cards`` (West's holding, East's), grouped by what matters
    (each honour's seat × the number of small cards), with exact probabilities; with ``played``,
    the layouts after the cards seen so far (see :func:`parse_plays`).

    Plays are weighed by the chance of the play given the layout: a defender follows with a card
    of his lowest group of equal cards (small cards, else touching honours, counting cards
    already played as gone) and chooses among equal cards at random (restricted choice).
    Declarer's side (N, S) may be shown playing cards that are not missing.

    >>> t = card_layouts("KJxx")
    >>> len(t.rows), t.total, sum(r.count for r in t.rows)
    (12, 10400600, 10400600)
    """
    holding = parse_holding(cards)
    places = parse_vacant(vacant)
    n = len(holding.honours) + holding.small
    _check_fit(n, places, holding.text)
    plays = parse_plays(played)
    _check_plays(plays, holding, played or "")
    w, e = places
    total = comb(w + e, w)
    rest = w + e - n
    raw: list[tuple[tuple[int, ...], int, int, Fraction]] = []
    restricted = False  # a defender chose among equal honours in some layout the plays allow
    for mask in range(1 << len(holding.honours)):
        west_h = tuple(h for i, h in enumerate(holding.honours) if mask >> i & 1)
        for ws in range(holding.small + 1):
            count = comb(holding.small, ws) * layout_ways(len(west_h) + ws, n, places)
            if not count:
                continue
            east_h = tuple(h for h in holding.honours if h not in west_h)
            lik, chose = _likelihood(plays, west_h, ws, east_h, holding.small - ws)
            if lik:
                raw.append((west_h, ws, count, lik))
                restricted = restricted or chose
    if not raw:
        raise ConstraintError(f"no layout of {holding.text} with vacant places {w},{e} is consistent with the plays "
                              f"{played!r} (defenders follow with their lowest equal cards)")
    weight = sum(count * lik for _, _, count, lik in raw)
    raw.sort(key=lambda r: (-(len(r[0]) + r[1]), -len(r[0]), r[0]))
    rows = tuple(SplitRow(_show(wh, ws), _show(tuple(h for h in holding.honours if h not in wh), holding.small - ws),
                          count, count * lik / weight, lik) for wh, ws, count, lik in raw)
    by_length: dict[int, tuple[int, Fraction]] = {}
    for wh, ws, count, lik in raw:
        c, p = by_length.get(len(wh) + ws, (0, Fraction(0)))
        by_length[len(wh) + ws] = (c + count, p + count * lik / weight)
    lengths = tuple(SplitRow(str(k), str(n - k), c, p) for k, (c, p) in sorted(by_length.items(), reverse=True))
    seen = {card for _, card in plays}
    places_ = tuple(CardPlace(HONOURS[h], sum((count * lik / weight for wh, _, count, lik in raw if h in wh),
                                               Fraction(0)))
                    for h in holding.honours if not (HONOURS[h] in seen))
    notes = ["Each layout counts the ways to deal the other unseen cards (vacant places): C(unseen - missing, "
             "West's places - West's cards)."]
    spots = [f"{seat}:{card}" for seat, card in plays
             if seat in "WE" and card in _SMALL[:-1] and card not in holding.named_small]
    if spots:
        notes.append(f"{', '.join(spots)}: a spot card not named among the missing cards counts as a small card "
                     "(9 down to 2 are all alike here).")
    if plays:
        notes.append("Plays: a defender follows with a card of his lowest group of equal cards"
                     + (" and chooses at random among equal cards (restricted choice)" if restricted else "")
                     + "; 'Chance of plays' (JSON: likelihood) is the chance of the plays given the layout.")
        single, double = (comb(rest, w - 1), comb(rest, w - 2)) if w >= 2 else (0, 0)
        if restricted and single and double:
            ratio = Fraction(single, double)
            notes.append(f"The textbook 2/3 for restricted choice treats a given singleton and a given doubleton "
                         f"as equally likely beforehand; they are not: with {rest} other unseen cards and {w} "
                         f"places in West's hand they are as C({rest},{w - 1}) : C({rest},{w - 2}) = "
                         f"{ratio.numerator}:{ratio.denominator}, which the probabilities above include.")
    return SplitTable(holding.text, places, rows, total, lengths=lengths, places=places_, played=plays,
                      notes=tuple(notes))


def _check_plays(plays: tuple[tuple[str, str], ...], holding: _Holding, text: str) -> None:
    seen: set[str] = set()
    for seat, card in plays:
        if card == "-":
            if seat in "NS":
                raise DeckError(f"'{seat}:-' in --played {text!r}: only West and East are followed (W:- or E:-)")
            continue
        honour = card in HONOURS
        missing = (HONOURS.index(card) in holding.honours) if honour else (card in holding.named_small)
        if card != "X" and card in seen:
            raise DeckError(f"card {card!r} is played twice in --played {text!r}")
        seen.add(card)
        if seat in "NS":
            if card == "X":
                raise DeckError(f"'{seat}:x' in --played {text!r}: name declarer's card (N and S cards are known)")
            if missing:
                raise DeckError(f"card {card!r} in --played {text!r} is both missing ({holding.text}) and played by {seat}")
            continue
        if honour and not missing:
            raise DeckError(f"card {card!r} in --played {text!r} is not among the missing cards ({holding.text})")
        if card == "X" and not holding.small:
            raise DeckError(f"a small card in --played {text!r} is not among the missing cards ({holding.text})")
        # A defender's spot card that is not named is a small card like any other (``W:2`` with
        # KT93 missing): whether he still holds a small card is for the layouts to say.


def _likelihood(plays: tuple[tuple[str, str], ...], west_h: tuple[int, ...], west_small: int,
                east_h: tuple[int, ...], east_small: int) -> tuple[Fraction, bool]:
    """The chance of the plays given the layout, under lowest-equal-card following with random
    choice among equal cards, and whether a defender had such a choice (restricted choice)."""
    hands = {"W": [list(west_h), west_small], "E": [list(east_h), east_small]}
    gone: set[int] = set()
    chance = Fraction(1)
    chose = False
    for seat, card in plays:
        if seat in "NS":
            if card in HONOURS:
                gone.add(HONOURS.index(card))
            continue
        honours, small = hands[seat]
        assert isinstance(honours, list) and isinstance(small, int)
        if card == "-":
            if honours or small:
                return Fraction(0), False
            continue
        if small:
            if card in HONOURS:
                return Fraction(0), False  # a defender with small cards follows small
            hands[seat][1] = small - 1
            continue
        if card not in HONOURS or HONOURS.index(card) not in honours:
            return Fraction(0), False
        group = _lowest_group(honours, gone)
        played = HONOURS.index(card)
        if played not in group:
            return Fraction(0), False
        chance /= len(group)
        chose = chose or len(group) > 1
        honours.remove(played)
        gone.add(played)
    return chance, chose


def _lowest_group(honours: list[int], gone: set[int]) -> list[int]:
    """The seat's lowest honour and the honours touching it (every rank between them gone)."""
    ordered = sorted(honours, reverse=True)  # lowest honour (largest index) first
    group = [ordered[0]]
    for h in ordered[1:]:
        if all(r in gone for r in range(h + 1, group[-1])):
            group.append(h)
        else:
            break
    return group
