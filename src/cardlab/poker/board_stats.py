"""Board statistics: how a hold'em range hits a board (the Flopzilla question), exactly.

:func:`board_stats` takes a range (classic or generic syntax) and a board of 3, 4 or 5 cards and
counts, over every combo of the range that shares no card with the board (or the dead cards),
the combos in each class with their share of the range (weights count: a combo of weight 0.5 is
half a combo in the shares; ``combos`` counts combos). The classes, as the tests define them:

- made hands, one each (the best five of hole cards and board), exclusive as Flopzilla counts
  them: ``straight flush`` (royal included), ``four of a kind``, ``full house``, ``flush``,
  ``straight``, ``three of a kind``, ``two pair``, ``one pair``, ``high card``: they add up to
  the range's combos;
- three of a kind, one each (they add up to ``three of a kind``): ``set`` (a pocket pair and a
  board card of its rank), ``trips`` (a hole card and a pair on the board), ``trips on the
  board`` (the hole cards play no part);
- one pair, one each (they add up to ``one pair``): ``overpair`` (a pocket pair above every
  board card), ``top pair`` / ``middle pair`` / ``bottom pair`` (the hole card that pairs a
  board rank pairs the highest / a middle / the lowest distinct board rank), ``underpair`` (a
  pocket pair below the top board card), ``board pair`` (the pair is the board's; the hole cards
  pair nothing);
- underpairs by the board cards above the pocket pair (they add up to ``underpair``):
  ``underpair, 1 overcard``, ``underpair, 2 overcards``, ``underpair, 3+ overcards``;
- draws, with cards to come (3 or 4 board cards), for hands not already that strong, not
  exclusive (a combo draw is also a flush draw): ``flush draw`` (four of a suit with at least one
  hole card, no flush), ``nut flush draw`` (the hole card of that suit is the highest rank of the
  suit not on the board), ``open-ended`` (four consecutive ranks open at both ends: the two ranks
  that complete the two straights beside them are both out, eight outs), ``double gutshot`` (two
  or more ranks complete a straight, not as an open-ender: 9-7-6-5-3 waits for an 8 or a 4),
  ``gutshot`` (exactly one such rank), ``combo draw`` (a flush draw with a straight draw); on the
  flop only, ``backdoor flush draw`` (three of a suit with a hole card, no flush draw) and
  ``backdoor straight draw`` (two more ranks complete a straight, no straight draw). A rank
  completes a straight when the straight it makes is better than the one the board makes with
  it alone (a hole card plays).

JSON: ``{"board": str, "classes": [{"name": str, "combos": int, "probability": float}]}``.

>>> s = board_stats("QQ+, AK", "Qh 9c 2d")
>>> s.count("three of a kind"), s.count("set"), s.count("overpair"), s.count("top pair"), s.total
(3, 3, 12, 0, 31)
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from cardlab.cards import format_cards, parse_card_ids
from cardlab.errors import DeckError, HandError, RangeError
from cardlab.poker.equity import game_named, range_of
from cardlab.poker.evaluator import evaluate
from cardlab.poker.kernel import straight_tops
from cardlab.poker.rules import Category, Rules
from cardlab.results import json_text

__all__ = ["flop_classes", "BoardStats", "BoardClass", "board_stats", "flop_textures", "all_flops_stats", "FlopsStats", "MAX_FLOPS_COMBOS",
           "TextureStats", "TEXTURES", "MADE_CLASSES", "SET_CLASSES", "PAIR_CLASSES", "UNDERPAIR_CLASSES",
           "DRAW_CLASSES", "CLASSES", "SECTIONS", "combo_masks"]

MADE_CLASSES = ("straight flush", "four of a kind", "full house", "flush", "straight", "three of a kind",
                "two pair", "one pair", "high card")
SET_CLASSES = ("set", "trips", "trips on the board")
PAIR_CLASSES = ("overpair", "top pair", "middle pair", "bottom pair", "underpair", "board pair")
UNDERPAIR_CLASSES = ("underpair, 1 overcard", "underpair, 2 overcards", "underpair, 3+ overcards")
DRAW_CLASSES = ("flush draw", "nut flush draw", "open-ended", "double gutshot", "gutshot", "combo draw",
                "backdoor flush draw", "backdoor straight draw")
#: Every class, in the order of the results (and of the compiled kernel's counts).
CLASSES = MADE_CLASSES + SET_CLASSES + PAIR_CLASSES + UNDERPAIR_CLASSES + DRAW_CLASSES
#: The sections of the output: heading, its classes, and the class they add up to ("" when the
#: section's classes add up to the range (made hands) or do not add up (draws)).
SECTIONS = (("made hands (each combo in its best hand)", MADE_CLASSES, ""),
            ("three of a kind", SET_CLASSES, "three of a kind"),
            ("one pair", PAIR_CLASSES, "one pair"),
            ("underpairs, by the board cards above them", UNDERPAIR_CLASSES, "underpair"),
            ("draws (a combo may be in several)", DRAW_CLASSES, ""))


@dataclass(frozen=True)
class BoardClass:
    """One class: its name, the combos in it and their weighted share of the range."""

    name: str
    combos: int
    probability: float


@dataclass(frozen=True)
class BoardStats:
    """Each class of :data:`CLASSES` for one board (the sections of :data:`SECTIONS`)."""

    range: str
    game: str
    board: str
    total: int
    classes: tuple[BoardClass, ...]

    def count(self, name: str) -> int:
        """Combos in the class called ``name``."""
        for c in self.classes:
            if c.name == name:
                return c.combos
        raise HandError(f"unknown board class '{name}'")

    def __repr__(self) -> str:
        return f"BoardStats({self.range!r} on {self.board}: {self.total} combos)"

    def to_dict(self) -> dict[str, Any]:
        """A dict in the documented JSON schema (plus ``range``, ``game`` and ``combos``)."""
        return {"board": self.board, "range": self.range, "game": self.game, "combos": self.total,
                "classes": [{"name": c.name, "combos": c.combos, "probability": c.probability}
                            for c in self.classes]}

    def to_json(self) -> str:
        """The JSON of :meth:`to_dict`, indented, with a final newline."""
        return json_text(self.to_dict()) + "\n"

    def to_csv(self) -> str:
        """One row per class: name, combos, probability."""
        return "name,combos,probability\n" + "".join(f"{c.name},{c.combos},{c.probability!r}\n"
                                                     for c in self.classes)

    def to_pandas(self) -> Any:
        """A DataFrame, one row per class (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame([{"name": c.name, "combos": c.combos, "probability": c.probability}
                             for c in self.classes])

    def table(self) -> str:
        """The aligned text the command prints: a heading before each section of :data:`SECTIONS`."""
        lines = [f"range '{self.range}' on {self.board}: {self.total:,} combos"]
        width = max(len(c.name) for c in self.classes)
        groups = {names[0]: heading for heading, names, _ in SECTIONS}
        for c in self.classes:
            if c.name in groups:
                lines.append(f"{groups[c.name]}:")
            lines.append(f"  {c.name.ljust(width)}  {c.combos:>6,}  {c.probability:8.2%}")
        return "\n".join(lines) + "\n"

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{html.escape(c.name)}</td><td>{c.combos:,}</td><td>{c.probability:.2%}</td></tr>"
                       for c in self.classes)
        return (f"<table><caption>{html.escape(self.range)} on {self.board}</caption>"
                f"<thead><tr><th>class</th><th>combos</th><th>share</th></tr></thead><tbody>{rows}</tbody></table>")


def _rank_mask(cards: np.ndarray) -> np.ndarray:
    """13-bit rank mask of each row of card ids (ids below 0 are skipped)."""
    out = np.zeros(cards.shape[0], dtype=np.int64)
    for j in range(cards.shape[1]):
        c = cards[:, j]
        out |= _RANK_BITS[np.where(c >= 0, c, 52) if (c < 0).any() else c]
    return out


_RANK_BITS = np.array([1 << (c >> 2) for c in range(52)] + [0], dtype=np.int64)
"""The rank bit of each card id, and 0 at 52 (a skipped card)."""

_SUIT_NIBBLES = np.array([1 << (4 * (c & 3)) for c in range(52)], dtype=np.int64)
"""One in the card's suit's 4-bit counter: a row's sum packs its four suit counts."""


@lru_cache(maxsize=None)
def _highest_missing(lowest_rank: int) -> np.ndarray:
    """For each 13-bit mask of ranks, the highest rank (from ``lowest_rank`` up) not in it, or -1."""
    table = np.full(1 << 13, -1, dtype=np.int64)
    masks = np.arange(1 << 13)
    for r in range(lowest_rank, 13):  # rising, so the highest missing rank is written last
        table[(masks >> r) & 1 == 0] = r
    return table


_MADE_ORDER = (Category.STRAIGHT_FLUSH, Category.FOUR_OF_A_KIND, Category.FULL_HOUSE, Category.FLUSH,
               Category.STRAIGHT, Category.THREE_OF_A_KIND, Category.TWO_PAIR, Category.ONE_PAIR,
               Category.HIGH_CARD)
"""The Category of each of :data:`MADE_CLASSES`."""


def _made_masks(cats: np.ndarray, rules: Rules) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """A mask per made-hand class of each hand's Category value (royal flush counted as a
    straight flush), and each hand's category position under ``rules``."""
    cats = np.where(cats == int(Category.ROYAL_FLUSH), int(Category.STRAIGHT_FLUSH), cats)
    masks = {name: cats == int(cat) for name, cat in zip(MADE_CLASSES, _MADE_ORDER)}
    position: np.ndarray = np.array([rules.position(Category(i)) for i in range(len(Category))])[cats]
    return masks, position


def _classify(holes: np.ndarray, boards: np.ndarray, rules: Rules) -> dict[str, np.ndarray]:
    """Row ``i`` is hole cards ``holes[i]`` on ``boards[i]`` (every board of the same size): a
    boolean array per class of :data:`CLASSES`."""
    n, size = boards.shape
    cards = np.concatenate([holes, boards], axis=1)
    cats, _ = evaluate(np.ascontiguousarray(cards, dtype=np.uint8), rules)
    cats = np.asarray(cats).astype(np.int64)
    masks, position = _made_masks(cats, rules)
    one = masks["one pair"]

    # three of a kind and pairs
    h_rank = holes >> 2
    b_rank = boards >> 2
    top, low = b_rank.max(axis=1), b_rank.min(axis=1)
    pocket = h_rank[:, 0] == h_rank[:, 1]
    board_ranks = _rank_mask(boards)
    on_board = np.stack([(board_ranks >> h_rank[:, j]) & 1 == 1 for j in range(2)], axis=1)
    pairing = np.where(on_board, h_rank, -1).max(axis=1)
    _sets(masks, pocket & on_board[:, 0], pairing >= 0)
    masks["overpair"] = one & pocket & (h_rank[:, 0] > top)
    masks["top pair"] = one & (pairing == top)
    masks["middle pair"] = one & (pairing >= 0) & (pairing != top) & (pairing != low)
    masks["bottom pair"] = one & (pairing == low) & (low != top)
    masks["underpair"] = one & pocket & (h_rank[:, 0] < top)
    masks["board pair"] = one & ~pocket & (pairing < 0)
    _overcards(masks, board_ranks, h_rank[:, 0])

    # draws
    to_come = 5 - size
    columns = range(cards.shape[1])
    packed = sum(_SUIT_NIBBLES[cards[:, j]] for j in columns)
    suit_count = np.stack([(packed >> (4 * s)) & 15 for s in range(4)], axis=1)
    hole_suit = np.stack([(holes[:, 0] & 3 == s) | (holes[:, 1] & 3 == s) for s in range(4)], axis=1)
    no_flush = position < rules.position(Category.FLUSH)
    no_straight = position < rules.position(Category.STRAIGHT)
    fd_suit = (suit_count == 4) & hole_suit
    fd = fd_suit.any(axis=1) & no_flush if to_come else np.zeros(n, bool)
    missing = _highest_missing(rules.lowest_rank)
    nut = np.zeros(n, dtype=bool)
    for s in range(4):
        in_suit = _rank_mask(np.where(boards & 3 == s, boards, -1))
        best = missing[in_suit]
        nut |= fd_suit[:, s] & (best >= 0) & ((holes[:, 0] == best * 4 + s) | (holes[:, 1] == best * 4 + s))
    masks["flush draw"] = fd
    masks["nut flush draw"] = fd & nut
    tops = straight_tops(rules).astype(np.int64)
    # straight draws depend on the two rank masks alone: worked out once per distinct pair of
    # masks (a few thousand, where an all-flops run has millions of rows)
    row_key = _rank_mask(cards) << 13 | _rank_mask(boards)
    keys, inverse = np.unique(row_key, return_inverse=True)
    inverse = inverse.reshape(-1)
    hand_mask, board_mask = keys >> 13, keys & 8191
    ranks = range(rules.lowest_rank, 13)

    def improves(extra: int) -> np.ndarray:
        """Whether adding the ranks of ``extra`` makes a straight better than the board's own."""
        with_hand = tops[hand_mask | extra]
        result: np.ndarray = (with_hand >= 0) & (with_hand > tops[board_mask | extra])
        return result

    completing = np.zeros(len(keys), dtype=np.int64)
    four = np.zeros(len(keys), dtype=bool)  # four consecutive ranks open at both ends
    if to_come:
        for r in ranks:
            completing += improves(1 << r) & ((hand_mask >> r) & 1 == 0)
        for inner, below, above in _open_ends(rules):
            four |= ((hand_mask & inner) == inner) & (hand_mask & (below | above) == 0) \
                & improves(below) & improves(above)
    completing_row = completing[inverse]
    _straight_draws(masks, completing_row, four[inverse], no_straight, fd)
    if to_come == 2:
        three = (suit_count == 3) & hole_suit
        masks["backdoor flush draw"] = three.any(axis=1) & ~fd_suit.any(axis=1) & no_flush
        backdoor = np.zeros(len(keys), dtype=bool)
        for r1 in ranks:
            for r2 in ranks:
                if r2 > r1:
                    backdoor |= improves((1 << r1) | (1 << r2))
        masks["backdoor straight draw"] = backdoor[inverse] & (completing_row == 0) & no_straight
    else:
        masks["backdoor flush draw"] = np.zeros(n, dtype=bool)
        masks["backdoor straight draw"] = np.zeros(n, dtype=bool)
    return masks


def _sets(masks: dict[str, np.ndarray], pocket_on_board: np.ndarray, pairing: np.ndarray) -> None:
    """``set``, ``trips`` and ``trips on the board`` of the three-of-a-kind hands: a pocket pair
    with a board card of its rank, else a hole card on a paired board, else the board's own."""
    three = masks["three of a kind"]
    masks["set"] = three & pocket_on_board
    masks["trips"] = three & ~pocket_on_board & pairing
    masks["trips on the board"] = three & ~pocket_on_board & ~pairing


def _overcards(masks: dict[str, np.ndarray], board_ranks: np.ndarray | int, pocket_rank: np.ndarray) -> None:
    """The underpairs split by the distinct board ranks above the pocket pair."""
    above = _popcount(np.asarray(board_ranks) >> (np.clip(pocket_rank, -1, 12) + 1))
    under = masks["underpair"]
    masks["underpair, 1 overcard"] = under & (above == 1)
    masks["underpair, 2 overcards"] = under & (above == 2)
    masks["underpair, 3+ overcards"] = under & (above >= 3)


def _open_ends(rules: Rules) -> list[tuple[int, int, int]]:
    """Each four consecutive ranks that two straights of the game share, as rank masks: (the
    four, the rank that completes the lower straight, the one that completes the higher)."""
    windows = [m for m in range(1 << 13) if _POPCOUNT[m] == 5 and straight_tops(rules)[m] >= 0]
    out = []
    for w1 in windows:
        for w2 in windows:
            inner = w1 & w2
            if _POPCOUNT[inner] == 4 and straight_tops(rules)[w1] < straight_tops(rules)[w2]:
                out.append((inner, w1 & ~inner, w2 & ~inner))
    return out


def _straight_draws(masks: dict[str, np.ndarray], completing: np.ndarray, four: np.ndarray,
                    no_straight: np.ndarray, fd: np.ndarray) -> None:
    """``open-ended``, ``double gutshot``, ``gutshot`` and ``combo draw`` from the number of
    ranks that complete a straight and whether two of them close four consecutive ranks."""
    masks["open-ended"] = (completing >= 2) & four & no_straight
    masks["double gutshot"] = (completing >= 2) & ~four & no_straight
    masks["gutshot"] = (completing == 1) & no_straight
    masks["combo draw"] = fd & (completing >= 1) & no_straight


def _popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each 13-bit rank mask."""
    return np.asarray(_POPCOUNT[x])


_POPCOUNT = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int64)


def _classify_omaha(holes: np.ndarray, board: list[int], rules: Rules) -> dict[str, np.ndarray]:
    """The classes of Omaha hands ``holes`` (``(n, k)``, k = 4 to 6) on one board of 3 to 5 cards,
    by Omaha's rule: exactly two hole cards and three board cards.

    Made hand: the best of every two hole cards with every three board cards. Pairs (hands no
    better than two pair, at most one each, in this order): ``overpair`` (two hole cards of one
    rank above every board card), else ``top``/``middle``/``bottom pair`` (the highest hole card
    that pairs a board rank), else ``underpair`` (two hole cards of one rank below the top board
    card). Draws: ``flush draw`` (two or more hole cards of a suit the board has twice, no flush),
    ``nut flush draw`` (and one of them the highest rank of that suit not on the board); a
    straight draw counts the ranks that would complete a straight of two hole and three board
    cards (``open-ended``: two or more, wraps included; ``gutshot``: one); on the flop the
    backdoor draws (two hole cards of a suit the board has once; two more ranks complete a
    straight).
    """
    n, k = holes.shape
    b = np.array(board, dtype=np.int64)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    subsets = [(x, y, z) for x in range(len(b)) for y in range(x + 1, len(b)) for z in range(y + 1, len(b))]
    rows = np.empty((n, len(pairs), len(subsets), 5), dtype=np.uint8)
    for pi, (i, j) in enumerate(pairs):
        for si, sub in enumerate(subsets):
            rows[:, pi, si, 0] = holes[:, i]
            rows[:, pi, si, 1] = holes[:, j]
            rows[:, pi, si, 2:] = b[list(sub)]
    cats, strength = evaluate(rows.reshape(-1, 5), rules)
    cats = np.asarray(cats).astype(np.int64).reshape(n, -1)
    strength = np.asarray(strength).astype(np.int64).reshape(n, -1)
    best = cats[np.arange(n), strength.argmax(axis=1)]
    masks, position = _made_masks(best, rules)
    one = masks["one pair"]
    no_flush = position < rules.position(Category.FLUSH)
    no_straight = position < rules.position(Category.STRAIGHT)

    # pairs
    h_rank = holes >> 2
    b_rank = b >> 2
    top, low = int(b_rank.max()), int(b_rank.min())
    pocket_ranks = np.full((n, len(pairs)), -1, dtype=np.int64)
    for pi, (i, j) in enumerate(pairs):
        pocket_ranks[:, pi] = np.where(h_rank[:, i] == h_rank[:, j], h_rank[:, i], -1)
    pocket_high = pocket_ranks.max(axis=1)
    pairing = np.where(np.isin(h_rank, b_rank), h_rank, -1).max(axis=1)
    board_ranks = int(_rank_mask(b[None, :])[0])
    pocket_on_board = (pocket_ranks >= 0) & ((board_ranks >> np.clip(pocket_ranks, 0, 12)) & 1 == 1)
    _sets(masks, pocket_on_board.any(axis=1), pairing >= 0)
    over = one & (pocket_high > top)
    masks["overpair"] = over
    masks["top pair"] = one & ~over & (pairing == top)
    masks["middle pair"] = one & ~over & (pairing >= 0) & (pairing != top) & (pairing != low)
    masks["bottom pair"] = one & ~over & (pairing == low) & (low != top)
    masks["underpair"] = one & ~over & (pairing < 0) & (pocket_high >= 0)
    masks["board pair"] = one & ~over & (pairing < 0) & (pocket_high < 0)
    _overcards(masks, board_ranks, pocket_high)

    # flush draws
    to_come = 5 - len(b)
    hole_suits = np.stack([((holes & 3) == s).sum(axis=1) for s in range(4)], axis=1)
    board_suits = np.array([int(((b & 3) == s).sum()) for s in range(4)])
    fd_suit = (hole_suits >= 2) & (board_suits == 2)[None, :]
    fd = fd_suit.any(axis=1) & no_flush if to_come else np.zeros(n, dtype=bool)
    missing = _highest_missing(rules.lowest_rank)
    nut = np.zeros(n, dtype=bool)
    for s in range(4):
        on_board = _rank_mask(np.where(b & 3 == s, b, -1)[None, :])[0]
        best_rank = int(missing[on_board])
        if best_rank >= 0:
            nut |= fd_suit[:, s] & (holes == best_rank * 4 + s).any(axis=1)
    masks["flush draw"] = fd
    masks["nut flush draw"] = fd & nut

    # straight draws: for every straight's five ranks W and every two hole cards of different
    # ranks P inside W, the ranks of W that neither P nor the board has
    tops = straight_tops(rules)
    windows = [m for m in range(1 << 13) if _POPCOUNT[m] == 5 and tops[m] >= 0]
    board_mask = int(_rank_mask(b[None, :])[0])
    pm = np.zeros((n, len(pairs)), dtype=np.int64)
    for pi, (i, j) in enumerate(pairs):
        pm[:, pi] = np.where(h_rank[:, i] != h_rank[:, j], (1 << h_rank[:, i]) | (1 << h_rank[:, j]), 0)
    completing = np.zeros(n, dtype=np.int64)
    two_more = np.zeros(n, dtype=bool)
    for w in windows:
        inside = (pm != 0) & ((pm & w) == pm)
        need = w & ~pm & ~board_mask
        count = _popcount(need)
        completing |= np.bitwise_or.reduce(np.where(inside & (count == 1), need, 0), axis=1)
        two_more |= (inside & (count == 2)).any(axis=1)
    four = np.zeros(n, dtype=bool)  # two hole ranks and two board ranks, open at both ends
    for inner, below, above in _open_ends(rules):
        if board_mask & (below | above) == 0:
            four |= ((pm != 0) & ((pm & inner) == pm) & ((inner & ~pm & ~board_mask) == 0)).any(axis=1)
    ranks_completing = _popcount(completing) if to_come else np.zeros(n, dtype=np.int64)
    _straight_draws(masks, ranks_completing, four & (ranks_completing >= 2), no_straight, fd)
    if to_come == 2:
        masks["backdoor flush draw"] = ((hole_suits >= 2) & (board_suits == 1)[None, :]).any(axis=1) & ~fd & no_flush
        masks["backdoor straight draw"] = two_more & (ranks_completing == 0) & no_straight
    else:
        masks["backdoor flush draw"] = np.zeros(n, dtype=bool)
        masks["backdoor straight draw"] = np.zeros(n, dtype=bool)
    return masks


def board_stats(spec: str, board: str | list[int], *, dead: str = "", game: str = "holdem") -> BoardStats:
    """The classes of the combos of ``spec`` on ``board`` (3, 4 or 5 cards), counted exactly.

    ``game`` is ``holdem``, ``shortdeck`` (its straights and deck) or ``omaha``, ``omaha5``,
    ``omaha6`` (two hole cards and three board cards, :func:`_classify_omaha`). Raises
    :class:`~cardlab.errors.DeckError` for a card given twice, :class:`~cardlab.errors.RangeError`
    for a range with no combo left.
    """
    g, b, holes, weights, masks = combo_masks(spec, board, dead=dead, game=game)
    n = len(holes)
    total_w = float(weights.sum())
    classes = tuple(BoardClass(name, int(masks[name].sum()), float(weights[masks[name]].sum() / total_w))
                    for name in CLASSES)
    return BoardStats(spec, g.name, format_cards(b, sep=""), n, classes)


def combo_masks(spec: str, board: str | list[int], *, dead: str = "", game: str = "holdem"
                ) -> tuple[Any, list[int], np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """What :func:`board_stats` counts, combo by combo: the game, the board's cards, the range's
    combos left (an array of hole cards), their weights, and for each class name a boolean mask of
    the combos in it (so a caller can show which hands make each class).

    >>> g, b, holes, weights, masks = combo_masks("AA, KQs", "Ah 7c 2d")
    >>> len(holes), int(masks["three of a kind"].sum())
    (7, 3)
    """
    g = game_named(game)
    b = parse_card_ids(board) if isinstance(board, str) else [int(c) for c in board]
    d = parse_card_ids(dead) if dead and dead.strip() else []
    if len(b) not in (3, 4, 5):
        raise HandError(f"a board has 3, 4 or 5 cards here; '{board}' has {len(b)}")
    seen: dict[int, str] = {}
    for c, where in [(c, "the board") for c in b] + [(c, "the dead cards") for c in d]:
        if c in seen:
            raise DeckError(f"card {format_cards([c])} is given twice ({seen[c]} and {where})")
        seen[c] = where
    g.rules.check_cards(b + d, where="on the board")
    rng = range_of(spec, g).without(frozenset(seen))
    if not len(rng):
        raise RangeError(f"range '{spec}' leaves no combos once the board ({format_cards(b)}) is out")
    holes = np.asarray(rng.combos, dtype=np.int64)
    weights = np.asarray(rng.weights, dtype=np.float64)
    n = len(holes)
    if g.omaha:
        masks = _classify_omaha(holes, b, g.rules)
    else:
        masks = _classify(holes, np.broadcast_to(np.array(b, dtype=np.int64), (n, len(b))), g.rules)
    return g, b, holes, weights, masks


MAX_FLOPS_COMBOS = 300_000
"""The most hands :func:`all_flops_stats` takes (every Omaha hand, 270,725, fits): each is
classed with its 24 suit images on 1,755 flops; random Omaha 5 or 6 is refused before any work."""
TEXTURES = ("unpaired", "paired", "trips", "rainbow", "two-tone", "monotone", "connected", "consecutive")
"""The flop textures of :func:`flop_textures`; a flop has one of the first three, one of the
next three, and may be ``connected`` (three different ranks that a straight can hold together:
inside five consecutive ranks, the ace low or high) and, of those, ``consecutive`` (three
consecutive ranks: 8-7-6, A-K-Q, 3-2-A)."""


def flop_textures() -> dict[str, int]:
    """How many of the 22,100 flops have each texture of :data:`TEXTURES`, counted exactly.

    >>> flop_textures()["monotone"], flop_textures()["two-tone"], flop_textures()["rainbow"]
    (1144, 12168, 8788)
    """
    from cardlab.poker.generic import all_hands

    masks = _texture_masks(all_hands(3).astype(np.int64))
    return {name: int(masks[name].sum()) for name in TEXTURES}


@dataclass(frozen=True)
class TextureStats:
    """The classes of a range over the flops of one texture (``all`` for every flop)."""

    name: str
    flops: int
    classes: tuple[BoardClass, ...]


@dataclass(frozen=True)
class FlopsStats:
    """A range's classes over every flop, by texture: ``combos`` counts (combo, flop) pairs and
    ``probability`` is the chance of the class when a combo is drawn from the range by its weight
    and then a flop from the cards it leaves, given the flop's texture."""

    range: str
    game: str
    textures: tuple[TextureStats, ...]

    def __repr__(self) -> str:
        return f"FlopsStats({self.range!r} over {self.textures[0].flops:,} flops)"

    def to_dict(self) -> dict[str, Any]:
        """``{"board": "all", "range", "game", "textures": [{"name", "flops", "classes": [...]}]}``."""
        return {"board": "all", "range": self.range, "game": self.game,
                "textures": [{"name": t.name, "flops": t.flops,
                              "classes": [{"name": c.name, "combos": c.combos, "probability": c.probability}
                                          for c in t.classes]} for t in self.textures]}

    def to_json(self) -> str:
        """The JSON of :meth:`to_dict`, indented, with a final newline."""
        return json_text(self.to_dict()) + "\n"

    def to_csv(self) -> str:
        """One row per texture and class: texture, flops, name, combos, probability."""
        return "texture,flops,name,combos,probability\n" + "".join(
            f"{t.name},{t.flops},{c.name},{c.combos},{c.probability!r}\n" for t in self.textures for c in t.classes)

    def to_pandas(self) -> Any:
        """A DataFrame, one row per texture and class (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame([{"texture": t.name, "flops": t.flops, "name": c.name, "combos": c.combos,
                              "probability": c.probability} for t in self.textures for c in t.classes])

    def table(self) -> str:
        """Shares of each class (rows) on each texture (columns)."""
        names = [c.name for c in self.textures[0].classes]
        width = max(len(n) for n in names)
        heads = [f"{t.name} ({t.flops:,})" for t in self.textures]
        cols = [max(len(h), 7) for h in heads]
        lines = [f"range '{self.range}' over every flop, by texture (share of the range)",
                 " " * width + "  " + "  ".join(h.rjust(w) for h, w in zip(heads, cols))]
        for i, name in enumerate(names):
            lines.append(name.ljust(width) + "  " + "  ".join(
                f"{t.classes[i].probability:.2%}".rjust(w) for t, w in zip(self.textures, cols)))
        return "\n".join(lines) + "\n"

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(t.name)}</th>" for t in self.textures)
        rows = "".join(f"<tr><td>{html.escape(c.name)}</td>" +
                       "".join(f"<td>{t.classes[i].probability:.2%}</td>" for t in self.textures) + "</tr>"
                       for i, c in enumerate(self.textures[0].classes))
        return f"<table><thead><tr><th>class</th>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _texture_masks(flops: np.ndarray) -> dict[str, np.ndarray]:
    """Boolean masks of :data:`TEXTURES` (and ``all``) over rows of flops."""
    ranks, suits = flops >> 2, flops & 3
    pairs = (ranks[:, 0] == ranks[:, 1]).astype(int) + (ranks[:, 1] == ranks[:, 2]) + (ranks[:, 0] == ranks[:, 2])
    same_suit = (suits[:, 0] == suits[:, 1]).astype(int) + (suits[:, 1] == suits[:, 2]) + (suits[:, 0] == suits[:, 2])
    mask = _rank_mask(flops)
    windows = [sum(1 << r for r in (12, 0, 1, 2, 3))] + [sum(1 << r for r in range(t - 4, t + 1)) for t in range(4, 13)]
    connected = np.zeros(len(flops), dtype=bool)
    for w in windows:
        connected |= (mask & ~w) == 0
    runs = [(1 << 12) | 3] + [7 << r for r in range(11)]  # A-2-3, 2-3-4, ..., Q-K-A
    consecutive = np.isin(mask, runs)
    return {"all": np.ones(len(flops), bool), "unpaired": pairs == 0, "paired": pairs == 1, "trips": pairs == 3,
            "rainbow": same_suit == 0, "two-tone": same_suit == 1, "monotone": same_suit == 3,
            "connected": connected & (pairs == 0), "consecutive": consecutive}


def flop_classes() -> tuple[np.ndarray, np.ndarray]:
    """The 1,755 classes of the 22,100 flops under the 24 suit permutations: one flop each (card
    ids, lowest key) and how many flops it stands for.

    >>> reps, counts = flop_classes()
    >>> len(reps), int(counts.sum())
    (1755, 22100)
    """
    from itertools import combinations

    return _canonical_flops(np.array(list(combinations(range(52), 3)), dtype=np.int64))


def _canonical_flops(flops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One flop per class under the 24 suit permutations, and how many flops each stands for."""
    from itertools import permutations

    best = None
    for perm in permutations(range(4)):
        table = np.array([(c >> 2) * 4 + perm[c & 3] for c in range(52)], dtype=np.int64)
        mapped = np.sort(table[flops], axis=1)
        key = mapped[:, 0] * 2704 + mapped[:, 1] * 52 + mapped[:, 2]
        best = key if best is None else np.minimum(best, key)
    assert best is not None
    keys, counts = np.unique(best, return_counts=True)
    reps = np.stack([keys // 2704, keys // 52 % 52, keys % 52], axis=1)
    return reps, counts


def _suit_orbit(holes: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The range's images under the 24 suit permutations, as one multiset: each distinct combo,
    how many permutations map a combo of the range onto it, and the sum of their weights.

    A sum over every flop of a range equals 1/24 of the same sum for this multiset (relabel the
    flop by each permutation), and the multiset is the same under every suit permutation, so one
    flop per suit class, counted as often as it stands for, gives it exactly."""
    from itertools import permutations

    k = holes.shape[1]
    codes, sums = [], []
    for perm in permutations(range(4)):
        table = np.array([(c >> 2) * 4 + perm[c & 3] for c in range(52)], dtype=np.int64)
        mapped = np.sort(table[holes], axis=1)
        code = np.zeros(len(mapped), dtype=np.int64)
        for j in range(k):  # 52^6 < 2^63
            code = code * 52 + mapped[:, j]
        codes.append(code)
        sums.append(weights)
    keys, inverse, counts = np.unique(np.concatenate(codes), return_inverse=True, return_counts=True)
    summed = np.bincount(inverse.reshape(-1), weights=np.concatenate(sums), minlength=len(keys))
    combos = np.empty((len(keys), k), dtype=np.int64)
    rest = keys.copy()
    for j in range(k - 1, -1, -1):
        combos[:, j] = rest % 52
        rest //= 52
    return combos, counts.astype(np.int64), summed


def _flop_tallies(holes: np.ndarray, weights: np.ndarray, flops: np.ndarray, rules: Rules,
                  counts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per flop (rows of ``flops``), over the combos that share no card with it: the combos in
    each class (``(m, 29)`` int64, the order of :data:`CLASSES`; a combo counts ``counts[i]``,
    default 1), their weights (``(m, 29)``)
    and the weight of every such combo (``(m,)``). The compiled kernel classes each combo as :func:`_classify` does (two hole
    cards) or :func:`_classify_omaha` (4 to 6)."""
    from cardlab import _core

    m, k = len(flops), holes.shape[1]
    names = CLASSES
    combos = np.zeros((m, len(names)), dtype=np.int64)
    shares = np.zeros((m, len(names)), dtype=np.float64)
    live = np.zeros(m, dtype=np.float64)
    positions = np.zeros(16, dtype=np.int8)
    positions[:len(Category)] = [rules.position(Category(i)) for i in range(len(Category))]
    each = np.ones(len(holes), dtype=np.int64) if counts is None else np.ascontiguousarray(counts, dtype=np.int64)
    _core.board_flops(np.ascontiguousarray(holes, dtype=np.uint8), k, each,
                      np.ascontiguousarray(weights, dtype=np.float64),
                      np.ascontiguousarray(flops, dtype=np.uint8), np.ascontiguousarray(straight_tops(rules)),
                      positions, rules.lowest_rank, combos, shares, live)
    return combos, shares, live


def all_flops_stats(spec: str, *, game: str = "holdem") -> FlopsStats:
    """The classes of ``spec`` over every flop of the game's deck, by texture, exactly.

    ``game`` is ``holdem``, ``shortdeck`` or ``omaha``, ``omaha5``, ``omaha6`` (the classes of
    :func:`_classify_omaha`). The range's images under the 24 suit permutations
    (:func:`_suit_orbit`: the range itself when it is the same under them, like ``QQ+, AK``) are
    classed on one flop per suit class (1,755 of the 22,100 flops), each counted as often as it
    stands for. The loop over flops and combos is compiled; its time grows with combos x flops
    (``random`` Omaha: 270,725 combos).
    """
    from cardlab.poker.generic import all_hands

    g = game_named(game)
    rng = range_of(spec, g)
    if len(rng) > MAX_FLOPS_COMBOS:  # before the 24 suit images: 20 million hands took 4.9 GB
        raise RangeError(f"every flop classes the range's hands 24 times over (its suit images): at most "
                         f"{MAX_FLOPS_COMBOS:,} hands, and the range holds {len(rng):,} {g.name} hands; narrow "
                         f"it or give one board")
    holes = np.asarray(rng.combos, dtype=np.int64)
    weights = np.asarray(rng.weights, dtype=np.float64)
    flops, mult = _canonical_flops(all_hands(3, g.lowest_rank).astype(np.int64))
    textures = _texture_masks(flops)
    names = CLASSES
    orbit, counts, orbit_weights = _suit_orbit(holes, weights)
    flop_combos, flop_shares, flop_live = _flop_tallies(orbit, orbit_weights, flops, g.rules, counts)
    m = mult.astype(np.float64)
    # a combo of the range by its weight, then a flop from the cards it leaves; the orbit counts
    # every (combo, flop) pair 24 times (textures are the same under suit permutations)
    combos = {t: (flop_combos[tm] * mult[tm, None]).sum(axis=0) // 24 for t, tm in textures.items()}
    shares = {t: (flop_shares[tm] * m[tm, None]).sum(axis=0) for t, tm in textures.items()}
    live = {t: float((flop_live[tm] * m[tm]).sum()) for t, tm in textures.items()}
    result = []
    for t, tmask in textures.items():
        count = int(mult[tmask].sum())
        result.append(TextureStats(t, count, tuple(BoardClass(name, int(round(combos[t][i])),
                                                              float(shares[t][i] / live[t]) if live[t] else 0.0)
                                                   for i, name in enumerate(names))))
    return FlopsStats(spec, g.name, tuple(result))
