"""A line of play the user names, as a tree that suit play can replay (``bridge suitplay
--line``; docs/suitplay.md).

A line is declarer's cards trick by trick, tricks separated by ``;``: ``"S:x N:Q; N:A"`` is
"lead low from South and finesse the queen, then cash the ace". Each trick names the lead
(``SEAT:CARD``: ``N`` or ``S``, a rank or ``x`` for the hand's lowest card) and may name the
other hand's card. The rules that fill in the rest, so that a short line reads as a player says
it:

- the other hand, when its card is not named, wins the trick as cheaply as it can if a
  defender's card is winning it, and else plays low (second and fourth hand);
- a named card other than ``x`` is played unless a defender's card already played to the trick
  beats it: then the hand wins as cheaply as it can, or plays low (the queen finessed, the king
  covered by the ace); ``x`` is always the lowest card (a duck);
- a named card the hand no longer holds (it won an earlier trick in this branch) gives way to
  the hand's highest card when leading, to the rule above when following;
- after the named tricks, and with the word ``cash``, declarer leads his highest card from the
  hand that holds it, trick after trick, until his cards are gone.

The defenders' cards are the tree's branches (every card they can show), answered as suit play
answers them (:func:`cardlab.bridge.suitplay.evaluate_tree`). Declarer may lead from either
hand each trick (unlimited entries).

>>> parse_line("S:x N:Q; N:A")
(((('S', -1), ('N', 10)), (('N', 12),)), False)
>>> parse_line("Sx NQ, cash")
(((('S', -1), ('N', 10)),), True)
>>> parse_line("S:x W:K")
Traceback (most recent call last):
...
cardlab.errors.ConstraintError: line 'S:x W:K': 'W:K' is not declarer's card (N:CARD or S:CARD, CARD a rank or x)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

from cardlab.bridge.suitplay_groups import branch_order, labels, runs
from cardlab.cards import RANKS
from cardlab.errors import ConstraintError, DeckError

__all__ = ["parse_line", "line_tree", "NamedLine", "MAX_LINE"]

#: The longest line text read (characters).
MAX_LINE = 400
_AFTER = {"N": "E", "E": "S", "S": "W", "W": "N"}
_NAMES = {"N": "North", "S": "South"}
Plays = tuple[tuple[tuple[str, int], ...], ...]


def parse_line(text: str) -> tuple[Plays, bool]:
    """The tricks of a named line, each a tuple of (seat, rank) plays (rank -1 for ``x``), and
    whether it ends with ``cash`` (the default continuation, said out loud)."""
    if len(text) > MAX_LINE:
        raise ConstraintError(f"line {text[:40]!r}...: a line has at most {MAX_LINE} characters")
    parts = [p.strip() for p in re.split(r"[;,]", text)]
    cash = bool(parts) and parts[-1].lower() == "cash"
    if cash:
        parts = parts[:-1]
    if not parts or any(not p for p in parts):
        raise ConstraintError(f"line {text!r}: give the tricks separated by ';', e.g. 'S:x N:Q; N:A'")
    tricks: list[tuple[tuple[str, int], ...]] = []
    for part in parts:
        plays: list[tuple[str, int]] = []
        for token in part.split():
            match = re.fullmatch(r"([NSns]):?(10|[AKQJTakqjt2-9xX])", token)
            if not match:
                raise ConstraintError(f"line {text!r}: {token!r} is not declarer's card (N:CARD or S:CARD, "
                                      "CARD a rank or x)")
            card = match.group(2).upper()
            plays.append((match.group(1).upper(), -1 if card == "X" else RANKS.index("T" if card == "10" else card)))
        if len(plays) > 2 or (len(plays) == 2 and plays[0][0] == plays[1][0]):
            raise ConstraintError(f"line {text!r}: trick {part!r} names the lead and at most the other hand's card")
        tricks.append(tuple(plays))
    if len(tricks) > 13:
        raise ConstraintError(f"line {text!r}: a suit has at most 13 tricks")
    return tuple(tricks), cash


@dataclass(frozen=True)
class NamedLine:
    """A line the user named: its text, the line in words, its tree, the chance of exactly
    ``k`` tricks for k = 0 .. the most, the mean, and the tricks against each layout."""

    text: str
    line: str
    tree: list[dict[str, Any]]
    distribution: tuple[Fraction, ...]
    mean_exact: Fraction
    per_layout: tuple[int, ...]

    def at_least(self, tricks: int) -> Fraction:
        """The chance of ``tricks`` tricks or more."""
        return sum(self.distribution[tricks:], Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        """The line as JSON-ready data: ``text``, ``line``, ``tree``, ``distribution`` (tricks ->
        probability and exact ratio), ``mean``, ``mean_exact``."""
        return {"text": self.text, "line": self.line, "tree": self.tree,
                "distribution": [{"tricks": k, "probability": float(p), "probability_exact": f"{p.numerator}/{p.denominator}"}
                                 for k, p in enumerate(self.distribution)],
                "mean": float(self.mean_exact),
                "mean_exact": f"{self.mean_exact.numerator}/{self.mean_exact.denominator}"}


def line_tree(text: str, north: Sequence[int], south: Sequence[int], groups: Sequence[tuple[int, ...]],
              layouts: Sequence[tuple[int, ...]], defence: str) -> list[dict[str, Any]]:
    """The named line ``text`` as a tree (the steps of docs/suitplay.md) for declarer's
    ``north`` and ``south`` ranks against the missing ``groups``, with a branch for every card
    the defenders can show in one of the ``layouts`` (West's count per group)."""
    plays, _ = parse_line(text)
    held = {"N": set(north), "S": set(south)}
    for trick in plays:
        for seat, rank in trick:
            if rank >= 0 and rank not in held[seat]:
                raise DeckError(f"line {text!r}: {_NAMES[seat]} does not hold the {RANKS[rank]} "
                                f"({''.join(RANKS[r] for r in sorted(held[seat], reverse=True)) or 'a void'})")
    most = max(len(north), len(south))
    if len(plays) > most:
        raise ConstraintError(f"line {text!r} names {len(plays)} tricks; declarer's cards last {most}")
    builder = _Builder(text, plays, groups, defence == "random-equals")
    states = [(list(lay), [len(g) - j for g, j in zip(groups, lay)]) for lay in layouts]
    return builder.build(tuple(sorted(north, reverse=True)), tuple(sorted(south, reverse=True)), (), 0, states)


class _Builder:
    def __init__(self, text: str, plays: Plays, groups: Sequence[tuple[int, ...]], merge: bool) -> None:
        self.text, self.plays, self.groups, self.merge = text, plays, list(groups), merge
        self.labels = labels(groups)

    def build(self, north: tuple[int, ...], south: tuple[int, ...], trick: tuple[tuple[str, int], ...],
              done: int, states: list[tuple[list[int], list[int]]]) -> list[dict[str, Any]]:
        steps: list[dict[str, Any]] = []
        while True:
            if len(trick) == 4:
                trick, done = (), done + 1
            if not trick:
                if not north and not south:
                    return steps
                seat = self._leader(north, south, done)
            else:
                seat = _AFTER[trick[-1][0]]
            if seat in "NS":
                hand = north if seat == "N" else south
                card = self._card(seat, hand, trick, done)
                steps.append({"play": f"{seat}:{'-' if card < 0 else RANKS[card]}"})
                if card >= 0:
                    rest = tuple(c for c in hand if c != card)
                    north, south = (rest, south) if seat == "N" else (north, rest)
                trick = trick + ((seat, card),)
                continue
            branches: dict[str, tuple[int, list[tuple[list[int], list[int]]]]] = {}
            for west, east in states:
                for label, new, rank in self._options(seat, west, east, north, south, trick):
                    entry = branches.setdefault(f"{seat}:{label}", (rank, []))
                    entry[1].append((new, east) if seat == "W" else (west, new))
            steps.append({"if": {key: self.build(north, south, trick + ((seat, rank),), done, sub)
                                 for key, (rank, sub) in sorted(branches.items(), key=lambda kv: branch_order(kv[0]))}})
            return steps

    def _leader(self, north: tuple[int, ...], south: tuple[int, ...], done: int) -> str:
        if done < len(self.plays):
            seat = self.plays[done][0][0]
            if not (north if seat == "N" else south):
                raise ConstraintError(f"line {self.text!r}: trick {done + 1} is led from {_NAMES[seat]}, "
                                      "which has no cards left")
            return seat
        if not south or (north and north[0] > south[0]):
            return "N"
        return "S"

    def _card(self, seat: str, hand: tuple[int, ...], trick: tuple[tuple[str, int], ...], done: int) -> int:
        if not hand:
            return -1
        named = [r for s, r in (self.plays[done] if done < len(self.plays) else ()) if s == seat]
        if not trick:  # the lead: the named card, or (cash) the highest
            rank = named[0] if named else hand[0]
            return hand[-1] if rank < 0 else (rank if rank in hand else hand[0])
        if named and named[0] < 0:
            return hand[-1]
        best_seat, best = max(trick, key=lambda sc: sc[1])
        if named and named[0] in hand and (best_seat in "NS" or named[0] > best):
            return named[0]
        if best_seat in "NS":
            return hand[-1]
        above = [c for c in hand if c > best]
        return min(above) if above else hand[-1]

    def _options(self, seat: str, west: list[int], east: list[int], north: tuple[int, ...], south: tuple[int, ...],
                 trick: tuple[tuple[str, int], ...]) -> list[tuple[str, list[int], int]]:
        """The cards the defender can show in this state, as evaluate_tree reads them: (label,
        his counts after it, the rank it counts as in the trick)."""
        mine = west if seat == "W" else east
        if not sum(mine):
            return [("-", mine, -1)]
        ours = frozenset(north) | frozenset(south) | frozenset(c for s, c in trick if s in "NS")
        out = []
        for run in runs(self.groups, ours, self.merge):
            g = next((g for g in reversed(run) if mine[g]), None)
            if g is None:
                continue
            new = list(mine)
            new[g] -= 1
            out.append((self.labels[run[0]], new, self.groups[run[0]][0]))
        return out
