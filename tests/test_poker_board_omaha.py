"""Omaha board statistics (``poker board --game omaha``) against a plain loop written here: made
hands valued by treys over every two hole cards with every three board cards, pairs and draws by
their definitions (docs: cardlab.poker.board_stats._classify_omaha) over sets of ranks and suits,
straight draws by trying every rank (and pair of ranks) that could come."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from test_poker_board import _EVAL, _STRENGTH, _TREYS_CLASS, name
from treys import Card

from cardlab.cli.main import main
from cardlab.poker.board_stats import DRAW_CLASSES, MADE_CLASSES, PAIR_CLASSES, _classify_omaha, board_stats
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
    if strength <= 2:
        pairing = [r for r in hr if r in br]
        if pockets and max(pockets) > br[0]:
            out.add("overpair")
        elif pairing:
            p = max(pairing)
            out.add("top pair" if p == br[0] else "bottom pair" if p == br[-1] else "middle pair")
        elif pockets and min(pockets) < br[0]:
            out.add("underpair")
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
    if strength < 4 and len(outs) >= 2:
        out.add("open-ended")
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
        got = {n for n in MADE_CLASSES + PAIR_CLASSES + DRAW_CLASSES if masks[n][i]}
        assert got == plain_classes(hole, board), ([name(c) for c in hole], board_text)


def test_counts_and_cli(capsys: pytest.CaptureFixture[str]) -> None:
    s = board_stats("AA", "Qh 9c 2d", game="omaha")
    # AA, at least two aces, of the 49 unseen cards: C(4,2) C(45,2) + C(4,3) 45 + 1 (docs/ranges.md:
    # 6,961 of a full deck); every one no better than two pair is an overpair
    assert s.total == 6 * 990 + 4 * 45 + 1
    assert s.count("overpair") == s.count("one pair") + s.count("two pair") > 0
    assert main(["poker", "board", "AAxx", "--board", "Qh9c2d", "--game", "omaha", "--format", "json"]) == 0
    assert '"board": "Qh9c2d"' in capsys.readouterr().out
    assert main(["poker", "board", "AAxx", "--board", "Qh9c2dQh", "--game", "omaha"]) == 2
    assert "Qh is given twice" in capsys.readouterr().err
    assert main(["poker", "board", "AAxx", "--flops", "all", "--game", "omaha"]) == 2
    assert "one board at a time" in capsys.readouterr().err
