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
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from cardlab.board import SEATS, STRAINS, Seat, Vulnerability, parse_seat
from cardlab.bridge.deals import Deal, parse_pbn_deal
from cardlab.cards import format_pbn_hand
from cardlab.errors import ContractError, DeckError

__all__ = [
    "STRAINS",
    "DDTable",
    "DDTables",
    "dd_table",
    "dd_tables",
    "tricks_batch",
    "parse_strain",
    "deals_to_endplay",
    "read_pbn_boards",
]

#: Strains in bidding order; the last axis of every tricks array.
#: endplay's Denom value (spades 0, hearts 1, diamonds 2, clubs 3, nt 4) for each of STRAINS.
_DENOM = (3, 2, 1, 0, 4)
#: DDS solves at most 200 (deal, strain) pairs per multi-deal call.
_MAX_PAIRS = 200
_PBN_STRAINS = STRAINS[::-1]  # the order of DoubleDummyTricks and OptimumResultTable
_PBN_SEATS = "NSEW"
_VUL_ENDPLAY = {"None": 0, "All": 1, "NS": 2, "EW": 3}


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


def _check_hands(hands: np.ndarray) -> np.ndarray:
    """``hands`` as an ``(n, 4, 13)`` int array in which every deal holds each card once."""
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
    from endplay.types import Deal as EndplayDeal

    return [EndplayDeal(_pbn_of_ids(deal)) for deal in np.asarray(hands).tolist()]


def _solve_tables(deals: list[Any], strains: Sequence[int]) -> list[Any]:
    """endplay DDTables for ``deals``, through DDS's multi-deal call, in groups it accepts."""
    from endplay.dds import calc_all_tables
    from endplay.types import Denom

    exclude = [Denom(_DENOM[s]) for s in range(5) if s not in strains]
    group = max(1, _MAX_PAIRS // len(strains))
    out: list[Any] = []
    for start in range(0, len(deals), group):
        tables = calc_all_tables(deals[start:start + group], exclude=exclude)
        out.extend(tables[i] for i in range(len(tables)))
    return out


def _table_array(table: Any, strains: Sequence[int] = range(5)) -> np.ndarray:
    """A (4, 5) int8 array [seat N E S W][strain C D H S NT] of one endplay DDTable (-1 = not solved)."""
    from endplay.types import Denom, Player

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
    arr = _check_hands(hands)
    wanted = sorted({s if isinstance(s, int) else parse_strain(s) for s in (strains or range(5))})
    if not wanted or not all(0 <= s < 5 for s in wanted):
        raise ContractError(f"strains are 0..4 (C, D, H, S, NT), got {list(strains or [])}")
    out = np.full((len(arr), 4, 5), -1, dtype=np.int8)
    if not len(arr):
        return out
    for i, table in enumerate(_solve_tables(deals_to_endplay(arr), wanted)):
        out[i] = _table_array(table, wanted)
    return out


def _format_par_contract(contract: Any) -> str:
    """``4HX-1 by S`` from an endplay Contract (read at once: endplay reuses the object)."""
    if contract.is_passout():
        return "PASS"
    strain = STRAINS[_DENOM.index(int(contract.denom))]
    doubled = {2: "X", 4: "XX"}.get(int(contract.penalty), "")
    result = "=" if contract.result == 0 else f"{contract.result:+d}"
    return f"{contract.level}{strain}{doubled}{result} by {SEATS[int(contract.declarer)]}"


@dataclass(frozen=True)
class DDTable:
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

    def tricks_for(self, declarer: str | Seat, strain: str | int) -> int:
        """Tricks ``declarer`` takes in ``strain``."""
        s = strain if isinstance(strain, int) else parse_strain(strain)
        return self.tricks[parse_seat(declarer).index][s]

    def to_json(self) -> dict[str, Any]:
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
        import pandas as pd

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
        """A PBN game: Board, Dealer, Vulnerable and Deal tags, then the double-dummy tags."""
        head = [f'[Board "{board}"]'] if board is not None else []
        return "\n".join(head + [
            f'[Dealer "{self.dealer.value}"]',
            f'[Vulnerable "{self.vulnerability.value}"]',
            f'[Deal "{self.deal}"]',
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
class DDTables:
    """Several double-dummy tables (a file of deals)."""

    tables: tuple[DDTable, ...]

    def __len__(self) -> int:
        return len(self.tables)

    def __getitem__(self, i: int) -> DDTable:
        return self.tables[i]

    def to_json(self) -> list[dict[str, Any]]:
        """One :meth:`DDTable.to_json` dict per deal, in order."""
        return [t.to_json() for t in self.tables]

    def to_csv(self) -> str:
        """The CSV of every table (:meth:`DDTable.to_csv`), one header line."""
        return "".join(t.to_csv(header=i == 0) for i, t in enumerate(self.tables))

    def to_pandas(self) -> Any:
        """One row per deal and declarer: deal, declarer, a column per strain, par_score (needs pandas)."""
        import pandas as pd

        rows = [{"deal": t.deal, "declarer": SEATS[i], **dict(zip(STRAINS, r)), "par_score": t.par_score}
                for t in self.tables for i, r in enumerate(t.tricks)]
        return pd.DataFrame(rows)

    def to_pbn(self) -> str:
        """A PBN file with one game per deal (boards 1, 2, ...), each with its double-dummy tags."""
        return "% PBN 2.1\n% EXPORT\n" + "\n".join(t.to_pbn(board=i) for i, t in enumerate(self.tables, 1))

    def table(self) -> str:
        """The text tables of every deal, one after another."""
        return "\n".join(t.table() for t in self.tables)

    def __repr__(self) -> str:
        return f"DDTables({len(self.tables)} deals)"

    def _repr_html_(self) -> str:
        return "".join(t._repr_html_() for t in self.tables)


def _as_deal(deal: str | Deal) -> Deal:
    return deal if isinstance(deal, Deal) else parse_pbn_deal(deal)


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
) -> DDTables:
    """Tables and par of many deals, solved by DDS's multi-deal call.

    ``dealer`` and ``vulnerability`` (one for all, or one per deal) set what par uses;
    they default to North and None.
    """
    from endplay.dds import par
    from endplay.types import Player, Vul

    parsed = [_as_deal(d) for d in deals]
    dealers = [parse_seat(d) for d in _per_deal(dealer, len(parsed), "N")]
    vuls = [v if isinstance(v, Vulnerability) else Vulnerability.parse(v)
            for v in _per_deal(vulnerability, len(parsed), Vulnerability.NONE)]
    hands = np.array([d.hands for d in parsed], dtype=np.int64).reshape(-1, 4, 13)
    raw = _solve_tables(deals_to_endplay(_check_hands(hands)), range(5))
    out = []
    for deal, table, seat, vul in zip(parsed, raw, dealers, vuls):
        result = par(table, Vul(_VUL_ENDPLAY[vul.value]), Player(seat.index))
        contracts = tuple(_format_par_contract(c) for c in result)  # read each before the next
        tricks = tuple(tuple(int(x) for x in row) for row in _table_array(table))
        out.append(DDTable(deal.to_pbn(), tricks, seat, vul, int(result.score), contracts))
    return DDTables(tuple(out))


def dd_table(
    deal: str | Deal,
    dealer: str | Seat | None = None,
    vulnerability: str | Vulnerability | None = None,
) -> DDTable:
    """The double-dummy table and par of one deal (PBN ``"N:..."`` or a :class:`Deal`)."""
    return dd_tables([deal], dealer, vulnerability)[0]


def read_pbn_boards(text: str, source: str = "<pbn>") -> list[tuple[Deal, Seat | None, Vulnerability | None]]:
    """The ``Deal`` of each game of a PBN file, with its ``Dealer`` and ``Vulnerable`` when given.

    A minimal reader for double-dummy work (tags only; games end at a blank line or the next
    ``Board``/``Deal``); bad deals name the file and line.

    >>> read_pbn_boards('[Dealer "E"]\\n[Vulnerable "All"]\\n[Deal "N:AKQJT98765432... .AKQJT98765432.. '
    ...                 '..AKQJT98765432. ...AKQJT98765432"]\\n')[0][1:]
    (<Seat.EAST: 'E'>, <Vulnerability.BOTH: 'All'>)
    """
    import re

    from cardlab.errors import CardlabError

    tag = re.compile(r'\[\s*(\w+)\s+"([^"]*)"\s*\]')
    boards: list[tuple[Deal, Seat | None, Vulnerability | None]] = []
    current: dict[str, tuple[str, int]] = {}

    def flush() -> None:
        if "Deal" in current:
            value, line = current["Deal"]
            try:
                deal = parse_pbn_deal(value)
                seat = parse_seat(current["Dealer"][0]) if current.get("Dealer", ("", 0))[0] else None
                vul_text = current.get("Vulnerable", ("", 0))[0]
                vul = Vulnerability.parse(vul_text) if vul_text else None
            except CardlabError as error:
                raise type(error)(f"{source}: line {line}: {error}") from None
            boards.append((deal, seat, vul))
        current.clear()

    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            flush()
            continue
        if line.lstrip().startswith("%"):
            continue
        for name, value in tag.findall(line):
            if name in ("Board", "Deal") and name in current:
                flush()
            current[name] = (value, number)
    flush()
    return boards
