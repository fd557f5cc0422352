"""Double-dummy tables and par, solved by DDS (Bo Haglund and Soren Hein) through ``endplay``.

A table gives the tricks each declarer takes in each strain when all four
hands are known and everybody plays perfectly; par is the score both sides
reach when they also bid perfectly (it depends on the dealer and the
vulnerability). ``tricks_batch`` is the array kernel the simulations use:
card ids in, an ``(n, 4, 5)`` array of tricks out, solved many deals per DDS
call.

>>> t = dd_table("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
>>> t.tricks_for("N", "S"), t.tricks_for("E", "H"), t.tricks_for("W", "NT")
(13, 13, 0)
>>> t  # N-S bid 7S over E-W's 7H; 7NT doubled would cost E-W 3500
DDTable('N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432', par 1510)
>>> dd_table("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T9 432.AKQJ.T98.765")
Traceback (most recent call last):
...
cardlab.errors.CardError: S holds 12 cards, not 13, in 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T9 432.AKQJ.T98.765'
"""

from __future__ import annotations

import html
import importlib
import signal
import threading
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Sequence, TypeVar

import numpy as np

from cardlab import pbn
from cardlab.results import JsonText
from cardlab.board import SEATS, STRAINS, Seat, Vulnerability, parse_seat
from cardlab.bridge.dds_import import light_endplay
from cardlab.cards import SUIT_ORDER, format_pbn_hand
from cardlab.deal import Board, Deal
from cardlab.errors import ContractError, DeckError

__all__ = [
    "check_hands",
    "STRAINS",
    "DDTable",
    "DDTables",
    "dd_table",
    "dd_tables",
    "tricks_batch",
    "par_scores",
    "declarer_tricks",
    "lead_tricks",
    "declarer_makes",
    "lead_sets",
    "parse_strain",
    "deals_to_endplay",
    "read_pbn_games",
    "PBNGame",
]

#: Strains in bidding order; the last axis of every tricks array.
#: endplay's Denom value (spades 0, hearts 1, diamonds 2, clubs 3, nt 4) for each of STRAINS.
_DENOM = (3, 2, 1, 0, 4)
#: DDS solves at most 200 (deal, strain) pairs per multi-deal call.
_MAX_PAIRS = 200
_PBN_STRAINS = STRAINS[::-1]  # the order of DoubleDummyTricks and OptimumResultTable
_PBN_SEATS = "NSEW"
_VUL_ENDPLAY = {"None": 0, "All": 1, "NS": 2, "EW": 3}
#: DDS solves at most 200 boards (deal, leader, strain) per SolveAllBoards call.
_MAX_BOARDS = 200

T = TypeVar("T")
#: DDS is not re-entrant: one call at a time in this process (an abandoned call, still running
#: after Ctrl-C, holds it until it ends, so a new call from a notebook waits instead of crashing).
_DDS_LOCK = threading.Lock()


def parse_strain(text: str) -> int:
    """Index in :data:`STRAINS` of ``C``, ``D``, ``H``, ``S`` or ``NT``/``N`` (any case, or a suit symbol).

    >>> parse_strain("nt"), parse_strain("♠")
    (4, 3)
    >>> parse_strain("X")
    Traceback (most recent call last):
    ...
    cardlab.errors.ContractError: unknown strain 'X' (C, D, H, S or NT)
    """
    key = text.strip().upper()
    key = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "N": "NT", "NOTRUMP": "NT", "NOTRUMPS": "NT"}.get(key, key)
    if key not in STRAINS:
        raise ContractError(f"unknown strain {text!r} (C, D, H, S or NT)")
    return STRAINS.index(key)


def _endplay(module: str) -> Any:
    """endplay's ``module`` (``dds``, ``dds.solve`` or ``types``), imported without endplay's
    package ``__init__`` (:func:`cardlab.bridge.dds_import.light_endplay`): the one place this
    module imports endplay."""
    light_endplay()
    return importlib.import_module(f"endplay.{module}")


def check_hands(hands: np.ndarray) -> np.ndarray:
    """``hands`` as an ``(n, 4, 13)`` int array in which every deal holds each card once; a
    :class:`~cardlab.errors.DeckError` naming the first bad deal otherwise.

    >>> check_hands(np.arange(52).reshape(1, 4, 13)).shape
    (1, 4, 13)
    """
    arr = np.asarray(hands)
    if arr.ndim != 3 or arr.shape[1:] != (4, 13):
        raise DeckError(f"a batch of deals is an (n, 4, 13) array of card ids, got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise DeckError("card ids run from 0 to 51")
    flat = arr.reshape(len(arr), 52).astype(np.int64)
    seen = np.zeros((len(arr), 52), dtype=np.int64)
    np.put_along_axis(seen, flat, 1, axis=1)
    bad = np.flatnonzero(seen.sum(axis=1) != 52)
    if bad.size:
        raise DeckError(f"deal {int(bad[0])} of the batch holds a card twice")
    return flat.reshape(-1, 4, 13)


def _pbn_of_ids(hands: Sequence[Sequence[int]]) -> str:
    return "N:" + " ".join(format_pbn_hand(h) for h in hands)


def deals_to_endplay(hands: np.ndarray) -> list[Any]:
    """endplay ``Deal`` objects (built from PBN text, endplay's public constructor) for a batch."""
    EndplayDeal = _endplay("types").Deal

    return [EndplayDeal(_pbn_of_ids(deal)) for deal in np.asarray(hands).tolist()]


def _solve_tables(deals: list[Any], strains: Sequence[int]) -> list[Any]:
    """endplay DDTables for ``deals``, through DDS's multi-deal call, in groups it accepts."""
    calc_all_tables = _endplay("dds").calc_all_tables
    Denom = _endplay("types").Denom

    exclude = [Denom(_DENOM[s]) for s in range(5) if s not in strains]
    group = max(1, _MAX_PAIRS // len(strains))
    out: list[Any] = []
    for start in range(0, len(deals), group):
        part = deals[start:start + group]
        tables = _responsive(lambda: calc_all_tables(part, exclude=exclude))
        out.extend(tables[i] for i in range(len(tables)))
    return out


def _table_array(table: Any, strains: Sequence[int] = range(5)) -> np.ndarray:
    """A (4, 5) int8 array [seat N E S W][strain C D H S NT] of one endplay DDTable (-1 = not solved)."""
    Denom = _endplay("types").Denom
    Player = _endplay("types").Player

    out = np.full((4, 5), -1, dtype=np.int8)
    for s in strains:
        for seat in range(4):
            out[seat, s] = table[Denom(_DENOM[s]), Player(seat)]
    return out


def tricks_batch(hands: np.ndarray, strains: Iterable[int | str] | None = None) -> np.ndarray:
    """Double-dummy tricks of every declarer in every strain, for a batch of deals.

    Parameters
    ----------
    hands : array of shape ``(n, 4, 13)``
        Card ids (``rank*4 + suit``), hands in seat order N, E, S, W.
    strains : strains to solve (indices into :data:`STRAINS` or names); default all five.
        Fewer strains are faster: DDS solves 200 (deal, strain) pairs per call.

    Returns
    -------
    ``(n, 4, 5)`` int8 array ``tricks[deal, declarer, strain]``, strain order C, D, H, S, NT;
    strains not asked for hold -1.

    >>> deal = np.array([[[4 * r + 3 for r in range(13)], [4 * r + 2 for r in range(13)],
    ...                   [4 * r + 1 for r in range(13)], [4 * r for r in range(13)]]])
    >>> tricks_batch(deal, ["S", "NT"])[0].tolist()  # N holds every spade, E every heart ...
    [[-1, -1, -1, 13, 0], [-1, -1, -1, 0, 0], [-1, -1, -1, 13, 0], [-1, -1, -1, 0, 0]]
    """
    arr = check_hands(hands)
    wanted = sorted({s if isinstance(s, int) else parse_strain(s) for s in (strains or range(5))})
    if not wanted or not all(0 <= s < 5 for s in wanted):
        raise ContractError(f"strains are 0..4 (C, D, H, S, NT), got {list(strains or [])}")
    out = np.full((len(arr), 4, 5), -1, dtype=np.int8)
    if not len(arr):
        return out
    for i, table in enumerate(_solve_tables(deals_to_endplay(arr), wanted)):
        out[i] = _table_array(table, wanted)
    return out


def par_scores(hands: np.ndarray, vulnerabilities: Sequence[Vulnerability], dealer: int = 0) -> np.ndarray:
    """North-South par score of each deal under each vulnerability (``(n, len(vulnerabilities))``
    int64), from the full table (DDS's multi-deal call) and DDS's ``DealerPar``; ``dealer`` 0..3.

    >>> deal = np.array([[[4 * r + 3 for r in range(13)], [4 * r + 2 for r in range(13)],
    ...                   [4 * r + 1 for r in range(13)], [4 * r for r in range(13)]]])
    >>> par_scores(deal, [Vulnerability.NONE, Vulnerability.BOTH]).tolist()  # N bids 7S first: EW's 7H is lower
    [[1510, 2210]]
    """
    par = _endplay("dds").par
    Player = _endplay("types").Player
    Vul = _endplay("types").Vul

    arr = check_hands(hands)
    out = np.zeros((len(arr), len(vulnerabilities)), dtype=np.int64)
    for i, table in enumerate(_solve_tables(deals_to_endplay(arr), range(5)) if len(arr) else ()):
        for k, vul in enumerate(vulnerabilities):
            out[i, k] = int(par(table, Vul(_VUL_ENDPLAY[vul.value]), Player(dealer)).score)
    return out


def _responsive(call: Callable[[], T]) -> T:
    """``call()`` (one DDS call, which releases the GIL) run in a helper thread while this thread
    waits in short steps, so Ctrl-C reaches the main thread at once instead of after the batch.

    An interrupted call is left to finish on its own: the thread is a daemon named
    ``cardlab-native-...`` with a ``finished`` Event, so it never holds up the end of the program
    (the command line ends such a process at once rather than finalize it under a running
    solver, whose memory the exit would free: see ``cardlab.cli.main``). Off the main thread (a
    worker) the call runs in place."""
    if threading.current_thread() is not threading.main_thread():
        with _DDS_LOCK:
            return call()
    box: list[T] = []
    errors: list[BaseException] = []
    abandoned = threading.Event()
    finished = threading.Event()

    def run() -> None:
        # Ctrl-C is for the main thread: blocked here, and so in the threads DDS starts from here
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            with _DDS_LOCK:
                result = call()
        except BaseException as error:  # noqa: BLE001 - raised again in the waiting thread
            errors.append(error)
        else:
            if not abandoned.is_set():
                box.append(result)
            del result  # an abandoned result is freed here, while endplay is alive, not at exit
        finally:
            finished.set()

    worker = threading.Thread(target=run, name="cardlab-native-dds", daemon=True)
    worker.finished = finished  # type: ignore[attr-defined]  # read by cardlab.cli.main at exit
    worker.start()
    try:
        # an Event, not join(): a join interrupted by Ctrl-C can mark a running thread stopped
        while not finished.wait(0.05):
            pass
    except BaseException:
        abandoned.set()
        box.clear()
        raise
    if errors:
        raise errors[0]
    return box[0]


def _solve_boards(deals: list[Any], mode: Any, target: int | None = None) -> list[Any]:
    """endplay's ``solve_all_boards`` over ``deals`` (their ``first`` and ``trump`` set), in
    calls DDS accepts; each call through :func:`_responsive`. Returns the solved boards.
    ``target`` (with ``SolveMode.TargetOne``/``TargetAll``): the tricks the side on lead needs."""
    solve_all_boards = _endplay("dds").solve_all_boards

    out: list[Any] = []
    for start in range(0, len(deals), _MAX_BOARDS):
        group = deals[start:start + _MAX_BOARDS]
        solved = _responsive(lambda: solve_all_boards(group, mode, target))
        out.extend(solved[i] for i in range(len(solved)))
    return out


def _set_play(deals: list[Any], leader: int, strain: int) -> None:
    Denom = _endplay("types").Denom
    Player = _endplay("types").Player

    for deal in deals:
        deal.first = Player(leader)
        deal.trump = Denom(_DENOM[strain])


def declarer_tricks(hands: np.ndarray, plays: Sequence[tuple[int, int]]) -> np.ndarray:
    """Double-dummy tricks of one declarer in one strain per play, for a batch of deals.

    Only what is asked is solved: for each ``(declarer, strain)`` play, DDS solves the
    position with declarer's left-hand opponent on lead, asking for the best lead only
    (endplay's ``solve_all_boards`` in ``OptimalOne`` mode, 200 deals a call), instead of a
    strain's table for all four declarers.

    Parameters
    ----------
    hands : ``(n, 4, 13)`` card ids, seats N, E, S, W.
    plays : ``(declarer seat 0..3, strain index into STRAINS)`` pairs.

    Returns
    -------
    ``(n, len(plays))`` int8 array of declarer's tricks.

    >>> deal = np.array([[[4 * r + 3 for r in range(13)], [4 * r + 2 for r in range(13)],
    ...                   [4 * r + 1 for r in range(13)], [4 * r for r in range(13)]]])
    >>> declarer_tricks(deal, [(0, 3), (1, 3), (0, 4)]).tolist()  # N has the spades, E the hearts
    [[13, 0, 0]]
    """
    SolveMode = _endplay("dds.solve").SolveMode

    arr = check_hands(hands)
    out = np.zeros((len(arr), len(plays)), dtype=np.int8)
    if not len(arr):
        return out
    deals = deals_to_endplay(arr)
    for k, (declarer, strain) in enumerate(plays):
        if not (0 <= declarer < 4 and 0 <= strain < 5):
            raise ContractError(f"a play is (declarer 0..3, strain 0..4), got {(declarer, strain)}")
        _set_play(deals, (declarer + 1) % 4, strain)
        for i, solved in enumerate(_solve_boards(deals, SolveMode.OptimalOne)):
            out[i, k] = 13 - max(int(tricks) for _, tricks in solved)
    return out


def lead_tricks(hands: np.ndarray, leader: int, strain: int) -> list[dict[int, int]]:
    """For each deal, the defence's double-dummy tricks after each card ``leader`` can lead
    (``{card id: tricks}``), with ``strain`` trumps: DDS solves the leader's cards only
    (endplay's ``solve_all_boards``, all cards, 200 deals a call).

    >>> deal = np.array([[[4 * r + 3 for r in range(13)], [4 * r + 2 for r in range(13)],
    ...                   [4 * r + 1 for r in range(13)], [4 * r for r in range(13)]]])
    >>> sorted(set(lead_tricks(deal, 1, 4)[0].values()))  # E leads hearts against NT: all 13
    [13]
    """
    SolveMode = _endplay("dds.solve").SolveMode

    arr = check_hands(hands)
    if not len(arr):
        return []
    deals = deals_to_endplay(arr)
    _set_play(deals, leader, strain)
    return [{_card_id(card): int(tricks) for card, tricks in solved}
            for solved in _solve_boards(deals, SolveMode.Default)]


def _check_target(needed: int) -> int:
    if isinstance(needed, bool) or not isinstance(needed, (int, np.integer)) or not 1 <= needed <= 13:
        raise ContractError(f"the defence's target is 1..13 tricks, got {needed!r}")
    return int(needed)


def declarer_makes(hands: np.ndarray, plays: Sequence[tuple[int, int, int]]) -> np.ndarray:
    """Whether each contract makes on each deal: DDS's target mode, one solve per deal and play.

    A play is ``(declarer seat 0..3, strain index into STRAINS, tricks declarer needs 1..13)``.
    The defence is on lead (declarer's left-hand opponent) and DDS only answers "can it take
    ``14 - needed`` tricks" (endplay's ``solve_all_boards`` in ``TargetOne`` mode, 200 deals a
    call), which takes far fewer nodes than finding the trick count (:func:`declarer_tricks`).

    Returns
    -------
    ``(n, len(plays))`` bool array: True where declarer takes at least ``needed`` tricks.

    >>> deal = np.array([[[4 * r + 3 for r in range(13)], [4 * r + 2 for r in range(13)],
    ...                   [4 * r + 1 for r in range(13)], [4 * r for r in range(13)]]])
    >>> declarer_makes(deal, [(0, 3, 13), (1, 3, 1), (0, 4, 1)]).tolist()  # N: spades, E: hearts
    [[True, False, False]]
    """
    SolveMode = _endplay("dds.solve").SolveMode

    arr = check_hands(hands)
    out = np.zeros((len(arr), len(plays)), dtype=bool)
    checked = []
    for play in plays:
        declarer, strain, needed = play
        if not (0 <= declarer < 4 and 0 <= strain < 5):
            raise ContractError(f"a play is (declarer 0..3, strain 0..4, tricks), got {tuple(play)}")
        checked.append((declarer, strain, _check_target(needed)))
    if not len(arr):
        return out
    deals = deals_to_endplay(arr)
    for k, (declarer, strain, needed) in enumerate(checked):
        _set_play(deals, (declarer + 1) % 4, strain)
        target = 14 - needed  # the defence's tricks that beat the contract
        for i, solved in enumerate(_solve_boards(deals, SolveMode.TargetOne, target)):
            # TargetOne yields one card scored `target` when it is reached, none (-1) when not
            # (or 0 when the defence can take no trick at all)
            out[i, k] = not any(int(tricks) >= target for _, tricks in solved)
    return out


def lead_sets(hands: np.ndarray, leader: int, strain: int, target: int) -> list[frozenset[int]]:
    """For each deal, the cards ``leader`` can lead after which the defence still takes
    ``target`` tricks (the opening leads that beat the contract), with ``strain`` trumps: DDS's
    target mode (endplay's ``solve_all_boards`` in ``TargetAll`` mode, 200 deals a call), which
    answers yes or no per card instead of counting tricks (:func:`lead_tricks`).

    >>> deal = np.array([[[4 * r + 3 for r in range(13)], [4 * r + 2 for r in range(13)],
    ...                   [4 * r + 1 for r in range(13)], [4 * r for r in range(13)]]])
    >>> len(lead_sets(deal, 1, 4, 13)[0]), lead_sets(deal, 1, 3, 1)  # E's hearts run in NT; N ruffs in S
    (13, [frozenset()])
    """
    SolveMode = _endplay("dds.solve").SolveMode

    arr = check_hands(hands)
    if not (0 <= leader < 4 and 0 <= strain < 5):
        raise ContractError(f"leader is 0..3 and strain 0..4, got {leader}, {strain}")
    goal = _check_target(target)
    if not len(arr):
        return []
    deals = deals_to_endplay(arr)
    _set_play(deals, leader, strain)
    return [frozenset(_card_id(card) for card, tricks in solved if int(tricks) >= goal)
            for solved in _solve_boards(deals, SolveMode.TargetAll, goal)]


def _card_id(card: Any) -> int:
    """cardlab id of an endplay Card (its rank is a bit 2..14 as ``1 << rank``; its suit a Denom)."""
    rank = int(card.rank).bit_length() - 1  # Rank.R2 = 1 << 2 .. RA = 1 << 14
    return (rank - 2) * 4 + SUIT_ORDER[int(card.suit)]


def _format_par_contract(contract: Any) -> str:
    """``4HX-1 by S`` from an endplay Contract (read at once: endplay reuses the object)."""
    if contract.is_passout():
        return "PASS"
    strain = STRAINS[_DENOM.index(int(contract.denom))]
    doubled = {2: "X", 4: "XX"}.get(int(contract.penalty), "")
    result = "=" if contract.result == 0 else f"{contract.result:+d}"
    return f"{contract.level}{strain}{doubled}{result} by {SEATS[int(contract.declarer)]}"


@dataclass(frozen=True)
class DDTable(JsonText):
    """The double-dummy table of one deal, and its par for a dealer and vulnerability.

    ``tricks[seat][strain]``: seats N, E, S, W; strains C, D, H, S, NT (:data:`STRAINS`).
    ``par_score`` is North-South's score; ``par_contracts`` read like ``4HX-1 by S``.
    """

    deal: str
    tricks: tuple[tuple[int, ...], ...]
    dealer: Seat
    vulnerability: Vulnerability
    par_score: int
    par_contracts: tuple[str, ...]
    #: The game's own lines when it came from a PBN file (its tags and sections, without the
    #: double-dummy tags this table replaces): :meth:`to_pbn` writes them back.
    source_lines: tuple[str, ...] = ()

    def tricks_for(self, declarer: str | Seat, strain: str | int) -> int:
        """Tricks ``declarer`` takes in ``strain``."""
        s = strain if isinstance(strain, int) else parse_strain(strain)
        return self.tricks[parse_seat(declarer).index][s]

    def to_dict(self) -> dict[str, Any]:
        """``{"deal", "tricks": {"N": {"C": .., "NT": ..}, ...}, "par": {"score", "contracts"}}``."""
        return {
            "deal": self.deal,
            "tricks": {SEATS[i]: dict(zip(STRAINS, map(int, row))) for i, row in enumerate(self.tricks)},
            "par": {"score": self.par_score, "contracts": list(self.par_contracts)},
        }

    def to_csv(self, header: bool = True) -> str:
        """One row per declarer: ``deal,declarer,C,D,H,S,NT,par_score,par_contracts``."""
        lines = ["deal,declarer," + ",".join(STRAINS) + ",par_score,par_contracts"] if header else []
        contracts = "; ".join(self.par_contracts)
        for i, row in enumerate(self.tricks):
            lines.append(f"{self.deal},{SEATS[i]}," + ",".join(map(str, row)) + f",{self.par_score},{contracts}")
        return "\n".join(lines) + "\n"

    def to_pandas(self) -> Any:
        """The tricks as a DataFrame: one row per declarer (N, E, S, W), one column per strain (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame([list(r) for r in self.tricks], index=list(SEATS), columns=list(STRAINS))

    def pbn_tags(self) -> str:
        """``DoubleDummyTricks``, ``OptimumScore`` and ``OptimumResultTable`` as Bridge Composer writes them.

        ``DoubleDummyTricks`` is 20 hex digits, declarers N, S, E, W, strains NT, S, H, D, C in each;
        ``OptimumScore`` is North-South's par (PBN 2.1 section 4.2: ``"NS 620"``).
        """
        digits = "".join(f"{self.tricks_for(seat, s):x}" for seat in _PBN_SEATS for s in _PBN_STRAINS)
        rows = [f"{seat} {s:>2} {self.tricks_for(seat, s):>2}" for seat in _PBN_SEATS for s in _PBN_STRAINS]
        return "\n".join([
            f'[DoubleDummyTricks "{digits}"]',
            f'[OptimumScore "NS {self.par_score}"]',
            '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]',
            *rows,
        ])

    def to_pbn(self, board: int | None = None) -> str:
        """A PBN game: Board, Dealer, Vulnerable and Deal tags, then the double-dummy tags.

        A table read from a PBN file writes back that game's own lines instead (its board
        number and every other tag), then the double-dummy tags."""
        if self.source_lines:
            return "\n".join([*self.source_lines, self.pbn_tags()]) + "\n"
        head = [pbn.format_tag("Board", str(board))] if board is not None else []
        return "\n".join(head + [
            pbn.format_tag("Dealer", self.dealer.value),
            pbn.format_tag("Vulnerable", self.vulnerability.value),
            pbn.format_tag("Deal", self.deal),
            self.pbn_tags(),
        ]) + "\n"

    def table(self) -> str:
        """The table as text: declarers down, strains across, then par."""
        lines = [f"Deal {self.deal}", f"Dealer {self.dealer.value}, vulnerable {self.vulnerability.value}",
                 "      " + "".join(f"{s:>4}" for s in STRAINS)]
        for i, row in enumerate(self.tricks):
            lines.append(f"  {SEATS[i]}   " + "".join(f"{t:>4}" for t in row))
        lines.append(f"Par {self.par_score:+d} for NS: " + ", ".join(self.par_contracts))
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return f"DDTable({self.deal!r}, par {self.par_score})"

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{s}</th>" for s in STRAINS)
        body = "".join(f"<tr><th>{SEATS[i]}</th>" + "".join(f"<td>{t}</td>" for t in row) + "</tr>"
                       for i, row in enumerate(self.tricks))
        par = html.escape(", ".join(self.par_contracts))
        return (f"<table><caption>{html.escape(self.deal)}</caption><tr><th></th>{head}</tr>{body}</table>"
                f"<p>Par {self.par_score:+d} (NS): {par}</p>")


@dataclass(frozen=True)
class DDTables(JsonText):
    """Several double-dummy tables (a file of deals)."""

    tables: tuple[DDTable, ...]
    #: The ``%`` lines that opened the PBN file the deals came from (written back by :meth:`to_pbn`).
    header: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.tables)

    def __getitem__(self, i: int) -> DDTable:
        return self.tables[i]

    def to_dict(self) -> list[dict[str, Any]]:
        """One :meth:`DDTable.to_dict` dict per deal, in order."""
        return [t.to_dict() for t in self.tables]

    def to_csv(self) -> str:
        """The CSV of every table (:meth:`DDTable.to_csv`), one header line."""
        return "".join(t.to_csv(header=i == 0) for i, t in enumerate(self.tables))

    def to_pandas(self) -> Any:
        """One row per deal and declarer: deal, declarer, a column per strain, par_score (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        rows = [{"deal": t.deal, "declarer": SEATS[i], **dict(zip(STRAINS, r)), "par_score": t.par_score}
                for t in self.tables for i, r in enumerate(t.tricks)]
        return pd.DataFrame(rows)

    def to_pbn(self) -> str:
        """A PBN file: the input's header and games (tags kept) when the deals came from one,
        else games numbered from 1; each with its double-dummy tags."""
        head = "\n".join(self.header or ("% PBN 2.1", "% EXPORT")) + "\n"
        return head + "\n".join(t.to_pbn(board=i) for i, t in enumerate(self.tables, 1))

    def table(self) -> str:
        """The text tables of every deal, one after another."""
        return "\n".join(t.table() for t in self.tables)

    def __repr__(self) -> str:
        return f"DDTables({len(self.tables)} deals)"

    def _repr_html_(self) -> str:
        return "".join(t._repr_html_() for t in self.tables)


def _as_deal(deal: str | Deal) -> Deal:
    return deal if isinstance(deal, Deal) else Deal.from_pbn(deal)


def _per_deal(value: Any, n: int, default: Any) -> list[Any]:
    if value is None or isinstance(value, (str, Seat, Vulnerability)):
        return [value if value is not None else default] * n
    values = list(value)
    if len(values) != n:
        raise ContractError(f"{len(values)} dealers/vulnerabilities for {n} deals")
    return [v if v is not None else default for v in values]


def dd_tables(
    deals: Sequence[str | Deal],
    dealer: str | Seat | Sequence[str | Seat | None] | None = None,
    vulnerability: str | Vulnerability | Sequence[str | Vulnerability | None] | None = None,
    *,
    games: Sequence[PBNGame] | None = None,
    header: Sequence[str] = (),
) -> DDTables:
    """Tables and par of many deals, solved by DDS's multi-deal call.

    ``dealer`` and ``vulnerability`` (one for all, or one per deal) set what par uses;
    they default to North and None. ``games`` (from :func:`read_pbn_games`, one per deal) and
    the file's ``header`` are kept, so that ``to_pbn()`` writes the file back with its tags.

    >>> ts = dd_tables(["N:AKQT3.J6.KJ42.95 652.AK42.AQ87.T4 J74.QT95.T.AK863 98.873.9653.QJ72"])
    >>> len(ts.tables)
    1
    """
    par = _endplay("dds").par
    Player = _endplay("types").Player
    Vul = _endplay("types").Vul

    parsed = [_as_deal(d) for d in deals]
    dealers = [parse_seat(d) for d in _per_deal(dealer, len(parsed), "N")]
    vuls = [v if isinstance(v, Vulnerability) else Vulnerability.parse(v)
            for v in _per_deal(vulnerability, len(parsed), Vulnerability.NONE)]
    hands = np.array([d.hands for d in parsed], dtype=np.int64).reshape(-1, 4, 13)
    raw = _solve_tables(deals_to_endplay(check_hands(hands)), range(5))
    out = []
    for deal, table, seat, vul in zip(parsed, raw, dealers, vuls):
        result = par(table, Vul(_VUL_ENDPLAY[vul.value]), Player(seat.index))
        contracts = tuple(_format_par_contract(c) for c in result)  # read each before the next
        tricks = tuple(tuple(int(x) for x in row) for row in _table_array(table))
        out.append(DDTable(deal.to_pbn(), tricks, seat, vul, int(result.score), contracts))
    if games is not None:
        if len(games) != len(out):
            raise ContractError(f"{len(games)} PBN games for {len(out)} deals")
        out = [replace(t, source_lines=g.lines) for t, g in zip(out, games)]
    return DDTables(tuple(out), tuple(header))


def dd_table(
    deal: str | Deal,
    dealer: str | Seat | None = None,
    vulnerability: str | Vulnerability | None = None,
) -> DDTable:
    """The double-dummy table and par of one deal (PBN ``"N:..."`` or a :class:`Deal`).

    >>> t = dd_table("N:AKQT3.J6.KJ42.95 652.AK42.AQ87.T4 J74.QT95.T.AK863 98.873.9653.QJ72", dealer="N")
    >>> t.tricks_for("N", "S"), t.par_score
    (10, 420)
    """
    return dd_tables([deal], dealer, vulnerability)[0]


#: Tags :meth:`DDTable.pbn_tags` writes: dropped from a game read back (with the rows of a table tag).
_DD_TAGS = frozenset({"DoubleDummyTricks", "OptimumScore", "OptimumResultTable"})


@dataclass(frozen=True)
class PBNGame:
    """One game of a PBN file: its :class:`~cardlab.deal.Board` and its own lines (every tag and
    section, in order; the double-dummy tags cardlab writes left out). ``dealer`` and
    ``vulnerability`` are the game's ``Dealer`` and ``Vulnerable`` tags (None when not given)."""

    board: Board
    lines: tuple[str, ...]

    @property
    def deal(self) -> Deal:
        """The game's deal."""
        return self.board.deal

    @property
    def dealer(self) -> Seat | None:
        """The ``Dealer`` tag's seat, or None."""
        given = (self.board.tag("Dealer") or "").strip()
        return self.board.dealer if given and given not in ("?", "-") else None

    @property
    def vulnerability(self) -> Vulnerability | None:
        """The ``Vulnerable`` tag's vulnerability, or None."""
        given = (self.board.tag("Vulnerable") or "").strip()
        return self.board.vulnerability if given and given != "?" else None


def read_pbn_games(text: str, source: str = "<pbn>") -> tuple[tuple[str, ...], list[PBNGame]]:
    """The ``%`` lines that open a PBN file, and each game that has a ``Deal`` (read by
    :mod:`cardlab.pbn`; bad deals name the file and line). Each game keeps its own lines (CRLF
    or LF), so a file can be written back with its board numbers and every tag.

    >>> head, games = read_pbn_games('% PBN 2.1\\r\\n[Board "28"]\\r\\n[Dealer "E"]\\r\\n[Vulnerable "All"]\\r\\n'
    ...     '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\\r\\n')
    >>> head, games[0].dealer, games[0].lines[0]
    (('% PBN 2.1',), <Seat.EAST: 'E'>, '[Board "28"]')
    """
    header: list[str] = []
    out: list[PBNGame] = []
    last = 0
    for game in pbn.games(text, source, header):
        if "Deal" not in game.tags:
            continue
        board = pbn.game_board(game, last + 1, source)
        last = board.number
        out.append(PBNGame(board, tuple(_kept_lines(game.lines))))
    return tuple(header), out


def _kept_lines(lines: list[str]) -> list[str]:
    """A game's lines without the double-dummy tags (and the rows of a table tag) cardlab writes."""
    kept: list[str] = []
    in_dd_table = False
    for line in lines:
        found, _ = pbn.line_tags(line.strip())
        if found:
            in_dd_table = found[0][0] == "OptimumResultTable"
        if (found and found[0][0] in _DD_TAGS) or (not found and in_dd_table):
            continue
        kept.append(line)
    return kept
