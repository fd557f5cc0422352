"""Club direction: Bridgemate's ``.bws`` database, movements, table and guide cards, live results.

A package of its own beside :mod:`cardlab.scoring`, which stays the one place results are
scored: club reads what the tables produce into scoring's
:class:`~cardlab.scoring.document.ResultsFile`, and writes what directors print (docs/club.md).

>>> from cardlab.club import read_bws
>>> read_bws.__module__
'cardlab.club.bws'
"""

from __future__ import annotations

from cardlab._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(__name__, {
    "read_bws": "cardlab.club.bws",
    "BwsSession": "cardlab.club.bws",
    "load_any": "cardlab.club.files",
    "MovementPlan": "cardlab.club.movement",
    "mitchell": "cardlab.club.movement",
    "howell": "cardlab.club.movement",
    "appendix_mitchell": "cardlab.club.appendix",
}, globals())

__all__ = ["read_bws", "BwsSession", "load_any", "MovementPlan", "mitchell", "howell",
           "appendix_mitchell"]
