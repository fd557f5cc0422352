"""The functions a dealer script may call, and the per-hand features they share within a batch.

Every function is one entry of :data:`FUNCTIONS`: the word the script uses, the
kinds of its arguments (seat, suit, strain, card, shapes, vul, contract, expr),
how many trailing ones are optional, and the evaluator that turns a batch of
deals into one integer per deal. A double-dummy ``dds(SEAT, STRAIN)`` is one
more entry (see :func:`register`).

Features are computed once per batch and seat and shared by every function
that needs them (a ``Hands`` caches suit lengths, point tables per suit, ...).

>>> import numpy as np
>>> owner = (np.arange(52) % 4).astype(np.uint8)   # card id % 4 is the suit: North gets the clubs
>>> hands = Hands.from_owner(owner[:, None], Tables.standard())
>>> hands.lengths(0)[:, 0].tolist()   # North holds the 13 clubs
[13, 0, 0, 0]
>>> int(evaluate_call("hcp", (0,), hands)[0]), int(evaluate_call("losers", (0,), hands)[0])
(10, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

import numpy as np

from cardlab._native import core as _core
from cardlab.bridge.dealer.dealing import byte_view
from cardlab.bridge.dealer.holdings import HoldingTable
from cardlab.bridge.polynomials import shape_key
from cardlab.cards import SUIT_NAMES
from cardlab.errors import DealerScriptError

__all__ = ["Shapes", "FunctionSpec", "FUNCTIONS", "EVALUATORS", "Hands", "Tables", "register", "evaluate_call", "C_DEALER_IMP_TABLE",
           "SHAPE_CLASSES", "shape_class"]

@dataclass(frozen=True)
class Shapes:
    """The suit-length vectors (spades, hearts, diamonds, clubs) a ``shape()`` list accepts, as keys
    :func:`cardlab.bridge.polynomials.shape_key` (the parser builds it; :mod:`cardlab.bridge.dealer.parser`
    re-exports it with the other expression nodes)."""

    keys: tuple[int, ...]
    text: str = field(default="", compare=False)

    def __repr__(self) -> str:
        return "Shapes(...)"


# default alternative counts pt0..pt9 (ranks 2..A): tens, jacks, queens, kings, aces, top2, top3, top4, top5, c13
_ALT_DEFAULTS: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 6),
)
_CONTROLS = (0,) * 11 + (1, 2)
_HCP = (0,) * 9 + (1, 2, 3, 4)


@dataclass(frozen=True)
class Tables:
    """Point tables per rank (2..A): ``hcp`` (the script's pointcount), ``alt`` pt0..pt9, controls."""

    hcp: tuple[int, ...] = _HCP
    alt: tuple[tuple[int, ...], ...] = _ALT_DEFAULTS

    @classmethod
    def standard(cls) -> "Tables":
        """The C dealer's default tables (4-3-2-1 points, its alternative counts)."""
        return cls()

    @classmethod
    def for_script(cls, pointcount: tuple[int, ...], altcounts: tuple[tuple[int, tuple[int, ...]], ...]) -> "Tables":
        """The tables of a script: its ``pointcount`` and its ``altcount`` lines over the defaults."""
        alt = list(_ALT_DEFAULTS)
        for k, table in altcounts:
            alt[k] = table
        return cls(tuple(pointcount), tuple(alt))

    def table(self, key: str | int) -> tuple[int, ...]:
        """The per-rank values for ``hcp``, ``controls`` or alternative count ``0``..``9``."""
        if key == "hcp":
            return self.hcp
        if key == "controls":
            return _CONTROLS
        return self.alt[int(key)]


class Hands:
    """A batch of deals as suit masks ``masks[4, 4, n]`` (see :mod:`.dealing`), with cached features.

    Per-suit features are ``(4, n)`` int64 arrays, suits in card-id order (clubs, diamonds, hearts,
    spades); each is one table lookup per suit mask (``cardlab._core.suit_values``), and a hand's
    total one summed lookup (``hand_values``), both in the compiled core.
    """

    def __init__(self, masks: np.ndarray, tables: Tables,
                 rng: np.random.Generator | np.random.SeedSequence | None = None, *,
                 _box: list[np.random.Generator | np.random.SeedSequence | None] | None = None) -> None:
        self.masks = np.ascontiguousarray(masks, dtype=np.uint16)
        self.n = int(self.masks.shape[2])
        self.tables = tables
        self._rng = _box if _box is not None else [rng]  # shared with subsets: one generator per batch
        self._cache: dict[Any, np.ndarray] = {}

    @classmethod
    def from_owner(cls, owner: np.ndarray, tables: Tables, rng: np.random.Generator | None = None) -> "Hands":
        """From ``owner[52, n]`` (the seat of each card id)."""
        from cardlab.bridge.dealer.dealing import masks_from_owner

        return cls(masks_from_owner(owner), tables, rng)

    @property
    def rng(self) -> np.random.Generator:
        """The batch's numpy generator (for ``rnd()``), made from the chunk's seed on first use."""
        box = self._rng
        held = box[0]
        if isinstance(held, np.random.Generator):
            return held
        generator = np.random.default_rng(held)
        box[0] = generator
        return generator

    @property
    def owner(self) -> np.ndarray:
        """``owner[52, n]``: the seat of each card id (for double dummy and other per-card uses)."""
        key = ("owner",)
        if key not in self._cache:
            from cardlab.bridge.dealer.dealing import owner_from_masks

            self._cache[key] = owner_from_masks(self.masks)
        return self._cache[key]

    def subset(self, rows: np.ndarray) -> "Hands":
        """The same hands restricted to the deals at ``rows``."""
        return Hands(self.masks[:, :, rows], self.tables, _box=self._rng)

    def per_suit(self, seat: int, table_key: Any) -> np.ndarray:
        """``(4, n)`` int64 values per suit (clubs..spades) of a suit table (see :func:`suit_table`)."""
        key = ("suit", seat, table_key)
        if key not in self._cache:
            out = np.empty((4, self.n), dtype=np.int64)
            _core.suit_values(byte_view(self.masks[seat]), byte_view(suit_table(self.tables, table_key)), byte_view(out))
            self._cache[key] = out
        return self._cache[key]

    def suit_value(self, seat: int, suit: int, table_key: Any) -> np.ndarray:
        """``(n,)`` int64: a suit table for one suit of the seat (only that suit is looked up)."""
        full = self._cache.get(("suit", seat, table_key))
        if full is not None:
            one: np.ndarray = full[suit]
            return one
        key = ("one", seat, suit, table_key)
        if key not in self._cache:
            out = np.empty(self.n, dtype=np.int64)
            _core.suit_values(byte_view(self.masks[seat, suit]), byte_view(suit_table(self.tables, table_key)),
                              byte_view(out))
            self._cache[key] = out
        return self._cache[key]

    def total(self, seat: int, table_key: Any) -> np.ndarray:
        """``(n,)`` int64: a suit table summed over the hand's four suits."""
        key = ("total", seat, table_key)
        if key not in self._cache:
            suit = ("suit", seat, table_key)
            if suit in self._cache:
                self._cache[key] = self._cache[suit].sum(axis=0)
            else:
                out = np.empty(self.n, dtype=np.int64)
                _core.hand_values(byte_view(self.masks[seat]), byte_view(suit_table(self.tables, table_key)), byte_view(out))
                self._cache[key] = out
        return self._cache[key]

    def lengths(self, seat: int) -> np.ndarray:
        """``(4, n)`` suit lengths of the seat, clubs first."""
        return self.per_suit(seat, "length")

    def card(self, seat: int, card: int) -> np.ndarray:
        """Whether the seat holds the card (bool per deal)."""
        rank, suit = divmod(card, 4)
        return np.asarray((self.masks[seat, suit] >> rank) & 1, dtype=np.bool_)

    def shape_in(self, seat: int, table: np.ndarray) -> np.ndarray:
        """``table[shape key]`` per deal (bool), the key ``((s * 14 + h) * 14 + d) * 14 + c`` of the
        seat's suit lengths (one pass of the compiled core over the masks)."""
        out = np.empty(self.n, dtype=np.bool_)
        _core.shape_values(byte_view(self.masks[seat]), byte_view(table.view(np.uint8)), byte_view(out.view(np.uint8)))
        return out

    def shape_key(self, seat: int) -> np.ndarray:
        """:func:`~cardlab.bridge.polynomials.shape_key` of the seat's suit lengths, per deal."""
        key = ("shapekey", seat)
        if key not in self._cache:
            c, d, h, s = self.lengths(seat)
            self._cache[key] = shape_key(s, h, d, c)
        return self._cache[key]


_MASKS = np.arange(8192)
_BITS = (_MASKS[:, None] >> np.arange(13)) & 1  # (8192, 13): rank r held


def _suit_losers_table() -> np.ndarray:
    n = _BITS.sum(axis=1)
    a, k, q = _BITS[:, 12], _BITS[:, 11], _BITS[:, 10]
    return np.where(n == 0, 0, np.where(n == 1, 1 - a, np.where(n == 2, 2 - a - k, 3 - a - k - q)))


def _quality_table() -> np.ndarray:
    """Suit quality x 100 (The Bridge World, October 1982), as in the C dealer."""
    n = _BITS.sum(axis=1)
    a, k, q, j, t, nine, eight = (_BITS[:, r] for r in (12, 11, 10, 9, 8, 7, 6))
    factor = n * 10
    higher = a + k + q + j
    value = (4 * a + 3 * k + 2 * q + j) * factor
    replace = np.minimum(3 - 2 * q - j, n - 6)
    long_part = replace * factor
    ten = np.where((higher > 1) | (j == 1), factor, factor // 2) * t
    nine_part = np.where((higher == 2) | (t == 1) | (eight == 1), factor // 2, 0) * nine
    return np.asarray(value + np.where(n > 6, long_part, ten + nine_part), dtype=np.int64)


def _cccc_suit_table() -> np.ndarray:
    """The Kaplan-Rubens count x 100 of one suit, without the shape points."""
    n = _BITS.sum(axis=1)
    a, k, q, j, t, nine = (_BITS[:, r] for r in (12, 11, 10, 9, 8, 7))
    total = 300 * a + k * (200 - 150 * (n == 1))
    total += q * (100 - 75 * (n == 1) - 25 * (n == 2) - 25 * ((a + k) == 0))
    above_j = a + k + q
    total += j * (50 * (above_j == 2) + 25 * (above_j == 1))
    above_t = above_j + j
    total += t * (25 * (above_t == 2) + 25 * ((above_t == 1) & (nine == 1)))
    return np.asarray(total + _quality_table(), dtype=np.int64)


_FIXED_TABLES: dict[str, Callable[[], np.ndarray]] = {
    "length": lambda: _BITS.sum(axis=1),
    "losers": _suit_losers_table,
    "quality": _quality_table,
    "cccc": _cccc_suit_table,
    "short": lambda: np.maximum(3 - _BITS.sum(axis=1), 0) * 100,
}


@lru_cache(maxsize=64)
def suit_table(tables: Tables, key: Any) -> np.ndarray:
    """The value of every suit holding (8192 masks, int64) for ``key``: a rank table of ``tables``
    (``"hcp"``, ``"controls"``, 0..9 for pt0..pt9) summed over the ranks held, or one of
    ``"length"``, ``"losers"``, ``"quality"``, ``"cccc"`` (Kaplan-Rubens without shape), ``"short"``."""
    if isinstance(key, str) and key in _FIXED_TABLES:
        table = _FIXED_TABLES[key]()
    elif isinstance(key, HoldingTable):  # a user holding function
        table = key.values
    else:
        table = _BITS @ np.array(tables.table(key), dtype=np.int64)
    return np.ascontiguousarray(table, dtype=np.int64)


# --- evaluators ----------------------------------------------------------------------------------


def _length(h: Hands, seat: int, suit: int) -> np.ndarray:
    return h.suit_value(seat, suit, "length")


def _points(h: Hands, table: Any, seat: int, suit: int | None = None) -> np.ndarray:
    return h.total(seat, table) if suit is None else h.suit_value(seat, suit, table)


def _losers(h: Hands, seat: int, suit: int | None = None) -> np.ndarray:
    return _points(h, "losers", seat, suit)


def _shape(h: Hands, seat: int, shapes: Shapes) -> np.ndarray:
    return h.shape_in(seat, _shape_table(shapes.keys))


_SHAPE_TABLES: dict[tuple[int, ...], np.ndarray] = {}


def _shape_table(keys: tuple[int, ...]) -> np.ndarray:
    if keys not in _SHAPE_TABLES:
        table = np.zeros(14 ** 4, dtype=bool)
        table[list(keys)] = True
        _SHAPE_TABLES[keys] = table
    return _SHAPE_TABLES[keys]


def _hascard(h: Hands, seat: int, card: int) -> np.ndarray:
    return h.card(seat, card)


def _quality(h: Hands, seat: int, suit: int) -> np.ndarray:
    """Suit quality x 100 (The Bridge World, October 1982), as in the C dealer."""
    return h.suit_value(seat, suit, "quality")


def _cccc(h: Hands, seat: int) -> np.ndarray:
    """The Kaplan-Rubens count x 100 (The Bridge World, October 1982), as in the C dealer."""
    shape_points = h.total(seat, "short")
    return h.total(seat, "cccc") + np.where(shape_points == 0, -50, shape_points - 100)


#: The C dealer's IMP table, kept only for the dealer language's ``imps()`` so that scripts give
#: what the C program gives: ``imps(d)`` is the number of entries below ``|d|``. It is not the
#: WBF scale (:data:`cardlab.scoring.matchpoints.IMP_BOUNDS`, used for all scoring): on score
#: differences (multiples of 10) it gives one IMP more at 420 (10, WBF 9) and at 1200-1290
#: (16, WBF 15). tests/test_imp_tables.py checks both facts, and the C program when installed.
C_DEALER_IMP_TABLE = np.array([10, 40, 80, 120, 160, 210, 260, 310, 360, 410, 490, 590, 740, 890, 1090, 1190,
                               1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990])


def _imps(h: Hands, diff: np.ndarray) -> np.ndarray:
    """``imps(EXPR)``: IMPs on the C dealer's table (:data:`C_DEALER_IMP_TABLE`), sign kept."""
    imps = np.searchsorted(C_DEALER_IMP_TABLE, np.abs(diff), side="left")
    result: np.ndarray = np.where(diff < 0, -imps, imps).astype(np.int64)
    return result


def _score(h: Hands, vul: int, contract: int, tricks: np.ndarray) -> np.ndarray:
    """Undoubled score for declarer (as the C dealer's score()); made and down."""
    level, strain = divmod(contract, 5)
    tricks = np.asarray(tricks, dtype=np.int64)
    per_trick = 30 if strain >= 2 else 20
    contract_points = level * per_trick + (10 if strain == 4 else 0)
    made = contract_points + 50
    if contract_points >= 100:
        made += 250 + 200 * vul
    if level == 6:
        made += 500 + 250 * vul
    if level == 7:
        made += 1000 + 500 * vul
    over = tricks - 6 - level
    return np.where(over >= 0, made + per_trick * over, 50 * (1 + vul) * over)


def _rnd(h: Hands, limit: np.ndarray) -> np.ndarray:
    limit = np.broadcast_to(np.asarray(limit, dtype=np.int64), (h.n,))
    if (limit <= 0).any():
        raise DealerScriptError("rnd() needs a positive limit")
    return np.asarray((h.rng.random(h.n) * limit).astype(np.int64), dtype=np.int64)


EVALUATORS: dict[str, Callable[..., np.ndarray]] = {
    "length": _length, "points": _points, "losers": _losers, "shape": _shape, "hascard": _hascard,
    "quality": _quality, "cccc": _cccc, "imps": _imps, "score": _score, "rnd": _rnd,
}


@dataclass(frozen=True)
class FunctionSpec:
    """A script function: ``word(params...)`` evaluated by ``EVALUATORS[name]`` with
    ``preset`` arguments first; ``expensive`` functions are only evaluated where needed
    (the right side of ``&&``/``||`` runs on the deals still undecided)."""

    word: str
    name: str
    params: tuple[str, ...]
    optional: int = 0
    preset: tuple[Any, ...] = ()
    expensive: bool = False
    note: str = field(default="", compare=False)

    def arity_text(self) -> str:
        """How many arguments the function takes, in words, for error messages."""
        most = len(self.params)
        least = most - self.optional
        names = ", ".join(self.params)
        return f"{least} argument{'s' if least != 1 else ''} ({names})" if least == most else \
            f"{least} to {most} arguments ({names})"

    def bind(self, args: list[Any]) -> tuple[Any, ...]:
        """The evaluator's arguments: the preset ones, then the script's."""
        return (*self.preset, *args)


FUNCTIONS: dict[str, FunctionSpec] = {}


def register(spec: FunctionSpec, evaluator: Callable[..., np.ndarray] | None = None) -> None:
    """Add a function (e.g. ``dds(SEAT, STRAIN)`` from a double-dummy module) to the language."""
    FUNCTIONS[spec.word] = spec
    if evaluator is not None:
        EVALUATORS[spec.name] = evaluator


for _word, _suit in ((w, s) for s, name in enumerate(SUIT_NAMES) for w in (name[:-1], name)):
    register(FunctionSpec(_word, "length", ("seat",), preset=()))
    FUNCTIONS[_word] = FunctionSpec(_word, "length_" + str(_suit), ("seat",))
    EVALUATORS["length_" + str(_suit)] = (lambda s: lambda h, seat: _length(h, seat, s))(_suit)
register(FunctionSpec("hcp", "points", ("seat", "suit"), optional=1, preset=("hcp",)))
for _word in ("control", "controls"):
    register(FunctionSpec(_word, "points", ("seat", "suit"), optional=1, preset=("controls",)))
for _k, _names in enumerate((("tens", "ten"), ("jacks", "jack"), ("queens", "queen"), ("kings", "king"),
                             ("aces", "ace"), ("top2",), ("top3",), ("top4",), ("top5",), ("c13",))):
    for _word in (f"pt{_k}", *_names):
        register(FunctionSpec(_word, "points", ("seat", "suit"), optional=1, preset=(_k,)))
for _word in ("loser", "losers"):
    register(FunctionSpec(_word, "losers", ("seat", "suit"), optional=1))
register(FunctionSpec("shape", "shape", ("seat", "shapes")))
register(FunctionSpec("hascard", "hascard", ("seat", "card")))
register(FunctionSpec("quality", "quality", ("seat", "suit")))
register(FunctionSpec("cccc", "cccc", ("seat",)))
for _word in ("imp", "imps"):
    register(FunctionSpec(_word, "imps", ("expr",)))
register(FunctionSpec("score", "score", ("vul", "contract", "expr")))
register(FunctionSpec("rnd", "rnd", ("expr",)))


def shape_class(test: Callable[[int, int, int, int], bool], text: str) -> Shapes:
    """The suit-length vectors (spades, hearts, diamonds, clubs) for which ``test`` holds."""
    keys = (shape_key(s, h, d, 13 - s - h - d) for s in range(14) for h in range(14 - s) for d in range(14 - s - h)
            if test(s, h, d, 13 - s - h - d))
    return Shapes(tuple(sorted(int(k) for k in keys)), text)


def _pattern_in(*patterns: str) -> Callable[[int, int, int, int], bool]:
    wanted = {tuple(int(ch) for ch in p) for p in patterns}
    return lambda s, h, d, c: tuple(sorted((s, h, d, c), reverse=True)) in wanted


#: Two programs, two meanings of "balanced" (docs/dealer.md): Deal 3.1's shapecond balanced and
#: semibalanced (its lib/features.tcl: no five-card major; semibalanced no six-card major) and
#: redeal's Balanced and SemiBalanced (any 4333, 4432, 5332; plus any 5422 and 6322).
SHAPE_CLASSES: dict[str, Shapes] = {
    "balanced_deal": shape_class(lambda s, h, d, c: h < 5 and s < 5 and s * s + h * h + d * d + c * c <= 47,
                                 "Deal 3.1 balanced"),
    "semibalanced_deal": shape_class(lambda s, h, d, c: h <= 5 and s <= 5 and d <= 6 and c <= 6 and min(s, h, d, c) >= 2,
                                     "Deal 3.1 semibalanced"),
    "balanced_redeal": shape_class(_pattern_in("4333", "4432", "5332"), "redeal Balanced"),
    "semibalanced_redeal": shape_class(_pattern_in("4333", "4432", "5332", "5422", "6322"), "redeal SemiBalanced"),
}
for _word, _shapes in SHAPE_CLASSES.items():
    register(FunctionSpec(_word, "shape_class", ("seat",), preset=(_shapes,)),
             lambda h, shapes, seat: _shape(h, seat, shapes))


def _shape_value(h: Hands, table: Any, seat: int) -> np.ndarray:
    """A ``shapefunc``'s value for the seat's suit lengths (one lookup by shape key)."""
    return np.asarray(table.values[h.shape_key(seat)], dtype=np.int64)


EVALUATORS["shape_value"] = _shape_value


def evaluate_call(name: str, args: tuple[Any, ...], hands: Hands) -> np.ndarray:
    """Evaluate a registered function with already evaluated arguments (shortcut used by tests)."""
    spec = FUNCTIONS.get(name)
    if spec is not None:
        return np.asarray(EVALUATORS[spec.name](hands, *spec.bind(list(args))))
    return np.asarray(EVALUATORS[name](hands, *args))


def _tricks(h: Hands, seat: int, strain: int) -> np.ndarray:
    """Double-dummy tricks of ``seat`` as declarer in ``strain`` (0 clubs .. 3 spades, 4 notrump),
    solved by DDS in batches for that one declarer and strain only (the opening leader's best
    defence: :func:`cardlab.bridge.dd.declarer_tricks`), not the strain's four declarers."""
    from cardlab.bridge.dd import declarer_tricks

    owner = np.asarray(h.owner).T  # (n, 52): the seat of each card id
    if len(owner) == 0:
        return np.zeros(0, dtype=np.int64)
    hands = np.argsort(owner, axis=1, kind="stable").reshape(-1, 4, 13)  # card ids by seat N, E, S, W
    return declarer_tricks(hands, [(seat, strain)])[:, 0].astype(np.int64)


for _word in ("trick", "tricks", "dds"):
    register(FunctionSpec(_word, "tricks", ("seat", "strain"), expensive=True), _tricks)


def _par(h: Hands, side: int, vulnerability: str | None = None) -> np.ndarray:
    """DealerV2's ``par(SIDE[, VUL])``: the par score of each deal for North-South (side 0) or
    East-West (1), from its double-dummy table solved by DDS (:func:`cardlab.bridge.dd.dd_tables`,
    North dealing; vulnerability none unless given)."""
    from cardlab.bridge.dd import dd_tables
    from cardlab.deal import Deal

    owner = np.asarray(h.owner)
    if h.n == 0:
        return np.zeros(0, dtype=np.int64)
    deals = [Deal(owner[:, i].tobytes()) for i in range(h.n)]
    ns = np.array([t.par_score for t in dd_tables(deals, "N", vulnerability or "None").tables], dtype=np.int64)
    return ns if side == 0 else -ns


register(FunctionSpec("par", "par", ("side", "vulnerability"), optional=1, expensive=True), _par)
