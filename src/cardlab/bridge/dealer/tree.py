"""The expression tree of a dealer script: numbers, variables, calls, operators, ``?:``.

The parser (:mod:`cardlab.bridge.dealer.parser`) builds it and re-exports these names; the
evaluator and the compiler read it.

>>> children(Binary("+", Num(1), Call("hcp", (0,))))
(Num(value=1), Call(name='hcp', args=(0,)))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Num", "Var", "Call", "Unary", "Binary", "Cond", "Str", "Node", "children"]


@dataclass(frozen=True)
class Num:
    """An integer literal."""
    value: int


@dataclass(frozen=True)
class Var:
    """A reference to a script variable, with where it is written (for error messages)."""
    name: str
    line: int = field(default=0, compare=False, repr=False)
    column: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True)
class Call:
    """A call of a built-in function by its registry name."""
    name: str  # the registry name of the function
    args: tuple[Any, ...]  # expression nodes, or a seat, a suit, a shape set (per function)


@dataclass(frozen=True)
class Unary:
    """A unary operator (``!`` or ``-``) applied to an expression."""
    op: str
    operand: Node


@dataclass(frozen=True)
class Binary:
    """A binary operator applied to two expressions."""
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Cond:
    """``test ? then : other``."""
    test: Node
    then: Node
    other: Node


Node = Num | Var | Call | Unary | Binary | Cond


def children(node: Node) -> tuple[Node, ...]:
    """The sub-expressions of ``node``, left to right (a call's seat, suit and shape arguments are not)."""
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Cond):
        return (node.test, node.then, node.other)
    if isinstance(node, Call):
        return tuple(a for a in node.args if isinstance(a, (Num, Var, Call, Unary, Binary, Cond)))
    return ()


@dataclass(frozen=True)
class Str:
    """A quoted string inside an expression, which the parser resolves to a string-valued shape
    function's code (:mod:`cardlab.bridge.dealer.strings`); no finished tree holds one."""

    text: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
