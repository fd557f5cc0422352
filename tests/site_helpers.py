"""Shared pieces of the results-site tests: the session with hands and a stand-in solver."""

from __future__ import annotations

import types
from pathlib import Path

DATA = Path(__file__).parent / "data"
HANDS_FILE = DATA / "usebio-hands.xml"


def fake_dd_module() -> types.ModuleType:
    """A stand-in for ``cardlab.bridge.dd`` (the real one is another feature): fixed tricks
    that the tests look for on the page."""
    module = types.ModuleType("cardlab.bridge.dd")

    def dd_table(deal: str, dealer: str, vulnerability: str) -> dict[str, object]:
        tricks = {seat: {"C": 1 + i, "D": 2 + i, "H": 3 + i, "S": 4 + i, "NT": 5 + i}
                  for i, seat in enumerate("NESW")}
        return {"deal": deal, "tricks": tricks, "par": {"score": 420, "contracts": ["4S by N"]}}

    module.dd_table = dd_table  # type: ignore[attr-defined]
    return module
