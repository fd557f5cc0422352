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

from cardlab._lazy import lazy_exports

if TYPE_CHECKING:
    from cardlab.dealing import Reels
    from cardlab.poker.comparison import Comparison, HandValue, compare, hand_value
    from cardlab.poker.equity_result import EquityResult
    from cardlab.poker.evaluator import evaluate, hand_array, parse_hand, strengths
    from cardlab.poker.odds import PokerCategory, category_counts, category_odds
    from cardlab.poker.ranking import RankedHands, rank_hands
    from cardlab.poker.ranges import Range, parse_range
    from cardlab.poker.rules import SHORT_DECK, STANDARD, Category, Rules, rules_named

#: Imported on first use: ``cardlab poker rank`` loads the ranking, not the odds and equity engines.
__getattr__, __dir__ = lazy_exports(__name__, {
    "Reels": "cardlab.dealing",
    "Comparison": "cardlab.poker.comparison",
    "HandValue": "cardlab.poker.comparison",
    "compare": "cardlab.poker.comparison",
    "hand_value": "cardlab.poker.comparison",
    "EquityResult": "cardlab.poker.equity_result",
    "evaluate": "cardlab.poker.evaluator",
    "hand_array": "cardlab.poker.evaluator",
    "parse_hand": "cardlab.poker.evaluator",
    "strengths": "cardlab.poker.evaluator",
    "PokerCategory": "cardlab.poker.odds",
    "category_counts": "cardlab.poker.odds",
    "category_odds": "cardlab.poker.odds",
    "RankedHands": "cardlab.poker.ranking",
    "rank_hands": "cardlab.poker.ranking",
    "Range": "cardlab.poker.ranges",
    "parse_range": "cardlab.poker.ranges",
    "SHORT_DECK": "cardlab.poker.rules",
    "STANDARD": "cardlab.poker.rules",
    "Category": "cardlab.poker.rules",
    "Rules": "cardlab.poker.rules",
    "rules_named": "cardlab.poker.rules",
}, globals())

__all__ = [
    "Category",
    "Rules",
    "STANDARD",
    "SHORT_DECK",
    "rules_named",
    "evaluate",
    "strengths",
    "hand_array",
    "parse_hand",
    "HandValue",
    "Comparison",
    "hand_value",
    "compare",
    "RankedHands",
    "rank_hands",
    "PokerCategory",
    "category_odds",
    "category_counts",
    "Reels",
    "EquityResult",
    "Range",
    "parse_range",
]
