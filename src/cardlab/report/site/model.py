"""What the pages show, worked out from a :class:`SessionResult`: no HTML here.

Each pair's scorecard is built from the same scored lines as the ranking, so its
rows add up to the pair's total; tests check that for every pair.

>>> from cardlab.scoring.session import score_session
>>> from cardlab.scoring.traveller import TravellerLine as T
>>> session = score_session([T.make(1, "1", "1", contract="3NT", declarer="N", tricks=10),
...                          T.make(1, "2", "2", contract="4S", declarer="E", tricks=10)])
>>> card = scorecards(session)[("NS", "1")]
>>> [(r.board, r.opponents.label, r.contract, r.score, r.points) for r in card.rows]
[(1, 'EW 1', '3NT+1', 430, 1.0)]
>>> card.total, session.pairs[0].total
(1.0, 1.0)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Collection, Mapping

from cardlab.board import SEATS, Vulnerability, dealer
from cardlab.bridge.deals import hand_hcp
from cardlab.deal import Board, Deal
from cardlab.cards import SUIT_ORDER, SUIT_SYMBOLS, SUITS, format_pbn_hand
from cardlab.scoring.session import (
    BoardResult,
    Method,
    Movement,
    PairKey,
    PairResult,
    ScoredLine,
    SessionResult,
)
from cardlab.scoring.traveller import AdjustedScore
from cardlab.report.site.dd import DoubleDummy, double_dummy, double_dummy_all

__all__ = [
    "PairRef",
    "ScoreRow",
    "Scorecard",
    "TravellerRow",
    "HandRecord",
    "BoardPage",
    "pair_ref",
    "scorecards",
    "board_pages",
    "hand_record",
    "factored_boards",
]


@dataclass(frozen=True)
class PairRef:
    """A pair as a link: ``label`` "NS 3" (Mitchell) or "3" (Howell), its page and names."""

    key: PairKey
    label: str
    page: str
    names: str
    phantom: bool = False


def pair_ref(key: PairKey, names: Mapping[PairKey, tuple[str, ...]],
             phantoms: Collection[PairKey] = ()) -> PairRef:
    """How pages name and link a pair: label, page file, names, phantom or not."""
    direction, number = key
    label = f"{direction} {number}" if direction else number
    page = f"pair-{direction.lower()}-{number}.html" if direction else f"pair-{number}.html"
    return PairRef(key, label, page, " & ".join(names.get(key, ())), key in phantoms)


def _keys(line_ns: str, line_ew: str, movement: Movement) -> tuple[PairKey, PairKey]:
    if movement is Movement.MITCHELL:
        return ("NS", line_ns), ("EW", line_ew)
    return (None, line_ns), (None, line_ew)


def factored_boards(result: SessionResult) -> dict[int, tuple[int, int]]:
    """Boards Neuberg-factored by the matchpoint scoring: board -> (real results, N).

    N is the number of results on the most-played board; a board with fewer real
    (not adjusted) results has its matchpoints factored up to N.
    """
    if result.method is not Method.MP:
        return {}
    most = max(len(b.lines) for b in result.boards)
    out = {}
    for board in result.boards:
        real = sum(not s.line.is_adjusted for s in board.lines)
        if 0 < real < most:
            out[board.board] = (real, most)
    return out


def _contract(scored: ScoredLine) -> tuple[str, str]:
    line = scored.line
    if line.contract is None:
        return "", ""
    result = str(line.result) if line.tricks is not None else str(line.contract)
    return result, line.declarer.value if line.declarer else ""


@dataclass(frozen=True)
class ScoreRow:
    """One board of a pair's scorecard, from that pair's side of the table."""

    board: int
    direction: str
    opponents: PairRef
    contract: str
    declarer: str
    score: int | str
    points: float
    percent: float | None
    adjusted: bool
    factored: bool


@dataclass(frozen=True)
class Scorecard:
    """One pair's scorecard: a row per board played, the boards missed, notes."""
    pair: PairResult
    ref: PairRef
    rows: tuple[ScoreRow, ...]
    missed: tuple[int, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def by_board(self) -> list[tuple[int, ScoreRow | None]]:
        """Rows and boards not played (None), in board order."""
        rows: list[tuple[int, ScoreRow | None]] = [(r.board, r) for r in self.rows]
        return sorted(rows + [(b, None) for b in self.missed], key=lambda item: item[0])

    @property
    def total(self) -> float:
        """The sum of the rows' points (what the scorecard shows as the session total)."""
        return sum(r.points for r in self.rows)


def scorecards(result: SessionResult, phantoms: Collection[PairKey] = ()) -> dict[PairKey, Scorecard]:
    """Every pair's scorecard, keyed like :attr:`PairResult.key`."""
    names = {p.key: p.names for p in result.pairs}
    factored = factored_boards(result)
    rows: dict[PairKey, list[ScoreRow]] = {p.key: [] for p in result.pairs}
    for board in result.boards:
        for scored in board.lines:
            line = scored.line
            ns_key, ew_key = _keys(line.ns, line.ew, result.movement)
            contract, declarer = _contract(scored)
            for key, other, side, points in ((ns_key, ew_key, "NS", scored.ns_points),
                                             (ew_key, ns_key, "EW", scored.ew_points)):
                if isinstance(line.score, AdjustedScore):
                    share = line.score.ns if side == "NS" else line.score.ew
                    score: int | str = f"Adj {share}%"
                else:
                    score = line.score if side == "NS" else -line.score
                percent = None
                if result.top:
                    percent = 100.0 * points / result.top
                rows.setdefault(key, []).append(ScoreRow(
                    board.board, side, pair_ref(other, names, phantoms), contract, declarer,
                    score, points, percent, line.is_adjusted, board.board in factored,
                ))
    all_boards = [b.board for b in result.boards]
    cards = {}
    for pair in result.pairs:
        mine = rows.get(pair.key, [])
        played = {r.board for r in mine}
        most = result.most_boards(pair.direction)
        missed: tuple[int, ...] = ()
        notes: list[str] = []
        if pair.boards < most:
            missed = tuple(b for b in all_boards if b not in played)
            notes.append(f"Played {pair.boards} of the {most} boards others in the field "
                         "played (a sit-out or a board not played at the table); the "
                         "percentage is over the boards played.")
        if any(r.factored for r in mine):
            notes.append("Boards marked * were played fewer times than the others: their "
                         "matchpoints are Neuberg-factored.")
        if any(r.adjusted for r in mine):
            notes.append("Adj: an artificial adjusted score, a percentage of the top.")
        cards[pair.key] = Scorecard(pair, pair_ref(pair.key, names, phantoms), tuple(mine),
                                    missed, tuple(notes))
    return cards


@dataclass(frozen=True)
class TravellerRow:
    """One line of a board's traveller as the site shows it."""
    ns: PairRef
    ew: PairRef
    contract: str
    declarer: str
    lead: str
    score: int | str
    ns_points: float
    ew_points: float
    adjusted: bool


@dataclass(frozen=True)
class HandRecord:
    """A deal as the diagram shows it: per seat the four suits (symbol, holding) and HCP."""

    board: int
    dealer: str
    vulnerability: Vulnerability
    pbn: str
    hands: Mapping[str, tuple[tuple[str, str, str], ...]]
    hcp: Mapping[str, int]
    dd: DoubleDummy | None

    def vulnerable(self, seat: str) -> bool:
        """Whether ``seat``'s side is vulnerable on this board."""
        return self.vulnerability.value in ("All", "NS" if seat in "NS" else "EW")


_SYMBOLS = {suit: (SUIT_SYMBOLS[suit], SUITS[suit]) for suit in SUIT_ORDER}  # symbol, CSS class


def hand_record(board: int, deal: Deal, vulnerability: Vulnerability | None = None,
                with_dd: bool = True, dd: DoubleDummy | None = None) -> HandRecord:
    """The hand record of a board from its deal (dealer and vulnerability by the board
    number unless the vulnerability is given)."""
    vul = vulnerability or Vulnerability.from_board(board)
    who = dealer(board).value
    hands = {}
    hcp = {}
    for index, seat in enumerate(SEATS):
        held = format_pbn_hand(deal.hands[index]).split(".")
        hands[seat] = tuple((_SYMBOLS[suit][0], text or "—", _SYMBOLS[suit][1])
                            for suit, text in zip(SUIT_ORDER, held))
        hcp[seat] = hand_hcp(deal.hands[index])
    pbn = deal.to_pbn()
    if dd is None and with_dd:
        dd = double_dummy(pbn, who, vul.value)
    return HandRecord(board, who, vul, pbn, hands, hcp, dd)


@dataclass(frozen=True)
class BoardPage:
    """One board's page: its traveller rows, hand record, and the neighbouring boards."""
    board: BoardResult
    page: str
    dealer: str
    vulnerability: Vulnerability
    rows: tuple[TravellerRow, ...]
    factored: tuple[int, int] | None
    hand: HandRecord | None
    previous: int | None
    next: int | None


def board_pages(result: SessionResult, deals: Mapping[int, Board] | None = None,
                phantoms: Collection[PairKey] = (), double_dummy: bool = True) -> list[BoardPage]:
    """One traveller per board, best NS result first, with its hand record when known (and its
    double-dummy table unless ``double_dummy`` is false)."""
    names = {p.key: p.names for p in result.pairs}
    factored = factored_boards(result)
    numbers = [b.board for b in result.boards]
    vul_of = {}
    for board in result.boards:
        vuls = Counter(s.line.vulnerability for s in board.lines if s.line.vulnerability)
        vul_of[board.board] = vuls.most_common(1)[0][0] if vuls else Vulnerability.from_board(board.board)
    with_deal = [b.board for b in result.boards if (deals or {}).get(b.board)] if double_dummy else []
    solved = dict(zip(with_deal, double_dummy_all(
        [((deals or {})[b].pbn_deal(), dealer(b).value, vul_of[b].value) for b in with_deal])))
    pages = []
    for i, board in enumerate(result.boards):
        vul = vul_of[board.board]
        rows = []
        for scored in sorted(board.lines, key=lambda s: -s.ns_points):
            line = scored.line
            ns_key, ew_key = _keys(line.ns, line.ew, result.movement)
            contract, declarer = _contract(scored)
            rows.append(TravellerRow(
                pair_ref(ns_key, names, phantoms), pair_ref(ew_key, names, phantoms),
                contract, declarer, line.lead or "",
                line.score if isinstance(line.score, int) else str(line.score),
                scored.ns_points, scored.ew_points, line.is_adjusted,
            ))
        deal = (deals or {}).get(board.board)
        hand = hand_record(board.board, deal.deal, vul, with_dd=False, dd=solved.get(board.board)) if deal else None
        pages.append(BoardPage(
            board, f"board-{board.board}.html", dealer(board.board).value, vul, tuple(rows),
            factored.get(board.board), hand,
            numbers[i - 1] if i > 0 else None, numbers[i + 1] if i + 1 < len(numbers) else None,
        ))
    return pages
