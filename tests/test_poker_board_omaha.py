"""Omaha board statistics (``poker board --game omaha``) against a plain loop written here: made
hands valued by treys over every two hole cards with every three board cards, pairs and draws by
their definitions (docs: cardlab.poker.board_stats._classify_omaha) over sets of ranks and suits,
straight draws by trying every rank (and pair of ranks) that could come."""

from __future__ import annotations

import json
import random
from itertools import combinations

import numpy as np
import pytest
from test_poker_board import _EVAL, _STRENGTH, _TREYS_CLASS, name
from treys import Card

from cardlab.cli.main import main
from cardlab.poker.board_stats import CLASSES, _classify_omaha, board_stats
from cardlab.poker.rules import STANDARD


def omaha_made(hole: list[int], board: list[int]) -> str:
    score = min(_EVAL.evaluate([Card.new(name(c)) for c in three], [Card.new(name(c)) for c in two])
                for two in combinations(hole, 2) for three in combinations(board, 3))
    return _TREYS_CLASS[_EVAL.get_rank_class(score)]


def is_straight(ranks: list[int]) -> bool:
    s = set(ranks)
    return len(s) == 5 and (max(s) - min(s) == 4 or s == {12, 0, 1, 2, 3})


def omaha_straight(hole_ranks: list[int], board_ranks: list[int]) -> bool:
    return any(is_straight(list(two) + list(three)) for two in combinations(hole_ranks, 2)
               for three in combinations(board_ranks, 3))


def plain_classes(hole: list[int], board: list[int]) -> set[str]:
    made = omaha_made(hole, board)
    out = {made}
    strength = _STRENGTH.index(made)
    hr = [c // 4 for c in hole]
    br = sorted({c // 4 for c in board}, reverse=True)
    pockets = [a for a, b in combinations(hr, 2) if a == b]
    pairing = [r for r in hr if r in br]
    if strength == 3:
        out.add("set" if any(p in br for p in pockets) else "trips" if pairing else "trips on the board")
    if strength == 1:
        if pockets and max(pockets) > br[0]:
            out.add("overpair")
        elif pairing:
            p = max(pairing)
            out.add("top pair" if p == br[0] else "bottom pair" if p == br[-1] else "middle pair")
        elif pockets:
            above = sum(1 for r in br if r > max(pockets))
            out.add("underpair")
            out.add("underpair, 1 overcard" if above == 1 else "underpair, 2 overcards" if above == 2
                    else "underpair, 3+ overcards")
        else:
            out.add("board pair")
    if len(board) == 5:
        return out
    fd = False
    for s in range(4):
        in_hole = [c for c in hole if c % 4 == s]
        if len(in_hole) >= 2 and sum(c % 4 == s for c in board) == 2 and strength < 5:
            fd = True
            missing = max(c // 4 for c in range(s, 52, 4) if c not in board)
            if missing * 4 + s in hole:
                out.add("nut flush draw")
        if len(board) == 3 and len(in_hole) >= 2 and sum(c % 4 == s for c in board) == 1:
            out.add("backdoor flush candidate")
    if fd:
        out.add("flush draw")
    bk = [c // 4 for c in board]
    outs = {r for r in range(13) if omaha_straight(hr, bk + [r])}
    # open-ended: two hole ranks and two board ranks make four in a row (the ace low or high), and
    # neither rank beside them is on the board
    runs = [[12, 0, 1, 2]] + [list(range(r, r + 4)) for r in range(10)]
    open_ended = any(len({a, b}) == 2 and {a, b} <= set(run) and set(run) - {a, b} <= set(bk)
                     and (12 if run[0] == 0 else run[0] - 1) not in bk and run[-1] + 1 not in bk
                     and 12 not in (run[0], run[-1])
                     for run in runs for a, b in combinations(hr, 2))
    if strength < 4 and len(outs) >= 2:
        out.add("open-ended" if open_ended else "double gutshot")
    if strength < 4 and len(outs) == 1:
        out.add("gutshot")
    if fd and strength < 4 and outs:
        out.add("combo draw")
    if len(board) == 3:
        if "backdoor flush candidate" in out and not fd and strength < 5:
            out.add("backdoor flush draw")
        if strength < 4 and not outs and any(omaha_straight(hr, bk + [r1, r2])
                                            for r1 in range(13) for r2 in range(r1, 13)):
            out.add("backdoor straight draw")
    out.discard("backdoor flush candidate")
    return out


@pytest.mark.parametrize("board_text", ["Qh 9c 2d", "Th 9h 8c", "5s 4s 3s", "Kd Kc 7h", "Ah 5c 3d 9s",
                                        "Jh Tc 8d 2h", "9c 8c 7d 6h 2s"])
def test_classes_against_the_plain_loop(board_text: str) -> None:
    from cardlab.cards import parse_card_ids

    board = parse_card_ids(board_text)
    rng = random.Random(board_text)
    rest = [c for c in range(52) if c not in board]
    near = [c for c in rest if abs(c // 4 - board[0] // 4) <= 4]  # connected hands, often drawing
    holes = [rng.sample(rest if i % 2 else near, 4) for i in range(300)]
    masks = _classify_omaha(np.array(holes, dtype=np.int64), board, STANDARD)
    for i, hole in enumerate(holes):
        got = {n for n in CLASSES if masks[n][i]}
        assert got == plain_classes(hole, board), ([name(c) for c in hole], board_text)


def test_counts_and_cli(capsys: pytest.CaptureFixture[str]) -> None:
    s = board_stats("AA", "Qh 9c 2d", game="omaha")
    # AA, at least two aces, of the 49 unseen cards: C(4,2) C(45,2) + C(4,3) 45 + 1 (docs/ranges.md:
    # 6,961 of a full deck); every one-pair hand is an overpair (the classes of one pair are
    # exclusive: the two pair hands are not in them)
    assert s.total == 6 * 990 + 4 * 45 + 1
    assert s.count("overpair") == s.count("one pair") > 0 and s.count("two pair") > 0
    assert main(["poker", "board", "AAxx", "--board", "Qh9c2d", "--game", "omaha", "--format", "json"]) == 0
    assert '"board": "Qh9c2d"' in capsys.readouterr().out
    assert main(["poker", "board", "AAxx", "--board", "Qh9c2dQh", "--game", "omaha"]) == 2
    assert "Qh is given twice" in capsys.readouterr().err
    assert main(["poker", "board", "AAKK", "--flops", "all", "--game", "omaha", "--format", "json"]) == 0
    textures = {t["name"]: t for t in json.loads(capsys.readouterr().out)["textures"]}
    assert textures["all"]["flops"] == 22100 and textures["monotone"]["flops"] == 1144


@pytest.mark.parametrize("spec, game", [pytest.param("15%", "omaha", marks=pytest.mark.slow),
                                        ("AAxx@100, KQJT@50, 9876@25, AsKsxx@10", "omaha"),
                                        pytest.param("AAKxx, 5432x", "omaha5", marks=pytest.mark.slow)])
def test_compiled_flop_loop_matches_the_vectorised_classes(spec: str, game: str) -> None:
    # The all-flops kernel classes each Omaha combo on each flop itself (ranks worked out once per
    # rank multiset, suits per combo); _classify_omaha, checked above against the plain loop, is
    # its oracle, flop by flop.
    from cardlab.poker.board_stats import _flop_tallies
    from cardlab.poker.equity import game_named, range_of
    from cardlab.poker.generic import all_hands

    g = game_named(game)
    rng = range_of(spec, g)
    holes = np.asarray(rng.combos, dtype=np.int64)
    weights = np.asarray(rng.weights, dtype=np.float64)
    flops = all_hands(3).astype(np.int64)[::331]  # 67 flops of every texture
    combos, shares, live = _flop_tallies(holes, weights, flops, g.rules)
    names = CLASSES
    hole_bits = (np.left_shift(1, holes).sum(axis=1))
    for j, flop in enumerate(flops[:: 4 if len(holes) > 20000 else 1]):
        j *= 4 if len(holes) > 20000 else 1
        keep = (hole_bits & int(np.left_shift(1, flop).sum())) == 0
        masks = _classify_omaha(holes[keep], [int(c) for c in flop], g.rules)
        assert live[j] == pytest.approx(weights[keep].sum(), rel=1e-12)
        for i, n in enumerate(names):
            assert combos[j, i] == masks[n].sum(), ([name(int(c)) for c in flop], n)
            assert shares[j, i] == pytest.approx(weights[keep][masks[n]].sum(), rel=1e-12, abs=1e-12)


def test_all_flops_one_flop_per_suit_class_equals_every_flop() -> None:
    # AAKK is the same under every suit permutation: 1,755 flops, each counted as often as it
    # stands for; the same counts come from all 22,100 flops one by one
    from cardlab.poker.board_stats import _flop_tallies, all_flops_stats
    from cardlab.poker.equity import game_named, range_of
    from cardlab.poker.generic import all_hands

    stats = {t.name: t for t in all_flops_stats("AAKK", game="omaha").textures}["all"]
    g = game_named("omaha")
    rng = range_of("AAKK", g)
    combos, _, live = _flop_tallies(np.asarray(rng.combos), np.asarray(rng.weights), all_hands(3).astype(np.int64),
                                    g.rules)
    names = CLASSES
    assert [c.combos for c in stats.classes] == list(combos.sum(axis=0))
    assert [c.name for c in stats.classes] == list(names)
    assert int(live.sum()) == 36 * 17296  # each combo on the C(48, 3) flops of the other cards
    # quads: the other two aces or kings and any of the 46 other cards
    assert stats.classes[names.index("four of a kind")].combos == 36 * 2 * 46
