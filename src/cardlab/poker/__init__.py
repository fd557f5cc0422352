"""Poker hands: vectorised evaluation, rules, comparison in words, exact and simulated odds.

>>> from cardlab.poker import hand_value
>>> hand_value("Ah Kh Qh Jh Th").category.key
'royal_flush'
>>> hand_value("Ah Kh Qh Jh")
Traceback (most recent call last):
...
cardlab.errors.HandError: a hand has 5, 6 or 7 cards; 'Ah Kh Qh Jh' has 4

The functions ``evaluate`` and ``compare`` are not re-exported here: they share their
modules' names. Import them from :mod:`cardlab.poker.evaluate` and :mod:`cardlab.poker.compare`.
"""

from __future__ import annotations

from cardlab.poker.compare import Comparison, HandValue, hand_value
from cardlab.poker.evaluate import hand_array, parse_hand, strengths
from cardlab.poker.odds import PokerCategory, category_counts
from cardlab.poker.reels import Reels
from cardlab.poker.rules import SHORT_DECK, STANDARD, Category, Rules, rules_named

__all__ = [
    "Category",
    "Rules",
    "STANDARD",
    "SHORT_DECK",
    "rules_named",
    "strengths",
    "hand_array",
    "parse_hand",
    "HandValue",
    "Comparison",
    "hand_value",
    "PokerCategory",
    "category_counts",
    "Reels",
]
