"""Results of the video poker analysis: the whole game (:class:`VideoAnalysis`) and one dealt
hand's holds (:class:`HandAnalysis`).

JSON of a whole game (:meth:`VideoAnalysis.to_dict`; ``to_json()`` gives it as text)::

    {"paytable": str, "cards": int, "return": float, "return_exact": "p/q", "variance": float,
     "std_dev": float, "hit_frequency": float, "hands_per_royal": float | null, "total": int,
     "tied_deals": int, "exact": true,
     "outcomes": [{"name": str, "pays": number, "count": int, "probability": float,
                   "contribution": float}],
     "simulation": {"trials": int, "requested": int, "seed": int, "interrupted": bool,
                    "return": float, "ci95": [lo, hi], "counts": [int, ...]}   # only with --simulate
    }

JSON of one hand (:meth:`HandAnalysis.to_dict`)::

    {"paytable": str, "hand": str, "holds": [{"hold": str, "ev": float, "ev_exact": "p/q",
      "outcomes": {name: count, ...}}]}      # best first; "" = draw five

>>> from cardlab.casino.video_paytable import paytable
>>> t = paytable("jacks-or-better-9-6")
>>> r = VideoAnalysis(t, "52 cards", 52, (0,) * 9 + (10,), 10, 0, None)
>>> r
VideoAnalysis(Jacks or Better 9/6 on 52 cards: return 0.000000%)
"""

from __future__ import annotations

import csv
import html
import io
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from cardlab.results import JsonText
from cardlab.textformat import interval, percent, text_table
from cardlab.distribution import Simulation
from cardlab.casino.pays import PayTable

__all__ = ["VideoAnalysis", "HandAnalysis", "HoldValue"]


def _ratio(value: Fraction) -> str:
    """'p/q' always (the JSON schema's exact ratios keep the denominator, even 1)."""
    return f"{value.numerator}/{value.denominator}"


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


@dataclass(frozen=True)
class VideoAnalysis(JsonText):
    """A pay table under optimal play on one deck: the weighted count of each final outcome
    out of ``total`` (dealt hands × L draws each), and the figures derived from them exactly.

    ``tied_deals`` counts the dealt hands whose best expected pay two holds reach (the
    documented tie rule chose between them). With a simulation, ``simulation`` is the engine's
    record of it (:class:`~cardlab.distribution.Simulation`: trials done, seed, workers,
    whether Ctrl-C cut it short) and ``simulated`` the count of each outcome over those trials.
    """

    paytable: PayTable
    deck: str
    cards: int
    counts: tuple[int, ...]
    total: int
    tied_deals: int
    simulation: Simulation | None = None
    simulated: tuple[int, ...] = ()

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the simulation early (its figures cover the trials done)."""
        return self.simulation is not None and self.simulation.interrupted

    @property
    def names(self) -> list[str]:
        """Outcome names, as in the pay table, then 'nothing'."""
        return [o.name for o in self.paytable.outcomes]

    @property
    def probabilities(self) -> list[Fraction]:
        """Exact probability of each outcome."""
        return [Fraction(c, self.total) for c in self.counts]

    @property
    def return_exact(self) -> Fraction:
        """Expected pay per coin bet under optimal play."""
        return sum((p * o.pays for p, o in zip(self.probabilities, self.paytable.outcomes)), Fraction(0))

    @property
    def variance(self) -> Fraction:
        """Variance of the pay of one hand (per coin)."""
        second = sum((p * o.pays**2 for p, o in zip(self.probabilities, self.paytable.outcomes)), Fraction(0))
        return second - self.return_exact**2

    @property
    def std_dev(self) -> float:
        """Standard deviation of the pay of one hand."""
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that a hand pays something."""
        return sum((p for p, o in zip(self.probabilities, self.paytable.outcomes) if o.pays > 0), Fraction(0))

    @property
    def hands_per_royal(self) -> float | None:
        """Mean number of hands per natural royal flush (None if the pay table has no royal line
        or the deck cannot make one)."""
        for count, outcome in zip(self.counts, self.paytable.outcomes):
            if outcome.hand == "royal flush" and count:
                return self.total / count
        return None

    def simulated_return(self) -> tuple[float, tuple[float, float]] | None:
        """The simulated mean pay and its 95% interval (normal approximation), if simulated."""
        sim = self.simulation
        if sim is None or sim.trials == 0:
            return None
        pays = [float(o.pays) for o in self.paytable.outcomes]
        from cardlab.intervals import mean_interval

        total = sum(c * p for c, p in zip(self.simulated, pays))
        squares = sum(c * p * p for c, p in zip(self.simulated, pays))
        low, high = mean_interval(total, squares, sim.trials)
        return total / sim.trials, (low, high)

    def rows(self) -> list[dict[str, Any]]:
        """One dict per outcome: name, pays, count, probability, contribution (floats)."""
        return [{"name": o.name, "pays": _number(o.pays), "count": c, "probability": float(p),
                 "contribution": float(p * o.pays)}
                for o, c, p in zip(self.paytable.outcomes, self.counts, self.probabilities)]

    def to_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready data (see the module docstring)."""
        out: dict[str, Any] = {
            "paytable": self.paytable.name, "cards": self.cards, "return": float(self.return_exact),
            "return_exact": _ratio(self.return_exact), "variance": float(self.variance),
            "std_dev": self.std_dev, "hit_frequency": float(self.hit_frequency),
            "hands_per_royal": self.hands_per_royal, "total": self.total, "tied_deals": self.tied_deals,
            "outcomes": self.rows(), "exact": True}
        simulated = self.simulated_return()
        if simulated is not None and self.simulation is not None:
            sim = self.simulation
            out["simulation"] = {"trials": sim.trials, "requested": sim.requested, "seed": sim.seed,
                                 "interrupted": sim.interrupted, "return": simulated[0],
                                 "ci95": list(simulated[1]), "counts": list(self.simulated)}
        return out

    def to_csv(self) -> str:
        """One line per outcome (with the simulated frequency when simulated)."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        header = ["outcome", "pays", "count", "probability", "contribution"]
        sim = self.simulation
        if sim is not None:
            header += ["simulated_count", "simulated_probability"]
        writer.writerow(header)
        for i, row in enumerate(self.rows()):
            line = [row["name"], row["pays"], row["count"], repr(row["probability"]), repr(row["contribution"])]
            if sim is not None:
                line += [self.simulated[i], repr(self.simulated[i] / sim.trials)]
            writer.writerow(line)
        return buffer.getvalue()

    def table(self) -> str:
        """The combination table and the summary figures, as aligned text."""
        sim = self.simulation
        head = ["outcome", "pays", "combinations", "probability", "return"]
        if sim is not None:
            head += ["simulated", "95% interval"]
        body = []
        for i, row in enumerate(self.rows()):
            line = [row["name"], f"{row['pays']:g}", f"{row['count']:,}", f"{row['probability']:.8f}",
                    f"{row['contribution']:.6f}"]
            if sim is not None:
                from cardlab.intervals import wilson

                p = self.simulated[i] / sim.trials
                low, high = wilson(self.simulated[i], sim.trials)
                line += [f"{p:.8f}", interval(f"{low:.8f}", f"{high:.8f}")]
            body.append(line)
        body.append(["total", "", f"{self.total:,}", "1.00000000", f"{float(self.return_exact):.6f}"]
                    + (["", ""] if sim is not None else []))
        lines = [f"{self.paytable.name}, optimal play, {self.deck}", text_table(head, body), ""]
        lines.append(f"return          {100 * float(self.return_exact):.4f}%  (exactly {_ratio(self.return_exact)})")
        lines.append(f"variance        {float(self.variance):.4f}   standard deviation {self.std_dev:.4f}")
        lines.append(f"hit frequency   {100 * float(self.hit_frequency):.4f}%")
        royal = self.hands_per_royal
        if royal is not None:
            lines.append(f"hands per royal {royal:,.1f}")
        lines.append(f"tied deals      {self.tied_deals:,} (equal-EV holds: the less volatile is played, then the one keeping more cards)")
        simulated = self.simulated_return()
        if simulated is not None and sim is not None:
            mean, (lo, hi) = simulated
            lines.append(f"simulated       {100 * mean:.4f}%  95% interval {interval(percent(lo, 4), percent(hi, 4))}  "
                         f"({sim.trials:,} hands, seed {sim.seed}"
                         + (f"; interrupted after {sim.trials:,} of {sim.requested:,}" if sim.interrupted else "")
                         + ")")
        return "\n".join(lines) + "\n"

    def to_pandas(self) -> Any:
        """A DataFrame, one row per outcome (pandas imported on use)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        frame = pd.DataFrame(self.rows())
        if self.simulation is not None:
            frame["simulated_count"] = list(self.simulated)
            frame["simulated_probability"] = [c / max(1, self.simulation.trials) for c in self.simulated]
        return frame

    def plot(self, path: str | Path) -> Path:
        """A bar chart of each outcome's contribution to the return, saved as PNG
        (:func:`cardlab.report.video_plot.return_figure`)."""
        from cardlab.report.video_plot import return_figure
        from cardlab.report.figures import save_figure

        return save_figure(return_figure(self), path)

    def __repr__(self) -> str:
        return (f"VideoAnalysis({self.paytable.name} on {self.deck}: "
                f"return {100 * float(self.return_exact):.6f}%)")

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{html.escape(r['name'])}</td><td>{r['pays']:g}</td><td>{r['count']:,}</td>"
                       f"<td>{r['probability']:.8f}</td><td>{r['contribution']:.6f}</td></tr>"
                       for r in self.rows())
        return (f"<p><b>{html.escape(self.paytable.name)}</b>, {html.escape(self.deck)}: return "
                f"{100 * float(self.return_exact):.4f}%, standard deviation {self.std_dev:.4f}</p>"
                "<table><tr><th>outcome</th><th>pays</th><th>combinations</th><th>probability</th>"
                f"<th>return</th></tr>{rows}</table>")


@dataclass(frozen=True)
class HoldValue:
    """One hold of a dealt hand: the held cards as written ('' = draw five), the exact expected
    pay, and the number of draws ending in each outcome."""

    hold: str
    ev: Fraction
    counts: tuple[int, ...]


@dataclass(frozen=True)
class HandAnalysis(JsonText):
    """The 32 holds of one dealt hand, best first."""

    paytable: PayTable
    hand: str
    deck: str
    holds: tuple[HoldValue, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (see the module docstring)."""
        names = [o.name for o in self.paytable.outcomes]
        return {"paytable": self.paytable.name, "hand": self.hand, "holds": [
            {"hold": h.hold, "ev": float(h.ev), "ev_exact": _ratio(h.ev),
             "outcomes": {n: c for n, c in zip(names, h.counts)}} for h in self.holds]}

    def to_csv(self) -> str:
        """One line per hold: the hold, its EV, and the count of each outcome."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["hold", "ev", "ev_exact", *(o.name for o in self.paytable.outcomes)])
        for h in self.holds:
            writer.writerow([h.hold, repr(float(h.ev)), _ratio(h.ev), *h.counts])
        return buffer.getvalue()

    def table(self, best: int = 3) -> str:
        """All holds ranked by EV, then the outcome distribution of the ``best`` first."""
        lines = [f"{self.paytable.name}, {self.deck}: dealt {self.hand}", "",
                 f"{'rank':>4}  {'hold':<24} {'EV':>10}"]
        for i, h in enumerate(self.holds, 1):
            lines.append(f"{i:>4}  {(h.hold or '(draw five)'):<24} {float(h.ev):>10.6f}")
        for h in self.holds[:best]:
            draws = sum(h.counts)
            lines += ["", f"hold {h.hold or '(draw five)'}: {draws:,} draws, EV {float(h.ev):.6f}"]
            for o, c in zip(self.paytable.outcomes, h.counts):
                if c:
                    lines.append(f"  {o.name:<22} {c:>10,}  {c / draws:.6f}")
        return "\n".join(lines) + "\n"

    def to_pandas(self) -> Any:
        """A DataFrame, one row per hold (pandas imported on use)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        names = [o.name for o in self.paytable.outcomes]
        return pd.DataFrame([{"hold": h.hold, "ev": float(h.ev), **dict(zip(names, h.counts))} for h in self.holds])

    def plot(self, path: str | Path, best: int = 10) -> Path:
        """A bar chart of the EV of the ``best`` holds, saved as PNG
        (:func:`cardlab.report.video_plot.holds_figure`)."""
        from cardlab.report.video_plot import holds_figure
        from cardlab.report.figures import save_figure

        return save_figure(holds_figure(self, best), path)

    def __repr__(self) -> str:
        best = self.holds[0]
        return f"HandAnalysis({self.hand}: hold '{best.hold}' EV {float(best.ev):.6f})"

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{html.escape(h.hold or '(draw five)')}</td><td>{float(h.ev):.6f}</td></tr>"
                       for h in self.holds)
        return (f"<p>{html.escape(self.paytable.name)}: dealt {html.escape(self.hand)}</p>"
                f"<table><tr><th>hold</th><th>EV</th></tr>{rows}</table>")
