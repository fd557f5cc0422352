"""The workbench's poker pages in a real browser (headless Chromium through selenium), against a
``cardlab serve`` started as a user starts it: each form filled as a person fills it (typing,
clicking the range grid, the keyboard), the figures on the page compared with what the command
line prints for the same question, at a phone's and a desktop's width, and axe-core run in the page.

Skipped only when Chromium or its driver is not installed (CI installs both, .ci/run); the
accessibility check needs axe-core from the npm registry (``npm install axe-core``: looked for in
``$CARDLAB_AXE``, ``node_modules/`` of the repository, then ``/tmp/*/node_modules``).
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from extras import needs

from cardlab.cli.main import main
from cardlab.web.pages.poker import range_cells
from cardlab.poker.ranges import class_label

from test_site_browser import CHROMIUM, DRIVER, _resize
from test_web_browser import _ACTIVE, _FOCUSABLE, AXE, _artefacts, browser  # noqa: F401  (browser: the fixture)
from web_helpers import served  # noqa: F401  (the module's server)


pytestmark = [pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)) and not os.environ.get("CI"),
    reason=f"Chromium not installed ({CHROMIUM}, {DRIVER}): apt-get install chromium chromium-driver",
), needs("selenium", "slow")]


def _cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    capsys.readouterr()
    assert main([*argv, "--format", "json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def _wait(driver: Any, script: str, seconds: float = 120) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for: {script}")


def _answer(driver: Any, selector: str, seconds: float = 180) -> None:
    """Wait for the job's answer (swapped in by the page's script) to show ``selector``."""
    _wait(driver, f"return document.querySelector({selector!r}) || document.querySelector('.answer .message')",
          seconds)
    message = driver.execute_script("var m = document.querySelector('.answer .message, #form-message');"
                                    "return m ? m.textContent : null")
    assert message is None, message


def _type(driver: Any, element_id: str, text: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    box = driver.find_element(By.ID, element_id)
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.DELETE)
    if text:
        box.send_keys(text)


def _grid_ready(driver: Any) -> None:
    _wait(driver, "var g = document.querySelector('.range-grid'); return g && g.getAttribute('data-state')", 30)


def _cell(driver: Any, label: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f".range-grid td[data-label='{label}']")


def _no_sideways_scroll(driver: Any, width: int) -> None:
    assert driver.execute_script("return document.documentElement.scrollWidth") <= width


def _axe(driver: Any) -> list[dict[str, Any]]:
    if not AXE.exists():
        if os.environ.get("CI"):
            raise AssertionError("axe-core is not installed: npm install (package.json)")
        return []
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    driver.set_script_timeout(120)
    result = driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(function (r) { done(r.violations.map("
        "function (v) { return {id: v.id, impact: v.impact, nodes: v.nodes.map(function (n) { return n.html; })"
        ".slice(0, 3)}; })); });")
    serious = [v for v in result if v["impact"] in ("serious", "critical")]
    return serious


# --- the equity page --------------------------------------------------------------------------

def test_equity_from_grid_clicks_equals_the_cli(served: Any, browser: Any, capsys: Any) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _resize(browser, 1280, 900)
    browser.get(served.url + "/poker-equity")
    _grid_ready(browser)
    _type(browser, "player1", "AhKh")
    _type(browser, "player2", "")
    Select(browser.find_element(By.ID, "grid-picker")).select_by_value("player2")
    _wait(browser, "return document.querySelectorAll('.range-grid td.on').length === 0")
    for label in ("AA", "KK", "QQ", "AKs"):
        _cell(browser, label).click()
    assert browser.find_element(By.ID, "player2").get_attribute("value") == "QQ+, AKs"
    _type(browser, "board", "Kd 7c 2s")
    browser.find_element(By.CSS_SELECTOR, "form.ask button[type=submit]").click()
    _answer(browser, "#equity-table")
    shown = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#equity-table td.eq")]
    wins = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#equity-table td.wins")]
    cli = _cli_json(capsys, "poker", "equity", "AhKh", "QQ+, AKs", "--board", "Kd 7c 2s")
    assert shown == [f"{p['equity']:.3%}" for p in cli["players"]]
    assert wins == [f"{p['wins']:,}" for p in cli["players"]]
    grid = {td.get_attribute("data-label"): td.text for td in
            browser.find_elements(By.CSS_SELECTOR, "#equity-grid td.in")}
    assert set(grid) == {"AA", "KK", "QQ", "AKs"}
    # the form kept what was asked, and the grid shows it again
    _grid_ready(browser)
    assert browser.find_element(By.ID, "player2").get_attribute("value") == "QQ+, AKs"
    full = browser.execute_script("return document.documentElement.scrollHeight")
    _resize(browser, 1280, min(max(full, 900), 4000))
    browser.save_screenshot(str(_artefacts() / "poker-equity-1280.png"))  # docs/workbench-poker-equity.png
    _resize(browser, 1280, 900)
    _no_sideways_scroll(browser, 1280)
    assert _axe(browser) == []
    _resize(browser, 390, 900)
    _no_sideways_scroll(browser, 390)
    _resize(browser, 1280, 900)


def test_text_fills_the_grid_and_the_keyboard_edits_it(served: Any, browser: Any) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    _resize(browser, 390, 900)
    browser.get(served.url + "/poker-equity")
    _grid_ready(browser)
    _type(browser, "player2", "A5s-A2s, 0.5(KQo), AhKh")
    _wait(browser, "return document.querySelector(\".range-grid td[data-label='A3s']\").classList.contains('on')", 30)
    on = {td.get_attribute("data-label") for td in browser.find_elements(By.CSS_SELECTOR, ".range-grid td.on")}
    part = {td.get_attribute("data-label") for td in browser.find_elements(By.CSS_SELECTOR, ".range-grid td.part")}
    assert on == {"A5s", "A4s", "A3s", "A2s", "KQo"} and part == {"AKs"}
    assert _cell(browser, "AKs").get_attribute("aria-selected") == "true"
    assert "1 of 4 combos" in _cell(browser, "AKs").get_attribute("aria-label")
    assert "weight 0.5" in _cell(browser, "KQo").get_attribute("aria-label")
    status = browser.find_element(By.CSS_SELECTOR, ".range-grid-status").text
    assert status == f"{range_cells('A5s-A2s, 0.5(KQo), AhKh')['combos']} combos"
    # a range that does not read: the parser's message, under the grid
    _type(browser, "player2", "QQ++")
    _wait(browser, "return document.querySelector('.range-grid').getAttribute('data-state') === 'error'", 30)
    assert "QQ++" in browser.find_element(By.CSS_SELECTOR, ".range-grid-status").text
    # keyboard only: Tab into the grid (one stop), arrows, Space and Enter
    _type(browser, "player2", "")
    _wait(browser, "return document.querySelector('.range-grid').getAttribute('data-state') === 'ready' && "
                   "document.querySelectorAll('.range-grid td.on, .range-grid td.part').length === 0", 30)
    browser.find_element(By.ID, "grid-picker").send_keys(Keys.TAB)
    focused = browser.switch_to.active_element
    assert focused.get_attribute("data-label") == "AA"
    assert browser.execute_script("return getComputedStyle(document.activeElement).outlineStyle") != "none"
    focused.send_keys(Keys.SPACE)                      # AA
    focused.send_keys(Keys.ARROW_RIGHT)                # AKs
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    browser.switch_to.active_element.send_keys(Keys.ARROW_DOWN, Keys.ARROW_LEFT)  # AKo
    browser.switch_to.active_element.send_keys(Keys.SPACE)
    assert browser.switch_to.active_element.get_attribute("data-label") == "AKo"
    assert browser.find_element(By.ID, "player2").get_attribute("value") == "AA, AK"
    _no_sideways_scroll(browser, 390)


def test_grid_text_reads_back_as_the_same_classes(served: Any, browser: Any) -> None:  # noqa: F811
    """The grid's compact text (written by the page's script) read by the library's parser gives
    back exactly the classes clicked, for many random sets."""
    browser.get(served.url + "/poker-board")
    _grid_ready(browser)
    rng = random.Random(32)
    for trial in range(60):
        share = rng.choice([0.05, 0.2, 0.5, 0.9])
        chosen = sorted({class_label(i) for i in range(169) if rng.random() < share} or {"AA"})
        text = browser.execute_script(
            "return CardlabRangeGrid.rangeText(arguments[0].map(function (l) {"
            "return {label: l, n: 1, of: 1, weight: 1, combos: null}; }))", chosen)
        cells = range_cells(text)
        assert cells["error"] is None, (text, cells["error"])
        back = sorted(c["label"] for c in cells["cells"] if c["n"])
        assert back == chosen and all(c["n"] == c["of"] for c in cells["cells"] if c["n"]), text
        assert len(text) <= 4 * len(chosen) + 2 * len(chosen)  # compact: never longer than the classes listed


# --- board statistics ---------------------------------------------------------------------------

@pytest.mark.parametrize("width", [390, 1280])
def test_board_page_equals_the_cli(served: Any, browser: Any, capsys: Any, width: int) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    _resize(browser, width, 900)
    browser.get(served.url + "/poker-board")
    _grid_ready(browser)
    _type(browser, "range", "JJ+, AQs+, 98s")
    _type(browser, "board", "Js Ts 2h")
    browser.find_element(By.CSS_SELECTOR, "form.ask button[type=submit]").click()
    _answer(browser, "#board-table")
    rows = {tr.get_attribute("data-class"): (tr.find_element(By.CSS_SELECTOR, ".combos").text,
                                             tr.find_element(By.CSS_SELECTOR, ".share").text)
            for tr in browser.find_elements(By.CSS_SELECTOR, "#board-table tr[data-class]")}
    cli = _cli_json(capsys, "poker", "board", "JJ+, AQs+, 98s", "--board", "Js Ts 2h")
    assert rows == {c["name"]: (f"{c['combos']:,}", f"{c['probability']:.2%}") for c in cli["classes"]}
    # issue 39: choosing a class lights up the hands that make it in the grid (CSS :target, no script)
    browser.find_element(By.CSS_SELECTOR, "#board-table a[href='#cat-three-of-a-kind']").click()
    lit = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board-grid td')).filter(function (td) {"
        "  return getComputedStyle(td).backgroundColor === 'rgb(29, 92, 71)'; }).map(function (td) {"
        "  return td.getAttribute('data-label'); });")
    assert lit == ["JJ"]  # the one set on Js Ts 2h: JJ+ holds no TT or deuces
    _no_sideways_scroll(browser, width)
    assert _axe(browser) == []


# --- video poker ------------------------------------------------------------------------------

def test_video_page_equals_the_cli_and_a_bad_upload_gets_a_message(served: Any, browser: Any, capsys: Any,
                                                                    tmp_path: Path) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _resize(browser, 390, 900)
    browser.get(served.url + "/video-poker")
    Select(browser.find_element(By.ID, "paytable")).select_by_value("jacks-or-better-8-5")
    browser.find_element(By.CSS_SELECTOR, "form.ask button[type=submit]").click()
    _answer(browser, "#video-table", 300)
    cli = _cli_json(capsys, "poker", "video", "jacks-or-better-8-5")
    assert browser.find_element(By.CSS_SELECTOR, "#video-figures .return").text == f"{100 * cli['return']:.4f}%"
    counts = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#video-table tbody td.count")]
    assert counts == [f"{r['count']:,}" for r in cli["outcomes"]]
    assert browser.find_element(By.CSS_SELECTOR, ".answer img.plot").get_attribute("alt")
    _no_sideways_scroll(browser, 390)
    assert _axe(browser) == []
    # binary garbage as a pay table: the reader's message on the page, no trace
    garbage = tmp_path / "garbage.toml"
    garbage.write_bytes(bytes(range(256)) * 8)
    browser.get(served.url + "/video-poker")
    browser.find_element(By.ID, "paytable_file").send_keys(str(garbage))
    browser.find_element(By.CSS_SELECTOR, "form.ask button[type=submit]").click()
    message = _wait(browser, "var m = document.querySelector('.message'); return m && m.textContent", 60)
    assert "garbage.toml: not a text file" in message and "Traceback" not in browser.page_source


def test_trainer_deals_and_judges_a_hold_as_the_cli(served: Any, browser: Any, capsys: Any) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    _resize(browser, 390, 900)
    browser.get(served.url + "/video-trainer")
    _type(browser, "seed", "2026")
    browser.find_element(By.CSS_SELECTOR, "form.ask button[type=submit]").click()
    _answer(browser, "#hold-form")
    hand = browser.find_element(By.CSS_SELECTOR, "#hold-form .hand-text").text
    assert len(hand.split()) == 5
    browser.find_element(By.CSS_SELECTOR, "label[for=hold0]").click()  # hold the first card alone
    browser.find_element(By.ID, "check").click()
    _answer(browser, "#holds-table")
    cli = _cli_json(capsys, "poker", "video", "jacks-or-better-9-6", "--hand", hand)
    holds = [(tr.find_element(By.CSS_SELECTOR, ".hold-text").text, tr.find_element(By.CSS_SELECTOR, ".ev").text)
             for tr in browser.find_elements(By.CSS_SELECTOR, "#holds-table tbody tr")]
    assert holds == [(h["hold"] or "(draw five)", f"{h['ev']:.6f}") for h in cli["holds"]]
    mine = hand.split()[0]
    ev = {h["hold"]: h["ev"] for h in cli["holds"]}
    best = cli["holds"][0]["ev"]
    verdict = browser.find_element(By.ID, "verdict").text
    if ev[mine] == best:
        assert verdict.startswith("Best hold.")
    else:
        assert f"cost {best - ev[mine]:.6f} per coin" in verdict
    assert browser.find_element(By.CSS_SELECTOR, "#holds-table tr.mine .hold-text").text == mine
    _no_sideways_scroll(browser, 390)
    assert _axe(browser) == []
    browser.find_element(By.ID, "next-hand").click()
    _answer(browser, "#hold-form")
    assert "(seed 2027)" in browser.find_element(By.CSS_SELECTOR, "#hold-form legend").text


def test_a_long_simulation_shows_progress_and_cancels(served: Any, browser: Any) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    _resize(browser, 1280, 900)
    browser.get(served.url + "/poker-equity")
    _type(browser, "player1", "random")
    _type(browser, "player2", "random")
    browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=simulate]").click()
    _type(browser, "trials", "100000000")
    browser.find_element(By.CSS_SELECTOR, "form.ask button[type=submit]").click()
    _wait(browser, "var p = document.getElementById('job-progress'); return p && p.value > 0", 120)
    # Cancel as the button does (a POST), timed in the page: the server answers once the job's
    # process has ended, or after 1.5 s with the job still running
    browser.set_script_timeout(30)
    state, milliseconds = browser.execute_async_script(
        "var done = arguments[arguments.length - 1], id = document.querySelector('.job').getAttribute('data-job');"
        "var t = performance.now();"
        "fetch('/jobs/' + id + '/cancel', {method: 'POST', headers: {'Accept': 'application/json'}})"
        ".then(function (r) { return r.json(); }).then(function (s) { done([s.state, performance.now() - t]); });")
    assert state == "cancelled" and milliseconds < 1500, (state, milliseconds)
    _wait(browser, "var j = document.querySelector('.job'); return j && j.getAttribute('data-state') === 'cancelled'", 10)
    assert "Cancelled" in browser.find_element(By.ID, "job-message").text


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("page", ["poker-equity", "poker-board", "pushfold", "video-poker", "video-trainer"])
def test_tab_reaches_every_control(served: Any, browser: Any, page: str, width: int) -> None:  # noqa: F811
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    _resize(browser, width, 900)
    browser.get(f"{served.url}/{page}")
    if page.startswith("poker"):
        _grid_ready(browser)
    controls = browser.execute_script(_FOCUSABLE)
    wanted = set(controls)
    grid_stops = [c for c in controls if 'data-label="' in c]
    assert len(grid_stops) == (1 if page.startswith("poker") else 0)  # the grid: one Tab stop
    reached: set[str] = set()
    for _ in range(len(controls) * 2 + 5):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        reached.add(browser.execute_script(_ACTIVE))
    assert wanted <= reached, wanted - reached
    _resize(browser, 1280, 900)


def test_hostile_requests_to_the_poker_pages_get_messages(served: Any) -> None:  # noqa: F811
    """Over HTTP, as a script would send them: a huge range to the grid's endpoint, an unknown
    game, binary garbage and an oversized file as the trainer's pay table, a hold of no card."""
    status, _, body = served.get("/poker-equity/range?range=" + "A" * 5000 + "&game=holdem")
    assert status == 200 and "at most 2,000 characters" in json.loads(body)["error"]
    status, _, body = served.get("/poker-equity/range?range=QQ%2B&game=omaha")
    assert "hold'em and short deck" in json.loads(body)["error"]
    status, _, body = served.get("/poker-equity/range?range=QQ%2B%2B")
    assert "QQ++" in json.loads(body)["error"]
    status, _, body = served.post_files("/video-trainer", {"action": "deal"},
                                        {"paytable_file": ("x.toml", bytes(range(256)) * 4)})
    assert status == 400 and b"x.toml: not a text file" in body and b"Traceback" not in body
    status, _, body = served.post_files("/video-trainer", {"action": "deal"},
                                        {"paytable_file": ("big.toml", b"#" * 70_000)})
    assert status == 400 and b"a pay table file is at most 65,536" in body
    status, _, body = served.post_form("/poker-equity", {"player1": "AsAh", "player2": "KK", "mode": "simulate",
                                                         "trials": "1e30"})
    assert status == 400 and b"boards to simulate: expected a whole number" in body
