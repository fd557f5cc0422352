"""`cardlab bridge hcp|shape|joint` end to end, in-process."""

from __future__ import annotations

import csv
import io
import json
from math import comb
from pathlib import Path

import pytest

from bruteforce import seed_hcp_counts
from png_check import png_size


def test_hcp_table_has_38_rows_summing_to_total(run) -> None:
    status, out, err = run("bridge", "hcp")
    assert status == 0 and err == ""
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit() and "total" not in line]
    assert len(rows) == 38
    assert sum(int(r[1].replace(",", "")) for r in rows) == 635_013_559_600
    assert rows[-1][:2] == ["37", "4"]
    assert "total 635,013,559,600 (exact)" in out


def test_hcp_json_format(run) -> None:
    status, out, _ = run("bridge", "hcp", "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["total"] == 635_013_559_600
    assert len(data["rows"]) == 38
    assert data["rows"][37] == {"value": 37, "count": 4, "probability": 4 / 635_013_559_600,
                                "at_least": 4 / 635_013_559_600}
    assert {r["value"]: r["count"] for r in data["rows"]} == seed_hcp_counts(4, 36, 13)


def test_partnership_csv_to_file(run, tmp_path: Path) -> None:
    target = tmp_path / "p.csv"
    status, out, _ = run("bridge", "hcp", "--cards", "26", "--format", "csv", "-o", str(target))
    assert status == 0 and out == ""
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert len(rows) == 41 and sum(int(r["count"]) for r in rows) == comb(52, 26)


def test_given_cards_and_scheme(run) -> None:
    status, out, _ = run("bridge", "hcp", "--given", "AKQJ.T98.765.432", "--format", "json")
    data = json.loads(out)
    assert data["total"] == comb(39, 13)
    assert {r["value"]: r["count"] for r in data["rows"]} == seed_hcp_counts(3, 27, 13)
    status, out, _ = run("bridge", "hcp", "--scheme", "bergen", "--format", "json")
    values = [r["value"] for r in json.loads(out)["rows"]]
    assert values[:3] == [0, "0.25", "0.5"]


def test_given_hcp(run) -> None:
    status, out, _ = run("bridge", "hcp", "--given-hcp", "37", "--format", "json")
    data = json.loads(out)
    assert [r["value"] for r in data["rows"]] == [0, 1, 2, 3]
    assert data["total"] == 4 * comb(39, 13)


def test_shape_and_joint(run) -> None:
    status, out, _ = run("bridge", "shape", "--format", "json")
    rows = json.loads(out)["rows"]
    assert len(rows) == 39 and rows[0]["value"] == "4-4-3-2"
    status, out, _ = run("bridge", "shape", "--specific", "--format", "json")
    assert len(json.loads(out)["rows"]) == 560
    status, out, _ = run("bridge", "joint", "--by", "longest")
    assert status == 0 and "hcp \\ longest suit" in out
    status, out, _ = run("bridge", "joint", "--by", "pattern", "--format", "json")
    data = json.loads(out)
    assert data["total"] == comb(52, 13)
    assert {"value": [37, "4-3-3-3"], "count": 4} == {k: data["rows"][-1][k] for k in ("value", "count")}


def test_simulation_side_by_side(run) -> None:
    status, out, _ = run("bridge", "hcp", "--simulate", "50000", "--seed", "3", "--format", "json")
    data = json.loads(out)
    assert data["simulation"]["trials"] == 50_000 and data["simulation"]["seed"] == 3
    assert sum(r["simulated_count"] for r in data["rows"]) == 50_000
    # 38 rows, each 95% interval covering its exact probability: about 1.9 misses expected, and
    # 7 or more has probability 0.25% (binomial 38, 0.05) unless the intervals are wrong.
    assert len(data["rows"]) == 38 and sum(not r["within"] for r in data["rows"]) <= 6


def test_plot_is_written(run, tmp_path: Path) -> None:
    target = tmp_path / "hcp.png"
    status, _, err = run("bridge", "hcp", "--plot", str(target))
    assert status == 0 and target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png_size(target) == (1557, 528)  # the hcp bar chart: 38 bars, 14.16 x 4.8 inches at 110 dpi
    joint = tmp_path / "joint.png"
    assert run("bridge", "joint", "--by", "pattern", "--plot", str(joint))[0] == 0
    assert png_size(joint)[0] == int(110 * (0.3 * 39 + 3))  # a column per pattern (39)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--given", "AKQZ"], "unknown symbol 'Z' in 'AKQZ'"),
        (["--given", "As Kd As"], "card As is given 2 times but the deck holds 1"),
        (["--cards", "53"], "cannot draw 53 cards from a deck of 52"),
        (["--given", "AKQJT98765432.AKQJT98765432.AKQJT98765432.", "--cards", "14"],
         "cannot draw 14 cards from a deck of 13"),
        (["--scheme", "fancy"], "unknown point scheme 'fancy'"),
        (["--scheme", "A=4,Z=1"], "unknown rank 'Z'"),
        (["--given-hcp", "38"], "no 13-card hand holds exactly 38 hcp"),
        (["--given-hcp", "lots"], "--given-hcp expects a number of points, got 'lots'"),
        (["--plot", "out.jpg"], "give a file name ending in .png"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(run, argv: list[str], message: str) -> None:
    status, out, err = run("bridge", "hcp", *argv)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("cardlab: error: ")
    assert message in err


def test_unwritable_output_is_one_line(run, tmp_path: Path) -> None:
    status, _, err = run("bridge", "hcp", "-o", str(tmp_path / "missing" / "x.txt"))
    assert status == 2 and err.startswith("cardlab: error: cannot use file") and err.count("\n") == 1
