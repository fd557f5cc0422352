"""Evaluating a parsed script over a whole batch of deals at once (numpy), integers as in C.

Each variable is evaluated at most once per batch; per-hand features are shared
through :class:`~cardlab.bridge.dealer.functions.Hands`. Division truncates
toward zero and ``%`` takes the sign of the dividend, as in C; all values are
64-bit. Expensive functions on the right of ``&&``, ``||`` or in a ``?:`` branch
run only on the deals that need them.

Arithmetic never wraps silently: every expression's range is bounded before dealing
(:func:`value_bounds`, from the ranges of the functions and the numbers of the
script), and only the operations whose range may leave 64 bits are checked on the
deals; an overflow raises :class:`~cardlab.errors.DealerScriptError` quoting the
expression.

>>> import numpy as np
>>> from cardlab.bridge.dealer.parser import parse_script
>>> from cardlab.bridge.dealer.functions import Hands, Tables
>>> s = parse_script("x = -7 / 2 * 10 + -7 % 2\\ncondition x == -31")
>>> hands = Hands(np.zeros((4, 4, 3), dtype=np.uint16), Tables.standard())
>>> Evaluator(s).truth(s.condition, hands).tolist()
[True, True, True]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from cardlab.bridge.dealer.functions import EVALUATORS, FUNCTIONS, Hands, Tables
from cardlab.bridge.dealer.holdings import HoldingTable
from cardlab.bridge.dealer.parser import SEAT_NAMES, Binary, Call, Cond, Num, Script, Shapes, Unary, Var
from cardlab.bridge.dealer.parser import set_expression_values
from cardlab.bridge.dealer.parser import children as _children
from cardlab.errors import DealerScriptError

__all__ = ["Evaluator", "seats_used", "values_on_masks"]

_NODES = (Num, Var, Call, Unary, Binary, Cond)


_LOW, _HIGH = -(2 ** 63), 2 ** 63 - 1
_SHARED: dict[int, tuple[Script, "Evaluator"]] = {}
_COMPARE = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
            ">=": np.greater_equal}


def _truth(value: Any) -> np.ndarray:
    """An array of values as truth values (bool arrays as they are: conditions stay one byte a deal)."""
    array = np.asarray(value)
    return array if array.dtype == np.bool_ else array != 0


def _number(value: Any) -> Any:
    """Truth values as the integers 0 and 1 (numpy's bool arithmetic is logic, not C's)."""
    if isinstance(value, np.ndarray) and value.dtype == np.bool_:
        return value.astype(np.int64)
    return value


class Evaluator:
    """Evaluates expressions of one script over :class:`Hands` batches."""

    def __init__(self, script: Script) -> None:
        self.variables = script.variable_map()
        self._expensive: dict[int, bool] = {}
        self._checked = _unsafe_nodes(script)  # operations whose range may leave 64 bits

    @classmethod
    def for_script(cls, script: Script) -> "Evaluator":
        """The evaluator of ``script``, made once per script object and shared by its chunks
        (its caches only ever gain the same entries, so threads may share it)."""
        entry = _SHARED.get(id(script))
        if entry is None or entry[0] is not script:
            if len(_SHARED) > 32:
                _SHARED.clear()
            entry = (script, cls(script))
            _SHARED[id(script)] = entry
        return entry[1]

    def truth(self, node: Any, hands: Hands) -> np.ndarray:
        """A boolean per deal: the expression ``node`` is non-zero."""
        value = self.value(node, hands)
        return np.broadcast_to(np.asarray(value) != 0, (hands.n,))

    def array(self, node: Any, hands: Hands) -> np.ndarray:
        """The value of ``node`` as one int64 per deal."""
        return np.broadcast_to(np.asarray(self.value(node, hands), dtype=np.int64), (hands.n,))

    def value(self, node: Any, hands: Hands) -> Any:
        """The value of ``node``: a number, or an array with one entry per deal."""
        if isinstance(node, Num):
            return node.value
        if isinstance(node, Var):
            key = ("var", node.name)
            cache = hands._cache
            if key not in cache:
                cache[key] = self.value(self.variables[node.name], hands)
            return cache[key]
        if isinstance(node, Call):
            args = [_number(self.value(a, hands)) if isinstance(a, _NODES) else a for a in node.args]
            return EVALUATORS[node.name](hands, *args)
        if isinstance(node, Unary):
            operand = self.value(node.operand, hands)
            if node.op == "-":
                operand = _number(operand)
                if id(node) in self._checked and np.any(np.asarray(operand) == _LOW):
                    raise _overflow(node, self.variables)
                return -operand
            return ~_truth(operand) if not np.isscalar(operand) else int(operand == 0)
        if isinstance(node, Binary):
            return self._binary(node, hands)
        if isinstance(node, Cond):
            return self._cond(node, hands)
        raise TypeError(f"not an expression node: {node!r}")  # pragma: no cover

    def expensive(self, node: Any) -> bool:
        """Whether ``node`` calls an expensive function (such as ``dds``), directly or through variables."""
        key = id(node)
        if key not in self._expensive:
            self._expensive[key] = _expensive(node, self.variables)
        return self._expensive[key]

    def _binary(self, node: Binary, hands: Hands) -> Any:
        op = node.op
        if op in ("&&", "||"):
            left = self.value(node.left, hands)
            if np.isscalar(left):
                if (op == "&&") != bool(left):
                    return int(op == "||")
                right = self.value(node.right, hands)
                return _truth(right) if not np.isscalar(right) else int(right != 0)
            lt = _truth(left)
            if self.expensive(node.right):
                todo = np.flatnonzero(lt if op == "&&" else ~lt)
                out = lt.copy()
                if todo.size:
                    sub = hands.subset(todo)
                    out[todo] = np.broadcast_to(_truth(self.value(node.right, sub)), (todo.size,))
                return out
            right = self.value(node.right, hands)
            if np.isscalar(right):
                return (lt & bool(right)) if op == "&&" else (lt | bool(right))
            rt = _truth(right)
            return (lt & rt) if op == "&&" else (lt | rt)
        a = self.value(node.left, hands)
        b = self.value(node.right, hands)
        if op in _COMPARE:
            result = _COMPARE[op](a, b)
            return int(result) if np.isscalar(result) or np.ndim(result) == 0 else result
        a, b = _number(a), _number(b)
        if op in ("+", "-", "*") and id(node) in self._checked:
            return _checked_arithmetic(op, a, b, node, self.variables)
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op in ("/", "%"):
            if np.any(np.asarray(b) == 0):
                raise DealerScriptError(f"division by zero: the right side of '{op}' is 0 for some deal")
            if isinstance(a, int) and isinstance(b, int):
                q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
                return q if op == "/" else a - b * q
            if op == "%":
                return np.fmod(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
            a64, b64 = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
            return np.sign(a64) * np.sign(b64) * (np.abs(a64) // np.abs(b64))
        raise TypeError(f"unknown operator {op!r}")  # pragma: no cover

    def _cond(self, node: Cond, hands: Hands) -> Any:
        test = self.value(node.test, hands)
        if np.isscalar(test) or np.ndim(test) == 0:
            return self.value(node.then if test else node.other, hands)
        t = _truth(test)
        if self.expensive(node.then) or self.expensive(node.other):
            out = np.zeros(hands.n, dtype=np.int64)
            for rows, branch in ((np.flatnonzero(t), node.then), (np.flatnonzero(~t), node.other)):
                if rows.size:
                    out[rows] = np.broadcast_to(np.asarray(self.value(branch, hands.subset(rows))), (rows.size,))
            return out
        return np.where(t, self.value(node.then, hands), self.value(node.other, hands))


def _checked_arithmetic(op: str, a: Any, b: Any, node: Any, variables: dict[str, Any]) -> Any:
    """``a op b`` in 64 bits, raising if any deal's exact result does not fit."""
    if np.isscalar(a) and np.isscalar(b) or (np.ndim(a) == 0 and np.ndim(b) == 0):
        exact = int(a) + int(b) if op == "+" else int(a) - int(b) if op == "-" else int(a) * int(b)
        if not _LOW <= exact <= _HIGH:
            raise _overflow(node, variables)
        return exact
    a64 = np.asarray(a, dtype=np.int64)
    b64 = np.asarray(b, dtype=np.int64)
    with np.errstate(over="ignore"):
        if op == "+":
            result = a64 + b64
            bad = ((a64 ^ result) & (b64 ^ result)) < 0
        elif op == "-":
            result = a64 - b64
            bad = ((a64 ^ b64) & (a64 ^ result)) < 0
        else:
            result = a64 * b64
            rough = np.abs(a64.astype(np.float64) * b64.astype(np.float64))
            suspect = np.flatnonzero(np.broadcast_to(rough > 2.0 ** 62, np.shape(result)))
            aa, bb = np.broadcast_arrays(a64, b64)
            bad = np.zeros(np.shape(result), dtype=bool)
            for i in suspect.tolist():  # only products near the limit are checked exactly
                bad.flat[i] = not _LOW <= int(aa.flat[i]) * int(bb.flat[i]) <= _HIGH
    if np.any(bad):
        raise _overflow(node, variables)
    return result


def _overflow(node: Any, variables: dict[str, Any]) -> DealerScriptError:
    return DealerScriptError(f"arithmetic overflows 64 bits in '{expression_text(node)}' for some deal "
                             f"(values must stay between {_LOW:,} and {_HIGH:,})")


_WIDE = (_LOW * 2, _HIGH * 2)  # "anything": a registered function whose range is not known


def value_bounds(node: Any, variables: dict[str, Any], tables: Any = None,
                 memo: dict[int, tuple[int, int]] | None = None) -> tuple[int, int]:
    """The least and greatest value ``node`` can take on any deal (exact integers, possibly beyond
    64 bits: that is what the bounds are for).

    >>> from cardlab.bridge.dealer.parser import parse_script
    >>> value_bounds(parse_script("hcp(north) * 3 - spades(south)").condition, {})
    (-13, 120)
    """
    memo = {} if memo is None else memo
    key = id(node)
    if key in memo:
        return memo[key]
    result = _bounds(node, variables, tables, memo)
    memo[key] = result
    return result


def _rank_tables(tables: Any, key: Any) -> tuple[int, int]:
    if isinstance(key, HoldingTable):  # each suit within the table's range
        values = key.values
        return 4 * min(int(values.min()), 0), 4 * max(int(values.max()), 0)
    table = (tables or Tables.standard()).table(key)
    return 4 * sum(v for v in table if v < 0), 4 * sum(v for v in table if v > 0)


def _bounds(node: Any, variables: dict[str, Any], tables: Any, memo: dict[int, tuple[int, int]]) -> tuple[int, int]:
    def sub(n: Any) -> tuple[int, int]:
        return value_bounds(n, variables, tables, memo)

    if isinstance(node, Num):
        return node.value, node.value
    if isinstance(node, Var):
        return sub(variables[node.name])
    if isinstance(node, Unary):
        lo, hi = sub(node.operand)
        return (0, 1) if node.op == "!" else (-hi, -lo)
    if isinstance(node, Cond):
        sub(node.test)
        (a, b), (c, d) = sub(node.then), sub(node.other)
        return min(a, c), max(b, d)
    if isinstance(node, Binary):
        (a, b), (c, d) = sub(node.left), sub(node.right)
        op = node.op
        if op == "+":
            return a + c, b + d
        if op == "-":
            return a - d, b - c
        if op == "*":
            corners = (a * c, a * d, b * c, b * d)
            return min(corners), max(corners)
        if op == "/":
            m = max(abs(a), abs(b))
            return -m, m
        if op == "%":
            m = min(max(abs(a), abs(b)), max(abs(c), abs(d)))
            return -m, m
        return 0, 1
    if isinstance(node, Call):
        args = [sub(x) if isinstance(x, _NODES) else x for x in node.args]
        name = node.name
        if name.startswith("length"):
            return 0, 13
        if name == "points":
            lo, hi = _rank_tables(tables, node.args[0])
            return lo, hi
        if name in ("shape", "hascard", "shape_class"):
            return 0, 1
        if name == "losers":
            return 0, 12
        if name in ("quality", "cccc"):
            return -100_000, 100_000
        if name == "imps":
            return -24, 24
        if name == "tricks":
            return 0, 13
        if name == "par":
            return -7600, 7600
        if name == "shape_value":
            values = node.args[0].values
            return int(values.min()), int(values.max())
        if name == "score":
            lo, hi = args[2]
            m = max(abs(lo), abs(hi)) + 20
            return -100 * m - 3000, 100 * m + 3000
        if name == "rnd":
            return 0, max(args[0][1] - 1, 0)
        return _WIDE
    return _WIDE


def _unsafe_nodes(script: Script) -> frozenset[int]:
    """The ``+ - *`` and unary ``-`` nodes of a script whose range may leave 64 bits (checked on
    the deals); a number of the script that does not fit in 64 bits is refused at once."""
    from cardlab.bridge.dealer.functions import Tables

    variables = script.variable_map()
    tables = Tables.for_script(script.pointcount, script.altcounts)
    memo: dict[int, tuple[int, int]] = {}
    unsafe: set[int] = set()
    roots = [script.condition, *variables.values()]
    for action in script.actions:
        roots.extend(action.exprs)
        roots.extend(item for item in action.items if not isinstance(item, str))

    def walk(node: Any) -> None:
        if isinstance(node, Num) and not _LOW <= node.value <= _HIGH:
            raise DealerScriptError(f"the number {node.value} does not fit in 64 bits (values must stay between "
                                    f"{_LOW:,} and {_HIGH:,})")
        if isinstance(node, (Binary, Unary)) and (node.op in ("+", "-", "*")):
            lo, hi = value_bounds(node, variables, tables, memo)
            if lo < _LOW or hi > _HIGH:
                unsafe.add(id(node))
        for child in _children(node):
            walk(child)

    for root in roots:
        if isinstance(root, _NODES):
            walk(root)
    return frozenset(unsafe)


def expression_text(node: Any) -> str:
    """An expression written back in the script language (for messages).

    >>> from cardlab.bridge.dealer.parser import parse_script
    >>> expression_text(parse_script("hcp(north, spades) * 1000 + -spades(south)").condition)
    'hcp(north, spades) * 1000 + -spades(south)'
    """
    seats = {v: k for k, v in SEAT_NAMES.items()}
    suits = {0: "clubs", 1: "diamonds", 2: "hearts", 3: "spades", 4: "notrump"}
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Unary):
        return f"{node.op}{_wrapped(node.operand, 7)}"
    if isinstance(node, Binary):
        level = _LEVELS[node.op]
        return f"{_wrapped(node.left, level)} {node.op} {_wrapped(node.right, level + 1)}"
    if isinstance(node, Cond):
        return f"{_wrapped(node.test, 1)} ? {_wrapped(node.then, 0)} : {_wrapped(node.other, 0)}"
    if isinstance(node, Call):
        matches = {w: f for w, f in FUNCTIONS.items() if f.name == node.name
                   and tuple(node.args[:len(f.preset)]) == f.preset}
        spec = next((f for w, f in matches.items() if w + "s" not in matches), None)
        word = spec.word if spec is not None else node.name
        rest = node.args[len(spec.preset):] if spec is not None else node.args
        kinds = spec.params if spec is not None else ("expr",) * len(rest)
        shown = []
        for kind, arg in zip(kinds, rest):
            if isinstance(arg, Shapes):
                shown.append(arg.text or "...")
            elif kind == "seat":
                shown.append(seats.get(arg, str(arg)))
            elif kind in ("suit", "strain"):
                shown.append(suits.get(arg, str(arg)))
            elif isinstance(arg, _NODES):
                shown.append(expression_text(arg))
            else:
                shown.append(str(arg))
        return f"{word}({', '.join(shown)})"
    return str(node)


_LEVELS = {"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "/": 6,
           "%": 6}


def _wrapped(node: Any, level: int) -> str:
    """The expression, in parentheses when it binds less tightly than ``level`` needs."""
    text = expression_text(node)
    own = 0 if isinstance(node, Cond) else _LEVELS[node.op] if isinstance(node, Binary) else 8
    return f"({text})" if own < level else text


def _expensive(node: Any, variables: dict[str, Any], seen: frozenset[str] = frozenset()) -> bool:
    if isinstance(node, Var):
        return node.name not in seen and _expensive(variables[node.name], variables, seen | {node.name})
    if isinstance(node, Call) and any(spec.expensive for spec in FUNCTIONS.values() if spec.name == node.name):
        return True
    return any(_expensive(child, variables, seen) for child in _children(node))


def seats_used(node: Any, variables: dict[str, Any]) -> frozenset[int]:
    """The seats an expression looks at (through variables too)."""
    found: set[int] = set()

    def walk(n: Any, seen: frozenset[str]) -> None:
        if isinstance(n, Var):
            if n.name not in seen:
                walk(variables[n.name], seen | {n.name})
            return
        if isinstance(n, Call):
            spec = _spec_for(n.name)
            if spec is not None:
                offset = len(spec.preset)
                for kind, arg in zip(spec.params, n.args[offset:]):
                    if kind == "seat":
                        found.add(int(arg))
        for child in _children(n):
            walk(child, seen)

    walk(node, frozenset())
    return frozenset(found)


@lru_cache(maxsize=None)
def _spec_for(name: str) -> Any:
    return next((spec for spec in FUNCTIONS.values() if spec.name == name), None)


def values_on_masks(expr: Any, masks: np.ndarray) -> np.ndarray:
    """The value of ``expr`` (int64) on each column of ``masks[4, 4, n]``, which need not be deals:
    the parser lays out the 8,192 holdings of ``holding NAME = EXPR`` as North's spades, and the
    560 suit-length patterns of ``shapeclass NAME = EXPR`` as North's hands, and runs the
    definition through this evaluator, with its checked 64-bit arithmetic."""
    return np.asarray(Evaluator(Script(condition=expr)).array(expr, Hands(masks, Tables.standard())))


set_expression_values(values_on_masks)
