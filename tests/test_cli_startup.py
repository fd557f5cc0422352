"""Start-up of the command line: commands are imported only when chosen (issue 17, "Start-up"),
``--version`` (issue 18, "Users' expectations") and a closed pipe (issue 18, "Nothing lost")."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cardlab
from cardlab import __version__
from cardlab.cli.main import COMMANDS, GROUPS, TOP_COMMANDS, build_parser

# the folder holding the imported package: src/ in a checkout, site-packages for an installed sdist
SRC = str(Path(cardlab.__file__).resolve().parents[1])
ENV = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))

# Parse each argv as `cardlab` would, then report the exit status and which heavy modules got loaded.
_PROBE = """
import json, sys
from cardlab.cli.main import main
out = {}
for argv in json.loads(sys.argv[1]):
    try:
        status = main(argv)
    except SystemExit as exit:
        status = exit.code
    out[" ".join(argv)] = status
heavy = sorted(m for m in ("numpy", "rich", "endplay", "matplotlib", "jinja2", "starlette", "uvicorn") if m in sys.modules)
print(json.dumps({"status": out, "heavy": heavy}))
"""


def _probe(argvs: list[list[str]]) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(argvs)], env=ENV, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_help_and_argument_errors_import_no_numpy() -> None:
    """`cardlab --help`, every group's and command's --help, and a bad option of every command:
    parsed without numpy (nor rich, endplay, matplotlib, jinja2)."""
    argvs = [["--help"], *[[g, "--help"] for g in GROUPS]]
    argvs += [[g, c, "--help"] for g, c in COMMANDS]
    argvs += [[g, c, "--no-such-option"] for g, c in COMMANDS]
    argvs += [[name, "--help"] for name in TOP_COMMANDS] + [[name, "--no-such-option"] for name in TOP_COMMANDS]
    argvs += [["bridge", "no-such-command"], ["bridge", "hcp", "--cards", "many"], [], ["bridge"], ["--version"]]
    result = _probe(argvs)
    assert result["heavy"] == []
    status = result["status"]
    assert isinstance(status, dict)
    assert status["--help"] == 0 and status["bridge --help"] == 0
    assert all(status[f"{g} {c} --help"] == 0 for g, c in COMMANDS)
    assert all(status[f"{g} {c} --no-such-option"] == 2 for g, c in COMMANDS)
    assert all(status[f"{n} --help"] == 0 and status[f"{n} --no-such-option"] == 2 for n in TOP_COMMANDS)
    assert status["bridge no-such-command"] == 2 and status["bridge hcp --cards many"] == 2
    # `cardlab` alone prints the overview (issue 40); a group alone is still a usage error
    assert status[""] == 0 and status["bridge"] == 2 and status["--version"] == 0


def test_running_a_command_loads_its_stack_only() -> None:
    """`bridge matchpoints` runs (scoring, numpy) without the poker engines or endplay."""
    done = subprocess.run([sys.executable, "-c", "import sys\nfrom cardlab.cli.main import main\n"
                           "status = main(['bridge', 'matchpoints', '420', '400'])\n"
                           "print(status, 'cardlab.poker.evaluator' in sys.modules, 'endplay' in sys.modules)"],
                          env=ENV, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "0 False False"


def test_table_and_modules_agree() -> None:
    """Each module registers exactly the commands the table gives it (so the listing and the
    real parsers can never drift apart), with the help text of the table."""
    by_module: dict[str, set[tuple[str, str]]] = {}
    for key, (module, _) in COMMANDS.items():
        by_module.setdefault(module, set()).add(key)
    for module, keys in by_module.items():
        scratch = argparse.ArgumentParser()
        subs = scratch.add_subparsers()
        importlib.import_module(module).register(subs)
        names = {name for name in subs.choices}
        assert names == {c for _, c in keys}, module
        helps = {a.dest: a.help for a in subs._choices_actions}
        for group, command in keys:
            assert helps[command] == COMMANDS[group, command][1], (module, command)
    for name, (module, help_text) in TOP_COMMANDS.items():  # commands with no group (cardlab serve)
        scratch = argparse.ArgumentParser()
        subs = scratch.add_subparsers()
        importlib.import_module(module).register(subs)
        assert set(subs.choices) == {name}, module
        assert {a.dest: a.help for a in subs._choices_actions}[name] == help_text, module
    full = build_parser()
    groups = _subcommands(full)
    assert set(groups) == set(GROUPS) | set(TOP_COMMANDS)
    for group, parser in groups.items():
        if group in TOP_COMMANDS:
            continue
        assert set(_subcommands(parser)) == {c for g, c in COMMANDS if g == group}


def test_choosing_a_command_builds_only_its_module() -> None:
    parser = build_parser(["bridge", "hcp", "--cards", "26"])
    args = parser.parse_args(["bridge", "hcp", "--cards", "26"])
    assert args.cards == 26 and callable(args.func)
    stub = _subcommands(_subcommands(parser)["poker"])["rank"]
    assert [a.dest for a in stub._actions] == []  # listed, not built


def test_game_names_match_the_engine() -> None:
    from cardlab.cli.poker_equity import GAME_NAMES
    from cardlab.poker.equity import GAMES

    assert GAME_NAMES == tuple(GAMES)


def test_version() -> None:
    done = subprocess.run([sys.executable, "-m", "cardlab", "--version"], env=ENV, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"cardlab {__version__}"
    assert __version__.count(".") == 2


@pytest.mark.parametrize("argv", [
    ["poker", "rank", "--file", "HANDS"],
    ["bridge", "deal", "-n", "3000", "--seed", "1", "--workers", "1", "--format", "pbn"],
])
def test_closed_pipe_ends_quietly(argv: list[str], tmp_path: Path) -> None:
    """Issue 18: `cardlab ... | head` used to print 'cardlab: error: cannot use file: Broken pipe'
    and exit 2. The reader here takes one line and closes the pipe."""
    hands = tmp_path / "hands.txt"
    hands.write_text("As Ks Qs Js Ts\n" * 200_000)
    argv = [str(hands) if a == "HANDS" else a for a in argv]
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", *argv], env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # what `head -1` does
    err = proc.stderr.read().decode()
    status = proc.wait(timeout=120)
    assert first
    assert status in (0, 141, -13), (status, err)
    assert "Traceback" not in err and "error" not in err, err
