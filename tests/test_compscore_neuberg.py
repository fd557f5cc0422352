"""Issue 38: Compscore 3 MP_PAIRS exports add each Neuberg *correction* cut toward zero.

On a board played 18 times of 19 (EBU matchpoints, 2 a beat: top 34 there, 36 for the
event) the Neuberg score of raw matchpoints M is F = (M + 1) * 19/18 - 1. Compscore writes it as
the unfactored score scaled to the top, S = M * 36/34, plus the correction F - S (from +0.0556
for a bottom to -0.0556 for a top, 1/18 - M/306), and cuts the correction to 2 decimals toward
zero before adding. Worked by hand for the two pairs of the report:

* NS 8, board 26, a top (M = 34): F = 35 * 19/18 - 1 = 35.9444; S = 36; F - S = -0.0556, cut
  to -0.05: 35.95. Board 27, M = 17: F = 18 * 19/18 - 1 = 18 = S, no correction. Its other 25
  boards add to 403: ours 403 + 35.9444 + 18 = 456.9444 (456.94), the file 403 + 35.95 + 18 =
  456.95. Cutting each factored score instead (last round's convention) gives 35.94: 456.94,
  and rounding gives 35.94 too: neither reaches 456.95.
* EW 2, board 26, M = 4: F = 5 * 19/18 - 1 = 4.2778; S = 4 * 36/34 = 4.2353; F - S = 0.0425,
  cut 0.04: 4.2753. Board 27, M = 13: F = 14 * 19/18 - 1 = 13.7778; S = 13 * 36/34 = 13.7647;
  F - S = 0.0131, cut 0.01: 13.7747. Other boards 398: ours 398 + 4.2778 + 13.7778 = 416.0556
  (416.06), the file 398 + 4.2753 + 13.7747 = 416.0500 (416.05). Each factored score cut:
  4.27 + 13.77 = 18.04, 416.04; rounded: 4.28 + 13.78, 416.06: neither is 416.05.

``tests/data/compscore-neuberg.xml`` is a test file built to reproduce these figures (see
tests/data/SOURCES.md); the totals below are recomputed from its travellers, independently of
cardlab's scoring."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

from cardlab.cli.main import main
from cardlab.scoring import load_results

FILE = Path(__file__).parent / "data" / "compscore-neuberg.xml"
CONVENTION = ("unfactored (scaled to the top) plus the Neuberg correction cut to 2 decimals toward zero "
              "before adding (Compscore 3's MP_PAIRS Neuberg correction)")


def _cut(value: float) -> float:
    return math.copysign(math.floor(abs(value) * 100 + 1e-6) / 100, value)


def _by_hand(rule: str) -> dict[str, float]:
    """Each pair's total: ``exact`` Neuberg scores, ``correction`` (scaled + correction cut),
    ``cut`` (each factored score cut) or ``round`` (each rounded half up)."""
    root = ET.parse(FILE).getroot()
    boards = [[(t.findtext("NS_PAIR_NUMBER"), t.findtext("EW_PAIR_NUMBER"), int(t.findtext("SCORE") or 0))
               for t in b.iter("TRAVELLER_LINE")] for b in root.iter("BOARD")]
    most = max(len(lines) for lines in boards)
    top = 2 * (most - 1)
    totals: dict[str, float] = defaultdict(float)
    for lines in boards:
        n = len(lines)
        for ns, ew, score in lines:
            raw_ns = sum(2 * (score > other) + (score == other) for _, _, other in lines) - 1
            for pair, m in ((f"{ns}NS", raw_ns), (f"{ew}EW", 2 * (n - 1) - raw_ns)):
                factored = (m + 1) * most / n - 1
                scaled = m * top / (2 * (n - 1))
                totals[pair] += {"exact": factored, "correction": scaled + _cut(factored - scaled),
                                 "cut": _cut(factored), "round": math.floor(factored * 100 + 0.5) / 100}[rule]
    return dict(totals)


def _stated() -> dict[str, str]:
    root = ET.parse(FILE).getroot()
    return {p.findtext("PAIR_NUMBER") or "": p.findtext("TOTAL_SCORE") or "" for p in root.iter("PAIR")}


def test_compscore_neuberg_correction(capsys: pytest.CaptureFixture[str]) -> None:
    stated = _stated()
    exact, corrected = _by_hand("exact"), _by_hand("correction")
    cut, rounded = _by_hand("cut"), _by_hand("round")
    assert len(stated) == 38
    # the report's two figures, as worked in the module docstring
    assert (stated["8NS"], round(exact["8NS"], 4), round(corrected["8NS"], 4)) == ("456.95", 456.9444, 456.95)
    assert (stated["2EW"], round(exact["2EW"], 4), round(corrected["2EW"], 4)) == ("416.05", 416.0556, 416.05)
    assert (f"{cut['8NS']:.2f}", f"{rounded['8NS']:.2f}") == ("456.94", "456.94")
    assert (f"{cut['2EW']:.2f}", f"{rounded['2EW']:.2f}") == ("416.04", "416.06")
    # every total of the file is the corrected sum; ours are the exact Neuberg sums
    assert all(stated[p] == f"{corrected[p]:.2f}" for p in stated)
    doc = load_results(FILE.read_bytes(), source=FILE.name)
    ours = {p.key[1] + p.key[0]: p.total for p in doc.score().pairs}
    assert all(abs(ours[p] - exact[p]) < 1e-9 for p in stated)
    report = doc.check(doc.score())
    assert report.ok, report.differences
    notes = {n.split(":")[0]: n for n in report.notes if "TOTAL_SCORE" in n}
    assert notes["pair NS 8"] == (f"pair NS 8: TOTAL_SCORE 456.95 is the sum of the board scores {CONVENTION} "
                                  "(ours 456.94 unrounded)")
    assert notes["pair EW 2"] == (f"pair EW 2: TOTAL_SCORE 416.05 is the sum of the board scores {CONVENTION} "
                                  "(ours 416.06 unrounded)")
    assert main(["bridge", "score", str(FILE), "--check"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("compscore-neuberg.xml: no differences (511 lines, 38 pairs checked)")
    assert "cardlab: note: pair EW 2: TOTAL_SCORE 416.05 is the sum of the board scores unfactored" in captured.err


def test_compscore_neuberg_correction_off_by_more_is_a_difference() -> None:
    edited = FILE.read_text().replace("<TOTAL_SCORE>456.95</TOTAL_SCORE>", "<TOTAL_SCORE>456.96</TOTAL_SCORE>")
    assert edited != FILE.read_text()
    doc = load_results(edited.encode(), source="edited.xml")
    report = doc.check(doc.score())
    assert report.differences == ("pair NS 8: TOTAL_SCORE file 456.96, ours 456.94",)
