"""Casino War exactly, from any shoe: the first two cards, and on a tie the war or the surrender.

The player and the dealer get one card each; the higher rank wins even money. On a tie the player
surrenders half the bet or goes to war: raises one bet, the dealer burns three cards and deals one
to each; the player's card equal or higher wins even money on the raise (the first bet pushes),
a tie after the tie also wins ``war_bonus`` on the first bet, a lower card loses both. The burnt
cards are unseen, so by exchangeability the war cards are two random cards of the shoe less the
first two: every ordered deal of four cards counts each coup (the simulation burns three real
cards, which checks that). The tie bet pays ``tie_pays`` when the first two cards tie.

>>> from cardlab.casino.game import load_game
>>> bets, rules, _ = analyse_war(load_game("casino-war"), "fold")
>>> [(b.name, f"{b.house_edge:.4%}") for b in bets], rules
([('Casino War', '2.8771%'), ('Tie', '18.6495%')], ['on a tie, go to war (with any rank)'])
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

import numpy as np

from cardlab.casino.game import Game
from cardlab.casino.result import BetAnalysis, OutcomeRow, sd_of

__all__ = ["analyse_war"]


def analyse_war(game: Game, ties: str) -> tuple[list[BetAnalysis], list[str], Callable[[np.ndarray], list[np.ndarray]]]:
    """Each bet's exact analysis, the rule, and the player of dealt rounds (seven cards: the two
    first cards, three burnt, the two war cards)."""
    counts = np.array(game.deck.counts, dtype=np.int64).reshape(13, 4).sum(axis=1)
    n = int(counts.sum())
    pays = dict(game.pays)
    bonus, tie_pays = pays["war bonus"], pays["Tie"]
    pairs = np.outer(counts, counts) - np.diag(counts)  # ordered first two cards by rank
    rest = (n - 2) * (n - 3)
    higher = int(np.triu(pairs, 1).sum())  # dealer rank above the player's
    won, lost = int(np.tril(pairs, -1).sum()) * rest, higher * rest
    war_rows = {"war won": 0, "war tied (bonus)": 0, "war lost": 0}
    surrendered = 0
    go: list[bool] = []
    for r in range(13):
        if pairs[r, r] == 0:
            go.append(True)
            continue
        left = counts.copy()
        left[r] -= 2
        second = np.outer(left, left) - np.diag(left)
        up, down, even = int(np.tril(second, -1).sum()), int(np.triu(second, 1).sum()), int(np.trace(second))
        war = up * 1 + even * (1 + bonus) - down * 2
        surrender = Fraction(-1, 2) * rest
        better = war > surrender or (war == surrender and ties == "bet")
        go.append(bool(better))
        if better:
            for key, value in (("war won", up), ("war tied (bonus)", even), ("war lost", down)):
                war_rows[key] += int(pairs[r, r]) * value
        else:
            surrendered += int(pairs[r, r]) * rest
    total = n * (n - 1) * rest
    rows = [("player's card higher", won, Fraction(1)), ("dealer's card higher", lost, Fraction(-1)),
            ("war won", war_rows["war won"], Fraction(1)),
            ("war tied (bonus)", war_rows["war tied (bonus)"], 1 + bonus),
            ("war lost", war_rows["war lost"], Fraction(-2)), ("surrender", surrendered, Fraction(-1, 2))]
    expected = sum((net * c for _, c, net in rows), Fraction(0)) / total
    war_deals = sum(war_rows.values())
    average = 1 + Fraction(war_deals, total)
    main = BetAnalysis(game.name, expected, average, sd_of([(net, c) for _, c, net in rows]), total,
                       tuple(OutcomeRow(label, c, net) for label, c, net in rows))
    tie = int(np.trace(pairs)) * rest
    tie_rows = [("tie", tie, tie_pays), ("no tie", total - tie, Fraction(-1))]
    tie_bet = BetAnalysis("Tie", sum((net * c for _, c, net in tie_rows), Fraction(0)) / total, Fraction(1),
                          sd_of([(net, c) for _, c, net in tie_rows]), total,
                          tuple(OutcomeRow(label, c, net) for label, c, net in tie_rows))
    ranks_present = [r for r in range(13) if pairs[r, r]]
    if all(go[r] for r in ranks_present):
        rules = ["on a tie, go to war (with any rank)"]
    elif not any(go[r] for r in ranks_present):
        rules = ["on a tie, surrender (with any rank)"]
    else:
        from cardlab.cards import RANKS

        rules = [f"on a tie, go to war with {', '.join(RANKS[r] for r in ranks_present if go[r])}; surrender "
                 f"with {', '.join(RANKS[r] for r in ranks_present if not go[r])}"]
    shoe = np.repeat(np.arange(13), counts)
    decide = np.array(go)

    def play(positions: np.ndarray) -> list[np.ndarray]:
        ranks = shoe[positions]
        p, d, p2, d2 = ranks[:, 0], ranks[:, 1], ranks[:, 5], ranks[:, 6]
        war = np.where(p2 > d2, 1.0, np.where(p2 == d2, 1.0 + float(bonus), -2.0))
        at_tie = np.where(decide[p], war, -0.5)
        main_net = np.where(p > d, 1.0, np.where(p < d, -1.0, at_tie))
        return [main_net, np.where(p == d, float(tie_pays), -1.0)]

    return [main, tie_bet], rules, play
