"""Issue 32 in a real browser (headless Chromium through selenium, as tests/test_site_browser.py):
each page's form filled as a user fills it, submitted, and the figures shown compared with the
CLI's output for the same input; no horizontal scrolling at 390 and 1280 px; Tab reaches every
control; axe-core (package.json, installed by .ci/run's npm install) reports no serious or critical
violation; Cancel stops a long job within a second. Screenshots go to out/web-screenshots/.

Skipped only when Chromium or its driver is absent locally (CI installs both), and the axe test only
when node_modules/axe-core/axe.min.js is absent locally."""

from __future__ import annotations

import os
import re
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
PAGES = ["stats", "deals", "dd", "makes", "suits", "scoring", "pushfold", "icm", "casino", "solve"]
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


def _untimed(text: str) -> str:
    """``text`` without the solver's clock ("300 iterations in 0.01 s"): the figures must agree,
    the seconds are the machine's."""
    return re.sub(r"iterations in \d+(\.\d+)? s", "iterations in - s", text)


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


def _pushfold(driver: Any) -> list[str]:
    _type(driver, "hand", "A5o")
    _type(driver, "stack", "10")
    return ["poker", "pushfold", "--stack", "10"]


def _pushfold3(driver: Any) -> list[str]:
    _choose(driver, "players", "3")
    _type(driver, "hand", "K9o")
    return ["poker", "pushfold", "--stack", "10", "--players", "3"]


def _icm(driver: Any) -> list[str]:
    _type(driver, "stacks", "5000,3000,2000")
    _type(driver, "payouts", "50,30,20")
    _type(driver, "allin", "A:AsKs B:QQ")
    return ["poker", "icm", "5000,3000,2000", "--payouts", "50,30,20", "--allin", "A:AsKs B:QQ"]


def _casino(driver: Any) -> list[str]:
    _choose(driver, "game", "three-card-poker")
    return ["casino", "analyse", "three-card-poker"]


SPOT = ["--oop", "QQ+, AK, 76s", "--ip", "JJ-99, AQs, KQ", "--board", "Ks 9d 5c 2h 3s", "--pot", "10", "--stack", "50"]


def _solve(driver: Any) -> list[str]:
    for field, text in zip(("oop", "ip", "board", "pot", "stack"), SPOT[1::2]):
        _type(driver, field, text)
    _type(driver, "target", "0")  # a fixed number of iterations: the same figures as the CLI's on any machine
    _type(driver, "max_iterations", "200")
    return ["poker", "solve", *SPOT, "--target", "0", "--max-iterations", "200"]


def _compare(driver: Any) -> list[str]:  # the page's hands and contracts as they stand; few deals
    _type(driver, "deals", "16")
    _type(driver, "seed", "4")
    return ["bridge", "makes", "--contract", "3NT", "--contract", "4S", "--by", "S", "-n", "16", "--seed", "4",
            "--north-cards", "AK32.K54.A32.K32", "--south-cards", "QJ54.A32.K54.A54"]


FILLS: dict[str, Callable[[Any], list[str]]] = {"stats": _stats, "deals": _deals, "dd": _dd, "makes": _compare, "suits": _suits,
                                                "scoring": _scoring, "pushfold": _pushfold, "icm": _icm,
                                                "casino": _casino, "solve": _solve}


@pytest.mark.parametrize("page", PAGES)
def test_each_page_shows_the_cli_figures_and_fits(served: Server, browser: Any, page: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/{page}")
    argv = FILLS[page](browser)
    assert _submit_and_wait(browser) == "done"
    shown = _shown(browser)
    assert shown and _untimed(shown[0]) == _untimed(_cli(capsys, *argv))
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


# Issue 39: each answer's key figure, read from the page, against the CLI's JSON; in sight at
# phone width without scrolling sideways.
def _play(driver: Any) -> list[str]:
    _radio(driver, "play")
    _type(driver, "north", "AQ10")
    _type(driver, "south", "432")
    return ["bridge", "suitplay", "AQ10", "432"]


def _split(driver: Any) -> list[str]:
    _radio(driver, "split")
    _type(driver, "cards", "KJ54")  # typed over the default: the page's "cards missing" is empty
    return ["bridge", "split", "--cards", "KJ54"]


def _joint(driver: Any) -> list[str]:
    _choose(driver, "kind", "joint")
    return ["bridge", "joint", "--by", "longest"]


def _makes(driver: Any) -> list[str]:
    _radio(driver, "makes")
    _type(driver, "contract", "3NT,4S")
    _type(driver, "by", "S")
    _type(driver, "deals", "20")
    _type(driver, "seed", "3")
    return ["bridge", "makes", "--contract", "3NT", "--contract", "4S", "--by", "S", "-n", "20", "--seed", "3"]


def _equity(driver: Any) -> list[str]:  # the page's defaults as they stand
    return ["poker", "equity", "AsKs", "QQ+, AKo, AQs+"]


def _board(driver: Any) -> list[str]:
    _type(driver, "range", "JJ+, AQs+, 98s")
    _type(driver, "board", "Js Ts 2h")
    return ["poker", "board", "JJ+, AQs+, 98s", "--board", "Js Ts 2h"]


KEYS: dict[str, tuple[str, Callable[[Any], list[str]], Callable[[Any], str]]] = {
    "makes": ("dd", _makes, lambda j: f"{j['comparison']['imps']['mean']:+.2f}"),  # 3NT over 4S, first
    "scoring": ("scoring", _scoring, lambda j: f"{j['pairs'][0]['percentage']:.2f}"),
    "equity": ("poker-equity", _equity, lambda j: f"{j['players'][0]['equity']:.3%}"),
    "board": ("poker-board", _board, lambda j: f"{j['classes'][0]['probability']:.2%}"),
    "pushfold": ("pushfold", _pushfold, lambda j: "push" if "A5o" in j["push"] else "fold"),
    "pushfold3": ("pushfold", _pushfold3, lambda j: "push" if "K9o" in j["ranges"]["btn_push"] else "fold"),
    "icm": ("icm", _icm, lambda j: f"{j['equity'][0]:.4f}"),
    "casino": ("casino", _casino, lambda j: f"{j['bets'][0]['house_edge']:.4%}"),
    "solve": ("solve", _solve, lambda j: f"{j['exploitability_pct']:.4f}%"),
    "points": ("stats", _stats, lambda j: f"{j['rows'][0]['probability']:.6f}"),
    "joint": ("stats", _joint, lambda j: f"{j['rows'][0]['probability']:.6f}"),
    "dd": ("dd", _dd, lambda j: f"{j['par']['score']:+d}"),
    "play": ("suits", _play, lambda j: f"{j['targets'][0]['probability']:.2%}"),
    "split": ("suits", _split, lambda j: f"{j['rows'][0]['probability']:.2%}"),
}


def _fit(driver: Any, width: int, height: int = 900) -> None:
    """The viewport ``width`` wide: resized again while the window still reports the old size
    (reading innerWidth right after a resize can see the previous one and overcorrect)."""
    for _ in range(5):
        _resize(driver, width, height)
        time.sleep(0.1)
        if driver.execute_script("return window.innerWidth") == width:
            return
    raise AssertionError(f"the window would not take a {width} px viewport")


@pytest.mark.parametrize("question", list(KEYS))
def test_key_figure_equals_the_cli_and_is_in_sight(served: Server, browser: Any, question: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import json

    page, fill, figure = KEYS[question]
    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/{page}")
    argv = fill(browser)
    assert _submit_and_wait(browser) == "done"
    expected = figure(json.loads(_cli(capsys, *argv, "--format", "json")))
    for width in (390, 1280):
        _fit(browser, width)
        box = browser.execute_script(
            "var k = document.querySelector('[data-key]'); if (k.closest('details')) k.closest('details').open = true;"
            "k.scrollIntoView({block: 'center'}); var r = k.getBoundingClientRect();"
            "return [k.getAttribute('data-key'), k.textContent.trim(), r.left, r.right, r.width, window.innerWidth,"
            " document.documentElement.scrollWidth];")
        assert box[0] == box[1] == expected, (question, width, box)
        assert 0 <= box[2] and box[3] <= box[5] and box[4] > 0, (question, width, box)
        assert box[6] <= width, (question, width, box)
    _resize(browser, 1280, 900)


def test_hand_diagram_suits_are_coloured_and_named(served: Server, browser: Any) -> None:
    _resize(browser, 390, 900)
    browser.get(f"{served.url}/dd")
    _dd(browser)
    assert _submit_and_wait(browser) == "done"
    symbols = browser.execute_script(
        "return Array.from(document.querySelectorAll('.deal abbr.sym, .dd-grid abbr.sym')).map(function (a) {"
        "  return [a.className, a.getAttribute('title'), a.querySelector('.visually-hidden').textContent,"
        "          a.querySelector('[aria-hidden=true]').textContent, getComputedStyle(a).color]; });")
    assert len(symbols) == 16 + 5
    colours = {"s": ("♠", "spades", "rgb(26, 26, 26)"), "h": ("♥", "hearts", "rgb(176, 0, 32)"),
               "d": ("♦", "diamonds", "rgb(176, 0, 32)"), "c": ("♣", "clubs", "rgb(26, 26, 26)"),
               "nt": ("NT", "notrump", "rgb(26, 26, 26)")}
    for cls, title, name, symbol, colour in symbols:
        suit = cls.split()[-1]
        assert (symbol, title, colour) == colours[suit] and name == title
    # the four hands around the compass: North above South, West left of East
    where = browser.execute_script(
        "var r = {}; ['n','e','s','w'].forEach(function (s) { var b = document.querySelector('.hand-box.' + s)"
        ".getBoundingClientRect(); r[s] = [b.left, b.top, b.right]; }); return [r, window.innerWidth];")
    boxes, inner = where
    assert boxes["n"][1] < boxes["w"][1] < boxes["s"][1] and boxes["w"][0] < boxes["n"][0] < boxes["e"][0]
    assert max(b[2] for b in boxes.values()) <= inner
    _resize(browser, 1280, 900)


def test_forms_show_only_the_fields_of_the_question(served: Server, browser: Any) -> None:
    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/suits")
    shown = "return Array.from(document.querySelectorAll('form.ask input[type=text], form.ask select'))" \
            ".filter(function (e) { return e.getClientRects().length > 0; }).map(function (e) { return e.id; });"
    assert {"north", "south", "defence"} <= set(browser.execute_script(shown))
    assert "n" not in browser.execute_script(shown)
    _radio(browser, "split")
    assert set(browser.execute_script(shown)) == {"cards", "n", "vacant", "played"}
    browser.get(f"{served.url}/dd")
    assert set(browser.execute_script(shown)) == {"dealer", "vul"}  # and the deal's text box
    _radio(browser, "lead")
    assert {"contract", "by", "hand", "deals", "seed", "north"} <= set(browser.execute_script(shown))
    assert "dealer" not in browser.execute_script(shown)
    browser.get(f"{served.url}/stats")
    _choose(browser, "kind", "shape")
    assert set(browser.execute_script(shown)) == {"kind", "cards", "given", "shape", "simulate", "seed"}


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
    assert {"file" if page == "scoring" else "radio:mode" if page in ("deals", "dd", "suits") else
            "hand" if page == "pushfold" else "stacks" if page == "icm" else "game" if page == "casino" else
            "oop" if page == "solve" else "north_cards" if page == "makes" else "kind"} <= wanted
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


def _column(driver: Any, table: str, column: int) -> list[str]:
    texts: list[str] = driver.execute_script(
        "var c = arguments[1]; return Array.from(document.querySelectorAll('#' + arguments[0] + ' tbody tr')).map("
        "function (r) { return r.cells[c].textContent.trim(); });", table, column)
    return texts


def test_tables_sort_by_a_heading_button_and_say_so(served: Server, browser: Any,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 39: a table of figures sorts by any column from a button in its heading (Enter or a
    click), numbers as numbers, the heading's aria-sort saying which way; without the script the
    same table is in the page, in the command line's order."""
    import json

    from selenium.webdriver.common.keys import Keys

    status, _, raw = served.post_form("/stats", {"kind": "points"})
    assert status == 200 and b'id="figures" data-sortable>' in raw  # the table is there without the script
    _resize(browser, 390, 900)
    browser.get(f"{served.url}/stats")
    assert _submit_and_wait(browser) == "done"  # the answer brought in by the script: enhanced too
    cli = json.loads(_cli(capsys, "bridge", "hcp", "--format", "json"))
    by_value = [str(r["value"]) for r in cli["rows"]]
    assert _column(browser, "figures", 0) == by_value  # the command line's order at first
    buttons = browser.find_elements("css selector", "#figures thead th button.sort")
    assert [b.text.strip() for b in buttons][:2] == ["hcp", "probability"]
    buttons[1].send_keys(Keys.ENTER)  # reached and pressed from the keyboard
    heads = browser.find_elements("css selector", "#figures thead th")
    assert heads[1].get_attribute("aria-sort") == "ascending" and heads[0].get_attribute("aria-sort") is None
    ascending = [str(r["value"]) for r in sorted(cli["rows"], key=lambda r: (r["probability"], cli["rows"].index(r)))]
    assert _column(browser, "figures", 0) == ascending
    buttons[1].click()
    assert heads[1].get_attribute("aria-sort") == "descending"
    shown = _column(browser, "figures", 1)
    assert shown[0] == f"{max(r['probability'] for r in cli['rows']):.6f}" and shown == sorted(shown, key=float, reverse=True)
    assert _column(browser, "figures", 0)[0] == "10"  # 10 HCP is the likeliest count (9.41%, Goren)
    said = browser.execute_script("return document.querySelector('#figures + [role=status]').textContent")
    assert said == "sorted by probability, descending"
    buttons[0].click()
    assert _column(browser, "figures", 0) == sorted(by_value, key=int)  # 0 to 37 as numbers, not as text
    _resize(browser, 1280, 900)


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
    # issue 39: the deals solved before Cancel are shown, marked partial, as the CLI prints them after Ctrl-C
    WebDriverWait(browser, 5, poll_frequency=0.05).until(lambda d: d.find_elements("id", "partial-answer"))
    partial = browser.find_element("id", "partial-answer").text
    assert "Partial result" in partial and "deals were solved" in partial and "3NT by S" in partial


def test_solver_node_selector_reaches_a_river_card_of_a_turn_spot(served: Server, browser: Any,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44: a turn spot asked at its chance node, a river card chosen in "Another node" (a plain
    form: the page reloads with the same spot); the strategy there is the CLI's at that node."""
    import json

    from selenium.webdriver.support.ui import WebDriverWait

    spot = {"oop": "QQ+, AK, 76s", "ip": "JJ-99, AQs", "board": "Ks 9d 5c 2h", "pot": "10", "stack": "30",
            "oop_bet": "50%", "oop_raise": "", "ip_bet": "50%", "ip_raise": "", "target": "0", "max_iterations": "40"}
    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/solve")
    for field, text in {**spot, "node": "X,X"}.items():
        _type(browser, field, text)
    assert _submit_and_wait(browser) == "done"
    assert "the river card is dealt here" in browser.page_source
    _choose(browser, "node-choice", "X,X,Ad")
    browser.find_element("css selector", "form.nodes button[type=submit]").click()
    WebDriverWait(browser, 120, poll_frequency=0.1).until(lambda d: d.execute_script(
        "var j = document.querySelector('.job'); var t = document.querySelector('#strategy');"
        "return j && j.getAttribute('data-state') === 'done' && t !== null;"))
    argv = ["poker", "solve", *(x for k, v in spot.items() for x in (f"--{k.replace('_', '-')}", v)), "--node", "X,X,Ad"]
    cli = json.loads(_cli(capsys, *argv, "--format", "json"))
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('#strategy tbody tr')).map(function (r) {"
        " return Array.from(r.cells).map(function (c) { return c.textContent.trim(); }); });")
    actions = cli["actions"]
    assert [r[0] for r in rows] == [r["class"] for r in cli["rows"]] and cli["node"] == "X,X,Ad"
    for row, r in zip(rows, cli["rows"]):
        assert row[1:1 + len(actions)] == [f"{100 * r[a]:.1f}%" for a in actions]


def test_solver_page_sizes_per_street_lock_and_solve_file_as_the_cli(served: Server, browser: Any, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44: the solver's options typed in the page (sizes per street and donk bets, rake and its
    cap), then the answer's "Lock this node" pressed with the frequencies it
    offers, then the solve file downloaded and chosen again: each time the figures shown are the
    command's for the same spot (its clock aside), with --lock and --load."""
    import base64

    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    spot = {"oop": "QQ+, AK, 76s", "ip": "JJ-99, AQs", "board": "Ks 9d 5c 2h", "pot": "10", "stack": "30",
            "oop_bet": "50%", "oop_raise": "", "ip_bet": "50%", "ip_raise": "", "target": "0", "max_iterations": "40"}
    more = {"river_oop_bet": "75%", "river_ip_bet": "33%, a", "oop_donk": "25%", "rake": "0.05", "rake_cap": "1"}
    argv = ["poker", "solve", *(x for k, v in {**spot, **more}.items() for x in (f"--{k.replace('_', '-')}", v))]
    _resize(browser, 1280, 900)
    browser.get(f"{served.url}/solve")
    for field, text in spot.items():
        _type(browser, field, text)
    for field, text in more.items():
        _type(browser, field, text)
    assert _submit_and_wait(browser) == "done"
    assert _untimed(_shown(browser)[0]) == _untimed(_cli(capsys, *argv))
    memory = browser.find_element("id", "memory").text
    capsys.readouterr()
    main([*argv, "--memory-limit", "512", "--format", "json"])  # the page's limit
    assert capsys.readouterr().err.strip().removeprefix("cardlab: ") + "." in memory  # the command's line before the solve
    # lock the root (the node shown) at the frequencies the page offers
    lock = browser.find_element("id", "lock-node").get_attribute("value")
    assert lock.startswith("=X:") and ",B5:" in lock
    before = browser.find_element("css selector", ".job")
    browser.find_element("css selector", "form.lock button[type=submit]").click()
    WebDriverWait(browser, 60, poll_frequency=0.05).until(expected_conditions.staleness_of(before))  # the new page
    WebDriverWait(browser, 120, poll_frequency=0.1).until(lambda d: d.execute_script(
        "var j = document.querySelector('.job'); return j && j.getAttribute('data-state') === 'done';"))
    locked = [*argv, "--lock", lock]
    assert _untimed(_shown(browser)[0]) == _untimed(_cli(capsys, *locked))
    # the solve file: downloaded, then chosen in "A saved solve" with a node typed
    encoded = browser.execute_async_script(
        "var done = arguments[arguments.length - 1]; var a = document.querySelector('.downloads a[href$=\"solve.npz\"]');"
        "fetch(a.href, {credentials: 'same-origin'}).then(function (r) { return r.arrayBuffer(); }).then(function (b) {"
        " var s = ''; new Uint8Array(b).forEach(function (x) { s += String.fromCharCode(x); }); done(btoa(s)); });")
    saved = tmp_path / "spot.npz"
    saved.write_bytes(base64.b64decode(encoded))
    browser.get(f"{served.url}/solve")  # a fresh form: its answer is the file's, whatever the spot fields say
    _type(browser, "node", "X,B5,C,7c")
    browser.find_element("id", "file").send_keys(str(saved))
    assert _submit_and_wait(browser) == "done"
    assert "The saved solve spot.npz" in browser.find_element("id", "loaded").text
    assert _shown(browser)[0] == _cli(capsys, "poker", "solve", "--load", str(saved), "--node", "X,B5,C,7c")
    # the locked solve, read back: its root plays the lock
    assert _cli(capsys, "poker", "solve", "--load", str(saved)).endswith(_cli(capsys, *locked).split("\n\n")[1])
