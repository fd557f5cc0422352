"""String-valued shape functions (Deal 3.1's ``shapefunc`` returning a word per shape).

``shapefunc opening = s >= 5 && s >= h ? "spades" : h >= 5 ? "hearts" : "minor"`` is tabulated
over the 560 patterns like an integer shape function; each distinct string of a script gets a
number (its *code*, in order of first appearance), the table holds codes, and the parser turns
``opening(north) == "spades"`` into a comparison of codes, so conditions run in the compiled core
as any other. A string-valued call may only be compared (``==``, ``!=``) with a quoted value or
another string-valued call, or counted by ``frequency``, whose rows are then named by the strings.

>>> from cardlab.bridge.dealer import parse_script
>>> script = parse_script('shapefunc major = s >= 5 ? "spades" : h >= 5 ? "hearts" : "none"\\n'
...                       'condition major(north) != "none"\\naction frequency (major(north))')
>>> script.strings, script.actions[0].bounds, script.actions[0].names
(('spades', 'hearts', 'none'), (0, 2), (('spades', 'hearts', 'none'),))
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

import numpy as np

from cardlab.bridge.dealer.tree import Binary, Call, Cond, Num, Str, Var, children

__all__ = ["STRING_BASE", "MAX_STRINGS", "misplaced_strings", "string_codes", "string_function", "string_uses"]

#: Where a string's code starts inside a definition being tabulated: a shape function's values are
#: ``STRING_BASE + code`` while its expression is evaluated, so they cannot be mistaken for numbers.
STRING_BASE = 1 << 40
MAX_STRINGS = 10_000  #: the most distinct strings one script's shape functions may return


def _children(node: Any) -> tuple[Any, ...]:
    """The parser's sub-expressions of ``node``, and a call's quoted-string arguments too."""
    if isinstance(node, Str):
        return ()
    return children(node) + (tuple(a for a in node.args if isinstance(a, Str)) if isinstance(node, Call) else ())


def misplaced_strings(node: Any) -> bool:
    """Whether a definition uses a string anywhere but as its whole value or a ``?:`` branch
    (``"a" + 1``, ``"a" ? 1 : 2``): its codes would then be arithmetic on codes."""
    stack = [(node, True)]
    while stack:
        item, branch = stack.pop()
        if isinstance(item, Num) and item.value >= STRING_BASE // 2:
            if not branch:
                return True
        elif isinstance(item, Cond):
            stack.extend(((item.test, False), (item.then, branch), (item.other, branch)))
        else:
            stack.extend((child, False) for child in _children(item))
    return False


def string_codes(name: str, found: np.ndarray) -> np.ndarray:
    """A string-valued definition's values as codes; a ValueError naming the function when some
    shape gives a number instead."""
    if (found < STRING_BASE).any() or (found >= STRING_BASE + MAX_STRINGS).any():
        raise ValueError(f"shape function '{name}' gives a string for some shapes and a number for others; "
                         "make every value a quoted string, or none")
    return found - STRING_BASE


def string_function(node: Any, string_valued: Mapping[str, Any], variables: Mapping[str, str] = {}) -> str | None:
    """The name of the string-valued shape function ``node`` calls (or that the variable ``node``
    holds: ``variables`` maps such variables to their functions), or None (any other node)."""
    if isinstance(node, Var):
        return variables.get(node.name)
    if isinstance(node, Call) and node.name == "shape_value" and node.args[0].name in string_valued:
        return str(node.args[0].name)
    return None


def string_uses(root: Any, string_valued: Mapping[str, Any], allow_root: bool,
                variables: Mapping[str, str] = {}) -> Iterator[tuple[str, Any]]:
    """The misuses in an expression: a quoted string left unresolved (``("string", Str)``), or a
    string-valued call anywhere but under ``==``/``!=`` (or as the whole expression when
    ``allow_root``): ``("call", NAME)``. Walked without recursion (expressions nest 1,000 deep)."""
    stack = [(root, allow_root)]
    while stack:
        node, allowed = stack.pop()
        if isinstance(node, Str):
            yield "string", node
        elif string_function(node, string_valued, variables) is not None:
            if not allowed:
                yield "call", string_function(node, string_valued, variables)
        elif isinstance(node, Binary) and node.op in ("==", "!="):
            stack.extend((child, True) for child in (node.left, node.right))
        else:
            stack.extend((child, False) for child in _children(node))
