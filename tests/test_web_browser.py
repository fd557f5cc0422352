"""Issue 32 in a real browser (headless Chromium through selenium, as tests/test_site_browser.py):
each page's form filled as a user fills it, submitted, and the figures shown compared with the
CLI's output for the same input; no horizontal scrolling at 390 and 1280 px; Tab reaches every
control; axe-core (package.json, installed by .ci/run's npm install) reports no serious or critical
violation; Cancel stops a long job within a second. Screenshots go to out/web-screenshots/.

Skipped only when Chromium or its driver is absent locally (CI installs both), and the axe test only
when node_modules/axe-core/axe.min.js is absent locally."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from extras import needs

from cardlab.cli.main import main
from test_site_browser import CHROMIUM, DRIVER, _resize, browser  # noqa: F401  (browser: the fixture)
from web_helpers import Server, served  # noqa: F401  (served: the fixture)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PAGES = ["stats", "deals", "dd", "suits", "scoring"]
DEAL = "N:AKQ2.T98.765.432 JT98.AK7.AK2.T98 7653.J65.QJT.AKQ 4.Q432.9843.J765"

pytestmark = [pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)) and not os.environ.get("CI"),  # CI must run it
    reason=f"Chromium not installed ({CHROMIUM}, {DRIVER}): apt-get install chromium chromium-driver",
), needs("selenium", "slow")]


def _artefacts() -> Path:
    root = Path(os.environ.get("CARDLAB_ARTEFACTS", ROOT / "out"))
    path = root / "web-screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out.rstrip()


def _type(driver: Any, field: str, text: str) -> None:
    element = driver.find_element("id", field)
    element.clear()
    if text:
        element.send_keys(text)


def _choose(driver: Any, field: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", field)).select_by_value(value)


def _radio(driver: Any, value: str) -> None:
    driver.find_element("css selector", f"input[name=mode][value='{value}']").click()


def _submit_and_wait(driver: Any, timeout: float = 240) -> str:
    """Submit the page's form; the state the job ends in (its answer is then in the page)."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.find_element("css selector", "form.ask button[type=submit]").click()
    WebDriverWait(driver, timeout, poll_frequency=0.1).until(
        lambda d: d.execute_script("var j = document.querySelector('.job, #form-message');"
                                   "return j && (j.id === 'form-message' || ['done','failed','cancelled']"
                                   ".indexOf(j.getAttribute('data-state')) >= 0);"))
    state: str = driver.execute_script("var j = document.querySelector('.job'); return j ? j.getAttribute('data-state') : 'refused';")
    return state


def _shown(driver: Any) -> list[str]:
    texts: list[str] = driver.execute_script(
        "return Array.from(document.querySelectorAll('pre.cli')).map(function (p) { return p.textContent; });")
    return [t.rstrip() for t in texts]


# Each page: fill its form as a user does, and the CLI command that must print the same figures.
def _stats(driver: Any) -> list[str]:
    _choose(driver, "kind", "points")
    _type(driver, "given_hcp", "12")
    return ["bridge", "hcp", "--given-hcp", "12"]


def _deals(driver: Any) -> list[str]:
    _radio(driver, "constraints")
    _type(driver, "count", "2")
    _type(driver, "north", "hcp=20+")
    _type(driver, "seed", "4")
    return ["bridge", "deal", "-n", "2", "--north", "hcp=20+", "--seed", "4", "--workers", "1"]


def _dd(driver: Any) -> list[str]:
    _radio(driver, "table")
    _type(driver, "deal", DEAL)
    _type(driver, "vul", "All")
    return ["bridge", "dd", DEAL, "--vul", "All"]


def _suits(driver: Any) -> list[str]:
    _radio(driver, "play")
    _type(driver, "north", "KJ9x")
    _type(driver, "south", "A10xx")
    _choose(driver, "defence", "random-equals")
    return ["bridge", "suitplay", "KJ9x", "A10xx", "--defence", "random-equals"]


def _scoring(driver: Any) -> list[str]:
    driver.find_element("id", "file").send_keys(str(EXAMPLES / "session.xml"))
    return ["bridge", "score", str(EXAMPLES / "session.xml")]


FILLS: dict[str, Callable[[Any], list[str]]] = {"stats": _stats, "deals": _deals, "dd": _dd, "suits": _suits,
                                                "scoring": _scoring}


@pytest.mark.parametrize("page", PAGES)
def test_each_page_shows_the_cli_figures_and_fits(served: Server, browser: Any, page: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/{page}")
    argv = FILLS[page](browser)
    assert _submit_and_wait(browser) == "done"
    shown = _shown(browser)
    assert shown and shown[0] == _cli(capsys, *argv)
    if page == "stats":
        assert browser.execute_script("var i = document.querySelector('img.plot'); return i.complete && i.naturalWidth") > 300
    for width in (390, 1280):  # with the answer in the page, the widest it gets
        _resize(browser, width, 900)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, (page, width)
        assert browser.execute_script("return document.body.scrollWidth") <= width, (page, width)
        full = browser.execute_script("return document.documentElement.scrollHeight")
        _resize(browser, width, min(max(full, 900), 5000))
        browser.save_screenshot(str(_artefacts() / f"{page}-{width}.png"))
    _resize(browser, 1280, 900)


_FOCUSABLE = """
return Array.from(document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]'))
  .filter(function (e) { return !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0; })
  .map(function (e) { return e.type === 'radio' ? 'radio:' + e.name : (e.id || e.name || e.outerHTML.slice(0, 80)); });
"""
_ACTIVE = ("var e = document.activeElement; return e.type === 'radio' ? 'radio:' + e.name : "
           "(e.id || e.name || e.outerHTML.slice(0, 80));")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("page", PAGES)
def test_tab_reaches_every_control(served: Server, browser: Any, page: str, width: int) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    _resize(browser, width, 900)
    browser.get(f"{served.url}/{page}")
    wanted = set(browser.execute_script(_FOCUSABLE))
    assert {"file" if page == "scoring" else "radio:mode" if page in ("deals", "dd", "suits") else "kind"} <= wanted
    reached: set[str] = set()
    for _ in range(len(wanted) * 2 + 5):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        reached.add(browser.execute_script(_ACTIVE))
    assert wanted <= reached, wanted - reached
    _resize(browser, 1280, 900)


@pytest.mark.skipif(not AXE.exists() and not os.environ.get("CI"),
                    reason="axe-core not installed: npm install (package.json)")
@pytest.mark.parametrize("page", ["", *PAGES])
def test_axe_finds_no_serious_violation(served: Server, browser: Any, page: str) -> None:
    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/{page}")
    if page:
        FILLS[page](browser)
        assert _submit_and_wait(browser) == "done"  # the answer too: tables, pictures, links
    browser.execute_script(AXE.read_text(encoding="utf-8"))
    browser.set_script_timeout(120)
    violations = browser.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(function (r) {"
        "  done(r.violations.map(function (v) { return [v.id, v.impact, v.nodes.length,"
        "    v.nodes.slice(0, 2).map(function (n) { return n.html.slice(0, 120); })]; })); });")
    serious = [v for v in violations if v[1] in ("serious", "critical")]
    assert serious == [], serious


def test_cancel_stops_a_long_job_within_a_second(served: Server, browser: Any) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/dd")
    _radio(browser, "makes")
    _type(browser, "contract", "3NT")
    _type(browser, "by", "S")
    _type(browser, "deals", "1000000")
    browser.find_element("css selector", "form.ask button[type=submit]").click()
    WebDriverWait(browser, 60, poll_frequency=0.05).until(lambda d: d.find_elements("id", "cancel"))
    WebDriverWait(browser, 60, poll_frequency=0.05).until(
        lambda d: d.execute_script("var p = document.getElementById('job-progress'); return p && p.value > 0"))
    started = time.monotonic()
    browser.find_element("id", "cancel").click()
    WebDriverWait(browser, 5, poll_frequency=0.02).until(
        lambda d: d.execute_script("var j = document.querySelector('.job');"
                                   "return j && j.getAttribute('data-state') === 'cancelled';"))
    assert time.monotonic() - started < 1.0
    assert "Cancelled" in browser.find_element("id", "job-message").text
