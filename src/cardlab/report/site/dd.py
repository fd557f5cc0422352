"""Double-dummy tricks and par for a hand record, from :mod:`cardlab.bridge.dd` (DDS through endplay).

The one place the site calls the double-dummy solver: what the pages need is copied into a
:class:`DoubleDummy`, so an API change there is a change here only. The solver module is imported
when a table is asked for, so building a site without hand records never loads it.

One suit in each hand: North's thirteen spades take every trick in spades, and in notrump East
leads and runs thirteen hearts:

>>> dd = double_dummy("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432", "N", "None")
>>> dd.tricks["N"]["S"], dd.tricks["N"]["NT"], dd.tricks["E"]["H"]
(13, 0, 13)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from cardlab.board import SEATS, STRAINS

if TYPE_CHECKING:  # the solver is imported on first use
    from cardlab.bridge.dd import DDTable

__all__ = ["DoubleDummy", "double_dummy", "double_dummy_all"]


@dataclass(frozen=True)
class DoubleDummy:
    """Tricks per declarer seat (N, E, S, W) and strain (``tricks["N"]["NT"]``); par for NS."""

    tricks: Mapping[str, Mapping[str, int]]
    par_score: int | None
    par_contracts: tuple[str, ...]


def double_dummy(deal_pbn: str, dealer: str, vulnerability: str) -> DoubleDummy:
    """The double-dummy table of a deal, and its par for ``dealer`` and ``vulnerability``."""
    from cardlab.bridge.dd import dd_table

    return _from_table(dd_table(deal_pbn, dealer=dealer, vulnerability=vulnerability))


def double_dummy_all(boards: list[tuple[str, str, str]]) -> list[DoubleDummy]:
    """:func:`double_dummy` of many ``(deal, dealer, vulnerability)`` at once: one batched
    solver call (DDS's multi-deal call is faster per table than one call a deal)."""
    if not boards:
        return []
    from cardlab.bridge.dd import dd_tables

    tables = dd_tables([b[0] for b in boards], [b[1] for b in boards], [b[2] for b in boards])
    return [_from_table(tables[i]) for i in range(len(tables))]


def _from_table(table: DDTable) -> DoubleDummy:
    tricks = {seat: {strain: table.tricks_for(seat, strain) for strain in STRAINS} for seat in SEATS}
    return DoubleDummy(tricks, table.par_score, table.par_contracts)
