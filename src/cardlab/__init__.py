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

from typing import TYPE_CHECKING

from cardlab._lazy import lazy_exports

if TYPE_CHECKING:
    from cardlab.cards import Card, Rank, Suit, format_cards, parse_cards
    from cardlab.dealing import Deck, Draw
    from cardlab.distribution import Distribution, Simulation
    from cardlab.engine import exact, simulate
    from cardlab.errors import CardError, CardlabError, DeckError, SchemeError, TooLargeError

#: Where each public name lives; imported on first use, so ``import cardlab`` and
#: ``cardlab --help`` do not load numpy.
__getattr__, __dir__ = lazy_exports(__name__, {
    "Card": "cardlab.cards", "Rank": "cardlab.cards", "Suit": "cardlab.cards",
    "parse_cards": "cardlab.cards", "format_cards": "cardlab.cards",
    "Deck": "cardlab.dealing", "Draw": "cardlab.dealing",
    "Distribution": "cardlab.distribution", "Simulation": "cardlab.distribution",
    "exact": "cardlab.engine", "simulate": "cardlab.engine",
    "CardlabError": "cardlab.errors", "CardError": "cardlab.errors", "DeckError": "cardlab.errors",
    "SchemeError": "cardlab.errors", "TooLargeError": "cardlab.errors",
}, globals())

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
