"""A rule in words measured on sampled deals: what the hold'em games' late decisions share.

Ultimate Texas Hold'em's river (:mod:`cardlab.casino.uth_river`) and Texas Hold'em Bonus's turn
(:mod:`cardlab.casino.thb_turn`) are decided inside the compiled walk for billions of (hand,
board) pairs, so a rule cannot be summed over all of them. Deals are drawn at random (seeded),
each reaching deal's decision is valued exactly, and the rule's loss against the exact choice is
averaged over every sampled deal (those not reaching the decision lose nothing), with its 95%
interval.

>>> gain = np.array([0.5, -0.25, 0.1])  # what acting gains over not acting, at three deals
>>> low, high = sampled_loss(gain, np.array([True, True, False]), 4)
>>> f"{(low + high) / 2:.4f}"
'0.0875'
"""

from __future__ import annotations

import numpy as np

from cardlab.engine import SeedLike
from cardlab.intervals import Z95, Interval

__all__ = ["sample_cards", "board_category", "hidden_pair", "dealer_outs", "unseen_cards", "sampled_loss", "percent_range"]


def sample_cards(cards: tuple[int, ...], deals: int, seed: SeedLike, k: int) -> np.ndarray:
    """``deals`` seeded deals of ``k`` distinct cards of the deck ``cards`` (rows of card ids: the
    hole cards first, then the board in order)."""
    rng = np.random.default_rng(seed)
    deck = np.array(cards, dtype=np.int64)
    out: np.ndarray = deck[np.argsort(rng.random((deals, len(deck))), axis=1)[:, :k]]
    return out


def board_category(board: np.ndarray) -> np.ndarray:
    """The hand category (0 high card ... 8 straight flush) of each row of board cards: the best
    five's for five cards or more, by the ranks' counts for fewer (pair, two pair, trips, quads)."""
    from cardlab.casino.table_rules import SHIFT
    from cardlab.poker.evaluator import strengths

    if board.shape[1] >= 5:
        out: np.ndarray = strengths(board.astype(np.uint8)) >> SHIFT
        return out
    counts = np.sort(np.stack([((board >> 2) == r).sum(axis=1) for r in range(13)], axis=1), axis=1)
    top, second = counts[:, -1], counts[:, -2]
    return np.select([top == 4, top == 3, (top == 2) & (second == 2), top == 2], [7, 3, 2, 1], 0)


def hidden_pair(cards: np.ndarray) -> np.ndarray:
    """Whether the hole cards (the first two of each row of card ids; the board after) make a pair
    or better: a pocket pair, a hole card pairing the board, or a better hand category than the
    board's own.

    >>> from cardlab.cards import parse_card_ids
    >>> hidden_pair(np.array([parse_card_ids("Ah 7c Kd 9s 7d 4c"), parse_card_ids("Ah 3c Kd Ks 9d 4c")]))
    array([ True, False])
    """
    from cardlab.casino.table_rules import SHIFT
    from cardlab.poker.evaluator import strengths

    ranks = cards >> 2
    pocket = ranks[:, 0] == ranks[:, 1]
    pairs = (ranks[:, :2, None] == ranks[:, None, 2:]).any(axis=(1, 2))
    better = (strengths(cards.astype(np.uint8)) >> SHIFT) > board_category(cards[:, 2:])
    out: np.ndarray = pocket | pairs | better
    return out


def dealer_outs(cards: np.ndarray, unseen: np.ndarray, mine: np.ndarray) -> np.ndarray:
    """For each row (hole cards, then the board), how many of its unseen cards (``unseen``, a row
    of card ids each) would beat the player's hand (``mine``, strengths) as a dealer's card with
    the board alone (the best five of the board and that card)."""
    from cardlab.poker.evaluator import strengths

    k = unseen.shape[1]
    board = np.concatenate([np.repeat(cards[:, 2:], k, axis=0), unseen.reshape(-1, 1)], axis=1)
    beats = strengths(board.astype(np.uint8)).reshape(-1, k) > mine[:, None]
    out: np.ndarray = beats.sum(axis=1)
    return out


def unseen_cards(cards: tuple[int, ...], dealt: np.ndarray) -> np.ndarray:
    """The cards of the deck ``cards`` not in each row of ``dealt`` (rows of the same length)."""
    deck = np.array(cards, dtype=np.int64)
    out: np.ndarray = np.array([deck[~np.isin(deck, row)] for row in dealt]).reshape(len(dealt), len(deck) - dealt.shape[1])
    return out


def sampled_loss(gain: np.ndarray, acts: np.ndarray, deals: int) -> Interval[float]:
    """A rule's loss per sampled deal against the exact choice, with its 95% interval: ``gain`` is
    what acting (betting, playing) gains over not acting at each deal reaching the decision,
    ``acts`` the rule's choice there, ``deals`` every deal sampled (the others lose nothing)."""
    every = np.zeros(deals)
    every[:len(gain)] = np.maximum(gain, 0.0) - np.where(acts, gain, 0.0)
    mean, error = float(every.mean()), float(every.std(ddof=1) / np.sqrt(deals))
    return Interval(mean - Z95 * error, mean + Z95 * error)


def percent_range(interval: Interval[float]) -> str:
    """An interval as its middle and ends in percent: ``0.1217% (95% 0.0989% to 0.1446%)``."""
    return f"{(interval.low + interval.high) / 2:.4%} (95% {interval.low:.4%} to {interval.high:.4%})"
