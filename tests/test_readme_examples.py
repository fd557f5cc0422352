"""Every command and Python block of README.md and of the pages of docs/ runs as typed, from the
repository root (issues 18, 24 and 40).

The examples are read from the pages' code blocks at test time (tests/docs_blocks.py), so an
example added to a page is tested without touching this file. The pages say their commands are
typed from the repository root and name their inputs ``examples/...``: the test stands in a copy
of the root holding a copy of ``examples/``, so a command naming a file without its folder fails
here as it does for a newcomer. Long examples run with smaller sizes (``_SMALLER``); a block
marked ``<!-- docs-test: skip REASON -->`` in its page (a placeholder cluster address, a job of
hours) is skipped with that reason.
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
from docs_blocks import PAGES, ROOT, commands, python_blocks, transcripts
from extras import require

README = ROOT / "README.md"
EXAMPLES = ROOT / "examples"

#: Options whose value is a size, and the largest value the test uses for each.
_SMALLER = {"--simulate": 200_000, "-g": 200_000, "--trials": 200_000}
#: ``-n`` is deals for ``deal`` and solved deals for ``makes``/``lead`` (double dummy is slow).
_DEALS = {"makes": 6, "lead": 4, "deal": 40}


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


COMMANDS = commands()
TRANSCRIPTS = transcripts()
PYTHON = python_blocks()


def test_the_pages_have_examples() -> None:
    """The extraction finds the examples (README's and about two hundred in docs/), so the tests
    below cannot pass vacuously; README keeps a few, and its first one is the set-up job."""
    assert len(COMMANDS) >= 150 and len(PYTHON) >= 10 and len(TRANSCRIPTS) >= 8
    readme = [line for page, line, _ in COMMANDS if page == "README.md"]
    readme += [line for page, line, _, _ in TRANSCRIPTS if page == "README.md"]
    assert 5 <= len(readme) <= 30 and readme[1] == "cardlab bridge hcp"  # the first transcript: the first answer
    assert "cardlab bridge hcp" in [line.split("#")[0].strip() for _, line, _ in COMMANDS]


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One stand-in for the repository root (holding a copy of ``examples/``) for all the
    commands, run in the pages' order: a later example may read what an earlier one wrote
    (``bridge boards club.dup`` after ``-o club.dup``)."""
    root = tmp_path_factory.mktemp("readme")
    shutil.copytree(EXAMPLES, root / "examples")
    return root


def _id(page: str, line: str) -> str:
    return f"{page}: {line.split('#')[0].strip()}"


@pytest.mark.parametrize("page, line, skip", COMMANDS, ids=[_id(p, l) for p, l, _ in COMMANDS])
def test_example_runs(page: str, line: str, skip: str | None, work: Path, monkeypatch: pytest.MonkeyPatch,
                      capsys: pytest.CaptureFixture[str]) -> None:
    if skip:
        pytest.skip(f"{page} marks it: {skip}")
    monkeypatch.chdir(work)
    argv, piped = _argv(line)
    if "--cluster" in argv:
        require("distributed", "slow")
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
    assert status == 0, f"{page}: {line!r} exited {status}: {err.strip()[-500:]}"
    wrote = [argv[i + 1] for i, word in enumerate(argv[:-1]) if word in ("-o", "--plot")]
    for name in wrote:
        target = work / name
        assert target.exists() and (target.is_dir() or target.stat().st_size > 0), name
    assert out.strip() or wrote, f"{page}: {line!r} printed nothing"


def test_placeholder_addresses_are_marked() -> None:
    """Issue 40: a command naming a cluster on another machine (a placeholder address) is marked
    as not run, with its reason, in its page; nothing else is skipped silently."""
    remote = [(page, line, skip) for page, line, skip in COMMANDS if "tcp://" in line]
    assert remote and all(skip and "placeholder" in skip for _, _, skip in remote)


@pytest.mark.parametrize("page, number, code, skip", PYTHON, ids=[f"{p} python block {n}" for p, n, _, _ in PYTHON])
def test_python_block_runs(page: str, number: int, code: str, skip: str | None, work: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Python block of a page runs as typed, in a fresh namespace, from the root."""
    if skip:
        pytest.skip(f"{page} marks it: {skip}")
    monkeypatch.chdir(work)
    for option, largest in (("trials=10**6", "trials=10**5"), ("10**10", "10**5"), ("10**9", "10**5")):
        code = code.replace(option, largest)
    exec(compile(code, f"{page} python block {number}", "exec"), {"__name__": "docs_example"})


def test_commands_run_from_the_root_as_typed() -> None:
    """Issue 24: no command names an example file without its folder (typed from the
    repository root, ``session.csv`` alone is "No such file or directory")."""
    names = {p.name for p in EXAMPLES.iterdir() if p.name != "README.md"}
    bare = [(page, line, word) for page, line, _ in COMMANDS
            for word in re.split(r"[\s,:=]+", line.split("#")[0]) if word in names]
    assert bare == []
    typed = " ".join(line for _, line, _ in COMMANDS)
    assert "examples/session.csv" in typed and "cat examples/opener.dl |" in typed


@pytest.mark.parametrize("page, line, shown, skip", TRANSCRIPTS,
                         ids=[_id(p, l) for p, l, _, _ in TRANSCRIPTS])
def test_transcripts_are_what_the_command_prints(page: str, line: str, shown: list[str], skip: str | None,
                                                 work: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Each line a page shows is printed, in order: "..." stands for lines left out, and a line
    ending in " ..." for the rest of a long line."""
    if skip:
        pytest.skip(f"{page} marks it: {skip}")
    monkeypatch.chdir(work)
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
            raise AssertionError(f"{page} shows {want!r} for {line!r}, which it does not print (in that order)")
