"""Duplicate bridge scoring: contract scores, matchpoints and IMPs, sessions, result files.

A domain of its own, apart from the hand statistics in :mod:`cardlab.bridge`: it
needs no probability engine, only the seats and vulnerability of
:mod:`cardlab.board`.

>>> from cardlab.scoring import board_matchpoints
>>> board_matchpoints([650, 300, 300, -200]).tolist()
[3.0, 1.5, 1.5, 0.0]
"""

from __future__ import annotations

from cardlab.board import Seat, Vulnerability
from cardlab.scoring.contract import Contract, Result, ns_score
from cardlab.scoring.matchpoints import Scale, board_matchpoints
from cardlab.scoring.session import (
    Method,
    Movement,
    PhantomRule,
    SessionResult,
    score_session,
)
from cardlab.scoring.check import CheckReport
from cardlab.scoring.document import Reported, ResultsFile, split_pair_id
from cardlab.scoring.results_file import load_results
from cardlab.scoring.teams import TeamsResult, load_teams, score_teams

__all__ = [
    "Contract",
    "Result",
    "Seat",
    "Vulnerability",
    "ns_score",
    "Scale",
    "board_matchpoints",
    "Method",
    "Movement",
    "SessionResult",
    "score_session",
    "PhantomRule",
    "CheckReport",
    "ResultsFile",
    "Reported",
    "split_pair_id",
    "load_results",
    "TeamsResult",
    "score_teams",
    "load_teams",
]
