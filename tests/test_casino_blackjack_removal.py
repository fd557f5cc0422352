"""Effects of removal against the published six-deck row, and counting systems' correlations
(cardlab.casino.blackjack, cardlab.casino.blackjack_counting)."""

from __future__ import annotations

import pytest

from cardlab.casino.blackjack import effects_of_removal, house_edge
from cardlab.casino.blackjack_counting import HI_LO, betting_correlation, correlation, insurance_correlation
from cardlab.casino.blackjack_engine import Optimal, hand_of
from cardlab.casino.blackjack_rules import Rules
from cardlab.errors import BlackjackError

# Wizard of Odds, blackjack appendix 7 ("Effect of Card Removal"), from bjstrat.net's
# composition-dependent analyzer: six decks, double any two, DAS, split once, "strategy
# adjustments for the changed deck composition"; % per card, ranks 2..9, T, A.
PUBLISHED_S17 = (0.069, 0.082, 0.110, 0.141, 0.079, 0.041, -0.008, -0.040, -0.091, -0.094)
ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")


def test_the_published_row_needs_late_surrender() -> None:
    # under the rules the page states (no surrender), even re-optimising the strategy for
    # every reduced shoe leaves the 5 some 0.017 short; the row is within 0.0025 everywhere
    # once late surrender is allowed -- the rule the page leaves out. The last 0.002 on the
    # 4 and 5 is not explained by the variants tried (docs/casino.md lists them).
    stated = Rules(decks=6)
    full = house_edge(stated, Optimal())
    five = (full - house_edge(stated, Optimal(), removed=hand_of(4))) * 100
    assert five == pytest.approx(0.1246, abs=1e-4) and PUBLISHED_S17[3] - five > 0.015
    # and no strategies at all reproduce it under the stated rules (docs/casino.md): each
    # published entry is at most the re-optimised effect plus the slack the published sum allows
    assert PUBLISHED_S17[3] - ROUNDING > five + _slack()
    effects = effects_of_removal(Rules(decks=6, surrender=True), Optimal())
    got = [effects[r] * 100 for r in ORDER]
    assert got == pytest.approx([0.0691, 0.0829, 0.1121, 0.1434, 0.0779, 0.0407, -0.0085, -0.0409, -0.0917, -0.0939], abs=1e-4)
    assert max(abs(g - p) for g, p in zip(got, PUBLISHED_S17)) < 0.0025
    # with late surrender the bound leaves the row possible: every entry passes it
    assert all(p - ROUNDING <= g + _slack() for g, p in zip(got, PUBLISHED_S17))


ROUNDING = 0.0005  # the published entries are rounded to three places
SHOE = (24,) * 8 + (96, 24)  # six decks' cards of each rank, in ORDER


def _slack() -> float:
    """How far, per card, the published row's weighted sum lets the full shoe's strategy fall
    short of the best: sum of n_r * P_r over the 312 cards, at its largest after rounding, / 312.

    Why: let F be the full shoe's expectation under whatever strategy was used, O its best, O_r
    the best on the shoe less a card r, a_r the reduced shoe's expectation as played, P_r = a_r - F.
    Playing each reduced shoe at least as well as the full shoe's best strategy unchanged (what
    adjusting the strategy to the shoe means) gives sum n_r a_r >= N * O (a fixed strategy's
    expectation is unchanged by a card taken out at random), so N (O - F) <= sum n_r P_r; and
    a_r <= O_r, so P_r <= (O_r - O) + (O - F): at most the re-optimised effect plus this slack."""
    return (sum(n * p for n, p in zip(SHOE, PUBLISHED_S17)) + ROUNDING * sum(SHOE)) / sum(SHOE)


def test_the_published_row_was_made_with_the_strategy_adjusted() -> None:
    # a strategy played unchanged has effects whose weighted sum is exactly zero
    # (test_casino_blackjack.py); the published row's sum is positive even after rounding
    low = sum(n * p for n, p in zip(SHOE, PUBLISHED_S17)) - ROUNDING * sum(SHOE)
    assert low == pytest.approx(0.228, abs=1e-9) and low > 0
    assert _slack() == pytest.approx(0.540 / 312, abs=1e-9)


# blackjackinfo.com blog, "New Efficiency Calculator Added" (August 2009), after Griffin:
# BC, PE, IC of Hi-Lo .97 .51 .76, Hi-Opt I .88 .61 .85, Wong's Halves .99 .57 .72, K-O .98 .55 .78
SYSTEMS = {
    "Hi-Lo": (HI_LO, 0.97, 0.76),
    "Hi-Opt I": ((0, 0, 1, 1, 1, 1, 0, 0, 0, -1), 0.88, 0.85),
    "Wong's Halves": ((-1, 0.5, 1, 1, 1.5, 1, 0.5, 0, -0.5, -1), 0.99, 0.72),
    "K-O": ((-1, 1, 1, 1, 1, 1, 1, 0, 0, -1), 0.98, 0.78),
}


def test_insurance_correlations_are_the_published_ones() -> None:
    for tags, _, ic in SYSTEMS.values():
        assert round(insurance_correlation(tags), 2) == ic
    assert insurance_correlation((0,) * 9 + (-1,)) == pytest.approx(1.0)  # counting only tens is perfect


def test_betting_correlations_from_single_deck_effects_are_the_published_ones() -> None:
    # the published BCs come from single-deck effects (Griffin's); ours: one deck S17 DAS,
    # basic strategy fixed (5 +0.693, T -0.517, A -0.581 % per card)
    effects = effects_of_removal(Rules(decks=1))
    assert (round(effects["5"] * 100, 3), round(effects["T"] * 100, 3), round(effects["A"] * 100, 3)) == (0.693, -0.517, -0.581)
    for tags, bc, _ in SYSTEMS.values():
        assert round(betting_correlation(tags, effects), 2) == bc
    assert betting_correlation([effects[r] for r in "A23456789T"], effects) == pytest.approx(1.0)


def test_bad_counts_are_refused() -> None:
    with pytest.raises(BlackjackError, match="a count is ten finite numbers"):
        correlation((1, 2), (0,) * 10)
    with pytest.raises(BlackjackError, match="'nan"):
        insurance_correlation((float("nan"),) * 10)
    with pytest.raises(BlackjackError, match="lack rank 'A'"):
        betting_correlation(HI_LO, {"2": 0.1})
