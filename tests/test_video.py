"""Video poker (cardlab.casino.video): published tables, a brute force over small decks, the
simulation against the exact return, one hand's holds, pay-table files and bad input.

Published figures (each test cites its page):
- Jacks or Better 9/6: the issue's combination table (royal 493,512,264 of 19,933,230,517,200)
  and the probabilities of every outcome at http://www.winnergambling.com/casino-games/video-poker/jacks-or-better/
- Deuces Wild full pay: https://wizardofodds.com/games/video-poker/tables/deuces-wild/
- returns of the other games: https://duckyluck-casino.net/video-poker-analyzer.html ("Video Poker
  Variants Compared"), https://practicalwebtools.com/gambling-tools/video-poker-pay-table (8/5),
  https://www.videopokerslots.net/tens-or-better.html (tens or better), and
  https://wizardofvegas.com/games/video-poker/joker-poker-kings-or-better/ (joker poker).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from cardlab.cores import available_cores
from cardlab.dealing import Deck
from cardlab.errors import CardlabError, DeckError, HandError, PayTableError
from cardlab.casino.video import VideoDeck, analyse, hold_values, parse_deck
from cardlab.casino.video_paytable import paytable
from video_brute import double_double_bonus, jacks_or_better, optimal_return, wild_game

JOB96 = {"royal flush": 800, "straight flush": 50, "four of a kind": 25, "full house": 9, "flush": 6,
         "straight": 4, "three of a kind": 3, "two pair": 2, "pair": 1}


@pytest.fixture(scope="module")
def job96():
    return analyse("jacks-or-better-9-6")


def test_jacks_or_better_9_6_published_table(job96):
    # the issue: royal 493,512,264 of 19,933,230,517,200; return 99.5439%
    assert job96.total == 19_933_230_517_200 == comb(52, 5) * 5 * comb(47, 5)
    assert job96.counts[0] == 493_512_264
    assert f"{100 * float(job96.return_exact):.4f}" == "99.5439"
    # probabilities (percent, 5 decimals) published at
    # http://www.winnergambling.com/casino-games/video-poker/jacks-or-better/
    published = [0.00248, 0.01093, 0.23626, 1.15122, 1.10145, 1.12294, 7.44487, 12.92789, 21.45850, 54.54347]
    for p, pub in zip(job96.probabilities, published):
        # within one unit of the last digit (four of a kind, 0.2362546%, is printed 0.23626)
        assert abs(100 * p - Fraction(str(pub))) <= Fraction(1, 10**5)
    assert job96.names[-1] == "nothing" and sum(job96.counts) == job96.total


def test_figures_are_exact_and_consistent(job96):
    r = job96.return_exact
    assert isinstance(r, Fraction)
    assert r == sum(Fraction(c, job96.total) * o.pays for c, o in zip(job96.counts, job96.paytable.outcomes))
    second = sum(Fraction(c, job96.total) * o.pays ** 2 for c, o in zip(job96.counts, job96.paytable.outcomes))
    assert job96.variance == second - r * r
    assert job96.hit_frequency == 1 - Fraction(job96.counts[-1], job96.total)
    assert round(job96.hands_per_royal) == 40391  # "1 in 40,391" (casinocitytimes.com, Grochowski)
    data = job96.to_dict()
    assert data["return_exact"] == f"{r.numerator}/{r.denominator}" and data["exact"] is True
    assert [o["count"] for o in data["outcomes"]] == list(job96.counts)
    assert set(data) >= {"paytable", "cards", "return", "variance", "hit_frequency", "outcomes"}


@pytest.mark.parametrize("game, published, digits", [
    ("jacks-or-better-8-5", "97.30", 2),         # practicalwebtools: 8/5 97.30%
    ("tens-or-better-6-5", "99.1", 1),           # videopokerslots.net: 99.1 percent
    ("bonus-poker-8-5", "99.17", 2),             # duckyluck-casino.net analyzer
    ("double-bonus-10-7", "100.17", 2),          # duckyluck-casino.net analyzer
    ("double-double-bonus-9-6", "98.98", 2),     # duckyluck-casino.net analyzer
    ("deuces-wild-full-pay", "100.76", 2),       # duckyluck-casino.net analyzer
])
def test_published_returns(game, published, digits):
    result = analyse(game)
    assert f"{100 * float(result.return_exact):.{digits}f}" == published


def test_joker_poker_beats_its_basic_strategy():
    # wizardofvegas.com: this pay table returns 100.64% under basic strategy; optimal play is at
    # least that, and a basic strategy loses little (a few thousandths of a percent)
    result = analyse("joker-poker-kings-or-better")
    assert result.cards == 53
    assert 100.64 <= 100 * float(result.return_exact) < 100.66
    assert sum(result.counts) == result.total == comb(53, 5) * result.total // comb(53, 5)


def test_deuces_wild_published_combinations():
    # https://wizardofodds.com/games/video-poker/tables/deuces-wild/ ("Full Pay" Deuces Wild)
    published = [440202756, 4060462824, 35796957696, 63818309856, 83087969280, 1294427430576,
                 423165297240, 334561280724, 1117664265756, 5674784779512, 10901423560980]
    result = analyse("deuces-wild-full-pay")
    assert result.total == 19933230517200
    assert f"{float(result.return_exact):.6f}" == "1.007620"
    # every outcome no equal-EV choice touches matches exactly
    for i in (0, 1, 2, 3, 5, 6):
        assert result.counts[i] == published[i], result.names[i]
    # the rest differ only by the page's other choice among equal-EV holds (it says one hand is
    # played two ways): the same number of hands and exactly the same total pay
    diff = [a - b for a, b in zip(result.counts, published)]
    pays = result.paytable.int_pays()
    assert sum(diff) == 0 and sum(d * p for d, p in zip(diff, pays)) == 0
    volatile = analyse("deuces-wild-full-pay", ties="volatile")
    assert volatile.return_exact == result.return_exact and volatile.variance > result.variance


@pytest.mark.parametrize("game, published, digits", [
    # https://gaminganddestinations.com/video-poker-winning-hand-frequency-for-96-jacks-or-better/
    ("jacks-or-better-9-6", "19.51468", 5),
    ("double-double-bonus-9-6", "41.98498", 5),
    # https://www.practicalwebtools.com/gambling-tools/video-poker-variance ("Game Variance Comparison")
    ("deuces-wild-full-pay", "25.83", 2),
    ("double-bonus-10-7", "28.26", 2),
])
def test_published_variances(game, published, digits):
    assert f"{float(analyse(game).variance):.{digits}f}" == published


# --- an independent route: every deal, hold and draw of a small deck ---------------------------


def _brute_deck(cards: VideoDeck) -> list:
    return [None if t == 52 else (int(t) // 4, int(t) % 4) for t in cards.types]


@pytest.mark.parametrize("game, deck_text, jokers, rule", [
    ("jacks-or-better-9-6", "Ts Js Qs Ks As Th Jh Qh Kh Ah 9h 9c 8c", 0, jacks_or_better(JOB96)),
    ("double-double-bonus-9-6", "Ac Ad Ah As 2c 3c 4c 5h 5d 5s 5c Kh Ks", 0, double_double_bonus),
    ("deuces-wild-full-pay", "2c 2d 2h 2s 9h Th Jh Qh Kh Ah 9s Ts Js", 0,
     wild_game({"royal flush": 800, "four deuces": 200, "wild royal flush": 25, "five of a kind": 15,
                "straight flush": 9, "four of a kind": 5, "full house": 3, "flush": 2, "straight": 2,
                "three of a kind": 1}, deuces=True)),
    ("joker-poker-kings-or-better", "Ts Js Qs Ks As Ah Ad Kd Qd 9d 3c 4c", 1,
     wild_game({"royal flush": 800, "five of a kind": 200, "wild royal flush": 100, "straight flush": 50,
                "four of a kind": 20, "full house": 7, "flush": 5, "straight": 3, "three of a kind": 2,
                "two pair": 1, "pair": 1}, deuces=False, low_pair=11)),
])
def test_small_deck_against_brute_force(game, deck_text, jokers, rule):
    deck = Deck.of(deck_text)
    result = analyse(game, deck, jokers=jokers)
    table = paytable(game)
    cards = VideoDeck(deck, jokers, table.wild == "deuces")
    expected_return, tally = optimal_return(_brute_deck(cards), rule)
    assert result.return_exact == expected_return
    # the same play gives the same counts: compare the weighted count of each pay
    by_pay: dict[int, int] = {}
    for count, outcome in zip(result.counts, table.outcomes):
        by_pay[int(outcome.pays)] = by_pay.get(int(outcome.pays), 0) + count
    assert {p: c for p, c in by_pay.items() if c} == {p: c for p, c in tally.items() if c}


@pytest.mark.parametrize("game, deck_text, jokers, rule", [
    ("jacks-or-better-9-6", "As As Ks Ks Qs Js Ts Th Jh 9h 9h 2c", 0, jacks_or_better(JOB96)),
    ("jacks-or-better-9-6", "As As As Ks Ks Qs Qh Jh Jh Th 9c 9c 2d", 0, jacks_or_better(JOB96)),
    # five of a kind from three decks: pays as four of a kind (no five of a kind line)
    ("jacks-or-better-9-6", "9s 9s 9h 9h 9d Ks Kh Kh Ks As 2c", 0, jacks_or_better(JOB96)),
    ("double-double-bonus-9-6", "As As Ah Ah Ad 3c 3c 3d 3h 3s 2c", 0, double_double_bonus),
    ("joker-poker-kings-or-better", "As Ks Qs Js Ts Ah Kh Kd 9d 3c", 2,
     wild_game({"royal flush": 800, "five of a kind": 200, "wild royal flush": 100, "straight flush": 50,
                "four of a kind": 20, "full house": 7, "flush": 5, "straight": 3, "three of a kind": 2,
                "two pair": 1, "pair": 1}, deuces=False, low_pair=11)),
])
def test_several_decks_against_brute_force(game, deck_text, jokers, rule):
    # cards repeat (two or three copies, two jokers): the multiset kernel
    deck = Deck.of(deck_text)
    result = analyse(game, deck, jokers=jokers)
    cards = VideoDeck(deck, jokers)
    expected, tally = optimal_return(_brute_deck(cards), rule)
    assert result.return_exact == expected and result.cards == len(deck_text.split()) + jokers
    by_pay: dict[int, int] = {}
    for count, outcome in zip(result.counts, paytable(game).outcomes):
        by_pay[int(outcome.pays)] = by_pay.get(int(outcome.pays), 0) + count
    assert {p: c for p, c in by_pay.items() if c} == {p: c for p, c in tally.items() if c}


def test_physical_kernel_takes_repeated_cards_too(monkeypatch):
    # the physical kernel counts positions, so repeated cards are fine for it as well: forced onto
    # it, a deck with repeats gives the multiset kernel's counts
    from cardlab.casino import video

    deck = Deck.of("As As As Ks Ks Qs Qh Jh Jh Th 9c 9c 2d")
    multi = analyse("jacks-or-better-9-6", deck, jokers=2, wild="deuces")
    monkeypatch.setattr(video, "_repeated", lambda cards: False)
    physical = analyse("jacks-or-better-9-6", deck, jokers=2, wild="deuces")
    assert physical.counts == multi.counts and physical.total == multi.total


@pytest.mark.parametrize("game, deck, jokers", [
    ("deuces-wild-full-pay", "9-A", 0), ("joker-poker-kings-or-better", "8-A", 1),
    ("double-double-bonus-9-6", "T-A", 0)])
def test_multiset_kernel_equals_physical_kernel(game, deck, jokers, monkeypatch):
    # the two kernels share nothing but the hand classification: same counts on a single deck
    from cardlab.casino import video

    table = paytable(game)
    cards = video.video_deck(table, parse_deck(deck), jokers, None)
    multi = video._analyse_multi(table, cards, False, video._Play(None, None, 1, False, None))
    physical = analyse(game, parse_deck(deck), jokers=jokers)
    assert multi.counts == physical.counts and multi.tied_deals == physical.tied_deals
    dealt = "As Ks Qs Js Ah" if jokers == 0 else "Jk As Ks Qs Ah"
    one = hold_values(game, dealt, parse_deck(deck), jokers=jokers)
    monkeypatch.setattr(video, "_repeated", lambda cards: True)
    other = hold_values(game, dealt, parse_deck(deck), jokers=jokers)
    assert [(h.hold, h.ev, h.counts) for h in one.holds] == [(h.hold, h.ev, h.counts) for h in other.holds]


def test_two_stripped_decks_simulated():
    result = analyse("jacks-or-better-9-6", parse_deck("9-A", decks=2), trials=100_000, seed=8)
    _, (lo, hi) = result.simulated_return()
    assert result.cards == 48 and lo <= float(result.return_exact) <= hi
    assert result.counts[-1] > 0 and sum(result.counts) == result.total


# --- simulation ------------------------------------------------------------------------------


def test_simulation_agrees_with_exact_return():
    result = analyse("jacks-or-better-9-6", trials=200_000, seed=11)
    mean, (lo, hi) = result.simulated_return()
    assert lo <= float(result.return_exact) <= hi
    assert hi - lo < 0.05  # 200,000 hands: about +-2.0% at 4.4 standard deviation per hand
    again = analyse("jacks-or-better-9-6", trials=200_000, seed=11)
    assert again.simulated == result.simulated
    assert sum(result.simulated) == 200_000
    assert result.simulation.trials == result.simulation.requested == 200_000
    assert result.simulation.seed == 11 and not result.interrupted
    # each outcome's frequency lies within 4 binomial standard errors of its exact probability
    for count, p in zip(result.simulated, result.probabilities):
        sd = (float(p) * (1 - float(p)) / 200_000) ** 0.5
        assert abs(count / 200_000 - float(p)) <= 4 * sd + 1e-12


def test_simulation_on_a_stripped_deck_with_a_joker():
    result = analyse("joker-poker-kings-or-better", parse_deck("9-A"), trials=100_000, seed=5)
    _, (lo, hi) = result.simulated_return()
    assert result.cards == 25 and lo <= float(result.return_exact) <= hi


#: The 24-card deck 9-A: its whole-game analysis is quick, for the tests about the simulation's plumbing.
SMALL = parse_deck("9-A")


@pytest.mark.parametrize("deck", [None, "9-A"])
def test_simulation_identical_whatever_the_workers(deck):
    """The engine's chunk seeds: one worker, two worker threads and a named local cluster agree."""
    cards = parse_deck(deck) if deck else None
    one = analyse("jacks-or-better-9-6", cards, trials=60_000, seed=4)
    two = analyse("jacks-or-better-9-6", cards, trials=60_000, seed=4, workers=2)
    assert one.simulated == two.simulated and sum(one.simulated) == 60_000
    assert two.simulation.workers == min(2, available_cores())
    other = analyse("jacks-or-better-9-6", cards, trials=60_000, seed=5)
    assert other.simulated != one.simulated


def test_simulation_on_an_executor_matches_inline():
    from cardlab.engine import _Inline

    inline = analyse("jacks-or-better-9-6", SMALL, trials=30_000, seed=2)
    assert analyse("jacks-or-better-9-6", SMALL, trials=30_000, seed=2, executor=_Inline()).simulated == inline.simulated


def test_simulation_stopped_by_ctrl_c_keeps_the_chunks_done(ctrl_c_after, monkeypatch):
    import cardlab.engine as engine

    ctrl_c_after(2)
    chunk = 5_000_000 // 24  # the video chunk on the 24 cards of SMALL
    part = analyse("jacks-or-better-9-6", SMALL, trials=10**9, seed=3)
    assert part.interrupted and part.simulation.trials == sum(part.simulated) == 2 * chunk
    assert part.simulation.requested == 10**9
    monkeypatch.setattr(engine, "iter_chunks", ctrl_c_after.real)
    assert analyse("jacks-or-better-9-6", SMALL, trials=2 * chunk, seed=3).simulated == part.simulated
    assert "interrupted after" in part.table() and part.to_dict()["simulation"]["interrupted"] is True


def test_simulate_is_a_deprecated_name_of_trials():
    with pytest.warns(DeprecationWarning, match="simulate= is deprecated"):
        old = analyse("jacks-or-better-9-6", SMALL, simulate=10_000, seed=1)  # 9-A: the exact part is quick
    assert old.simulated == analyse("jacks-or-better-9-6", SMALL, trials=10_000, seed=1).simulated
    with pytest.raises(CardlabError, match="once"):
        analyse("jacks-or-better-9-6", trials=10, simulate=10)


# --- one dealt hand ----------------------------------------------------------------------------


def test_hand_holds_ranked_exactly():
    result = hold_values("jacks-or-better-9-6", "Ah Kh Qh Jh 2c")
    assert len(result.holds) == 32 and len({h.hold for h in result.holds}) == 32
    best = result.holds[0]
    # hold four to the royal: 47 draws, Th royal (800), 8 hearts flush (6), 3 tens straight (4),
    # 12 aces..jacks a high pair (1): (800 + 48 + 12 + 12) / 47, counted by hand
    assert best.hold == "Ah Kh Qh Jh" and best.ev == Fraction(872, 47)
    assert [h.ev for h in result.holds] == sorted((h.ev for h in result.holds), reverse=True)
    data = result.to_dict()
    assert data["hand"] == "Ah Kh Qh Jh 2c" and data["holds"][0]["ev_exact"] == "872/47"
    assert {h["hold"] for h in data["holds"]} >= {"", "Ah Kh Qh Jh 2c"}
    pat = next(h for h in result.holds if h.hold == "Ah Kh Qh Jh 2c")
    assert pat.ev == 0 and sum(pat.counts) == 1


def test_hand_keeps_the_input_notation_and_matches_whole_game_values():
    result = hold_values("jacks-or-better-9-6", "ah,10h,QH,jh,2c")
    assert result.holds[0].hold == "ah 10h QH jh"
    draw_five = next(h for h in result.holds if h.hold == "")
    assert sum(draw_five.counts) == comb(47, 5)


@pytest.mark.parametrize("hand", ["9s 9h Ts Js 2d", "Kd Qc 7h 7s 3c", "As 4s 5s 6c 8d"])
def test_hand_against_plain_enumeration(hand):
    from itertools import combinations

    from cardlab.cards import parse_card_ids

    result = hold_values("jacks-or-better-9-6", hand)
    pay = jacks_or_better(JOB96)
    dealt = parse_card_ids(hand)
    rest = [c for c in range(52) if c not in dealt]
    tokens = hand.split()
    by_hold = {h.hold: h for h in result.holds}
    for mask in range(32):
        held = [dealt[j] for j in range(5) if mask >> j & 1]
        if len(held) < 2:
            continue  # 230,300 draws or more: too slow in plain Python
        total = sum(pay([(c // 4, c % 4) for c in held + list(draw)])
                    for draw in combinations(rest, 5 - len(held)))
        text = " ".join(tokens[j] for j in range(5) if mask >> j & 1)
        assert by_hold[text].ev == Fraction(total, comb(47, 5 - len(held)))


def test_equal_ev_holds_follow_the_documented_rule():
    # full-pay deuces wild: four to a straight and three to a straight flush tie exactly here
    # (one of 10,296 such deals); the less volatile hold comes first
    result = hold_values("deuces-wild-full-pay", "3d 4c 5d 6c 8c")
    first, second = result.holds[0], result.holds[2]
    assert [h.hold for h in result.holds[:3]] == ["3d 4c 5d 6c", "4c 5d 6c 8c", "4c 6c 8c"]
    assert first.ev == result.holds[1].ev == second.ev > result.holds[3].ev
    # the two straights draw alike: equal spread, so the lower bit mask in deck order comes first
    assert first.counts == result.holds[1].counts
    pays = [o.pays for o in result.paytable.outcomes]

    def mean_square(h):
        return sum(c * p * p for c, p in zip(h.counts, pays)) / sum(h.counts)

    assert mean_square(first) < mean_square(second)


def test_joker_hand():
    result = hold_values("joker-poker-kings-or-better", "Jk As Ks Qs Js")
    assert result.holds[0].hold == "Jk As Ks Qs Js"
    assert result.holds[0].ev == 100  # a wild royal, pat
    with pytest.raises(DeckError):
        hold_values("jacks-or-better-9-6", "Jk As Ks Qs Js")


def test_bad_hands():
    with pytest.raises(HandError, match="has 4"):
        hold_values("jacks-or-better-9-6", "Ah Kh Qh Jh")
    with pytest.raises(DeckError, match="Ah is given 2 times"):
        hold_values("jacks-or-better-9-6", "Ah Kh Qh Jh Ah")
    with pytest.raises(DeckError, match="not in the deck"):
        hold_values("jacks-or-better-9-6", "Ah Kh Qh Jh 2c", deck=parse_deck("9-A"))
    with pytest.raises(CardlabError, match="Zh"):
        hold_values("jacks-or-better-9-6", "Ah Kh Qh Jh Zh")


# --- decks -------------------------------------------------------------------------------------


def test_decks():
    assert parse_deck("9-A").size == 24 and parse_deck("9TJQKA") == parse_deck("9-A")
    assert parse_deck(None, decks=2).size == 104
    assert parse_deck("standard", remove="As Ks").size == 50
    with pytest.raises(CardlabError, match="at most 255 copies"):
        analyse("jacks-or-better-9-6", parse_deck(None, decks=300))
    removed = analyse("jacks-or-better-9-6", parse_deck(None, remove="As"))
    big = 1
    for k in range(6):
        big = big * comb(46, k) // __import__("math").gcd(big, comb(46, k))
    assert removed.cards == 51 and removed.total == comb(51, 5) * big
    # three royals left to draw for: rarer than with the full deck, but not by a quarter
    full = analyse("jacks-or-better-9-6").probabilities[0]
    assert Fraction(1, 2) * full < removed.probabilities[0] < full


def test_return_figure_draws_each_paying_outcome_at_its_contribution(job96):
    """The plot's bars are the combination table's contributions (what the picture says, not its
    file size): nine paying outcomes of Jacks or Better, royal at 800 x 493,512,264 / 19,933,230,517,200."""
    from cardlab.report.video_plot import holds_figure, return_figure

    ax = return_figure(job96).axes[0]
    widths = {label.get_text(): bar.get_width() for label, bar in zip(ax.get_yticklabels(), ax.patches)}
    expected = {r["name"]: 100 * r["contribution"] for r in job96.rows() if r["pays"] > 0}
    assert len(widths) == 9 and widths == pytest.approx(expected)
    assert widths["royal flush"] == pytest.approx(100 * 800 * 493_512_264 / 19_933_230_517_200)
    assert "return 99.5439%" in ax.get_title()
    hand = hold_values("jacks-or-better-9-6", "Ah Kh Qh Jh Th")
    bars = holds_figure(hand, best=3).axes[0].patches
    assert [b.get_width() for b in bars][::-1] == pytest.approx([float(h.ev) for h in hand.holds[:3]])


# --- folding by suit symmetry (issue 27) --------------------------------------------------------


def _both_routes(game, deck=None, jokers=None, ties="steady"):
    """The analysis folded by suit symmetry (one dealt hand of each suit orbit) and by the kernel
    that solves every dealt hand (kept as the oracle)."""
    from cardlab.casino import video

    table = paytable(game)
    assert video._suit_symmetric(video.video_deck(table, deck, jokers, None))  # the folded route is taken
    folded = analyse(game, deck, jokers=jokers, ties=ties)
    video._fold = False
    try:
        every = analyse(game, deck, jokers=jokers, ties=ties)
    finally:
        video._fold = True
    return folded, every


@pytest.mark.parametrize("game", ["jacks-or-better-9-6", "deuces-wild-full-pay", "joker-poker-kings-or-better",
                                  "double-double-bonus-9-6", "tens-or-better-6-5"])
@pytest.mark.parametrize("deck, jokers", [("9-A", 0), ("T-A", 1), ("8-A", None), ("2-6", 0), ("2,3,4,9,T,Q", 1)])
@pytest.mark.parametrize("ties", ["steady", "volatile"])
def test_folded_route_equals_every_dealt_hand_on_small_decks(game, deck, jokers, ties):
    # the same counts of every outcome (so the same exact return), the same total and the same
    # number of tied deals, on decks of whole ranks with and without a joker, both tie rules
    folded, every = _both_routes(game, parse_deck(deck.replace(",", "")), jokers, ties)
    assert folded.counts == every.counts and folded.total == every.total
    assert folded.tied_deals == every.tied_deals and folded.return_exact == every.return_exact


@pytest.mark.parametrize("game", ["jacks-or-better-9-6", "jacks-or-better-8-5", "bonus-poker-8-5",
                                  "double-bonus-10-7", "deuces-wild-full-pay", "joker-poker-kings-or-better"])
def test_folded_route_equals_every_dealt_hand_on_the_full_deck(game):
    # 52 cards (53 with the joker): 134,459 orbits solved instead of 2,598,960 dealt hands
    folded, every = _both_routes(game, ties="volatile" if game.startswith("double") else "steady")
    assert folded.counts == every.counts and folded.tied_deals == every.tied_deals


def test_folding_needs_a_suit_symmetric_deck():
    from cardlab.casino import video

    table = paytable("jacks-or-better-9-6")
    assert not video._suit_symmetric(video.video_deck(table, parse_deck(None, remove="As")))
    assert not video._suit_symmetric(video.video_deck(table, parse_deck("9-A"), jokers=2))
    # a deck with a card removed takes the unfolded kernel and still adds up
    result = analyse("jacks-or-better-9-6", parse_deck("9-A", remove="9c"))
    assert sum(result.counts) == result.total


@pytest.mark.parametrize("deck, jokers", [("9-A", 0), ("8-A", 1), ("2-7", 0)])
def test_folded_route_with_holds_tied_down_to_the_mask(deck, jokers):
    # only flushes pay: many dealt hands have two holds of equal pay, volatility and size (the
    # same number of cards of two suits), so the tie goes to the lower bit mask, which differs
    # between the members of a suit orbit: the folded kernel then resolves each member itself
    from cardlab.casino.video_paytable import parse_paytable

    table = parse_paytable({"name": "flushes only", "outcome": [{"hand": "flush", "pays": 5}]})
    folded, every = _both_routes(table, parse_deck(deck), jokers)
    assert folded.counts == every.counts and folded.tied_deals == every.tied_deals > 0
