"""The results site in a real browser (headless Chromium), at a phone's and a desktop's width.

Skipped only when Chromium or its driver is not installed; CI installs both (.ci/run).
Screenshots go to ``out/site-screenshots/`` (or ``$CARDLAB_ARTEFACTS``) for a person to look at.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from extras import needs

from cardlab.cli.main import main

from site_helpers import HANDS_FILE

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]
SIZES = [(390, 800), (1280, 900)]

pytestmark = [pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)) and not os.environ.get("CI"),  # CI must run it
    reason=f"Chromium not installed ({CHROMIUM}, {DRIVER}): apt-get install chromium chromium-driver",
), needs("selenium", "slow")]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the test session (10 boards, Mitchell, with hands and their double-dummy tables)."""
    out = tmp_path_factory.mktemp("site")
    assert main(["bridge", "score", str(HANDS_FILE), "--format", "html", "-o", f"{out}/"]) == 0
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="cardlab-chromium-")
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _artefacts() -> Path:
    root = Path(os.environ.get("CARDLAB_ARTEFACTS", Path(__file__).parents[1] / "out"))
    path = root / "site-screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _resize(driver: Any, width: int, height: int) -> None:
    driver.set_window_rect(width=width, height=height)
    inner = driver.execute_script("return window.innerWidth")
    if inner != width:  # window decorations: make the viewport itself the size asked
        driver.set_window_rect(width=2 * width - inner, height=height)


def _shoot(driver: Any, name: str, width: int, height: int) -> None:
    """A screenshot of the whole page (the window grown to the page's height, then restored)."""
    full = driver.execute_script("return document.documentElement.scrollHeight")
    _resize(driver, width, min(max(full, height), 6000))
    driver.save_screenshot(str(_artefacts() / f"{name}-{width}.png"))
    _resize(driver, width, height)


_RIGHT_EDGES = """
const out = [];
for (const cell of document.querySelectorAll(arguments[0])) {
  const box = cell.getBoundingClientRect();
  const style = getComputedStyle(cell);
  if (style.display !== 'none') out.push([cell.textContent.trim(), box.left, box.right]);
}
return out;
"""


@pytest.mark.parametrize("width, height", SIZES)
def test_ranking_figures_fit_and_links_lead_to_the_hand_record(
        site: Path, browser: Any, width: int, height: int) -> None:
    from selenium.webdriver.common.by import By

    _resize(browser, width, height)
    assert browser.execute_script("return window.innerWidth") == width
    browser.get((site / "index.html").as_uri())
    _shoot(browser, "index", width, height)
    # every figure of the ranking (place, pair, names, %) inside the viewport width
    cells = browser.execute_script(
        _RIGHT_EDGES, "table.ranking td.place, table.ranking td.pair, table.ranking td.names, "
                      "table.ranking td.pct")
    assert len(cells) == 4 * 10
    for text, left, right in cells:
        assert 0 <= left and right <= width, (text, left, right, width)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width

    # ranking -> the winner's scorecard (EW field's first pair)
    rows = browser.find_elements(By.CSS_SELECTOR, "table.ranking tbody tr")
    ew_first = rows[5]
    place_pct = ew_first.find_element(By.CSS_SELECTOR, "td.pct").text
    ew_first.find_element(By.CSS_SELECTOR, "td.pair a").click()
    assert browser.current_url.endswith("/pair-ew-1.html")
    _shoot(browser, "scorecard", width, height)
    assert browser.find_element(By.CSS_SELECTOR, "tfoot .total-pct").text == place_pct
    total_mp = browser.find_element(By.CSS_SELECTOR, "tfoot .total").text
    summary = browser.find_element(By.CSS_SELECTOR, ".summary").text
    assert f"{place_pct}%" in summary and f"{total_mp} MP" in summary
    points = [float(td.text) for td in browser.find_elements(
        By.CSS_SELECTOR, "table.scorecard tbody tr td:nth-last-child(2)") if td.text]
    assert sum(points) == pytest.approx(float(total_mp), abs=0.01 * len(points))
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width

    # scorecard -> board 3 -> its hand record, and back to the traveller
    browser.find_element(By.LINK_TEXT, "3").click()
    assert browser.current_url.endswith("/board-3.html")
    _shoot(browser, "board", width, height)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    traveller = browser.execute_script(_RIGHT_EDGES, "table.traveller td")
    assert traveller and all(right <= width for _, _, right in traveller)
    browser.find_element(By.CSS_SELECTOR, "a.handlink").click()
    assert browser.current_url.endswith("/hands.html#b3")
    record = browser.find_element(By.ID, "b3")
    assert "Board 3" in record.text and "Double-dummy tricks" in record.text
    _shoot(browser, "hands", width, height)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    record.find_element(By.CSS_SELECTOR, "a.back").click()
    assert browser.current_url.endswith("/board-3.html")


def test_no_request_leaves_the_site(site: Path, browser: Any) -> None:
    _resize(browser, 1280, 900)
    for page in ("index.html", "pair-ns-4.html", "board-5.html", "hands.html"):
        browser.get((site / page).as_uri())
        urls = browser.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)")
        assert not [u for u in urls if not u.startswith("file:")], urls
        styled = browser.execute_script(  # the one stylesheet, beside the page, applied
            "return getComputedStyle(document.querySelector('header.site')).borderBottomStyle")
        assert styled == "solid"


def test_hand_records_print_two_boards_an_a4_page(site: Path, browser: Any) -> None:
    import base64

    from selenium.webdriver.common.print_page_options import PrintOptions

    browser.get((site / "hands.html").as_uri())
    options = PrintOptions()
    options.page_width, options.page_height = 21.0, 29.7  # A4, in cm
    pdf = base64.b64decode(browser.print_page(options))
    (_artefacts() / "hands-print.pdf").write_bytes(pdf)
    pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
    assert pages == 5  # 10 boards, two a page
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        _shoot(browser, "hands-print", 794, 1123)  # A4 at 96 dpi, as the printer sees it
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
