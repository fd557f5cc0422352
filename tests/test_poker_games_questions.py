"""Issue 38: questions a user asks that the command line could not be asked (docs/games.md).

- 2-7 and A-5 category tables with cards removed (`poker odds --game 27 --remove ...`);
- ace-to-five as the best five of 6, 7 or 8 cards (`--game a5 --cards 8`: an Omaha hi-lo low's cards);
- stud high: the final categories of a starting hand (`poker odds --game stud --hand ...`);
- `poker equity --game stud` refuses hands of fewer than three cards;
- `poker odds --cards`: its help and its error say the same range.

Each figure is checked against an independent route: the plain-loop evaluators of
tests/test_poker_games.py over every hand of a reduced deck, a rank-multiset brute force written
here, or a seeded simulation within its 95% interval.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
import pytest

from cardlab.cards import format_cards, parse_card_ids
from cardlab.cli.main import main
from cardlab.errors import HandError
from cardlab.poker.evaluator import strengths
from cardlab.poker.games import A5_CATEGORIES, completion_odds, game_equity, game_odds
from cardlab.poker.kernel import CATEGORY_SHIFT
from cardlab.poker.lowball import razz_odds
from cardlab.poker.rules import STANDARD
from test_poker_games import a5_category, a5_of_ranks, deuce_category, eight_key

STUD = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
        "four_of_a_kind", "straight_flush")


def _table(t) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {name: t.exact.count(name) for name in t.exact.values if t.exact.count(name)}


@pytest.mark.parametrize("game", ["27", "a5"])
def test_27_and_a5_odds_with_cards_removed(game: str) -> None:
    # 32 cards removed leave 20: every 5-card hand of them (15,504) by the plain loop
    rng = random.Random(game)
    removed = sorted(rng.sample(range(52), 32))
    deck = [c for c in range(52) if c not in removed]
    plain: Counter[str] = Counter()
    for hand in combinations(deck, 5):
        plain[deuce_category(list(hand)) if game == "27" else a5_category(list(hand), False)] += 1
    t = game_odds(game, 5, remove=format_cards(removed))
    assert _table(t) == dict(plain)
    assert t.exact.total == comb(20, 5) and "without" in t.title and "(20 cards)" in t.title


def test_27_odds_with_cards_removed_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    # the refusal of issue 38 (`--game 27 --remove` took only --cards) is an answer now
    assert main(["poker", "odds", "--game", "27", "--remove", "7s 5d 4c 3h", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == comb(48, 5)
    counts = {row["category"]: row["count"] for row in data["rows"]}
    # the 7-high hands need ranks 7 to 2 only: every hand of the 20 such cards left, by the plain loop
    removed = parse_card_ids("7s 5d 4c 3h")
    small = [c for c in range(52) if c // 4 <= 5 and c not in removed]
    assert len(small) == 20
    plain = sum(deuce_category(list(hand)) == "7_high" for hand in combinations(small, 5))
    assert counts["7_high"] == plain < game_odds("27", 5).exact.count("7_high")


def _a5_by_rank_multisets(k: int) -> dict[str, int]:
    """Every multiset of k ranks (each at most 4), weighted by its suit choices, its best five by
    the plain loop (every five tried)."""
    out: Counter[str] = Counter()
    names = ["5_high", "6_high", "7_high", "8_high", "9_high", "10_high", "jack_high", "queen_high", "king_high"]
    for ranks in combinations_with_replacement(range(13), k):
        count = Counter(ranks)
        if max(count.values()) > 4:
            continue
        ways = 1
        for c in count.values():
            ways *= comb(4, c)
        pattern, order = a5_of_ranks(tuple(sorted(ranks)))
        out[A5_CATEGORIES[5 - pattern] if pattern else names[order[0] - 4]] += ways
    return dict(out)


@pytest.mark.parametrize("k", [6])  # 7: razz's route and a published figure, below
def test_a5_best_five_of_6_and_7_cards(k: int) -> None:
    t = game_odds("a5", k)
    assert _table(t) == _a5_by_rank_multisets(k)
    assert t.exact.total == comb(52, k)


def test_a5_best_five_of_8_cards() -> None:
    # 8 cards: the lows are razz's lowball route (lowball.low_categories, numpy, no kernel) and
    # the paired hands a rule: 4 ranks make one pair; 3 ranks two pair (two of them twice or
    # more) else trips; 2 ranks a full house; so four of a kind never is the best five
    t = game_odds("a5", 8)
    assert t.exact.total == comb(52, 8)
    lows = {name: t.exact.count(name) for name in t.exact.values if name.endswith("_high")}
    from cardlab.poker.lowball import LOW_CATEGORIES, low_categories

    chosen = np.array(list(combinations_with_replacement(range(13), 8)))
    rows = (chosen[:, :, None] == np.arange(13)).sum(axis=1)
    rows = rows[(rows <= 4).all(axis=1)]
    ways = np.prod(np.array([comb(4, c) for c in range(5)])[rows], axis=1)
    tally = np.bincount(low_categories(rows), weights=ways, minlength=len(LOW_CATEGORIES))
    assert lows == {name: int(tally[i]) for i, name in enumerate(LOW_CATEGORIES) if name != "paired"}
    distinct = (rows > 0).sum(axis=1)
    twice = (rows >= 2).sum(axis=1)
    expected = {"one_pair": int(ways[distinct == 4].sum()),
                "two_pair": int(ways[(distinct == 3) & (twice >= 2)].sum()),
                "three_of_a_kind": int(ways[(distinct == 3) & (twice < 2)].sum()),
                "full_house": int(ways[distinct == 2].sum()), "four_of_a_kind": 0}
    assert {name: t.exact.count(name) for name in expected} == expected
    assert expected["three_of_a_kind"] == 0 and expected["full_house"] == 78  # C(13,2) x 1 way of 4+4


def test_a5_7_card_lows_are_razz_lows_and_its_pairs_razz_paired() -> None:
    # a published table: Wikipedia, "Poker probability", 7-card ace-to-five low: 5-high 781,824
    a5, razz = game_odds("a5", 7).exact, razz_odds(7).exact
    assert a5.count("5_high") == razz.count("5_high") == 781_824
    for name in razz.values:
        if name != "paired":
            assert a5.count(name) == razz.count(name)
    assert sum(a5.count(n) for n in ("four_of_a_kind", "full_house", "three_of_a_kind", "two_pair", "one_pair")) \
        == razz.count("paired")


def test_a5_cards_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["poker", "odds", "--game", "a5", "--cards", "7"]) == 0
    assert "781,824" in capsys.readouterr().out
    assert main(["poker", "odds", "--cards", "8"]) == 2
    assert "--cards 8 is for --game a5" in capsys.readouterr().err


def _plain_high(cards: list[int]) -> int:
    """The stud category index (high card 0 .. straight flush 8) of the best five: every five tried."""
    best = 0
    for five in combinations(cards, 5):
        ranks = sorted((c // 4 for c in five), reverse=True)
        flush = len({c % 4 for c in five}) == 1
        shape = sorted(Counter(ranks).values(), reverse=True)
        distinct = sorted(set(ranks), reverse=True)
        straight = len(distinct) == 5 and (distinct[0] - distinct[4] == 4 or distinct == [12, 3, 2, 1, 0])
        if straight and flush:
            kind = 8
        elif shape[0] == 4:
            kind = 7
        elif shape[:2] == [3, 2]:
            kind = 6
        elif flush:
            kind = 5
        elif straight:
            kind = 4
        else:
            kind = {3: 3, 2: 2 if shape[:2] == [2, 2] else 1, 1: 0}[shape[0]]
        best = max(best, kind)
    return best


def test_stud_high_draws_from_known_cards_by_brute_force() -> None:
    # five known cards (a four-flush with a pair): every one of the C(47, 2) = 1,081 pairs to come
    known = parse_card_ids("Ah Kh 7h 2h 2s")
    deck = [c for c in range(52) if c not in known]
    plain: Counter[str] = Counter(STUD[_plain_high(known + list(two))] for two in combinations(deck, 2))
    t = completion_odds("Ah Kh 7h 2h 2s", "stud")
    assert _table(t) == dict(plain) and t.exact.total == 1081
    # with dead cards: two hearts seen folded
    dead = parse_card_ids("Qh Jh")
    deck = [c for c in deck if c not in dead]
    plain = Counter(STUD[_plain_high(known + list(two))] for two in combinations(deck, 2))
    assert _table(completion_odds("Ah Kh 7h 2h 2s", "stud", dead="Qh Jh")) == dict(plain)


def test_stud_high_draws_from_three_cards_within_a_simulation() -> None:
    # third street (C(49, 4) = 211,876 completions) against 200,000 random completions valued by
    # the hold'em evaluator (strengths), each category within its 95% interval
    t = completion_odds("Ks Kd 7c", "stud")
    known = parse_card_ids("Ks Kd 7c")
    deck = np.array([c for c in range(52) if c not in known], dtype=np.uint8)
    rng = np.random.default_rng(38)
    n = 200_000
    picks = np.argsort(rng.random((n, len(deck))), axis=1)[:, :4]
    hands = np.concatenate([np.broadcast_to(np.array(known, dtype=np.uint8), (n, 3)), deck[picks]], axis=1)
    positions, counts = np.unique(strengths(hands) >> CATEGORY_SHIFT, return_counts=True)
    simulated: Counter[str] = Counter()
    for position, count in zip(positions, counts):
        key = STANDARD.order[int(position)].key
        simulated["straight_flush" if key == "royal_flush" else key] += int(count)
    for name in STUD:
        p = t.exact.count(name) / t.exact.total
        half = 1.96 * (p * (1 - p) / n) ** 0.5 + 1 / n
        assert abs(simulated[name] / n - p) <= half, name
    assert t.exact.total == 211_876


def test_rolled_up_trips_fill_up_about_40_percent() -> None:
    # the figure stud players quote for rolled-up trips (full house or better by seventh street):
    # "about 40%"; exactly 85,162 / 211,876 here (40.19%)
    t = completion_odds("As Ad Ac", "stud")
    better = sum(t.exact.count(n) for n in ("full_house", "four_of_a_kind", "straight_flush"))
    assert better == 85_162 and round(better / t.exact.total, 2) == 0.40


def test_stud_hand_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["poker", "odds", "--game", "stud", "--hand", "As Ad Ac"]) == 0
    out = capsys.readouterr().out
    assert "211,876" in out and "full_house" in out
    assert main(["poker", "odds", "--game", "stud", "--hand", "As Ad"]) == 2
    assert "3 to 6 cards" in capsys.readouterr().err


def test_stud_equity_refuses_2_card_hands(capsys: pytest.CaptureFixture[str]) -> None:
    for game in ("stud", "stud8", "razz"):
        with pytest.raises(HandError, match="starts with 3 cards"):
            game_equity(["As Ad", "Kc Kd 2s"], game)
    assert main(["poker", "equity", "--game", "stud", "As Ad", "Kc Kd", "--simulate", "1000"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == ("cardlab: error: a stud hand starts with 3 cards (two down, one up); player 1's 'As Ad' "
                           "has 2")


def test_odds_cards_help_and_error_agree(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["poker", "odds", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "5 to 8" in help_text and "badugi 4" in help_text
    with pytest.raises(SystemExit):
        main(["poker", "odds", "--cards", "9"])
    assert "from 4 to 8" in capsys.readouterr().err  # 4 (badugi) to 8 (a5), as the help says
    for cards, game in ((4, "badugi"), (8, "a5")):
        assert main(["poker", "odds", "--game", game, "--cards", str(cards)]) == 0
        capsys.readouterr()


def _plain_stud8_split(hands: list[list[int]]) -> list[tuple[Fraction, Fraction, Fraction]]:
    """Per player (scoop, high only, low only) over every deal of one card each to two 6-card hands,
    the high by the hold'em evaluator, the low by the plain loop (eight_key)."""
    deck = [c for c in range(52) if c not in {c for h in hands for c in h}]
    deals = [[hands[0] + [a], hands[1] + [b]] for a in deck for b in deck if a != b]
    high = strengths(np.array([h for d in deals for h in d], dtype=np.uint8)).reshape(len(deals), 2)
    tally = [[0, 0, 0], [0, 0, 0]]
    for d, hi in zip(deals, high):
        lows = [eight_key(h) for h in d]
        best_high = max(hi)
        qualified = [k for k in lows if k is not None]
        best_low = min(qualified) if qualified else None  # eight_key: ranks highest first, smaller better
        for i in range(2):
            got_high = hi[i] == best_high
            got_low = best_low is not None and lows[i] == best_low
            alone_high = got_high and sum(h == best_high for h in hi) == 1
            alone_low = got_low and sum(k == best_low for k in lows) == 1
            tally[i][0] += (alone_high and (best_low is None or alone_low))
            tally[i][1] += best_low is not None and got_high and not got_low
            tally[i][2] += got_low and not got_high
    return [tuple(Fraction(x, len(deals)) for x in row) for row in tally]  # type: ignore[misc]


def test_hi_lo_split_of_stud8_equity() -> None:
    # issue 38: stud8 equity gives the scoop, the high only and the low only of each player
    specs = ["As 2s 3d 7c Kh Kd", "Qs Qh 4d 5d 8c 9s"]
    exact = game_equity(specs, "stud8")
    plain = _plain_stud8_split([parse_card_ids(s) for s in specs])
    for player, (scoop, high, low) in zip(exact.players, plain):
        assert player.split == {"scoop": pytest.approx(float(scoop)), "high_only": pytest.approx(float(high)),
                                "low_only": pytest.approx(float(low))}
    assert 0 < exact.players[0].low_only < 1 and 0 < exact.players[1].high_only < 1  # both kinds occur
    # the compiled simulation within its interval of each exact share
    sim = game_equity(specs, "stud8", trials=100_000, seed=38)
    n = sim.total
    for e, s in zip(exact.players, sim.players):
        for key in ("scoop", "high_only", "low_only"):
            p = e.split[key]  # type: ignore[index]
            assert abs(s.split[key] - p) <= 1.96 * (p * (1 - p) / n) ** 0.5 + 1 / n, key  # type: ignore[index]
    data = exact.to_dict()["players"][0]
    assert set(data) >= {"scoop", "high_only", "low_only"} and "high only" in exact.table()
    assert game_equity(["As Ad Kc", "Qh Qs Jd", ], "stud", trials=1000, seed=1).players[0].split is None
