"""One place for each bridge and statistics fact, and the places agree.

``test_one_definition_each`` is the issue's "grep finds one definition each" as a test: it scans
the package source for the assignments and definitions and fails on a second copy.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np

from cardlab.board import SEAT_NAMES, SEAT_WORDS, SEATS, STRAINS, Seat
from cardlab.bridge.polynomials import shape_key
from cardlab.cards import RANKS, SUIT_NAMES, SUIT_ORDER, SUIT_SYMBOLS, SUITS, Suit
from cardlab.scoring.contract import Strain

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardlab"

# What a second copy of each fact looks like in the source, and where the one copy lives.
ONE_DEFINITION = {
    r"""['"]NESW['"]""": "board.py",  # the seat order
    r"^\s*_?STRAINS\s*=\s*\(": "board.py",
    r"^\s*_?SEATS\s*=": "board.py",
    r"^\s*_?Z95\s*=": "intervals.py",
    r"^def wilson\(": "intervals.py",
    r"^def mean_interval\(": "intervals.py",
    r"^IMP_BOUNDS\s*=": "scoring/matchpoints.py",  # the WBF scale (Law 78B)
    r"^C_DEALER_IMP_TABLE\s*=": "bridge/dealer/functions.py",  # the C dealer's, for imps() only
    r"^def shape_key\(": "bridge/polynomials.py",
    r"""['"]23456789TJQKA['"]""": "cards.py",
    r"1\.95996": "intervals.py",
    r"^def compare\(": "poker/comparison.py",
    # values, not only names: the suit order and its letters (issue 26)
    r"\(\s*3,\s*2,\s*1,\s*0\s*\)": "cards.py",
    r"""['"]SHDC['"]""": "cards.py",
    r"^class Deal\b": "deal.py",
    r"^class Board\b": "deal.py",
    r"^def read_pbn_boards\(": "pbn.py",
    r'(\(\\w\+\)|\(?\[A-Za-z0-9_\]\+\)?)(\\s\+|\[ \\t\]\+| )"': "pbn.py",  # a PBN tag pattern: [Name "value"]
}


def test_one_definition_each() -> None:
    for pattern, home in ONE_DEFINITION.items():
        found = [str(path.relative_to(PACKAGE)) for path in sorted(PACKAGE.rglob("*.py"))
                 for line in path.read_text(encoding="utf-8").splitlines() if re.search(pattern, line)]
        assert sorted(set(found)) == [home], (pattern, found)  # a module may overload its one definition


def test_seats_and_strains_agree_everywhere() -> None:
    assert [s.value for s in Seat] == list(SEATS) == [name[0] for name in SEAT_NAMES]
    assert list(SEAT_WORDS.items()) == [("north", "N"), ("east", "E"), ("south", "S"), ("west", "W")]
    assert [s.value for s in Strain] == list(STRAINS)  # scoring's Strain enum, clubs to notrump
    assert [STRAINS[s] for s in SUIT_ORDER] == ["S", "H", "D", "C"]


def test_suit_letters_follow_the_suit_order() -> None:
    from cardlab.cards import SUIT_LETTERS

    assert SUIT_LETTERS == "".join(SUITS[s].upper() for s in SUIT_ORDER) == "SHDC"
    assert SUIT_ORDER == tuple(sorted(range(4), reverse=True))


def test_suits_agree_everywhere() -> None:
    assert [s.name.lower() for s in Suit] == list(SUIT_NAMES)
    assert [name[0] for name in SUIT_NAMES] == list(SUITS) == [STRAINS[s].lower() for s in range(4)]
    assert SUIT_SYMBOLS == "\u2663\u2666\u2665\u2660"  # clubs, diamonds, hearts, spades
    assert RANKS[-1] == "A" and len(RANKS) == 13


def test_shape_key_is_one_to_one_on_13_card_hands() -> None:
    vectors = [v for v in itertools.product(range(14), repeat=4) if sum(v) == 13]
    assert len(vectors) == 560  # C(16, 3) suit-length vectors
    keys = [shape_key(*v) for v in vectors]
    assert len(set(keys)) == 560
    assert keys == [((s * 14 + h) * 14 + d) * 14 + c for s, h, d, c in vectors]
    arrays = shape_key(*(np.array(column) for column in zip(*vectors)))
    assert arrays.tolist() == keys
