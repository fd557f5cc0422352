"""The scoring package's layering (issue 19, "one results document"): one document type for
every format, readers below the scorer, writers above it.

The import graph is read from the source with ``ast`` (module-level imports, not those under
``if TYPE_CHECKING:``), so the test fails as soon as someone adds an import that breaks a rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardlab.scoring import ResultsFile, load_results
from cardlab.scoring.csv_travellers import read_travellers
from cardlab.scoring.pbn import read_pbn
from cardlab.scoring.usebio import read_usebio

SCORING = Path(__file__).parent.parent / "src" / "cardlab" / "scoring"
DATA = Path(__file__).parent / "data"


def _imports(module: str | Path, *, lazy: bool = False) -> set[str]:
    """The ``cardlab.scoring`` modules ``module`` imports at module level (or anywhere)."""
    path = module if isinstance(module, Path) else SCORING / f"{module}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.ClassDef))
            if isinstance(child, ast.ImportFrom) and child.module and (top or lazy):
                if child.module.startswith("cardlab.scoring."):
                    found.add(child.module.rsplit(".", 1)[1])
            elif isinstance(child, ast.Import) and (top or lazy):
                found.update(a.name.rsplit(".", 1)[1] for a in child.names
                             if a.name.startswith("cardlab.scoring."))
            visit(child, inner)

    visit(tree, True)
    return found


# (module, modules it must never import, even inside a function)
FORBIDDEN = [
    ("usebio", {"session", "check", "export", "results_file", "columns", "output", "pbn"}),
    ("pbn", {"session", "check", "export", "results_file", "columns", "output", "usebio"}),
    ("csv_travellers", {"session", "check", "export", "results_file", "columns", "output"}),
    ("check", {"usebio", "pbn", "csv_travellers", "export", "results_file"}),
    ("session", {"usebio", "pbn", "check", "export", "results_file", "columns"}),
]


@pytest.mark.parametrize("module, forbidden", FORBIDDEN)
def test_formats_readers_scorer_and_checker_stay_in_their_layer(module: str,
                                                                forbidden: set[str]) -> None:
    assert _imports(module, lazy=True) & forbidden == set()


def test_the_document_sits_above_the_scorer_and_the_checker() -> None:
    # issue 38: score()/check() called the scorer and the checker from inside the methods, and
    # they imported the document back (an import cycle); the vocabulary they share is `terms`,
    # below all three, and the document imports the scorer and the checker at module level
    assert _imports("document") <= {"traveller", "contract", "matchpoints", "terms", "session", "columns", "check"}
    assert _imports("document", lazy=True) - _imports("document") == {"csv_travellers"}
    for module in ("session", "columns", "check", "output", "terms"):
        assert "document" not in _imports(module, lazy=True), module


def test_the_writers_sit_above_the_scorer() -> None:
    assert {"session", "document", "usebio"} <= _imports("export")


def test_the_walker_sees_lazy_and_skips_type_checking_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from typing import TYPE_CHECKING\n"
                      "from cardlab.scoring.traveller import TravellerLine\n"
                      "if TYPE_CHECKING:\n    from cardlab.scoring.check import CheckReport\n"
                      "def f():\n    from cardlab.scoring.session import score_session\n")
    assert _imports(module) == {"traveller"}
    assert _imports(module, lazy=True) == {"traveller", "session"}


def test_every_format_reads_into_one_document_type() -> None:
    usebio = read_usebio((DATA / "real-mp.xml").read_bytes(), "real-mp.xml")
    pbn = read_pbn((DATA / "real-tables.pbn").read_text(), "real-tables.pbn")
    csv = load_results(DATA / "mitchell.csv")
    assert type(usebio) is type(pbn) is type(csv) is ResultsFile
    assert (usebio.format, pbn.format, csv.format) == ("usebio", "pbn", "csv")
    # the same session (PBN game records number the pairs by the players' first appearance)
    assert sorted((l.board, str(l.score)) for l in usebio.lines) == \
        sorted((l.board, str(l.score)) for l in pbn.lines)
    assert len(read_travellers((DATA / "mitchell.csv").read_text())) == len(csv.lines)
