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
    pairing = [r for r in hr if r in br]
    if strength == 3:  # three of a kind: which cards make it
        out.add("set" if hr[0] == hr[1] and pairing else "trips" if pairing else "trips on the board")
    if strength == 1:  # one pair: which pair
        if hr[0] == hr[1]:
            above = sum(1 for r in br if r > hr[0])
            out.add("overpair" if above == 0 else "underpair")
            if above:
                out.add("underpair, 1 overcard" if above == 1 else "underpair, 2 overcards" if above == 2
                        else "underpair, 3+ overcards")
        elif pairing:
            p = max(pairing)
            out.add("top pair" if p == br[0] else "bottom pair" if p == br[-1] else "middle pair")
        else:
            out.add("board pair")
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
    # open-ended: two outs x < y, each making a straight, with the four ranks between them held
    # (ranks as straight positions: the ace is -1 below the two as well as 12)
    positions = {r: [r] + ([-1] if r == 12 else []) for r in range(13)}
    held = {p for r in ranks for p in positions[r]}
    open_ended = any(py - px == 5 and all(q in held for q in range(px + 1, py))
                     for x in outs for y in outs for px in positions[x] for py in positions[y])
    if strength < 4 and len(outs) >= 2:
        out.add("open-ended" if open_ended else "double gutshot")
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
                                   "As 5d 4c Qs 9s", "Jc Jd 9c", "8h 8c 8d 5s"])
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
    # consecutive: 12 runs of three ranks (A-2-3 to Q-K-A), 4^3 suits each
    consecutive = sum(1 for flop in combinations(range(52), 3)
                      if sorted({c // 4 for c in flop}) in ([0, 1, 12], *([r, r + 1, r + 2] for r in range(11))))
    assert t["consecutive"] == consecutive == 12 * 64


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

    from cardlab.poker.board_stats import (CLASSES, _classify,
                                           _flop_tallies)
    from cardlab.poker.equity import game_named, range_of
    from cardlab.poker.generic import all_hands

    g = game_named(game)
    rng = range_of(spec, g)
    holes = np.asarray(rng.combos, dtype=np.int64)
    weights = np.asarray(rng.weights, dtype=np.float64)
    flops = all_hands(3, g.lowest_rank).astype(np.int64)[::7]  # every 7th flop: all textures
    combos, shares, live = _flop_tallies(holes, weights, flops, g.rules)
    names = CLASSES
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


def test_board_classes_add_up_as_players_count_them() -> None:
    """Issue 38: Flopzilla's classes are exclusive (each combo in its best made hand) and a
    user adds them up. On Kh8h3c, worked by hand (27 combos once the board is out):
    AA 6 overpairs; QQ 6 underpairs with one card above (the K); 88 3 and 33 3 sets; AKs and KQs
    3 each, top pair (AhKh and KhQh are out); K8s 3, two pair (Ks8s Kd8d Kc8c), in no pair class
    (it was counted as top pair too, so the pair classes added to 21 against 18)."""
    from cardlab.poker.board_stats import CLASSES, SECTIONS

    s = board_stats("AA,QQ,88,33,AKs,KQs,K8s", "Kh8h3c")
    counts = {c.name: c.combos for c in s.classes}
    assert s.total == 27
    assert {n: v for n, v in counts.items() if v and n in SECTIONS[0][1]} == \
        {"three of a kind": 6, "two pair": 3, "one pair": 18}
    assert {n: v for n, v in counts.items() if v and n in SECTIONS[1][1] + SECTIONS[2][1] + SECTIONS[3][1]} == \
        {"set": 6, "overpair": 6, "top pair": 6, "underpair": 6, "underpair, 1 overcard": 6}
    # the same counts from the plain loops of this file (the oracle)
    b = parse_card_ids("Kh8h3c")
    from cardlab.poker.equity import range_of, game_named

    oracle: Counter[str] = Counter()
    for combo in range_of("AA,QQ,88,33,AKs,KQs,K8s", game_named("holdem")).without(frozenset(b)).combos:
        oracle.update(plain_classes((max(combo), min(combo)), b))
    assert {n: v for n, v in counts.items() if v} == {n: v for n, v in oracle.items() if v}
    # over seeded random ranges and boards (flop, turn, river): the made hands add up to the
    # range's live combos, and each section to the class it splits
    rng = __import__("random").Random(38)
    labels = [a + b + s for i, a in enumerate("AKQJT98765432") for b in "AKQJT98765432"[i + 1:] for s in "so"] + \
        [a + a for a in "AKQJT98765432"]
    for trial in range(40):
        spec = ",".join(rng.sample(labels, rng.randint(1, 30)))
        board = rng.sample(range(52), rng.choice((3, 4, 5)))
        try:
            st = board_stats(spec, board)
        except RangeError:  # every combo blocked
            continue
        c = {x.name: x.combos for x in st.classes}
        assert list(c) == list(CLASSES)
        assert sum(c[n] for n in SECTIONS[0][1]) == st.total, (spec, board)
        for _, names, whole in SECTIONS[1:4]:
            assert sum(c[n] for n in names) == c[whole], (spec, board, whole)
        assert sum(x.probability for x in st.classes if x.name in SECTIONS[0][1]) == pytest.approx(1.0)
    for spec in ("AAxx, KQJT, 9876, T9xx", "QQxx, 5432", "KKxx"):
        for size in (3, 4, 5):
            st = board_stats(spec, rng.sample(range(52), size), game="omaha")
            c = {x.name: x.combos for x in st.classes}
            assert sum(c[n] for n in SECTIONS[0][1]) == st.total
            for _, names, whole in SECTIONS[1:4]:
                assert sum(c[n] for n in names) == c[whole], (spec, whole)


def test_open_enders_apart_from_double_gutshots() -> None:
    # On 9h 7c 2d: T8 holds T-9-8-7, open at both ends (a J or a 6): open-ended; J8 holds
    # J-9-8-7, waiting for a T only: a gutshot. On 9 7 3, 65 holds 7-6-5-3 (a 4 fills it) and
    # 9-7-6-5 (an 8): two ranks, not four in a row: a double gutshot.
    s = board_stats("Th8s", "9h 7c 2d")
    assert (s.count("open-ended"), s.count("double gutshot"), s.count("gutshot")) == (1, 0, 0)
    s = board_stats("Jh8s", "9h 7c 2d")
    assert (s.count("open-ended"), s.count("double gutshot"), s.count("gutshot")) == (0, 0, 1)
    s = board_stats("6h5s", "9h 7c 3d")
    assert (s.count("open-ended"), s.count("double gutshot"), s.count("gutshot")) == (0, 1, 0)
    s = board_stats("Ah2s", "5h 4c Kd")  # A-2-x-4-5 needs the 3: a gutshot (the wheel)
    assert (s.count("open-ended"), s.count("double gutshot"), s.count("gutshot")) == (0, 0, 1)
    s = board_stats("3h2s", "5h 4c Kd")  # 5-4-3-2: an ace or a 6
    assert (s.count("open-ended"), s.count("double gutshot")) == (1, 0)
    s = board_stats("AhKs", "Qh Jc 4d")  # A-K-Q-J: only a T, one side
    assert (s.count("open-ended"), s.count("gutshot")) == (0, 1)
    # sets apart from trips: 99 on 9 7 2 a set, A9 on 9 9 2 trips, AK on 9 9 9 the board's
    assert board_stats("9s9d", "9h 7c 2d").count("set") == 1
    assert board_stats("As9d", "9h 9c 2d").count("trips") == 1
    assert board_stats("AsKd", "9h 9c 9d").count("trips on the board") == 1
