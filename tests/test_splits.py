"""Exact suit splits, card placement and restricted choice (cardlab.bridge.splits, `bridge split`)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from math import comb

import pytest

from cardlab.bridge.splits import card_layouts, suit_split
from cardlab.errors import ConstraintError, DeckError

# The a-priori table of "Probability of Suit Distributions in Two Hidden Hands" (the table of
# Wikipedia's "Bridge probabilities" article), as published at
# https://www.liquisearch.com/bridge_probabilities/probability_of_suit_distributions_in_two_hidden_hands
# missing cards: [(longer, shorter, probability to 2 places, combinations, individual probability)]
PUBLISHED = {
    2: [(1, 1, "0.52", 2, "0.26"), (2, 0, "0.48", 2, "0.24")],
    3: [(2, 1, "0.78", 6, "0.13"), (3, 0, "0.22", 2, "0.11")],
    4: [(2, 2, "0.41", 6, "0.0678"), (3, 1, "0.50", 8, "0.0622"), (4, 0, "0.10", 2, "0.0478")],
    5: [(3, 2, "0.68", 20, "0.0339"), (4, 1, "0.28", 10, "0.02826"), (5, 0, "0.04", 2, "0.01956")],
    6: [(3, 3, "0.36", 20, "0.01776"), (4, 2, "0.48", 30, "0.01615"), (5, 1, "0.15", 12, "0.01211"),
        (6, 0, "0.01", 2, "0.00745")],
    7: [(4, 3, "0.62", 70, "0.00888"), (5, 2, "0.31", 42, "0.00727"), (6, 1, "0.07", 14, "0.00484"),
        (7, 0, "0.01", 2, "0.00261")],
    8: [(4, 4, "0.33", 70, "0.00467"), (5, 3, "0.47", 112, "0.00421"), (6, 2, "0.17", 56, "0.00306"),
        (7, 1, "0.03", 16, "0.00178"), (8, 0, "0.00", 2, "0.00082")],
}

# Exact counts of West's hands for 4 missing cards (you and dummy hold 9), as
# http://durangobill.com/BrSplitStats.html gives them: COMBIN(4,k) * COMBIN(22,13-k).
DURANGO_4 = {4: 497_420, 3: 2_586_584}


@pytest.mark.parametrize("n", sorted(PUBLISHED))
def test_a_priori_table_matches_the_published_one(n: int) -> None:
    table = suit_split(n)
    either = {(int(r.west), int(r.east)): r for r in table.either_way}
    assert len(either) == len(PUBLISHED[n])
    for longer, shorter, prob, combos, single in PUBLISHED[n]:
        row = either[(longer, shorter)]
        assert f"{float(row.probability):.2f}" == prob
        # combinations: the ways to pick the particular cards of the split, either way round
        assert combos == (1 if longer == shorter else 2) * comb(n, longer)
        # the individual probability of one particular layout, to the digits published
        individual = float(Fraction(comb(26 - n, 13 - longer), comb(26, 13)))
        digits = len(single.split(".")[1])
        assert abs(individual - float(single)) < 10 ** -digits
        assert row.probability == Fraction(combos * comb(26 - n, 13 - longer), comb(26, 13))


def test_durangobill_counts_by_seat() -> None:
    rows = {int(r.west): r.count for r in suit_split(4).rows}
    assert rows[4] == DURANGO_4[4] and rows[3] == DURANGO_4[3]
    assert rows[0] == rows[4] and rows[1] == rows[3]


def test_classic_five_card_figures() -> None:
    either = {r.west + "-" + r.east: r.probability for r in suit_split(5).either_way}
    assert [round(100 * float(either[k]), 2) for k in ("3-2", "4-1", "5-0")] == [67.83, 28.26, 3.91]


@pytest.mark.parametrize("vacant", [(13, 13), (10, 12), (7, 3), (13, 0), (1, 12)])
def test_counts_sum_to_the_ways_to_divide_the_unseen_cards(vacant: tuple[int, int]) -> None:
    # Vandermonde: sum_k C(n, k) C(w+e-n, w-k) = C(w+e, w); with no vacant places C(26, 13) = 10,400,600
    w, e = vacant
    for n in range(1, min(13, w + e) + 1):
        table = suit_split(n, vacant)
        assert sum(r.count for r in table.rows) == comb(w + e, w) == table.total
        assert sum(r.count for r in table.either_way) == comb(w + e, w)
        assert sum(r.probability for r in table.rows) == 1
    assert suit_split(6).total == comb(26, 13) == 10_400_600
    for cards in ("KJ54", "AQT98", "QJxx", "x", "AKQJT98765432"):
        layouts = card_layouts(cards, vacant if len(cards) <= w + e else None)
        assert sum(r.count for r in layouts.rows) == layouts.total


def _brute_split(n: int, w: int, e: int) -> dict[int, int]:
    """Every West hand from the w+e unseen cards (cards 0..n-1 are the suit's): West's length."""
    counts: dict[int, int] = {}
    for west in itertools.combinations(range(w + e), w):
        k = sum(1 for c in west if c < n)
        counts[k] = counts.get(k, 0) + 1
    return counts


@pytest.mark.parametrize("n,w,e", [(3, 4, 5), (5, 6, 5), (4, 2, 9), (6, 7, 6), (2, 1, 1)])
def test_vacant_places_against_enumeration(n: int, w: int, e: int) -> None:
    brute = _brute_split(n, w, e)
    table = suit_split(n, (w, e))
    assert {int(r.west): r.count for r in table.rows} == brute


# --- an independent play model, on concrete cards ---------------------------------------------

_ORDER = "AKQJT98765432"


def _concrete(holding: str) -> list[str]:
    """The missing cards as concrete ranks: 'x' becomes the lowest ranks not already named."""
    named = [c for c in holding if c != "x"]
    free = [r for r in reversed(_ORDER) if r not in named]
    return named + free[: holding.count("x")]


def _play_chance(west: set[str], east: set[str], plays: list[tuple[str, str]], ours: set[str]) -> Fraction:
    """Chance that the defenders make ``plays`` holding ``west``/``east`` (concrete ranks): each
    follows with his lowest card, or, when that is an honour (A..T), with any card in sequence with
    it (every rank between them his own or played already); a small card (9..2) played is reported as 'x'."""
    hands = {"W": set(west), "E": set(east)}
    gone: set[str] = set()
    chance = Fraction(1)
    for seat, card in plays:
        if seat in "NS":
            gone.add(card)
            continue
        hand = hands[seat]
        if card == "-":
            if hand:
                return Fraction(0)
            continue
        if not hand:
            return Fraction(0)
        lowest = max(hand, key=_ORDER.index)
        if lowest not in "AKQJT":  # small cards are alike: he plays one of them
            if card != "x":
                return Fraction(0)
            hand.discard(lowest)
            gone.add(lowest)
            continue
        options = [c for c in hand
                   if all(r in gone or r in hand for r in _ORDER[_ORDER.index(c) + 1:_ORDER.index(lowest)])]
        if card not in options:
            return Fraction(0)
        chance /= len(options)
        hand.discard(card)
        gone.add(card)
    return chance


def _brute_layouts(holding: str, w: int, e: int, plays: list[tuple[str, str]]) -> dict[tuple[str, str], Fraction]:
    """Enumerate every West hand of the w+e unseen cards; weigh each by the chance of the plays;
    group by the holdings written with 'x' for small cards."""
    cards = _concrete(holding)
    n = len(cards)
    weights: dict[tuple[str, str], Fraction] = {}
    for west_idx in itertools.combinations(range(w + e), w):
        west = {cards[i] for i in west_idx if i < n}
        east = set(cards) - west
        chance = _play_chance(west, east, plays, set())
        if chance:
            key = (_written(west), _written(east))
            weights[key] = weights.get(key, Fraction(0)) + chance
    total = sum(weights.values())
    return {k: v / total for k, v in weights.items()}


def _written(cards: set[str]) -> str:
    honours = "".join(c for c in "AKQJT" if c in cards)
    return (honours + "x" * sum(1 for c in cards if c not in "AKQJT")) or "-"


@pytest.mark.parametrize("holding,vacant,played", [
    ("QJxx", (6, 5), "W:Q"),
    ("QJxx", (7, 7), "W:x E:J"),
    ("KQxx", (6, 5), "W:x E:Q W:x"),
    ("AQTx", (6, 6), "N:K W:x E:T"),
    ("KJ54", (5, 6), ""),
    ("AKQJ", (4, 8), "W:J E:- "),
    ("KQJ", (6, 6), "N:A W:Q"),
])
def test_layouts_and_plays_against_enumeration(holding: str, vacant: tuple[int, int], played: str) -> None:
    plays = [tuple(p.split(":")) for p in played.split()]
    brute = _brute_layouts(holding, *vacant, [(s, c) for s, c in plays])
    table = card_layouts(holding, vacant, played or None)
    assert {(r.west, r.east): r.probability for r in table.rows} == brute
    if not played:  # a-priori counts are the number of West hands, exactly
        counts: dict[tuple[str, str], int] = {}
        cards = _concrete(holding)
        for west_idx in itertools.combinations(range(sum(vacant)), vacant[0]):
            west = {cards[i] for i in west_idx if i < len(cards)}
            key = (_written(west), _written(set(cards) - west))
            counts[key] = counts.get(key, 0) + 1
        assert {(r.west, r.east): r.count for r in table.rows} == counts


@pytest.mark.parametrize("holding,played", [
    ("QJxx", "W:Q"), ("QJxx", "W:x E:J"), ("KJ54", ""), ("AQT9x", "W:x E:T"), ("KQJT", "N:A W:J E:T"),
    ("QTxxx", "W:x E:T W:x E:Q"), ("QTxxx", "N:J W:x E:Q"),
])
def test_full_deal_against_the_cards_that_matter(holding: str, played: str) -> None:
    """13 vacant places each: enumerate the 2^n ways the n missing (concrete) cards can lie, each
    weighted by the C(26 - n, 13 - k) ways to fill West's other places, and by the plays' chance."""
    plays = [tuple(p.split(":")) for p in played.split()]
    cards = _concrete(holding)
    n = len(cards)
    weights: dict[tuple[str, str], Fraction] = {}
    for mask in range(1 << n):
        west = {c for i, c in enumerate(cards) if mask >> i & 1}
        chance = _play_chance(west, set(cards) - west, [(s, c) for s, c in plays], set())
        if chance:
            key = (_written(west), _written(set(cards) - west))
            weights[key] = weights.get(key, Fraction(0)) + comb(26 - n, 13 - len(west)) * chance
    total = sum(weights.values())
    table = card_layouts(holding, played=played or None)
    assert {(r.west, r.east): r.probability for r in table.rows} == {k: v / total for k, v in weights.items()}


def test_restricted_choice_is_11_17_not_2_3() -> None:
    table = card_layouts("QJxx", played="W:Q")
    rows = {(r.west, r.east): r for r in table.rows}
    assert set(rows) == {("Q", "Jxx"), ("QJ", "xx")}
    # the finesse through East wins when West's queen was a singleton: exactly 11/17 (64.7%)
    assert rows[("Q", "Jxx")].probability == Fraction(11, 17)
    assert rows[("QJ", "xx")].probability == Fraction(6, 17)
    place = {p.card: p for p in table.places}
    assert 1 - place["J"].west == Fraction(11, 17) != Fraction(2, 3)
    # the cards that matter by hand: a given singleton Q (22 other cards, 12 places) vs the QJ
    # doubleton (11 places) with West dropping the queen half the time
    single, double = comb(22, 12), Fraction(comb(22, 11), 2)
    assert single / (single + double) == Fraction(11, 17)
    assert "textbook 2/3" in table.table() and "C(22,12) : C(22,11) = 11:12" in table.table()


def test_card_placement_king_onside() -> None:
    table = card_layouts("KJxx")
    rows = {(r.west, r.east): r.probability for r in table.rows}
    # singleton or doubleton king with West, with his C(22, 12) and C(22, 11)-weighted partners
    assert rows[("K", "Jxx")] == Fraction(comb(22, 12), comb(26, 13))
    assert rows[("Kx", "Jx")] == Fraction(2 * comb(22, 11), comb(26, 13))
    assert sum(p for (w, _), p in rows.items() if "K" in w) == Fraction(1, 2)


def test_bad_input_errors() -> None:
    with pytest.raises(DeckError, match="'14'"):
        suit_split(14)
    with pytest.raises(DeckError, match="both missing"):
        card_layouts("QJxx", played="S:J")
    with pytest.raises(DeckError, match="not among the missing"):
        card_layouts("QJxx", played="W:K")
    with pytest.raises(DeckError, match="played twice"):
        card_layouts("QJxx", played="W:Q E:Q")
    with pytest.raises(ConstraintError, match="do not fit"):
        suit_split(6, "2,3")
    with pytest.raises(ConstraintError, match="'3,14'"):
        suit_split(2, "3,14")
    with pytest.raises(ConstraintError, match="no layout"):
        card_layouts("QJxx", played="W:Q W:J W:x W:x W:x")
    with pytest.raises(DeckError, match="'Z'"):
        card_layouts("QZ")
    # vacant places that leave no room for a doubleton: no textbook note, no division by zero
    one_sided = card_layouts("QJxx", (13, 0), played="W:x")
    assert [r.probability for r in one_sided.rows] == [1] and not any("textbook" in n for n in one_sided.notes)


@pytest.mark.parametrize("argv,token", [
    (("14",), "'14'"),
    (("--cards", "AKQJT98765432x"), "14"),
    (("--cards", "QJxx", "--played", "N:Q"), "both missing"),
    (("5", "--vacant", "2,2"), "do not fit"),
    (("5", "--vacant", "two"), "'two'"),
    (("--played", "W:Q"), "--cards"),
    (("4", "--cards", "QJx"), "names 3"),
])
def test_cli_bad_input_one_line_exit_2(run, argv: tuple[str, ...], token: str) -> None:
    status, out, err = run("bridge", "split", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("cardlab: error: ") and token in err


def test_cli_json_schema(run) -> None:
    status, out, _ = run("bridge", "split", "5", "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["missing"] == "5 cards" and data["vacant"] == [13, 13]
    assert data["rows"][2] == {"west": "3", "east": "2", "count": 3_527_160, "probability": 39 / 115,
                               "probability_exact": "39/115"}
    status, out, _ = run("bridge", "split", "--cards", "QJxx", "--played", "W:Q", "--format", "json")
    data = json.loads(out)
    assert [r["probability_exact"] for r in data["rows"]] == ["6/17", "11/17"]
    assert data["rows"][0]["likelihood_exact"] == "1/2"


def test_cli_table(run) -> None:
    status, out, _ = run("bridge", "split", "5")
    assert status == 0
    line = next(l for l in out.splitlines() if l.startswith("3     2"))
    assert "7,054,320" in line and "67.83%" in line and "78/115" in line
