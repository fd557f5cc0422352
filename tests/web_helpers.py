"""The workbench under test: ``cardlab serve`` started as a user starts it (a subprocess on a free
port), and a small HTTP client for it. Used by tests/test_web_server.py and tests/test_web_browser.py
(and the poker pages' tests): ``from web_helpers import served`` and use the ``served`` fixture.

``served`` is module-scoped: one server per test module, stopped (and its job processes with it)
when the module ends.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

import cardlab

SRC = str(Path(cardlab.__file__).resolve().parents[1])


def free_port() -> int:
    """A TCP port free on the loopback address now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    """A running ``cardlab serve``: its address and process; :meth:`request` speaks HTTP to it
    (raw paths allowed, so traversal attempts reach the server as written)."""

    port: int
    process: subprocess.Popen[str]
    cookies: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """The address it prints."""
        return f"http://127.0.0.1:{self.port}"

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                keep_cookies: bool = True, timeout: float = 120) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, body) of one request; the session cookie kept across calls."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        sent = dict(headers or {})
        if keep_cookies and self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.putrequest(method, path, skip_host="Host" in sent, skip_accept_encoding=True)
            for key, value in sent.items():
                connection.putheader(key, value)
            if body is not None:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders()
            if body is not None:
                for start in range(0, len(body), 1 << 20):
                    connection.send(body[start:start + (1 << 20)])
            response = connection.getresponse()
            data = response.read()
            got = {k.lower(): v for k, v in response.getheaders()}
            for header, value in response.getheaders():
                if header.lower() == "set-cookie" and keep_cookies:
                    name, _, rest = value.partition("=")
                    self.cookies[name] = rest.split(";")[0]
            return response.status, got, data
        finally:
            connection.close()

    def get(self, path: str, **kw: Any) -> tuple[int, dict[str, str], bytes]:
        """GET ``path``."""
        return self.request("GET", path, **kw)

    def post_form(self, path: str, fields: dict[str, str], **kw: Any) -> tuple[int, dict[str, str], bytes]:
        """POST ``fields`` urlencoded, as a browser submits a form without files."""
        body = urllib.parse.urlencode(fields).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"}, **kw)

    def post_files(self, path: str, fields: dict[str, str], files: dict[str, tuple[str, bytes]],
                   **kw: Any) -> tuple[int, dict[str, str], bytes]:
        """POST ``fields`` and ``files`` (name -> (file name, bytes)) as multipart/form-data."""
        boundary = "----cardlabtest7MA4YWxkTrZu0gW"
        parts: list[bytes] = []
        for name, value in fields.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        for name, (filename, data) in files.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                         f"Content-Type: application/octet-stream\r\n\r\n".encode() + data + b"\r\n")
        parts.append(f"--{boundary}--\r\n".encode())
        return self.request("POST", path, b"".join(parts),
                            {"Content-Type": f"multipart/form-data; boundary={boundary}"}, **kw)


def start_server(*extra: str, env: dict[str, str] | None = None) -> Server:
    """``cardlab serve --port N`` as a subprocess; returns once it answers (or fails the test)."""
    port = free_port()
    environment = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env or {}))
    process = subprocess.Popen([sys.executable, "-m", "cardlab", "serve", "--port", str(port), *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    server = Server(port, process)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"cardlab serve exited {process.returncode}: {process.stderr.read() if process.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.1)
    stop_server(server)
    raise AssertionError("cardlab serve did not listen within 60 s")


def stop_server(server: Server) -> str:
    """Stop the server as Ctrl-C does; its stderr."""
    import signal

    if server.process.poll() is None:
        server.process.send_signal(signal.SIGINT)
        try:
            server.process.wait(15)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(5)
    return server.process.stderr.read() if server.process.stderr else ""


@pytest.fixture(scope="module")
def served() -> Iterator[Server]:
    """A ``cardlab serve`` for the test module (a subprocess on a free port)."""
    server = start_server()
    try:
        yield server
    finally:
        stop_server(server)
