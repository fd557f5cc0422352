"""Board sets: rotation, mixed scripts, PBN / LIN / Duplimate .dup and .dlm (cardlab.bridge.boardsets)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardlab.board import Vulnerability, dealer
from cardlab.bridge.boardsets import (Board, BoardSet, ScriptPart, deal_board_set, parse_mix, read_board_file,
                                      read_pbn_boards)
from cardlab.bridge.dealer import parse_script
from cardlab.deal import Deal, rotate_owner
from cardlab.bridge.duplimate import read_dlm, read_dup, write_dlm, write_dup
from cardlab.bridge.lin import read_lin, write_lin
from cardlab.errors import ConstraintError, InputFileError

OPENER = """# a strong notrump opener, written for North as dealer
dealer north
nt = hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)
condition nt
action printoneline
"""
WEAK_TWO = """dealer south
condition hearts(south) == 6 && hcp(south) >= 6 && hcp(south) <= 10
"""


def _hcp(board: Board, seat: int) -> int:
    return sum(max(card // 4 - 8, 0) for card in range(52) if board.owner[card] == seat)


def _lengths(board: Board, seat: int) -> list[int]:
    return [sum(1 for card in range(52) if board.owner[card] == seat and card % 4 == suit) for suit in (3, 2, 1, 0)]


def _is_opener(board: Board, seat: int) -> bool:
    return 15 <= _hcp(board, seat) <= 17 and sorted(_lengths(board, seat)) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5])


def _set(count: int = 36, rotate: bool = True, seed: int = 5) -> BoardSet:
    part = ScriptPart(parse_script(OPENER, "opener.dlr"), OPENER, count)
    return deal_board_set([part], seed=seed, rotate=rotate).boards


def test_rotated_boards_have_the_dealer_of_their_number_1_to_36() -> None:
    plain, turned = _set(rotate=False), _set(rotate=True)
    assert [b.number for b in turned] == list(range(1, 37))
    for before, after in zip(plain, turned):
        seat = (after.number - 1) % 4  # N, E, S, W cycle
        assert after.dealer.index == seat == dealer(after.number).index
        assert _is_opener(after, seat)  # the script's dealer hand sits at the dealer's seat
        # the same deal turned: every hand moved seat steps clockwise
        assert all(after.owner[c] == (before.owner[c] + seat) % 4 for c in range(52))
        assert _is_opener(before, 0)
    # without rotation the opener stays North whatever the dealer
    assert sum(_is_opener(b, b.dealer.index) for b in plain) < 36


def test_rotation_keeps_the_script_dealer_seat() -> None:
    part = ScriptPart(parse_script(WEAK_TWO, "weak.dlr"), WEAK_TWO, 8)
    boards = deal_board_set([part], seed=2, rotate=True).boards
    for b in boards:
        seat = b.dealer.index
        assert _lengths(b, seat)[1] == 6 and 6 <= _hcp(b, seat) <= 10


def test_lin_output_loads_in_endplay_with_the_same_hands_dealer_and_vulnerability() -> None:
    from endplay.parsers import lin as endplay_lin
    from endplay.types import Player, Vul

    boards = _set()
    parsed = endplay_lin.loads(write_lin(boards))
    assert len(parsed) == 36
    vul = {Vulnerability.NONE: Vul.none, Vulnerability.NS: Vul.ns, Vulnerability.EW: Vul.ew,
           Vulnerability.BOTH: Vul.both}
    for ours, theirs in zip(boards, parsed):
        assert theirs.board_num == ours.number
        assert theirs.dealer == Player.find(ours.dealer.value)
        assert theirs.vul == vul[ours.vulnerability]
        assert theirs.deal.to_pbn() == ours.pbn_deal()


def test_pbn_output_loads_in_endplay() -> None:
    from endplay.parsers import pbn as endplay_pbn
    from endplay.types import Player

    boards = _set(12)
    parsed = endplay_pbn.loads(boards.to_pbn())
    assert [b.board_num for b in parsed] == list(range(1, 13))
    for ours, theirs in zip(boards, parsed):
        assert theirs.dealer == Player.find(ours.dealer.value)
        assert theirs.deal.to_pbn() == ours.pbn_deal()


def test_lin_from_bbo_forum_reads_with_its_dealer_and_vulnerability() -> None:
    # a BBO hand record quoted at https://www.bridgebase.com/forums/topic/85366-lin-file-format/
    text = "qx|o2|md|4SQJ762H86DJ96CQT8,ST94HAKJD753CK764,SK8HT7542DQ82CJ92|rh||ah|Board 2|sv|n|pg||\r\n"
    (board,) = read_lin(text)
    assert board.number == 2 and board.dealer.value == "E" and board.vulnerability is Vulnerability.NS
    assert board.pbn_deal() == "N:K8.T7542.Q82.J92 A53.Q93.AKT4.A53 QJ762.86.J96.QT8 T94.AKJ.753.K764"
    with pytest.raises(InputFileError, match="dealer S"):
        read_lin(text.replace("md|4", "md|1"))
    with pytest.raises(InputFileError, match="sv|b|"):
        read_lin(text.replace("sv|n", "sv|b"))


def test_lin_round_trip() -> None:
    boards = _set(20)
    assert read_lin(write_lin(boards)) == list(boards)


# The worked example of Duplimate's DUP description ("Convert", duplimate.com/DuplimateClub/convert.pdf,
# copy at http://www.docstoc.com/docs/86815766/Convert-Convert-We-will): BRI of North, East and South,
# and the sorted DGE hands of N, E, S, W.
DOC_BRI = "18043727240822422106250717" + "51503215164929412640314645" + "43351128302039140152133403"
DOC_DGE = ["♠J987♥JT7643♦A4♣Q", "♠♥KQ2♦QT9♣AK98543", "♠AQ42♥A8♦KJ762♣J2", "♠KT653♥95♦853♣T76"]


def _dos(text: str) -> bytes:
    return text.translate(str.maketrans({"♠": "\x06", "♥": "\x03", "♦": "\x04", "♣": "\x05"})).encode("ascii")


def test_dup_has_the_documented_byte_layout() -> None:
    record = DOC_BRI.encode() + b"".join(_dos(h) for h in DOC_DGE) + b"YN1  1 32 "
    assert len(record) == 156
    (board,) = read_dup(record)  # the DGE part must agree with the BRI part: checked by the reader
    assert board.pbn_deal() == "N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76"
    ours = write_dup([board])
    assert ours[78:146] == record[78:146]  # DGE: byte for byte the documented one
    assert sorted(ours[i:i + 2] for i in range(0, 26, 2)) == sorted(record[i:i + 2] for i in range(0, 26, 2))
    assert ours[146:] == b"YN1  1 1  "
    # "If you have sets of 32, the last 10 bytes should read: YN1**1*32*" (* = space)
    data = write_dup(list(_set(32)))
    assert len(data) == 32 * 156
    assert all(data[i * 156 + 146:(i + 1) * 156] == b"YN1  1 32 " for i in range(32))
    # every card number 01..52 once per board across BRI (N, E, S) and the rest for West
    first = data[:78]
    numbers = [int(first[i:i + 2]) for i in range(0, 78, 2)]
    assert len(set(numbers)) == 39 and all(1 <= n <= 52 for n in numbers)


def test_dup_round_trip_and_bad_files(tmp_path: Path) -> None:
    boards = _set(24)
    path = tmp_path / "set.dup"
    path.write_bytes(write_dup(list(boards)))
    assert read_board_file(path) == boards
    with pytest.raises(InputFileError, match="156 bytes"):
        read_dup(b"0102")
    broken = bytearray(path.read_bytes())
    broken[80] = ord("2") if broken[80] != ord("2") else ord("3")  # a DGE rank no longer matching the BRI
    with pytest.raises(InputFileError, match="do not match"):
        read_dup(bytes(broken))


# Two .dlm board lines from real Duplimate files, quoted with their checksums:
# rec.games.bridge, "File formats" (2011), http://rec.games.bridge.narkive.com/3LTj9F66/file-formats
# BBO forums, "Structure of DLM files" (2013), https://forumstest.bridgebase.com/forums/topic/61351-structure-of-dlm-files/
REAL_DLM = ["Board 01=jlifaelnecgmoldfjmcflinlap023", "Board 01=cgcajjjnakpkchipnjhmbmbpbh022"]


@pytest.mark.parametrize("line", REAL_DLM)
def test_real_dlm_lines_pass_the_checksum(line: str) -> None:
    (board,) = read_dlm(f"[Document]\r\nFrom board=1\r\nTo board=1\r\n{line}\r\n")
    # the quoted decoding of the first: j l i f ... = SE SW SN EE ... for AS KS, QS JS, TS 9S, 8S 7S
    if "jlif" in line:
        assert [board.owner[c] for c in (51, 47, 43, 39, 35, 31, 27, 23)] == [2, 1, 2, 3, 2, 0, 1, 1]
    tampered = line[:-3] + f"{(int(line[-3:]) + 1) % 1000:03d}"
    with pytest.raises(InputFileError, match="checksum"):
        read_dlm(f"From board=1\nTo board=1\n{tampered}\n")


def test_dlm_round_trip_and_layout(tmp_path: Path) -> None:
    boards = deal_board_set([ScriptPart(parse_script(OPENER, "o.dlr"), OPENER, 10)], seed=1, first_board=5,
                            rotate=True).boards
    text = write_dlm(list(boards))
    lines = text.split("\r\n")
    assert lines[0] == "[Document]" and "From board=5" in lines and "To board=14" in lines
    assert "Checksum=10" in lines  # 0 xor 5 xor 14, xor 1 for Status=Show
    assert sum(1 for l in lines if l.startswith("Board ")) == 99
    path = tmp_path / "set.dlm"
    path.write_bytes(text.encode("ascii"))
    assert read_board_file(path) == boards
    with pytest.raises(InputFileError, match="1 to 99"):
        write_dlm([b.renumbered(b.number + 90) for b in boards])


def test_mixed_set_from_two_scripts(tmp_path: Path) -> None:
    (tmp_path / "nt.dlr").write_text(OPENER)
    (tmp_path / "weak.dlr").write_text(WEAK_TWO)
    mix = tmp_path / "mix.txt"
    mix.write_text("# script boards\r\nnt.dlr 6\r\nweak.dlr 2\r\n")
    parts = parse_mix(str(mix))
    assert [(Path(p.script).name, p.count) for p in parts] == [("nt.dlr", 6), ("weak.dlr", 2)]
    script_parts = [ScriptPart(parse_script(Path(p.script).read_text(), p.script), "", p.count) for p in parts]
    result = deal_board_set(script_parts, seed=4, rotate=True, shuffle=True)
    origins = [Path(b.origin).name for b in result.boards]
    assert origins.count("nt.dlr") == 6 and origins.count("weak.dlr") == 2
    for b in result.boards:
        seat = b.dealer.index
        if b.origin.endswith("nt.dlr"):
            assert _is_opener(b, seat)
        else:
            assert _lengths(b, seat)[1] == 6
    again = deal_board_set(script_parts, seed=4, rotate=True, shuffle=True)
    assert again.boards == result.boards  # the seed gives the set


def test_cli_writes_each_format_and_reads_back(run, tmp_path: Path) -> None:
    script = tmp_path / "nt.dlr"
    script.write_text(OPENER.replace("\n", "\r\n"))  # written on Windows
    for suffix in ("lin", "dup", "dlm"):
        target = tmp_path / f"set.{suffix}"
        status, out, err = run("bridge", "dealer", str(script), "-p", "8", "-s", "3", "--rotate", "-o", str(target))
        assert status == 0 and out == "" and "8 board(s)" in err
        boards = read_board_file(target)
        assert [b.number for b in boards] == list(range(1, 9))
        assert all(_is_opener(b, b.dealer.index) for b in boards)
    status, out, err = run("bridge", "dealer", str(script), "-p", "4", "-s", "3", "--rotate")
    assert status == 0 and out.count('[Board "') == 4  # PBN on stdout by default


@pytest.mark.parametrize("argv,token", [
    (("--mix", "a.dlr:eight"), "SCRIPT:COUNT"),
    (("--mix", "nosuch.dlr:4"), "nosuch.dlr"),
    ((), "give a SCRIPT"),
    (("--mix", "a.dlr:4", "-p", "8"), "-p 8"),
    (("--mix", "a.dlr:4", "-q"), "-q"),
    (("--mix", "a.dlr:4", "--format", "json", "--board-format", "lin"), "--format json"),
])
def test_cli_bad_sets_one_line_exit_2(run, argv: tuple[str, ...], token: str) -> None:
    status, out, err = run("bridge", "dealer", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("cardlab: error: ") and token in err


def test_board_checks() -> None:
    with pytest.raises(ConstraintError):
        Board(0, Deal(bytes(range(4)) * 13))
    board = Board.from_pbn(1, "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -")
    assert board.hand_text(3) == "432.AKQJ.T98.765"
    assert np.array(list(board.owner)).sum() == 13 * (0 + 1 + 2 + 3)


def test_cli_boards_reads_and_converts(run, tmp_path: Path) -> None:
    boards = _set(8)
    pbn = tmp_path / "set.pbn"
    pbn.write_bytes(boards.to_pbn().replace("\n", "\r\n").encode("utf-8"))  # as Windows programs write it
    status, out, err = run("bridge", "boards", str(pbn), "-o", str(tmp_path / "set.dlm"))
    assert status == 0 and "8 board(s)" in err
    assert read_board_file(tmp_path / "set.dlm") == boards
    status, out, _ = run("bridge", "boards", str(tmp_path / "set.dlm"))
    lines = out.splitlines()
    assert len(lines) == 8 and lines[1].split()[:3] == ["2", "E", "NS"]
    wrong = tmp_path / "wrong.pbn"
    wrong.write_text(boards.to_pbn().replace('[Dealer "E"]', '[Dealer "W"]'))
    status, out, err = run("bridge", "boards", str(wrong))
    assert status == 2 and err.count("\n") == 1 and "Dealer W" in err


def test_real_bbo_record_with_play_reads_like_endplay() -> None:
    from endplay.parsers import lin as endplay_lin

    path = Path(__file__).parent / "data" / "bbo-played.lin"  # source: tests/data/SOURCES.md
    (board,) = read_board_file(path)
    (theirs,) = endplay_lin.loads(path.read_text())
    assert board.number == 1 and board.dealer.value == "N" and board.vulnerability is Vulnerability.NONE
    assert board.pbn_deal() == theirs.deal.to_pbn()
    assert board.hand_text(2) == "T43.AKQT84.K.KJT"  # South: S34T H48TQKA DK CTJK in the file


def test_real_pbn_results_files_read_as_board_sets() -> None:
    data = Path(__file__).parent / "data"
    tables = read_board_file(data / "real-tables.pbn")  # a results file: board 1 once per table
    assert [b.number for b in tables] == [1]
    assert tables.boards[0].pbn_deal() == "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    records = read_board_file(data / "dd_records.pbn")
    assert [(b.number, b.dealer.value) for b in records] == [(28, "W"), (1, "N")]
    text = (data / "real-tables.pbn").read_text(encoding="utf-8", errors="replace")
    clash = text.replace("432.AKQJ.T98.765\"]", "432.AKQJ.T98.765\"]", 1)
    second = clash.index('[Deal "N:AKQJ', clash.index('[Deal "N:AKQJ') + 1)
    clash = clash[:second] + '[Deal "N:T98.765.432.AKQJ AKQJ.T98.765.432 765.432.AKQJ.T98 432.AKQJ.T98.765"]' + \
        clash[clash.index("\n", second):]
    with pytest.raises(InputFileError, match="twice with different deals"):
        read_pbn_boards(clash, "x.pbn")


def test_a_streamed_set_is_the_set_dealt_whole() -> None:
    """With a sink the same boards come, chunk by chunk, as the whole set has (numbers, rotation,
    levels, mixed scripts), and none is kept; a shuffled set reaches the sink in its shuffled order."""
    parts = [ScriptPart(parse_script(WEAK_TWO, "weak.dlr"), WEAK_TWO, 30),
             ScriptPart(parse_script(OPENER, "opener.dlr"), OPENER, 20)]
    for shuffle in (False, True):
        whole = deal_board_set(parts, seed=11, rotate=True, first_board=5, shuffle=shuffle)
        chunks: list[list[Board]] = []
        streamed = deal_board_set(parts, seed=11, rotate=True, first_board=5, shuffle=shuffle, sink=chunks.append)
        assert [b for chunk in chunks for b in chunk] == list(whole.boards) and len(whole.boards) == 50
        assert [b.number for b in whole.boards] == list(range(5, 55))
        assert streamed.count == 50 and streamed.summary() == whole.summary()
        assert len(streamed.boards) == 0  # shuffled or not, nothing kept but the deals awaiting their order
    # the shuffled set is the plain set's deals in another order, each turned to its new number's dealer
    plain = deal_board_set(parts, seed=11, first_board=5)
    mixed = deal_board_set(parts, seed=11, first_board=5, shuffle=True)
    assert sorted((b.origin, b.deal.owner) for b in plain.boards) == sorted((b.origin, b.deal.owner) for b in mixed.boards)
    assert [b.deal.owner for b in plain.boards] != [b.deal.owner for b in mixed.boards]
    turned = deal_board_set(parts, seed=11, first_board=5, shuffle=True, rotate=True)
    seat_of = {"weak.dlr": 2, "opener.dlr": 0}  # each script's dealer seat (its 'dealer' line, else North)
    assert [b.deal.owner for b in mixed.boards] == [
        rotate_owner(b.deal.owner, (seat_of[b.origin] - dealer(b.number).index) % 4) for b in turned.boards]


def test_a_shuffled_set_larger_than_the_limit_is_refused_before_dealing(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardlab.bridge import boardsets

    monkeypatch.setattr(boardsets, "MAX_SHUFFLED", 40)
    parts = [ScriptPart(parse_script(OPENER, "opener.dlr"), OPENER, 41)]
    with pytest.raises(ConstraintError, match="at most 40 boards, not 41"):
        deal_board_set(parts, seed=1, shuffle=True)
    assert len(deal_board_set(parts, seed=1).boards) == 41


def test_streamed_chunks_join_into_the_whole_file() -> None:
    from cardlab.bridge.boardsets import encode_chunk

    parts = [ScriptPart(parse_script(OPENER, "opener.dlr"), OPENER, 40)]
    whole = deal_board_set(parts, seed=2).boards
    for fmt in ("pbn", "lin"):
        pieces = [encode_chunk(fmt, list(whole.boards[i:i + 7]), i == 0) for i in range(0, 40, 7)]
        assert b"".join(pieces) == whole.encode(fmt)
    with pytest.raises(ConstraintError, match="written whole"):
        encode_chunk("dup", list(whole.boards), True)


_PEAK = """
import resource, sys
from cardlab.cli.main import main
status = main(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, status)
"""


def _peak_mb(tmp_path: Path, count: int, *extra: str, suffix: str = "lin") -> int:
    import subprocess
    import sys

    name = f"set{count}.{suffix}"
    done = subprocess.run([sys.executable, "-c", _PEAK, "bridge", "dealer", "opener.dlr", *extra,
                           "-p", str(count), "--seed", "1", "--workers", "1", "-o", name],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    peak, status = done.stdout.split()
    assert status == "0", done.stderr
    if suffix == "lin":
        assert (tmp_path / name).read_text().count("\n") == count
    else:
        assert len(json.loads((tmp_path / name).read_text())["boards"]) == count
    return int(peak)


@pytest.mark.parametrize("extra, suffix", [(("--board-format", "lin"), "lin"),
                                           (("--board-format", "lin", "--shuffle"), "lin"),
                                           (("--format", "json", "--rotate"), "json")])
def test_a_large_board_set_is_written_in_flat_memory(tmp_path: Path, extra: tuple[str, ...], suffix: str) -> None:
    """150,000 boards written as they are dealt (LIN, shuffled LIN, JSON): the process's peak
    memory stays within 40 MB of what 5,000 boards take (held in memory, the boards and their
    text alone took about 45 MB more, and 1.1 GB for ten million; a shuffled set holds 53 bytes
    a board, 8 MB here)."""
    (tmp_path / "opener.dlr").write_text(OPENER)
    small = _peak_mb(tmp_path, 5_000, *extra, suffix=suffix)
    large = _peak_mb(tmp_path, 150_000, *extra, suffix=suffix)
    assert large - small < 40, (small, large)


def test_a_streamed_json_set_is_the_json_of_the_set(tmp_path: Path) -> None:
    """``bridge dealer --format json`` written chunk by chunk is the text of the result's
    to_json (seed, shuffled order, parts); a .dup or .dlm set too large for its numbers is
    refused before any dealing."""
    import subprocess
    import sys

    (tmp_path / "opener.dlr").write_text(OPENER)
    parts = [ScriptPart(parse_script(OPENER, "opener.dlr"), OPENER, 5000)]
    whole = deal_board_set(parts, seed=4, shuffle=True, rotate=True, first_board=3)
    run = [sys.executable, "-m", "cardlab", "bridge", "dealer", "opener.dlr", "-p", "5000", "--seed", "4",
           "--shuffle", "--rotate", "--first-board", "3", "--workers", "1"]
    done = subprocess.run(run + ["--format", "json", "-o", "set.json"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "set.json").read_text() == whole.to_json() + "\n"
    assert json.loads(whole.to_json())["boards"][0]["board"] == 3
    for fmt, limit in (("dup", 999), ("dlm", 99)):
        done = subprocess.run(run[:7] + ["10000000", "--board-format", fmt, "-o", f"x.{fmt}"], capture_output=True,
                              text=True, cwd=tmp_path, timeout=60)
        assert done.returncode == 2 and not (tmp_path / f"x.{fmt}").exists()
        assert done.stderr.strip().splitlines() == [
            f"cardlab: error: a .{fmt} file holds boards 1 to {limit}: boards 1-10000000 do not fit "
            f"(from board 1, at most {limit} boards)"]
