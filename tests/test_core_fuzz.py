"""Every ``cardlab._core`` kernel, and the public functions in front of them, called with random
valid and invalid arguments (seeded, so a failure repeats): each call returns or raises a clean
Python error (ValueError, TypeError, OverflowError, BufferError or a cardlab error), never crashes,
never hangs. The sanitizer build (AddressSanitizer + UBSan, ``.ci/run``) runs this file, so an
out-of-bounds read or write in a kernel fails there even when it happens not to crash here.

Generator states are never all zero here (that state is guarded in the shared generator header
and at the Python boundary, tests/test_hardening.py)."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import pytest

from cardlab import _core
from cardlab.errors import CardlabError

CLEAN = (ValueError, TypeError, OverflowError, BufferError, CardlabError)
TRIALS = 150


def attempt(fn: Callable[..., Any], *args: Any) -> bool:
    """True when the call returned, False when it raised a clean error (anything else fails)."""
    try:
        fn(*args)
    except CLEAN:
        return False
    return True


def _state(rng: np.random.Generator) -> bytes:
    words = rng.integers(1, 2**63, size=4, dtype=np.int64)
    return words.tobytes()


def _bytes(rng: np.random.Generator, n: int, high: int = 256) -> bytes:
    return rng.integers(0, high, size=n, dtype=np.int64).astype(np.uint8).tobytes()


def _size(rng: np.random.Generator, right: int) -> int:
    """Mostly the right size, sometimes a wrong one (shorter, longer, zero)."""
    choice = int(rng.integers(0, 6))
    return [right, right, right, max(0, right - 1), right + 1, 0][choice]


def _masks(rng: np.random.Generator, n: int, valid: bool) -> np.ndarray:
    from cardlab.bridge.dealer.dealing import deal_masks

    if valid:
        return deal_masks(np.random.SeedSequence(int(rng.integers(1 << 30))), n)
    return rng.integers(0, 1 << 16, size=(4, 4, n), dtype=np.int64).astype(np.uint16)


def test_deal_kernels() -> None:
    rng = np.random.default_rng(1)
    returned = 0
    for _ in range(TRIALS):
        n = int(rng.integers(0, 40))
        valid = bool(rng.integers(0, 2))
        fixed = np.full(52, -1, dtype=np.int8)
        if rng.integers(0, 2):
            fixed[rng.choice(52, size=int(rng.integers(0, 20)), replace=False)] = rng.integers(-3, 6)
        out = bytearray(_size(rng, 32 * n))
        held = _masks(rng, n, valid)[0] if rng.integers(0, 2) else np.zeros((4, 0), np.uint16)
        returned += attempt(_core.deal_masks, _state(rng), n, fixed.tobytes(), int(rng.integers(-2, 18)),
                            held.tobytes(), int(rng.integers(-2, 5)), out)
        masks = bytearray(_masks(rng, n, valid).tobytes()[: _size(rng, 32 * n)])
        returned += attempt(_core.complete_deals, _state(rng), n, int(rng.integers(-1, 17)), masks)
        lengths = rng.integers(-2, 15, size=(4, n), dtype=np.int64).astype(np.int8)
        points = rng.integers(-2, 12, size=(4, n), dtype=np.int64).astype(np.int8)
        weights = rng.integers(-5, 1 << 33, size=14 * 11, dtype=np.int64)
        cumulative = np.sort(rng.integers(0, 1 << 31, size=14 * 11 * 16, dtype=np.int64))
        honours = rng.integers(-100, 100, size=14 * 11 * 16, dtype=np.int64)
        returned += attempt(_core.deal_classes, _state(rng), n, int(rng.integers(-1, 5)), lengths.tobytes(),
                            points.tobytes(), weights.tobytes()[: _size(rng, 8 * 14 * 11)], cumulative.tobytes(),
                            honours.tobytes(), bytearray(32 * n))
        template = bytes(rng.choice(list(b"ab\x01bdvDNoawcx\x00\x02"), size=int(rng.integers(0, 12))))
        extras = rng.integers(-2**63, 2**63 - 1, size=(n, 3), dtype=np.int64)
        returned += attempt(_core.format_deals, _masks(rng, n, valid).tobytes(), n, template,
                            int(rng.integers(-2**62, 2**62)), extras.tobytes()[: _size(rng, 24 * n)],
                            int(rng.integers(-1, 5)))
        table = rng.integers(-2**40, 2**40, size=8192, dtype=np.int64)
        masks16 = _masks(rng, n, valid)
        returned += attempt(_core.suit_values, masks16.tobytes(), table.tobytes()[: _size(rng, 8 * 8192)],
                            bytearray(_size(rng, 8 * 16 * n)))
        returned += attempt(_core.hand_values, masks16[0].tobytes(), table.tobytes(), bytearray(_size(rng, 8 * n)))
        returned += attempt(_core.shape_values, masks16[0].tobytes(), _bytes(rng, _size(rng, 14 ** 4)),
                            bytearray(_size(rng, n)))
        lines = [bytes(_bytes(rng, int(rng.integers(0, 90)), 128)).replace(b"\n", b" ") for _ in range(n)]
        if valid:
            lines = [b"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -"] * n
        text = b"".join(line + b"\n" for line in lines)[: _size(rng, sum(len(x) + 1 for x in lines))]
        returned += attempt(_core.pbn_deals, text, n, bytearray(_size(rng, 52 * n)), bytearray(_size(rng, n)))
    assert returned > TRIALS  # the valid calls did run


def test_pbn_scan_on_any_bytes() -> None:
    """pbn_scan on plain PBN text cut, spliced and sprinkled with any byte, and with buffers of
    wrong sizes: it returns or raises ValueError; what it returns stays inside the text."""
    rng = np.random.default_rng(3)
    game = (b'%% PBN 2.1\n[Event "club"]\n [Board "%d"]\t\n[Dealer "N"]\n'
            b'[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -"]\n\n')
    plain = b"".join(game % (i + 1) for i in range(8))
    returned = read = 0
    for _ in range(TRIALS * 4):
        text = bytearray(plain)
        for _ in range(int(rng.integers(0, 6))):
            at = int(rng.integers(0, len(text) + 1))
            kind = int(rng.integers(0, 3))
            if kind == 0:
                text[at:at + int(rng.integers(1, 4))] = b""
            elif kind == 1:
                text[at:at] = bytes(rng.choice(list(b'[]"\\ \t\n\r%;{}#-.:0123456789NESWAKQJT\x00\x7f\xff'),
                                               size=int(rng.integers(1, 4))))
            else:
                text[at:at] = plain[int(rng.integers(0, len(plain))):][:int(rng.integers(1, 80))]
        if rng.integers(0, 4) == 0:
            text = bytearray(_bytes(rng, int(rng.integers(0, 300))))
        n = int(rng.choice([-1, 0, 3, 10, 10, 10]))
        sizes = [max(0, k * n) if rng.integers(0, 4) else _size(rng, max(0, k * n)) for k in (8, 52, 4, 48)]
        numbers, owner, kinds, spans = (bytearray(size) for size in sizes)
        if not attempt(_core.pbn_scan, bytes(text), n, numbers, owner, kinds, spans):
            continue
        count = _core.pbn_scan(bytes(text), n, numbers, owner, kinds, spans)
        returned += 1
        read += count > 0
        assert -1 <= count <= n
        where = np.frombuffer(bytes(spans), np.int64).reshape(-1, 6)[:max(count, 0)]
        assert ((where >= 0) & (where <= len(text))).all()
        assert (np.frombuffer(bytes(kinds), np.int32)[:max(count, 0)] <= np.arange(max(count, 0))).all()
        assert (np.frombuffer(bytes(numbers), np.int64)[:max(count, 0)] >= 1).all()
    assert returned > TRIALS and read > 20  # and some texts were read


def test_lin_scan_on_any_bytes() -> None:
    """lin_scan on plain LIN lines cut, spliced and sprinkled with any byte, with buffers of wrong
    sizes: it returns or raises ValueError, and reads no more boards than it has room for."""
    rng = np.random.default_rng(4)
    line = b"pn|,,,|st||md|3SHAQJ2DK97CJ96432,SAKT5HKTDJT84CT87,SQJ96H984DQ652CKQ|rh||ah|Board 1|sv|o|pg||\n"
    returned = read = 0
    for _ in range(TRIALS * 4):
        text = bytearray(line * int(rng.integers(0, 4)))
        for _ in range(int(rng.integers(0, 5))):
            at = int(rng.integers(0, len(text) + 1))
            if rng.integers(0, 2):
                text[at:at + int(rng.integers(1, 4))] = b""
            else:
                text[at:at] = bytes(rng.choice(list(b"|,\n\t SHDCAKQJT98765432mdahsvBoard0onebx\x00\x7f\xff"),
                                               size=int(rng.integers(1, 4))))
        if rng.integers(0, 4) == 0:
            text = bytearray(_bytes(rng, int(rng.integers(0, 200))))
        n = int(rng.choice([-1, 0, 1, 2, 4, 4]))
        sizes = [max(0, k * n) if rng.integers(0, 4) else _size(rng, max(0, k * n)) for k in (8, 52)]
        numbers, owner = (bytearray(size) for size in sizes)
        if not attempt(_core.lin_scan, bytes(text), n, numbers, owner):
            continue
        count = _core.lin_scan(bytes(text), n, numbers, owner)
        returned += 1
        read += count > 0
        assert -1 <= count <= n
        assert (np.frombuffer(bytes(numbers), np.int64)[:max(count, 0)] >= 1).all()
    assert returned > TRIALS and read > 20


def _valid_program(rng: np.random.Generator) -> np.ndarray:
    """A random well-formed program: constants, suit lookups (table 0..1), cards, unary and binary
    operators (CONST 0, SUIT 1, CARD 4, NEG 5, NOT 6, ADD..GE 7..17), ending with one value."""
    code: list[list[int]] = []
    depth = 0
    for _ in range(int(rng.integers(1, 30))):
        kind = int(rng.integers(0, 3))
        if depth < 1 or (kind == 0 and depth < 60):
            push = int(rng.integers(0, 3))
            code.append([0, int(rng.integers(-2**62, 2**62)), 0, 0] if push == 0 else
                        [1, int(rng.integers(0, 4)), int(rng.integers(0, 4)), int(rng.integers(0, 2))] if push == 1
                        else [4, int(rng.integers(0, 4)), int(rng.integers(0, 52)), 0])
            depth += 1
        elif kind == 1 or depth < 2:
            code.append([int(rng.integers(5, 7)), 0, 0, 0])
        else:
            code.append([int(rng.integers(7, 18)), 0, 0, 0])
            depth -= 1
    while depth > 1:
        code.append([int(rng.integers(7, 18)), 0, 0, 0])
        depth -= 1
    return np.array(code, dtype=np.int64).reshape(-1, 4)


def test_run_program_with_random_programs() -> None:
    from cardlab.bridge.dealer.dealing import deal_masks

    rng = np.random.default_rng(2)
    masks = deal_masks(np.random.SeedSequence(2), 16)
    tables = rng.integers(-100, 100, size=(2, 8192), dtype=np.int64)
    shapes = _bytes(rng, 14 ** 4, 2)
    returned = 0
    for _ in range(TRIALS * 4):
        code = _valid_program(rng)
        if rng.integers(0, 3) == 0 or not len(code):  # a random word somewhere, or a random program
            length = int(rng.integers(0, 12))
            code = np.column_stack([rng.integers(-1, 24, size=length), rng.integers(-3, 14, size=length),
                                    rng.integers(-2, 60, size=length), rng.integers(-2, 4, size=length)])
        elif rng.integers(0, 2):
            code[rng.integers(0, len(code)), rng.integers(0, 4)] = rng.integers(-3, 70)
        rows = rng.integers(-2, 18, size=int(rng.integers(0, 6)), dtype=np.int64).astype(np.int32)
        count = len(rows) if len(rows) else 16
        returned += attempt(_core.run_program, masks.tobytes(), 16, code.astype(np.int64).tobytes(),
                            tables.tobytes(), shapes, bytearray(8 * count), rows.tobytes())
    assert returned > 0


def test_poker_kernels() -> None:
    from cardlab.poker.evaluator import tables

    rng = np.random.default_rng(3)
    t = tables()
    returned = 0
    for _ in range(TRIALS):
        k = int(rng.integers(3, 9))
        n = int(rng.integers(0, 50))
        high = 52 if rng.integers(0, 2) else 256
        hands = _bytes(rng, _size(rng, n * k), high)
        cats = bytearray(_size(rng, n)) if rng.integers(0, 2) else None
        returned += attempt(_core.poker_evaluate, t, hands, k, bytearray(_size(rng, 4 * n)), cats,
                            bool(rng.integers(0, 2)))
        cards = _bytes(rng, int(rng.integers(0, 12)), high)
        returned += attempt(_core.poker_count_subsets, t, cards, k, bytearray(_size(rng, 128)))
        deck = _bytes(rng, int(rng.integers(0, 60)), high)
        spill = bytearray(_size(rng, n * k))
        returned += attempt(_core.poker_simulate, t, deck, k, n, _state(rng)[: _size(rng, 32)],
                            bytearray(_size(rng, 128)), spill)
        hands = bytearray(_size(rng, n * k) if rng.integers(0, 2) else 0)
        returned += attempt(_core.draw_poker, t, deck, k, n, _state(rng)[: _size(rng, 32)],
                            bytearray(_size(rng, 128)), spill, hands)
        weights = rng.integers(-1, 5, size=52).astype(np.int32).tobytes()
        returned += attempt(_core.draw_weights, deck, k, n, _state(rng)[: _size(rng, 32)],
                            weights[: _size(rng, 208)], bytearray(_size(rng, 8 * int(rng.integers(1, 40)))), hands)
        returned += attempt(_core.draw_hands, deck, k, n, _state(rng)[: _size(rng, 32)], hands)
        small = _bytes(rng, int(rng.integers(0, 12)), high)
        subsets = math.comb(len(small), k) if 0 <= k <= len(small) else 0
        returned += attempt(_core.poker_count_subsets, t, small, k, bytearray(_size(rng, 128)),
                            bytearray(_size(rng, subsets)))
        table = _bytes(rng, _size(rng, int(rng.integers(1, 40))), 256 if rng.integers(0, 2) else 10)
        returned += attempt(_core.poker_simulate_table, table, n, _state(rng)[: _size(rng, 32)],
                            bytearray(_size(rng, 128)))
        players = int(rng.integers(1, 5))
        hole = int(rng.integers(1, 6))
        game = (players, hole, bool(rng.integers(0, 2)), bool(rng.integers(0, 2)))
        deals = _bytes(rng, _size(rng, 2 * players * hole), high)
        board = _bytes(rng, int(rng.integers(3, 7)), high)
        small_deck = _bytes(rng, int(rng.integers(0, 9)), high)
        returned += attempt(_core.poker_equity_exact, t, game, deals, board, small_deck,
                            bytearray(_size(rng, 2 * players * 32)))
        combos = _bytes(rng, players * hole * 3, high)
        offsets = np.arange(0, 3 * players + 1, 3, dtype=np.int64)
        cumulative = np.tile(np.cumsum(rng.random(3)), players)
        classes = rng.integers(-5, 175, size=2 * 3, dtype=np.int64).astype(np.int16)
        returned += attempt(_core.poker_equity_simulate, t, game, combos, offsets.tobytes()[: _size(rng, 8 * (players + 1))],
                            cumulative.tobytes(), b"", b"", board[: int(rng.integers(0, 6))], _bytes(rng, 40, high),
                            classes.tobytes() if rng.integers(0, 2) else b"", int(rng.integers(0, 200)),
                            _state(rng), bytearray(_size(rng, players * 32)), bytearray(2 * 169 * 8))
        if not game[2] and game[1] == 2 and players >= 2:
            weights = rng.random(3 * players)
            returned += attempt(_core.poker_equity_ranges, t, game, combos, offsets.tobytes()[: _size(rng, 8 * (players + 1))],
                                weights.tobytes(), board[: int(rng.integers(0, 6))], small_deck,
                                bytearray(_size(rng, (3 * players + 2) * 8)), b"")
    assert returned > 0


def test_video_kernels() -> None:
    from cardlab.casino.video_paytable import paytable

    rng = np.random.default_rng(4)
    table = paytable("jacks-or-better-9-6")
    good_code = bytes(table.code_outcome)
    pays = np.array(table.int_pays(), dtype=np.int64)
    K = len(pays)
    returned = 0
    for _ in range(TRIALS // 3):
        n = int(rng.integers(3, 20))
        types = bytes(sorted(_bytes(rng, n, 54)))
        code = good_code if rng.integers(0, 2) else _bytes(rng, 193, K + 3)
        out = np.zeros(max(0, _size(rng, math.comb(n, 5))), dtype=np.uint8)
        returned += attempt(_core.video_outcomes, types, int(rng.integers(0, 2)), code, pays, out)
        outcomes = np.frombuffer(_bytes(rng, math.comb(n, 5), K + 2 if rng.integers(0, 2) else K), dtype=np.uint8)
        weights = rng.integers(1, 100, size=6, dtype=np.int64)
        returned += attempt(_core.video_analyse, n, outcomes, pays, weights, np.zeros(K, dtype=np.int64),
                            np.zeros(math.comb(n, 5), dtype=np.uint8), bool(rng.integers(0, 2)))
        dealt = bytes(sorted(_bytes(rng, 5, n + 3)))
        returned += attempt(_core.video_hand, n, outcomes, K, dealt, np.zeros(32 * K, dtype=np.int64))
        T = int(rng.integers(1, 7))
        mtypes = bytes(sorted(rng.choice(53 if rng.integers(0, 4) else 60, size=T, replace=False).tolist()))
        mult = _bytes(rng, T, 256)
        finals = math.comb(T + 4, 5)
        draws = np.array([math.comb(max(0, sum(mult) - 5), j) for j in range(6)], dtype=np.int64)
        mdealt = bytes(sorted(_bytes(rng, 5, T + 2))) if rng.integers(0, 2) else b""
        returned += attempt(_core.video_analyse_multi, mtypes, mult, 0, code, pays, draws, False,
                            np.zeros(6 * K * 2, dtype=np.uint64), np.zeros(_size(rng, finals), dtype=np.uint8),
                            np.zeros(finals, dtype=np.uint8), mdealt, np.zeros(32 * K, dtype=np.int64))
    assert returned > 0


@pytest.mark.parametrize("value", [math.nan, 3.7, -1, 52, 255, 1e300, 2**70, "As", None, True, 1 + 2j])
def test_public_entry_points_with_odd_card_values(value: Any) -> None:
    from cardlab.poker.equity import equity
    from cardlab.poker.evaluator import count_subsets, strengths
    from cardlab.poker.ranking import rank_hands

    for call in (lambda: strengths(np.array([[51, 47, 43, 39, value]], dtype=object)),
                 lambda: strengths([[51, 47, 43, 39, value]]),
                 lambda: count_subsets([0, 1, 2, 3, value], 5),
                 lambda: equity(["AsAh", "KdKc"], dead=[value]),
                 lambda: rank_hands(np.array([[51, 47, 43, 39, value]], dtype=object))):
        try:
            call()
        except CLEAN:
            pass


def test_public_mask_functions_with_random_masks() -> None:
    from cardlab.bridge.deals import deals_from_masks, pbn_deal_strings, pbn_games

    rng = np.random.default_rng(5)
    for _ in range(40):
        n = int(rng.integers(0, 30))
        masks = _masks(rng, n, bool(rng.integers(0, 2)))
        for fn in (deals_from_masks, pbn_deal_strings, pbn_games):
            attempt(fn, masks)


def _search_within_limit(*args: Any) -> Any:
    """The kernel's memory limit (its last argument) gives MemoryError, a clean refusal too."""
    try:
        return _core.suitplay_search(*args)
    except MemoryError as error:
        raise ValueError(str(error)) from error


def test_suitplay_search_with_random_arguments() -> None:
    """csrc/suitplay.c: random rank masks, group numberings, layouts and options, mostly well
    formed (a small suit: few missing cards, so each search is quick), sometimes not."""
    rng = np.random.default_rng(29)
    returned = 0
    for _ in range(TRIALS):
        missing = sorted(rng.choice(13, size=int(rng.integers(0, 5)), replace=False).tolist(), reverse=True)
        held = [r for r in range(13) if r not in missing]
        north = sum(1 << r for r in held if rng.integers(0, 2))
        south = sum(1 << r for r in held) & ~north
        groups = bytearray([255] * 13)
        g = -1
        for i, r in enumerate(missing):
            if i == 0 or rng.integers(0, 2) or any(missing[i] < x < missing[i - 1] for x in held):
                g += 1
            groups[r] = g
        sizes = [sum(1 for r in missing if groups[r] == h) for h in range(g + 1)]
        n_layouts = int(rng.integers(1, 6))
        layouts = bytes(int(rng.integers(0, s + 1)) for _ in range(n_layouts) for s in sizes)
        if rng.integers(0, 4) == 0:  # something out of shape
            which = int(rng.integers(0, 5))
            if which == 0:
                groups[int(rng.integers(0, 13))] = int(rng.integers(0, 256))
            elif which == 1:
                layouts = _bytes(rng, _size(rng, len(layouts)), 16)
            elif which == 2:
                north |= int(rng.integers(0, 1 << 14))
            elif which == 3:
                n_layouts = int(rng.integers(-2, 70))
            else:
                south |= north & -north
        depth = max(1, bin(north).count("1"), bin(south).count("1"))
        if rng.integers(0, 4) == 0:
            depth = int(rng.integers(-1, 16))
        ent = [int(rng.integers(-2, 4)) if rng.integers(0, 3) == 0 else -1 for _ in range(2)]
        returned += attempt(_search_within_limit, north, south, bytes(groups), layouts, n_layouts, depth, ent[0],
                            ent[1], int(rng.integers(0, 2)) if rng.integers(0, 8) else 3,
                            int(rng.integers(1, 64)) if rng.integers(0, 8) else int(rng.integers(-1, 2)))
    assert returned > TRIALS // 4  # the valid calls did run


# --- last round's kernels (issues 43, 44): hold'em table games, stud, blackjack, the solver --------

def _holdem_args(rng: np.random.Generator) -> dict[str, Any]:
    """Mostly well-formed arguments of the flop kernels (a deck of 9 to 12 cards), one field often
    spoilt: a card twice or past 51, a flop off the deck, a negative or huge weight or pay, a pay
    line past the pays, a bad scale, a stake outside its values, a buffer of the wrong size."""
    n = int(rng.integers(9, 13))
    deck = rng.choice(52, size=n, replace=False).astype(np.uint8)
    f = int(rng.integers(0, 4))
    flops = np.stack([rng.choice(deck, size=3, replace=False) for _ in range(f)]).astype(np.uint8) if f else \
        np.zeros((0, 3), dtype=np.uint8)
    lines = int(rng.integers(1, 17))
    args: dict[str, Any] = {"deck": deck.tobytes(), "flops": flops.tobytes(), "f": f, "n": n,
                            "weights": rng.integers(0, 5, size=f).astype(np.int64),
                            "line": rng.integers(0, lines, size=16).astype(np.uint8).tobytes(),
                            "pays": rng.integers(0, 100, size=lines).astype(np.int64), "scale": int(rng.integers(1, 5))}
    spoil = int(rng.integers(0, 9))
    if spoil == 0:
        args["deck"] = _bytes(rng, n, 60)
    elif spoil == 1 and f:
        args["flops"] = _bytes(rng, 3 * f, 60)
    elif spoil == 2 and f:
        args["weights"] = rng.choice([-1, 2**40, -2**62], size=f).astype(np.int64)
    elif spoil == 3:
        args["pays"] = rng.choice([-1, 2**40 + 1, 2**62, -2**63], size=lines).astype(np.int64)
    elif spoil == 4:
        args["line"] = _bytes(rng, _size(rng, 16), 20)
    elif spoil == 5:
        args["scale"] = int(rng.choice([0, -1, 2**20 + 1, 2**62]))
    return args


def test_holdem_table_game_kernels() -> None:
    """casino_holdem, casino_uth(_river), casino_thb(_turn): every value checked in the core
    (csrc/holdem_board.h), the river and turn kernels' pays too."""
    from cardlab.poker.evaluator import tables

    rng = np.random.default_rng(43)
    t = tables()
    returned = 0
    for _ in range(TRIALS // 3):
        a = _holdem_args(rng)
        r = a["n"] - 3
        holes = r * (r - 1) // 2
        lines = len(a["pays"])
        k = 2 * lines + 2
        returned += attempt(_core.casino_holdem, t, a["deck"], a["flops"], a["weights"], int(rng.integers(0, 1 << 24)),
                            a["line"], lines if rng.integers(0, 6) else int(rng.integers(-2, 40)), a["pays"], a["scale"],
                            int(rng.choice([0, 2, 101, -1])), int(rng.integers(0, 2)),
                            np.zeros(_size(rng, a["f"] * holes), dtype=np.int64), np.zeros(_size(rng, 2 * k + 1), dtype=np.int64))
        stake = rng.choice([0, 2, 3, 4, 1, -1, 5], p=[.3, .2, .2, .2, .04, .03, .03], size=a["f"] * holes).astype(np.int8)
        tallying = bool(rng.integers(0, 2))
        returned += attempt(_core.casino_uth, t, a["deck"], a["flops"], a["weights"], int(rng.integers(0, 1 << 24)),
                            a["line"], a["pays"], a["scale"], 0, stake.tobytes() if tallying else b"",
                            np.zeros(0 if tallying else _size(rng, a["f"] * holes * 4), dtype=np.int64),
                            np.zeros(_size(rng, 20 * lines + 1) if tallying else 0, dtype=np.int64))
        stake = rng.choice([-1, 0, 1, 2, -2], p=[.3, .3, .3, .05, .05], size=a["f"] * holes).astype(np.int8)
        returned += attempt(_core.casino_thb, t, a["deck"], a["flops"], a["weights"], a["line"], a["pays"], a["scale"],
                            1, stake.tobytes() if tallying else b"",
                            np.zeros(0 if tallying else _size(rng, a["f"] * holes * 2), dtype=np.int64),
                            np.zeros(_size(rng, 9 * lines + 1) if tallying else 0, dtype=np.int64))
        m = int(rng.integers(0, 4))
        deck = np.frombuffer(a["deck"], dtype=np.uint8)
        deals = np.stack([rng.choice(deck, size=7, replace=False) for _ in range(m)]) if m else np.zeros((0, 7), np.uint8)
        if rng.integers(0, 4) == 0:
            deals = rng.integers(0, 60, size=(m, 7))
        deals = deals.astype(np.uint8)
        returned += attempt(_core.casino_uth_river, t, a["deck"], deals.tobytes(), int(rng.integers(0, 1 << 24)),
                            a["line"], a["pays"], a["scale"], 0, np.zeros(_size(rng, m), dtype=np.uint8))
        returned += attempt(_core.casino_thb_turn, t, a["deck"], deals[:, :6].tobytes(),
                            rng.choice([0, 1, 2, -1], p=[.45, .45, .05, .05], size=m).astype(np.int8).tobytes(),
                            a["line"], a["pays"], a["scale"], 1, np.zeros(_size(rng, m), dtype=np.uint8))
    assert returned > TRIALS // 4


def test_stud_versus_kernel() -> None:
    rng = np.random.default_rng(44)
    returned = 0
    for _ in range(TRIALS):
        n = int(rng.integers(10, 13)) if rng.integers(0, 8) else int(rng.integers(-1, 60))
        size = math.comb(max(n, 0), 5)
        ranks = int(rng.integers(1, 20))
        rank = rng.integers(0, ranks + (2 if rng.integers(0, 6) == 0 else 0), size=_size(rng, size)).astype(np.uint16)
        count = int(rng.integers(1, 4)) if rng.integers(0, 5) else 0
        players = np.array([rng.choice(max(n, 6) + (3 if rng.integers(0, 8) == 0 else 0), size=5, replace=False)
                            for _ in range(count)], dtype=np.uint8).reshape(count, 5)
        out = np.zeros((len(players), 4), dtype=np.int64) if rng.integers(0, 6) else np.zeros(3, dtype=np.int64)
        returned += attempt(_core.casino_stud_versus, n, rank.tobytes(), ranks, int(rng.integers(-1, max(n, 1) + 1)),
                            players.tobytes(), int(rng.integers(-1, ranks + 2)), out)
    assert returned > 0


def test_blackjack_play_kernel() -> None:
    """csrc/blackjack_sim.c: shoes, rule rows, strategy tables, tags, spreads and buffers, mostly
    well formed, sometimes not (a rank code past the ten, a bet of 0 or 2^31, a cut past the shoe)."""
    from cardlab.casino.blackjack_sim import (_INSURE_NEVER, _TOTALS, FLAT_TEST_STRATEGY, _index_table,
                                              parse_indexes, strategy_table)

    rng = np.random.default_rng(45)
    good = strategy_table(FLAT_TEST_STRATEGY)
    indexes = _index_table(parse_indexes("i18,fab4"))
    returned = 0
    for _ in range(TRIALS // 2):
        size = int(rng.integers(1, 120)) if rng.integers(0, 8) else int(rng.choice([0, 417]))
        cards = _bytes(rng, size, 10 if rng.integers(0, 6) else 14)
        early = int(rng.integers(0, 2))
        rules = np.array([rng.integers(0, 2), rng.integers(0, 3), rng.integers(0, 2), rng.integers(0, 2),
                          rng.choice([15, 12]), max(early, int(rng.integers(0, 2))), early,
                          rng.choice([_INSURE_NEVER, int(rng.integers(-5, 6))]), rng.integers(2, 5),
                          rng.integers(0, 2)], dtype=np.int32)
        if rng.integers(0, 6) == 0:
            rules[int(rng.integers(0, 10))] = int(rng.integers(-5, 20))
        strategy = good if rng.integers(0, 4) else _bytes(rng, _size(rng, len(good)), 8)
        spread = rng.integers(1, 9, size=41).astype(np.int32)
        if rng.integers(0, 6) == 0:
            spread[int(rng.integers(0, 41))] = int(rng.choice([0, -1, 2**31 - 1]))
        stacked = bool(rng.integers(0, 2))
        rounds = int(rng.integers(0, 50)) if rng.integers(0, 8) else int(rng.choice([-1, 10**9]))
        trace = np.zeros(_size(rng, min(max(rounds, 0), 50) * 5) if stacked else 0, dtype=np.int64)
        returned += attempt(_core.blackjack_play, cards, stacked, rules.tobytes(), strategy,
                            rng.integers(-3, 4, size=_size(rng, 10)).astype(np.int8).tobytes(),
                            spread.tobytes(), int(rng.integers(-2, size + 3)), rounds, bool(rng.integers(0, 2)),
                            _state(rng), np.zeros(_size(rng, _TOTALS), dtype=np.int64),
                            np.zeros(_size(rng, 123), dtype=np.int64), trace,
                            indexes if rng.integers(0, 4) else _bytes(rng, _size(rng, len(indexes)), 8))
    assert returned > 0


def test_solver_kernels_with_spoilt_arguments() -> None:
    """csrc/solver_river.c's entry points given a real turn tree's tables with one argument
    spoilt: a player, mode or node out of range, a reach of the wrong length or NaN weights,
    tables of the wrong size, negative iterations."""
    from cardlab.solver.engine import Engine
    from cardlab.solver.game import river_game

    engine = Engine.new(river_game("AA, KK, 72o", "QQ, JJ", "Ah 7c 5d 2s", pot=10, stack=10, oop_bet="100%"))
    base = list(engine._tables())
    n = [len(h) for h in engine.game.hands]
    rng = np.random.default_rng(46)
    returned = 0
    for _ in range(TRIALS // 3):
        tables = list(base)
        regrets, sums = engine.regrets.copy(), engine.sums.copy()
        which = int(rng.integers(0, 9))
        player, mode, node = 0, 1, 0
        own, opp = np.ones(n[0]), np.ones(n[1])
        if which == 0:
            player = int(rng.choice([-1, 2, 7]))
        elif which == 1:
            mode = int(rng.choice([0, 5, -1]))
        elif which == 2:
            node = int(rng.choice([-1, len(tables[0]), 10**6]))
        elif which == 3:
            own = np.ones(n[0] + int(rng.choice([-1, 1])))
        elif which == 4:
            opp = np.full(n[1], np.nan)
        elif which == 5:
            regrets = regrets[:-1] if len(regrets) else regrets
        elif which == 6:
            tables[1] = np.full_like(tables[1], int(rng.choice([-1, 10**6])))
        returned += attempt(_core.solver_values, *tables, regrets, sums, player, mode, node, own, opp,
                            np.zeros(n[player] if 0 <= player <= 1 else 3))
        returned += attempt(_core.solver_iterate, *tables, regrets, sums, int(rng.integers(0, 3)),
                            int(rng.choice([1, 2, -1, 0])))
    assert returned > 0
