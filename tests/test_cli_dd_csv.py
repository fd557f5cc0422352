"""``bridge makes`` and ``bridge lead`` with ``--format csv``: the header and every row.

The hands are all fixed (the fourth seat gets the 13 cards left), so each deal is the same
and every figure is worked out by hand in the comments. The interval bounds of 0 or 2
successes in 2 deals are the Wilson closed forms z²/(n + z²) and n/(n + z²).
"""

from __future__ import annotations

import csv
import io

import pytest

from cardlab.intervals import Z95

N = 2
NONE_HIGH = Z95**2 / (N + Z95**2)  # upper bound with 0 of 2
ALL_LOW = N / (N + Z95**2)  # lower bound with 2 of 2

# One suit each: North all spades, East all hearts, South all diamonds, West all clubs.
ONE_SUIT_EACH = ("--north-cards", "AKQJT98765432...", "--east-cards", ".AKQJT98765432..",
                 "--south-cards", "..AKQJT98765432.")


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_makes_csv(run) -> None:
    # 7S by North: North ruffs or wins every trick (13). 7NT by North: East leads a heart and runs
    # thirteen of them; North's spades never win a trick (0).
    status, out, err = run("bridge", "makes", "--contract", "7S", "--contract", "7NT", "--by", "N",
                           "-n", str(N), "--seed", "1", *ONE_SUIT_EACH, "--format", "csv")
    assert status == 0 and "2 deals, seed 1" in err
    assert out.splitlines()[0] == "contract,declarer,tricks,count,probability,ci95_low,ci95_high"
    rows = _rows(out)
    assert [(r["contract"], r["declarer"], int(r["tricks"])) for r in rows] == \
        [("7S", "N", t) for t in range(14)] + [("7NT", "N", t) for t in range(14)]
    taken = {"7S": 13, "7NT": 0}
    for r in rows:
        hit = int(r["tricks"]) == taken[r["contract"]]
        assert int(r["count"]) == (N if hit else 0) and float(r["probability"]) == (1.0 if hit else 0.0)
        lo, hi = float(r["ci95_low"]), float(r["ci95_high"])
        assert (lo, hi) == ((pytest.approx(ALL_LOW), 1.0) if hit else (0.0, pytest.approx(NONE_HIGH)))


@pytest.mark.parametrize("tricks", [True, False])
def test_lead_csv(run, tricks: bool) -> None:
    # West leads against 3NT by South. North: AKQ2 of spades and clubs, AKQ of diamonds, 32 of
    # hearts. A heart lead cashes AKQJT: 5 defence tricks, set. Any other lead: declarer wins and
    # takes 4 spades (the 2 is good after three rounds), 3 diamonds and 3 clubs (East's 9876 of
    # clubs keeps the fourth round): 10 tricks, so 3 for the defence and 3NT makes.
    status, out, _ = run("bridge", "lead", "--hand", "JT9.AKQJT.JT9.JT", "--contract", "3NT", "--by", "S",
                         "-n", str(N), "--seed", "1", "--north-cards", "AKQ2.32.AKQ.AKQ2",
                         "--east-cards", "876.987.876.9876", "--south-cards", "543.654.5432.543",
                         "--format", "csv", *(["--tricks"] if tricks else []))
    assert status == 0
    assert out.splitlines()[0] == ("lead,deals,mean_tricks,tricks_ci95_low,tricks_ci95_high,"
                                   "set_rate,set_ci95_low,set_ci95_high")
    rows = _rows(out)
    assert [r["lead"] for r in rows] == ["HAKQJT", "SJT9", "DJT9", "CJT"]
    for r in rows:
        heart = r["lead"].startswith("H")
        defence = 5.0 if heart else 3.0
        assert int(r["deals"]) == N
        cells = [r[k] for k in ("mean_tricks", "tricks_ci95_low", "tricks_ci95_high")]
        # without --tricks DDS's target mode answers "does this lead set" only: tricks' cells empty
        assert [float(c) for c in cells] == [defence] * 3 if tricks else cells == [""] * 3
        assert float(r["set_rate"]) == (1.0 if heart else 0.0)
        lo, hi = float(r["set_ci95_low"]), float(r["set_ci95_high"])
        assert (lo, hi) == ((pytest.approx(ALL_LOW), 1.0) if heart else (0.0, pytest.approx(NONE_HIGH)))
