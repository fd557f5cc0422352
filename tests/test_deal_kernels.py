"""The deal kernels of the compiled core (csrc/deal.c): dealing, suit tables and bulk text,
each against an independent route (brute force over the cards, the numpy oracle, exact counts)."""

from __future__ import annotations

import io
import math
from math import comb

import numpy as np
import pytest

import dealer_oracle as oracle
from cardlab.bridge.dealer import parse_script, run_script
from cardlab.bridge.dealer.dealing import deal_around, deal_masks, masks_from_owner, owner_from_masks, popcount
from cardlab.bridge.dealer.functions import Tables, suit_table
from cardlab.bridge.dealer.output import (
    COMPACT, ONELINE, PBN_FROM_DEALER, PBN_FROM_NORTH, PRINTALL, PRINTEW, extra, format_deals, pbn_template,
)
from cardlab.engine import _Threads


def _check_whole(masks: np.ndarray) -> None:
    """Every deal: 13 cards a seat, the four hands disjoint and covering the deck."""
    assert (popcount(masks).sum(axis=1) == 13).all()
    union = np.bitwise_or.reduce(masks, axis=0)
    assert (union == 0x1FFF).all()
    assert (popcount(masks).sum(axis=0) == 13).all()  # 13 cards of each suit in all: no card twice


def test_deals_are_whole_and_repeat_from_the_seed() -> None:
    a = deal_masks(np.random.SeedSequence(3), 20_000)
    _check_whole(a)
    assert (deal_masks(np.random.SeedSequence(3), 20_000) == a).all()
    assert not (deal_masks(np.random.SeedSequence(4), 20_000) == a).all()


def test_every_card_goes_to_every_seat_equally_often_and_pairs_are_independent() -> None:
    n = 60_000
    owner = owner_from_masks(deal_masks(np.random.SeedSequence(18), n))
    counts = np.stack([(owner == s).sum(axis=1) for s in range(4)])  # (4, 52)
    chi2 = float(((counts - n / 4) ** 2 / (n / 4)).sum())
    assert chi2 < 156 + 4.5 * math.sqrt(2 * 156)  # 52 x 3 degrees of freedom
    # two given cards in one hand: 12/51 (a shuffle that kept neighbours together would fail)
    for a, b in ((51, 47), (0, 51), (20, 21)):
        same = float((owner[a] == owner[b]).mean())
        assert abs(same - 12 / 51) < 4.5 * math.sqrt(12 / 51 * 39 / 51 / n)


def test_north_spade_lengths_follow_the_hypergeometric_law() -> None:
    n = 100_000
    for only in (None, (0,), (0, 2)):
        masks = deal_masks(np.random.SeedSequence(5), n, only_seats=only)
        lengths = popcount(masks[0, 3])
        for k in range(8):
            p = comb(13, k) * comb(39, 13 - k) / comb(52, 13)
            got = float((lengths == k).mean())
            assert abs(got - p) < 4.5 * math.sqrt(p * (1 - p) / n) + 1e-9, (only, k)
    one = deal_masks(np.random.SeedSequence(5), 100, only_seats=(2,))
    assert (popcount(one[2]).sum(axis=0) == 13).all() and not one[[0, 1, 3]].any()


def test_two_seats_dealt_alone_have_the_joint_law_of_partners() -> None:
    n = 100_000
    masks = deal_masks(np.random.SeedSequence(6), n, only_seats=(0, 2))
    assert not (masks[0] & masks[2]).any() and not masks[[1, 3]].any()
    assert (popcount(masks[0]).sum(axis=0) == 13).all() and (popcount(masks[2]).sum(axis=0) == 13).all()
    together = popcount(masks[0, 3]) + popcount(masks[2, 3])  # the partnership's spades
    for k in range(2, 12):
        p = comb(13, k) * comb(39, 26 - k) / comb(52, 26)
        got = float((together == k).mean())
        assert abs(got - p) < 4.5 * math.sqrt(p * (1 - p) / n) + 1e-9, k


def test_a_function_that_reads_the_whole_deal_gets_whole_deals() -> None:
    from cardlab.bridge.dealer import FunctionSpec, register
    from cardlab.bridge.dealer.functions import FUNCTIONS, Hands

    def all_cards(hands: Hands, seat: int) -> np.ndarray:
        return popcount(hands.masks).sum(axis=(0, 1))  # every seat's cards: 52 in a whole deal

    register(FunctionSpec("allcards", "allcards", ("seat",)), all_cards)
    try:
        result = run_script(parse_script("generate 3000\naction average allcards(north)"), seed=1)
        assert result.averages[0].mean == 52
    finally:
        FUNCTIONS.pop("allcards")


def test_predealt_cards_stay_and_the_rest_is_uniform() -> None:
    fixed = np.full(52, -1, dtype=np.int8)
    fixed[[51, 47, 43]] = 2  # the ace, king, queen of spades to South
    fixed[[0, 4, 8, 12, 16]] = 0  # five small clubs to North
    n = 30_000
    masks = deal_masks(np.random.SeedSequence(7), n, fixed)
    _check_whole(masks)
    owner = owner_from_masks(masks)
    assert (owner[[51, 47, 43]] == 2).all() and (owner[[0, 4, 8, 12, 16]] == 0).all()
    # a free card goes to a seat in proportion to the cards it still needs: 8, 13, 10, 13 of 44
    for seat, need in enumerate((8, 13, 10, 13)):
        share = float((owner[50] == seat).mean())
        assert abs(share - need / 44) < 4.5 * math.sqrt(need / 44 * (1 - need / 44) / n)


def test_dealing_around_a_held_hand() -> None:
    held = deal_masks(np.random.SeedSequence(8), 5000)[1]  # East's hands of other deals
    masks = deal_around(np.random.SeedSequence(9), held, 1)
    _check_whole(masks)
    assert (masks[1] == held).all()
    owner = owner_from_masks(masks)
    free = owner != 1
    for seat in (0, 2, 3):
        share = float(((owner == seat) & free).sum() / free.sum())
        assert abs(share - 1 / 3) < 0.01


@pytest.mark.parametrize("looked", ["three seats", "two seats"])
def test_same_seed_same_output_for_one_two_and_three_threads(looked: str) -> None:
    east = "hcp(east)" if looked == "three seats" else "hcp(north)"  # two seats: East and West dealt later
    text = ("generate 200000\nproduce 4000\ncondition hcp(north) + hcp(south) >= 25 && spades(south) >= 4\n"
            f"action printoneline (hcp(south)), printpbn, printall, average \"e\" {east}, "
            "frequency (spades(north), 0, 8)\n")
    outputs = []
    for threads in (1, 2, 3):
        out = io.StringIO()
        executor = _Threads(threads) if threads > 1 else None
        try:
            result = run_script(parse_script(text), seed=23, out=out, executor=executor,
                                event="e", workers=1)
        finally:
            if executor is not None:
                executor.close()
        outputs.append(out.getvalue() + result.table())
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0].count("[Deal ") == 4000


def test_suit_tables_by_brute_force() -> None:
    tables = Tables.standard()
    hcp = suit_table(tables, "hcp")
    losers = suit_table(tables, "losers")
    length = suit_table(tables, "length")
    for mask in range(8192):
        ranks = [r for r in range(13) if mask >> r & 1]
        assert length[mask] == len(ranks)
        assert hcp[mask] == sum(max(r - 8, 0) for r in ranks)
        a, k, q = (int(r in ranks) for r in (12, 11, 10))
        want = [0, 1 - a, 2 - a - k][len(ranks)] if len(ranks) < 3 else 3 - a - k - q
        assert losers[mask] == want


def _special_deals() -> np.ndarray:
    """Deals with voids, 13-card suits and long holdings (the widest cells of every format)."""
    owner = np.empty((52, 3), dtype=np.uint8)
    owner[:, 0] = np.arange(52) % 4  # each seat holds one whole suit
    owner[:, 1] = [(c // 13) for c in range(52)]  # ranks in blocks
    owner[:, 2] = [(3 - c % 4 + (c // 4 > 6)) % 4 for c in range(52)]
    rows = np.stack([np.bincount(owner[:, i], minlength=4) for i in range(3)])
    assert (rows == 13).all()
    return owner


@pytest.mark.parametrize("case", ["random", "special"])
def test_every_text_format_equals_the_deal_by_deal_oracle(case: str) -> None:
    if case == "random":
        owner = oracle.deal_owners(np.random.default_rng(11), 300)
    else:
        owner = _special_deals()
    masks = masks_from_owner(owner)
    k = owner.shape[1]
    values = np.random.default_rng(1).integers(-10**12, 10**12, size=(k, 2))
    rows = [owner[:, i] for i in range(k)]
    assert format_deals(masks, ONELINE + "\n") == "".join(oracle.oneline(r) for r in rows)
    assert format_deals(masks, ONELINE + extra(1) + "\n", extras=values) == "".join(
        oracle.oneline(r, str(v)) for r, v in zip(rows, values[:, 1]))
    assert format_deals(masks, COMPACT + extra(0) + "\n", extras=values) == "".join(
        oracle.compact(r, str(v)) for r, v in zip(rows, values[:, 0]))
    assert format_deals(masks, PRINTALL, first_number=998) == "".join(
        oracle.diagram(r, 998 + i) for i, r in enumerate(rows))
    assert format_deals(masks, PRINTEW) == "".join(oracle.east_west(r) for r in rows)
    for dealer, vul in ((None, None), (2, "EW")):
        got = format_deals(masks, pbn_template("Ev \x01 ent", "2024.01.31", dealer, vul), first_number=5)
        assert got == "".join(oracle.pbn_game(r, 5 + i, dealer, vul, "Ev \x01 ent", "2024.01.31")
                              for i, r in enumerate(rows))
    assert format_deals(masks, PBN_FROM_NORTH + "|" + PBN_FROM_DEALER + "\n", first_number=3).splitlines() == [
        oracle.deal_pbn(r) + "|" + oracle.deal_pbn(r, (3 + i - 1) % 4) for i, r in enumerate(rows)]
    assert format_deals(masks[:, :, :0], ONELINE) == ""


def test_printoneline_scripts_print_what_the_oracle_prints() -> None:
    out = io.StringIO()
    script = parse_script("generate 5000\nproduce 50\ncondition hcp(north) >= 12 && hearts(south) >= 5\n"
                          "action printoneline (hcp(north) * 1000 + hearts(south))")
    result = run_script(script, seed=4, out=out, workers=1)
    lines = out.getvalue().splitlines()
    assert len(lines) == result.produced == 50
    for line in lines:
        fields = line.split()
        north, south, value = fields[1], fields[5], int(fields[8])
        hcp = sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(ch, 0) for ch in north)
        hearts = len(south.split(".")[1])
        assert hcp >= 12 and hearts >= 5 and value == hcp * 1000 + hearts


def test_deals_completed_after_two_seats_are_uniform() -> None:
    """Dealing North and South, then the cards left to East and West (``complete_deals``), is a
    uniform deal: whole deals, and East's spades given the spades left follow the hypergeometric law."""
    from cardlab.bridge.dealer.dealing import complete_deals

    n = 120_000
    seed = np.random.SeedSequence(12)
    masks = complete_deals(seed, deal_masks(seed, n, only_seats=(0, 2)), (0, 2))
    _check_whole(masks)
    spades = popcount(masks[:, 3])  # (4, n)
    left = 13 - spades[0] - spades[2]
    for r in (4, 6, 8):
        east = spades[1][left == r]
        for k in range(r + 1):
            p = comb(r, k) * comb(26 - r, 13 - k) / comb(26, 13)
            got = float((east == k).mean())
            assert abs(got - p) < 4.5 * math.sqrt(p * (1 - p) / len(east)) + 1e-9, (r, k)


def test_printed_deals_of_a_two_seat_script_are_whole_and_meet_the_condition() -> None:
    out = io.StringIO()
    script = parse_script("generate 100000\nproduce 2000\ncondition hcp(north) + hcp(south) >= 28\n"
                          "action printoneline, average hcp(north)")
    result = run_script(script, seed=8, out=out, workers=1)
    lines = out.getvalue().splitlines()
    assert len(lines) == result.produced == 2000
    north_total, gaps = 0, []
    for line in lines:
        hands = line.split()[1::2]
        cards = [(suit, rank) for hand in hands for suit, holding in enumerate(hand.split(".")) for rank in holding]
        assert len(cards) == len(set(cards)) == 52  # East and West were dealt after the condition held
        hcp = [sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(ch, 0) for ch in hand) for hand in hands]
        assert hcp[0] + hcp[2] >= 28
        north_total += hcp[0]
        gaps.append(hcp[1] - (40 - hcp[0] - hcp[2]) / 2)  # East's share of what is left: 0 on average
    assert result.averages[0].total == north_total  # the statistics are of the deals printed
    mean, sd = float(np.mean(gaps)), float(np.std(gaps))
    assert abs(mean) < 4.5 * sd / math.sqrt(len(gaps))
