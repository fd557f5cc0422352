"""The compiled single-suit search (csrc/suitplay.c) against the Python one it was ported from
(``cardlab.bridge.suitplay._Solver``, the oracle): the same exact fractions, the same lines
(words and trees) and the same tricks per layout, on SuitPlay's 15 reference combinations, the
textbook combinations, every option, and a seeded random sample; and the kernel's own checks of
what reaches it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab import _core
from cardlab.bridge.suitplay import CORE_LAYOUTS, SuitPlayResult, _setup, suitplay
from cardlab.errors import ConstraintError

DATA = Path(__file__).parent / "data" / "suitplay"
# the two 48- and 40-layout combinations take the Python oracle 3-7 s CPU each
SLOW_FILES = {"J92-A743", "J92-A753"}


def _same(north: str, south: str, **options: Any) -> SuitPlayResult:
    core = suitplay(north, south, engine="core", **options)
    python = suitplay(north, south, engine="python", **options)
    assert core.to_dict() == python.to_dict(), (north, south, options)
    for a, b in zip((*core.targets, core.mean_line), (*python.targets, python.mean_line)):
        assert a.probability_exact == b.probability_exact and a.per_layout == b.per_layout
        assert a.tree == b.tree and a.line == b.line
    return core


@pytest.mark.parametrize("path", [pytest.param(p, marks=[pytest.mark.slow] if p.stem in SLOW_FILES else [])
                                  for p in sorted(DATA.glob("*.json"))], ids=lambda p: p.stem)
def test_reference_combinations_same_on_both_routes(path: Path) -> None:
    north, south = path.stem.split("-")
    _same(north, south)


@pytest.mark.parametrize("north,south,options", [
    ("AQ", "32", {}),
    ("AKJT", "5432", {}),
    ("KJ2", "543", {}),
    ("AT2", "KJ3", {}),
    ("AJ9", "432", {}),
    ("AKT76", "5432", {"defence": "random-equals"}),
    ("AKT76", "5432", {"targets": [5]}),
    ("AQ", "32", {"entries": "*,0"}),
    ("AQT98", "5432", {"entries": "1,2"}),
    ("KJ9", "A32", {"entries": "2,*", "defence": "random-equals"}),
    ("AQ", "32", {"vacant": (13, 12)}),
    ("AQT98", "5432", {"vacant": (7, 11)}),
    ("AQ", "32", {"played": "W:5"}),
    ("AQJ9", "32", {"played": "E:T N:4"}),
    ("AKQJT98765432", "-", {}),
    ("A", "-", {}),
    ("-", "AK2", {}),
    ("AQT98", "5432", {"scoring": "mp"}),
    ("AJ92", "Q3", {"scoring": "imps"}),
])
def test_options_same_on_both_routes(north: str, south: str, options: dict[str, Any]) -> None:
    _same(north, south, **options)


@pytest.mark.slow
def test_random_combinations_same_on_both_routes() -> None:
    """A seeded sample: random holdings of 6 to 10 cards, either defence, sometimes limited
    entries or vacant places (the few with more layouts than the compiled search takes, or that
    the Python oracle would need long for, are drawn again)."""
    rng = np.random.default_rng(29)
    ranks = "AKQJT98765432"
    done = 0
    while done < 14:
        total = int(rng.integers(6, 11))
        cards = [ranks[i] for i in sorted(rng.choice(13, size=total, replace=False))]
        cut = int(rng.integers(1, total))
        north, south = "".join(cards[:cut]), "".join(cards[cut:])
        if rng.integers(0, 2):
            north, south = south, north
        deal, _, _ = _setup(north, south, None, None)
        if len(deal.layouts) > 40:
            continue
        options: dict[str, Any] = {"defence": ("omniscient", "random-equals")[int(rng.integers(0, 2))]}
        if rng.integers(0, 4) == 0:
            count = int(rng.integers(0, 3))
            options["entries"] = f"{count},*" if rng.integers(0, 2) else f"*,{count}"
        if rng.integers(0, 4) == 0:
            options["vacant"] = (int(rng.integers(8, 14)), int(rng.integers(8, 14)))
        _same(north, south, **options)
        done += 1


def test_engine_choice() -> None:
    with pytest.raises(ConstraintError, match="engine 'fast'"):
        suitplay("AQ", "32", engine="fast")
    # more layouts than one 64-bit word: the compiled route refuses, auto takes the Python one
    deal, _, _ = _setup("A", "J", None, None)  # eleven missing cards in two groups: 4 x 9 layouts
    assert len(deal.layouts) <= CORE_LAYOUTS
    deal, _, _ = _setup("A9", "J7", None, None)
    assert len(deal.layouts) > CORE_LAYOUTS
    with pytest.raises(ConstraintError, match="64 layouts"):
        suitplay("A9", "J7", engine="core", targets=[1])


def _args(**change: Any) -> list[Any]:
    groups = bytes([0, 0] + [255] * 11)  # the 3 and the 2 missing, one group; North AK..4
    base = {"north": 0x1FFC, "south": 0, "groups": groups, "layouts": bytes([0, 1, 2]), "n_layouts": 3,
            "depth": 11, "entries_north": -1, "entries_south": -1, "random_equals": 0, "limit_mb": 64}
    base.update(change)
    return list(base.values())


def test_kernel_refuses_what_does_not_fit() -> None:
    values, roots, plans, branches, states = _core.suitplay_search(*_args())
    assert len(values) == 8 * 11 * len(roots) // 4 and states > 0
    for change in ({"north": 1 << 13}, {"north": 0x1FFC, "south": 4}, {"groups": bytes(12)},
                   {"groups": bytes([2, 0] + [255] * 11)}, {"groups": bytes([0, 0] + [255] * 10 + [0])},
                   {"layouts": bytes([0, 1, 3])}, {"layouts": bytes([0, 1])}, {"n_layouts": 0},
                   {"n_layouts": 65}, {"depth": 0}, {"depth": 14}, {"entries_north": -2},
                   {"entries_south": 14}, {"random_equals": 2}, {"limit_mb": 0},
                   {"groups": bytes([0, 1] + [255] * 11), "layouts": bytes([0, 1, 2])}):
        with pytest.raises(ValueError, match="suitplay_search"):
            _core.suitplay_search(*_args(**change))


def test_kernel_memory_limit_is_a_clean_error() -> None:
    deal, _, _ = _setup("J92", "A753", None, None)
    groups = bytearray([255] * 13)
    for g, ranks in enumerate(deal.groups):
        for r in ranks:
            groups[r] = g
    layouts = bytes(j for lay in deal.layouts for j in lay)
    north = sum(1 << r for r in deal.north)
    south = sum(1 << r for r in deal.south)
    with pytest.raises(MemoryError, match="more than 1 MB"):
        _core.suitplay_search(north, south, bytes(groups), layouts, len(deal.layouts), 4, -1, -1, 0, 1)
