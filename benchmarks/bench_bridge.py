"""Speed of the exact bridge tables, side by side with a peer deal generator.

Run: python benchmarks/bench_bridge.py   (peers: pip install -e '.[bench]')

Goals from the issue: every exact table <= 10 ms in-process; the CLI start to
finish <= 1 s. The peer (endplay) can only sample deals, so it is compared on
the same question: an HCP table from N random hands.
"""

from __future__ import annotations

import subprocess
import sys
import timeit
from typing import Any, Callable

from cardlab.bridge.conditional import given_points
from cardlab.bridge.features import Joint, LongestSuit, Pattern, Points, SuitLengths
from cardlab.dealing import Deck, Draw
from cardlab.engine import exact, simulate

GOAL_MS = 10.0


def best_ms(fn: Callable[[], Any], repeat: int = 5) -> float:
    number = 1
    while timeit.timeit(fn, number=number) < 0.2 and number < 1000:
        number *= 2
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1000


def exact_tables() -> None:
    hand = Draw(Deck.standard(), 13)
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("HCP, 13 cards", lambda: exact(hand, Points())),
        ("Bergen points, 13 cards", lambda: exact(hand, Points("bergen"))),
        ("controls, 13 cards", lambda: exact(hand, Points("controls"))),
        ("HCP, 26 cards (partnership)", lambda: exact(Draw(Deck.standard(), 26), Points())),
        ("HCP given a known hand", lambda: exact(Draw(Deck.standard().remove("AKQJ.T98.765.432"), 13), Points())),
        ("HCP given another hand holds 15", lambda: given_points(Deck.standard(), 15)),
        ("39 patterns", lambda: exact(hand, Pattern())),
        ("560 suit distributions", lambda: exact(hand, SuitLengths())),
        ("longest suit", lambda: exact(hand, LongestSuit())),
        ("HCP x pattern", lambda: exact(hand, Joint(Points(), Pattern()))),
        ("HCP x longest suit", lambda: exact(hand, Joint(Points(), LongestSuit()))),
    ]
    print(f"{'exact table':36} {'ms':>9}  goal {GOAL_MS:.0f} ms")
    for name, fn in cases:
        ms = best_ms(fn)
        print(f"{name:36} {ms:9.2f}  {'ok' if ms <= GOAL_MS else 'OVER'}")


def cli_wall_time() -> None:
    cmd = [sys.executable, "-m", "cardlab", "bridge", "hcp"]
    runs = []
    for _ in range(5):
        start = timeit.default_timer()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        runs.append(timeit.default_timer() - start)
    print(f"\nCLI 'cardlab bridge hcp' start to finish: best {min(runs):.3f} s (goal 1 s)")


def versus_peer(n: int = 20_000) -> None:
    hand = Draw(Deck.standard(), 13)
    ours_sim = best_ms(lambda: simulate(hand, Points(), trials=n, seed=1), repeat=3)
    ours_exact = best_ms(lambda: exact(hand, Points()))
    print(f"\nHCP table of one hand, {n:,} random hands vs exact:")
    print(f"  cardlab exact (all {635013559600:,} hands) {ours_exact:10.2f} ms")
    print(f"  cardlab simulate {n:,} hands            {ours_sim:10.2f} ms")
    try:
        from endplay.dealer import generate_deals
        from endplay.evaluate import hcp
    except ImportError:
        print("  endplay not installed: pip install -e '.[bench]' to compare")
        return

    def peer() -> None:
        counts = [0] * 38
        for deal in generate_deals(produce=n):
            counts[hcp(deal.north)] += 1

    peer_ms = best_ms(peer, repeat=1)
    print(f"  endplay generate_deals + hcp, {n:,} deals  {peer_ms:10.2f} ms")
    print(f"  ratio endplay / cardlab simulate: {peer_ms / ours_sim:8.1f}x")
    print(f"  ratio endplay / cardlab exact:    {peer_ms / ours_exact:8.1f}x")


if __name__ == "__main__":
    exact_tables()
    cli_wall_time()
    versus_peer()
