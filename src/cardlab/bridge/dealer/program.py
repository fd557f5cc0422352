"""Dealer-script expressions compiled to a stack program the compiled core runs deal by deal.

The numpy evaluator (:mod:`.evaluate`) computes every node for the whole batch; a condition
such as ``hcp(north) >= 15 && ...`` is usually decided by its first test, so running the
expression per deal, stopping as soon as the answer is known (``csrc/deal_program.c``), does
a fraction of the work, allocates nothing per node and runs without the GIL (chunks on threads
scale). Expressions made of numbers, variables, arithmetic, comparisons, logic, ``?:`` and the
per-hand functions (lengths, any point count, controls, losers, top cards, quality, cccc,
``shape``, ``hascard``) compile; anything else (``imps``, ``score``, ``rnd``, double dummy,
functions registered by other modules) stays with the numpy evaluator, which gives the same
values. ``tests/test_deal_program.py`` checks the two against each other on random expressions.

>>> import numpy as np
>>> from cardlab.bridge.dealer.parser import parse_script
>>> from cardlab.bridge.dealer.dealing import deal_masks
>>> from cardlab.bridge.dealer.functions import Hands, Tables
>>> script = parse_script("hcp(north) >= 15 && spades(north) * 2 > 7")
>>> program = compile_expression(script.condition, script)
>>> hands = Hands(deal_masks(np.random.SeedSequence(1), 1000), Tables.standard())
>>> from cardlab.bridge.dealer.evaluate import Evaluator
>>> bool((program.run(hands) == Evaluator(script).array(script.condition, hands)).all())
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardlab._native import core as _core
from cardlab.bridge.dealer.dealing import byte_view
from cardlab.bridge.dealer.functions import Hands, Tables, _shape_table, suit_table
from cardlab.bridge.dealer.parser import Binary, Call, Cond, Num, Script, Shapes, Unary, Var
from cardlab.errors import DealerScriptError

__all__ = ["Program", "compile_expression"]

(CONST, SUIT, HAND, SHAPE, CARD, NEG, NOT, ADD, SUB, MUL, DIV, MOD, EQ, NE, LT, LE, GT, GE, JUMP, AND, OR, IF,
 TRUTH) = range(23)
_BINARY = {"+": ADD, "-": SUB, "*": MUL, "/": DIV, "%": MOD, "==": EQ, "!=": NE, "<": LT, "<=": LE, ">": GT,
           ">=": GE}
_SUIT_FEATURES = {"losers": "losers", "quality": "quality"}
_MAX_CODE = 4096
_MAX_STACK = 60
_LOW, _HIGH = -(2 ** 63), 2 ** 63 - 1


class _NotCompiled(Exception):
    """The expression uses something the program cannot do (the numpy evaluator does it)."""


@dataclass(frozen=True)
class Program:
    """A compiled expression: instructions of four int64 words, its suit tables and shape tables,
    and the tree node of each instruction (for messages)."""

    code: np.ndarray  # (k, 4) int64
    tables: np.ndarray  # (t, 8192) int64
    shapes: np.ndarray  # (s, 14 ** 4) uint8
    nodes: tuple[Any, ...] = field(repr=False)

    def run(self, hands: Hands, rows: np.ndarray | None = None) -> np.ndarray:
        """The expression's value for every deal of ``hands`` (int64), or for the deals ``rows``."""
        count = hands.n if rows is None else len(rows)
        out = np.empty(count, dtype=np.int64)
        if count == 0:
            return out
        index = np.zeros(0, dtype=np.int32) if rows is None else np.ascontiguousarray(rows, dtype=np.int32)
        status, where = _core.run_program(byte_view(hands.masks), hands.n, byte_view(self.code),
                                          byte_view(self.tables), byte_view(self.shapes), byte_view(out),
                                          byte_view(index) if len(index) else memoryview(b""))
        if status:
            from cardlab.bridge.dealer.evaluate import _LOW as low, _HIGH as high, expression_text

            text = expression_text(self.nodes[where])
            if status == 2:
                raise DealerScriptError(f"division by zero in '{text}' for some deal")
            raise DealerScriptError(f"arithmetic overflows 64 bits in '{text}' for some deal (values must stay "
                                    f"between {low:,} and {high:,})")
        return out


class _Compiler:
    def __init__(self, script: Script) -> None:
        self.variables = script.variable_map()
        self.tables = Tables.for_script(script.pointcount, script.altcounts)
        self.code: list[tuple[int, int, int, int]] = []
        self.nodes: list[Any] = []
        self.table_index: dict[Any, int] = {}
        self.table_list: list[np.ndarray] = []
        self.shape_index: dict[tuple[int, ...], int] = {}
        self.shape_list: list[np.ndarray] = []
        self.depth = self.most = 0
        self.active: set[str] = set()

    def emit(self, op: int, node: Any, a: int = 0, b: int = 0, c: int = 0, push: int = 0) -> int:
        if len(self.code) >= _MAX_CODE:
            raise _NotCompiled
        self.code.append((op, a, b, c))
        self.nodes.append(node)
        self.depth += push
        self.most = max(self.most, self.depth)
        if self.most > _MAX_STACK:
            raise _NotCompiled
        return len(self.code) - 1

    def patch(self, at: int) -> None:
        op, _, b, c = self.code[at]
        self.code[at] = (op, len(self.code), b, c)

    def table(self, key: Any) -> int:
        if key not in self.table_index:
            self.table_index[key] = len(self.table_list)
            self.table_list.append(suit_table(self.tables, key))
        return self.table_index[key]

    def shape(self, keys: tuple[int, ...]) -> int:
        if keys not in self.shape_index:
            self.shape_index[keys] = len(self.shape_list)
            self.shape_list.append(_shape_table(keys).view(np.uint8))
        return self.shape_index[keys]

    def expr(self, node: Any) -> None:
        if isinstance(node, Num):
            if not _LOW <= node.value <= _HIGH:
                raise _NotCompiled  # the evaluator refuses it with its message
            self.emit(CONST, node, node.value, push=1)
        elif isinstance(node, Var):
            if node.name in self.active:
                raise _NotCompiled
            self.active.add(node.name)
            self.expr(self.variables[node.name])  # inlined (the program caps its length)
            self.active.discard(node.name)
        elif isinstance(node, Unary):
            self.expr(node.operand)
            self.emit(NEG if node.op == "-" else NOT, node)
        elif isinstance(node, Binary):
            if node.op in ("&&", "||"):
                self.expr(node.left)
                if node.op == "||":
                    self.emit(TRUTH, node)
                jump = self.emit(AND if node.op == "&&" else OR, node)
                self.depth -= 1
                self.expr(node.right)
                self.emit(TRUTH, node)
                self.patch(jump)
                return
            self.expr(node.left)
            self.expr(node.right)
            self.emit(_BINARY[node.op], node, push=-1)
        elif isinstance(node, Cond):
            self.expr(node.test)
            skip = self.emit(IF, node, push=-1)
            self.expr(node.then)
            over = self.emit(JUMP, node)
            self.depth -= 1
            self.patch(skip)
            self.expr(node.other)
            self.patch(over)
        elif isinstance(node, Call):
            self.call(node)
        else:
            raise _NotCompiled

    def call(self, node: Call) -> None:
        name, args = node.name, node.args
        if name.startswith("length_"):
            self.emit(SUIT, node, args[0], int(name[-1]), self.table("length"), push=1)
        elif name == "points":
            key, seat, *suit = args
            if suit and suit[0] is not None:
                self.emit(SUIT, node, seat, suit[0], self.table(key), push=1)
            else:
                self.emit(HAND, node, seat, self.table(key), push=1)
        elif name in _SUIT_FEATURES:
            seat, *suit = args
            if suit and suit[0] is not None:
                self.emit(SUIT, node, seat, suit[0], self.table(_SUIT_FEATURES[name]), push=1)
            elif name == "losers":
                self.emit(HAND, node, seat, self.table("losers"), push=1)
            else:
                raise _NotCompiled
        elif name == "cccc":
            seat = args[0]  # suit counts, then -50 for no short suit, else the short-suit points - 100
            self.emit(HAND, node, seat, self.table("cccc"), push=1)
            self.emit(HAND, node, seat, self.table("short"), push=1)
            self.emit(CONST, node, 0, push=1)
            self.emit(EQ, node, push=-1)
            skip = self.emit(IF, node, push=-1)
            self.emit(CONST, node, -50, push=1)
            over = self.emit(JUMP, node)
            self.depth -= 1
            self.patch(skip)
            self.emit(HAND, node, seat, self.table("short"), push=1)
            self.emit(CONST, node, 100, push=1)
            self.emit(SUB, node, push=-1)
            self.patch(over)
            self.emit(ADD, node, push=-1)
        elif name == "shape" and isinstance(args[1], Shapes):
            self.emit(SHAPE, node, args[0], self.shape(args[1].keys), push=1)
        elif name == "shape_class" and isinstance(args[0], Shapes):  # balanced_deal(SEAT) and the like
            self.emit(SHAPE, node, args[1], self.shape(args[0].keys), push=1)
        elif name == "hascard":
            self.emit(CARD, node, args[0], args[1], push=1)
        else:
            raise _NotCompiled


_SHARED: dict[int, tuple[Script, "Program | None", "tuple[Program | None, ...]"]] = {}


def script_programs(script: Script, actions: tuple[Any, ...]) -> tuple[Program | None, tuple[Program | None, ...]]:
    """The programs of a script's condition and of its action expressions ``actions`` (None for
    those only the numpy evaluator runs), compiled once per script object."""
    entry = _SHARED.get(id(script))
    if entry is None or entry[0] is not script:
        if len(_SHARED) > 32:
            _SHARED.clear()
        entry = (script, compile_expression(script.condition, script),
                 tuple(compile_expression(expr, script) for expr in actions))
        _SHARED[id(script)] = entry
    return entry[1], entry[2]


def _threaded(code: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Jumps of ``&&`` chains sent straight to where the chain ends: a false left side stays
    false through every later ``&&`` of the chain (and a true one true through ``||``), so
    ``a && b && c && d`` costs one jump, not three, on the deals ``a`` rejects."""
    out = list(code)
    for k, (op, target, b, c) in enumerate(out):
        if op not in (AND, OR):
            continue
        seen = 0
        while target < len(out) and seen < len(out):
            step = out[target]
            if step[0] == op:
                target = step[1]
            elif op == OR and step[0] == TRUTH and target + 1 < len(out) and out[target + 1][0] == OR:
                target = out[target + 1][1]
            else:
                break
            seen += 1
        out[k] = (op, target, b, c)
    return out


def compile_expression(node: Any, script: Script) -> Program | None:
    """The program of one expression of ``script``, or None when it uses something only the
    numpy evaluator does."""
    compiler = _Compiler(script)
    try:
        compiler.expr(node)
    except (_NotCompiled, KeyError, IndexError, TypeError, ValueError):
        return None
    code = np.array(_threaded(compiler.code), dtype=np.int64).reshape(-1, 4)
    tables = (np.stack(compiler.table_list) if compiler.table_list else np.zeros((1, 8192), dtype=np.int64))
    shapes = (np.stack(compiler.shape_list) if compiler.shape_list else np.zeros((1, 14 ** 4), dtype=np.uint8))
    return Program(np.ascontiguousarray(code), np.ascontiguousarray(tables, dtype=np.int64),
                   np.ascontiguousarray(shapes, dtype=np.uint8), tuple(compiler.nodes))
