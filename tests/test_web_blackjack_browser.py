"""Issue 43: the blackjack and shoe simulator pages in headless Chromium (as
tests/test_web_browser.py): the form filled as a user fills it, the figures shown equal the CLI's
for the same question, the chart's cells read back, no sideways scrolling at 390 and 1280 px, Tab
reaches every control, axe-core finds no serious violation, a bad field is the CLI's one line in
the page, and Cancel keeps the rounds played."""

from __future__ import annotations

import json
import time
from typing import Any, Callable

import pytest

from test_site_browser import _resize, browser  # noqa: F401  (browser: the fixture)
from test_web_browser import (AXE, _ACTIVE, _FOCUSABLE, _choose, _cli, _shown, _submit_and_wait, _type,  # noqa: F401
                              pytestmark)
from web_helpers import Server, served  # noqa: F401  (served: the fixture)

QUARTER = "1,1,1,1,1,1,1,1,1,4"


def fill_blackjack(driver: Any) -> list[str]:
    """The first-time question: six decks, H17, late surrender."""
    _type(driver, "decks", "6")
    _choose(driver, "dealer", "h17")
    _choose(driver, "surrender", "late")
    return ["casino", "blackjack", "--decks", "6", "--h17", "--surrender"]


def fill_count(driver: Any) -> list[str]:
    """A count's figures, on a quarter deck (seconds, not a minute)."""
    _type(driver, "shoe", QUARTER)
    _type(driver, "count", "hi-lo")
    return ["casino", "blackjack", "--shoe", QUARTER, "--count", "hi-lo"]


def fill_shoe(driver: Any) -> list[str]:
    _type(driver, "rounds", "300000")
    _type(driver, "seed", "7")
    return ["casino", "shoe", "--decks", "6", "--penetration", "0.75", "--spread", "1,2:2,3:4,4:8",
            "--bankroll", "1000", "--rounds", "300000", "--seed", "7"]


PAGES: dict[str, tuple[str, Callable[[Any], list[str]]]] = {
    "blackjack": ("blackjack", fill_blackjack), "count": ("blackjack", fill_count),
    "shoe": ("blackjack-shoe", fill_shoe),
}


@pytest.mark.parametrize("question", list(PAGES))
def test_page_shows_the_cli_figures_and_fits(served: Server, browser: Any, question: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    page, fill = PAGES[question]
    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/{page}")
    argv = fill(browser)
    assert _submit_and_wait(browser) == "done"
    assert _shown(browser)[0] == _cli(capsys, *argv)
    cli = json.loads(_cli(capsys, *argv, "--format", "json"))
    key = browser.execute_script("return document.querySelector('[data-key]').getAttribute('data-key')")
    ids = browser.execute_script("return Array.from(document.querySelectorAll('[id]')).map(function (e) { return e.id; });")
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)  # no table takes a field's id
    if page == "blackjack":
        assert key == f"{cli['house_edge']['basic_strategy']:.4%}"
        cells = browser.execute_script(
            "return Array.from(document.querySelectorAll('tr[data-hand]')).map(function (t) {"
            " return [t.getAttribute('data-hand'), Array.from(t.querySelectorAll('td')).map(function (c) {"
            "  return [c.getAttribute('data-letter'), c.textContent, getComputedStyle(c).backgroundColor]; })]; });")
        assert [hand for hand, _ in cells] == list(cli["basic_strategy"])
        colours: dict[str, set[str]] = {}
        for hand, row in cells:
            assert [c[0] for c in row] == list(cli["basic_strategy"][hand].values()), hand
            for letter, text, colour in row:
                assert text.startswith(letter)  # the letter shown, then its words for a screen reader
                colours.setdefault(letter, set()).add(colour)
        assert all(len(c) == 1 for c in colours.values())  # one colour per action,
        assert len({next(iter(c)) for c in colours.values()}) == len(colours)  # a different one for each
    else:
        assert key == f"{cli['flat']['mean']:+.4%}"
    for width in (390, 1280):
        _resize(browser, width, 900)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, (page, width)
    _resize(browser, 1280, 900)


@pytest.mark.parametrize("page,fields,argv", [
    ("blackjack", {"decks": "0"}, ["casino", "blackjack", "--decks", "0"]),
    ("blackjack", {"shoe": "4,4,x"}, ["casino", "blackjack", "--shoe", "4,4,x"]),
    ("blackjack-shoe", {"spread": "1,2:x"}, ["casino", "shoe", "--spread", "1,2:x"]),
])
def test_a_bad_field_is_one_line_in_the_page(served: Server, browser: Any, page: str, fields: dict[str, str],
                                             argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from test_web_blackjack import _said

    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/{page}")
    for field, text in fields.items():
        _type(browser, field, text)
    assert _submit_and_wait(browser) == "refused"
    said = browser.find_element("id", "form-message").text
    assert said.startswith("Cannot answer: ") and "Traceback" not in browser.page_source
    assert said.split(": ", 2)[2] == _said(lambda *a: _cli_status(capsys, *a), capsys, *argv)


def _cli_status(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from cardlab.cli.main import main

    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("page", ["blackjack", "blackjack-shoe"])
def test_tab_reaches_every_control(served: Server, browser: Any, page: str, width: int) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    _resize(browser, width, 900)
    browser.get(f"{served.url}/{page}")
    wanted = set(browser.execute_script(_FOCUSABLE))
    assert {"decks", "shoe", "dealer", "surrender"} <= wanted
    reached: set[str] = set()
    for _ in range(len(wanted) * 2 + 5):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        reached.add(browser.execute_script(_ACTIVE))
    assert wanted <= reached, wanted - reached
    _resize(browser, 1280, 900)


@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: npm install (package.json)")
@pytest.mark.parametrize("question", list(PAGES))
def test_axe_finds_no_serious_violation(served: Server, browser: Any, question: str) -> None:
    page, fill = PAGES[question]
    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/{page}")
    fill(browser)
    assert _submit_and_wait(browser) == "done"  # with the answer: the grids, the tables
    browser.execute_script(AXE.read_text(encoding="utf-8"))
    browser.set_script_timeout(120)
    violations = browser.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(function (r) {"
        "  done(r.violations.map(function (v) { return [v.id, v.impact, v.nodes.length,"
        "    v.nodes.slice(0, 2).map(function (n) { return n.html.slice(0, 120); })]; })); });")
    serious = [v for v in violations if v[1] in ("serious", "critical")]
    assert serious == [], serious


def test_cancel_keeps_the_rounds_played(served: Server, browser: Any) -> None:
    """A long simulation cancelled: the rounds played are shown under "Cancelled", marked partial
    with their number, as the command line prints them after Ctrl-C."""
    import re

    from selenium.webdriver.support.ui import WebDriverWait

    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/blackjack-shoe")
    _type(browser, "rounds", "1000000000")
    _type(browser, "seed", "1")
    browser.find_element("css selector", "form.ask button[type=submit]").click()
    WebDriverWait(browser, 120, poll_frequency=0.05).until(
        lambda d: d.execute_script("var p = document.getElementById('job-progress'); return p && p.value > 0"))
    time.sleep(1.0)
    browser.find_element("id", "cancel").click()
    WebDriverWait(browser, 10, poll_frequency=0.05).until(lambda d: d.find_elements("id", "partial-answer"))
    partial = browser.execute_script("return document.getElementById('partial-answer').textContent")
    said = re.search(r"interrupted; ([\d,]+) of 1,000,000,000 rounds were played", partial)
    assert said and int(said.group(1).replace(",", "")) >= 1_000_000, partial
    assert "(interrupted)" in partial and "flat bet" in partial
