"""Bidding strategies compared double dummy on the same deals (``cardlab bridge compare``).

Each strategy is a rule from a deal to a contract and declarer (:mod:`.strategy_rules`). Each
deal is solved once per declarer and strain that some strategy plays on it (only those deals,
only those plays), then every strategy is scored from North-South's side under each
vulnerability asked, and every pair is compared on the same deals: IMPs, the matchpoint share
at a two-table pairs game, board-a-match, total points, each with a paired 95% interval.

>>> spades = "AKQJT98765432..."
>>> r = compare_strategies(["7S by N", "6S by N", "pass"], 4, seed=1, fixed={"N": spades})
>>> r.pair("A", "B").imps()[0], r.pair("A", "C").imps()[0], r.pair("B", "A").matchpoints()[0]
(11.0, 17.0, 0.0)
>>> r.strategy("A").mean_score()[0]
1510.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from cardlab.board import SEATS, Seat, Vulnerability, parse_seat
from cardlab.bridge.dd import check_hands, declarer_tricks, par_scores
from cardlab.bridge.dd_sim import DEFAULT_DD_CHUNK, check_count, constrained_hands, parse_constraints
from cardlab.bridge.deals import Constraint
from cardlab.bridge.strategy_result import Differ, PairStats, StrategyResult, StrategyStats
from cardlab.bridge.strategy_rules import Play, Rule, parse_rule
from cardlab.engine import Executor, SeedLike, available_cores, chunk_seed, reduce_chunks, resolve_seed
from cardlab.errors import ConstraintError, ContractError
from cardlab.scoring.contract import declarer_score
from cardlab.scoring.matchpoints import imps

__all__ = ["compare_strategies", "hands_from_deals", "MAX_STRATEGIES", "MAX_KEPT", "Differ", "PairStats",
           "StrategyResult", "StrategyStats"]

#: Most strategies compared at once (the cross-tables grow as the square).
MAX_STRATEGIES = 10
#: Most deals kept where strategies differ (for the PBN review file).
MAX_KEPT = 10_000
_PILOT = 200_000
_MAX_TRIES = 20_000_000
_SCRIPT_BATCH = 16_384
_ALL_VULS = (Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH)
_RULE_SEEDS = 2**32  # the conditions' rnd() draws from child (2**32, strategy) of the chunk's seed


# --- deal sources: each is called with (seed, size) and returns (hands (size, 4, 13), tried) -----


@dataclass(frozen=True)
class _Constrained:
    constraints: tuple[tuple[int, Constraint], ...]
    fixed: tuple[tuple[int, tuple[int, ...]], ...]

    def __call__(self, seed: np.random.SeedSequence, size: int) -> tuple[np.ndarray, int]:
        return constrained_hands(np.random.default_rng(seed), size, self.constraints, self.fixed)


def _hands_of_owner(owner: np.ndarray) -> np.ndarray:
    """``(n, 4, 13)`` card ids from ``owner[52, n]``."""
    return np.argsort(owner.T, axis=1, kind="stable").reshape(-1, 4, 13).astype(np.uint8)


def _owner_of_hands(hands: np.ndarray) -> np.ndarray:
    """``owner[52, n]`` from ``(n, 4, 13)`` card ids."""
    n = len(hands)
    owner = np.empty((n, 52), dtype=np.uint8)
    np.put_along_axis(owner, hands.reshape(n, 52).astype(np.int64), np.repeat(np.arange(4, dtype=np.uint8), 13)[None],
                      axis=1)
    return owner.T


@dataclass(frozen=True)
class _Scripted:
    """Deals meeting a dealer script's condition (around its predeal)."""

    script: Any

    def __call__(self, seed: np.random.SeedSequence, size: int) -> tuple[np.ndarray, int]:
        from cardlab.bridge.dealer.dealing import owner_from_masks
        from cardlab.bridge.dealer.runner import condition_deals

        kept: list[np.ndarray] = []
        have = tried = 0
        for i in range(_MAX_TRIES // _SCRIPT_BATCH + 1):
            if have >= size:
                break
            masks = condition_deals(self.script, chunk_seed(seed, i), _SCRIPT_BATCH)
            kept.append(_hands_of_owner(owner_from_masks(masks)))
            have += masks.shape[2]
            tried += _SCRIPT_BATCH
        else:
            raise ConstraintError(f"only {have} of {size} deals met the script's condition in {tried:,} random deals")
        return np.concatenate(kept)[:size], tried


@dataclass(frozen=True)
class _Listed:
    """Given deals, in order: chunk ``i`` (the last entry of its seed's spawn key, see
    :func:`cardlab.engine.chunk_seed`) takes deals ``i * chunk`` onwards."""

    hands: np.ndarray
    chunk: int
    vul: np.ndarray | None = None  # each board's vulnerability (index into _ALL_VULS), by_board only
    dealer: np.ndarray | None = None  # each board's dealer 0..3, by_board only

    def __call__(self, seed: np.random.SeedSequence, size: int) -> tuple[np.ndarray, int]:
        start = int(seed.spawn_key[-1]) * self.chunk
        return self.hands[start:start + size], size

    def boards(self, seed: np.random.SeedSequence, size: int) -> tuple[np.ndarray, np.ndarray]:
        """The vulnerability and dealer of the deals :meth:`__call__` gives for the same chunk."""
        assert self.vul is not None and self.dealer is not None
        start = int(seed.spawn_key[-1]) * self.chunk
        return self.vul[start:start + size], self.dealer[start:start + size]


def hands_from_deals(deals: Sequence[Any]) -> np.ndarray:
    """``(n, 4, 13)`` card ids of deals (:class:`cardlab.deal.Deal` or :class:`~cardlab.deal.Board`
    objects, or PBN ``"N:..."`` text)."""
    from cardlab.deal import Board, Deal

    parsed = [d.deal if isinstance(d, Board) else d if isinstance(d, Deal) else Deal.from_pbn(d) for d in deals]
    return np.array([d.hands for d in parsed], dtype=np.uint8).reshape(-1, 4, 13)


# --- one chunk ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Part:
    tried: int
    scores: np.ndarray  # (V, S, n) North-South scores
    tricks: np.ndarray  # (V, S, n) declarer's tricks, -1 when passed out
    made: np.ndarray  # (V, S, n) bool
    par: np.ndarray | None  # (V, n) North-South par
    kept: tuple[Differ, ...]


@dataclass(frozen=True)
class _CompareTask:
    source: Any
    rules: tuple[Rule, ...]
    plays: tuple[Play, ...]  # every play of every rule, once
    vuls: tuple[Vulnerability, ...]
    par: bool
    dealer: int
    keep: int
    by_board: bool = False  # each deal at its board's vulnerability (vuls is then _ALL_VULS)

    def _score_table(self) -> np.ndarray:
        """``[vul, play, tricks]``: North-South's score."""
        out = np.zeros((len(self.vuls), len(self.plays), 14), dtype=np.int64)
        for v, vul in enumerate(self.vuls):
            for p, play in enumerate(self.plays):
                if play.passed_out:
                    continue
                sign = 1 if play.ns_side else -1
                vulnerable = vul.is_vulnerable(Seat(SEATS[play.declarer]))
                out[v, p] = [sign * declarer_score(play.contract, t, vulnerable) for t in range(14)]
        return out

    def __call__(self, seed: np.random.SeedSequence, size: int) -> _Part:
        hands, tried = self.source(seed, size)
        n = len(hands)
        index = {play: k for k, play in enumerate(self.plays)}
        owner = _owner_of_hands(hands) if any(rule.tests for rule in self.rules) else None
        picks = [rule.pick(owner, chunk_seed(chunk_seed(seed, _RULE_SEEDS), s)) if owner is not None and rule.tests
                 else None for s, rule in enumerate(self.rules)]
        need: dict[tuple[int, int], np.ndarray] = {}
        for rule, pick in zip(self.rules, picks):
            for i, choice in enumerate(rule.choices):
                rows = np.ones(n, dtype=bool) if pick is None else pick == i
                for play in choice.plays:
                    if not play.passed_out:
                        need[play.key] = need.get(play.key, np.zeros(n, dtype=bool)) | rows
        solved: dict[tuple[int, int], np.ndarray] = {}
        for key, rows in need.items():  # each deal solved once per declarer and strain it needs
            solved[key] = np.full(n, -1, dtype=np.int64)
            at = np.flatnonzero(rows)
            if at.size:
                solved[key][at] = declarer_tricks(hands[at], [key])[:, 0]
        table = self._score_table()
        board = self.source.boards(seed, size) if self.by_board else None
        shape = (1 if board is not None else len(self.vuls), len(self.rules), n)
        scores, tricks = np.zeros(shape, dtype=np.int64), np.full(shape, -1, dtype=np.int64)
        made, chosen = np.zeros(shape, dtype=bool), np.full(shape, -1, dtype=np.int64)
        for s, (rule, pick) in enumerate(zip(self.rules, picks)):
            for i, choice in enumerate(rule.choices):
                rows = np.arange(n) if pick is None else np.flatnonzero(pick == i)
                if not rows.size or choice.plays[0].passed_out:
                    continue
                ids = np.array([index[p] for p in choice.plays])
                won = np.stack([solved[p.key][rows] for p in choice.plays])  # (plays, rows)
                side = 1 if choice.plays[0].ns_side else -1
                for v in range(shape[0]):
                    vul_at: Any = v if board is None else board[0][rows][None, :]
                    options = table[vul_at, ids[:, None], won]  # (plays, rows) NS scores
                    best = np.argmax(side * options, axis=0)  # the first of equals
                    scores[v, s, rows] = options[best, np.arange(rows.size)]
                    tricks[v, s, rows] = won[best, np.arange(rows.size)]
                    chosen[v, s, rows] = ids[best]
                    needed = np.array([p.contract.level + 6 for p in choice.plays])[best]
                    made[v, s, rows] = tricks[v, s, rows] >= needed
        par = None
        if self.par and board is None:
            par = par_scores(hands, self.vuls, self.dealer).T
        elif self.par and board is not None:
            par = np.zeros((1, n), dtype=np.int64)
            for dealer in np.unique(board[1]):  # each board's own dealer and vulnerability
                at = np.flatnonzero(board[1] == dealer)
                par[0, at] = par_scores(hands[at], self.vuls, int(dealer))[np.arange(at.size), board[0][at]]
        kept: list[Differ] = []
        if self.keep:
            differs = np.flatnonzero((chosen[0] != chosen[0, :1]).any(axis=0))[:self.keep]
            for d in differs:
                kept.append(Differ(tuple(tuple(int(c) for c in h) for h in hands[d]),
                                   tuple(str(self.plays[c]) if c >= 0 else "pass" for c in chosen[0, :, d]),
                                   tuple(int(t) for t in tricks[0, :, d]), tuple(int(x) for x in scores[0, :, d]),
                                   "" if board is None else SEATS[int(board[1][d])],
                                   "" if board is None else self.vuls[int(board[0][d])].value))
        return _Part(tried, scores, tricks, made, par, tuple(kept))


# --- summing chunks -------------------------------------------------------------------------------


def _start(v: int, s: int) -> dict[str, Any]:
    per_strategy = ("played", "makes", "tsum", "tsq", "ssum", "ssq", "psum", "psq")
    acc: dict[str, Any] = {k: np.zeros((v, s)) for k in per_strategy}
    acc.update({k: np.zeros((v, s, s)) for k in ("isum", "isq", "dsum", "dsq", "wins", "ties")})
    acc.update(tried=0, kept=[])
    return acc


def _absorb(acc: dict[str, Any], part: _Part, keep: int) -> dict[str, Any]:
    acc["tried"] += part.tried
    played = part.tricks >= 0
    acc["played"] += played.sum(axis=2)
    acc["makes"] += part.made.sum(axis=2)
    t = np.where(played, part.tricks, 0).astype(np.float64)
    acc["tsum"] += t.sum(axis=2)
    acc["tsq"] += (t * t).sum(axis=2)
    s = part.scores.astype(np.float64)
    acc["ssum"] += s.sum(axis=2)
    acc["ssq"] += (s * s).sum(axis=2)
    diff = part.scores[:, :, None, :] - part.scores[:, None, :, :]  # (V, S, S, n): row over column
    swing = imps(diff).astype(np.float64)
    acc["isum"] += swing.sum(axis=3)
    acc["isq"] += (swing * swing).sum(axis=3)
    d = diff.astype(np.float64)
    acc["dsum"] += d.sum(axis=3)
    acc["dsq"] += (d * d).sum(axis=3)
    acc["wins"] += (diff > 0).sum(axis=3)
    acc["ties"] += (diff == 0).sum(axis=3)
    if part.par is not None:
        over = imps(part.scores - part.par[:, None, :]).astype(np.float64)
        acc["psum"] += over.sum(axis=2)
        acc["psq"] += (over * over).sum(axis=2)
    acc["kept"].extend(part.kept[:max(0, keep - len(acc["kept"]))])
    return acc


def _label(i: int) -> str:
    return "ABCDEFGHIJ"[i]


def compare_strategies(
    strategies: Sequence[str],
    trials: int | None = None,
    *,
    constraints: Mapping[str, Constraint | str] | None = None,
    fixed: Mapping[str, str] | None = None,
    script: Any = None,
    deals: Sequence[Any] | np.ndarray | None = None,
    vulnerabilities: Sequence[str | Vulnerability] = ("None", "All"),
    par: bool = False,
    dealer: str = "N",
    keep: int = 0,
    seed: SeedLike = None,
    workers: int = 1,
    chunk: int = DEFAULT_DD_CHUNK,
    progress: bool = False,
    executor: Executor | str | None = None,
) -> StrategyResult:
    """Compare 2 to 10 strategies (rule texts, see :mod:`.strategy_rules`) double dummy on the same deals.

    The deals come from seat ``constraints`` and ``fixed`` cards (as :func:`.dd_sim.makes`), or a
    parsed dealer ``script`` (its condition and predeal), or are given (``deals``: PBN texts,
    :class:`~cardlab.deal.Deal` objects or an ``(n, 4, 13)`` array of card ids; ``trials``
    defaults to all of them). Scores are North-South's, under each of ``vulnerabilities``
    (default None and All; ``["board"]``: each of the given :class:`~cardlab.deal.Board` objects at
    its own vulnerability and dealer); ``par`` adds IMPs against each deal's par (``dealer`` opens; this
    solves the full table of every deal). ``keep`` deals where the strategies' contracts differ are
    kept for :meth:`StrategyResult.to_pbn`. Ctrl-C returns the deals solved so far, marked
    ``interrupted``; the same seed gives the same figures with any number of workers.

    Each hand below holds one whole suit, so either side makes 13 tricks in its own suit: 4S by
    North scores +510 for North-South, 4H by East -510, and the swing of 1,020 is 14 IMPs:

    >>> deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    >>> r = compare_strategies(["4S by N", "4H by E"], deals=[deal], vulnerabilities=["None"])
    >>> r.strategy("A").score_sum, r.pair("A", "B").imp_sum
    (510.0, 14.0)
    """
    if isinstance(strategies, str) or not 2 <= len(strategies) <= MAX_STRATEGIES:
        count = 1 if isinstance(strategies, str) else len(strategies)
        raise ContractError(f"give 2 to {MAX_STRATEGIES} strategies to compare, not {count}")
    rules = tuple(parse_rule(s) for s in strategies)
    by_board = [str(v).strip().lower() for v in vulnerabilities] == ["board"]
    if by_board:
        from cardlab.deal import Board

        if deals is None or isinstance(deals, np.ndarray) or not all(isinstance(d, Board) for d in deals):
            raise ContractError("the vulnerability 'board' needs boards (a board file): each deal is scored at "
                                "its board's vulnerability")
    vuls = _ALL_VULS if by_board else tuple(
        v if isinstance(v, Vulnerability) else Vulnerability.parse(v) for v in vulnerabilities)
    if not 1 <= len(vuls) <= 4 or len(set(vuls)) != len(vuls):
        raise ContractError(f"give 1 to 4 different vulnerabilities, not {', '.join(v.value for v in vuls) or 'none'}")
    if isinstance(keep, bool) or not isinstance(keep, int) or not 0 <= keep <= MAX_KEPT:
        raise ContractError(f"deals to keep must be a whole number from 0 to {MAX_KEPT:,}, got {keep!r}")
    try:
        seat = parse_seat(dealer)
    except ContractError:
        raise ContractError(f"unknown dealer {dealer!r} (N, E, S or W)") from None
    sources = (script is not None) + (deals is not None) + bool(constraints or fixed)
    if sources > 1:
        raise ConstraintError("give the deals one way: seat constraints and cards, a dealer script, or a deal file")
    source: Any
    description = ""
    if deals is not None:
        given = check_hands(deals) if isinstance(deals, np.ndarray) else hands_from_deals(deals)
        if not len(given):
            raise ConstraintError("no deals were given")
        trials = min(check_count(trials), len(given)) if trials is not None else len(given)
        boards = np.array([(_ALL_VULS.index(d.vulnerability), d.dealer.index) for d in deals[:trials]]
                          if by_board else np.zeros((0, 2)), dtype=np.int64).reshape(-1, 2)
        source = _Listed(np.ascontiguousarray(given[:trials], dtype=np.uint8), chunk,
                         boards[:, 0] if by_board else None, boards[:, 1] if by_board else None)
        description = f"{len(given):,} given deals"
    elif script is not None:
        trials = check_count(trials)
        source = _Scripted(script)
        from cardlab.bridge.dealer.runner import condition_deals

        if not condition_deals(script, np.random.SeedSequence(0), _PILOT).shape[2]:
            raise ConstraintError(f"no deal out of {_PILOT:,} random deals met the script's condition")
        description = f"dealer script {script.source or ''}".strip()
    else:
        trials = check_count(trials)
        cons, fix = parse_constraints(constraints, fixed)
        source = _Constrained(cons, fix)
        description = "; ".join(f"{SEATS[s]}: {c.text}" for s, c in cons) or "no constraints"
        if fix:
            description += "; cards of " + ", ".join(SEATS[s] for s, _ in fix) + " fixed"
    plays = tuple(dict.fromkeys(p for r in rules for c in r.choices for p in c.plays))
    task = _CompareTask(source, rules, plays, vuls, bool(par), seat.index, keep, by_board)
    shown = (Vulnerability.NONE,) if by_board else vuls  # one set of figures; named "board" below
    root, reported = resolve_seed(seed if seed is not None or deals is None else 0)  # given deals: rnd() only
    run = reduce_chunks(task, trials, root, lambda acc, part: _absorb(acc, part, keep),
                        _start(len(shown), len(rules)), chunk=chunk, workers=workers, executor=executor,
                        progress="solving deals" if progress else None, empty_ok=True)
    acc, done = run.value, run.done
    labels = [_label(i) for i in range(len(rules))]
    names = ("board",) if by_board else tuple(v.value for v in vuls)
    stats = tuple(
        StrategyStats(labels[s], rules[s].text, vul, done, int(acc["played"][v, s]), int(acc["makes"][v, s]),
                      float(acc["tsum"][v, s]), float(acc["tsq"][v, s]), float(acc["ssum"][v, s]),
                      float(acc["ssq"][v, s]), (float(acc["psum"][v, s]), float(acc["psq"][v, s])) if par else None)
        for v, vul in enumerate(names) for s in range(len(rules)))
    pairs = tuple(
        PairStats(labels[a], labels[b], vul, done, float(acc["isum"][v, a, b]), float(acc["isq"][v, a, b]),
                  float(acc["dsum"][v, a, b]), float(acc["dsq"][v, a, b]), int(acc["wins"][v, a, b]),
                  int(acc["ties"][v, a, b]))
        for v, vul in enumerate(names) for a in range(len(rules)) for b in range(len(rules)) if a != b)
    return StrategyResult(stats, pairs, names, tuple(labels),
                          tuple(r.text for r in rules), description,
                          reported if seed is not None or deals is None else None, done,
                          trials, int(acc["tried"]), tuple(acc["kept"]), SEATS[seat.index], run.interrupted,
                          min(workers, available_cores()))
