"""What the job processes' fork server loads once, so that each job starts without paying for the
imports (numpy, matplotlib, the library modules the pages call: seconds on a loaded machine).
Imported only there; a module that fails to import here is simply imported by the job later."""

from __future__ import annotations

import importlib
import os

os.environ.setdefault("MPLBACKEND", "Agg")  # pictures to bytes; never a window

PRELOAD = (
    "numpy", "matplotlib", "matplotlib.pyplot", "cardlab.report.plot", "cardlab.bridge.tables",
    "cardlab.bridge.deals", "cardlab.bridge.dealer", "cardlab.bridge.boardsets", "cardlab.bridge.splits",
    "cardlab.bridge.suitplay", "cardlab.report.scoring_run", "cardlab.scoring", "cardlab.bridge.dd",
    "cardlab.bridge.dd_sim", "cardlab.poker.equity", "cardlab.casino.video", "cardlab.web.render",
    "cardlab.poker.board_stats", "cardlab.report.video_plot", "cardlab.web.pages.poker", "cardlab.web.pages.video",
    "cardlab.poker.pushfold", "cardlab.web.answers", "cardlab.casino.blackjack_sim", "cardlab.web.pages.blackjack",
)

for _name in PRELOAD:
    try:
        importlib.import_module(_name)
    except Exception:  # pragma: no cover - an optional part missing: the job imports it itself
        pass


def ready() -> None:
    """Nothing: a job that only starts the fork server (called once when the server starts)."""
