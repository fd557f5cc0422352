"""Team matches: IMPs per board between the two rooms, match totals, Victory Points on the
WBF continuous 20-point scale, and standings over several matches (round robin or Swiss).

Input: one line per table result, ``board,room,ns,ew,contract,declarer,tricks`` (plus the
optional ``score``, ``result``, ``lead``, ``vul`` columns of the traveller CSV); ``ns`` and
``ew`` are the teams seated NS and EW in that room.  A match is every board two teams
played against each other: on each board each team sits NS in one room and EW in the
other, and a team gains ``imps(its NS score − the other team's NS score)``.

**Victory Points** (WBF, "The New WBF IMP to VP Scales", technical report of the WBF
Scoring Panel, 2013, used since the 2013 Bali World Team Championships): for an IMP margin
M ≥ 0 in a match of B boards, X = 15·√B, τ = (√5 − 1)/2,
VP = 10 + 10·(1 − τ^(3M/X)) / (1 − τ³), capped at 20; the loser gets 20 − VP.  Values
are rounded to 2 decimals for each integer margin; where rounding breaks concavity (an
extra IMP worth more than the one before) the earlier value is raised by 0.01 until every
increment is at most the one before it (our reading of the report's correction; see
docs/scoring.md).

>>> round(wbf_vp(0, 16), 2), wbf_vp(7, 3), wbf_vp(-7, 3), wbf_vp(200, 16)
(10.0, 14.22, 5.78, 20.0)
"""

from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Iterable, Mapping

from cardlab.results import JsonText
from cardlab.textformat import plural
from cardlab.scoring.matchpoints import imps
from cardlab.scoring.traveller import TravellerLine
from cardlab.errors import CardlabError, ResultFileError, ScoringError

__all__ = ["TAU", "vp_table", "wbf_vp", "TeamLine", "read_team_lines", "BoardImps",
           "MatchResult", "TeamStanding", "TeamsResult", "score_teams", "load_teams"]

#: τ = (√5 − 1)/2, the WBF scale's base.
TAU = (math.sqrt(5.0) - 1.0) / 2.0


def _exact_vp(margin: int, boards: int) -> float:
    blitz = 15.0 * math.sqrt(boards)
    decay: float = TAU ** (3.0 * margin / blitz)
    return min(20.0, 10.0 + 10.0 * (1.0 - decay) / (1.0 - TAU ** 3))


@lru_cache(maxsize=64)
def vp_table(boards: int) -> tuple[float, ...]:
    """The winner's VPs for margins 0, 1, ... up to the first margin worth 20 (2 decimals,
    concavity-corrected).

    >>> vp_table(1)[:6]
    (10.0, 11.2, 12.29, 13.28, 14.18, 15.0)
    >>> vp_table(0)
    Traceback (most recent call last):
    ...
    cardlab.errors.ScoringError: a match has at least 1 board, not 0
    """
    if boards < 1:
        raise ScoringError(f"a match has at least 1 board, not {boards}")
    cents = [round(_exact_vp(0, boards) * 100)]
    margin = 0
    while cents[-1] < 2000:
        margin += 1
        cents.append(min(2000, round(_exact_vp(margin, boards) * 100)))
    changed = True
    while changed:  # restore concavity broken by rounding: increments never grow
        changed = False
        for i in range(1, len(cents) - 1):
            if cents[i + 1] - cents[i] > cents[i] - cents[i - 1]:
                cents[i] += 1
                changed = True
    return tuple(c / 100 for c in cents)


def wbf_vp(margin: int | float, boards: int) -> float:
    """Victory Points of a team that won by ``margin`` IMPs (negative: lost) in ``boards``
    boards.  A fractional margin (adjusted IMPs) is rounded to the nearest whole IMP first."""
    m = int(math.floor(abs(margin) + 0.5))
    table = vp_table(boards)
    vp = table[m] if m < len(table) else 20.0
    return vp if margin >= 0 else round(20.0 - vp, 2)


@dataclass(frozen=True)
class TeamLine:
    """One table result of a team match: the room and the checked traveller line."""

    room: str
    line: TravellerLine


def read_team_lines(text: str, source: str | None = None) -> list[TeamLine]:
    """Read ``board,room,ns,ew,contract,declarer,tricks`` lines (CSV with a header)."""
    reader = csv.reader(io.StringIO(text, newline=""))
    names: list[str] | None = None
    out: list[TeamLine] = []
    known = ("board", "room", "ns", "ew", "contract", "declarer", "tricks", "result",
             "score", "lead", "vul")
    rows = iter(reader)
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as error:  # a field over csv's limit (a PBN that does not look like one), a NUL
            raise ResultFileError(f"malformed CSV: {error}", line=reader.line_num, source=source) from None
        number = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if names is None:
            names = [c.strip().lower() for c in row]
            for name in names:
                if name not in known:
                    raise ResultFileError(f"unknown column {name!r} (known: {', '.join(known)})",
                                          line=number, source=source)
            missing = [n for n in ("board", "room", "ns", "ew", "contract") if n not in names]
            if missing:
                raise ResultFileError("header lacks " + ", ".join(missing), line=number,
                                      source=source)
            continue
        if len(row) != len(names):
            raise ResultFileError(f"expected {len(names)} fields, found {len(row)}",
                                  line=number, source=source)
        cells = dict(zip(names, row))
        try:
            line = TravellerLine.make(
                cells["board"], cells["ns"], cells["ew"], contract=cells["contract"],
                declarer=cells.get("declarer"), tricks=cells.get("tricks"),
                result=cells.get("result"), score=cells.get("score"), lead=cells.get("lead"),
                vulnerability=cells.get("vul"), source_line=number)
        except CardlabError as error:
            raise ResultFileError(str(error), line=number, source=source) from None
        if line.is_adjusted:
            raise ResultFileError("an artificial adjusted score has no place in a team match: "
                                  "give the result", line=number, source=source)
        out.append(TeamLine(cells["room"].strip(), line))
    if not out:
        raise ResultFileError("no team results in the file", source=source)
    return out


@dataclass(frozen=True)
class BoardImps:
    """One board of a match: each team's NS score and the IMPs to ``home``."""

    board: int
    home: str
    away: str
    home_ns_score: int
    away_ns_score: int
    imps: int


@dataclass(frozen=True)
class MatchResult:
    """One match between two teams: the IMPs of each board, the IMP totals and the WBF VPs."""
    home: str
    away: str
    boards: tuple[BoardImps, ...]
    home_imps: int
    away_imps: int
    home_vp: float
    away_vp: float


@dataclass(frozen=True)
class TeamStanding:
    """A team's line in the standings: matches played, IMPs won and lost, VPs and place."""
    team: str
    matches: int
    imps_for: int
    imps_against: int
    vp: float
    place: str


@dataclass(frozen=True)
class TeamsResult(JsonText):
    """Every match of a team event and the standings by VPs."""

    matches: tuple[MatchResult, ...]
    standings: tuple[TeamStanding, ...]
    title: str = ""
    #: What was inferred or left out (rooms read without Room tags, boards played in one room).
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        leader = self.standings[0] if self.standings else None
        first = f"; first: {leader.team} {leader.vp:.2f} VP" if leader else ""
        return f"<TeamsResult {len(self.matches)} matches, {len(self.standings)} teams{first}>"

    def to_dict(self) -> dict[str, Any]:
        """Matches and standings as a JSON-ready dict."""
        return {
            "matches": [{"home": m.home, "away": m.away, "home_imps": m.home_imps,
                         "away_imps": m.away_imps, "home_vp": m.home_vp, "away_vp": m.away_vp,
                         "boards": [{"board": b.board, "home_ns_score": b.home_ns_score,
                                     "away_ns_score": b.away_ns_score, "imps": b.imps}
                                    for b in m.boards]} for m in self.matches],
            "standings": [{"team": s.team, "matches": s.matches, "imps_for": s.imps_for,
                           "imps_against": s.imps_against, "vp": s.vp, "place": s.place}
                          for s in self.standings],
        }

    def to_csv(self) -> str:
        """The standings, one CSV row per team."""
        rows = ["place,team,matches,imps_for,imps_against,vp"]
        rows += [f"{s.place},{s.team},{s.matches},{s.imps_for},{s.imps_against},{s.vp:.2f}"
                 for s in self.standings]
        return "\n".join(rows) + "\n"

    def to_pandas(self) -> Any:
        """The standings as a pandas DataFrame (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame(self.to_dict()["standings"])

    def table(self) -> str:
        """Matches then standings, as plain text."""
        out = [self.title] if self.title else []
        out.append("Matches")
        for m in self.matches:
            out.append(f"  {m.home:>10} {m.home_imps:>4} - {m.away_imps:<4} {m.away:<10} "
                       f"VP {m.home_vp:5.2f} - {m.away_vp:5.2f}  ({plural(len(m.boards), 'board')})")
        out.append("Standings")
        out.append(f"  {'Place':>5}  {'Team':<10} {'Played':>6} {'IMPs +':>7} {'IMPs -':>7} "
                   f"{'VP':>7}")
        for s in self.standings:
            out.append(f"  {s.place:>5}  {s.team:<10} {s.matches:>6} {s.imps_for:>7} "
                       f"{s.imps_against:>7} {s.vp:>7.2f}")
        return "\n".join(out) + "\n"

    def _repr_html_(self) -> str:
        import html

        rows = "".join(f"<tr><td>{s.place}</td><td>{html.escape(s.team)}</td><td>{s.matches}"
                       f"</td><td>{s.imps_for}</td><td>{s.imps_against}</td><td>{s.vp:.2f}"
                       "</td></tr>" for s in self.standings)
        return ("<table><tr><th>Place</th><th>Team</th><th>Played</th><th>IMPs +</th>"
                f"<th>IMPs -</th><th>VP</th></tr>{rows}</table>")


def _natural(text: str) -> tuple[int, int, str]:
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def score_teams(lines: Iterable[TeamLine], title: str = "",
                names: Mapping[str, str] | None = None) -> TeamsResult:
    """IMPs per board, match totals, VPs (WBF continuous scale) and standings; ``names``
    renames team ids for display."""
    result, one_room = _score_teams(lines, title)
    rename = dict(names or {})

    def n(team: str) -> str:
        return rename.get(team, team)

    notes = tuple(f"board {board} of {' v '.join(n(t) for t in teams)} was played in one room only "
                  "(the other room has no result): not scored" for board, teams in one_room)
    # every board passed out at both tables (a score of 0 is a pass-out, no contract scores 0):
    # often a bye or a withdrawn team, worth saying rather than ranking silently as a draw
    notes += tuple(f"{n(m.home)} v {n(m.away)}: every board ({len(m.boards)}) passed out in both rooms; "
                   "scored as a 0-0 draw" for m in result.matches
                   if all(b.home_ns_score == b.away_ns_score == 0 for b in m.boards))
    if not names:
        return replace(result, notes=notes)
    matches = tuple(MatchResult(n(m.home), n(m.away), tuple(
        BoardImps(b.board, n(b.home), n(b.away), b.home_ns_score, b.away_ns_score, b.imps)
        for b in m.boards), m.home_imps, m.away_imps, m.home_vp, m.away_vp)
        for m in result.matches)
    standings = tuple(TeamStanding(n(s.team), s.matches, s.imps_for, s.imps_against, s.vp,
                                   s.place) for s in result.standings)
    return TeamsResult(matches, standings, title, notes)


def _score_teams(lines: Iterable[TeamLine], title: str = ""
                 ) -> tuple[TeamsResult, list[tuple[int, list[str]]]]:
    """The result, and the boards played in one room only (board, the two teams), left out."""
    by_board: dict[tuple[int, frozenset[str]], list[TeamLine]] = defaultdict(list)
    order: list[tuple[int, frozenset[str]]] = []
    for tl in lines:
        if tl.line.ns == tl.line.ew:
            raise _err(tl, f"team {tl.line.ns} plays against itself on board {tl.line.board}")
        key = (tl.line.board, frozenset((tl.line.ns, tl.line.ew)))
        if key not in by_board:
            order.append(key)
        by_board[key].append(tl)
    matches: dict[frozenset[str], list[BoardImps]] = defaultdict(list)
    homes: dict[frozenset[str], str] = {}
    one_room: list[TeamLine] = []
    for key in order:
        pair = by_board[key]
        board, teams = key
        if len(pair) == 1:  # the other room has no result: the rest of the file is still scored
            one_room.append(pair[0])
            continue
        if len(pair) != 2 or pair[0].line.ns == pair[1].line.ns:
            who = " v ".join(sorted(teams, key=_natural))
            raise _err(pair[-1], f"board {board} of {who} needs one result with each team NS "
                                 f"(found {len(pair)})")
        home = homes.setdefault(teams, pair[0].line.ns)
        first, second = (pair[0], pair[1]) if pair[0].line.ns == home else (pair[1], pair[0])
        assert isinstance(first.line.score, int) and isinstance(second.line.score, int)
        gain = int(imps([first.line.score - second.line.score])[0])
        away = first.line.ew
        matches[teams].append(BoardImps(board, home, away, first.line.score, second.line.score,
                                        gain))
    if one_room and not matches:
        tl = one_room[0]
        who = " v ".join(sorted((tl.line.ns, tl.line.ew), key=_natural))
        raise _err(tl, f"board {tl.line.board} of {who} needs one result with each "
                       "team NS (found 1)")
    results: list[MatchResult] = []
    standing: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0])
    for teams, boards in matches.items():
        home, away = boards[0].home, boards[0].away
        home_imps = sum(b.imps for b in boards if b.imps > 0)
        away_imps = -sum(b.imps for b in boards if b.imps < 0)
        home_vp = wbf_vp(home_imps - away_imps, len(boards))
        away_vp = round(20.0 - home_vp, 2)
        results.append(MatchResult(home, away, tuple(boards), home_imps, away_imps, home_vp,
                                   away_vp))
        for team, gained, lost, vp in ((home, home_imps, away_imps, home_vp),
                                       (away, away_imps, home_imps, away_vp)):
            row = standing[team]
            row[0] += 1
            row[1] += gained
            row[2] += lost
            row[3] += vp
    ranked = sorted(standing.items(), key=lambda kv: (-round(kv[1][3], 2), _natural(kv[0])))
    places: list[str] = []
    values = [round(v[3], 2) for _, v in ranked]
    for i, value in enumerate(values):
        first_i = values.index(value)
        shared = values.count(value) > 1
        places.append(f"{first_i + 1}=" if shared else str(first_i + 1))
    standings = tuple(TeamStanding(team, int(v[0]), int(v[1]), int(v[2]), round(v[3], 2), place)
                      for (team, v), place in zip(ranked, places))
    return TeamsResult(tuple(results), standings, title), [
        (tl.line.board, sorted((tl.line.ns, tl.line.ew), key=_natural)) for tl in one_room]


def _err(tl: TeamLine, reason: str) -> ScoringError:
    if tl.line.source_line is not None:
        return ResultFileError(reason, line=tl.line.source_line)
    return ScoringError(reason)


def load_teams(path: str, source: str | None = None) -> TeamsResult:
    """Read a team-results file and score it: CSV table results, or PBN game records with
    ``Room``, ``HomeTeam`` and ``VisitTeam`` (chosen by content).  Errors name the file."""
    from pathlib import Path

    from cardlab.scoring.pbn import looks_like_pbn, read_pbn_team_file
    from cardlab.scoring.results_file import decode_text
    from cardlab.textfile import read_bytes

    name = source or Path(path).name
    text = decode_text(read_bytes(path, ResultFileError, name), name)
    if text.lstrip("\ufeff \t\r\n").startswith("<"):
        raise ResultFileError("an XML (USEBIO) file: team matches are read from CSV table results or "
                              "PBN games with Room, HomeTeam and VisitTeam; USEBIO team events are "
                              "not read yet", source=name)
    try:
        if looks_like_pbn(text):
            games, names, inferred = read_pbn_team_file(text, name)
            result = score_teams([TeamLine(room, line) for room, line in games], names=names)
            return replace(result, notes=inferred + result.notes)
        return score_teams(read_team_lines(text, name))
    except ResultFileError as error:
        if error.source is None:
            raise ResultFileError(error.reason, line=error.line, source=name) from None
        raise
