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
cardlab.errors.ConstraintError: bad range 'lots' in 'hcp=lots': use N, N-M, N+, N- or -M
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, TextIO

import numpy as np

from cardlab.board import SEATS, Vulnerability, dealer
from cardlab.bridge.polynomials import shape_key, suit_lengths
from cardlab.bridge.schemes import SCHEMES
from cardlab.cards import SUIT_NAMES, SUIT_ORDER, SUIT_SYMBOLS, format_pbn_hand
from cardlab.deal import Deal
from cardlab.pbn import MAX_BOARD_DIGITS, export_tags, format_game
from cardlab.errors import ConstraintError, DeckError

if TYPE_CHECKING:
    from cardlab.engine import Executor

__all__ = [
    "Deal",
    "DealWriter",
    "Constraint",
    "DealBatch",
    "write_deals",
    "deal_summary",
    "parse_pbn_deal",
    "parse_constraint",
    "random_deals",
    "generate_deals",
    "deals_from_masks",
    "pbn_games",
    "combine_constraints",
    "check_possible",
    "hand_hcp",
    "deals_to_pbn",
    "deal_diagram",
]

#: Suit names in the order a hand is written (spades first), and measure words -> suit id.
_HAND_SUITS = tuple(SUIT_NAMES[s] for s in SUIT_ORDER)
_SUIT_NAMES = {word: suit for suit, name in enumerate(SUIT_NAMES) for word in (name, name[0])}
_HCP = np.array(SCHEMES["work"].card_values(), dtype=np.int16)  # J=1 Q=2 K=3 A=4
_CONTROLS = np.array(SCHEMES["controls"].card_values(), dtype=np.int16)  # A=2 K=1
_BALANCED = {(4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2)}


def hand_hcp(hand: Iterable[int]) -> int:
    """Work points of a hand given as card ids."""
    return int(sum(_HCP[i] for i in hand))


def parse_pbn_deal(text: str) -> Deal:
    """A deal from PBN ``"N:hand hand hand hand"`` (hands clockwise from the named seat; one
    may be ``-``): :meth:`cardlab.deal.Deal.from_pbn`.

    >>> parse_pbn_deal("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765").hand_text(0)
    'AKQJ.T98.765.432'
    """
    return Deal.from_pbn(text)


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
            key = shape_key(pattern[:, 0], pattern[:, 1], pattern[:, 2], pattern[:, 3])
            allowed = [shape_key(a, b, c, d) for a, b, c, d in self.shapes]
            ok &= np.isin(key, allowed)
        return ok


def _range(token: str, text: str) -> tuple[int, int]:
    value = token.strip()
    try:
        if value.endswith("+"):
            return int(value[:-1]), 99
        if value.endswith("-") and value[:-1].isdigit():
            return 0, int(value[:-1])
        if value.startswith("-"):
            return 0, int(value[1:])
        if "-" in value:
            lo, hi = value.split("-", 1)
            return int(lo), int(hi)
        return int(value), int(value)
    except ValueError:
        raise ConstraintError(f"bad range '{token}' in '{text}': use N, N-M, N+, N- or -M") from None


def parse_constraint(text: str) -> Constraint:
    """``"hcp=15-17 shape=balanced spades=5+"``: measures hcp, controls, spades, hearts,
    diamonds, clubs (ranges N, N-M, N+, and N- or -M for "at most N"); shape = balanced or
    patterns like 4-4-3-2 / 5332, several separated by ``|``. A measure given twice must hold
    both times (the ranges intersect); two shape lists must both allow the pattern.

    >>> c = parse_constraint("hcp=15-17 shape=balanced")
    >>> c.ranges, sorted(c.shapes)
    ((('hcp', 15, 17),), [(4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2)])
    """
    ranges: list[tuple[str, int, int]] = []
    shapes: set[tuple[int, ...]] | None = None
    for token in text.replace(",", " ").split():
        if "=" not in token:
            raise ConstraintError(f"expected MEASURE=VALUE, got '{token}' in '{text}'")
        key, value = (part.strip().lower() for part in token.split("=", 1))
        if key in ("hcp", "controls") or key in _SUIT_NAMES:
            name = key if key in ("hcp", "controls") else next(
                n for n, s in _SUIT_NAMES.items() if s == _SUIT_NAMES[key] and len(n) > 1)
            lo, hi = _range(value, text)
            if lo > hi:
                raise ConstraintError(f"empty range '{value}' in '{text}'")
            ranges.append((name, lo, hi))
        elif key == "shape":
            allowed: set[tuple[int, ...]] = set()
            for option in value.split("|"):
                allowed |= _shape(option, text)
            shapes = allowed if shapes is None else shapes & allowed
            if not shapes:
                raise ConstraintError(f"no hand has a shape allowed by every shape= in '{text}'")
        else:
            raise ConstraintError(f"unknown measure '{key}' in '{text}' (hcp, controls, spades, hearts, "
                                  f"diamonds, clubs, shape)")
    return Constraint(text, tuple(ranges), frozenset(shapes or ()))


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


def combine_constraints(texts: Iterable[str]) -> Constraint:
    """One constraint from several specs for the same seat: every one must hold.

    >>> combine_constraints(["hcp=15-17", "spades=5+"]).ranges
    (('hcp', 15, 17), ('spades', 5, 99))
    """
    return parse_constraint(" ".join(texts))


_MAXIMA = {"hcp": 37, "controls": 12}


def _script_condition(constraints: Mapping[str, Constraint]) -> Any:
    """The dealer-language condition (a parsed expression) equivalent to per-seat constraints."""
    from cardlab.bridge.dealer.parser import Binary, Call, Num, Shapes

    parts: list[Any] = []
    for seat, constraint in constraints.items():
        who = SEATS.index(seat)
        for measure, lo, hi in constraint.ranges:
            call = (Call("points", (measure, who)) if measure in ("hcp", "controls")
                    else Call(f"length_{SUIT_NAMES.index(measure)}", (who,)))
            parts.append(Binary("&&", Binary(">=", call, Num(lo)), Binary("<=", call, Num(hi))))
        if constraint.shapes:
            keys = {shape_key(s, h, d, c) for pattern in constraint.shapes
                    for s, h, d, c in set(itertools.permutations(pattern))}
            parts.append(Call("shape", (who, Shapes(tuple(sorted(keys))))))
    condition: Any = Num(1)
    for part in parts:
        condition = part if condition == Num(1) else Binary("&&", condition, part)
    return condition


def check_possible(constraints: Mapping[str, Constraint], fixed: Mapping[str, list[int]] | None = None) -> None:
    """Raise :class:`ConstraintError` for constraints that no deal can meet, from exact bounds:
    a seat's range outside what 13 cards can hold, suit lengths that cannot add up to 13,
    or seats that together need more high-card points, controls or cards of a suit than the deck has.

    >>> check_possible({"N": parse_constraint("hcp=25+"), "S": parse_constraint("hcp=25+")})
    Traceback (most recent call last):
    ...
    cardlab.errors.ConstraintError: impossible: the seats need at least 50 hcp together, the deck has 40
    """
    need = {"hcp": 0, "controls": 0, **{s: 0 for s in _HAND_SUITS}}
    for seat, c in constraints.items():
        lows = {s: 0 for s in _HAND_SUITS}
        highs = {s: 13 for s in _HAND_SUITS}
        bounds = {"hcp": [0, 37], "controls": [0, 12]}
        for measure, lo, hi in c.ranges:
            if measure in lows:
                lows[measure], highs[measure] = max(lows[measure], lo), min(highs[measure], hi)
            else:
                bounds[measure] = [max(bounds[measure][0], lo), min(bounds[measure][1], hi)]
        for measure, (lo, hi) in bounds.items():
            if lo > hi:
                raise ConstraintError(f"impossible: {seat} cannot hold {lo} {measure} "
                                      f"(13 cards hold {_MAXIMA[measure]} at most)" if lo > _MAXIMA[measure]
                                      else f"impossible: {seat}'s {measure} ranges do not overlap")
            need[measure] += lo
        if any(lows[s] > highs[s] for s in lows) or sum(lows.values()) > 13 or sum(highs.values()) < 13:
            raise ConstraintError(f"impossible: {seat}'s suit lengths cannot add up to 13 cards ({c.text})")
        if c.shapes:
            ok = [p for p in c.shapes if any(
                all(lows[s] <= n <= highs[s] for s, n in zip(_HAND_SUITS, perm))
                for perm in set(itertools.permutations(p)))]
            if not ok:
                raise ConstraintError(f"impossible: no allowed shape fits {seat}'s suit lengths ({c.text})")
        for s in lows:
            need[s] += lows[s]
    if need["hcp"] > 40:
        raise ConstraintError(f"impossible: the seats need at least {need['hcp']} hcp together, the deck has 40")
    if need["controls"] > 12:
        raise ConstraintError(f"impossible: the seats need at least {need['controls']} controls together, "
                              "the deck has 12")
    for s in _HAND_SUITS:
        if need[s] > 13:
            raise ConstraintError(f"impossible: the seats need at least {need[s]} {s} together, the deck has 13")
    if fixed:
        _check_fixed(constraints, fixed)


def _check_fixed(constraints: Mapping[str, Constraint], fixed: Mapping[str, list[int]],
                 texts: Mapping[str, str] | None = None) -> None:
    """Fixed hands against the constraints: a fixed seat's own constraint is checked on its
    cards, and the other seats' lower bounds against the cards the fixed hands leave."""
    for seat, ids in fixed.items():
        c = constraints.get(seat)
        if c is not None and not bool(c.mask(np.array([ids]))[0]):
            shown = (texts or {}).get(seat, format_pbn_hand(ids))
            raise ConstraintError(f"impossible: {seat}'s fixed cards '{shown}' do not meet '{c.text}'")
    taken = {card for ids in fixed.values() for card in ids}
    left = [card for card in range(52) if card not in taken]
    suit_of = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}
    totals = {"hcp": int(_HCP[left].sum()), "controls": int(_CONTROLS[left].sum()),
              **{name: sum(1 for card in left if card % 4 == suit) for name, suit in suit_of.items()}}
    best = {"hcp": int(np.sort(_HCP[left])[::-1][:13].sum()),
            "controls": int(np.sort(_CONTROLS[left])[::-1][:13].sum()),
            **{name: min(totals[name], 13) for name in suit_of}}
    need = dict.fromkeys(totals, 0)
    for seat, c in constraints.items():
        if seat in fixed:
            continue
        lows = dict.fromkeys(totals, 0)
        for measure, lo, _ in c.ranges:
            lows[measure] = max(lows[measure], lo)
        for measure, lo in lows.items():
            if lo > best[measure]:
                raise ConstraintError(f"impossible: {seat} cannot hold {lo} {measure} ('{c.text}'): the cards the "
                                      f"fixed hands leave give 13 cards {best[measure]} at most")
            need[measure] += lo
    for measure, total in need.items():
        if total > totals[measure]:
            raise ConstraintError(f"impossible: the seats need at least {total} {measure} together, the fixed "
                                  f"hands leave {totals[measure]}")


@dataclass(frozen=True)
class DealBatch:
    """Deals that met the constraints, with how many random deals were tried for them
    (``deals`` is empty when they were streamed to a file instead of kept)."""

    deals: tuple[Deal, ...]
    tried: int
    matched: int
    seed: int
    interrupted: bool = False

    def acceptance(self) -> tuple[float, float, float]:
        """Estimated probability that a random deal meets the constraints, with its 95% Wilson
        interval (from the deals tried until the last one needed was found)."""
        from cardlab.intervals import wilson

        lo, hi = wilson(self.matched, self.tried)
        return self.matched / self.tried, lo, hi

    def __repr__(self) -> str:
        return f"DealBatch({self.matched} of {self.tried} tried, seed {self.seed})"


def _fixed_cards(fixed: Mapping[str, str] | None) -> dict[str, list[int]]:
    from cardlab.dealing import card_ids

    out: dict[str, list[int]] = {}
    used: set[int] = set()
    for seat, cards in (fixed or {}).items():
        if seat not in SEATS:
            raise ConstraintError(f"unknown seat '{seat}' (N, E, S or W)")
        ids = card_ids(cards)
        if len(ids) != 13:
            raise DeckError(f"{seat} must hold 13 cards, got {len(ids)} in '{cards}'")
        if len(set(ids)) != len(ids) or used.intersection(ids):
            raise DeckError(f"a card of {seat}'s hand '{cards}' is given twice")
        used.update(ids)
        out[seat] = list(ids)
    return out


def generate_deals(
    count: int,
    on_deals: Callable[[np.ndarray, int], None],
    seed: int | None = None,
    constraints: Mapping[str, Constraint] | None = None,
    fixed: Mapping[str, str] | None = None,
    max_tries: int = 50_000_000,
    workers: int = 1,
    progress: bool = False,
    executor: Executor | str | None = None,
) -> DealBatch:
    """Deal until ``count`` deals meet ``constraints`` (or ``max_tries`` deals were tried),
    handing each batch of matching deals to ``on_deals(masks, number_before)`` as it comes
    (suit masks ``masks[4, 4, k]``, see :mod:`cardlab.bridge.dealer.dealing`; :func:`deals_from_masks`
    and :func:`pbn_games` read them), so any number of deals streams in bounded memory. Runs through the dealer engine
    (:mod:`cardlab.bridge.dealer`): the seed fixes the deals whatever ``workers`` is.
    Impossible constraints are refused up front (:func:`check_possible`)."""
    from cardlab.bridge.dealer import run_script
    from cardlab.bridge.dealer.parser import Script
    from cardlab.engine import check_count, resolve_seed

    check_count(count, "deals", ConstraintError)
    check_count(max_tries, "deals to try (the give-up limit)", ConstraintError)
    if count > max_tries:  # a try gives at most one deal: refused before any work
        raise ConstraintError(f"{count:,} deals cannot be found in at most {max_tries:,} random deals (the give-up "
                              f"limit; each gives at most one); raise --max-tries to at least {count:,}")
    constraints = dict(constraints or {})
    for seat in constraints:
        if seat not in SEATS:
            raise ConstraintError(f"unknown seat '{seat}' (N, E, S or W)")
    hands = _fixed_cards(fixed)
    check_possible(constraints)
    _check_fixed(constraints, hands, fixed)
    predeal = tuple(sorted((SEATS.index(seat), tuple(ids)) for seat, ids in hands.items()))
    script = Script(condition=_script_condition(constraints), actions=(), predeal=predeal, produce=count, generate=max_tries,
                    default_action=False)
    root, reported = resolve_seed(seed)

    result = run_script(script, seed=root, workers=workers, progress=progress, executor=executor,
                        on_deals=on_deals)
    batch = DealBatch((), result.generated, result.produced, reported if reported is not None else 0,
                      result.interrupted)
    if result.produced < count and not result.interrupted:
        p_hi = batch.acceptance()[2]
        raise ConstraintError(
            f"only {result.produced:,} of {count:,} deals met the constraints in {result.generated:,} random "
            f"deals (the give-up limit; P(match) is at most {p_hi:.3g} at 95%); raise --max-tries or "
            "loosen the constraints")
    return batch


def deals_from_masks(masks: np.ndarray) -> list[Deal]:
    """:class:`Deal` objects from suit masks ``masks[4, 4, k]`` (see :mod:`cardlab.bridge.dealer.dealing`)."""
    from cardlab.bridge.dealer.dealing import checked_masks, owner_from_masks

    return [Deal(row.tobytes()) for row in np.ascontiguousarray(owner_from_masks(checked_masks(masks)).T, dtype=np.uint8)]


def pbn_games(masks: np.ndarray, first_board: int = 1, date: str | None = None) -> str:
    """The PBN games of :func:`deals_to_pbn` (without the file header) straight from suit masks
    ``masks[4, 4, k]``, written by the compiled core in one call: millions of deals stream quickly."""
    from cardlab.bridge.dealer.dealing import checked_masks

    checked = checked_masks(masks)
    last = 10**MAX_BOARD_DIGITS - 1  # the largest number a PBN reader takes back
    if isinstance(first_board, bool) or not isinstance(first_board, (int, np.integer)) \
            or not 1 <= first_board <= last - max(checked.shape[2] - 1, 0):
        raise ConstraintError(f"the first board is a whole number from 1 such that the last board is at most "
                              f"{last:,}, not {first_board!r} (for {checked.shape[2]:,} boards)")
    return str(_pbn_games(checked, int(first_board), date, encoded=False))


def _pbn_games(masks: np.ndarray, first_board: int, date: str | None, encoded: bool) -> str | bytes:
    import time

    from cardlab.bridge.dealer.output import BOARD, DEALER, PBN_FROM_DEALER, VULNERABLE, format_deals, literal

    date = date or time.strftime("%Y.%m.%d")
    template = format_game(export_tags(BOARD, DEALER, VULNERABLE, PBN_FROM_DEALER, literal(date)))
    data: str | bytes = format_deals(masks, template, first_board, encoded=encoded)
    return data


def pbn_deal_strings(masks: np.ndarray) -> list[str]:
    """``"N:..."`` PBN deal strings for suit masks ``masks[4, 4, k]``, in bulk."""
    from cardlab.bridge.dealer.dealing import checked_masks
    from cardlab.bridge.dealer.output import PBN_FROM_NORTH, format_deals

    return str(format_deals(checked_masks(masks), PBN_FROM_NORTH + "\n")).splitlines()


def random_deals(
    count: int,
    seed: int | None = None,
    constraints: Mapping[str, Constraint] | None = None,
    fixed: Mapping[str, str] | None = None,
    max_tries: int = 50_000_000,
    batch: int = 100_000,
    workers: int = 1,
) -> DealBatch:
    """``count`` random deals whose seats meet ``constraints``, kept in memory; ``fixed`` seats
    hold the given cards (a PBN hand or card list of 13 cards) and the rest of the deck is
    shuffled around them. For many deals use :func:`generate_deals`, which streams them.
    (``batch`` is accepted for compatibility; the engine sizes its own chunks.)

    >>> batch = random_deals(2, seed=1, constraints={"N": parse_constraint("hcp=20+")})
    >>> len(batch.deals)
    2
    """
    kept: list[Deal] = []
    result = generate_deals(count, lambda masks, before: kept.extend(deals_from_masks(masks)), seed=seed,
                            constraints=constraints,
                            fixed=fixed, max_tries=max_tries, workers=workers)
    return DealBatch(tuple(kept), result.tried, result.matched, result.seed, result.interrupted)


def deals_to_pbn(deals: Iterable[Deal], comment: str = "", first_board: int = 1, header: bool = True,
                 date: str | None = None) -> str:
    """A PBN 2.1 export file: one game per deal with the fifteen tags of the mandatory tag set
    (unknown values as the standard allows: ``"?"`` for the event and site, ``""`` for players,
    declarer, contract and result of an unplayed deal).

    Dealer and vulnerability follow the standard 16-board cycle from the board number.

    >>> print(deals_to_pbn([parse_pbn_deal("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")],
    ...                    date="2024.01.31"))
    % PBN 2.1
    % EXPORT
    [Event "?"]
    [Site "?"]
    [Date "2024.01.31"]
    [Board "1"]
    [West ""]
    [North ""]
    [East ""]
    [South ""]
    [Dealer "N"]
    [Vulnerable "None"]
    [Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
    [Scoring ""]
    [Declarer ""]
    [Contract ""]
    [Result ""]
    <BLANKLINE>
    """
    import time

    date = date or time.strftime("%Y.%m.%d")
    lines = ["% PBN 2.1", "% EXPORT"] if header else []
    lines += [f"% {line}" for line in comment.splitlines() if line]
    body = "".join(format_game(export_tags(str(board), dealer(board).value, Vulnerability.from_board(board).value,
                                           deal.to_pbn(dealer(board).value), date))
                   for board, deal in enumerate(deals, start=first_board))
    return "\n".join(lines + ([body[:-1]] if body else []))


def deal_diagram(deal: Deal, board: int | None = None) -> str:
    """The usual four-hand diagram, North at the top, suits S H D C top to bottom."""
    def suits(seat: int) -> list[str]:
        text = format_pbn_hand(deal.hands[seat]).split(".")
        return [f"{symbol} {holding or '-'}" for symbol, holding in zip((SUIT_SYMBOLS[s] for s in SUIT_ORDER), text)]

    north, east, south, west = (suits(s) for s in range(4))
    pad = " " * 16
    head = []
    if board is not None:
        head = [f"Board {board}   Dealer {dealer(board).value}   Vul {Vulnerability.from_board(board).value}"]
    rows = head + [pad + line for line in north]
    rows += [f"{w:<32}{e}" for w, e in zip(west, east)]
    rows += [pad + line for line in south]
    return "\n".join(rows)


class DealWriter:
    """Writes deals to ``out`` as they are generated, in ``table`` (hand diagrams), ``pbn``
    (a PBN 2.1 export file) or ``json`` (``{"deals": [...], "seed", "tried", "matched"}``);
    :func:`generate_deals` calls it with each batch, so millions of deals stream in bounded memory.

    >>> import io
    >>> out = io.StringIO()
    >>> writer = DealWriter(out, "json")
    >>> batch = generate_deals(2, writer, seed=1)
    >>> writer.finish(batch)
    >>> import json; data = json.loads(out.getvalue())
    >>> len(data["deals"]), data["deals"][0][:2], data["seed"]
    (2, 'N:', 1)
    """

    FORMATS = ("table", "text", "pbn", "json")

    def __init__(self, out: TextIO, fmt: str = "table") -> None:
        if fmt not in self.FORMATS:
            raise ConstraintError(f"unknown deal format {fmt!r} ({', '.join(self.FORMATS)})")
        import time

        self.out, self.fmt, self._first = out, "table" if fmt == "text" else fmt, True
        self._date = time.strftime("%Y.%m.%d")
        if self.fmt == "json":
            out.write('{\n  "deals": [\n')

    def __call__(self, masks: np.ndarray, before: int) -> None:
        from cardlab.bridge.dealer.output import PBN_FROM_NORTH, emit, format_deals

        if not masks.shape[2]:
            return
        if self.fmt == "pbn":
            if self._first:
                self.out.write("% PBN 2.1\n% EXPORT\n")
            data = _pbn_games(masks, before + 1, self._date, encoded=True)
            assert isinstance(data, bytes)
            emit(self.out, data)
        elif self.fmt == "json":
            data = format_deals(masks, ',\n    "' + PBN_FROM_NORTH + '"', encoded=True)
            emit(self.out, data[2:] if self._first else data)
        else:
            diagrams = (deal_diagram(d, board=before + i + 1) for i, d in enumerate(deals_from_masks(masks)))
            self.out.write(("" if self._first else "\n") + "\n\n".join(diagrams) + "\n")
        self._first = False

    def finish(self, batch: DealBatch) -> None:
        """Close the JSON object with the seed and how many deals were tried and matched."""
        if self.fmt == "json":
            self.out.write(f'\n  ],\n  "seed": {batch.seed},\n  "tried": {batch.tried},\n'
                           f'  "matched": {batch.matched}\n}}\n')


def write_deals(
    out: TextIO,
    count: int,
    fmt: str = "table",
    *,
    constraints: Mapping[str, Constraint] | None = None,
    fixed: Mapping[str, str] | None = None,
    seed: int | None = None,
    max_tries: int = 50_000_000,
    workers: int = 1,
    progress: bool = False,
    executor: Executor | str | None = None,
) -> DealBatch:
    """What ``cardlab bridge deal`` does: ``count`` deals meeting ``constraints`` (seat letter ->
    :class:`Constraint`), with the ``fixed`` hands, streamed to ``out`` in ``fmt`` (see
    :class:`DealWriter`) as they are found; returns the batch (seed, deals tried and matched).

    >>> import io
    >>> out = io.StringIO()
    >>> batch = write_deals(out, 1, "pbn", constraints={"N": parse_constraint("hcp=20+")}, seed=3)
    >>> out.getvalue().startswith("% PBN 2.1"), batch.matched
    (True, 1)
    >>> print(deal_summary(batch, {"N": parse_constraint("hcp=20+")}))  # doctest: +ELLIPSIS
    1 deal(s), seed 3; N: hcp=20+; 1 of ... random deals met the constraints: P = ...% (95% interval ...% – ...%)
    """
    writer = DealWriter(out, fmt)
    batch = generate_deals(count, writer, seed=seed, constraints=constraints, fixed=fixed, max_tries=max_tries,
                           workers=workers, progress=progress, executor=executor)
    writer.finish(batch)
    return batch


def deal_summary(batch: DealBatch, constraints: Mapping[str, Constraint] | None = None) -> str:
    """One line on a run of :func:`write_deals`: deals, seed, the constraints, and how often a
    random deal met them (with the 95% interval)."""
    summary = "; ".join(f"{seat}: {c.text}" for seat, c in (constraints or {}).items()) or "no constraints"
    p, lo, hi = batch.acceptance()
    return (f"{batch.matched:,} deal(s), seed {batch.seed}; {summary}; {batch.matched:,} of {batch.tried:,} random "
            f"deals met the constraints: P = {100 * p:.4g}% (95% interval {100 * lo:.4g}% – {100 * hi:.4g}%)")
