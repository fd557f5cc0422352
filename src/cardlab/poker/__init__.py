"""Poker hands: vectorised evaluation, rules, comparison in words, exact and simulated odds.

>>> from cardlab.poker import compare
>>> compare(["Ah Kh Qh Jh Th", "9s 9d 9h 9c 2d"]).winners
(0,)
"""

from __future__ import annotations

from cardlab.poker.compare import Comparison, HandValue, compare, hand_value
from cardlab.poker.evaluate import evaluate, hand_array, parse_hand, strengths
from cardlab.poker.odds import PokerCategory, category_counts
from cardlab.poker.reels import Reels
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
    "PokerCategory",
    "category_counts",
    "Reels",
]
