"""Shared pieces of the results-site tests: the session with hands."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"
HANDS_FILE = DATA / "usebio-hands.xml"
