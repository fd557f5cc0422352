"""Issue 40: an optional dependency that is missing is one line naming it and the pip command
that installs it, never a traceback from deep inside the library."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cardlab.errors import CardlabError, MissingDependencyError

SRC = Path(__file__).resolve().parents[1] / "src" / "cardlab"


def test_to_pandas_without_pandas_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardlab.bridge.tables import points_table
    from cardlab.poker.equity import equity

    table = points_table().exact
    result = equity(["AA", "KK"])
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if not installed: importing it fails
    for make in (table.to_pandas, result.to_pandas):
        with pytest.raises(MissingDependencyError) as caught:
            make()
        assert str(caught.value) == "to_pandas() needs pandas, which is not installed: pip install 'cardlab[pandas]'"
        assert isinstance(caught.value, CardlabError) and isinstance(caught.value, ImportError)


def test_no_optional_dependency_is_imported_bare() -> None:
    """Every import of pandas in the package goes through ``cardlab.errors.require``; the cluster
    and the workbench say their extras themselves (cluster.py, web/command.py)."""
    bare = [f"{path.relative_to(SRC)}:{n}" for path in SRC.rglob("*.py")
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if re.match(r"\s*(import pandas|from pandas)", line)]
    assert bare == []
    assert "pip install 'cardlab[cluster]'" in (SRC / "cluster.py").read_text(encoding="utf-8")
    assert "pip install 'cardlab[web]'" in (SRC / "web" / "command.py").read_text(encoding="utf-8")
