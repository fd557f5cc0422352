"""A plain-Python copy of the stream a seeded simulation draws a Draw's hands from (the tests'
oracle for csrc/draw_tally.c; the definition is in docs/design.md, "The draw stream"), written
from the definition with Python integers and lists, sharing no code with the kernel:

- the generator is xoshiro256** (Blackman and Vigna, 2018) whose state is the chunk seed's first
  four 64-bit words, ``seed.generate_state(4, uint64)``;
- a hand is ``k`` ranks, rank ``j`` uniform below ``size - j``: the bounds ``size, size - 1, ...``
  cut in order into groups whose product is at most 2^48; each group takes one generator word
  ``x`` and gives, bound by bound, ``x * b // 2^64`` with ``x`` replaced by ``x * b % 2^64``; when
  the last such remainder is below ``2^64 mod P`` (P the group's product) the whole group is
  drawn again from the next word (Brackett-Rozinsky and Lemire's batched draw: exactly uniform);
- card ``j`` of the hand is at place ``remaining.pop(rank j)`` of the deck's physical cards (in
  deck order), ``remaining`` starting as every place for each hand.
"""

from __future__ import annotations

import numpy as np

from cardlab.dealing import Draw

MASK = (1 << 64) - 1
GROUP_PRODUCT = 1 << 48


class Xoshiro256:
    """xoshiro256** on Python integers."""

    def __init__(self, seed: np.random.SeedSequence) -> None:
        self.s = [int(w) for w in seed.generate_state(4, np.uint64)]
        if not any(self.s):
            self.s[0] = 0x9E3779B97F4A7C15

    @staticmethod
    def _rotl(x: int, k: int) -> int:
        return ((x << k) | (x >> (64 - k))) & MASK

    def next(self) -> int:
        s = self.s
        result = (self._rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self._rotl(s[3], 45)
        return result


def groups(size: int, k: int) -> list[list[int]]:
    """The bounds ``size, size - 1, ..., size - k + 1`` cut into groups of product at most 2^48."""
    out: list[list[int]] = []
    product = 0
    for j in range(k):
        bound = size - j
        if not out or product * bound > GROUP_PRODUCT:
            out.append([])
            product = 1
        out[-1].append(bound)
        product *= bound
    return out


def ranks(rng: Xoshiro256, plan: list[list[int]]) -> list[int]:
    """One hand's ranks."""
    out: list[int] = []
    for bounds in plan:
        product = 1
        for b in bounds:
            product *= b
        threshold = (1 << 64) % product
        while True:
            x, drawn = rng.next(), []
            for b in bounds:
                drawn.append((x * b) >> 64)
                x = (x * b) & MASK
            if x >= threshold:
                break
        out += drawn
    return out


def reference_hands(draw: Draw, seed: np.random.SeedSequence, n: int) -> np.ndarray:
    """The ``n`` hands of ``draw`` of the stream of ``seed``, an ``(n, k)`` uint8 array."""
    cards = draw.deck.physical().tolist()
    plan = groups(len(cards), draw.k)
    rng = Xoshiro256(seed)
    hands = []
    for _ in range(n):
        remaining = list(range(len(cards)))
        hands.append([cards[remaining.pop(r)] for r in ranks(rng, plan)])
    return np.array(hands, dtype=np.uint8).reshape(n, draw.k)
