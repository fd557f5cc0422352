"""The static results site: deals read from USEBIO, scorecards, valid linked HTML, the CLI."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import html5lib
import pytest

from cardlab.board import Vulnerability, dealer
from cardlab.bridge.deals import parse_pbn_deal
from cardlab.cli.main import main
from cardlab.errors import ResultFileError
from cardlab.report.site import build_site, is_site_target
from cardlab.deal import Deal
from cardlab.scoring.usebio import read_usebio_deals
from cardlab.report.site.model import factored_boards, hand_record, scorecards
from cardlab.scoring.csv_travellers import read_travellers
from cardlab.scoring.session import score_session
from cardlab.scoring.usebio import read_usebio

from site_helpers import DATA, HANDS_FILE


def _session(method: str = "mp"):
    doc = read_usebio(HANDS_FILE.read_bytes())
    return doc, score_session(doc.lines, method=method, scale="ebu", movement=doc.movement,
                              names=doc.names, title=doc.title)


# --- deals from USEBIO ----------------------------------------------------------------

def test_deals_read_from_hand_elements() -> None:
    text = HANDS_FILE.read_text()
    deals = read_usebio_deals(text)
    assert sorted(deals) == list(range(1, 11))
    # Independent route: the raw SPADES..CLUBS text of board 1's North and West in the file.
    north = re.search(r"<BOARD_NUMBER>1</BOARD_NUMBER>\s*<HAND><DIRECTION>North</DIRECTION>"
                      r"<SPADES>(.*?)</SPADES><HEARTS>(.*?)</HEARTS><DIAMONDS>(.*?)</DIAMONDS>"
                      r"<CLUBS>(.*?)</CLUBS>", text)
    assert north is not None
    assert deals[1].pbn_deal().split()[0] == "N:" + ".".join(g.replace("10", "T") for g in north.groups())
    for deal in deals.values():
        hands = parse_pbn_deal(deal.pbn_deal()).hands  # 52 different cards, 13 each
        assert sorted(c for h in hands for c in h) == list(range(52))


def _board_xml(hands: list[tuple[str, str, str, str, str]]) -> str:
    body = "".join(
        f"<HAND><DIRECTION>{d}</DIRECTION><SPADES>{s}</SPADES><HEARTS>{h}</HEARTS>"
        f"<DIAMONDS>{di}</DIAMONDS><CLUBS>{c}</CLUBS></HAND>\n" for d, s, h, di, c in hands)
    return (f"<USEBIO>\n<HANDSET>\n<BOARD>\n<BOARD_NUMBER>7</BOARD_NUMBER>\n{body}"
            "</BOARD>\n</HANDSET>\n</USEBIO>")


HANDS = [("N", "AKQJ", "1098", "765", "432"), ("E", "1098", "765", "432", "AKQJ"),
         ("S", "765", "432", "AKQJ", "1098"), ("W", "432", "AKQJ", "1098", "765")]


def test_three_hands_give_the_fourth_and_voids_read() -> None:
    full = read_usebio_deals(_board_xml(HANDS))
    assert read_usebio_deals(_board_xml(HANDS[:3])) == full
    all13 = "AKQJ 10 9 8 7 6 5 4 3 2"
    voids = [("N", all13, "", "-", ""), ("E", "", all13, "", ""), ("S", "", "", all13, "-"),
             ("W", "", "", "", all13)]
    assert {n: b.pbn_deal() for n, b in read_usebio_deals(_board_xml(voids)).items()} == {
        7: "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"}
    twice = [HANDS[0], ("E", "1098", "765", "432", "AKQJ"), ("S", "765", "432", "AKQJ", "1098"),
             ("W", "432", "AKQJ", "1098", "764")]
    with pytest.raises(ResultFileError, match=r"s\.xml: line 3: board 7: .* is dealt to both N and W"):
        read_usebio_deals(_board_xml(twice), "s.xml")


@pytest.mark.parametrize("hands, message", [
    ([("X", "AKQJ", "1098", "765", "432")] + HANDS[1:],
     r"line 5: HAND of board 7 has no direction N, E, S or W \('X'\)"),
    ([HANDS[0], HANDS[0]] + HANDS[2:], r"line 6: board 7 gives the N hand twice"),
    (HANDS[:2], r"line 3: board 7 gives 2 hands \(need 3 or 4\)"),
    ([("N", "AKQJ", "1098", "765", "43Z")] + HANDS[1:], r"unknown rank 'Z' in CLUBS of board 7"),
])
def test_bad_hands_are_errors_naming_the_line(hands: list, message: str) -> None:
    with pytest.raises(ResultFileError, match=message):
        read_usebio_deals(_board_xml(hands))


def test_hand_record_hcp_and_void() -> None:
    record = hand_record(7, Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"),
                         with_dd=False)
    # HCP counted by hand: N has AKQJ of spades = 10, E AKQJ clubs 10, S 10, W 10.
    assert dict(record.hcp) == {"N": 10, "E": 10, "S": 10, "W": 10}
    assert (record.dealer, record.vulnerability.value) == ("S", "All")  # board 7: S, All
    assert record.hands["N"][0] == ("♠", "AKQJ", "s") and record.dd is None
    void = hand_record(1, Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. "
                                        "...AKQJT98765432"), with_dd=False)
    assert void.hands["N"][1] == ("♥", "—", "h") and void.hcp["E"] == 10


# --- scorecards --------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["mp", "cross-imps", "butler"])
def test_every_scorecard_adds_up_to_the_ranking(method: str) -> None:
    for session in (_session(method)[1],
                    score_session(read_travellers((DATA / "howell.csv").read_text()),
                                  method=method),
                    score_session(read_travellers((DATA / "mitchell.csv").read_text()),
                                  method=method)):
        cards = scorecards(session)
        assert len(cards) == len(session.pairs)
        for pair in session.pairs:
            card = cards[pair.key]
            assert len(card.rows) == pair.boards
            assert card.total == pytest.approx(pair.total, abs=1e-9)
        lines = sum(len(b.lines) for b in session.boards)
        assert sum(len(c.rows) for c in cards.values()) == 2 * lines


def test_scorecard_points_are_the_files_matchpoints() -> None:
    """Independent route: the NS/EW matchpoints the reference scorer wrote on each line."""
    doc, session = _session()
    cards = scorecards(session)
    for line, (ns_mp, ew_mp) in zip(doc.lines, doc.reported.line_points):
        ns_row = next(r for r in cards[("NS", line.ns)].rows if r.board == line.board)
        ew_row = next(r for r in cards[("EW", line.ew)].rows if r.board == line.board)
        assert (round(ns_row.points, 2), round(ew_row.points, 2)) == (float(ns_mp), float(ew_mp))
        assert ns_row.opponents.label == f"EW {line.ew}"
        if isinstance(line.score, int):
            assert (ns_row.score, ew_row.score) == (line.score, -line.score)
            assert ns_row.percent == pytest.approx(100 * ns_row.points / 8)


def test_factored_and_short_boards_are_marked() -> None:
    _, session = _session()
    # The sample: board 5 not played at table 2, board 3 has one adjusted line (4 real of 5).
    assert factored_boards(session) == {3: (4, 5), 5: (4, 5)}
    card = scorecards(session)[("NS", "2")]
    assert card.missed == (5,) and any("Played 9 of the 10" in n for n in card.notes)
    adjusted = [r for r in scorecards(session)[("NS", "4")].rows if r.adjusted]
    assert [(r.board, r.score) for r in adjusted] == [(3, "Adj 60%")]


# --- the pages -------------------------------------------------------------------------------

class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.urls.append(value)
            if name == "id" and value:
                self.ids.add(value)


def _check_site(files: dict[str, str]) -> None:
    parser = html5lib.HTMLParser(strict=True)
    links: dict[str, _Links] = {}
    for name, text in files.items():
        if not name.endswith(".html"):
            continue
        parser.parse(text)  # raises on any parse error
        assert parser.errors == [], (name, parser.errors)
        collected = _Links()
        collected.feed(text)
        links[name] = collected
    for name, collected in links.items():
        for url in collected.urls:
            assert not re.match(r"(?i)^([a-z]+:)?//|^https?:", url), (name, url)
            page, _, anchor = url.partition("#")
            assert page in files, (name, url)
            if anchor and page.endswith(".html"):
                assert anchor in links[page].ids, (name, url)


def test_site_pages_are_valid_and_every_link_resolves() -> None:
    _, session = _session()
    site = build_site(session, deals=read_usebio_deals(HANDS_FILE.read_bytes()),
                      club="Example Bridge Club", date="29/11/2026")
    assert len(site.files) == 1 + 10 + 10 + 1 + 1  # index, pairs, boards, hands, css
    _check_site(dict(site.files))
    index = site.files["index.html"]
    assert "Example Bridge Club" in index and "29/11/2026" in index
    assert "Mitchell · 10 boards · 10 pairs · matchpoints, EBU units, top 8" in index
    board3 = site.files["board-3.html"]
    assert "Neuberg-factored to 5 results" in board3 and "adjusted" in board3
    assert "Dealer S · Vul EW" in board3


@pytest.mark.parametrize("method", ["cross-imps", "butler"])
def test_imp_sites_and_a_howell_are_valid(method: str) -> None:
    howell = score_session(read_travellers((DATA / "howell.csv").read_text()), method=method)
    site = build_site(howell)
    _check_site(dict(site.files))
    assert "hands.html" not in site.files and "IMPs" in site.files["index.html"]
    assert '<th class="opt">Dir</th>' in site.files["pair-1.html"]


# --- the command line ----------------------------------------------------------------------------

def test_cli_writes_a_site_to_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "site"
    assert main(["bridge", "score", str(HANDS_FILE), "--format", "html", "-o", f"{out}/"]) == 0
    assert f"wrote 22 pages and a stylesheet to {out}" in capsys.readouterr().out
    assert (out / "hands.html").exists() and (out / "pair-ew-5.html").exists()
    single = tmp_path / "one.html"
    assert main(["bridge", "score", str(HANDS_FILE), "--format", "html", "-o", str(single)]) == 0
    assert single.read_text().startswith("<!DOCTYPE html>")


def test_cli_checks_the_directory_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["bridge", "score", str(tmp_path / "missing.xml"), "--format", "html",
                 "-o", f"{blocker}/site/"]) == 2
    assert "cardlab: error: cannot use file" in capsys.readouterr().err


def test_site_target() -> None:
    assert is_site_target("out/") and is_site_target("results") and not is_site_target("r.html")


def test_hand_records_without_double_dummy() -> None:
    _, session = _session()
    deals = read_usebio_deals(HANDS_FILE.read_bytes())
    hands = build_site(session, deals=deals, double_dummy=False).files["hands.html"]
    assert "Double-dummy" not in hands and "Par " not in hands
    assert hands.count('<section class="hand-record"') == len(deals) == 10  # the diagrams are still there


def test_hand_records_show_the_real_solver_tables() -> None:
    """Each hand record's table is dd_table of its deal (DDS), every seat and strain; par as the solver gives it."""
    from cardlab.bridge.dd import dd_table

    _, session = _session()
    deals = read_usebio_deals(HANDS_FILE.read_bytes())
    two = dict(sorted(deals.items())[:2])
    hands = build_site(session, deals=two).files["hands.html"]
    assert hands.count("<caption>Double-dummy tricks</caption>") == 2
    for board, deal in two.items():
        table = dd_table(deal.pbn_deal(), dealer=dealer(board), vulnerability=Vulnerability.from_board(board)).to_dict()
        for seat in "NESW":
            row = "".join(f"<td>{table['tricks'][seat][s]}</td>" for s in ("NT", "S", "H", "D", "C"))
            assert f"<tr><th>{seat}</th>{row}</tr>" in hands
        score = table["par"]["score"]
        assert (f"Par {score:+d} NS" if score else "Par 0 NS") in hands
