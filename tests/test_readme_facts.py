"""Issue 18, "Users' expectations": what README and the docs pages say about the code must be true
of the code (issue 40 moved the reference sections from README to docs/bridge.md and the test notes
to docs/testing.md)."""

from __future__ import annotations

import re
from pathlib import Path

from cardlab.bridge.tables import joint_table, points_table

DOCS = Path(__file__).resolve().parents[1] / "docs"
BRIDGE = (DOCS / "bridge.md").read_text(encoding="utf-8")
TESTING = (DOCS / "testing.md").read_text(encoding="utf-8")


def _listed_columns(call: str) -> list[str]:
    line = next(line for line in BRIDGE.splitlines() if line.startswith(call))
    listed = line.split("#", 1)[1].split(":", 1)[1]
    return [name.strip() for name in listed.split(",")]


def test_readme_to_pandas_columns_match_the_code() -> None:
    """Issue 18: README (now docs/bridge.md) listed to_pandas() columns (exact, simulated) that the code does not have."""
    given = points_table(given_points=15, trials=2_000, seed=4)  # the page's t, with fewer trials
    assert _listed_columns("t.to_pandas()") == list(given.to_pandas().columns)
    assert _listed_columns('joint_table("pattern").to_pandas()') == list(joint_table("pattern").to_pandas().columns)


def test_testing_page_says_how_browser_tests_are_skipped() -> None:
    """Issue 18: docs/testing.md names Debian's chromium and chromium-driver and says how the browser tests
    are skipped without them; the skip condition it describes is the one the test module uses."""
    assert "`chromium` and `chromium-driver`" in TESTING and "skipped" in TESTING
    browser = (Path(__file__).parent / "test_site_browser.py").read_text(encoding="utf-8")
    for path in re.findall(r"`(/usr/bin/chrom\w+)`", TESTING):
        assert f'"{path}"' in browser
    assert 'os.environ.get("CI")' in browser and "`$CI`" in TESTING
