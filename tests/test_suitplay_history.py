"""Issue 38: suit play after cards have fallen. With ``--defence random-equals`` the cards the
defenders played weigh the layouts (Bayes: prior × the chance of those plays), the model of
``bridge split --played``: a defender follows with one of his lowest equal cards, at random.

Checked against a brute force written here: every card-by-card layout of the cards missing at
the start, its a-priori weight, every sequence of the defenders' random choices among their lowest
equal cards enumerated along declarer's plays, then the card-by-card brute force of
``tests/suitplay_brute.py`` on the posterior weights (the two defence models give the same odds
there: docs/suitplay.md)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from cardlab.bridge.splits import card_layouts
from cardlab.bridge.suitplay import suitplay
from cardlab.errors import ConstraintError
from suitplay_brute import RANKS, best

_NEXT = {"N": "E", "E": "S", "S": "W", "W": "N"}


def _lowest_run(hand: set[int], ours: set[int]) -> list[int]:
    """A defender's lowest card and the cards above it with no declarer card in play between."""
    cards = sorted(hand)
    run = [cards[0]]
    for h in cards[1:]:
        if any(run[-1] < x < h for x in ours):
            break
        run.append(h)
    return run


def _chance(plays: list[tuple[str, int]], declarer: set[int], west: set[int], east: set[int]) -> Fraction:
    """The chance that defenders holding ``west`` and ``east`` at the start play the history,
    by enumerating every sequence of their random choices along declarer's plays: at each of
    his turns a defender picks, each with the same chance, a card of his lowest run (from his
    lowest card up, while no declarer card still in play lies between); the chance of the
    sequences that are the history, added up."""
    total = Fraction(0)

    def walk(i: int, hands: dict[str, frozenset[int]], ours: frozenset[int], seen: tuple[int, ...],
             chance: Fraction) -> None:
        nonlocal total
        if i == len(plays):
            if seen == tuple(c for s, c in plays if s in "WE"):
                total += chance
            return
        seat, card = plays[i]
        after = ours - {c for s, c in plays[i - 3:i + 1] if s in "NS"} if i % 4 == 3 else ours
        if seat not in hands:
            walk(i + 1, hands, after, seen, chance)
            return
        run = _lowest_run(set(hands[seat]), set(ours))
        for choice in run:
            walk(i + 1, {**hands, seat: hands[seat] - {choice}}, after, seen + (choice,), chance / len(run))

    walk(0, {"W": frozenset(west), "E": frozenset(east)}, frozenset(declarer) | {c for s, c in plays if s in "NS"},
         (), Fraction(1))
    return total


def _ranks(text: str) -> set[int]:
    return {RANKS.index(c) for c in text}


def _posterior(north: str, south: str, played: str) -> tuple[str, str, str, object]:
    """Declarer's cards left, the cards gone, and the weigh function for the brute force."""
    plays = [(p[0], RANKS.index(p[2])) for p in played.split()]
    n_left = "".join(c for c in north if RANKS.index(c) not in {r for s, r in plays if s == "N"})
    s_left = "".join(c for c in south if RANKS.index(c) not in {r for s, r in plays if s == "S"})
    missing = set(range(13)) - _ranks(north) - _ranks(south)
    w_played = {r for s, r in plays if s == "W"}
    e_played = {r for s, r in plays if s == "E"}
    left = missing - w_played - e_played

    def weigh(west: frozenset[int]) -> Fraction:
        return _chance(plays, _ranks(n_left) | _ranks(s_left), set(west) | w_played,
                       (left - set(west)) | e_played)
    gone = "".join(RANKS[r] for s, r in plays)
    return n_left, s_left, gone, weigh


def test_suitplay_after_cards_have_fallen_weighs_the_layouts() -> None:
    """AKT98 opposite 5432, the A cashed, East's Q and West's 6 fallen: the finesse for all the
    tricks left wins 11/17 (bridge split's restricted-choice figure), not the 12/23 of the
    drop that treats the fallen cards as removed before the deal."""
    played = "N:A E:Q S:2 W:6"
    r = suitplay("KT98", "543", targets=[4], played=played, defence="random-equals")
    assert r.target(4).probability_exact == Fraction(11, 17)
    assert [(row.west, row.east, row.weight) for row in r.layouts] == \
        [("Jx", "-", Fraction(11, 17)), ("x", "J", Fraction(6, 17))]
    # bridge split, QJ76 missing, East's Q then West's 6: West holds the J 11/17
    split = card_layouts("QJ76", played="E:Q W:6")
    assert sum((row.probability for row in split.rows if "J" in row.west), Fraction(0)) == Fraction(11, 17)
    # the brute force on the posterior weights
    n_left, s_left, gone, weigh = _posterior("AKT98", "5432", played)
    assert (n_left, s_left) == ("KT98", "543")
    by_target, mean = best(n_left, s_left, (12, 12), gone, weigh)  # type: ignore[arg-type]
    assert by_target[4] == Fraction(11, 17) and mean == r.mean_line.probability_exact
    # the omniscient model has no chance for the defenders' plays: the cards are only removed
    assert suitplay("KT98", "543", targets=[4], played=played).target(4).probability_exact == Fraction(12, 23)


def _random_history(rng: random.Random) -> tuple[str, str, str]:
    """A combination and one or two tricks played by the model (defenders from their lowest
    equal cards, at random), declarer's cards at random."""
    while True:
        cards = rng.sample(range(13), rng.randint(6, 8))
        north = set(cards[:rng.randint(2, len(cards) - 3)])
        south = set(cards) - north
        missing = [r for r in range(13) if r not in cards]
        west = set(rng.sample(missing, rng.randint(1, len(missing) - 1)))
        hands = {"N": set(north), "S": set(south), "W": set(west), "E": set(missing) - west}
        tricks = rng.randint(1, 2)
        if min(len(h) for h in hands.values()) < tricks or len(missing) - 2 * tricks > 5:
            continue
        plays: list[tuple[str, int]] = []
        seat = rng.choice("NS")
        for _ in range(4 * tricks):
            hand = sorted(hands[seat])
            if seat in "NS":
                card = rng.choice(hand)
            else:
                ours = hands["N"] | hands["S"] | {c for s, c in plays[len(plays) - len(plays) % 4:] if s in "NS"}
                card = rng.choice(_lowest_run(hands[seat], ours))
            hands[seat].remove(card)
            plays.append((seat, card))
            seat = _NEXT[seat]
        text = " ".join(f"{s}:{RANKS[c]}" for s, c in plays)
        return ("".join(RANKS[r] for r in sorted(north, reverse=True)),
                "".join(RANKS[r] for r in sorted(south, reverse=True)), text)


def test_suitplay_history_against_the_brute_force() -> None:
    rng = random.Random(38)
    for _ in range(24):  # 5 of them have odds other than the cards' mere removal
        north, south, played = _random_history(rng)
        n_left, s_left, gone, weigh = _posterior(north, south, played)
        r = suitplay(n_left or "-", s_left or "-", played=played, defence="random-equals")
        by_target, mean = best(n_left, s_left, (13 - played.count("W:"), 13 - played.count("E:")), gone,
                               weigh)  # type: ignore[arg-type]
        assert {t.tricks: t.probability_exact for t in r.targets} == by_target, (north, south, played)
        assert r.mean_line.probability_exact == mean, (north, south, played)
        assert sum((row.weight for row in r.layouts), Fraction(0)) == 1


def test_suitplay_history_no_layout_fits() -> None:
    # East follows with the Q while a small card (the 2, below declarer's 3) is out: in no layout
    with pytest.raises(ConstraintError, match="no layout is consistent with --played 'E:Q W:6'"):
        suitplay("AKT98", "543", played="E:Q W:6", defence="random-equals")
