"""Video poker pay tables: outcomes, their pays per coin, and the built-in games.

A pay table is a list of outcomes; each names a hand (a word of :data:`HANDS`), optionally
restricted to some ranks (the pair of "jacks or better", the quads of "four aces") and, for four
of a kind, to some kickers, and says what it pays per coin bet (for a maximum-coin bet). A
final hand pays the outcome that matches it; when several match, the narrowest wins (four aces
with a 2-4 kicker before four aces before four of a kind; a royal flush before a straight
flush), so the order of the lines does not matter. Hands no line matches pay nothing.

A pay table file is TOML::

    name = "Bonus Poker 8/5"
    wild = "none"            # or "deuces"
    jokers = 0               # jokers added to the deck (they are wild)

    [[outcome]]
    hand = "royal flush"
    pays = 800

    [[outcome]]
    name = "four aces"
    hand = "four of a kind"
    ranks = "A"
    pays = 80

    [[outcome]]
    name = "jacks or better"
    hand = "pair"
    ranks = "J-A"
    pays = 1

>>> table = paytable("jacks-or-better-9-6")
>>> [(o.name, o.pays) for o in table.outcomes][:3]
[('royal flush', Fraction(800, 1)), ('straight flush', Fraction(50, 1)), ('four of a kind', Fraction(25, 1))]
>>> paytable("jacks-or-better-9-7")
Traceback (most recent call last):
...
cardlab.errors.PayTableError: unknown pay table 'jacks-or-better-9-7': give a TOML file or one of ...
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Mapping

from cardlab.casino.pays import Outcome, PayTable, parse_pay, parse_rank_set
from cardlab.errors import PayTableError
from cardlab.textfile import decode_text, read_text

__all__ = ["HANDS", "NCODES", "paytable", "builtin_names", "parse_paytable", "read_paytable"]

# Fine codes of a final hand (csrc/video.c gives them; keep the two in step).
_PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL, _QUADS = 1, 14, 15, 16, 17, 18, 19
_SF, _WILD_ROYAL, _FIVE, _FOUR_DEUCES, _ROYAL = 188, 189, 190, 191, 192
NCODES = 193


def _quads(ranks: frozenset[int], kickers: frozenset[int]) -> frozenset[int]:
    # a kicker of the quads' own rank is five of a kind (several decks, wild cards): it pays as
    # four of a kind when the table has no five of a kind line
    return frozenset(_QUADS + q * 13 + k for q in ranks for k in kickers)


#: The hands an outcome may name, and which take ``ranks`` (and ``kickers``).
HANDS: dict[str, str] = {
    "royal flush": "a natural royal flush (no wild card)",
    "four deuces": "the four deuces, in deuces wild",
    "wild royal flush": "a royal flush made with a wild card",
    "five of a kind": "five cards of a rank (wild cards, several decks); else pays as four of a kind",
    "straight flush": "a straight flush (includes royals if no royal line)",
    "four of a kind": "four of a kind; ranks= and kickers= narrow it",
    "full house": "a full house",
    "flush": "a flush",
    "straight": "a straight (ace high or low)",
    "three of a kind": "three of a kind",
    "two pair": "two pair",
    "pair": "a pair; ranks= narrows it (jacks or better: ranks = \"J-A\")",
}
_ALL = frozenset(range(13))


def _codes(hand: str, ranks: frozenset[int], kickers: frozenset[int]) -> frozenset[int]:
    fixed = {"royal flush": {_ROYAL}, "four deuces": {_FOUR_DEUCES}, "wild royal flush": {_WILD_ROYAL},
             "five of a kind": {_FIVE}, "straight flush": {_SF, _WILD_ROYAL, _ROYAL}, "full house": {_FULL},
             "flush": {_FLUSH}, "straight": {_STRAIGHT}, "three of a kind": {_TRIPS}, "two pair": {_TWO_PAIR}}
    if hand in fixed:
        return frozenset(fixed[hand])
    if hand == "four of a kind":
        return _quads(ranks, kickers)
    return frozenset(_PAIR + r for r in ranks)


def parse_paytable(data: Mapping[str, object], source: str = "pay table") -> PayTable:
    """A :class:`PayTable` from parsed TOML (see the module docstring for the keys)."""
    known = {"name", "wild", "jokers", "outcome"}
    for key in data:
        if key not in known:
            raise PayTableError(f"{source}: unknown key '{key}' (expected one of: {', '.join(sorted(known))})")
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str):
        raise PayTableError(f"{source}: name must be text")
    wild = data.get("wild", "none")
    if wild not in ("none", "deuces"):
        raise PayTableError(f"{source}: unknown wild rule {wild!r} (expected \"none\" or \"deuces\")")
    jokers = data.get("jokers", 0)
    if isinstance(jokers, bool) or not isinstance(jokers, int) or not 0 <= jokers <= 2:
        raise PayTableError(f"{source}: jokers must be 0, 1 or 2, got {jokers!r}")
    lines = data.get("outcome")
    if not isinstance(lines, list) or not lines:
        raise PayTableError(f"{source}: no outcomes: list them as [[outcome]] tables with hand= and pays=")
    parsed: list[tuple[str, str, Fraction, frozenset[int]]] = []
    for number, entry in enumerate(lines, 1):
        where = f"{source}: outcome {number}"
        if not isinstance(entry, dict):
            raise PayTableError(f"{where}: expected a table with hand= and pays=")
        for key in entry:
            if key not in ("name", "hand", "ranks", "kickers", "pays"):
                raise PayTableError(f"{where}: unknown key '{key}' (expected name, hand, ranks, kickers, pays)")
        hand = entry.get("hand")
        if not isinstance(hand, str) or hand.strip().lower() not in HANDS:
            raise PayTableError(f"{where}: unknown outcome {hand!r} (expected one of: {', '.join(HANDS)})")
        hand = hand.strip().lower()
        if "pays" not in entry:
            raise PayTableError(f"{where} ({hand}): no pays=")
        pays = parse_pay(entry["pays"], f"{where} ({hand})")
        ranks = _ALL
        if "ranks" in entry:
            if hand not in ("pair", "four of a kind"):
                raise PayTableError(f"{where}: ranks= applies to a pair or four of a kind, not {hand}")
            ranks = parse_rank_set(entry["ranks"], "ranks", where)
        kickers = _ALL
        if "kickers" in entry:
            if hand != "four of a kind":
                raise PayTableError(f"{where}: kickers= applies to four of a kind, not {hand}")
            kickers = parse_rank_set(entry["kickers"], "kickers", where)
        label = entry.get("name", hand)
        if not isinstance(label, str) or not label.strip():
            raise PayTableError(f"{where}: name must be text")
        parsed.append((label.strip(), hand, pays, _codes(hand, ranks, kickers)))
    names = [p[0].lower() for p in parsed]
    for label in names:
        if names.count(label) > 1 or label == "nothing":
            raise PayTableError(f"{source}: outcome name '{label}' is used twice (or is 'nothing'); "
                                "give each line its own name=")
    # the narrowest line takes a code first (stable in file order)
    code_outcome = [len(parsed)] * NCODES
    taken: set[int] = set()
    for index in sorted(range(len(parsed)), key=lambda i: len(parsed[i][3])):
        mine = parsed[index][3] - taken
        if not mine:
            raise PayTableError(f"{source}: outcome '{parsed[index][0]}' can never pay: narrower lines "
                                "take all of its hands")
        for code in mine:
            code_outcome[code] = index
        taken |= mine
    if wild == "none" and jokers == 0:
        wild_only = {"four deuces", "wild royal flush"}
        for label, hand, _, _ in parsed:
            if hand in wild_only:
                raise PayTableError(f"{source}: outcome '{label}' needs wild cards (wild = \"deuces\" or jokers)")
    outcomes = tuple(Outcome(label, hand, pays, codes) for label, hand, pays, codes in parsed)
    outcomes += (Outcome("nothing", "nothing", Fraction(0), frozenset(range(NCODES)) - taken),)
    return PayTable(name, outcomes, tuple(code_outcome), wild, jokers)


def _line(hand: str, pays: int, name: str | None = None, ranks: str | None = None,
          kickers: str | None = None) -> dict[str, object]:
    out: dict[str, object] = {"hand": hand, "pays": pays}
    for key, value in (("name", name), ("ranks", ranks), ("kickers", kickers)):
        if value is not None:
            out[key] = value
    return out


def _job(full: int, flush: int, name: str, pair: str = "J-A", pair_name: str = "jacks or better") -> dict[str, object]:
    return {"name": name, "outcome": [
        _line("royal flush", 800), _line("straight flush", 50), _line("four of a kind", 25),
        _line("full house", full), _line("flush", flush), _line("straight", 4), _line("three of a kind", 3),
        _line("two pair", 2), _line("pair", 1, pair_name, pair)]}


def _bonus(aces: int, low: int, other: int, full: int, flush: int, straight: int, two_pair: int,
           name: str, kicker_bonus: bool = False) -> dict[str, object]:
    quads = []
    if kicker_bonus:
        quads += [_line("four of a kind", 400, "four aces with 2-4", "A", "2-4"),
                  _line("four of a kind", 160, "four 2-4 with A-4", "2-4", "A-4")]
    quads += [_line("four of a kind", aces, "four aces", "A"), _line("four of a kind", low, "four 2-4", "2-4"),
              _line("four of a kind", other, "four 5-K", "5-K")]
    return {"name": name, "outcome": [
        _line("royal flush", 800), _line("straight flush", 50), *quads, _line("full house", full),
        _line("flush", flush), _line("straight", straight), _line("three of a kind", 3),
        _line("two pair", two_pair), _line("pair", 1, "jacks or better", "J-A")]}


_BUILTIN: dict[str, dict[str, object]] = {
    "jacks-or-better-9-6": _job(9, 6, "Jacks or Better 9/6"),
    "jacks-or-better-8-5": _job(8, 5, "Jacks or Better 8/5"),
    "tens-or-better-6-5": _job(6, 5, "Tens or Better 6/5", "T-A", "tens or better"),
    "bonus-poker-8-5": _bonus(80, 40, 25, 8, 5, 4, 2, "Bonus Poker 8/5"),
    "double-bonus-10-7": _bonus(160, 80, 50, 10, 7, 5, 1, "Double Bonus 10/7"),
    "double-double-bonus-9-6": _bonus(160, 80, 50, 9, 6, 4, 1, "Double Double Bonus 9/6", kicker_bonus=True),
    "deuces-wild-full-pay": {"name": "Deuces Wild (full pay)", "wild": "deuces", "outcome": [
        _line("royal flush", 800, "natural royal flush"), _line("four deuces", 200),
        _line("wild royal flush", 25), _line("five of a kind", 15), _line("straight flush", 9),
        _line("four of a kind", 5), _line("full house", 3), _line("flush", 2), _line("straight", 2),
        _line("three of a kind", 1)]},
    "joker-poker-kings-or-better": {"name": "Joker Poker, kings or better (20/7/5)", "jokers": 1, "outcome": [
        _line("royal flush", 800, "natural royal flush"), _line("five of a kind", 200),
        _line("wild royal flush", 100), _line("straight flush", 50), _line("four of a kind", 20),
        _line("full house", 7), _line("flush", 5), _line("straight", 3), _line("three of a kind", 2),
        _line("two pair", 1), _line("pair", 1, "kings or better", "K-A")]},
}


def builtin_names() -> list[str]:
    """The names of the built-in pay tables."""
    return list(_BUILTIN)


def paytable(spec: str | Path | PayTable) -> PayTable:
    """A built-in pay table by name, or one read from a TOML file.

    >>> paytable("jacks-or-better-9-6").name
    'Jacks or Better 9/6'
    """
    if isinstance(spec, PayTable):
        return spec
    text = str(spec)
    if text in _BUILTIN:
        return parse_paytable(_BUILTIN[text], text)
    path = Path(text)
    if not path.is_file():
        raise PayTableError(f"unknown pay table '{text}': give a TOML file or one of "
                            f"{', '.join(_BUILTIN)}")
    return _from_text(read_text(path), path.name)


def read_paytable(data: bytes, source: str = "pay table") -> PayTable:
    """A pay table from the bytes of a TOML file (an upload), read as :func:`paytable` reads a
    file: UTF-8 or Windows-1252 text (never binary), then the TOML keys; ``source`` names it in
    the messages.

    >>> read_paytable(b'name = "x"\\n[[outcome]]\\nhand = "flush"\\npays = 6\\n').outcomes[0].pays
    Fraction(6, 1)
    >>> read_paytable(b"\\x00\\x01\\x02", "upload.toml")
    Traceback (most recent call last):
    ...
    cardlab.errors.InputFileError: upload.toml: not a text file (neither UTF-8 nor Windows-1252 text)
    """
    return _from_text(decode_text(data, source), source)


def _from_text(text: str, source: str) -> PayTable:
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise PayTableError(f"{source}: nested too deeply to be a pay table") from None
    except UnicodeDecodeError:
        raise PayTableError(f"{source}: not a UTF-8 text file") from None
    except tomllib.TOMLDecodeError as error:
        raise PayTableError(f"{source}: not a well-formed TOML pay table: {error}") from None
    return parse_paytable(data, source)
