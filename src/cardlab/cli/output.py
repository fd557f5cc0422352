"""Shared output options of the table commands: --format, -o, --plot, --simulate.

A command computes its exact :class:`Distribution` (and, with ``--simulate``, a
simulated one) and hands them to :func:`emit`, which prints or writes them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from cardlab.distribution import Distribution, format_value, side_by_side
from cardlab.errors import CardlabError
from cardlab.report.table import comparison_table, distribution_text, matrix_table, render_text

__all__ = ["add_output_options", "add_simulation_options", "emit", "positive_int", "seed_value"]


def positive_int(text: str) -> int:
    """argparse type: an int >= 1 (accepts 10_000_000 and 1e7)."""
    try:
        value = int(float(text)) if "e" in text.lower() else int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got '{text}'")
    return value


def seed_value(text: str) -> int:
    """argparse type: a seed, a whole number from 0 up."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 up, got '{text}'")
    return value


def add_output_options(parser: argparse.ArgumentParser, plot: bool = True) -> None:
    parser.add_argument("--format", choices=("table", "csv", "json"), default="table",
                        help="output format (default: an aligned table)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of stdout")
    if plot:
        parser.add_argument("--plot", metavar="FILE.png", help="also draw the distribution as a PNG picture")


def add_simulation_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--simulate", type=positive_int, metavar="TRIALS",
                        help="also simulate TRIALS random hands and show them beside the exact answer")
    parser.add_argument("--seed", type=seed_value, help="random seed of the simulation (default: fresh, and printed)")
    parser.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1,
                        help="processes for the simulation (default: one per core); the result does "
                             "not depend on it")


def emit(args: argparse.Namespace, dist: Distribution, *, title: str,
         simulated: Distribution | None = None, value_key: str = "value", cumulative: bool = True,
         joint: bool = False) -> int:
    """Print or write ``dist`` (beside ``simulated``) as the options ask; draw the plot."""
    fmt = args.format
    if simulated is not None:
        text = _comparison_text(fmt, dist, simulated, title, value_key)
    elif fmt == "json":
        text = json.dumps(dist.to_json(value_key, cumulative), indent=2) + "\n"
    elif fmt == "csv":
        text = dist.to_csv(value_key, cumulative)
    elif joint and len({v[1] for v in dist.values}) <= 16:
        text = render_text(matrix_table(dist, title=title)) + "\n"
    elif joint:
        text = distribution_text(dist.nonzero(), title=title, cumulative=False) + "\n"
    else:
        text = distribution_text(dist, title=title, cumulative=cumulative) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    elif fmt == "table" and sys.stdout.isatty():
        Console().print(text, end="", markup=False, highlight=False)
    else:
        sys.stdout.write(text)
    if getattr(args, "plot", None):
        _plot(args.plot, dist, title, simulated, joint)
    interrupted = simulated is not None and simulated.simulation is not None and simulated.simulation.interrupted
    return 130 if interrupted else 0


def _comparison_text(fmt: str, exact: Distribution, simulated: Distribution, title: str,
                     value_key: str) -> str:
    rows = side_by_side(exact, simulated, value_key)
    sim = simulated.simulation
    assert sim is not None
    if fmt == "json":
        data: dict[str, Any] = {
            "total": exact.total,
            "rows": rows,
            "simulation": {"trials": sim.trials, "seed": sim.seed, "requested": sim.requested,
                           "interrupted": sim.interrupted},
        }
        return json.dumps(data, indent=2) + "\n"
    if fmt == "csv":
        header = [value_key, "count", "probability", "simulated_count", "simulated_probability",
                  "ci95_low", "ci95_high", "within"]
        lines = [",".join(header)]
        for row in rows:
            lo, hi = row["ci95"]
            lines.append(",".join(str(x) for x in (
                format_value(row[value_key]), row["count"], row["probability"], row["simulated_count"],
                row["simulated_probability"], lo, hi, row["within"])))
        return "\n".join(lines) + "\n"
    text = render_text(comparison_table(exact, simulated, title=title)) + "\n"
    if sim.interrupted:
        text += f"interrupted: {sim.trials:,} of {sim.requested:,} trials were simulated\n"
    return text


def _plot(path: str, dist: Distribution, title: str, simulated: Distribution | None, joint: bool) -> None:
    if not path.lower().endswith(".png"):
        raise CardlabError(f"--plot writes a PNG picture: give a file name ending in .png, not '{path}'")
    from cardlab.report.plot import plot_distribution, plot_joint

    if joint:
        plot_joint(dist, path, title=title)
    else:
        plot_distribution(dist, path, title=title, simulated=simulated)
    print(f"plot written to {path}", file=sys.stderr)
