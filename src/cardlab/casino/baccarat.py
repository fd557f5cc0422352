"""Baccarat (punto banco) exactly, from any shoe: every ordered deal of the cards a coup uses.

The compiled core walks the ranks of the first four cards, then the third cards the tableau
draws (the player on 0-5; the banker by its total and the player's third card), weighting each
coup by the orderings of the shoe's cards and the cards it leaves, so every coup of an 8-deck
shoe is one of 416 x 415 x ... x 411 ordered deals: exact fractions for Player, Banker, Tie and
the pair bets, from a full shoe or after any cards seen (``remove``). The same walk tallied by
final totals and third cards (:func:`coup_table`) pays the side bets on margins and three-card
totals: the Dragon Bonus on either side, EZ Baccarat's Dragon 7 and Panda 8 (and its Banker bet
pushing a three-card 7); Either Pair from the pairs, Perfect Pair (one suit) in closed form.

>>> from cardlab.casino.game import load_game
>>> bets, _ = analyse_baccarat(load_game("baccarat"))
>>> for bet in bets:
...     print(f"{bet.name}: {bet.house_edge:.4%}")
Player: 1.2351%
Banker: 1.0579%
Tie: 14.3596%
Player Pair: 10.3614%
Banker Pair: 10.3614%
Dragon Bonus Player: 2.6517%
Dragon Bonus Banker: 9.3731%
Dragon 7: 7.6113%
Panda 8: 10.1876%
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

import numpy as np

from cardlab.casino.game import Game
from cardlab.casino.result import BetAnalysis, OutcomeRow, sd_of

__all__ = ["coups", "coup_table", "analyse_baccarat", "play_coups", "DRAGON_MARGINS"]

#: The margins of a non-natural win the Dragon Bonus pays, best first (its pay table's order).
DRAGON_MARGINS = (9, 8, 7, 6, 5, 4)


def _checked(counts: np.ndarray) -> np.ndarray:
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    if counts.shape != (13,) or counts.min() < 0 or counts.max() > 32 or counts.sum() < 6:
        raise ValueError("a baccarat shoe is 0..32 cards of each of the 13 ranks, at least 6 in all")
    return counts


def coups(counts: np.ndarray) -> np.ndarray:
    """The ordered deals of a shoe (cards per rank, 2..A) by result (player wins, banker wins,
    tie), player pair and banker pair: int64[3, 2, 2]."""
    from cardlab._native import core as _core

    out = np.zeros(12, dtype=np.int64)
    _core.casino_baccarat(_checked(counts), out)
    return out.reshape(3, 2, 2)


def coup_table(counts: np.ndarray) -> np.ndarray:
    """The ordered deals of a shoe (cards per rank, 2..A) by the player's and the banker's final
    totals, whether each drew a third card, and the player and banker pairs:
    int64[10, 10, 2, 2, 2, 2].

    >>> table = coup_table(np.full(13, 4))
    >>> int(table.sum()) == 52 * 51 * 50 * 49 * 48 * 47, int(table[9, 8, 0, 0].sum()) > 0
    (True, True)
    """
    from cardlab._native import core as _core

    out = np.zeros(1600, dtype=np.int64)
    _core.casino_baccarat_coups(_checked(counts), out)
    return out.reshape(10, 10, 2, 2, 2, 2)


def _bet(name: str, total: int, rows: list[tuple[str, int, Fraction]]) -> BetAnalysis:
    expected = sum((net * n for _, n, net in rows), Fraction(0)) / total
    return BetAnalysis(name, expected, Fraction(1), sd_of([(net, n) for _, n, net in rows]), total,
                       tuple(OutcomeRow(label, n, net) for label, n, net in rows))


def _hit(name: str, total: int, label: str, hit: int, pays: Fraction, miss: str = "") -> BetAnalysis:
    return _bet(name, total, [(label, hit, pays), (miss or f"no {label}", total - hit, Fraction(-1))])


def _dragon(side: str, table: np.ndarray, pays: dict[str, Fraction], total: int) -> BetAnalysis:
    """The Dragon Bonus on the ``side`` ("Player" or "Banker") from :func:`coup_table`."""
    t = table.sum(axis=(4, 5))  # [own total, other total, own drew, other drew]
    if side == "Banker":
        t = t.transpose(1, 0, 3, 2)
    # two cards of 8 or 9 are a natural (no one draws then)
    rows = [("natural win", sum(int(t[a, :a, 0, 0].sum()) for a in (8, 9)), pays["Dragon Bonus natural"]),
            ("natural tie (push)", sum(int(t[a, a, 0, 0]) for a in (8, 9)), Fraction(0))]
    for margin in DRAGON_MARGINS:
        hit = sum(int(t[a, a - margin].sum()) - (int(t[a, a - margin, 0].sum()) if a >= 8 else 0)
                  for a in range(margin, 10))
        rows.append((f"win by {margin}", hit, pays[f"Dragon Bonus by {margin}"]))
    rows.append(("other (loses)", total - sum(n for _, n, _ in rows), Fraction(-1)))
    return _bet(f"Dragon Bonus {side}", total, rows)


def _three_card_wins(t: np.ndarray, side: str, value: int) -> int:
    """The coups the ``side`` wins with three cards totalling ``value`` (``t``: the totals table
    by [player total, banker total, player drew, banker drew])."""
    if side == "Banker":
        t = t.transpose(1, 0, 3, 2)
    return int(t[value, :value, 1].sum())


def _perfect_pairs(cards: list[int], n: int) -> tuple[int, int]:
    """The ordered deals of the first four cards of a shoe (card ids ``cards``, ``n`` of them)
    with a suited pair (one card twice) on exactly one side, and on both."""
    m = np.bincount(np.array(cards, dtype=np.int64), minlength=52).astype(object)
    twice = m * (m - 1)
    one = int(twice.sum())  # a side's two cards alike, times the other side's two cards below
    both = one * one - int((twice * twice).sum()) + int((twice * (m - 2) * (m - 3)).sum())
    return 2 * (one * (n - 2) * (n - 3) - both), both


def analyse_baccarat(game: Game) -> tuple[list[BetAnalysis], Callable[[np.ndarray], list[np.ndarray]]]:
    """Each bet's exact analysis, and the player of dealt coups for the simulation."""
    counts = np.array(game.deck.counts, dtype=np.int64).reshape(13, 4).sum(axis=1)
    table = coup_table(counts)
    total = int(table.sum())
    t = table.sum(axis=(4, 5))
    totals = t.sum(axis=(2, 3))
    player, banker = int(np.tril(totals, -1).sum()), int(np.triu(totals, 1).sum())
    tie = total - player - banker
    pays = dict(game.pays)
    seven = _three_card_wins(t, "Banker", 7) if "Banker three-card 7" in pays else 0
    bets = [_bet("Player", total, [("player wins", player, pays["Player"]), ("banker wins", banker, Fraction(-1)),
                                   ("tie (push)", tie, Fraction(0))])]
    banker_rows = [("banker wins", banker - seven, pays["Banker"])]
    if seven:
        banker_rows.append(("banker wins with a three-card 7", seven, pays["Banker three-card 7"]))
    bets.append(_bet("Banker", total, banker_rows + [("player wins", player, Fraction(-1)),
                                                     ("tie (push)", tie, Fraction(0))]))
    bets.append(_hit("Tie", total, "tie", tie, pays["Tie"]))
    pairs = table.sum(axis=(0, 1, 2, 3))  # [player pair, banker pair]
    for name, hit in (("Player Pair", int(pairs[1].sum())), ("Banker Pair", int(pairs[:, 1].sum())),
                      ("Either Pair", total - int(pairs[0, 0]))):
        if name in pays:
            bets.append(_hit(name, total, "pair", hit, pays[name]))
    if "Perfect Pair" in pays:
        n = game.deck.size
        one, both = (k * (n - 4) * (n - 5) for k in _perfect_pairs(game.cards, n))
        bets.append(_bet("Perfect Pair", total, [("perfect pairs on both sides", both, pays["Perfect Pair both"]),
                                                 ("a perfect pair", one, pays["Perfect Pair"]),
                                                 ("no perfect pair", total - one - both, Fraction(-1))]))
    if "Dragon Bonus natural" in pays:
        bets += [_dragon(side, table, pays, total) for side in ("Player", "Banker")]
    if "Dragon 7" in pays:
        bets.append(_hit("Dragon 7", total, "banker wins with a three-card 7",
                         _three_card_wins(t, "Banker", 7), pays["Dragon 7"], "anything else"))
    if "Panda 8" in pays:
        bets.append(_hit("Panda 8", total, "player wins with a three-card 8",
                         _three_card_wins(t, "Player", 8), pays["Panda 8"], "anything else"))
    cards = np.array(game.cards)
    return bets, lambda positions: play_coups(cards[positions], game)


def _value(ranks: np.ndarray) -> np.ndarray:
    return np.where(ranks == 12, 1, np.where(ranks >= 8, 0, ranks + 2))


def play_coups(cards: np.ndarray, game: Game) -> list[np.ndarray]:
    """The net result of each bet (in the order :func:`analyse_baccarat` gives them) for coups
    dealt as rows of six card ids (rank * 4 + suit) in shoe order (the third cards used as the
    tableau draws them)."""
    ranks = cards // 4
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
    banker_win = np.full(len(cards), pays["Banker"])
    if "Banker three-card 7" in pays:
        banker_win[banker_draws & (banker == 7)] = pays["Banker three-card 7"]
    out = [np.where(player > banker, pays["Player"], np.where(player < banker, -1.0, 0.0)),
           np.where(banker > player, banker_win, np.where(banker < player, -1.0, 0.0)),
           np.where(banker == player, pays["Tie"], -1.0)]
    pp, bp = ranks[:, 0] == ranks[:, 2], ranks[:, 1] == ranks[:, 3]
    for name, hit in (("Player Pair", pp), ("Banker Pair", bp), ("Either Pair", pp | bp)):
        if name in pays:
            out.append(np.where(hit, pays[name], -1.0))
    if "Perfect Pair" in pays:
        perfect = (cards[:, 0] == cards[:, 2]).astype(int) + (cards[:, 1] == cards[:, 3])
        out.append(np.choose(perfect, [-1.0, pays["Perfect Pair"], pays["Perfect Pair both"]]))
    if "Dragon Bonus natural" in pays:
        for own, other, drew in ((player, banker, player_draws), (banker, player, banker_draws)):
            won = np.full(len(cards), -1.0)
            for margin in DRAGON_MARGINS:
                won[own - other == margin] = pays[f"Dragon Bonus by {margin}"]
            own_natural = ~drew & (own >= 8)
            won[own_natural & (own > other)] = pays["Dragon Bonus natural"]
            won[own_natural & (own == other)] = 0.0
            out.append(won)
    if "Dragon 7" in pays:
        out.append(np.where(banker_draws & (banker == 7) & (player < 7), pays["Dragon 7"], -1.0))
    if "Panda 8" in pays:
        out.append(np.where(player_draws & (player == 8) & (banker < 8), pays["Panda 8"], -1.0))
    return out
