"""A griffe extension for the API page (docs/api.md): the doctest examples of a docstring that
stand outside a numpydoc ``Examples`` section are fenced as Python console code, so the page
shows them as code (Markdown would read ``>>>`` as a quotation and ``[1, 2]`` as a link).

Configured in mkdocs.yml (mkdocstrings, ``extensions``); changes nothing in the package.
"""

from __future__ import annotations

from typing import Any

import griffe

__all__ = ["DoctestFences", "fenced"]


def fenced(text: str) -> str:
    """``text`` with each run of doctest lines (``>>>`` and what follows it up to a blank line)
    inside a ```` ```pycon ```` fence, unless it is already in a fence or an Examples section."""
    out: list[str] = []
    inside = False
    in_fence = False
    in_examples = False
    lines = text.split("\n")
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("```"):
            in_fence = not in_fence
        if stripped in ("Examples", "Example") and i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"}:
            in_examples = True
        if not inside and not in_fence and not in_examples and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            inside = True
        if inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the loose doctest examples of every docstring griffe loads."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fenced(obj.docstring.value)
