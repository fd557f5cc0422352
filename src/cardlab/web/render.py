"""Templates (jinja2, autoescaped, shipped in the package) and the pieces pages build answers from.

:func:`fragment` renders a template of ``templates/`` to an HTML string (a job's
:class:`~cardlab.web.page.Answer` is made of these); :func:`pre`, :func:`png` and
:func:`table_html` are the common parts of an answer: the CLI's own text, a picture inline, a table.
"""

from __future__ import annotations

import base64
import html
from functools import lru_cache
from typing import Any, Iterable, Sequence

__all__ = ["environment", "fragment", "pre", "png", "table_html", "notes"]


@lru_cache(maxsize=1)
def environment() -> Any:
    """The jinja2 environment of the workbench's templates (autoescaped)."""
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("cardlab.web", "templates"),
                              autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
                              trim_blocks=True, lstrip_blocks=True)


def fragment(template: str, **context: Any) -> str:
    """``template`` rendered with ``context`` (a string of HTML)."""
    rendered: str = environment().get_template(template).render(**context)
    return rendered


def pre(text: str, label: str) -> str:
    """``text`` (what the CLI prints) in a scrollable, labelled ``<pre>``."""
    return (f'<pre class="cli" tabindex="0" role="region" aria-label="{html.escape(label)}">'
            f"{html.escape(text.rstrip())}</pre>")


def png(data: bytes, alt: str) -> str:
    """A PNG picture inline (a ``data:`` address: nothing fetched, nothing written on the server)."""
    encoded = base64.b64encode(data).decode("ascii")
    return f'<img class="plot" src="data:image/png;base64,{encoded}" alt="{html.escape(alt)}">'


def table_html(header: Sequence[str], rows: Iterable[Sequence[Any]], caption: str) -> str:
    """A table with a caption, header cells and rows (cells escaped; numbers right-aligned by CSS)."""
    head = "".join(f'<th scope="col">{html.escape(str(h))}</th>' for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return (f'<div class="scroll" tabindex="0" role="region" aria-label="{html.escape(caption)}"><table>'
            f"<caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></div>")


def notes(lines: Iterable[str]) -> str:
    """Notes (what the CLI prints on stderr as ``cardlab: note: ...``) as a list."""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines if line)
    return f'<ul class="notes">{items}</ul>' if items else ""
