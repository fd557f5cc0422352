"""Issue 38: evaluating a line the user names in suit play (``bridge suitplay --line``), on
hand-worked examples. Each expected figure is worked from card-by-card layouts here: n missing
cards, vacant places 13 and 13, a given layout with k cards in one hand has chance
C(26 - n, 13 - k) / C(26, 13) (``bridge split``'s vacant places)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from cardlab.bridge.suitplay import _setup, evaluate_tree, suitplay
from cardlab.bridge.suitplay_line import parse_line
from cardlab.cli.main import main
from cardlab.errors import ConstraintError, DeckError


def _given(n: int, k: int) -> Fraction:
    """Chance of one given layout of n missing cards with k of them in a given hand."""
    return Fraction(comb(26 - n, 13 - k), comb(26, 13))


def test_suitplay_evaluates_a_line_the_user_names() -> None:
    # AQ opposite 32, "finesse the queen": two tricks when West holds the K (half the layouts,
    # by symmetry); West playing the K is covered by the A and the Q is good. The best line for
    # two tricks is that finesse (1/2), and the named line takes the same tricks on every layout.
    r = suitplay("AQ", "32", line="S:x N:Q")
    assert r.named is not None and r.named.distribution == (0, Fraction(1, 2), Fraction(1, 2))
    assert r.named.mean_exact == Fraction(3, 2) == r.mean_line.probability_exact
    assert all(row.tricks["line"] == row.tricks["2"] for row in r.layouts)
    assert r.named.tree[0] == {"play": "S:2"} and r.named.tree[1]["if"]["W:K"][0] == {"play": "N:A"}
    # "cash the ace, then the queen": two tricks only when the K is singleton, West's or East's:
    # 2 C(17, 12) / C(26, 13) = 12376 / 10400600 = 13/10925.
    cash = suitplay("AQ", "32", line="N:A; N:Q").named
    assert cash is not None and cash.at_least(2) == 2 * _given(9, 1) == Fraction(13, 10925)
    assert cash.distribution[1] == 1 - Fraction(13, 10925)
    # AKJ opposite 432, Q T 9 8 7 6 5 missing: the finesse of the J makes three tricks when West
    # holds the Q (1/2: a Q from West is covered by the K); the drop (A, K, then the J) when the Q
    # holder has at most one small card beside it: 2 (C(19, 12) + 6 C(19, 11)) / C(26, 13) =
    # 2 (50388 + 453492) / 10400600 = 78/805.
    finesse = suitplay("AKJ", "432", targets=[3], line="Sx NJ, cash").named
    drop = suitplay("AKJ", "432", targets=[3], line="N:A; N:K; N:J").named
    assert finesse is not None and drop is not None
    assert finesse.at_least(3) == Fraction(1, 2)
    assert drop.at_least(3) == 2 * (_given(7, 1) + 6 * _given(7, 2)) == Fraction(78, 805)
    # the best line cashes the A first (a singleton Q with East falls), then finesses: the named
    # finesse falls short of it by exactly that layout, C(19, 12) / C(26, 13) = 39/8050
    best = suitplay("AKJ", "432", targets=[3], line="N:A; N:K; N:J", scoring="mp")
    assert best.target(3).probability_exact - finesse.at_least(3) == _given(7, 1) == Fraction(39, 8050)
    # against the drop at matchpoints: 1/2 + (P(best > drop) - P(drop > best)) / 2, the best line
    # beating the drop when West holds the Q and two or more small cards (1/2 - 39/805) and
    # losing to it when East holds Q x (351/8050 = 6 C(19, 11) / C(26, 13))
    assert best.comparison is not None
    expected = Fraction(1, 2) + (Fraction(1, 2) - Fraction(39, 805) - 6 * _given(7, 2)) / 2
    assert best.comparison.scores["3"]["line"] == pytest.approx(float(expected), abs=1e-12)
    assert best.comparison.scores["line"]["3"] == pytest.approx(1 - float(expected), abs=1e-12)
    # every named tree replays (evaluate_tree) to the tricks of the layout table
    deal, _, _ = _setup("AKJ", "432", None, None)
    r = suitplay("AKJ", "432", targets=[3], line="N:A; N:K; N:J")
    for lay, row in zip(deal.layouts, r.layouts):
        assert evaluate_tree(r.named.tree, deal.north, deal.south, deal.groups, lay, "omniscient") == row.tricks["line"]  # type: ignore[union-attr]


def test_suitplay_named_line_after_cards_have_fallen() -> None:
    # The position (AKT98 / 5432, the A cashed, East's Q and West's 6 fallen), random
    # equals: the finesse wins the four tricks left 11/17, the K for the drop 6/17 (East's J
    # singleton, the other layout left), the two adding to 1.
    played = "N:A E:Q S:2 W:6"
    finesse = suitplay("KT98", "543", played=played, defence="random-equals", line="S:x N:8").named
    drop = suitplay("KT98", "543", played=played, defence="random-equals", line="N:K; cash").named
    assert finesse is not None and drop is not None
    assert (finesse.at_least(4), drop.at_least(4)) == (Fraction(11, 17), Fraction(6, 17))


def test_suitplay_named_line_output_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_line("S:x N:Q; N:A") == (((("S", -1), ("N", 10)), (("N", 12),)), False)
    assert parse_line("s10 n:j , cash") == (((("S", 8), ("N", 9)),), True)
    for bad, words in (("S:x W:K", "'W:K' is not declarer's card"), ("", "give the tricks"),
                       ("S:x N:Q S:3", "names the lead and at most"), ("N:A;;N:Q", "give the tricks"),
                       ("N:A " * 200, "at most 400 characters")):
        with pytest.raises(ConstraintError, match=words):
            parse_line(bad)
    with pytest.raises(DeckError, match="North does not hold the K"):
        suitplay("AQ", "32", line="S:x N:K")
    with pytest.raises(ConstraintError, match="trick 2 is led from South, which has no cards left"):
        suitplay("AQ", "3", line="S:x N:Q; S:x")
    with pytest.raises(ConstraintError, match="unlimited entries"):
        suitplay("AQ", "32", line="S:x N:Q", entries="1,1")
    assert main(["bridge", "suitplay", "AQ", "32", "--line", "S:x N:Q", "--target", "2"]) == 0
    out = capsys.readouterr().out
    assert "Your line 'S:x N:Q': 1.5000 tricks on average (3/2)" in out
    assert "  1 tricks 50.00% (1/2); 2 tricks 50.00% (1/2)" in out
    assert main(["bridge", "suitplay", "AQ", "32", "--line", "S:x N:K"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "North does not hold the K" in err


def test_no_named_line_beats_the_best_line() -> None:
    """Seeded random combinations and lines, both defences: a line the user names never makes a
    target more often than the solver's best line for it (each is optimal over every line),
    and its distribution adds up to 1."""
    import random

    ranks = "23456789TJQKA"
    rng = random.Random(38)
    checked = 0
    for _ in range(12):
        cards = rng.sample(range(13), rng.randint(7, 9))
        k = rng.randint(1, len(cards) - 1)
        hands = {"N": sorted(cards[:k], reverse=True), "S": sorted(cards[k:], reverse=True)}
        tricks = []
        for _ in range(rng.randint(1, 3)):
            lead = rng.choice("NS")
            other = "S" if lead == "N" else "N"
            trick = [f"{lead}:{rng.choice(['x'] + [ranks[c] for c in hands[lead]])}"]
            if rng.random() < 0.5:
                trick.append(f"{other}:{rng.choice(['x'] + [ranks[c] for c in hands[other]])}")
            tricks.append(" ".join(trick))
        north, south = ("".join(ranks[c] for c in hands[s]) for s in "NS")
        for defence in ("omniscient", "random-equals"):
            try:
                r = suitplay(north, south, line="; ".join(tricks), defence=defence)
            except ConstraintError as e:
                assert "which has no cards left" in str(e)
                continue
            assert r.named is not None and sum(r.named.distribution) == 1
            for t in r.targets:
                assert r.named.at_least(t.tricks) <= t.probability_exact, (north, south, tricks, defence)
            assert r.named.mean_exact <= r.mean_line.probability_exact
            checked += 1
    assert checked >= 12
