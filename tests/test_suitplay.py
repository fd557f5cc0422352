"""``bridge suitplay``: the best line in one suit, against SuitPlay's own outputs, textbook
combinations with their probabilities derived here from the layout weights, a plain brute force
and restricted choice as ``bridge split`` gives it."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from math import comb
from pathlib import Path

import pytest

from cardlab.bridge.splits import card_layouts
from cardlab.bridge.suitplay import SuitPlayResult, _setup, evaluate_tree, suitplay
from cardlab.errors import ConstraintError, DeckError

DATA = Path(__file__).parent / "data" / "suitplay"
RANKS = "23456789TJQKA"


def _specific_weight(n: int, east: int) -> Fraction:
    """A priori chance of one given layout of n missing cards with East holding ``east`` of them."""
    return Fraction(comb(26 - n, 13 - east), comb(26, 13))


def _check_playable(result: SuitPlayResult, north: str, south: str) -> None:
    """Each line replayed from its tree (declarer's steps name only cards seen; the defence
    answers with its best cards for the layout) takes the tricks the layout table shows, and
    the probabilities are the table's weights of the layouts that make the target."""
    deal, _, _ = _setup(north, south, None, None)
    assert sum(row.weight for row in result.layouts) == 1
    for line in (*result.targets, result.mean_line):
        key = "mean" if line.tricks is None else str(line.tricks)
        for lay, row in zip(deal.layouts, result.layouts):
            assert evaluate_tree(line.tree, deal.north, deal.south, deal.groups, lay, result.defence) == row.tricks[key]
        if line.tricks is not None:
            assert line.probability_exact == sum((r.weight for r in result.layouts if r.tricks[key] >= line.tricks),
                                                 Fraction(0))
        else:
            assert line.probability_exact == sum((r.weight * r.tricks[key] for r in result.layouts), Fraction(0))


def _reference(path: Path) -> tuple[str, str, list[str], dict[str, list[int]]]:
    north, south = path.stem.split("-")
    data = json.loads(path.read_text())
    return north, south, data["Item2"], data["Item1"]


@pytest.mark.parametrize("path", sorted(DATA.glob("*.json")), ids=lambda p: p.stem)
def test_suitplay_reference_outputs(path: Path) -> None:
    """SuitPlay's own tricks per East holding for its lines (tests/data/SOURCES.md): for every
    target our best line makes it at least as often as the best of SuitPlay's lines."""
    north, south, easts, lines = _reference(path)
    n = 13 - len(north) - len(south)
    named = set("".join(easts)) - {"x"}
    small = n - len(named)  # the x cards: the lowest missing cards, equal to each other
    size = len(next(iter(lines.values())))
    easts = easts[:size]
    # one file lists 33 East holdings for 32 values (two trailing names left blank): the holdings
    # are every subset of the named cards times 0..small x's, in that order
    expected = [h + "x" * k for h in _ordered(sorted(named, key=RANKS.index, reverse=True))
                for k in range(small + 1)]
    assert len(expected) == size and all(e == x or not x for e, x in zip(expected, easts))
    weights = [comb(small, h.count("x")) * _specific_weight(n, len(h)) for h in expected]
    assert sum(weights) == 1
    result = suitplay(north, south)
    for target in result.targets:
        reference = max(sum((w for w, t in zip(weights, tricks) if t >= target.tricks), Fraction(0))
                        for tricks in lines.values())
        assert target.probability_exact >= reference, (target.tricks, target.probability_exact, reference)
        assert target.probability_exact == reference  # SuitPlay's lines are the best ones here
    _check_playable(result, north, south)


def _ordered(cards: list[str]) -> list[str]:
    """Subsets of the cards (highest first) in SuitPlay's order: by binary count over the cards
    from the highest (most significant) to the lowest."""
    out = []
    for bits in product((0, 1), repeat=len(cards)):
        out.append("".join(c for c, b in zip(cards, bits) if b))
    return out


def _west_prob(n: int, cards: str, condition: object) -> Fraction:
    """P(condition(West's set of named cards)) over every layout of n missing cards whose named
    members are ``cards`` (the rest small), by plain enumeration."""
    total = Fraction(0)
    for bits in product((0, 1), repeat=n):
        west = {c for c, b in zip(cards.ljust(n, "x"), bits) if b and c != "x"}
        west_count = sum(bits)
        if condition(west, west_count):  # type: ignore[operator]
            total += _specific_weight(n, n - west_count)
    return total


def test_textbook_combinations() -> None:
    # AQ opposite xx: two tricks when the finesse of the Q wins, West holds the K: 1/2.
    r = suitplay("AQ", "32")
    assert r.target(2).probability_exact == _west_prob(9, "K", lambda w, k: "K" in w) == Fraction(1, 2)
    # AKJT opposite xxxx: four tricks when West holds the Q (finesse) or East's Q is singleton.
    r = suitplay("AKJT", "5432")
    assert r.target(4).probability_exact == _west_prob(5, "Q", lambda w, k: "Q" in w or k == 4) \
        == Fraction(1, 2) + _specific_weight(5, 1)
    # KJx opposite xxx: two tricks only when West holds both the A and the Q (lead to the J, then the K).
    r = suitplay("KJ2", "543")
    assert r.target(2).probability_exact == _west_prob(7, "AQ", lambda w, k: {"A", "Q"} <= w) \
        == Fraction(comb(24, 11), comb(26, 13))
    # A10x opposite KJx: the two-way guess: half, plus a singleton Q that falls under the K or A.
    r = suitplay("AT2", "KJ3")
    assert r.target(3).probability_exact == _west_prob(7, "Q", lambda w, k: "Q" in w or k == 6) \
        == Fraction(1, 2) + _specific_weight(7, 1)
    # AJ9 opposite xxx, the double finesse (9, then J): two tricks when West holds the 10 and an
    # honour, or K Q alone; an omniscient West with K Q and small cards splits his honours.
    r = suitplay("AJ9", "432")
    assert r.target(2).probability_exact == _west_prob(
        7, "KQT", lambda w, k: ("T" in w and bool(w & {"K", "Q"})) or (w == {"K", "Q"} and k == 2))


def test_restricted_choice_is_the_11_17_of_bridge_split() -> None:
    """AK10xx opposite xxxx, Q J x x missing: after the K, when East drops an honour declarer
    finesses, and the finesse wins 11/17 of the time, the figure of ``bridge split``."""
    split = next(r.probability for r in card_layouts("QJxx", played="E:Q").rows if r.east == "Q")
    assert split == Fraction(11, 17)
    for defence in ("random-equals", "omniscient"):
        r = suitplay("AKT76", "5432", targets=[5], defence=defence)
        honour = [row for row in r.layouts if row.east in ("Q", "J", "QJ")]
        made = sum((row.weight for row in honour if row.tricks["5"] == 5), Fraction(0))
        assert made / sum((row.weight for row in honour), Fraction(0)) == split
        _check_playable(r, "AKT76", "5432")


BRUTE = [("AQT98", "5432", (2, 2)), ("AJ9876", "5432", (1, 2)), ("AQJ9876", "5432", (13, 13)),
         ("KJ98765", "432", (13, 13)), ("QT98765", "432", (2, 2))]


@pytest.mark.parametrize("north,south,vacant", BRUTE)
def test_brute_force(north: str, south: str, vacant: tuple[int, int]) -> None:
    """Every declarer strategy and every layout, card by card with plain loops
    (tests/suitplay_brute.py), against the solver: the same best probabilities and mean."""
    from suitplay_brute import best

    targets, mean = best(north, south, vacant)
    r = suitplay(north, south, vacant=vacant)
    assert {t.tricks: t.probability_exact for t in r.targets} == targets
    assert r.mean_line.probability_exact == mean


def test_vacant_places_weights() -> None:
    r = suitplay("AQ", "32", vacant=(13, 12))
    # West has one place more: the K lies with West 13/25 of the time... for 9 missing cards:
    # sum of the weights of the layouts with the K in West, C(n-1 given) enumeration
    k_west = sum((row.weight for row in r.layouts if row.west.startswith("K")), Fraction(0))
    n, w, e = 9, 13, 12
    expected = sum((Fraction(comb(8, j) * comb(w + e - n, w - 1 - j), comb(w + e, w)) for j in range(9)), Fraction(0))
    assert k_west == expected and r.target(2).probability_exact == k_west


def test_result_object() -> None:
    r = suitplay("AQT98", "5432", targets=[4, 5])
    assert repr(r) == "<SuitPlayResult AQT98/5432 (omniscient): 4: 82.78%, 5: 26.57%>"
    data = json.loads(r.to_json())
    assert data == r.to_dict()
    assert [t["probability_exact"] for t in data["targets"]] == ["476/575", "611/2300"]
    assert data["missing"] == "KJ76" and data["vacant"] == [13, 13] and data["defence"] == "omniscient"
    assert set(data["layouts"][0]) == {"west", "east", "weight", "weight_exact", "tricks"}
    assert set(data["layouts"][0]["tricks"]) == {"4", "5", "mean"}
    assert data["mean_tricks_line"]["mean_exact"] == "2318/575"
    assert "4 tricks: 82.78% (476/575)" in r.table() and "<pre>" in r._repr_html_()
    frame = r.to_pandas()
    assert list(frame.columns) == ["west", "east", "weight", "tricks_4", "tricks_5", "tricks_mean"]
    assert len(frame) == 12


def test_scoring_comparison() -> None:
    r = suitplay("AQT98", "5432", scoring="mp")
    c = r.comparison
    assert c is not None and c.scoring == "mp"
    # the 5-trick line against the 4-trick line: the chance it takes more tricks, plus half the ties
    per = {row.west + "/" + row.east: row for row in r.layouts}
    mp = sum((row.weight * (1 if row.tricks["5"] > row.tricks["4"] else Fraction(1, 2) if row.tricks["5"] ==
              row.tricks["4"] else 0) for row in per.values()), Fraction(0))
    assert c.scores["5"]["4"] == pytest.approx(float(mp))
    r = suitplay("AQT98", "5432", scoring="imps")
    assert r.comparison is not None and r.comparison.scores["4"]["4"] == 0


@pytest.mark.parametrize("args,token", [
    (("AQ", "Q2"), "'Q' is in both hands"),
    (("AKQJT9876", "5432x"), "more than 13"),
    (("AQ", "32", "--target", "3"), "target 3"),
    (("AQ", "32", "--entries", "x"), "'x'"),
    (("AQ", "32", "--entries", "1,2,3"), "'1,2,3'"),
    (("AQ", "3Z"), "'Z'"),
    (("AQ", "32", "--vacant", "1,1"), "do not fit"),
    (("AQ", "32", "--played", "N:A"), "'A'"),
])
def test_cli_bad_input_one_line_exit_2(run, args: tuple[str, ...], token: str) -> None:
    status, out, err = run("bridge", "suitplay", *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("cardlab: error: ") and token in err


def test_library_errors() -> None:
    with pytest.raises(DeckError, match="both hands"):
        suitplay("AK", "K2")
    with pytest.raises(ConstraintError, match="target 4"):
        suitplay("AK", "32", targets=[4])
    with pytest.raises(ConstraintError, match="defence"):
        suitplay("AK", "32", defence="clever")


def test_cli_json_and_table(run, tmp_path: Path) -> None:
    status, out, _ = run("bridge", "suitplay", "AQ", "32", "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["targets"][1]["probability_exact"] == "1/2"
    assert data["targets"][1]["tree"][0] == {"play": "S:2"}
    status, out, _ = run("bridge", "suitplay", "AQ", "32", "--target", "2")
    assert status == 0 and "2 tricks: 50.00% (1/2)" in out
    target = tmp_path / "out.csv"
    status, _, _ = run("bridge", "suitplay", "AQ", "32", "--format", "csv", "-o", str(target))
    assert status == 0 and target.read_text().startswith("west,east,weight,weight_exact,tricks_1,tricks_2,tricks_mean")


def test_entries_limit_the_leads() -> None:
    # AQ opposite 32 with no entry to South: declarer cannot lead toward the AQ, so the Q
    # finesse is gone; two tricks only when the K is singleton... with West? it falls under the A.
    free = suitplay("AQ", "32", targets=[2])
    none = suitplay("AQ", "32", targets=[2], entries="*,0")
    assert free.target(2).probability_exact == Fraction(1, 2)
    assert none.target(2).probability_exact == _west_prob(9, "K", lambda w, k: ("K" in w and k == 1)
                                                           or (not w and k == 8))


def test_played_cards_take_a_place() -> None:
    # West has shown the 5 (say, on an earlier round of the suit): the K lies in one of West's 12
    # remaining places or East's 13, each place alike: the finesse wins 12/25.
    r = suitplay("AQ", "32", targets=[2], played="W:5")
    assert r.target(2).probability_exact == Fraction(12, 25)
    assert r.missing == "KJT98764" and r.to_dict()["played"] == ["W:5"]
    with pytest.raises(DeckError, match="still in NORTH or SOUTH"):
        suitplay("AQ", "32", played="N:Q")


def test_mp_cycle_detection() -> None:
    from cardlab.bridge.suitplay import _cycle

    scores = {"a": {"a": .5, "b": .6, "c": .4}, "b": {"a": .4, "b": .5, "c": .6}, "c": {"a": .6, "b": .4, "c": .5}}
    assert _cycle(["a", "b", "c"], scores, 0.5) == ("a", "b", "c")
    scores["c"]["a"] = .3
    scores["a"]["c"] = .7
    assert _cycle(["a", "b", "c"], scores, 0.5) == ()


def _branches(tree: list[dict[str, object]], path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every path of cards (declarer's plays and the defenders' branch names) in a tree."""
    out: set[tuple[str, ...]] = set()
    for step in tree:
        if "play" in step:
            path = path + (str(step["play"]),)
        elif "if" in step:
            for key, sub in step["if"].items():  # type: ignore[attr-defined]
                out.add(path + (key,))
                out |= _branches(sub, path + (key,))
    return out


def test_defence_models_differ_in_what_declarer_sees_not_in_the_odds() -> None:
    """AJ9 opposite 432, K Q T 8 7 6 5 missing: once declarer's 9 has gone, the T and the small
    cards are equal, and once the J has gone, the K Q and the T. ``omniscient`` lets declarer see
    which of them a defender played (and the defender choose); ``random-equals`` shows only that
    he played one of the equal cards (named by the highest). The two lines are different trees,
    yet take the same tricks on every layout: cards equal from then on are interchangeable and
    the layouts that differ by exchanging them weigh the same, so knowing which one fell is
    worth nothing and choosing it costs the defender nothing (docs/suitplay.md). The chance of
    two tricks is the double finesse's, from the layout weights."""
    omni = suitplay("AJ9", "432", targets=[2])
    rand = suitplay("AJ9", "432", targets=[2], defence="random-equals")
    expected = _west_prob(7, "KQT", lambda w, k: ("T" in w and bool(w & {"K", "Q"})) or (w == {"K", "Q"} and k == 2))
    assert omni.target(2).probability_exact == rand.target(2).probability_exact == expected == Fraction(3037, 8050)
    assert [row.tricks for row in omni.layouts] == [row.tricks for row in rand.layouts]
    seen_omni, seen_rand = _branches(omni.target(2).tree), _branches(rand.target(2).tree)
    # low from West, the 9 wins, the J is led and East follows: omniscient tells his small card
    # from the T (two branches), random-equals cannot (one branch, the run named by its T)
    after_j = ("S:2", "W:x", "N:9", "E:x", "N:J")
    assert {after_j + ("E:x",), after_j + ("E:T",)} <= seen_omni
    assert after_j + ("E:T",) in seen_rand and after_j + ("E:x",) not in seen_rand
    _check_playable(omni, "AJ9", "432")
    _check_playable(rand, "AJ9", "432")
