"""Issue 38, "right at the last edges": tracebacks that become one-line errors, and messages that
quote a long input by its start and length instead of whole.

Each test reproduces what failed (a traceback, a Python exception where a cardlab.errors class
belongs, a 5,000-character echo) and checks the one line that replaces it.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from cardlab.errors import CardlabError, CardError, ClusterError, HandError, RangeError, ReelsFileError, TournamentError

DATA = Path(__file__).parent / "data"
SCRIPT = "generate 200\nproduce 1\ncondition hcp(north) >= 0\naction printall\n"


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    # what a shell hands the program: a text stream over the bytes, undecodable bytes escaped
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape"))


def test_binary_dealer_script_on_stdin_is_one_line(run, monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, bytes(range(256)) * 4)
    status, out, err = run("bridge", "dealer", "-")
    assert status == 2 and out == ""
    assert err.strip().splitlines() == ["cardlab: error: stdin: not a text file (neither UTF-8 nor Windows-1252 text)"]


def test_utf16_dealer_script_on_stdin_is_read(run, monkeypatch: pytest.MonkeyPatch) -> None:
    # a script saved as UTF-16 (with its byte-order mark) reads as the same script in UTF-8
    _stdin(monkeypatch, SCRIPT.encode("utf-16"))
    status, out, err = run("bridge", "dealer", "-", "--seed", "1")
    _stdin(monkeypatch, SCRIPT.encode("utf-8"))
    same = run("bridge", "dealer", "-", "--seed", "1")
    assert status == 0 and "Traceback" not in err
    assert out == same[1] and "Produced 1 hands" in out


def test_mix_of_a_binary_file_is_one_line(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mix.bin").write_bytes(b"\x00\xf1\xfe" * 100)
    status, _, err = run("bridge", "dealer", "--mix", "mix.bin")
    assert status == 2
    assert err.strip() == "cardlab: error: --mix: mix.bin: not a text file (neither UTF-8 nor Windows-1252 text)"


def test_mix_with_a_5000_digit_count_is_one_short_line(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.dl").write_text(SCRIPT)
    status, _, err = run("bridge", "dealer", "--mix", "a.dl:" + "9" * 5000)
    assert status == 2 and len(err) < 300
    assert "mix item 'a.dl:99999" in err and "(5,005 characters)" in err


def test_5000_digit_pair_id_in_csv_results_is_one_line(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    lines = (DATA / "mitchell.csv").read_text().splitlines()
    cells = lines[1].split(",")
    cells[1] = "9" * 5000  # the NS pair of the first line (header: board,ns,ew,...)
    Path("big.csv").write_text("\n".join([lines[0], ",".join(cells), *lines[2:]]) + "\n")
    status, out, err = run("bridge", "score", "big.csv")
    assert status == 2 and out == "" and len(err) < 300
    assert err.startswith("cardlab: error: big.csv: line 2: NS pair must be a number or short name (at most 20")
    assert "(5,002 characters)" in err


def test_pbn_with_deep_braces_read_by_teams(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    match = (DATA / "teams-match.pbn").read_text()
    # a PBN file opening with a {...} comment of 200,000 braces: read as PBN, scored as without it
    Path("deep.pbn").write_text("{" * 200_000 + "}\n" + match)
    Path("plain.pbn").write_text(match)
    status, out, err = run("bridge", "teams", "deep.pbn")
    assert (status, out) == run("bridge", "teams", "plain.pbn")[:2] and status == 0
    # and a CSV with a field over csv's limit: one line, not _csv.Error
    Path("big.csv").write_text('board,room,ns,ew,contract\n"' + "x" * 200_000 + '",open,1,2,3NT\n')
    status, _, err = run("bridge", "teams", "big.csv")
    assert status == 2 and err.strip() == ("cardlab: error: big.csv: line 2: malformed CSV: field larger than "
                                           "field limit (131072)")


@pytest.mark.parametrize("address, reason", [
    ("bogus", "missing port number"),
    ("tcp://:x", "invalid literal"),
    ("tcp://sched.example:99999", "a port from 1 to 65535"),
    ("ucx://sched.example:8786", "not ucx://"),
    ("tls://sched.example:8786", "needs Dask's TLS configuration"),
])
def test_bogus_cluster_address_is_refused_before_a_client_is_made(address: str, reason: str) -> None:
    # a distributed.Client that failed before connecting left a half-made client whose clean-up
    # printed "Exception ignored ... TimeoutError" 10 s later; the address is checked first
    pytest.importorskip("distributed")
    from cardlab.cluster import connect

    with pytest.raises(ClusterError, match=reason) as caught:
        connect(address)
    assert address in str(caught.value)


def test_bogus_cluster_address_in_the_cli_prints_one_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    import subprocess
    import time

    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "cardlab", "bridge", "hcp", "--simulate", "1000", "--cluster", "bogus"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert time.monotonic() - start < 8  # the clean-up of a half-made client took 10 s
    assert done.returncode == 2
    assert done.stderr.strip() == ("cardlab: error: 'bogus' is not a scheduler address: write tcp://HOST:PORT "
                                   "(or local:N); missing port number in address 'bogus'")


def test_library_calls_raise_cardlab_errors_not_python_ones() -> None:
    from cardlab.dealing import Deck
    from cardlab.poker.equity import equity
    from cardlab.casino.reels import reel_odds
    from cardlab.poker.odds import poker_odds
    from cardlab.poker.pushfold import pushfold

    cases = [
        (lambda: equity(["AsAh", "KsKh"], game=3), HandError, "a game is named by a word"),  # was AttributeError
        (lambda: equity("AsAh KsKh"), HandError, "one hand or range per player"),  # was read as 9 players
        (lambda: equity([1, 2]), HandError, "not int 1"),  # was TypeError
        (lambda: equity(["AsAh", "KsKh"], board=5), HandError, "not int"),  # was TypeError
        (lambda: Deck.of([0, 52]), CardError, "not 52 (at position 1)"),  # was IndexError
        (lambda: Deck.of([0, -1]), CardError, "not -1"),  # was a deck with the 2c counted -1 times... silently
        (lambda: Deck.of(["x"]), CardError, "not 'x'"),  # was ValueError from int()
        (lambda: Deck.of(5), CardError, "not int"),  # was TypeError
        (lambda: pushfold(10, chart_range=(1, 25, 0)), TournamentError, "a step above 0"),  # ZeroDivisionError
        (lambda: pushfold(10, chart_range=(1, 25)), TournamentError, r"\(low, high, step\)"),  # was TypeError
        (lambda: pushfold(10, chart_range=(1, float("nan"), 1)), TournamentError, "a step above 0"),
        (lambda: reel_odds(""), ReelsFileError, "cannot use file ''"),  # was IsADirectoryError
        (lambda: reel_odds("no-such.reels"), ReelsFileError, "No such file"),  # FileNotFoundError
        (lambda: poker_odds(cards="5"), HandError, "number of cards"),  # was TypeError
        (lambda: poker_odds(decks=1.5), CardlabError, "number of decks"),  # was TypeError
        (lambda: poker_odds(remove=3), CardlabError, "as text"),  # was TypeError
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=message if "\\" in message else re.escape(message)):
            call()


def test_long_option_values_and_ranges_are_quoted_by_their_start(run, capsys: pytest.CaptureFixture[str]) -> None:
    from cardlab.cli.main import main

    digits = "9" * 5000
    for argv in (["bridge", "hcp", "-n", digits], ["poker", "odds", "--cards", digits]):
        with pytest.raises(SystemExit) as stop:  # argparse's own errors end by SystemExit
            main(argv)
        err = capsys.readouterr().err
        assert stop.value.code == 2 and len(err) < 300, argv
        assert "'999999999999" in err and "(5,000 characters)" in err
    status, _, err = run("poker", "equity", "AK" + "x" * 100_000, "KK")
    assert status == 2 and len(err) < 400 and "(100,002 characters)" in err


def test_a_300kb_range_is_not_echoed_whole_by_the_library() -> None:
    from cardlab.poker.generic import parse_generic
    from cardlab.poker.ranges import parse_range

    text = "AK,ZZ," + "AK," * 99_999  # 300 KB, refused at its second token
    with pytest.raises(RangeError) as caught:
        parse_range(text)
    message = str(caught.value)
    assert len(message) < 300 and message.startswith("cannot read 'ZZ' in range 'AK,ZZ,AK,")
    assert "(300,003 characters)" in message
    with pytest.raises(RangeError) as caught:
        parse_generic("Z" + "AK" * 150_000, hole=4)
    assert len(str(caught.value)) < 300 and "(300,001 characters)" in str(caught.value)


def test_the_cli_excerpt_does_not_join_two_quoted_words() -> None:
    # "'bogus' is not ... address 'bogus'": the text between a closing and an opening quote is
    # not a quoted input (it was cut as one, the message garbled)
    from cardlab.textfile import shortened

    message = "'bogus' is not a scheduler address: write tcp://HOST:PORT (or local:N); missing port number in 'bogus'"
    assert shortened(message) == message


@pytest.mark.parametrize("value", [None, 3, 3.5, float("nan"), [1], b"ab", True, 10**30])
def test_public_poker_and_deck_calls_given_the_wrong_type_raise_cardlab_errors(value: object) -> None:
    # the same kind as equity(game=3), searched in the functions issue 38 touches: each was an
    # AttributeError or a TypeError (None.strip(), len(3), 3 < 1)
    from cardlab.bridge.boardsets import parse_mix
    from cardlab.dealing import Deck, Reels
    from cardlab.poker.games import compare_hands, completion_odds, game_equity, game_odds

    calls = [lambda: game_odds(value), lambda: game_odds("a5", 5, value), lambda: completion_odds(value, "stud"),
             lambda: completion_odds("A23", value), lambda: completion_odds("A23", "razz", value),
             lambda: game_equity(value, "razz"), lambda: game_equity(["A23", "K89"], "razz", value),
             lambda: compare_hands(value, "razz"), lambda: Deck.standard(value), lambda: Deck.short(value),
             lambda: Reels.read(value), lambda: parse_mix(value), lambda: Deck.standard().remove(value)]
    for number, call in enumerate(calls):
        try:
            call()
        except CardlabError:
            continue
        except Exception as error:  # noqa: BLE001 - what the test is about
            raise AssertionError(f"call {number} with {value!r}: {type(error).__name__}: {error}") from None
