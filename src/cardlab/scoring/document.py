"""The one results document every format reads into: :class:`ResultsFile`.

A USEBIO file, a PBN file and a CSV traveller file say the same kind of thing: traveller
lines, perhaps pair names, an event title, club and date, the method and movement the file
names, the hands, phantoms, and (USEBIO, PBN) the figures the scoring program printed.  The
format modules (:mod:`~cardlab.scoring.usebio`, :mod:`~cardlab.scoring.pbn`,
:mod:`~cardlab.scoring.csv_travellers`) only read text into this type;
:mod:`~cardlab.scoring.export` writes a scored session back out.  The vocabulary they share
lives here too: :class:`Method`, :class:`Movement`, :data:`PairKey`, :class:`Reported` (the
file's own figures) and :func:`split_pair_id` (``1NS`` -> ``("1", "NS")``).

This module sits below :mod:`~cardlab.scoring.session` in the layering: it imports only the
traveller line, the matchpoint units and the errors.  :meth:`ResultsFile.score` and
:meth:`ResultsFile.check` are conveniences that call the scorer and the checker, imported
inside the method (as :meth:`cardlab.distribution.Distribution.table` calls the report layer).

>>> from cardlab.scoring.traveller import TravellerLine as T
>>> doc = ResultsFile("club.csv", "csv", (T.make(1, "1", "1", score=420),
...                                       T.make(1, "2", "2", score=400)))
>>> doc
<ResultsFile 'club.csv' csv: 2 lines, 1 boards>
>>> [p.percentage for p in doc.score().pairs]
[100.0, 0.0, 100.0, 0.0]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from cardlab.results import JsonText
from cardlab.choices import choose
from cardlab.deal import Board
from cardlab.errors import ResultFileError, ScoringError
from cardlab.scoring.matchpoints import Scale
from cardlab.scoring.traveller import TravellerLine

if TYPE_CHECKING:  # imported for annotations only: these modules sit above this one
    from cardlab.scoring.check import CheckReport
    from cardlab.scoring.columns import TravellerColumns
    from cardlab.scoring.session import PhantomRule, SessionResult

__all__ = ["Method", "Movement", "PairKey", "Reported", "ResultsFile", "split_pair_id",
           "FORMATS"]

#: The formats a :class:`ResultsFile` is read from.
FORMATS = ("usebio", "pbn", "csv", "bws")

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


@dataclass(frozen=True)
class ResultsFile(JsonText):
    """What a result file says, whatever its format: its traveller lines and everything
    around them.

    ``format`` is ``usebio``, ``pbn`` or ``csv`` (or ``bws``: Bridgemate's database, read by
    :mod:`cardlab.club.bws`).  ``deals`` maps a board number to its
    :class:`~cardlab.deal.Board` (its hand record, with the dealer and vulnerability the file
    gives) when the file has the hands (``HAND`` in USEBIO, ``Deal`` in PBN).  ``reported`` holds the figures the file states (None for CSV), used
    only by :meth:`check`.  ``event_type`` is the file's own word (USEBIO ``EVENT_TYPE``, PBN
    ``Scoring``) and ``method`` the scoring method it means (None when the word is not one
    we score, or when it is ambiguous: see :attr:`assumed_method`).  ``columns`` is the
    columnar form of a big CSV file (its ``lines`` then build themselves on demand).
    ``assumed_method`` is the rule assumed for a word that names no single method (PBN
    ``Scoring "IMP"`` for pairs: Butler), ``method_error`` why the file's word is not one we
    score (raised only when the session is scored without a method).
    """

    source: str
    format: str
    lines: Sequence[TravellerLine]
    names: Mapping[PairKey, tuple[str, ...]] = field(default_factory=dict)
    title: str = ""
    club: str = ""
    date: str = ""
    movement: Movement | None = None
    event_type: str | None = None
    method: Method | None = None
    reported: Reported | None = None
    deals: Mapping[int, Board] = field(default_factory=dict)
    phantoms: tuple[PairKey, ...] = ()
    columns: "TravellerColumns | None" = None
    assumed_method: Method | None = None
    method_error: str | None = None

    def __repr__(self) -> str:
        boards = (len(set(self.columns.board.tolist())) if self.columns is not None
                  else len({line.board for line in self.lines}))
        kind = f" {self.event_type}" if self.event_type else ""
        return (f"<ResultsFile {self.source!r} {self.format}{kind}: {len(self.lines)} lines, "
                f"{boards} boards>")

    @property
    def default_scale(self) -> Scale:
        """The units a session is scored in when none is asked for: EBU units for USEBIO and
        PBN (the units of the programs that write them, and of cardlab's own exports), ACBL
        units for CSV."""
        return Scale.EBU if self.format in ("usebio", "pbn") else Scale.ACBL

    def file_method(self) -> Method:
        """The method the file names (default matchpoints); an error naming an event type
        we do not score."""
        if self.method is not None:
            return self.method
        if self.assumed_method is not None:
            return self.assumed_method
        if self.method_error is not None:
            raise ResultFileError(self.method_error, source=self.source)
        return Method.MP

    def method_notice(self, method: Method | str | None) -> str | None:
        """A one-line notice when ``method`` overrides a different method the file names,
        or when the file's word is ambiguous and a rule is assumed."""
        if not self.event_type:
            return None
        if method is None:
            if self.method is None and self.assumed_method is not None:
                return (f"{self.source}: Scoring {self.event_type!r} does not say how pairs "
                        f"are IMPed: scoring by {self.assumed_method.value} ("
                        f"{self.assumed_method.caption}); --method butler or cross-imps "
                        "chooses another rule")
            return None
        chosen = Method.parse(method)
        if self.method is None and self.assumed_method is not None:
            return None
        if self.method is None:
            return (f"{self.source}: scoring by {chosen.value} as asked; the file's event type "
                    f"{self.event_type} is not one we score")
        if chosen is self.method:
            return None
        return (f"{self.source}: scoring by {chosen.value} as asked, although the file's "
                f"event type {self.event_type} means {self.method.value}")

    def score(
        self,
        *,
        method: Method | str | None = None,
        scale: Scale | str | None = None,
        movement: Movement | str | None = None,
        allow_repeated_pairs: bool = False,
        phantoms: Iterable[str | PairKey] = (),
        phantom_rule: "PhantomRule | str" = "session",
        title: str | None = None,
    ) -> "SessionResult":
        """Score the session; arguments left out come from the file (or the defaults).

        Errors name the file: a :class:`~cardlab.errors.ResultFileError` or
        :class:`~cardlab.errors.ScoringError` from the scorer."""
        from cardlab.scoring.columns import score_columns
        from cardlab.scoring.session import score_session

        extra = list(phantoms)
        how = method if method is not None else self.file_method()
        units = scale if scale is not None else self.default_scale
        move = movement if movement is not None else self.movement
        name = self.title if title is None else title
        try:
            if self.columns is not None and not extra and not self.phantoms:
                fast = score_columns(self.columns, method=how, scale=units, movement=move,
                                     allow_repeated_pairs=allow_repeated_pairs,
                                     names=dict(self.names), title=name)
                if fast is not None:
                    return fast
            return score_session(
                self.lines, method=how, scale=units, movement=move,
                allow_repeated_pairs=allow_repeated_pairs, names=dict(self.names), title=name,
                phantoms=[*self.phantoms, *extra], phantom_rule=phantom_rule,
            )
        except ResultFileError as error:
            if error.source is None:
                raise ResultFileError(error.reason, line=error.line, source=self.source) from None
            raise

    def check(self, result: "SessionResult") -> "CheckReport":
        """Compare ``result`` (scored from this file) with the figures the file states."""
        from cardlab.scoring.check import check_document

        return check_document(self, result)

    def to_csv(self) -> str:
        """The traveller lines as CSV travellers."""
        from cardlab.scoring.csv_travellers import write_travellers

        return write_travellers(self.lines)

    def to_dict(self) -> dict[str, Any]:
        """What the file says, but the lines themselves (their count), as a JSON-ready dict."""
        return {"source": self.source, "format": self.format, "title": self.title,
                "club": self.club, "date": self.date, "event_type": self.event_type,
                "method": self.method.value if self.method else None,
                "movement": self.movement.value if self.movement else None,
                "lines": len(self.lines), "deals": {n: b.pbn_deal() for n, b in self.deals.items()},
                "phantoms": [list(k) for k in self.phantoms]}
