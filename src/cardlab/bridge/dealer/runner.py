"""Running a dealer script through the engine's chunk runner, streaming deals in bounded memory.

Chunk ``i`` deals from the ``i``-th child of the seed, whatever the number of
workers, so the same seed gives byte-identical output. Chunks grow from 1,024
deals to 16,384 so that ``produce 1`` deals little (and a chunk's arrays stay in the
processor's cache). A chunk returns only the
accepted deals' positions, the action values for them, and (when something is
printed) their cards; the main process cuts exactly at the ``produce``-th
accepted deal, as the C program does, and writes deals as they come.

>>> from cardlab.bridge.dealer.parser import parse_script
>>> r = run_script(parse_script("generate 20000\\nhcp(north) >= 15\\naction average hcp(north)"), seed=1)
>>> r.generated, r.produced, round(r.averages[0].mean, 2)
(20000, 2737, 16.84)
"""

from __future__ import annotations

import contextlib
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterator, TextIO

import numpy as np

from cardlab.results import JsonText, json_text
from cardlab.bridge.dealer.dealing import complete_deals, deal_masks
from cardlab.bridge.dealer.evaluate import Evaluator, seats_used
from cardlab.bridge.dealer.functions import Hands, Tables
from cardlab.bridge.dealer.output import PBN_FROM_NORTH, action_template, emit, format_deals, seat_pages
from cardlab.bridge.dealer.parser import Num, Script, deep_recursion
from cardlab.bridge.dealer.program import script_programs
from cardlab.bridge.dealer.stats import BucketStat, CorrelationStat, bucket_count, bucket_index
from cardlab.engine import Executor, SeedLike, available_cores, check_count, iter_chunks, resolve_seed
from cardlab.errors import DealerScriptError
from cardlab.intervals import mean_interval, wilson

__all__ = ["run_script", "write_run", "condition_deals", "DealerResult", "AverageStat", "FrequencyStat", "chunk_plan",
           "DEFAULT_GENERATE", "SAVED_CHUNK"]

DEFAULT_GENERATE = 10_000_000
SAVED_CHUNK = 4096  #: saved deals per chunk (see ``run_script(deals=)``)


def chunk_plan(generate: int, first: int = 1024, largest: int = 16384) -> Iterator[int]:
    """Chunk sizes: doubling from ``first`` to ``largest``, ``generate`` deals in all (lazily).

    >>> list(chunk_plan(10000, 1024, 4096))
    [1024, 2048, 4096, 2832]
    """
    left, size = generate, first
    while left > 0:
        take = min(size, left)
        yield take
        left -= take
        size = min(size * 2, largest)


@dataclass(frozen=True)
class _ChunkResult:
    size: int
    accepted: np.ndarray  # positions in the chunk
    values: tuple[np.ndarray, ...]  # one per action expression, for the accepted deals
    deals: np.ndarray | None  # masks (4, 4, k) of the accepted deals
    partial: Any = None  # the statistics already summed (when no chunk can be cut short)


@dataclass(frozen=True)
class _ChunkTask:
    """One chunk: deal (compiled core), evaluate the condition, evaluate the actions on the
    accepted deals (picklable; runs on threads: the kernels and numpy release the GIL)."""

    script: Script
    fixed: tuple[int, ...] | None
    keep_deals: bool
    only_seats: tuple[int, ...] | None = None
    aggregate: bool = False
    lengths: Any = None  # a LengthPlan: predeal by suit length, dealt exactly
    saved: Any = None  # masks (4, 4, N) of saved deals: chunk i is deals i * SAVED_CHUNK onwards
    releases_gil: ClassVar[bool] = True

    def __call__(self, seed: np.random.SeedSequence, n: int) -> _ChunkResult:
        fixed = None if self.fixed is None else np.array(self.fixed, dtype=np.int8)
        if self.saved is not None:
            start = seed.spawn_key[-1] * SAVED_CHUNK
            masks = np.ascontiguousarray(self.saved[:, :, start:start + n])
        elif self.lengths is not None:
            masks = self.lengths.sample(np.random.default_rng(seed), n)
        else:
            masks = deal_masks(seed, n, fixed, self.only_seats)
        tables = Tables.for_script(self.script.pointcount, self.script.altcounts)
        evaluator = Evaluator.for_script(self.script)
        exprs = _action_exprs(self.script)
        condition, programs = script_programs(self.script, tuple(exprs))
        hands = Hands(masks, tables, seed)
        if isinstance(self.script.condition, Num):  # no condition: every deal
            rows = np.arange(n) if self.script.condition.value else np.zeros(0, dtype=np.int64)
        elif condition is not None:
            rows = np.flatnonzero(condition.run(hands))
        else:
            rows = np.flatnonzero(evaluator.truth(self.script.condition, hands))
        everything = rows.size == n
        chosen = hands if everything or (not self.keep_deals and all(programs)) else hands.subset(rows)
        picked = None if everything or chosen is not hands else rows
        values = tuple(program.run(chosen, picked) if program is not None else
                       evaluator.array(expr, chosen).copy() for program, expr in zip(programs, exprs))
        deals = chosen.masks if self.keep_deals else None
        if deals is not None and self.only_seats:  # only the seats looked at were dealt: complete the kept deals
            if chosen is hands:
                deals = deals.copy()
            complete_deals(seed, deals, self.only_seats)
        if self.aggregate:
            partial = _Accumulator(self.script)
            partial.add(dict(enumerate(values)))
            return _ChunkResult(n, rows.astype(np.int32), (), None, partial)
        return _ChunkResult(n, rows.astype(np.int32), values, deals)


@dataclass(frozen=True)
class _ConditionalTask:
    """One chunk of ``n`` accepted deals drawn exactly (see :mod:`.conditional`), with the
    geometric runs of rejected deals between them (picklable; runs on threads)."""

    script: Script
    plan: Any
    keep_deals: bool
    releases_gil: ClassVar[bool] = True

    def __call__(self, seed: np.random.SeedSequence, n: int) -> _ChunkResult:
        masks, gaps, rng = self.plan.sample(seed, n)
        positions = np.cumsum(gaps + 1) - 1
        tables = Tables.for_script(self.script.pointcount, self.script.altcounts)
        hands = Hands(masks, tables, rng)
        evaluator = Evaluator.for_script(self.script)
        exprs = _action_exprs(self.script)
        _, programs = script_programs(self.script, tuple(exprs))
        values = tuple(program.run(hands) if program is not None else evaluator.array(expr, hands).copy()
                       for program, expr in zip(programs, exprs))
        return _ChunkResult(int(positions[-1]) + 1, positions, values, masks if self.keep_deals else None)


def _action_exprs(script: Script) -> list[Any]:
    exprs: list[Any] = []
    for action in script.actions:
        if action.kind == "printes":
            exprs.extend(item for item in action.items if not isinstance(item, str))
        else:
            exprs.extend(action.exprs)
    return exprs


@dataclass(frozen=True)
class AverageStat(JsonText):
    """``average``: mean of an expression over the produced deals, with a 95% interval."""

    label: str | None
    count: int
    total: int
    sum_squares: float

    @property
    def mean(self) -> float:
        """The mean of the expression over the produced deals (nan when none)."""
        return self.total / self.count if self.count else float("nan")

    def ci95(self) -> tuple[float, float]:
        """Normal 95% interval of the mean (nan with fewer than two deals)."""
        if self.count < 2:
            return (float("nan"), float("nan"))
        lo, hi = mean_interval(self.total, self.sum_squares, self.count)
        return lo, hi

    def to_dict(self) -> dict[str, Any]:
        """``{label, value, ci95, count}``."""
        lo, hi = self.ci95()
        return {"label": self.label or "", "value": self.mean, "ci95": [lo, hi], "count": self.count}

    def text(self) -> str:
        """The line the C dealer prints for ``average``."""
        return (f"{self.label}: " if self.label is not None else "") + f"{_g(self.mean)}\n"


@dataclass(frozen=True)
class FrequencyStat(JsonText):
    """``frequency``: counts of an expression (or two) between bounds, with Low/High rows."""

    label: str | None
    bounds: tuple[int, ...]
    counts: tuple[Any, ...]  # 1-D: low, lo..hi, high ; 2-D: rows of the same over the second expression
    #: per axis, the strings naming the values lo..hi (a string-valued shape function), or empty
    names: tuple[tuple[str, ...], ...] = ()

    def values(self, axis: int = 0) -> list[Any]:
        """The values of an axis, lo..hi: numbers, or the strings that name them."""
        lo, hi = self.bounds[2 * axis:2 * axis + 2]
        named = self.names[axis] if axis < len(self.names) else ()
        return list(named) if named else list(range(lo, hi + 1))

    def to_dict(self) -> dict[str, Any]:
        """The counts per value (with ``low``/``high`` rows), or the 2-D table as rows."""
        if len(self.bounds) == 2:
            lo, hi = self.bounds
            rows = [{"value": "low", "count": self.counts[0]}]
            rows += [{"value": v, "count": c} for v, c in zip(self.values(), self.counts[1:-1])]
            rows.append({"value": "high", "count": self.counts[-1]})
            return {"label": self.label or "", "low": lo, "high": hi, "rows": rows}
        lo1, hi1, lo2, hi2 = self.bounds
        return {"label": self.label or "", "bounds": [[lo1, hi1], [lo2, hi2]],
                "rows": ["low", *self.values(0), "high"], "columns": ["low", *self.values(1), "high"],
                "counts": [list(r) for r in self.counts]}

    def text(self) -> str:
        """The table the C dealer prints for ``frequency``."""
        out = [f"Frequency {self.label or ''}:\n"]
        if len(self.bounds) == 2:
            lo, hi = self.bounds
            if self.counts[0]:
                out.append(f"Low\t{self.counts[0]:8d}\n")
            for v, c in zip(self.values(), self.counts[1:-1]):
                out.append(f"{v:>5}\t{c:8d}\n")
            if self.counts[-1]:
                out.append(f"High\t{self.counts[-1]:8d}\n")
            return "".join(out)
        lo1, hi1, lo2, hi2 = self.bounds
        wide = max([4, *(len(str(v)) for v in self.values(0))])
        cell = max([6, *(len(str(v)) for v in self.values(1))])
        out.append(" " * (wide + cell - 2) + "Low" + "".join(f" {v:>{cell}}" for v in self.values(1))
                   + f" {'High':>{cell}} {'Sum':>{cell}}\n")
        names = ["Low".ljust(wide)] + [f"{v:>{wide}}" for v in self.values(0)] + ["High".ljust(wide)]
        for name, row in zip(names, self.counts):
            out.append(name + "".join(f" {c:{cell}d}" for c in row) + f" {sum(row):{cell}d}\n")
        columns = [sum(col) for col in zip(*self.counts)]
        out.append("Sum".ljust(wide) + "".join(f" {c:{cell}d}" for c in columns) + f" {sum(columns):{cell}d}\n\n")
        return "".join(out)


def _g(value: float) -> str:
    """C's ``%g``."""
    return "%g" % value


@dataclass(frozen=True)
class DealerResult(JsonText):
    """What a run of a dealer script counted (the deals themselves were streamed to the output)."""

    generated: int
    produced: int
    seed: int | None
    averages: tuple[AverageStat, ...]
    frequencies: tuple[FrequencyStat, ...]
    interrupted: bool = False
    workers: int = 1
    seconds: float = 0.0
    script_source: str | None = field(default=None, repr=False)
    _kinds: tuple[str, ...] = field(default=(), repr=False)
    correlations: tuple[CorrelationStat, ...] = ()
    buckets: tuple[BucketStat, ...] = ()

    def acceptance(self) -> tuple[float, float, float]:
        """Share of generated deals that met the condition, with its 95% Wilson interval."""
        n, k = self.generated, self.produced
        if n == 0:
            return (float("nan"), 0.0, 1.0)
        lo, hi = wilson(k, n)
        return k / n, lo, hi

    def to_dict(self) -> dict[str, Any]:
        """The run as a JSON-ready dict: generated, produced, seed, acceptance, averages, frequencies."""
        p, lo, hi = self.acceptance()
        return {"generated": self.generated, "produced": self.produced, "seed": self.seed,
                "acceptance": {"rate": p, "ci95": [lo, hi]},
                "averages": [a.to_dict() for a in self.averages],
                "frequencies": [f.to_dict() for f in self.frequencies],
                "correlations": [c.to_dict() for c in self.correlations],
                "bucket_frequencies": [b.to_dict() for b in self.buckets],
                "interrupted": self.interrupted}

    def to_csv(self) -> str:
        """One row per statistic: acceptance, each average, each correlation."""
        rows = ["statistic,label,value,ci95_low,ci95_high"]
        p, lo, hi = self.acceptance()
        rows.append(f"acceptance,,{p!r},{lo!r},{hi!r}")
        for a in self.averages:
            alo, ahi = a.ci95()
            rows.append(f"average,{_csv(a.label)},{a.mean!r},{alo!r},{ahi!r}")
        for c in self.correlations:
            clo, chi = c.ci95()
            rows.append(f"correlation,{_csv(c.label)},{c.value!r},{clo!r},{chi!r}")
        return "\n".join(rows) + "\n"

    def to_pandas(self) -> Any:
        """The averages, one row each (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame([a.to_dict() for a in self.averages])

    def statistics_text(self) -> str:
        """The averages and frequency tables, as the C program prints them."""
        return "".join(s.text() for s in self._stats_in_order())

    def table(self) -> str:
        """The statistics the C program prints after the deals (averages, frequencies, counts)."""
        text = self.statistics_text()
        p, lo, hi = self.acceptance()
        text += f"Generated {self.generated} hands\nProduced {self.produced} hands\n"
        text += f"Initial random seed {self.seed}\n"  # no "Time needed": the output depends on the seed only
        text += f"Acceptance {100 * p:.4g}% (95% interval {100 * lo:.4g}% - {100 * hi:.4g}%)\n"
        if self.interrupted:
            text += "Interrupted: partial statistics\n"
        return text

    def _stats_in_order(self) -> list[Any]:
        """Averages and frequencies in the order of the script's actions (as the C program)."""
        order = {"average": iter(self.averages), "frequency": iter(self.frequencies),
                 "correlation": iter(self.correlations), "bktfreq": iter(self.buckets)}
        kinds = self._kinds or (("average",) * len(self.averages) + ("frequency",) * len(self.frequencies)
                                + ("correlation",) * len(self.correlations) + ("bktfreq",) * len(self.buckets))
        return [next(order[k]) for k in kinds]

    def __repr__(self) -> str:
        return f"DealerResult(generated={self.generated}, produced={self.produced}, seed={self.seed})"

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(self.table())}</pre>"


def _csv(label: str | None) -> str:
    text = label or ""
    return f'"{text}"' if "," in text or '"' in text else text


def condition_deals(script: Script, seed: np.random.SeedSequence, n: int) -> np.ndarray:
    """The deals among ``n`` dealt from ``seed`` (around the script's ``predeal``) that meet its
    condition, as suit masks ``(4, 4, k)``: the dealing of :func:`run_script` for a caller that
    uses the deals itself (``bridge compare``). A ``predeal`` by suit length is refused."""
    if script.predeal_lengths:
        raise DealerScriptError("a predeal by suit length (predeal spades(north) == 5) is not supported here: "
                                "write it in the condition")
    with deep_recursion():
        deals = _ChunkTask(script, _fixed_cards(script), True)(seed, n).deals
    assert deals is not None
    return deals


def _fixed_cards(script: Script) -> tuple[int, ...] | None:
    if not script.predeal:
        return None
    fixed = [-1] * 52
    for seat, cards in script.predeal:
        for card in cards:
            fixed[card] = seat
    return tuple(fixed)


class _Accumulator:
    def __init__(self, script: Script) -> None:
        self.script = script
        self.sums: list[list[Any]] = []  # per average: count, total, sumsq
        self.freqs: list[np.ndarray] = []
        self.pairs: list[list[Any]] = []  # per correlation: count, sum x, sum y, sum xx, yy, xy
        self.buckets: list[np.ndarray] = []
        for action in script.actions:
            if action.kind == "average":
                self.sums.append([0, 0, 0.0])
            elif action.kind == "frequency":
                b = action.bounds
                shape = (b[1] - b[0] + 3,) if len(b) == 2 else (b[1] - b[0] + 3, b[3] - b[2] + 3)
                self.freqs.append(np.zeros(shape, dtype=np.int64))
            elif action.kind == "correlation":
                self.pairs.append([0, 0, 0, 0.0, 0.0, 0.0])
            elif action.kind == "bktfreq":
                b = action.bounds
                self.buckets.append(np.zeros(tuple(bucket_count(*b[i:i + 3]) for i in range(0, len(b), 3)),
                                             dtype=np.int64))

    def add(self, values: dict[int, np.ndarray]) -> None:
        index, a_i, f_i, c_i, b_i = 0, 0, 0, 0, 0
        for action in self.script.actions:
            if action.kind == "printes":
                index += sum(1 for item in action.items if not isinstance(item, str))
                continue
            k = len(action.exprs)
            if action.kind == "average":
                v = values[index]
                slot = self.sums[a_i]
                slot[0] += len(v)
                slot[1] += _exact_sum(v)
                slot[2] += float(np.square(v.astype(np.float64)).sum())
                a_i += 1
            elif action.kind == "frequency":
                b = action.bounds
                table = self.freqs[f_i]
                first = np.clip(values[index], b[0] - 1, b[1] + 1) - (b[0] - 1)
                if len(b) == 2:
                    table += np.bincount(first, minlength=table.shape[0])
                else:
                    second = np.clip(values[index + 1], b[2] - 1, b[3] + 1) - (b[2] - 1)
                    flat = np.bincount(first * table.shape[1] + second, minlength=table.size)
                    table += flat.reshape(table.shape)
                f_i += 1
            elif action.kind == "correlation":
                x, y = values[index], values[index + 1]
                fx, fy = x.astype(np.float64), y.astype(np.float64)
                pair = self.pairs[c_i]
                for i, part in enumerate((len(x), _exact_sum(x), _exact_sum(y), float(fx @ fx), float(fy @ fy),
                                          float(fx @ fy))):
                    pair[i] += part
                c_i += 1
            elif action.kind == "bktfreq":
                b, table = action.bounds, self.buckets[b_i]
                flat = bucket_index(values[index], *b[:3])
                if len(b) == 6:
                    flat = flat * table.shape[1] + bucket_index(values[index + 1], *b[3:])
                table += np.bincount(flat, minlength=table.size).reshape(table.shape)
                b_i += 1
            index += k

    def merge(self, other: "_Accumulator") -> None:
        for mine, theirs in zip(self.sums, other.sums):
            for i in range(3):
                mine[i] += theirs[i]
        for mine_f, theirs_f in zip(self.freqs + self.buckets, other.freqs + other.buckets):
            mine_f += theirs_f
        for mine_p, theirs_p in zip(self.pairs, other.pairs):
            for i in range(6):
                mine_p[i] += theirs_p[i]

    def extra(self) -> tuple[tuple[CorrelationStat, ...], tuple[BucketStat, ...]]:
        """The correlations and bucketed frequencies, in the script's order."""
        correlations = [a for a in self.script.actions if a.kind == "correlation"]
        buckets = [a for a in self.script.actions if a.kind == "bktfreq"]
        return (tuple(CorrelationStat(a.label, *p) for a, p in zip(correlations, self.pairs)),
                tuple(BucketStat(a.label, a.bounds, _counts(t)) for a, t in zip(buckets, self.buckets)))

    def result(self) -> tuple[tuple[AverageStat, ...], tuple[FrequencyStat, ...]]:
        averages, freqs = [], []
        a_i, f_i = 0, 0
        for action in self.script.actions:
            if action.kind == "average":
                c, t, q = self.sums[a_i]
                averages.append(AverageStat(action.label, c, t, q))
                a_i += 1
            elif action.kind == "frequency":
                freqs.append(FrequencyStat(action.label, action.bounds, _counts(self.freqs[f_i]), action.names))
                f_i += 1
        return tuple(averages), tuple(freqs)


def _counts(table: np.ndarray) -> tuple[Any, ...]:
    """A table of counts as (nested) tuples of ints."""
    return tuple(int(x) for x in table) if table.ndim == 1 else tuple(tuple(int(x) for x in row) for row in table)


def _exact_sum(values: np.ndarray) -> int:
    """The exact sum of int64 values (as two 32-bit halves, so a sum beyond 64 bits is still exact)."""
    if not len(values):
        return 0
    v = np.asarray(values, dtype=np.int64)
    high, low = v >> 32, v & 0xFFFFFFFF
    return (int(high.sum(dtype=np.int64)) << 32) + int(low.sum(dtype=np.int64))


def run_script(
    script: Script,
    *,
    generate: int | None = None,
    produce: int | None = None,
    seed: SeedLike = None,
    workers: int = 1,
    out: TextIO | None = None,
    format: str = "text",
    quiet: bool = False,
    progress: bool = False,
    executor: Executor | str | None = None,
    event: str | None = None,
    on_deals: Callable[[np.ndarray, int], None] | None = None,
    exact_draw: bool = True,
    deals: np.ndarray | None = None,
) -> DealerResult:
    """Run ``script``: deals meeting its condition are printed to ``out`` by its print actions
    (``format="text"``, as the C program) or as PBN strings (``format="json"``, the caller
    writes the surrounding object); statistics come back in the :class:`DealerResult`.

    ``generate``/``produce`` override the script's; ``seed`` overrides its ``seed`` line.
    Ctrl-C returns the statistics of the deals so far, marked ``interrupted``. ``on_deals(rows,
    before)`` receives each batch of produced deals as suit masks ``(4, 4, k)`` (see :mod:`.dealing`).
    With ``quiet``, no deal is printed (nor listed in the JSON).

    With ``exact_draw`` (the default), a condition on one seat's suit lengths, shape and
    total points draws the accepted hands directly from their exact distribution
    (:mod:`cardlab.bridge.dealer.conditional`) instead of dealing and rejecting; every output
    has the same distribution either way.

    With ``deals`` (suit masks ``(4, 4, N)``, e.g. from
    :func:`cardlab.bridge.dealer.saved.read_saved_deals`), nothing is dealt: the condition and
    actions run over those deals in order (all of them, or the first ``generate``), as Deal's
    ``-I`` input formats do; ``rnd()`` still draws from ``seed``.
    """
    with deep_recursion():
        return _run_script(script, generate=generate, produce=produce, seed=seed, workers=workers, out=out,
                           format=format, quiet=quiet, progress=progress, executor=executor, event=event,
                           on_deals=on_deals, exact_draw=exact_draw, deals=deals)


def _run_script(script: Script, *, generate: int | None, produce: int | None, seed: SeedLike, workers: int,
                out: TextIO | None, format: str, quiet: bool, progress: bool, executor: Executor | str | None,
                event: str | None, on_deals: Callable[[np.ndarray, int], None] | None,
                exact_draw: bool, deals: np.ndarray | None = None) -> DealerResult:
    if seed is None and script.seed is not None:
        seed = script.seed
    if generate is not None:
        check_count(generate, "deals to generate", DealerScriptError)
    if produce is not None:
        check_count(produce, "deals to produce", DealerScriptError)
    root, reported = resolve_seed(seed)
    if deals is not None:  # saved deals: all of them (or the first -g), every one produced unless -p says less
        if script.predeal or script.predeal_lengths:
            raise DealerScriptError("'predeal' cannot apply to saved deals: put the cards in the condition "
                                    "(hascard) instead")
        saved = np.asarray(deals, dtype=np.uint16)
        if saved.ndim != 3 or saved.shape[:2] != (4, 4) or saved.shape[2] == 0:
            raise DealerScriptError("saved deals must be suit masks of shape (4, 4, n), n >= 1")
        generate = min(generate or saved.shape[2], saved.shape[2])
        produce = produce or script.produce or generate
        exact_draw = False
    generate = generate or script.generate or DEFAULT_GENERATE
    produce = produce or script.produce or (40 if (script.default_action or script.prints) else generate)
    prints = script.prints and not quiet and format == "text"  # the script's print actions, as text
    json_deals = format == "json" and out is not None and not quiet  # the deals as PBN strings in the JSON
    spool_seats = sorted({s for a in script.actions if a.kind == "print" for s in a.seats}) if prints else []
    keep = prints or json_deals or on_deals is not None
    plan = None
    if exact_draw:
        from cardlab.bridge.dealer.conditional import ConditionalPlan

        plan = ConditionalPlan.build(script)
    # a script that looks at one or two seats: deal those hands alone
    variables = script.variable_map()
    looked = set(seats_used(script.condition, variables))
    for expr in _action_exprs(script):
        looked |= seats_used(expr, variables)
    # (only when every expression is compiled: then only per-hand functions are used, none that
    # needs the whole deal, such as double dummy)
    compiled = script_programs(script, tuple(_action_exprs(script)))
    per_hand = compiled[0] is not None and all(p is not None for p in compiled[1])
    # (the deals kept for printing are completed afterwards: the cards left dealt to the others)
    only_seats = tuple(sorted(looked)) if per_hand and 1 <= len(looked) <= 2 and not script.predeal \
        and not script.predeal_lengths and deals is None else None
    lengths = None
    if script.predeal_lengths:
        from cardlab.bridge.dealer.lengths import LengthPlan

        lengths = LengthPlan.build({(seat, suit): n for seat, suit, n in script.predeal_lengths},
                                   _fixed_cards(script) or (-1,) * 52)
    # nothing kept and no chunk can end early: the workers sum the statistics themselves
    aggregate = not keep and produce >= generate
    task: Any = _ChunkTask(script, _fixed_cards(script), keep, only_seats, aggregate, lengths,
                           None if deals is None else saved) if plan is None else _ConditionalTask(script, plan, keep)
    sizes = chunk_plan(generate) if plan is None else chunk_plan(produce, 256, 16384)
    if deals is not None:
        sizes = chunk_plan(generate, SAVED_CHUNK, SAVED_CHUNK)
    acc = _Accumulator(script)
    generated = produced = 0
    interrupted = False
    started = time.perf_counter()
    spool = tempfile.TemporaryFile() if spool_seats else None
    event = event or f"Hand simulated by cardlab with file {script.source or 'stdin'}, seed {reported}"
    date = time.strftime("%Y.%m.%d")
    writer = _Writer(script, out if (prints or json_deals) else None, format, event, date)
    from cardlab.engine import progress_bar

    with progress_bar(generate if progress else 0, "dealing") as bar, _HeldInterrupts() as interrupts:
        try:
            for size, part in iter_chunks(task, sizes, root, workers=workers, executor=executor):
                with interrupts.held():  # a chunk's deals and its counts go out together, or not at all
                    need = produce - produced
                    rows = part.accepted
                    size = part.size
                    if size > generate - generated:  # exact draws: the generate limit falls in this chunk
                        size = generate - generated
                        rows = rows[rows < size]
                    if len(rows) >= need:
                        take = need
                        examined = int(rows[need - 1]) + 1
                    else:
                        take = len(rows)
                        examined = size
                    values = {i: v[:take] for i, v in enumerate(part.values)}
                    if part.deals is not None and take:
                        deals = part.deals[:, :, :take]
                        writer.write(deals, values, produced)
                        if on_deals is not None:
                            on_deals(deals, produced)
                        if spool is not None:
                            spool.write(np.ascontiguousarray(deals.transpose(2, 0, 1)).tobytes())
                    if part.partial is not None:
                        acc.merge(part.partial)
                    else:
                        acc.add(values)
                    generated += examined
                    produced += take
                    bar(size, max(generated / generate, produced / produce))  # ends at whichever comes first
                if produced >= produce or generated >= generate:
                    break
        except KeyboardInterrupt:
            interrupted = True
    averages, freqs = acc.result()
    correlations, buckets = acc.extra()
    kinds = tuple(a.kind for a in script.actions if a.kind in ("average", "frequency", "correlation", "bktfreq"))
    result = DealerResult(generated, produced, reported, averages, freqs, interrupted,
                          min(workers, available_cores()), time.perf_counter() - started, script.source, kinds,
                          correlations, buckets)
    if spool is not None and out is not None:
        spool.seek(0)
        data = np.frombuffer(spool.read(), dtype=np.uint16).reshape(-1, 4, 4).transpose(1, 2, 0)
        with _HeldInterrupts() as late, late.held():
            for seat in spool_seats:
                out.write(seat_pages(data, seat))
        spool.close()
    return result


class _HeldInterrupts:
    """For one run: a Ctrl-C that comes inside a ``held()`` block waits until the block has
    finished, then does what the handler in place does (the CLI's raises KeyboardInterrupt and
    ignores any later Ctrl-C); outside the blocks it acts at once. One handler for the whole run
    (signals are handled in the main thread only; elsewhere the blocks run as they are)."""

    def __init__(self) -> None:
        self.active = threading.current_thread() is threading.main_thread()
        self.critical = False
        self.hit = False
        self.previous: Any = None

    def __enter__(self) -> "_HeldInterrupts":
        if self.active:
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.active and signal.getsignal(signal.SIGINT) == self._handle:  # (not if it was replaced since)
            signal.signal(signal.SIGINT, self.previous)

    def _handle(self, signum: int, frame: Any) -> None:
        if self.critical:
            self.hit = True
        else:
            self._act()

    def _act(self) -> None:
        if callable(self.previous):
            self.previous(signal.SIGINT, None)
        elif self.previous != signal.SIG_IGN:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        self.critical = True
        try:
            yield
        finally:
            self.critical = False
        if self.hit:
            self.hit = False
            self._act()


class _Writer:
    """Writes each batch of produced deals in the script's print actions (text, one template
    for all of them: :func:`~cardlab.bridge.dealer.output.action_template`) or as PBN strings (json)."""

    def __init__(self, script: Script, out: TextIO | None, format: str, event: str, date: str) -> None:
        self.out, self.format = out, format
        self.first = True
        actions = [a for a in script.actions if a.kind.startswith("print") and a.kind != "print"]
        index, where = 0, {}  # each action's first value index
        for action in script.actions:
            where[id(action)] = index
            index += (sum(1 for i in action.items if not isinstance(i, str)) if action.kind == "printes"
                      else len(action.exprs))
        self.columns: list[int] = []  # the value indexes that are printed, in extra-column order
        first_column: dict[int, int] = {}
        for action in actions:
            count = (sum(1 for i in action.items if not isinstance(i, str)) if action.kind == "printes"
                     else len(action.exprs))
            first_column[id(action)] = len(self.columns)
            self.columns.extend(range(where[id(action)], where[id(action)] + count))
        if len(self.columns) > 255:
            raise DealerScriptError(f"a script may print at most 255 expressions per deal, this one prints "
                                    f"{len(self.columns)}")
        self.template = action_template(actions, first_column, event, date, script.dealer, script.vulnerable)

    def write(self, deals: np.ndarray, values: dict[int, np.ndarray], before: int) -> None:
        if self.out is None:
            return
        if self.format == "json":
            data = format_deals(deals, ',\n    "' + PBN_FROM_NORTH + '"', encoded=True)
            emit(self.out, data[2:] if self.first else data)
            self.first = False
            return
        if not self.template:
            return
        extras = np.stack([values[c] for c in self.columns], axis=1) if self.columns else None
        emit(self.out, format_deals(deals, self.template, before + 1, extras, encoded=True))


def write_run(script: Script, out: TextIO, *, format: str = "text", verbose: bool = True,
              **options: Any) -> DealerResult:
    """Run ``script`` and write everything the ``dealer`` program prints to ``out``: the deals,
    then the statistics (``verbose``; else only the averages and frequencies), or with
    ``format="json"`` one JSON object ``{"deals": [...], "generated", "produced", ...}``.
    ``options`` go to :func:`run_script`."""
    if format == "json":
        out.write('{\n  "deals": [\n')
    result = run_script(script, out=out, format=format, **options)
    if format == "json":
        out.write("\n  ],\n" + json_text(result.to_dict())[1:] + "\n")
    else:
        out.write(result.table() if verbose else result.statistics_text())
    return result
