"""Issue 40: the command line suggests the fix. A corpus of misspelt and incomplete commands (a
typo of every command and of options of every command, choices, hands for the wrong game, lists
in the wrong form): each gets one line on stderr, exit status 2, and the suggestion where one
exists. Help texts carry no leftover format escapes."""

from __future__ import annotations

import argparse
from typing import Iterator

import pytest

from cardlab.cli.main import COMMANDS, OVERVIEW, build_parser, main
from cardlab.cli.suggest import closest


def _typo(word: str) -> str:
    """One plain misspelling: two neighbouring letters swapped (or the last letter doubled)."""
    swapped = word[:1] + word[2] + word[1] + word[3:] if len(word) >= 4 else word
    return swapped if swapped != word else word + word[-1]


#: (argv, text the one line must contain)
CORPUS: list[tuple[list[str], str]] = [
    (["brige", "hcp"], "did you mean 'bridge'?"),
    (["pokr", "odds"], "did you mean 'poker'?"),
    (["sevre"], "did you mean 'serve'?"),
    (["bridge", "hcp", "--seeed", "3"], "did you mean '--seed'?"),
    (["bridge", "hcp", "--format", "jsn"], "did you mean 'json'?"),
    (["bridge", "hcp", "--scheme", "bergn"], "did you mean 'bergen'?"),
    (["bridge", "hcp", "--simulte", "1000"], "did you mean '--simulate'?"),
    (["poker", "odds", "--game", "razzz"], "did you mean 'razz'?"),
    (["poker", "video", "jacks-or-better-96"], "did you mean 'jacks-or-better-9-6'?"),
    (["poker", "equity", "AsKsQsJs", "KdKcQdQc"], "use --game omaha for 4-card hands"),
    (["poker", "equity", "AsKsQsJsTs", "KdKcQdQcJc"], "use --game omaha5"),
    (["poker", "equity", "AsKs", "QdQc", "--bord", "Kh7d2c"], "did you mean '--board'?"),
    (["poker", "equity", "AsKs", "QdQc", "--game", "omaha"], "2-card hands are hold'em: leave out --game"),
    (["poker", "equity", "AsKsQsJs", "QdQcJdJc", "--game", "omaha5"], "use --game omaha for 4-card hands"),
    (["poker", "equity", "AsKs", "QdQc", "--game", "omha"], "did you mean 'omaha'?"),
    (["poker", "icm", "5000", "3000", "2000", "--payouts", "50", "30", "20"],
     "cardlab poker icm 5000,3000,2000 --payouts 50,30,20"),
    (["poker", "icm", "5000,3000,2000", "--payouts", "50", "30", "20"],
     "cardlab poker icm 5000,3000,2000 --payouts 50,30,20"),
    (["poker", "icm", "5000,3000,2000", "--paytous", "50,30,20"], "did you mean '--payouts'?"),
    (["poker", "icm", "5000,3000,2000", "--payouts", "50,30,20", "--model", "malmuth-weitzmann"],
     "did you mean 'malmuth-weitzman'?"),
    (["bridge", "deal", "--north", "15-17 balanced"], 'e.g. "hcp=15-17 shape=balanced"'),
    (["bridge", "deal", "-n", "1", "--north", "hcp=15-17 balanced"], "MEASURE=VALUE"),
    (["bridge", "score", "examples/session.csv", "--method", "crossimps"], "did you mean 'cross-imps'?"),
    (["bridge", "matchpoints", "650", "300", "--scale", "ebuu"], "did you mean 'ebu'?"),
    (["bridge", "split", "--cards", "KJ54", "--fromat", "json"], "did you mean '--format'?"),
    (["casino", "games", "--fromat", "json"], "unrecognized arguments: --fromat json"),  # it takes no option
    (["casino", "analyse", "thre-card-poker"], "did you mean 'three-card-poker'?"),
    (["club", "check", "tests/data/12tables1section.bws", "--fromat", "json"], "unrecognized arguments: --fromat"),
    (["club", "movement", "mitchel", "8"], "did you mean 'mitchell'?"),
]
#: The positional arguments a command needs before a misspelt option can be the only mistake.
_POSITIONALS = {("club", "movement"): ["mitchell", "8"], ("club", "cards"): ["mitchell", "8"]}
# a typo of every command of every group, and of the first long option of each command
_PARSER = build_parser()


def _command_parsers() -> Iterator[tuple[tuple[str, str], argparse.ArgumentParser]]:
    for action in _PARSER._actions:
        if isinstance(action, argparse._SubParsersAction):
            for group, sub in action.choices.items():
                for inner in sub._actions:
                    if isinstance(inner, argparse._SubParsersAction):
                        for name, parser in inner.choices.items():
                            yield (group, name), parser


for (group, name), parser in _command_parsers():
    if name not in ("deal",):  # 'dael' is nearer 'deal' than 'dealer'; both are commands
        CORPUS.append(([group, _typo(name)], f"did you mean '{name}'?"))
    longs = [o for a in parser._actions for o in a.option_strings if o.startswith("--") and len(o) > 6
             and o != "--help"]
    for option in longs[:3]:
        typo = "--" + _typo(option[2:])
        if closest(typo, longs) == option:
            CORPUS.append(([group, name, *_POSITIONALS.get((group, name), []), typo, "1"],
                           f"did you mean '{option}'?"))


def test_the_corpus_is_large() -> None:
    assert len(CORPUS) >= 100
    assert {tuple(argv[:2]) for argv, _ in CORPUS} >= set(COMMANDS)


@pytest.mark.parametrize("argv, hint", CORPUS, ids=[" ".join(a) for a, _ in CORPUS])
def test_each_mistake_gets_one_line_and_its_fix(argv: list[str], hint: str, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert status == 2, (status, err)
    assert err.count("\n") == 1 and err.startswith("cardlab"), err
    assert hint in err, err


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_no_help_text_shows_a_format_escape() -> None:
    """`15%%` printed by `poker range --help` (a description is not %-formatted, a help text is)."""
    for parser in _parsers(_PARSER):
        text = parser.format_help() + parser.format_usage()
        for escape in ("%%", "%(", "%s", "%d", "%r", "{0}", "{}"):
            assert escape not in text, (parser.prog, escape)


def test_cardlab_alone_prints_an_overview(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out == OVERVIEW + "\n" and "cardlab bridge hcp" in out and len(out.splitlines()) <= 24  # one screen with a line a group
    for (group, name) in COMMANDS:
        assert name in out, name


def test_every_poker_command_defaults_to_holdem(capsys: pytest.CaptureFixture[str]) -> None:
    """`poker range AKs` listed Omaha combos while `poker equity` reads hold'em by default."""
    assert main(["poker", "range", "AKs", "--format", "json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "holdem" and data["combos"] == 4  # AKs: one per suit
    for (group, name), parser in _command_parsers():
        for action in parser._actions:
            if "--game" in action.option_strings and action.choices and "holdem" in action.choices:
                assert action.default == "holdem", name


def test_a_spec_read_as_a_range_says_what_it_was_read_as(capsys: pytest.CaptureFixture[str]) -> None:
    """`AsKz` (z no suit) is the generic range As + a king of another suit: 3 combos, listed by
    `poker range` too; a real hand gets no note."""
    assert main(["poker", "equity", "AsKz", "QdQc"]) == 0
    err = capsys.readouterr().err
    assert err == ("cardlab: note: 'AsKz' is not a hand (z is not a suit): read as the range AsKh, AsKd, AsKc "
                   "(3 combos)\n")
    assert main(["poker", "range", "AsKz"]) == 0
    assert capsys.readouterr().out.split()[-3:] == ["AsKh", "AsKd", "AsKc"]
    assert main(["poker", "equity", "AsXs", "QdQc"]) == 0
    assert "X stands for any rank): read as the range AsKs, " in capsys.readouterr().err
    assert main(["poker", "equity", "AsKs", "QdQc"]) == 0 and capsys.readouterr().err == ""


def test_flops_all_refuses_dead_cards_it_would_ignore(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["poker", "board", "--flops", "all", "--dead", "2s"]) == 2
    assert "takes no --board or --dead" in capsys.readouterr().err


def test_decimal_payouts_stay_exact(capsys: pytest.CaptureFixture[str]) -> None:
    """0.5,0.3,0.2 is 1/2,3/10,1/5: the same exact table (A's equity 1075/28 of 100 = 43/112 of 1)."""
    assert main(["poker", "icm", "5000,3000,2000", "--payouts", "0.5,0.3,0.2"]) == 0
    decimal = capsys.readouterr().out
    assert main(["poker", "icm", "5000,3000,2000", "--payouts", "1/2,3/10,1/5"]) == 0
    assert decimal == capsys.readouterr().out and "43/112" in decimal and "exact fractions" in decimal
