"""Trick statistics over random deals under constraints, solved double dummy.

``makes`` answers "how often does 3NT make with these hands", and compares two
contracts on the same deals in IMPs and matchpoints; ``leads`` ranks the opening
leads from a known hand. Deals are generated and solved chunk by chunk through
the engine's chunk runner: chunk ``i`` always uses the ``i``-th child seed, so
the same seed gives the same answer whatever the number of workers.

>>> r = makes(["7S"], "N", trials=20, seed=1, fixed={"N": "AKQJT98765432..."}, chunk=10, tricks=True)
>>> r.contracts[0].make_rate, r.contracts[0].tricks[13]
(1.0, 20)
>>> makes(["3NT"], "N", trials=5, seed=1, constraints={"N": parse_constraint("hcp=38+")})
Traceback (most recent call last):
...
cardlab.errors.ConstraintError: no deal out of 200,000 random deals met the constraints (N: hcp=38+)
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from cardlab.results import JsonText
from cardlab.board import SEAT_NAMES, SEATS, Seat, parse_seat
from cardlab.bridge.dd import declarer_makes, declarer_tricks, lead_sets, lead_tricks, parse_strain
from cardlab.bridge.deals import Constraint, parse_constraint
from cardlab.cards import RANKS, SUIT_ORDER, SUITS
from cardlab.dealing import card_ids
from cardlab.intervals import mean_interval, wilson
from cardlab.engine import Executor, SeedLike, available_cores, reduce_chunks, renamed_trials, resolve_seed
from cardlab.errors import ConstraintError, ContractError, DeckError
from cardlab.scoring.contract import Contract, declarer_score
from cardlab.scoring.matchpoints import imps

__all__ = [
    "check_count",
    "parse_constraints",
    "ContractStats",
    "Comparison",
    "MakesResult",
    "LeadStats",
    "LeadResult",
    "makes",
    "leads",
    "constrained_hands",
    "DEFAULT_DD_CHUNK",
]

#: Deals per chunk: a few DDS multi-deal calls, so progress and Ctrl-C stay responsive.
DEFAULT_DD_CHUNK = 100
_PILOT = 200_000


def _mean_interval(total: float, squares: float, n: int) -> tuple[float, float, float]:
    if not n:
        return 0.0, 0.0, 0.0
    lo, hi = mean_interval(total, squares, n)
    return total / n, lo, hi


# --- dealing under constraints ------------------------------------------------------------------


def _fixed_ids(fixed: Mapping[str, str] | None) -> dict[int, tuple[int, ...]]:
    out: dict[int, tuple[int, ...]] = {}
    used: set[int] = set()
    for seat, cards in (fixed or {}).items():
        position = parse_seat(seat).index
        ids = card_ids(cards)
        if len(ids) != 13:
            raise DeckError(f"{SEATS[position]} must hold 13 cards, got {len(ids)} in '{cards}'")
        if len(set(ids)) != 13 or used.intersection(ids):
            raise DeckError(f"a card of {SEATS[position]}'s hand '{cards}' is given twice")
        used.update(ids)
        out[position] = tuple(sorted(ids))
    return out


def constrained_hands(
    rng: np.random.Generator,
    count: int,
    constraints: Sequence[tuple[int, Constraint]] = (),
    fixed: Sequence[tuple[int, tuple[int, ...]]] = (),
    batch: int = 20_000,
    max_tries: int = 20_000_000,
) -> tuple[np.ndarray, int]:
    """``count`` deals (an ``(count, 4, 13)`` array) meeting the constraints, and how many were tried
    (the random deals up to the last one kept: a batch's deals after it are not counted).

    Fixed seats hold their cards; the rest of the deck is shuffled around them in
    batches and the constraints are numpy masks over each batch (the dealing of
    :mod:`cardlab.bridge.deals`, with its public ``Constraint.mask``).
    """
    fixed_map = dict(fixed)
    used = {c for ids in fixed_map.values() for c in ids}
    rest = np.array([c for c in range(52) if c not in used], dtype=np.uint8)
    free = [s for s in range(4) if s not in fixed_map]
    kept: list[np.ndarray] = []
    have = tried = 0
    while have < count:
        if tried >= max_tries:
            raise ConstraintError(f"only {have} of {count} deals met the constraints in {tried:,} random deals")
        n = batch
        shuffled = rng.permuted(np.broadcast_to(rest, (n, len(rest))), axis=1)
        hands = np.empty((n, 4, 13), dtype=np.uint8)
        for k, seat in enumerate(free):
            hands[:, seat] = shuffled[:, 13 * k:13 * (k + 1)]
        for seat, ids in fixed_map.items():
            hands[:, seat] = np.array(ids, dtype=np.uint8)
        ok = np.ones(n, dtype=bool)
        for seat, constraint in constraints:
            ok &= constraint.mask(hands[:, seat])
        good = hands[ok]
        kept.append(good)
        if have + len(good) >= count:  # the deals after the last one kept were dealt, not tried
            tried += int(np.flatnonzero(ok)[count - have - 1]) + 1
        else:
            tried += n
        have += len(good)
    return np.concatenate(kept)[:count], tried


def _pilot(constraints: Sequence[tuple[int, Constraint]], fixed: Sequence[tuple[int, tuple[int, ...]]]) -> None:
    """Fail at once, with one clear line, when the constraints cannot (practically) be met."""
    if not constraints:
        return
    try:
        constrained_hands(np.random.default_rng(0), 1, constraints, fixed, batch=_PILOT // 4, max_tries=_PILOT)
    except ConstraintError:
        text = ", ".join(f"{SEATS[s]}: {c.text}" for s, c in constraints)
        raise ConstraintError(f"no deal out of {_PILOT:,} random deals met the constraints ({text})") from None


def parse_constraints(constraints: Mapping[str, Constraint | str] | None, fixed: Mapping[str, str] | None
                      ) -> tuple[tuple[tuple[int, Constraint], ...], tuple[tuple[int, tuple[int, ...]], ...]]:
    """Seat constraints and fixed hands as (seat index, constraint) and (seat index, card ids)
    pairs, checked by dealing a pilot batch (a :class:`~cardlab.errors.ConstraintError` when no
    deal of it fits).

    >>> cons, fix = parse_constraints({"N": "hcp=15-17"}, {"S": "AKQJT98765432..."})
    >>> [seat for seat, _ in cons], [(seat, len(cards)) for seat, cards in fix]
    ([0], [(2, 13)])
    """
    cons = tuple((parse_seat(seat).index, c if isinstance(c, Constraint) else parse_constraint(c))
                 for seat, c in (constraints or {}).items())
    fix = tuple(sorted(_fixed_ids(fixed).items()))
    _pilot(cons, fix)
    return cons, fix


def check_count(n: int | None) -> int:
    """``n`` as the number of deals to simulate: a whole number of at least 1, else a
    :class:`~cardlab.errors.ConstraintError` naming it.

    >>> check_count(200)
    200
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ConstraintError(f"the number of deals must be a whole number of at least 1, got {n!r}")
    return int(n)


# --- makes ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _MakesTask:
    """One chunk: deal ``size`` constrained deals, solve each contract's declarer and strain
    only: its tricks (``tricks``), else only whether it makes (DDS's target mode)."""

    constraints: tuple[tuple[int, Constraint], ...]
    fixed: tuple[tuple[int, tuple[int, ...]], ...]
    plays: tuple[tuple[int, int], ...]  # (declarer seat, strain) per contract
    needed: tuple[int, ...] = ()  # tricks each contract needs (level + 6)
    tricks: bool = True

    def __call__(self, seed: np.random.SeedSequence, size: int) -> tuple[int, np.ndarray]:
        rng = np.random.default_rng(seed)
        hands, tried = constrained_hands(rng, size, self.constraints, self.fixed)
        if self.tricks:
            return tried, declarer_tricks(hands, self.plays)
        return tried, declarer_makes(hands, [(d, s, t) for (d, s), t in zip(self.plays, self.needed)])


@dataclass(frozen=True)
class ContractStats(JsonText):
    """Double-dummy results of one contract over the deals. ``tricks`` (deals with 0..13
    tricks) is empty when only make or fail was solved (``makes(..., tricks=False)``): then the
    trick figures and the expected score are not known."""

    contract: str
    declarer: str
    deals: int
    tricks: tuple[int, ...]  # deals with 0..13 tricks; () when not solved
    makes: int
    score_sum: float
    score_squares: float

    @property
    def has_tricks(self) -> bool:
        """Whether the trick distribution was solved (not only make or fail)."""
        return bool(self.tricks)

    def _need_tricks(self) -> None:
        if not self.has_tricks:
            raise ContractError(f"only make or fail of {self.contract} was solved: ask for the tricks "
                                "(makes(..., tricks=True), or --tricks)")

    @property
    def make_rate(self) -> float:
        """Share of the deals on which the contract makes."""
        return self.makes / self.deals

    def make_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the probability of making."""
        return wilson(self.makes, self.deals)

    def tricks_interval(self, t: int) -> tuple[float, float]:
        """95% Wilson interval of the probability of exactly ``t`` tricks."""
        self._need_tricks()
        return wilson(self.tricks[t], self.deals)

    def mean_tricks(self) -> float:
        """Mean number of tricks declarer takes."""
        self._need_tricks()
        return sum(t * c for t, c in enumerate(self.tricks)) / self.deals

    def expected_score(self) -> tuple[float, float, float]:
        """Mean declarer-side score, with its 95% interval (normal approximation)."""
        self._need_tricks()
        return _mean_interval(self.score_sum, self.score_squares, self.deals)

    def to_dict(self) -> dict[str, Any]:
        """``{contract, declarer, deals, tricks: [{tricks, count, probability, ci95}], mean_tricks, make, score}``."""
        if not self.deals:  # interrupted before the first batch: nothing to estimate
            return {"contract": self.contract, "declarer": self.declarer, "deals": 0}
        lo, hi = self.make_interval()
        if not self.has_tricks:
            return {"contract": self.contract, "declarer": self.declarer, "deals": self.deals,
                    "make": {"probability": self.make_rate, "ci95": [lo, hi]}}
        mean, slo, shi = self.expected_score()
        return {
            "contract": self.contract, "declarer": self.declarer, "deals": self.deals,
            "tricks": [{"tricks": t, "count": c, "probability": c / self.deals,
                        "ci95": list(self.tricks_interval(t))} for t, c in enumerate(self.tricks) if c],
            "mean_tricks": self.mean_tricks(),
            "make": {"probability": self.make_rate, "ci95": [lo, hi]},
            "score": {"mean": mean, "ci95": [slo, shi]},
        }


@dataclass(frozen=True)
class Comparison(JsonText):
    """Contract A against contract B on the same deals, from A's side: IMPs and matchpoints."""

    first: str
    second: str
    deals: int
    imp_sum: float
    imp_squares: float
    wins: int
    ties: int

    def imps(self) -> tuple[float, float, float]:
        """Expected IMPs per board for choosing the first contract, with a 95% interval."""
        return _mean_interval(self.imp_sum, self.imp_squares, self.deals)

    def matchpoints(self) -> tuple[float, float, float]:
        """Expected matchpoint share (win 1, tie 1/2) of the first contract against the second, 95% interval."""
        n = self.deals
        total = self.wins + 0.5 * self.ties
        squares = self.wins + 0.25 * self.ties
        return _mean_interval(total, squares, n)

    def to_dict(self) -> dict[str, Any]:
        """``{first, second, deals, imps: {mean, ci95}, matchpoints: {mean, ci95}, wins, ties}``."""
        m, lo, hi = self.imps()
        p, plo, phi = self.matchpoints()
        return {"first": self.first, "second": self.second, "deals": self.deals,
                "imps": {"mean": m, "ci95": [lo, hi]},
                "matchpoints": {"mean": p, "ci95": [plo, phi]}, "wins": self.wins, "ties": self.ties}


@dataclass(frozen=True)
class MakesResult(JsonText):
    """Statistics of one or two contracts over random deals under constraints."""

    contracts: tuple[ContractStats, ...]
    comparison: Comparison | None
    vulnerable: bool
    seed: int | None
    deals: int
    requested: int
    tried: int
    constraints: str = ""
    interrupted: bool = False
    workers: int = 1
    fixed: str = ""  # the hands given, as typed ("North AKQ2.KJ3.A54.Q32")

    def to_dict(self) -> dict[str, Any]:
        """The run as a JSON-ready dict: deals, seed, constraints, each contract's statistics, the comparison."""
        return {"deals": self.deals, "requested": self.requested, "seed": self.seed, "tried": self.tried,
                "constraints": self.constraints, "fixed": self.fixed, "vulnerable": self.vulnerable, "interrupted": self.interrupted,
                "contracts": [c.to_dict() for c in self.contracts],
                "comparison": self.comparison.to_dict() if self.comparison and self.deals else None}

    def to_csv(self) -> str:
        """One row per contract and trick count: count, probability and its 95% interval (only
        make or fail solved: one row per contract, tricks ``9+`` = the contract's tricks or more)."""
        lines = ["contract,declarer,tricks,count,probability,ci95_low,ci95_high"]
        for c in self.contracts if self.deals else ():
            if not c.has_tricks:
                lo, hi = c.make_interval()
                lines.append(f"{c.contract},{c.declarer},{_needed(c.contract)}+,{c.makes},{c.make_rate},{lo},{hi}")
            for t, k in enumerate(c.tricks):
                lo, hi = c.tricks_interval(t)
                lines.append(f"{c.contract},{c.declarer},{t},{k},{k / c.deals},{lo},{hi}")
        return "\n".join(lines) + "\n"

    def to_pandas(self) -> Any:
        """One row per contract and trick count (only make or fail solved: one row per contract,
        tricks ``9+``) (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        rows: list[dict[str, Any]] = []
        for c in self.contracts:
            rows.extend({"contract": c.contract, "declarer": c.declarer, "tricks": str(t), "count": k}
                        for t, k in enumerate(c.tricks))
            if not c.has_tricks:
                rows.append({"contract": c.contract, "declarer": c.declarer, "tricks": f"{_needed(c.contract)}+",
                             "count": c.makes})
        return pd.DataFrame(rows, columns=["contract", "declarer", "tricks", "count"])

    def table(self) -> str:
        """The text ``bridge makes`` prints."""
        given = "; ".join(x for x in (self.fixed, self.constraints) if x)
        dealt = f"{given}; the other hands random" if self.fixed else self.constraints or "no constraints"
        out = [f"{self.deals:,} deals (seed {self.seed}; {dealt}; "
               f"declarer {'vulnerable' if self.vulnerable else 'not vulnerable'})"]
        for c in self.contracts if self.deals else ():
            lo, hi = c.make_interval()
            if not c.has_tricks:
                out.append(f"\n{c.contract} by {c.declarer}: makes {100 * c.make_rate:.1f}% "
                           f"(95% interval {100 * lo:.1f}% – {100 * hi:.1f}%); make or fail only "
                           "(--tricks: the trick distribution and the expected score)")
                continue
            mean, slo, shi = c.expected_score()
            out.append(f"\n{c.contract} by {c.declarer}: makes {100 * c.make_rate:.1f}% "
                       f"(95% interval {100 * lo:.1f}% – {100 * hi:.1f}%), mean tricks {c.mean_tricks():.2f}, "
                       f"expected score {mean:+.0f} ({slo:+.0f} – {shi:+.0f})")
            out.append("  tricks     deals       %   95% interval")
            for t, k in enumerate(c.tricks):
                if k:
                    tlo, thi = c.tricks_interval(t)
                    out.append(f"  {t:>6} {k:>9,} {100 * k / c.deals:>7.2f}   {100 * tlo:.2f} – {100 * thi:.2f}")
        if self.comparison and self.deals:
            cmp = self.comparison
            m, lo, hi = cmp.imps()
            p, plo, phi = cmp.matchpoints()
            out.append(f"\n{cmp.first} rather than {cmp.second}: {m:+.2f} IMPs a board ({lo:+.2f} – {hi:+.2f}); "
                       f"matchpoints {100 * p:.1f}% ({100 * plo:.1f}% – {100 * phi:.1f}%); "
                       f"better on {cmp.wins:,}, equal on {cmp.ties:,} of {cmp.deals:,} deals")
        if self.interrupted:
            out.append(f"\ninterrupted: {self.deals:,} of {self.requested:,} deals were solved")
        return "\n".join(out) + "\n"

    def __repr__(self) -> str:
        names = " vs ".join(f"{c.contract} {c.declarer}" for c in self.contracts)
        rates = ", ".join(f"{c.make_rate:.3f}" for c in self.contracts) if self.deals else "-"
        return f"MakesResult({names}, {self.deals} deals, make {rates})"

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(self.table())}</pre>"


def _needed(contract: str) -> int:
    """Tricks a contract needs (``3NT``: 9)."""
    return Contract.parse(contract).level + 6


def _parse_contract(text: str) -> Contract:
    contract = Contract.parse(text)
    if contract.is_pass or contract.strain is None:
        raise ContractError(f"a contract to play is needed, not {text!r}")
    return contract


def makes(
    contracts: Sequence[str],
    declarer: str | Seat | Sequence[str | Seat],
    trials: int | None = None,
    *,
    constraints: Mapping[str, Constraint | str] | None = None,
    fixed: Mapping[str, str] | None = None,
    vulnerable: bool = False,
    seed: SeedLike = None,
    workers: int = 1,
    chunk: int = DEFAULT_DD_CHUNK,
    progress: bool = False,
    executor: Executor | str | None = None,
    n: int | None = None,
    tricks: bool | None = None,
) -> MakesResult:
    """How one contract (or two, compared) fares double dummy over ``trials`` random deals
    (``n`` is its deprecated name).

    ``declarer`` is one seat for all contracts or one per contract; ``constraints``
    map seats to :func:`parse_constraint` specs; ``fixed`` seats hold given cards.
    ``tricks``: solve declarer's tricks (the distribution, mean tricks and expected score)
    rather than only whether the contract makes; the default (None) solves them when two
    contracts are compared (the IMPs need the scores) and for one contract asks DDS only
    "does it make" (its target mode: several times faster).
    Ctrl-C returns the deals solved so far, marked ``interrupted``.

    >>> r = makes(["3NT"], "N", 4, constraints={"N": "hcp=25+"}, seed=1)
    >>> r.deals
    4
    """
    n = check_count(renamed_trials(trials, n, "n", "makes()"))
    if not 1 <= len(contracts) <= 2:
        raise ContractError(f"give one contract, or two to compare, not {len(contracts)}")
    parsed = [_parse_contract(c) for c in contracts]
    seats = [parse_seat(declarer)] * len(parsed) if isinstance(declarer, (str, Seat)) else [
        parse_seat(d) for d in declarer]
    if len(seats) != len(parsed):
        given = declarer if isinstance(declarer, (str, Seat)) else ",".join(str(d) for d in declarer)
        raise ContractError(f"give one declarer, or one per contract: {len(parsed)} contract(s) and "
                            f"declarers '{given}'")
    if tricks is None:
        tricks = len(parsed) == 2
    elif not tricks and len(parsed) == 2:
        raise ContractError("comparing two contracts needs their tricks (the scores): leave tricks on")
    cons, fix = parse_constraints(constraints, fixed)
    plays = tuple((s.index, parse_strain(c.strain.value)) for s, c in zip(seats, parsed))  # type: ignore[union-attr]
    task = _MakesTask(cons, fix, plays, tuple(c.level + 6 for c in parsed), bool(tricks))
    root, reported = resolve_seed(seed)
    score_table = np.array([[declarer_score(c, t, vulnerable) for t in range(14)] for c in parsed], dtype=np.int64)
    def absorb(acc: dict[str, Any], part: tuple[int, np.ndarray]) -> dict[str, Any]:
        chunk_tried, solved = part
        acc["tried"] += chunk_tried
        if solved.dtype == np.bool_:  # make or fail only
            acc["made"] += solved.sum(axis=0)
            return acc
        t = solved.astype(np.int64)
        scores = np.stack([score_table[i, t[:, i]] for i in range(len(parsed))], axis=1)
        for i in range(len(parsed)):
            acc["hist"][i] += np.bincount(t[:, i], minlength=14)
        acc["sums"] += scores.sum(axis=0)
        acc["squares"] += (scores.astype(np.float64) ** 2).sum(axis=0)
        if len(parsed) == 2:
            diff = scores[:, 0] - scores[:, 1]
            swing = imps(diff).astype(np.float64)
            acc["imp_sum"] += float(swing.sum())
            acc["imp_sq"] += float((swing ** 2).sum())
            acc["wins"] += int((diff > 0).sum())
            acc["ties"] += int((diff == 0).sum())
        return acc

    start: dict[str, Any] = {"hist": np.zeros((len(parsed), 14), dtype=np.int64), "sums": np.zeros(len(parsed)),
                             "squares": np.zeros(len(parsed)), "imp_sum": 0.0, "imp_sq": 0.0, "wins": 0,
                             "ties": 0, "tried": 0, "made": np.zeros(len(parsed), dtype=np.int64)}
    run = reduce_chunks(task, n, root, absorb, start, chunk=chunk, workers=workers, executor=executor,
                        progress="solving deals" if progress else None, empty_ok=True)
    acc, done, interrupted = run.value, run.done, run.interrupted
    hist, sums, squares, tried = acc["hist"], acc["sums"], acc["squares"], acc["tried"]
    imp_sum, imp_sq, wins, ties = acc["imp_sum"], acc["imp_sq"], acc["wins"], acc["ties"]
    stats = tuple(
        ContractStats(str(c), s.value, done, tuple(int(x) for x in hist[i]) if tricks else (),
                      int(hist[i, c.level + 6:].sum()) if tricks else int(acc["made"][i]),
                      float(sums[i]), float(squares[i]))
        for i, (c, s) in enumerate(zip(parsed, seats)))
    comparison = (Comparison(f"{parsed[0]} {seats[0].value}", f"{parsed[1]} {seats[1].value}", done,
                             imp_sum, imp_sq, wins, ties) if len(parsed) == 2 else None)
    text = "; ".join(f"{SEATS[s]}: {c.text}" for s, c in cons)
    given = "; ".join(f"{SEAT_NAMES[s]} {cards.strip()}" for s, cards in sorted(
        (parse_seat(seat).index, cards) for seat, cards in (fixed or {}).items()))
    return MakesResult(stats, comparison, vulnerable, reported, done, n, tried, text, interrupted,
                       min(workers, available_cores()), given)


# --- opening leads -------------------------------------------------------------------------------


def _lead_groups(hand: Sequence[int]) -> list[tuple[int, ...]]:
    """The leader's cards grouped by sequences (cards of touching rank in one suit are equals)."""
    groups: list[tuple[int, ...]] = []
    for suit in SUIT_ORDER:
        ranks = sorted((c // 4 for c in hand if c % 4 == suit), reverse=True)
        run: list[int] = []
        for r in ranks:
            if run and run[-1] != r + 1:
                groups.append(tuple(4 * x + suit for x in run))
                run = []
            run.append(r)
        if run:
            groups.append(tuple(4 * x + suit for x in run))
    return groups


def _group_name(group: Sequence[int]) -> str:
    return SUITS[group[0] % 4].upper() + "".join(RANKS[c // 4] for c in group)


@dataclass(frozen=True)
class _LeadTask:
    """One chunk: deal around the leader's hand, solve the opening lead of every card."""

    constraints: tuple[tuple[int, Constraint], ...]
    fixed: tuple[tuple[int, tuple[int, ...]], ...]
    leader: int
    strain: int
    groups: tuple[tuple[int, ...], ...]
    needed: int  # defence tricks that beat the contract
    tricks: bool = True  # count the defence's tricks; False: only which leads set (target mode)

    def __call__(self, seed: np.random.SeedSequence, size: int) -> np.ndarray:
        """``(groups, 3)`` sums: defence tricks, their squares, sets (tricks 0 when not counted)."""
        rng = np.random.default_rng(seed)
        hands, _ = constrained_hands(rng, size, self.constraints, self.fixed)
        card_group = {c: g for g, group in enumerate(self.groups) for c in group}
        out = np.zeros((len(self.groups), 3), dtype=np.int64)
        if not self.tricks:
            for setting in lead_sets(hands, self.leader, self.strain, self.needed):
                for g in {card_group[card] for card in setting}:
                    out[g, 2] += 1
            return out
        for by_card in lead_tricks(hands, self.leader, self.strain):
            best: dict[int, int] = {}
            for card, tricks in by_card.items():
                best[card_group[card]] = tricks
            for g, tricks in best.items():
                out[g] += (tricks, tricks * tricks, tricks >= self.needed)
        return out


@dataclass(frozen=True)
class LeadStats(JsonText):
    """One opening lead (a group of equal cards) over the deals. ``tricks_known`` is False when
    only whether the lead sets the contract was solved (``leads(..., tricks=False)``)."""

    lead: str
    deals: int
    tricks_sum: int
    tricks_squares: int
    sets: int
    tricks_known: bool = True

    def mean_tricks(self) -> tuple[float, float, float]:
        """Average defensive tricks after this lead, with a 95% interval."""
        if not self.tricks_known:
            raise ContractError(f"only whether {self.lead} sets the contract was solved: ask for the tricks "
                                "(leads(..., tricks=True), or --tricks)")
        return _mean_interval(self.tricks_sum, self.tricks_squares, self.deals)

    @property
    def set_rate(self) -> float:
        """Share of the deals on which this lead sets the contract."""
        return self.sets / self.deals

    def set_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the probability of setting the contract."""
        return wilson(self.sets, self.deals)

    def to_dict(self) -> dict[str, Any]:
        """``{lead, deals, defence_tricks: {mean, ci95}, set: {probability, ci95}}``."""
        if not self.deals:  # interrupted before the first batch
            return {"lead": self.lead, "deals": 0}
        slo, shi = self.set_interval()
        if not self.tricks_known:
            return {"lead": self.lead, "deals": self.deals, "set": {"probability": self.set_rate, "ci95": [slo, shi]}}
        m, lo, hi = self.mean_tricks()
        return {"lead": self.lead, "deals": self.deals, "defence_tricks": {"mean": m, "ci95": [lo, hi]},
                "set": {"probability": self.set_rate, "ci95": [slo, shi]}}


@dataclass(frozen=True)
class LeadResult(JsonText):
    """Opening leads ranked by how often they beat the contract, then by defensive tricks."""

    contract: str
    declarer: str
    leads: tuple[LeadStats, ...]
    seed: int | None
    deals: int
    requested: int
    interrupted: bool = False
    workers: int = 1
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """The run as a JSON-ready dict: contract, declarer, deals, seed and each lead's statistics."""
        return {"contract": self.contract, "declarer": self.declarer, "deals": self.deals,
                "requested": self.requested, "seed": self.seed, "interrupted": self.interrupted,
                "leads": [lead.to_dict() for lead in self.leads]}

    def to_csv(self) -> str:
        """One row per lead: mean defence tricks and set rate, each with its 95% interval (the
        tricks' cells empty when only the set rate was solved)."""
        lines = ["lead,deals,mean_tricks,tricks_ci95_low,tricks_ci95_high,set_rate,set_ci95_low,set_ci95_high"]
        for lead in self.leads if self.deals else ():
            slo, shi = lead.set_interval()
            tricks = ",".join(map(str, lead.mean_tricks())) if lead.tricks_known else ",,"
            lines.append(f"{lead.lead},{lead.deals},{tricks},{lead.set_rate},{slo},{shi}")
        return "\n".join(lines) + "\n"

    def to_pandas(self) -> Any:
        """One row per lead (needs pandas)."""
        from cardlab.errors import require
        pd = require("pandas", "pandas", "to_pandas()")

        return pd.DataFrame([lead.to_dict() for lead in self.leads])

    def table(self) -> str:
        """The text ``bridge lead`` prints."""
        out = [f"Opening leads against {self.contract} by {self.declarer}, {self.deals:,} deals (seed {self.seed})",
               "  lead       defence tricks (95% interval)     set rate (95% interval)"]
        for lead in self.leads if self.deals else ():
            slo, shi = lead.set_interval()
            if lead.tricks_known:
                m, lo, hi = lead.mean_tricks()
                tricks = f"{m:6.2f} ({lo:5.2f} – {hi:5.2f})"
            else:
                tricks = f"{'-':>6}{'':16}"
            out.append(f"  {lead.lead:<9} {tricks}          "
                       f"{100 * lead.set_rate:5.1f}% ({100 * slo:.1f}% – {100 * shi:.1f}%)")
        if self.leads and not self.leads[0].tricks_known:
            out.append("  (set rates only, solved by DDS's target mode; --tricks: the defence's tricks too)")
        if self.interrupted:
            out.append(f"interrupted: {self.deals:,} of {self.requested:,} deals were solved")
        return "\n".join(out) + "\n"

    def __repr__(self) -> str:
        best = self.leads[0].lead if self.leads else "-"
        return f"LeadResult({self.contract} by {self.declarer}, {self.deals} deals, best {best})"

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(self.table())}</pre>"


def leads(
    hand: str,
    contract: str,
    declarer: str | Seat,
    trials: int | None = None,
    *,
    constraints: Mapping[str, Constraint | str] | None = None,
    fixed: Mapping[str, str] | None = None,
    seed: SeedLike = None,
    workers: int = 1,
    chunk: int = DEFAULT_DD_CHUNK,
    progress: bool = False,
    executor: Executor | str | None = None,
    n: int | None = None,
    tricks: bool = False,
) -> LeadResult:
    """Every opening lead from ``hand`` (held by declarer's left-hand opponent) against ``contract``.

    For each of ``trials`` deals (``n``: its deprecated name) dealt around the leader's hand under ``constraints``, DDS
    solves the position with each card led (``solve_all_boards``, 200 deals a call);
    cards in sequence are one lead. Ranked by set rate, then by defensive tricks.
    By default DDS only answers which leads beat the contract (its target mode, several times
    faster); ``tricks=True`` counts the defence's tricks after each lead too.

    >>> r = leads("AKQ2.T98.765.432", "3NT", "S", 4, seed=1)
    >>> r.deals
    4
    """
    n = check_count(renamed_trials(trials, n, "n", "leads()"))
    parsed = _parse_contract(contract)
    seat = parse_seat(declarer)
    leader = (seat.index + 1) % 4
    all_fixed = dict(fixed or {})
    if SEATS[leader] in {parse_seat(s).value for s in all_fixed}:
        raise ConstraintError(f"the leader {SEATS[leader]}'s hand is given twice")
    all_fixed[SEATS[leader]] = hand
    cons, fix = parse_constraints(constraints, all_fixed)
    groups = tuple(_lead_groups(dict(fix)[leader]))
    needed = 13 - (parsed.level + 6) + 1
    task = _LeadTask(cons, fix, leader, parse_strain(parsed.strain.value), groups, needed,  # type: ignore[union-attr]
                     bool(tricks))
    root, reported = resolve_seed(seed)
    run = reduce_chunks(task, n, root, lambda total, part: total + part, np.zeros((len(groups), 3), dtype=np.int64),
                        chunk=chunk, workers=workers, executor=executor,
                        progress="solving leads" if progress else None, empty_ok=True)
    totals, done, interrupted = run.value, run.done, run.interrupted
    stats = [LeadStats(_group_name(g), done, int(t[0]), int(t[1]), int(t[2]), bool(tricks))
             for g, t in zip(groups, totals)]
    stats.sort(key=lambda s: (-s.sets, -s.tricks_sum))
    return LeadResult(str(parsed), seat.value, tuple(stats), reported, done, n, interrupted,
                      min(workers, available_cores()))

