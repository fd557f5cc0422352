"""Poker hands: vectorised evaluation, rules, comparison in words, exact and simulated odds.

>>> from cardlab.poker import compare, hand_value, rank_hands
>>> hand_value("Ah Kh Qh Jh Th").category.key
'royal_flush'
>>> hand_value("Ah Kh Qh Jh")
Traceback (most recent call last):
...
cardlab.errors.HandError: a hand has 5, 6 or 7 cards; 'Ah Kh Qh Jh' has 4
>>> compare(["As Ad Kc Kd 2h", "Qs Qd Qc 3h 4h"]).winners
(1,)
>>> rank_hands(["As Ks Qs Js Ts", "2c 2d 2h 7s 7c"]).rows()[1]["category"]
'full_house'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab._lazy import EXPORTS, lazy_exports

if TYPE_CHECKING:
    from cardlab.poker.comparison import Comparison, HandValue, compare, hand_value
    from cardlab.poker.equity import game_named, parse_players
    from cardlab.poker.equity_result import EquityResult, PlayerEquity
    from cardlab.poker.evaluator import evaluate, hand_array, parse_hand, strengths
    from cardlab.poker.odds import PokerCategory, category_counts, category_odds, poker_odds
    from cardlab.poker.ranges import Range, parse_range
    from cardlab.poker.ranking import RankedHands, rank_hands
    from cardlab.poker.rules import Category, Rules, SHORT_DECK, STANDARD, rules_named

#: Imported on first use (the table is :data:`cardlab._lazy.EXPORTS`), so importing the package
#: (and ``cardlab --help``) does not load numpy and the engines.
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS[__name__], globals())

__all__ = [
    "Comparison",
    "HandValue",
    "compare",
    "hand_value",
    "game_named",
    "parse_players",
    "EquityResult",
    "PlayerEquity",
    "evaluate",
    "hand_array",
    "parse_hand",
    "strengths",
    "PokerCategory",
    "category_counts",
    "category_odds",
    "poker_odds",
    "RankedHands",
    "rank_hands",
    "Range",
    "parse_range",
    "SHORT_DECK",
    "STANDARD",
    "Category",
    "Rules",
    "rules_named",
]
