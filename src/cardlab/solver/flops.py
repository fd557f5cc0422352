"""A report over a set of flops: the same spot solved on each, every flop weighted by how many
flops it stands for.

With ``flops=None`` the set is every flop class: the 22,100 flops fall into 1,755 classes under
the 24 suit permutations (:func:`cardlab.poker.board_stats.flop_classes`), and when neither
range tells the suits apart a class's flops all play alike, so one solve per class, weighted
by its size, gives the average over every flop exactly (to each solve's exploitability).

>>> r = flop_report("AA", "KK", ["Qs Jh 2h", "Ah 7h 2h"], pot=10, stack=0)
>>> [row["flop"] for row in r.rows], [round(row["equity_oop"], 3) for row in r.rows]
(['Qs Jh 2h', 'Ah 7h 2h'], [0.892, 0.851])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from cardlab.cards import format_cards
from cardlab.errors import SolverError, number_argument, text_argument, whole_argument
from cardlab.results import JsonText, csv_rows
from cardlab.solver.engine import DEFAULT_MEMORY_MB, solve
from cardlab.solver.game import river_game, river_game_check
from cardlab.solver.solution import Solution
from cardlab.solver.suits import suit_maps
from cardlab.textformat import percent, text_table

__all__ = ["FlopReport", "flop_report", "MAX_FLOPS"]

MAX_FLOPS = 1755
"""Most flops a report solves (every class once)."""


@dataclass(frozen=True)
class FlopReport(JsonText):
    """A row per flop (its weight, each range's EV and equity, OOP's first action frequencies,
    the exploitability reached) and ``summary``, the rows averaged by weight."""

    summary: dict[str, Any]
    rows: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """The summary and the rows, JSON-ready."""
        return {**self.summary, "rows": self.rows}

    def to_csv(self) -> str:
        """A line per flop."""
        return csv_rows(self.rows, ["flop", "weight"])

    def table(self) -> str:
        """The average over the flops, then a line per flop."""
        s = self.summary
        actions = s["actions"]
        head = (f"{s['flops']:,} flops standing for {s['weight']:,} (weights: flops per class)\naverages: "
                f"EV OOP {s['ev_oop']:.4f}, IP {s['ev_ip']:.4f}; equity OOP {percent(s['equity_oop'])}; "
                + ", ".join(f"OOP {a} {percent(s[a], 1)}" for a in actions)
                + f"; worst exploitability {s['worst_exploitability_pct']:.4f}% of the pot"
                + (" (interrupted)" if s["interrupted"] else ""))
        body = [[r["flop"], str(r["weight"]), f"{r['ev_oop']:.3f}", f"{r['ev_ip']:.3f}", percent(r["equity_oop"], 1),
                 *(percent(r[a], 1) for a in actions), f"{r['exploitability_pct']:.3f}"] for r in self.rows]
        return head + "\n\n" + text_table(["flop", "weight", "EV OOP", "EV IP", "equity", *actions, "expl %"], body)


def flop_report(oop: str, ip: str, flops: Sequence[str] | None = None, *, pot: float, stack: float,
                target: float = 0.5, time_limit: float = 60.0, workers: int = 1,
                memory_mb: float = DEFAULT_MEMORY_MB, **sizes: Any) -> FlopReport:
    """Solve the spot (:func:`~cardlab.solver.game.river_game`'s ``sizes``) on each of ``flops``
    (board texts, each weighing 1) or, with None, on every flop class (each weighing the flops
    it stands for; the ranges must not tell the suits apart). Each solve stops at ``target`` %
    of the pot or ``time_limit`` seconds."""
    try:
        river_game_check(oop, ip, None, pot=pot, stack=stack, **sizes)
    except TypeError:  # a keyword river_game does not take
        raise SolverError(f"the sizes are river_game's keywords (oop_bet, ..., rake_cap), not {sorted(sizes)!r:.80}") from None
    number_argument(target, "the target exploitability (% of the pot)", SolverError, 0, 1e6)
    number_argument(time_limit, "the time limit (seconds)", SolverError, 0, 1e7, low_open=True)
    whole_argument(workers, "the threads", SolverError, 1, 256)
    number_argument(memory_mb, "the memory limit (megabytes)", SolverError, 0, 1 << 30, low_open=True)
    if flops is not None and (isinstance(flops, (str, bytes)) or not isinstance(flops, Sequence)):
        raise SolverError(f"flops are a list of board texts such as ['Qs Jh 2h', 'Ah 7h 2h'] (or None: every flop "
                          f"class), not {flops!r:.60}")
    if flops is None:
        from cardlab.poker.board_stats import flop_classes

        from cardlab.poker.ranges import parse_range

        ranges = [parse_range(text) for text in (oop, ip)]
        if len(suit_maps([], [(r.combos.astype(np.int64), r.weights) for r in ranges])) != 24:
            raise SolverError("a report over every flop class needs ranges that treat the four suits alike "
                              "(no suited combo weighed apart from its images): give the flops instead")
        reps, counts = flop_classes()
        boards = [(format_cards(sorted(map(int, r), reverse=True)), int(c)) for r, c in zip(reps, counts)]
    else:
        if not 0 < len(flops) <= MAX_FLOPS:
            raise SolverError(f"a report takes 1 to {MAX_FLOPS:,} flops, not {len(flops):,}")
        boards = [(text_argument(b, "a flop", SolverError), 1) for b in flops]
    rows = []
    for board, weight in boards:
        game = river_game(oop, ip, board, pot=pot, stack=stack, **sizes)
        if len(game.spec["board"].split()) != 3:
            raise SolverError(f"'{board}' is not a flop: a report takes three-card boards")
        s = Solution(solve(game, target=target, time_limit=time_limit, workers=workers, memory_mb=memory_mb))
        sigma = s.strategy(0)
        mass = game.hands[0].weights * s.engine.values(0, 4)
        rows.append({"flop": game.spec["board"], "weight": weight,
                     "ev_oop": s.range_share(0, s.ev(0)), "ev_ip": s.range_share(1, s.ev(1)),
                     "equity_oop": s.range_share(0, s.equity(0)),
                     **{a: float(sigma[k] @ mass / mass.sum()) for k, a in enumerate(game.tree.actions(0))},
                     "exploitability_pct": s.engine.exploitability_pct})
        if s.engine.interrupted:  # Ctrl-C: the flops solved so far, this one's answer as it stood
            break
    w = np.array([r["weight"] for r in rows], dtype=np.float64)
    actions = [k for k in rows[0] if k not in ("flop", "weight", "ev_oop", "ev_ip", "equity_oop", "exploitability_pct")]
    summary: dict[str, Any] = {"flops": len(rows), "weight": int(w.sum()), "actions": actions,
                               "worst_exploitability_pct": max(r["exploitability_pct"] for r in rows),
                               "interrupted": bool(s.engine.interrupted)}
    for key in ("ev_oop", "ev_ip", "equity_oop", *actions):
        summary[key] = float(np.array([r.get(key, 0.0) for r in rows]) @ w / w.sum())
    return FlopReport(summary, rows)
