"""The compiled expression program (csrc/deal_program.c) against the numpy evaluator on random
expressions and deals, and its errors."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardlab.bridge.dealer import parse_script, run_script
from cardlab.bridge.dealer.dealing import deal_masks
from cardlab.bridge.dealer.evaluate import Evaluator
from cardlab.bridge.dealer.functions import Hands, Tables
from cardlab.bridge.dealer.program import compile_expression
from cardlab.errors import DealerScriptError

SEATS = ("north", "east", "south", "west")
SUITS = ("spades", "hearts", "diamonds", "clubs")


def _leaf(rng: random.Random) -> str:
    seat = rng.choice(SEATS)
    suit = rng.choice(SUITS)
    return rng.choice([
        str(rng.randint(0, 40)), str(rng.randint(-1000, 1000)), f"hcp({seat})", f"hcp({seat}, {suit})",
        f"{suit}({seat})", f"controls({seat})", f"controls({seat}, {suit})", f"losers({seat})",
        f"losers({seat}, {suit})", f"quality({seat}, {suit})", f"cccc({seat})", f"top3({seat}, {suit})",
        f"c13({seat})", f"aces({seat})", f"shape({seat}, any 4333 + any 5332 + 4xxx - 4441)",
        f"hascard({seat}, {rng.choice('AKQJT98765432')}{rng.choice('SHDC')})", "v",
    ])


def _expr(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.25:
        return _leaf(rng)
    kind = rng.random()
    a, b = _expr(rng, depth - 1), _expr(rng, depth - 1)
    if kind < 0.5:
        op = rng.choice(["+", "-", "*", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "and", "or"])
        return f"({a} {op} {b})"
    if kind < 0.6:
        return f"({a} {rng.choice(['/', '%'])} {rng.choice(['3', '-7', '13', '1'])})"
    if kind < 0.75:
        return f"{rng.choice(['-', '!', 'not '])}({a})"
    return f"({a} ? {b} : {_expr(rng, depth - 1)})"


def test_random_expressions_give_the_numpy_evaluators_values() -> None:
    rng = random.Random(7)
    masks = deal_masks(np.random.SeedSequence(3), 3000)
    compared = 0
    for _ in range(300):
        text = _expr(rng, 3)
        script = parse_script(f"v = hcp(south) * 3 - spades(west)\ncondition {text}")
        program = compile_expression(script.condition, script)
        assert program is not None, text
        hands = Hands(masks, Tables.standard())
        try:
            want = Evaluator(script).array(script.condition, hands)
        except DealerScriptError:
            continue  # an overflow the numpy evaluator meets on a branch the program may skip
        got = program.run(hands)
        assert (got == want).all(), text
        rows = np.arange(0, 3000, 7)
        assert (program.run(hands, rows) == want[rows]).all(), text
        compared += 1
    assert compared > 250


def test_user_point_counts_compile_with_their_tables() -> None:
    script = parse_script("pointcount 10 8 6 4 2 1\naltcount 3 5 3 1\n"
                          "condition hcp(north) * 100 + pt3(south, hearts) + kings(east)")
    program = compile_expression(script.condition, script)
    hands = Hands(deal_masks(np.random.SeedSequence(4), 2000), Tables.for_script(script.pointcount,
                                                                                script.altcounts))
    assert program is not None
    assert (program.run(hands) == Evaluator(script).array(script.condition, hands)).all()


def test_what_does_not_compile_stays_with_the_evaluator() -> None:
    for text in ("imps(hcp(north) * 10)", "score(vul, x3N, 9)", "rnd(5) > 2", "dds(north, notrump) > 8"):
        script = parse_script(f"condition {text}")
        assert compile_expression(script.condition, script) is None


def test_overflow_and_division_by_zero_name_the_expression() -> None:
    script = parse_script("condition 4611686018427387904 * (hcp(north) + 2) > 0")
    program = compile_expression(script.condition, script)
    assert program is not None
    hands = Hands(deal_masks(np.random.SeedSequence(5), 100), Tables.standard())
    with pytest.raises(DealerScriptError, match=r"overflows 64 bits in '4611686018427387904 \* \(hcp\(north\) \+ 2\)'"):
        program.run(hands)
    script = parse_script("condition 10 / (hcp(north) - hcp(north)) > 0")
    program = compile_expression(script.condition, script)
    assert program is not None
    with pytest.raises(DealerScriptError, match=r"division by zero in '10 / \(hcp\(north\) - hcp\(north\)\)'"):
        program.run(hands)


def test_the_right_side_of_and_is_skipped_as_in_c() -> None:
    # the C program never divides when the left side is false; nor does the program
    script = parse_script("generate 20000\ncondition hcp(north) > 40 && 10 / (hcp(north) - hcp(north)) > 0")
    assert run_script(script, seed=1).produced == 0
