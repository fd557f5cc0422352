"""The appendix (web) Mitchell: extra tables that share boards with tables of a core circuit.

A Mitchell for a room one or more tables bigger than a movement that suits it: a core circuit
of *n* tables where NS pairs move up one table and EW pairs down one table each round, and the
boards down two; each extra (appendix) table stands beside a core table and shares its boards.
At a core table with an appendix, the NS pair coming round plays a stationary EW pair, and the
EW pair coming round goes to the appendix table and plays a stationary NS pair (the English
Bridge Union's description: pairs "keeping to the left when they reach the dual section", the
pairs there stationary, boards shared across the two "carriageways"; docs/club.md).

Every pair plays every round and each board at most once, meets *n* pairs of the other field
once each, and every board is played ``tables`` times.  It needs the four speeds (NS +1, EW -1,
boards -2, stationary 0) to differ by a unit mod *n*: *n* odd and not a multiple of 3
(5, 7, 11, 13, ...), so the core is the largest such *n* below the number of tables unless
``core`` says otherwise.

>>> plan = appendix_mitchell(8)
>>> plan
<MovementPlan Appendix Mitchell 8 tables, 7 rounds, 2 boards a round: 14 boards>
>>> plan.seat(1, 2), plan.seat(8, 2)
(Seating(table=1, round=2, ns=('NS', '7'), ew=('EW', '1'), board_set=3), \
Seating(table=8, round=2, ns=('NS', '8'), ew=('EW', '2'), board_set=3))
>>> plan.problems()
[]
>>> appendix_mitchell(10, core=9)
Traceback (most recent call last):
...
cardlab.errors.MovementError: an appendix Mitchell's core must be an odd number of tables \
not divisible by 3 (5, 7, 11, 13, ...), not 9
"""

from __future__ import annotations

from math import gcd

from cardlab.club.movement import MAX_TABLES, MovementPlan, Seating, whole_count
from cardlab.errors import MovementError

__all__ = ["appendix_mitchell", "appendix_core"]


def appendix_core(tables: int) -> int:
    """The core circuit used for ``tables`` tables by default: the largest odd number below
    ``tables`` not divisible by 3, at least 5 and at least half the tables.

    >>> [appendix_core(t) for t in (6, 8, 9, 12, 14)]
    [5, 7, 7, 11, 13]
    """
    for core in range(tables - 1, 4, -1):
        if gcd(core, 6) == 1 and 2 * core >= tables:
            return core
    raise MovementError(f"an appendix Mitchell needs 6 to {MAX_TABLES} tables (a core of 5 "
                        f"and an appendix table at least), not {tables}")


def appendix_mitchell(tables: int, rounds: int | None = None, boards_per_round: int = 2, *,
                      core: int | None = None) -> MovementPlan:
    """An appendix Mitchell for ``tables`` tables: a core circuit of ``core`` tables (default
    :func:`appendix_core`) and ``tables - core`` appendix tables; appendix table ``core + i``
    shares boards with table *i*.  Pairs are numbered by where they sit in round 1 (NS pair
    *t* and EW pair *t* at table *t*); ``rounds`` is ``core`` at most (each round one of the
    ``core`` board sets)."""
    whole_count(tables, "an appendix Mitchell's tables", 6, MAX_TABLES)
    n = appendix_core(tables) if core is None else whole_count(core, "an appendix Mitchell's core", 5, MAX_TABLES)
    if gcd(n, 6) != 1 or n < 5:
        raise MovementError("an appendix Mitchell's core must be an odd number of tables not "
                            f"divisible by 3 (5, 7, 11, 13, ...), not {n}")
    extra = tables - n
    if not 1 <= extra <= n:
        raise MovementError(f"a core of {n} tables takes 1 to {n} appendix tables, not "
                            f"{extra} ({tables} tables)")
    whole_count(boards_per_round, "boards a round", 1, 12)
    count = n if rounds is None else whole_count(rounds, "rounds", 1, n, " for this movement")
    seatings = []
    for r in range(count):
        for p in range(n):  # core position p is table p + 1
            mover_ns = ("NS", str((p - r) % n + 1))
            e = (p + r) % n  # the EW pair that started at position e
            mover_ew = ("EW", str(e + 1 if e >= extra else n + e + 1))
            board_set = (p + 2 * r) % n + 1
            if p < extra:  # a dual position: each mover meets a stationary pair
                seatings.append(Seating(p + 1, r + 1, mover_ns, ("EW", str(p + 1)), board_set))
                seatings.append(Seating(n + p + 1, r + 1, ("NS", str(n + p + 1)), mover_ew,
                                        board_set))
            else:
                seatings.append(Seating(p + 1, r + 1, mover_ns, mover_ew, board_set))
    return MovementPlan("Appendix Mitchell", "mitchell", tables, count, boards_per_round, n,
                        tuple(seatings), plays=tables if count == n else -1)
