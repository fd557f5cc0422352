"""Property tests: whatever text a user gives, the readers either succeed or raise a
CardlabError (a ValueError naming the problem), never any other exception."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.scoring.contract import Contract, Result
from cardlab.scoring.csv_travellers import read_travellers
from cardlab.bridge.deals import parse_constraint, parse_pbn_deal
from cardlab.bridge.schemes import parse_scheme
from cardlab.scoring.session import score_session
from cardlab.scoring.traveller import parse_score
from cardlab.scoring.usebio import read_usebio
from cardlab.cards import format_cards, parse_card_ids
from cardlab.errors import CardlabError
from cardlab.dealing import Reels

CARDISH = st.text(alphabet="AKQJT1098765432cdhsCDHS♠♥♦♣ .,-xZ10", max_size=30)
ANY = st.text(max_size=60)
CSV_LINE = st.lists(st.sampled_from(["1", "2", "14", "-3", "", "4S", "3NTXX", "8C", "N", "Q", "=",
                                     "+1", "-2", "A6040", "A99", "420", "x"]), min_size=7, max_size=7)


def _only_input_errors(fn: Callable[[Any], Any], value: Any) -> None:
    try:
        fn(value)
    except CardlabError:
        pass


@settings(max_examples=300, deadline=None)
@given(CARDISH)
def test_card_lists(text: str) -> None:
    try:
        ids = parse_card_ids(text)
    except CardlabError:
        return
    if "." not in text:
        assert parse_card_ids(format_cards(ids)) == ids  # what parses, round-trips


@settings(max_examples=200, deadline=None)
@given(ANY)
def test_text_readers(text: str) -> None:
    for reader in (parse_scheme, parse_constraint, parse_pbn_deal, Contract.parse, Result.parse,
                   parse_score, Reels.parse):
        _only_input_errors(reader, text)


@settings(max_examples=200, deadline=None)
@given(st.lists(CSV_LINE, min_size=1, max_size=6))
def test_csv_travellers(rows: list[list[str]]) -> None:
    text = "board,ns,ew,contract,declarer,result,score\n" + "\n".join(",".join(r) for r in rows)

    def read_and_score(t: str) -> None:
        score_session(read_travellers(t, source="fuzz.csv"))

    _only_input_errors(read_and_score, text)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["<USEBIO>", "<EVENT>", "<BOARD>", "<BOARD_NUMBER>", "1", "x", "</BOARD_NUMBER>",
                        "<TRAVELLER_LINE>", "<SCORE>", "A6040", "</SCORE>", "</TRAVELLER_LINE>",
                        "</BOARD>", "</EVENT>", "</USEBIO>", "<!DOCTYPE x [<!ENTITY e 'y'>]>", "&e;"]).map(str)
       .flatmap(lambda first: st.lists(st.sampled_from(["<BOARD>", "</BOARD>", "<NS_PAIR_NUMBER>2",
                                                        "</NS_PAIR_NUMBER>", "<CONTRACT>4S</CONTRACT>",
                                                        "<TRICKS>10</TRICKS>", "</EVENT>", "</USEBIO>"]),
                                       max_size=10).map(lambda rest: first + "".join(rest))))
def test_usebio_reader(text: str) -> None:
    _only_input_errors(lambda t: read_usebio(t, source="fuzz.xml"), text)


def test_the_properties_see_real_errors() -> None:
    # the strategies do reach the error paths (a property that never fails would prove nothing)
    with pytest.raises(CardlabError):
        parse_card_ids("AsZ")
    with pytest.raises(CardlabError):
        read_travellers("board,ns,ew,contract,declarer,result,score\n1,1,2,8C,N,=,", source="f.csv")
