"""Reel machines: a hand is one card from each reel, every position equally likely.

A "trade stimulator" bar machine has five reels of ten cards; a reels file
lists one reel per line, cards separated by spaces (``#`` starts a comment,
blank lines are skipped). A card may appear on several reels, or twice on one.

>>> reels = Reels.parse('''
... # five reels of two cards
... As Ks
... Qs Js
... Ts 9s
... 8s 7s
... 6s 5s''')
>>> reels.outcomes(), reels.k
(32, 5)
>>> Reels.parse("As Ks\\nQs Xx\\n")
Traceback (most recent call last):
...
cardlab.errors.ReelsFileError: line 2: unknown card 'Xx' on reel 2
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from pathlib import Path

import numpy as np

from cardlab.cards import card_id, format_cards
from cardlab.errors import CardError, ReelsFileError

__all__ = ["Reels"]


@dataclass(frozen=True)
class Reels:
    """The cards on each reel (card ids, in order around the reel)."""

    reels: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if not 5 <= len(self.reels) <= 7:
            raise ReelsFileError(f"a reel machine needs 5, 6 or 7 reels, got {len(self.reels)}")
        for i, reel in enumerate(self.reels, 1):
            if not reel:
                raise ReelsFileError(f"reel {i} has no cards")

    @classmethod
    def parse(cls, text: str) -> Reels:
        """Reels from the text of a reels file; errors name the line."""
        reels: list[tuple[int, ...]] = []
        for number, line in enumerate(text.splitlines(), 1):
            content = line.split("#", 1)[0].strip()
            if not content:
                continue
            ids = []
            for token in content.replace(",", " ").split():
                try:
                    ids.append(card_id(token))
                except CardError:
                    raise ReelsFileError(f"unknown card '{token}' on reel {len(reels) + 1}",
                                         number) from None
            reels.append(tuple(ids))
            if len(reels) > 7:
                raise ReelsFileError("more than 7 reels (a hand has at most 7 cards)", number)
        if len(reels) < 5:
            raise ReelsFileError(f"a reel machine needs 5, 6 or 7 reels (one per line), "
                                 f"found {len(reels)}")
        return cls(tuple(reels))

    @classmethod
    def read(cls, path: str | Path) -> Reels:
        """Reels from a file; errors start with the file name and line."""
        text = Path(path).read_text(encoding="utf-8")
        try:
            return cls.parse(text)
        except ReelsFileError as error:
            raise ReelsFileError(f"{path}: {error}") from None

    @property
    def k(self) -> int:
        """Cards in a hand: one per reel."""
        return len(self.reels)

    def outcomes(self) -> int:
        """Number of equally likely outcomes: one position on each reel."""
        return prod(len(r) for r in self.reels)

    def can_repeat(self) -> bool:
        """Whether a hand can hold the same card twice (it is on two reels)."""
        seen: set[int] = set()
        for reel in self.reels:
            if seen & set(reel):
                return True
            seen |= set(reel)
        return False

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` random spins as an ``(n, k)`` uint8 array of card ids."""
        out = np.empty((n, self.k), dtype=np.uint8)
        for j, reel in enumerate(self.reels):
            out[:, j] = np.array(reel, dtype=np.uint8)[rng.integers(0, len(reel), size=n)]
        return out

    def format(self) -> str:
        """The reels file text (one reel per line)."""
        return "\n".join(format_cards(r) for r in self.reels) + "\n"

    def __repr__(self) -> str:
        return f"Reels.parse({self.format()!r})"
