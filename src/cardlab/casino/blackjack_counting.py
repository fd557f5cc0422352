"""Card counting systems judged from the effects of removal: betting correlation and insurance
correlation (Griffin's measures, *The Theory of Blackjack*).

A count gives each rank a tag (A, 2, ..., 9, T). Its **betting correlation** is the correlation,
over the thirteen ranks of a deck (the ten-valued rank four times), between the tags and the
effects of removal of the game (:func:`cardlab.casino.blackjack.effects_of_removal`): how well
the count tracks the player's expectation. Its **insurance correlation** is the correlation with
the insurance bet's own effects, which are -9 for a ten and +4 for any other card (a ten out
hurts insurance by the same amount as 9/4 of another card helps it).

>>> HI_LO
(-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
>>> round(insurance_correlation(HI_LO), 2)
0.76
>>> insurance_correlation((0,) * 10)
Traceback (most recent call last):
...
cardlab.errors.BlackjackError: a count needs tags that are not all equal, got '0,0,0,0,0,0,0,0,0,0'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import isfinite, sqrt

from cardlab.casino.blackjack_rules import RANKS
from cardlab.errors import BlackjackError

__all__ = ["HI_LO", "betting_correlation", "insurance_correlation", "correlation"]

HI_LO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
"""Hi-Lo's tags, A, 2, ..., 9, T."""
_WEIGHTS = (1,) * 9 + (4,)
_INSURANCE = (4,) * 9 + (-9,)


def correlation(tags: Sequence[float], values: Sequence[float], weights: Sequence[int] = _WEIGHTS) -> float:
    """The correlation of two per-rank vectors (A..T) over the cards of a shoe holding
    ``weights`` of each rank (default: the thirteen ranks of a deck)."""
    for name, vector in (("count", tags), ("effects", values)):
        if len(vector) != 10 or not all(isinstance(v, (int, float)) and isfinite(v) for v in vector):
            raise BlackjackError(f"a {name} is ten finite numbers (A,2,...,9,T), got '{','.join(map(str, vector))}'")
    size = sum(weights)
    mx = sum(w * x for w, x in zip(weights, tags)) / size
    my = sum(w * y for w, y in zip(weights, values)) / size
    sxy = sum(w * (x - mx) * (y - my) for w, x, y in zip(weights, tags, values))
    sxx = sum(w * (x - mx) ** 2 for w, x in zip(weights, tags))
    syy = sum(w * (y - my) ** 2 for w, y in zip(weights, values))
    if sxx == 0:
        raise BlackjackError(f"a count needs tags that are not all equal, got '{','.join(map(str, tags))}'")
    if syy == 0:
        raise BlackjackError("the effects of removal are all equal: nothing to correlate with")
    return sxy / sqrt(sxx * syy)


def betting_correlation(tags: Sequence[float], effects: Mapping[str, float]) -> float:
    """How well a count's ``tags`` (A..T) follow the ``effects`` of removal (rank -> effect,
    as :func:`cardlab.casino.blackjack.effects_of_removal` gives them)."""
    missing = [r for r in RANKS if r not in effects]
    if missing:
        raise BlackjackError(f"the effects of removal lack rank '{missing[0]}'")
    return correlation(tags, [effects[r] for r in RANKS])


def insurance_correlation(tags: Sequence[float]) -> float:
    """How well a count's ``tags`` (A..T) follow the insurance bet's effects of removal."""
    return correlation(tags, _INSURANCE)
