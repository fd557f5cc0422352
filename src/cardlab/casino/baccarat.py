"""Baccarat (punto banco) exactly, from any shoe: every ordered deal of the cards a coup uses.

The compiled core walks the ranks of the first four cards, then the third cards the tableau
draws (the player on 0-5; the banker by its total and the player's third card), weighting each
coup by the orderings of the shoe's cards and the cards it leaves, so every coup of an 8-deck
shoe is one of 416 x 415 x ... x 411 ordered deals: exact fractions for Player, Banker, Tie and
the pair bets, from a full shoe or after any cards seen (``remove``).

>>> from cardlab.casino.game import load_game
>>> bets, _ = analyse_baccarat(load_game("baccarat"))
>>> [(b.name, f"{b.house_edge:.4%}") for b in bets]
[('Player', '1.2351%'), ('Banker', '1.0579%'), ('Tie', '14.3596%'), ('Player Pair', '10.3614%'), ('Banker Pair', '10.3614%')]
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

import numpy as np

from cardlab.casino.game import Game
from cardlab.casino.result import BetAnalysis, OutcomeRow, sd_of

__all__ = ["coups", "analyse_baccarat", "play_coups"]


def coups(counts: np.ndarray) -> np.ndarray:
    """The ordered deals of a shoe (cards per rank, 2..A) by result (player wins, banker wins,
    tie), player pair and banker pair: int64[3, 2, 2]."""
    from cardlab._native import core as _core

    counts = np.ascontiguousarray(counts, dtype=np.int64)
    if counts.shape != (13,) or counts.min() < 0 or counts.max() > 32 or counts.sum() < 6:
        raise ValueError("a baccarat shoe is 0..32 cards of each of the 13 ranks, at least 6 in all")
    out = np.zeros(12, dtype=np.int64)
    _core.casino_baccarat(counts, out)
    return out.reshape(3, 2, 2)


def _bet(name: str, total: int, rows: list[tuple[str, int, Fraction]]) -> BetAnalysis:
    expected = sum((net * n for _, n, net in rows), Fraction(0)) / total
    return BetAnalysis(name, expected, Fraction(1), sd_of([(net, n) for _, n, net in rows]), total,
                       tuple(OutcomeRow(label, n, net) for label, n, net in rows))


def analyse_baccarat(game: Game) -> tuple[list[BetAnalysis], Callable[[np.ndarray], list[np.ndarray]]]:
    """Each bet's exact analysis, and the player of dealt coups for the simulation."""
    counts = np.array(game.deck.counts, dtype=np.int64).reshape(13, 4).sum(axis=1)
    table = coups(counts)
    total = int(table.sum())
    player, banker, tie = (int(table[i].sum()) for i in range(3))
    pays = dict(game.pays)
    bets = []
    for name, win, lose in (("Player", player, banker), ("Banker", banker, player)):
        bets.append(_bet(name, total, [(f"{name.lower()} wins", win, pays[name]),
                                       (f"{'banker' if name == 'Player' else 'player'} wins", lose, Fraction(-1)),
                                       ("tie (push)", tie, Fraction(0))]))
    bets.append(_bet("Tie", total, [("tie", tie, pays["Tie"]), ("no tie", total - tie, Fraction(-1))]))
    for name, axis in (("Player Pair", 1), ("Banker Pair", 2)):
        if name in pays:
            hit = int(table.sum(axis=tuple(a for a in (0, 1, 2) if a != axis))[1])
            bets.append(_bet(name, total, [("pair", hit, pays[name]), ("no pair", total - hit, Fraction(-1))]))
    shoe = np.repeat(np.arange(13), counts)
    return bets, lambda positions: play_coups(shoe[positions], game)


def _value(ranks: np.ndarray) -> np.ndarray:
    return np.where(ranks == 12, 1, np.where(ranks >= 8, 0, ranks + 2))


def play_coups(ranks: np.ndarray, game: Game) -> list[np.ndarray]:
    """The net result of each bet (in the order :func:`analyse_baccarat` gives them) for coups
    dealt as rows of six ranks in shoe order (the third cards used as the tableau draws them)."""
    v = _value(ranks)
    pt, bt = (v[:, 0] + v[:, 2]) % 10, (v[:, 1] + v[:, 3]) % 10
    natural = (pt >= 8) | (bt >= 8)
    player_draws = ~natural & (pt <= 5)
    x = v[:, 4]
    rule = ((bt <= 2) | ((bt == 3) & (x != 8)) | ((bt == 4) & (x >= 2) & (x <= 7))
            | ((bt == 5) & (x >= 4) & (x <= 7)) | ((bt == 6) & ((x == 6) | (x == 7))))
    banker_draws = ~natural & np.where(player_draws, rule, bt <= 5)
    player = np.where(player_draws, (pt + x) % 10, pt)
    banker = np.where(banker_draws, (bt + np.where(player_draws, v[:, 5], v[:, 4])) % 10, bt)
    pays = {name: float(p) for name, p in game.pays}
    out = [np.where(player > banker, pays["Player"], np.where(player < banker, -1.0, 0.0)),
           np.where(banker > player, pays["Banker"], np.where(banker < player, -1.0, 0.0)),
           np.where(banker == player, pays["Tie"], -1.0)]
    for name, first, second in (("Player Pair", 0, 2), ("Banker Pair", 1, 3)):
        if name in pays:
            out.append(np.where(ranks[:, first] == ranks[:, second], pays[name], -1.0))
    return out
