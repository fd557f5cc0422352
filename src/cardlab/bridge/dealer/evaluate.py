"""Evaluating a parsed script over a whole batch of deals at once (numpy), integers as in C.

Each variable is evaluated at most once per batch; per-hand features are shared
through :class:`~cardlab.bridge.dealer.functions.Hands`. Division truncates
toward zero and ``%`` takes the sign of the dividend, as in C; all values are
64-bit. Expensive functions on the right of ``&&``, ``||`` or in a ``?:`` branch
run only on the deals that need them.

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

from cardlab.bridge.dealer.functions import EVALUATORS, FUNCTIONS, Hands
from cardlab.bridge.dealer.parser import Binary, Call, Cond, Num, Script, Unary, Var
from cardlab.errors import DealerScriptError

__all__ = ["Evaluator", "seats_used"]

_NODES = (Num, Var, Call, Unary, Binary, Cond)


class Evaluator:
    """Evaluates expressions of one script over :class:`Hands` batches."""

    def __init__(self, script: Script) -> None:
        self.variables = script.variable_map()
        self._expensive: dict[int, bool] = {}

    def truth(self, node: Any, hands: Hands) -> np.ndarray:
        value = self.value(node, hands)
        return np.broadcast_to(np.asarray(value) != 0, (hands.n,))

    def array(self, node: Any, hands: Hands) -> np.ndarray:
        return np.broadcast_to(np.asarray(self.value(node, hands), dtype=np.int64), (hands.n,))

    def value(self, node: Any, hands: Hands) -> Any:
        if isinstance(node, Num):
            return node.value
        if isinstance(node, Var):
            key = ("var", node.name)
            cache = hands._cache
            if key not in cache:
                cache[key] = self.value(self.variables[node.name], hands)
            return cache[key]
        if isinstance(node, Call):
            args = [self.value(a, hands) if isinstance(a, _NODES) else a for a in node.args]
            return EVALUATORS[node.name](hands, *args)
        if isinstance(node, Unary):
            operand = self.value(node.operand, hands)
            if node.op == "-":
                return -operand
            return (np.asarray(operand) == 0).astype(np.int64) if not np.isscalar(operand) else int(operand == 0)
        if isinstance(node, Binary):
            return self._binary(node, hands)
        if isinstance(node, Cond):
            return self._cond(node, hands)
        raise TypeError(f"not an expression node: {node!r}")  # pragma: no cover

    def expensive(self, node: Any) -> bool:
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
                return (np.asarray(right) != 0).astype(np.int64) if not np.isscalar(right) else int(right != 0)
            lt = np.asarray(left) != 0
            if self.expensive(node.right):
                todo = np.flatnonzero(lt if op == "&&" else ~lt)
                out = lt.astype(np.int64)
                if todo.size:
                    sub = hands.subset(todo)
                    out[todo] = np.broadcast_to(np.asarray(self.value(node.right, sub)) != 0, (todo.size,))
                return out
            rt = np.asarray(self.value(node.right, hands)) != 0
            return ((lt & rt) if op == "&&" else (lt | rt)).astype(np.int64)
        a = self.value(node.left, hands)
        b = self.value(node.right, hands)
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
        compare = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
                   ">=": np.greater_equal}[op]
        result = compare(a, b)
        return int(result) if np.isscalar(result) or np.ndim(result) == 0 else result.astype(np.int64)

    def _cond(self, node: Cond, hands: Hands) -> Any:
        test = self.value(node.test, hands)
        if np.isscalar(test) or np.ndim(test) == 0:
            return self.value(node.then if test else node.other, hands)
        t = np.asarray(test) != 0
        if self.expensive(node.then) or self.expensive(node.other):
            out = np.zeros(hands.n, dtype=np.int64)
            for rows, branch in ((np.flatnonzero(t), node.then), (np.flatnonzero(~t), node.other)):
                if rows.size:
                    out[rows] = np.broadcast_to(np.asarray(self.value(branch, hands.subset(rows))), (rows.size,))
            return out
        return np.where(t, self.value(node.then, hands), self.value(node.other, hands))


def _children(node: Any) -> tuple[Any, ...]:
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Cond):
        return (node.test, node.then, node.other)
    if isinstance(node, Call):
        return tuple(a for a in node.args if isinstance(a, _NODES))
    return ()


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
