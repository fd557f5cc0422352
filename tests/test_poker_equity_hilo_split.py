"""Issue 38: the hi-lo equity split (scoop, high only, low only) of Omaha hi-lo (and hold'em hi-lo),
as stud8 gives it: against a brute force over every runout (treys highs, plain-loop lows in
tests/equity_brute.py), hand-worked boards, deals listed in the test for ranges, and the seeded
simulation within the 95% intervals of the exact shares, for any number of workers."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from cardlab.cards import parse_card_ids
from cardlab.cli.main import main
from cardlab.poker import equity as E
from cardlab.poker.equity import equity
from equity_brute import holdem_low, holdem_value, omaha_low, omaha_value

Split = tuple[Fraction, Fraction, Fraction]


def ids(text: str) -> list[int]:
    return parse_card_ids(text) if text else []


def brute_split(holes: list[str], board: str, game: str = "omaha") -> list[Split]:
    """Per player (scoop, high only, low only) over every completion of the board: the scoop is
    the whole pot; high only (low only) is a board where a low qualified and the player's share
    came from the high (low) half alone."""
    hands, known = [ids(h) for h in holes], ids(board)
    used = set(known) | {c for h in hands for c in h}
    deck = [c for c in range(52) if c not in used]
    value, low_of = (omaha_value, omaha_low) if game == "omaha" else (holdem_value, holdem_low)
    counts = [[0, 0, 0] for _ in hands]
    boards = 0
    for extra in combinations(deck, 5 - len(known)):
        full = known + list(extra)
        highs = [value(h, full) for h in hands]
        lows = [low_of(h, full) for h in hands]
        qualified = [x for x in lows if x is not None]
        best_low = min(qualified) if qualified else None
        for i in range(len(hands)):
            got_high = highs[i] == max(highs)
            got_low = best_low is not None and lows[i] == best_low
            alone_high = got_high and highs.count(max(highs)) == 1
            alone_low = got_low and lows.count(best_low) == 1
            counts[i][0] += alone_high and (best_low is None or alone_low)
            counts[i][1] += best_low is not None and got_high and not got_low
            counts[i][2] += got_low and not got_high
        boards += 1
    return [(Fraction(a, boards), Fraction(b, boards), Fraction(c, boards)) for a, b, c in counts]


def assert_split(result: E.EquityResult, expected: list[Split]) -> None:
    for player, (scoop, high, low) in zip(result.players, expected, strict=True):
        assert player.split == {"scoop": pytest.approx(float(scoop), abs=1e-12),
                                "high_only": pytest.approx(float(high), abs=1e-12),
                                "low_only": pytest.approx(float(low), abs=1e-12)}


@pytest.mark.parametrize("holes, board", [
    (["As 2s Kd Qd", "Ah 3h Jc Jd"], "4c 5d 9s Th"),
    (["As 2s 3d Qd", "Ah 2h 3c Jd", "Kc Kd 8h 7s"], "4c 5d 9s Ks"),
    (["As 2s 3d Qd Qc", "8h 7h 6c 6d Jd"], "4c 5d Ts Ks"),  # five-card Omaha
])
def test_hi_lo_split_of_omaha_hi_lo_equity(holes: list[str], board: str) -> None:
    # issue 38: Omaha hi-lo equity gives each player's scoop, high only and low only, as stud8 does
    game = "omaha5" if len(holes[0].split()) == 5 else "omaha"
    exact = equity(holes, board=board, game=game, hi_lo=True)
    expected = brute_split(holes, board)
    assert_split(exact, expected)
    # both halves won alone somewhere, so the figures can tell the columns apart
    assert any(p.high_only for p in exact.players) and any(p.low_only for p in exact.players)
    # the same figures by the other exact route (the deals walked in C, or listed in Python)
    g = E.game_named(game)
    b = ids(board)
    players = E.parse_players(holes, g, b, [])
    for route in ("walk", "deals"):
        assert_split(E._exact(g, players, b, [], True, E.MAX_EVALUATIONS, 2, route=route), expected)


def test_hi_lo_split_on_the_flop_against_the_brute_force() -> None:
    holes, board = ["As 2s Kd Qd", "Ah 3h Jc Jd"], "4c 5d 9s"
    assert_split(equity(holes, board=board, game="omaha", hi_lo=True), brute_split(holes, board))


def test_hi_lo_split_of_holdem_hi_lo() -> None:
    holes, board = ["As 2s", "Ah 3h", "Kc Kd"], "4c 5d 8s"
    assert_split(equity(holes, board=board, hi_lo=True), brute_split(holes, board, game="holdem"))


def test_hi_lo_split_by_hand() -> None:
    # Board 2c 3d 4h Ks Kd. P1 Kc Qh Jh Td: Kc Qh + Ks Kd 4h, trip kings, no low card.
    # P2 Ah 7c 8d 8s: low Ah 7c + 2c 3d 4h = 7-4-3-2-A; high 8d 8s + Ks Kd 4h, kings and eights.
    # P1 takes the high half alone, P2 the low half alone: no scoop, a half each.
    r = equity(["Kc Qh Jh Td", "Ah 7c 8d 8s"], board="2c 3d 4h Ks Kd", game="omaha", hi_lo=True)
    assert [p.equity for p in r.players] == [0.5, 0.5]
    assert [p.split for p in r.players] == [{"scoop": 0.0, "high_only": 1.0, "low_only": 0.0},
                                            {"scoop": 0.0, "high_only": 0.0, "low_only": 1.0}]
    # Quartered: board 3c 4d 8h Ks Kd, P1 As 2h Kc Qh has trip kings and 8-4-3-2-A, P2 Ah 2s 9c 9d
    # the same low only: P1 has the high and half the low (neither half alone), P2 the low only.
    r = equity(["As 2h Kc Qh", "Ah 2s 9c 9d"], board="3c 4d 8h Ks Kd", game="omaha", hi_lo=True)
    assert [p.equity for p in r.players] == [0.75, 0.25]
    assert [p.split for p in r.players] == [{"scoop": 0.0, "high_only": 0.0, "low_only": 0.0},
                                            {"scoop": 0.0, "high_only": 0.0, "low_only": 1.0}]
    # No low possible (the turn Jd Th Ks leaves two low cards, 3c and the river, at most): the
    # whole pot goes to the high, a scoop, never a half: low only 0 and high only 0 (as in stud8,
    # high only counts the boards where a low qualified), scoop = win on every river.
    r = equity(["As 2h Kc Qh", "Ah 2s 9c 9d"], board="3c Jd Th Ks", game="omaha", hi_lo=True)
    for p in r.players:
        assert p.split == {"scoop": p.win, "high_only": 0.0, "low_only": 0.0}
    assert r.players[0].win == 1.0


def test_hi_lo_split_of_ranges_is_the_weighted_mean_of_the_deals() -> None:
    # hold'em hi-lo ranges: the exact split equals the mean of the deals listed here, each
    # answered alone (every deal has the same number of boards)
    specs, board = ["A2s, A3s", "KK"], "4c 5d 8s"
    r = equity(specs, board=board, hi_lo=True)
    known = set(ids(board))
    hero = [h for h in ("As 2s", "Ah 2h", "Ad 2d", "Ac 2c", "As 3s", "Ah 3h", "Ad 3d", "Ac 3c")
            if not set(ids(h)) & known]
    kings = [" ".join(k) for k in combinations(["Ks", "Kh", "Kd", "Kc"], 2)]
    deals = [(a, b) for a in hero for b in kings]
    per_deal = [equity(list(d), board=board, hi_lo=True) for d in deals]
    for i, player in enumerate(r.players):
        for key in ("scoop", "high_only", "low_only"):
            mean = sum(x.players[i].split[key] for x in per_deal) / len(deals)  # type: ignore[index]
            assert player.split[key] == pytest.approx(mean, abs=1e-12)  # type: ignore[index]
    assert r.players[0].low_only > 0 and r.players[1].high_only > 0
    # the deals listed in Python and counted on two threads give the same split as the walk in C
    g = E.game_named("holdem")
    players = E.parse_players(specs, g, ids(board), [])
    listed = E._exact(g, players, ids(board), [], True, E.MAX_EVALUATIONS, 2, route="deals")
    assert [p.split for p in listed.players] == [pytest.approx(p.split, abs=1e-12) for p in r.players]


def test_hi_lo_split_simulated_within_the_exact_intervals() -> None:
    specs, board = ["As 2s Kd Qd", "Ah 3h Jc Jd"], "4c 5d 9s"
    exact = equity(specs, board=board, game="omaha", hi_lo=True)
    sims = [equity(specs, board=board, game="omaha", hi_lo=True, trials=100_000, seed=38, workers=w,
                   chunk=25_000) for w in (1, 2)]
    assert sims[0].to_dict() == sims[1].to_dict()  # the same seed, the same figures for any workers
    n = sims[0].total
    for e, s in zip(exact.players, sims[0].players):
        for key in ("scoop", "high_only", "low_only"):
            p = e.split[key]  # type: ignore[index]
            assert abs(s.split[key] - p) <= 1.96 * (p * (1 - p) / n) ** 0.5 + 1 / n, key  # type: ignore[index]
        assert s.split["scoop"] == s.win  # type: ignore[index]


def test_hi_lo_split_is_absent_without_a_low() -> None:
    # high-only games keep their result shape: no split, no columns, no JSON keys
    for r in (equity(["As Ah Kd Qc", "Js Ts 9h 8h"], board="Qh 9c 2d", game="omaha"),
              equity(["AsAh", "KdKc"], board="Qh 9c 2d"),
              equity(["AsAh", "KdKc"], board="Qh 9c 2d", trials=1000, seed=1)):
        assert all(p.split is None for p in r.players)
        assert "high only" not in r.table() and "scoop" not in r.to_dict()["players"][0]


def test_hi_lo_split_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    args = ["poker", "equity", "As 2s Kd Qd", "Ah 3h Jc Jd", "--game", "omaha", "--hi-lo", "--board", "4c 5d 9s Th"]
    expected = brute_split(["As 2s Kd Qd", "Ah 3h Jc Jd"], "4c 5d 9s Th")
    assert main(args) == 0
    table = capsys.readouterr().out
    assert "high only" in table and "low only" in table and f"{float(expected[0][2]):.3%}" in table
    assert main(args + ["--format", "json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert [[p["scoop"], p["high_only"], p["low_only"]] for p in players] == [
        pytest.approx([float(x) for x in row], abs=1e-12) for row in expected]
