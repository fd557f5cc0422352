"""Blackjack by combinatorial analysis: the exact house edge of the composition-dependent
strategy (with and without splits) and of basic strategy, and the basic strategy table, for any
rules (:class:`~cardlab.casino.blackjack_rules.Rules`). See docs/casino.md.

>>> from cardlab.casino.blackjack_rules import Rules
>>> result = analyse(Rules(composition=(1, 1, 1, 1, 1, 1, 1, 1, 1, 4)))
>>> result.letter("hard", 16, 9)
'H'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardlab.casino.blackjack_engine import ACTIONS, Counts, Hands, Optimal, Policy, hand_of, total_of
from cardlab.casino.blackjack_rules import RANKS, Rules, check_flag, checked_rules
from cardlab.errors import BlackjackError, whole_argument
from cardlab.results import JsonText, csv_rows
from cardlab.textformat import text_table

__all__ = ["split_model", "Strategy", "BlackjackAnalysis", "analyse", "basic_strategy", "house_edge", "insurance_gain", "first_hands", "effects_of_removal", "hand_values", "UP_ORDER"]

UP_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
"""Up cards as tables print them: 2..9, T, A."""


def split_model(rules: Rules) -> str:
    """The split rules and post-split strategy the exact split values are for, in words."""
    play = ("CDZ- (the pre-split best play" if rules.post_split == "cdz"
            else "CDP1 (best for the hand's own cards, both pair cards out")
    hands = (f"resplit to {rules.split_hands} hands{', aces too' if rules.resplit_aces else ''}"
             if rules.split_hands > 2 else "no resplit")
    return f"exact, post-split {play}; basic strategy: its table); {hands}"
_NAME = {"stand": "S", "hit": "H", "surrender": "R", "split": "P"}


@dataclass(frozen=True)
class Strategy:
    """A total-dependent strategy: per (kind, total or pair rank, up card) the first decision's
    letter (H S D Ds P R), and for hands of three or more cards (or a letter not open) whether
    to hit."""

    letters: dict[tuple[str, int, int], str]
    hit_rule: dict[tuple[bool, int, int], bool]

    def hits(self, up: int) -> dict[tuple[bool, int], bool]:
        """Per (soft, total) whether a hand of three or more cards hits against ``up``."""
        return {(soft, total): yes for (soft, total, u), yes in self.hit_rule.items() if u == up}

    def decide(self, hands: Hands, hand: Counts, removed: Counts, split: bool) -> str:
        """The decision this strategy takes (a :data:`~cardlab.casino.blackjack_engine.Policy`)."""
        total, soft = total_of(hand)
        fallback = "hit" if self.hit_rule.get((soft, total, hands.up), total < 17) else "stand"
        if sum(hand) != 2:
            return fallback
        letter = self.letters.get(("soft" if soft else "hard", total, hands.up), fallback[0].upper())
        if max(hand) == 2 and not split:
            letter = self.letters.get(("pair", hand.index(2), hands.up), letter)
            if letter == "P":
                return "split"
        if letter in ("D", "Ds"):
            return "double" if hands.may_double(hand, split) else fallback
        if letter == "R":
            return "surrender" if "surrender" in hands.options(hand, split) else fallback
        return "stand" if letter == "S" else "hit" if letter == "H" else fallback


def first_hands(shoe: Counts) -> list[tuple[Counts, float]]:
    """The player's two-card hands (unordered) with their chances from ``shoe``."""
    size = sum(shoe)
    found = []
    for a in range(10):
        for b in range(a, 10):
            ways = shoe[a] * (shoe[b] - (a == b)) * (1 if a == b else 2)
            if ways > 0:
                found.append((hand_of(a, b), ways / (size * (size - 1))))
    return found


def house_edge(rules: Rules, policy: Policy, removed: Counts = (0,) * 10,
               tables: dict[int, Hands] | None = None, ups: tuple[int, ...] = tuple(range(10))) -> float:
    """The house edge (minus the expected value per initial bet) of playing by ``policy``
    (``tables``: the up cards' :class:`Hands` already built for these rules, reused; ``ups``:
    only the rounds with these up cards, 0 = ace .. 9 = ten, counted)."""
    rules = checked_rules(rules)
    tables = {} if tables is None else tables
    cards = [c - r for c, r in zip(rules.cards, _removed(rules, removed))]
    size = sum(cards)
    expected = 0.0
    for up in ups:
        if cards[up] == 0:
            continue
        hands = tables.get(up) or tables.setdefault(up, Hands(rules, up, removed))
        for hand, chance in first_hands(hands.base):
            if hand[0] == 1 and hand[9] == 1:
                value = float(rules.blackjack_pays) * (1 - hands.dealer_blackjack(hand))
            else:
                value = hands.value(hand, hand, policy.decide(hands, hand, hand, False), policy)
                if rules.peek:
                    value -= hands.dealer_blackjack(hand)
            expected += cards[up] / size * chance * value
    if getattr(policy, "insurance", False) and 0 in ups:
        expected += insurance_gain(rules, removed)
    return -expected


def _removed(rules: Rules, removed: object) -> tuple[int, ...]:
    """``removed`` when it is ten whole counts (A..T) the shoe holds, else a BlackjackError."""
    if isinstance(removed, (str, bytes)) or not isinstance(removed, (tuple, list)) or len(removed) != 10:
        raise BlackjackError(f"the cards removed are ten counts A,2,...,9,T, not {removed!r:.60}")
    return tuple(whole_argument(r, f"the {RANKS[k]}s removed", BlackjackError, 0, c)
                 for k, (r, c) in enumerate(zip(removed, rules.cards)))


def insurance_gain(rules: Rules, removed: Counts = (0,) * 10) -> float:
    """The player's expected gain per initial bet from insuring (half the bet, paid 2 to 1 on a
    dealer blackjack) exactly when the cards seen, the dealer's ace and the player's two, make
    it pay: more than one in three of the cards left a ten (an even-money blackjack included).

    >>> insurance_gain(Rules(decks=1))                       # 16 tens in 49 cards at best
    0.0
    >>> round(insurance_gain(Rules(composition=(4,) * 9 + (24,))), 6)
    0.007345
    """
    rules = checked_rules(rules)
    cards = [c - r for c, r in zip(rules.cards, _removed(rules, removed))]
    if cards[0] == 0:
        return 0.0
    size = sum(cards)
    cards[0] -= 1
    rest = size - 3
    gain = 0.0
    for hand, chance in first_hands(tuple(cards)):
        tens = (cards[9] - hand[9]) / rest
        gain += chance * max(0.0, 0.5 * (3 * tens - 1))
    return (cards[0] + 1) / size * gain


def basic_strategy(rules: Rules, tables: dict[int, Hands] | None = None) -> Strategy:
    """The total-dependent strategy chosen from the full shoe's exact figures: for each total
    (hard or soft, pairs counted by their total) and up card, the decision whose value averaged
    over the two-card hands of that total (weighted by their chances) is best, later decisions
    played composition-dependently; a pair splits when splitting beats the best other decision
    for that pair."""
    rules = checked_rules(rules)
    letters: dict[tuple[str, int, int], str] = {}
    hits: dict[tuple[bool, int, int], bool] = {}
    tables = {} if tables is None else tables
    for up in range(10):
        if rules.cards[up] == 0:
            continue
        hands = tables.get(up) or tables.setdefault(up, Hands(rules, up))
        sums: dict[tuple[bool, int], dict[str, float]] = {}
        for hand, chance in first_hands(hands.base):
            total, soft = total_of(hand)
            if total == 21:
                continue
            values = {a: hands.ev(hand, a) for a in hands.options(hand, False)}
            if "split" in values:
                split = values.pop("split")
                letters[("pair", hand.index(2), up)] = "P" if split > max(values.values()) else ""
            slot = sums.setdefault((soft, total), {})
            for action, v in values.items():
                slot[action] = slot.get(action, 0.0) + chance * v
        for (soft, total), values in sums.items():
            hit = values["hit"] > values["stand"]
            hits[(soft, total, up)] = hit
            best = max(values, key=lambda a: values[a])
            letter = _NAME.get(best) or ("D" if hit else "Ds")
            letters[("soft" if soft else "hard", total, up)] = letter
        for rank in range(10):
            key = ("pair", rank, up)
            if letters.get(key) == "":
                total, soft = total_of(hand_of(rank, rank))
                letters[key] = letters[("soft" if soft else "hard", total, up)]
    return Strategy(letters, hits)


def hand_values(rules: Rules, tables: dict[int, Hands] | None = None) -> list[dict[str, Any]]:
    """Every first hand (two cards, blackjacks left out) against every up card: the exact
    value of each open decision (given no dealer blackjack in a peek game; later decisions
    composition-dependent, splits by the one-hand approximation) and the best one."""
    rules = checked_rules(rules)
    tables = {} if tables is None else tables
    rows = []
    for up in UP_ORDER:
        if rules.cards[up] == 0:
            continue
        hands = tables.get(up) or tables.setdefault(up, Hands(rules, up))
        for hand, chance in first_hands(hands.base):
            if total_of(hand)[0] == 21:
                continue
            values = {a: hands.ev(hand, a) for a in hands.options(hand, False)}
            cards = [RANKS[r] for r in range(10) for _ in range(hand[r])]
            rows.append({"up": RANKS[up], "hand": "-".join(sorted(cards, key=lambda c: RANKS.index(c) or 10, reverse=True)),
                         "probability": chance, **{a: values.get(a) for a in ACTIONS},
                         "best": max(values, key=lambda a: values[a])})
    return rows


def effects_of_removal(rules: Rules, policy: Policy | None = None) -> dict[str, float]:
    """Per rank (A..T): how much the player's expectation per initial bet changes when one card
    of that rank is taken out of the full shoe, ``policy`` (default: the full shoe's basic
    strategy) played unchanged."""
    rules = checked_rules(rules)
    chosen = policy or basic_strategy(rules)
    full = house_edge(rules, chosen)
    effects = {}
    for rank in range(10):
        if rules.cards[rank] == 0:
            continue
        effects[RANKS[rank]] = full - house_edge(rules, chosen, removed=hand_of(rank))
    return effects


@dataclass(frozen=True)
class BlackjackAnalysis(JsonText):
    """The exact figures of one rule set: house edges and the basic strategy table."""

    rules: Rules
    strategy: Strategy
    basic_edge: float
    optimal_edge: float
    optimal_edge_no_splits: float
    removal: dict[str, float] | None = None
    hands: list[dict[str, Any]] | None = None
    insurance: float = 0.0
    count: dict[str, Any] | None = None

    def letter(self, kind: str, total: int, up: int) -> str:
        """The table's letter for a hard or soft total, or a pair (``total`` its rank index);
        ``-`` for a hand the shoe cannot deal."""
        return self.strategy.letters.get((kind, total, up), "-")

    def rows(self) -> list[tuple[str, list[str]]]:
        """The table as players read it: hard 4-20, soft 13-20, pairs 2-2 .. A-A."""
        found = [(f"hard {t}", [self.letter("hard", t, u) for u in UP_ORDER]) for t in range(5, 21)]
        found += [(f"soft {t} (A-{t - 11})", [self.letter("soft", t, u) for u in UP_ORDER]) for t in range(13, 21)]
        found += [(f"pair {RANKS[r]}-{RANKS[r]}", [self.letter("pair", r, u) for u in UP_ORDER])
                  for r in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)]
        return found

    def to_dict(self) -> dict[str, Any]:
        """The analysis as plain data: rules, the split model, house edges, strategy, extras."""
        return {"rules": self.rules.describe(),
                "splits": split_model(self.rules),
                "house_edge": {"basic_strategy": self.basic_edge,
                               "composition_dependent": self.optimal_edge,
                               "composition_dependent_no_splits": self.optimal_edge_no_splits,
                               "composition_dependent_insuring": self.optimal_edge - self.insurance},
                "effects_of_removal": self.removal,
                "counting": self.count,
                "hands": self.hands,
                "basic_strategy": {hand: dict(zip((RANKS[u] for u in UP_ORDER), row)) for hand, row in self.rows()}}

    def to_csv(self) -> str:
        """The hands' values (with ``hands``) or the strategy table, as CSV rows."""
        if self.hands is not None:
            return csv_rows(self.hands)
        return csv_rows([{"hand": hand, **dict(zip((RANKS[u] for u in UP_ORDER), row))} for hand, row in self.rows()])

    def table(self) -> str:
        """The house edges and the basic strategy table as players read it (H S D Ds P R)."""
        header = ["hand", *(RANKS[u] for u in UP_ORDER)]
        lines = [f"Blackjack: {self.rules.describe()}",
                 f"house edge, basic strategy: {self.basic_edge:.4%}",
                 f"house edge, composition-dependent: {self.optimal_edge:.4%} "
                 f"({self.optimal_edge_no_splits:.4%} never splitting; "
                 f"{self.optimal_edge - self.insurance:.4%} insuring when the cards make it pay"
                 f"{', which they never do here' if self.insurance == 0 else ''})",
                 f"splits: {split_model(self.rules)}",
                 *([] if self.removal is None else [
                     "effects of removal (player's expectation, % per card taken out): " + " ".join(
                         f"{r} {self.removal[r] * 100:+.3f}" for r in (*RANKS[1:], "A") if r in self.removal)]),
                 *([] if self.count is None else [
                     f"count {self.count['count']}: betting correlation {self.count['betting_correlation']:.3f}, "
                     f"insurance correlation {self.count['insurance_correlation']:.3f}, "
                     f"playing efficiency {self.count['playing_efficiency']:.3f} (Griffin's method, a quarter of the shoe seen)"]),
                 "",
                 text_table(header, [(hand, *row) for hand, row in self.rows()]),
                 "", "H hit, S stand, D double (else hit), Ds double (else stand), P split, R surrender (else the hit/stand rule)"]
        if self.hands is not None:
            shown = [a for a in ACTIONS if any(row[a] is not None for row in self.hands)]
            lines += ["", "Every first hand (expected value given no dealer blackjack):",
                      text_table(["up", "hand", *shown, "best"],
                                 [(row["up"], row["hand"], *("" if row[a] is None else f"{row[a]:+.6f}" for a in shown), row["best"])
                                  for row in self.hands], left=(0, 1, len(shown) + 2))]
        return "\n".join(lines)


def analyse(rules: Rules, removal: bool = False, hands: bool = False) -> BlackjackAnalysis:
    """Basic strategy, its exact house edge, and the composition-dependent house edges (with
    ``removal`` the effects of removal under basic strategy, with ``hands`` every first hand's
    values: :func:`hand_values`)."""
    rules = checked_rules(rules)
    removal, hands = check_flag(removal, "removal"), check_flag(hands, "hands")
    tables: dict[int, Hands] = {}
    strategy = basic_strategy(rules, tables)
    return BlackjackAnalysis(rules, strategy, house_edge(rules, strategy, tables=tables),
                             house_edge(rules, Optimal(), tables=tables),
                             house_edge(rules, Optimal(splits=False), tables=tables),
                             effects_of_removal(rules, strategy) if removal else None,
                             hand_values(rules, tables) if hands else None, insurance_gain(rules))
