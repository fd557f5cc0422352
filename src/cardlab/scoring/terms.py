"""The terms every results module shares: :class:`Method`, :class:`Movement`, :data:`PairKey`,
:class:`Reported` (a file's own figures) and :func:`split_pair_id` (``1NS`` -> ``("1", "NS")``).

They sit below the scorer (:mod:`~cardlab.scoring.session`), the checker and the one results
document (:mod:`~cardlab.scoring.document`, which re-exports them), so that the document can call
the scorer and the checker without an import cycle.

>>> Method.parse("butler").caption, Movement.parse("mitchell").value
('Butler IMPs', 'mitchell')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from cardlab.choices import choose
from cardlab.errors import ScoringError

__all__ = ["Method", "Movement", "PairKey", "Reported", "split_pair_id"]

#: A pair in its field: (direction "NS"/"EW" in a Mitchell, None in a Howell; number).
PairKey = tuple[str | None, str]


class Movement(Enum):
    """How the pairs move: two fields (``mitchell``: NS pair 1 is not EW pair 1, each field
    ranked on its own) or one (``howell``).

    >>> Movement.parse("Howell")
    <Movement.HOWELL: 'howell'>
    """

    MITCHELL = "mitchell"
    HOWELL = "howell"

    @classmethod
    def parse(cls, text: "str | Movement") -> "Movement":
        """The movement a word names (case-insensitive); a ScoringError quoting any other."""
        return choose(cls, text, ScoringError, "movement")


class Method(Enum):
    """How each board is scored: matchpoints, cross-IMPs, or IMPs against a datum: Butler
    (the mean without the highest and the lowest score) or the median (``median-imps``, the
    datum of JFR Pary's IMP pairs).

    >>> Method.parse("cross-imps").is_imps, Method.MP.is_imps, Method.MEDIAN_IMPS.has_datum
    (True, False, True)
    """

    MP = "mp"
    CROSS_IMPS = "cross-imps"
    BUTLER = "butler"
    MEDIAN_IMPS = "median-imps"

    @classmethod
    def parse(cls, text: "str | Method") -> "Method":
        """The method a word names (case-insensitive); a ScoringError quoting any other."""
        return choose(cls, text, ScoringError, "scoring method")

    @property
    def is_imps(self) -> bool:
        """Whether boards are scored in IMPs (pairs then rank by total IMPs, no percentage)."""
        return self is not Method.MP

    @property
    def has_datum(self) -> bool:
        """Whether each board is IMPed against one datum score (Butler, median)."""
        return self in (Method.BUTLER, Method.MEDIAN_IMPS)

    @property
    def caption(self) -> str:
        """How a report names the method: ``matchpoints``, ``cross-IMPs``, ``Butler IMPs``,
        ``IMPs v median``."""
        return {Method.MP: "matchpoints", Method.CROSS_IMPS: "cross-IMPs",
                Method.BUTLER: "Butler IMPs", Method.MEDIAN_IMPS: "IMPs v median"}[self]


@dataclass(frozen=True)
class Reported:
    """Figures a file states, kept for ``--check`` only (never used for scoring).

    ``line_points``: per traveller line, in file order, the (NS, EW) matchpoints or IMPs as
    written (None where the file gives none); ``pairs``: per pair, ``PERCENTAGE``, ``PLACE``
    and ``TOTAL_SCORE`` as written.

    >>> Reported((("4", "0"),), {("NS", "1"): {"PLACE": "1"}}).pairs[("NS", "1")]
    {'PLACE': '1'}
    """

    line_points: tuple[tuple[str | None, str | None], ...] = ()
    pairs: dict[PairKey, dict[str, str]] = field(default_factory=dict)

    def decimals(self) -> int | None:
        """The most decimals any line figure is written with (None when there is none).

        >>> Reported((("1.5", "2.25"), (None, "3"))).decimals()
        2
        """
        found = [len(t.split(".", 1)[1]) if "." in t else 0
                 for pair in self.line_points for t in pair if t is not None]
        return max(found) if found else None


_PAIR_ID_RE = re.compile(r"([A-Za-z0-9]*?[0-9])\s*(NS|EW|N|E)", re.IGNORECASE)


def split_pair_id(text: str) -> tuple[str, str | None]:
    """A pair id as Mitchell exports write it: ``1NS`` -> ("1", "NS"), ``1`` -> ("1", None).

    >>> split_pair_id("12EW"), split_pair_id("3"), split_pair_id("7 ns")
    (('12', 'EW'), ('3', None), ('7', 'NS'))
    """
    match = _PAIR_ID_RE.fullmatch(text.strip())
    if not match:
        return text.strip(), None
    side = match.group(2).upper()
    return match.group(1), {"N": "NS", "E": "EW"}.get(side, side)
