"""Levelling: hand types in the shares a teacher chooses, with their natural frequencies.

A script's produced deals are split into types by expressions in the dealer language
(the first type whose expression holds); a levelled set has exactly the requested
number of deals of each type, each drawn from the script's deals of that type (the
script's condition and the type's expression, and no earlier type's). The natural
frequency of a type, how often it occurs among the script's deals, is exact when the
condition and the type look at one seat through points and suit lengths (the class
counts of :mod:`cardlab.bridge.dealer.conditional`, the same counting as
:mod:`cardlab.bridge.tables`), else simulated with a 95% Wilson interval.

>>> [(l.name, l.text, str(l.share)) for l in parse_levels("major=hearts(north)>=5 || spades(north)>=5:1/2, other:50%")]
[('major', 'hearts(north)>=5 || spades(north)>=5', '1/2'), ('other', '1', '1/2')]
>>> level_counts(parse_levels("a=spades(north)>=5:60%,b:30%"), 10)
Traceback (most recent call last):
...
cardlab.errors.ConstraintError: level shares add up to 9/10, not 1: a 60%, b 30%
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import Any, Sequence

from cardlab.results import JsonText
from cardlab.textformat import percent
from cardlab.errors import ConstraintError, DealerScriptError

__all__ = ["Level", "parse_levels", "script_levels", "level_counts", "LevelReport", "compile_levels",
           "natural_frequencies"]

_SHARE = re.compile(r"\s*(\d+(?:\.\d+)?%|\d+/\d+|\d*\.\d+|[01])\s*")


@dataclass(frozen=True)
class Level:
    """A hand type: its name, its expression (dealer language; ``1`` for "the rest") and share
    (None: equal shares)."""

    name: str
    text: str
    share: Fraction | None = None


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside parentheses and quotes."""
    parts, depth, start, quote = [], 0, 0, False
    for i, ch in enumerate(text):
        if ch == '"':
            quote = not quote
        elif not quote and ch == "(":
            depth += 1
        elif not quote and ch == ")":
            depth -= 1
        elif not quote and depth == 0 and ch == sep:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _share(text: str, whole: str) -> Fraction:
    token = text.strip()
    try:
        value = Fraction(token[:-1]) / 100 if token.endswith("%") else Fraction(token)
    except (ValueError, ZeroDivisionError):
        raise ConstraintError(f"cannot read share {token!r} in {whole!r}: write 50%, 1/2 or 0.5") from None
    if not 0 < value <= 1:
        raise ConstraintError(f"share {token!r} in {whole!r} must be more than 0 and at most 100%")
    return value


def _level(item: str, whole: str) -> Level:
    name, sep, rest = item.partition("=")
    if not sep and ":" in item:  # "other:50%": the rest of the deals
        name, _, given = item.rpartition(":")
        rest = "1:" + given
    elif not sep:
        name, rest = item, "1"
    name = name.strip()
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", name):
        raise ConstraintError(f"level {item.strip()!r} in {whole!r}: write NAME=EXPR:SHARE (NAME a word)")
    pieces = _split_top(rest, ":")
    share: Fraction | None = None
    if len(pieces) > 1 and _SHARE.fullmatch(pieces[-1]):
        share = _share(pieces[-1], whole)
        rest = ":".join(pieces[:-1])
    if not rest.strip():
        raise ConstraintError(f"level {name!r} in {whole!r} has no expression")
    return Level(name, rest.strip(), share)


def parse_levels(text: str) -> tuple[Level, ...]:
    """``"NAME=EXPR:SHARE,..."``: shares as ``50%``, ``1/2`` or ``0.5``, all given or none (equal
    shares); ``NAME:SHARE`` or ``NAME`` alone is "every other deal".

    >>> [level.name for level in parse_levels("major=spades(north)>=5:50%,other:50%")]
    ['major', 'other']
    """
    items = [p for p in _split_top(text, ",") if p.strip()]
    if not items:
        raise ConstraintError(f"the levels {text!r} name no hand types")
    levels = tuple(_level(item, text) for item in items)
    names = [level.name for level in levels]
    for name in names:
        if names.count(name) > 1:
            raise ConstraintError(f"level {name!r} is named twice in {text!r}")
    given = [level.share is not None for level in levels]
    if any(given) and not all(given):
        missing = ", ".join(level.name for level in levels if level.share is None)
        raise ConstraintError(f"give every level a share or none (equal shares): no share for {missing} in {text!r}")
    return levels


_DECLARED = re.compile(r"^[ \t]*#[ \t]*level[ \t]+(.+?)[ \t]*$", re.MULTILINE)


def script_levels(text: str) -> tuple[Level, ...]:
    """Levels declared in a script by comment lines ``# level NAME = EXPR : SHARE`` (the C dealer
    reads them as comments, so the script still runs there).

    >>> script_levels("# level nomajor = shape(north, any 4333 + any 4432) : 50%\\n# level major : 50%\\n")
    (Level(name='nomajor', text='shape(north, any 4333 + any 4432)', share=Fraction(1, 2)), Level(name='major', text='1', share=Fraction(1, 2)))
    """
    found = _DECLARED.findall(text)
    if not found:
        return ()
    return parse_levels(",".join(found))


def level_counts(levels: Sequence[Level], boards: int) -> list[int]:
    """How many boards of each type: ``share × boards``, which must be whole numbers, the shares
    adding up to exactly 1 (equal shares when none is given)."""
    shares = [level.share if level.share is not None else Fraction(1, len(levels)) for level in levels]
    total = sum(shares, Fraction(0))
    if total != 1:
        listed = ", ".join(f"{level.name} {_pct(s)}" for level, s in zip(levels, shares))
        raise ConstraintError(f"level shares add up to {total}, not 1: {listed}")
    counts = []
    for level, share in zip(levels, shares):
        count = share * boards
        if count.denominator != 1:
            raise ConstraintError(f"level {level.name!r}: {_pct(share)} of {boards} boards is {float(count):g}, not a "
                                  f"whole number of boards; choose a number of boards the shares divide")
        counts.append(int(count))
    return counts


def _pct(share: Fraction) -> str:
    return percent(share, trim=True)


def compile_levels(text: str, source: str | None, levels: Sequence[Level]) -> list[Any]:
    """Each level's expression as a tree, parsed in the script's context (its variables), and
    the condition of each type: the expression and no earlier one's."""
    from cardlab.bridge.dealer.parser import Binary, Unary, parse_script

    trees = []
    for level in levels:
        try:
            trees.append(parse_script(f"{text}\ncondition {level.text}\n", source).condition)
        except DealerScriptError as error:
            raise ConstraintError(f"level {level.name!r}: cannot read {level.text!r}: {error.reason}") from None
    types = []
    for i, tree in enumerate(trees):
        node = tree
        for earlier in trees[:i]:
            node = Binary("&&", node, Unary("!", earlier))
        types.append(node)
    return types


@dataclass(frozen=True)
class LevelReport(JsonText):
    """One type of a levelled set: boards dealt and share asked; its natural frequency among the
    script's deals, exact (``natural``) or simulated (``simulated`` successes of ``trials``, with
    ``interval``)."""

    name: str
    expression: str
    boards: int
    share: Fraction
    natural: Fraction | None = None
    simulated: int | None = None
    trials: int | None = None
    interval: tuple[float, float] | None = None

    def frequency_text(self) -> str:
        """The type's natural frequency in words: exact where counted, else with its interval."""
        if self.natural is not None:
            return f"{100 * float(self.natural):.3f}% exact ({self.natural})"
        if self.simulated is not None and self.trials and self.interval:
            lo, hi = self.interval
            return (f"{100 * self.simulated / self.trials:.2f}% simulated ({self.simulated:,} of {self.trials:,}; "
                    f"95% interval {100 * lo:.2f}% - {100 * hi:.2f}%)")
        return "unknown"

    def to_dict(self) -> dict[str, Any]:
        """The level as a JSON-ready dict (boards, share, natural frequency)."""
        out: dict[str, Any] = {"name": self.name, "expression": self.expression, "boards": self.boards,
                               "share": float(self.share), "share_exact": str(self.share)}
        if self.natural is not None:
            out["natural"] = float(self.natural)
            out["natural_exact"] = f"{self.natural.numerator}/{self.natural.denominator}"
        if self.simulated is not None and self.interval is not None:
            out["natural"] = self.simulated / (self.trials or 1)
            out["simulated"] = {"count": self.simulated, "trials": self.trials, "ci95": list(self.interval)}
        return out


def natural_frequencies(script: Any, types: Sequence[Any], *, trials: int, seed: Any, generate: int | None = None,
                        workers: int = 1, executor: Any = None) -> list[tuple[Fraction | None, int | None, int | None,
                                                                              tuple[float, float] | None]]:
    """Each type's share of the script's deals: exact from the one-seat class counts when they
    apply to the script and to every type, else from ``trials`` produced deals (Wilson 95%)."""
    from cardlab.bridge.dealer.conditional import ConditionalPlan
    from cardlab.bridge.dealer.parser import Action
    from cardlab.bridge.dealer.runner import run_script
    from cardlab.distribution import wilson

    from cardlab.bridge.dealer.parser import Num, deep_recursion

    with deep_recursion():  # the types' expressions may nest as deep as a script's (docs/reliability.md)
        base = ConditionalPlan.build(script)
        hands = base.accepted_hands if base is not None else None
        if hands is None and script.condition == Num(1) and not script.predeal and script.pointcount == type(
                script).pointcount:
            hands = comb(52, 13)  # no condition: every hand of the seat the types look at
        plans = [ConditionalPlan.build(replace(script, condition=_and(script.condition, t)))
                 for t in types] if hands is not None else []
    if hands is not None:
        if all(p is not None for p in plans):
            return [(Fraction(p.accepted_hands, hands), None, None, None) for p in plans if p is not None]
    actions = tuple(Action("average", f"type {i}", exprs=(t,)) for i, t in enumerate(types))
    result = run_script(replace(script, actions=actions, default_action=False), produce=trials, generate=generate,
                        seed=seed, quiet=True, workers=workers, executor=executor)
    out: list[tuple[Fraction | None, int | None, int | None, tuple[float, float] | None]] = []
    for stat in result.averages:
        interval = wilson(stat.total, stat.count)
        out.append((None, int(stat.total), int(stat.count), (float(interval.low), float(interval.high))))
    return out


def _and(left: Any, right: Any) -> Any:
    from cardlab.bridge.dealer.parser import Binary

    return Binary("&&", left, right)
