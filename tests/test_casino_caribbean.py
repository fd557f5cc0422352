"""Caribbean Stud (cardlab.casino.caribbean): the published totals, a brute force on reduced decks
with its own hand evaluator, and the seeded simulation agreeing with the exact route.

Sources of the published figures (cited beside each number below):
- [WoO-CS] Wizard of Odds (M. Shackleford), "Caribbean Stud Poker",
  https://wizardofodds.com/games/caribbean-stud-poker/ (pay table 100/50/20/7/5/4/3/2/1/1, raise
  2 antes, dealer qualifies with A-K): its "strategy statistics" table gives each strategy's
  total loss over all 19,933,230,517,200 deals: perfect strategy 1,041,372,912,372 (house edge
  5.224%, element of risk 2.555%), the three rules of thumb 1,041,417,758,724, raise on
  A-K-J-8-3 or better 1,059,715,400,580, matching rank 1,063,176,931,284, any pair or better
  1,090,272,101,460, any A-K or better 1,132,600,203,540, raise on everything 3,310,360,338,060;
  its return table: the player wins with a royal flush 16,759,740 times, a straight flush
  156,929,720, four of a kind 2,832,435,800, a full house 16,624,475,280. (Read in copies of the
  page; the percentages also in M. Shackleford, "The Wizard of Odds analyzes the new casino
  games", Contingencies, Nov/Dec 2000: 5.22%, 2.56%; A-K-J-8-3 5.32%; pair or better 5.47%.)
"""

from __future__ import annotations

import itertools
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from cardlab.casino import kernel
from cardlab.casino.analysis import analyse
from cardlab.casino.caribbean import analyse_caribbean, stud_pairs
from cardlab.casino.game import load_game, parse_game, read_game
from cardlab.casino.table_rules import CATEGORIES
from cardlab.errors import PayTableError
from bruteforce import poker_compare, poker_key

GAME_FILE = Path(__file__).parents[1] / "src/cardlab/casino/data/caribbean-stud.toml"
DEALS = 19_933_230_517_200  # [WoO-CS]


@pytest.fixture(scope="module")
def full():
    game = load_game("caribbean-stud")
    return game, analyse_caribbean(game)


def test_caribbean_stud_as_published(full):
    _, (bet, rules, _, pairs) = full
    assert bet.total == pairs.deals == DEALS
    assert -bet.expected * DEALS == 1_041_372_912_372  # [WoO-CS] perfect strategy's total loss
    assert f"{bet.house_edge:.3%}" == "5.224%" and f"{bet.element_of_risk:.3%}" == "2.555%"  # [WoO-CS]
    wins = {row.name: row.count for row in bet.outcomes}
    assert wins["player wins with royal flush"] == 16_759_740  # [WoO-CS] return table
    assert wins["player wins with straight flush"] == 156_929_720
    assert wins["player wins with four of a kind"] == 2_832_435_800
    assert wins["player wins with full house"] == 16_624_475_280
    assert rules[0] == "raise with A-K-Q-J-2 or better, whatever the up card"
    assert rules[1] == "fold below A-K-4-3-2 whatever the up card"
    assert "up card Q, matching none: fold" in rules


def _ranks(high: np.ndarray, i: int) -> np.ndarray:
    """The i-th highest rank of high-card strengths (0 = two, 12 = ace)."""
    return high >> 4 * (4 - i) & 15


def test_fixed_strategies_as_published(full):
    """Each strategy the Wizard of Odds tabulates, played on the exact counts: its total loss."""
    game, (_, _, _, pairs) = full
    high, category = pairs.high, pairs.category
    pays = tuple(p for _, p in game.pays)
    ak = (category == 0) & (_ranks(high, 0) == 12) & (_ranks(high, 1) == 11)
    up = pairs.up_rank
    has = [(np.stack([_ranks(high, i) for i in range(5)], axis=1) == r).any(axis=1) for r in range(13)]
    fourth = _ranks(high, 3)
    thumb = (category > 0) | (ak & (((up <= 10) & pairs.matches) | ((up >= 11) & (has[10] | has[9]))
                                    | (~pairs.matches & has[10] & (up < fourth))))
    published = {  # [WoO-CS] total loss over 19,933,230,517,200 deals
        "three rules of thumb": (thumb, 1_041_417_758_724),
        "A-K-J-8-3 or better": (high >= 0xCB961, 1_059_715_400_580),
        "matching rank": ((category > 0) | (ak & pairs.matches), 1_063_176_931_284),
        "pair or better": (category > 0, 1_090_272_101_460),
        "A-K or better": ((category > 0) | ak, 1_132_600_203_540),
        "everything": (np.ones(len(high), dtype=bool), 3_310_360_338_060),
    }
    for name, (raises, loss) in published.items():
        assert -pairs.result(raises, pays, 2, Fraction(1)) * DEALS == loss, name


# --- brute force: every deal of a small deck, its own evaluator ---------------------------------

def brute_caribbean(cards: list[int], qualifies, pays: dict[int, Fraction], rb: int,
                    no_qualify: Fraction) -> tuple[Fraction, Fraction, Counter]:
    """The exact expected result per ante, average bet and outcome counts, deal by deal."""
    keys = {h: poker_key(h) for h in itertools.combinations(sorted(cards), 5)}
    total, raised, rows = Fraction(0), 0, Counter()
    deals = 0
    for mine in itertools.combinations(sorted(cards), 5):
        me = poker_compare(keys[mine])
        for up in cards:
            if up in mine:
                continue
            rest = [c for c in cards if c not in mine and c != up]
            tally = Counter()
            for hidden in itertools.combinations(rest, 4):
                dealer = keys[tuple(sorted(hidden + (up,)))]
                if not qualifies(dealer):
                    tally["dealer does not qualify"] += 1
                elif me > poker_compare(dealer):
                    tally["win"] += 1
                elif me == poker_compare(dealer):
                    tally["tie"] += 1
                else:
                    tally["dealer wins"] += 1
            n = sum(tally.values())
            value = (no_qualify * tally["dealer does not qualify"] + tally["win"] * (1 + rb * pays[keys[mine][0]])
                     - tally["dealer wins"] * (1 + rb))
            deals += n
            if value > -n:
                total += value
                raised += n
                rows.update(tally)
            else:
                total -= n
                rows["fold"] += n
    return total / deals, 1 + Fraction(rb * raised, deals), rows


def _game(deck: str, **rules) -> object:
    data = tomllib.loads(GAME_FILE.read_text())
    data["deck"] = deck
    data["caribbean_stud"].update(rules)
    return parse_game(data, "reduced.toml")


@pytest.mark.parametrize("deck, rules, qualifies", [
    ("Q-A", {"qualifier": "two pair"}, lambda k: k[0] >= 2),
    ("As Ks Qs Js Ts 9h 8h 7h 6d 5d 4c 2c", {}, lambda k: k[0] > 0 or k[1][:2] == (12, 11)),
    ("As Ks Qs Js Ts 9h 8h 7h 6d 5d 4c 2c Ad", {"raise": 1, "no_qualify_pays": 0.5, "qualifier": "pair"},
     lambda k: k[0] > 0),
])
def test_caribbean_by_brute_force(deck: str, rules: dict, qualifies):
    game = _game(deck, **rules)
    pays = {c: p for c, (_, p) in enumerate(game.pays)}
    expected, average, rows = brute_caribbean(game.cards, qualifies, pays, game.raise_bets, game.no_qualify_pays)
    result = analyse(game)
    bet = result.bets[0]
    assert bet.expected == expected and bet.average_bet == average
    counts = {row.name: row.count for row in bet.outcomes}
    for name in ("fold", "dealer does not qualify", "tie", "dealer wins"):
        assert counts[name] == rows[name], name
    assert sum(counts[f"player wins with {c}"] for c in CATEGORIES) == rows["win"]
    assert ("by suit symmetry" in result.method) == (deck == "Q-A")


def test_simulation_agrees_with_exact():
    from test_casino import within_999

    game = _game("9-A")
    result = analyse(game, simulate=100_000, seed=43)
    bet = result.bets[0]
    assert bet.simulated is not None and bet.simulated.trustworthy and within_999(bet)
    assert not bet.simulated.interval.low <= float(bet.expected) + 0.03 <= bet.simulated.interval.high
    again = analyse(game, simulate=100_000, seed=43)
    assert again.bets[0].simulated is not None and again.bets[0].simulated.mean == bet.simulated.mean


def test_symmetry_folding_changes_nothing():
    """The 20-card deck T-A counted by suit classes, weighted by class sizes, gives the counts of
    every (hand, up card) pair counted one by one."""
    game = _game("T-A")
    pairs = stud_pairs(game)
    assert pairs.symmetric and int(pairs.weight.sum()) == 15504 * 15
    assert int((pairs.counts.sum(axis=1) * pairs.weight).sum()) == pairs.deals
    # the weighted counts agree with counting every (hand, up card) pair one by one
    from cardlab.casino.simulation import positions_of

    table = pairs.table
    hands = positions_of(np.arange(15504), 5)
    total = np.zeros(4, dtype=np.int64)
    for up in range(20):
        mine = hands[~(hands == up).any(axis=1)]
        total += kernel.stud_versus(20, table.rank, len(table.strengths), up, mine, pairs.qualify).sum(axis=0)
    assert total.tolist() == (pairs.counts * pairs.weight[:, None]).sum(axis=0).tolist()


# --- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    (b'game = "caribbean-stud"\n[caribbean_stud]\nqualifier = "A-X"\n', "cannot read 'A-X'"),
    (b'game = "caribbean-stud"\n[caribbean_stud]\nraise = 0\n', "raise must be a whole number 1..10"),
    (b'game = "caribbean-stud"\n[caribbean_stud]\nante = 1\n', "unknown key 'ante'"),
    (b'game = "caribbean-stud"\n[raise_pays]\n"five of a kind" = 3\n', "unknown hand 'five of a kind'"),
    (b'game = "caribbean-stud"\n[raise_pays]\nflush = -1\n', "must be 0..10,000,000"),
    (b'game = "caribbean-stud"\n[raise_pays]\nflush = "five"\n', "must be a number"),
    (b'game = "caribbean-stud"\nraise_pays = 3\n', r"\[raise_pays\] must be a table"),
    (b'game = "caribbean-stud"\ndeck = "As Ks Qs Js Ts 9s 8s 7s 6s"\n', "needs at least 10 cards; the deck has 9"),
    (b'game = "caribbean-stud"\n[[side_bet]]\nname = "x"\n', r"side bet 1 \(x\): give 1..64 \[\[side_bet.pays\]\] lines"),
])
def test_bad_descriptions_raise_one_clear_error(text: bytes, message: str):
    with pytest.raises(PayTableError, match=message):
        read_game(text, "bad.toml")


def test_kernel_refuses_bad_buffers():
    from cardlab._native import core as _core

    rank = np.zeros(252, dtype=np.uint16)
    with pytest.raises(ValueError, match="up card"):
        kernel.stud_versus(10, rank, 1, 0, np.array([[0, 1, 2, 3, 4]]), 0)
    with pytest.raises(ValueError, match="out of range"):
        kernel.stud_versus(10, rank + 5, 2, 9, np.array([[0, 1, 2, 3, 4]]), 0)
    with pytest.raises(ValueError, match="twice"):
        kernel.stud_versus(10, rank, 1, 9, np.array([[0, 1, 2, 3, 3]]), 0)
    with pytest.raises(Exception, match="10..52"):
        kernel.stud_versus(9, rank[:126], 1, 8, np.array([[0, 1, 2, 3, 4]]), 0)
    with pytest.raises(ValueError, match="casino_stud_versus: bad arguments"):
        _core.casino_stud_versus(10, rank, 1, 0, np.array([0, 1, 2, 3, 4], dtype=np.uint8), 0,
                                 np.zeros(4, dtype=np.int64))


def test_cli_on_a_user_game(run, tmp_path: Path):
    user = tmp_path / "stud.toml"
    user.write_text(GAME_FILE.read_text().replace('deck = "standard"', 'deck = "9-A"'))
    status, out, _ = run("casino", "analyse", str(user), "--format", "json")
    assert status == 0 and '"bet": "Ante & Raise"' in out
    status, out, _ = run("casino", "analyse", str(user))
    assert status == 0 and "whatever the up card" in out and "inclusion-exclusion" in out
    user.write_text('game = "caribbean-stud"\n[caribbean_stud]\nqualifier = "A-X"\n')
    status, _, err = run("casino", "analyse", str(user))
    assert status == 2 and err.count("\n") == 1 and "cannot read 'A-X'" in err
