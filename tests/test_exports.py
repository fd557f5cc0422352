"""Each package exports its entry points, and its three name lists agree: ``__all__``, the lazy
re-export table (:data:`cardlab._lazy.EXPORTS`) with the ``TYPE_CHECKING`` imports that give mypy
the same names, and what the modules really define (each name in its module's ``__all__``)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from cardlab._lazy import EXPORTS

SRC = Path(__file__).resolve().parent.parent / "src"


def _init(package: str) -> ast.Module:
    return ast.parse((SRC / package.replace(".", "/") / "__init__.py").read_text(encoding="utf-8"))


def _all(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise AssertionError("no __all__")


def _imports(body: list[ast.stmt]) -> dict[str, str]:
    return {alias.asname or alias.name: node.module or "" for node in body if isinstance(node, ast.ImportFrom)
            for alias in node.names}


def _type_checking_imports(tree: ast.Module) -> dict[str, str]:
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            return _imports(node.body)
    return {}


def _own_definitions(tree: ast.Module) -> set[str]:
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    names |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
              if isinstance(t, ast.Name) and t.id == "__version__"}
    return names


@pytest.mark.parametrize("package", sorted(EXPORTS))
def test_lazy_package_name_lists_agree(package: str) -> None:
    tree = _init(package)
    table = EXPORTS[package]
    assert sorted(_all(tree)) == sorted(set(table) | _own_definitions(tree))
    assert len(_all(tree)) == len(set(_all(tree))), "a name listed twice in __all__"
    listed = set(_all(tree))
    # mypy sees the same names, from the same modules (other TYPE_CHECKING imports serve signatures)
    assert {k: v for k, v in _type_checking_imports(tree).items() if k in listed} == table
    module = importlib.import_module(package)
    for name, where in table.items():
        home = importlib.import_module(where)
        assert name in getattr(home, "__all__", ()), f"{where} does not export {name}"
        assert getattr(module, name) is getattr(home, name)
    assert set(_all(tree)) <= set(dir(module))
    # a re-export named like a submodule is replaced by the module once that is imported
    folder = SRC / package.replace(".", "/")
    assert not {name for name in table if (folder / f"{name}.py").exists() or (folder / name).is_dir()}


def test_eager_scoring_package_exports_what_its_modules_define() -> None:
    tree = _init("cardlab.scoring")
    imported = _imports(tree.body)
    assert sorted(_all(tree)) == sorted(set(imported) - {"annotations"})
    for name, where in imported.items():
        if where != "__future__":
            assert name in importlib.import_module(where).__all__, f"{where} does not export {name}"


@pytest.mark.parametrize("package, names", [
    ("cardlab.poker", ["poker_odds", "EquityResult"]),
    ("cardlab.casino.video", ["analyse", "hold_values", "final_outcomes"]),
    ("cardlab.casino.reels", ["reel_odds", "reel_counts", "ReelCategory"]),
    ("cardlab.bridge", ["dd_table", "makes", "leads", "compare_strategies", "suit_split", "card_layouts", "deal_board_set",
                        "parse_levels", "natural_frequencies", "points_table"]),
    ("cardlab.scoring", ["score_session", "load_results", "score_teams", "load_teams"]),
    ("cardlab", ["exact", "simulate", "tabulate", "Tabulation"]),
])
def test_entry_points_are_exported(package: str, names: list[str]) -> None:
    module = importlib.import_module(package)
    assert set(names) <= set(module.__all__)
    assert all(callable(getattr(module, n)) for n in names)


def test_the_check_catches_a_name_missing_from_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(EXPORTS, "cardlab.poker", {**EXPORTS["cardlab.poker"], "extra_name": "cardlab.poker.odds"})
    with pytest.raises(AssertionError):
        test_lazy_package_name_lists_agree("cardlab.poker")
