"""Double dummy solves only what is asked (issue 17), and the edges of issue 18 in `bridge dd`,
`makes` and `lead`: a seat given twice, PBN tags kept, Ctrl-C.

The full tables (``tricks_batch``: DDS's CalcAllTables, every declarer in every strain) are
the independent route the single-declarer and opening-lead solves are checked against; a real
BridgeComposer hand record (tests/data/SOURCES.md) checks the tables themselves.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from cardlab.bridge.dd import declarer_makes, declarer_tricks, lead_sets, lead_tricks, read_pbn_games, tricks_batch
from cardlab.bridge.dd_sim import constrained_hands, makes
from cardlab.bridge.deals import parse_constraint
from cardlab.engine import chunk_seed, chunk_sizes
from cardlab.cli.main import main

DATA = Path(__file__).parent / "data"
BC_FILE = DATA / "bridgecomposer-4-boards.pbn"
SRC = str(Path(__file__).resolve().parent.parent / "src")
ENV = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _test_deals() -> np.ndarray:
    """Six random deals, the four of the BridgeComposer file and one suit per hand."""
    rng = np.random.default_rng(2024)
    random = rng.permuted(np.broadcast_to(np.arange(52), (6, 52)), axis=1).reshape(6, 4, 13)
    _, games = read_pbn_games(BC_FILE.read_text())
    filed = np.array([g.deal.hands for g in games]).reshape(-1, 4, 13)
    suits = np.array([[[4 * r + s for r in range(13)] for s in (3, 2, 1, 0)]])
    return np.concatenate([random, filed, suits]).astype(np.int64)


DEALS = _test_deals()


@lru_cache(maxsize=1)
def full_tables() -> np.ndarray:
    """``tricks_batch(DEALS)``: (n, declarer, strain), every cell; solved when a test first asks,
    not when the module is collected (a run that deselects those tests never pays for it)."""
    return tricks_batch(DEALS)


def test_one_declarer_matches_the_full_tables_on_every_deal() -> None:
    """Issue 17: `makes` asks for one declarer and strain; on every deal and every one of the 20
    (declarer, strain) plays it gives the full table's figure."""
    plays = [(d, s) for d in range(4) for s in range(5)]
    got = declarer_tricks(DEALS, plays)
    for k, (d, s) in enumerate(plays):
        assert got[:, k].tolist() == full_tables()[:, d, s].tolist(), (d, s)


def test_target_mode_make_or_fail_matches_the_full_tables_on_every_deal() -> None:
    """Issue 27: "does it make" through DDS's target mode (one solve per deal and play, with the
    defence's target) gives the full tables' make or fail on every deal, for every declarer and
    strain and every level from 1 to 13 tricks needed."""
    plays = [(d, s, need) for d in range(4) for s in range(5) for need in range(1, 14)]
    got = declarer_makes(DEALS, plays)
    for k, (d, s, need) in enumerate(plays):
        assert got[:, k].tolist() == (full_tables()[:, d, s] >= need).tolist(), (d, s, need)


@pytest.mark.parametrize("leader, strain", [(1, 4), (2, 3), (3, 0), (0, 2)])
def test_target_mode_setting_leads_match_the_trick_counts(leader: int, strain: int) -> None:
    """Issue 27: the leads DDS's target mode says beat the contract are exactly the cards whose
    counted defence tricks (every card solved, Default mode) reach the target, at every target."""
    counted = lead_tricks(DEALS, leader, strain)
    for target in (1, 4, 5, 7, 13):
        setting = lead_sets(DEALS, leader, strain, target)
        assert setting == [frozenset(c for c, t in cards.items() if t >= target) for cards in counted], target


def test_makes_make_or_fail_route_matches_the_full_tables() -> None:
    """`makes` of one contract solves only make or fail by default: its make count is that of the
    full tables of the very deals it dealt; with tricks=True the same deals give the histogram."""
    north = parse_constraint("hcp=12+")
    quick = makes(["3NT"], "N", trials=24, seed=11, constraints={"N": north}, chunk=8)
    full = makes(["3NT"], "N", trials=24, seed=11, constraints={"N": north}, chunk=8, tricks=True)
    root = np.random.SeedSequence(11)
    hands = np.concatenate([constrained_hands(np.random.default_rng(chunk_seed(root, i)), size, ((0, north),))[0]
                            for i, size in enumerate(chunk_sizes(24, 8))])
    tables = tricks_batch(hands, ["NT"])
    assert quick.contracts[0].makes == full.contracts[0].makes == int((tables[:, 0, 4] >= 9).sum())
    assert not quick.contracts[0].has_tricks and quick.contracts[0].tricks == ()
    assert full.contracts[0].tricks == tuple(np.bincount(tables[:, 0, 4], minlength=14).tolist())
    assert "make or fail only" in quick.table() and "mean tricks" in full.table()
    assert quick.to_csv().splitlines()[1].startswith("3NT,N,9+,")


@pytest.mark.parametrize("leader, strain", [(1, 4), (2, 3), (3, 0), (0, 2)])
def test_best_lead_matches_the_full_tables_on_every_deal(leader: int, strain: int) -> None:
    """Issue 17: `lead` solves the leader's cards only. The best of them is the defence's tricks
    of the full table (13 - declarer's), declarer being the leader's right-hand opponent; every
    card of the leader's hand gets a figure and none beats the best."""
    by_deal = lead_tricks(DEALS, leader, strain)
    declarer = (leader + 3) % 4
    for i, cards in enumerate(by_deal):
        assert sorted(cards) == sorted(DEALS[i, leader].tolist())
        assert max(cards.values()) == 13 - full_tables()[i, declarer, strain]


def test_makes_matches_the_full_tables_on_the_same_deals() -> None:
    """`makes` over seeded deals: its trick histograms are those of the full tables of the very
    deals it dealt (rebuilt here from the chunk seeds)."""
    north = parse_constraint("hcp=12+")
    result = makes(["3NT", "4H"], ["N", "E"], trials=24, seed=11, constraints={"N": north}, chunk=8)
    root = np.random.SeedSequence(11)
    hands = np.concatenate([constrained_hands(np.random.default_rng(chunk_seed(root, i)), size, ((0, north),))[0]
                            for i, size in enumerate(chunk_sizes(24, 8))])
    tables = tricks_batch(hands, ["NT", "H"])
    assert result.contracts[0].tricks == tuple(np.bincount(tables[:, 0, 4], minlength=14).tolist())
    assert result.contracts[1].tricks == tuple(np.bincount(tables[:, 1, 2], minlength=14).tolist())
    assert result.contracts[0].makes == int((tables[:, 0, 4] >= 9).sum())


def test_bridge_composer_tables_agree() -> None:
    """The file's own DoubleDummyTricks and OptimumScore (BridgeComposer) agree with ours."""
    text = BC_FILE.read_text()
    theirs = [line.split('"')[1] for line in text.splitlines() if line.startswith("[DoubleDummyTricks")]
    scores = [line.split('"')[1] for line in text.splitlines() if line.startswith("[OptimumScore")]
    from cardlab.bridge.dd import dd_tables

    header, games = read_pbn_games(text)
    tables = dd_tables([g.deal for g in games], [g.dealer for g in games], [g.vulnerability for g in games])
    ours = [t.pbn_tags().splitlines()[0].split('"')[1] for t in tables]
    assert ours == theirs
    for score, t in zip(scores, tables):
        side, value = score.split()
        assert t.par_score == (int(value) if side == "NS" else -int(value))


def test_dd_pbn_keeps_board_numbers_and_every_tag(tmp_path: Path) -> None:
    """Issue 18: `bridge dd --file hands.pbn --format pbn` renumbered boards and dropped Event,
    Site ...: every tag and section of the input is kept; the double-dummy tags are replaced."""
    out = tmp_path / "out.pbn"
    # renumber the boards of the real file to 28..31, as a session's later boards would be
    text = BC_FILE.read_text()
    for n in (4, 3, 2, 1):
        text = text.replace(f'[Board "{n}"]', f'[Board "{n + 27}"]')
    source = tmp_path / "hands.pbn"
    source.write_bytes(text.replace("\n", "\r\n").encode())  # CRLF, as BridgeComposer writes
    assert main(["bridge", "dd", "--file", str(source), "--format", "pbn", "-o", str(out)]) == 0
    written = out.read_text().splitlines()
    original = text.splitlines()
    dd_lines = ("[DoubleDummyTricks", "[OptimumScore", "[OptimumResultTable")
    assert [line for line in written if line.startswith("[Board")] == [f'[Board "{n}"]' for n in (28, 29, 30, 31)]
    assert written[:44] == original[:44]  # BridgeComposer's % header, then board 28's first tags
    kept = [line for line in original if line.startswith("[") and not line.startswith(dd_lines)]
    assert [line for line in written if line.startswith("[") and not line.startswith(dd_lines)] == kept
    assert sum(line.startswith("[Event") for line in written) == 4
    assert '[Event "#"]' in written  # tag inheritance kept as written
    lead_rows = [line for line in original if line[:1] in "NESW" and line.count(" ") > 3]
    assert all(row in written for row in lead_rows)  # OptimumOpeningLeadTable rows kept
    assert sum(line.startswith("[DoubleDummyTricks") for line in written) == 4
    assert sum(line.startswith("[OptimumResultTable") for line in written) == 4
    assert len([line for line in written if line[:1] in "NSEW" and len(line.split()) == 3]) == 80  # 4 x 20 rows
    _, again = read_pbn_games(out.read_text())
    assert [g.deal.to_pbn() for g in again] == [g.deal.to_pbn() for g in read_pbn_games(text)[1]]


def test_a_seat_given_twice_follows_the_rule_of_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18: `makes`/`lead` with --north twice kept only the last one. As `bridge deal`: a
    seat's constraints given twice must both hold (a contradiction is refused), its cards once."""
    status = main(["bridge", "makes", "--contract", "3NT", "--by", "N", "-n", "8", "--seed", "1",
                   "--north", "hcp=15-17", "--north", "spades=5+", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["constraints"] == "N: hcp=15-17 spades=5+"
    for command in (["makes", "--contract", "3NT", "--by", "N"],
                    ["lead", "--hand", "KQJ2.T98.765.432", "--contract", "3NT", "--by", "S"],
                    ["deal"]):
        status = main(["bridge", *command, "-n", "4", "--seed", "1", "--north", "hcp=20+", "--north", "hcp=0-5"])
        err = capsys.readouterr().err
        # both hold, so no deal can meet them (before, makes and lead kept hcp=0-5 and ran)
        assert status == 2 and ("do not overlap" in err or "hcp=20+ hcp=0-5" in err), (command, err)
        status = main(["bridge", *command, "-n", "4", "--north-cards", "AKQJ.T98.765.432",
                       "--north-cards", "AKQJ.T98.765.432"])
        err = capsys.readouterr().err
        assert status == 2 and "--north-cards is given 2 times" in err, (command, err)


# --- Ctrl-C ----------------------------------------------------------------------------------------

# Runs `cardlab bridge makes|lead` telling the test when DDS's multi-deal call has started, with
# the call made slow (DELAY=30 s: a Ctrl-C then must stop the command at once, with its empty
# result) or not (DELAY=0: a real DDS call is running when Ctrl-C comes).
_SLOW_DDS = """
import os, sys, time
import endplay.dds
def slowed(real):
    def slow(*args, **kwargs):
        print("dds started", file=sys.stderr, flush=True)
        time.sleep(float(os.environ["DELAY"]))
        return real(*args, **kwargs)
    return slow
endplay.dds.solve_all_boards = slowed(endplay.dds.solve_all_boards)
endplay.dds.calc_all_tables = slowed(endplay.dds.calc_all_tables)
from cardlab.cli.main import main
sys.exit(main())  # as the `cardlab` program does
"""


def _interrupt(argv: list[str], *, delay: float, wait: float) -> tuple[int, float, str, str]:
    """Start the command, send SIGINT ``wait`` s after its first DDS call started; its status,
    how long it took to stop, its stdout and stderr."""
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_DDS, *argv], env=dict(ENV, DELAY=str(delay)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    assert proc.stderr.readline().strip() == "dds started"
    time.sleep(wait)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, time.monotonic() - sent, out, err


@pytest.mark.parametrize("command", [
    ["makes", "--contract", "3NT", "--by", "N"],
    ["lead", "--hand", "KQJ2.T98.765.432", "--contract", "3NT", "--by", "S"],
])
def test_ctrl_c_before_the_first_batch_stops_at_once_with_the_empty_result(command: list[str]) -> None:
    """Issue 18: Ctrl-C took up to 5 s and printed nothing before the first batch was in."""
    status, took, out, err = _interrupt(["bridge", *command, "-n", "1000", "--seed", "1", "--format", "json"],
                                        delay=30, wait=0.3)
    assert status == 130, err
    assert took < 1.0, took
    data = json.loads(out)
    assert data["interrupted"] is True and data["deals"] == 0 and data["requested"] == 1000
    assert "Traceback" not in err


def test_ctrl_c_on_a_real_run_prints_what_was_done() -> None:
    """A real DDS call is running when Ctrl-C comes: the command stops at once all the same (the
    call is abandoned; exiting under it used to crash with status 139)."""
    status, took, out, err = _interrupt(["bridge", "makes", "--contract", "3NT", "--by", "N", "-n", "100000",
                                         "--seed", "1"], delay=0, wait=2.5)
    assert status == 130, err
    assert took < 1.0, took
    assert "interrupted:" in out and "of 100,000 deals were solved" in out and "Traceback" not in err


def test_ctrl_c_on_full_tables_stops_at_once_without_a_crash() -> None:
    """`bridge dd --file`: the interrupted table call is abandoned too (exit 130, not a crash)."""
    status, took, _, err = _interrupt(["bridge", "dd", "--file", str(BC_FILE)], delay=30, wait=0.3)
    assert status == 130 and took < 1.0, (status, took, err)
    assert "cardlab: interrupted" in err and "Traceback" not in err
