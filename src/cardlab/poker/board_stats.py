"""Board statistics: how a hold'em range hits a board (the Flopzilla question), exactly.

:func:`board_stats` takes a range (classic or generic syntax) and a board of 3, 4 or 5 cards and
counts, over every combo of the range that shares no card with the board (or the dead cards),
the combos in each class with their share of the range (weights count: a combo of weight 0.5 is
half a combo in the shares; ``combos`` counts combos). The classes, as the tests define them:

- made hands, one each (the best five of hole cards and board): ``straight flush`` (royal
  included), ``four of a kind``, ``full house``, ``flush``, ``straight``, ``three of a kind``,
  ``two pair``, ``one pair``, ``high card``;
- pairs, for hands no better than two pair, at most one each: ``overpair`` (a pocket pair above
  every board card), ``top pair`` / ``middle pair`` / ``bottom pair`` (the highest hole card
  that pairs a board rank pairs the highest / a middle / the lowest distinct board rank),
  ``underpair`` (a pocket pair below the top board card that pairs nothing);
- draws, with cards to come (3 or 4 board cards), for hands not already that strong:
  ``flush draw`` (four of a suit with at least one hole card, no flush), ``nut flush draw`` (the
  hole card of that suit is the highest rank of the suit not on the board), ``open-ended``
  (at least two ranks complete a straight that uses a hole card: open-enders and double
  gutshots, eight outs), ``gutshot`` (exactly one such rank), ``combo draw`` (a flush draw with
  an open-ended or gutshot draw); on the flop only, ``backdoor flush draw`` (three of a suit with
  a hole card, no flush draw) and ``backdoor straight draw`` (two more ranks complete a straight
  that uses a hole card, no straight draw).

JSON: ``{"board": str, "classes": [{"name": str, "combos": int, "probability": float}]}``.

>>> s = board_stats("QQ+, AK", "Qh 9c 2d")
>>> s.count("three of a kind"), s.count("overpair"), s.count("top pair"), s.total
(3, 12, 0, 31)
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.cards import format_cards, parse_card_ids
from cardlab.errors import DeckError, HandError, RangeError
from cardlab.poker.equity import game_named, range_of
from cardlab.poker.evaluator import evaluate
from cardlab.poker.kernel import straight_tops
from cardlab.poker.rules import Category

__all__ = ["BoardStats", "BoardClass", "board_stats", "flop_textures", "TEXTURES", "MADE_CLASSES",
           "PAIR_CLASSES", "DRAW_CLASSES"]

MADE_CLASSES = ("straight flush", "four of a kind", "full house", "flush", "straight", "three of a kind",
                "two pair", "one pair", "high card")
PAIR_CLASSES = ("overpair", "top pair", "middle pair", "bottom pair", "underpair")
DRAW_CLASSES = ("flush draw", "nut flush draw", "open-ended", "gutshot", "combo draw",
                "backdoor flush draw", "backdoor straight draw")


@dataclass(frozen=True)
class BoardClass:
    """One class: its name, the combos in it and their weighted share of the range."""

    name: str
    combos: int
    probability: float


@dataclass(frozen=True)
class BoardStats:
    """Each class of :data:`MADE_CLASSES`, :data:`PAIR_CLASSES` and :data:`DRAW_CLASSES` for one board."""

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
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def to_csv(self) -> str:
        """One row per class: name, combos, probability."""
        return "name,combos,probability\n" + "".join(f"{c.name},{c.combos},{c.probability!r}\n"
                                                     for c in self.classes)

    def to_pandas(self) -> Any:
        """A DataFrame, one row per class (needs pandas)."""
        import pandas as pd

        return pd.DataFrame([{"name": c.name, "combos": c.combos, "probability": c.probability}
                             for c in self.classes])

    def table(self) -> str:
        """The aligned text the command prints: a group heading before made hands, pairs, draws."""
        lines = [f"range '{self.range}' on {self.board}: {self.total:,} combos"]
        width = max(len(c.name) for c in self.classes)
        groups = {MADE_CLASSES[0]: "made hands", PAIR_CLASSES[0]: "pairs", DRAW_CLASSES[0]: "draws"}
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
    """13-bit rank mask of each row of card ids."""
    out = np.zeros(cards.shape[0], dtype=np.int64)
    for j in range(cards.shape[1]):
        out |= np.left_shift(1, cards[:, j].astype(np.int64) >> 2)
    return out


def board_stats(spec: str, board: str | list[int], *, dead: str = "", game: str = "holdem") -> BoardStats:
    """The classes of the combos of ``spec`` on ``board`` (3, 4 or 5 cards), counted exactly.

    ``game`` is ``holdem`` or ``shortdeck`` (its straights and deck). Raises
    :class:`~cardlab.errors.DeckError` for a card given twice, :class:`~cardlab.errors.RangeError`
    for a range with no combo left.
    """
    g = game_named(game)
    if g.omaha:
        raise HandError("board statistics are for hold'em and short deck (Omaha is not built yet)")
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
    board_arr = np.array(b, dtype=np.int64)
    cards = np.concatenate([holes, np.broadcast_to(board_arr, (n, len(b)))], axis=1)
    cats, _ = evaluate(cards.astype(np.uint8), g.rules)
    cats = np.asarray(cats).astype(np.int64)
    cats = np.where(cats == int(Category.ROYAL_FLUSH), int(Category.STRAIGHT_FLUSH), cats)
    made_order = [Category.STRAIGHT_FLUSH, Category.FOUR_OF_A_KIND, Category.FULL_HOUSE, Category.FLUSH,
                  Category.STRAIGHT, Category.THREE_OF_A_KIND, Category.TWO_PAIR, Category.ONE_PAIR,
                  Category.HIGH_CARD]
    masks: dict[str, np.ndarray] = {name: cats == int(cat) for name, cat in zip(MADE_CLASSES, made_order)}
    position = np.array([g.rules.position(Category(i)) for i in range(len(Category))])[cats]
    at_most_two_pair = position <= g.rules.position(Category.TWO_PAIR)

    # pairs
    h_rank = holes >> 2
    b_ranks = sorted({c >> 2 for c in b}, reverse=True)
    top, low = b_ranks[0], b_ranks[-1]
    pocket = h_rank[:, 0] == h_rank[:, 1]
    on_board = np.isin(h_rank, b_ranks)
    pairing = np.where(on_board, h_rank, -1).max(axis=1)
    masks["overpair"] = at_most_two_pair & pocket & (h_rank[:, 0] > top)
    masks["top pair"] = at_most_two_pair & (pairing == top)
    masks["middle pair"] = at_most_two_pair & (pairing >= 0) & (pairing != top) & (pairing != low)
    masks["bottom pair"] = at_most_two_pair & (pairing == low) & (low != top)
    masks["underpair"] = at_most_two_pair & pocket & (h_rank[:, 0] < top) & (pairing < 0)

    # draws
    to_come = 5 - len(b)
    suits = cards & 3
    suit_count = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    hole_suit = np.stack([((holes & 3) == s).any(axis=1) for s in range(4)], axis=1)
    no_flush = position < g.rules.position(Category.FLUSH)
    no_straight = position < g.rules.position(Category.STRAIGHT)
    fd_suit = (suit_count == 4) & hole_suit
    fd = fd_suit.any(axis=1) & no_flush if to_come else np.zeros(n, bool)
    board_by_suit = [{c >> 2 for c in b if c & 3 == s} for s in range(4)]
    nut = np.zeros(n, dtype=bool)
    for s in range(4):
        missing = [r for r in range(12, g.lowest_rank - 1, -1) if r not in board_by_suit[s]]
        if not missing:
            continue
        best = missing[0] * 4 + s
        nut |= fd_suit[:, s] & (holes == best).any(axis=1)
    masks["flush draw"] = fd
    masks["nut flush draw"] = fd & nut
    tops = straight_tops(g.rules).astype(np.int64)
    hand_mask = _rank_mask(cards)
    board_mask = int(_rank_mask(board_arr[None, :])[0])
    ranks = range(g.lowest_rank, 13)

    def improves(mask: np.ndarray, extra: int) -> np.ndarray:
        """Whether adding the ranks of ``extra`` makes a straight better than the board's own."""
        with_hand = tops[mask | extra]
        alone = tops[board_mask | extra]
        result: np.ndarray = (with_hand >= 0) & (with_hand > alone)
        return result

    completing = np.zeros(n, dtype=np.int64)
    if to_come:
        for r in ranks:
            completing += improves(hand_mask, 1 << r) & ((hand_mask >> r) & 1 == 0)
    open_ended = (completing >= 2) & no_straight
    gutshot = (completing == 1) & no_straight
    masks["open-ended"] = open_ended
    masks["gutshot"] = gutshot
    masks["combo draw"] = fd & (open_ended | gutshot)
    if to_come == 2:
        three = (suit_count == 3) & hole_suit
        masks["backdoor flush draw"] = three.any(axis=1) & ~fd_suit.any(axis=1) & no_flush
        backdoor = np.zeros(n, dtype=bool)
        for r1 in ranks:
            for r2 in ranks:
                if r2 > r1:
                    backdoor |= improves(hand_mask, (1 << r1) | (1 << r2))
        masks["backdoor straight draw"] = backdoor & (completing == 0) & no_straight
    else:
        masks["backdoor flush draw"] = np.zeros(n, dtype=bool)
        masks["backdoor straight draw"] = np.zeros(n, dtype=bool)
    total_w = float(weights.sum())
    classes = tuple(BoardClass(name, int(masks[name].sum()), float(weights[masks[name]].sum() / total_w))
                    for name in MADE_CLASSES + PAIR_CLASSES + DRAW_CLASSES)
    return BoardStats(spec, g.name, format_cards(b, sep=""), n, classes)


TEXTURES = ("unpaired", "paired", "trips", "rainbow", "two-tone", "monotone", "connected")
"""The flop textures of :func:`flop_textures`; a flop has one of the first three, one of the
next three, and may be ``connected`` (three different ranks that a straight can hold together:
inside five consecutive ranks, the ace low or high)."""


def flop_textures() -> dict[str, int]:
    """How many of the 22,100 flops have each texture of :data:`TEXTURES`, counted exactly.

    >>> flop_textures()["monotone"], flop_textures()["two-tone"], flop_textures()["rainbow"]
    (1144, 12168, 8788)
    """
    from cardlab.poker.generic import all_hands

    flops = all_hands(3).astype(np.int64)
    ranks, suits = flops >> 2, flops & 3
    distinct_ranks = 1 + (ranks[:, 0] != ranks[:, 1]) + (ranks[:, 1] != ranks[:, 2]) - \
        ((ranks[:, 0] == ranks[:, 2]) & (ranks[:, 0] != ranks[:, 1]))
    same_suit = (suits[:, 0] == suits[:, 1]).astype(int) + (suits[:, 1] == suits[:, 2]) + (suits[:, 0] == suits[:, 2])
    mask = _rank_mask(flops)
    windows = [sum(1 << r for r in (12, 0, 1, 2, 3))] + [sum(1 << r for r in range(t - 4, t + 1)) for t in range(4, 13)]
    connected = np.zeros(len(flops), dtype=bool)
    for w in windows:
        connected |= (mask & ~w) == 0
    connected &= distinct_ranks == 3
    return {"unpaired": int((distinct_ranks == 3).sum()), "paired": int((distinct_ranks == 2).sum()),
            "trips": int((distinct_ranks == 1).sum()), "rainbow": int((same_suit == 0).sum()),
            "two-tone": int((same_suit == 1).sum()), "monotone": int((same_suit == 3).sum()),
            "connected": int(connected.sum())}
