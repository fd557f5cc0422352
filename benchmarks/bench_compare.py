"""``bridge compare`` (two strategies) against a plain endplay loop that solves each deal's full table.

Run: python benchmarks/bench_compare.py [DEALS] [--rounds 3]   (default 200 deals; issue 41's goal
is stated for 1,000)

Goal of issue 41: a two-strategy comparison over 1,000 deals >= 2x a plain endplay loop that
solves every deal's full table once (``calc_all_tables``, every strain, 40 deals a call) and
reads the two contracts' tricks from it. Whole processes, alternately, on the same random deals
(cardlab reads them from a PBN file); both must find the same tricks (the sums of declarer's
tricks in 4S by N and in 3NT by N). Wall and CPU medians are printed with the load average
(bench_dd.py's ``_alternate``).
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_dd import _alternate  # noqa: E402  (the one alternating timer of the double-dummy benchmarks)

_PLAIN_LOOP = r"""
import sys
import numpy as np
from endplay.dds import calc_all_tables
from endplay.types import Deal, Denom, Player

hands = np.load(sys.argv[1])
RANKS = "23456789TJQKA"
def pbn(deal):
    return "N:" + " ".join(".".join("".join(RANKS[c // 4] for c in sorted(hand, reverse=True) if c % 4 == s)
                                    for s in (3, 2, 1, 0)) for hand in deal.tolist())
deals = [Deal(pbn(d)) for d in hands]
spades = notrump = 0
for start in range(0, len(deals), 40):
    tables = calc_all_tables(deals[start:start + 40])
    for i in range(len(tables)):
        spades += tables[i][Denom.spades, Player.north]
        notrump += tables[i][Denom.nt, Player.north]
print(spades, notrump)
"""


def main() -> None:
    import argparse
    import json
    import tempfile

    from cardlab.cards import format_pbn_hand

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("deals", nargs="?", type=int, default=200, help="random deals (issue 41: 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    args = parser.parse_args()
    n = args.deals
    rng = np.random.default_rng(41)
    hands = rng.permuted(np.broadcast_to(np.arange(52), (n, 52)), axis=1).reshape(n, 4, 13)
    with tempfile.TemporaryDirectory() as tmp:
        deals, script, pbn = (os.path.join(tmp, name) for name in ("deals.npy", "plain_loop.py", "deals.pbn"))
        np.save(deals, hands)
        with open(script, "w", encoding="utf-8") as out:
            out.write(_PLAIN_LOOP)
        with open(pbn, "w", encoding="utf-8") as out:
            for k, deal in enumerate(hands.tolist(), 1):
                out.write(f'[Board "{k}"]\n[Deal "N:{" ".join(format_pbn_hand(h) for h in deal)}"]\n\n')
        def tricks(out: str) -> tuple[int, int]:
            data = json.loads(out)["strategies"]
            return round(data[0]["tricks"]["mean"] * n), round(data[1]["tricks"]["mean"] * n)
        _alternate(f"bridge compare -s '4S by N' -s '3NT by N', {n} deals vs a plain full-table loop",
                   [sys.executable, "-m", "cardlab", "bridge", "compare", "-s", "4S by N", "-s", "3NT by N",
                    "--file", pbn, "--vul", "None", "--format", "json"],
                   [sys.executable, script, deals], args.rounds, 2.0, tricks,
                   lambda out: tuple(int(x) for x in out.split()))


if __name__ == "__main__":
    main()
