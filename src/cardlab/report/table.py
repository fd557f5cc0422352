"""Terminal tables of distributions (rich), exact alone or exact beside simulated.

>>> from cardlab.distribution import Distribution
>>> print(render_text(distribution_table(Distribution("coin", (0, 1), (1, 1)))))
 coin   count   probability   at least
───────────────────────────────────────
    0       1      0.500000   1.000000
    1       1      0.500000   0.500000
            total 2 (exact)
"""

from __future__ import annotations

import io
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from cardlab.distribution import Distribution, format_value, side_by_side
from cardlab.textformat import interval, probability, text_table

__all__ = ["distribution_table", "distribution_text", "comparison_table", "comparison_text", "matrix_table", "plain_table",
           "render_text", "format_probability"]

_LONG = 150


def format_probability(p: float) -> str:
    """A probability in the one style (:func:`cardlab.textformat.probability`: fixed decimals)."""
    return probability(p)


def distribution_table(dist: Distribution, title: str | None = None, value_label: str | None = None,
                       cumulative: bool = True) -> Table:
    """Value, exact count, probability and P(at least) per row."""
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=True, show_edge=False)
    table.add_column(value_label or dist.name, justify="right")
    table.add_column("count", justify="right")
    table.add_column("probability", justify="right")
    if cumulative:
        table.add_column("at least", justify="right")
    for value, count, p, tail in zip(dist.values, dist.counts, dist.probabilities, dist.at_least):
        row = [format_value(value), f"{count:,}", format_probability(float(p))]
        if cumulative:
            row.append(format_probability(float(tail)))
        table.add_row(*row)
    if dist.simulation is None:
        table.caption = f"total {dist.total:,} (exact)"
    else:
        sim = dist.simulation
        table.caption = f"{sim.trials:,} simulated trials, seed {sim.seed}"
    return table


def distribution_text(dist: Distribution, title: str | None = None, cumulative: bool = True) -> str:
    """:func:`distribution_table` as text; long tables are laid out without rich (much faster)."""
    if len(dist.values) <= _LONG:
        return render_text(distribution_table(dist, title=title, cumulative=cumulative))
    headers = [dist.name, "count", "probability"] + (["at least"] if cumulative else [])
    rows = []
    for value, count, p, tail in zip(dist.values, dist.counts, dist.probabilities, dist.at_least):
        row = [format_value(value), f"{count:,}", format_probability(float(p))]
        if cumulative:
            row.append(format_probability(float(tail)))
        rows.append(row)
    caption = f"total {dist.total:,}" + (" (exact)" if dist.exact else " simulated trials")
    return (title + "\n" if title else "") + plain_table(headers, rows, caption)


def comparison_table(exact: Distribution, simulated: Distribution, title: str | None = None,
                     value_label: str | None = None) -> Table:
    """Exact and simulated side by side, with the simulation's 95% interval per row."""
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False)
    headers, rows, caption = _comparison(exact, simulated, value_label)
    for name in headers:
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(*row)
    table.caption = caption
    return table


def comparison_text(exact: Distribution, simulated: Distribution, title: str | None = None) -> str:
    """The text of :func:`comparison_table`; a long one (15,156 rows of hcp by suit lengths)
    without rich, which took minutes over it (and so over the result of a Ctrl-C)."""
    if len(exact.values) <= _LONG:
        return render_text(comparison_table(exact, simulated, title=title))
    headers, rows, caption = _comparison(exact, simulated)
    return (title + "\n" if title else "") + plain_table(headers, rows, caption)


def _comparison(exact: Distribution, simulated: Distribution,
                value_label: str | None = None) -> tuple[list[str], list[list[str]], str]:
    headers = [value_label or exact.name, "exact count", "exact", "simulated count", "simulated", "95% interval", ""]
    rows = []
    for row, value in zip(side_by_side(exact, simulated), exact.values):
        lo, hi = row["ci95"]
        rows.append([
            format_value(value), f"{row['count']:,}", format_probability(row["probability"]),
            f"{row['simulated_count']:,}", format_probability(row["simulated_probability"]),
            interval(format_probability(lo), format_probability(hi)),
            "" if row["within"] else "outside",
        ])
    sim = simulated.simulation
    assert sim is not None
    note = " (interrupted)" if sim.interrupted else ""
    caption = (f"exact total {exact.total:,}; {sim.trials:,} simulated trials{note}, seed {sim.seed}; "
               f"'outside' marks an exact value outside the 95% interval (expect about 1 row in 20)")
    return headers, rows, caption


def matrix_table(dist: Distribution, title: str | None = None) -> Table:
    """A joint distribution as a grid: first feature down, second across, percentages."""
    rows = _distinct(v[0] for v in dist.values)
    cols = _distinct(v[1] for v in dist.values)
    total = dist.total
    cells = {v: c for v, c in zip(dist.values, dist.counts)}
    used_rows = [r for r in rows if any(cells.get((r, c), 0) for c in cols)]
    used_cols = [c for c in cols if any(cells.get((r, c), 0) for r in rows)]
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False)
    table.add_column(f"{dist.axes[0]} \\ {dist.axes[1]}" if dist.axes else "", justify="right")
    for c in used_cols:
        table.add_column(format_value(c), justify="right")
    for r in used_rows:
        table.add_row(format_value(r), *(_percent(cells.get((r, c), 0), total) for c in used_cols))
    table.caption = f"percent of all {total:,} hands; '.' = impossible, '0.00' = under 0.005%"
    return table


def _percent(count: int, total: int) -> str:
    if count == 0:
        return "."
    return f"{100 * count / total:.2f}"


def _distinct(values: Any) -> list[Any]:
    seen: dict[Any, None] = {}
    for v in values:
        seen.setdefault(v, None)
    return list(seen)


def plain_table(headers: list[str], rows: list[list[str]], caption: str = "") -> str:
    """A right-aligned text table without rich, for long tables where rich is slow
    (:func:`cardlab.textformat.text_table`, the one text table)."""
    return text_table(headers, rows, left=(), caption=caption)


def render_text(renderable: Any, width: int = 160) -> str:
    """Plain text of a rich renderable (no colour), as written to a file or pipe."""
    console = Console(width=width, color_system=None, force_terminal=False, file=io.StringIO())
    with console.capture() as capture:
        console.print(renderable)
    return "\n".join(line.rstrip() for line in capture.get().splitlines())
