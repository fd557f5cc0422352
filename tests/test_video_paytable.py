"""Video poker pay tables: TOML files (CRLF, BOM, odd spellings), narrowest-line matching, and
one clear error for each mistake. Files and their sources: tests/data/video/SOURCES.md."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from cardlab.errors import PayTableError
from cardlab.casino.video import analyse
from cardlab.casino.video_paytable import builtin_names, paytable, parse_paytable

DATA = Path(__file__).parent / "data" / "video"


def test_builtins_are_listed_and_royal_pays_800():
    names = builtin_names()
    assert names == ["jacks-or-better-9-6", "jacks-or-better-8-5", "tens-or-better-6-5", "bonus-poker-8-5",
                     "double-bonus-10-7", "double-double-bonus-9-6", "deuces-wild-full-pay",
                     "joker-poker-kings-or-better"]
    for name in names:
        table = paytable(name)
        royal = next(o for o in table.outcomes if o.hand == "royal flush")
        assert royal.pays == 800 and table.outcomes[-1].name == "nothing"


def test_narrowest_line_wins_whatever_the_order():
    ddb = paytable("double-double-bonus-9-6")
    # four aces with a 3 kicker: code 19 + 12 * 13 + 1
    assert ddb.outcomes[ddb.code_outcome[19 + 12 * 13 + 1]].name == "four aces with 2-4"
    assert ddb.outcomes[ddb.code_outcome[19 + 12 * 13 + 5]].name == "four aces"
    assert ddb.outcomes[ddb.code_outcome[19 + 1 * 13 + 12]].name == "four 2-4 with A-4"
    assert ddb.outcomes[ddb.code_outcome[19 + 1 * 13 + 11]].name == "four 2-4"
    reversed_table = {"name": "r", "outcome": [
        {"hand": "pair", "ranks": "J-A", "pays": 1}, {"hand": "straight flush", "pays": 50},
        {"hand": "royal flush", "pays": 800}]}
    table = parse_paytable(reversed_table)
    assert table.outcomes[table.code_outcome[192]].name == "royal flush"
    assert table.outcomes[table.code_outcome[188]].name == "straight flush"


def test_crlf_file_reproduces_published_return():
    # videopokerslots.net: tens or better with 20-for-1 quads returns 98.0 percent
    result = analyse(DATA / "tens-or-better-quads-20.toml")
    assert f"{100 * float(result.return_exact):.1f}" == "98.0"
    assert result.paytable.outcomes[-2].name == "tens or better"


def test_bom_file_equals_the_builtin_game():
    from_file = analyse(DATA / "double-double-bonus-bom.toml")
    builtin = analyse("double-double-bonus-9-6")
    assert from_file.return_exact == builtin.return_exact and from_file.counts == builtin.counts
    assert paytable(DATA / "double-double-bonus-bom.toml").outcomes[-2].pays == Fraction(1)


def test_wild_file_and_fractional_pays():
    assert analyse(DATA / "deuces-wild.toml").return_exact == analyse("deuces-wild-full-pay").return_exact
    half = parse_paytable({"outcome": [{"hand": "royal flush", "pays": 800},
                                       {"hand": "pair", "ranks": "J-A", "pays": 0.5}]})
    assert half.scale == 2 and half.int_pays() == [1600, 1, 0]


@pytest.mark.parametrize("file, message", [
    ("negative-pay.toml", "must not be negative"),
    ("text-pay.toml", "must be a number, got 'lots'"),
    ("unknown-outcome.toml", "unknown outcome 'royal flash'"),
    ("malformed.toml", "not a well-formed TOML pay table"),
])
def test_bad_files(file, message):
    with pytest.raises(PayTableError, match=message) as caught:
        paytable(DATA / file)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("data, message", [
    ({"outcome": []}, "no outcomes"),
    ({"outcome": [{"hand": "flush"}]}, "no pays="),
    ({"outcome": [{"hand": "flush", "pays": True}]}, "must be a number"),
    ({"outcome": [{"hand": "flush", "pays": 1, "ranks": "A"}]}, "ranks= applies to a pair"),
    ({"outcome": [{"hand": "pair", "pays": 1, "ranks": "Z"}]}, "unknown rank"),
    ({"outcome": [{"hand": "pair", "pays": 1, "ranks": "K-J"}]}, "runs downwards"),
    ({"outcome": [{"hand": "flush", "pays": 1}, {"hand": "flush", "pays": 2}]}, "used twice"),
    ({"outcome": [{"hand": "flush", "pays": 1, "name": "a"}, {"hand": "flush", "pays": 2, "name": "b"}]},
     "can never pay"),
    ({"outcome": [{"hand": "four deuces", "pays": 200}]}, "needs wild cards"),
    ({"wild": "jokers", "outcome": [{"hand": "flush", "pays": 1}]}, "unknown wild rule"),
    ({"jokers": 3, "outcome": [{"hand": "flush", "pays": 1}]}, "jokers must be 0, 1 or 2"),
    ({"pays": 3, "outcome": [{"hand": "flush", "pays": 1}]}, "unknown key 'pays'"),
])
def test_bad_tables(data, message):
    with pytest.raises(PayTableError, match=message):
        parse_paytable(data)


def test_unknown_game():
    with pytest.raises(PayTableError, match="unknown pay table 'jacks-or-worse'"):
        paytable("jacks-or-worse")
