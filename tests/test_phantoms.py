"""Phantoms and sit-outs (odd number of pairs): never ranked, the real pair compensated by a
named convention, the other results not re-factored.  Worked by hand below (EBU units)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.cli.main import main
from cardlab.errors import ScoringError
from cardlab.scoring import load_results

DATA = Path(__file__).parent / "data"


def _pcts(result):  # type: ignore[no-untyped-def]
    return {p.key: (round(p.percentage, 2), p.boards, p.place) for p in result.pairs}


def test_howell_with_a_sit_out_by_hand() -> None:
    # tests/data/howell-sitout.csv: 5 pairs, 3 boards, the sixth seat is PHANTOM (one line
    # written A6040 as some programs do, two left empty).  Real results per board: 2, so
    # N = 2 and the top is 2 -- the phantom lines do not count (counting them would make
    # N = 3 and factor every real result).
    # b1: 450 (3 v 4) -> 3: 2, 4: 0; 420 (1 v 2) -> 1: 0, 2: 2
    # b2: 600 (1 v 3) -> 1: 2, 3: 0; -100 (2 v 5) -> 2: 0, 5: 2
    # b3: -110 (2 v 4) -> 2: 2, 4: 0; -140 (5 v 1) -> 5: 0, 1: 2
    # Real boards: 1: 4/6 = 66.67%, 2: 4/6 = 66.67%, 3: 2/4 = 50%, 4: 0/4 = 0%, 5: 2/4 = 50%.
    doc = load_results(DATA / "howell-sitout.csv")
    result = doc.score(scale="ebu")
    assert result.top == 2 and result.phantoms == ((None, "PHANTOM"),)
    # Session-average convention: the sit-out board gives the pair its own average.
    assert _pcts(result) == {
        (None, "1"): (66.67, 3, "1="), (None, "2"): (66.67, 3, "1="),
        (None, "3"): (50.0, 3, "3="), (None, "5"): (50.0, 3, "3="), (None, "4"): (0.0, 3, "5")}
    b1 = {(s.line.ns, s.line.ew): (s.ns_points, s.ew_points) for s in result.boards[0].lines}
    assert b1[("1", "2")] == (0.0, 2.0) and b1[("3", "4")] == (2.0, 0.0)  # not re-factored
    # Average plus (60% of the top, 1.2): 3: (2 + 1.2)/6 = 53.33%, 4: 1.2/6 = 20%,
    # 5: (2 + 1.2)/6 = 53.33%; 1 and 2 did not sit out.
    plus = _pcts(doc.score(scale="ebu", phantom_rule="average-plus"))
    assert plus[(None, "3")] == (53.33, 3, "3=") and plus[(None, "4")] == (20.0, 3, "5")
    assert plus[(None, "1")] == (66.67, 3, "1=")


def test_mitchell_with_a_phantom_pair_declared(capsys: pytest.CaptureFixture[str]) -> None:
    # tests/data/mitchell-sitout.csv: NS 1-3, EW 1-2 and a missing EW 3; the sit-outs are
    # entered as A6040 lines (which, counted, would make N = 3 and re-factor everything).
    # N = 2, top 2.  b1: 450 NS2 2, 420 NS1 0 (EW2 0, EW1 2); b2: 600 NS2 2, -100 NS3 0
    # (EW1 0, EW2 2); b3: -110 NS1 2, -140 NS3 0 (EW2 0, EW1 2).
    # NS1 2/4 = 50%, NS2 4/4 = 100%, NS3 0%; EW1 4/6 = 66.67%, EW2 2/6 = 33.33%.
    doc = load_results(DATA / "mitchell-sitout.csv")
    result = doc.score(scale="ebu", phantoms=["3EW"])
    assert result.top == 2
    assert _pcts(result) == {
        ("NS", "2"): (100.0, 3, "1"), ("NS", "1"): (50.0, 3, "2"), ("NS", "3"): (0.0, 3, "3"),
        ("EW", "1"): (66.67, 3, "1"), ("EW", "2"): (33.33, 3, "2")}
    with pytest.raises(ScoringError, match="ambiguous in a Mitchell: say 3NS or 3EW"):
        doc.score(phantoms=["3"])
    assert main(["bridge", "score", str(DATA / "mitchell-sitout.csv"), "--phantom", "3EW",
                 "--format", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 6 and not any(r.startswith("3,EW") for r in rows)


def test_a_pair_with_no_opponents_is_a_sit_out() -> None:
    # The Howell file again, its sit-out lines written with an empty opponent instead.
    text = (DATA / "howell-sitout.csv").read_text().replace(",PHANTOM,,,,A6040", ",,,,,")
    text = text.replace(",PHANTOM,", ",,")
    doc = load_results(text.encode(), source="empty.csv")
    result = doc.score(scale="ebu")
    assert result.phantoms == ((None, "PHANTOM"),)
    assert _pcts(result)[(None, "4")] == (0.0, 3, "5") and result.top == 2


@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_phantoms_survive_the_writers(fmt: str, tmp_path: Path) -> None:
    doc = load_results(DATA / "mitchell-sitout.csv")
    result = doc.score(scale="ebu", phantoms=["3EW"])
    out = tmp_path / f"out.{fmt}"
    assert main(["bridge", "score", str(DATA / "mitchell-sitout.csv"), "--phantom", "3EW",
                 "--scale", "ebu", "--format", fmt, "-o", str(out)]) == 0
    again = load_results(out)
    rescored = again.score(phantoms=[] if fmt == "usebio" else ["3EW"])
    assert _pcts(rescored) == _pcts(result)
    assert rescored.phantoms == (("EW", "3"),)
    if fmt == "usebio":
        assert again.check(rescored).ok


def test_the_results_site_marks_phantoms_and_never_ranks_them(tmp_path: Path) -> None:
    """A sit-out session published as a site: the phantom is shown as such on the scorecards
    of the pairs that met it, and has no line of its own in the ranking."""
    import html5lib

    from cardlab.report.site import build_site

    doc = load_results(DATA / "mitchell-sitout.csv")
    result = doc.score(phantoms=["3EW"])
    site = build_site(result, deals=doc.deals)
    index = site.files["index.html"]
    html5lib.HTMLParser(strict=True).parse(index)
    assert "pair-ew-3.html" not in index  # not ranked
    cards = "".join(text for name, text in site.files.items() if name.startswith("pair-ns-"))
    assert '<span class="mark">phantom</span>' in cards
