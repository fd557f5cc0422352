"""Script parity with Deal, redeal and DealerV2 (issue 41): correlation and bucketed frequencies,
scripts run over saved deals, user holding functions, the two meanings of "balanced".

Every figure is recomputed here by an independent route (numpy over the same deals, or plain
Python over the cards), on small seeded runs."""

from __future__ import annotations

import io
import re
import json
from typing import Any

import numpy as np
import pytest

from cardlab.bridge.dealer import parse_script, run_script
from cardlab.bridge.dealer.dealing import owner_from_masks
from cardlab.cli.main import main
from cardlab.errors import DealerScriptError


def _run_keeping(text: str, seed: int = 5, **options: Any) -> tuple[Any, np.ndarray]:
    """Run a script and keep its produced deals as ``owner[52, n]``."""
    kept: list[np.ndarray] = []
    result = run_script(parse_script(text), seed=seed, on_deals=lambda d, _: kept.append(owner_from_masks(d)),
                        **options)
    return result, np.concatenate(kept, axis=1)


def _hcp(owner: np.ndarray, seat: int) -> np.ndarray:
    """4-3-2-1 points from the cards themselves (card id // 4 is the rank, 9 the jack)."""
    points = np.maximum(np.arange(52) // 4 - 8, 0)
    return ((owner == seat) * points[:, None]).sum(axis=0)


def _length(owner: np.ndarray, seat: int, suit: int) -> np.ndarray:
    return (owner[suit::4] == seat).sum(axis=0)


# --- correlation and bktfreq ---------------------------------------------------------------------

STATS = """
generate 2500
produce 2500
condition hcp(north) >= 8
action correlation "ns" (hcp(north), hcp(south)),
  correlation (spades(north), hearts(north)),
  bktfreq "points" (hcp(north), 10, 20, 3),
  bktfreq "grid" (hcp(south), 0, 12, 4, spades(north) + spades(south), 5, 9, 2),
  printoneline
"""


def test_correlation_and_buckets_against_numpy() -> None:
    result, owner = _run_keeping(STATS)
    n_pts, s_pts = _hcp(owner, 0), _hcp(owner, 2)
    assert result.produced == owner.shape[1] > 600
    first, second = result.correlations
    assert first.count == result.produced
    assert first.value == pytest.approx(np.corrcoef(n_pts, s_pts)[0, 1], abs=1e-12)
    assert first.value < -0.05  # partners' points are negatively correlated (they share 40)
    lo, hi = first.ci95()
    assert lo < first.value < hi
    sp, he = _length(owner, 0, 3), _length(owner, 0, 2)
    assert second.value == pytest.approx(np.corrcoef(sp, he)[0, 1], abs=1e-12)
    assert first.means() == pytest.approx((n_pts.mean(), s_pts.mean()))
    assert first.sdevs()[0] == pytest.approx(n_pts.std(ddof=1))
    # buckets: Low (< 10), 10-12, 13-15, 16-18, 19-21 (the one holding 20), High (DealerV2: 3 + 10 // 3)
    one, two = result.buckets
    edges = [-1000, 10, 13, 16, 19, 22, 1000]
    assert list(one.counts) == np.histogram(n_pts, bins=edges)[0].tolist()
    fits = sp + _length(owner, 2, 3)
    expected, _, _ = np.histogram2d(s_pts, fits, bins=[[-1000, 0, 4, 8, 12, 16, 1000], [-1000, 5, 7, 9, 11, 1000]])
    assert [list(r) for r in two.counts] == expected.astype(int).tolist()


def test_statistics_print_in_script_order_as_text_and_json() -> None:
    script = parse_script(STATS.replace("printoneline", "average hcp(north)"))
    out = io.StringIO()
    result = run_script(script, seed=5, out=out)
    text = result.table()
    assert text.index("Correlation ns:") < text.index("Correlation :") < text.index("Description: points")
    assert text.index("Description: grid") < text.index("Generated")
    assert "Value\t   Count\t    Pct.\t  CumPct\n" in text and "Total\t" in text
    assert " Low " in text and "\nSum  " in text
    data = result.to_dict()
    assert data["correlations"][0]["value"] == pytest.approx(result.correlations[0].value)
    assert data["bucket_frequencies"][0]["rows"][1] == {"bucket": 10, "count": result.buckets[0].counts[1]}
    assert data["bucket_frequencies"][1]["columns"] == ["low", 5, 7, 9, "high"]
    assert f"correlation,ns,{result.correlations[0].value!r}," in result.to_csv()


def test_statistics_do_not_depend_on_workers() -> None:
    one = run_script(parse_script(STATS.replace("printoneline", "average 1")), seed=9, workers=1)
    two = run_script(parse_script(STATS.replace("printoneline", "average 1")), seed=9, workers=2)
    assert one.correlations == two.correlations and one.buckets == two.buckets


@pytest.mark.parametrize("text, message", [
    ("action bktfreq (hcp(north), 0, 10, 0)", "bucket size 0"),
    ("action bktfreq (hcp(north), 10, 0, 1)", "upper bound is below"),
    ("action bktfreq (hcp(north), 0, 10)", "expected ',', got ')'"),
    ("action correlation (hcp(north))", "','"),
    ("action bktfreq (hcp(north), 0, 900000, 1, hcp(south), 0, 900000, 1)", "at most 10,000,000"),
])
def test_bad_statistics_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(DealerScriptError, match=re.escape(message)):
        parse_script(text)


# --- scripts over saved deals --------------------------------------------------------------------

SAVED = """
generate 3000
produce 3000
condition hcp(north) >= 11 && spades(south) >= 3
action average "south" hcp(south), frequency (hearts(north), 0, 8),
  correlation (hcp(north), clubs(north)), bktfreq (hcp(east) + hcp(west), 0, 30, 5)
"""

_RANK_LETTERS = "23456789TJQKA"


def _hand_suits(owner: np.ndarray, deal: int, seat: int) -> list[str]:
    """A hand's four holdings, spades first, highest card first (plain Python over the cards)."""
    return ["".join(_RANK_LETTERS[c // 4] for c in range(51, -1, -1) if c % 4 == suit and owner[c, deal] == seat)
            for suit in (3, 2, 1, 0)]


def _write_saved(owner: np.ndarray, fmt: str, path: Any) -> None:
    from cardlab.bridge.boardsets import BoardSet
    from cardlab.deal import Board, Deal

    n = owner.shape[1]
    if fmt == "deal-line":  # Deal 3.1's -l: hands N|E|S|W, suits by single spaces, a void empty
        lines = ["|".join(" ".join(_hand_suits(owner, d, seat)) for seat in range(4)) for d in range(n)]
        path.write_text("\n".join(lines) + "\n")
        return
    if fmt == "ddline":  # Deal's format/ddline: hands with dots, then each hand's five trick counts
        lines = ["|".join(".".join(_hand_suits(owner, d, seat)) for seat in range(4)) + "|7 6 6 7 7|6 7 7 6 6"
                 "|7 6 6 7 7|6 7 7 6 6" for d in range(n)]
        path.write_text("\n".join(lines) + "\n")
        return
    if fmt == "oneline":  # the dealer program's printoneline
        lines = ["".join(f"{'nesw'[seat]} {'.'.join(_hand_suits(owner, d, seat))} " for seat in range(4))
                 for d in range(n)]
        path.write_text("\n".join(lines) + "\nGenerated 10 hands\n")
        return
    boards = BoardSet(tuple(Board(i + 1, Deal(owner[:, i].tobytes())) for i in range(n)))
    path.write_text(boards.to_pbn() if fmt == "pbn" else boards.to_lin())


@pytest.mark.parametrize("fmt, suffix", [("pbn", ".pbn"), ("lin", ".lin"), ("deal-line", ".txt"),
                                         ("ddline", ".txt"), ("oneline", ".txt")])
def test_a_script_over_saved_deals_gives_the_statistics_of_the_deals_it_was_dealt_from(
        tmp_path: Any, fmt: str, suffix: str) -> None:
    from cardlab.bridge.dealer.saved import read_saved_deals

    _, owner = _run_keeping("generate 700\nproduce 700\naction printoneline", seed=11)
    assert owner.shape[1] == 700
    path = tmp_path / f"deals{suffix}"
    _write_saved(owner, fmt, path)
    masks = read_saved_deals(path)
    assert (owner_from_masks(masks) == owner).all()  # the same deals, in order
    script = parse_script(SAVED)
    over_file = run_script(script, deals=masks, seed=1)
    # the same script's statistics over the same deals, by the ordinary route (in memory)
    again = run_script(parse_script(SAVED.replace("condition", "condition (hcp(north) >= 0) &&")), deals=masks)
    assert over_file.generated == 700 and over_file.produced == again.produced
    chosen = (_hcp(owner, 0) >= 11) & (_length(owner, 2, 3) >= 3)
    assert over_file.produced == int(chosen.sum())
    assert over_file.averages[0].mean == pytest.approx(_hcp(owner, 2)[chosen].mean())
    hearts = _length(owner, 0, 2)[chosen]
    assert list(over_file.frequencies[0].counts[1:-1]) == np.bincount(hearts, minlength=9)[:9].tolist()
    assert over_file.correlations[0].value == pytest.approx(
        np.corrcoef(_hcp(owner, 0)[chosen], _length(owner, 0, 0)[chosen])[0, 1], abs=1e-12)
    assert over_file.buckets == again.buckets


def test_saved_deals_through_the_cli_match_the_run_that_dealt_them(tmp_path: Any, capsys: Any) -> None:
    script = tmp_path / "s.dl"
    script.write_text(SAVED.replace("action ", "action printoneline, "))
    saved = tmp_path / "deals.txt"
    assert main(["bridge", "dealer", str(script), "-s", "4", "-o", str(saved)]) == 0
    first = saved.read_text()
    stats = first[first.index("\n", first.rindex("\nn ") + 1) + 1:]
    stats_only = tmp_path / "q.dl"
    stats_only.write_text(SAVED)
    out = tmp_path / "again.txt"
    assert main(["bridge", "dealer", str(stats_only), "--deals", str(saved), "-o", str(out)]) == 0
    second = out.read_text()
    assert second[:second.index("Generated")] == stats[:stats.index("Generated")]  # every statistic, same text
    assert main(["bridge", "dealer", str(stats_only), "--deals", str(saved), "--format", "json", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["produced"] == data["generated"] == first.count("\nn ") + first.startswith("n ")


@pytest.mark.parametrize("text, message", [
    ("n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.76\n", "W's hand has 12 cards"),
    ("n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765X\n", "'X' is not a rank"),
    ("AKQJ T98 765 432|T98 765 432 AKQJ|765 432 AKQJ T98|432 AKQJ T98 765 2\n", "does not have four suits"),
    ("AKQJ T98 765 432|AKQJ 765 432 T98|765 432 AKQJ T98|432 AKQJ T98 765\n", "AS appears twice"),
    ("hello\n", "not a PBN, LIN"),
    ("n AKQJ.T98.765.432 e T98.765.432.AKQJ\n", "not a deal"),
])
def test_bad_saved_deals_name_the_line(tmp_path: Any, text: str, message: str) -> None:
    from cardlab.bridge.dealer.saved import read_saved_deals
    from cardlab.errors import InputFileError

    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InputFileError, match=re.escape(message)):
        read_saved_deals(path)
    script = tmp_path / "s.dl"
    script.write_text("action average hcp(north)")
    assert main(["bridge", "dealer", str(script), "--deals", str(path)]) == 2


def test_predeal_is_refused_over_saved_deals() -> None:
    masks = np.zeros((4, 4, 1), dtype=np.uint16)
    with pytest.raises(DealerScriptError, match="predeal"):
        run_script(parse_script("predeal north SA\naction average 1"), deals=masks)


# --- user holding functions ----------------------------------------------------------------------

HOLDINGS = """
holding smart = length >= 5 ? 4*A + 3*K + 2*Q + J + length - 4 : length == 0 ? 0 :
    length == 1 ? 4*A + 2*K : length == 2 ? 4*A + 3*K + Q : 4*A + 3*K + 2*Q + J
holding stopper = A || (K && length >= 2) || (Q && length >= 3) || (J && x10 && length >= 4)
holding spots = 9*x9 + 8*x8 + 7*x7 + 6*x6 + 5*x5 + 4*x4 + 3*x3 + 2*x2 - T
"""


def _smart(h: str) -> int:
    """Deal 3.1's smartPoints example (its html/ex/holdingProc.txt), in plain Python."""
    a, k, q, j, n = ("A" in h), ("K" in h), ("Q" in h), ("J" in h), len(h)
    if n >= 5:
        return 4 * a + 3 * k + 2 * q + j + n - 4
    if n == 0:
        return 0
    if n == 1:
        return 4 * a + 2 * k
    if n == 2:
        return 4 * a + 3 * k + q
    return 4 * a + 3 * k + 2 * q + j


def _stopper(h: str) -> int:
    n = len(h)
    return int("A" in h or ("K" in h and n >= 2) or ("Q" in h and n >= 3) or ("J" in h and "T" in h and n >= 4))


def _spots(h: str) -> int:
    return sum(int(c) for c in h if c.isdigit()) - ("T" in h)


def _quick_tricks(h: str) -> float:
    """Deal 3.1's QuickTricks holdingProc example (holding.html, -double), in plain Python."""
    if h.startswith("AK"):
        return 2
    if "A" in h:
        return 1
    if "K" in h and ("Q" in h or ("J" in h and "T" in h)):
        return 1
    return 0.5 if "K" in h and len(h) > 1 else 0


def test_holding_tables_against_brute_force_on_every_holding() -> None:
    from cardlab.bridge.dealer.holdings import holding_text

    script = parse_script(HOLDINGS + "action average smart(north) + stopper(north) + spots(north)")
    calls = script.actions[0].exprs[0]  # (smart + stopper) + spots: each call carries its table
    tables = {c.args[0].name: c.args[0] for c in (calls.left.left, calls.left.right, calls.right)}
    for name, brute in (("smart", _smart), ("stopper", _stopper), ("spots", _spots)):
        assert [brute(holding_text(m)) for m in range(8192)] == tables[name].values.tolist(), name


def test_holding_functions_in_a_script_against_brute_force() -> None:
    from cardlab.bridge.dealer.holdings import holding_table
    from cardlab.bridge.dealer.program import script_programs

    text = HOLDINGS + """
generate 1500
produce 1500
condition smart(north) >= 12 || stopper(south, hearts)
action average smart(north), average stopper(south), average spots(east, clubs), average qt(west),
  frequency (smart(north), 0, 30)
"""
    qt = holding_table("qt", _quick_tricks, scale=2)
    script = parse_script(text, holdings=[qt])
    condition, actions = script_programs(script, tuple(a.exprs[0] for a in script.actions))
    assert condition is not None and all(p is not None for p in actions)  # the compiled route, no Python per deal
    _, owner = _run_keeping("generate 1500\nproduce 1500\naction printoneline", seed=8)
    from cardlab.bridge.dealer.saved import parse_line_deals

    lines = "\n".join("|".join(" ".join(s or "-" for s in _hand_suits(owner, d, seat)) for seat in range(4))
                      for d in range(owner.shape[1]))
    result = run_script(script, deals=parse_line_deals(lines), seed=1)
    n = owner.shape[1]
    smart_n = np.array([sum(_smart(s) for s in _hand_suits(owner, d, 0)) for d in range(n)])
    stop_s = np.array([sum(_stopper(s) for s in _hand_suits(owner, d, 2)) for d in range(n)])
    stop_sh = np.array([_stopper(_hand_suits(owner, d, 2)[1]) for d in range(n)])
    spots_ec = np.array([_spots(_hand_suits(owner, d, 1)[3]) for d in range(n)])
    qt_w = np.array([sum(_quick_tricks(s) for s in _hand_suits(owner, d, 3)) for d in range(n)])
    chosen = (smart_n >= 12) | (stop_sh == 1)
    assert result.produced == int(chosen.sum()) > 250
    means = [a.mean for a in result.averages]
    assert means[0] == pytest.approx(smart_n[chosen].mean(), rel=1e-12)
    assert means[1] == pytest.approx(stop_s[chosen].mean(), rel=1e-12)
    assert means[2] == pytest.approx(spots_ec[chosen].mean(), rel=1e-12)
    assert means[3] / 2 == pytest.approx(qt_w[chosen].mean(), rel=1e-12)  # stored in halves (scale=2)
    assert list(result.frequencies[0].counts[1:-1]) == np.bincount(smart_n[chosen], minlength=31)[:31].tolist()


@pytest.mark.parametrize("text, message", [
    ("holding h = A + hcp\naction average 1", "'hcp' in a holding function"),
    ("holding hcp = A\naction average 1", "'hcp' is already a word"),
    ("holding h = A * 2000000000000\naction average h(north)", "at most 1,000,000,000,000"),
    ("shapefunc f = s * 2000000000000\naction average f(north)", "at most 1,000,000,000,000"),
    ("holding h = A\nholding h = K\naction average 1", "'h' is already a word"),
    ("holding h = A / (K - K)\naction average 1", "line 1, column 9: in holding function 'h': division by zero"),
])
def test_bad_holding_functions_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(DealerScriptError, match=re.escape(message)):
        parse_script(text)


def test_python_holding_functions_check_their_values() -> None:
    from cardlab.bridge.dealer.holdings import holding_table

    with pytest.raises(DealerScriptError, match=re.escape("not a multiple of 1/1")):
        holding_table("qt", _quick_tricks)
    with pytest.raises(DealerScriptError, match="not a number"):
        holding_table("bad", lambda h: "x")
    assert holding_table("long", lambda h: len(h) >= 5).value("AKQ32") == 1


# --- the two meanings of "balanced" --------------------------------------------------------------


def test_balanced_as_deal_and_as_redeal_mean_it() -> None:
    """Deal 3.1 (lib/features.tcl): balanced = no five-card major, sum of squared lengths <= 47;
    semibalanced = majors <= 5, minors <= 6, no suit shorter than 2. redeal: Balanced = any 4333,
    4432, 5332; SemiBalanced adds any 5422 and 6322. Checked hand by hand over seeded deals."""
    text = ("generate 3000\nproduce 3000\naction printoneline(1000 * balanced_deal(north) + 100 * "
            "semibalanced_deal(north) + 10 * balanced_redeal(north) + semibalanced_redeal(north))")
    out = io.StringIO()
    run_script(parse_script(text), seed=6, out=out)
    seen = set()
    for line in out.getvalue().splitlines():
        parts = line.split()
        s, h, d, c = (len(x) for x in parts[1].split("."))
        pattern = "".join(map(str, sorted((s, h, d, c), reverse=True)))
        expected = [int(h < 5 and s < 5 and s * s + h * h + d * d + c * c <= 47),
                    int(h <= 5 and s <= 5 and d <= 6 and c <= 6 and min(s, h, d, c) >= 2),
                    int(pattern in ("4333", "4432", "5332")),
                    int(pattern in ("4333", "4432", "5332", "5422", "6322"))]
        assert f"{int(parts[8]):04d}" == "".join(map(str, expected)), line
        seen.add((pattern, s == 5 or h == 5, tuple(expected)))
    assert ("5332", True, (0, 1, 1, 1)) in seen and ("5332", False, (1, 1, 1, 1)) in seen  # where they differ


def test_balanced_deal_acceptance_matches_the_exact_probability() -> None:
    """P(balanced_deal) counted exactly over suit lengths (multinomials), against a run drawn
    exactly (one-seat shape conditions) and one by plain rejection, each within its interval.
    Published figures: 4333 10.54%, 4432 21.55%, 5332 15.52% (half of them with the five in a
    minor), so 39.85% (hand-pattern table of Wikipedia's "Contract bridge probabilities")."""
    from math import comb

    exact = sum(comb(13, s) * comb(13, h) * comb(13, d) * comb(13, 13 - s - h - d)
                for s in range(14) for h in range(14 - s) for d in range(14 - s - h)
                if s < 5 and h < 5 and s * s + h * h + d * d + (13 - s - h - d) ** 2 <= 47) / comb(52, 13)
    assert exact == pytest.approx(0.1053613 + 0.2155117 + 0.1551684 / 2, abs=1e-6)
    for exact_draw in (True, False):
        result = run_script(parse_script("generate 20000\ncondition balanced_deal(north)\naction average 1"),
                            seed=12, exact_draw=exact_draw)
        rate, lo, hi = result.acceptance()
        assert lo < exact < hi, (exact_draw, rate)


def test_saved_deals_over_several_chunks_in_order_with_any_workers() -> None:
    from cardlab.bridge.dealer.runner import SAVED_CHUNK

    _, owner = _run_keeping("generate 9000\nproduce 9000\naction printoneline", seed=21)
    n = owner.shape[1]
    assert n > 2 * SAVED_CHUNK
    from cardlab.bridge.dealer.dealing import masks_from_owner

    masks = masks_from_owner(owner)
    text = "condition hcp(south) >= 10\naction average hcp(north), frequency (hcp(north), 0, 37), printoneline"
    points_n, chosen = _hcp(owner, 0), _hcp(owner, 2) >= 10
    kept: list[np.ndarray] = []
    one = run_script(parse_script(text), deals=masks, workers=1, on_deals=lambda d, _: kept.append(owner_from_masks(d)))
    two = run_script(parse_script(text), deals=masks, workers=2)
    assert (np.concatenate(kept, axis=1) == owner[:, chosen]).all()  # every chosen deal, in file order
    assert one.averages[0].mean == pytest.approx(points_n[chosen].mean(), rel=1e-12)
    assert one.frequencies == two.frequencies and one.averages == two.averages
    first = run_script(parse_script(text), deals=masks, generate=5000)
    assert first.generated == 5000 and first.produced == int(chosen[:5000].sum())
    stop = run_script(parse_script(text), deals=masks, produce=100)
    assert stop.produced == 100 and stop.generated == int(np.flatnonzero(chosen)[99]) + 1


# --- shape classes -------------------------------------------------------------------------------


def test_shape_classes_against_brute_force() -> None:
    """``shapeclass NAME = EXPR`` over the lengths s h d c (Deal 3.1's shapecond, its manual's
    commands.html): checked on all 560 patterns and hand by hand in a run."""
    text = """shapeclass longmajor = s >= 6 || h >= 6
shapeclass twosuits = (s >= 5) + (h >= 5) + (d >= 5) + (c >= 5) >= 2 && c != 0
generate 2000
produce 2000
action printoneline(10 * longmajor(north) + twosuits(east))
"""
    script = parse_script(text)
    from cardlab.bridge.polynomials import shape_key

    long_keys = set(script.actions[0].exprs[0].left.right.args[0].keys)
    patterns = [(s, h, d, 13 - s - h - d) for s in range(14) for h in range(14 - s) for d in range(14 - s - h)]
    assert long_keys == {int(shape_key(*p)) for p in patterns if p[0] >= 6 or p[1] >= 6}
    out = io.StringIO()
    run_script(script, seed=2, out=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2000
    for line in lines:
        parts = line.split()
        north = [len(x) for x in parts[1].split(".")]
        east = [len(x) for x in parts[3].split(".")]
        expected = 10 * int(north[0] >= 6 or north[1] >= 6) + int(sum(x >= 5 for x in east) >= 2 and east[3] != 0)
        assert int(parts[8]) == expected, line


@pytest.mark.parametrize("text, message", [
    ("shapeclass x = s + hcp\naction average 1", "'hcp' in a shape class"),
    ("shapeclass shape = s\naction average 1", "'shape' is already a word"),
])
def test_bad_shape_classes_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(DealerScriptError, match=re.escape(message)):
        parse_script(text)


# --- practice sets -------------------------------------------------------------------------------


def _practice_hands(text: str) -> list[list[str]]:
    """The hands of a practice file (the print(SEAT) layout: four deals across, 20 columns each)."""
    lines = text.split("\n")
    hands: list[list[str]] = []
    for i, line in enumerate(lines):
        if line.strip().startswith(f"{len(hands) + 1}."):
            across = len(line.split(".")) - 1
            rows = lines[i + 1:i + 5]
            for k in range(across):
                suits = [row[20 * k:20 * k + 20].replace(" ", "") for row in rows]
                hands.append(["" if s == "-" else s for s in suits])
    return hands


def test_practice_sets_hold_each_seats_hands_of_the_produced_deals(tmp_path: Any) -> None:
    script = tmp_path / "s.dl"
    script.write_text("produce 9\ncondition hcp(north) >= 12\naction printoneline\n")
    prefix = tmp_path / "set"
    out = tmp_path / "deals.txt"
    assert main(["bridge", "dealer", str(script), "-s", "5", "--practice", str(prefix), "-o", str(out)]) == 0
    deals = [line.split() for line in out.read_text().splitlines() if line.startswith("n ")]
    assert len(deals) == 9
    for seat, name in enumerate(("north", "east", "south", "west")):
        text = (tmp_path / f"set.{name}").read_text()
        assert text.startswith(f"\n\n{name.capitalize()} hands:")
        assert _practice_hands(text) == [d[2 * seat + 1].split(".") for d in deals]


def test_deal_line_voids_are_empty_fields_between_single_spaces() -> None:
    """Deal's -l writes each hand as '%s %s %s %s' (a void the empty string), so a void first or
    last in a hand leaves a leading or trailing space that must be kept."""
    from cardlab.bridge.dealer.saved import parse_line_deals

    masks = parse_line_deals(" AKQJT98765432  |AKQJT98765432   |  AKQJT98765432 |   AKQJT98765432\n")
    assert masks[:, :, 0].tolist() == [[0, 0, 8191, 0], [0, 0, 0, 8191], [0, 8191, 0, 0], [8191, 0, 0, 0]]
    dashes = parse_line_deals("- AKQJT98765432 - -|AKQJT98765432 - - -|- - AKQJT98765432 -|- - - AKQJT98765432\n")
    assert (dashes == masks).all()


# --- one line per deal with double-dummy tricks (Deal's ddline) ----------------------------------


def test_ddline_lines_read_back_and_agree_with_the_dd_tables(tmp_path: Any) -> None:
    from cardlab.bridge.dd import dd_table
    from cardlab.bridge.dealer.saved import ddline_text, parse_line_deals

    script = tmp_path / "s.dl"
    script.write_text("produce 4\ncondition hcp(north) + hcp(south) >= 24\naction printoneline\n")
    path = tmp_path / "dd.txt"
    assert main(["bridge", "dealer", str(script), "-s", "7", "-q", "--ddline", str(path)]) == 0
    lines = path.read_text().splitlines()
    assert len(lines) == 4
    masks = parse_line_deals(path.read_text())
    for i, line in enumerate(lines):
        parts = line.split("|")
        table = dd_table("N:" + " ".join(parts[:4]))  # the same deal, solved by the table-and-par route
        for seat, seat_name in enumerate("NESW"):
            assert [int(t) for t in parts[4 + seat].split()] == [table.tricks_for(seat_name, s) for s in "SHDCN"]
    assert masks.shape == (4, 4, 4)
    # N all spades, E all hearts, S all diamonds, W all clubs (tricks_batch's own example):
    one = np.zeros((4, 4, 1), dtype=np.uint16)
    for seat, suit in enumerate((3, 2, 1, 0)):
        one[seat, suit, 0] = 8191
    fields = ddline_text(one).split("|")
    assert fields[0] == "AKQJT98765432..." and fields[4].split()[0] == "13" and fields[4].split()[4] == "0"


# --- par per deal (DealerV2's par) ---------------------------------------------------------------


def test_par_per_deal_on_a_hand_built_grand_slam_and_against_dd_tables() -> None:
    """North holds AKQJ of spades and AKQ of the other suits: 13 top tricks at notrump whatever
    the lead, so par is 7NT by North-South (Law 77: 220 trick points + 300 game + 1000 slam =
    1520 not vulnerable; + 500 game + 1500 slam = 2220 vulnerable), and East-West's is minus that."""
    from cardlab.bridge.dd import dd_table
    from cardlab.bridge.dealer.saved import parse_line_deals

    line = "n AKQJ.AKQ.AKQ.AKQ e T98.JT98.JT9.JT9 s 765.765.8765.876 w 432.432.432.5432\n"
    text = "action printes(par(NS), \" \", par(NS, all), \" \", par(EW), \" \", par(ew, ns), \"\\n\")"
    out = io.StringIO()
    run_script(parse_script(text), deals=parse_line_deals(line), out=out)
    assert out.getvalue() == "1520 2220 -1520 -2220\n"
    _, owner = _run_keeping("generate 3\nproduce 3\naction printoneline", seed=4)
    out = io.StringIO()
    from cardlab.bridge.dealer.dealing import masks_from_owner

    run_script(parse_script("action printes(par(NS, ew), \"\\n\")"), deals=masks_from_owner(owner), out=out)
    expected = [dd_table("N:" + " ".join(".".join(_hand_suits(owner, d, s)) for s in range(4)), "N", "EW").par_score
                for d in range(3)]
    assert [int(x) for x in out.getvalue().split()] == expected


def test_shape_functions_against_brute_force() -> None:
    """``shapefunc NAME = EXPR``: an integer per pattern (Deal 3.1's shapefunc returns any value;
    the language's values are integers), here the suit a hand opens with, 3 spades .. 0 clubs."""
    text = """shapefunc opening = s >= 5 && s >= h ? 3 : h >= 5 ? 2 : d > c || (d == c && d >= 4) ? 1 : 0
generate 1500
produce 1500
action printoneline(opening(south)), average opening(south)
"""
    out = io.StringIO()
    result = run_script(parse_script(text), seed=3, out=out)
    values = []
    for line in out.getvalue().splitlines():
        parts = line.split()
        s, h, d, c = (len(x) for x in parts[5].split("."))
        expected = 3 if s >= 5 and s >= h else 2 if h >= 5 else 1 if d > c or (d == c and d >= 4) else 0
        assert int(parts[8]) == expected, line
        values.append(expected)
    assert len(values) == 1500 and result.averages[0].mean == pytest.approx(np.mean(values))
    assert set(values) == {0, 1, 2, 3}


def test_shape_functions_and_classes_drawn_exactly_agree_with_rejection() -> None:
    from cardlab.bridge.dealer.conditional import ConditionalPlan

    text = ("shapefunc opening = s >= 5 && s >= h ? 3 : 0\nshapeclass flat = s < 5 && h < 5\n"
            "generate 20000\ncondition opening(north) == 3 && hcp(north) >= 12 || flat(north) && hcp(north) >= 20\n"
            "action average 1")
    assert ConditionalPlan.build(parse_script(text)) is not None  # one seat: drawn exactly
    exact = run_script(parse_script(text), seed=2)
    plain = run_script(parse_script(text), seed=2, exact_draw=False)
    p1, lo1, hi1 = exact.acceptance()
    p2, lo2, hi2 = plain.acceptance()
    assert abs(p1 - p2) < (hi1 - lo1 + hi2 - lo2) / 2 * 1.5


def test_deal_31_figures_over_its_own_deals(tmp_path: Any) -> None:
    """Deal 3.1 itself (Debian 3.1.9-13), run over the 1,000 deals it wrote (tests/data/SOURCES.md):
    its holdingProc, correlation, balanced, semibalanced and shapecond against cardlab's holding,
    correlation, balanced_deal, semibalanced_deal and shapeclass over the same file, via --deals
    (which also reads Deal's -l voids)."""
    from pathlib import Path

    deals = Path(__file__).parent / "data" / "deal" / "deals41.line"
    smart = tmp_path / "smart.dl"
    smart.write_text(HOLDINGS + "condition smart(north) > 12\n"
                     "action average smart(north), correlation (hcp(north), hcp(south))\n")
    out = tmp_path / "out.json"
    assert main(["bridge", "dealer", str(smart), "--deals", str(deals), "--format", "json", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["generated"] == 1000 and data["produced"] == 314  # Deal: count 314
    assert data["averages"][0]["value"] == pytest.approx(15.318471337579618, rel=1e-12)
    assert data["correlations"][0]["value"] == pytest.approx(-0.1782393274810899, rel=1e-9)
    shapes = tmp_path / "shapes.dl"
    shapes.write_text("shapeclass longmajor = s >= 6 || h >= 6\n"
                      "action average balanced_deal(south), average semibalanced_deal(west), average longmajor(east)\n")
    assert main(["bridge", "dealer", str(shapes), "--deals", str(deals), "--format", "json", "-o", str(out)]) == 0
    assert [a["value"] for a in json.loads(out.read_text())["averages"]] == [0.402, 0.616, 0.096]  # Deal's figures


#: Deal 3.1's ``parscore north None`` (its lib/parscore.tcl, North-South's score) on the first 12
#: deals of tests/data/deal/deals41.line, as Deal printed them (tests/data/SOURCES.md); the test
#: solves the first six (the other six agree too, and all 30 that were compared).
DEAL_PARSCORES = [130, -990, -420, -140, -1520, -130, -100, 420, -430, -130, -400, 140]


def test_par_agrees_with_deals_parscore_on_its_own_deals(tmp_path: Any) -> None:
    from pathlib import Path

    lines = (Path(__file__).parent / "data" / "deal" / "deals41.line").read_text().splitlines()[:6]
    deals = tmp_path / "d.line"
    deals.write_text("\n".join(lines) + "\n")
    script = tmp_path / "par.dl"
    script.write_text('action printes(par(NS), "\\n")\n')
    out = tmp_path / "out.txt"
    assert main(["bridge", "dealer", str(script), "--deals", str(deals), "-o", str(out)]) == 0
    assert [int(x) for x in out.read_text().split("Generated")[0].split()] == DEAL_PARSCORES[:6]


def test_dealerv2_bktfreq_example_runs_unchanged_with_its_dotnums() -> None:
    """DealerV2's Examples/BktFreq.dli (tests/data/dealer/README.md): dotnums are hundredths
    (its src/dealflex.l: ``100 * atof(yytext)``), so ``KnR_N >= 6.0`` is ``cccc(north) >= 600``
    and the buckets run 500, 550, ... 2200; each table's margins are the other tables' counts and
    the hcp histogram of the same deals, computed here from the cards."""
    from pathlib import Path

    text = (Path(__file__).parent / "data" / "dealer" / "dealerv2-BktFreq.dli").read_text()
    script = parse_script(text, "BktFreq.dli")
    assert script.condition.right.value == 600  # KnR_N >= 6.0
    kept: list[np.ndarray] = []
    result = run_script(script, produce=600, on_deals=lambda d, _: kept.append(owner_from_masks(d)))
    owner = np.concatenate(kept, axis=1)
    knr, by_hcp, by_c13 = result.buckets
    assert knr.bounds == (500, 2200, 50) and knr.counts[0] == 0 and knr.counts[1] == knr.counts[2] == 0
    assert [sum(r) for r in by_hcp.counts] == list(knr.counts) == [sum(r) for r in by_c13.counts]
    hcp = _hcp(owner, 0)
    columns = [sum(col) for col in zip(*by_hcp.counts)]
    assert columns == np.histogram(hcp, bins=[-1, 5, *range(6, 24), 99])[0].tolist()
    assert sum(knr.counts) == result.produced == 600
