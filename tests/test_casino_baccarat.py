"""Baccarat's side bets (cardlab.casino.baccarat): published figures, a brute force over every
ordered deal of a small shoe, and the seeded simulation.

Sources of the published figures (cited beside each number below):
- [WoO-Dragon] Wizard of Odds, "Baccarat side bets", Dragon Bonus,
  https://wizardofodds.com/games/baccarat/side-bets/ (also its appendix 5): pays a non-natural
  win by 9/8/7/6/5/4 points 30/10/6/4/2/1, a natural win 1, a natural tie pushes. Eight decks:
  combinations of each outcome, house edge 2.65% (0.026517) on the Player side and 9.37%
  (0.093731) on the Banker side; 6 decks 2.67% and 9.39%, 4 decks 2.70% and 9.42%.
- [WoO-EZ] Wizard of Odds, "EZ Baccarat", https://wizardofodds.com/games/ez-baccarat/ (eight
  decks): the Banker bet paying even money and pushing a three-card winning 7, 1.02%
  (0.010183); Dragon 7 (the Banker wins with three cards totalling 7) at 40 to 1, 7.61%
  (112,633,011,329,024 winning deals); Panda 8 (the Player wins with three cards totalling 8) at
  25 to 1, 10.19% (172,660,763,262,976).
- [WoO-PP] Wizard of Odds, "Perfect Pairs" versions 1 and 2,
  https://wizardofodds.com/games/baccarat/side-bets/perfect-pairs-ver1/ and .../perfect-pairs-ver2/:
  a suited pair (same rank and suit) in either side's first two cards; version 1 pays 25 to 1,
  eight decks 13.03% (246,848,784 of 7,379,583,120), six decks 17.07%; version 2 pays 25 to 1
  for one and 250 to 1 for both, eight decks 6.62% (2,101,008 both, 244,747,776 one).
- [WoO-Totals] Wizard of Odds, "Side Total Side Bets in Baccarat",
  https://wizardofodds.com/games/baccarat/side-bets/side-totals/ (eight decks: the deals ending
  with each Player total and each Banker total, of 4,998,398,275,503,360).
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest

from cardlab.casino.analysis import analyse
from cardlab.casino.baccarat import coup_table
from cardlab.casino.game import parse_game
from cardlab.errors import PayTableError
from test_casino import plain_coup, within_999

BUILTIN = tomllib.loads((Path(__file__).parents[1] / "src/cardlab/casino/data/baccarat.toml").read_text())
EVERY_BET = BUILTIN | {"either_pair_pays": 5, "perfect_pair_pays": 25, "perfect_pair_both_pays": 250,
                       "banker_pays": 1, "banker_three_card_7_pays": 0}
TOTAL_8 = 416 * 415 * 414 * 413 * 412 * 411


def edge(result: object, name: str, places: int = 2) -> float:
    return round(result.bet(name).house_edge * 100, places)  # type: ignore[attr-defined]


def test_dragon_bonus_as_published():
    result = analyse("baccarat")
    # [WoO-Dragon] eight decks: every outcome's combinations, best margin first
    player = {o.name: o.count for o in result.bet("Dragon Bonus Player").outcomes}
    assert player == {"natural win": 812_685_054_124_032, "natural tie (push)": 89_325_908_267_520,
                      "win by 9": 18_409_431_764_992, "win by 8": 34_097_645_543_424,
                      "win by 7": 89_590_261_473_280, "win by 6": 141_238_897_317_888,
                      "win by 5": 166_169_165_987_840, "win by 4": 186_780_352_174_080,
                      "other (loses)": TOTAL_8 - 1_538_296_716_653_056}
    banker = [o.count for o in result.bet("Dragon Bonus Banker").outcomes]
    assert banker[2:8] == [15_390_342_909_952, 28_305_092_784_128, 79_517_099_278_336, 119_200_072_366_080,
                           157_275_882_332_160, 201_147_167_287_296]
    assert round(result.bet("Dragon Bonus Player").house_edge, 6) == 0.026517
    assert round(result.bet("Dragon Bonus Banker").house_edge, 6) == 0.093731
    for decks, published in ((6, (2.67, 9.39)), (4, (2.70, 9.42))):  # [WoO-Dragon] by decks
        other = analyse(parse_game(BUILTIN | {"decks": decks}, "b.toml"))
        assert (edge(other, "Dragon Bonus Player"), edge(other, "Dragon Bonus Banker")) == published


def test_final_totals_as_published():
    """The tally every side bet is read from: its final totals as [WoO-Totals] counts them."""
    table = coup_table(np.full(13, 32))
    player, banker = table.sum(axis=(1, 2, 3, 4, 5)), table.sum(axis=(0, 2, 3, 4, 5))
    assert player[::-1][:5].tolist() == [668_220_074_600_448, 665_982_456_134_400, 668_117_541_187_584,
                                         665_920_136_276_736, 372_435_601_541_376]
    assert player[0] == 469_796_508_410_880
    assert banker[::-1][:6].tolist() == [641_996_333_062_144, 639_959_843_756_800, 641_950_993_608_704,
                                         605_184_530_090_752, 503_359_177_443_584, 466_997_733_545_984]
    assert banker[3] == 363_761_246_869_760 and int(table.sum()) == TOTAL_8


def test_ez_baccarat_as_published():
    result = analyse(parse_game(EVERY_BET, "ez.toml"))
    # [WoO-EZ] eight decks
    assert result.bet("Dragon 7").outcomes[0].count == 112_633_011_329_024
    assert result.bet("Panda 8").outcomes[0].count == 172_660_763_262_976
    assert (edge(result, "Dragon 7"), edge(result, "Panda 8")) == (7.61, 10.19)
    banker = result.bet("Banker")
    assert [o.name for o in banker.outcomes][:2] == ["banker wins", "banker wins with a three-card 7"]
    assert banker.outcomes[1].count == 112_633_011_329_024 and banker.outcomes[1].net == 0
    assert round(banker.house_edge, 6) == 0.010183
    # the usual commissioned Banker bet is unchanged by the side bets: [WoO-Bac] in test_casino.py
    assert round(analyse("baccarat").bet("Banker").house_edge * 100, 4) == 1.0579


def test_perfect_pairs_as_published():
    version_2 = analyse(parse_game(EVERY_BET, "b.toml")).bet("Perfect Pair")
    # [WoO-PP] version 2, eight decks: 250 for both, 25 for one
    both, one, _ = (Fraction(o.count, version_2.total) for o in version_2.outcomes)
    assert both == Fraction(2_101_008, 7_379_583_120) and one == Fraction(244_747_776, 7_379_583_120)
    assert round(version_2.house_edge * 100, 2) == 6.62
    for decks, published in ((8, 13.03), (6, 17.07)):  # [WoO-PP] version 1: 25 for one or both
        game = parse_game(BUILTIN | {"decks": decks, "perfect_pair_pays": 25}, "b.toml")
        assert edge(analyse(game), "Perfect Pair") == published


def play_by_hand(cards: tuple[int, ...], pays: dict[str, Fraction]) -> dict[str, Fraction]:
    """Every bet's net on one ordered deal (card ids), by the plain tableau of test_casino."""
    ranks = tuple(c // 4 for c in cards)
    p, b, used, pp, bp = plain_coup(ranks)
    value = lambda r: 1 if r == 12 else 0 if r >= 8 else r + 2  # noqa: E731
    player_drew = used > 4 and (value(ranks[0]) + value(ranks[2])) % 10 <= 5
    banker_drew = used - 4 - player_drew == 1
    win = {"Player": p > b, "Banker": b > p}
    net = {"Player": pays["Player"] if p > b else Fraction(-1 if b > p else 0),
           "Banker": (pays["Banker three-card 7"] if banker_drew and b == 7 else pays["Banker"]) if b > p
           else Fraction(-1 if p > b else 0),
           "Tie": pays["Tie"] if p == b else Fraction(-1),
           "Either Pair": pays["Either Pair"] if pp or bp else Fraction(-1)}
    perfect = (cards[0] == cards[2]) + (cards[1] == cards[3])
    net["Perfect Pair"] = [Fraction(-1), pays["Perfect Pair"], pays["Perfect Pair both"]][perfect]
    for side, own, other, drew in (("Player", p, b, player_drew), ("Banker", b, p, banker_drew)):
        natural = not drew and own >= 8
        if natural:
            result = pays["Dragon Bonus natural"] if win[side] else Fraction(0 if own == other else -1)
        else:
            result = pays.get(f"Dragon Bonus by {own - other}", Fraction(-1))
        net[f"Dragon Bonus {side}"] = result
    net["Dragon 7"] = pays["Dragon 7"] if banker_drew and b == 7 and p < 7 else Fraction(-1)
    net["Panda 8"] = pays["Panda 8"] if player_drew and p == 8 and b < 8 else Fraction(-1)
    return net


def test_every_bet_by_brute_force_on_a_small_shoe():
    """A shoe of nine cards with a card twice (a perfect pair can happen), every ordered deal
    of six played by hand: each bet's exact expectation and outcome counts agree."""
    shoe = "As As 2c 5d 6h 7s 7s 9c Kd"
    game = parse_game(EVERY_BET | {"decks": 2, "remove": _all_but(shoe)}, "small.toml")
    result = analyse(game)
    pays = dict(game.pays)
    cards = game.cards
    sums: dict[str, Fraction] = {}
    totals = np.zeros((10, 10, 2, 2, 2, 2), dtype=np.int64)
    for order in permutations(range(len(cards)), 6):
        dealt = tuple(cards[i] for i in order)
        for name, net in play_by_hand(dealt, pays).items():
            sums[name] = sums.get(name, Fraction(0)) + net
        ranks = tuple(c // 4 for c in dealt)
        p, b, used, pp, bp = plain_coup(ranks)
        player_drew = used > 4 and (sum(1 if r == 12 else 0 if r >= 8 else r + 2 for r in ranks[0:3:2])) % 10 <= 5
        totals[p, b, int(player_drew), used - 4 - player_drew, int(pp), int(bp)] += 1
    counts = np.bincount(np.array(cards) // 4, minlength=13)
    assert (coup_table(counts) == totals).all()
    deals = 9 * 8 * 7 * 6 * 5 * 4
    assert {b.name: b.expected for b in result.bets} == {name: sums[name] / deals for name in sums} | \
        {"Player Pair": result.bet("Player Pair").expected, "Banker Pair": result.bet("Banker Pair").expected}
    # every outcome of every bet happens on this shoe (the brute force checks each of them)
    assert all(o.count > 0 for b in result.bets for o in b.outcomes)


def _all_but(keep: str) -> str:
    """The cards of two decks that are not in ``keep`` (so the shoe left is ``keep``)."""
    from collections import Counter

    from cardlab.cards import format_cards

    left = Counter(keep.split())
    gone = []
    for card in range(52):
        text = format_cards([card])
        gone += [text] * (2 - left[text])
    return " ".join(gone)


def test_simulation_agrees_with_every_side_bet():
    result = analyse(parse_game(EVERY_BET, "b.toml"), simulate=200_000, seed=43)
    assert len(result.bets) == 11
    for bet in result.bets:
        assert bet.simulated is not None and within_999(bet), (bet.name, bet.simulated, float(bet.expected))


def test_side_bets_after_cards_seen():
    """Every three-card total needs a drawn card: with the shoe's small cards gone, no hand
    draws to a 7 by three cards as often; the exact figures move as the brute force says."""
    full = analyse("baccarat")
    seen = analyse(parse_game(BUILTIN | {"decks": 1, "remove": "Ac Ad Ah As 2c 2d 2h 2s 3c 3d"}, "b.toml"))
    assert seen.bet("Dragon 7").total == 42 * 41 * 40 * 39 * 38 * 37
    assert seen.bet("Dragon 7").expected != full.bet("Dragon 7").expected
    assert seen.bet("Dragon Bonus Player").expected != full.bet("Dragon Bonus Player").expected


@pytest.mark.parametrize("change, message", [
    ({"dragon_bonus": [30, 10, 6]}, "dragon_bonus must be the pays of a win by 9, 8, 7, 6, 5 and 4"),
    ({"dragon_bonus": "30-10"}, "dragon_bonus must be the pays"),
    ({"dragon_bonus": [30, 10, 6, 4, 2, -1]}, "dragon_bonus (win by 4): pays must not be negative"),
    ({"panda_8_pays": "lots"}, "panda_8_pays: pays must be a number"),
    ({"banker_three_card_7_pays": 1e9}, "banker_three_card_7_pays: pays 1000000000.0 is out of range"),
    ({"dragon_bonuss": 1}, "unknown key 'dragon_bonuss'"),
    ({"perfect_pair_both_pays": 250}, "perfect_pair_both_pays is part of the bet perfect_pair_pays adds"),
])
def test_bad_side_bets_are_refused(change: dict[str, object], message: str):
    with pytest.raises(PayTableError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_game(BUILTIN | change, "b.toml")
    with pytest.raises(PayTableError, match="dragon_natural_pays is part of the bet dragon_bonus adds"):
        parse_game({"game": "baccarat", "dragon_natural_pays": 1}, "b.toml")


def test_cli_refuses_a_bad_pay_table_in_one_line(run, tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "baccarat"\ndragon_bonus = [30, 10]\n')
    status, out, err = run("casino", "analyse", str(bad))
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "dragon_bonus must be the pays of a win by 9, 8, 7, 6, 5 and 4 points" in err


def test_kernel_refuses_bad_buffers():
    from cardlab._native import core as _core

    with pytest.raises(ValueError, match="0..32 cards"):
        coup_table(np.full(13, 33))
    with pytest.raises(ValueError, match="casino_baccarat_coups: bad arguments"):
        _core.casino_baccarat_coups(np.full(13, 4, dtype=np.int64), np.zeros(1599, dtype=np.int64))
    with pytest.raises(ValueError, match="casino_baccarat_coups: bad arguments"):
        _core.casino_baccarat_coups(np.full(13, -1, dtype=np.int64), np.zeros(1600, dtype=np.int64))
