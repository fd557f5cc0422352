"""PBN results: per-table game records and the PBN 2.1 score tables, in and out.

Two ways a PBN file carries results, both read:

* one game record per table result: ``[Board]``, ``[Deal]``, ``[Declarer]``,
  ``[Contract]``, ``[Result]`` (tricks won by declarer), the players ``[North]`` ...
  ``[West]`` (pairs numbered in order of first appearance) or pair ids
  ``[PairId_NS]``/``[PairId_EW]``, optional ``[Vulnerable]`` and ``[Score]``;
* PBN 2.1 tables (standard §5 "tables"): ``[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;
  Contract\\4L;Declarer\\1R;Result\\2R;Score_NS\\6R;MP_NS\\5R;MP_EW\\5R"]`` followed by one row
  per table result, and ``[TotalScoreTable "Rank\\2R;PairId\\2R;TotalScoreMP\\5R;
  TotalPercentage\\5R;Names\\40L"]`` followed by one row per pair.  Column names are read
  up to the backslash (width and alignment are for display only); tokens are separated by
  blanks, strings may be quoted.

A tag value ``#`` repeats the previous game's value (PBN §3.8).  Matchpoints, IMPs,
percentages and ranks in the tables are kept apart as reported figures for ``--check``.

>>> text = '''[Event "Club"]
... [Board "1"]
... [Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
... [ScoreTable "PairId_NS\\\\2R;PairId_EW\\\\2R;Contract\\\\4L;Declarer\\\\1R;Result\\\\2R;MP_NS\\\\3R;MP_EW\\\\3R"]
... 1 1 "4S" N 10 1 0
... 2 2 Pass - - 0 1
... '''
>>> doc = read_pbn(text)
>>> [(l.ns, l.ew, l.score) for l in doc.lines], doc.reported.line_points
([('1', '1', 420), ('2', '2', 0)], (('1', '0'), ('0', '1')))
>>> doc.deals[1]
Board(1, 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765', dealer N, None)
>>> read_pbn('[Board "1"]\\n[PairId_NS "1"]\\n[PairId_EW "2"]\\n[Contract "4S"]\\n'
...          '[Declarer "N"]\\n[Result "14"]\\n')
Traceback (most recent call last):
...
cardlab.errors.ResultFileError: line 6: tricks must be a whole number from 0 to 13, not '14'
"""

from __future__ import annotations

import re

from cardlab import pbn
from cardlab.deal import Board, Deal
from cardlab.scoring.document import Method, PairKey, Reported, ResultsFile, split_pair_id
from cardlab.scoring.traveller import TravellerLine
from cardlab.errors import CardlabError, InputFileError, ResultFileError

__all__ = ["read_pbn", "looks_like_pbn", "method_of_scoring", "read_pbn_team_games",
           "read_pbn_team_file", "IMP_PAIRS_RULE"]

_TOKEN_RE = re.compile(r'"((?:[^"\\]|\\.)*)"|(\S+)')
_SCORING = {"MP": Method.MP, "MATCHPOINTS": Method.MP, "MATCHPOINT": Method.MP,
            "CROSS-IMP": Method.CROSS_IMPS, "CROSSIMP": Method.CROSS_IMPS,
            "CROSS-IMPS": Method.CROSS_IMPS, "BUTLER": Method.BUTLER,
            "BUTLER-IMP": Method.BUTLER, "BUTLER-IMPS": Method.BUTLER, "IMP-BUTLER": Method.BUTLER,
            "MEDIAN-IMP": Method.MEDIAN_IMPS, "MEDIAN-IMPS": Method.MEDIAN_IMPS}

#: ``Scoring "IMP"`` (PBN 2.1 lists it; JFR Pary, the Polish scoring program, writes it for
#: IMP pairs) says IMPs but not against what.  For a pairs session we assume what JFR Pary
#: does: IMPs against the median score of the board (its printed datum is the median on every
#: board of the session in tests/data/SOURCES.md); ``--method butler`` or ``cross-imps``
#: chooses another rule and ``--check`` says which one the file's figures follow.
IMP_PAIRS_RULE = Method.MEDIAN_IMPS
_IMP_WORDS = ("IMP", "IMPS")


def method_of_scoring(scoring: str, source: str | None = None) -> Method:
    """The method a PBN ``Scoring`` tag names, or an error naming it.

    >>> method_of_scoring("MP").value, method_of_scoring("Cross-IMP").value
    ('mp', 'cross-imps')
    >>> method_of_scoring("IMP").value  # assumed: IMPs against the median (IMP_PAIRS_RULE)
    'median-imps'
    >>> method_of_scoring("BAM")
    Traceback (most recent call last):
    ...
    cardlab.errors.ResultFileError: Scoring 'BAM' is not one we score (known: MP, IMP, Cross-IMP, Butler); give --method to score it anyway
    """
    word = scoring.replace(" ", "").upper().split(";")[0]
    if word in _IMP_WORDS:
        return IMP_PAIRS_RULE
    method = _SCORING.get(word)
    if method is None:
        raise ResultFileError(f"Scoring {scoring!r} is not one we score (known: MP, IMP, "
                              "Cross-IMP, Butler); give --method to score it anyway",
                              source=source)
    return method


def looks_like_pbn(text: str) -> bool:
    """Whether ``text`` starts like a PBN file (a ``%`` comment or a ``[Tag "value"]``)."""
    return pbn.looks_like_pbn(text)


def _columns(spec: str) -> list[str]:
    return [part.split("\\", 1)[0].strip() for part in spec.split(";") if part.strip()]


def _tokens(line: str) -> list[str]:
    return [q if q is not None and m.group(1) is not None else u
            for m in _TOKEN_RE.finditer(line) for q, u in [(m.group(1), m.group(2))]]


def _given(value: str | None) -> bool:
    return value is not None and value.strip() not in ("", "-", "?")


def _games(text: str, source: str | None) -> list[
        tuple[dict[str, str], dict[str, int], dict[str, list[tuple[int, list[str]]]]]]:
    """Each game's tags, their lines and its score tables' rows, read by :mod:`cardlab.pbn`."""
    out: list[tuple[dict[str, str], dict[str, int], dict[str, list[tuple[int, list[str]]]]]] = []
    try:
        for game in pbn.games(text, source):
            tables: dict[str, list[tuple[int, list[str]]]] = {
                name: [(number, _tokens(row)) for number, row in game.sections.get(name, [])]
                for name in ("ScoreTable", "TotalScoreTable") if name in game.tags}
            out.append((game.tags, game.where, tables))
    except ResultFileError:
        raise
    except InputFileError as error:
        raise ResultFileError(error.reason, line=error.line, source=error.source) from None
    return out


def read_pbn(text: str, source: str | None = None) -> ResultsFile:
    """Read the results of a PBN text into a :class:`ResultsFile` (format ``pbn``);
    ``source`` names the file in messages."""
    return _document(_games(text, source), source)


def read_pbn_team_games(text: str, source: str | None = None
                        ) -> tuple[list[tuple[str, TravellerLine]], dict[str, str]]:
    """The table results of a PBN team match: (room, line) pairs whose NS and EW are team
    numbers, and the team names by number (see :func:`read_pbn_team_file`)."""
    games, names, _ = read_pbn_team_file(text, source)
    return games, names


def read_pbn_team_file(text: str, source: str | None = None
                       ) -> tuple[list[tuple[str, TravellerLine]], dict[str, str], tuple[str, ...]]:
    """:func:`read_pbn_team_games` and notes saying what was inferred.

    Each game has ``[Room "Open"]`` or ``[Room "Closed"]``, ``[HomeTeam]`` and
    ``[VisitTeam]``: the home team sits NS in the open room and EW in the closed room.
    Exports without ``Room`` (RealBridge's) are read from what they do say: the two tables
    (``Table``) where the same two teams meet. When the two tables name the teams the other
    way round, each table's ``HomeTeam`` is the team sitting NS there (RealBridge's
    convention; the table where the match's first-named team sits NS is called the open
    room); when both name them the same way, the first table is the open room."""
    numbers: dict[str, str] = {}
    rows: list[tuple[dict[str, str], int]] = []
    for tags, where, _ in _games(text, source):
        if not (_given(tags.get("Contract")) or tags.get("Contract", "").upper() == "PASS"):
            continue
        number = where.get("Result", where.get("Contract", 0))
        room = tags.get("Room", "")
        home, visit = tags.get("HomeTeam", ""), tags.get("VisitTeam", "")
        if not (_given(home) and _given(visit)) or (room and room.lower() not in ("open", "closed")) \
                or (not room and not _given(tags.get("Table"))):
            raise ResultFileError("a team game needs Room (Open or Closed), or Table, and HomeTeam "
                                  "and VisitTeam", line=number, source=source)
        rows.append((tags, number))
    rooms, notes = _infer_rooms([tags for tags, _ in rows])
    out: list[tuple[str, TravellerLine]] = []
    for (tags, number), (room, ns_team, ew_team) in zip(rows, rooms):
        ns, ew = (numbers.setdefault(team, str(len(numbers) + 1)) for team in (ns_team, ew_team))
        vul = tags.get("Vulnerable") if _given(tags.get("Vulnerable")) else None
        out.append((room, _make(tags.get("Board"), ns, ew, contract=tags.get("Contract"),
                                declarer=tags.get("Declarer"), result=tags.get("Result"),
                                score=None, vul=vul, number=number, source=source)))
    if not out:
        raise ResultFileError("no team results in the PBN file", source=source)
    return out, {number: name for name, number in numbers.items()}, notes


def _infer_rooms(games: list[dict[str, str]]) -> tuple[list[tuple[str, str, str]], tuple[str, ...]]:
    """Each game's (room, NS team, EW team), and notes on what was inferred without ``Room``."""
    tables: dict[frozenset[str], dict[str, tuple[str, str]]] = {}
    for tags in games:
        if not tags.get("Room"):
            match = frozenset((tags["HomeTeam"], tags["VisitTeam"]))
            tables.setdefault(match, {}).setdefault(tags["Table"], (tags["HomeTeam"], tags["VisitTeam"]))
    swapped: dict[frozenset[str], bool] = {}
    for match, seen in tables.items():
        orientations = set(seen.values())
        swapped[match] = len(orientations) == 2
    out: list[tuple[str, str, str]] = []
    for tags in games:
        home, visit = tags["HomeTeam"], tags["VisitTeam"]
        room = tags.get("Room", "")
        if room:
            out.append((room, home, visit) if room.lower() == "open" else (room, visit, home))
            continue
        match = frozenset((home, visit))
        seen = tables[match]
        first_table, (first_home, _) = next(iter(seen.items()))
        if swapped[match]:  # HomeTeam is the team sitting NS at this table
            out.append(("Open" if home == first_home else "Closed", home, visit))
        else:  # one orientation: the first table is the open room
            open_room = tags["Table"] == first_table
            out.append(("Open", home, visit) if open_room else ("Closed", visit, home))
    notes: list[str] = []
    if tables:
        by_rule = sum(swapped.values())
        fixed = len(tables) - by_rule
        if by_rule:
            notes.append(f"no Room tags: rooms inferred from the tables of {by_rule} match(es), "
                         "whose two tables name the teams the other way round: each table's HomeTeam "
                         "sits NS there (RealBridge's convention)")
        if fixed:
            notes.append(f"no Room tags: in {fixed} match(es) every table names the teams the same "
                         "way: the first table is taken as the open room (HomeTeam NS)")
    return out, tuple(notes)


def _board(number: int, tags: dict[str, str], where: dict[str, int], source: str | None) -> Board:
    """The hand record of a game: its deal, with the dealer and vulnerability it gives."""
    try:
        deal = Deal.from_pbn(tags["Deal"])
    except CardlabError as error:
        raise ResultFileError(f"board {number}: {error}", line=where.get("Deal"), source=source) from None
    given = tuple((name, tags[name]) for name in ("Dealer", "Vulnerable") if _given(tags.get(name)))
    return Board(number, deal, given)


def _document(games: list[tuple[dict[str, str], dict[str, int],
                                dict[str, list[tuple[int, list[str]]]]]],
              source: str | None) -> ResultsFile:
    lines: list[TravellerLine] = []
    points: list[tuple[str | None, str | None]] = []
    deals: dict[int, Board] = {}
    names: dict[PairKey, tuple[str, ...]] = {}
    pair_ids: dict[frozenset[str], str] = {}
    reported_pairs: dict[PairKey, dict[str, str]] = {}
    first: dict[str, str] = {}
    for tags, where, tables in games:
        for key in ("Event", "Site", "Date", "Scoring"):
            if key in tags and key not in first and tags[key] not in ("", "?", "#"):
                first[key] = tags[key]
        board = tags.get("Board")
        if board and _given(tags.get("Deal")) and board.isdigit():
            deals[int(board)] = _board(int(board), tags, where, source)
        vul = tags.get("Vulnerable") if _given(tags.get("Vulnerable")) else None
        if "ScoreTable" in tables:
            if not board:
                raise ResultFileError("ScoreTable without a Board tag",
                                      line=where["ScoreTable"], source=source)
            columns = _columns(tags["ScoreTable"])
            for number, row in tables["ScoreTable"]:
                line, figures = _table_line(board, columns, row, vul, number, source)
                lines.append(line)
                points.append(figures)
        elif _given(tags.get("Contract")) or tags.get("Contract", "").upper() == "PASS":
            lines.append(_game_line(board, tags, where, vul, pair_ids, names, source))
            points.append((None, None))
        if "TotalScoreTable" in tables:
            columns = _columns(tags["TotalScoreTable"])
            for number, row in tables["TotalScoreTable"]:
                _total_row(columns, row, number, source, reported_pairs, names)
    if not lines:
        raise ResultFileError("no results in the PBN file (no Contract or ScoreTable)",
                              source=source)
    scoring = first.get("Scoring")
    method, assumed, error = _scoring_method(scoring)
    return ResultsFile(source or "", "pbn", tuple(lines), names, title=first.get("Event", ""),
                       club=first.get("Site", ""), date=first.get("Date", ""),
                       event_type=scoring, method=method, assumed_method=assumed,
                       method_error=error, reported=Reported(tuple(points), reported_pairs),
                       deals=deals)


def _scoring_method(scoring: str | None) -> tuple[Method | None, Method | None, str | None]:
    """(method named, method assumed, why not scored) for a ``Scoring`` tag value."""
    if not scoring:
        return None, None, None
    word = scoring.replace(" ", "").upper().split(";")[0]
    if word in _IMP_WORDS:
        return None, IMP_PAIRS_RULE, None
    try:
        return method_of_scoring(scoring), None, None
    except ResultFileError as error:
        return None, None, error.reason


def _make(board: str | None, ns: str, ew: str, *, contract: str | None, declarer: str | None,
          result: str | None, score: str | None, vul: str | None, number: int,
          source: str | None) -> TravellerLine:
    tricks = result if result is not None and result.isdigit() else None
    relative = result if _given(result) and tricks is None else None
    try:
        return TravellerLine.make(
            board or "", ns, ew,
            contract=contract if _given(contract) else None,
            declarer=declarer if _given(declarer) else None,
            tricks=tricks, result=relative,
            score=score if _given(score) else None,
            vulnerability=vul, source_line=number)
    except CardlabError as error:
        raise ResultFileError(str(error), line=number, source=source) from None


def _table_line(board: str, columns: list[str], row: list[str], vul: str | None, number: int,
                source: str | None) -> tuple[TravellerLine, tuple[str | None, str | None]]:
    if len(row) != len(columns):
        raise ResultFileError(f"ScoreTable row has {len(row)} fields, the header names "
                              f"{len(columns)}", line=number, source=source)
    cells = dict(zip(columns, row))
    for needed in ("PairId_NS", "PairId_EW"):
        if needed not in cells:
            raise ResultFileError(f"ScoreTable has no {needed} column", line=number,
                                  source=source)
    score = cells.get("Score_NS")
    if not _given(score) and _given(cells.get("Score_EW")):
        ew = cells["Score_EW"]
        score = ew[1:] if ew.startswith("-") else ("-" + ew if ew != "0" else ew)
    contract = cells.get("Contract")
    if contract is not None and contract.upper() in ("PASS", "AP", "P"):
        contract = "PASS"
    if score is not None and score.upper().startswith("A") and not _given(contract):
        contract = None
    line = _make(board, split_pair_id(cells["PairId_NS"])[0], split_pair_id(cells["PairId_EW"])[0],
                 contract=contract, declarer=cells.get("Declarer"), result=cells.get("Result"),
                 score=score if (score or "").upper().startswith("A") or not _given(contract)
                 else (score if score and score.lstrip("-").isdigit() else None),
                 vul=vul, number=number, source=source)
    for ns_tag, ew_tag in (("MP_NS", "MP_EW"), ("IMP_NS", "IMP_EW")):
        if ns_tag in cells or ew_tag in cells:
            return line, (cells.get(ns_tag), cells.get(ew_tag))
    return line, (None, None)


def _game_line(board: str | None, tags: dict[str, str], where: dict[str, int], vul: str | None,
               pair_ids: dict[frozenset[str], str], names: dict[PairKey, tuple[str, ...]],
               source: str | None) -> TravellerLine:
    number = where.get("Result", where.get("Contract", 0))
    ids = []
    for side, seats in (("NS", ("North", "South")), ("EW", ("East", "West"))):
        given = tags.get(f"PairId_{side}")
        if _given(given):
            ids.append(split_pair_id(given or "")[0])
            continue
        players = tuple(tags.get(seat, "") for seat in seats)
        if not any(_given(p) for p in players):
            raise ResultFileError(f"game record of board {board} names no {side} pair "
                                  f"(PairId_{side} or {seats[0]}/{seats[1]})",
                                  line=number, source=source)
        key = frozenset(players)
        if key not in pair_ids:
            pair_ids[key] = str(len(pair_ids) + 1)
        ids.append(pair_ids[key])
        names.setdefault((side, pair_ids[key]), players)
        names.setdefault((None, pair_ids[key]), players)
    score = None
    if _given(tags.get("Score")):
        side, _, value = tags["Score"].partition(" ")
        if value and side.upper() in ("NS", "EW"):
            score = value if side.upper() == "NS" else str(-int(value))
    return _make(board, ids[0], ids[1], contract=tags.get("Contract"),
                 declarer=tags.get("Declarer"), result=tags.get("Result"), score=score,
                 vul=vul, number=number, source=source)


def _total_row(columns: list[str], row: list[str], number: int, source: str | None,
               reported: dict[PairKey, dict[str, str]],
               names: dict[PairKey, tuple[str, ...]]) -> None:
    if len(row) != len(columns):
        raise ResultFileError(f"TotalScoreTable row has {len(row)} fields, the header names "
                              f"{len(columns)}", line=number, source=source)
    cells = dict(zip(columns, row))
    if "PairId" not in cells:
        raise ResultFileError("TotalScoreTable has no PairId column", line=number, source=source)
    pair, suffix = split_pair_id(cells["PairId"])
    direction = cells.get("Direction") if _given(cells.get("Direction")) else suffix
    key: PairKey = (direction.upper() if direction else None, pair)
    figures: dict[str, str] = {}
    for column, tag in (("Rank", "PLACE"), ("TotalPercentage", "PERCENTAGE"),
                        ("TotalScoreMP", "TOTAL_SCORE"), ("TotalScoreIMP", "TOTAL_SCORE"),
                        ("TotalIMP", "TOTAL_SCORE")):
        if _given(cells.get(column)):
            figures[tag] = cells[column]
    reported[key] = figures
    if _given(cells.get("Names")):
        names[key] = tuple(n.strip() for n in re.split(r"\s+[&-]\s+|\s+and\s+", cells["Names"]))
