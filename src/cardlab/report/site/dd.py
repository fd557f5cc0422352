"""Double-dummy tricks and par for a hand record, when :mod:`cardlab.bridge.dd` exists.

The one place the site calls the double-dummy feature: everything it needs is
read by :func:`double_dummy`, so an API change there is a change here only.
Without the module (or its solver) the hand records simply show no table.

>>> double_dummy("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
...              "N", "None") is None or True
True
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Mapping

__all__ = ["DoubleDummy", "double_dummy", "double_dummy_all", "STRAINS"]

#: Strains in the order a double-dummy table is printed.
STRAINS = ("NT", "S", "H", "D", "C")


@dataclass(frozen=True)
class DoubleDummy:
    """Tricks per declarer seat (N, E, S, W) and strain (NT, S, H, D, C); par for NS."""

    tricks: Mapping[str, Mapping[str, int]]
    par_score: int | None
    par_contracts: tuple[str, ...]


def double_dummy(deal_pbn: str, dealer: str, vulnerability: str) -> DoubleDummy | None:
    """The double-dummy table and par of a deal, or None when the feature is not installed.

    Calls ``cardlab.bridge.dd.dd_table(deal, dealer=, vulnerability=)``, which returns the JSON shape of
    ``cardlab bridge dd`` (through ``to_json()``):
    ``{"tricks": {"N": {"C": 9, ..., "NT": 8}, ...}, "par": {"score": 420, "contracts": [...]}}``.
    """
    try:
        dd: Any = importlib.import_module("cardlab.bridge.dd")
    except ImportError:
        return None
    solve = getattr(dd, "dd_table", None)
    if solve is None:
        return None
    table = solve(deal_pbn, dealer=dealer, vulnerability=vulnerability)
    return _from_json(table.to_json() if hasattr(table, "to_json") else table)


def double_dummy_all(boards: list[tuple[str, str, str]]) -> list[DoubleDummy | None]:
    """:func:`double_dummy` of many ``(deal, dealer, vulnerability)`` at once: one batched
    solver call (DDS's multi-deal call is faster per table than one call a deal)."""
    try:
        dd: Any = importlib.import_module("cardlab.bridge.dd")
    except ImportError:
        return [None] * len(boards)
    solve_all = getattr(dd, "dd_tables", None)
    if solve_all is None or not boards:
        return [double_dummy(*b) for b in boards]
    tables = solve_all([b[0] for b in boards], [b[1] for b in boards], [b[2] for b in boards])
    return [_from_json(t.to_json()) for t in tables]


def _from_json(data: Mapping[str, Any]) -> DoubleDummy:
    tricks = {seat: {strain: int(data["tricks"][seat][strain]) for strain in STRAINS} for seat in "NESW"}
    par = data.get("par") or {}
    score = par.get("score")
    return DoubleDummy(tricks, None if score is None else int(score),
                       tuple(str(c) for c in par.get("contracts", ())))
