"""Board statistics: every class against plain loops written here (made hands valued by treys,
pairs and draws by their definitions over sets of ranks and suits), published flop-texture
counts, the claim that only four flops allow no straight on any turn, and the CLI."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
from treys import Card, Evaluator

from cardlab.cards import parse_card_ids
from cardlab.cli.main import main
from cardlab.errors import DeckError, RangeError
from cardlab.poker.board_stats import board_stats, flop_textures

_EVAL = Evaluator()
_TREYS_CLASS = {1: "straight flush", 2: "four of a kind", 3: "full house", 4: "flush", 5: "straight",
                6: "three of a kind", 7: "two pair", 8: "one pair", 9: "high card"}
_STRENGTH = ["high card", "one pair", "two pair", "three of a kind", "straight", "flush", "full house",
             "four of a kind", "straight flush"]


def name(c: int) -> str:
    return "23456789TJQKA"[c // 4] + "cdhs"[c % 4]


def made(cards: list[int]) -> str:
    score = _EVAL.evaluate([Card.new(name(c)) for c in cards[2:]], [Card.new(name(c)) for c in cards[:2]])
    return _TREYS_CLASS[_EVAL.get_rank_class(score)]


def best_straight(ranks: set[int]) -> int:
    """Top rank of the best straight in a set of ranks, -1 if none (the wheel tops at 3)."""
    best = -1
    for top in range(3, 13):
        need = {12, 0, 1, 2, 3} if top == 3 else set(range(top - 4, top + 1))
        if need <= ranks:
            best = top
    return best


def plain_classes(hole: tuple[int, int], board: list[int]) -> set[str]:
    cards = list(hole) + board
    out = {made(cards)}
    strength = _STRENGTH.index(made(cards))
    hr = [c // 4 for c in hole]
    br = sorted({c // 4 for c in board}, reverse=True)
    if strength <= 2:
        pairing = [r for r in hr if r in br]
        if hr[0] == hr[1] and hr[0] > br[0]:
            out.add("overpair")
        elif pairing:
            p = max(pairing)
            out.add("top pair" if p == br[0] else "bottom pair" if p == br[-1] else "middle pair")
        elif hr[0] == hr[1] and hr[0] < br[0]:
            out.add("underpair")
    if len(board) == 5:
        return out
    deck = [c for c in range(52) if c not in cards]
    fd = False
    for s in range(4):
        held = [c for c in cards if c % 4 == s]
        if len(held) == 4 and any(c % 4 == s for c in hole) and strength < 5:
            fd = True
            missing = max(c // 4 for c in range(s, 52, 4) if c not in board)
            if any(c == missing * 4 + s for c in hole):
                out.add("nut flush draw")
    if fd:
        out.add("flush draw")
    ranks, board_ranks = {c // 4 for c in cards}, {c // 4 for c in board}
    outs = {c // 4 for c in deck if best_straight(ranks | {c // 4}) > best_straight(board_ranks | {c // 4})}
    if strength < 4 and len(outs) >= 2:
        out.add("open-ended")
    if strength < 4 and len(outs) == 1:
        out.add("gutshot")
    if fd and strength < 4 and outs:
        out.add("combo draw")
    if len(board) == 3:
        if not fd and strength < 5 and any(sum(1 for c in cards if c % 4 == s) == 3 and any(h % 4 == s for h in hole)
                                           for s in range(4)):
            out.add("backdoor flush draw")
        if strength < 4 and not outs and any(
                best_straight(ranks | {a, b}) > best_straight(board_ranks | {a, b})
                for a, b in combinations(range(13), 2)):
            out.add("backdoor straight draw")
    return out


@pytest.mark.parametrize("board", ["Qh 9c 2d", "Th 9h 8c", "Ks Kd 2c", "7h 6h 2h 5c",
                                   "As 5d 4c Qs 9s", "Jc Jd 9c"])
def test_every_class_against_plain_loops(board: str) -> None:
    b = parse_card_ids(board)
    got = board_stats("random", b)
    expected: Counter[str] = Counter()
    holes = [h for h in combinations(range(52), 2) if not set(h) & set(b)]
    for h in holes:
        for cls in plain_classes((max(h), min(h)), b):
            expected[cls] += 1
    assert got.total == len(holes)
    for c in got.classes:
        assert c.combos == expected[c.name], (board, c.name)
        assert c.probability == pytest.approx(c.combos / len(holes))


def test_worked_example_and_weights() -> None:
    s = board_stats("QQ+, AK", "Qh 9c 2d")
    # QQ: 3 sets (one queen is on the board); KK, AA: 12 overpairs; AK: 16 high cards
    assert (s.count("three of a kind"), s.count("overpair"), s.count("high card"), s.total) == (3, 12, 16, 31)
    w = board_stats("AA@3, KK@1", "Qh 9c 2d")
    assert w.count("overpair") == 12
    share = {c.name: c.probability for c in w.classes}
    assert share["overpair"] == 1.0
    generic = board_stats("AxKx", "Qh 9c 2d")
    assert generic.total == 4 and generic.count("backdoor flush draw") == 3


def test_flop_textures_published_counts() -> None:
    # opttrader.blogspot.com, "Texas Hold'em Poker Probability - Flop (3 cards)" (Sept 2014): of
    # 22,100 flops, 52 trips, 3,744 paired, a "2 card flush" (two-tone) 12,168, and a flush or
    # straight flush (monotone) 1,096 + 48; so rainbow 22,100 - 12,168 - 1,144 = 8,788 and unpaired
    # 22,100 - 3,744 - 52 = 18,304 (82.82%; two-tone 55.06%, rainbow 39.76%, monotone 5.18%).
    t = flop_textures()
    assert (t["unpaired"], t["paired"], t["trips"]) == (18304, 3744, 52)
    assert (t["two-tone"], t["rainbow"], t["monotone"]) == (12168, 8788, 1144)
    # connected: every three different ranks inside five consecutive ranks, by plain loops
    connected = 0
    for flop in combinations(range(52), 3):
        ranks = {c // 4 for c in flop}
        if len(ranks) == 3 and any(ranks <= ({12, 0, 1, 2, 3} if t0 == 3 else set(range(t0 - 4, t0 + 1)))
                                   for t0 in range(3, 13)):
            connected += 1
    assert t["connected"] == connected


def test_only_four_flops_allow_no_straight_on_any_turn() -> None:
    # Every unpaired flop (by ranks), every turn rank and every two hole ranks: a flop "allows no
    # straight on any turn" when no turn and no holding make a straight.
    safe = []
    for flop in combinations(range(13), 3):
        if not any(best_straight(set(flop) | {turn, a, b}) >= 0
                   for turn in range(13) for a in range(13) for b in range(13)):
            safe.append("".join("23456789TJQKA"[r] for r in sorted(flop, reverse=True)))
    assert sorted(safe) == ["K72", "K82", "K83", "Q72"]


def test_cli_board_json_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["poker", "board", "QQ+, AK", "--board", "Qh9c2d", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["board"] == "Qh9c2d"
    classes = {c["name"]: c for c in data["classes"]}
    assert classes["overpair"]["combos"] == 12 and classes["three of a kind"]["combos"] == 3
    assert main(["poker", "board", "AA", "--board", "Qh Qh 2d"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Qh is given twice" in err
    assert main(["poker", "board", "AA", "--board", "Ah As Ad"]) == 2
    assert "leaves no combos" in capsys.readouterr().err
    assert main(["poker", "board", "--flops", "all", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["flops"] == 22100
    with pytest.raises(DeckError):
        board_stats("AA", "Qh 9c 2d", dead="9c")
    with pytest.raises(RangeError):
        board_stats("AK?", "Qh 9c 2d")


def test_all_flops_against_plain_loop_over_every_flop() -> None:
    from cardlab.poker.board_stats import all_flops_stats

    aa = (51, 50)  # AsAh
    expected: Counter[str] = Counter()
    flops = [f for f in combinations(range(52), 3) if not set(f) & set(aa)]
    for f in flops:
        for cls in plain_classes(aa, list(f)):
            expected[cls] += 1
    one = all_flops_stats("AsAh")  # not suit-symmetric: every one of the 22,100 flops
    every = {t.name: t for t in one.textures}["all"]
    # a pocket pair flops a set or better on 1 - C(48,3)/C(50,3) of flops (the familiar 11.8%); the
    # 12 x 4 flops of three of another rank make a full house too
    by_name = {c.name: c.combos for c in every.classes}
    assert by_name["three of a kind"] + by_name["full house"] + by_name["four of a kind"] == 19600 - 17296 + 48
    assert every.flops == 22100
    for c in every.classes:
        assert c.combos == expected[c.name], c.name
        assert c.probability == pytest.approx(expected[c.name] / len(flops))
    # AA is suit-symmetric: one flop per suit class, weighted; each of its six combos alike
    six = {t.name: t for t in all_flops_stats("AA").textures}["all"]
    for c in six.classes:
        assert c.combos == 6 * expected[c.name], c.name
        assert c.probability == pytest.approx(expected[c.name] / len(flops))
    textures = {t.name: t.flops for t in one.textures}
    assert textures == {"all": 22100, **flop_textures()}


@pytest.mark.parametrize("spec, game", [("random", "holdem"), ("QQ+, AK, 76s:0.5, AhKh", "holdem"),
                                        ("random", "shortdeck")])
def test_compiled_flop_loop_matches_the_vectorised_classes(spec: str, game: str) -> None:
    # The all-flops kernel (csrc/poker_games.c) classes each combo on each flop itself; the
    # vectorised route of one board (_classify, numpy) is its oracle, flop by flop: the combos
    # in each class, their weights and the live weight of every flop.
    import numpy as np

    from cardlab.poker.board_stats import (DRAW_CLASSES, MADE_CLASSES, PAIR_CLASSES, _classify,
                                           _flop_tallies)
    from cardlab.poker.equity import game_named, range_of
    from cardlab.poker.generic import all_hands

    g = game_named(game)
    rng = range_of(spec, g)
    holes = np.asarray(rng.combos, dtype=np.int64)
    weights = np.asarray(rng.weights, dtype=np.float64)
    flops = all_hands(3, g.lowest_rank).astype(np.int64)[::7]  # every 7th flop: all textures
    combos, shares, live = _flop_tallies(holes, weights, flops, g.rules)
    names = MADE_CLASSES + PAIR_CLASSES + DRAW_CLASSES
    hole_bits = [sum(1 << int(c) for c in h) for h in holes]
    checked = 0
    for j in range(0, len(flops), 25 if spec == "random" else 5):
        flop = flops[j]
        flop_bits = sum(1 << int(c) for c in flop)
        keep = np.array([b & flop_bits == 0 for b in hole_bits])
        masks = _classify(holes[keep], np.broadcast_to(flop, (int(keep.sum()), 3)), g.rules)
        assert live[j] == pytest.approx(weights[keep].sum(), rel=1e-12)
        for i, name in enumerate(names):
            assert combos[j, i] == masks[name].sum(), (format(flop), name)
            assert shares[j, i] == pytest.approx(weights[keep][masks[name]].sum(), rel=1e-12, abs=1e-12)
        checked += 1
    assert checked >= 15
