"""The bulk PBN reader (the compiled core's pbn_scan, then each kind of game read once) gives
exactly what the line-by-line reader gives: the same boards (numbers, dealers, vulnerabilities,
deals, tags) on every PBN file of tests/data and examples/ and on random files, and the same
error, with its line number, on malformed ones (issue 25)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab import pbn
from cardlab.board import Vulnerability, dealer
from cardlab.bridge.boardsets import BoardSet
from cardlab.deal import Board, Deal
from cardlab.errors import CardlabError
from cardlab.textfile import read_text

ROOT = Path(__file__).resolve().parents[1]
PBN_FILES = sorted((ROOT / "tests" / "data").glob("*.pbn")) + sorted((ROOT / "examples").glob("*.pbn"))
BASE = np.repeat(np.arange(4, dtype=np.uint8), 13)


def _seen(boards: list[Board]) -> list[tuple[Any, ...]]:
    return [(b.number, b.owner, b.dealer, b.vulnerability, b.tags, b.origin) for b in boards]


def _outcome(read: Any, *args: Any) -> Any:
    """What ``read(*args)`` gives: its boards as values, or its error as text."""
    try:
        return _seen(read(*args))
    except CardlabError as error:
        return f"{type(error).__name__}: {error}"


def _line_by_line(text: str, by_number: bool) -> Any:
    """What the line-by-line reader (pbn.games, then game_board) gives: the boards, or the error."""
    text = text.replace("\r\n", "\n")
    return _outcome(lambda: pbn._collect(pbn._each_board(text, None, by_number), None))


def _read(text: str, by_number: bool) -> Any:
    return _outcome(lambda: pbn.read_pbn_boards(text, by_number=by_number))


def _spy(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """The number of boards each piece read by ``module.name`` (a scan path) had; small pieces,
    so that a text has many."""
    found: list[int] = []
    real = getattr(module, name)

    def spy(*args: Any) -> Any:
        boards = real(*args)
        if boards is not None:
            found.append(len(boards))
        return boards

    monkeypatch.setattr(module, name, spy)
    monkeypatch.setattr(module, "_PIECE", 3000)
    return found


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    return _spy(monkeypatch, pbn, "_scanned_piece")


@pytest.mark.parametrize("path", PBN_FILES, ids=lambda p: p.name)
def test_every_pbn_file_reads_as_line_by_line(path: Path) -> None:
    text = read_text(path)
    for by_number in (False, True):
        assert _read(text, by_number) == _line_by_line(text, by_number)


def _deal_text(rng: np.random.Generator, deal: Deal) -> str:
    first = int(rng.integers(0, 4))
    hands = [deal.hand_text((first + i) % 4) for i in range(4)]
    if rng.random() < 0.2:
        hands[int(rng.integers(0, 4))] = "-"
    text = "NESW"[first] + ":" + " ".join(hands)
    if rng.random() < 0.1:
        text = text.lower()
    if rng.random() < 0.05:
        text = " " + text.replace(" ", "\t", 1) + " "
    return text


def _game(rng: np.random.Generator, number: int, deal: Deal) -> list[str]:
    """One game's lines: mostly plain, sometimes with the forms the scan leaves to the other readers."""
    tags: list[tuple[str, str]] = [("Event", str(rng.choice(["club", "a;b", "x]y", "tab\there", "", "?", "50%"])))]
    if rng.random() < 0.98:
        tags.append(("Board", str(rng.choice([str(number)] * 250 + [f"0{number}", f" {number}", "?", "0", "x"]))))
    if rng.random() < 0.7:
        right = dealer(number).value
        tags.append(("Dealer", str(rng.choice([right] * 250 + [right.lower(), "?", "N", "Q", ""]))))
    if rng.random() < 0.7:
        right = Vulnerability.from_board(number).value
        tags.append(("Vulnerable", str(rng.choice([right] * 250 + ["Love", "All", "Both", "-", "?", "odd"]))))
    if rng.random() < 0.98:
        tags.append(("Deal", _deal_text(rng, deal)))
    tags.append(("Site", str(rng.choice(["?", "home"]))))
    if rng.random() < 0.2:
        rng.shuffle(tags)  # type: ignore[arg-type]
    lines = []
    for name, value in tags:
        line = f'[{name} "{value}"]'
        odd = rng.random()
        if odd < 0.02:
            line = f' \t[{name}\t "{value}" ]\t'
        elif odd < 0.022:
            line += " ; a comment"
        elif odd < 0.024:
            line = "{a comment} " + line
        elif odd < 0.026:
            line = line[:-2].replace('"', '\\"', 1) + '"]'  # an escape
        lines.append(line)
    roll = rng.random()
    if roll < 0.01:
        lines.append("1S Pass 2C")  # a data line
    elif roll < 0.015:
        lines.insert(1, "% inside a game")
    elif roll < 0.02 and len(lines) > 2:
        lines[0:2] = [lines[0] + " " + lines[1]]  # two tags on one line
    elif roll < 0.022:
        lines.append('[Deal "N:AK')  # cut off
    return lines


def _random_file(rng: np.random.Generator, games: int) -> str:
    deals = [Deal(rng.permutation(BASE).tobytes()) for _ in range(max(1, games // 3))]
    parts = ["% PBN 2.1\n% EXPORT\n"] if rng.random() < 0.5 else []
    number = int(rng.integers(1, 40))
    for _ in range(games):
        deal = deals[number % len(deals)] if rng.random() < 0.98 else deals[int(rng.integers(0, len(deals)))]
        parts.append("\n".join(_game(rng, number, deal)))  # a number given again mostly has its deal
        parts.append(str(rng.choice(["\n\n"] * 12 + ["\n", "\n  \n\t\n", "\n\n% between\n", "\n\n\n"])))
        number += int(rng.choice([1] * 30 + [0, 2, 17, -3]))
        number = max(1, number)
    text = "".join(parts)
    return text.rstrip("\n") if rng.random() < 0.2 else text


def test_random_files_read_as_line_by_line(scans: list[int]) -> None:
    rng = np.random.default_rng(2025)
    errors = 0
    for trial in range(120):
        text = _random_file(rng, int(rng.integers(1, 30)))
        for by_number in (False, True):
            expected = _line_by_line(text, by_number)
            errors += isinstance(expected, str)
            assert _read(text, by_number) == expected, (trial, by_number, text[:2000])
    assert 40 < errors < 200 and len(scans) > 30  # both outcomes, and the scan did read pieces


def _plain_text(count: int = 60) -> tuple[str, list[Board]]:
    rng = np.random.default_rng(4)
    boards = [Board(n, Deal(rng.permutation(BASE).tobytes())) for n in range(1, count + 1)]
    return BoardSet(tuple(boards)).to_pbn("club"), boards


def test_a_plain_file_is_read_by_the_scan(scans: list[int]) -> None:
    text, boards = _plain_text()
    assert pbn.read_pbn_boards(text, by_number=True) == boards
    assert sum(scans) == len(boards) and len(scans) > 3
    assert _read(text, True) == _line_by_line(text, True)
    assert [dict(b.tags).get("Event") for b in pbn.read_pbn_boards(text)] == ["club"] * len(boards)


GAME = 30  # the game the mutations below change (its Deal line is in the middle of the file)


def _mutated(change: str) -> str:
    text, boards = _plain_text()
    deal_tag = f'[Deal "{boards[GAME - 1].pbn_deal(dealer(GAME).index)}"]'
    assert text.count(deal_tag) == 1
    head, tail = text.split(deal_tag)
    changes = {
        "truncated": lambda: head + deal_tag[:12],
        "fifth hand": lambda: head + deal_tag[:-2] + ' AKQ.J.T.9"]' + tail,
        "bad card": lambda: head + deal_tag.replace("2", "1", 1) + tail,
        "card twice": lambda: head + deal_tag.replace("3", "2", 1) + tail,
        "crlf": lambda: text.replace("\n", "\r\n"),
        "lone cr": lambda: head + deal_tag + "\r" + tail,
        "crlf and a bad card": lambda: (head + deal_tag.replace("2", "1", 1) + tail).replace("\n", "\r\n"),
        "bom": lambda: "\ufeff" + text,
        "percent line": lambda: head + deal_tag + "\n% a note" + tail,
        "semicolon comment": lambda: head + deal_tag + " ; a note" + tail,
        "brace comment": lambda: head + deal_tag + "\n{ a note\nover lines }" + tail,
        "open brace": lambda: head + deal_tag + "\n{ a note never closed" + tail,
        "two tags on a line": lambda: head + deal_tag + ' [Site "x"]' + tail,
        "escapes": lambda: head + deal_tag + '\n[Event "say \\"hi\\" \\\\ here"]' + tail,
        "bad escape": lambda: head + deal_tag + '\n[Event "say \\"hi"' + tail,
        "second board": lambda: head + deal_tag + f'\n[Board "{GAME}"]' + tail,
        "hash": lambda: head + deal_tag + '\n[Site "#"]' + tail,
        "wrong dealer": lambda: head + deal_tag + tail.replace('[Dealer "', '[Dealer "N', 1),
        "form feed": lambda: head + deal_tag + "\f" + tail,
        "non-ascii": lambda: head + deal_tag + '\n[Annotator "Müller"]' + tail,
        "nul byte": lambda: head + deal_tag + "\x00" + tail,
    }
    return changes[change]()


@pytest.mark.parametrize("change", ["truncated", "fifth hand", "bad card", "card twice", "crlf", "lone cr",
                                    "crlf and a bad card", "bom", "percent line", "semicolon comment",
                                    "brace comment", "open brace", "two tags on a line", "escapes", "bad escape",
                                    "second board", "hash", "wrong dealer", "form feed", "non-ascii", "nul byte"])
def test_malformed_files_give_the_line_by_line_error(change: str, scans: list[int]) -> None:
    text = _mutated(change)
    for by_number in (False, True):
        assert _read(text, by_number) == _line_by_line(text, by_number)
    if change in ("truncated", "fifth hand", "bad card", "card twice", "crlf and a bad card", "bad escape"):
        assert "line " in _read(text, False), _read(text, False)  # an error naming its line


def test_pbn_scan_reads_only_plain_games() -> None:
    """The kernel itself: numbers, deals, kinds and spans of plain games; -1 for anything else or
    for more games than room."""
    from cardlab import _core

    text, boards = _plain_text(5)
    data = text.encode("ascii")

    def scan(data: bytes, n: int = 20) -> tuple[int, Any, bytearray, Any, Any]:
        numbers, owner = np.zeros(n, np.int64), bytearray(52 * n)
        kinds, spans = np.zeros(n, np.int32), np.zeros((n, 6), np.int64)
        return _core.pbn_scan(data, n, numbers, owner, kinds, spans), numbers, owner, kinds, spans

    count, numbers, owner, kinds, spans = scan(data)
    assert count == 5 and numbers[:5].tolist() == [1, 2, 3, 4, 5]
    assert bytes(owner[:52 * 5]) == b"".join(b.owner for b in boards)
    assert kinds[:5].tolist() == [0, 1, 2, 3, 4]  # the Dealer and Vulnerable tags differ
    start, end, b0, b1, d0, d1 = spans[2].tolist()
    assert data[b0:b1] == b"3" and data[d0:d1] == boards[2].pbn_deal(2).encode()
    assert data[start:end].startswith(b'[Event "club"]') and data[start:end].endswith(b'[Result "?"]')
    same = data.replace(b'[Dealer "E"]\n', b"").replace(b'[Dealer "S"]\n', b"").replace(b'[Dealer "W"]\n', b"")
    same = same.replace(b'[Dealer "N"]\n', b"").replace(b'[Vulnerable "', b'[Vul "')
    for vul in (b"NS", b"EW", b"All"):
        same = same.replace(b'[Vul "' + vul + b'"]', b'[Vul "None"]')
    assert scan(same)[3][:5].tolist() == [0, 0, 0, 0, 0]  # one kind
    assert scan(data, 4)[0] == -1 and scan(b"")[0] == 0 and scan(b"% only\n\n")[0] == 0
    for bad in (b"[Board 1]", b"[Board \"01\"]", b"x", b"[Deal \"N:AK\"]", b"\x80", b"[Board \"1\"] ;"):
        assert scan(data.replace(b'[Board "2"]', bad, 1))[0] == -1, bad
    with pytest.raises(ValueError):
        _core.pbn_scan(data, 2, np.zeros(2, np.int64), bytearray(104), np.zeros(2, np.int32), np.zeros(6, np.int64))


# --- LIN: the lin_scan path against the field-by-field reader -------------------------------------


def _lin_field_by_field(text: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    from cardlab.bridge import lin

    with monkeypatch.context() as patch:
        patch.setattr(lin, "_plain_lines", lambda text: None)
        return _outcome(lin.read_lin, text)


def _lin_read(text: str) -> Any:
    from cardlab.bridge.lin import read_lin

    return _outcome(read_lin, text)


@pytest.fixture
def lin_scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    from cardlab.bridge import lin

    return _spy(monkeypatch, lin, "_scanned")


def test_every_lin_file_reads_as_field_by_field(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sorted((ROOT / "tests" / "data").glob("*.lin")) + sorted((ROOT / "examples").glob("*.lin"))
    assert paths
    for path in paths:
        text = read_text(path)
        assert _lin_read(text) == _lin_field_by_field(text, monkeypatch)


def _lin_variant(rng: np.random.Generator, line: str) -> str:
    """A board line as cardlab writes it, often changed in a way the scan reads or refuses."""
    roll = rng.random()
    fields = line.split("|")
    if roll < 0.75:
        pass
    elif roll < 0.78:
        line = line.replace("pn|,,,|st||", "")
    elif roll < 0.80:
        line = line.replace("|rh||", "|").replace("|pg||", "|")
    elif roll < 0.82:
        line = line.replace("|rh||", "|", 1) + " \t"
    elif roll < 0.84:
        line = line.replace(fields[5], fields[5] + ",", 1)  # a trailing comma
    elif roll < 0.85:
        line = line.replace(f"|md|{fields[5][0]}", f"|md|{'1234'[int(rng.integers(0, 4))]}", 1)
    elif roll < 0.86:
        line = line.replace(f"|sv|{fields[11]}|", f"|sv|{str(rng.choice(list('oneb0ONEBx')))}|", 1)
    elif roll < 0.87:
        line = line.replace("|ah|Board ", "|ah|Board 0", 1)
    elif roll < 0.88:
        line = line.replace(fields[5], fields[5].lower(), 1)
    elif roll < 0.89:
        line = line.replace(fields[5], fields[5][:-1], 1)  # a card short
    elif roll < 0.90:
        line = line.replace(fields[5], fields[5] + ",SAKQ", 1)
    elif roll < 0.91:
        line = line.replace("|pg||", "|nt|hello|pg||", 1)
    elif roll < 0.92:
        line = line.replace("|ah|Board", "|ah|Table 2 Board", 1)
    elif roll < 0.93:
        line = line[: int(rng.integers(0, len(line)))]
    elif roll < 0.94:
        line = line.replace("md|", "md|\x0c", 1)
    else:
        line = ""  # a blank line
    return line


def test_random_lin_files_read_as_field_by_field(lin_scans: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    from cardlab.bridge.lin import write_lin

    rng = np.random.default_rng(26)
    errors = 0
    for trial in range(300):
        count = int(rng.integers(1, 40))
        first = int(rng.integers(1, 50))
        boards = [Board(first + i, Deal(rng.permutation(BASE).tobytes())) for i in range(count)]
        lines = [_lin_variant(rng, line) if rng.random() < 0.3 else line
                 for line in write_lin(boards).splitlines()]
        text = "\n".join(lines) + ("\n" if rng.random() < 0.8 else "")
        expected = _lin_field_by_field(text, monkeypatch)
        errors += isinstance(expected, str)
        assert _lin_read(text) == expected, (trial, text)
    assert 30 < errors < 270 and sum(lin_scans) > 1000  # both outcomes, and the scan read boards


def test_lin_scan_reads_only_plain_lines() -> None:
    from cardlab import _core
    from cardlab.bridge.lin import write_lin

    rng = np.random.default_rng(9)
    boards = [Board(n, Deal(rng.permutation(BASE).tobytes())) for n in range(1, 18)]
    data = write_lin(boards).encode("ascii")

    def scan(data: bytes, n: int = 20) -> tuple[int, Any, bytearray]:
        numbers, owner = np.zeros(n, np.int64), bytearray(52 * n)
        return _core.lin_scan(data, n, numbers, owner), numbers, owner

    count, numbers, owner = scan(data)
    assert count == 17 and numbers[:17].tolist() == list(range(1, 18))
    assert bytes(owner[:52 * 17]) == b"".join(b.owner for b in boards)
    assert scan(b"\n \t\n" + data)[0] == 17 and scan(data, 16)[0] == -1 and scan(b"")[0] == 0
    line = data.split(b"\n")[0]
    for bad in (line.replace(b"md|3", b"md|1"), line.replace(b"sv|o", b"sv|n"), line.replace(b"Board 1", b"Board 01"),
                line[:-1], line + b"x", line.replace(b"S", b"s", 1), line.replace(b"|", b"\r|", 1)):
        assert scan(bad)[0] == -1, bad
    assert scan(line.replace(b"sv|o", b"sv|0"))[0] == scan(line.replace(b"sv|o", b"sv|O"))[0] == 1
    with pytest.raises(ValueError):
        _core.lin_scan(data, 2, np.zeros(2, np.int64), bytearray(103))


def test_a_piece_too_big_for_one_scan_is_read_by_the_other_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A piece (a text without blank lines is one piece, whatever its size) that would ask the
    scanners for more room than they take is left to the regular-expression passes."""
    from cardlab import _core
    from cardlab.bridge import lin
    from cardlab.bridge.lin import write_lin

    text, boards = _plain_text(20)
    lin_text = write_lin(boards)
    assert pbn._scanned_piece(text, {}, set(), None, True) is not None and lin._scanned(lin_text) is not None
    monkeypatch.setattr(pbn, "MOST_SCANNED", 3)
    monkeypatch.setattr(lin, "MOST_SCANNED", 3)
    assert pbn._scanned_piece(text, {}, set(), None, True) is None and lin._scanned(lin_text) is None
    assert pbn.read_pbn_boards(text, by_number=True) == lin.read_lin(lin_text) == boards
    with pytest.raises(ValueError, match="2\\^22"):
        _core.lin_scan(b"", (1 << 22) + 1, bytearray(8), bytearray(52))
