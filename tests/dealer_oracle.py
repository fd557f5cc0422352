"""Independent routes for the dealer kernels' tests: numpy dealing and per-deal Python formatting.

These are the implementations cardlab used before the compiled core (``csrc/deal.c``); the package
no longer uses them. Each works on ``owner`` rows (the seat 0..3 of each card id) and is written
deal by deal from the C program's formats, so it shares no code with the kernels it checks.
"""

from __future__ import annotations

import numpy as np

_RANKS = "23456789TJQKA"
_LETTERS = "nesw"


def deal_owners(rng: np.random.Generator, n: int, fixed: np.ndarray | None = None) -> np.ndarray:
    """``n`` random deals as ``owner[52, n]``, each free card to a seat with probability
    proportional to the cards that seat still needs (every consistent deal equally likely)."""
    owner = np.empty((52, n), dtype=np.uint8)
    needs = np.array([13, 13, 13, 13])
    free = list(range(52))
    if fixed is not None:
        for card in range(52):
            if fixed[card] >= 0:
                owner[card] = fixed[card]
                needs[fixed[card]] -= 1
        free = [c for c in range(52) if fixed[c] < 0]
    left = np.tile(needs[:, None], (1, n)).astype(np.float64)
    for i, card in enumerate(free):
        x = rng.random(n) * (len(free) - i)
        cumulative = np.cumsum(left, axis=0)
        seat = (x[None, :] >= cumulative).sum(axis=0)
        owner[card] = seat
        left[seat, np.arange(n)] -= 1
    return owner


def holdings(row: np.ndarray, seat: int) -> list[str]:
    cards = np.flatnonzero(row == seat)
    out = []
    for suit in (3, 2, 1, 0):
        ranks = sorted((c // 4 for c in cards.tolist() if c % 4 == suit), reverse=True)
        out.append("".join(_RANKS[r] for r in ranks))
    return out


def deal_pbn(row: np.ndarray, first: int = 0) -> str:
    order = [(first + i) % 4 for i in range(4)]
    return "NESW"[first] + ":" + " ".join(".".join(holdings(row, s)) for s in order)


def oneline(row: np.ndarray, extra: str | None = None) -> str:
    text = "".join(f"{_LETTERS[s]} {'.'.join(holdings(row, s))} " for s in range(4))
    return text + (extra or "") + "\n"


def compact(row: np.ndarray, extra: str | None = None) -> str:
    text = "".join(f"{_LETTERS[s]} {'.'.join(holdings(row, s))}\n" for s in range(4))
    return text + (f"{extra}\n" if extra is not None else "")


def _suit_line(parts: list[str]) -> str:
    out = []
    for i, holding in enumerate(parts):
        cell = " ".join(holding) + " " if holding else "- "
        if i < len(parts) - 1:
            cell = cell.ljust(20)
        out.append(cell)
    return "".join(out)


def diagram(row: np.ndarray, number: int) -> str:
    hands = [holdings(row, s) for s in range(4)]
    lines = [f"{number:4d}."] + [_suit_line([hands[s][i] for s in range(4)]) for i in range(4)]
    return "\n".join(lines) + "\n\n"


def east_west(row: np.ndarray) -> str:
    west, east = holdings(row, 3), holdings(row, 1)
    return "\n".join(_suit_line([west[i], east[i]]) for i in range(4)) + "\n\n"


def pbn_game(row: np.ndarray, board: int, dealer: int | None, vulnerable: str | None, event: str,
             date: str) -> str:
    from cardlab.board import Vulnerability, dealer as board_dealer

    first = "NESW".index(board_dealer(board).value) if dealer is None else dealer
    vul = Vulnerability.from_board(board).value if vulnerable is None else vulnerable
    tags = [("Event", event), ("Site", "-"), ("Date", date), ("Board", str(board)), ("West", "-"),
            ("North", "-"), ("East", "-"), ("South", "-"), ("Dealer", "NESW"[first]), ("Vulnerable", vul),
            ("Deal", deal_pbn(row, 0)), ("Declarer", "?"), ("Contract", "?"), ("Result", "?")]
    return "".join(f'[{name} "{value}"]\n' for name, value in tags) + "\n"
