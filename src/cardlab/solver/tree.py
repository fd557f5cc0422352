"""The betting tree of a heads-up river spot, from bet sizes in the notation solver users know.

Sizes are written per player, separated by commas: ``33%`` (a third of the pot), ``75%``,
``150%``, ``a`` (all-in). A bet of ``x%`` puts in x% of the pot; a raise of ``x%`` first calls,
then adds x% of the pot after the call (the usual solver convention). A bet or raise that would
leave behind less than ``allin_threshold`` times the pot after it is called becomes all-in, a
raise is at least the size of the bet or raise it answers, and equal sizes merge.

The first player to act is out of position (OOP, player 0); the other is in position (IP,
player 1). Actions are written ``X`` (check), ``F`` (fold), ``C`` (call), ``B12.5`` (bet
12.5 chips) and ``R40`` (raise to 40 chips put in on this street); a node is named by the
actions that reach it, ``X,B10`` (OOP checks, IP bets 10).

>>> tree = build_tree(pot=10, stack=20, sizes=(BetSizes.parse("50%", "a"), BetSizes.parse("100%", "")))
>>> tree.size, tree.decision_count
(12, 5)
>>> tree.actions(tree.find("X"))
['X', 'B10']
>>> BetSizes.parse("33%, big", "")
Traceback (most recent call last):
...
cardlab.errors.SolverError: cannot read bet size 'big' in '33%, big': a size is a percentage of the pot such as 75% or a (all-in)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from cardlab.cards import format_cards
from cardlab.errors import SolverError
from cardlab.solver.suits import Dealer

__all__ = ["BetSizes", "Tree", "build_tree", "MAX_NODES", "MAX_CHIPS", "DECISION", "FOLD", "SHOWDOWN", "CHANCE", "ISO"]

DECISION, FOLD, SHOWDOWN, CHANCE, ISO = 0, 1, 2, 3, 4
"""Node kinds; ISO is a chance node's card solved as a suit-isomorphic card (:mod:`cardlab.solver.suits`)."""
MAX_NODES = 2_000_000
"""Largest tree built (a river tree with three sizes a player and three raises has a few hundred, a
flop tree with one size a street and suit isomorphism a few hundred thousand)."""
_MAX_SIZES = 8
MAX_CHIPS = 1e9  #: the largest pot or stack, in chips


@dataclass(frozen=True)
class BetSizes:
    """One player's sizes: bets and raises as fractions of the pot, and whether all-in is one."""

    bets: tuple[float, ...] = ()
    raises: tuple[float, ...] = ()
    bet_allin: bool = False
    raise_allin: bool = False
    geometric: bool = False  # bet ``e``: the same share of the pot on each street left ends all-in

    @classmethod
    def parse(cls, bets: str, raises: str) -> BetSizes:
        """Sizes from text such as ``"33%, 75%, a"`` (bets; ``e`` the geometric bet) and ``"60%"``
        (raises)."""
        b, ba, ge = _parse_sizes(bets, geometric=True)
        r, ra, _ = _parse_sizes(raises, geometric=False)
        return cls(b, r, ba, ra, ge)

    def text(self) -> tuple[str, str]:
        """The (bets, raises) text :meth:`parse` reads back."""
        bets = _format_sizes(self.bets, self.bet_allin)
        if self.geometric:
            bets = ", ".join([t for t in (bets, "e") if t])
        return bets, _format_sizes(self.raises, self.raise_allin)


def _parse_sizes(text: str, geometric: bool) -> tuple[tuple[float, ...], bool, bool]:
    out: list[float] = []
    allin = even = False
    for token in (t.strip() for t in text.replace(";", ",").split(",")):
        if not token:
            continue
        if token.lower() in ("a", "allin", "all-in"):
            allin = True
            continue
        if token.lower() == "e" and geometric:
            even = True
            continue
        try:
            value = float(token.rstrip("%")) / 100 if token.endswith("%") else float("nan")
        except ValueError:
            value = float("nan")
        if not 0 < value <= 100:
            raise SolverError(f"cannot read bet size '{token}' in '{text}': a size is a percentage of "
                              f"the pot such as 75% or a (all-in)")
        out.append(value)
    if len(out) > _MAX_SIZES:
        raise SolverError(f"at most {_MAX_SIZES} sizes a player, not {len(out)} in '{text}'")
    return tuple(sorted(set(out))), allin, even


def _format_sizes(sizes: tuple[float, ...], allin: bool) -> str:
    return ", ".join([f"{s * 100:g}%" for s in sizes] + (["a"] if allin else []))


@dataclass(frozen=True, eq=False)
class Tree:
    """Nodes in pre-order (the root is 0). ``kind``, ``player`` (who acts, or who folded),
    ``parent``, ``first``/``count`` (the node's children in ``children``), ``amount`` (at a
    terminal, what the winner takes from the loser) and ``label`` (the action that reached it)."""

    pot: float
    stack: float
    kind: np.ndarray
    player: np.ndarray
    parent: np.ndarray
    first: np.ndarray
    count: np.ndarray
    children: np.ndarray
    amount: np.ndarray
    label: tuple[str, ...]
    board: np.ndarray  # the table of strengths a node's showdowns read: 0, or a river card + 1
    card: np.ndarray | None = None  # a chance node's child: the card it deals + 1 (else 0)
    link: np.ndarray | None = None  # an ISO node: its representative sibling (else -1)
    perm: np.ndarray | None = None  # an ISO node: the index in suit_perms taking the representative to it
    suit_perms: tuple[tuple[int, ...], ...] = ((0, 1, 2, 3),)
    dealer: Dealer | _Cards | None = None  # what dealt the chance nodes' cards (a checked-down copy reuses it)
    rake: tuple[float, float] = (0.0, 0.0)  # the house's share of the pot at a terminal, and its cap (0: none)

    def rakes(self) -> np.ndarray:
        """Each node's rake in chips: at a terminal the share of the pot both put in (twice the
        loser's part: an uncalled bet is not raked), at most the cap; 0 elsewhere."""
        rate, cap = self.rake
        end = (self.kind == FOLD) | (self.kind == SHOWDOWN)
        out: np.ndarray = np.where(end, rate * 2 * self.amount, 0.0)
        return np.minimum(out, cap) if cap > 0 else out

    def __post_init__(self) -> None:
        if self.card is None:  # trees built by hand (Leduc): a chance node's child deals its board's card
            object.__setattr__(self, "card", np.where(self.kind[np.maximum(self.parent, 0)] == CHANCE, self.board, 0)
                               .astype(np.int32) * (self.parent >= 0))
        if self.link is None:
            object.__setattr__(self, "link", np.full(len(self.kind), -1, dtype=np.int32))
        if self.perm is None:
            object.__setattr__(self, "perm", np.full(len(self.kind), -1, dtype=np.int32))

    def dealt(self, node: int) -> list[int]:
        """The cards chance dealt on the way to ``node`` (an ISO node's own card included)."""
        assert self.card is not None
        out = []
        while node > 0:
            if self.card[node]:
                out.append(int(self.card[node]) - 1)
            node = int(self.parent[node])
        return out[::-1]

    @property
    def size(self) -> int:
        """How many nodes the tree has."""
        return len(self.kind)

    @property
    def decision_count(self) -> int:
        """How many nodes are decisions."""
        return int((self.kind == DECISION).sum())

    def kids(self, node: int) -> list[int]:
        """The children of ``node``, in the order of :meth:`actions`."""
        return [int(c) for c in self.children[self.first[node]:self.first[node] + self.count[node]]]

    def actions(self, node: int) -> list[str]:
        """The actions at ``node``."""
        return [self.label[c] for c in self.kids(node)] if self.kind[node] in (DECISION, CHANCE) else []

    def path(self, node: int) -> str:
        """The actions that reach ``node``, e.g. ``'X,B10'`` (the root is ``''``)."""
        steps: list[str] = []
        while node > 0:
            steps.append(self.label[node])
            node = int(self.parent[node])
        return ",".join(reversed(steps))

    def find(self, path: str) -> int:
        """The node the actions ``path`` reach (``''`` or ``'root'`` is the root)."""
        node = 0
        for step in (s.strip() for s in path.replace(" ", "").split(",")):
            if step in ("", "root"):
                continue
            names = self.actions(node)
            if step.upper() not in [n.upper() for n in names]:
                raise SolverError(f"no action '{step}' at node '{self.path(node) or 'root'}' in path "
                                  f"'{path}': the actions there are {', '.join(names) or 'none (the hand is over)'}")
            node = self.kids(node)[[n.upper() for n in names].index(step.upper())]
            if self.kind[node] == ISO:
                assert self.link is not None
                raise SolverError(f"the card {step} at '{self.path(int(self.parent[node])) or 'root'}' is solved as "
                                  f"its suit-isomorphic card {self.label[int(self.link[node])]}: ask for that node")
        return node


def build_tree(pot: float, stack: float, sizes: tuple[BetSizes, BetSizes], *,
               allin_threshold: float = 0.15, max_raises: int = 3, river_cards: Sequence[int] = (),
               river_sizes: tuple[BetSizes, BetSizes] | None = None, dealer: Dealer | _Cards | None = None,
               later_sizes: Sequence[tuple[BetSizes, BetSizes]] = (), rake: float = 0.0, rake_cap: float = 0.0,
               donk: Sequence[BetSizes | None] = ()) -> Tree:
    """The tree of a spot: ``pot`` before the street, ``stack`` each player's chips behind.

    With ``river_cards`` (card ids) the street is the turn: when its betting ends without a
    fold, a chance node deals each river card (labelled by the card, e.g. ``'7h'``) and the river
    is played with ``river_sizes`` (the same sizes when None). A ``dealer``
    (:class:`~cardlab.solver.suits.Dealer`) deals its streets instead, each card of a suit class
    but its representative an ISO node, and ``later_sizes`` gives each later street's sizes.
    ``rake`` is the house's share of each pot (0.05: 5%), at most ``rake_cap`` chips (0: no
    cap). ``donk`` gives, per later street, OOP's bet sizes when it leads into the player who
    bet or raised last on the street before (None: its usual sizes)."""
    if not 0 < pot <= MAX_CHIPS or pot != pot:
        raise SolverError(f"the pot is a number of chips above 0, up to {MAX_CHIPS:g}; not {pot}")
    if not 0 <= stack <= MAX_CHIPS or stack != stack:
        raise SolverError(f"the stack is a number of chips from 0 up to {MAX_CHIPS:g}; not {stack}")
    if not 0 <= allin_threshold <= 10 or allin_threshold != allin_threshold:
        raise SolverError(f"the all-in threshold is a share of the pot from 0 to 10; not {allin_threshold}")
    if not 0 <= max_raises <= 16:
        raise SolverError(f"at most 16 raises; not {max_raises}")
    if not 0 <= rake < 1 or not 0 <= rake_cap <= MAX_CHIPS:
        raise SolverError(f"the rake is a share of the pot from 0 up to 1 and its cap chips from 0 (none) up; "
                          f"not {rake} and {rake_cap}")
    b = _Builder(pot, stack, sizes, allin_threshold, max_raises)
    if dealer is None and river_cards:
        b.dealer = _Cards(list(river_cards))
    else:
        b.dealer = dealer
    b.later = list(later_sizes) or [river_sizes or sizes] * (b.dealer.streets if b.dealer else 0)
    b.donk = list(donk) + [None] * (len(b.later) - len(donk))
    b.decision(-1, "", 0, (pot / 2, pot / 2), 0, 0.0, False)
    def ints(values: list[int]) -> np.ndarray:
        return np.array(values, dtype=np.int32)

    perms = tuple(tuple(p) for p in b.dealer.perms) if b.dealer else ((0, 1, 2, 3),)
    return Tree(pot, stack, ints(b.kind), ints(b.player), ints(b.parent), ints(b.first), ints(b.count),
                ints(b.children), np.array(b.amount, dtype=np.float64), tuple(b.label), ints(b.board),
                ints(b.card), ints(b.link), ints(b.perm), perms, b.dealer, (float(rake), float(rake_cap)))


class _Cards:
    """A turn spot's river cards, every one solved (a :class:`~cardlab.solver.suits.Dealer` without
    permutations, for trees built from a list of cards)."""

    streets = 1
    perms = [(0, 1, 2, 3)]

    def __init__(self, cards: list[int]) -> None:
        self.cards = cards

    def deal(self, dealt: tuple[int, ...]) -> list[tuple[int, int, int]]:
        return [(c, c, 0) for c in self.cards]

    def table(self, dealt: tuple[int, ...]) -> int:
        return dealt[-1] + 1 if dealt else 0


class _Builder:
    def __init__(self, pot: float, stack: float, sizes: tuple[BetSizes, BetSizes], threshold: float,
                 max_raises: int) -> None:
        self.pot, self.stack, self.sizes, self.threshold, self.max_raises = pot, stack, sizes, threshold, max_raises
        self.kind: list[int] = []
        self.player: list[int] = []
        self.parent: list[int] = []
        self.first: list[int] = []
        self.count: list[int] = []
        self.amount: list[float] = []
        self.label: list[str] = []
        self.children: list[int] = []
        self.board: list[int] = []
        self.card: list[int] = []
        self.link: list[int] = []
        self.perm: list[int] = []
        self.dealer: Dealer | _Cards | None = None
        self.later: list[tuple[BetSizes, BetSizes]] = []
        self.donk: list[BetSizes | None] = []
        self.leading: BetSizes | None = None  # OOP's donk sizes at the street's first node
        self.dealt: tuple[int, ...] = ()  # the cards dealt on the way to the nodes being made
        self.table = 0  # the board table of the nodes being made
        self.street = pot / 2  # each player's chips in the pot when the street began

    def _node(self, parent: int, label: str, kind: int, player: int, amount: float) -> int:
        if len(self.kind) >= MAX_NODES:
            raise SolverError(f"the tree has over {MAX_NODES:,} nodes: give fewer bet sizes or fewer raises")
        self.kind.append(kind)
        self.player.append(player)
        self.parent.append(parent)
        self.first.append(0)
        self.count.append(0)
        self.amount.append(amount)
        self.label.append(label)
        self.board.append(self.table)
        self.card.append(0)
        self.link.append(-1)
        self.perm.append(-1)
        return len(self.kind) - 1

    def decision(self, parent: int, label: str, p: int, put: tuple[float, float], raises: int,
                 last: float, checked: bool) -> int:
        """A node where ``p`` acts; ``put`` is each player's chips in the pot, ``last`` the size of
        the last bet or raise, ``checked`` whether OOP checked before."""
        node = self._node(parent, label, DECISION, p, 0.0)
        top = self.pot / 2 + self.stack
        facing = put[1 - p] - put[p]
        kids: list[int] = []
        leading, self.leading = self.leading, None
        if facing <= 0:
            bets = self._sizes(p, put, top, bet=True, last=0.0, sizes=leading)
            if p == 0:
                kids.append(self.decision(node, "X", 1, put, 0, 0.0, True))
            else:
                kids.append(self._end(node, "X", put, -1))
            for to in bets:
                after = (to, put[1]) if p == 0 else (put[0], to)
                kids.append(self.decision(node, f"B{_chips(to - put[p])}", 1 - p, after, 0, to - put[p], checked))
        else:
            kids.append(self._node(node, "F", FOLD, p, put[p]))
            kids.append(self._end(node, "C", (put[1 - p], put[1 - p]), 1 - p))
            if raises < self.max_raises and put[1 - p] < top:
                for to in self._sizes(p, put, top, bet=False, last=last):
                    after = (to, put[1]) if p == 0 else (put[0], to)
                    kids.append(self.decision(node, f"R{_chips(to - self.street)}", 1 - p, after,
                                              raises + 1, to - put[1 - p], checked))
        self.first[node] = len(self.children)
        self.count[node] = len(kids)
        self.children.extend(kids)
        return node

    def _end(self, parent: int, label: str, put: tuple[float, float], aggressor: int) -> int:
        """The betting of a street ends without a fold: a showdown on the river, else a chance
        node dealing each card of the next street, then its betting (or, after an all-in, the next
        card or the showdown). ``aggressor``: who bet or raised last on the street (-1: nobody)."""
        dealer = self.dealer
        if dealer is None or len(self.dealt) >= dealer.streets:
            return self._node(parent, label, SHOWDOWN, -1, put[0])
        cards = dealer.deal(self.dealt)
        node = self._node(parent, label, CHANCE, -1, 1.0 / (len(cards) - 4))
        kids = []
        saved = self.sizes, self.street, self.dealt, self.table
        self.sizes, self.street = self.later[len(self.dealt)], put[0]
        made: dict[int, int] = {}
        for card, rep, perm in cards:
            self.dealt = saved[2] + (card,)
            name = format_cards([card])
            if rep != card:
                kid = self._node(node, name, ISO, -1, 0.0)
                self.link[kid], self.perm[kid] = made[rep], perm
            else:
                self.table = dealer.table(self.dealt)
                if put[0] >= self.pot / 2 + self.stack - 1e-9:
                    kid = self._end(node, name, put, -1) if len(self.dealt) < dealer.streets \
                        else self._node(node, name, SHOWDOWN, -1, put[0])
                else:
                    self.leading = self.donk[len(saved[2])] if aggressor == 1 else None
                    kid = self.decision(node, name, 0, put, 0, 0.0, False)
                made[card] = kid
            self.card[kid] = card + 1
            kids.append(kid)
        self.sizes, self.street, self.dealt, self.table = saved
        self.first[node] = len(self.children)
        self.count[node] = len(kids)
        self.children.extend(kids)
        return node

    def _sizes(self, p: int, put: tuple[float, float], top: float, bet: bool, last: float,
               sizes: BetSizes | None = None) -> list[float]:
        """The totals ``p`` may put in by betting (or raising): sizes (``sizes`` instead of the
        street's, a donk bet), all-in threshold, min-raise."""
        mine = sizes or self.sizes[p]
        facing = put[1 - p] - put[p]
        base = put[0] + put[1] + facing  # the pot after a call
        out: set[float] = set()
        shares = list(mine.bets if bet else mine.raises)
        if bet and mine.geometric:
            streets = 1 + (self.dealer.streets - len(self.dealt) if self.dealer else 0)
            shares.append((((base + 2 * (top - put[p])) / base) ** (1 / streets) - 1) / 2)
        for share in shares:
            to = put[1 - p] + share * base
            if not bet:
                to = max(to, put[1 - p] + last)
            if top - to < self.threshold * (put[0] + put[1] + facing + 2 * (to - put[1 - p])) or to >= top:
                to = top
            out.add(round(to, 6))
        if mine.bet_allin if bet else mine.raise_allin:
            out.add(round(top, 6))
        return sorted(t for t in out if t > put[1 - p] + 1e-9 and top > put[p] + 1e-9)


def _chips(value: float) -> str:
    return f"{round(value, 2):g}"
