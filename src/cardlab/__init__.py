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

from cardlab._lazy import EXPORTS, lazy_exports

if TYPE_CHECKING:
    from cardlab.cards import Card, Rank, Suit, format_cards, parse_cards
    from cardlab.dealing import Deck, Draw, Reels
    from cardlab.distribution import Distribution, Simulation
    from cardlab.engine import exact, simulate, tabulate
    from cardlab.errors import CardError, CardlabError, DeckError, SchemeError, TooLargeError
    from cardlab.tabulation import Tabulation

#: Imported on first use (the table is :data:`cardlab._lazy.EXPORTS`), so importing the package
#: (and ``cardlab --help``) does not load numpy and the engines.
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS[__name__], globals())

__all__ = [
    "__version__",
    "Card",
    "Rank",
    "Suit",
    "parse_cards",
    "format_cards",
    "Deck",
    "Draw",
    "Reels",
    "Distribution",
    "Simulation",
    "Tabulation",
    "exact",
    "simulate",
    "tabulate",
    "CardlabError",
    "CardError",
    "DeckError",
    "SchemeError",
    "TooLargeError",
]
