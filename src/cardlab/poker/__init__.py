"""Poker hands: vectorised evaluation, rules, comparison in words, exact and simulated odds.

>>> from cardlab.poker import hand_value
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

from cardlab.dealing import Reels
from cardlab.poker.comparison import Comparison, HandValue, compare, hand_value
from cardlab.poker.equity_result import EquityResult
from cardlab.poker.evaluator import evaluate, hand_array, parse_hand, strengths
from cardlab.poker.odds import PokerCategory, category_counts, category_odds
from cardlab.poker.ranking import RankedHands, rank_hands
from cardlab.poker.ranges import Range, parse_range
from cardlab.poker.rules import SHORT_DECK, STANDARD, Category, Rules, rules_named

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
