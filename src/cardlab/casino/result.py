"""The result of a table game's analysis: each bet's exact figures, the strategy, a simulation.

>>> row = OutcomeRow("pair", 3744, Fraction(1))
>>> bet = BetAnalysis("Pair Plus", Fraction(-512, 22100), Fraction(1), 0.0, 22100, (row,))
>>> f"{bet.house_edge:.4%}"
'2.3167%'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from cardlab.intervals import Interval
from cardlab.results import JsonText, csv_rows
from cardlab.textformat import interval, percent, probability, text_table

__all__ = ["OutcomeRow", "BetAnalysis", "SimulatedBet", "GameAnalysis", "MeterReturn", "sd_of", "exact_bet"]


@dataclass(frozen=True)
class OutcomeRow:
    """One outcome of a bet: how many of the deals counted end so, and what it nets per unit
    (``None`` when it varies: a bonus on top of a win)."""

    name: str
    count: int
    net: Fraction | None


@dataclass(frozen=True)
class SimulatedBet:
    """The bet's mean result per unit over ``hands`` seeded random deals, with its 95% interval,
    beside the ``exact`` expected result."""

    hands: int
    mean: float
    interval: Interval[float]
    seed: int | None
    exact: float
    rare: float = 0.0

    @property
    def agrees(self) -> bool:
        """Whether the interval holds the exact expected result."""
        return self.interval.low <= self.exact <= self.interval.high

    @property
    def trustworthy(self) -> bool:
        """Whether the deals were enough for the interval: the outcomes expected fewer than 5
        times in them (``rare``: their probability times their net, summed) move the mean by
        less than half the interval's half-width. A royal flush paying 20,000 seen 0.15 times in
        100,000 deals is not: the sample's spread leaves it out."""
        return self.rare <= (self.interval.high - self.interval.low) / 4


@dataclass(frozen=True)
class MeterReturn:
    """A progressive bet's expected result per unit as the jackpot meter goes: ``base`` with
    the meter at 0, plus ``per_unit`` for each unit on the meter; ``meter`` the one analysed.

    >>> figures = MeterReturn(Fraction(100_000), Fraction(-2_000_360, 2_598_960), Fraction(76, 25_989_600))
    >>> round(figures.break_even)
    263205
    """

    meter: Fraction
    base: Fraction
    per_unit: Fraction

    @property
    def break_even(self) -> float | None:
        """The meter at which the bet's expected result is 0 (``None``: no meter makes it so)."""
        if self.per_unit <= 0 or self.base >= 0:
            return None
        return float(-self.base / self.per_unit)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {"meter": float(self.meter), "return_at_zero_meter": float(1 + self.base),
                "return_per_unit_of_meter": float(self.per_unit), "break_even_meter": self.break_even}

    def text(self) -> str:
        """One line for people."""
        even = self.break_even
        said = f"break-even meter {even:,.0f}" if even is not None else "no meter breaks even"
        return (f"meter {float(self.meter):,.0f}: return {float(1 + self.base):.4%} of the bet with an empty meter, "
                f"plus {float(self.per_unit) * 10_000:.4%} for each 10,000 on it; {said}")


@dataclass(frozen=True)
class BetAnalysis:
    """One bet under the optimal strategy: its exact expected result per unit of the base bet,
    the average total bet per unit, the standard deviation, the deals counted and the outcomes."""

    name: str
    expected: Fraction
    average_bet: Fraction
    sd: float
    total: int
    outcomes: tuple[OutcomeRow, ...]
    simulated: SimulatedBet | None = None
    progressive: MeterReturn | None = None

    @property
    def house_edge(self) -> float:
        """The expected loss as a fraction of the base bet."""
        return float(-self.expected)

    @property
    def element_of_risk(self) -> float:
        """The expected loss as a fraction of the average total amount bet."""
        return float(-self.expected / self.average_bet)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data of the bet."""
        out: dict[str, Any] = {
            "bet": self.name, "house_edge": self.house_edge, "element_of_risk": self.element_of_risk,
            "expected": str(self.expected), "average_bet": float(self.average_bet), "sd": self.sd,
            "deals": self.total,
            "outcomes": [{"outcome": o.name, "count": o.count, "probability": o.count / self.total,
                          "net": None if o.net is None else float(o.net)} for o in self.outcomes]}
        if self.progressive is not None:
            out["progressive"] = self.progressive.to_dict()
        if self.simulated is not None:
            s = self.simulated
            out["simulated"] = {"hands": s.hands, "mean": s.mean, "low": s.interval.low, "high": s.interval.high,
                                "seed": s.seed, "agrees": s.agrees, "trustworthy": s.trustworthy}
        return out


@dataclass(frozen=True)
class GameAnalysis(JsonText):
    """A game's exact analysis: each bet (:class:`BetAnalysis`) and the optimal strategy as
    readable rules, with how the deals were counted."""

    game: str
    bets: tuple[BetAnalysis, ...]
    strategy: tuple[str, ...]
    method: str
    notes: tuple[str, ...] = field(default=())

    def bet(self, name: str) -> BetAnalysis:
        """The bet of that name (case-insensitive)."""
        for b in self.bets:
            if b.name.lower() == name.lower():
                return b
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data of the whole analysis."""
        return {"game": self.game, "method": self.method, "strategy": list(self.strategy),
                "bets": [b.to_dict() for b in self.bets], "notes": list(self.notes)}

    def to_csv(self) -> str:
        """One row per outcome of each bet."""
        rows = []
        for b in self.bets:
            for o in b.outcomes:
                rows.append({"bet": b.name, "outcome": o.name, "count": o.count, "probability": o.count / b.total,
                             "net": "" if o.net is None else float(o.net), "house_edge": b.house_edge,
                             "element_of_risk": b.element_of_risk, "sd": b.sd})
        return csv_rows(rows, ("bet", "outcome", "count", "probability", "net", "house_edge", "element_of_risk", "sd"))

    def table(self) -> str:
        """The analysis as text: strategy, then per bet its figures and outcome table."""
        lines = [f"{self.game}: {self.method}", ""]
        if self.strategy:
            decides = len(self.strategy) > 1 or "no decisions" not in self.strategy[0]
            lines += ["Optimal strategy:" if decides else "Strategy:"] + [f"  {s}" for s in self.strategy] + [""]
        for b in self.bets:
            lines.append(f"{b.name}: house edge {percent(b.house_edge, 4)}, element of risk "
                         f"{percent(b.element_of_risk, 4)}, standard deviation {b.sd:.4f}, average bet "
                         f"{float(b.average_bet):.4f}")
            if b.progressive is not None:
                lines.append(b.progressive.text())
            rows = [[o.name, f"{o.count:,}", probability(o.count / b.total),
                     "varies" if o.net is None else f"{float(o.net):+g}"] for o in b.outcomes]
            rows.append(["total", f"{b.total:,}", "1", ""])
            lines.append(text_table(["outcome", "count", "probability", "net"], rows))
            if b.simulated is not None:
                s = b.simulated
                verdict = "agrees" if s.agrees else "DISAGREES"
                if not s.trustworthy:
                    verdict += " (too few deals for its rare pays: the interval leaves them out)"
                lines.append(f"simulated: {s.hands:,} deals (seed {s.seed}): mean {s.mean:+.5f} per unit, 95% "
                             f"interval {interval(f'{s.interval.low:+.5f}', f'{s.interval.high:+.5f}')}; "
                             f"{verdict} with the exact {float(b.expected):+.5f}")
            lines.append("")
        lines += list(self.notes)
        return "\n".join(lines).rstrip("\n") + "\n"


def sd_of(values: list[tuple[Fraction, int]]) -> float:
    """The standard deviation of a distribution given as (value, count) pairs.

    >>> sd_of([(Fraction(1), 1), (Fraction(-1), 1)])
    1.0
    """
    total = sum(c for _, c in values)
    mean = sum(v * c for v, c in values) / total
    square = sum(v * v * c for v, c in values) / total
    return math.sqrt(square - mean * mean)


def exact_bet(name: str, values: Mapping[Fraction, int], average: Fraction, total: int,
              rows: Sequence[OutcomeRow]) -> BetAnalysis:
    """A bet from every deal counted once by its net result (``values``: net -> deals, summing to
    ``total``): the exact expectation and the standard deviation, with the ``average`` total bet
    and the outcome ``rows``.

    >>> exact_bet("even money", {Fraction(1): 1, Fraction(-1): 1}, Fraction(1), 2, ()).expected
    Fraction(0, 1)
    """
    if sum(values.values()) != total:
        raise AssertionError(f"{name}: the deals counted ({sum(values.values()):,}) are not every deal ({total:,})")
    expected = sum((v * c for v, c in values.items()), Fraction(0)) / total
    return BetAnalysis(name, expected, average, sd_of(list(values.items())), total, tuple(rows))
