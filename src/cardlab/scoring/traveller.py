"""One traveller line: who played a board, what they bid and made, and the NS score.

A line is checked when it is made: the declarer and tricks must fit the
contract, and a score given next to a contract must be the one the contract
earns (Law 77, vulnerability from the board number unless given).  An
artificial adjusted score (Law 12C) is written as in USEBIO: ``A6040`` means
NS get 60% of the top and EW 40%.

>>> line = TravellerLine.make(3, "4", "2", contract="3NTX", declarer="N", tricks=10)
>>> line.score, str(line.result)
(650, '3NTX+1')
>>> TravellerLine.make(3, "4", "2", score="A6040").score
AdjustedScore(ns=60, ew=40)
>>> TravellerLine.make(1, "1", "1", contract="3NT", declarer="N", tricks=9, score=600)
Traceback (most recent call last):
...
cardlab.errors.ScoringError: score 600 contradicts 3NT= by N on board 1 (None vulnerable): it scores 400
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardlab.scoring.contract import (
    MAX_ABS_SCORE,
    Contract,
    Result,
    Seat,
    Vulnerability,
    ns_score,
    parse_seat,
    tricks_from_result,
)
from cardlab.errors import ScoringError
from cardlab.textfile import excerpt

__all__ = ["AdjustedScore", "TravellerLine", "parse_score", "PHANTOM_IDS", "MAX_BOARD", "MAX_SCORE", "MAX_PAIR_ID"]

MAX_BOARD = 10**9
"""Largest board number read (event numbering such as 1001 fits; nothing needs more)."""
MAX_SCORE = 7600
#: The longest pair id (a number or short name): a 5,000-digit id is refused, not ranked by its value.
MAX_PAIR_ID = 20
"""Largest NS score either way: 13 tricks down, redoubled, vulnerable (400 + 12 x 600)."""

#: Pair ids that mean "no pair here" (a phantom or a sit-out), compared case-insensitively.
#: A line against one may have no score at all (its real pair's score is a convention).
PHANTOM_IDS = ("0", "PHANTOM", "SITOUT", "PH")


@dataclass(frozen=True)
class AdjustedScore:
    """An artificial adjusted score: percentages of the top for NS and EW.

    >>> AdjustedScore.parse("a5050")
    AdjustedScore(ns=50, ew=50)
    >>> str(AdjustedScore(60, 40))
    'A6040'
    >>> AdjustedScore.parse("A60")
    Traceback (most recent call last):
    ...
    cardlab.errors.ScoringError: unknown adjusted score 'A60' (expected e.g. A6040: NS 60%, EW 40%)
    """

    ns: int
    ew: int

    def __post_init__(self) -> None:
        for value in (self.ns, self.ew):
            if not 0 <= value <= 99:
                raise ScoringError(f"adjusted percentage must be 0-99, not {value}")

    @classmethod
    def parse(cls, text: str) -> "AdjustedScore":
        """Read ``A6040`` (NS 60%, EW 40%)."""
        match = re.fullmatch(r"[Aa]([0-9]{2})([0-9]{2})", text.strip())
        if not match:
            raise ScoringError(
                f"unknown adjusted score {text!r} (expected e.g. A6040: NS 60%, EW 40%)"
            )
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"A{self.ns:02d}{self.ew:02d}"


def parse_score(text: str) -> int | AdjustedScore | None:
    """Read a score cell: empty, a whole NS score such as ``-620``, or ``A6040``.

    >>> parse_score("-620"), parse_score(""), parse_score("A4040")
    (-620, None, AdjustedScore(ns=40, ew=40))
    >>> parse_score("6 20")
    Traceback (most recent call last):
    ...
    cardlab.errors.ScoringError: unknown score '6 20' (expected e.g. 620, -100 or A6040)
    """
    key = text.strip()
    if not key:
        return None
    if key[0] in "Aa":
        return AdjustedScore.parse(key)
    if re.fullmatch(r"[+-]?[0-9]+", key):
        if len(key) > 12 or abs(int(key)) > MAX_SCORE:
            raise ScoringError(f"score {text!r} is out of range: no bridge score is more than "
                               f"{MAX_SCORE:,} either way (13 down, redoubled, vulnerable)")
        return int(key)
    raise ScoringError(f"unknown score {text!r} (expected e.g. 620, -100 or A6040)")


@dataclass(frozen=True)
class TravellerLine:
    """A checked traveller line; build it with :meth:`make` from text or values.

    ``score`` is always the NS score (an int) or an :class:`AdjustedScore`;
    ``tricks`` is the total number of tricks declarer took; ``source_line`` is
    where the line was read (for messages) and takes no part in equality.
    """

    board: int
    ns: str
    ew: str
    contract: Contract | None
    declarer: Seat | None
    tricks: int | None
    score: int | AdjustedScore
    lead: str | None = None
    vulnerability: Vulnerability | None = None
    source_line: int | None = field(default=None, compare=False)

    @classmethod
    def make(
        cls,
        board: int | str,
        ns: str | int,
        ew: str | int,
        *,
        contract: Contract | str | None = None,
        declarer: Seat | str | None = None,
        tricks: int | str | None = None,
        result: str | None = None,
        score: int | str | AdjustedScore | None = None,
        lead: str | None = None,
        vulnerability: Vulnerability | str | None = None,
        source_line: int | None = None,
    ) -> "TravellerLine":
        """Check and build a line.  Empty strings count as missing.

        Give ``tricks`` (0-13) or ``result`` (``=``, ``+1``, ``-2``), not both
        unless they agree.  ``score`` may be left out when the contract is given.
        """
        board_no = _board_number(board)
        if not (_given(contract) or _given(score)) and (_given(ns) != _given(ew)):
            # A pair with no opponents and no result: it sat out (a phantom opposite).
            ns, ew = (ns, "PHANTOM") if _given(ns) else ("PHANTOM", ew)
        ns_id, ew_id = _pair_id(ns, "NS"), _pair_id(ew, "EW")
        vul = _vulnerability(vulnerability, board_no)
        the_score = parse_score(score) if isinstance(score, str) else score
        the_contract = _contract(contract)
        seat = parse_seat(declarer) if declarer is not None and _given(declarer) else None
        lead_text = lead.strip() if isinstance(lead, str) and lead.strip() else None
        if isinstance(the_score, AdjustedScore) or the_contract is None:
            if _given(declarer) or _given(tricks) or _given(result):
                raise ScoringError("declarer, tricks or result given without a contract")
            if the_score is None and (ns_id.upper() in PHANTOM_IDS or ew_id.upper() in PHANTOM_IDS):
                the_score = AdjustedScore(50, 50)  # placeholder: a sit-out line has no result
            if the_score is None:
                raise ScoringError(f"board {board_no}: neither a contract nor a score")
            if isinstance(the_score, int):
                _check_bare_score(the_score)
            return cls(board_no, ns_id, ew_id, None, None, None, the_score, lead_text, vul,
                       source_line)
        if the_contract.is_pass:
            # Real exports write a pass-out with a declarer (often N) and empty or 0 tricks;
            # a pass-out scores 0 whatever they say, so declarer and tricks are ignored.
            seat = None
            n_tricks = None
            computed = 0
        else:
            n_tricks = _tricks(the_contract, tricks, result)
            if seat is None:
                raise ScoringError(f"contract {the_contract} needs a declarer (N, E, S or W)")
            if n_tricks is None:
                raise ScoringError(f"contract {the_contract} needs tricks or a result")
            computed = ns_score(the_contract, seat, n_tricks, vul)
        if the_score is not None and the_score != computed:
            shown = str(Result(the_contract, n_tricks))
            by = f" by {seat.value}" if seat else ""
            raise ScoringError(
                f"score {the_score} contradicts {shown}{by} on board {board_no} "
                f"({vul.value} vulnerable): it scores {computed}"
            )
        return cls(board_no, ns_id, ew_id, the_contract, seat, n_tricks, computed, lead_text,
                   vul, source_line)

    @property
    def is_adjusted(self) -> bool:
        """Whether the line is an artificial adjusted score (``A6040``)."""
        return isinstance(self.score, AdjustedScore)

    @property
    def result(self) -> Result | None:
        """Contract and tricks as a :class:`Result` (None for score-only or adjusted lines)."""
        return None if self.contract is None else Result(self.contract, self.tricks)

    @property
    def where(self) -> str:
        """``"line 12: "`` when the line was read from a file, else ``""``."""
        return f"line {self.source_line}: " if self.source_line is not None else ""


def _shown(value: object) -> str:
    """A value as an error message quotes it: its repr, only the start of a long one."""
    text = repr(value)
    return text if len(text) <= 40 else f"{excerpt(text, keep=30)} ({len(text):,} characters)"


def _given(value: object) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


def _board_number(board: int | str) -> int:
    text = str(board).strip()
    shown = _shown(board)
    if not re.fullmatch(r"[0-9]+", text) or (len(text) <= 12 and int(text) < 1):
        raise ScoringError(f"board number must be a whole number from 1, not {shown}")
    if len(text) > 12 or int(text) > MAX_BOARD:  # (the length first: int() of 5,000 digits refuses)
        raise ScoringError(f"board number must be at most {MAX_BOARD:,}, not {shown}")
    return int(text)


def _pair_id(pair: str | int, side: str) -> str:
    text = str(pair).strip()
    if not text or not re.fullmatch(r"[A-Za-z0-9]+", text) or len(text) > MAX_PAIR_ID:
        raise ScoringError(f"{side} pair must be a number or short name (at most {MAX_PAIR_ID} letters and "
                           f"digits), not {_shown(pair)}")
    return text


def _vulnerability(value: Vulnerability | str | None, board: int) -> Vulnerability:
    if isinstance(value, Vulnerability):
        return value
    if _given(value):
        assert isinstance(value, str)
        return Vulnerability.parse(value)
    return Vulnerability.from_board(board)


def _contract(value: Contract | str | None) -> Contract | None:
    if isinstance(value, Contract) or value is None:
        return value
    return Contract.parse(value) if value.strip() else None


def _tricks(contract: Contract, tricks: int | str | None, result: str | None) -> int | None:
    from_tricks: int | None = None
    if _given(tricks):
        text = str(tricks).strip()
        if not re.fullmatch(r"[0-9]+", text) or len(text) > 2 or int(text) > 13:
            raise ScoringError(f"tricks must be a whole number from 0 to 13, not {_shown(tricks)}")
        from_tricks = int(text)
    if _given(result):
        assert isinstance(result, str)
        from_result = tricks_from_result(contract, result)
        if from_tricks is not None and from_tricks != from_result:
            raise ScoringError(
                f"tricks {from_tricks} and result {result.strip()!r} on {contract} disagree"
            )
        return from_result
    return from_tricks


def _check_bare_score(score: int) -> None:
    if score % 10 or abs(score) > MAX_ABS_SCORE:
        raise ScoringError(f"impossible bridge score {score}")
