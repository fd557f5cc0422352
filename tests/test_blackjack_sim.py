"""The blackjack shoe simulator (cardlab.casino.blackjack_sim, csrc/blackjack_sim.c) against three
independent routes: a Python player of the same decisions (the exact engine's own
``Strategy.decide`` and rule checks) on stacked shoes, card for card and count for count; that
player's exact expectation over every way a tiny shoe can be dealt, equal to the exact engine's;
and the engine's house edge at the top of the shoe, within the simulation's interval."""

from __future__ import annotations

import math
import random
import zlib
from fractions import Fraction

import numpy as np
import pytest

from cardlab.casino.blackjack import Strategy, house_edge
from cardlab.casino.blackjack_engine import Hands, hand_of, total_of
from cardlab.casino.blackjack_rules import Rules, shoe
from cardlab.casino.blackjack_sim import (CHUNK, COUNTS, FLAT_TEST_STRATEGY, TC_MAX, IndexPlay, parse_indexes,
                                          parse_spread, play_stacked, risk_of_ruin, simulate_shoe)
from cardlab.errors import BlackjackError

RULE_SETS = [
    Rules(decks=2),
    Rules(decks=2, h17=True, surrender=True, das=False),
    Rules(decks=2, peek=False, surrender=True, blackjack_pays=Fraction(6, 5)),
    Rules(decks=2, double="9-11", h17=True),
    Rules(decks=2, double="10-11", peek=False),
    Rules(decks=2, split_hands=4, resplit_aces=True),
    Rules(decks=2, split_hands=3, das=False, surrender=True),
]


class _Table:
    """What ``Strategy.decide`` asks of the engine's ``Hands``: the up card and the rule checks
    (the engine's own methods), without building the engine's tables."""

    def __init__(self, rules: Rules, up: int) -> None:
        self.rules, self.up = rules, up

    may_double = Hands.may_double
    options = Hands.options


def _random_strategy(rng: random.Random, splits: bool = True) -> Strategy:
    """Every letter and hit rule drawn at random: every branch of the play is reached."""
    letters: dict[tuple[str, int, int], str] = {}
    hits: dict[tuple[bool, int, int], bool] = {}
    for up in range(10):
        for total in range(4, 21):
            for soft in (False, True):
                if soft and total < 12:
                    continue
                hits[(soft, total, up)] = rng.random() < (0.9 if total < 12 else 0.5 if total < 17 else 0.1)
                letters[("soft" if soft else "hard", total, up)] = rng.choice(["H", "S", "D", "Ds", "R"])
        for rank in range(10):
            if splits and rng.random() < 0.5:
                letters[("pair", rank, up)] = "P"
    return Strategy(letters, hits)


def _play_on(hand: tuple[int, ...], up: int, strategy: Strategy, draw, counted: "Counted | None" = None
             ) -> tuple[int, ...]:
    """Three or more cards: the hit rule, as the engine's plan reads it (unlisted: stand), or a
    hit or stand index play."""
    counted = counted or Counted()
    while True:
        total, soft = total_of(hand)
        if total >= 21:
            return hand
        found = counted.fired(*_cell(hand), up, False, {"hit", "stand"})
        if (found or ("hit" if strategy.hit_rule.get((soft, total, up), False) else "stand")) == "stand":
            return hand
        hand = _add(hand, draw())


def _add(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    return tuple(n + (r == rank) for r, n in enumerate(hand))


class Counted:
    """What the count adds to a round: the true count the bet was made at, the insurance index
    (None: never) and the index plays, read as docs/casino.md says."""

    def __init__(self, tc: int = 0, insure: int | None = None, plays: tuple[IndexPlay, ...] = ()) -> None:
        self.tc, self.insure, self.plays = tc, insure, plays

    def fired(self, kind: str, value: int, up: int, surrender: bool, open_actions: set[str]):
        """The first play of this hand and up card that fires (of the surrender plays, or of the
        others whose action is open); "none" if it has surrender plays and none fires; None."""
        found = None
        for p in self.plays:
            if (p.kind, p.value, p.up) != (kind, value, up) or (p.action == "surrender") != surrender:
                continue
            if surrender:
                found = "none"
            elif p.action not in open_actions:
                continue
            if (self.tc < p.tc) if p.below else (self.tc >= p.tc):
                return p.action
        return found


def _cell(hand: tuple[int, ...]) -> tuple[str, int]:
    total, soft = total_of(hand)
    return ("soft" if soft else "hard"), total


def _fallback(strategy: Strategy, hand: tuple[int, ...], up: int) -> str:
    total, soft = total_of(hand)
    return "hit" if strategy.hit_rule.get((soft, total, up), total < 17) else "stand"


def _surrenders(rules, strategy, table, hand, pair: bool, counted: Counted) -> bool:
    """The surrender decision of a two-card unsplit hand: its surrender plays, else the table."""
    table_play = strategy.decide(table, hand, hand, False)
    found = counted.fired("pair", hand.index(2), table.up, True, set()) if pair else None
    if found is None and not (pair and table_play == "split"):
        found = counted.fired(*_cell(hand), table.up, True, set())
    return table_play == "surrender" if found is None else found == "surrender"


def _decide(rules, strategy, table, hand, split: bool, counted: Counted) -> str:
    """The decision on two cards: the engine's, changed by the index plays."""
    up, pair = table.up, max(hand) == 2 and not split
    play = strategy.decide(table, hand, hand, split)
    if not split and (play == "surrender" or counted.plays):
        if rules.surrender and not rules.early_surrender and _surrenders(rules, strategy, table, hand, pair, counted):
            return "surrender"
        if play == "surrender":
            play = _fallback(strategy, hand, up)
    open_actions = {"hit", "stand"} | ({"double"} if table.may_double(hand, split) else set())
    found = counted.fired("pair", hand.index(2), up, False, open_actions | {"split"}) if pair else None
    if found is None and not (pair and play == "split"):
        found = counted.fired(*_cell(hand), up, False, open_actions)
    return play if found is None else found


def reference_round(rules: Rules, strategy: Strategy, draw, counted: Counted = Counted()) -> float:
    """One round, dealt by ``draw()`` (player, up, player, hole, then as drawn), played by the
    engine's decisions (and ``counted``'s insurance and index plays); the result per initial unit."""
    p1, up, p2, hole = draw(), draw(), draw(), draw()
    player, dealer = hand_of(p1, p2), hand_of(up, hole)
    table = _Table(rules, up)
    player_bj, dealer_bj = total_of(player)[0] == 21, total_of(dealer)[0] == 21
    if rules.early_surrender and not player_bj and _surrenders(rules, strategy, table, player, p1 == p2, counted):
        return -0.5
    insurance = 0.0
    if up == 0 and counted.insure is not None and counted.tc >= counted.insure:
        insurance = 1.0 if dealer_bj else -0.5
    if player_bj:
        return insurance + (0.0 if dealer_bj else float(rules.blackjack_pays))
    if dealer_bj and rules.peek:
        return insurance - 1.0
    decision = _decide(rules, strategy, table, player, False, counted)
    played: list[tuple[tuple[int, ...], int]] = []  # (hand, bet: 0 surrendered)
    if decision == "split":
        hands, started = 2, 0  # each hand gets its second card and is played before the next
        while started < hands:
            started += 1
            card = draw()
            while card == p1 and (p1 != 0 or rules.resplit_aces) and hands < rules.split_hands:
                hands += 1  # a pair card starts another hand
                card = draw()
            hand = _add(hand_of(p1), card)
            if p1 == 0 or total_of(hand)[0] == 21:
                played.append((hand, 1))
                continue
            played.append(_first(rules, strategy, table, hand, up, draw, True, counted))
    else:
        played.append(_first(rules, strategy, table, player, up, draw, False, counted, decision))
    live = [(h, m) for h, m in played if m and total_of(h)[0] <= 21]
    result = insurance + sum(-0.5 if m == 0 else -m for h, m in played if m == 0 or total_of(h)[0] > 21)
    if not live:
        return result
    if dealer_bj:
        return result - sum(m for _, m in live)
    while True:
        total, soft = total_of(dealer)
        if total > 17 or (total == 17 and not (rules.h17 and soft)):
            break
        dealer = _add(dealer, draw())
    d = total_of(dealer)[0]
    for hand, m in live:
        p = total_of(hand)[0]
        result += m if d > 21 or p > d else -m if p < d else 0
    return result


def _first(rules, strategy, table, hand, up, draw, split, counted, decision=None):
    decision = decision or _decide(rules, strategy, table, hand, split, counted)
    if decision == "surrender":
        return hand, 0
    if decision == "double":
        return _add(hand, draw()), 2
    if decision == "hit":
        return _play_on(_add(hand, draw()), up, strategy, draw, counted), 1
    return hand, 1


def reference_shoe(rules: Rules, strategy: Strategy, cards: list[int], rounds: int, tags, spread,
                   insure: int | None = None, plays: tuple[IndexPlay, ...] = ()):
    """Rounds from a stacked shoe with the running count and true count kept by hand."""
    position, running, rows = 0, 0, []

    def draw() -> int:
        nonlocal position
        position += 1
        return cards[position - 1]

    for _ in range(rounds):
        start = position
        true = math.floor(Fraction(running * 52, len(cards) - start))
        bet = spread[min(max(true, -TC_MAX), TC_MAX) + TC_MAX]
        result = reference_round(rules, strategy, draw, Counted(min(max(true, -TC_MAX), TC_MAX), insure, plays))
        rows.append({"running": running, "true": true, "bet": bet, "result": result, "cards": position - start})
        running += sum(tags[c] for c in cards[start:position])
    return rows


def _stacked_trials(rules: Rules, salt: bytes, trials: int, counted: bool) -> None:
    """Random strategies on shuffled two-deck stacks, seven rounds each, against the reference
    player: with ``counted`` also random insurance indexes and index plays (every fourth trial
    the built-in i18,fab4), else a random count."""
    rng = random.Random(zlib.crc32(salt + rules.describe().encode()))  # str hashes change from run to run
    spread_text = "1,-1:2,1:3,2:5,4:9"
    spread = parse_spread(spread_text)
    for trial in range(trials):
        strategy = _random_strategy(rng)
        cards = [r for r, n in enumerate(shoe(2)) for _ in range(n)]
        rng.shuffle(cards)
        count = "hi-lo" if counted else rng.choice(list(COUNTS))
        plays = (_random_plays(rng) if trial % 4 else parse_indexes("i18,fab4")) if counted else ()
        insure = rng.choice([None, -1, 0, 1, 2]) if counted else None
        got = play_stacked(rules, strategy, cards, rounds=7, count=count, spread=spread_text, insurance=insure,
                           indexes=plays)
        want = reference_shoe(rules, strategy, cards, 7, COUNTS[count], spread, insure, plays)
        assert got == want, (trial, count, insure)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
def test_stacked_rounds_equal_the_reference_player(rules: Rules) -> None:
    _stacked_trials(rules, b"", 60, counted=False)


def _random_plays(rng: random.Random) -> tuple[IndexPlay, ...]:
    """Index plays of every kind, direction and action, at true counts a two-deck stack reaches."""
    plays, cells = [], {}
    for _ in range(60):
        kind = rng.choice(["hard", "soft", "pair"])
        value = rng.randrange(10) if kind == "pair" else rng.randint(13, 20) if kind == "soft" else rng.randint(5, 20)
        action = rng.choice(["hit", "stand", "double", "surrender"] + (["split"] * 2 if kind == "pair" else []))
        key = (kind, value, rng.randrange(10))
        if cells.setdefault(key, 0) < 4:
            cells[key] += 1
            plays.append(IndexPlay(kind, value, key[2], rng.random() < 0.4, rng.randint(-3, 3), action))
    return parse_indexes(plays)


COUNTED_RULES = RULE_SETS + [Rules(decks=2, early_surrender=True),
                             Rules(decks=2, early_surrender=True, peek=False, h17=True, das=False)]


@pytest.mark.parametrize("rules", COUNTED_RULES, ids=lambda r: r.describe())
def test_stacked_rounds_with_insurance_and_index_plays_equal_the_reference_player(rules: Rules) -> None:
    """Insurance by the true count, index plays (random, and the built-in Illustrious 18 and Fab
    4) and early surrender, round by round against the Python player of docs/casino.md's rules."""
    _stacked_trials(rules, b"counted ", 40, counted=True)


def test_index_plays_that_never_fire_change_nothing() -> None:
    """Plays on every hard total against a ten, below a true count of -20 (the kernel's floor):
    the same figures as without them, none fired; at or above -20 they fire and change them."""
    never = ",".join(f"{t}v10:<-20:stand" for t in range(5, 21))
    options = dict(penetration=0.8, strategy=FLAT_TEST_STRATEGY, spread="1,2:4", trials=300_000, seed=8)
    plain = simulate_shoe(Rules(decks=6), **options)
    quiet = simulate_shoe(Rules(decks=6), indexes=never, **options)
    assert quiet.index_plays == 0 and quiet.to_dict() | {"index_plays": []} == plain.to_dict() | {"index_plays": []}
    loud = simulate_shoe(Rules(decks=6), indexes=never.replace("<-20", "-20"), **options)
    assert loud.index_plays > 0 and loud.flat_sum != plain.flat_sum


def test_insurance_gain_is_the_exact_one_at_the_top_of_the_shoe() -> None:
    """Reshuffled every round the true count is 0, so insuring from 0 insures every ace: the same
    seed deals the same cards, and the difference is the insurance bets alone. Exactly, per round,
    sum over the player's cards of P(cards, ace up) x (1.5 x P(ten in the hole) - 0.5)."""
    counts = shoe(6)
    size = sum(counts)
    mean = square = Fraction(0)
    for a in range(10):
        for b in range(10):
            left = list(counts)
            chance = Fraction(left[a], size)
            left[a] -= 1
            chance *= Fraction(left[0], size - 1)
            left[0] -= 1
            chance *= Fraction(left[b], size - 2)
            left[b] -= 1
            ten = Fraction(left[9], size - 3)
            mean += chance * (ten - (1 - ten) / 2)
            square += chance * (ten + (1 - ten) / 4)
    options = dict(penetration=0, strategy=FLAT_TEST_STRATEGY, trials=1_000_000, seed=21)
    plain = simulate_shoe(Rules(decks=6), **options)
    insured = simulate_shoe(Rules(decks=6), insurance=0, **options)
    n = insured.rounds
    gain = (insured.flat_sum - plain.flat_sum) / n
    se = math.sqrt(float(square - mean * mean) / n)
    assert abs(gain - float(mean)) <= 3.29 * se, (gain, float(mean), se)
    # by hand: the player's cards average out, a ten is in the hole 96 times in 311
    assert mean == Fraction(24, 312) * (Fraction(3, 2) * Fraction(96, 311) - Fraction(1, 2))  # -0.2844% a round
    assert abs(insured.insured / n - 24 / 312) <= 3.29 * math.sqrt(24 / 312 * (1 - 24 / 312) / n)
    never = simulate_shoe(Rules(decks=6), insurance=None, **options)
    assert never.insured == 0 and never.flat_sum == plain.flat_sum


@pytest.mark.slow
def test_the_published_hi_lo_insurance_index() -> None:
    """Hi-Lo insures from a true count of +3 (Don Schlesinger, *Blackjack Attack*, 3rd ed., the
    Illustrious 18's first entry). Runs that differ only in the insurance index deal the same
    cards, so their difference is the insurance bets taken between the two indexes: per bet they
    lose at a true count of 2, about break even at 3, and win from 4 up."""
    options = dict(penetration=0.75, strategy=FLAT_TEST_STRATEGY, trials=20_000_000, seed=5)
    runs = {k: simulate_shoe(Rules(decks=6), insurance=k, **options) for k in (2, 3, 4, None)}

    def per_bet(low, high):
        bets = runs[low].insured - runs[high].insured
        return (runs[low].flat_sum - runs[high].flat_sum) / bets, 0.75 / math.sqrt(bets)  # sd of a bet < 0.75

    (at_2, se_2), (at_3, se_3), (from_4, se_4) = per_bet(2, 3), per_bet(3, 4), per_bet(4, None)
    assert at_2 < -3 * se_2 and from_4 > 3 * se_4 and abs(at_3) < 3 * se_3 and at_2 < at_3 < from_4


def test_hi_lo_bookkeeping_by_hand() -> None:
    # dealt: player T, up 5, player 6, hole T
    cards = [9, 4, 5, 9, 9, 1, 2, 3] + [9] * 20
    rows = play_stacked(Rules(decks=1), FLAT_TEST_STRATEGY, cards, rounds=2, count="hi-lo", spread="1,-2:3,1:4")
    # round 1: player T-6 = 16 hits: T busts (5 cards: T 5 6 T T; the dealer does not draw)
    assert rows[0] == {"running": 0, "true": 0, "bet": 3, "result": -1.0, "cards": 5}
    # Hi-Lo of T 5 6 T T: -1 +1 +1 -1 -1 = -1; 23 cards left: floor(-52/23) = -3
    assert rows[1]["running"] == -1 and rows[1]["true"] == -3 and rows[1]["bet"] == 1
    # T T 9 8 (player 19 stands on the dealer's 18): running -2 with 53 cards left is a true count
    # of -1.96, floored to -2 (truncating would say -1; rounding the cards left to one deck, -2)
    assert play_stacked(Rules(decks=1), FLAT_TEST_STRATEGY, [9, 9, 8, 7] + [9] * 53,
                        rounds=2)[1] == {"running": -2, "true": -2, "bet": 1, "result": 0.0, "cards": 4}


@pytest.mark.parametrize("name", list(COUNTS))
def test_built_in_counts_are_balanced(name: str) -> None:
    assert sum(t * n for t, n in zip(COUNTS[name], shoe(1))) == 0


def _tree_value(rules: Rules, strategy: Strategy, counts: tuple[int, ...]) -> Fraction:
    """The exact expectation of one round over every way the shoe can be dealt: each card the
    player asks for is branched over the ranks left, weighted by their counts."""

    class More(Exception):
        pass

    def value(prefix: list[int]) -> Fraction:
        left = list(counts)
        for c in prefix:
            left[c] -= 1
        i = 0

        def draw() -> int:
            nonlocal i
            if i == len(prefix):
                raise More
            i += 1
            return prefix[i - 1]

        try:
            return Fraction(reference_round(rules, strategy, draw)).limit_denominator(10)
        except More:
            size = sum(left)
            return sum((Fraction(n, size) * value(prefix + [r]) for r, n in enumerate(left) if n), Fraction(0))

    return value([])


@pytest.mark.parametrize("rules", [Rules(composition=(1, 1, 0, 0, 2, 2, 0, 0, 0, 4)),
                                   Rules(composition=(1, 1, 0, 0, 2, 2, 0, 0, 0, 4), h17=True, peek=False,
                                         surrender=True, blackjack_pays=Fraction(6, 5)),
                                   Rules(composition=(1, 1, 0, 0, 2, 2, 0, 0, 0, 4), early_surrender=True)],
                         ids=["s17-peek", "h17-no-hole-card", "early-surrender"])
def test_the_reference_player_is_the_exact_engine_on_a_tiny_shoe(rules: Rules) -> None:
    """Brute force over every deal of a 10-card shoe: the reference player's expectation is the
    engine's house edge (no splits, where the engine's split model is an approximation)."""
    for seed in range(3):
        strategy = _random_strategy(random.Random(seed), splits=False)
        assert float(-_tree_value(rules, strategy, rules.cards)) == pytest.approx(house_edge(rules, strategy),
                                                                                   abs=1e-12)


SMALL = (2, 0, 0, 2, 2, 3, 3, 0, 0, 8)  # A, 4, 5, 6, 7, T: 20 cards, the engine's figures in 0.2 s


@pytest.mark.parametrize("options", [{}, {"h17": True, "surrender": True}, {"peek": False, "das": False},
                                     {"double": "10-11", "blackjack_pays": Fraction(6, 5)},
                                     {"early_surrender": True}, {"early_surrender": True, "peek": False}],
                         ids=["s17", "h17-surrender", "no-hole-card", "6:5", "early-surrender",
                              "early-surrender-no-hole-card"])
def test_top_of_the_shoe_is_the_exact_house_edge(options: dict) -> None:
    rules = Rules(composition=SMALL, **options)
    strategy = _random_strategy(random.Random(7), splits=False)
    exact = house_edge(rules, strategy)
    sim = simulate_shoe(rules, penetration=0, strategy=strategy, trials=1_000_000, seed=11)
    low, high = sim.flat_interval
    half = (high - low) / 2 * 3.29 / 1.96  # 99.9%: four tables, one seed each
    assert abs(sim.flat_mean + exact) <= half, (sim.flat_mean, -exact, half)
    assert sim.rounds == 1_000_000 and sim.shoes == 1_000_000 and sim.hands >= sim.rounds


@pytest.mark.parametrize("options", [{"split_hands": 4, "resplit_aces": True}, {"split_hands": 3, "das": False}],
                         ids=["resplit-to-four-aces-too", "resplit-to-three-no-das"])
def test_resplits_at_the_top_of_the_shoe_are_the_exact_house_edge(options: dict) -> None:
    """A strategy that splits half the pairs at random: the simulator's resplits (dealt as a
    table deals them, each hand's second card in turn) against the exact engine's split values
    with resplits (cardlab.casino.blackjack_split, itself checked by a brute force), and more
    hands a round than splitting once."""
    strategy = _random_strategy(random.Random(7), splits=True)
    once = simulate_shoe(Rules(composition=SMALL), penetration=0, strategy=strategy, trials=1_000_000, seed=12)
    rules = Rules(composition=SMALL, **options)
    exact = house_edge(rules, strategy)
    sim = simulate_shoe(rules, penetration=0, strategy=strategy, trials=1_000_000, seed=12)
    low, high = sim.flat_interval
    assert abs(sim.flat_mean + exact) <= (high - low) / 2 * 3.29 / 1.96, (sim.flat_mean, -exact)
    assert sim.hands / sim.rounds > once.hands / once.rounds + 0.01


@pytest.mark.slow
@pytest.mark.parametrize("rules, edge", [(Rules(decks=6), 0.004599), (Rules(decks=6, early_surrender=True), -0.001694)],
                         ids=["s17-das", "early-surrender"])
def test_six_decks_basic_strategy_at_the_top_of_the_shoe(rules: Rules, edge: float) -> None:
    """The exact engine's basic strategy for 6 decks S17 DAS (house edge 0.4599%, its own exact
    figure; Wizard of Odds' calculator gives 0.46% for these rules with resplits; with early
    surrender -0.1694%, docs/casino.md) against 40 million rounds reshuffled every round."""
    sim = simulate_shoe(rules, penetration=0, trials=40_000_000, seed=3)
    assert sim.exact_edge == pytest.approx(edge, abs=5e-7)
    low, high = sim.flat_interval
    assert low <= -sim.exact_edge <= high
    assert "inside the interval" in sim.table()


def test_same_seed_same_figures_for_any_workers() -> None:
    one = simulate_shoe(Rules(decks=6), penetration=0.8, strategy=FLAT_TEST_STRATEGY, spread="1,2:4", trials=2_500_000,
                        seed=5, workers=1)
    two = simulate_shoe(Rules(decks=6), penetration=0.8, strategy=FLAT_TEST_STRATEGY, spread="1,2:4", trials=2_500_000,
                        seed=5, workers=2)
    assert one.to_dict() == two.to_dict() and one.rounds >= 2_500_000
    assert sum(n for _, n, _, _ in one.bins) == one.rounds
    assert math.isclose(sum(total for _, _, total, _ in one.bins), one.flat_sum)
    other = simulate_shoe(Rules(decks=6), penetration=0.8, strategy=FLAT_TEST_STRATEGY, trials=100_000, seed=6)
    assert other.flat_sum != one.flat_sum


def test_a_shoe_dealt_to_its_end_takes_its_discards_back() -> None:
    sim = simulate_shoe(Rules(decks=1), penetration=0.95, strategy=FLAT_TEST_STRATEGY, trials=200_000, seed=2)
    assert sim.ran_out > 0 and sim.rounds >= 200_000
    assert "discards were shuffled back" in sim.table()


def test_risk_of_ruin_is_the_gamblers_ruin_in_the_limit() -> None:
    # Exact gambler's ruin for +-1 steps won with chance p: (q/p)^B (Feller, vol. I, XIV.2); the
    # diffusion formula exp(-2 mean B / variance) agrees to 0.1% at p = 0.51, B = 100.
    p, bankroll = 0.51, 100
    exact = ((1 - p) / p) ** bankroll
    assert risk_of_ruin(2 * p - 1, 1 - (2 * p - 1) ** 2, bankroll) == pytest.approx(exact, rel=2e-3)
    assert risk_of_ruin(-0.01, 1.3, 100) == 1.0
    sim = simulate_shoe(Rules(decks=6), penetration=0.75, strategy=FLAT_TEST_STRATEGY, bankroll=1000,
                        trials=200_000, seed=1)
    value, interval = sim.ruin()
    assert value == 1.0 and interval.low <= value <= interval.high  # a losing game is ruined for sure


@pytest.mark.parametrize("call, message", [
    (lambda: simulate_shoe(Rules(), penetration=1.0, strategy=FLAT_TEST_STRATEGY), "penetration"),
    (lambda: simulate_shoe(Rules(), count="1,2,3", strategy=FLAT_TEST_STRATEGY), "unknown count '1,2,3'"),
    (lambda: simulate_shoe(Rules(), count="0,0,0,0,0,0,0,0,0,11", strategy=FLAT_TEST_STRATEGY), "-10 to 10"),
    (lambda: simulate_shoe(Rules(), spread="1,2:1001", strategy=FLAT_TEST_STRATEGY), "from 1 to 1000"),
    (lambda: simulate_shoe(Rules(), spread="1,x:2", strategy=FLAT_TEST_STRATEGY), "TRUE_COUNT:BET"),
    (lambda: simulate_shoe(Rules(), spread="1,21:2", strategy=FLAT_TEST_STRATEGY), "-20 to 20"),
    (lambda: simulate_shoe(Rules(), bankroll=float("nan"), strategy=FLAT_TEST_STRATEGY), "bankroll"),
    (lambda: simulate_shoe(Rules(), trials=0, strategy=FLAT_TEST_STRATEGY), "whole number of at least 1"),
    (lambda: simulate_shoe(Rules(composition=(1, 1, 1, 1, 1, 1, 1, 1, 1, 4)), strategy=FLAT_TEST_STRATEGY),
     "at least 20 cards"),
    (lambda: play_stacked(Rules(), FLAT_TEST_STRATEGY, [9, 9, 9]), "ran out"),
    (lambda: play_stacked(Rules(), FLAT_TEST_STRATEGY, [10, 9, 9, 9]), "rank code must be a whole number from 0 to 9, not 10"),
])
def test_bad_input_is_a_blackjack_error(call, message: str) -> None:
    with pytest.raises(BlackjackError, match=message):
        call()


def test_the_command(run, capsys) -> None:
    import json

    status, out, _ = run("casino", "shoe", "--shoe", ",".join(map(str, SMALL)), "--penetration", "0.5",
                         "--spread", "1,1:4", "--bankroll", "100", "--rounds", "20000", "--seed", "4", "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["rounds"] >= 20000 and data["seed"] == 4 and data["exact_house_edge"] is not None
    assert data["spread"]["1"] == 4 and data["spread"]["0"] == 1 and data["risk_of_ruin"]["value"] <= 1
    status, out, _ = run("casino", "shoe", "--shoe", ",".join(map(str, SMALL)), "--early-surrender", "--insurance",
                         "--indexes", "i18,fab4,A7v3:<1:stand", "--spread", "1,1:4", "--rounds", "20000", "--seed",
                         "4", "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["insurance_index"] == 3 and len(data["index_plays"]) == 22
    assert data["index_plays"][-1] == "A7v3:<1:stand" and "early surrender" in data["rules"]
    assert data["rounds_insured"] > 0 and data["index_plays_fired"] > 0
    for argv, needle in [(("--indexes", "16v11:0:stand"), "--indexes: an index play's card is A"),
                         (("--count", "zen", "--insurance"), "--insurance: no default insurance index"),
                         (("--insurance", "21"), "--insurance"),
                         (("--spread", "1,2:0"), "--spread: a bet is a whole number"),
                         (("--count", "lo-hi"), "--count: unknown count 'lo-hi'"),
                         (("--penetration", "1"), "--penetration"),
                         (("--shoe", "1,2"), "--shoe: a shoe is ten counts")]:
        try:
            status, _, err = run("casino", "shoe", *argv)
        except SystemExit as stop:  # argparse's own refusal
            status, err = int(stop.code or 0), capsys.readouterr().err
        assert status == 2 and needle in err and err.count("\n") == 1, err


def test_ctrl_c_keeps_the_rounds_done(ctrl_c_after, run) -> None:
    ctrl_c_after(2)
    part = simulate_shoe(Rules(composition=SMALL), penetration=0, strategy=FLAT_TEST_STRATEGY, trials=10**9, seed=3)
    assert part.simulation.interrupted and part.rounds == 2 * CHUNK and part.simulation.requested == 10**9
    assert "(interrupted)" in part.table()
    status, out, _ = run("casino", "shoe", "--shoe", ",".join(map(str, SMALL)), "--penetration", "0",
                         "--rounds", str(10**9), "--seed", "3")
    assert status == 130 and f"{2 * CHUNK:,} rounds" in out


def test_early_surrender_costs_half_the_bet_even_against_a_blackjack() -> None:
    # player T-6 against an ace with a ten in the hole: early surrender gives back half; late
    # surrender (after the peek) loses the whole bet
    surrender_16 = Strategy({("hard", 16, 0): "R"}, {})
    cards = [9, 0, 5, 9] + [4] * 10
    assert play_stacked(Rules(decks=1, early_surrender=True), surrender_16, cards)[0]["result"] == -0.5
    assert play_stacked(Rules(decks=1, surrender=True), surrender_16, cards)[0]["result"] == -1.0


@pytest.mark.parametrize("call, message", [
    (lambda: parse_indexes("16v10:0"), "HANDvUP:INDEX:ACTION"),
    (lambda: parse_indexes("21v10:0:stand"), "hard total 4..20"),
    (lambda: parse_indexes("16v10:x:stand"), "whole true count"),
    (lambda: parse_indexes("16v10:21:stand"), "-20 to 20"),
    (lambda: parse_indexes("16v10:0:fold"), "action is hit"),
    (lambda: parse_indexes("16v10:0:split"), "only a pair splits"),
    (lambda: parse_indexes("8-9v10:0:split"), "two cards of one rank"),
    (lambda: parse_indexes(",".join(["16v10:0:stand"] * 5)), "at most 4 index plays for one hand"),
    (lambda: parse_indexes("x" * 4001), "at most 4000"),
    (lambda: simulate_shoe(Rules(), count="zen", insurance=True, strategy=FLAT_TEST_STRATEGY), "no default"),
    (lambda: simulate_shoe(Rules(), insurance=21, strategy=FLAT_TEST_STRATEGY), "insurance index"),
])
def test_bad_index_plays_are_a_blackjack_error(call, message: str) -> None:
    with pytest.raises(BlackjackError, match=message):
        call()


def test_named_index_sets_are_refused_with_another_count() -> None:
    """i18 and fab4 are Hi-Lo's indexes: with Zen (another true-count scale) they would be played
    at the wrong counts, so they are refused by name; a user's own plays are taken."""
    from cardlab.casino.blackjack_sim import simulate_shoe

    with pytest.raises(BlackjackError, match="the index set 'fab4' is Hi-Lo's true counts, not the count 'zen'"):
        simulate_shoe(Rules(), trials=1000, count="zen", indexes="16v10:0:stand, fab4", seed=1,
                      strategy=FLAT_TEST_STRATEGY)
    assert simulate_shoe(Rules(), trials=1000, count="zen", indexes="16v10:0:stand", seed=1,
                         strategy=FLAT_TEST_STRATEGY).rounds >= 1000
