"""The workbench: ``cardlab serve``, a local web application that answers every cardlab question
from a page (docs/workbench.md; the API for a new page is in docs/workbench.md, "Adding a page").

Optional: it needs the ``web`` extra (``pip install 'cardlab[web]'``: Starlette and uvicorn).
Nothing here is imported by ``import cardlab``; :mod:`cardlab.web.command` (the ``serve``
command) imports Starlette only when the server starts.

Modules: :mod:`~cardlab.web.app` (the app factory), :mod:`~cardlab.web.page` (what a page module
declares), :mod:`~cardlab.web.pages` (the registry of pages), :mod:`~cardlab.web.jobs` (the job
runner: worker processes, progress, cancel, limits), :mod:`~cardlab.web.uploads` (forms and
size-limited uploads), :mod:`~cardlab.web.render` (templates and page messages).
"""
