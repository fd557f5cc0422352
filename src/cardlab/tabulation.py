"""Tabulation: what a table command answers, as one object a notebook can use too.

An exact :class:`~cardlab.distribution.Distribution`, a simulated one, or both
side by side (exact and simulated probability per row, the simulation's 95%
interval and whether the exact value lies inside it), with a title. It knows
its JSON and CSV schema, its text table, its picture and its DataFrame, so the
command line only chooses which to print.

>>> from cardlab.distribution import Distribution, Simulation
>>> exact = Distribution("coin", (0, 1), (1, 1))
>>> sim = Distribution("coin", (0, 1), (480, 520), simulation=Simulation(1000, seed=3))
>>> t = Tabulation("a fair coin", exact, sim)
>>> t
<Tabulation 'a fair coin': 2 rows, exact total 2, 1,000 simulated trials, seed 3>
>>> row = t.to_dict()["rows"][1]
>>> row["probability"], row["simulated_count"], row["within"]
(0.5, 520, True)
>>> print(t.to_csv().splitlines()[0])
value,count,probability,simulated_count,simulated_probability,ci95_low,ci95_high,within
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cardlab.results import JsonText, json_text
from cardlab.distribution import Distribution, format_value, json_value, side_by_side

__all__ = ["Tabulation"]


@dataclass(frozen=True, repr=False)
class Tabulation(JsonText):
    """An exact distribution, a simulated one, or both (same values, same order).

    ``value_key`` names the value column in JSON/CSV ("value", or "category" for poker);
    ``cumulative`` adds P(at least) to single tables; ``note`` is a line for the reader
    (e.g. why only the simulation is shown).
    """

    title: str
    exact: Distribution | None = None
    simulated: Distribution | None = None
    value_key: str = "value"
    cumulative: bool = True
    note: str = ""

    def __post_init__(self) -> None:
        if self.exact is None and self.simulated is None:
            raise ValueError("a tabulation needs an exact or a simulated distribution")
        if self.exact is not None and self.simulated is not None:
            if list(self.exact.values) != list(self.simulated.values):
                raise ValueError("the exact and simulated distributions have different values")

    @property
    def main(self) -> Distribution:
        """The exact distribution when there is one, else the simulated one."""
        dist = self.exact if self.exact is not None else self.simulated
        assert dist is not None
        return dist

    @property
    def joint(self) -> bool:
        """Whether the table is a joint one (two axes)."""
        return bool(self.main.axes)

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the simulation early (the counts are what was done)."""
        sim = self.simulated
        return sim is not None and sim.simulation is not None and sim.simulation.interrupted

    # --- choosing rows -------------------------------------------------------------------------

    def select(self, indices: list[int]) -> Tabulation:
        """Only the rows at ``indices``, in that order, in both distributions."""
        return replace(self, exact=self.exact.select(indices) if self.exact else None,
                       simulated=self.simulated.select(indices) if self.simulated else None)

    def nonzero(self) -> Tabulation:
        """Without rows that neither distribution ever saw (impossible values)."""
        return self.select([i for i in range(len(self.main.values)) if self._seen(i)])

    def sorted_by_count(self) -> Tabulation:
        """Rows from most to least frequent (by the main distribution; ties keep their order).
        Cumulative columns make no sense in this order, so they are dropped."""
        counts = self.main.counts
        order = sorted(range(len(counts)), key=lambda i: -counts[i])
        return replace(self.select(order), cumulative=False)

    def _seen(self, i: int) -> bool:
        return any(d is not None and d.counts[i] for d in (self.exact, self.simulated))

    # --- output ----------------------------------------------------------------------------------

    def rows(self) -> list[dict[str, Any]]:
        """One dict per row: the exact (or simulated) columns, or both side by side."""
        if self.exact is not None and self.simulated is not None:
            return side_by_side(self.exact, self.simulated, self.value_key)
        return self.main.rows(self.value_key, self.cumulative and not self.joint)

    def to_dict(self) -> dict[str, Any]:
        """``{"total", "rows", ["simulation"]}``: the schema the README documents."""
        if self.exact is None or self.simulated is None:
            return self.main.to_dict(self.value_key, self.cumulative and not self.joint)
        sim = self.simulated.simulation
        assert sim is not None
        return {
            "total": self.exact.total,
            "rows": self.rows(),
            "simulation": {"trials": sim.trials, "seed": sim.seed, "requested": sim.requested,
                           "interrupted": sim.interrupted},
        }

    def to_csv(self) -> str:
        """CSV text with a header row; intervals as two columns ``ci95_low``, ``ci95_high``."""
        if self.exact is None or self.simulated is None:
            return self.main.to_csv(self.value_key, self.cumulative and not self.joint)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([self.value_key, "count", "probability", "simulated_count", "simulated_probability",
                         "ci95_low", "ci95_high", "within"])
        for row in self.rows():
            lo, hi = row["ci95"]
            writer.writerow([format_value(row[self.value_key]), row["count"], row["probability"],
                             row["simulated_count"], row["simulated_probability"], lo, hi, row["within"]])
        return out.getvalue()

    def to_pandas(self) -> Any:
        """A DataFrame: the main distribution's columns, plus the simulated ones beside exact."""
        frame = self.main.to_pandas()
        if self.exact is not None and self.simulated is not None:
            lo, hi = self.simulated.confidence_interval()
            frame["simulated_count"] = list(self.simulated.counts)
            frame["simulated_probability"] = self.simulated.probabilities
            frame["ci95_low"], frame["ci95_high"] = lo, hi
            frame["within"] = (lo <= frame["probability"]) & (frame["probability"] <= hi)
        return frame

    def table(self) -> str:
        """The text the command line prints: a grid for a small joint table, else rows."""
        from cardlab.report.table import comparison_text, distribution_text, matrix_table, render_text

        if self.exact is not None and self.simulated is not None:
            text = comparison_text(self.exact, self.simulated, title=self.title) + "\n"
            sim = self.simulated.simulation
            assert sim is not None
            if sim.interrupted:
                text += f"interrupted: {sim.trials:,} of {sim.requested:,} trials were simulated\n"
        elif self.joint and len({v[1] for v in self.main.values}) <= 16:
            text = render_text(matrix_table(self.main, title=self.title)) + "\n"
        elif self.joint:
            text = distribution_text(self.main.nonzero(), title=self.title, cumulative=False) + "\n"
        else:
            text = distribution_text(self.main, title=self.title, cumulative=self.cumulative) + "\n"
        return text + (f"{self.note}\n" if self.note else "")

    def text(self, fmt: str) -> str:
        """The output in format ``table``, ``csv`` or ``json``."""
        if fmt == "json":
            return json_text(self.to_dict()) + "\n"
        if fmt == "csv":
            return self.to_csv()
        return self.table()

    def plot(self, path: str | Path) -> Path:
        """A PNG: bars (simulated intervals over exact bars), or a heat map for a joint table."""
        from cardlab.report.plot import plot_distribution, plot_joint

        if self.joint:
            return plot_joint(self.main, path, title=self.title)
        return plot_distribution(self.main, path, title=self.title,
                                 simulated=self.simulated if self.exact is not None else None)

    def __repr__(self) -> str:
        parts = [f"{len(self.main.values)} rows"]
        if self.exact is not None:
            parts.append(f"exact total {self.exact.total:,}")
        if self.simulated is not None and self.simulated.simulation is not None:
            sim = self.simulated.simulation
            parts.append(f"{sim.trials:,} simulated trials, seed {sim.seed}")
        return f"<Tabulation {self.title!r}: {', '.join(parts)}>"

    def _repr_html_(self) -> str:
        from html import escape

        if self.exact is None or self.simulated is None:
            return f"<p>{escape(self.title)}</p>" + self.main._repr_html_()
        head = [self.value_key, "exact", "simulated", "95% interval", ""]
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(str(x))}</td>" for x in (
                format_value(json_value(r[self.value_key])), f"{r['probability']:.6g}",
                f"{r['simulated_probability']:.6g}", f"{r['ci95'][0]:.6g} – {r['ci95'][1]:.6g}",
                "" if r["within"] else "outside")) + "</tr>"
            for r in self.rows())
        return (f"<table><caption>{escape(repr(self)[1:-1])}</caption><thead><tr>"
                + "".join(f"<th>{escape(h)}</th>" for h in head) + f"</tr></thead><tbody>{body}</tbody></table>")
