"""What a page module declares: one :class:`Page` named ``PAGE`` (docs/workbench.md, "Adding a page").

A page is a form in the game's own terms and an answer. The server reads the form
(:class:`~cardlab.web.uploads.Form`), the page's ``prepare`` turns it into a :class:`JobSpec` (the
library function to run in a worker process and its arguments; a bad field raises a
:class:`~cardlab.errors.CardlabError`, shown on the page), the job runner runs it and the page shows
the :class:`Answer` it returns (HTML, downloads), or its progress and a Cancel button meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from cardlab.errors import WebInputError

__all__ = ["Page", "JobSpec", "Answer", "field_number", "field_decimal", "field_choice", "field_text"]


@dataclass(frozen=True)
class JobSpec:
    """A job to run: ``function`` is ``"module:name"`` (imported in the worker process) called as
    ``function(progress, **kwargs)`` and returning an :class:`Answer`; ``kwargs`` must pickle
    (strings, numbers, bytes). ``title`` is shown while it runs; ``time_limit`` (seconds) overrides
    the server's when smaller; ``cancel_grace`` (seconds) is how long Cancel waits for the partial
    answer before ending the process (default :data:`cardlab.web.jobs.CANCEL_GRACE`): longer for a
    job whose engine sees Ctrl-C only between runs of about a second (the postflop solver)."""

    function: str
    kwargs: dict[str, Any]
    title: str
    time_limit: float | None = None
    cancel_grace: float | None = None


@dataclass(frozen=True)
class Answer:
    """What a job gives the page: ``html`` (a fragment, already escaped: built with
    :func:`cardlab.web.render.fragment`), ``downloads`` (file name -> bytes, offered as links) and
    ``figures`` (plain values a test or the JSON view may compare with the CLI's)."""

    html: str
    downloads: dict[str, bytes] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Page:
    """One page of the workbench.

    ``slug``: its address (``/slug``); ``title`` and ``summary``: the heading and the line on the
    front page; ``template``: the form's template (extends ``page.html``); ``defaults``: the
    form's first values; ``prepare(form) -> JobSpec``; ``uploads``: the names of its file fields;
    ``routes``: extra Starlette routes of its own (mounted as given, e.g. ``/slug/deal``);
    ``quick_wait``: how long the POST waits for the answer before showing progress instead."""

    slug: str
    title: str
    summary: str
    template: str
    prepare: Callable[[Any], JobSpec]
    defaults: dict[str, str] = field(default_factory=dict)
    uploads: tuple[str, ...] = ()
    routes: tuple[Any, ...] = ()
    quick_wait: float = 3.0


def field_text(form: Any, name: str, label: str, *, required: bool = False, max_length: int = 10_000) -> str:
    """The text of field ``name`` (stripped); ``label`` names it in a message."""
    text = str(form.get(name, "")).strip()
    if required and not text:
        raise WebInputError(f"{label}: please fill this in")
    if len(text) > max_length:
        raise WebInputError(f"{label}: at most {max_length:,} characters (got {len(text):,})")
    return text


def field_number(form: Any, name: str, label: str, low: int, high: int, *, default: int | None = None) -> int | None:
    """The whole number in field ``name`` within ``[low, high]`` (the CLI's spellings: ``1e6``,
    ``10,000``); ``default`` when the field is empty. A bad value names the field and the range.

    >>> field_number({"n": "1e3"}, "n", "Deals", 1, 10**6)
    1000
    >>> field_number({"n": "0"}, "n", "Deals", 1, 10)
    Traceback (most recent call last):
    ...
    cardlab.errors.WebInputError: Deals: expected a whole number from 1 to 10, got '0'
    """
    from cardlab.cli.options import parse_whole

    text = str(form.get(name, "")).strip()
    if not text:
        return default
    try:
        return parse_whole(text, low, high)
    except ValueError as error:
        raise WebInputError(f"{label}: {error}") from None


def field_decimal(form: Any, name: str, label: str, low: float, high: float, *, default: float | None = None,
                  low_open: bool = False, required: bool = False) -> float | None:
    """The decimal number in field ``name`` within ``[low, high]`` (``low`` excluded when
    ``low_open``), read as the CLI reads a decimal option; ``default`` when the field is empty.

    >>> field_decimal({"p": "0.75"}, "p", "Penetration", 0, 0.99)
    0.75
    >>> field_decimal({"p": "1"}, "p", "Penetration", 0, 0.99)
    Traceback (most recent call last):
    ...
    cardlab.errors.WebInputError: Penetration: expected a number from 0 to 0.99, got '1'
    """
    import argparse

    from cardlab.cli.options import decimal_number

    text = field_text(form, name, label, required=required, max_length=40)
    if not text:
        return default
    try:
        return float(decimal_number(low, high, low_open=low_open)(text))
    except argparse.ArgumentTypeError as error:
        raise WebInputError(f"{label}: {error}") from None


def field_choice(form: Any, name: str, label: str, choices: tuple[str, ...]) -> str:
    """Field ``name`` as one of ``choices`` (the first when empty)."""
    value = str(form.get(name, "")).strip() or choices[0]
    if value not in choices:
        raise WebInputError(f"{label}: expected one of {', '.join(choices)}, got '{value[:40]}'")
    return value
