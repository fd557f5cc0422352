"""Reel machines ("trade stimulators"): the poker hand of one card from each reel, exactly.

A reel machine is a :class:`~cardlab.dealing.Reels` dealing (a reels file: one reel per line);
:class:`ReelCategory` is the poker category of its hands, counted exactly by enumerating every
combination of one *distinct* card per reel (identical cards on a reel are one class weighted by
their copies), in vectorised chunks after an estimate of the size, and simulated by the engine's
generic route (numpy spins valued by the compiled evaluator). :func:`reel_odds` is what
``cardlab poker odds --reels FILE`` prints.

>>> reels = Reels.parse("As Kd\\nQs Jd\\nTs 9d\\n8s 7d\\n6s 5d")
>>> odds = reel_odds(reels)
>>> odds.exact.count("high_card"), odds.exact.count("flush"), odds.exact.total
(30, 2, 32)
>>> reel_odds(reels, trials=1_000, seed=1).simulated.total
1000
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from pathlib import Path

import numpy as np

from cardlab import engine
from cardlab.dealing import Reels
from cardlab.engine import Executor, SeedLike
from cardlab.errors import HandError, TooLargeError
from cardlab.poker.evaluator import strengths
from cardlab.poker.kernel import CATEGORY_SHIFT
from cardlab.poker.odds import PokerCategory
from cardlab.poker.rules import SHORT_DECK, STANDARD, Category, Rules
from cardlab.tabulation import Tabulation

__all__ = ["ReelCategory", "reel_counts", "reel_odds", "MAX_ENUMERATION", "SIMULATION_CHUNK"]

MAX_ENUMERATION = 60_000_000
"""Largest number of distinct hands a reel machine may have for them to be enumerated one by one."""

SIMULATION_CHUNK = 250_000
"""Spins per chunk of a simulation: a few milliseconds each, so Ctrl-C stops a run at once."""


@dataclass(frozen=True)
class ReelCategory(PokerCategory):
    """The poker category of a reel machine's hand (one card per reel) under ``rules``: the
    values of :class:`~cardlab.poker.odds.PokerCategory` (five of a kind only when a card is on
    two reels), counted by :func:`reel_counts`.

    >>> from cardlab.engine import exact
    >>> exact(Reels.parse("\\n".join(["As Ks Qs"] * 5)), ReelCategory()).count("five_of_a_kind")
    3
    """

    def values(self, dealing: object) -> list[str]:
        """The category keys in rank order, five of a kind when the reels can repeat a card."""
        return self.category_keys(_reels(dealing).can_repeat())

    def exact_counts(self, dealing: object) -> list[int]:
        """Hands in each category, by enumeration (:func:`reel_counts`)."""
        reels = _reels(dealing)
        return reel_counts(reels, self.rules)[: len(self.values(reels))]


def _reels(dealing: object) -> Reels:
    if not isinstance(dealing, Reels):
        raise HandError(f"ReelCategory counts a reel machine (Reels), not {type(dealing).__name__}")
    return dealing


def reel_counts(reels: Reels, rules: Rules = STANDARD) -> list[int]:
    """Exact number of the machine's equally likely outcomes (one position per reel) in each
    category, by position in ``rules.order`` (all eleven positions); the counts are Python
    integers, exact beyond int64.

    >>> reel_counts(Reels.parse("As Kd\\nQs Jd\\nTs 9d\\n8s 7d\\n6s 5d"))[:6]
    [30, 0, 0, 0, 0, 2]
    """
    # identical cards on a reel are one class weighted by how often they appear
    faces = [np.unique(np.array(r, dtype=np.uint8), return_counts=True) for r in reels.reels]
    size = prod(len(ids) for ids, _ in faces)
    if size > MAX_ENUMERATION:
        raise TooLargeError(
            f"exact odds for these reels need {size:,} hands evaluated one by one (more than "
            f"{MAX_ENUMERATION:,}); simulate instead, e.g. "
            f"'cardlab poker odds --reels FILE --simulate 10000000 --seed 1'"
        )
    radices = [len(ids) for ids, _ in faces]
    # a hand's weight is the product of its faces' copies: exact Python integers once the total
    # (every position of every reel) could overflow int64
    exact = reels.outcomes() >= 2**62
    faces = [(ids, copies.astype(object) if exact else copies) for ids, copies in faces]
    totals = np.zeros(len(Category), dtype=object)
    chunk = 1 << 20
    for start in range(0, size, chunk):
        flat = np.arange(start, min(start + chunk, size), dtype=np.int64)
        hand = np.empty((len(flat), len(faces)), dtype=np.uint8)
        weight = np.ones(len(flat), dtype=object if exact else np.int64)
        for j in range(len(faces) - 1, -1, -1):
            flat, digit = np.divmod(flat, radices[j])
            hand[:, j] = faces[j][0][digit]
            weight *= faces[j][1][digit]
        codes = strengths(hand, rules) >> CATEGORY_SHIFT
        for p in np.unique(codes):
            totals[int(p)] += int(weight[codes == p].sum())
    return [int(t) for t in totals]


def reel_odds(reels: Reels | str | Path, rules: Rules = STANDARD, *, trials: int | None = None,
              seed: SeedLike = None, workers: int = 1, progress: bool = False,
              executor: Executor | str | None = None, title: str | None = None) -> Tabulation:
    """The category odds of a reel machine (a :class:`~cardlab.dealing.Reels` or a reels file),
    exact and, with ``trials``, simulated beside them (seeded: the same seed gives the same counts
    for any ``workers``), as a :class:`~cardlab.tabulation.Tabulation`: what
    ``cardlab poker odds --reels FILE`` prints. When the exact count is too large the simulation
    is shown alone, if one was asked for.

    >>> reel_odds("examples/no-such.reels")
    Traceback (most recent call last):
    ...
    cardlab.errors.ReelsFileError: cannot use file 'examples/no-such.reels': No such file or directory
    """
    if isinstance(reels, Reels):
        machine = reels
        what = f"one card from each of {machine.k} reels"
    else:
        machine = Reels.read(reels)
        what = f"one card from each of {machine.k} reels ({Path(reels).name})"
    rules.check_cards([c for reel in machine.reels for c in reel], where="on the reels")
    if title is None:
        title = f"poker hands, {what}" + (", short-deck rules" if rules is SHORT_DECK else "")
    return engine.tabulate(machine, ReelCategory(rules), title, trials=trials, seed=seed, workers=workers,
                           chunk=SIMULATION_CHUNK, progress=progress, executor=executor, value_key="category")
