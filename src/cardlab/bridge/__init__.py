"""Bridge hands: statistics (points, shape, conditional and joint tables) and random deals.

Duplicate scoring is its own package, :mod:`cardlab.scoring`.

>>> from cardlab.bridge import Points, exact_hand_table
>>> exact_hand_table(Points()).count(37)
4
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab._lazy import lazy_exports

if TYPE_CHECKING:
    from cardlab.bridge.conditional import given_points
    from cardlab.bridge.deals import Deal, parse_constraint, parse_pbn_deal, random_deals
    from cardlab.bridge.features import Joint, LongestSuit, Pattern, Points, SuitLengths
    from cardlab.bridge.schemes import SCHEMES, PointScheme, parse_scheme
    from cardlab.distribution import Distribution
    from cardlab.engine import Feature

#: Imported on first use: ``import cardlab.bridge.tables`` (``cardlab bridge hcp``) does not load
#: the deal generator, and ``cardlab.bridge.dd`` does not load the hand tables.
__getattr__, __dir__ = lazy_exports(__name__, {
    "given_points": "cardlab.bridge.conditional",
    "Deal": "cardlab.bridge.deals", "parse_constraint": "cardlab.bridge.deals",
    "parse_pbn_deal": "cardlab.bridge.deals", "random_deals": "cardlab.bridge.deals",
    "Joint": "cardlab.bridge.features", "LongestSuit": "cardlab.bridge.features",
    "Pattern": "cardlab.bridge.features", "Points": "cardlab.bridge.features",
    "SuitLengths": "cardlab.bridge.features",
    "SCHEMES": "cardlab.bridge.schemes", "PointScheme": "cardlab.bridge.schemes",
    "parse_scheme": "cardlab.bridge.schemes",
}, globals())

__all__ = [
    "Points",
    "Pattern",
    "SuitLengths",
    "LongestSuit",
    "Joint",
    "PointScheme",
    "SCHEMES",
    "parse_scheme",
    "given_points",
    "exact_hand_table",
    "Deal",
    "parse_pbn_deal",
    "parse_constraint",
    "random_deals",
]


def exact_hand_table(feature: Feature, cards: int = 13, given: str | None = None) -> Distribution:
    """The exact distribution of a feature of a ``cards``-card hand from a standard deck,
    with the ``given`` known cards (card list or PBN hand) taken out first."""
    from cardlab.dealing import Deck, Draw
    from cardlab.engine import exact

    deck = Deck.standard() if given is None else Deck.standard().remove(given)
    return exact(Draw(deck, cards), feature)
