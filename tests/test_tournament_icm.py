"""Issue 30: ICM equity (exact fractions, brute force, published examples), the all-in value, bad input."""

from __future__ import annotations

import json
import random
import re
import time
from fractions import Fraction
from itertools import permutations

import pytest

from cardlab.errors import TournamentError
from cardlab.poker.icm import EXACT_PLAYERS, icm, icm_allin, place_probabilities, prize_equity


def _brute_places(stacks: list[int], model: str) -> list[list[Fraction]]:
    """Every finishing order, its probability as the product along the order (n! terms)."""
    n = len(stacks)
    places = [[Fraction(0)] * n for _ in range(n)]
    for order in permutations(range(n)):
        p = Fraction(1)
        if model == "malmuth-harville":  # order[0] wins; each next in proportion to the stack
            left = list(order)
            for who in order:
                p *= Fraction(stacks[who], sum(stacks[i] for i in left))
                left.remove(who)
        else:  # Weitzman: order[-1] goes out first, in inverse proportion to the stack
            left = list(order)
            for who in reversed(order):
                p *= Fraction(1, stacks[who]) / sum(Fraction(1, stacks[i]) for i in left)
                left.remove(who)
        for place, who in enumerate(order):
            places[who][place] += p
    return places


def test_wikipedia_example_exactly() -> None:
    """The worked example of Wikipedia's "Independent Chip Model" article: A, B, C hold 50%, 30%
    and 20% of the chips, 1st pays 70 and 2nd 30; the article gives ICM(A) ~ 45, ICM(B) ~ 32,
    ICM(C) ~ 22 (its six order probabilities 0.3, 0.2, 0.21..., 0.09..., 0.13..., 0.08...)."""
    r = icm([50, 30, 20], [70, 30])
    assert r.equity_exact == (Fraction(1265, 28), Fraction(129, 4), Fraction(158, 7))
    # by hand: A = 70 * 1/2 + 30 * (0.3 * 5/7 + 0.2 * 5/8)
    assert r.equity_exact[0] == 70 * Fraction(1, 2) + 30 * (Fraction(3, 10) * Fraction(5, 7) + Fraction(1, 5) * Fraction(5, 8))
    assert [round(e) for e in r.equity] == [45, 32, 23]  # 22.57: the article truncates to 22
    assert sum(r.equity_exact) == 100
    assert r.places[1][0] == pytest.approx(0.3) and r.places[1][1] == pytest.approx(0.21428571 + 0.16071429)


def test_sng_textbook_example() -> None:
    """The usual sit-and-go example (stacks 5000, 3000, 2000, payouts 50/30/20): the big stack's
    equity is 38.39% of the pool, 1st 50%, 2nd (30% x 5/7) + (20% x 5/8) = 33.9%."""
    r = icm([5000, 3000, 2000], [50, 30, 20])
    assert r.equity_exact[0] == Fraction(1075, 28) and f"{r.equity[0]:.2f}" == "38.39"
    assert r.places[0][1] == pytest.approx(0.3 * 5 / 7 + 0.2 * 5 / 8)
    assert sum(r.equity_exact) == 100


@pytest.mark.parametrize("model", ["malmuth-harville", "malmuth-weitzman"])
@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_against_every_finishing_order(n: int, model: str) -> None:
    """The subset programme equals the sum over all n! finishing orders, exactly (up to 8 players)."""
    rng = random.Random(n * 7 + len(model))
    stacks = [rng.randint(1, 5000) for _ in range(n)]
    payouts = sorted((rng.randint(0, 100) for _ in range(rng.randint(1, n))), reverse=True)
    payouts[0] += 1
    brute = _brute_places(stacks, model)
    assert place_probabilities(stacks, model) == brute
    r = icm(stacks, payouts, model=model)
    want = [sum((q * x for q, x in zip(row, payouts)), Fraction(0)) for row in brute]
    assert list(r.equity_exact or ()) == want
    assert sum(want) == sum(payouts)
    for row in brute:  # every player finishes somewhere; every place is taken by someone
        assert sum(row) == 1
    assert all(sum(brute[i][k] for i in range(n)) == 1 for k in range(n))


def test_floats_agree_with_the_fractions() -> None:
    """The compiled floating-point programme within 1e-12 of the exact fractions (12 players)."""
    stacks = [1000 * k + 37 * k * k for k in range(1, EXACT_PLAYERS + 1)]
    payouts = [40, 25, 15, 10, 6, 4]
    exact = icm(stacks, payouts)
    floats = icm(stacks, payouts, exact=False)
    assert exact.equity_exact is not None and floats.equity_exact is None
    assert max(abs(a - float(b)) for a, b in zip(floats.equity, exact.equity_exact)) < 1e-12
    assert max(abs(a - b) for ra, rb in zip(exact.places, floats.places) for a, b in zip(ra, rb)) < 1e-12


def test_twenty_players_fast_and_summing_to_the_pool() -> None:
    """20 players, 20 places paid: floats (beyond 12 players), sums to the pool, quick."""
    stacks = [500 + 311 * k for k in range(20)]
    payouts = list(range(20, 0, -1))
    started = time.perf_counter()
    r = icm(stacks, payouts)
    elapsed = time.perf_counter() - started
    assert r.equity_exact is None
    assert sum(r.equity) == pytest.approx(210, abs=1e-9)
    assert all(sum(row) == pytest.approx(1, abs=1e-12) for row in r.places)
    assert elapsed < 5.0  # loose on a shared machine: the benchmark holds it to 0.5 s
    # more chips, more money; never more than the chip-proportional share for the big stacks
    assert list(r.equity) == sorted(r.equity)


def test_two_players_is_linear_in_chips() -> None:
    """Heads-up, ICM is exactly the second prize plus the difference in proportion to the chips."""
    r = icm([7, 3], [100, 40])
    assert r.equity_exact == (Fraction(40) + Fraction(60 * 7, 10), Fraction(40) + Fraction(60 * 3, 10))


def test_weitzman_differs_and_favours_the_short_stack_less() -> None:
    """The two models agree heads-up and differ with three players."""
    h = icm([5000, 3000, 2000], [50, 30, 20])
    w = icm([5000, 3000, 2000], [50, 30, 20], model="malmuth-weitzman")
    assert w.equity_exact == (Fraction(16805, 434), Fraction(2029, 62), Fraction(6196, 217))
    assert sum(w.equity_exact or ()) == 100 and w.equity != h.equity
    assert icm([7, 3], [10, 4], model="malmuth-weitzman").equity == icm([7, 3], [10, 4]).equity


def test_prize_equity_of_busted_players() -> None:
    """A player busted on the hand takes the last place (shared if two bust together)."""
    assert prize_equity([10, 0, 10], [5, 3, 2]) == [4, 2, 4]
    assert prize_equity([20, 0, 0], [5, 3, 2]) == [5, Fraction(5, 2), Fraction(5, 2)]


def test_allin_money_value() -> None:
    """The all-in's value is the outcome-weighted ICM of the stacks after it (checked here with
    icm() directly), from the exact all-in equity of AsAh against KdKc (81.06% won outright)."""
    from cardlab.poker.equity import equity

    r = icm_allin([5000, 3000, 2000], [50, 30, 20], "A:AsAh C:KdKc")
    assert r.allin is not None
    e = equity(["AsAh", "KdKc"])
    win, lose, tie = e.players[0].win, e.players[1].win, e.players[0].tie
    assert win == pytest.approx(0.8106, abs=1e-4) and win + lose + tie == pytest.approx(1)
    a_wins = icm([7000, 3000], [50, 30]).equity  # C busted: 3rd place, 20
    c_wins = icm([3000, 3000, 4000], [50, 30, 20]).equity
    now = icm([5000, 3000, 2000], [50, 30, 20]).equity
    assert r.allin.after[0] == pytest.approx(win * a_wins[0] + lose * c_wins[0] + tie * now[0], abs=1e-12)
    assert r.allin.after[1] == pytest.approx(win * 20 + lose * c_wins[2] + tie * now[2], abs=1e-12)
    assert r.allin.before == (now[0], now[2])
    assert r.allin.chips_change[0] == pytest.approx(2000 * (win - lose))
    # heads-up ICM is linear in chips: the money gained is the chips gained times (p1 - p2) / chips
    hu = icm_allin([600, 400], [70, 30], "A:AsAh B:KdKc")
    assert hu.allin is not None
    assert hu.allin.change[0] == pytest.approx(hu.allin.chips_change[0] * 40 / 1000, abs=1e-12)


def test_allin_with_a_range() -> None:
    """A range for the caller: the equity is exact over its combos."""
    r = icm_allin([3000, 3000, 4000], [50, 30, 20], "1:AsKs 3:QQ+, AKo")
    assert r.allin is not None and r.allin.players == (0, 2) and r.allin.hands[1] == "QQ+, AKo"
    assert r.to_dict()["allin"]["players"] == ["A", "C"]


@pytest.mark.parametrize(("stacks", "payouts", "message"), [
    ([5000, -3000, 2000], [50, 30, 20], "negative stack -3000 (player B)"),
    ([5000, 0, 2000], [50, 30, 20], "a stack of 0 (player B)"),
    ([5000, 3000], [50, 30, 20], "3 payouts for 2 players"),
    ([5000, 3000], [0, 0], "do not add up to a positive prize pool"),
    ([5000, 3000], [50, -30], "negative payout -30 (place 2)"),
    ([5000], [50], "at least two players"),
])
def test_bad_input_is_named(stacks: list[int], payouts: list[int], message: str) -> None:
    with pytest.raises(TournamentError, match=re.escape(message)):
        icm(stacks, payouts)


@pytest.mark.parametrize(("argv", "message"), [
    (["poker", "icm", "5000,-3000,2000", "--payouts", "50,30,20"], "negative stack"),
    (["poker", "icm", "5000,0,2000", "--payouts", "50,30,20"], "a stack of 0"),
    (["poker", "icm", "5000,3000", "--payouts", "50,30,20"], "3 payouts for 2 players"),
    (["poker", "icm", "5000,3000", "--payouts", "0,0"], "positive prize pool"),
    (["poker", "icm", "5000,3000", "--payouts", "50,x"], "cannot read 'x'"),
    (["poker", "icm", "5000,3000", "--payouts", "50,30", "--allin", "A:AsKs Q:QQ"], "not one of the 2 players"),
    (["poker", "icm", "5000,3000", "--payouts", "50,30", "--allin", "A:AsKs"], "between two players"),
    (["poker", "pushfold", "--stack", "0"], "above 0"),
    (["poker", "pushfold", "--stack", "-5"], "above 0"),
    (["poker", "pushfold", "--stack", "10", "--players", "3", "--plot", "x.png"], "has no chart"),
    (["poker", "pushfold", "--stack", "10", "--players", "3", "--payouts", "5,3,1,1"], "4 payouts for 3 players"),
    (["poker", "pushfold", "--stack", "10", "--payouts", "50,30,20"], "3 payouts for 2 players"),
])
def test_cli_bad_input_is_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    from cardlab.cli.main import main

    try:
        status = main(argv)
    except SystemExit as stop:  # argparse refuses a bounded option before the command runs
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_cli_icm_json_and_table(run) -> None:
    status, out, _ = run("poker", "icm", "50,30,20", "--payouts", "70,30", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["equity_exact"] == ["1265/28", "129/4", "158/7"]
    assert data["stacks"] == [50, 30, 20] and data["payouts"] == [70, 30]
    assert len(data["places"]) == 3 and data["places"][0][0] == 0.5
    status, out, _ = run("poker", "icm", "5000,3000,2000", "--payouts", "50,30,20")
    assert status == 0 and "1075/28" in out and "38.39%" in out
    status, out, _ = run("poker", "icm", "5000,3000,2000", "--payouts", "50,30,20", "--allin", "A:AsKs C:QQ")
    assert status == 0 and "equity before" in out and "A AsKs vs C QQ" in out


def test_result_object_conventions() -> None:
    r = icm([5000, 3000, 2000], [50, 30, 20])
    assert repr(r).startswith("ICMResult(malmuth-harville: A 38.39")
    assert json.loads(r.to_json()) == r.to_dict()
    assert "<table>" in r._repr_html_()
    frame = r.to_pandas()
    assert list(frame["player"]) == ["A", "B", "C"] and frame["place_1"].sum() == pytest.approx(1)
    assert r.to_csv().splitlines()[1].startswith("A,5000,38.39")
