"""Bridgemate's session database, the ``.bws`` file: read it, and turn it into a results file.

The fields are read as the *Bridgemate developer's guide* (Bridge Systems BV, document
revision 37, 18 November 2013) defines them (docs/club.md): ``Section`` (ID, Letter, Tables,
MissingPair), ``Tables``, ``RoundData`` (the movement: NSPair, EWPair, LowBoard-HighBoard or
CustomBoards per table and round), ``ReceivedData`` (one row per score: Contract ``t c x`` or
``PASS``, Result ``-13 .. = .. +6``, LeadCard, Remarks, Erased), ``PlayerNumbers``,
``PlayerNames``, ``HandRecord`` and ``BiddingData`` where present.

:func:`read_bws` gives a :class:`BwsSession` (the tables, checked against each other);
:meth:`BwsSession.results` the :class:`~cardlab.scoring.document.ResultsFile` every scoring
command reads, so a ``.bws`` is scored, checked, exported and published like a USEBIO file.

>>> read_bws(b"\\x00\\x01\\x00\\x00Standard Jet DB\\x00", source="short.bws")
Traceback (most recent call last):
...
cardlab.errors.ResultFileError: short.bws: the database is cut short (20 bytes is not a whole number of 2,048-byte pages)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from cardlab.board import SEATS
from cardlab.deal import Board, Deal
from cardlab.errors import CardlabError, ResultFileError
from cardlab.scoring.document import Movement, PairKey, ResultsFile
from cardlab.scoring.traveller import AdjustedScore, TravellerLine

from cardlab.club.access import Rows, read_tables

__all__ = ["read_bws", "session_from_rows", "BwsSession", "RoundRow", "Score", "is_bws", "ARBITRAL", "MAX_ROUNDS"]

MAX_ROUNDS = 200
"""Largest table, round, pair or board count read from a movement (clubs use well under 50)."""

#: The arbitral percentages a Remarks field may hold (NS%-EW%), as the developer's guide lists.
ARBITRAL = tuple(f"{ns}%-{ew}%" for ew in (40, 50, 60) for ns in (40, 50, 60))

_REQUIRED = ("Section", "Tables", "RoundData", "ReceivedData")
_OPTIONAL = ("PlayerNumbers", "PlayerNames", "HandRecord", "BiddingData")


def is_bws(data: bytes) -> bool:
    """Whether ``data`` starts like an Access database (a ``.bws`` file).

    >>> is_bws(b"\\x00\\x01\\x00\\x00Standard Jet DB\\x00..."), is_bws(b"<USEBIO>")
    (True, False)
    """
    return data[4:19] == b"Standard Jet DB"


@dataclass(frozen=True)
class RoundRow:
    """One ``RoundData`` row: who sits where at a table in a round, and which boards."""

    section: int
    table: int
    round: int
    ns: int
    ew: int
    boards: tuple[int, ...]


@dataclass(frozen=True)
class Score:
    """One ``ReceivedData`` row, as the Bridgemate stored it (the text fields stripped)."""

    id: int
    section: int
    table: int
    round: int
    board: int
    ns: int
    ew: int
    seat: str
    contract: str
    result: str
    lead: str
    remarks: str
    erased: bool


@dataclass(frozen=True)
class BwsSession:
    """The tables of a ``.bws`` file: sections ``{id: letter}``, tables ``(section, table)``,
    the movement rows, the scores (erased ones included, as stored), players ``{(section,
    table, seat): (number, name)}``, hand records ``{(section, board): Deal}`` and bids
    ``{(section, table, round, board): ("N:1C", ...)}``."""

    source: str
    sections: Mapping[int, str]
    tables: tuple[tuple[int, int], ...]
    rounds: tuple[RoundRow, ...]
    scores: tuple[Score, ...]
    players: Mapping[tuple[int, int, str], tuple[str, str]] = field(default_factory=dict)
    hands: Mapping[tuple[int, int], Deal] = field(default_factory=dict)
    bidding: Mapping[tuple[int, int, int, int], tuple[str, ...]] = field(default_factory=dict)
    date: str = ""

    def __repr__(self) -> str:
        return (f"<BwsSession {self.source!r}: {len(self.sections)} section(s), "
                f"{len(self.tables)} tables, {len({r.round for r in self.rounds})} rounds, "
                f"{sum(not s.erased for s in self.scores)} results>")

    def round_row(self, section: int, table: int, round_: int) -> RoundRow | None:
        """The movement row of a table in a round (None when the movement has none)."""
        return self._round_index().get((section, table, round_))

    def _round_index(self) -> dict[tuple[int, int, int], RoundRow]:
        return {(r.section, r.table, r.round): r for r in self.rounds}

    @property
    def two_numberings(self) -> bool:
        """Whether NS and EW pairs are numbered apart (NS pair 1 is not EW pair 1): some round
        seats one number both NS and EW (a Mitchell numbered 1-n in each direction)."""
        for round_ in {(r.section, r.round) for r in self.rounds}:
            rows = [r for r in self.rounds if (r.section, r.round) == round_]
            if {r.ns for r in rows if r.ns} & {r.ew for r in rows if r.ew}:
                return True
        return False

    def movement_of(self, lines: "list[TravellerLine] | tuple[TravellerLine, ...]") -> Movement:
        """MITCHELL (fields NS and EW) when the pairs are numbered apart by direction, or when
        no pair number sits both NS and EW; HOWELL (one field) when one does: a Howell, or a
        Mitchell with arrow-switched rounds or a wrong-direction score (one field is what an
        arrow switch is for)."""
        if self.two_numberings:
            return Movement.MITCHELL
        return Movement.HOWELL if ({x.ns for x in lines} & {x.ew for x in lines}) else (
            Movement.MITCHELL)

    def pair_id(self, section: int, number: int) -> str:
        """The pair's id in the results: its number, with the section letter when the session
        has several sections (``B7``)."""
        return f"{self.sections[section]}{number}" if len(self.sections) > 1 else str(number)

    def results(self) -> ResultsFile:
        """The session as a :class:`~cardlab.scoring.document.ResultsFile` (format ``bws``):
        one traveller line per score that is not erased and was played, remarks read as the
        developer's guide defines them.  A score on a board the table did not have in that
        round, pairs that are not the movement's, an undecided arbitral score or a board scored
        twice at one table is an error naming the table, round and board."""
        index = self._round_index()
        lines: list[TravellerLine] = []
        seen: dict[tuple[int, int, int, int], Score] = {}
        for score in sorted(self.scores, key=lambda s: s.id):
            if score.erased:
                continue
            where = (f"ReceivedData ID {score.id} (section {self.sections.get(score.section, '?')}"
                     f" table {score.table} round {score.round} board {score.board})")
            line = self._line(score, index, where)
            key = (score.section, score.table, score.round, score.board)
            if key in seen:
                raise ResultFileError(f"{where}: the board is scored twice at this table (also "
                                      f"ID {seen[key].id}) and neither row is erased",
                                      source=self.source)
            seen[key] = score
            if line is not None:
                lines.append(line)
        deals = {board: Board(board, deal) for (_, board), deal in sorted(self.hands.items())}
        move = self.movement_of(lines)
        return ResultsFile(self.source, "bws", tuple(lines), self._names(move),
                           title=Path(self.source).stem, date=self.date, movement=move,
                           deals=deals)

    def _line(self, score: Score, index: Mapping[tuple[int, int, int], RoundRow], where: str
              ) -> TravellerLine | None:
        row = index.get((score.section, score.table, score.round))
        if row is None:
            raise ResultFileError(f"{where}: the movement (RoundData) has no such table and "
                                  "round", source=self.source)
        if score.board not in row.boards:
            raise ResultFileError(f"{where}: this table played boards {_span(row.boards)} in "
                                  "that round, not this one", source=self.source)
        remark = score.remarks
        pairs = (score.ns, score.ew)
        if remark.lower() == "wrong direction":
            pairs = (score.ew, score.ns)
            remark = ""
        if (score.ns, score.ew) != (row.ns, row.ew):
            raise ResultFileError(f"{where}: pairs NS {score.ns} and EW {score.ew}, but the "
                                  f"movement seats NS {row.ns} and EW {row.ew}",
                                  source=self.source)
        if remark.lower() == "not played":
            return None
        ns, ew = (self.pair_id(score.section, p) for p in pairs)
        try:
            if remark.replace(" ", "") in ARBITRAL:
                ns_pct, ew_pct = (int(p) for p in re.findall(r"[0-9]+", remark))
                return TravellerLine.make(score.board, ns, ew, score=AdjustedScore(ns_pct, ew_pct),
                                          source_line=score.id)
            if remark.lower() == "arbitral score" or (remark and not score.contract):
                raise ResultFileError(f"{where}: remark {remark!r} without a score (the TD has "
                                      "not entered the arbitral score yet)", source=self.source)
            if not score.contract:
                raise ResultFileError(f"{where}: no contract and no remark", source=self.source)
            contract = score.contract.replace(" ", "")
            if contract.upper() == "PASS":
                return TravellerLine.make(score.board, ns, ew, contract="PASS",
                                          lead=score.lead or None, source_line=score.id)
            return TravellerLine.make(score.board, ns, ew, contract=contract, declarer=score.seat,
                                      result=score.result, lead=score.lead or None,
                                      source_line=score.id)
        except ResultFileError:
            raise
        except CardlabError as error:
            raise ResultFileError(f"{where}: {error}", source=self.source) from None

    def _names(self, move: Movement) -> dict[PairKey, tuple[str, ...]]:
        """Pair names from the players registered at each table in the first round."""
        first = {}
        for row in sorted(self.rounds, key=lambda r: -r.round):
            first[(row.section, row.table)] = row
        names: dict[PairKey, tuple[str, ...]] = {}
        for (section, table), row in first.items():
            for direction, number, seats in (("NS", row.ns, "NS"), ("EW", row.ew, "EW")):
                got = tuple(self.players.get((section, table, seat), ("", ""))[1] for seat in seats)
                if number and any(got):
                    key = (direction if move is Movement.MITCHELL else None,
                           self.pair_id(section, number))
                    names[key] = got
        return names


def read_bws(path_or_bytes: str | os.PathLike[str] | bytes, source: str | None = None
             ) -> BwsSession:
    """Read a ``.bws`` file (a path or its bytes) into a :class:`BwsSession`; errors are
    :class:`~cardlab.errors.ResultFileError` naming the file and what is wrong."""
    if isinstance(path_or_bytes, (bytes, bytearray)):
        data, name = bytes(path_or_bytes), source or "<bytes>"
    else:
        path = Path(path_or_bytes)
        name = source or path.name
        try:
            data = path.read_bytes()
        except OSError as error:
            raise ResultFileError(f"cannot read: {error.strerror}", source=name) from None
    tables = read_tables(data, _REQUIRED, name, _OPTIONAL)
    return session_from_rows(tables, name)


def session_from_rows(tables: Mapping[str, Rows], source: str) -> BwsSession:
    """A :class:`BwsSession` from the database's rows (``{table: [{column: value}]}``), each
    table checked against the developer's guide and the others."""
    fail = _Failer(source)
    for name in _REQUIRED:
        if name not in tables:
            fail(f"the database has no {name} table")
    sections: dict[int, str] = {}
    counts: dict[int, int] = {}
    for row in tables["Section"]:
        ident = fail.number(row, "ID", "Section", 1, 78)
        letter = str(row.get("Letter") or "").strip()
        if not re.fullmatch(r"([A-Z])\1{0,2}", letter):
            fail(f"Section {ident}: letter {letter!r} is not A-Z, AA-ZZ or AAA-ZZZ")
        sections[ident] = letter
        counts[ident] = fail.number(row, "Tables", "Section", 1, MAX_ROUNDS)
    if not sections:
        fail("the Section table is empty")
    tables_seen = []
    for row in tables["Tables"]:
        section = fail.section(row, "Tables", sections)
        tables_seen.append((section, fail.number(row, "Table", "Tables", 1, MAX_ROUNDS)))
    for section, count in counts.items():
        have = {t for s, t in tables_seen if s == section}
        missing = sorted(set(range(1, count + 1)) - have)
        if missing:
            fail(f"section {sections[section]} has {count} tables but the Tables table has no "
                 f"table {missing[0]}")
    rounds = tuple(_round_row(row, sections, fail) for row in tables["RoundData"])
    _check_movement(rounds, counts, sections, fail)
    scores = tuple(_score(row, sections, fail) for row in tables["ReceivedData"])
    dates = sorted(str(r.get("DateLog") or "")[:10] for r in tables["ReceivedData"]
                   if r.get("DateLog"))
    return BwsSession(source, sections, tuple(sorted(tables_seen)), rounds, scores,
                      players=_players(tables, sections, fail),
                      hands=_hands(tables.get("HandRecord", []), sections, fail),
                      bidding=_bidding(tables.get("BiddingData", []), sections, fail),
                      date=dates[0] if dates else "")


class _Failer:
    """Raises one ResultFileError naming the file; reads the checked numbers of a row."""

    def __init__(self, source: str) -> None:
        self.source = source

    def __call__(self, reason: str) -> Any:
        raise ResultFileError(reason, source=self.source)

    def number(self, row: Mapping[str, Any], column: str, table: str, low: int, high: int
               ) -> int:
        value = row.get(column)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self(f"{table} row {_row_name(row)}: {column} {value!r} is not a number from {low} "
                 f"to {high}")
        assert isinstance(value, int)
        return value

    def section(self, row: Mapping[str, Any], table: str, sections: Mapping[int, str]) -> int:
        ident = self.number(row, "Section", table, 1, 78)
        if ident not in sections:
            self(f"{table} row {_row_name(row)}: section {ident} is not in the Section table")
        return ident


def _row_name(row: Mapping[str, Any]) -> str:
    if "ID" in row and isinstance(row["ID"], int):
        return f"ID {row['ID']}"
    parts = [f"{k.lower()} {row[k]}" for k in ("Table", "Round", "Board") if row.get(k) is not None]
    return "(" + ", ".join(parts) + ")" if parts else "?"


def _round_row(row: Mapping[str, Any], sections: Mapping[int, str], fail: _Failer) -> RoundRow:
    section = fail.section(row, "RoundData", sections)
    table = fail.number(row, "Table", "RoundData", 1, MAX_ROUNDS)
    round_ = fail.number(row, "Round", "RoundData", 1, MAX_ROUNDS)
    ns = fail.number(row, "NSPair", "RoundData", 0, 2 * MAX_ROUNDS)
    ew = fail.number(row, "EWPair", "RoundData", 0, 2 * MAX_ROUNDS)
    custom = str(row.get("CustomBoards") or "").strip()
    if custom:
        if not re.fullmatch(r"[0-9]{1,4}(\s*,\s*[0-9]{1,4})*", custom):
            fail(f"RoundData table {table} round {round_}: CustomBoards {custom[:40]!r} is not "
                 "board numbers separated by commas")
        boards = tuple(int(b) for b in custom.split(","))
        if list(boards) != sorted(set(boards)) or boards[0] < 1:
            fail(f"RoundData table {table} round {round_}: CustomBoards {custom[:40]!r} are not "
                 "in ascending order")
    else:
        low = fail.number(row, "LowBoard", "RoundData", 0, 10 * MAX_ROUNDS)
        high = fail.number(row, "HighBoard", "RoundData", 0, 10 * MAX_ROUNDS)
        if low > high or (low == 0) != (high == 0):
            fail(f"RoundData table {table} round {round_}: boards {low}-{high} is no range")
        boards = tuple(range(low, high + 1)) if low else ()
    return RoundRow(section, table, round_, ns, ew, boards)


def _check_movement(rounds: tuple[RoundRow, ...], counts: Mapping[int, int],
                    sections: Mapping[int, str], fail: _Failer) -> None:
    seen: dict[tuple[int, int, int], RoundRow] = {}
    for row in rounds:
        key = (row.section, row.table, row.round)
        name = f"RoundData section {sections[row.section]} table {row.table} round {row.round}"
        if key in seen:
            fail(f"{name} is given twice")
        if row.table > counts[row.section]:
            fail(f"{name}: the section has {counts[row.section]} tables")
        seen[key] = row
    for section in sections:
        played = {r.round for r in rounds if r.section == section}
        for round_ in sorted(played):
            at = {r.table for r in rounds if r.section == section and r.round == round_}
            missing = sorted(set(range(1, counts[section] + 1)) - at)
            if missing:
                fail(f"RoundData section {sections[section]} round {round_} has no row for "
                     f"table {missing[0]}")
            for side in ("NS", "EW"):
                sat: dict[int, int] = {}
                for r in rounds:
                    pair = r.ns if side == "NS" else r.ew
                    if r.section == section and r.round == round_ and pair:
                        if pair in sat:
                            fail(f"RoundData section {sections[section]} round {round_}: {side} "
                                 f"pair {pair} sits at tables {sat[pair]} and {r.table}")
                        sat[pair] = r.table


def _score(row: Mapping[str, Any], sections: Mapping[int, str], fail: _Failer) -> Score:
    ident = fail.number(row, "ID", "ReceivedData", 1, 2**31 - 1)
    section = fail.section(row, "ReceivedData", sections)
    numbers = [fail.number(row, column, "ReceivedData", low, high) for column, low, high in
               (("Table", 1, MAX_ROUNDS), ("Round", 1, MAX_ROUNDS), ("Board", 1, 10 * MAX_ROUNDS),
                ("PairNS", 0, 2 * MAX_ROUNDS), ("PairEW", 0, 2 * MAX_ROUNDS))]
    text = {k: str(row.get(k) or "").strip()[:255] for k in
            ("NS/EW", "Contract", "Result", "LeadCard", "Remarks")}
    seat = text["NS/EW"].upper()
    if text["Contract"] and text["Contract"].upper() != "PASS" and seat not in SEATS:
        fail(f"ReceivedData ID {ident}: declarer {text['NS/EW']!r} is not N, E, S or W")
    lead = text["LeadCard"].upper()
    if lead and not re.fullmatch(r"[SHDC]([2-9TJQKA]|10)", lead):
        fail(f"ReceivedData ID {ident}: lead card {text['LeadCard']!r} is not a suit and a "
             "rank (S2, DA, C10)")
    table, round_, board, pair_ns, pair_ew = numbers
    return Score(ident, section, table, round_, board, pair_ns, pair_ew, seat=seat, contract=text["Contract"],
                 result=text["Result"], lead=lead.replace("10", "T"), remarks=text["Remarks"],
                 erased=bool(row.get("Erased")))


def _players(tables: Mapping[str, Rows], sections: Mapping[int, str], fail: _Failer
             ) -> dict[tuple[int, int, str], tuple[str, str]]:
    by_number = {str(r.get("strID") or r.get("ID") or "").strip(): str(r.get("Name") or "").strip()
                 for r in tables.get("PlayerNames", [])}
    players: dict[tuple[int, int, str], tuple[str, str]] = {}
    for row in tables.get("PlayerNumbers", []):
        section = fail.section(row, "PlayerNumbers", sections)
        table = fail.number(row, "Table", "PlayerNumbers", 1, MAX_ROUNDS)
        seat = str(row.get("Direction") or "").strip().upper()
        if seat not in SEATS or not seat:
            fail(f"PlayerNumbers table {table}: direction {seat!r} is not N, E, S or W")
        number = str(row.get("Number") or "").strip()[:16]
        name = str(row.get("Name") or "").strip()[:40] or by_number.get(number, "")
        if number or name:
            players[(section, table, seat)] = (number, name)
    return players


def _hands(rows: Rows, sections: Mapping[int, str], fail: _Failer) -> dict[tuple[int, int], Deal]:
    hands: dict[tuple[int, int], Deal] = {}
    for row in rows:
        section = fail.section(row, "HandRecord", sections)
        board = fail.number(row, "Board", "HandRecord", 1, 10 * MAX_ROUNDS)
        seats = []
        for seat in ("North", "East", "South", "West"):
            suits = [str(row.get(f"{seat}{suit}") or "").strip().upper()
                     for suit in ("Spades", "Hearts", "Diamonds", "Clubs")]
            seats.append(".".join(suits))
        try:
            hands[(section, board)] = Deal.from_pbn("N:" + " ".join(seats))
        except CardlabError as error:
            fail(f"HandRecord board {board}: {error}")
    return hands


def _bidding(rows: Rows, sections: Mapping[int, str], fail: _Failer
             ) -> dict[tuple[int, int, int, int], tuple[str, ...]]:
    calls: dict[tuple[int, int, int, int], list[tuple[int, str]]] = {}
    for row in rows:
        if row.get("Erased"):
            continue
        section = fail.section(row, "BiddingData", sections)
        key = (section, *(fail.number(row, c, "BiddingData", 1, 10 * MAX_ROUNDS)
                          for c in ("Table", "Round", "Board")))
        counter = fail.number(row, "Counter", "BiddingData", 0, 1000)
        seat = str(row.get("Direction") or "").strip().upper()
        bid = str(row.get("Bid") or "").strip().upper()
        if seat not in SEATS or not seat or not re.fullmatch(r"[1-7](C|D|H|S|NT)|X|XX|PASS|SKIPBID",
                                                              bid):
            fail(f"BiddingData ID {row.get('ID')}: {seat} {bid!r} is not a seat and a bid")
        calls.setdefault(key, []).append((counter, f"{seat}:{bid}"))  # type: ignore[arg-type]
    return {key: tuple(call for _, call in sorted(found)) for key, found in calls.items()}


def _span(boards: tuple[int, ...]) -> str:
    if not boards:
        return "none"
    if list(boards) == list(range(boards[0], boards[-1] + 1)):
        return f"{boards[0]}-{boards[-1]}" if len(boards) > 1 else str(boards[0])
    return ",".join(map(str, boards))
