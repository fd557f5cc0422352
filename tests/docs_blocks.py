"""The examples of README.md and of every page of docs/, read from their code blocks.

One reader for the tests that run them (tests/test_readme_examples.py) and check them
(tests/test_readme_facts.py). A page's commands are typed from the repository root (each page
says so); a block preceded by ``<!-- docs-test: skip REASON -->`` is not run, and the test says
why (a placeholder address, a cluster on another machine, a job of hours).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_COMMAND = re.compile(r"^(cardlab |cat \S+ \| cardlab )")
_SKIP = re.compile(r"<!--\s*docs-test:\s*skip\s+(.*?)\s*-->")


@dataclass(frozen=True)
class Block:
    """One code block of a page: its kind (``shell``, ``transcript`` or ``python``), its lines,
    and why it is not run (``None``: it is)."""

    page: str
    kind: str
    lines: tuple[str, ...]
    skip: str | None


def page_blocks(path: Path) -> list[Block]:
    """The code blocks of one page, in order: fenced (```` ``` ````, ```` ```python ````) and
    indented four spaces; a fenced block whose first line is ``$ cardlab ...`` is a transcript
    (the command and what it prints)."""
    name = path.relative_to(ROOT).as_posix()
    blocks: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    skip: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        mark = _SKIP.search(line)
        if mark:
            skip = mark.group(1)
            i += 1
            continue
        fence = re.match(r"^\s*```(\w*)\s*$", line)
        if fence:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            body = tuple(lines[i + 1:end])
            language = fence.group(1)
            if language == "python":
                kind = "python"
            elif body and body[0].startswith("$ cardlab "):
                kind = "transcript"
            else:
                kind = "shell" if language in ("", "sh", "bash", "console", "shell") else "other"
            blocks.append(Block(name, kind, body, skip))
            skip, i = None, end + 1
            continue
        if line.startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            blocks.append(Block(name, "shell", tuple(l[4:] for l in lines[i:j]), skip))
            skip, i = None, j
            continue
        if line.strip():
            skip = None  # a mark applies to the block right after it
        i += 1
    return blocks


def _synopsis(line: str) -> bool:
    """A usage line (``cardlab serve [--port 8765]``): the syntax of a command, not one to run."""
    return " [-" in line or "] [" in line


def _joined(lines: tuple[str, ...]) -> list[str]:
    """The command lines of a shell block, a line ending in a backslash joined to the next (usage
    lines, with their optional parts in brackets, left out)."""
    out: list[str] = []
    pending = ""
    for raw in lines:
        text = raw.strip()
        if pending:
            pending += " " + text
        elif _COMMAND.match(text):
            pending = text
        if pending and not pending.endswith("\\"):
            if not _synopsis(pending):
                out.append(pending)
            pending = ""
        elif pending:
            pending = pending[:-1].rstrip()
    return out


def commands(pages: list[Path] = PAGES) -> list[tuple[str, str, str | None]]:
    """Every ``cardlab`` command of the pages' shell blocks: (page, line, reason not run)."""
    return [(b.page, line, b.skip) for path in pages for b in page_blocks(path) if b.kind == "shell"
            for line in _joined(b.lines)]


def transcripts(pages: list[Path] = PAGES) -> list[tuple[str, str, list[str], str | None]]:
    """Every transcript: (page, command, the lines shown as its output, reason not run)."""
    return [(b.page, b.lines[0][2:], list(b.lines[1:]), b.skip) for path in pages
            for b in page_blocks(path) if b.kind == "transcript"]


def python_blocks(pages: list[Path] = PAGES) -> list[tuple[str, int, str, str | None]]:
    """Every Python block: (page, its number on the page, the code, reason not run)."""
    out = []
    for path in pages:
        blocks = [b for b in page_blocks(path) if b.kind == "python"]
        out += [(b.page, n, "\n".join(b.lines), b.skip) for n, b in enumerate(blocks, 1)]
    return out
