"""Bidding strategies as rules from a deal to a contract and declarer (``bridge compare``).

A rule is one of::

    4S by N                      a fixed contract (doubled: 4SX by N)
    pass                         the board passed out (score 0)
    pass 2H by W                 we pass and the opponents play their contract
    best of 4S by N, 3NT by S    whichever of the contracts scores more double dummy for its side
    4H by N if hearts(north) + hearts(south) >= 8 else 3NT by S

the condition being any expression of the dealer script language (docs/dealer.md); ``else``
may be followed by another ``... if ... else ...``.

>>> rule = parse_rule("4H by N if hearts(north) + hearts(south) >= 8 else best of 3NT by S, 5C by N")
>>> [str(c) for c in rule.choices], len(rule.tests)
(['4H by N', 'best of 3NT by S, 5C by N'], 1)
>>> parse_rule("4H by X")
Traceback (most recent call last):
...
cardlab.errors.ContractError: unknown seat 'X' in '4H by X' (N, E, S or W)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.board import SEATS
from cardlab.bridge.dd import parse_strain
from cardlab.errors import CardlabError, ContractError
from cardlab.scoring.contract import Contract
from cardlab.textfile import excerpt

__all__ = ["Play", "Choice", "Rule", "parse_rule", "MAX_RULE_TEXT"]

#: Longest rule text accepted (characters).
MAX_RULE_TEXT = 2000
_PLAY = re.compile(r"\s*(\S+)\s+by\s+(\S+)\s*", re.IGNORECASE)
_IF = re.compile(r"\s+if\s+", re.IGNORECASE)
_ELSE = re.compile(r"\s+else\s+", re.IGNORECASE)
_BEST = re.compile(r"\s*(?:the\s+)?(?:best|better)\s+of\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Play:
    """One contract by one declarer (seat 0..3, N E S W); ``declarer`` -1: passed out."""

    contract: Contract
    declarer: int

    @property
    def passed_out(self) -> bool:
        """Whether no one plays (the board is passed out)."""
        return self.contract.is_pass

    @property
    def key(self) -> tuple[int, int]:
        """``(declarer, strain index)``: what double dummy must solve for this play."""
        return self.declarer, parse_strain(self.contract.strain.value)  # type: ignore[union-attr]

    @property
    def ns_side(self) -> bool:
        """Whether North-South declare."""
        return self.declarer in (0, 2)

    def __str__(self) -> str:
        return "pass" if self.passed_out else f"{self.contract} by {SEATS[self.declarer]}"


@dataclass(frozen=True)
class Choice:
    """What a rule picks on a deal: one play, or the best of several double dummy."""

    plays: tuple[Play, ...]

    def __str__(self) -> str:
        if len(self.plays) == 1:
            return str(self.plays[0])
        return "best of " + ", ".join(map(str, self.plays))


@dataclass(frozen=True)
class Rule:
    """A strategy: ``choices[i]`` is taken on the deals where ``tests[i]`` is the first true test
    (the last choice when none is); ``script`` holds the tests as variables ``t0``, ``t1``, ..."""

    text: str
    choices: tuple[Choice, ...]
    tests: tuple[str, ...]
    script: Any = None  # a dealer Script, None when there is no test

    def __str__(self) -> str:
        """The rule in its own notation (``parse_rule(str(rule))`` reads it back)."""
        parts = [f"{choice} if {test.strip()} else " for choice, test in zip(self.choices, self.tests)]
        return "".join(parts) + str(self.choices[-1])

    def pick(self, owner: np.ndarray, seed: np.random.SeedSequence | None = None) -> np.ndarray:
        """The index of the choice taken on each deal, from ``owner[52, n]`` (the seat of each card);
        ``seed`` drives the conditions' ``rnd()``."""
        n = owner.shape[1]
        pick = np.full(n, len(self.choices) - 1, dtype=np.int64)
        if not self.tests:
            return pick
        from cardlab.bridge.dealer.evaluate import Evaluator
        from cardlab.bridge.dealer.functions import Hands, Tables

        hands = Hands.from_owner(owner, Tables.standard(), np.random.default_rng(seed))
        evaluator = Evaluator.for_script(self.script)
        variables = self.script.variable_map()
        open_ = np.ones(n, dtype=bool)
        for i in range(len(self.tests)):
            hit = open_ & evaluator.truth(variables[f"t{i}"], hands)
            pick[hit] = i
            open_ &= ~hit
        return pick


def _quoted(text: str) -> str:
    """A rule in an error message: at most 60 characters of it."""
    return f"'{excerpt(text.strip())}'"


def _seat(word: str, text: str) -> int:
    key = word.strip().upper()[:1]
    if word.strip().upper() not in ("N", "E", "S", "W", "NORTH", "EAST", "SOUTH", "WEST"):
        raise ContractError(f"unknown seat {_quoted(word)} in {_quoted(text)} (N, E, S or W)")
    return SEATS.index(key)


def _play(part: str, text: str) -> Play:
    match = _PLAY.fullmatch(part)
    if not match:
        raise ContractError(f"expected 'CONTRACT by SEAT' (e.g. 4S by N), got {_quoted(part)} in {_quoted(text)}")
    contract = Contract.parse(match.group(1))
    if contract.is_pass:
        raise ContractError(f"a contract to play is needed, not {match.group(1)!r} in {_quoted(text)}")
    return Play(contract, _seat(match.group(2), text))


def _choice(part: str, text: str) -> Choice:
    words = part.strip()
    if words.lower() == "pass":
        return Choice((Play(Contract(0), -1),))
    if words.lower().startswith("pass "):
        return Choice((_play(words[5:], text),))
    best = _BEST.match(words)
    if best:
        plays = tuple(_play(p, text) for p in words[best.end():].split(","))
        if len(plays) < 2:
            raise ContractError(f"'best of' needs two contracts or more, separated by commas, in {_quoted(text)}")
        if len({p.ns_side for p in plays}) > 1:
            raise ContractError(f"'best of' compares contracts of one side: {_quoted(text)} mixes North-South "
                                "and East-West")
        return Choice(plays)
    return Choice((_play(words, text),))


def parse_rule(text: str) -> Rule:
    """Read a strategy rule (see the module's help); errors name the part not understood."""
    if not isinstance(text, str) or not text.strip():
        raise ContractError("a strategy rule is needed, e.g. '4S by N'")
    if len(text) > MAX_RULE_TEXT or "\n" in text:
        raise ContractError(f"a strategy rule is one line of at most {MAX_RULE_TEXT} characters")
    choices: list[Choice] = []
    tests: list[str] = []
    rest = text
    while True:
        found = _IF.search(rest)
        if not found:
            choices.append(_choice(rest, text))
            break
        choices.append(_choice(rest[:found.start()], text))
        after = rest[found.end():]
        other = _ELSE.search(after)
        if not other:
            raise ContractError(f"'if' needs an 'else' in {_quoted(text)}")
        tests.append(after[:other.start()])
        rest = after[other.end():]
    script = None
    if tests:
        from cardlab.bridge.dealer import parse_script

        lines = "".join(f"t{i} = {t}\n" for i, t in enumerate(tests))
        try:
            script = parse_script(lines, source="strategy")
        except CardlabError as exc:
            raise ContractError(f"in the condition of {_quoted(text)}: {exc}") from None
    return Rule(text.strip(), tuple(choices), tuple(tests), script)
