"""The command line's suggestions: "did you mean" for commands, options and choices, and the fix
for errors that have an obvious one (issue 40).

Two places only, so the commands themselves stay as they are:

- :class:`SuggestingParser`, the argparse parser of every command: a usage error is one line that
  ends with the nearest spelling (:func:`difflib.get_close_matches`) or the accepted form;
- :func:`with_hint`, applied by ``cli.main`` to a library error's message: the option to add or
  the syntax to use, when the message and the command's arguments say what it is.

>>> closest("brige", ["bridge", "poker", "serve"])
'bridge'
>>> closest("xyz", ["bridge", "poker"]) is None
True
"""

from __future__ import annotations

import argparse
import difflib
import re
from typing import Any, NoReturn, Sequence

__all__ = ["SuggestingParser", "closest", "with_hint", "read_as_note", "HINTS"]


def closest(word: str, choices: Sequence[str]) -> str | None:
    """The choice nearest ``word`` in spelling (ratio 0.6 or more; case ignored), if any."""
    lowered = {c.lower(): c for c in choices}
    found = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    if not found and len(word) >= 2:  # an abbreviation: the one choice starting with it
        starts = [c for c in lowered if c.startswith(word.lower())]
        found = starts if len(starts) == 1 else []
    return lowered[found[0]] if found else None


class SuggestingParser(argparse.ArgumentParser):
    """argparse with usage errors on one line that say how to fix them (the usage itself is one
    ``--help`` away): a misspelt command, option or choice gets "did you mean ...", numbers left
    after an option that takes a list get the comma-separated form."""

    #: The parser (group, command) that parsed last in this process, and the words it was given:
    #: an unrecognized argument is reported by the top parser, but it belongs to the deepest one.
    _deepest: "SuggestingParser | None" = None
    _words: list[str] = []

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        SuggestingParser._deepest = self
        if args is not None and self.prog == "cardlab":
            SuggestingParser._words = list(args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        where = self
        if message.startswith("unrecognized arguments") and SuggestingParser._deepest is not None:
            where = SuggestingParser._deepest  # the command whose options they were meant for
        self.exit(2, f"{self.prog}: error: {message}{where._hint(message)} (see '{where.prog} --help')\n")

    def _hint(self, message: str) -> str:
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            options = re.findall(r"'([^']*)'", choice.group(2)) or [c.strip() for c in choice.group(2).split(",")]
            near = closest(choice.group(1), options)
            return f"; did you mean '{near}'?" if near else ""
        extra = re.match(r"unrecognized arguments: (.*)", message)
        if extra:
            return _unrecognized(extra.group(1).split(), self)
        if message.startswith("the following arguments are required"):
            known = {name for action in self._actions for name in action.option_strings}
            typed = [w for w in SuggestingParser._words if w.startswith("--") and w.split("=")[0] not in known]
            misspelt = _unrecognized(typed, self) if typed else ""
            if misspelt:  # the required option was there, misspelt
                return misspelt
            example = _example(self)
            return f"; for example: {example}" if example else ""
        return ""


def _unrecognized(words: list[str], parser: argparse.ArgumentParser) -> str:
    """The fix for words no option took: a misspelt option's nearest name, or, for numbers typed
    as separate words where a comma-separated list is read, the command with each list joined."""
    options = [name for action in parser._actions for name in action.option_strings]
    for word in words:
        if word.startswith("-") and not _is_number(word):
            near = closest(word.split("=", 1)[0], [o for o in options if o.startswith("--")] or options)
            if near:
                return f"; did you mean '{near}'?"
    if words and all(_is_number(w) for w in words):
        fixed = " ".join(_joined_lists(SuggestingParser._words))
        return f"; a list is one comma-separated word: cardlab {fixed}"
    return ""


def _joined_lists(typed: list[str]) -> list[str]:
    """The words typed, each run of numbers joined with commas (``50 30 20`` -> ``50,30,20``)."""
    out: list[str] = []
    for word in typed:
        if _is_number(word) and out and _is_number(out[-1]):
            out[-1] = f"{out[-1].rstrip(',')},{word.rstrip(',')}"
        else:
            out.append(word)
    return out


def _is_number(word: str) -> bool:
    number = r"-?\d+(\.\d+)?(/\d+)?"
    return re.fullmatch(rf"{number}(,{number})*,?", word) is not None


def _example(parser: argparse.ArgumentParser) -> str | None:
    """The example a command's description gives ("Example: cardlab ..."), if any."""
    found = re.search(r"Example: (cardlab [^\n]*?)(?:\.\s|$)", parser.description or "")
    return found.group(1) if found else None


#: (pattern of a library error's message, the fix to add, the arguments that make it apply).
HINTS: list[tuple[str, str, dict[str, Any]]] = [
    (r"a holdem hand has 2 cards; '[^']*' has 4", "use --game omaha for 4-card hands", {"game": "holdem"}),
    (r"a holdem hand has 2 cards; '[^']*' has 5", "use --game omaha5 for 5-card hands", {"game": "holdem"}),
    (r"a holdem hand has 2 cards; '[^']*' has 6", "use --game omaha6 for 6-card hands", {"game": "holdem"}),
    (r"an omaha\d? hand has \d cards; '[^']*' has 2\b", "2-card hands are hold'em: leave out --game "
     "(hold'em is the default)", {}),
    (r"an omaha\d? hand has \d cards; '[^']*' has 4\b", "use --game omaha for 4-card hands", {}),
    (r"an omaha\d? hand has \d cards; '[^']*' has 5\b", "use --game omaha5 for 5-card hands", {}),
    (r"an omaha\d? hand has \d cards; '[^']*' has 6\b", "use --game omaha6 for 6-card hands", {}),
    (r"expected MEASURE=VALUE", "write each measure as MEASURE=VALUE, e.g. \"hcp=15-17 shape=balanced\" "
     "(measures: hcp, controls, spades, hearts, diamonds, clubs, shape)", {}),
]


def with_hint(message: str, args: argparse.Namespace | None = None) -> str:
    """A library error's message with the fix it calls for, when one of :data:`HINTS` applies.

    >>> with_hint("a holdem hand has 2 cards; 'AsKsQsJs' has 4", argparse.Namespace(game="holdem"))
    "a holdem hand has 2 cards; 'AsKsQsJs' has 4: use --game omaha for 4-card hands"
    >>> with_hint("no such card 'Zz'")
    "no such card 'Zz'"
    """
    unknown = re.search(r"unknown [\w -]+ '([^']+)'.*?(?:known: |one of )([^;)]*)", message)
    if unknown:
        near = closest(unknown.group(1), [w.strip() for w in unknown.group(2).split(",")])
        if near:
            return f"{message}; did you mean '{near}'?"
    for pattern, fix, needs in HINTS:
        if re.search(pattern, message) and all(getattr(args, k, v) == v for k, v in needs.items()):
            return f"{message}: {fix}"
    return message


_HANDLIKE = re.compile(r"([2-9TJQKAXx][a-z]){2,6}")


def read_as_note(spec: str, game: str = "holdem") -> str | None:
    """What a spec that looks like a hand but is not one (a letter that is no suit, ``X`` for a
    rank) was read as: the generic range it is, with its combos. ``None`` for a real hand or a
    range that does not look like a hand.

    >>> read_as_note("AsKz")
    "'AsKz' is not a hand (z is not a suit): read as the range AsKh, AsKd, AsKc (3 combos)"
    >>> read_as_note("AsKs") is None
    True
    """
    from cardlab.errors import CardlabError
    from cardlab.poker.range_listing import list_range

    text = spec.replace(" ", "")
    if not _HANDLIKE.fullmatch(text):
        return None
    odd = sorted({c for c in text[1::2] if c not in "shdc"})
    wild = "X" in text[0::2] or "x" in text[0::2]
    if not odd and not wild:
        return None
    try:
        hands = list_range(text, game=game).hands
    except CardlabError:
        return None
    why = (f"{', '.join(odd)} {'is' if len(odd) == 1 else 'are'} not {'a suit' if len(odd) == 1 else 'suits'}"
           if odd else "X stands for any rank")
    shown = ", ".join(hands[:6]) + (", ..." if len(hands) > 6 else "")
    return f"'{spec}' is not a hand ({why}): read as the range {shown} ({len(hands):,} combos)"
