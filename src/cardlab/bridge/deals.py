"""Whole bridge deals: PBN deal notation, and random deals under constraints.

A deal is four 13-card hands, North, East, South, West. Constraints per seat
are written ``hcp=15-17 shape=balanced spades=5+`` and checked on whole
batches of shuffled decks at once (numpy), so rare constraints stay quick.

>>> deal = parse_pbn_deal("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> deal.to_pbn()
'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765'
>>> deals = random_deals(3, seed=1, constraints={"N": parse_constraint("hcp=20+")})
>>> all(hand_hcp(d.hands[0]) >= 20 for d in deals.deals)
True
>>> parse_constraint("hcp=lots")
Traceback (most recent call last):
...
cardlab.errors.ConstraintError: bad range 'lots' in 'hcp=lots': use N, N-M, N+ or -M
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

import numpy as np

from cardlab.board import SEATS, Vulnerability, dealer
from cardlab.bridge.polynomials import suit_lengths
from cardlab.bridge.schemes import SCHEMES
from cardlab.cards import SUIT_ORDER, format_pbn_hand, parse_pbn_ids
from cardlab.engine import fresh_seed
from cardlab.errors import CardError, ConstraintError, DeckError

__all__ = [
    "Deal",
    "Constraint",
    "DealBatch",
    "parse_pbn_deal",
    "parse_constraint",
    "random_deals",
    "hand_hcp",
    "deals_to_pbn",
    "deal_diagram",
]

_SUIT_NAMES = {"spades": 3, "hearts": 2, "diamonds": 1, "clubs": 0, "s": 3, "h": 2, "d": 1, "c": 0}
_HCP = np.array(SCHEMES["work"].card_values(), dtype=np.int16)  # J=1 Q=2 K=3 A=4
_CONTROLS = np.array(SCHEMES["controls"].card_values(), dtype=np.int16)  # A=2 K=1
_BALANCED = {(4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2)}


def hand_hcp(hand: Iterable[int]) -> int:
    """Work points of a hand given as card ids."""
    return int(sum(_HCP[i] for i in hand))


@dataclass(frozen=True)
class Deal:
    """Four hands of card ids, in the order North, East, South, West."""

    hands: tuple[tuple[int, ...], ...]

    def to_pbn(self, first: str = "N") -> str:
        start = SEATS.index(first)
        order = [(start + i) % 4 for i in range(4)]
        return f"{first}:" + " ".join(format_pbn_hand(self.hands[i]) for i in order)


def parse_pbn_deal(text: str) -> Deal:
    """A deal from PBN ``"N:hand hand hand hand"`` (hands clockwise from the named seat)."""
    text = text.strip()
    if len(text) < 2 or text[1] != ":" or text[0].upper() not in SEATS:
        raise CardError(f"a PBN deal starts with the first seat and a colon, like 'N:', got '{text}'")
    parts = text[2:].split()
    if len(parts) != 4:
        raise CardError(f"a PBN deal has four hands, got {len(parts)} in '{text}'")
    start = SEATS.index(text[0].upper())
    hands: list[tuple[int, ...]] = [()] * 4
    for i, part in enumerate(parts):
        hands[(start + i) % 4] = tuple(parse_pbn_ids(part))
    seen: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        if len(hand) != 13:
            raise CardError(f"{SEATS[seat]} holds {len(hand)} cards, not 13, in '{text}'")
        for card in hand:
            if card in seen:
                raise DeckError(f"{format_pbn_hand([card])!r} is dealt to both {SEATS[seen[card]]} "
                                f"and {SEATS[seat]} in '{text}'")
            seen[card] = seat
    return Deal(tuple(hands))


@dataclass(frozen=True)
class Constraint:
    """What one seat's hand must satisfy: ranges (inclusive) per measure, and shapes."""

    text: str = ""
    ranges: tuple[tuple[str, int, int], ...] = ()
    shapes: frozenset[tuple[int, ...]] = field(default_factory=frozenset)

    def mask(self, hands: np.ndarray) -> np.ndarray:
        """Which rows of an ``(n, 13)`` array of card ids satisfy the constraint."""
        ok = np.ones(len(hands), dtype=bool)
        lengths = suit_lengths(hands)
        for measure, lo, hi in self.ranges:
            if measure == "hcp":
                value = _HCP[hands].sum(axis=1)
            elif measure == "controls":
                value = _CONTROLS[hands].sum(axis=1)
            else:
                value = lengths[:, SUIT_ORDER.index(_SUIT_NAMES[measure])]
            ok &= (value >= lo) & (value <= hi)
        if self.shapes:
            pattern = -np.sort(-lengths, axis=1)
            key = ((pattern[:, 0] * 14 + pattern[:, 1]) * 14 + pattern[:, 2]) * 14 + pattern[:, 3]
            allowed = [((a * 14 + b) * 14 + c) * 14 + d for a, b, c, d in self.shapes]
            ok &= np.isin(key, allowed)
        return ok


def _range(token: str, text: str) -> tuple[int, int]:
    value = token.strip()
    try:
        if value.endswith("+"):
            return int(value[:-1]), 99
        if value.startswith("-"):
            return 0, int(value[1:])
        if "-" in value:
            lo, hi = value.split("-", 1)
            return int(lo), int(hi)
        return int(value), int(value)
    except ValueError:
        raise ConstraintError(f"bad range '{token}' in '{text}': use N, N-M, N+ or -M") from None


def parse_constraint(text: str) -> Constraint:
    """``"hcp=15-17 shape=balanced spades=5+"``: measures hcp, controls, spades, hearts,
    diamonds, clubs (ranges N, N-M, N+, -M); shape = balanced or patterns like 4-4-3-2 / 5332,
    several separated by ``|``."""
    ranges: list[tuple[str, int, int]] = []
    shapes: set[tuple[int, ...]] = set()
    for token in text.replace(",", " ").split():
        if "=" not in token:
            raise ConstraintError(f"expected MEASURE=VALUE, got '{token}' in '{text}'")
        key, value = (part.strip().lower() for part in token.split("=", 1))
        if key in ("hcp", "controls") or key in _SUIT_NAMES:
            name = key if key in ("hcp", "controls") else next(
                n for n, s in _SUIT_NAMES.items() if s == _SUIT_NAMES[key] and len(n) > 1)
            lo, hi = _range(value, text)
            ranges.append((name, lo, hi))
        elif key == "shape":
            for option in value.split("|"):
                shapes |= _shape(option, text)
        else:
            raise ConstraintError(f"unknown measure '{key}' in '{text}' (hcp, controls, spades, hearts, "
                                  f"diamonds, clubs, shape)")
    return Constraint(text, tuple(ranges), frozenset(shapes))


def _shape(option: str, text: str) -> set[tuple[int, ...]]:
    if option == "balanced":
        return set(_BALANCED)
    digits = option.replace("-", "")
    if digits.isdigit() and len(digits) == 4:
        lengths = tuple(sorted((int(ch) for ch in digits), reverse=True))
    elif option.count("-") == 3 and all(p.isdigit() for p in option.split("-")):
        lengths = tuple(sorted((int(p) for p in option.split("-")), reverse=True))
    else:
        raise ConstraintError(f"unknown shape '{option}' in '{text}' (balanced, or a pattern like 4-4-3-2)")
    if sum(lengths) != 13:
        raise ConstraintError(f"shape '{option}' in '{text}' does not add up to 13 cards")
    return {lengths}


@dataclass(frozen=True)
class DealBatch:
    """Deals that met the constraints, with how many random deals were tried for them."""

    deals: tuple[Deal, ...]
    tried: int
    matched: int
    seed: int

    def acceptance(self) -> tuple[float, float, float]:
        """Estimated probability that a random deal meets the constraints, with its 95% interval
        (from every deal tried, including matches beyond the number asked for)."""
        from cardlab.distribution import Distribution, Simulation

        accepted = self.matched
        d = Distribution("accepted", (True, False), (accepted, self.tried - accepted),
                         simulation=Simulation(self.tried, self.seed))
        lo, hi = d.confidence_interval()
        return accepted / self.tried, float(lo[0]), float(hi[0])


def random_deals(
    count: int,
    seed: int | None = None,
    constraints: Mapping[str, Constraint] | None = None,
    fixed: Mapping[str, str] | None = None,
    max_tries: int = 50_000_000,
    batch: int = 100_000,
) -> DealBatch:
    """``count`` random deals whose seats meet ``constraints``; ``fixed`` seats hold the given
    cards (a PBN hand or card list of 13 cards) and the rest of the deck is shuffled around them.

    Deals are drawn in batches of shuffled decks; gives up with a clear error after
    ``max_tries`` deals if too few met the constraints.
    """
    constraints = dict(constraints or {})
    for seat in list(constraints) + list(fixed or {}):
        if seat not in SEATS:
            raise ConstraintError(f"unknown seat '{seat}' (N, E, S or W)")
    seed = fresh_seed(seed)
    rng = np.random.default_rng(seed)
    fixed_hands: dict[int, list[int]] = {}
    used: set[int] = set()
    from cardlab.dealing import card_ids

    for seat, cards in (fixed or {}).items():
        ids = card_ids(cards)
        if len(ids) != 13:
            raise DeckError(f"{seat} must hold 13 cards, got {len(ids)} in '{cards}'")
        if len(set(ids)) != len(ids) or used.intersection(ids):
            raise DeckError(f"a card of {seat}'s hand '{cards}' is given twice")
        used.update(ids)
        fixed_hands[SEATS.index(seat)] = ids
    free_seats = [s for s in range(4) if s not in fixed_hands]
    rest = np.array([i for i in range(52) if i not in used], dtype=np.uint8)
    accepted: list[np.ndarray] = []
    tried = 0
    while sum(len(a) for a in accepted) < count:
        if tried >= max_tries:
            got = sum(len(a) for a in accepted)
            raise ConstraintError(
                f"only {got} of {count} deals met the constraints in {tried:,} random deals; "
                "loosen the constraints or ask for fewer deals")
        n = min(batch, max_tries - tried)
        shuffled = rng.permuted(np.broadcast_to(rest, (n, len(rest))), axis=1)
        hands = np.zeros((n, 4, 13), dtype=np.uint8)
        for k, position in enumerate(free_seats):
            hands[:, position] = shuffled[:, 13 * k: 13 * (k + 1)]
        for position, ids in fixed_hands.items():
            hands[:, position] = np.array(ids, dtype=np.uint8)
        ok = np.ones(n, dtype=bool)
        for seat, constraint in constraints.items():
            ok &= constraint.mask(hands[:, SEATS.index(seat)])
        accepted.append(hands[ok])
        tried += n
    everything = np.concatenate(accepted)
    deals = tuple(Deal(tuple(tuple(sorted(h, reverse=True)) for h in d)) for d in everything[:count].tolist())
    return DealBatch(deals, tried, len(everything), seed)



def deals_to_pbn(deals: Iterable[Deal], comment: str = "", first_board: int = 1) -> str:
    """A PBN file: one game per deal with Board, Dealer, Vulnerable and Deal tags.

    Dealer and vulnerability follow the standard 16-board cycle from the board number.

    >>> print(deals_to_pbn([parse_pbn_deal("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")]))
    % PBN 2.1
    % EXPORT
    [Event ""]
    [Board "1"]
    [Dealer "N"]
    [Vulnerable "None"]
    [Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
    <BLANKLINE>
    """
    lines = ["% PBN 2.1", "% EXPORT"]
    lines += [f"% {line}" for line in comment.splitlines() if line]
    for board, deal in enumerate(deals, start=first_board):
        first = dealer(board).value
        lines += [
            '[Event ""]',
            f'[Board "{board}"]',
            f'[Dealer "{first}"]',
            f'[Vulnerable "{Vulnerability.from_board(board).value}"]',
            f'[Deal "{deal.to_pbn(first)}"]',
            "",
        ]
    return "\n".join(lines)


def deal_diagram(deal: Deal, board: int | None = None) -> str:
    """The usual four-hand diagram, North at the top, suits S H D C top to bottom."""
    def suits(seat: int) -> list[str]:
        text = format_pbn_hand(deal.hands[seat]).split(".")
        return [f"{symbol} {holding or '-'}" for symbol, holding in zip("♠♥♦♣", text)]

    north, east, south, west = (suits(s) for s in range(4))
    pad = " " * 16
    head = []
    if board is not None:
        head = [f"Board {board}   Dealer {dealer(board).value}   Vul {Vulnerability.from_board(board).value}"]
    rows = head + [pad + line for line in north]
    rows += [f"{w:<32}{e}" for w, e in zip(west, east)]
    rows += [pad + line for line in south]
    return "\n".join(rows)
