"""Exact poker odds against golden tables and brute force; simulations within their intervals."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from poker_brute import combinations

from cardlab.dealing import Deck, Draw
from cardlab.engine import exact, simulate
from cardlab.poker.evaluator import strengths
from cardlab.poker.odds import PokerCategory, category_counts, simulate_categories
from cardlab.poker.rules import SHORT_DECK, STANDARD, Category

# Reference: the seed document and the developers' guide (also Wikipedia "Poker probability").
FIVE = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]
SEVEN = [23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 37260, 4324]
# Short deck, 5 cards from 36, in short-deck order (full house below flush); straights 6*4^5-24.
SHORT_FIVE = [122400, 193536, 36288, 16128, 6120, 1728, 480, 288, 20, 4]


def test_five_cards_exact() -> None:
    d = exact(Draw(Deck.standard(), 5), PokerCategory())
    assert list(d.counts) == FIVE and d.total == 2598960
    assert d.values[0] == "high_card" and d.values[-1] == "royal_flush"
    assert round(float(d.probabilities[0]), 6) == 0.501177  # the seed table


def test_seven_cards_exact() -> None:
    d = exact(Draw(Deck.standard(), 7), PokerCategory())
    assert list(d.counts) == SEVEN and d.total == 133784560


def test_short_deck_exact() -> None:
    d = exact(Draw(Deck.short(), 5), PokerCategory(SHORT_DECK))
    assert list(d.counts) == SHORT_FIVE
    assert d.values[5:7] == ("full_house", "flush")


def _brute(cards: np.ndarray, k: int, rules=STANDARD) -> list[int]:
    """Every k-subset of the physical cards, evaluated hand by hand (vectorised)."""
    hands = cards[combinations(len(cards), k)].astype(np.uint8)
    codes = strengths(hands, rules) >> 20
    counts = Counter(codes.tolist())
    return [counts.get(p, 0) for p in range(len(Category))]


@pytest.mark.parametrize("deck, k, rules", [
    (Deck.standard().remove("Ts Jh"), 5, STANDARD),                 # cards removed
    (Deck.standard().remove("As Ks Qs 2c 7d 7h"), 5, STANDARD),
    (Deck.short().remove("6s 9h"), 6, SHORT_DECK),
    (Deck.of("As Ks Qs Js Ts 9s Ah Kh Qh Jh Td 9d 8d 7d 6c 5c As Ks Ah 2c"), 7, STANDARD),
    (Deck.of(("Ts Js Qs Ks As 9s 8s 2h 2d 2c " * 2)), 7, STANDARD),  # two copies of 10 cards
    (Deck.of(("6s 7s 8s 9s As Ah 6h Kh Kd Kc " * 3)), 6, SHORT_DECK),
])
def test_exact_equals_brute_force(deck: Deck, k: int, rules) -> None:
    assert category_counts(Draw(deck, k), rules) == _brute(deck.physical(), k, rules)


def test_two_decks_five_cards() -> None:
    d = exact(Draw(Deck.standard(decks=2), 5), PokerCategory())
    assert d.values[-1] == "five_of_a_kind"
    assert d.count("five_of_a_kind") == 13 * 56  # C(8, 5) ways per rank
    assert d.count("royal_flush") == 4 * 2**5


def _within(exact_d, simulated, family: float = 0.99) -> None:
    """Every exact probability lies inside the simulation's interval, the intervals being
    simultaneous at ``family`` (Bonferroni: each row at 1 - (1 - family) / rows), so a correct
    simulator fails this for at most 1% of seeds however many categories the table has."""
    level = 1 - (1 - family) / len(exact_d.values)
    lo, hi = simulated.confidence_interval(level)
    p = exact_d.probabilities
    outside = [v for v, a, b, q in zip(exact_d.values, lo, hi, p) if not a <= q <= b]
    assert not outside, f"exact value outside the {level:.2%} interval for {outside}"


@pytest.mark.parametrize("dealing, rules, seed", [
    (Draw(Deck.standard(), 5), STANDARD, 1),
    (Draw(Deck.standard(), 7), STANDARD, 2),
    (Draw(Deck.standard().remove("Ts Jh As Ad"), 5, ), STANDARD, 3),
    (Draw(Deck.short(), 5), SHORT_DECK, 4),
    (Draw(Deck.standard(decks=3), 7), STANDARD, 5),
])
def test_simulation_within_interval(dealing, rules, seed: int) -> None:
    feature = PokerCategory(rules)
    _within(exact(dealing, feature), simulate(dealing, feature, trials=400_000, seed=seed))


@pytest.mark.parametrize("dealing, rules, seed", [
    (Draw(Deck.standard(), 5), STANDARD, 1),
    (Draw(Deck.standard(), 7), STANDARD, 2),
    (Draw(Deck.standard(), 6), STANDARD, 6),
    (Draw(Deck.standard().remove("Ts Jh As Ad"), 5, ), STANDARD, 3),
    (Draw(Deck.short(), 5), SHORT_DECK, 4),
    (Draw(Deck.short(), 7), SHORT_DECK, 7),
    (Draw(Deck.standard(decks=3), 7), STANDARD, 5),   # cards repeat: the kernel hands those back
    (Draw(Deck.standard(decks=2), 5), STANDARD, 8),
])
def test_compiled_simulation_within_interval(dealing, rules, seed: int) -> None:
    _within(exact(dealing, PokerCategory(rules)), simulate_categories(dealing, rules, 1_000_000, seed=seed))


def test_compiled_simulation_is_the_same_for_any_number_of_threads() -> None:
    for dealing in (Draw(Deck.standard(), 5), Draw(Deck.standard(decks=2), 7)):
        runs = [simulate_categories(dealing, trials=700_000, seed=9, chunk=100_000, workers=w) for w in (1, 2, 3)]
        assert runs[0].counts == runs[1].counts == runs[2].counts
        assert runs[0].total == 700_000
    other = simulate_categories(Draw(Deck.standard(), 5), trials=700_000, seed=10, chunk=100_000)
    assert other.counts != runs[0].counts


def test_compiled_simulation_stopped_by_ctrl_c_keeps_the_chunks_done(monkeypatch) -> None:
    import cardlab.engine as module

    real = module.iter_chunks

    def interrupted(*args, **kwargs):
        for n, item in enumerate(real(*args, **kwargs)):
            if n == 3:
                raise KeyboardInterrupt
            yield item

    monkeypatch.setattr(module, "iter_chunks", interrupted)
    d = simulate_categories(Draw(Deck.standard(), 5), trials=10_000_000, seed=1, chunk=50_000, workers=2)
    assert d.simulation.interrupted and d.total == 150_000


def test_simulation_is_seed_stable_across_workers() -> None:
    dealing, feature = Draw(Deck.standard(), 5), PokerCategory()
    one = simulate(dealing, feature, trials=300_000, seed=9, chunk=100_000)
    two = simulate(dealing, feature, trials=300_000, seed=9, chunk=100_000, workers=2)
    assert one.counts == two.counts


def test_category_odds_is_what_the_command_prints() -> None:
    import json

    from cardlab.cli.main import main
    from cardlab.errors import HandError
    from cardlab.poker.odds import category_odds

    odds = category_odds(Draw(Deck.standard(), 5), trials=50_000, seed=3, workers=2)
    assert list(odds.exact.counts) == FIVE and odds.simulated.total == 50_000 and not odds.note
    assert odds.simulated.counts == simulate_categories(Draw(Deck.standard(), 5), trials=50_000, seed=3).counts
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["poker", "odds", "--simulate", "50000", "--seed", "3", "--format", "json"])
    assert json.loads(out.getvalue()) == odds.to_dict()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["poker", "odds", "--simulate", "50000", "--seed", "3", "--format", "csv"])
    assert out.getvalue() == odds.to_csv()
    assert "95% interval" in odds.table() and odds.to_pandas()["count"].tolist() == FIVE
    assert repr(odds) == "<Tabulation 'poker hands': 10 rows, exact total 2,598,960, 50,000 simulated trials, seed 3>"
    assert "<table>" in odds._repr_html_() and odds.to_csv().startswith("category,count")
    alone = category_odds(Draw(Deck.short(), 5), SHORT_DECK)
    assert list(alone.exact.counts) == SHORT_FIVE and alone.simulated is None
    assert alone.to_dict() == exact(Draw(Deck.short(), 5), PokerCategory(SHORT_DECK)).to_dict("category")
