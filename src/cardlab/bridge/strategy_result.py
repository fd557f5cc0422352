"""What ``bridge compare`` reports: per-strategy figures, the paired cross-tables, the deals that differ.

Every figure is a mean over the same deals with a normal 95% interval from its sum and sum of
squares (:func:`cardlab.intervals.mean_interval`); comparisons are paired (the difference on each
deal, then its mean), so a strategy against itself gives 0 with a zero-width interval.

>>> p = PairStats("A", "B", "None", 4, imp_sum=10.0, imp_squares=50.0, diff_sum=500.0,
...               diff_squares=125000.0, wins=2, ties=1)
>>> p.imps()[0], p.matchpoints()[0], p.losses, p.board_a_match()[0]
(2.5, 0.625, 1, 0.25)
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Any

from cardlab import pbn
from cardlab.intervals import mean_interval, wilson
from cardlab.results import JsonText

__all__ = ["StrategyStats", "PairStats", "Differ", "StrategyResult"]

Figure = tuple[float, float, float]


def _mean(total: float, squares: float, n: int) -> Figure:
    if not n:
        return float("nan"), float("nan"), float("nan")
    lo, hi = mean_interval(total, squares, n)
    return total / n, lo, hi


def _fig(figure: Figure) -> dict[str, Any] | None:
    """A figure for JSON: None when there is nothing to estimate (no deal, nothing played)."""
    if math.isnan(figure[0]):
        return None
    return {"mean": figure[0], "ci95": [figure[1], figure[2]]}


def _cells(figure: Figure) -> str:
    """``mean,low,high`` for CSV: empty cells when there is nothing to estimate."""
    return ",," if math.isnan(figure[0]) else ",".join(map(str, figure))


@dataclass(frozen=True)
class StrategyStats(JsonText):
    """One strategy under one vulnerability. ``played``: deals where a contract was played (not
    passed out); make rate and mean tricks are over those, the score over every deal."""

    label: str
    rule: str
    vulnerability: str
    deals: int
    played: int
    makes: int
    tricks_sum: float
    tricks_squares: float
    score_sum: float
    score_squares: float
    par: tuple[float, float] | None = None  # IMPs against par: sum, sum of squares

    def make_rate(self) -> Figure:
        """Share of the played deals on which the contract made, with its Wilson 95% interval."""
        if not self.played:
            return float("nan"), float("nan"), float("nan")
        lo, hi = wilson(self.makes, self.played)
        return self.makes / self.played, lo, hi

    def mean_tricks(self) -> Figure:
        """Declarer's mean tricks over the played deals."""
        return _mean(self.tricks_sum, self.tricks_squares, self.played)

    def mean_score(self) -> Figure:
        """North-South's mean score per deal."""
        return _mean(self.score_sum, self.score_squares, self.deals)

    def imps_vs_par(self) -> Figure | None:
        """North-South's mean IMPs per deal against par (None when par was not asked)."""
        return None if self.par is None else _mean(self.par[0], self.par[1], self.deals)

    def to_dict(self) -> dict[str, Any]:
        """``{label, rule, vulnerability, deals, played, make, tricks, score, imps_vs_par}``."""
        vs_par = self.imps_vs_par()
        rate = _fig(self.make_rate())
        return {"label": self.label, "rule": self.rule, "vulnerability": self.vulnerability, "deals": self.deals,
                "played": self.played, "make": rate and {"probability": rate["mean"], "ci95": rate["ci95"]},
                "tricks": _fig(self.mean_tricks()), "score": _fig(self.mean_score()),
                "imps_vs_par": None if vs_par is None else _fig(vs_par)}


@dataclass(frozen=True)
class PairStats(JsonText):
    """Strategy ``first`` against ``second`` on the same deals, from the first's side."""

    first: str
    second: str
    vulnerability: str
    deals: int
    imp_sum: float
    imp_squares: float
    diff_sum: float
    diff_squares: float
    wins: int
    ties: int

    @property
    def losses(self) -> int:
        """Deals on which the first scores less than the second."""
        return self.deals - self.wins - self.ties

    def imps(self) -> Figure:
        """Mean IMPs per deal won by the first (standard IMP scale)."""
        return _mean(self.imp_sum, self.imp_squares, self.deals)

    def points(self) -> Figure:
        """Mean total-points difference per deal."""
        return _mean(self.diff_sum, self.diff_squares, self.deals)

    def matchpoints(self) -> Figure:
        """The first's matchpoint share at a two-table pairs game (beat 1, tie ½, lose 0)."""
        return _mean(self.wins + 0.5 * self.ties, self.wins + 0.25 * self.ties, self.deals)

    def board_a_match(self) -> Figure:
        """Board-a-match net result per board: wins less losses over the deals (+1, 0, -1 a board)."""
        return _mean(self.wins - self.losses, self.wins + self.losses, self.deals)

    def to_dict(self) -> dict[str, Any]:
        """``{first, second, vulnerability, deals, imps, matchpoints, board_a_match, points}``."""
        return {"first": self.first, "second": self.second, "vulnerability": self.vulnerability, "deals": self.deals,
                "imps": _fig(self.imps()), "matchpoints": _fig(self.matchpoints()),
                "board_a_match": {"wins": self.wins, "ties": self.ties, "losses": self.losses,
                                  "net": _fig(self.board_a_match())},
                "points": _fig(self.points())}


@dataclass(frozen=True)
class Differ:
    """A deal on which the strategies' contracts differ (first vulnerability): the four hands
    (card ids, N E S W), each strategy's contract, declarer's tricks and North-South's score."""

    hands: tuple[tuple[int, ...], ...]
    contracts: tuple[str, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    dealer: str = ""  # the board's, when scored at each board's vulnerability
    vulnerable: str = ""


def _deal_text(hands: tuple[tuple[int, ...], ...]) -> str:
    from cardlab.cards import format_pbn_hand

    return "N:" + " ".join(format_pbn_hand(h) for h in hands)


@dataclass(frozen=True)
class StrategyResult(JsonText):
    """Strategies compared double dummy: :meth:`strategy` and :meth:`pair` give the figures."""

    strategies: tuple[StrategyStats, ...]
    pairs: tuple[PairStats, ...]
    vulnerabilities: tuple[str, ...]
    labels: tuple[str, ...]
    rules: tuple[str, ...]
    source: str
    seed: int | None
    deals: int
    requested: int
    tried: int
    differ: tuple[Differ, ...] = ()
    dealer: str = "N"
    interrupted: bool = False
    workers: int = 1

    def strategy(self, label: str, vulnerability: str | None = None) -> StrategyStats:
        """One strategy's figures (under the first vulnerability unless named)."""
        vul = vulnerability or self.vulnerabilities[0]
        return next(s for s in self.strategies if s.label == label and s.vulnerability == vul)

    def pair(self, first: str, second: str, vulnerability: str | None = None) -> PairStats:
        """``first`` against ``second`` (under the first vulnerability unless named)."""
        vul = vulnerability or self.vulnerabilities[0]
        return next(p for p in self.pairs if p.first == first and p.second == second and p.vulnerability == vul)

    def to_dict(self) -> dict[str, Any]:
        """The run as a JSON-ready dict: the deals, each strategy's figures, every ordered pair."""
        return {"deals": self.deals, "requested": self.requested, "seed": self.seed, "tried": self.tried,
                "source": self.source, "interrupted": self.interrupted, "vulnerabilities": list(self.vulnerabilities),
                "rules": dict(zip(self.labels, self.rules)),
                "strategies": [s.to_dict() for s in self.strategies], "pairs": [p.to_dict() for p in self.pairs],
                "differing_deals_kept": len(self.differ)}

    def to_csv(self) -> str:
        """One row per figure: ``kind,vulnerability,first,second,measure,mean,ci95_low,ci95_high``."""
        lines = ["kind,vulnerability,first,second,measure,mean,ci95_low,ci95_high"]
        for s in self.strategies:
            figures = [("make", s.make_rate()), ("tricks", s.mean_tricks()), ("score", s.mean_score())]
            vs_par = s.imps_vs_par()
            if vs_par is not None:
                figures.append(("imps_vs_par", vs_par))
            lines += [f"strategy,{s.vulnerability},{s.label},,{name},{_cells(figure)}" for name, figure in figures]
        for p in self.pairs:
            for name, figure in (("imps", p.imps()), ("matchpoints", p.matchpoints()),
                                 ("board_a_match", p.board_a_match()), ("points", p.points())):
                lines.append(f"pair,{p.vulnerability},{p.first},{p.second},{name},{_cells(figure)}")
        return "\n".join(lines) + "\n"

    def to_pbn(self) -> str:
        """The kept deals where the strategies differ, one PBN game each: the first strategy's
        contract in the Contract/Declarer/Result tags, every strategy's in a comment."""
        import time

        out = ["% PBN 2.1\n% deals where the strategies' contracts differ (cardlab bridge compare)\n"]
        for k, d in enumerate(self.differ, 1):
            tags = pbn.export_tags(str(k), d.dealer or self.dealer, d.vulnerable or self.vulnerabilities[0],
                                   _deal_text(d.hands),
                                   time.strftime("%Y.%m.%d"))
            first = d.contracts[0].split(" by ")
            if len(first) == 2:
                tags = [(n, {"Declarer": first[1], "Contract": first[0], "Result": str(d.tricks[0])}.get(n, v))
                        for n, v in tags]
            notes = "; ".join(f"{lab} {c}: {t} tricks, NS {s:+d}" if t >= 0 else f"{lab} {c}: NS 0"
                              for lab, c, t, s in zip(self.labels, d.contracts, d.tricks, d.scores))
            out.append(pbn.format_game(tags)[:-1] + "{" + notes.replace("}", ")") + "}\n\n")
        return "".join(out)

    def table(self) -> str:
        """The text ``bridge compare`` prints."""
        seed = f"; seed {self.seed}" if self.seed is not None else ""
        out = [f"{self.deals:,} deals ({self.source}{seed}); scores are North-South's"]
        out += [f"  {lab}: {rule}" for lab, rule in zip(self.labels, self.rules)]
        for vul in self.vulnerabilities if self.deals else ():
            out.append(f"\nVulnerability {vul}")
            out.append("  strategy   make % (95%)            mean tricks    mean score (95%)        IMPs vs par")
            for s in (s for s in self.strategies if s.vulnerability == vul):
                rate, tricks, score, vs_par = s.make_rate(), s.mean_tricks(), s.mean_score(), s.imps_vs_par()
                make = f"{100 * rate[0]:5.1f} ({100 * rate[1]:.1f}-{100 * rate[2]:.1f})" if s.played else "   - "
                par = f"{vs_par[0]:+.2f} ({vs_par[1]:+.2f} {vs_par[2]:+.2f})" if vs_par else "-"
                mean_tricks = f"{tricks[0]:6.2f}" if s.played else f"{'-':>6}"
                out.append(f"  {s.label:<10} {make:<23} {mean_tricks}     "
                           f"{score[0]:+7.0f} ({score[1]:+.0f} {score[2]:+.0f})   {par}")
            for name, how in (("IMPs per deal, row over column", "imps"),
                              ("matchpoint share at two tables, row against column", "matchpoints"),
                              ("board-a-match, wins less losses per board", "board_a_match"),
                              ("total points per deal, row over column", "points")):
                out.append(f"  {name} (95% interval):")
                digits = 0 if how == "points" else 2
                texts = {(a, b): "-" if a == b else "{:+.{d}f} ({:+.{d}f} {:+.{d}f})".format(
                    *getattr(self.pair(a, b, vul), how)(), d=digits) for a in self.labels for b in self.labels}
                width = max(len(t) for t in texts.values()) + 3
                out.append("        " + "".join(f"{lab:>{width}}" for lab in self.labels))
                out += [f"  {a:<6}" + "".join(f"{texts[a, b]:>{width}}" for b in self.labels) for a in self.labels]
        if self.differ:
            out.append(f"\n{len(self.differ):,} deals where the contracts differ were kept")
        if self.interrupted:
            out.append(f"interrupted: {self.deals:,} of {self.requested:,} deals were solved")
        return "\n".join(out) + "\n"

    def __repr__(self) -> str:
        return f"StrategyResult({', '.join(self.labels)}, {self.deals} deals)"

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(self.table())}</pre>"
