"""Issue 18, "Tracebacks and hangs": every numeric option of every subcommand given an
out-of-range, non-finite or non-numeric value is one line ``cardlab ...: error: ...``, exit 2,
within a second, and no work starts. Also the numbers of ``bridge matchpoints`` and of result
files (board numbers, scores), and the fuzz test of the issue's "Done when"."""

from __future__ import annotations

import argparse
import string
import time
from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.cli.main import build_parser, main
from cardlab.cli.options import MAX_TRIALS, DecimalNumber, WholeNumber, parse_whole
from cardlab.engine import available_cores

# What each subcommand needs besides the option under test, so that only that option is wrong.
BASE = {
    ("bridge", "hcp"): [], ("bridge", "shape"): [], ("bridge", "joint"): [],
    ("bridge", "dealer"): ["never-read.dl"], ("bridge", "deal"): [],
    ("bridge", "makes"): ["--contract", "3NT", "--by", "N"],
    ("bridge", "compare"): ["-s", "3NT by N", "-s", "pass"],
    ("bridge", "lead"): ["--hand", "AKQ2.T98.765.432", "--contract", "3NT", "--by", "S"],
    ("poker", "odds"): [], ("poker", "equity"): ["AsAh", "KdKc"],
    ("poker", "video"): ["jacks-or-better-9-6"],
    ("bridge", "suitplay"): ["AQ", "32"],
    ("poker", "pushfold"): [], ("poker", "solve"): [],
    ("casino", "analyse"): ["three-card-poker"],
    ("casino", "blackjack"): [],
    ("casino", "shoe"): [],
    ("serve",): [],
    ("club", "movement"): ["mitchell", "5"], ("club", "cards"): ["mitchell", "5"],
    ("club", "live"): ["never-read.csv", "-o", "never-written/"],
}


def _subcommands() -> Iterator[tuple[tuple[str, str], argparse.ArgumentParser]]:
    for group_action in build_parser()._subparsers._group_actions:  # type: ignore[union-attr]
        for group, group_parser in group_action.choices.items():
            if group_parser._subparsers is None:  # a command with no group (cardlab serve)
                yield (group,), group_parser
                continue
            for sub_action in group_parser._subparsers._group_actions:
                for command, parser in sub_action.choices.items():
                    yield (group, command), parser


def _numeric_options() -> list[tuple[tuple[str, str], str, object]]:
    """(command, long option, its type) for every option that takes a number."""
    found = []
    for command, parser in _subcommands():
        for action in parser._actions:
            if action.type is None or not action.option_strings:
                continue
            found.append((command, max(action.option_strings, key=len), action.type))
    return found


NUMERIC = _numeric_options()


def test_every_numeric_option_uses_the_shared_types() -> None:
    """Issue 18, whole-number options: one set of argparse types (cli/options.py) for all commands."""
    assert len(NUMERIC) >= 20  # --simulate, --seed, --workers, --cards, -n, -g, -p, --max-tries, --decks ...
    for command, option, kind in NUMERIC:
        assert isinstance(kind, (WholeNumber, DecimalNumber)), (command, option, kind)
        assert kind.low is not None and kind.high is not None, (command, option)
        assert command in BASE, f"add {command} to BASE"
    options = {(c, o) for c, o, _ in NUMERIC}
    for expected in [(("bridge", "hcp"), "--simulate"), (("bridge", "dealer"), "--generate"),
                     (("bridge", "dealer"), "--produce"), (("bridge", "deal"), "--max-tries"),
                     (("bridge", "deal"), "--count"), (("bridge", "makes"), "--deals"),
                     (("poker", "odds"), "--decks"), (("poker", "odds"), "--cards"),
                     (("bridge", "shape"), "--cards"), (("poker", "equity"), "--workers"),
                     (("bridge", "lead"), "--seed")]:
        assert expected in options


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    started = time.monotonic()
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert time.monotonic() - started < 1.0
    out, err = capsys.readouterr()
    assert stop.value.code == 2, (argv, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("cardlab ") and "error: " in err, (argv, err)
    return err


BAD_WHOLE = ["1e400", "1e30", "99999999999999999999999999", "-1", "-1e400", "inf", "-inf", "nan",
             "Infinity", "2.5", "1e-3", "ten", "", "0x10", "1e99999999999"]


@pytest.mark.parametrize(("command", "option", "kind"),
                         [n for n in NUMERIC if isinstance(n[2], WholeNumber)],
                         ids=lambda v: " ".join(v) if isinstance(v, tuple) else str(v))
def test_out_of_range_whole_numbers_are_one_line(command: tuple[str, str], option: str, kind: WholeNumber,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18: ``--simulate 1e400`` and every whole-number option given an out-of-range value
    (-n, -g, --cards, --workers, --seed, --max-tries ...): one line, exit 2, within a second.
    ``1e400`` and ``1e30`` were tracebacks (OverflowError) before."""
    assert kind.low is not None and kind.high is not None
    for value in [*BAD_WHOLE, str(kind.high + 1), str(kind.low - 1), f"{kind.high + 1:.0e}".replace("+", "")]:
        if value.lstrip("-").replace("e", "").isdigit() and kind.low <= float(value) <= kind.high:
            continue  # "1e30"-style spellings that happen to be in range for this option
        err = _refused([*command, *BASE[command], f"{option}={value}"], capsys)
        assert f"argument {option}" in err or f"/{option}" in err, err
        assert f"'{value}'" in err, err  # the user's own text


BAD_DECIMAL = ["1e400", "-1e400", "inf", "-inf", "nan", "Infinity", "ten", "", "0x10", "1e99999999999", "2..5", "1e"]


@pytest.mark.parametrize(("command", "option", "kind"),
                         [n for n in NUMERIC if isinstance(n[2], DecimalNumber)],
                         ids=lambda v: " ".join(v) if isinstance(v, tuple) else str(v))
def test_out_of_range_decimals_are_one_line(command: tuple[str, str], option: str, kind: DecimalNumber,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30: the decimal options (a stack, an ante in big blinds) given a non-finite,
    non-numeric or out-of-range value: one line quoting the value, exit 2, nothing runs."""
    below = [str(kind.low)] if kind.low_open else [str(kind.low - 1)]
    for value in [*BAD_DECIMAL, str(kind.high * 10), str(kind.high + 0.5), *below]:
        err = _refused([*command, *BASE[command], f"{option}={value}"], capsys)
        assert f"argument {option}" in err and f"'{value}'" in err, err


def test_whole_number_spellings_and_bounds() -> None:
    """Issue 18: exact for every spelling (1e18 is 10**18, not a rounded float)."""
    trials = WholeNumber(1, MAX_TRIALS)
    assert trials("1e20") == 10**20 and trials("1e18") == 10**18 and trials("10_000_000") == 10**7 and trials("2,500") == 2500
    assert trials("1.5e3") == 1500 and trials("+7") == 7
    with pytest.raises(argparse.ArgumentTypeError, match="from 1 to 10\\^20, got '100000000000000000001'"):
        trials("100000000000000000001")


def test_given_hcp_half_and_range(run) -> None:
    """Issue 18 (nothing silently wrong): ``--given-hcp 15½`` was read as 151/2 = 75.5 points, and
    ``A=4½`` in a scheme as 20.5; now 15.5 and 4.5."""
    status, _, err = run("bridge", "hcp", "--given-hcp", "15½")
    assert status == 2 and "15.5 points cannot be made" in err
    status, out, _ = run("bridge", "hcp", "--scheme", "A=4½,K=3", "--format", "csv")
    assert status == 0 and out.strip().splitlines()[-1].split(",")[:2] == ["30", "1086008"]
    # brute force of the top row: all 8 aces and kings (4.5*4 + 3*4 = 30) and 5 of the other 44 cards
    from math import comb
    assert comb(44, 5) == 1086008


def test_cluster_local_n_is_bounded(run) -> None:
    """Issue 18: ``--cluster local:99999999999999`` tried to start that many processes (a hang)."""
    status, _, err = run("bridge", "hcp", "--cluster", "local:99999999999999")
    assert status == 2 and err.count("\n") == 1 and f"at most {4 * available_cores()} local worker" in err
    status, _, err = run("bridge", "hcp", "--cluster", "local:1e400")
    assert status == 2 and "'local:1e400'" in err


@pytest.mark.parametrize("value", ["99999999999999999999999", "7601", "-7601", "1e400", "nan"])
def test_matchpoints_huge_score(value: str, run) -> None:
    """Issue 18: ``bridge matchpoints 99999999999999999999999 400`` was a traceback (TypeError)."""
    started = time.monotonic()
    status, out, err = run("bridge", "matchpoints", "--", value, "400")
    assert time.monotonic() - started < 1.0
    assert status == 2 and out == "" and err.count("\n") == 1 and f"'{value}'" in err


def test_matchpoints_largest_scores_still_work(run) -> None:
    """The bound is the largest real score: 13 down redoubled vulnerable is -7600."""
    status, out, _ = run("bridge", "matchpoints", "--format", "csv", "--", "7600", "-7600")
    assert status == 0 and "7600" in out and "-7600" in out


@pytest.mark.parametrize("where", ["board", "score"])
def test_result_file_with_huge_numbers(where: str, tmp_path, run) -> None:
    """Issue 18: a CSV with board number 99999999999999999999 was a traceback (OverflowError)."""
    huge = "99999999999999999999"
    line = f"{huge},1,2,,,,420" if where == "board" else f"1,1,2,,,,{huge}"
    path = tmp_path / "results.csv"
    path.write_text(f"board,ns,ew,contract,declarer,result,score\n{line}\n1,2,1,,,,400\n")
    status, out, err = run("bridge", "score", str(path))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "line 2" in err and f"'{huge}'" in err


# --- the fuzz test of "Done when" -----------------------------------------------------------

WHOLE = [n for n in NUMERIC if isinstance(n[2], WholeNumber)]
NOT_A_NUMBER = st.text(alphabet=string.ascii_letters + string.punctuation.replace("-", "") + " ½∞",
                       max_size=12)
NON_FINITE = st.sampled_from(["inf", "-inf", "+inf", "nan", "-nan", "NaN", "Infinity", "1e400", "-1e400",
                              "1e309", "9" * 400])


@st.composite
def _bad_whole(draw: st.DrawFn) -> tuple[tuple[str, str], str, str]:
    command, option, kind = draw(st.sampled_from(WHOLE))
    assert isinstance(kind, WholeNumber) and kind.low is not None and kind.high is not None
    huge = st.integers(kind.high + 1, 10**60).flatmap(
        lambda n: st.sampled_from([str(n), f"{n:_}", f"{n:.3e}".replace("+", "")]))
    below = st.integers(-10**60, kind.low - 1).map(str)
    fraction = st.floats(0.01, 10**6).filter(lambda x: not x.is_integer()).map(repr)
    value = draw(st.one_of(huge, below, fraction, NON_FINITE, NOT_A_NUMBER))
    try:
        valid = kind.low <= parse_whole(value) <= kind.high
    except ValueError:
        valid = False
    if valid:  # a text that is, by chance, a valid number ("1.000e20" rounds 10**20 + 1 down to the limit)
        value = "x" + value
    return command, option, value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_bad_whole())
def test_fuzz_numeric_options(case: tuple[tuple[str, str], str, str], capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18, "Done when": every subcommand's numeric options driven with huge, negative,
    non-finite and non-numeric values: no traceback, exit 2, one line. Nothing runs: argparse
    refuses the value before the command starts."""
    command, option, value = case
    _refused([*command, *BASE[command], f"{option}={value}"], capsys)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.one_of(NON_FINITE, NOT_A_NUMBER, st.integers(10**6 + 1, 10**60).map(str),
                 st.floats(allow_nan=True, allow_infinity=True).map(repr).filter(lambda t: "e" in t or "n" in t)))
def test_fuzz_given_hcp(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18, "Done when": ``--given-hcp`` (a number of points) with bad values."""
    try:
        status = main(["bridge", "hcp", f"--given-hcp={value}"])
    except SystemExit as stop:
        status = stop.code  # type: ignore[assignment]
    _, err = capsys.readouterr()
    assert status == 2 and err.count("\n") == 1 and "error: " in err, (value, err)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.one_of(NON_FINITE, NOT_A_NUMBER.filter(lambda t: t.strip() != ""),
                 st.integers(7601, 10**60).map(str), st.integers(-10**60, -7601).map(str),
                 st.floats(0.01, 10**4).filter(lambda x: not x.is_integer()).map(repr)))
def test_fuzz_matchpoint_scores(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18, "Done when": the scores of ``bridge matchpoints`` with bad values."""
    status = main(["bridge", "matchpoints", "--", value, "400"])
    _, err = capsys.readouterr()
    assert status == 2 and err.count("\n") == 1 and "error: " in err, (value, err)
