"""Bridge hands: statistics (points, shape, conditional and joint tables) and random deals.

Duplicate scoring is its own package, :mod:`cardlab.scoring`.

>>> from cardlab.bridge import Points, exact_hand_table
>>> exact_hand_table(Points()).count(37)
4
"""

from __future__ import annotations

from cardlab.bridge.conditional import given_points
from cardlab.bridge.deals import Deal, parse_constraint, parse_pbn_deal, random_deals
from cardlab.bridge.features import Joint, LongestSuit, Pattern, Points, SuitLengths
from cardlab.bridge.schemes import SCHEMES, PointScheme, parse_scheme
from cardlab.dealing import Deck, Draw
from cardlab.distribution import Distribution
from cardlab.engine import Feature, exact

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
    deck = Deck.standard() if given is None else Deck.standard().remove(given)
    return exact(Draw(deck, cards), feature)
