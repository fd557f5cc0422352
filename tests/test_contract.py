"""Contract scores (Law 77) over the full table, against an independent reference."""

from __future__ import annotations

import itertools

import pytest

from cardlab.scoring.contract import (
    Contract,
    Doubling,
    Result,
    Seat,
    Strain,
    Vulnerability,
    declarer_score,
    format_result_suffix,
    ns_score,
    parse_seat,
    tricks_from_result,
)
from cardlab.errors import ContractError


def reference_score(level: int, strain: str, dbl: int, vul: bool, tricks: int) -> int:
    """A deliberately different, trick-by-trick reading of Law 77 (the WBF scoring table).

    ``dbl`` is 0, 1 or 2 (undoubled, doubled, redoubled).  Each trick is scored one at a time,
    the way the scoring table in the Laws lists it, instead of by formula.
    """
    target = level + 6
    if tricks >= target:
        total = 0
        for i in range(1, level + 1):  # contracted tricks, one by one
            if strain in "CD":
                value = 20
            elif strain in "HS":
                value = 30
            else:
                value = 40 if i == 1 else 30
            total += value * (1, 2, 4)[dbl]
        below_line = total
        if below_line >= 100:
            total += 500 if vul else 300
        else:
            total += 50
        if level == 6:
            total += 750 if vul else 500
        if level == 7:
            total += 1500 if vul else 1000
        if dbl == 1:
            total += 50
        if dbl == 2:
            total += 100
        for _ in range(tricks - target):  # overtricks, one by one
            if dbl == 0:
                total += 20 if strain in "CD" else 30
            elif dbl == 1:
                total += 200 if vul else 100
            else:
                total += 400 if vul else 200
        return total
    penalty = 0
    for k in range(1, target - tricks + 1):  # undertricks, one by one
        if dbl == 0:
            step = 100 if vul else 50
        elif vul:
            step = 200 if k == 1 else 300
        else:
            step = 100 if k == 1 else (200 if k <= 3 else 300)
        penalty += step * (1 if dbl == 0 else dbl)  # doubled x1, redoubled x2 the doubled step
    return -penalty


FULL_TABLE = list(
    itertools.product(range(1, 8), ["C", "D", "H", "S", "NT"], [0, 1, 2], [False, True], range(14))
)


def test_full_table_against_reference() -> None:
    # 7 levels x 5 strains x 3 doublings x 2 vulnerabilities x 14 trick counts = 2940 cases.
    assert len(FULL_TABLE) == 2940
    for level, strain, dbl, vul, tricks in FULL_TABLE:
        contract = Contract.parse(f"{level}{strain}{'X' * dbl}")
        got = declarer_score(contract, tricks, vul)
        assert got == reference_score(level, strain, dbl, vul, tricks), (contract, vul, tricks)


@pytest.mark.parametrize(
    "text, vul, score",
    [
        # Anchor values every scorer knows (Law 77 table).
        ("4SX=", True, 790),
        ("4SX=", False, 590),
        ("3NT=", False, 400),
        ("3NT=", True, 600),
        ("1NTXX+1", False, 760),  # 160 + 300 game + 100 insult + 200 overtrick
        ("1NTXX=", False, 560),
        ("1NTXX=", True, 760),
        ("2HX=", False, 470),  # doubled into game: 120 + 300 + 50
        ("1CX=", False, 140),  # 40 + 50 part-score + 50 insult
        ("6NT=", True, 1440),
        ("7NT=", True, 2220),
        ("7NTXX=", True, 2980),
        ("6S+1", False, 1010),
        ("3NT-1", False, -50),
        ("3NT-2", True, -200),
        ("4SX-1", False, -100),
        ("4SX-3", False, -500),
        ("4SX-4", False, -800),
        ("4SX-3", True, -800),
        ("4SXX-2", True, -1000),
        ("7NTXX-13", True, -7600),
        ("5C=", False, 400),
        ("2S+2", False, 170),
    ],
)
def test_anchor_values(text: str, vul: bool, score: int) -> None:
    result = Result.parse(text)
    assert result.tricks is not None
    assert declarer_score(result.contract, result.tricks, vul) == score


def test_ns_point_of_view_and_vulnerability_from_board() -> None:
    # Board 2: NS vulnerable; board 5 (NS vul) 4SX by E making 12 -> EW not vul: -(590 + 200).
    assert ns_score(Contract.parse("4SX"), "N", 10, Vulnerability.from_board(2)) == 790
    assert ns_score(Contract.parse("4SX"), "E", 12, Vulnerability.from_board(5)) == -790
    assert ns_score(Contract.parse("PASS"), "N", 0, Vulnerability.BOTH) == 0
    cycle = [Vulnerability.from_board(b).value for b in range(1, 17)]
    assert cycle == "None NS EW All NS EW All None EW All None NS All None NS EW".split()
    assert Vulnerability.from_board(33) is Vulnerability.NONE
    assert Vulnerability.NS.is_vulnerable(Seat.SOUTH) and not Vulnerability.NS.is_vulnerable(Seat.EAST)


def test_round_trips() -> None:
    for level, strain, dbl in itertools.product(range(1, 8), ["C", "D", "H", "S", "NT"], [0, 1, 2]):
        text = f"{level}{strain}{'X' * dbl}"
        contract = Contract.parse(text)
        assert str(contract) == text
        assert eval(repr(contract)) == contract
        for tricks in range(14):
            result = Result(contract, tricks)
            assert Result.parse(str(result)) == result
            assert tricks_from_result(contract, format_result_suffix(contract, tricks)) == tricks
    assert str(Contract.parse("pass")) == "PASS"
    assert Contract.parse("3n") == Contract(3, Strain.NOTRUMP, Doubling.UNDOUBLED)
    assert str(Result.parse("PASS")) == "PASS"


@pytest.mark.parametrize(
    "bad", ["", "8NT", "0S", "4Z", "4SXXX", "NT3", "4 S X Y", "3NTR"]
)
def test_unknown_contract(bad: str) -> None:
    with pytest.raises(ContractError, match="unknown contract"):
        Contract.parse(bad)


def test_bad_declarer_tricks_and_results() -> None:
    with pytest.raises(ContractError, match="declarer must be N, E, S or W, not 'Q'"):
        parse_seat("Q")
    with pytest.raises(ContractError, match="not 14"):
        ns_score(Contract.parse("3NT"), "N", 14, Vulnerability.NONE)
    with pytest.raises(ContractError, match="not -1"):
        declarer_score(Contract.parse("3NT"), -1, False)
    with pytest.raises(ContractError, match="14 tricks"):
        tricks_from_result(Contract.parse("7NT"), "+1")
    with pytest.raises(ContractError, match="unknown result"):
        tricks_from_result(Contract.parse("3NT"), "made")
    with pytest.raises(ContractError, match="unknown vulnerability"):
        Vulnerability.parse("red")
    with pytest.raises(ContractError):
        Vulnerability.from_board(0)


def test_full_table_against_endplay() -> None:
    """Every level x strain x doubling x vulnerability x tricks x declarer seat, NS point of view,
    against endplay (an independent bridge library, test-only dependency), whose
    Contract.score(vul) gives the declaring side's score."""
    import endplay.types as endplay  # a declared test dependency: no skip
    denoms = {"C": endplay.Denom.clubs, "D": endplay.Denom.diamonds, "H": endplay.Denom.hearts,
              "S": endplay.Denom.spades, "NT": endplay.Denom.nt}
    penalties = {"": endplay.Penalty.passed, "X": endplay.Penalty.doubled, "XX": endplay.Penalty.redoubled}
    vuls = {"None": endplay.Vul.none, "NS": endplay.Vul.ns, "EW": endplay.Vul.ew, "All": endplay.Vul.both}
    seats = {"N": endplay.Player.north, "E": endplay.Player.east, "S": endplay.Player.south,
             "W": endplay.Player.west}
    checked = 0
    for level, strain, doubling, vul, seat, tricks in itertools.product(
            range(1, 8), denoms, penalties, vuls, seats, range(14)):
        theirs = endplay.Contract(level=level, denom=denoms[strain], declarer=seats[seat],
                                  penalty=penalties[doubling], result=tricks - (level + 6))
        declarer_side = theirs.score(vuls[vul])
        expected = declarer_side if seat in "NS" else -declarer_side
        ours = ns_score(Contract.parse(f"{level}{strain}{doubling}"), seat, tricks, Vulnerability.parse(vul))
        assert ours == expected, (level, strain, doubling, vul, seat, tricks)
        checked += 1
    assert checked == 7 * 5 * 3 * 4 * 4 * 14  # 23,520 results
