"""Tournament equity: what each stack is worth in prize money (the Independent Chip Model).

:func:`icm` takes the players' chip stacks and the prizes of the paid places and returns an
:class:`~cardlab.poker.tournament_result.ICMResult`: each player's chance of every finishing
place and their expected prize.

**Models.** ``malmuth-harville`` (the ICM everyone means): a player finishes first with
probability stack / chips in play; given the players already placed, each of the others takes
the next place in proportion to their stack. ``malmuth-weitzman``: places are filled from the
bottom; the next player out is chosen in inverse proportion to their stack among those left
(short stacks bust first). Other models exist and are not built here: Ben Roberts' model, the
"ICM with a power" variants (stacks raised to an exponent), diffusion / gambler's-ruin models of
chip flow (Chen and Ankenman, *The Mathematics of Poker*), and future-game simulations (FGS)
that play out later hands; docs/tournament.md says more.

**Exact, and fast.** A finishing order's probability is a product along the order, so the sum
over all n! orders is a dynamic programme over *sets* of placed players: ``P(S)``, the chance
that the players in S take the first |S| places, is built from ``P(S \\ {j})`` for every j in
S. That is O(2^n * n) work for all places at once (20 players: 21 million steps, not 2.4 * 10^18
orders). Stacks and payouts given as whole numbers give exact fractions up to
:data:`EXACT_PLAYERS` players; beyond that (or with fractional stacks) the same programme runs
in floating point in the compiled core (within 1e-12 of the exact value, relative to the prize
pool, for any stacks: every step adds, multiplies or divides positive numbers, so a stack of 1
beside one of 1e17 is valued as exactly as equal stacks).

>>> r = icm([50, 30, 20], [70, 30])        # the Wikipedia example ("Independent Chip Model")
>>> [str(x) for x in r.equity_exact]
['1265/28', '129/4', '158/7']
>>> icm([5000, 0, 2000], [50, 30, 20])
Traceback (most recent call last):
...
cardlab.errors.TournamentError: a stack of 0 (player B): a player with no chips is out of the tournament
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from numbers import Rational
from typing import Any, Sequence

import numpy as np

from cardlab._native import core as _core
from cardlab.errors import TournamentError
from cardlab.poker.tournament_result import AllInValue, ICMResult, player_name

__all__ = ["icm", "icm_allin", "check_payouts", "prize_equity", "parse_allin", "MODELS", "EXACT_PLAYERS", "MAX_PLAYERS",
           "place_probabilities", "parse_numbers"]

MODELS = ("malmuth-harville", "malmuth-weitzman")
"""The finishing models :func:`icm` knows."""
EXACT_PLAYERS = 12
"""Up to this many players, whole-number stacks and payouts give exact fractions."""
MAX_PLAYERS = 22
"""Most players :func:`icm` takes (the programme holds 2^n numbers: 4 million here)."""

Number = int | float | Fraction


def parse_numbers(text: str, what: str) -> list[Number]:
    """``"5000,3000,2000"`` as numbers: whole numbers stay ints, and ``0.5`` is read as exactly as
    ``1/2`` (a :class:`~fractions.Fraction`), so decimal payouts keep the exact answer.

    >>> parse_numbers("50,30,20", "payouts")
    [50, 30, 20]
    >>> parse_numbers("0.5,0.3,0.2", "payouts") == parse_numbers("1/2,3/10,1/5", "payouts")
    True
    >>> parse_numbers("50,,20", "payouts")
    Traceback (most recent call last):
    ...
    cardlab.errors.TournamentError: empty value in the payouts '50,,20'
    """
    out: list[Number] = []
    for token in text.replace(" ", "").split(","):
        if not token:
            raise TournamentError(f"empty value in the {what} '{text}'")
        try:
            value: Number = int(token.replace("_", ""))
        except ValueError:
            try:
                value = Fraction(token)
            except ZeroDivisionError:
                raise TournamentError(f"cannot read '{token}' in the {what} '{text}' as a number") from None
            except ValueError:
                try:
                    float(token)  # a number, only not a finite one (inf, nan)
                except ValueError:
                    raise TournamentError(f"cannot read '{token}' in the {what} '{text}' as a number") from None
                raise TournamentError(f"'{token}' in the {what} is not a finite number") from None
        out.append(value)
    return out


def _check(stacks: Sequence[Number], payouts: Sequence[Number]) -> tuple[list[Number], list[Number]]:
    s, p = list(stacks), list(payouts)
    if len(s) < 2:
        raise TournamentError(f"ICM needs at least two players, got {len(s)}")
    if len(s) > MAX_PLAYERS:
        raise TournamentError(f"ICM takes at most {MAX_PLAYERS} players, got {len(s)}")
    for n, x in enumerate(s):
        if not isinstance(x, (int, float, Rational)) or isinstance(x, bool) or not _finite(x):
            raise TournamentError(f"stack {x!r} (player {player_name(n)}) is not a number")
        if x < 0:
            raise TournamentError(f"a negative stack {x} (player {player_name(n)})")
        if x == 0:
            raise TournamentError(f"a stack of 0 (player {player_name(n)}): a player with no chips is "
                                  "out of the tournament")
    if not p:
        raise TournamentError("no payouts: give the prize of each paid place, first place first")
    if len(p) > len(s):
        raise TournamentError(f"{len(p)} payouts for {len(s)} players: at most one prize per player")
    for k, x in enumerate(p):
        if not isinstance(x, (int, float, Rational)) or isinstance(x, bool) or not _finite(x):
            raise TournamentError(f"payout {x!r} (place {k + 1}) is not a number")
        if x < 0:
            raise TournamentError(f"a negative payout {x} (place {k + 1})")
    if sum(p) <= 0:
        raise TournamentError(f"the payouts {','.join(str(x) for x in p)} do not add up to a positive prize pool")
    return s, p


def _finite(x: Any) -> bool:
    """Whole numbers and fractions are finite however large (``float(10**400)`` overflows)."""
    return isinstance(x, Rational) or bool(np.isfinite(float(x)))


def check_payouts(players: int, payouts: Sequence[Number]) -> None:
    """Refuse payouts that do not fit ``players`` players (more prizes than players, a negative
    prize, no positive pool), as :func:`icm` does."""
    _check([1] * players, payouts)


def _is_exact(values: Sequence[Number]) -> bool:
    return all(isinstance(x, (int, Fraction)) for x in values)


def place_probabilities(stacks: Sequence[Number], model: str = "malmuth-harville",
                        exact: bool | None = None) -> list[list[Fraction]] | np.ndarray:
    """``P[i][k]``: the chance that player ``i`` finishes in place ``k + 1`` under ``model``.

    Exact (lists of fractions) when ``exact`` (default: whole-number stacks and at most
    :data:`EXACT_PLAYERS` players), else an ``(n, n)`` float array.
    """
    s, _ = _check(stacks, [1])
    key = _model(model)
    if exact is None:
        exact = _is_exact(s) and len(s) <= EXACT_PLAYERS
    if exact and not _is_exact(s):
        raise TournamentError("exact fractions need whole-number (or fraction) stacks")
    if key == "malmuth-harville":
        weights = s
    else:  # the next player out in inverse proportion to the stack: fill places from the bottom
        weights = [Fraction(1) / Fraction(x) for x in s]  # exact: a float route normalises them
    if exact:
        fractions = _exact_programme([Fraction(x) for x in weights])
        return [row[::-1] for row in fractions] if key == "malmuth-weitzman" else fractions
    floats = _float_programme(_float_weights(weights))
    return floats[:, ::-1].copy() if key == "malmuth-weitzman" else floats


def _model(model: str) -> str:
    key = model.strip().lower().replace("_", "-").replace(" ", "-")
    key = {"icm": "malmuth-harville", "harville": "malmuth-harville", "mh": "malmuth-harville",
           "weitzman": "malmuth-weitzman", "mw": "malmuth-weitzman"}.get(key, key)
    if key not in MODELS:
        raise TournamentError(f"unknown ICM model '{model}' (choose {', '.join(MODELS)})")
    return key


def _exact_programme(w: list[Fraction]) -> list[list[Fraction]]:
    """The places of each player, exactly: players are placed in order, the next one drawn in
    proportion to ``w`` among those not yet placed (subset programme, masks in increasing order)."""
    n = len(w)
    total = sum(w, Fraction(0))
    size = 1 << n
    prob: list[Fraction] = [Fraction(0)] * size
    used: list[Fraction] = [Fraction(0)] * size
    prob[0] = Fraction(1)
    places = [[Fraction(0)] * n for _ in range(n)]
    for mask in range(size):
        p = prob[mask]
        if mask:
            low = mask & -mask
            used[mask] = used[mask ^ low] + w[low.bit_length() - 1]
        if not p:
            continue
        left = total - used[mask]
        if not left:
            continue
        k = mask.bit_count()
        share = p / left
        for j in range(n):
            bit = 1 << j
            if mask & bit:
                continue
            c = share * w[j]
            prob[mask | bit] += c
            places[j][k] += c
    return places


def _float_weights(weights: Sequence[Number]) -> np.ndarray:
    """``weights`` over the largest, as floats in (0, 1]: only the ratios matter, and the ratio
    of two whole numbers past 1e308 is still a float. Refused when a ratio is below the smallest
    double (stacks 1e308 times apart)."""
    top = max(weights)
    if isinstance(top, float):
        out = np.asarray([float(x) for x in weights]) / top
    else:
        out = np.asarray([float(Fraction(x) / Fraction(top)) for x in weights])
    if not (out > 0).all():
        raise TournamentError("the stacks are too far apart (over 1e300 times) to be valued in floating point")
    return out


def _float_programme(w: np.ndarray) -> np.ndarray:
    """The same programme in floating point, in the compiled core (``csrc/tournament.c``)."""
    n = len(w)
    places = np.zeros((n, n))
    _core.icm_places(np.ascontiguousarray(w, dtype=np.float64), places)
    return places


def icm(stacks: Sequence[Number], payouts: Sequence[Number], *, model: str = "malmuth-harville",
        exact: bool | None = None) -> ICMResult:
    """Each player's expected prize, and their chance of every place.

    Parameters
    ----------
    stacks : each player's chips (positive; whole numbers for exact fractions).
    payouts : the prize of the 1st, 2nd, ... paid place (at most one per player, adding up to a
        positive pool).
    model : ``malmuth-harville`` (the ICM) or ``malmuth-weitzman``.
    exact : fractions (default: when stacks and payouts are whole numbers and there are at most
        :data:`EXACT_PLAYERS` players), or floats.

    Examples
    --------
    >>> r = icm([5000, 3000, 2000], [50, 30, 20])
    >>> r.equity_exact[0], round(r.equity[0], 4)
    (Fraction(1075, 28), 38.3929)
    >>> icm([5000, 3000, 2000], [50, 30, 20, 10])
    Traceback (most recent call last):
    ...
    cardlab.errors.TournamentError: 4 payouts for 3 players: at most one prize per player
    """
    s, p = _check(stacks, payouts)
    key = _model(model)
    if exact is None:
        exact = _is_exact(s) and _is_exact(p) and len(s) <= EXACT_PLAYERS
    if exact and not (_is_exact(s) and _is_exact(p)):
        raise TournamentError("exact fractions need whole-number (or fraction) stacks and payouts")
    places = place_probabilities(s, key, exact=exact)
    prizes = p + [0] * (len(s) - len(p))
    equity_exact: tuple[Fraction, ...] | None = None
    if exact:
        assert isinstance(places, list)
        equity_exact = tuple(sum((q * Fraction(x) for q, x in zip(row, prizes)), Fraction(0)) for row in places)
        equity = tuple(float(e) for e in equity_exact)
        place_rows = tuple(tuple(float(q) for q in row) for row in places)
    else:
        arr = np.asarray(places, dtype=float)
        equity = tuple(float(e) for e in arr @ np.asarray([float(x) for x in prizes]))
        place_rows = tuple(tuple(float(q) for q in row) for row in arr)
    return ICMResult(stacks=tuple(s), payouts=tuple(p), model=key, equity=equity,
                     equity_exact=equity_exact, places=place_rows)


def prize_equity(stacks: Sequence[Number], payouts: Sequence[Number], model: str = "malmuth-harville",
                 exact: bool | None = None) -> list[Any]:
    """Each player's expected prize when some stacks may be 0 (players busted on the hand just
    played): the busted share the places below the others' equally; the rest by :func:`icm`.

    >>> prize_equity([10, 0, 10], [5, 3, 2])
    [Fraction(4, 1), Fraction(2, 1), Fraction(4, 1)]
    """
    n = len(stacks)
    alive = [i for i, x in enumerate(stacks) if x > 0]
    busted = [i for i in range(n) if not stacks[i] > 0]
    use_exact = _is_exact(stacks) and _is_exact(payouts) if exact is None else exact
    zero: Any = Fraction(0) if use_exact else 0.0
    prizes: list[Any] = [Fraction(x) if use_exact else float(x) for x in payouts]
    prizes += [zero] * (n - len(prizes))
    out: list[Any] = [zero] * n
    for i in busted:
        out[i] = sum(prizes[len(alive):], zero) / len(busted)
    paid = prizes[:len(alive)]
    if len(alive) == 1:
        out[alive[0]] = paid[0]
        return out
    while len(paid) > 1 and paid[-1] == 0:
        paid.pop()
    if not alive or not any(paid):
        return out
    result = icm([stacks[i] for i in alive], paid, model=model,
                 exact=use_exact and len(alive) <= EXACT_PLAYERS)
    values = result.equity_exact if result.equity_exact is not None else result.equity
    for k, i in enumerate(alive):
        out[i] = values[k]
    return out


_LABEL = re.compile(r"\s+(?=(?:[A-Za-z]|[Pp]?\d+):)")


def parse_allin(text: str, players: int) -> list[tuple[int, str]]:
    """``"A:AsKs B:QQ"`` as (player index, hand or range) pairs; players by letter or number.

    >>> parse_allin("A:AsKs B:QQ+, AKs", 3)
    [(0, 'AsKs'), (1, 'QQ+, AKs')]
    """
    out: list[tuple[int, str]] = []
    for part in _LABEL.split(text.strip()):
        label, sep, spec = part.partition(":")
        label = label.strip()
        if not sep or not spec.strip():
            raise TournamentError(f"an all-in is written 'A:AsKs B:QQ' (player:hand or range), got '{part}'")
        if len(label) == 1 and label.isalpha():
            index = ord(label.upper()) - ord("A")
        elif label.lstrip("Pp").isdigit():
            index = int(label.lstrip("Pp")) - 1
        else:
            raise TournamentError(f"unknown player '{label}' in the all-in '{text}' (A, B, ... or 1, 2, ...)")
        if not 0 <= index < players:
            raise TournamentError(f"player '{label}' in the all-in '{text}' is not one of the {players} players")
        if index in (i for i, _ in out):
            raise TournamentError(f"player '{label}' is named twice in the all-in '{text}'")
        out.append((index, spec.strip()))
    if len(out) != 2:
        raise TournamentError(f"an all-in is between two players; '{text}' names {len(out)}")
    return out


def icm_allin(stacks: Sequence[Number], payouts: Sequence[Number], allin: str | Sequence[tuple[int, str]], *,
              model: str = "malmuth-harville", exact: bool | None = None) -> ICMResult:
    """:func:`icm` now, with the money value of an all-in between two players: their prize
    equity before, and expected after the hand, from the exact all-in equity of their hands or
    ranges (:func:`cardlab.poker.equity.equity`). The shorter stack is at risk; a split pot
    leaves the stacks as they were.

    >>> r = icm_allin([5000, 3000, 2000], [50, 30, 20], "A:AsAh C:KdKc")
    >>> round(r.allin.change[0], 4), round(r.allin.chips_change[0], 1)
    (3.4123, 1250.2)
    """
    from cardlab.poker.equity import equity

    before = icm(stacks, payouts, model=model, exact=exact)
    pairs = parse_allin(allin, len(stacks)) if isinstance(allin, str) else list(allin)
    (a, hand_a), (b, hand_b) = pairs
    eq = equity([hand_a, hand_b])
    win_a, win_b = eq.players[0].win, eq.players[1].win
    tie = eq.players[0].tie
    risk = min(before.stacks[a], before.stacks[b])
    outcomes = []
    for winner, loser, p in ((a, b, win_a), (b, a, win_b)):
        after = list(before.stacks)
        after[winner] += risk
        after[loser] -= risk
        outcomes.append((p, [float(x) for x in prize_equity(after, before.payouts, model)]))
    now = list(before.equity)
    expected = [tie * now[k] + sum(p * values[k] for p, values in outcomes) for k in range(len(now))]
    value = AllInValue(players=(a, b), hands=(hand_a, hand_b), win=(win_a, win_b), tie=tie,
                       before=(now[a], now[b]), after=(expected[a], expected[b]),
                       chips_change=(float(risk) * (win_a - win_b), float(risk) * (win_b - win_a)))
    return replace(before, allin=value)
