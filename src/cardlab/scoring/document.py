"""The one results document every format reads into: :class:`ResultsFile`.

A USEBIO file, a PBN file and a CSV traveller file say the same kind of thing: traveller
lines, perhaps pair names, an event title, club and date, the method and movement the file
names, the hands, phantoms, and (USEBIO, PBN) the figures the scoring program printed.  The
format modules (:mod:`~cardlab.scoring.usebio`, :mod:`~cardlab.scoring.pbn`,
:mod:`~cardlab.scoring.csv_travellers`) only read text into this type;
:mod:`~cardlab.scoring.export` writes a scored session back out.  The vocabulary they share
(:class:`Method`, :class:`Movement`, :data:`PairKey`, :class:`Reported`, :func:`split_pair_id`)
lives in :mod:`~cardlab.scoring.terms` and is re-exported here.

This module sits above the scorer (:mod:`~cardlab.scoring.session`,
:mod:`~cardlab.scoring.columns`) and the checker (:mod:`~cardlab.scoring.check`):
:meth:`ResultsFile.score` and :meth:`ResultsFile.check` call them, and none of them imports
this module (the checker names :class:`ResultsFile` for type checking only).

>>> from cardlab.scoring.traveller import TravellerLine as T
>>> doc = ResultsFile("club.csv", "csv", (T.make(1, "1", "1", score=420),
...                                       T.make(1, "2", "2", score=400)))
>>> doc
<ResultsFile 'club.csv' csv: 2 lines, 1 boards>
>>> [p.percentage for p in doc.score().pairs]
[100.0, 0.0, 100.0, 0.0]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from cardlab.results import JsonText
from cardlab.deal import Board
from cardlab.errors import ResultFileError
from cardlab.scoring.check import CheckReport, check_document
from cardlab.scoring.columns import TravellerColumns, score_columns
from cardlab.scoring.matchpoints import Scale
from cardlab.scoring.session import PhantomRule, SessionResult, score_session
from cardlab.scoring.terms import Method, Movement, PairKey, Reported, split_pair_id
from cardlab.scoring.traveller import TravellerLine

__all__ = ["Method", "Movement", "PairKey", "Reported", "ResultsFile", "split_pair_id",
           "FORMATS"]

#: The formats a :class:`ResultsFile` is read from.
FORMATS = ("usebio", "pbn", "csv", "bws")


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
        phantom_rule: PhantomRule | str = "session",
        title: str | None = None,
    ) -> SessionResult:
        """Score the session; arguments left out come from the file (or the defaults).

        Errors name the file: a :class:`~cardlab.errors.ResultFileError` or
        :class:`~cardlab.errors.ScoringError` from the scorer."""
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

    def check(self, result: SessionResult) -> CheckReport:
        """Compare ``result`` (scored from this file) with the figures the file states."""
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
