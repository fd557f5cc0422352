"""The two IMP tables and the dealer language's score(): the WBF scale that all scoring uses
(cardlab.scoring.matchpoints) and the C dealer's table kept only for the dealer language's
``imps()`` (cardlab.bridge.dealer.functions.C_DEALER_IMP_TABLE).

Sources: the WBF IMP scale is the table of Law 78B of the Laws of Duplicate Bridge (2017),
written out below from the published table; the C dealer's behaviour is checked against
Debian's ``dealer`` program (/usr/games/dealer) when it is installed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from cardlab.bridge.dealer.functions import C_DEALER_IMP_TABLE, EVALUATORS
from cardlab.scoring.contract import Contract, declarer_score
from cardlab.scoring.matchpoints import IMP_BOUNDS, imps

# Law 78B: (lowest difference, IMPs) for 1..24 IMPs; 0-10 is 0 IMPs.
LAW_78B = [(20, 1), (50, 2), (90, 3), (130, 4), (170, 5), (220, 6), (270, 7), (320, 8), (370, 9), (430, 10),
           (500, 11), (600, 12), (750, 13), (900, 14), (1100, 15), (1300, 16), (1500, 17), (1750, 18),
           (2000, 19), (2250, 20), (2500, 21), (3000, 22), (3500, 23), (4000, 24)]
DIFFERENCES = np.arange(-5000, 5010, 10)  # score differences are multiples of 10


def _dealer_imps(differences: np.ndarray) -> np.ndarray:
    return EVALUATORS["imps"](None, differences)


def test_wbf_scale_is_law_78b() -> None:
    assert [int(b) for b in IMP_BOUNDS] == [low for low, _ in LAW_78B]
    for low, count in LAW_78B:
        assert imps([low, low - 10, -low]).tolist() == [count, count - 1, -count]


def test_c_dealer_table_differs_from_wbf_only_at_420_and_1200_to_1290() -> None:
    c, wbf = _dealer_imps(DIFFERENCES), imps(DIFFERENCES)
    differ = sorted(int(d) for d in DIFFERENCES[c != wbf] if d > 0)
    assert differ == [420] + list(range(1200, 1300, 10))
    assert (np.abs(c - wbf) <= 1).all() and (np.abs(c[c != wbf]) == np.abs(wbf[c != wbf]) + 1).all()
    assert _dealer_imps(np.array([420, 1200, 1290, 1300, -420])).tolist() == [10, 16, 16, 16, -10]
    assert imps([420, 1200, 1290, 1300, -420]).tolist() == [9, 15, 15, 16, -9]
    assert len(C_DEALER_IMP_TABLE) == 24


@pytest.mark.skipif(shutil.which("dealer", path="/usr/games:/usr/bin:/usr/local/bin") is None,
                    reason="the C dealer is not installed (Debian package dealer)")
def test_c_dealer_program_agrees_at_the_boundaries(tmp_path: Path) -> None:
    values = [0, 10, 20, 40, 50, 410, 420, 430, 490, 500, 1190, 1200, 1290, 1300, 1490, 1500, 3990, 4000, 7600]
    # One printes per value; a four-digit literal would read as a shape (4333), so write v/10 * 10.
    actions = ",\n  ".join(f'printes(imps({v // 10} * 10), " ", imps(0 - {v // 10} * 10), " ")' for v in values)
    script = tmp_path / "imps.dl"
    script.write_text(f"generate 1\nproduce 1\ncondition 1\naction {actions}\n")
    binary = shutil.which("dealer", path="/usr/games:/usr/bin:/usr/local/bin")
    assert binary is not None
    out = subprocess.run([binary, str(script)], capture_output=True, text=True, timeout=60, check=True).stdout
    theirs = [int(x) for x in out.split("Generated")[0].split()]
    ours = _dealer_imps(np.array([s * v for v in values for s in (1, -1)])).tolist()
    assert theirs == ours


def test_dealer_score_equals_law_77_for_every_undoubled_contract() -> None:
    # The dealer language's score() is its own (C-compatible) code, not cardlab.scoring:
    # checked here against the Law 77 scores of cardlab.scoring.contract.
    tricks = np.arange(14)
    for level in range(1, 8):
        for strain, letter in enumerate("CDHSN"):
            contract = Contract.parse(f"{level}{'NT' if letter == 'N' else letter}")
            for vul in (0, 1):
                ours = EVALUATORS["score"](None, vul, level * 5 + strain, tricks).tolist()
                assert ours == [declarer_score(contract, int(t), bool(vul)) for t in tricks], contract
