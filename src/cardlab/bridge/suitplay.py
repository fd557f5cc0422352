"""Single-suit play: the best line for a suit combination, solved exactly (docs/suitplay.md).

Declarer (North and South) picks each card knowing only the cards seen so far; the defenders
(West and East) see every card and answer each line with their best defence for the actual
layout. The layouts of the missing cards and their a-priori weights (vacant places) are those of
``bridge split`` (:mod:`cardlab.bridge.splits`).

>>> r = suitplay("AQ", "32", targets=[2])
>>> r.targets[0].probability_exact
Fraction(1, 2)
>>> r.targets[0].tree[0], list(r.targets[0].tree[1]["if"])
({'play': 'S:2'}, ['W:x', 'W:K', 'W:-'])
>>> r.targets[0].tree[1]["if"]["W:x"][0]
{'play': 'N:Q'}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, gcd
from typing import Any, Callable, Iterable, Sequence

from cardlab.board import SEATS
from cardlab.bridge.splits import layout_ways, parse_plays, parse_vacant
from cardlab.bridge.suitplay_groups import branch_order as _order
from cardlab.bridge.suitplay_groups import labels as _labels
from cardlab.bridge.suitplay_groups import runs as _runs
from cardlab.bridge.suitplay_line import NamedLine, line_tree
from cardlab.cards import RANKS
from cardlab.errors import CardlabError, ConstraintError, DeckError, SearchMemoryError, TooLargeError

__all__ = ["suitplay", "SuitPlayResult", "TargetLine", "LayoutRow", "parse_suit", "parse_entries", "DEFENCES",
           "evaluate_tree", "Comparison", "LineStep", "line_steps"]

#: The two defence models: defenders who choose any card (and falsecard), or who play equal cards at random.
DEFENCES = ("omniscient", "random-equals")
_SEATS_AFTER = {"N": "E", "E": "S", "S": "W", "W": "N"}
_NAMES = {"N": "North", "S": "South", "W": "West", "E": "East"}


def parse_suit(text: str, what: str) -> tuple[int, ...]:
    """A declarer holding such as ``"AQT98"``, ``"A-10-9"`` or ``"-"`` (void) as ranks 0 (two) to
    12 (ace), highest first. ``x`` is a small card, given the lowest rank free later.

    >>> parse_suit("AQ109", "NORTH")
    (12, 10, 8, 7)
    >>> parse_suit("AA", "NORTH")
    Traceback (most recent call last):
    ...
    cardlab.errors.DeckError: card 'A' is given twice in NORTH 'AA'
    """
    body = text.strip().upper().replace("10", "T")
    if body in ("-", "", "VOID"):
        return ()
    ranks: list[int] = []
    smalls = 0
    for ch in body:
        if ch in " -,.":
            continue
        if ch == "X":
            smalls += 1
            continue
        if ch not in RANKS:
            raise DeckError(f"unknown card {ch!r} in {what} {text!r} (ranks A K Q J T 9 .. 2, x for a small card, - for a void)")
        r = RANKS.index(ch)
        if r in ranks:
            raise DeckError(f"card {ch!r} is given twice in {what} {text!r}")
        ranks.append(r)
    return tuple(sorted(ranks, reverse=True)) + (-1,) * smalls


def parse_entries(text: str | None) -> tuple[int | None, int | None]:
    """``"N,S"`` entries to North and South (times each can be reached to lead); ``*`` or
    nothing means unlimited.

    >>> parse_entries("2,*")
    (2, None)
    >>> parse_entries("two")
    Traceback (most recent call last):
    ...
    cardlab.errors.ConstraintError: entries 'two': give North's and South's entries as N,S (whole numbers 0..13 or *)
    """
    if text is None:
        return (None, None)
    match = re.fullmatch(r"\s*(\d+|\*)\s*,\s*(\d+|\*)\s*", text)
    if not match:
        raise ConstraintError(f"entries {text!r}: give North's and South's entries as N,S (whole numbers 0..13 or *)")
    out: list[int | None] = []
    for part in match.groups():
        if part == "*":
            out.append(None)
        else:
            value = int(part)
            if value > 13:
                raise ConstraintError(f"entries {text!r}: each hand has 0 to 13 entries (or * for unlimited)")
            out.append(value)
    return (out[0], out[1])


@dataclass(frozen=True)
class LayoutRow:
    """One layout class: West's and East's cards (honours named, ``x`` small), its a-priori weight
    (the exact chance of the class), and the tricks each reported line takes against it."""

    west: str
    east: str
    weight: Fraction
    tricks: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-ready data."""
        return {"west": self.west, "east": self.east, "weight": float(self.weight),
                "weight_exact": _ratio(self.weight), "tricks": dict(self.tricks)}


@dataclass(frozen=True)
class TargetLine:
    """The best line for one objective: at least ``tricks`` tricks (``tricks`` is None for the
    mean-tricks line), its probability (or mean), the line in words and its decision tree."""

    tricks: int | None
    probability_exact: Fraction
    line: str
    tree: list[dict[str, Any]]
    per_layout: tuple[int, ...] = field(repr=False, default=())

    @property
    def probability(self) -> float:
        """The probability (or the mean tricks) as a float."""
        return float(self.probability_exact)

    def steps(self) -> list[LineStep]:
        """The line as steps (:func:`line_steps`): what the page shows as a numbered list."""
        return line_steps(self.tree)

    def to_dict(self) -> dict[str, Any]:
        """The target as JSON-ready data (for the mean line, ``mean``/``mean_exact``)."""
        if self.tricks is None:
            return {"mean": self.probability, "mean_exact": _ratio(self.probability_exact), "line": self.line,
                    "tree": self.tree}
        return {"tricks": self.tricks, "probability": self.probability,
                "probability_exact": _ratio(self.probability_exact), "line": self.line, "tree": self.tree}


@dataclass(frozen=True)
class Comparison:
    """Head-to-head comparison of the reported lines (``--scoring mp`` or ``imps``): ``scores[a][b]``
    is line a's expected matchpoints (0..1) or IMPs against line b; ``best`` the line with most
    wins (mp) or the best average (imps); ``cycle`` lines that beat each other in a cycle."""

    scoring: str
    scores: dict[str, dict[str, float]]
    best: str
    cycle: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The comparison as JSON-ready data."""
        return {"scoring": self.scoring, "scores": self.scores, "best": self.best, "cycle": list(self.cycle)}


@dataclass(frozen=True)
class SuitPlayResult:
    """The solved combination: the best line per trick target, the mean-tricks line, the layouts
    with the tricks of each line, and (with ``scoring``) the comparison of the lines."""

    north: str
    south: str
    missing: str
    vacant: tuple[int, int]
    defence: str
    targets: tuple[TargetLine, ...]
    mean_line: TargetLine
    layouts: tuple[LayoutRow, ...]
    entries: tuple[int | None, int | None] = (None, None)
    played: tuple[tuple[str, str], ...] = ()
    comparison: Comparison | None = None
    named: NamedLine | None = None

    def target(self, tricks: int) -> TargetLine:
        """The line for at least ``tricks`` tricks."""
        for t in self.targets:
            if t.tricks == tricks:
                return t
        raise ConstraintError(f"no line for {tricks} tricks was solved (targets {[t.tricks for t in self.targets]})")

    def to_dict(self) -> dict[str, Any]:
        """The result as the JSON object of ``bridge suitplay`` (docs/suitplay.md)."""
        out: dict[str, Any] = {"north": self.north, "south": self.south, "missing": self.missing,
                               "vacant": list(self.vacant), "defence": self.defence,
                               "targets": [t.to_dict() for t in self.targets],
                               "mean_tricks_line": self.mean_line.to_dict(),
                               "layouts": [row.to_dict() for row in self.layouts]}
        if self.entries != (None, None):
            out["entries"] = ["*" if e is None else e for e in self.entries]
        if self.played:
            out["played"] = [f"{s}:{c}" for s, c in self.played]
        if self.comparison is not None:
            out["comparison"] = self.comparison.to_dict()
        if self.named is not None:
            out["named_line"] = self.named.to_dict()
        return out

    def to_json(self) -> str:
        """The result as JSON text (see :meth:`to_dict`): indented, each line's tree on one line
        (the trees of long combinations run to megabytes; compact, they are written at the
        compiled encoder's speed)."""
        data = self.to_dict()
        trees: list[str] = []
        for entry in (*data["targets"], data["mean_tricks_line"]):
            trees.append(json.dumps(entry["tree"], separators=(",", ":")))
            entry["tree"] = f"\x00tree{len(trees) - 1}"
        text = json.dumps(data, indent=2)
        for i, tree in enumerate(trees):
            text = text.replace(f'"\\u0000tree{i}"', tree, 1)
        return text

    def to_csv(self) -> str:
        """The layouts table as CSV: west, east, weight_exact and the tricks of each line."""
        ids = self._line_ids()
        lines = ["west,east,weight,weight_exact," + ",".join(f"tricks_{i}" for i in ids)]
        for row in self.layouts:
            lines.append(f"{row.west},{row.east},{float(row.weight)!r},{_ratio(row.weight)},"
                         + ",".join(str(row.tricks[i]) for i in ids))
        return "\n".join(lines) + "\n"

    def _line_ids(self) -> list[str]:
        return [str(t.tricks) for t in self.targets] + ["mean"] + (["line"] if self.named is not None else [])

    def to_pandas(self) -> Any:
        """The layouts table as a pandas DataFrame (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        ids = self._line_ids()
        return pd.DataFrame({"west": [r.west for r in self.layouts], "east": [r.east for r in self.layouts],
                             "weight": [float(r.weight) for r in self.layouts],
                             **{f"tricks_{i}": [r.tricks[i] for r in self.layouts] for i in ids}})

    def table(self) -> str:
        """The text the command prints: each target's line, the mean line and the layouts."""
        head = f"North {self.north} / South {self.south}; missing {self.missing}; vacant places West " \
               f"{self.vacant[0]}, East {self.vacant[1]}; defence {self.defence}"
        if self.entries != (None, None):
            head += "; entries " + ",".join("*" if e is None else str(e) for e in self.entries)
        parts = [head, ""]
        for t in self.targets:
            parts.append(f"{t.tricks} tricks: {_pct(t.probability_exact)} ({_ratio(t.probability_exact)})")
            parts.append(f"  {t.line}")
        parts.append(f"Most tricks on average: {float(self.mean_line.probability_exact):.4f} "
                     f"({_ratio(self.mean_line.probability_exact)})")
        parts.append(f"  {self.mean_line.line}")
        if self.named is not None:
            n = self.named
            parts.append(f"Your line '{n.text}': {float(n.mean_exact):.4f} tricks on average ({_ratio(n.mean_exact)})")
            parts.append(f"  {n.line}")
            parts.append("  " + "; ".join(f"{k} tricks {_pct(p)} ({_ratio(p)})" for k, p in enumerate(n.distribution) if p))
        parts.append("")
        ids = self._line_ids()
        header = ("West", "East", "Weight", "Exact", *(f"{i}" for i in ids))
        body = [(r.west, r.east, _pct(r.weight), _ratio(r.weight), *(str(r.tricks[i]) for i in ids))
                for r in self.layouts]
        widths = [max(len(x[i]) for x in [header, *body]) for i in range(len(header))]
        parts.append("Tricks per layout (columns: the line for each target, and the mean line"
                     + (", and yours" if self.named is not None else "") + ")")
        for row in [header, *body]:
            parts.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
        if self.comparison is not None:
            c = self.comparison
            parts.append("")
            unit = "matchpoints (0-1)" if c.scoring == "mp" else "IMPs"
            parts.append(f"Lines against each other ({unit}; row against column):")
            for a in ids:
                parts.append(f"  {a:>5}: " + "  ".join(f"{c.scores[a][b]:+.3f}" if c.scoring == "imps"
                                                        else f"{c.scores[a][b]:.3f}" for b in ids))
            parts.append(f"  Best: the line for {c.best}" + (f"; lines {' > '.join(c.cycle)} > {c.cycle[0]} beat "
                                                             "each other in a cycle" if c.cycle else ""))
        return "\n".join(parts) + "\n"

    def __repr__(self) -> str:
        best = ", ".join(f"{t.tricks}: {_pct(t.probability_exact)}" for t in self.targets)
        return f"<SuitPlayResult {self.north}/{self.south} ({self.defence}): {best}>"

    def _repr_html_(self) -> str:
        import html

        return f"<p>{html.escape(repr(self))}</p><pre>{html.escape(self.table())}</pre>"


def _ratio(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _pct(value: Fraction) -> str:
    return f"{100 * float(value):.2f}%"


def _card(rank: int) -> str:
    return RANKS[rank]


# ---------------------------------------------------------------------------------------------
# The deal: declarer's cards, the static groups of missing cards, the layouts


@dataclass
class _Deal:
    north: tuple[int, ...]
    south: tuple[int, ...]
    groups: list[tuple[int, ...]]  # static groups of missing ranks, highest group first
    layouts: list[tuple[int, ...]]  # West's count per group
    weights: list[Fraction]


def _setup(north: str, south: str, vacant: str | tuple[int, int] | None,
           played: str | None) -> tuple[_Deal, tuple[int, int], tuple[tuple[str, str], ...]]:
    n_ranks = parse_suit(north, "NORTH")
    s_ranks = parse_suit(south, "SOUTH")
    plays = parse_plays(played)
    named = [r for r in n_ranks + s_ranks if r >= 0]
    for r in set(named):
        if named.count(r) > 1:
            raise DeckError(f"card {_card(r)!r} is in both hands (NORTH {north!r}, SOUTH {south!r})")
    gone: set[int] = set()
    seat_out = {"W": 0, "E": 0}
    for seat, card in plays:
        if card in ("-", "X"):
            raise DeckError(f"--played {played!r}: name each card played earlier (e.g. W:Q, N:3)")
        r = RANKS.index(card)
        if r in named:
            raise DeckError(f"card {card!r} in --played {played!r} is still in NORTH or SOUTH")
        if r in gone:
            raise DeckError(f"card {card!r} is played twice in --played {played!r}")
        gone.add(r)
        if seat in seat_out:
            seat_out[seat] += 1
    free = [r for r in range(13) if r not in named and r not in gone]
    smalls = (n_ranks + s_ranks).count(-1)
    if smalls > len(free):
        raise DeckError(f"NORTH {north!r} and SOUTH {south!r} hold more than 13 cards with the cards played")
    low = free[:smalls]
    north_r = tuple(sorted([r for r in n_ranks if r >= 0] + low[:n_ranks.count(-1)], reverse=True))
    south_r = tuple(sorted([r for r in s_ranks if r >= 0] + low[n_ranks.count(-1):], reverse=True))
    if len(north_r) + len(south_r) + len(gone) > 13:
        raise DeckError(f"NORTH {north!r} and SOUTH {south!r} hold more than 13 cards of the suit")
    if not north_r and not south_r:
        raise DeckError("NORTH and SOUTH are both void: give declarer's cards in the suit")
    places = parse_vacant(vacant)
    w, e = places[0] - seat_out["W"], places[1] - seat_out["E"]
    if w < 0 or e < 0:
        raise ConstraintError(f"--played {played!r} shows more cards from a defender than the vacant places allow")
    ours = set(north_r) | set(south_r)
    missing = [r for r in range(12, -1, -1) if r not in ours and r not in gone]
    groups: list[list[int]] = []
    for r in missing:
        if groups and not any(x in ours for x in range(r + 1, groups[-1][-1])):
            groups[-1].append(r)
        else:
            groups.append([r])
    n = len(missing)
    if n > w + e:
        raise ConstraintError(f"vacant places {w},{e} do not fit: West and East have {w + e} unknown cards "
                              f"between them, fewer than the {n} missing")
    total = comb(places[0] + places[1], places[0])
    layouts: list[tuple[int, ...]] = []
    weights: list[Fraction] = []

    def walk(i: int, counts: tuple[int, ...], ways: int) -> None:
        if i == len(groups):
            k = sum(counts)
            if 0 <= k <= w and 0 <= n - k <= e:
                layouts.append(counts)
                weights.append(Fraction(ways * layout_ways(k, n, (w, e)), comb(w + e, w)))
            return
        for j in range(len(groups[i]), -1, -1):
            walk(i + 1, counts + (j,), ways * comb(len(groups[i]), j))

    walk(0, (), 1)
    del total
    return _Deal(north_r, south_r, [tuple(g) for g in groups], layouts, weights), (w, e), plays


def _weigh_history(deal: _Deal, plays: tuple[tuple[str, str], ...], text: str) -> _Deal:
    """The layouts weighed by the chance of the defenders' plays so far (random-equals: a
    defender follows from his lowest equal cards, at random among them), the impossible ones
    dropped, the weights scaled to add up to 1 (:mod:`cardlab.bridge.suitplay_history`)."""
    from cardlab.bridge.suitplay_history import likelihoods

    chances = likelihoods(deal.groups, deal.layouts, deal.north, deal.south, plays)
    kept = [(lay, w * c) for lay, w, c in zip(deal.layouts, deal.weights, chances) if c]
    if not kept:
        raise ConstraintError(f"no layout is consistent with --played {text!r} (a defender follows with one "
                              "of his lowest equal cards)")
    total = sum((w for _, w in kept), Fraction(0))
    return _Deal(deal.north, deal.south, deal.groups, [lay for lay, _ in kept], [w / total for _, w in kept])


# ---------------------------------------------------------------------------------------------
# The solver: Pareto frontiers of per-layout outcomes over declarer's information tree
#
# A node is a public state: declarer's remaining cards, the cards of the current trick, and for
# each layout still possible its remaining (West, East) counts per static group. A value is a
# tuple of bitmasks over the layouts, one per trick threshold k (layouts where the line takes at
# least k more tricks); the pointwise minimum of two outcome vectors is the AND of their masks.


class _Solver:
    def __init__(self, deal: _Deal, defence: str, entries: tuple[int | None, int | None], depth: int) -> None:
        self.deal = deal
        self.random_equals = defence == "random-equals"
        self.entries = entries
        self.depth = depth  # thresholds kept: 1 for one target, the most tricks for the mean line
        self.memo: dict[Any, list[tuple[tuple[int, ...], Any]]] = {}
        self.trees: dict[int, list[dict[str, Any]]] = {}
        self.active: dict[Any, frozenset[int]] = {}  # live layouts -> tops of their groups in play
        self.masks: dict[Any, int] = {}  # live layouts -> their bitmask
        self.gtop = [g[0] for g in deal.groups]
        # the share of the search done before the current node and the node's share (estimated
        # from the counts of each node's options, as csrc/suitplay.c does), for ``report``
        self.base, self.span = 0.0, 1.0
        self.report: Callable[[float], None] | None = None
        self.work = 0  # comparisons of outcome vectors (at most), against ``limits``
        self.limits: tuple[int, int] | None = None  # (states, comparisons): the search stops past either
        self.glow = [g[-1] for g in deal.groups]

    # -- helpers -------------------------------------------------------------------------------
    def runs(self, live_ours: frozenset[int],
             live: Sequence[tuple[int, tuple[int, ...], tuple[int, ...]]]) -> list[tuple[int, ...]]:
        """The static groups, merged into runs of equal cards under random-equals (over the
        groups with cards still in play, so that equal states give equal runs)."""
        groups = self.deal.groups
        base = self._tops(live, ())
        active = [g for g in range(len(groups)) if self.gtop[g] in base]
        if not self.random_equals:
            return [(g,) for g in active]
        out: list[list[int]] = []
        for g in active:
            if out and not any(x in live_ours for x in range(groups[g][0] + 1, groups[out[-1][-1]][-1])):
                out[-1].append(g)
            else:
                out.append([g])
        return [tuple(r) for r in out]

    def solve(self, north: tuple[int, ...], south: tuple[int, ...], trick: tuple[tuple[str, int], ...],
              live: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...], ent: tuple[int | None, int | None],
              last: str) -> list[tuple[tuple[int, ...], Any]]:
        if self.entries == (None, None):
            # equal declarer cards are one card: the key counts, for each, the missing groups
            # still in play above it (plans name cards the same way: see _slot)
            tops = self._tops(live, trick)
            key: Any = (tuple(_slot(c, tops) for c in north), tuple(_slot(c, tops) for c in south),
                        tuple((s, _slot(c, tops) if s in "NS" else c) for s, c in trick), live)
        else:
            key = (north, south, trick, live, ent, last)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        out = self._solve(north, south, trick, live, ent, last)
        self.memo[key] = out
        if not len(self.memo) & 1023:
            if self.report is not None:
                self.report(self.base)
            if self.limits is not None and (len(self.memo) > self.limits[0] or self.work > self.limits[1]):
                what = (f"{self.limits[0]:,} states (PYTHON_STATES)" if len(self.memo) > self.limits[0] else
                        f"{self.limits[1]:,} comparisons of outcome vectors (PYTHON_WORK)")
                raise TooLargeError(f"{_show_hand(self.deal.north)} / {_show_hand(self.deal.south)}: the Python search "
                                    f"stopped at its limit of {what}; use the compiled search (engine 'core', "
                                    "with the compiled core installed: docs/install.md)")
        return out

    def _tops(self, live: Sequence[tuple[int, tuple[int, ...], tuple[int, ...]]],
              trick: Sequence[tuple[str, int]]) -> list[int]:
        """The top cards of the missing groups still in play (in a hand, or on the table)."""
        base = self.active.get(live)
        if base is None:
            gtop = self.gtop
            base = self.active[live] = frozenset(
                gtop[g] for g in range(len(gtop)) if any(wc[g] or ec[g] for _, wc, ec in live))
        extra = [c for s, c in trick if s in "WE" and c >= 0]
        return sorted(base.union(extra), reverse=True) if extra else sorted(base, reverse=True)

    def _all(self, live: Sequence[tuple[int, Any, Any]]) -> int:
        """The bitmask of the layouts in ``live``."""
        m = self.masks.get(live)
        if m is None:
            m = 0
            for lid, _, _ in live:
                m |= 1 << lid
            self.masks[live] = m
        return m

    def _solve(self, north: tuple[int, ...], south: tuple[int, ...], trick: tuple[tuple[str, int], ...],
               live: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...], ent: tuple[int | None, int | None],
               last: str) -> list[tuple[tuple[int, ...], Any]]:
        full = self._all(live)
        depth = self.depth
        if not trick:
            if not north and not south:
                return [((0,) * depth, None)]
            top = max(len(north), len(south))
            if self.entries == (None, None) and all(sum(wc) + sum(ec) == 0 for _, wc, ec in live):
                got = tuple(full if k < top else 0 for k in range(depth))
                return [(got, ("cash", top))]
            options: list[tuple[tuple[int, ...], Any]] = []
            base, span, done, count = self.base, self.span, 0, len(north) + len(south)
            for seat, hand in (("N", north), ("S", south)):
                if not hand:
                    continue
                index = 0 if seat == "N" else 1
                left = ent[index]
                new_ent = ent
                if self.entries[index] is not None and last != seat:
                    if left is None or left <= 0:
                        continue
                    new_ent = (left - 1, ent[1]) if index == 0 else (ent[0], left - 1)
                tops = self._tops(live, trick)
                for card in self._choices(hand, north, south, trick, live, seat):
                    n2, s2 = _remove(north, south, seat, card)
                    self._child(base, span, done, count)
                    done += 1
                    for value, plan in self.solve(n2, s2, ((seat, card),), live, new_ent, last):
                        options.append((value, ("play", seat, self._name(card, tops), plan)))
            self.base, self.span = base, span
            if not options:  # no entry to a hand with cards: the remaining cards are lost
                return [((0,) * depth, ("stuck",))]
            return self._pareto(options)
        seat = _SEATS_AFTER[trick[-1][0]]
        if len(trick) == 4:
            return self._finish(north, south, trick, live, ent)
        if seat in "NS":
            hand = north if seat == "N" else south
            if not hand:
                return [(v, ("play", seat, -1, p)) for v, p in self.solve(north, south, trick + ((seat, -1),), live,
                                                                            ent, last)]
            options = []
            tops = self._tops(live, trick)
            base, span = self.base, self.span
            cards = self._choices(hand, north, south, trick, live, seat)
            for k, card in enumerate(cards):
                n2, s2 = _remove(north, south, seat, card)
                self._child(base, span, k, len(cards))
                for value, plan in self.solve(n2, s2, trick + ((seat, card),), live, ent, last):
                    options.append((value, ("play", seat, self._name(card, tops), plan)))
            self.base, self.span = base, span
            return self._pareto(options)
        return self._defend(north, south, trick, live, ent, last, seat, full)

    def _choices(self, hand: tuple[int, ...], north: tuple[int, ...], south: tuple[int, ...],
                 trick: tuple[tuple[str, int], ...], live: Sequence[tuple[int, tuple[int, ...], tuple[int, ...]]],
                 seat: str) -> list[int]:
        """One card of each run of equal cards in the hand (the lowest)."""
        others: set[int] = set()
        for g in range(len(self.deal.groups)):
            if any(wc[g] or ec[g] for _, wc, ec in live):
                others.update(self.deal.groups[g])
        for s, c in trick:
            if c >= 0 and (s in "WE" or self.entries != (None, None)):
                others.add(c)  # a defender's card on the table separates declarer's cards
        if self.entries != (None, None):  # which hand wins the trick matters: keep every card apart
            others.update(south if seat == "N" else north)
        out: list[int] = []
        for card in sorted(hand):
            if out and not any(x in others for x in range(out[-1] + 1, card)):
                continue
            out.append(card)
        return out

    def _defend(self, north: tuple[int, ...], south: tuple[int, ...], trick: tuple[tuple[str, int], ...],
                live: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...], ent: tuple[int | None, int | None],
                last: str, seat: str, full: int) -> list[tuple[tuple[int, ...], Any]]:
        live_ours = frozenset(north) | frozenset(south) | frozenset(c for s, c in trick if s in "NS" and c >= 0)
        children: list[tuple[Any, int, list[tuple[tuple[int, ...], Any]]]] = []
        void = tuple(x for x in live if sum(x[1] if seat == "W" else x[2]) == 0)
        base, span = self.base, self.span
        branches = 1 + len(self._tops(live, ()))  # a void, and at most a run per group in play
        if void:
            self._child(base, span, 0, branches)
            children.append(("-", self._all(void), self.solve(north, south, trick + ((seat, -1),), void, ent, last)))
        for r, run in enumerate(self.runs(live_ours, live)):
            tuple_sub = _follow(live, seat, run)
            if not tuple_sub:
                continue
            rep = self.gtop[run[0]]
            self._child(base, span, 1 + r, branches)
            children.append((run, self._all(tuple_sub), self.solve(north, south, trick + ((seat, rep),), tuple_sub,
                                                                    ent, last)))
        self.base, self.span = base, span
        acc: list[tuple[tuple[int, ...], Any]] = [((full,) * self.depth, {})]
        children.sort(key=lambda child: len(child[2]))  # single answers first: the products stay small
        for token, mask, frontier in children:
            nxt = []
            keep = ~mask
            for value, plan in acc:
                for v2, p2 in frontier:
                    merged = tuple(a & (b | keep) for a, b in zip(value, v2))
                    nxt.append((merged, (plan, token, p2)))
            acc = self._pareto(nxt) if len(frontier) > 1 else nxt
        return [(value, ("defend", seat, _flatten(plan))) for value, plan in acc]

    def _pareto(self, options: list[tuple[tuple[int, ...], Any]]) -> list[tuple[tuple[int, ...], Any]]:
        """:func:`_pareto`, its comparisons (at most: each option against each kept one) counted."""
        kept = _pareto(options)
        self.work += len(options) * len(kept)
        return kept

    def _child(self, base: float, span: float, k: int, n: int) -> None:
        """The share of the search done as the node's ``k``-th of ``n`` options starts."""
        self.span = span / n
        self.base = base + self.span * k

    def _finish(self, north: tuple[int, ...], south: tuple[int, ...], trick: tuple[tuple[str, int], ...],
                live: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...], ent: tuple[int | None, int | None],
                ) -> list[tuple[tuple[int, ...], Any]]:
        winner = max(trick, key=lambda sc: sc[1])
        ours = winner[0] in "NS"
        full = self._all(live)
        last = winner[0] if ours else "-"
        sub = self.solve(north, south, (), live, ent, last)
        if not ours:
            return sub
        return [((full,) + value[:-1], plan) for value, plan in sub]


    def _name(self, card: int, tops: list[int]) -> int:
        """A declarer card in a plan: its slot when equal cards are merged, else the card."""
        return _slot(card, tops) if self.entries == (None, None) else card

    def card(self, name: int, hand: Sequence[int], live: Sequence[tuple[int, tuple[int, ...], tuple[int, ...]]],
             trick: Sequence[tuple[str, int]]) -> int:
        """The card of the hand a plan names (the lowest of its equal cards), -1 for a discard."""
        if name < 0 or self.entries != (None, None):
            return name
        tops = self._tops(live, trick)
        return min(c for c in hand if _slot(c, tops) == name)


def _slot(card: int, tops: list[int]) -> int:
    """How many of the missing groups still in play rank above ``card`` (-1 stays a discard)."""
    if card < 0:
        return -1
    n = 0
    for t in tops:
        if t > card:
            n += 1
        else:
            break
    return n


def _follow(live: Sequence[tuple[int, tuple[int, ...], tuple[int, ...]]], seat: str,
            run: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    """The layouts where ``seat`` can play a card of ``run``, each with that card gone (the
    lowest of his cards in the run: they are equal)."""
    sub = []
    for lid, wc, ec in live:
        mine = wc if seat == "W" else ec
        g = next((g for g in reversed(run) if mine[g]), None)
        if g is None:
            continue
        new = mine[:g] + (mine[g] - 1,) + mine[g + 1:]
        sub.append((lid, new, ec) if seat == "W" else (lid, wc, new))
    return tuple(sub)


def _flatten(plan: Any) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    while plan != {}:
        plan, token, child = plan
        out[token] = child
    return out


def _remove(north: tuple[int, ...], south: tuple[int, ...], seat: str, card: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if seat == "N":
        return tuple(c for c in north if c != card), south
    return north, tuple(c for c in south if c != card)


def _pareto(options: list[tuple[tuple[int, ...], Any]]) -> list[tuple[tuple[int, ...], Any]]:
    """The undominated outcome vectors (one plan each)."""
    if len(options) <= 1:
        return options
    options.sort(key=lambda o: [-_popcount(m) for m in o[0]])
    kept: list[tuple[tuple[int, ...], Any]] = []
    for value, plan in options:
        if any(all(a & b == b for a, b in zip(k, value)) for k, _ in kept):
            continue
        kept.append((value, plan))
    return kept


def _popcount(m: int) -> int:
    return bin(m).count("1")


# ---------------------------------------------------------------------------------------------
# The compiled search (csrc/suitplay.c): the same algorithm, the frontier and its plans

#: The search routes of :func:`suitplay`.
ENGINES = ("auto", "core", "python")
#: The compiled search keeps a set of layouts in up to three 64-bit words: every combination
#: fits (at most 162 layouts: missing groups of 2, 2, 2, 2 and 1 cards, e.g. Q963 opposite void).
CORE_LAYOUTS = 192
#: The compiled search stops (MemoryError) beyond this many megabytes of tables.
CORE_LIMIT_MB = 1536
_PLAY, _DEFEND, _CASH, _STUCK = 1, 2, 3, 4  # the plan kinds of csrc/suitplay.c (its seats: SEATS, N E S W)


def _core_available() -> bool:
    from cardlab._native import core

    try:
        return callable(core.suitplay_search)
    except (CardlabError, AttributeError):  # no compiled core (or an older one): the Python search answers
        return False


def _same(plan: Any) -> Any:
    return plan


def _core_frontier(deal: _Deal, defence: str, ent: tuple[int | None, int | None], depth: int,
                   progress: bool = False) -> tuple[list[tuple[tuple[int, ...], Any]], Any]:
    """The root frontier from the compiled search, and the function that turns a root plan
    number into the plan the Python search would have built (nested tuples, as ``_tree`` reads
    them). Every value is checked here before it reaches C. The search runs through
    :func:`~cardlab.bridge.suitplay_run.run_core` (Ctrl-C stops it; ``progress`` on stderr)."""
    from array import array

    from cardlab._native import core
    from cardlab.bridge.suitplay_run import run_core

    if not 1 <= len(deal.layouts) <= CORE_LAYOUTS:
        raise ConstraintError(f"the compiled search takes 1 to {CORE_LAYOUTS} layouts, not {len(deal.layouts)}")
    if not 1 <= depth <= 13 or not 0 <= len(deal.groups) <= 13:
        raise ConstraintError(f"suitplay: {depth} tricks and {len(deal.groups)} groups are out of range")
    held = [r for r in deal.north + deal.south]
    if len(set(held)) != len(held) or not all(0 <= r <= 12 for r in held):
        raise DeckError(f"suitplay: declarer's ranks {held} are not distinct ranks 0..12")
    for e in ent:
        if e is not None and not 0 <= e <= 13:
            raise ConstraintError(f"entries {ent}: each hand has 0 to 13 entries")
    groups = bytearray([255] * 13)
    for g, ranks in enumerate(deal.groups):
        for r in ranks:
            if r in held or groups[r] != 255:
                raise DeckError(f"suitplay: missing rank {r} is held or in two groups")
            groups[r] = g
    for lay in deal.layouts:
        if len(lay) != len(deal.groups) or any(not 0 <= j <= len(g) for j, g in zip(lay, deal.groups)):
            raise ConstraintError(f"suitplay: layout {lay} does not fit the groups")
    layouts = bytes(j for lay in deal.layouts for j in lay)
    north = sum(1 << r for r in deal.north)
    south = sum(1 << r for r in deal.south)
    args = (north, south, bytes(groups), layouts, len(deal.layouts), depth, -1 if ent[0] is None else ent[0],
            -1 if ent[1] is None else ent[1], int(defence == "random-equals"), CORE_LIMIT_MB)
    try:
        raw_values, raw_roots, raw_plans, raw_branches, _states = run_core(
            lambda control: core.suitplay_search(*args, control), progress, "solving the suit combination (thousandths)")
    except MemoryError as error:
        if "needs more than" not in str(error):
            raise
        raise SearchMemoryError(f"the search of {_show_hand(deal.north)} / {_show_hand(deal.south)} "
                                f"({len(deal.layouts)} layouts) needs more than {CORE_LIMIT_MB} MB of tables, its "
                                "limit (CORE_LIMIT_MB): ask for fewer tricks or layouts (--target, --vacant, "
                                "--played)") from None
    words = (len(deal.layouts) + 63) // 64
    flat = array("Q", raw_values).tolist()
    values = [sum(w << (64 * i) for i, w in enumerate(flat[j:j + words])) for j in range(0, len(flat), words)]
    roots = array("i", raw_roots).tolist()
    plans = array("i", raw_plans).tolist()
    branches = array("i", raw_branches).tolist()
    built: dict[int, Any] = {}

    def build(pid: int) -> Any:
        if pid < 0:
            return None
        hit = built.get(pid)
        if hit is not None:
            return hit
        kind, seat, name, child, first, count = plans[6 * pid:6 * pid + 6]
        plan: Any
        if kind == _PLAY:
            plan = ("play", SEATS[seat], name, build(child))
        elif kind == _DEFEND:
            answers: dict[Any, Any] = {}
            for b in range(first + count - 1, first - 1, -1):  # the Python search's order (_flatten)
                token, sub = branches[2 * b], branches[2 * b + 1]
                key: Any = "-" if token < 0 else tuple(g for g in range(13) if token >> g & 1)
                answers[key] = build(sub)
            plan = ("defend", SEATS[seat], answers)
        elif kind == _CASH:
            plan = ("cash", name)
        else:
            plan = ("stuck",)
        built[pid] = plan
        return plan

    frontier = [(tuple(values[i * depth:(i + 1) * depth]), root) for i, root in enumerate(roots)]
    return frontier, build


def _python_frontier(solver: _Solver, live: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...],
                     progress: bool) -> list[tuple[tuple[int, ...], Any]]:
    """The root frontier from the Python search (stopped with :class:`TooLargeError` past
    ``PYTHON_STATES`` states or ``PYTHON_WORK`` comparisons), its progress on stderr with ``progress``."""
    from cardlab.bridge.suitplay_run import PYTHON_STATES, PYTHON_WORK, ShareBar

    deal = solver.deal
    solver.limits = (PYTHON_STATES, PYTHON_WORK)
    bar = ShareBar(progress, "solving the suit combination (thousandths)")
    solver.report = bar
    try:
        return solver.solve(deal.north, deal.south, (), live, solver.entries, "-")
    finally:
        bar.close()


# ---------------------------------------------------------------------------------------------
# The public call


def suitplay(north: str, south: str, targets: Iterable[int] | None = None, vacant: str | tuple[int, int] | None = None,
             played: str | None = None, entries: str | tuple[int | None, int | None] | None = None,
             defence: str = "omniscient", scoring: str = "tricks", engine: str = "auto",
             line: str | None = None, progress: bool = False) -> SuitPlayResult:
    """The best line of play for each trick target (default: every target from 1 to the most
    tricks possible), exactly, and the line with the most tricks on average.

    ``defence`` is ``"omniscient"`` (the defenders see all the cards, know declarer's line and
    choose any card: SuitPlay's model) or ``"random-equals"`` (a defender plays equal cards at
    random: restricted choice). ``entries`` limits the leads from each hand; ``scoring`` ``"mp"``
    or ``"imps"`` compares the lines head to head. ``engine`` chooses the search: ``"core"`` the
    compiled one (csrc/suitplay.c, every combination: up to 162 layouts), ``"python"`` the same
    algorithm in Python (the tests' oracle, within the limits of :mod:`cardlab.bridge.suitplay_run`),
    ``"auto"`` (default) the compiled one when the compiled core is installed.
    ``progress`` shows the search's progress on stderr when it will take long.
    ``line`` names a line of your own to evaluate beside the best ones (``"S:x N:Q; N:A"``:
    finesse the queen, then cash the ace; :mod:`cardlab.bridge.suitplay_line`): its chance of each
    number of tricks is ``result.named``.

    >>> r = suitplay("AKJT", "5432", targets=[4])
    >>> r.targets[0].probability_exact
    Fraction(243, 460)
    """
    if defence not in DEFENCES:
        raise ConstraintError(f"defence {defence!r}: choose omniscient or random-equals")
    if scoring not in ("tricks", "mp", "imps"):
        raise ConstraintError(f"scoring {scoring!r}: choose tricks, mp or imps")
    if engine not in ENGINES:
        raise ConstraintError(f"engine {engine!r}: choose auto, core or python")
    ent = entries if isinstance(entries, tuple) else parse_entries(entries)
    if line is not None and ent != (None, None):
        raise ConstraintError("a line you name is played with unlimited entries: give --line without --entries")
    deal, places, plays = _setup(north, south, vacant, played)
    if defence == "random-equals" and any(seat in "WE" for seat, _ in plays):
        deal = _weigh_history(deal, plays, played or "")
    most = max(len(deal.north), len(deal.south))
    wanted = sorted(set(targets)) if targets is not None else list(range(1, most + 1))
    for t in wanted:
        if not 1 <= t <= most:
            raise ConstraintError(f"target {t} tricks: North {north!r} and South {south!r} can take 1 to {most} tricks")
    live = tuple((i, lay, tuple(len(g) - j for g, j in zip(deal.groups, lay))) for i, lay in enumerate(deal.layouts))
    solver = _Solver(deal, defence, ent, most)
    if engine == "core" or (engine == "auto" and _core_available()):
        frontier, plan_of = _core_frontier(deal, defence, ent, most, progress)
    else:
        frontier, plan_of = _python_frontier(solver, live, progress), _same
    # Every line's outcome is dominated by one on the frontier, so the best line for each
    # target (and for the mean) is a frontier element: one search answers every question.
    mass = _Masses(deal.weights)
    lines: list[TargetLine] = []
    for t in wanted:
        value, ref = max(frontier, key=lambda o: mass(o[0][t - 1]))
        lines.append(_line(deal, solver, plan_of(ref), t, Fraction(mass(value[t - 1]), mass.den), value, live))
    value, ref = max(frontier, key=lambda o: sum(mass(m) for m in o[0]))
    mean_line = _line(deal, solver, plan_of(ref), None, Fraction(sum(mass(m) for m in value), mass.den), value, live)
    named = _named(line, deal, defence, most) if line is not None else None
    rows = []
    for i, lay in enumerate(deal.layouts):
        tricks = {str(t.tricks): t.per_layout[i] for t in lines}
        tricks["mean"] = mean_line.per_layout[i]
        if named is not None:
            tricks["line"] = named.per_layout[i]
        west, east = _show_layout(deal, lay)
        rows.append(LayoutRow(west, east, deal.weights[i], tricks))
    missing = "".join(_card(r) for g in deal.groups for r in g) or "-"
    comparison = _compare(lines, mean_line, deal.weights, scoring, named) if scoring != "tricks" else None
    return SuitPlayResult(_show_hand(deal.north), _show_hand(deal.south), missing, places, defence, tuple(lines),
                          mean_line, tuple(rows), ent, plays, comparison, named)


def _named(text: str, deal: _Deal, defence: str, most: int) -> NamedLine:
    """The line the user named, replayed against every layout with the defence's best answers."""
    tree = line_tree(text, deal.north, deal.south, deal.groups, deal.layouts, defence)
    per = tuple(evaluate_tree(tree, deal.north, deal.south, deal.groups, lay, defence) for lay in deal.layouts)
    dist = tuple(sum((w for w, t in zip(deal.weights, per) if t == k), Fraction(0)) for k in range(most + 1))
    mean = sum((w * t for w, t in zip(deal.weights, per)), Fraction(0))
    return NamedLine(" ".join(text.split()), _words(tree), tree, dist, mean, per)


class _Masses:
    """The weight of a set of layouts (a bitmask) as a whole number over ``den``, eight layouts
    a table look-up: the same sums as adding the Fractions, without their cost."""

    def __init__(self, weights: Sequence[Fraction]) -> None:
        den = 1
        for w in weights:
            den = den * w.denominator // gcd(den, w.denominator)
        self.den = den
        ints = [w.numerator * (den // w.denominator) for w in weights]
        self.tables: list[list[int]] = []
        for c in range(0, len(ints), 8):
            chunk = ints[c:c + 8]
            table = [0] * 256
            for b in range(1, 1 << len(chunk)):
                low = b & -b
                table[b] = table[b ^ low] + chunk[low.bit_length() - 1]
            self.tables.append(table)
        self.known: dict[int, int] = {}  # a frontier repeats its masks: each summed once

    def __call__(self, mask: int) -> int:
        total = self.known.get(mask)
        if total is not None:
            return total
        total, rest = 0, mask
        for table in self.tables:
            if not rest:
                break
            total += table[rest & 255]
            rest >>= 8
        self.known[mask] = total
        return total


def _show_hand(hand: tuple[int, ...]) -> str:
    return "".join(_card(r) for r in hand) or "-"


def _show_layout(deal: _Deal, lay: tuple[int, ...]) -> tuple[str, str]:
    west: list[str] = []
    east: list[str] = []
    last = len(deal.groups) - 1
    for g, (cards, j) in enumerate(zip(deal.groups, lay)):
        shown = ["x" if g == last else _card(r) for r in cards]
        west += shown[:j]
        east += shown[j:]
    return "".join(west) or "-", "".join(east) or "-"


# ---------------------------------------------------------------------------------------------
# A plan as a tree, in words, and its tricks per layout


def _line(deal: _Deal, solver: _Solver, plan: Any, target: int | None, value: Fraction,
          masks: tuple[int, ...], live: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]) -> TargetLine:
    # lines for several targets are often one plan: build its tree once (plans live as long
    # as the solver, so their ids are stable here)
    tree = solver.trees.get(id(plan))
    if tree is None:
        tree = solver.trees[id(plan)] = _tree(solver, plan, _labels(deal.groups), deal.north, deal.south, (), live)
    per_layout = tuple(sum(m >> i & 1 for m in masks) for i in range(len(deal.layouts)))
    return TargetLine(target, value, _words(tree), tree, per_layout)


def _tree(solver: _Solver, plan: Any, labels: list[str], north: tuple[int, ...], south: tuple[int, ...],
          trick: tuple[tuple[str, int], ...], live: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]
          ) -> list[dict[str, Any]]:
    """The plan as a list of steps: ``{"play": "S:2"}`` for declarer's card, then
    ``{"if": {"W:x": [...], "W:K": [...]}}`` for a defender's card (one branch per card that
    can appear), each branch the rest of the tree; ``{"cash": n}`` when the defenders have no
    cards left and declarer takes his ``n`` remaining winners; ``{"stuck": true}`` when no hand
    with cards can be reached. The plan's cards are named as the solver names them; the tree
    names the actual cards, replaying the state."""
    steps: list[dict[str, Any]] = []
    while plan is not None:
        if plan[0] == "play":
            _, seat, name, plan = plan
            hand = north if seat == "N" else south
            card = solver.card(name, hand, live, trick)
            steps.append({"play": f"{seat}:{'-' if card < 0 else _card(card)}"})
            north, south = _remove(north, south, seat, card) if card >= 0 else (north, south)
            trick = trick + ((seat, card),)
            if len(trick) == 4:
                trick = ()
        elif plan[0] == "cash":
            steps.append({"cash": plan[1]})
            break
        elif plan[0] == "stuck":
            steps.append({"stuck": True})
            break
        else:
            _, seat, branches = plan
            shown = {}
            for token, child in branches.items():
                if token == "-":
                    sub = tuple(x for x in live if sum(x[1] if seat == "W" else x[2]) == 0)
                    rep = -1
                else:
                    sub = _follow(live, seat, token)
                    rep = solver.gtop[token[0]]
                t2 = trick + ((seat, rep),)
                shown[f"{seat}:{'-' if token == '-' else labels[token[0]]}"] = _tree(
                    solver, child, labels, north, south, () if len(t2) == 4 else t2, sub)
            steps.append({"if": dict(sorted(shown.items(), key=lambda kv: _order(kv[0])))})
            break
    return steps


def _words(tree: list[dict[str, Any]]) -> str:
    """The line in words: the cards of the main line (the defenders playing low), and what
    declarer does differently when another card appears."""
    text = " ".join(" ".join((s.text, *s.alternatives)) for s in line_steps(tree))
    return text if len(text) < 1500 else text[:1497] + "..."


@dataclass(frozen=True)
class LineStep:
    """One step of a line in words: the ``trick`` it belongs to (from 1), what is played
    (``text``), and when a defender plays, what declarer does instead if another card appears."""

    trick: int
    text: str
    alternatives: tuple[str, ...] = ()


def line_steps(tree: list[dict[str, Any]]) -> list[LineStep]:
    """The main line of a decision tree as steps (each play, with the alternatives after a
    defender's play); joined with spaces they are :attr:`TargetLine.line`.

    >>> [s.text for s in line_steps(suitplay("AQ", "32", targets=[2]).targets[0].tree)][:2]
    ['Lead the 2 from South;', 'West plays low:']
    """
    out: list[list[Any]] = []
    _say(tree, out, 0, 0)
    if out and out[-1][1][-1] in ";:" and not out[-1][2]:
        out[-1][1] = out[-1][1][:-1] + "."
    return [LineStep(trick, text, tuple(alts)) for trick, text, alts in out]


def _say(tree: list[dict[str, Any]], out: list[list[Any]], depth: int, position: int) -> None:
    for step in tree:
        trick = position // 4 + 1
        if "play" in step:
            seat, card = step["play"].split(":")
            if position % 4 == 0:
                out.append([trick, f"Lead the {card} from {_NAMES[seat]};" if position == 0 else
                            f"then lead the {card} from {_NAMES[seat]};", []])
            elif card == "-":
                out.append([trick, f"{_NAMES[seat]} discards;", []])
            else:
                out.append([trick, f"{_NAMES[seat]} plays the {card};", []])
            position += 1
        elif "cash" in step:
            out.append([trick, f"cash the {step['cash']} winner(s) left.", []])
        elif "stuck" in step:
            out.append([trick, "no entry to the hand with the cards left.", []])
        else:
            branches = step["if"]
            keys = list(branches)
            main = keys[0]
            seat, card = main.split(":")
            alternatives: list[str] = []
            out.append([trick, f"{_NAMES[seat]} {'shows out' if card == '-' else 'plays ' + _low(card)}"
                        + (";" if len(keys) == 1 else ":"), alternatives])
            main_next = _next_play(branches[main])
            if depth < 3:
                for k in keys[1:]:
                    nxt = _next_play(branches[k])
                    if nxt == main_next:
                        continue
                    c = k.split(":")[1]
                    who, card = nxt.split(":") if nxt else ("", "")
                    if not nxt:
                        what = "nothing more"
                    elif (position + 1) % 4 == 0:
                        what = f"lead the {card} from {_NAMES[who]}"
                    else:
                        what = f"{_NAMES[who]} plays the {card}" if card != "-" else f"{_NAMES[who]} discards"
                    alternatives.append(f"[if {'he shows out' if c == '-' else _low(c) + ' appears'}: {what}]")
            _say(branches[main], out, depth + 1, position + 1)
            return


def _low(card: str) -> str:
    return "low" if card == "x" else f"the {card}"


def _next_play(tree: list[dict[str, Any]]) -> str:
    for step in tree:
        if "play" in step:
            return str(step["play"])
    return ""


def evaluate_tree(tree: list[dict[str, Any]], north: Sequence[int], south: Sequence[int],
                  groups: Sequence[tuple[int, ...]], layout: Sequence[int], defence: str) -> int:
    """Tricks a line (its tree) takes against one layout (West's count in each static group of
    missing cards) when the defenders, knowing the layout and the line, hold declarer to as few
    tricks as they can. Every step of the tree names only cards seen, so this replays the line
    as declarer would; a tree that needs a branch the defence can avoid, or plays a card the
    hand does not hold, raises :class:`~cardlab.errors.ConstraintError`."""
    labels = _labels(groups)
    west = list(layout)
    east = [len(g) - j for g, j in zip(groups, layout)]
    return _walk(tree, list(north), list(south), west, east, [], list(groups), labels, defence, 0)


def _walk(tree: list[dict[str, Any]], north: list[int], south: list[int], west: list[int], east: list[int],
          trick: list[tuple[str, int]], groups: list[tuple[int, ...]], labels: list[str], defence: str,
          won: int) -> int:
    for step in tree:
        if "cash" in step:
            if sum(west) + sum(east):
                raise ConstraintError("the line cashes its winners while the defenders still hold cards")
            return won + max(len(north), len(south))
        if "stuck" in step:
            return won
        if "play" in step:
            seat, card = step["play"].split(":")
            rank = -1 if card == "-" else RANKS.index(card)
            hand = north if seat == "N" else south
            if (rank < 0) != (not hand) or (rank >= 0 and rank not in hand):
                raise ConstraintError(f"the line plays {seat}:{card}, which {_NAMES[seat]} cannot play")
            hand = [c for c in hand if c != rank]
            north, south = (hand, south) if seat == "N" else (north, hand)
            trick = trick + [(seat, rank)]
            if len(trick) == 4:
                won += max(trick, key=lambda sc: sc[1])[0] in "NS"
                trick = []
            continue
        branches = step["if"]
        seat = next(iter(branches)).split(":")[0]
        mine = west if seat == "W" else east
        results = []
        if not sum(mine):
            options = [("-", mine, -1)]
        else:
            live_ours = frozenset(north) | frozenset(south) | frozenset(c for s, c in trick if s in "NS")
            options = []
            names = {k.split(":")[1] for k in branches}
            for run in _runs(groups, live_ours, defence == "random-equals"):
                g = next((g for g in reversed(run) if mine[g]), None)
                if g is None:
                    continue
                new = list(mine)
                new[g] -= 1
                # the branch that names this card: its group's label, or (random-equals) the
                # label of the highest group of its run that the tree names
                label = next((labels[h] for h in run if h <= g and labels[h] in names), labels[g])
                options.append((label, new, groups[run[0]][0]))
        for label, new, rank in options:
            key = f"{seat}:{label}"
            if key not in branches:
                raise ConstraintError(f"the line has no answer when {_NAMES[seat]} plays {label}")
            w2, e2 = (new, east) if seat == "W" else (west, new)
            t2 = trick + [(seat, rank)]
            won2 = won
            if len(t2) == 4:
                won2 += max(t2, key=lambda sc: sc[1])[0] in "NS"
                t2 = []
            results.append(_walk(branches[key], north, south, w2, e2, t2, groups, labels, defence, won2))
        return min(results)
    return won


# ---------------------------------------------------------------------------------------------
# Lines against each other


def _compare(lines: list[TargetLine], mean_line: TargetLine, weights: Sequence[Fraction], scoring: str,
             named: NamedLine | None = None) -> Comparison:
    ids = [str(t.tricks) for t in lines] + ["mean"] + (["line"] if named is not None else [])
    per = {str(t.tricks): t.per_layout for t in lines}
    per["mean"] = mean_line.per_layout
    if named is not None:
        per["line"] = named.per_layout
    scores: dict[str, dict[str, float]] = {a: {} for a in ids}
    if scoring == "mp":
        for a in ids:
            for b in ids:
                s = sum((w * (Fraction(1) if x > y else Fraction(1, 2) if x == y else Fraction(0))
                         for w, x, y in zip(weights, per[a], per[b])), Fraction(0))
                scores[a][b] = float(s)
        wins = {a: sum(1 for b in ids if scores[a][b] > 0.5) for a in ids}
        best = max(ids, key=lambda a: (wins[a], sum(scores[a].values())))
    else:
        from cardlab.scoring.matchpoints import imps

        target = max(t.tricks for t in lines if t.tricks is not None)
        for a in ids:
            for b in ids:
                diffs = [_points(x, target) - _points(y, target) for x, y in zip(per[a], per[b])]
                values = imps(diffs)
                scores[a][b] = float(sum((w * int(v) for w, v in zip(weights, values)), Fraction(0)))
        best = max(ids, key=lambda a: sum(scores[a].values()))
    cycle = _cycle(ids, scores, 0.5 if scoring == "mp" else 0.0)
    return Comparison(scoring, scores, best, cycle)


def _points(tricks: int, target: int) -> int:
    """A non-vulnerable game needing ``target`` tricks from the suit: 420 made (+30 per extra
    trick), -50 per trick short."""
    return 420 + 30 * (tricks - target) if tricks >= target else -50 * (target - tricks)


def _cycle(ids: list[str], scores: dict[str, dict[str, float]], even: float) -> tuple[str, ...]:
    beats = {a: [b for b in ids if scores[a][b] > even + 1e-12] for a in ids}
    for a in ids:
        for b in beats[a]:
            for c in beats[b]:
                if a in beats[c] and len({a, b, c}) == 3:
                    return (a, b, c)
    return ()
