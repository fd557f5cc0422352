"""Issue 24, "README as written, and the output a person reads": the inputs real users type
that were refused, and a paragraph printed where it did not apply."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from cardlab.bridge.splits import card_layouts
from cardlab.scoring.csv_travellers import read_travellers
from cardlab.scoring.session import score_session


_WITH = """board,ns,ew,contract,declarer,tricks,score
1,1,1,4S,N,10,
1,2,2,4S,N,9,
1,3,3,3NT,S,9,400
2,1,2,PASS,,,
2,2,3,2H,E,8,
2,3,1,1NT,W,7,
"""


def test_csv_traveller_without_score_column() -> None:
    """README: "score may be empty": a file that leaves the column out reads as one with the
    column empty, by both readers (plain CSV and the quoted line-by-line one)."""
    lines = [line.rsplit(",", 1)[0] if i else "board,ns,ew,contract,declarer,tricks"
             for i, line in enumerate(_WITH.splitlines())]
    without = "\n".join(lines) + "\n"
    assert "score" not in without.splitlines()[0]
    empty = _WITH.replace(",400\n", ",\n")
    want = [(t.board, t.ns, t.ew, t.score) for t in read_travellers(empty)]
    assert want[0][3] == 420 and want[1][3] == -50 and want[2][3] == 400  # scored from contracts
    assert [(t.board, t.ns, t.ew, t.score) for t in read_travellers(without)] == want
    quoted = without.replace("4S", '"4S"')  # the line-by-line reader
    assert [(t.board, t.ns, t.ew, t.score) for t in read_travellers(quoted)] == want
    assert score_session(read_travellers(without)).table() == score_session(read_travellers(empty)).table()


def test_played_spot_card_is_a_small_card() -> None:
    """``W:2`` with K T 9 3 missing is West following with a small card: the same layouts as
    ``W:x``, and by hand: a layout stays possible iff West holds a small card."""
    spot, small = card_layouts("KT93", played="W:2"), card_layouts("KTxx", played="W:x")
    assert [(r.west, r.east, r.probability) for r in spot.rows] == \
           [(r.west, r.east, r.probability) for r in small.rows]
    assert any("W:2" in n and "small card" in n for n in spot.notes)
    # by hand: West's length k, of which at least one small card (2 small among the 4 missing)
    ways = {k: sum(comb(2, s) * comb(2, k - s) for s in range(1, 3) if 0 <= k - s <= 2)
               * comb(22, 13 - k) for k in range(5)}
    total = sum(ways.values())
    by_length = {int(r.west): r.probability for r in spot.lengths}
    assert by_length == {k: Fraction(v, total) for k, v in ways.items() if v}
    assert by_length[4] == Fraction(55, 874)


def test_restricted_choice_note_only_where_it_applies() -> None:
    """Q x x x missing and West following small: no choice among equal cards, no restricted
    choice paragraph; Q J x x with West's queen keeps it (11/17 and the 11:12 note)."""
    plain = card_layouts("Qxxx", played="W:x")
    assert not any("restricted choice" in n or "textbook" in n for n in plain.notes)
    assert "restricted choice" not in plain.table()
    kept = card_layouts("QJxx", played="W:Q")
    assert any("restricted choice" in n for n in kept.notes)
    assert "C(22,12) : C(22,11) = 11:12" in kept.table()
    # a king played from K J x x has no equal card beside it: no choice either
    assert "restricted choice" not in card_layouts("KJxx", played="N:A W:K").table()
