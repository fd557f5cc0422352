"""One deal, one board, one PBN codec (cardlab.deal, cardlab.pbn): every reader agrees, and bad
board files are clear errors (issue 25's reading items, the CLI ones as subprocess tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab.board import Vulnerability, dealer
from cardlab.bridge.boardsets import BoardSet, read_board_file
from cardlab.bridge.dd import read_pbn_games
from cardlab.bridge.deals import deals_from_masks, deals_to_pbn, parse_pbn_deal, pbn_games
from cardlab.bridge.dealer.output import masks_from_deals
from cardlab.bridge.lin import read_lin, write_lin
from cardlab.deal import Board, Deal
from cardlab.errors import CardError, CardlabError, InputFileError
from cardlab.pbn import escape, format_tag, games, line_tags, read_pbn_boards, unescape
from cardlab.report.site.model import hand_record
from cardlab.scoring.results_file import load_results
from cardlab.textfile import read_text

ROOT = Path(__file__).resolve().parents[1]
PBN_FILES = sorted((ROOT / "tests" / "data").glob("*.pbn")) + sorted((ROOT / "examples").glob("*.pbn"))
DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
DASHED = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -"


def _cli(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "cardlab", *argv], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


def _one_line_error(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stderr.startswith("cardlab: error:") and proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for word in words:
        assert word in proc.stderr, (word, proc.stderr)


# --- every reader reads every PBN file to the same boards ------------------------------------------


@pytest.mark.parametrize("path", PBN_FILES, ids=lambda p: p.name)
def test_boards_dd_score_and_site_read_the_same_boards(path: Path, run, tmp_path: Path) -> None:
    # the commands run in-process (the readers agreeing is the point, not the process; the
    # subprocess tests of the CLI's errors are below)
    status, out, err = run("bridge", "boards", str(path), "--format", "json")
    if "[Deal" not in path.read_text(encoding="utf-8", errors="replace"):
        assert status == 2 and err.startswith("cardlab: error:") and err.count("\n") == 1, err
        assert "no [Deal] tag" in err, err
        return
    assert status == 0, err
    boards = {(r["board"], r["dealer"], r["vulnerable"], r["deal"]) for r in json.loads(out)}
    assert boards
    # bridge dd --file: its reader (read_pbn_games), and the deals its JSON names, in file order
    _, read = read_pbn_games(read_text(path), str(path))
    assert {(g.board.number, g.board.dealer.value, g.board.vulnerability.value, g.board.pbn_deal())
            for g in read} == boards
    # the first two games solved by the command itself (DDS), to keep the test light
    text = "".join(line + "\n" for g in read[:2] for line in (*g.lines, ""))
    short = tmp_path / f"{path.stem}-first-two.pbn"
    short.write_text(text, encoding="utf-8")
    status, out, err = run("bridge", "dd", "--file", str(short), "--format", "json")
    assert status == 0, err
    assert [d["deal"] for d in json.loads(out)] == [g.deal.to_pbn() for g in read[:2]]
    # bridge score and the results site: the deals the scorer reads, the dealer and vulnerability the
    # site's hand record shows (for the files that hold results)
    try:
        document = load_results(path)
        document.lines  # noqa: B018  (a file without results fails here)
    except InputFileError:
        return
    shown = {(b, record.dealer, record.vulnerability.value, record.pbn)
             for b, deal in document.deals.items()
             for record in [hand_record(b, deal.deal, with_dd=False)]}
    assert shown == {(n, d, v, deal) for n, d, v, deal in boards if n in document.deals}
    assert set(document.deals) == {n for n, *_ in boards}


def test_several_tags_on_one_line_read_alike_by_every_reader(tmp_path: Path) -> None:
    # issue 26: board 1 dealt by North for `bridge boards`, dealer East for `bridge dd --file`
    text = f'[Board "2"] [Dealer "E"] [Vulnerable "NS"]\n[Deal "{DEAL}"]\n'
    path = tmp_path / "one-line.pbn"
    path.write_text(text)
    (board,) = read_board_file(path)
    (game,) = read_pbn_games(text)[1]
    assert (board.number, board.dealer.value, board.vulnerability.value) == (2, "E", "NS")
    assert game.board == board and game.dealer is not None and game.dealer.value == "E"
    listed = _cli("bridge", "boards", str(path))
    assert listed.returncode == 0 and listed.stdout.split()[:3] == ["2", "E", "NS"], listed.stderr


def test_a_deal_with_a_dash_hand_is_read_by_every_reader(tmp_path: Path) -> None:
    # issue 26: accepted by `bridge boards`, refused by `bridge dd`; PBN 2.1 §3.4.11 allows '-'
    full = Deal.from_pbn(DEAL)
    assert Deal.from_pbn(DASHED) == full == parse_pbn_deal(DASHED)
    assert Board.from_pbn(1, DASHED).deal == full
    path = tmp_path / "dash.pbn"
    path.write_text(f'[Board "1"]\n[Deal "{DASHED}"]\n')
    assert read_board_file(path).boards[0].deal == full
    assert read_pbn_games(path.read_text())[1][0].deal == full
    solved = _cli("bridge", "dd", DASHED, "--format", "json")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["deal"] == DEAL
    with pytest.raises(CardError, match="only one hand may be '-'"):
        Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ - -")


# --- the codec ---------------------------------------------------------------------------------------


def test_tokenizer_escapes_comments_and_hash() -> None:
    assert line_tags(r'[Event "a \"b\" c\\"] [Site "x;y"] ; note') == ([("Event", 'a "b" c\\'), ("Site", "x;y")], "")
    assert unescape(r"Names\2R") == r"Names\2R" and escape(r"Names\2R") == r"Names\2R"
    for value in ('say "hi"', "back\\", r"a\"b", "plain"):
        assert unescape(escape(value)) == value
        assert line_tags(format_tag("X", value))[0] == [("X", value)]
    text = ('% PBN 2.1\n{ a comment\n[Board "9"] spanning lines }\n[Event "E"]\n[Board "1"]\n'
            f'[Deal "{DEAL}"]\n\n[Event "#"]\n[Board "2"] ; a comment\n[Deal "{DEAL}"]\n')
    read = list(games(text))
    assert [g.tags["Board"] for g in read] == ["1", "2"] and read[1].tags["Event"] == "E"
    assert read[1].where["Board"] == 9


def test_the_dealer_fast_path_writes_what_the_codec_writes() -> None:
    rng = np.random.default_rng(7)
    owners = [bytes(np.repeat(np.arange(4, dtype=np.uint8), 13)[rng.permutation(52)]) for _ in range(40)]
    deals = [Deal(o) for o in owners]
    masks = masks_from_deals(deals)
    assert deals_from_masks(masks) == deals
    for first in (1, 15):
        fast = pbn_games(masks, first, "2026.12.01")  # the C template kernel
        assert fast == deals_to_pbn(deals, first_board=first, header=False, date="2026.12.01") + "\n"
        boards = read_pbn_boards(fast)
        assert [b.deal for b in boards] == deals
        assert [(b.number, b.dealer, b.vulnerability) for b in boards] == \
            [(n, dealer(n), Vulnerability.from_board(n)) for n in range(first, first + 40)]


def test_deal_values() -> None:
    deal = Deal.from_pbn(DEAL)
    assert deal.hands[0][:2] == (51, 47) and len(deal.hands) == 4
    masks = deal.suit_masks()
    assert masks[0][3] == 0b1111000000000  # North's spades AKQJ (bit 12 = ace)
    assert sum(bin(m).count("1") for row in masks for m in row) == 52
    assert deal.rotated(4) == deal and deal.rotated(1).rotated(3) == deal
    assert Deal.from_hands(deal.hands) == deal and Deal.from_pbn(deal.to_pbn("W")) == deal
    assert Board(5, deal).dealer.value == "N" and Board(5, deal, (("Vulnerable", "EW"),)).vulnerability.value == "EW"


# --- issue 25: reading board files --------------------------------------------------------------------


def _pbn_text(count: int) -> str:
    rng = np.random.default_rng(1)
    deals = [Deal(bytes(np.repeat(np.arange(4, dtype=np.uint8), 13)[rng.permutation(52)])) for _ in range(200)]
    return deals_to_pbn((deals[i % 200] for i in range(count)), date="2026.12.01")


def test_board_numbers_are_looked_up_in_constant_time() -> None:
    # 10^4 boards took 1.4 s and 10^5 76 s (a linear look-up per board); now linear in the file
    text = _pbn_text(50_000)
    start = time.perf_counter()
    boards = read_pbn_boards(text)
    elapsed = time.perf_counter() - start
    assert len(boards) == 50_000 and boards[-1].number == 50_000
    assert elapsed < 15, elapsed  # about 1.5 s on the 2-core machine


def test_a_lin_of_many_boards_reads_in_bounded_time() -> None:
    pbn = _pbn_text(20_000)
    text = write_lin(read_pbn_boards(pbn))
    start = time.perf_counter()
    boards = read_lin(text)
    assert len(boards) == 20_000 and time.perf_counter() - start < 15


def test_cut_inside_a_deal_is_an_error_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "cut.pbn"
    path.write_text(f'[Board "1"]\n[Deal "{DEAL}"]\n\n[Board "2"]\n[Deal "N:AK')
    _one_line_error(_cli("bridge", "boards", str(path)), "line 5", "unclosed PBN tag", "[Deal")
    _one_line_error(_cli("bridge", "dd", "--file", str(path)), "line 5", "unclosed PBN tag")


def test_utf16_files_are_read(tmp_path: Path) -> None:
    path = tmp_path / "wide.pbn"
    path.write_bytes(f'[Board "3"]\r\n[Deal "{DEAL}"]\r\n'.encode("utf-16"))  # with its byte-order mark
    listed = _cli("bridge", "boards", str(path))
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.split()[:3] == ["3", "S", "EW"]
    solved = _cli("bridge", "dd", "--file", str(path), "--format", "json")
    assert solved.returncode == 0 and json.loads(solved.stdout)[0]["deal"] == DEAL, solved.stderr


def test_a_fifth_lin_hand_is_an_error(tmp_path: Path) -> None:
    line = write_lin([Board.from_pbn(1, DEAL)]).strip()
    md = line.split("|")[5]
    path = tmp_path / "five.lin"
    path.write_text(line.replace(md, md + ",SAHKDQCJ,S2"))
    _one_line_error(_cli("bridge", "boards", str(path)), "board 1", "5 hands")


def test_a_dlm_whose_last_board_is_before_its_first_is_an_error(tmp_path: Path) -> None:
    good = tmp_path / "set.dlm"
    good.write_bytes(BoardSet((Board.from_pbn(5, DEAL), Board.from_pbn(6, DEAL))).to_dlm().encode("ascii"))
    path = tmp_path / "backwards.dlm"
    path.write_bytes(good.read_bytes().replace(b"To board=6", b"To board=2"))
    _one_line_error(_cli("bridge", "boards", str(path), "-o", str(tmp_path / "out.pbn")), "From board=5",
                    "To board=2")
    assert not (tmp_path / "out.pbn").exists()


@pytest.mark.parametrize("number, words", [
    ("\u00b2", ["board number '²'", "line 1"]),
    ("9" * 5000, ["digits", "line 1"]),
    ("0", ["numbered from 1"]),
])
def test_odd_pbn_board_numbers_are_clear_errors(tmp_path: Path, number: str, words: list[str]) -> None:
    path = tmp_path / "odd.pbn"
    path.write_text(f'[Board "{number}"]\n[Deal "{DEAL}"]\n', encoding="utf-8")
    proc = _cli("bridge", "boards", str(path))
    _one_line_error(proc, *words)
    assert len(proc.stderr) < 300


def test_a_huge_lin_board_number_is_a_clear_error(tmp_path: Path) -> None:
    line = write_lin([Board.from_pbn(1, DEAL)]).replace("Board 1", "Board " + "7" * 5000)
    path = tmp_path / "huge.lin"
    path.write_text(line)
    proc = _cli("bridge", "boards", str(path))
    _one_line_error(proc, "at most 9 digits")
    assert len(proc.stderr) < 300


def test_errors_quote_a_short_excerpt_of_a_long_line(tmp_path: Path) -> None:
    path = tmp_path / "long.pbn"
    path.write_text('[Board "1"]\n[Deal "N:' + "A" * 1_000_000 + '"]\n')
    proc = _cli("bridge", "boards", str(path))
    _one_line_error(proc, "line 2")
    assert len(proc.stderr) < 400
    unclosed = tmp_path / "unclosed.pbn"
    unclosed.write_text('[Board "1"]\n[Event "' + "x" * 1_000_000 + "\n")
    proc = _cli("bridge", "boards", str(unclosed))
    _one_line_error(proc, "line 2", "unclosed PBN tag")
    assert len(proc.stderr) < 400


def _variant(rng: np.random.Generator, deal: Deal) -> str:
    """A PBN deal string for ``deal`` as some program might write it, or a broken one."""
    first = "NESW"[int(rng.integers(4))]
    hands = deal.to_pbn(first)[2:].split()
    kind = int(rng.integers(8))
    if kind == 0:
        hands[int(rng.integers(4))] = "-"
    text = first + ":" + " ".join(hands)
    if kind == 1:
        text = text.lower()
    elif kind == 2:
        text = "  " + first + ":" + "\t ".join(hands) + " \r"
    elif kind == 3:
        text = text.replace("T", "10")
    elif kind == 4:
        text = first + ":" + " ".join(hands[:3])
    elif kind == 5:
        at = int(rng.integers(2, len(text)))
        text = text[:at] + "AKQJT98765432.- x:"[int(rng.integers(18))] + text[at + 1:]
    elif kind == 6:
        text = text[: int(rng.integers(len(text)))]
    return text


def _outcome(read: Any, text: str) -> Any:
    try:
        return read(text)
    except CardlabError as error:
        return f"{type(error).__name__}: {error}"


def test_many_deals_read_by_the_core_agree_with_the_one_by_one_reader() -> None:
    """Deal.many_from_pbn (the compiled core's pbn_deals for the plain form) gives the deal, or the
    very error, that Deal.from_pbn (Python, card by card) gives, on 3,000 real-looking and broken
    strings: each alone, and the readable ones all in one call."""
    rng = np.random.default_rng(5)
    base = np.repeat(np.arange(4, dtype=np.uint8), 13)
    texts = [_variant(rng, Deal(rng.permutation(base).tobytes())) for _ in range(3000)]
    one = [_outcome(Deal.from_pbn, t) for t in texts]
    assert [_outcome(lambda t: Deal.many_from_pbn([t])[0], t) for t in texts] == one
    readable = [t for t, d in zip(texts, one) if isinstance(d, Deal)]
    assert 1000 < len(readable) < 3000  # both kinds are tried
    assert Deal.many_from_pbn(readable) == [d for d in one if isinstance(d, Deal)]


def test_a_lin_file_read_in_batches_agrees_with_each_board_read_alone() -> None:
    """read_lin's batch path (the usual md form through the compiled core) gives what the card by
    card path gives: the same boards for East's hand given or not, lower-case ranks, suits out of
    order, fields split over lines, and the same error for a wrong dealer, sv or hand."""
    rng = np.random.default_rng(8)
    base = np.repeat(np.arange(4, dtype=np.uint8), 13)
    boards = [Board(n, Deal(rng.permutation(base).tobytes())) for n in range(1, 41)]
    lines = write_lin(boards).splitlines()
    variants = []
    for board, line in zip(boards, lines):
        fields = line.split("|")
        kind = board.number % 8
        if kind == 1:  # East given too
            fields[5] += ",S" + board.holding(1, 3) + "H" + board.holding(1, 2) + "D" + board.holding(1, 1) + \
                "C" + board.holding(1, 0)
        elif kind == 2:
            fields[5] = fields[5].lower()
        elif kind == 3:  # clubs first in South's hand
            south = fields[5][1:].split(",")[0]
            fields[5] = fields[5].replace(south, "C" + south.split("C")[1] + south.split("C")[0], 1)
        elif kind == 4:
            fields[11] = ""  # no sv
        variants.append("|".join(fields) if kind != 5 else "|".join(fields[:6]) + "\n|" + "|".join(fields[6:]))
    assert read_lin("\n".join(variants)) == boards
    assert [read_lin(v)[0] for v in variants] == boards
    wrong_dealer = lines[0].replace("md|3", "md|1")
    wrong_sv = lines[1].replace("sv|n", "sv|b")
    cut = lines[2].split("|")
    cut[5] = cut[5][:-1]  # a card missing from North's hand
    short = "|".join(cut)
    for bad in (wrong_dealer, wrong_sv, short):
        with pytest.raises(InputFileError) as alone:
            read_lin(bad)
        with pytest.raises(InputFileError) as among:
            read_lin("\n".join(lines[:5] + [bad]))
        assert str(alone.value) == str(among.value) and str(alone.value).startswith("board ")


def test_the_bulk_readers_agree_with_the_field_by_field_readers() -> None:
    """The bulk paths (a LIN whose every line is a plain BBO board line; PBN pieces whose every
    game has a plain number and deal) give what the general readers give: the same boards with
    the same tags, and the same error for a board whose dealer or vulnerability disagrees with
    its number. One line in another form sends the whole text to the general reader."""
    from cardlab import pbn
    from cardlab.bridge import lin

    rng = np.random.default_rng(25)
    base = np.repeat(np.arange(4, dtype=np.uint8), 13)
    boards = [Board(int(n), Deal(rng.permutation(base).tobytes()))
              for n in rng.choice(np.arange(1, 10**6), 3000, replace=False)]
    text = write_lin(boards)
    assert lin._plain_lines(text) is not None and lin._plain_lines(text + "nt|hello|\n") is None
    assert read_lin(text) == read_lin(text + "nt|hello|\n") == boards
    pbn_text = BoardSet(tuple(boards)).to_pbn("club")
    commented = pbn_text.replace('[Round "?"]', '[Round "?"] {a comment}', 1)
    fast, general = read_pbn_boards(pbn_text, by_number=True), read_pbn_boards(commented, by_number=True)
    assert fast == general == boards
    assert [b.tags for b in fast] == [b.tags for b in general]
    assert dict(fast[0].tags)["Event"] == "club"
    # the same board twice is listed once; a dealer the number does not give is the same error
    assert read_pbn_boards(pbn_text + "\n" + pbn_text.split("\n", 3)[3], by_number=True) == boards
    wrong = pbn_text.replace(f'[Board "{boards[7].number}"]\n', f'[Board "{boards[7].number + 1}"]\n', 1)
    with pytest.raises(InputFileError) as bulk:
        read_pbn_boards(wrong, by_number=True)
    with pytest.raises(InputFileError) as one:
        read_pbn_boards(wrong.replace('[Round "?"]', '[Round "?"] {a comment}', 1), by_number=True)
    assert str(bulk.value) == str(one.value) and "Dealer" in str(bulk.value)
    line = text.splitlines()[9]
    sv = line.split("|sv|")[1][0]
    with pytest.raises(InputFileError, match="sv"):
        read_lin(text.replace(line, line.replace(f"|sv|{sv}|", "|sv|" + ("o" if sv != "o" else "b") + "|")))
    assert pbn._PLAIN_NUMBERS("12\n7") is not None and pbn._PLAIN_NUMBERS("012") is None


OTHER = "N:T98.765.432.AKQJ AKQJ.T98.765.432 765.432.AKQJ.T98 432.AKQJ.T98.765"


@pytest.mark.parametrize("second", ['[Board "7"]', '[Board "07"]', '[Board " 7"]', '[Board "7 "]', ""])
def test_a_board_given_twice_is_named_with_the_line_of_its_second_deal(second: str) -> None:
    """However the second board 7 is numbered (leading zero, spaces, or no Board tag after board 6),
    the message gives the line of its Deal."""
    text = ('[Board "6"]\n[Deal "' + DEAL + '"]\n\n[Board "7"]\n[Deal "' + DEAL + '"]\n\n'
            + ('' if second else '[Board "6"]\n[Deal "' + DEAL + '"]\n\n')
            + (second + "\n" if second else "") + '[Deal "' + OTHER + '"]\n')
    with pytest.raises(InputFileError, match="board 7 is given twice with different deals") as caught:
        read_pbn_boards(text, "x.pbn")
    assert str(caught.value).startswith(f"x.pbn: line {text.count(chr(10))}:"), str(caught.value)
