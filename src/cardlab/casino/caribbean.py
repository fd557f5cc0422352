"""Caribbean Stud, exactly: five cards each, the dealer shows one; fold, or raise and meet the dealer.

``game = "caribbean-stud"`` (docs/casino.md): after an ante the player sees five cards and the
dealer's up card, and folds (losing the ante) or raises ``raise`` antes. The dealer qualifies
with ``qualifier`` or better (five-card poker ranking); when not, the ante pays
``no_qualify_pays`` and the raise pushes; when the dealer qualifies the better hand wins: the
ante even money and the raise by ``[raise_pays]`` (the player's hand category), a tie pushes.

How it is counted. Every five-card hand of the deck is ranked once (cardlab's evaluator). The
player's hands are folded by suit symmetry (134,459 classes of 2,598,960), and each class is
met with each of the 47 up cards; a suit swap takes the up card to one suit, so the compiled
core (csrc/casino_stud.c) lists the dealer hands holding each of 13 up cards once, tallied
under every subset of their other four cards, and counts the dealer's hidden cards that miss
the player's five by inclusion-exclusion over the player's cards (31 look-ups per threshold).
The player raises when the exact expected result beats folding's -1.

>>> from cardlab.casino.game import load_game
>>> bet, rules, play, pairs = analyse_caribbean(load_game("caribbean-stud"))  # doctest: +SKIP
>>> f"{bet.house_edge:.4%}", rules[0]  # doctest: +SKIP
('5.2243%', 'raise with A-K-Q-J-2 or better, whatever the up card')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm
from typing import Callable

import numpy as np

from cardlab.cards import RANKS
from cardlab.casino import kernel
from cardlab.casino.table_rules import CATEGORIES, SHIFT
from cardlab.casino.game import Game, checked_game
from cardlab.casino.result import BetAnalysis, OutcomeRow, sd_of
from cardlab.casino.simulation import colex, positions_of

__all__ = ["FiveCardTable", "five_card_table", "StudPairs", "stud_pairs", "analyse_caribbean", "stud_words"]

_PLURAL = ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
           "kings", "aces"]

@dataclass(frozen=True)
class FiveCardTable:
    """Every five-card hand of a deck (colex order of positions): its ``rank`` among the deck's
    distinct strengths (0 the weakest), ``category`` (:data:`CATEGORIES` index) and the sorted
    distinct ``strengths``."""

    rank: np.ndarray
    category: np.ndarray
    strengths: np.ndarray

    def rank_of(self, strength: int) -> int:
        """The rank of the least hand at least as strong as ``strength``."""
        return int(np.searchsorted(self.strengths, strength))


_CHUNK = 1 << 19


def five_card_table(cards: list[int]) -> FiveCardTable:
    """The :class:`FiveCardTable` of a deck (card ids by position)."""
    from cardlab.poker.evaluator import evaluate

    deck = np.array(cards, dtype=np.uint8)
    total = comb(len(cards), 5)
    strength = np.empty(total, dtype=np.uint32)
    for start in range(0, total, _CHUNK):
        hands = deck[positions_of(np.arange(start, min(total, start + _CHUNK)), 5)]
        strength[start:start + len(hands)] = evaluate(hands)[1]
    distinct, rank = np.unique(strength, return_inverse=True)
    category = (strength >> SHIFT).astype(np.uint8)
    return FiveCardTable(rank.astype(np.uint16), category, distinct)


def _suit_masks(cards: np.ndarray) -> np.ndarray:
    """The 13-bit rank mask of each suit (columns 0..3) of each hand (rows of card ids)."""
    masks = np.zeros((len(cards), 4), dtype=np.int64)
    rows = np.arange(len(cards))
    for j in range(cards.shape[1]):
        masks[rows, cards[:, j] & 3] |= np.int64(1) << (cards[:, j] >> 2).astype(np.int64)
    return masks


def _sorted_key(masks: np.ndarray) -> np.ndarray:
    """One integer per row naming its masks up to order (13 bits each)."""
    ordered = np.sort(masks, axis=1)
    key = np.zeros(len(masks), dtype=np.int64)
    for j in range(masks.shape[1]):
        key = key << 13 | ordered[:, j]
    return key


@dataclass(frozen=True)
class StudPairs:
    """Every (player hand, up card) the analysis met: the player's hand ``strength`` rank and
    ``category``, the up card's rank and whether it ``matches`` a rank of the player's, the deals
    each stands for (``weight``: the class size), the dealer's hidden cards by outcome
    (``counts``: does not qualify, player wins, tie, dealer wins), and the pair as counted
    (``mapped`` player cards and ``anchor`` up card: with suit symmetry, the up card's suit swapped
    to suit 0)."""

    n: int
    table: FiveCardTable
    qualify: int
    player: np.ndarray
    category: np.ndarray
    high: np.ndarray
    up_rank: np.ndarray
    matches: np.ndarray
    weight: np.ndarray
    counts: np.ndarray
    mapped: np.ndarray
    anchor: np.ndarray
    symmetric: bool
    cards: tuple[int, ...]

    @property
    def deals(self) -> int:
        """The deals counted: player hands x up cards x the dealer's hidden cards."""
        return comb(self.n, 5) * (self.n - 5) * comb(self.n - 6, 4)

    def key(self, player_cards: np.ndarray | None = None, up_card: np.ndarray | None = None) -> np.ndarray:
        """A number naming each (player hand, up card) up to suit symmetry: of the pairs counted,
        or of those given as card ids (rows of five, and one up card each)."""
        if player_cards is None or up_card is None:
            player_cards, up_card = self.mapped.astype(np.int64), self.anchor
        if not self.symmetric:
            position = np.full(52, 0, dtype=np.int64)
            position[list(self.cards)] = np.arange(self.n)
            out: np.ndarray = colex(position[player_cards]) * 64 + position[up_card]
            return out
        return _pair_key(player_cards, up_card)

    def result(self, raises: np.ndarray, pays: tuple[Fraction, ...], raise_bets: int,
               no_qualify: Fraction) -> Fraction:
        """The exact expected result per ante when the pairs with ``raises`` raise."""
        total = Fraction(0)
        events = self.counts * self.weight[:, None]
        total -= int(events[~raises].sum())
        on = events[raises]
        total += no_qualify * int(on[:, 0].sum()) - (1 + raise_bets) * int(on[:, 3].sum())
        for c, pay in enumerate(pays):
            total += (1 + raise_bets * pay) * int(on[self.category[raises] == c, 1].sum())
        return total / self.deals


def _pair_key(player_cards: np.ndarray, up_card: np.ndarray) -> np.ndarray:
    """The pair's key with the up card's suit swapped to suit 0: its rank, suit 0's mask, then
    the other three suits' masks up to order."""
    suit = (up_card & 3)[:, None]
    card_suit = player_cards & 3
    swapped = np.where(card_suit == suit, 0, np.where(card_suit == 0, suit, card_suit))
    masks = _suit_masks((player_cards & ~3) | swapped)
    key: np.ndarray = ((up_card >> 2).astype(np.int64) << 52) | masks[:, 0] << 39 | _sorted_key(masks[:, 1:])
    return key


def stud_pairs(game: Game) -> StudPairs:
    """Count every (player hand, up card) of a Caribbean Stud game (see the module docstring)."""
    cards = checked_game(game, "caribbean-stud").cards
    n = len(cards)
    table = five_card_table(cards)
    qualify = table.rank_of(game.qualifier)
    deck = np.array(cards, dtype=np.int64)
    position = np.full(52, -1, dtype=np.int64)
    position[deck] = np.arange(n)
    symmetric = kernel.suit_symmetric(cards)
    if symmetric:
        keys = np.concatenate([_sorted_key(_suit_masks(deck[positions_of(np.arange(s, min(s + _CHUNK, comb(n, 5))), 5)]))
                               for s in range(0, comb(n, 5), _CHUNK)])
        _, reps, weights = np.unique(keys, return_index=True, return_counts=True)
    else:
        reps = np.arange(comb(n, 5))
        weights = np.ones(len(reps), dtype=np.int64)
    rep_positions = positions_of(reps, 5)
    rep_cards = deck[rep_positions]
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("rep", "up", "counts", "mapped")}
    anchors = sorted({c & ~3 for c in cards}) if symmetric else cards
    for anchor in anchors:
        group = []
        for up in ([anchor | s for s in range(4)] if symmetric else [anchor]):
            keep = ~(rep_cards == up).any(axis=1)
            mine = rep_cards[keep]
            if symmetric:  # swap the up card's suit with suit 0, the anchor's
                suit = mine & 3
                mine = (mine & ~3) | np.where(suit == (up & 3), 0, np.where(suit == 0, up & 3, suit))
            group.append(mine)
            parts["rep"].append(np.flatnonzero(keep))
            parts["up"].append(np.full(len(mine), up))
        mine = np.concatenate(group)
        parts["mapped"].append(mine)
        parts["counts"].append(kernel.stud_versus(n, table.rank, len(table.strengths), int(position[anchor]),
                                                  position[mine], qualify))
    rep = np.concatenate(parts["rep"])
    up_card = np.concatenate(parts["up"])
    mapped = np.concatenate(parts["mapped"])
    up_anchor = np.concatenate([np.full(len(m), a) for m, a in zip(parts["mapped"], anchors)])
    hand = rep_cards[rep]
    strength = table.rank[reps[rep]]
    return StudPairs(n, table, qualify, strength, table.category[reps[rep]], table.strengths[strength],
                     up_card >> 2, ((hand >> 2) == (up_card >> 2)[:, None]).any(axis=1),
                     weights[rep].astype(np.int64), np.concatenate(parts["counts"]), mapped.astype(np.uint8), up_anchor,
                     symmetric, tuple(cards))


def stud_words(strength: int) -> str:
    """A five-card strength in words: the ranks of a high-card hand, else its category.

    >>> stud_words(0xcb961), stud_words(0x1c0000 | 0xcba), stud_words(0x500000)
    ('A-K-J-8-3', 'a pair of aces', 'flush')
    """
    category, first = strength >> SHIFT, strength >> 16 & 15
    if category == 0:
        return "-".join(RANKS[strength >> 4 * (4 - i) & 15] for i in range(5))
    if category == 1:
        return f"a pair of {_PLURAL[first]}"
    return CATEGORIES[category]


def _threshold(high: np.ndarray, act: np.ndarray) -> tuple[str, int]:
    """"raise with X or better" for pairs of these strengths (the exceptions counted), and X."""
    if not act.any():
        return "fold", int(high.max()) + 1
    least = int(high[act].min())
    if act.all():
        return "raise", least
    wrong = int((~act & (high >= least)).sum())
    text = f"raise with {stud_words(least)} or better"
    return text + (f" (but {wrong:,} of those (hand class, up card) pairs fold)" if wrong else ""), least


def _rules(pairs: StudPairs, raises: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The strategy in words: the hands that always raise, always fold, and between them a
    threshold for each up card, matching one of the player's ranks or not; and the decisions
    of those words taken alone (their exceptions ignored)."""
    high = pairs.high
    lines = []
    top = high[~raises].max() + 1 if (~raises).any() else high.min()
    bottom = high[raises].min() if raises.any() else high.max() + 1
    if raises.any():
        lines.append(f"raise with {stud_words(int(high[high >= top].min()))} or better, whatever the up card"
                     if (high >= top).any() else "no hand raises whatever the up card")
        lines.append(f"fold below {stud_words(int(bottom))} whatever the up card" if (high < bottom).any()
                     else "no hand folds whatever the up card")
    else:
        lines.append("always fold")
    between = (high < top) & (high >= bottom)
    simple = high >= top
    for r in range(12, -1, -1):
        for match, words in ((True, "matching one of yours"), (False, "matching none")):
            group = between & (pairs.up_rank == r) & (pairs.matches == match)
            if group.any():
                text, least = _threshold(high[group], raises[group])
                lines.append(f"up card {RANKS[r]}, {words}: {text}")
                simple |= group & (high >= least)
    return lines, simple


def analyse_caribbean(game: Game, ties: str = "fold") -> tuple[BetAnalysis, list[str], Callable[[np.ndarray], list[np.ndarray]], StudPairs]:
    """The exact analysis of a Caribbean Stud game: the bet, the strategy in words, the
    simulation's play function (deals of ten positions: the player's five, then the dealer's with
    the up card first) and the counts behind them."""
    pairs = stud_pairs(checked_game(game, "caribbean-stud", ties))
    pays = [p for _, p in game.pays]
    scale = lcm(*(p.denominator for p in [*pays, game.no_qualify_pays]))
    rb = game.raise_bets
    win = np.array([int((1 + rb * p) * scale) for p in pays], dtype=np.int64)
    nq, lose = int(game.no_qualify_pays * scale), (1 + rb) * scale
    c = pairs.counts
    raise_sum = c[:, 0] * nq + c[:, 1] * win[pairs.category] - c[:, 3] * lose
    fold_sum = -c.sum(axis=1) * scale
    raises = raise_sum >= fold_sum if ties == "bet" else raise_sum > fold_sum
    events = c * pairs.weight[:, None]
    values: Counter[Fraction] = Counter()
    folded = int(events[~raises].sum())
    values[Fraction(-1)] += folded
    on = events[raises]
    rows = [OutcomeRow("fold", folded, Fraction(-1)),
            OutcomeRow("dealer does not qualify", int(on[:, 0].sum()), game.no_qualify_pays)]
    values[game.no_qualify_pays] += int(on[:, 0].sum())
    for k, name in enumerate(CATEGORIES):
        net = 1 + rb * pays[k]
        count = int(on[pairs.category[raises] == k, 1].sum())
        rows.append(OutcomeRow(f"player wins with {name}", count, net))
        values[net] += count
    rows += [OutcomeRow("tie", int(on[:, 2].sum()), Fraction(0)),
             OutcomeRow("dealer wins", int(on[:, 3].sum()), Fraction(-1 - rb))]
    values[Fraction(0)] += int(on[:, 2].sum())
    values[Fraction(-1 - rb)] += int(on[:, 3].sum())
    total = pairs.deals
    expected = sum((v * k for v, k in values.items()), Fraction(0)) / total
    average = 1 + Fraction(rb * int(events[raises].sum()), total)
    bet = BetAnalysis("Ante & Raise", expected, average, sd_of(list(values.items())), total, tuple(rows))
    lookup: list[np.ndarray] = []
    rank, category = pairs.table.rank, pairs.table.category
    net_win = np.array([float(1 + rb * p) for p in pays])
    no_qualify, qualify = float(game.no_qualify_pays), pairs.qualify
    deck = np.array(pairs.cards, dtype=np.int64)

    def play(positions: np.ndarray) -> list[np.ndarray]:
        mine, theirs = positions[:, :5], positions[:, 5:10]
        if not lookup:  # the sorted keys, made when the simulation first needs them
            order = np.argsort(pairs.key())
            lookup.extend([pairs.key()[order], raises[order]])
        keys, decide = lookup
        key = pairs.key(deck[mine], deck[positions[:, 5]])
        at = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
        if (keys[at] != key).any():
            raise AssertionError("a simulated deal's (hand, up card) is not among the counted pairs")
        p, d = colex(mine), colex(theirs)
        pr, dr = rank[p], rank[d]
        net = np.where(pr > dr, net_win[category[p]], np.where(pr == dr, 0.0, -1.0 - rb))
        return [np.where(decide[at], np.where(dr < qualify, no_qualify, net), -1.0)]

    rules, simple = _rules(pairs, raises)
    if (simple != raises).any():
        rule_edge = -float(pairs.result(simple, tuple(pays), rb, game.no_qualify_pays))
        rules.append(f"(these lines alone, their exceptions ignored: house edge {rule_edge:.4%}, against the "
                     f"optimal {bet.house_edge:.4%})")
    return bet, rules, play, pairs
