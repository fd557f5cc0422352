"""A static results site: ranking, pair scorecards, board travellers and hand records.

:func:`build_site` turns a scored session (and, when known, each board's deal)
into pages that link to each other -- ``index.html`` (ranking and the list of
boards) → ``pair-ns-1.html`` (a pair's scorecard) → ``board-3.html`` (the
traveller, with the hand) → ``hands.html#b3`` (the printable hand records) and
back.  The site is plain files with one stylesheet: no scripts, no fonts, no
request leaves the page, so it works from a USB stick or any web host.

>>> from cardlab.scoring.session import score_session
>>> from cardlab.scoring.traveller import TravellerLine as T
>>> session = score_session([T.make(1, "1", "1", contract="3NT", declarer="N", tricks=9),
...                          T.make(1, "2", "2", contract="4S", declarer="E", tricks=10)])
>>> site = build_site(session, club="Example BC", date="29/11/2026")
>>> site
Site(7 files: index.html, pair-ns-1.html, ..., style.css)
>>> 'href="pair-ns-1.html"' in site.files["index.html"]
True
>>> build_site("results")
Traceback (most recent call last):
...
TypeError: build_site needs a SessionResult, not str
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Collection, Mapping

from cardlab.results import JsonText
from cardlab import __version__
from cardlab.scoring.session import PairKey, SessionResult
from cardlab.report.scoring_output import field_title, fig
from cardlab.board import STRAINS
from cardlab.deal import Board
from cardlab.scoring.output import method_caption
from cardlab.report.site.model import (
    board_pages,
    factored_boards,
    pair_ref,
    scorecards,
)

__all__ = ["Site", "build_site", "write_site", "is_site_target"]


@dataclass(frozen=True)
class Site(JsonText):
    """The site's files: name -> text (HTML pages and ``style.css``)."""

    files: Mapping[str, str]

    def write(self, directory: str | Path) -> list[Path]:
        """Write every file into ``directory`` (made if missing); returns the paths.

        The site is written whole into a temporary folder beside ``directory`` and swapped in
        only when every page is written: a full disk, an error or Ctrl-C leaves the previous site
        as it was (never a page cut mid-tag, never old and new pages mixed). Files of the previous
        folder that the new site does not write are moved into the new one, so nothing else in it
        is lost."""
        root = Path(directory)
        made = _make_parents(root.parent)
        staging: Path | None = None
        try:
            staging = Path(tempfile.mkdtemp(dir=root.parent, prefix=".cardlab-site-"))
            for name, text in self.files.items():
                (staging / name).write_text(text, encoding="utf-8")
            _swap_in(staging, root)
        except BaseException as error:
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)
            for folder in reversed(made):  # the folders made for the site, deepest first: none left empty
                with contextlib.suppress(OSError):
                    folder.rmdir()
            if isinstance(error, OSError) and not isinstance(error, (FileNotFoundError, PermissionError)):
                # a full disk while writing a page: the error names no file; name the site's folder
                raise OSError(error.errno, error.strerror or str(error), os.fspath(directory)) from None
            raise
        return [root / name for name in self.files]

    def to_dict(self) -> dict[str, Any]:
        """``{files: {name: characters}}``: what would be written."""
        return {"files": {name: len(text) for name, text in self.files.items()}}

    def table(self) -> str:
        """``"N pages and a stylesheet"``."""
        pages = sum(name.endswith(".html") for name in self.files)
        return f"{pages} pages and a stylesheet"

    def __repr__(self) -> str:
        names = list(self.files)
        shown = ", ".join(names if len(names) <= 3 else [names[0], names[1], "...", names[-1]])
        return f"Site({len(names)} files: {shown})"


def _make_parents(folder: Path) -> list[Path]:
    """Make ``folder`` and its missing parents; the folders made, top first (to remove again
    when the site cannot be written)."""
    missing = [p for p in [folder, *folder.parents] if not p.exists()]
    for path in reversed(missing):
        path.mkdir(exist_ok=True)
    return list(reversed(missing))


def _swap_in(staging: Path, root: Path) -> None:
    """Put the folder ``staging`` in place of ``root`` (signals held for the two renames)."""
    umask = os.umask(0)
    os.umask(umask)
    staging.chmod(root.stat().st_mode & 0o7777 if root.is_dir() else 0o777 & ~umask)
    held = threading.current_thread() is threading.main_thread()
    if held:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        old = None
        if root.is_dir():
            old = Path(tempfile.mkdtemp(dir=root.parent, prefix=".cardlab-old-"))
            os.replace(root, old / "site")
        os.replace(staging, root)
    finally:
        if held:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    if old is not None:
        for entry in (old / "site").iterdir():
            if not (root / entry.name).exists():
                os.replace(entry, root / entry.name)  # the user's other files stay in the folder
        shutil.rmtree(old, ignore_errors=True)


_env: Any = None


def _environment() -> Any:
    global _env
    if _env is None:
        from jinja2 import Environment, PackageLoader, select_autoescape

        _env = Environment(
            loader=PackageLoader("cardlab.report.site", "templates"),
            autoescape=select_autoescape(["html", "j2"]),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        _env.filters["fig"] = fig
        _env.filters["signed"] = lambda v: f"{v:+d}" if isinstance(v, int) and v else str(v)
    return _env


def _stylesheet() -> str:
    return resources.files("cardlab.report.site").joinpath("templates/style.css").read_text(
        encoding="utf-8")


def build_site(
    result: SessionResult,
    *,
    deals: Mapping[int, Board] | None = None,
    club: str = "",
    date: str = "",
    phantoms: Collection[PairKey] = (),
    double_dummy: bool = True,
) -> Site:
    """Render the session as linked pages.

    ``deals`` maps board numbers to their :class:`~cardlab.deal.Board` (hand record); boards with a deal
    get a hand record, with its double-dummy table and par (solved by :mod:`cardlab.bridge.dd`)
    unless ``double_dummy`` is false.  ``phantoms`` are pair keys marked as phantom pairs, besides the phantoms and
    sit-outs the result itself knows (``result.phantoms``).
    """
    if not isinstance(result, SessionResult):
        raise TypeError(f"build_site needs a SessionResult, not {type(result).__name__}")
    phantoms = {*phantoms, *result.phantoms}
    env = _environment()
    imps = result.method.is_imps
    cards = scorecards(result, phantoms)
    boards = board_pages(result, deals, phantoms, double_dummy)
    names = {p.key: p.names for p in result.pairs}
    factored = factored_boards(result)
    common = {
        "club": club, "date": date, "event": result.title or "Session results",
        "movement": result.movement.value.capitalize(), "method": method_caption(result),
        "n_boards": len(result.boards), "n_pairs": len(result.pairs), "imps": imps,
        "has_hands": any(b.hand for b in boards), "version": __version__,
        "points": "IMPs" if imps else "MP", "strains": STRAINS[::-1],
        "butler": result.method.has_datum,
    }
    fields = [
        {"title": field_title(direction) if direction else "Ranking",
         "rows": [(p, pair_ref(p.key, names, phantoms), p.boards < result.most_boards(direction))
                  for p in pairs]}
        for direction, pairs in result.fields
    ]
    files: dict[str, str] = {}
    files["index.html"] = env.get_template("index.html.j2").render(
        common, fields=fields, boards=boards, factored=factored)
    pair_page = env.get_template("pair.html.j2")
    for card in cards.values():
        files[card.ref.page] = pair_page.render(common, card=card,
                                                howell=result.movement.value == "howell")
    board_page = env.get_template("board.html.j2")
    for board in boards:
        files[board.page] = board_page.render(common, b=board)
    if common["has_hands"]:
        files["hands.html"] = env.get_template("hands.html.j2").render(
            common, hands=[b.hand for b in boards if b.hand])
    files["style.css"] = _stylesheet()
    return Site(files)


def is_site_target(output: str | Path) -> bool:
    """Whether ``-o`` names a directory (ends with a slash, exists as one, or has no suffix)
    rather than a single ``.html`` file; ``-`` is standard output (the single page)."""
    text = str(output)
    if text == "-":
        return False
    path = Path(text)
    return text.endswith(("/", "\\")) or path.is_dir() or not path.suffix


def write_site(result: SessionResult, directory: str | Path, **options: Any) -> Site:
    """Build the site (see :func:`build_site` for ``options``) and write it to ``directory``."""
    site = build_site(result, **options)
    site.write(directory)
    return site
