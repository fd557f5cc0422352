"""Scoring: ``cardlab bridge score`` from a page. Upload a USEBIO, PBN, CSV or Bridgemate ``.bws`` file: the ranking
(:func:`cardlab.report.scoring_run.score_file`, the text the CLI prints), the travellers, the check
against the file's own figures (``--check``) and the results site as a zip (``--format html -o DIR/``).
The file is read by the CLI's own hardened reader (defusedxml for XML, text decoding that refuses
binary; a ``.bws``, known by its first bytes, by :mod:`cardlab.club`) from the uploaded bytes; nothing is written on the server but the site, in a temporary
folder removed once zipped."""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from cardlab.errors import CardlabError, WebInputError
from cardlab.web.page import Answer, JobSpec, Page, field_choice, field_text
from cardlab.web.uploads import Form

__all__ = ["PAGE", "compute"]

METHODS = ("file", "mp", "cross-imps", "butler", "median-imps")
SCALES = ("file", "acbl", "ebu")
MOVEMENTS = ("detect", "mitchell", "howell")


def prepare(form: Form) -> JobSpec:
    """The uploaded file and the options as a scoring job."""
    upload = form.files.get("file")
    if upload is None or not upload.data:
        raise WebInputError("Results file: choose a USEBIO (.xml), PBN, CSV or Bridgemate .bws file to upload")
    method = field_choice(form, "method", "Method", METHODS)
    scale = field_choice(form, "scale", "Matchpoint units", SCALES)
    movement = field_choice(form, "movement", "Movement", MOVEMENTS)
    return JobSpec("cardlab.web.pages.scoring:compute", {
        "data": upload.data, "name": upload.filename,
        "method": None if method == "file" else method, "scale": None if scale == "file" else scale,
        "movement": None if movement == "detect" else movement,
        "title": field_text(form, "title", "Event title", max_length=200) or None}, f"scoring {upload.filename}")


def compute(progress: Any, *, data: bytes, name: str, method: str | None, scale: str | None,
            movement: str | None, title: str | None) -> Answer:
    """The ranking, the travellers, the check and the site, as ``bridge score`` gives them."""
    from cardlab.club.files import load_any
    from cardlab.report.scoring_run import score_file
    from cardlab.web.answers import cli_text, ranking_html
    from cardlab.web.render import notes, pre, table_html

    doc = load_any(data, source=name)  # messages name the uploaded file, not '<bytes>'
    options: dict[str, Any] = {"method": method, "scale": scale, "movement": movement, "title": title}
    run = score_file(doc, fmt="table", **options)
    assert isinstance(run.text, str) and run.result is not None
    progress(0.3, "ranked")
    parts = [ranking_html(run.result, run.text.splitlines()[0]), notes(run.notes), cli_text(run.text),
             "<h2>Check against the file's own figures</h2>"]
    try:
        check = score_file(doc, check=True, **options)
    except CardlabError as error:  # a CSV states no figures: the reason instead of the check
        check_text = ""
        parts.append(notes([str(error)]))
    else:
        check_text = check.text if isinstance(check.text, str) else "".join(check.text or ())
        parts.append(pre(check_text, "the check, as bridge score --check prints it"))
        if check.summary:
            parts.append(notes([check.summary]))
    progress(0.5, "checked")
    parts.append('<h2>Travellers</h2><div class="travellers">')
    deals = _deals(doc)
    for board in run.result.boards:
        rows = []
        for scored in board.lines:
            line = scored.line
            contract = "" if line.contract is None else str(line.contract)
            declarer = "" if line.declarer is None else line.declarer.value
            rows.append([line.ns, line.ew, contract, declarer, "" if line.tricks is None else line.tricks,
                         line.score, f"{scored.ns_points:g}", f"{scored.ew_points:g}"])
        table = table_html(["NS", "EW", "Contract", "By", "Tricks", "NS score", "NS points", "EW points"], rows,
                           f"Board {board.board}" + (f" (top {board.top})" if board.top is not None else ""))
        parts.append(f'<div class="traveller">{deals[board.board]}{table}</div>' if board.board in deals else table)
    parts.append("</div>")
    files = {"ranking.txt": run.text.encode("utf-8"), "ranking.csv": run.result.to_csv().encode("utf-8")}
    with tempfile.TemporaryDirectory(prefix="cardlab-web-site-") as folder:
        site = Path(folder) / "site"
        score_file(doc, fmt="html", output=f"{site}/", **options)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(site.rglob("*")):
                if path.is_file():
                    archive.write(path, str(Path("site") / path.relative_to(site)))
        files["site.zip"] = buffer.getvalue()
    return Answer("\n".join(parts), files, {"ranking": run.text, "check": check_text})


def _deals(doc: Any) -> dict[int, str]:
    """The hand diagram of each board whose deal the file gives (PBN results and a ``.bws`` with
    hand records carry them; the board's number gives its dealer and vulnerability, as the
    results site shows them)."""
    from cardlab.board import Vulnerability, dealer
    from cardlab.web.answers import hand_diagram

    boards = doc.deals
    return {number: hand_diagram(board.deal.to_pbn(), dealer(number).value, Vulnerability.from_board(number).value)
            for number, board in boards.items()}


PAGE = Page(
    slug="scoring", title="Scoring",
    summary="Upload a USEBIO, PBN, CSV or Bridgemate .bws results file: the ranking, the travellers, the check, the site.",
    template="scoring.html", prepare=prepare, uploads=("file",),
    defaults={"method": "file", "scale": "file", "movement": "detect"},
)
