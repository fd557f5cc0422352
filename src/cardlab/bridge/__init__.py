"""Bridge: hand statistics (points, shape, conditional tables, constrained deals) and
duplicate scoring (contracts, matchpoints, sessions, result files).

>>> from cardlab.bridge import Points, exact_hand_table
>>> exact_hand_table(Points()).count(37)
4
"""

from __future__ import annotations

from cardlab.bridge.conditional import given_points
from cardlab.bridge.contract import Contract, Result, Seat, Vulnerability, ns_score
from cardlab.bridge.deals import Deal, parse_constraint, parse_pbn_deal, random_deals
from cardlab.bridge.features import Joint, LongestSuit, Pattern, Points, SuitLengths
from cardlab.bridge.matchpoints import board_matchpoints
from cardlab.bridge.schemes import SCHEMES, PointScheme, parse_scheme
from cardlab.bridge.session import score_session
from cardlab.dealing import Deck, Draw
from cardlab.distribution import Distribution
from cardlab.engine import exact

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
    "Contract",
    "Result",
    "Seat",
    "Vulnerability",
    "ns_score",
    "board_matchpoints",
    "score_session",
]


def exact_hand_table(feature: object, cards: int = 13, given: str | None = None) -> Distribution:
    """The exact distribution of a feature of a ``cards``-card hand from a standard deck,
    with the ``given`` known cards (card list or PBN hand) taken out first."""
    deck = Deck.standard() if given is None else Deck.standard().remove(given)
    return exact(Draw(deck, cards), feature)  # type: ignore[arg-type]
