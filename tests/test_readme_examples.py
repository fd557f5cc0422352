"""Every command README.md shows runs as typed, from the repository root (issues 18 and 24).

The commands are read from README's indented code blocks at test time, so an example added to
README is tested without touching this file. README says its commands are typed from the
repository root and name their inputs ``examples/...``: the test stands in a copy of the root
holding a copy of ``examples/``, so a command naming a file without its folder fails here as it
does for a newcomer. Long examples run with smaller sizes (``_SMALLER``);
the only command not run is the one that needs a cluster scheduler on another machine.
"""

from __future__ import annotations

import io
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from cardlab.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
EXAMPLES = ROOT / "examples"

#: Options whose value is a size, and the largest value the test uses for each.
_SMALLER = {"--simulate": 200_000, "-g": 200_000, "--trials": 200_000}
#: ``-n`` is deals for ``deal`` and solved deals for ``makes``/``lead`` (double dummy is slow).
_DEALS = {"makes": 6, "lead": 4, "deal": 40}


def readme_commands() -> list[str]:
    """The shell lines of README's indented code blocks that run cardlab."""
    lines: list[str] = []
    pending = ""
    for line in README.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if pending:  # a command continued with a backslash
            pending += " " + text
        elif line.startswith("    ") and re.match(r"^(cardlab |cat \S+ \| cardlab )", text):
            pending = text
        if pending and not pending.endswith("\\"):
            lines.append(pending)
            pending = ""
        elif pending:
            pending = pending[:-1].rstrip()
    return lines


def _argv(line: str) -> tuple[list[str], str | None]:
    """The argument list after ``cardlab``, sizes shrunk, and the file piped in (if any)."""
    words = shlex.split(line, comments=True)
    stdin = None
    if words[0] == "cat":
        stdin, words = words[1], words[3:]
    argv = words[1:]
    for i, word in enumerate(argv[:-1]):
        value = argv[i + 1]
        if word in _SMALLER and value.isdigit():
            argv[i + 1] = str(min(int(value), _SMALLER[word]))
        if word == "-n" and value.isdigit() and len(argv) > 1 and argv[1] in _DEALS:
            argv[i + 1] = str(min(int(value), _DEALS[argv[1]]))
        if word == "--cluster" and value.startswith("local:"):
            argv[i + 1] = "local:1"
    return argv, stdin


COMMANDS = readme_commands()


def test_readme_has_examples() -> None:
    """The extraction finds README's examples (about sixty lines), so the test below cannot
    pass vacuously."""
    assert len(COMMANDS) >= 50
    assert "cardlab bridge hcp" in [c.split("#")[0].strip() for c in COMMANDS]


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One stand-in for the repository root (holding a copy of ``examples/``) for all the
    commands, run in README's order: a later example may read what an earlier one wrote
    (``bridge boards club.dup`` after ``-o club.dup``)."""
    root = tmp_path_factory.mktemp("readme")
    shutil.copytree(EXAMPLES, root / "examples")
    return root


@pytest.mark.parametrize("line", COMMANDS)
def test_readme_example_runs(line: str, work: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    if "tcp://" in line:
        pytest.skip("needs a Dask scheduler on another machine")
    monkeypatch.chdir(work)
    argv, piped = _argv(line)
    if argv[:1] == ["serve"]:  # runs until stopped: started as a user does, asked for a page, stopped
        from web_helpers import start_server, stop_server

        server = start_server(*argv[1:])
        try:
            assert server.get("/")[0] == 200
        finally:
            stop_server(server)
        return
    if piped is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO((work / piped).read_text(encoding="utf-8")))
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 0, f"{line!r} exited {status}: {err.strip()[-500:]}"
    wrote = [argv[i + 1] for i, word in enumerate(argv[:-1]) if word in ("-o", "--plot")]
    for name in wrote:
        target = work / name
        assert target.exists() and (target.is_dir() or target.stat().st_size > 0), name
    assert out.strip() or wrote, f"{line!r} printed nothing"


def test_readme_commands_run_from_the_root_as_typed() -> None:
    """Issue 24: no README command names an example file without its folder (typed from the
    repository root, ``session.csv`` alone is "No such file or directory")."""
    names = {p.name for p in EXAMPLES.iterdir() if p.name != "README.md"}
    bare = [(line, word) for line in COMMANDS for word in re.split(r"[\s,:=]+", line.split("#")[0])
            if word in names]
    assert bare == []
    typed = " ".join(COMMANDS)
    assert "examples/session.csv" in typed and "cat examples/opener.dl |" in typed


def readme_transcripts() -> list[tuple[str, list[str]]]:
    """README's fenced blocks that show a command (``$ cardlab ...``) and what it prints."""
    text = README.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2).split("\n"))
            for m in re.finditer(r"```\n\$ (cardlab [^\n]*)\n(.*?)\n```", text, flags=re.S)]


TRANSCRIPTS = readme_transcripts()


@pytest.mark.parametrize("line, shown", TRANSCRIPTS, ids=[t[0].split("#")[0].strip() for t in TRANSCRIPTS])
def test_readme_transcripts_are_what_the_command_prints(line: str, shown: list[str],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Each line README shows is printed, in order: "..." stands for lines left out, and a line
    ending in " ..." for the rest of a long line."""
    assert len(TRANSCRIPTS) >= 4
    argv, _ = _argv(line)
    assert main(argv) == 0
    printed = iter(capsys.readouterr().out.split("\n"))
    for want in shown:
        if want == "...":
            continue
        cut = want.endswith(" ...")
        for got in printed:
            if (got.startswith(want[:-4]) if cut else got == want):
                break
        else:
            raise AssertionError(f"README shows {want!r} for {line!r}, which it does not print (in that order)")
