"""Ways of dealing: decks (with cards removed, short, several decks), draws from them, reel machines.

A :class:`Deck` keeps a count per card id (0..51), so several decks hold a card
more than once; every physical card is equally likely to be drawn. A
:class:`Draw` takes ``k`` cards without replacement from a deck: its outcomes
are the ``C(n, k)`` sets of physical cards.

>>> deck = Deck.standard().remove("AKQJ.T98.765.432")
>>> deck.size
39
>>> Draw(deck, 13).outcomes()
8122425444
>>> Deck.standard().remove("As As")
Traceback (most recent call last):
...
cardlab.errors.DeckError: card As is given 2 times but the deck holds 1
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, prod
from pathlib import Path
from typing import Iterable

import numpy as np

from cardlab.cards import Card, card_id, card_id_array, format_cards, parse_card_ids
from cardlab.errors import CardError, DeckError, ReelsFileError
from cardlab.textfile import read_bytes, shown_text

__all__ = ["Deck", "Draw", "Reels", "card_ids"]


def card_ids(cards: str | Iterable[Card | int]) -> list[int]:
    """Card ids from text (card list or PBN hand), Cards or ints."""
    if isinstance(cards, str):
        return parse_card_ids(cards)
    try:
        values = [c.id if isinstance(c, Card) else c for c in cards]
    except TypeError:  # not iterable
        raise CardError(f"cards are given as text ('As Kd'), Cards or card ids, not {type(cards).__name__}") from None
    ids: list[int] = card_id_array(values).tolist() if values else []  # 52, -1, 3.7, 'x': a CardError
    return ids


def _check_decks(decks: object) -> None:
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise DeckError(f"the number of decks must be a whole number of at least 1, got {decks!r:.40}")


@dataclass(frozen=True)
class Deck:
    """How many copies of each card id 0..51 the deck holds.

    >>> Deck.short().size, Deck.standard(decks=2).size
    (36, 104)
    """

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != 52 or any(c < 0 for c in self.counts):
            raise DeckError("a deck needs a non-negative count for each of the 52 cards")

    @classmethod
    def standard(cls, decks: int = 1) -> Deck:
        """``decks`` full 52-card decks shuffled together."""
        _check_decks(decks)
        return cls((decks,) * 52)

    @classmethod
    def short(cls, decks: int = 1) -> Deck:
        """The 36-card short deck, sixes to aces."""
        _check_decks(decks)
        return cls(tuple(decks if i >= 16 else 0 for i in range(52)))

    @classmethod
    def of(cls, cards: str | Iterable[Card | int]) -> Deck:
        """A deck of exactly these cards (repeats allowed)."""
        counts = [0] * 52
        for i in card_ids(cards):
            counts[i] += 1
        return cls(tuple(counts))

    @property
    def size(self) -> int:
        """Number of physical cards."""
        return sum(self.counts)

    def remove(self, cards: str | Iterable[Card | int]) -> Deck:
        """The deck without these cards; each must be in the deck as often as given."""
        ids = card_ids(cards)
        counts = list(self.counts)
        for i in ids:
            counts[i] -= 1
        for i in sorted(set(ids)):
            if counts[i] < 0:
                card = format_cards([i])
                if self.counts[i] == 0:
                    raise DeckError(f"card {card} is not in the deck")
                given = ids.count(i)
                raise DeckError(f"card {card} is given {given} times but the deck holds {self.counts[i]}")
        return Deck(tuple(counts))

    def physical(self) -> np.ndarray:
        """Card id of every physical card, as a uint8 array of length ``size``."""
        return np.repeat(np.arange(52, dtype=np.uint8), self.counts)

    def __repr__(self) -> str:
        if len(set(self.counts)) == 1:
            return f"Deck.standard(decks={self.counts[0]})"
        return f"Deck({self.counts!r})"


@dataclass(frozen=True)
class Draw:
    """``k`` cards drawn without replacement from ``deck``.

    >>> Draw(Deck.standard(), 5).outcomes()
    2598960
    >>> Draw(Deck.standard(), 53)
    Traceback (most recent call last):
    ...
    cardlab.errors.DeckError: cannot draw 53 cards from a deck of 52
    """

    deck: Deck
    k: int

    def __post_init__(self) -> None:
        if not 0 <= self.k <= self.deck.size:
            raise DeckError(f"cannot draw {self.k} cards from a deck of {self.deck.size}")

    def outcomes(self) -> int:
        """Number of equally likely outcomes: sets of ``k`` physical cards."""
        return comb(self.deck.size, self.k)

    @property
    def shuffles(self) -> bool:
        """Whether :meth:`sample` draws by a partial shuffle (large draws) rather than by ``k``
        positions at once."""
        return self.k * (self.k - 1) > self.deck.size

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` random draws as an ``(n, k)`` uint8 array of card ids.

        Every set of ``k`` physical cards is equally likely. Small draws (poker
        hands) pick ``k`` positions at once and redraw the rows that picked a
        position twice (rejection keeps the result uniform); large draws
        (bridge hands) run a partial Fisher-Yates shuffle on all rows at once,
        one vectorised step per card.
        """
        cards = self.deck.physical()
        size = len(cards)
        dtype = np.uint8 if size <= 256 else np.uint16
        if not self.shuffles:
            positions = _distinct_positions(rng, n, size, self.k, dtype)
            return positions if self.deck.counts == (1,) * 52 else cards[positions]
        positions = np.broadcast_to(np.arange(size, dtype=dtype), (n, size)).copy()
        rows = np.arange(n)
        for j in range(self.k):
            pick = j + rng.integers(0, size - j, size=n)
            chosen = positions[rows, pick]
            positions[rows, pick] = positions[:, j]
            positions[:, j] = chosen
        result: np.ndarray = cards[positions[:, : self.k]]
        return result


def _distinct_positions(rng: np.random.Generator, n: int, size: int, k: int, dtype: type) -> np.ndarray:
    """``(n, k)`` positions in ``0..size-1``, distinct within each row, uniformly at random."""
    positions = rng.integers(0, size, size=(n, k), dtype=dtype)
    redo = np.flatnonzero(_has_repeat(positions))
    while len(redo):
        positions[redo] = rng.integers(0, size, size=(len(redo), k), dtype=dtype)
        redo = redo[_has_repeat(positions[redo])]
    return positions


def _has_repeat(positions: np.ndarray) -> np.ndarray:
    """Rows in which some position appears twice (k(k-1)/2 vectorised comparisons)."""
    k = positions.shape[1]
    columns = [positions[:, i] for i in range(k)]
    repeat = np.zeros(len(positions), dtype=bool)
    for i in range(k):
        for j in range(i + 1, k):
            repeat |= columns[i] == columns[j]
    return repeat


@dataclass(frozen=True)
class Reels:
    """A reel machine: a hand is one card from each reel, every position equally likely.

    A "trade stimulator" bar machine has five reels of ten cards; a reels file
    lists one reel per line, cards separated by spaces (``#`` starts a comment,
    blank lines are skipped). A card may appear on several reels, or twice on one. Its poker
    odds are :mod:`cardlab.casino.reels` (``cardlab poker odds --reels FILE``).

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
        if not isinstance(path, (str, Path)):
            raise ReelsFileError(f"the reels are read from a file named by text or a Path, not {type(path).__name__}")
        try:
            data = read_bytes(path, lambda reason, source: ReelsFileError(f"{source}: {reason}"))
        except OSError as error:  # missing, a folder (reels=''), unreadable
            raise ReelsFileError(f"cannot use file {shown_text(str(path))}: {error.strerror or error}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise ReelsFileError(f"{path}: line {line}: not UTF-8 text (byte 0x{data[error.start]:02x}); "
                                 f"save the file as UTF-8") from None
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
