"""``cardlab serve``: start the workbench on this machine and print its address.

Registered from :data:`cardlab.cli.main.TOP_COMMANDS`; Starlette and uvicorn are imported only
when the server starts, so ``cardlab serve --help`` stays quick and needs no extra.
"""

from __future__ import annotations

import argparse
import ipaddress
import sys

from cardlab.cli.options import whole_number
from cardlab.errors import CardlabError

__all__ = ["register", "is_loopback", "DEFAULT_PORT", "DEFAULT_HOST"]

DEFAULT_PORT = 8765
DEFAULT_HOST = "127.0.0.1"


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``cardlab serve`` to the top level of the parser."""
    serve = subparsers.add_parser(
        "serve", help="the workbench: every question from a page in the browser (local server)",
        description="Start the cardlab workbench, a local web application (hand statistics, deals, "
                    "double dummy, suit play, scoring, poker) and print its address. It listens on "
                    "this machine only unless --host says otherwise. Needs: pip install 'cardlab[web]'. "
                    "See docs/workbench.md.")
    serve.add_argument("--port", type=whole_number(1, 65535), default=DEFAULT_PORT,
                       help=f"TCP port (default {DEFAULT_PORT})")
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help=f"address to listen on (default {DEFAULT_HOST}, this machine only; "
                            "0.0.0.0 lets anyone on the network use it)")
    serve.add_argument("--open", action="store_true", help="open the workbench in the web browser")
    serve.set_defaults(func=_serve)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (127.0.0.0/8, ::1, localhost).

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, True, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
        from cardlab.web.app import create_app
    except ImportError as missing:
        raise CardlabError(f"the workbench needs the web extra ({missing.name} is not installed): "
                           "pip install 'cardlab[web]'") from None
    loopback = is_loopback(args.host)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    address = f"http://{shown}:{args.port}/"
    app = create_app(loopback_only=loopback)
    print(f"cardlab workbench: {address} (Ctrl-C to stop)", flush=True)
    if not loopback:
        print(f"cardlab: warning: listening on {args.host}: anyone on the network who can reach this "
              "machine can use the workbench", file=sys.stderr, flush=True)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(0.8, webbrowser.open, args=(address.replace("0.0.0.0", "127.0.0.1"),)).start()
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    except SystemExit as stop:  # uvicorn exits 1 when the port is taken (its own message above)
        if stop.code:
            raise CardlabError(f"cannot listen on {args.host}:{args.port} (in use, or not an address of "
                               "this machine)") from None
    return 0
