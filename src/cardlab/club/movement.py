"""Movements: who sits where and plays which boards, round by round; made, checked, exported.

:func:`mitchell` (odd tables; even tables with a skip or a relay and bye stand; arrow-switched
rounds) and :func:`howell` (full or cut to fewer rounds, e.g. three-quarter) make a
:class:`MovementPlan`; :meth:`MovementPlan.problems` checks one by brute force (every pair
plays each board at most once, every board is played the same number of times, pairs meet as
the movement promises); :meth:`MovementPlan.balance` counts comparisons;
:meth:`MovementPlan.to_ebuscore` and :meth:`MovementPlan.to_round_data` write it out;
:func:`from_rounds` reads one back (e.g. from a ``.bws`` file's ``RoundData``) and
:func:`session_problems` checks the results of a session against it.

Pairs are :data:`~cardlab.scoring.document.PairKey` values: ``("NS", "3")`` and ``("EW", "3")``
in a Mitchell (two fields), ``(None, "3")`` in a Howell.

>>> plan = mitchell(5)
>>> plan
<MovementPlan Mitchell 5 tables, 5 rounds, 2 boards a round: 10 boards>
>>> plan.seat(2, 3)
Seating(table=2, round=3, ns=('NS', '2'), ew=('EW', '5'), board_set=4)
>>> plan.problems()
[]
>>> mitchell(4)
Traceback (most recent call last):
...
cardlab.errors.MovementError: a Mitchell on 4 tables (even) needs even='skip' or even='relay'
"""

from __future__ import annotations

import csv
import io
import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from cardlab.errors import MovementError, whole_argument
from cardlab.results import JsonText
from cardlab.scoring.document import PairKey
from cardlab.scoring.traveller import TravellerLine

__all__ = ["MovementPlan", "Seating", "mitchell", "howell", "from_rounds", "session_problems",
           "EBUSCORE_TYPES", "MAX_TABLES", "MAX_HOWELL_TABLES", "whole_count",
           "HOWELL_DESIGNS"]

MAX_TABLES = 60
"""Most tables a movement is made or read for (a club's largest section is far smaller)."""

MAX_HOWELL_TABLES = 10
"""Most tables a Howell is made for (20 pairs, 19 rounds: club Howells are smaller)."""

#: The cyclic designs for 4-10 tables: tables -> (starter pairs of tables 2.., offsets of
#: tables 2..).  Those :func:`_howell_design` finds (its search takes seconds at 9-10 tables),
#: except for 5 and 7 tables, where the offsets are consecutive (-2..2, -3..3), as in the
#: published EBU and ACBL movements: each set of boards goes on to the table whose offset is
#: one less, so the sets not in play wait in one relay stack (tests/test_club_published.py).
#: The tests check every Howell made from them by brute force, and that the search finds the
#: others again.
HOWELL_DESIGNS: dict[int, tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = {
    4: (((1, 3), (2, 6), (4, 5)), (2, 4, 1)),
    5: (((1, 2), (3, 7), (4, 6), (5, 8)), (8, 2, 7, 1)),
    6: (((1, 2), (3, 6), (4, 8), (5, 10), (7, 9)), (3, 9, 1, 4, 5)),
    7: (((1, 3), (2, 5), (4, 11), (6, 10), (7, 12), (8, 9)), (11, 3, 10, 2, 1, 12)),
    8: (((1, 2), (3, 5), (4, 12), (6, 10), (7, 13), (8, 11), (9, 14)), (3, 1, 7, 14, 12, 2, 6)),
    9: (((1, 2), (3, 5), (4, 10), (6, 11), (7, 14), (8, 16), (9, 13), (12, 15)),
        (3, 1, 9, 15, 4, 11, 2, 6)),
    10: (((1, 2), (3, 5), (4, 8), (6, 13), (7, 16), (9, 14), (10, 18), (11, 17), (12, 15)),
         (3, 1, 11, 5, 2, 18, 7, 4, 6)),
}

#: EBUScore's movement types (the first number of a movement file's header line).
EBUSCORE_TYPES = {"howell": 0, "mitchell": 1, "switched mitchell": 2}


@dataclass(frozen=True)
class Seating:
    """One table in one round: the pair sitting North-South, the pair sitting East-West and
    the board set they play (sets are numbered from 1; set *s* is boards
    ``(s-1)*b+1 .. s*b`` for *b* boards a round)."""

    table: int
    round: int
    ns: PairKey
    ew: PairKey
    board_set: int


@dataclass(frozen=True)
class MovementPlan(JsonText):
    """A movement: ``kind`` ``mitchell`` or ``howell``, the seatings of every table in every
    round, ``boards_per_round``; ``sets`` is the number of board sets in play, ``plays`` how
    often each board is played (-1 when the movement is cut short and boards are played
    unevenly), ``meets`` how often each two opposing pairs meet at most (1;
    2 where a movement cannot avoid it: see :func:`mitchell`), ``arrow_rounds`` the rounds
    played arrow-switched, ``name`` how it is shown."""

    name: str
    kind: str
    tables: int
    rounds: int
    boards_per_round: int
    sets: int
    seatings: tuple[Seating, ...]
    plays: int
    meets: int = 1
    arrow_rounds: tuple[int, ...] = ()

    def __repr__(self) -> str:
        return (f"<MovementPlan {self.name} {self.tables} tables, {self.rounds} rounds, "
                f"{self.boards_per_round} boards a round: {self.boards} boards>")

    @property
    def boards(self) -> int:
        """The number of boards in play."""
        return self.sets * self.boards_per_round

    @property
    def pairs(self) -> list[PairKey]:
        """Every pair, in order (NS pairs then EW pairs in a Mitchell)."""
        found = {p for s in self.seatings for p in (s.ns, s.ew)}
        return sorted(found, key=lambda p: (p[0] or "", int(p[1])))

    def board_numbers(self, board_set: int) -> tuple[int, ...]:
        """The boards of a set (none for set 0, a table with no boards)."""
        if board_set < 1:
            return ()
        first = (board_set - 1) * self.boards_per_round + 1
        return tuple(range(first, first + self.boards_per_round))

    def seat(self, table: int, round_: int) -> Seating:
        """The seating of a table in a round; a MovementError when there is none."""
        for seating in self.seatings:
            if (seating.table, seating.round) == (table, round_):
                return seating
        raise MovementError(f"{self.name} has no table {table} in round {round_}")

    def pair_rounds(self, pair: PairKey) -> list[tuple[int, int, str, tuple[int, ...], PairKey]]:
        """Where a pair goes, round by round: (round, table, direction NS/EW, boards,
        opponents); what a guide card shows."""
        out = []
        for s in sorted(self.seatings, key=lambda s: (s.round, s.table)):
            if pair in (s.ns, s.ew):
                side = "NS" if s.ns == pair else "EW"
                out.append((s.round, s.table, side, self.board_numbers(s.board_set),
                            s.ew if side == "NS" else s.ns))
        return out

    def problems(self) -> list[str]:
        """Everything wrong with the movement, by brute force over every seating (empty when
        it is sound): a pair twice in a round, a pair playing a board twice, a board played
        other than ``plays`` times, two pairs meeting more than ``meets`` times, a Mitchell pair
        never meeting an opponent of the other field, a Howell pair never meeting another."""
        found: list[str] = []
        for round_ in range(1, self.rounds + 1):
            seen = Counter(p for s in self.seatings if s.round == round_ for p in (s.ns, s.ew))
            found += [f"round {round_}: pair {_name(p)} sits at {n} tables"
                      for p, n in sorted(seen.items(), key=str) if n > 1]
        played: Counter[tuple[PairKey, int]] = Counter()
        board_plays: Counter[int] = Counter()
        meetings: Counter[frozenset[PairKey]] = Counter()
        for s in self.seatings:
            for board in self.board_numbers(s.board_set):
                board_plays[board] += 1
                played[(s.ns, board)] += 1
                played[(s.ew, board)] += 1
            meetings[frozenset((s.ns, s.ew))] += 1
        found += [f"pair {_name(p)} plays board {b} {n} times"
                  for (p, b), n in sorted(played.items(), key=str) if n > 1]
        for board in range(1, self.boards + 1):
            if self.plays > 0 and board_plays[board] != self.plays:
                found.append(f"board {board} is played {board_plays[board]} times, "
                             f"not {self.plays}")
        found += [f"pairs {' and '.join(sorted(map(_name, m)))} meet {n} times"
                  for m, n in sorted(meetings.items(), key=str) if n > self.meets]
        if self.rounds == self._full_rounds():
            pairs = self.pairs
            for a, b in itertools.combinations(pairs, 2):
                opposed = self.kind == "howell" or (a[0] != b[0])
                if opposed and not meetings[frozenset((a, b))] and not self._may_miss(a, b):
                    found.append(f"pairs {_name(a)} and {_name(b)} never meet")
        return found

    def _full_rounds(self) -> int:
        return self.tables if self.kind == "mitchell" else 2 * self.tables - 1

    def _may_miss(self, a: PairKey, b: PairKey) -> bool:
        return self.meets > 1  # a pair that meets one opponent twice must miss another

    def balance(self) -> dict[str, float]:
        """Comparisons: for every two pairs, on how many boards they held the same cards
        (played the board in the same direction; in a Mitchell without arrow switches, pairs
        of the same field, else every two pairs, all ranked in one field).
        Gives the fewest, the most, the mean, and the fewest as a share of the mean (1.0 is
        perfectly balanced)."""
        holders: dict[tuple[int, str], set[PairKey]] = defaultdict(set)
        for s in self.seatings:
            for board in self.board_numbers(s.board_set):
                holders[(board, "NS")].add(s.ns)
                holders[(board, "EW")].add(s.ew)
        together: Counter[frozenset[PairKey]] = Counter()
        for group in holders.values():
            for a, b in itertools.combinations(sorted(group, key=str), 2):
                together[frozenset((a, b))] += 1
        pairs = self.pairs
        counts = [together[frozenset((a, b))] for a, b in itertools.combinations(pairs, 2)
                  if self.kind == "howell" or self.arrow_rounds or a[0] == b[0]]
        mean = sum(counts) / len(counts) if counts else 0.0
        return {"fewest": float(min(counts, default=0)), "most": float(max(counts, default=0)),
                "mean": round(mean, 3), "balance": round(min(counts, default=0) / mean, 3)
                if mean else 0.0}

    def to_round_data(self, numbering: str = "apart") -> list[dict[str, int | str]]:
        """The movement as Bridgemate's ``RoundData`` rows (Section 1). A Mitchell's EW pairs
        are numbered after the NS pairs (``apart``: EW pair 1 of 12 tables is 13, as the
        Bridgemate sample numbers them, so an arrow-switched round is unambiguous) or with the
        same numbers (``same``)."""
        rows: list[dict[str, int | str]] = []
        for s in sorted(self.seatings, key=lambda s: (s.round, s.table)):
            boards = self.board_numbers(s.board_set)
            rows.append({"Section": 1, "Table": s.table, "Round": s.round,
                         "NSPair": self._number(s.ns, numbering),
                         "EWPair": self._number(s.ew, numbering),
                         "LowBoard": boards[0] if boards else 0,
                         "HighBoard": boards[-1] if boards else 0, "CustomBoards": ""})
        return rows

    def round_data_csv(self, numbering: str = "apart") -> str:
        """:meth:`to_round_data` as CSV text, the columns in the developer's guide's order."""
        out = io.StringIO()
        writer = csv.DictWriter(out, ["Section", "Table", "Round", "NSPair", "EWPair",
                                      "LowBoard", "HighBoard", "CustomBoards"],
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.to_round_data(numbering))
        return out.getvalue()

    def _number(self, pair: PairKey, numbering: str) -> int:
        if numbering not in ("apart", "same"):
            raise MovementError(f"unknown pair numbering {numbering!r} (apart or same)")
        number = int(pair[1])
        return number + self.tables if pair[0] == "EW" and numbering == "apart" else number

    def to_ebuscore(self) -> str:
        """The movement in EBUScore's comma-separated movement file: a header line ``type,
        tables, boards, boards per round, rounds, missing pair`` (types 0 Howell, 1 Mitchell,
        2 switched Mitchell), then one line per table giving, round after round, the NS pair,
        the EW pair and the board set (docs/club.md cites where this is described).

        >>> print(mitchell(3, rounds=2).to_ebuscore())
        1,3,6,2,2,0
        1,1,1,1,3,2
        2,2,2,2,1,3
        3,3,3,3,2,1
        """
        kind = "howell" if self.kind == "howell" else (
            "switched mitchell" if self.arrow_rounds else "mitchell")
        lines = [f"{EBUSCORE_TYPES[kind]},{self.tables},{self.boards},{self.boards_per_round},"
                 f"{self.rounds},0"]
        numbering = "apart" if self.arrow_rounds else "same"
        for table in range(1, self.tables + 1):
            cells = []
            for round_ in range(1, self.rounds + 1):
                s = self.seat(table, round_)
                cells += [self._number(s.ns, numbering), self._number(s.ew, numbering),
                          s.board_set]
            lines.append(",".join(map(str, cells)))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The movement as a JSON-ready dict (its seatings in round and table order)."""
        return {"name": self.name, "kind": self.kind, "tables": self.tables,
                "rounds": self.rounds, "boards_per_round": self.boards_per_round,
                "boards": self.boards, "arrow_rounds": list(self.arrow_rounds),
                "seatings": [[s.round, s.table, _name(s.ns), _name(s.ew),
                              list(self.board_numbers(s.board_set))]
                             for s in sorted(self.seatings, key=lambda s: (s.round, s.table))]}


def _name(pair: PairKey) -> str:
    return f"{pair[1]}{pair[0]}" if pair[0] else pair[1]


def _check_counts(tables: int, rounds: int | None, boards_per_round: int, most: int,
                  least: int = 1) -> int:
    whole_count(tables, "tables", least, MAX_TABLES)
    whole_count(boards_per_round, "boards a round", 1, 12)
    if rounds is None:
        return most
    return whole_count(rounds, "rounds", 1, most, " for this movement")


def whole_count(value: object, what: str, low: int, high: int, where: str = "") -> int:
    """``value`` when it is a whole number from ``low`` to ``high`` (not a float, text or a bool),
    else a :class:`MovementError` naming it.

    >>> whole_count(8.5, "tables", 6, 60)
    Traceback (most recent call last):
    ...
    cardlab.errors.MovementError: tables must be 6 to 60, not 8.5
    """
    try:
        return whole_argument(value, what, MovementError, low, high)
    except MovementError:
        raise MovementError(f"{what} must be {low} to {high}{where}, not {value!r:.40}") from None


def mitchell(tables: int, rounds: int | None = None, boards_per_round: int = 2, *,
             even: str | None = None, arrow_rounds: Iterable[int] = ()) -> MovementPlan:
    """A Mitchell: NS pairs stay at their table, EW pairs move up one table and boards down
    one table each round (so NS pair *t* meets EW pair *t - r + 1* in round *r*).

    Odd tables need nothing more.  Even tables need ``even="skip"`` (EW pairs skip a table
    after half the rounds; over all the rounds each EW pair then meets one NS pair twice and
    misses one: no movement of this kind avoids it, see docs/club.md) or ``even="relay"``
    (a bye stand between the two halves and tables 1 and *n* sharing one set of boards: every
    pair meets every opponent and plays every board once).  ``arrow_rounds`` are played with
    the arrows switched: the EW field pair sits North-South.

    >>> [s.ew[1] for s in mitchell(4, even="skip").seatings if s.table == 1]
    ['1', '4', '2', '1']
    """
    most = tables
    count = _check_counts(tables, rounds, boards_per_round, most)
    if tables % 2 == 0 and even not in ("skip", "relay"):
        raise MovementError(f"a Mitchell on {tables} tables (even) needs even='skip' or "
                            "even='relay'")
    if tables % 2 == 1 and even is not None:
        raise MovementError(f"a Mitchell on {tables} tables (odd) needs no skip or relay")
    arrows = tuple(sorted(set(arrow_rounds)))
    if any(not 1 <= r <= count for r in arrows):
        raise MovementError(f"arrow-switched rounds must be 1 to {count}, not {arrows}")
    seatings = []
    for round_ in range(1, count + 1):
        skip = 1 if even == "skip" and round_ > tables // 2 else 0
        for table in range(1, tables + 1):
            ew = (table - round_ - skip) % tables + 1
            board_set = _relay_set(table, round_, tables) if even == "relay" else (
                (table + round_ - 2) % tables + 1)
            ns_pair, ew_pair = ("NS", str(table)), ("EW", str(ew))
            if round_ in arrows:
                ns_pair, ew_pair = ew_pair, ns_pair
            seatings.append(Seating(table, round_, ns_pair, ew_pair, board_set))
    label = {"skip": "Mitchell with a skip", "relay": "Mitchell with relay and bye stand"}
    return MovementPlan(label.get(even or "", "Mitchell") + (" (arrow-switched)" if arrows else ""),
                        "mitchell", tables, count, boards_per_round, tables, tuple(seatings),
                        plays=count if even != "relay" else _relay_plays(tables, count),
                        meets=2 if even == "skip" and count == tables else 1, arrow_rounds=arrows)


def _relay_set(table: int, round_: int, tables: int) -> int:
    """Board stations: tables 1..n/2 at stations 0..n/2-1 (tables 1 and n share station 0,
    the relay), the bye stand at n/2, tables n/2+1..n-1 at n/2+1..n-1; boards move down one
    station a round."""
    station = table - 1 if table <= tables // 2 else table % tables
    return (station + round_ - 1) % tables + 1


def _relay_plays(tables: int, rounds: int) -> int:
    return rounds if rounds == tables else -1  # cut short, sets are played unevenly


def howell(tables: int, rounds: int | None = None, boards_per_round: int = 2) -> MovementPlan:
    """A Howell for ``2 * tables`` pairs: every pair meets every other pair once over
    ``2 * tables - 1`` rounds (fewer for a three-quarter Howell: ``rounds`` cut short) and
    plays every board set once.  Pair *2n* stays at table 1, North-South; the others rotate
    (the circle method), and table *i* plays set ``round + c_i``, with the offsets ``c_i`` found
    by search so that no pair plays a set twice.  No such Howell exists for 2 or 3 tables
    (it would be a Room square of side 3 or 5, and there is none): a MovementError says so.

    >>> howell(4).problems()
    []
    """
    most = 2 * tables - 1
    if tables > MAX_HOWELL_TABLES:
        raise MovementError(f"a Howell is made for up to {MAX_HOWELL_TABLES} tables, not "
                            f"{tables} (a Mitchell suits a bigger room)")
    count = _check_counts(tables, rounds, boards_per_round, most, least=2)
    sets = 2 * tables - 1
    if tables in HOWELL_DESIGNS:
        pairs, adds = HOWELL_DESIGNS[tables]
        starter, offsets = [(0, 0), *pairs], [0, *adds]
    else:
        starter, offsets = _howell_design(tables)
    seatings = []
    for r in range(count):
        for i in range(tables):
            if i == 0:
                a, b = sets, r  # the stationary pair (number 2n) meets pair r
            else:
                a, b = (starter[i][0] + r) % sets, (starter[i][1] + r) % sets
            ns, ew = (a, b) if (r + i) % 2 == 0 or i == 0 else (b, a)
            seatings.append(Seating(i + 1, r + 1, (None, str(ns + 1)), (None, str(ew + 1)),
                                    (r + offsets[i]) % sets + 1))
    full = count == most
    return MovementPlan("Howell" if full else f"Howell ({count} of {most} rounds)", "howell",
                        tables, count, boards_per_round, sets, tuple(seatings),
                        plays=tables if full else -1)


def _howell_design(tables: int) -> tuple[list[tuple[int, int]], list[int]]:
    """A starter and an adder mod n = 2*tables - 1 (a cyclic Room square): pairs {x_i, y_i}
    (i = 1..tables-1) splitting the non-zero residues, whose differences +-(x_i - y_i) are every
    non-zero residue once (so every two pairs meet once as the pairs rotate), and offsets c_i,
    distinct and non-zero, with 0 and every c_i - x_i, c_i - y_i all different (so table i, on
    set r + c_i in round r, never gives a pair a set twice).  Found by backtracking."""
    n = 2 * tables - 1
    starter: list[tuple[int, int]] = [(0, 0)]
    offsets = [0]
    used, differences, images = {0}, set(), {0}

    def place() -> bool:
        if len(starter) == tables:
            return True
        x = min(v for v in range(n) if v not in used)  # the smallest residue left starts a pair
        for y in range(x + 1, n):
            d = min((y - x) % n, (x - y) % n)
            if y in used or d in differences:
                continue
            for c in range(1, n):
                a, b = (c - x) % n, (c - y) % n
                if c in offsets or a in images or b in images:
                    continue
                starter.append((x, y))
                offsets.append(c)
                used.update((x, y))
                differences.add(d)
                images.update((a, b))
                if place():
                    return True
                starter.pop()
                offsets.pop()
                used.difference_update((x, y))
                differences.discard(d)
                images.difference_update((a, b))
        return False

    if not place():
        raise MovementError(f"no Howell on {tables} tables plays every set once with each "
                            "table on its own set (no Room square of that side): use a "
                            "Mitchell or share boards")
    return starter, offsets


def from_rounds(rows: Sequence[Any], boards_per_round: int | None = None,
                name: str = "movement") -> MovementPlan:
    """A movement read from rows that have ``table``, ``round``, ``ns``, ``ew`` and ``boards``
    (e.g. a ``.bws`` file's :class:`~cardlab.club.bws.RoundRow`); pair 0 (a sit-out) leaves
    the table out of that round.  Pair numbers that sit in both directions make a Howell."""
    seats = [r for r in rows if r.ns and r.ew and r.boards]
    if not seats:
        raise MovementError(f"{name}: no table is played")
    per = boards_per_round or len(seats[0].boards)
    ns_numbers = {r.ns for r in seats}
    ew_numbers = {r.ew for r in seats}
    two_fields = not (ns_numbers & ew_numbers) or any(r.ns == r.ew for r in seats)
    seatings = []
    for r in seats:
        if len(r.boards) != per or (r.boards[0] - 1) % per or list(r.boards) != list(
                range(r.boards[0], r.boards[0] + per)):
            raise MovementError(f"{name}: table {r.table} round {r.round} plays boards "
                                f"{r.boards}, not a set of {per} consecutive boards")
        board_set = (r.boards[0] - 1) // per + 1
        ns: PairKey = ("NS", str(r.ns)) if two_fields else (None, str(r.ns))
        ew: PairKey = ("EW", str(r.ew)) if two_fields else (None, str(r.ew))
        seatings.append(Seating(r.table, r.round, ns, ew, board_set))
    tables = max(s.table for s in seatings)
    rounds = max(s.round for s in seatings)
    if tables > MAX_TABLES or rounds > 2 * MAX_TABLES:
        raise MovementError(f"{name}: {tables} tables and {rounds} rounds is over the limit")
    sets = max(s.board_set for s in seatings)
    plays = Counter(b for s in seatings for b in range(s.board_set, s.board_set + 1))
    return MovementPlan(name, "mitchell" if two_fields else "howell", tables, rounds, per, sets,
                        tuple(seatings), plays=max(plays.values()), meets=2)


def session_problems(plan: MovementPlan, lines: Iterable[TravellerLine]) -> list[str]:
    """Where a session's results leave the movement: a pair on a board it should not play,
    against the wrong pair, in the wrong seat (NS and EW swapped), or a board a table should
    have played with no result.  Pairs are matched by number (their ids in the results)."""
    on_board: dict[int, list[Seating]] = defaultdict(list)
    for s in plan.seatings:
        for board in plan.board_numbers(s.board_set):
            on_board[board].append(s)
    found: list[str] = []
    done: set[tuple[int, int, int]] = set()
    for line in lines:
        where = f"board {line.board} ({line.ns} v {line.ew})"
        here = on_board.get(line.board, [])
        exact = [s for s in here if (s.ns[1], s.ew[1]) == (line.ns, line.ew)]
        if exact:
            done.add((exact[0].table, exact[0].round, line.board))
            continue
        turned = [s for s in here if (s.ns[1], s.ew[1]) == (line.ew, line.ns)]
        if turned:
            s = turned[0]
            found.append(f"{where}: the pairs sat the wrong way: the movement seats {s.ns[1]} "
                         f"NS and {s.ew[1]} EW at table {s.table} in round {s.round}")
            done.add((s.table, s.round, line.board))
            continue
        mine = [s for s in here if line.ns in (s.ns[1], s.ew[1])]
        if not mine:
            found.append(f"{where}: pair {line.ns} does not play board {line.board}")
            continue
        s = mine[0]
        other = s.ew[1] if s.ns[1] == line.ns else s.ns[1]
        found.append(f"{where}: pair {line.ns} plays this board against {other} at table "
                     f"{s.table} in round {s.round}")
    for s in plan.seatings:
        for board in plan.board_numbers(s.board_set):
            if (s.table, s.round, board) not in done:
                found.append(f"table {s.table} round {s.round}: no result on board {board} "
                             f"({s.ns[1]} v {s.ew[1]})")
    return found
