"""Bridge hands: statistics (points, shape, conditional and joint tables) and random deals.

Duplicate scoring is its own package, :mod:`cardlab.scoring`.

>>> from cardlab.bridge import Points, exact_hand_table
>>> exact_hand_table(Points()).count(37)
4
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab._lazy import EXPORTS, lazy_exports

if TYPE_CHECKING:
    from cardlab.bridge.boardsets import BoardSet, BoardSetResult, deal_board_set, parse_mix
    from cardlab.bridge.conditional import given_points
    from cardlab.bridge.dd import DDTable, DDTables, dd_table, dd_tables
    from cardlab.bridge.dd_sim import LeadResult, MakesResult, leads, makes
    from cardlab.bridge.deals import Deal, parse_constraint, parse_pbn_deal, random_deals
    from cardlab.bridge.features import Joint, LongestSuit, Pattern, Points, SuitLengths
    from cardlab.bridge.levels import LevelReport, natural_frequencies, parse_levels, script_levels
    from cardlab.bridge.schemes import PointScheme, SCHEMES, parse_scheme
    from cardlab.bridge.splits import SplitTable, card_layouts, suit_split
    from cardlab.bridge.strategy import StrategyResult, compare_strategies
    from cardlab.bridge.tables import joint_table, points_table, shape_table
    from cardlab.distribution import Distribution  # for exact_hand_table's signature only
    from cardlab.engine import Feature

#: Imported on first use (the table is :data:`cardlab._lazy.EXPORTS`), so importing the package
#: (and ``cardlab --help``) does not load numpy and the engines.
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS[__name__], globals())

__all__ = [
    "exact_hand_table",
    "given_points",
    "Deal",
    "parse_constraint",
    "parse_pbn_deal",
    "random_deals",
    "Joint",
    "LongestSuit",
    "Pattern",
    "Points",
    "SuitLengths",
    "SCHEMES",
    "PointScheme",
    "parse_scheme",
    "points_table",
    "shape_table",
    "joint_table",
    "DDTable",
    "DDTables",
    "dd_table",
    "dd_tables",
    "makes",
    "leads",
    "MakesResult",
    "LeadResult",
    "compare_strategies",
    "StrategyResult",
    "suit_split",
    "card_layouts",
    "SplitTable",
    "deal_board_set",
    "BoardSet",
    "BoardSetResult",
    "parse_mix",
    "parse_levels",
    "script_levels",
    "natural_frequencies",
    "LevelReport",
]


def exact_hand_table(feature: Feature, cards: int = 13, given: str | None = None) -> Distribution:
    """The exact distribution of a feature of a ``cards``-card hand from a standard deck,
    with the ``given`` known cards (card list or PBN hand) taken out first."""
    from cardlab.dealing import Deck, Draw
    from cardlab.engine import exact

    deck = Deck.standard() if given is None else Deck.standard().remove(given)
    return exact(Draw(deck, cards), feature)
