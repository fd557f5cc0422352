"""A Bridgemate .bws uploaded to the workbench's scoring page (``cardlab serve``): scored as
``cardlab bridge score FILE.bws`` scores it, a damaged or oversized file named in one message,
the file's own name shown (never ``<bytes>``); through the server and in a real browser."""

from __future__ import annotations

import html
import os
import re
import shutil
from pathlib import Path

import pytest

from cardlab.cli.main import main
from test_site_browser import CHROMIUM, DRIVER, browser  # noqa: F401  (browser: the fixture)
from test_web_browser import _shown, _submit_and_wait
from web_helpers import Server, served  # noqa: F401  (served: the fixture)

pytest.importorskip("access_parser")

SAMPLE = Path(__file__).parent / "data" / "12tables1section.bws"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out.rstrip()


def _finished(server: Server, body: bytes) -> bytes:
    from test_web_server import _finished as finished

    return finished(server, body)


def _message(body: bytes) -> str:
    found = re.search(rb'class="message" role="alert"[^>]*>(.*?)</p>', body, re.S)
    assert found, body[:3000]
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1).decode()))


def _pre(body: bytes) -> list[str]:
    return [html.unescape(m).rstrip()
            for m in re.findall(r'<pre class="cli"[^>]*>(.*?)</pre>', body.decode(), re.S)]


def test_the_page_scores_a_bws_as_the_cli(tmp_path, capsys):
    """In process: the answer's ranking is the CLI's, character for character, under the
    upload's own name; the check gives the CLI's reason (a .bws states no matchpoints)."""
    from cardlab.web.pages import scoring

    copy = tmp_path / "tuesday.bws"
    shutil.copyfile(SAMPLE, copy)
    answer = scoring.compute(lambda *a: None, data=SAMPLE.read_bytes(), name="tuesday.bws",
                             method=None, scale=None, movement=None, title=None)
    assert answer.figures["ranking"].rstrip() == _cli(capsys, "bridge", "score", str(copy))
    assert answer.figures["ranking"].startswith("tuesday - Howell, 24 boards")
    assert answer.html.count("<caption>Board ") == 24 and "<bytes>" not in answer.html
    assert set(answer.downloads) == {"ranking.txt", "ranking.csv", "site.zip"}


def test_a_bws_upload_through_the_server(served: Server, capsys) -> None:
    status, _, body = served.post_files("/scoring", {"method": "file", "scale": "file",
                                                     "movement": "detect"},
                                        {"file": (SAMPLE.name, SAMPLE.read_bytes())})
    assert status == 200, body[:3000]
    body = _finished(served, body)
    assert _pre(body)[0] == _cli(capsys, "bridge", "score", str(SAMPLE))
    assert body.count(b"<caption>Board ") == 24


@pytest.mark.parametrize("name, data, expected", [
    ("tuesday.bws", SAMPLE.read_bytes()[:100_000], "tuesday.bws: the database is cut short "
     "(100,000 bytes is not a whole number of 2,048-byte pages)"),
    ("tuesday.bws", SAMPLE.read_bytes()[:8192], "tuesday.bws: the database's catalog does not "
     "parse"),
    ("huge.bws", SAMPLE.read_bytes()[:2048] + bytes(21 * 1024 * 1024),
     "the upload is larger than the limit of 20 MB"),
])
def test_a_damaged_or_oversized_bws_gives_one_message(served: Server, name: str, data: bytes,
                                                      expected: str) -> None:
    status, _, body = served.post_files("/scoring", {"method": "file"}, {"file": (name, data)})
    body = _finished(served, body)
    message = _message(body)
    assert expected in message, message
    assert "<bytes>" not in message
    assert b"Traceback" not in body and b'File "' not in body


@pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER))
                    and not os.environ.get("CI"), reason=f"Chromium not installed ({CHROMIUM})")
def test_a_bws_chosen_in_the_browser(served: Server, browser, capsys) -> None:  # noqa: F811
    pytest.importorskip("selenium")
    browser.get(f"{served.url}/scoring")
    browser.find_element("id", "file").send_keys(str(SAMPLE))
    assert _submit_and_wait(browser) == "done"
    assert _shown(browser)[0] == _cli(capsys, "bridge", "score", str(SAMPLE))
