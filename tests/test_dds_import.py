"""endplay's DDS imported without endplay's package __init__ (cardlab.bridge.dds_import): the
double-dummy commands skip matplotlib.pyplot, and endplay stays whole for anyone who asks more."""

from __future__ import annotations

import subprocess
import sys

_CODE = """
import io, sys, contextlib
from cardlab.cli.main import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    status = main(["bridge", "lead", "--hand", "AKQ2.T98.765.432", "--contract", "3NT", "--by", "S",
                   "-n", "3", "--seed", "1", "--format", "json"])
print(status, '"leads"' in out.getvalue(), "matplotlib.pyplot" in sys.modules, "endplay.dealer" in sys.modules)
import endplay
print(callable(endplay.generate_deal), "matplotlib.pyplot" in sys.modules)
namespace = {}
exec("from endplay import *", namespace)
print("Deal" in namespace and "calc_dd_table" in namespace and "generate_deals" in namespace)
from endplay.types import Deal
print(endplay.Deal is Deal)
"""


def test_the_dd_commands_skip_endplays_package_init_and_endplay_stays_whole() -> None:
    run = subprocess.run([sys.executable, "-c", _CODE], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:4] == ["0 True False False", "True True", "True", "True"], run.stdout


def test_nothing_is_done_when_endplay_is_already_imported() -> None:
    code = ("import endplay, sys; from cardlab.bridge.dds_import import light_endplay; before = sys.modules['endplay']; "
            "light_endplay(); print(sys.modules['endplay'] is before, hasattr(before, '__getattr__'))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.stdout.split() == ["True", "False"], (run.stdout, run.stderr)
