"""String-valued shape functions (issue 41): Deal 3.1's ``shapefunc`` returning a word per shape.

Checked three ways: against plain Python over every one of the 560 patterns, hand by hand on
seeded deals, and against Deal 3.1 itself on the 1,000 deals it wrote (tests/data/SOURCES.md)."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab.bridge.dealer import parse_script, run_script
from cardlab.bridge.dealer.dealing import owner_from_masks
from cardlab.cli.main import main
from cardlab.errors import DealerScriptError

DATA = Path(__file__).parent / "data" / "deal"
OPENING = ('shapefunc opening = s >= 5 && s >= h ? "spades" : h >= 5 ? "hearts" : '
           'd >= 4 && d > c ? "diamonds" : "clubs"\n')
SUITS = ("spades", "hearts", "diamonds", "clubs")


def _opening(s: int, h: int, d: int, c: int) -> str:
    """The same rule as tests/data/deal/opening.tcl, in plain Python."""
    if s >= 5 and s >= h:
        return "spades"
    if h >= 5:
        return "hearts"
    return "diamonds" if d >= 4 and d > c else "clubs"


def _lengths(owner: np.ndarray, seat: int, deal: int) -> tuple[int, ...]:
    return tuple(int((owner[suit::4, deal] == seat).sum()) for suit in (3, 2, 1, 0))


def test_the_table_holds_every_patterns_string() -> None:
    from cardlab.bridge.polynomials import shape_key

    script = parse_script(OPENING + 'condition opening(north) == "hearts"')
    assert script.strings == SUITS
    assert script.condition.right.value == 1  # "hearts" is the second string: code 1
    values = script.condition.left.args[0].values
    patterns = [(s, h, d, 13 - s - h - d) for s in range(14) for h in range(14 - s) for d in range(14 - s - h)]
    assert len(patterns) == 560
    assert [SUITS[values[int(shape_key(*p))]] for p in patterns] == [_opening(*p) for p in patterns]


def test_conditions_and_frequencies_hand_by_hand() -> None:
    text = OPENING + """generate 4000
condition hcp(north) >= 10 && opening(north) != "clubs" && opening(north) != opening(south)
action frequency "n" (opening(north)), frequency (opening(south), hcp(north), 10, 15)
"""
    kept: list[np.ndarray] = []
    result = run_script(parse_script(text), seed=12, on_deals=lambda d, _: kept.append(owner_from_masks(d)))
    owner = np.concatenate(kept, axis=1)
    north = [_opening(*_lengths(owner, 0, i)) for i in range(owner.shape[1])]
    south = [_opening(*_lengths(owner, 2, i)) for i in range(owner.shape[1])]
    assert result.produced == owner.shape[1] > 500
    assert all(n != "clubs" and n != s for n, s in zip(north, south))
    one, two = result.frequencies
    assert dict(zip(one.values(), one.counts[1:-1])) == {s: north.count(s) for s in SUITS}
    assert one.counts[0] == one.counts[-1] == 0
    points = np.maximum(np.arange(52) // 4 - 8, 0)
    hcp = ((owner == 0) * points[:, None]).sum(axis=0)
    for row, suit in zip(two.counts[1:-1], SUITS):
        expected = [sum(1 for s, p in zip(south, hcp) if s == suit and p == v) for v in range(10, 16)]
        assert list(row[1:-1]) == expected and row[0] == 0  # North has 10+: no Low column
        assert row[-1] == sum(1 for s, p in zip(south, hcp) if s == suit and p > 15)
    text_table = result.table()
    assert "Frequency n:\n" in text_table and "\ndiamonds\t" in text_table
    data = result.to_dict()["frequencies"]
    assert [r["value"] for r in data[0]["rows"]] == ["low", *SUITS, "high"]
    assert data[1]["rows"][1:-1] == list(SUITS) and data[1]["columns"][1:-1] == list(range(10, 16))


def test_exact_draw_and_rejection_agree_with_a_string_condition() -> None:
    from cardlab.bridge.dealer.conditional import ConditionalPlan

    text = OPENING + 'generate 20000\ncondition opening(north) == "hearts" && hcp(north) >= 11\naction average 1'
    assert ConditionalPlan.build(parse_script(text)) is not None
    p1, lo1, hi1 = run_script(parse_script(text), seed=3).acceptance()
    p2, lo2, hi2 = run_script(parse_script(text), seed=3, exact_draw=False).acceptance()
    assert abs(p1 - p2) < (hi1 - lo1 + hi2 - lo2) / 2 * 1.5
    assert 0.05 < p1 < 0.15


#: What Deal 3.1 (Debian 3.1.9-13) printed for tests/data/deal/opening.tcl over the 1,000 deals of
#: tests/data/deal/deals41.line (``deal -I line -i opening.tcl 1000 < deals41.line``;
#: tests/data/SOURCES.md): North's opening suit when North has 12+ HCP, and North's by South's.
DEAL_ONE = {"clubs": 144, "diamonds": 84, "hearts": 61, "spades": 66}
DEAL_TWO = {("clubs", "clubs"): 145, ("clubs", "diamonds"): 123, ("clubs", "hearts"): 79, ("clubs", "spades"): 61,
            ("diamonds", "clubs"): 99, ("diamonds", "diamonds"): 36, ("diamonds", "hearts"): 46,
            ("diamonds", "spades"): 47, ("hearts", "clubs"): 84, ("hearts", "diamonds"): 39, ("hearts", "hearts"): 8,
            ("hearts", "spades"): 41, ("spades", "clubs"): 81, ("spades", "diamonds"): 51, ("spades", "hearts"): 50,
            ("spades", "spades"): 10}


def _cardlab_over_deals41(tmp_path: Path) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    one, two = tmp_path / "one.dl", tmp_path / "two.dl"
    one.write_text(OPENING + "condition hcp(north) >= 12\naction frequency (opening(north))\n")
    two.write_text(OPENING + "action frequency (opening(north), opening(south))\n")
    out = tmp_path / "out.json"
    found = []
    for script in (one, two):
        assert main(["bridge", "dealer", str(script), "--deals", str(DATA / "deals41.line"), "--format", "json",
                     "-o", str(out)]) == 0
        found.append(json.loads(out.read_text())["frequencies"][0])
    first = {r["value"]: r["count"] for r in found[0]["rows"][1:-1]}
    rows, columns = found[1]["rows"], found[1]["columns"]
    second = {(r, c): n for r, line in zip(rows, found[1]["counts"]) for c, n in zip(columns, line)
              if r in SUITS and c in SUITS}
    return first, second


def test_deal_31_agrees_on_its_own_deals(tmp_path: Path) -> None:
    assert _cardlab_over_deals41(tmp_path) == (DEAL_ONE, DEAL_TWO)


@pytest.mark.skipif(shutil.which("deal") is None and not Path("/usr/games/deal").exists(),
                    reason="Deal 3.1 (Debian package deal) is not installed")
def test_deal_31_itself_when_installed(tmp_path: Path) -> None:
    """Run Deal 3.1 here on the same file (the recorded figures above must also be what it prints)."""
    binary = shutil.which("deal") or "/usr/games/deal"
    with open(DATA / "deals41.line", "rb") as deals:
        out = subprocess.run([binary, "-I", "line", "-i", str(DATA / "opening.tcl"), "1000"], stdin=deals,
                             capture_output=True, timeout=60, check=True).stdout.decode()
    one = {w[1]: int(w[2]) for w in (line.split() for line in out.splitlines()) if w[0] == "one"}
    two = {tuple(w[1].split("/")): int(w[2]) for w in (line.split() for line in out.splitlines()) if w[0] == "two"}
    assert (one, two) == (DEAL_ONE, DEAL_TWO)


def test_two_functions_share_the_scripts_strings() -> None:
    text = (OPENING + 'shapefunc longest = s >= h && s >= d && s >= c ? "spades" : h >= d && h >= c ? "hearts" : '
            'd >= c ? "diamonds" : "clubs"\ngenerate 3000\ncondition opening(north) == longest(north)\n'
            "produce 3000\naction printoneline")
    out = io.StringIO()
    result = run_script(parse_script(text), seed=4, out=out)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("n ")]
    assert len(lines) == result.produced > 1500
    for line in lines:
        s, h, d, c = (len(x) for x in line.split()[1].split("."))
        longest = SUITS[[s, h, d, c].index(max(s, h, d, c))]
        assert _opening(s, h, d, c) == longest, line


@pytest.mark.parametrize("text, message", [
    (OPENING + 'condition opening(north) == "notrump"', '"notrump" is not a value of opening(): it gives "spades"'),
    (OPENING + "condition opening(north) == 1", "opening() gives strings: compare it with a quoted value"),
    (OPENING + "condition opening(north) > 0", "opening() gives strings"),
    (OPENING + "action average opening(north)", "opening() gives strings"),
    (OPENING + "action printoneline(opening(north))", "opening() gives strings"),
    (OPENING + "o = opening(north)\ncondition o == 1", "opening() gives strings"),
    (OPENING + "o = opening(north)\naction average o", "opening() gives strings"),
    (OPENING + 'condition o == "spades"\no = opening(north)', "variable 'o' is compared with \"spades\" before it is"),
    (OPENING + 'condition o + 1 > 2\no = opening(north)', "variable 'o' holds strings (opening()): define it"),
    (OPENING + 'o = opening(north)\ncondition o == "clover"', '"clover" is not a value of opening()'),
    (OPENING + 'condition hcp(north) == "spades"', '"spades": a quoted string can only be compared'),
    (OPENING + 'condition "spades" + 1', '"spades": a quoted string can only be compared'),
    (OPENING + 'condition hcp("spades", north)', "expected a seat"),
    (OPENING + 'condition imps("spades") > 0', '"spades": a quoted string can only be compared'),
    (OPENING + "action frequency (opening(north), 0, 3)", "frequency counts each of them without bounds"),
    (OPENING + "action bktfreq (opening(north), 0, 3, 1)", "opening() gives strings"),
    ('shapefunc f = s > 4 ? "long" : 0', "gives a string for some shapes and a number for others"),
    ('shapefunc f = "a" + 1', "a quoted string can only be the value of the function or of a '?:' branch"),
    ('shapefunc f = ("a" ? 1 : 2)', "a quoted string can only be the value"),
    ('shapeclass f = s > 4 ? "long" : "short"', "a quoted string"),
])
def test_misused_strings_are_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(DealerScriptError, match=re.escape(message)):
        parse_script(text)


def test_misuse_exits_2_with_one_line(tmp_path: Path, capsys: Any) -> None:
    script = tmp_path / "bad.dl"
    script.write_text(OPENING + 'condition opening(north) == "nt"\n')
    assert main(["bridge", "dealer", str(script)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and '"nt" is not a value of opening()' in err and "line 2" in err


def test_a_quoted_value_on_either_side_means_the_same() -> None:
    left = parse_script(OPENING + 'condition "diamonds" != opening(west)').condition
    right = parse_script(OPENING + 'condition opening(west) != "diamonds"').condition
    assert left.left.value == right.right.value == 2 and left.right == right.left
    one = run_script(parse_script(OPENING + 'generate 3000\ncondition "diamonds" != opening(west)\naction average 1'),
                     seed=6)
    two = run_script(parse_script(OPENING + 'generate 3000\ncondition opening(west) != "diamonds"\naction average 1'),
                     seed=6)
    assert one.produced == two.produced and 0 < one.produced < 3000


def test_a_variable_holding_a_string_function_is_compared_and_counted_as_the_call() -> None:
    via = OPENING + 'generate 3000\nopener = opening(north)\ncondition opener != "clubs"\naction frequency (opener)'
    direct = OPENING + 'generate 3000\ncondition opening(north) != "clubs"\naction frequency (opening(north))'
    one, two = (run_script(parse_script(text), seed=8) for text in (via, direct))
    assert one.frequencies == two.frequencies and one.frequencies[0].counts[4] == 0
    assert one.frequencies[0].values() == list(SUITS) and one.produced == sum(one.frequencies[0].counts) > 1000
