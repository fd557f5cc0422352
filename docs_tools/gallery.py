"""Retake docs/gallery's screenshots of the workbench (docs/gallery.md): each page with an answer
shown, at 390 and 1280 px, the whole page, reduced to 128 colours.

Run: python docs_tools/gallery.py [NAME ...]   (default: every shot; needs Chromium, selenium and
Pillow). The forms are filled by the same steps as tests/test_web_browser.py. Look at each picture
before committing it (docs/gallery.md says what looking changed)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import test_web_blackjack_browser as blackjack_steps  # noqa: E402
import test_web_browser as steps  # noqa: E402
from test_site_browser import CHROMIUM, DRIVER, FLAGS, _resize  # noqa: E402
from web_helpers import start_server, stop_server  # noqa: E402

OUT = ROOT / "docs" / "gallery"


def _nothing(driver: Any) -> list[str]:
    return []


def _compare(driver: Any) -> list[str]:  # the Which contract? page as it opens, 100 deals to keep it short
    steps._type(driver, "deals", "100")
    steps._type(driver, "seed", "4")
    return []


def _stats(driver: Any) -> list[str]:  # sorted by probability, the likeliest first
    steps._stats(driver)
    return []


def _cancelled_solve(driver: Any) -> list[str]:
    """A long solve (target 0) asked, then cancelled after a few seconds: the partial solve shown."""
    import time

    from selenium.webdriver.support.ui import WebDriverWait

    steps._type(driver, "target", "0")
    steps._type(driver, "max_iterations", "1000000")
    driver.find_element("css selector", "form.ask button[type=submit]").click()
    WebDriverWait(driver, 60).until(lambda d: d.find_elements("id", "cancel"))
    time.sleep(5)
    driver.find_element("id", "cancel").click()
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(
        "var j = document.querySelector('.job'); return j && j.getAttribute('data-state') === 'cancelled';"))
    return []


def _turn_solve(driver: Any) -> list[str]:
    """The page's ranges on a turn board, shown after the turn checks through and the Ad comes."""
    steps._type(driver, "board", "Ks 9d 5c 2h")
    steps._type(driver, "node", "X,X,Ad")
    return []


def _options_solve(driver: Any) -> list[str]:
    """A turn spot with the options the command takes: river sizes, a donk size, rake and its cap,
    OOP's root locked at half and half; shown where OOP may donk (after calling the turn bet)."""
    fields = {"oop": "QQ+, AK, 76s", "ip": "JJ-99, AQs", "board": "Ks 9d 5c 2h", "stack": "30", "oop_bet": "50%",
              "oop_raise": "", "ip_bet": "50%", "ip_raise": "", "river_oop_bet": "75%", "river_ip_bet": "33%, a",
              "oop_donk": "25%", "rake": "0.05", "rake_cap": "1", "lock": "=X:0.5,B5:0.5", "node": "X,B5,C,7c"}
    for field, text in fields.items():
        steps._type(driver, field, text)
    return []


def _count_one_deck(driver: Any) -> list[str]:
    """One deck with the Hi-Lo count's figures and the effects of removal (about a minute)."""
    steps._type(driver, "decks", "1")
    steps._type(driver, "count", "hi-lo")
    return []


# name: (page, how to fill it, whether to ask, what to do with the answer)
SHOTS: dict[str, tuple[str, Callable[[Any], list[str]], bool, str]] = {
    "index": ("", _nothing, False, ""),
    "stats": ("stats", _stats, True, "#figures thead th:nth-child(2) button.sort"),
    "makes": ("dd", steps._makes, True, ""),
    "compare": ("makes", _compare, True, ""),
    "pushfold": ("pushfold", steps._pushfold, True, ""),
    "pushfold3": ("pushfold", steps._pushfold3, True, ""),
    "solve": ("solve", steps._solve, True, ""),
    "solve-cancelled": ("solve", _cancelled_solve, False, ""),
    "solve-turn": ("solve", _turn_solve, True, ""),
    "solve-options": ("solve", _options_solve, True, ""),
    "casino": ("casino", steps._casino, True, ""),
    "blackjack": ("blackjack", blackjack_steps.fill_blackjack, True, ""),
    "blackjack-count": ("blackjack", _count_one_deck, True, ""),
    "blackjack-shoe": ("blackjack-shoe", blackjack_steps.fill_shoe, True, ""),
    "api": ("api", _nothing, False, ""),
}


def _shoot(driver: Any, name: str, width: int) -> None:
    from PIL import Image

    _resize(driver, width, 900)
    full = driver.execute_script("return document.documentElement.scrollHeight")
    _resize(driver, width, min(max(full, 900), 8000))
    driver.execute_script("window.scrollTo(0, 0)")  # an answer brought in by the script scrolled to it
    path = OUT / f"{name}-{width}.png"
    driver.save_screenshot(str(path))
    Image.open(path).convert("RGB").quantize(128).save(path, optimize=True)
    _resize(driver, width, 900)
    print(f"{path.relative_to(ROOT)}")


def main(names: list[str]) -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="cardlab-gallery-")
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    server = start_server()
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        for name in names or list(SHOTS):
            page, fill, ask, then = SHOTS[name]
            _resize(driver, 1280, 900)
            driver.get(f"{server.url}/{page}")
            fill(driver)
            if ask:
                assert steps._submit_and_wait(driver, 600) == "done", name
            if then:
                driver.find_element("css selector", then).click()
                driver.find_element("css selector", then).click()  # descending: the likeliest first
            for width in (390, 1280):
                _shoot(driver, name, width)
    finally:
        driver.quit()
        stop_server(server)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
