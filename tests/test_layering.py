"""The import graph of the package obeys the layering docs/design.md states.

The layers and the allowed exceptions are read from docs/design.md (the ```layers block and the
"Allowed exceptions" list), so the document and the check cannot drift apart. Every import in
src/cardlab is found with ``ast``, including those inside functions and under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "cardlab"
DESIGN = ROOT / "docs" / "design.md"


@dataclass(frozen=True)
class Edge:
    source: str  # importing module, e.g. cardlab.bridge.deals
    target: str  # imported module
    lazy: bool  # inside a function body
    where: str  # file:line


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    rel = Path(*name.split("."))
    base = PACKAGE.parent / rel
    return (base.with_suffix(".py")).exists() or (base / "__init__.py").exists() \
        or (base.with_suffix(".pyi")).exists()


def _edges_of(path: Path) -> list[Edge]:
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    edges: list[Edge] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            where = f"{path.relative_to(ROOT)}:{getattr(child, 'lineno', 0)}"
            if isinstance(child, ast.Import):
                edges.extend(Edge(module, a.name, lazy, where) for a in child.names if a.name.startswith("cardlab"))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target == "cardlab" or target.startswith("cardlab."):
                    for alias in child.names:  # `from cardlab import engine` imports the submodule
                        sub = f"{target}.{alias.name}"
                        edges.append(Edge(module, sub if _is_module(sub) else target, lazy, where))
            visit(child, inner)

    visit(tree, False)
    return edges


def all_edges() -> list[Edge]:
    return [e for path in sorted(PACKAGE.rglob("*.py")) for e in _edges_of(path)]


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "cardlab"


def design_layers() -> dict[str, int]:
    """Unit -> row (0 = the bottom row) from the ```layers block of docs/design.md."""
    block = re.search(r"```layers\n(.*?)```", DESIGN.read_text(encoding="utf-8"), re.S)
    assert block, "docs/design.md has no ```layers block"
    rows = [line.split() for line in block.group(1).strip().splitlines()]
    return {unit: len(rows) - 1 - i for i, row in enumerate(rows) for unit in row}


def design_exceptions() -> dict[tuple[str, str], bool]:
    """(source, target) -> must be lazy, from the "Allowed exceptions" list of docs/design.md."""
    text = DESIGN.read_text(encoding="utf-8")
    section = text[text.index("Allowed exceptions"):]
    section = section[: section.index("\n\n", section.index("\n- "))]
    found = re.findall(r"^- `(cardlab[\w.]*)` → `(cardlab[\w.]*)`( \(lazy\))?", section, re.M)
    assert found, "no allowed exceptions found in docs/design.md"
    return {(a, b): bool(lazy) for a, b, lazy in found}


def _allowed(edge: Edge, layers: dict[str, int]) -> bool:
    a, b = _unit(edge.source), _unit(edge.target)
    return a == b or layers[b] < layers[a]


def test_every_unit_is_in_a_layer() -> None:
    layers = design_layers()
    units = {_unit(_module_name(p)) for p in PACKAGE.rglob("*.py")} | {"_core"}
    assert units - set(layers) == set(), "units missing from the ```layers block of docs/design.md"
    assert set(layers) - units == set(), "the ```layers block names units that do not exist"


def test_imports_follow_the_layers_of_design_md() -> None:
    layers, exceptions = design_layers(), design_exceptions()
    wrong = []
    for edge in all_edges():
        if _allowed(edge, layers):
            continue
        key = (edge.source, edge.target)
        if key in exceptions and (edge.lazy or not exceptions[key]):
            continue
        kind = "module-level import of a lazy-only exception" if key in exceptions else "not allowed"
        wrong.append(f"{edge.where}: {edge.source} -> {edge.target} ({kind})")
    assert wrong == []


def test_every_listed_exception_exists() -> None:
    # An exception that no longer occurs is stale documentation: remove it from design.md.
    edges = {(e.source, e.target) for e in all_edges()}
    assert [k for k in design_exceptions() if k not in edges] == []


def test_inside_bridge_dealer_never_imports_deals_and_dd_only_lazily() -> None:
    wrong = [f"{e.where}: {e.source} -> {e.target}" for e in all_edges()
             if e.source.startswith("cardlab.bridge.dealer")
             and (e.target.startswith("cardlab.bridge.deals") or e.target.startswith("cardlab.bridge.dd_sim")
                  or (e.target == "cardlab.bridge.dd" and not e.lazy))]
    assert wrong == []


def test_the_compiled_core_is_not_called_from_cli_or_report() -> None:
    wrong = [e.where for e in all_edges() if e.target == "cardlab._core" and _unit(e.source) in ("cli", "report")]
    assert wrong == []


@pytest.mark.parametrize("source, target, lazy, allowed", [
    ("from cardlab.report.table import x", "cardlab.report.table", False, False),
    ("def f():\n    from cardlab.report import plot", "cardlab.report.plot", True, False),
    ("from . import engine", "cardlab.engine", False, False),
    ("if TYPE_CHECKING:\n    import cardlab.intervals", "cardlab.intervals", False, True),
])
def test_the_walker_finds_imports(source: str, target: str, lazy: bool, allowed: bool,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    layers = design_layers()
    fake = PACKAGE / "distribution.py"  # parsed as if it were this module
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: source if self == fake else "")
    edges = _edges_of(fake)
    assert [(e.source, e.target, e.lazy) for e in edges] == [("cardlab.distribution", target, lazy)]
    assert _allowed(edges[0], layers) is allowed
