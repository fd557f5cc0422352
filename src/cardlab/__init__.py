"""cardlab: card-game probabilities and duplicate bridge scoring.

Exact answers where mathematics allows, seeded simulation with honest
confidence intervals where it does not.

>>> from cardlab import Deck, Draw, exact
>>> from cardlab.bridge import Points
>>> exact(Draw(Deck.standard(), 13), Points()).total
635013559600
"""

from __future__ import annotations

__version__ = "0.1.0"

from cardlab.cards import Card, Rank, Suit, format_cards, parse_cards
from cardlab.dealing import Deck, Draw
from cardlab.distribution import Distribution, Simulation
from cardlab.engine import exact, simulate
from cardlab.errors import CardError, CardlabError, DeckError, SchemeError, TooLargeError

__all__ = [
    "__version__",
    "Card",
    "Rank",
    "Suit",
    "parse_cards",
    "format_cards",
    "Deck",
    "Draw",
    "Distribution",
    "Simulation",
    "exact",
    "simulate",
    "CardlabError",
    "CardError",
    "DeckError",
    "SchemeError",
    "TooLargeError",
]
