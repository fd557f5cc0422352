"""The registry of the workbench's pages: one module per page, listed once in :data:`PAGE_MODULES`.

Adding a page: write ``cardlab/web/pages/<name>.py`` with a module-level ``PAGE =
Page(...)`` (:class:`cardlab.web.page.Page`), its form template ``templates/<name>.html`` (extends
``page.html``), add the module's name below, in the order of the navigation. See docs/workbench.md.
"""

from __future__ import annotations

import importlib

from cardlab.web.page import Page

__all__ = ["PAGE_MODULES", "load_pages"]

#: The page modules, in the order of the navigation bar and the front page.
PAGE_MODULES: tuple[str, ...] = (
    "cardlab.web.pages.stats",
    "cardlab.web.pages.deals",
    "cardlab.web.pages.dd",
    "cardlab.web.pages.makes",
    "cardlab.web.pages.suits",
    "cardlab.web.pages.scoring",
    "cardlab.web.pages.poker_equity",
    "cardlab.web.pages.poker_board",
    "cardlab.web.pages.pushfold",
    "cardlab.web.pages.icm",
    "cardlab.web.pages.solve",
    "cardlab.web.pages.casino",
    "cardlab.web.pages.blackjack",
    "cardlab.web.pages.blackjack_shoe",
    "cardlab.web.pages.video",
    "cardlab.web.pages.video_trainer",
)


def load_pages() -> list[Page]:
    """Every page of :data:`PAGE_MODULES` (their ``PAGE``); the slugs must differ."""
    pages = [importlib.import_module(name).PAGE for name in PAGE_MODULES]
    slugs = [p.slug for p in pages]
    if len(set(slugs)) != len(slugs):
        raise RuntimeError(f"two pages share a slug: {slugs}")
    return pages
