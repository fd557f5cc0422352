"""Random deals under constraints, checked against the exact tables."""

from __future__ import annotations

from collections import Counter

import json

import numpy as np
import pytest

from bruteforce import assert_simulation_agrees
from cardlab.bridge.conditional import given_points
from cardlab.bridge.deals import (
    Deal, deal_diagram, deals_to_pbn, hand_hcp, parse_constraint, parse_pbn_deal, random_deals,
)
from cardlab.bridge.features import Joint, Pattern, Points
from cardlab.dealing import Deck, Draw
from cardlab.distribution import Distribution, Simulation
from cardlab.engine import exact
from cardlab.errors import CardError, ConstraintError, DeckError

PBN = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def test_pbn_deal_round_trip_from_any_seat() -> None:
    deal = parse_pbn_deal(PBN)
    assert deal.to_pbn() == PBN
    rotated = deal.to_pbn("E")
    assert rotated.startswith("E:T98.765.432.AKQJ")
    assert parse_pbn_deal(rotated) == deal


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("AKQJ.T98.765.432", CardError, "starts with the first seat"),
        ("N:AKQJ.T98.765.432 T98.765.432.AKQJ", CardError, "four hands"),
        ("N:AKQJ.T98.765.432 T98.765.432.AKQ 765.432.AKQJ.T98 432.AKQJ.T98.765", CardError, "E holds 12"),
        ("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76A",
         DeckError, "dealt to both"),
    ],
)
def test_bad_pbn_deals(text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        parse_pbn_deal(text)


def test_constraints_are_met() -> None:
    constraints = {"N": parse_constraint("hcp=15-17 shape=balanced"), "S": parse_constraint("spades=5+ hcp=-9")}
    batch = random_deals(200, seed=4, constraints=constraints)
    assert len(batch.deals) == 200
    for deal in batch.deals:
        north, south = deal.hands[0], deal.hands[2]
        assert 15 <= hand_hcp(north) <= 17
        lengths = sorted((sum(1 for c in north if c % 4 == s) for s in range(4)), reverse=True)
        assert tuple(lengths) in {(4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2)}
        assert sum(1 for c in south if c % 4 == 3) >= 5 and hand_hcp(south) <= 9
        assert sorted(c for hand in deal.hands for c in hand) == list(range(52))


def test_acceptance_rate_matches_the_exact_joint_table() -> None:
    # P(15-17 HCP and balanced) from the exact HCP x pattern table.
    joint = exact(Draw(Deck.standard(), 13), Joint(Points(), Pattern()))
    hits = sum(c for (p, s), c in zip(joint.values, joint.counts)
               if 15 <= p <= 17 and s in ("4-3-3-3", "4-4-3-2", "5-3-3-2"))
    p = hits / joint.total
    batch = random_deals(1, seed=8, constraints={"N": parse_constraint("hcp=15-17 shape=balanced")},
                         batch=200_000)
    z = abs(batch.matched / batch.tried - p) / np.sqrt(p * (1 - p) / batch.tried)
    assert z < 4.5
    _, lo, hi = batch.acceptance()
    assert lo < batch.matched / batch.tried < hi


def test_partner_of_a_15_count_matches_the_exact_conditional_table() -> None:
    batch = random_deals(20_000, seed=12, constraints={"N": parse_constraint("hcp=15")})
    counts = Counter(hand_hcp(d.hands[2]) for d in batch.deals)
    ex = given_points(Deck.standard(), 15).trim()
    sim = Distribution("hcp", ex.values, tuple(counts.get(int(v), 0) for v in ex.values),
                       simulation=Simulation(len(batch.deals), 12))
    assert sum(sim.counts) == 20_000  # no simulated value falls outside the exact support
    assert_simulation_agrees(ex, sim)


def test_fixed_hand_matches_the_known_cards_table() -> None:
    batch = random_deals(20_000, seed=3, fixed={"N": "AKQJ.T98.765.432"})
    assert all(d.hands[0] == tuple(sorted(parse_pbn_deal(PBN).hands[0], reverse=True)) for d in batch.deals[:5])
    ex = exact(Draw(Deck.standard().remove("AKQJ.T98.765.432"), 13), Points()).trim()
    counts = Counter(hand_hcp(d.hands[1]) for d in batch.deals)
    sim = Distribution("hcp", ex.values, tuple(counts.get(int(v), 0) for v in ex.values),
                       simulation=Simulation(20_000, 3))
    assert_simulation_agrees(ex, sim)


def test_same_seed_same_deals() -> None:
    a = random_deals(5, seed=99, constraints={"S": parse_constraint("hearts=6+")})
    b = random_deals(5, seed=99, constraints={"S": parse_constraint("hearts=6+")})
    assert a.deals == b.deals


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("hcp=lots", "bad range 'lots'"),
        ("points=12", "unknown measure 'points'"),
        ("shape=4-4-4-4", "does not add up to 13"),
        ("shape=weird", "unknown shape 'weird'"),
        ("hcp", "expected MEASURE=VALUE"),
    ],
)
def test_bad_constraints(spec: str, message: str) -> None:
    with pytest.raises(ConstraintError, match=message):
        parse_constraint(spec)


def test_impossible_constraints_give_up_clearly() -> None:
    # what the exact bounds prove impossible is refused at once ...
    with pytest.raises(ConstraintError, match="impossible: N cannot hold 38 hcp"):
        random_deals(1, seed=1, constraints={"N": parse_constraint("hcp=38+")})
    with pytest.raises(ConstraintError, match="at least 50 hcp together"):
        random_deals(1, seed=1, constraints={"N": parse_constraint("hcp=25+"), "S": parse_constraint("hcp=25+")})
    with pytest.raises(ConstraintError, match="at least 14 spades together"):
        random_deals(1, seed=1, constraints={"N": parse_constraint("spades=7+"), "S": parse_constraint("spades=7+")})
    # ... and a merely rare one gives up at the user's limit with an honest bound
    with pytest.raises(ConstraintError, match=r"only 0 of 1 deals met the constraints in 20,000 random deals "
                                              r"\(the give-up limit; P\(match\) is at most 0.000192"):
        random_deals(1, seed=1, constraints={"N": parse_constraint("hcp=37")}, max_tries=20_000)


def test_pbn_file_and_diagram() -> None:
    deal = parse_pbn_deal(PBN)
    text = deals_to_pbn([deal, deal])
    assert '[Board "2"]' in text and '[Dealer "E"]' in text and '[Vulnerable "NS"]' in text
    assert '[Deal "E:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432"]' in text
    diagram = deal_diagram(deal, board=1)
    assert diagram.splitlines()[1].strip() == "♠ AKQJ"
    assert isinstance(deal, Deal)


def test_deal_cli(run, tmp_path) -> None:
    target = tmp_path / "d.pbn"
    status, out, err = run("bridge", "deal", "-n", "3", "--seed", "2", "--north", "hcp=20+",
                           "--format", "pbn", "-o", str(target))
    assert status == 0 and out == ""
    deals = [line.split('"')[1] for line in target.read_text().splitlines() if line.startswith("[Deal ")]
    assert len(deals) == 3
    assert all(hand_hcp(parse_pbn_deal(d).hands[0]) >= 20 for d in deals)
    assert "met the constraints" in err
    status, _, err = run("bridge", "deal", "--north", "hcp=x")
    assert status == 2 and err.startswith("cardlab: error: bad range 'x'")
    status, _, err = run("bridge", "deal", "--north-cards", "AKQJ.T98.765.432", "--south-cards", "As")
    assert status == 2 and "S must hold 13 cards" in err


def test_deal_cli_fixes(run, tmp_path) -> None:
    # the README's own example: "hcp=8-" means at most 8
    status, out, err = run("bridge", "deal", "-n", "4", "--seed", "3", "--south", "spades=5+ hcp=8-",
                           "--format", "json", "--workers", "1")
    assert status == 0
    data = json.loads(out)
    hands = [parse_pbn_deal(d).hands[2] for d in data["deals"]]
    assert len(hands) == 4 and all(hand_hcp(h) <= 8 and sum(1 for c in h if c % 4 == 3) >= 5 for h in hands)
    # a seat's flag given twice: both constraints hold (never silently dropped)
    status, out, _ = run("bridge", "deal", "-n", "20", "--seed", "4", "--north", "hcp=12+", "--north",
                         "hearts=5+", "--format", "json", "--workers", "1")
    north = [parse_pbn_deal(d).hands[0] for d in json.loads(out)["deals"]]
    assert all(hand_hcp(h) >= 12 and sum(1 for c in h if c % 4 == 2) >= 5 for h in north)
    status, _, err = run("bridge", "deal", "--north-cards", "AKQJ.T98.765.432", "--north-cards",
                         "T98.765.432.AKQJ")
    assert status == 2 and "--north-cards is given 2 times" in err
    # -n 1 deals only what it needs (the first chunk is 1,024 deals)
    status, out, err = run("bridge", "deal", "-n", "1", "--seed", "5", "--format", "json", "--workers", "1")
    assert json.loads(out)["tried"] == 1
    # impossible constraints are refused at once; the give-up limit is the user's
    status, _, err = run("bridge", "deal", "--north", "hcp=25+", "--south", "hcp=25+")
    assert status == 2 and "impossible" in err
    status, _, err = run("bridge", "deal", "--north", "hcp=37", "--max-tries", "3000", "--workers", "1")
    assert status == 2 and "in 3,000 random deals (the give-up limit" in err
    # more deals than tries can never be found: refused before any dealing, the previous file kept
    previous = tmp_path / "prev.pbn"
    previous.write_text("previous\n")
    status, _, err = run("bridge", "deal", "-n", "100000000", "--format", "pbn", "-o", str(previous))
    assert status == 2 and "100,000,000 deals cannot be found in at most 50,000,000 random deals" in err
    assert "at least 100,000,000" in err and previous.read_text() == "previous\n"
    # 'table' is the plain format; 'text' stays accepted
    status, table, _ = run("bridge", "deal", "--seed", "6", "--format", "table", "--workers", "1")
    status2, text, _ = run("bridge", "deal", "--seed", "6", "--format", "text", "--workers", "1")
    assert status == status2 == 0 and table == text and table.startswith("Board 1")


def test_pbn_export_tags(run, tmp_path) -> None:
    target = tmp_path / "d.pbn"
    assert run("bridge", "deal", "-n", "2", "--seed", "7", "--format", "pbn", "-o", str(target),
               "--workers", "1")[0] == 0
    text = target.read_text()
    assert text.startswith("% PBN 2.1\n% EXPORT\n") and text.count("% PBN") == 1
    games = [g for g in text.split("\n\n") if "[Deal " in g]
    assert len(games) == 2
    for game in games:
        tags = [line.split()[0][1:] for line in game.splitlines() if line.startswith("[")]
        assert tags == ["Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
                        "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]


def test_same_seed_same_deals_for_any_workers() -> None:
    one = random_deals(30, seed=8, constraints={"N": parse_constraint("hcp=15-17 shape=balanced")}, workers=1)
    two = random_deals(30, seed=8, constraints={"N": parse_constraint("hcp=15-17 shape=balanced")}, workers=2)
    assert one.deals == two.deals and one.tried == two.tried


def test_bulk_pbn_matches_the_deal_by_deal_writer() -> None:
    from dealer_oracle import deal_owners

    from cardlab.bridge.dealer.dealing import masks_from_owner
    from cardlab.bridge.deals import deals_from_masks, pbn_games

    masks = masks_from_owner(deal_owners(np.random.default_rng(9), 40))
    deals = deals_from_masks(masks)
    assert all(sorted(c for h in d.hands for c in h) == list(range(52)) for d in deals)
    body = deals_to_pbn(deals, date="2024.01.31").split("\n", 2)[2]
    assert pbn_games(masks, date="2024.01.31") == body + "\n"


def test_bulk_pbn_deal_strings_equal_the_deal_objects() -> None:
    """The PBN strings that JSON and PBN output stream (compiled core) equal Deal.to_pbn, deal by deal."""
    from cardlab.bridge.dealer.dealing import masks_from_owner
    from cardlab.bridge.deals import deals_from_masks, pbn_deal_strings

    rng = np.random.default_rng(4)
    owner = np.stack([rng.permutation(np.repeat(np.arange(4, dtype=np.int8), 13)) for _ in range(200)], axis=1)
    masks = masks_from_owner(owner)
    assert pbn_deal_strings(masks) == [d.to_pbn() for d in deals_from_masks(masks)]
    # the Deal objects hold exactly the cards of the owner rows
    for i, deal in enumerate(deals_from_masks(masks)):
        for seat in range(4):
            assert sorted(deal.hands[seat]) == np.flatnonzero(owner[:, i] == seat).tolist()


def test_bridge_deal_pbn_parses_with_endplay(run, tmp_path) -> None:
    """The PBN the compiled core writes is read back by endplay (a peer PBN reader): the same
    deals, board numbers, dealers and vulnerabilities as cardlab's own Deal objects and board cycle."""
    from endplay.parsers import pbn

    from cardlab.board import Vulnerability, dealer

    target = tmp_path / "d.pbn"
    assert run("bridge", "deal", "-n", "40", "--seed", "12", "--south", "hcp=10+", "--format", "pbn", "-o",
               str(target), "--workers", "2")[0] == 0
    ours = [line.split('"')[1] for line in target.read_text().splitlines() if line.startswith("[Deal ")]
    with target.open() as f:
        boards = pbn.load(f)
    assert len(boards) == len(ours) == 40
    vul_names = {"None": "none", "NS": "ns", "EW": "ew", "All": "both"}
    for number, (board, text) in enumerate(zip(boards, ours), start=1):
        deal = parse_pbn_deal(text)
        assert board.board_num == number
        assert board.dealer.abbr == dealer(number).value == text[0]
        assert board.vul.name == vul_names[Vulnerability.from_board(number).value]
        assert board.deal.to_pbn() == deal.to_pbn()
        assert hand_hcp(deal.hands[2]) >= 10
