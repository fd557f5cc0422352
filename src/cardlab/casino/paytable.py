"""Three-card hands and their pay tables (Pair Plus, the ante bonus, Let It Ride's 3-card bonus).

Three-card poker ranks hands differently from five-card poker: a straight beats a flush (there
are fewer of them), and A-2-3 is the lowest straight. The hands, best first:

========================  =======  ==============================
hand                      count    of the 22,100 three-card hands
========================  =======  ==============================
straight flush            48       (A-K-Q suited: "mini royal", 4)
three of a kind           52
straight                  720
flush                     1,096
pair                      3,744
high card                 16,440
========================  =======  ==============================

A pay table names some of these words (``pair`` may take ``ranks``, as in video poker's pay
tables: ``ranks = "Q-A"``) and what each pays to one; the narrowest line wins (``mini royal``
before ``straight flush``), and hands no line names lose the bet.

>>> table = three_card_paytable([{"hand": "straight flush", "pays": 40}, {"hand": "pair", "pays": 1}])
>>> [(o.name, o.pays) for o in table.outcomes]
[('straight flush', Fraction(40, 1)), ('pair', Fraction(1, 1)), ('nothing', Fraction(0, 1))]
>>> three_card_paytable([{"hand": "full house", "pays": 9}])
Traceback (most recent call last):
...
cardlab.errors.PayTableError: pay table: line 1: unknown hand 'full house' (expected one of: mini royal, straight flush, three of a kind, straight, flush, pair)
"""

from __future__ import annotations

from fractions import Fraction

from cardlab.errors import PayTableError
from cardlab.casino.pays import Outcome, PayTable, parse_pay, parse_rank_set

__all__ = ["THREE_CARD_HANDS", "NCODES3", "CATEGORY_OF_CODE", "three_card_paytable", "code_name"]

# Fine codes of a three-card hand (csrc/casino.c gives them; keep the two in step).
_HIGH, _PAIR, _FLUSH, _STRAIGHT, _TRIPS, _SF, _MINI_ROYAL = 0, 1, 14, 15, 16, 17, 18
NCODES3 = 19

#: The hands a three-card pay table line may name, and the fine codes each takes.
THREE_CARD_HANDS: dict[str, frozenset[int]] = {
    "mini royal": frozenset({_MINI_ROYAL}),
    "straight flush": frozenset({_SF, _MINI_ROYAL}),
    "three of a kind": frozenset({_TRIPS}),
    "straight": frozenset({_STRAIGHT}),
    "flush": frozenset({_FLUSH}),
    "pair": frozenset(range(_PAIR, _PAIR + 13)),
}

#: The category word of each fine code (a pair of any rank is "pair").
CATEGORY_OF_CODE: tuple[str, ...] = (("high card",) + ("pair",) * 13
                                     + ("flush", "straight", "three of a kind", "straight flush", "straight flush"))


def code_name(code: int) -> str:
    """The category of a three-card fine code.

    >>> code_name(0), code_name(13), code_name(18)
    ('high card', 'pair', 'straight flush')
    """
    return CATEGORY_OF_CODE[code]


def three_card_paytable(lines: object, source: str = "pay table", name: str = "") -> PayTable:
    """A pay table of three-card hands from its lines (dicts with ``hand``, ``pays``, optional
    ``name`` and, for a pair, ``ranks``). ``code_outcome[c]`` is the line a fine code pays."""
    if not isinstance(lines, list) or not lines:
        raise PayTableError(f"{source}: no pay lines: list them as tables with hand= and pays=")
    parsed: list[tuple[str, str, Fraction, frozenset[int]]] = []
    for number, entry in enumerate(lines, 1):
        where = f"{source}: line {number}"
        if not isinstance(entry, dict):
            raise PayTableError(f"{where}: expected a table with hand= and pays=")
        for key in entry:
            if key not in ("name", "hand", "ranks", "pays"):
                raise PayTableError(f"{where}: unknown key '{key}' (expected name, hand, ranks, pays)")
        hand = entry.get("hand")
        if not isinstance(hand, str) or hand.strip().lower() not in THREE_CARD_HANDS:
            raise PayTableError(f"{where}: unknown hand {hand!r} (expected one of: {', '.join(THREE_CARD_HANDS)})")
        hand = hand.strip().lower()
        if "pays" not in entry:
            raise PayTableError(f"{where} ({hand}): no pays=")
        pays = parse_pay(entry["pays"], f"{where} ({hand})")
        codes = THREE_CARD_HANDS[hand]
        if "ranks" in entry:
            if hand != "pair":
                raise PayTableError(f"{where}: ranks= applies to a pair, not {hand}")
            codes = frozenset(_PAIR + r for r in parse_rank_set(entry["ranks"], "ranks", where))
        label = entry.get("name", hand)
        if not isinstance(label, str) or not label.strip():
            raise PayTableError(f"{where}: name must be text")
        parsed.append((label.strip(), hand, pays, codes))
    names = [p[0].lower() for p in parsed]
    for label in names:
        if names.count(label) > 1 or label == "nothing":
            raise PayTableError(f"{source}: line name '{label}' is used twice (or is 'nothing')")
    code_outcome = [len(parsed)] * NCODES3
    taken: set[int] = set()
    for index in sorted(range(len(parsed)), key=lambda i: len(parsed[i][3])):
        mine = parsed[index][3] - taken
        if not mine:
            raise PayTableError(f"{source}: line '{parsed[index][0]}' can never pay: narrower lines take its hands")
        for code in mine:
            code_outcome[code] = index
        taken |= mine
    outcomes = tuple(Outcome(label, hand, pays, codes) for label, hand, pays, codes in parsed)
    outcomes += (Outcome("nothing", "nothing", Fraction(0), frozenset(range(NCODES3)) - taken),)
    return PayTable(name or source, outcomes, tuple(code_outcome))
