"""The import graph of the package obeys the layering docs/design.md states.

The layers and the allowed exceptions are read from docs/design.md (the ```layers block and the
"Allowed exceptions" list), so the document and the check cannot drift apart. Every import in
src/cardlab is found with ``ast``, including those inside functions and under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
import functools
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
    typing_only: bool = False  # under `if TYPE_CHECKING:` (never runs)


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

    def visit(node: ast.AST, lazy: bool, typing: bool = False) -> None:
        for child in ast.iter_child_nodes(node):
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            typed = typing or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            where = f"{path.relative_to(ROOT)}:{getattr(child, 'lineno', 0)}"
            if isinstance(child, ast.Import):
                edges.extend(Edge(module, a.name, lazy, where, typing) for a in child.names
                             if a.name.startswith("cardlab"))
            elif isinstance(child, ast.Call) and getattr(child.func, "id", "") == "lazy_exports" \
                    and len(child.args) > 1 and isinstance(child.args[1], ast.Dict):
                # the string imports of cardlab._lazy: each value names a module imported on first use
                for key, value in zip(child.args[1].keys, child.args[1].values):
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        name = key.value if isinstance(key, ast.Constant) else ""
                        edges.append(Edge(module, value.value, True, f"{where} (lazy export {name!r})"))
            elif isinstance(child, (ast.Assign, ast.AnnAssign)) and isinstance(child.value, ast.Dict) \
                    and "EXPORTS" in ast.unparse(child.targets[0] if isinstance(child, ast.Assign) else child.target):
                # cardlab._lazy.EXPORTS: package -> {**_names("module", "name", ...)}, each a string import
                for package_key, table in zip(child.value.keys, child.value.values):
                    if not (isinstance(package_key, ast.Constant) and isinstance(table, ast.Dict)):
                        continue
                    for call in table.values:
                        if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "_names" and call.args \
                                and isinstance(call.args[0], ast.Constant):
                            for arg in call.args[1:]:
                                if isinstance(arg, ast.Constant):
                                    edges.append(Edge(package_key.value, call.args[0].value, True,
                                                      f"{where} (lazy export {arg.value!r})"))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target == "cardlab" or target.startswith("cardlab."):
                    for alias in child.names:  # `from cardlab import engine` imports the submodule
                        sub = f"{target}.{alias.name}"
                        edges.append(Edge(module, sub if _is_module(sub) else target, lazy, where, typing))
            visit(child, inner, typed)

    visit(tree, False)
    return edges


def all_edges() -> list[Edge]:
    """Every import edge of the package (parsed once per run: the tests here share it)."""
    return list(_parsed_edges())


@functools.cache
def _parsed_edges() -> tuple[Edge, ...]:
    return tuple(e for path in sorted(PACKAGE.rglob("*.py")) for e in _edges_of(path))


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


def report_hooks() -> set[tuple[str, str]]:
    """The only edges allowed to close an import cycle inside the package: the allowed exceptions
    of docs/design.md that must be lazy and lead into ``cardlab.report`` (a result object showing
    itself with ``.table()``/``.plot()``, its renderer imported inside the method)."""
    return {key for key, lazy in design_exceptions().items() if lazy and key[1].startswith("cardlab.report.")}


def import_cycles(edges: list[Edge], hooks: set[tuple[str, str]]) -> list[list[str]]:
    """The import cycles among modules (strongly connected components of two or more modules, or a
    module importing itself), counting imports inside functions but not TYPE_CHECKING-only ones,
    nor the lazy ``hooks``. Tarjan's algorithm, iterative."""
    graph: dict[str, set[str]] = {}
    for e in edges:
        if e.typing_only or (e.lazy and (e.source, e.target) in hooks):
            continue
        graph.setdefault(e.source, set()).add(e.target)
        graph.setdefault(e.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    item = stack.pop()
                    on_stack.discard(item)
                    component.append(item)
                    if item == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    cycles.append(sorted(component))
    return cycles


def test_import_cycles_through_function_level_imports_only_the_report_hooks() -> None:
    # issue 38: cluster <-> engine, the dealer's functions <-> parser and scoring's
    # check -> columns -> document -> output -> check were cycles closed by imports inside functions
    assert import_cycles(all_edges(), report_hooks()) == []


def test_every_report_hook_is_a_lazy_import_that_exists() -> None:
    edges = all_edges()
    assert len(report_hooks()) >= 8
    for key in report_hooks():
        found = [e for e in edges if (e.source, e.target) == key]
        assert found and all(e.lazy for e in found), key


def test_a_lazy_import_that_is_not_a_report_hook_closes_a_cycle() -> None:
    # engine -> cluster is an allowed exception (lazy) but not a report hook: were cluster to import
    # the engine again (as it did for available_cores), the check fails
    edges = all_edges()
    assert any(e.source == "cardlab.engine" and e.target == "cardlab.cluster" and e.lazy for e in edges)
    planted = Edge("cardlab.cluster", "cardlab.engine", False, "planted")
    assert import_cycles([*edges, planted], report_hooks()) == [["cardlab.cluster", "cardlab.engine"]]
    # and a function-level import back from the document's checker to the document
    planted = Edge("cardlab.scoring.check", "cardlab.scoring.document", True, "planted")
    assert import_cycles([*edges, planted], report_hooks()) == [["cardlab.scoring.check", "cardlab.scoring.document"]]


def test_a_planted_cycle_fails_the_check() -> None:
    edges = all_edges()
    assert any(e.source == "cardlab.bridge.boardsets" and e.target == "cardlab.bridge.lin" for e in edges)
    planted = Edge("cardlab.bridge.lin", "cardlab.bridge.boardsets", True, "planted")
    cycles = import_cycles([*edges, planted], report_hooks())
    assert cycles == [["cardlab.bridge.boardsets", "cardlab.bridge.lin"]]
    # and the old circle dealer -> dd -> deals -> dealer, were dd to read deals again
    planted = Edge("cardlab.bridge.dd", "cardlab.bridge.deals", False, "planted")
    assert any("cardlab.bridge.dd" in c and "cardlab.bridge.deals" in c
               for c in import_cycles([*edges, planted], report_hooks()))


def test_lazy_exports_name_modules_that_define_them() -> None:
    # the string imports of cardlab._lazy (EXPORTS, and any table handed to lazy_exports): each module
    # exists and defines the name
    lazy = [e for e in all_edges() if "lazy export" in e.where]
    assert len(lazy) > 10
    for e in lazy:
        assert _is_module(e.target), e
        name = e.where.split("lazy export ")[1].strip("')")
        path = PACKAGE.parent / Path(*e.target.split("."))
        source = (path / "__init__.py" if path.is_dir() else path.with_suffix(".py")).read_text(encoding="utf-8")
        assert re.search(rf"^(def|class) {name}\b|^{name}\s*[:=]|import .*\b{name}\b", source, re.M), e


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



def test_the_walker_reads_the_string_imports_of_lazy(monkeypatch: pytest.MonkeyPatch) -> None:
    # cardlab._lazy names modules in strings (EXPORTS, and a table handed to lazy_exports): each is an
    # import edge (lazy), so a re-export closes a cycle like any import
    edges, hooks = all_edges(), report_hooks()
    planted = Edge("cardlab.poker.odds", "cardlab.poker", False, "planted")  # odds importing its package
    without = [e for e in edges if "lazy export" not in e.where]
    pair = {"cardlab.poker", "cardlab.poker.odds"}
    assert not any(pair <= set(c) for c in import_cycles([*without, planted], hooks))
    assert any(pair <= set(c) for c in import_cycles([*edges, planted], hooks))
    source = ('EXPORTS = {"cardlab.poker": {**_names("cardlab.poker.odds", "poker_odds", "Game")}}\n'
              'f, g = lazy_exports("cardlab.bridge", {"Deal": "cardlab.deal"})\n')
    fake = PACKAGE / "_lazy.py"
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: source if self == fake else "")
    found = sorted((e.source, e.target, e.lazy) for e in _edges_of(fake))
    assert found == [("cardlab._lazy", "cardlab.deal", True),
                     ("cardlab.poker", "cardlab.poker.odds", True), ("cardlab.poker", "cardlab.poker.odds", True)]
