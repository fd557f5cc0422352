"""A counting system's playing efficiency, by Griffin's method (*The Theory of Blackjack*):
how much of the gain from playing every hand perfectly for the cards left a single count
captures.

Each *decision* is a first hand (two cards) against an up card, between the basic-strategy play
and the best other play for the full shoe. From the exact engine: ``m`` the basic play's edge
over the other in the full shoe (less the hand and up card), and per rank the effect of
removing one more card of it on that difference (its effects of removal ``e``). With ``r``
cards seen of the ``S`` left, the difference is about normal with mean ``m`` and standard
deviation ``sigma = s sqrt((S - 1) r / (S - r))``, ``s`` the per-card spread of ``e`` over the
shoe. Playing perfectly gains ``G(sigma) = sigma phi(m / sigma) - m Phi(-m / sigma)`` on that
decision; a count whose tags correlate ``rho`` with ``e`` (over the shoe's cards) sees only
the part of the spread it tracks and gains ``G(rho sigma)``. The playing efficiency is the sum
over decisions of ``chance x G(rho sigma)`` over the sum of ``chance x G(sigma)``.

>>> round(gain(0.0, 1.0), 4)            # a coin-flip decision: sigma / sqrt(2 pi)
0.3989
>>> gain(0.5, 0.0)                      # no spread: never worth changing
0.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import erf, exp, pi, sqrt

from cardlab.casino.blackjack import first_hands, basic_strategy
from cardlab.casino.blackjack_counting import betting_correlation, correlation, insurance_correlation
from cardlab.casino.blackjack_engine import Hands, Optimal
from cardlab.casino.blackjack_rules import Rules, hand_of, total_of
from cardlab.errors import BlackjackError

__all__ = ["Decision", "decisions", "gain", "playing_efficiency", "count_figures"]


@dataclass(frozen=True)
class Decision:
    """One strategy-variation decision: the hand and up card (rank indexes), its chance, the
    basic play and the alternative, the basic play's edge ``m`` in the full shoe, the effects
    of removal of the difference (alternative minus basic, per rank A..T) and the shoe left."""

    hand: tuple[int, ...]
    up: int
    chance: float
    basic: str
    other: str
    edge: float
    effects: tuple[float, ...]
    left: tuple[int, ...]


def gain(m: float, sigma: float) -> float:
    """The expected gain of taking the other play whenever it is better, when the basic play's
    edge is normal with mean ``m`` and standard deviation ``sigma``."""
    if sigma <= 0:
        return max(-m, 0.0)
    z = m / sigma
    return sigma * exp(-z * z / 2) / sqrt(2 * pi) - m * 0.5 * (1 - erf(z / sqrt(2)))


def decisions(rules: Rules) -> list[Decision]:
    """Every first hand against every up card with its basic play, best other play and the
    effects of removal of their difference (later decisions composition-dependent)."""
    strategy = basic_strategy(rules)
    later = Optimal()
    cards = rules.cards
    size = sum(cards)
    found = []
    for up in range(10):
        if cards[up] == 0:
            continue
        full = Hands(rules, up)
        reduced = {j: Hands(rules, up, hand_of(j)) for j in range(10) if full.base[j] > 0}
        for hand, chance in first_hands(full.base):
            if total_of(hand)[0] == 21:
                continue
            basic = strategy.decide(full, hand, hand, False)
            others = [a for a in full.options(hand, False) if a != basic]
            other = max(others, key=lambda a: full.ev(hand, a, later))
            left = tuple(b - h for b, h in zip(full.base, hand))
            diff = full.ev(hand, other, later) - full.ev(hand, basic, later)
            effects = tuple(
                reduced[j].ev(hand, other, later) - reduced[j].ev(hand, basic, later) - diff
                if j in reduced and left[j] > 0 else 0.0 for j in range(10))
            found.append(Decision(hand, up, cards[up] / size * chance, basic, other, -diff, effects, left))
    return found


def playing_efficiency(rules: Rules, tags: Sequence[float], seen: int | None = None,
                       found: list[Decision] | None = None) -> float:
    """The playing efficiency of the count ``tags`` (A..T) with ``seen`` cards of the shoe
    dealt (default a quarter of it, the depth at which the published single-deck figures are
    reproduced), over :func:`decisions` (``found``: already computed)."""
    chosen = decisions(rules) if found is None else found
    size = sum(rules.cards)
    seen = size // 4 if seen is None else seen
    if isinstance(seen, bool) or not isinstance(seen, int) or not 1 <= seen <= size - 10:
        raise BlackjackError(f"cards seen must be a whole number from 1 to {size - 10}, got '{seen}'")
    ideal = counted = 0.0
    for d in chosen:
        cards = sum(d.left)
        mean = sum(n * e for n, e in zip(d.left, d.effects)) / cards
        spread = sqrt(sum(n * (e - mean) ** 2 for n, e in zip(d.left, d.effects)) / cards)
        if spread == 0:
            continue
        r = min(seen, cards - 1)
        sigma = spread * sqrt((cards - 1) * r / (cards - r))
        rho = abs(correlation(tags, d.effects, d.left))
        ideal += d.chance * gain(d.edge, sigma)
        counted += d.chance * gain(d.edge, rho * sigma)
    return counted / ideal


def count_figures(rules: Rules, name: str, tags: Sequence[float], effects: dict[str, float]) -> dict[str, object]:
    """A count's three figures for these rules: betting correlation (against ``effects``, the
    effects of removal), insurance correlation and playing efficiency (a quarter of the shoe
    seen), as :class:`~cardlab.casino.blackjack.BlackjackAnalysis` shows them."""
    return {"count": name, "tags": list(tags), "betting_correlation": betting_correlation(tags, effects),
            "insurance_correlation": insurance_correlation(tags),
            "playing_efficiency": playing_efficiency(rules, tags)}
