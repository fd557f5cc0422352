"""The result of an equity calculation: per player win, tie and equity, exact or simulated.

JSON (:meth:`EquityResult.to_dict`; :meth:`~EquityResult.to_json` gives it as text)::

    {"total": boards (or weighted deals x boards, or trials), "exact": bool,
     "players": [{"spec": str, "win": float, "tie": float, "equity": float,
                  "wins": int, "ties": int, "ci95": [lo, hi]}]}

``win`` is the share of boards a player wins outright (takes the whole pot), ``tie`` the share
where the player gets part of the pot; hi-lo (``stud8``, and Omaha or hold'em with ``hi_lo``) adds
``scoop`` (``win``: the whole pot), ``high_only`` and ``low_only`` (a low qualified and the player's share came from the high
half alone, or from the low half alone); ``equity`` counts a k-way split as 1/k (and half a pot
for each half won in hi-lo). ``ci95`` is the 95% interval of the equity when simulated, and the
equity itself at both ends when exact. A simulated result adds
``"simulation": {"trials", "seed", "requested", "interrupted"}``.

>>> p = PlayerEquity("AsAh", 0.5, 0.1, 0.55, 5, 1, (0.55, 0.55))
>>> r = EquityResult("holdem", "", "", False, True, 10, (p, p), None)
>>> r
EquityResult(holdem exact: AsAh 55.00%, AsAh 55.00%)
>>> r.to_dict()["players"][0]["wins"]
5
"""

from __future__ import annotations

import csv
import html
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab.results import JsonText
from cardlab.textformat import interval, text_table
from cardlab.distribution import Simulation

__all__ = ["EquityResult", "PlayerEquity"]

_NO_BOARD = {"stud": "seven-card stud", "stud8": "seven-card stud hi-lo (8 or better)", "razz": "razz",
             "27": "deuce-to-seven lowball", "a5": "ace-to-five lowball", "badugi": "badugi"}
"""The games without a board (cardlab.poker.games), as the caption names them."""


@dataclass(frozen=True)
class PlayerEquity:
    """One player's figures; ``wins``/``ties`` are counts (weighted counts for weighted ranges)."""

    spec: str
    win: float
    tie: float
    equity: float
    wins: int | float
    ties: int | float
    ci95: tuple[float, float]
    combos: int = 1
    high_only: float | None = None
    low_only: float | None = None

    @property
    def split(self) -> dict[str, float] | None:
        """Hi-lo (stud8, Omaha or hold'em hi-lo): the share of deals (boards) the player scoops (``win``), takes part of the pot
        from the high half alone and from the low half alone (a low qualified); None otherwise."""
        if self.high_only is None or self.low_only is None:
            return None
        return {"scoop": self.win, "high_only": self.high_only, "low_only": self.low_only}


@dataclass(frozen=True)
class EquityResult(JsonText):
    """Equity of each player; ``grid`` is the first player's equity against each of the second
    player's 169 hand classes (``row * 13 + column``, see :func:`cardlab.poker.ranges.class_label`),
    None where the range has none; present for a hand (or range) against a hold'em range."""

    game: str
    board: str
    dead: str
    hi_lo: bool
    exact: bool
    total: int | float
    players: tuple[PlayerEquity, ...]
    simulation: Simulation | None
    grid: tuple[float | None, ...] | None = None

    def __repr__(self) -> str:
        how = "exact" if self.exact else f"simulated {self.total:,}"
        shown = ", ".join(f"{p.spec} {p.equity:.2%}" for p in self.players)
        return f"EquityResult({self.game} {how}: {shown})"

    @property
    def equities(self) -> tuple[float, ...]:
        """Each player's equity (win plus share of ties), in order."""
        return tuple(p.equity for p in self.players)

    def to_dict(self) -> dict[str, Any]:
        """A dict in the documented JSON schema."""
        data: dict[str, Any] = {
            "total": self.total,
            "exact": self.exact,
            "players": [{"spec": p.spec, "win": p.win, "tie": p.tie, "equity": p.equity,
                         "wins": p.wins, "ties": p.ties, "ci95": list(p.ci95), **(p.split or {})}
                        for p in self.players],
        }
        if self.simulation is not None:
            s = self.simulation
            data["simulation"] = {"trials": s.trials, "seed": s.seed, "requested": s.requested,
                                  "interrupted": s.interrupted}
        return data

    def to_json_text(self) -> str:
        """Deprecated (one release): :meth:`to_json` gives the text; this adds a final newline."""
        import warnings

        warnings.warn("EquityResult.to_json_text() is deprecated, use to_json()", DeprecationWarning, stacklevel=2)
        return self.to_json() + "\n"

    def to_csv(self) -> str:
        """One row per player: spec, win, tie, equity, wins, ties, ci95_low, ci95_high."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["spec", "win", "tie", "equity", "wins", "ties", "ci95_low", "ci95_high"])
        for p in self.players:
            writer.writerow([p.spec, p.win, p.tie, p.equity, p.wins, p.ties, p.ci95[0], p.ci95[1]])
        return out.getvalue()

    def to_pandas(self) -> Any:
        """A DataFrame, one row per player (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame([{"spec": p.spec, "win": p.win, "tie": p.tie, "equity": p.equity,
                              "wins": p.wins, "ties": p.ties, "ci95_low": p.ci95[0],
                              "ci95_high": p.ci95[1]} for p in self.players])

    def _caption(self) -> str:
        if self.game in _NO_BOARD:  # stud, razz, lowball, badugi (cardlab.poker.games): deals, no board
            return self._deal_caption()
        what = self.game.replace("holdem", "hold'em").replace("shortdeck", "short deck")
        if self.hi_lo:
            what += " hi-lo"
        parts = [what]
        parts.append(f"board {self.board}" if self.board else "preflop")
        if self.dead:
            parts.append(f"dead {self.dead}")
        if self.exact:
            parts.append(f"exact over {_num(self.total)} boards" +
                         (" (weighted deals x boards)" if any(not p.combos == 1 for p in self.players) else ""))
        else:
            parts += self._simulated("boards")
        return ", ".join(parts)

    def _deal_caption(self) -> str:
        parts = [_NO_BOARD[self.game]]
        if self.dead:
            parts.append(f"dead {self.dead}")
        if self.exact:
            parts.append(f"exact over {_num(self.total)} deals")
        else:
            parts += self._simulated("deals")
        return ", ".join(parts)

    def _simulated(self, what: str) -> list[str]:
        """The caption's words for a simulation of ``what`` (boards, deals)."""
        s = self.simulation
        seed = f", seed {s.seed}" if s is not None and s.seed is not None else ""
        words = [f"simulated {self.total:,} {what}{seed}, 95% intervals"]
        if s is not None and s.interrupted:
            words.append(f"interrupted after {s.trials:,} of {s.requested:,}")
        return words

    def table(self) -> str:
        """The aligned text the command line prints."""
        split = all(p.split is not None for p in self.players)
        headers = ["player", "hand / range", "win", "tie", "equity"]
        headers += ["high only", "low only"] if split else []
        headers += ["wins", "ties"] if self.exact else ["95% interval"]
        rows = []
        for n, p in enumerate(self.players, 1):
            row = [str(n), p.spec, f"{p.win:.3%}", f"{p.tie:.3%}", f"{p.equity:.3%}"]
            row += [f"{p.high_only:.3%}", f"{p.low_only:.3%}"] if split else []
            if self.exact:
                row += [_num(p.wins), _num(p.ties)]
            else:
                row += [interval(f"{p.ci95[0]:.3%}", f"{p.ci95[1]:.3%}")]
            rows.append(row)
        return self._caption() + "\n" + text_table(headers, rows, left={1}) + "\n"

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{h}</th>" for h in ("player", "hand / range", "win", "tie", "equity", "95% interval"))
        body = "".join(
            f"<tr><td>{n}</td><td>{html.escape(p.spec)}</td><td>{p.win:.3%}</td><td>{p.tie:.3%}</td>"
            f"<td><b>{p.equity:.3%}</b></td><td>{interval(f'{p.ci95[0]:.3%}', f'{p.ci95[1]:.3%}')}</td></tr>"
            for n, p in enumerate(self.players, 1))
        return (f"<table><caption>{html.escape(self._caption())}</caption><thead><tr>{head}</tr></thead>"
                f"<tbody>{body}</tbody></table>")

    def plot(self, path: str | Path) -> Path:
        """A PNG: an equity bar per player, and the 13 x 13 grid for a hand against a range."""
        from cardlab.report.equity_plot import plot_equity

        return plot_equity(self, path)


def _num(x: int | float) -> str:
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    return f"{x:,}" if isinstance(x, int) else f"{x:,.2f}"
