"""How suit play names and merges the missing cards (docs/suitplay.md): the label of each static
group (``x`` for the lowest, else its highest card), the runs of equal cards a defender chooses
among, and the order of a line's branches. Shared by the solver (:mod:`cardlab.bridge.suitplay`)
and the lines a user names (:mod:`cardlab.bridge.suitplay_line`).

>>> labels([(11,), (9, 8), (4, 3, 2)])
['K', 'J', 'x']
>>> runs([(11,), (9, 8), (4, 3, 2)], frozenset({10, 5}), True), runs([(11,), (9, 8)], frozenset({10}), True)
([(0,), (1,), (2,)], [(0,), (1,)])
>>> runs([(11,), (9, 8)], frozenset(), True)
[(0, 1)]
"""

from __future__ import annotations

from typing import Sequence

from cardlab.cards import RANKS

__all__ = ["labels", "runs", "branch_order"]


def labels(groups: Sequence[tuple[int, ...]]) -> list[str]:
    """How each static group's cards are shown: ``x`` for the lowest group (the small cards),
    else the group's highest card (it stands for the whole group of equal cards)."""
    out = [RANKS[g[0]] for g in groups]
    if groups:
        out[-1] = "x"
    return out


def runs(groups: Sequence[tuple[int, ...]], live_ours: frozenset[int], merge: bool) -> list[tuple[int, ...]]:
    """The static groups of missing cards as they are told apart: each on its own (omniscient),
    or merged into runs with no declarer card still in play between them (random-equals: the
    defenders' cards of a run are equal, and a defender plays any of his at random)."""
    if not merge:
        return [(g,) for g in range(len(groups))]
    out: list[list[int]] = []
    for g in range(len(groups)):
        if out and not any(x in live_ours for x in range(groups[g][0] + 1, groups[out[-1][-1]][-1])):
            out[-1].append(g)
        else:
            out.append([g])
    return [tuple(r) for r in out]


def branch_order(key: str) -> int:
    """Sort key of a branch ``"W:x"``, ``"E:K"``, ``"W:-"``: small cards first (the main line:
    the defenders following low), then by rank, showing out last."""
    card = key.split(":")[1]
    return -1 if card == "x" else (99 if card == "-" else RANKS.index(card))
