"""One look (issue 24): every command's table is rendered once here and checked for the one
style: table rules are the one line character (``textformat.RULE``, never ASCII dashes), no
trailing spaces, one interval separator (``textformat.INTERVAL_SEPARATOR``), counted nouns in
the singular for one, no internal name (``high_card``) and no exponent notation (``4.846e-06``) in
a table cell, and help texts without argparse's doubled ``%%``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardlab.textformat import INTERVAL_SEPARATOR, RULE

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SIM = ("--seed", "1", "--workers", "1")

COMMANDS = [
    ("bridge", "hcp"),
    ("bridge", "shape"),
    ("bridge", "hcp", "--simulate", "20000", *SIM),
    ("bridge", "split", "5"),
    ("bridge", "split", "--cards", "KJ54"),
    ("bridge", "score", "session.csv"),
    ("bridge", "teams", "matches.csv"),
    ("bridge", "dd", "N:AKQT3.J6.KJ42.95 652.AK42.AQ87.T4 J74.QT95.T.AK863 98.873.9653.QJ72"),
    ("poker", "odds"),
    ("poker", "odds", "--simulate", "20000", *SIM),
    ("poker", "compare", "As Ad Kc Kd 2h", "Qs Qd Qc 3h 4h"),
    ("poker", "rank", "As Ks Qs Js Ts", "7c 5d 4h 3s 2c 9d Jh", "2c 2d 2h 7s 7c"),
    ("poker", "odds", "--cards", "7"),
    ("poker", "equity", "AsAh", "KdKc"),
    ("poker", "equity", "AsAh", "KdKc", "--simulate", "20000", *SIM),
    ("poker", "video", "jacks-or-better-9-6"),
    ("poker", "video", "jacks-or-better-9-6", "--simulate", "20000", *SIM),
    ("poker", "video", "jacks-or-better-9-6", "--hand", "Ah Kh Qh Jh 2c"),
    ("casino", "analyse", "let-it-ride", "--simulate", "20000", "--seed", "1"),
    ("casino", "analyse", "baccarat"),
    ("casino", "games"),
]

_ASCII_RULE = re.compile(r"^[ -]*-{3,}[ -]*$")
_EXPONENT = re.compile(r"\d[eE][-+]?\d")
#: An internal snake_case name in a cell (``high_card``, ``three_of_a_kind``), not a file name.
_KEY = re.compile(r"(?<![\w./-])[a-z]+(?:_[a-z]+)+(?![\w./-])")
_OTHER_INTERVALS = re.compile(r"\d%?\.\.\d|\d% - \d")


def _check_style(text: str) -> None:
    for line in text.splitlines():
        assert line == line.rstrip(), f"trailing spaces: {line!r}"
        assert not _ASCII_RULE.match(line), f"a rule of ASCII dashes: {line!r}"
        assert not _OTHER_INTERVALS.search(line), f"an interval not written '{INTERVAL_SEPARATOR}': {line!r}"
        assert not re.search(r"(?<![\d,.])1 boards\b", line), line
        assert not _EXPONENT.search(line), f"exponent notation: {line!r}"
        assert not _KEY.search(line), f"an internal name: {line!r}"
    assert "%%" not in text


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_every_command_table_has_the_one_look(run, monkeypatch, argv) -> None:
    monkeypatch.chdir(EXAMPLES)
    status, out, _ = run(*argv)
    assert status == 0 and out.strip()
    _check_style(out)


def test_a_table_rule_is_the_one_line_character(run) -> None:
    for argv in (("poker", "video", "jacks-or-better-9-6"), ("bridge", "split", "5"), ("poker", "odds")):
        _, out, _ = run(*argv)
        assert any(set(line.strip()) == {RULE} for line in out.splitlines()), argv


def test_the_check_fails_on_the_old_styles() -> None:
    for old in ("a  b\n----  ----\n", "0.1..0.2", "40.1% - 41.2%", "(1 boards)", "95%% intervals", "x  \n",
                "  high_card   1,302,540", "royal_flush  0.000032", "0.000020   4.846e-06"):
        with pytest.raises(AssertionError):
            _check_style(old)



def test_help_has_no_doubled_percent_and_lists_video(capsys) -> None:
    from cardlab.cli.main import main

    for argv, needle in ((["poker", "odds", "--help"], "95% intervals"), (["poker", "--help"], "video"),
                         (["--help"], "video poker")):
        with pytest.raises(SystemExit):
            main(argv)
        out = capsys.readouterr().out
        assert "%%" not in out and needle in out, argv


def test_library_errors_speak_of_values_and_the_cli_adds_the_flag(run) -> None:
    from cardlab.bridge.boardsets import parse_mix
    from cardlab.errors import CardlabError
    from cardlab.poker.odds import poker_odds

    for call in (lambda: parse_mix("a.dlr:eight"), lambda: poker_odds(5, decks=0)):
        with pytest.raises(CardlabError) as caught:
            call()
        assert "--" not in str(caught.value)
    status, _, err = run("bridge", "dealer", "--mix", "a.dlr:eight")
    assert status == 2 and err.startswith("cardlab: error: --mix: mix item 'a.dlr:eight'")
