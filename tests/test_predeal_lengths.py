"""Issue 24: ``predeal SUIT(SEAT) == N`` (DealerV2's "bias deal", since its 4.2.0): the seat
holds exactly N cards of the suit in every deal, dealt exactly (uniform among the deals meeting
every length, with any predealt cards), never by rejection. The counts are checked against
formulas written here by seats, independently of the plan's dynamic programming over suits, and
the dealt frequencies against them (chi-square)."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from cardlab.bridge.dealer import parse_script
from cardlab.bridge.dealer.lengths import LengthPlan
from cardlab.bridge.dealer.dealing import popcount
from cardlab.cli.main import main
from cardlab.errors import DealerScriptError

from pathlib import Path

DATA = Path(__file__).parent / "data" / "dealer"
ALL_DEALS = comb(52, 13) * comb(39, 13) * comb(26, 13)
N, E, S, W = range(4)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def _chi_square(observed: np.ndarray, expected: np.ndarray) -> float:
    keep = expected > 0
    return float((((observed - expected) ** 2)[keep] / expected[keep]).sum())


def test_predeal_suit_length_one_seat() -> None:
    """``predeal spades(north) == 5``: North has 5 spades in every deal; South's spades follow
    the hypergeometric law of the 8 other spades among the 39 other cards."""
    script = parse_script("predeal spades(north) == 5")
    assert script.predeal_lengths == ((N, SPADES, 5),)
    plan = LengthPlan.build({(N, SPADES): 5}, [-1] * 52)
    exact = comb(13, 5) * comb(39, 8) * comb(39, 13) * comb(26, 13)
    assert plan.ways == pytest.approx(exact, rel=1e-12)
    masks = plan.sample(np.random.default_rng(1), 40_000)
    lengths = popcount(masks)
    assert (lengths[N, SPADES] == 5).all() and (lengths.sum(axis=1) == 13).all()
    south = np.bincount(lengths[S, SPADES], minlength=9)[:9]
    law = np.array([comb(8, k) * comb(31, 13 - k) for k in range(9)]) / comb(39, 13)
    assert _chi_square(south, law * 40_000) < 26.1  # 8 degrees of freedom, p = 0.001


def test_predeal_suit_length_two_seats_dealerv2_example() -> None:
    """DealerV2's ``predeal diamond(west)==7 spade(east)==0``: the number of deals by East's
    diamonds, counted seat by seat (West: 7 diamonds, ws spades, 6 - ws hearts and clubs; East:
    k of the 6 diamonds left and 13 - k hearts and clubs; North-South: the rest)."""
    plan = LengthPlan.build({(W, DIAMONDS): 7, (E, SPADES): 0}, [-1] * 52)
    by_k = [sum(comb(13, 7) * comb(13, ws) * comb(26, 6 - ws) * comb(6, k) * comb(20 + ws, 13 - k)
                for ws in range(7)) * comb(26, 13) for k in range(7)]
    assert plan.ways == pytest.approx(sum(by_k), rel=1e-12)
    assert sum(by_k) / ALL_DEALS == pytest.approx(4.95715e-05, rel=1e-5)
    n = 40_000
    lengths = popcount(plan.sample(np.random.default_rng(7), n))
    assert (lengths[W, DIAMONDS] == 7).all() and (lengths[E, SPADES] == 0).all()
    assert (lengths.sum(axis=0) == 13).all() and (lengths.sum(axis=1) == 13).all()
    east = np.bincount(lengths[E, DIAMONDS], minlength=7)[:7]
    assert _chi_square(east, np.array(by_k) / sum(by_k) * n) < 22.5  # 6 degrees of freedom, p = 0.001


def test_predeal_suit_length_with_predealt_cards() -> None:
    """Lengths and cards compose (DealerV2 would drop the cards): North holds SA and exactly 5
    spades, so 4 more of the 12 other spades; East's spades are then hypergeometric on 8 spades
    among the 39 cards left for East, South and West."""
    script = parse_script("predeal north SA\npredeal spades(north)==5")
    fixed = [-1] * 52
    for seat, cards in script.predeal:
        for card in cards:
            fixed[card] = seat
    plan = LengthPlan.build({(N, SPADES): 5}, fixed)
    assert plan.ways == pytest.approx(comb(12, 4) * comb(39, 8) * comb(39, 13) * comb(26, 13), rel=1e-12)
    masks = plan.sample(np.random.default_rng(3), 20_000)
    assert ((masks[N, SPADES] >> 12) & 1).all() and (popcount(masks)[N, SPADES] == 5).all()
    east = np.bincount(popcount(masks)[E, SPADES], minlength=9)[:9]
    law = np.array([comb(8, k) * comb(31, 13 - k) for k in range(9)]) / comb(39, 13)
    assert _chi_square(east, law * 20_000) < 26.1
    with pytest.raises(DealerScriptError, match="more than the 0"):
        LengthPlan.build({(N, SPADES): 0}, fixed)


def test_predeal_suit_length_runs_dealerv2_script(capsys: pytest.CaptureFixture[str]) -> None:
    """DealerV2's own ``Cmp_Bias70.dli`` (copied unchanged): every deal produced is a bias deal
    (10,000 generated for 10,000 produced) and West's diamonds average exactly 7."""
    assert main(["bridge", "dealer", str(DATA / "dealerv2-Cmp_Bias70.dli"), "--workers", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "Diamonds west : 7\n" in out and "Generated 10000 hands" in out and "Produced 10000 hands" in out


@pytest.mark.parametrize(("text", "message"), [
    ("predeal spades(north)==5 spades(north)==4", "north's spades length is already set to 5"),
    ("predeal spades(north)==7 spades(south)==7", "more than 13 spades"),
    ("predeal spades(north)==7 hearts(north)==7", "more than 13 cards for north"),
    ("predeal spades(north)==14", "at most 13 cards of a suit"),
    ("predeal clubs(north)==3 clubs(east)==3 clubs(south)==3 clubs(west)==3", "add up to 12, not 13"),
    ("predeal hearts(south) >= 4", r"takes SUIT\(SEAT\) == N, as in DealerV2"),
])
def test_predeal_suit_length_errors(text: str, message: str) -> None:
    with pytest.raises(DealerScriptError, match=message):
        parse_script(text)
