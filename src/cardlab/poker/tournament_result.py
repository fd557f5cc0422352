"""Results of the tournament calls: ICM equity (with an all-in's money value) and push/fold.

JSON of :class:`ICMResult` (:meth:`ICMResult.to_json`)::

    {"stacks": [...], "payouts": [...], "model": str, "equity": [float],
     "equity_exact": ["p/q"] (or null when computed in floating point), "places": [[float]]}

with ``"allin"`` added when an all-in was valued: ``{"players": [..], "hands": [..], "win": [..],
"tie": float, "before": [..], "after": [..], "change": [..], "chips_change": [..]}``.

JSON of :class:`PushFoldResult`::

    {"stack": float, "ante": float, "players": int, "payouts": [...] or null,
     "push": [str], "call": [str], "mixed": {"push": {HAND: p}, "call": {HAND: p}},
     "chart": {"push": {HAND: float}, "call": {HAND: float}}, "chart_range": [low, high, step],
     "ev": {"sb": float, "bb": float}, "exploitability": float}

A chart value is the largest stack (big blinds) at which the hand pushes (calls) at least half
the time within the chart's range, ``inf`` at the top of the range, 0 when at none.

>>> r = ICMResult((50, 30), (1,), "malmuth-harville", (0.625, 0.375), None, ((0.625, 0.375), (0.375, 0.625)))
>>> r
ICMResult(malmuth-harville: A 0.625, B 0.375)
>>> r.to_dict()["equity"]
[0.625, 0.375]
"""

from __future__ import annotations

import csv
import html
import io
import math
from cardlab.results import json_text
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping, Sequence

__all__ = ["ICMResult", "AllInValue", "PushFoldResult", "PushFold3Result", "player_name"]


def player_name(index: int) -> str:
    """A player's letter by position: A, B, ..., Z, then P27, P28, ..."""
    return chr(ord("A") + index) if index < 26 else f"P{index + 1}"


def _num(x: Any) -> str:
    if isinstance(x, Fraction) and x.denominator == 1:
        x = int(x)
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    if isinstance(x, int):
        return f"{x:,}"
    return f"{float(x):,.4f}"


def _json_number(x: Any) -> Any:
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    return x


def _aligned(headers: Sequence[str], rows: Sequence[Sequence[str]], left: set[int]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def fmt(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return [fmt(headers), "  ".join("-" * w for w in widths), *(fmt(r) for r in rows)]


def _html_table(caption: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return (f"<table><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


@dataclass(frozen=True)
class AllInValue:
    """The money value of an all-in between two players: before it, and expected after it."""

    players: tuple[int, ...]
    hands: tuple[str, ...]
    win: tuple[float, ...]
    tie: float
    before: tuple[float, ...]
    after: tuple[float, ...]
    chips_change: tuple[float, ...]

    @property
    def change(self) -> tuple[float, ...]:
        """Each player's expected gain in prize money (after minus before)."""
        return tuple(a - b for a, b in zip(self.after, self.before))

    def to_dict(self) -> dict[str, Any]:
        """A dict in the documented JSON schema."""
        return {"players": [player_name(i) for i in self.players], "hands": list(self.hands),
                "win": list(self.win), "tie": self.tie, "before": list(self.before),
                "after": list(self.after), "change": list(self.change),
                "chips_change": list(self.chips_change)}


@dataclass(frozen=True)
class ICMResult:
    """Each player's prize equity (``equity_exact`` as fractions when computed exactly) and
    ``places[i][k]``, the chance that player ``i`` finishes in place ``k + 1``."""

    stacks: tuple[Any, ...]
    payouts: tuple[Any, ...]
    model: str
    equity: tuple[float, ...]
    equity_exact: tuple[Fraction, ...] | None
    places: tuple[tuple[float, ...], ...]
    allin: AllInValue | None = None

    def __repr__(self) -> str:
        shown = ", ".join(f"{player_name(i)} {e:.4g}" for i, e in enumerate(self.equity[:6]))
        more = ", ..." if len(self.equity) > 6 else ""
        return f"ICMResult({self.model}: {shown}{more})"

    @property
    def pool(self) -> Any:
        """The prize pool (the sum of the payouts)."""
        return sum(self.payouts)

    def to_dict(self) -> dict[str, Any]:
        """A dict in the documented JSON schema."""
        data: dict[str, Any] = {
            "stacks": [_json_number(x) for x in self.stacks],
            "payouts": [_json_number(x) for x in self.payouts],
            "model": self.model,
            "equity": list(self.equity),
            "equity_exact": [str(e) for e in self.equity_exact] if self.equity_exact is not None else None,
            "places": [list(row) for row in self.places],
        }
        if self.allin is not None:
            data["allin"] = self.allin.to_dict()
        return data

    def to_json(self) -> str:
        """The JSON text of :meth:`to_dict`, indented, with a final newline."""
        return json_text(self.to_dict()) + "\n"

    def to_csv(self) -> str:
        """One row per player: player, stack, equity, equity_exact, place_1 ... place_n."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        n = len(self.stacks)
        writer.writerow(["player", "stack", "equity", "equity_exact", *(f"place_{k + 1}" for k in range(n))])
        for i, row in enumerate(self.places):
            exact = str(self.equity_exact[i]) if self.equity_exact is not None else ""
            writer.writerow([player_name(i), _json_number(self.stacks[i]), self.equity[i], exact, *row])
        return out.getvalue()

    def _rows(self, places: int) -> tuple[list[str], list[list[str]]]:
        total = float(sum(self.stacks))
        pool = float(self.pool)
        headers = ["player", "stack", "chips", "equity", "of pool"]
        if self.equity_exact is not None:
            headers.append("exact")
        headers += [f"P({_ordinal(k + 1)})" for k in range(places)]
        rows = []
        for i, stack in enumerate(self.stacks):
            row = [player_name(i), _num(stack), f"{float(stack) / total:.2%}", f"{self.equity[i]:,.4f}",
                   f"{self.equity[i] / pool:.2%}"]
            if self.equity_exact is not None:
                row.append(str(self.equity_exact[i]))
            row += [f"{q:.4f}" for q in self.places[i][:places]]
            rows.append(row)
        return headers, rows

    def _caption(self) -> str:
        how = "exact fractions" if self.equity_exact is not None else "floating point"
        pays = ", ".join(_num(x) for x in self.payouts)
        return (f"ICM ({self.model}), {len(self.stacks)} players, payouts {pays} "
                f"(pool {_num(self.pool)}), {how}")

    def table(self) -> str:
        """The aligned text the command line prints (places shown up to the paid ones, at most 10)."""
        places = min(len(self.stacks), max(len(self.payouts), 1), 10)
        headers, rows = self._rows(places)
        lines = [self._caption(), *_aligned(headers, rows, {0})]
        if self.allin is not None:
            a = self.allin
            lines += ["", f"all-in {' vs '.join(f'{player_name(p)} {h}' for p, h in zip(a.players, a.hands))}: "
                          f"win {', '.join(f'{w:.2%}' for w in a.win)}, tie {a.tie:.2%}"]
            rows2 = [[player_name(p), f"{a.chips_change[k]:+,.2f}", f"{a.before[k]:,.4f}", f"{a.after[k]:,.4f}",
                      f"{a.change[k]:+,.4f}"] for k, p in enumerate(a.players)]
            lines += _aligned(["player", "chips EV", "equity before", "after (expected)", "change"], rows2, {0})
        return "\n".join(lines) + "\n"

    def to_pandas(self) -> Any:
        """A DataFrame, one row per player (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        n = len(self.stacks)
        return pd.DataFrame([{"player": player_name(i), "stack": _json_number(self.stacks[i]),
                              "equity": self.equity[i],
                              "equity_exact": self.equity_exact[i] if self.equity_exact is not None else None,
                              **{f"place_{k + 1}": self.places[i][k] for k in range(n)}}
                             for i in range(n)])

    def _repr_html_(self) -> str:
        headers, rows = self._rows(min(len(self.stacks), 10))
        return _html_table(self._caption(), headers, rows)


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _chart_value(x: float) -> float | str | None:
    return "inf" if math.isinf(x) else None if math.isnan(x) else x


@dataclass(frozen=True)
class PushFoldResult:
    """The heads-up push/fold equilibrium at one stack, and the chart over a range of stacks.

    ``push[h]`` / ``call[h]``: the probability that the small blind pushes (the big blind calls)
    with class ``h`` (169 labels, grid order); ``chart_push[h]`` / ``chart_call[h]``: the largest
    stack of the chart at which the hand pushes (calls), ``inf`` for every stack of it."""

    stack: float
    ante: float
    players: int
    payouts: tuple[Any, ...] | None
    labels: tuple[str, ...]
    push: tuple[float, ...]
    call: tuple[float, ...]
    ev_sb: float
    ev_bb: float
    exploitability: float
    exact: bool
    chart_push: tuple[float, ...]
    chart_call: tuple[float, ...]
    chart_range: tuple[float, float, float]
    units: str = "big blinds"

    def __repr__(self) -> str:
        return (f"PushFoldResult({self.stack:g} BB: push {self.push_share:.1%}, call {self.call_share:.1%}, "
                f"exploitability {self.exploitability:.3g})")

    def _share(self, probs: Sequence[float]) -> float:
        weights = [6 if len(h) == 2 else 4 if h[2] == "s" else 12 for h in self.labels]
        return sum(w * p for w, p in zip(weights, probs)) / 1326

    @property
    def push_share(self) -> float:
        """The share of the 1,326 combos the small blind pushes."""
        return self._share(self.push)

    @property
    def call_share(self) -> float:
        """The share of the 1,326 combos the big blind calls with."""
        return self._share(self.call)

    def pushes(self) -> list[str]:
        """The classes pushed (with any positive probability)."""
        return [h for h, p in zip(self.labels, self.push) if p > 0]

    def calls(self) -> list[str]:
        """The classes that call (with any positive probability)."""
        return [h for h, p in zip(self.labels, self.call) if p > 0]

    def mixed(self) -> dict[str, dict[str, float]]:
        """The classes played with a probability strictly between 0 and 1."""
        return {"push": {h: p for h, p in zip(self.labels, self.push) if 0 < p < 1},
                "call": {h: p for h, p in zip(self.labels, self.call) if 0 < p < 1}}

    def to_dict(self) -> dict[str, Any]:
        """A dict in the documented JSON schema (``inf`` written as the string ``"inf"``)."""
        return {
            "stack": self.stack, "ante": self.ante, "players": self.players,
            "payouts": [_json_number(x) for x in self.payouts] if self.payouts is not None else None,
            "push": self.pushes(), "call": self.calls(), "mixed": self.mixed(),
            "chart": {"push": {h: _chart_value(v) for h, v in zip(self.labels, self.chart_push)},
                      "call": {h: _chart_value(v) for h, v in zip(self.labels, self.chart_call)}},
            "chart_range": None if math.isnan(self.chart_range[0]) else list(self.chart_range),
            "ev": {"sb": self.ev_sb, "bb": self.ev_bb, "units": self.units},
            "exploitability": self.exploitability,
            "exact": self.exact,
        }

    def to_json(self) -> str:
        """The JSON text of :meth:`to_dict`, indented, with a final newline."""
        return json_text(self.to_dict()) + "\n"

    def to_csv(self) -> str:
        """One row per class: hand, push, call, chart_push, chart_call."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["hand", "push", "call", "chart_push", "chart_call"])
        for row in zip(self.labels, self.push, self.call, self.chart_push, self.chart_call):
            writer.writerow(row)
        return out.getvalue()

    def grid(self, which: str = "push") -> list[list[str]]:
        """The 13 x 13 chart as text cells (``20+`` style for ``inf``), aces first, suited above
        the diagonal."""
        values = self.chart_push if which == "push" else self.chart_call
        top = self.chart_range[1]
        cells = [[""] * 13 for _ in range(13)]
        for k, v in enumerate(values):
            row, col = divmod(k, 13)
            cells[row][col] = f"{top:g}+" if math.isinf(v) else ("-" if v == 0 else f"{v:.2f}".rstrip("0").rstrip("."))
        return cells

    def _caption(self) -> str:
        what = "chip EV" if self.payouts is None else f"ICM, payouts {', '.join(_num(x) for x in self.payouts)}"
        ante = f", ante {self.ante:g}" if self.ante else ""
        return (f"heads-up push/fold equilibrium at {self.stack:g} BB{ante} ({what}, {self.players} players)")

    def table(self) -> str:
        """The aligned text the command line prints: ranges, EVs, exploitability, both charts."""
        lines = [self._caption()]
        lines.append(f"push {self.push_share:.2%} of hands: {_compact(self.pushes())}")
        lines.append(f"call {self.call_share:.2%} of hands: {_compact(self.calls())}")
        for side, mixes in self.mixed().items():
            if mixes:
                lines.append(f"mixed {side}: " + ", ".join(f"{h} {p:.4f}" for h, p in mixes.items()))
        lines.append(f"EV small blind {self.ev_sb:+.6f}, big blind {self.ev_bb:+.6f} ({self.units})")
        lines.append(f"exploitability {self.exploitability:.3g}" + (" (exact)" if self.exact else ""))
        lo, hi, step = self.chart_range
        charts = () if math.isnan(lo) else (("push", "small blind pushes"), ("call", "big blind calls"))
        for which, name in charts:
            lines += ["", f"largest stack at which the {name} (BB, {lo:g} to {hi:g} by {step:g}; "
                          f"'{hi:g}+' every stack, '-' none)"]
            ranks = "AKQJT98765432"
            cells = self.grid(which)
            lines += _aligned([""] + list(ranks), [[ranks[r]] + cells[r] for r in range(13)], {0})
        return "\n".join(lines) + "\n"

    def to_pandas(self) -> Any:
        """A DataFrame, one row per class (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame({"hand": self.labels, "push": self.push, "call": self.call,
                             "chart_push": self.chart_push, "chart_call": self.chart_call})

    def _repr_html_(self) -> str:
        ranks = "AKQJT98765432"
        cells = self.grid("push")
        return _html_table(self._caption() + f"; push {self.push_share:.1%}, call {self.call_share:.1%}",
                           ["", *ranks], [[ranks[r], *cells[r]] for r in range(13)])

    def plot(self, path: str | Path) -> Path:
        """A PNG: the coloured 13 x 13 push and call charts."""
        from cardlab.report.pushfold_plot import pushfold_figure
        from cardlab.report.figures import save_figure

        return save_figure(pushfold_figure(self), path)


def _compact(hands: Sequence[str]) -> str:
    return " ".join(hands) if hands else "(none)"


def _as_mapping(labels: Sequence[str], values: Sequence[float]) -> Mapping[str, float]:
    return dict(zip(labels, values))


#: What each node of the three-handed game means, for tables and JSON.
NODE_TITLES = {
    "btn_push": "button pushes",
    "sb_push": "small blind pushes (button folded)",
    "sb_call": "small blind calls the button",
    "bb_call_sb": "big blind calls the small blind",
    "bb_call_btn": "big blind calls the button (small blind folded)",
    "bb_overcall": "big blind overcalls (button pushed, small blind called)",
}


@dataclass(frozen=True)
class PushFold3Result:
    """The three-handed push/fold equilibrium at one stack (:func:`cardlab.poker.pushfold3.pushfold3`).

    ``strategy[n][h]``: the probability of playing (pushing or calling) class ``h`` at node
    ``nodes[n]``; ``ev``: button, small blind and big blind payoffs per hand; ``gains``: what each
    gains by a best response to the others; ``exploitability``: their sum."""

    stack: float
    ante: float
    payouts: tuple[Any, ...] | None
    labels: tuple[str, ...]
    nodes: tuple[str, ...]
    strategy: tuple[tuple[float, ...], ...]
    ev: tuple[float, float, float]
    gains: tuple[float, float, float]
    exploitability: float
    iterations: int
    samples: int
    units: str = "big blinds"

    def __repr__(self) -> str:
        shares = ", ".join(f"{n} {self.share(n):.1%}" for n in self.nodes)
        return f"PushFold3Result({self.stack:g} BB: {shares}; exploitability {self.exploitability:.3g})"

    def share(self, node: str) -> float:
        """The share of the 1,326 combos played at ``node``."""
        weights = [6 if len(h) == 2 else 4 if h[2] == "s" else 12 for h in self.labels]
        return sum(w * p for w, p in zip(weights, self.strategy[self.nodes.index(node)])) / 1326

    def hands(self, node: str, at_least: float = 0.5) -> list[str]:
        """The classes played at ``node`` with probability ``at_least`` (one half by default)."""
        return [h for h, p in zip(self.labels, self.strategy[self.nodes.index(node)]) if p >= at_least]

    def to_dict(self) -> dict[str, Any]:
        """A dict for JSON: per node the hands played at least half the time and every class's
        probability; the EVs, each player's best-response gain and the exploitability."""
        return {
            "stack": self.stack, "ante": self.ante, "players": 3,
            "payouts": [_json_number(x) for x in self.payouts] if self.payouts is not None else None,
            "ranges": {n: self.hands(n) for n in self.nodes},
            "strategy": {n: _as_mapping(self.labels, row) for n, row in zip(self.nodes, self.strategy)},
            "ev": {"button": self.ev[0], "sb": self.ev[1], "bb": self.ev[2], "units": self.units},
            "gains": {"button": self.gains[0], "sb": self.gains[1], "bb": self.gains[2]},
            "exploitability": self.exploitability, "exact": False,
            "iterations": self.iterations, "three_way_samples": self.samples,
        }

    def to_json(self) -> str:
        """The JSON text of :meth:`to_dict`, indented, with a final newline."""
        return json_text(self.to_dict()) + "\n"

    def to_csv(self) -> str:
        """One row per class: hand, then each node's probability."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["hand", *self.nodes])
        for h, label in enumerate(self.labels):
            writer.writerow([label, *(row[h] for row in self.strategy)])
        return out.getvalue()

    def _caption(self) -> str:
        what = "chip EV" if self.payouts is None else f"ICM, payouts {', '.join(_num(x) for x in self.payouts)}"
        ante = f", ante {self.ante:g}" if self.ante else ""
        return f"three-handed push/fold equilibrium at {self.stack:g} BB each{ante} ({what})"

    def table(self) -> str:
        """The text the command line prints: each node's range, the EVs and the exploitability."""
        lines = [self._caption()]
        for node in self.nodes:
            lines.append(f"{NODE_TITLES[node]}: {self.share(node):.2%} of hands: {_compact(self.hands(node))}")
        (b, s, bb), (gb, gs, gbb) = self.ev, self.gains
        lines.append(f"EV button {b:+.6f}, small blind {s:+.6f}, big blind {bb:+.6f} ({self.units})")
        lines.append(f"exploitability {self.exploitability:.3g} (best response gains: button {gb:.3g}, "
                     f"small blind {gs:.3g}, big blind {gbb:.3g}; {self.iterations} rounds of regret matching, "
                     f"three-way all-ins from {self.samples} deals per class triple)")
        return "\n".join(lines) + "\n"

    def to_pandas(self) -> Any:
        """A DataFrame, one row per class, one column per node (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame({"hand": self.labels, **{n: row for n, row in zip(self.nodes, self.strategy)}})

    def _repr_html_(self) -> str:
        rows = [[NODE_TITLES[n], f"{self.share(n):.1%}", _compact(self.hands(n))] for n in self.nodes]
        return _html_table(self._caption() + f"; exploitability {self.exploitability:.3g}",
                           ["node", "hands", "range"], rows)
