"""rank_hands: the vectorised hands-file parser against the exact per-line parser, errors that
name the line, the text formats, bounded memory."""

from __future__ import annotations

import csv
import io
import json
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from cardlab.cards import RANKS, SUITS
from cardlab.dealing import Deck, Draw
from cardlab.errors import HandError
from cardlab.poker import ranking
from cardlab.poker.comparison import hand_value
from cardlab.poker.evaluator import parse_hand, strengths
from cardlab.poker.ranking import RankedHands, rank_hands
from cardlab.poker.rules import SHORT_DECK, STANDARD, Category

_SYMBOLS = "♣♦♥♠"


def _write_card(card: int, style: int) -> str:
    rank, suit = RANKS[card // 4], SUITS[card % 4]
    if style == 1:
        rank, suit = rank.lower(), suit.upper()
    elif style == 2 and rank == "T":
        rank = "10"
    elif style == 3:
        suit = _SYMBOLS[card % 4]
    return rank + suit


def _messy_file(n: int, seed: int) -> tuple[str, list[list[int]]]:
    """A hands file in every accepted spelling, and the card ids each hand line must give."""
    rng = np.random.default_rng(seed)
    lines, expected = [], []
    separators = [" ", "", ",", ", ", "  ", "\t", "-", ";"]
    for i in range(n):
        k = int(rng.integers(5, 8))
        ids = [int(c) for c in rng.permutation(52)[:k]]
        kind = int(rng.integers(0, 10))
        if kind == 0:
            lines.append(rng.choice(["", "   ", "# a comment", "  # indented comment"]))
            continue
        style = int(rng.integers(0, 4)) if kind == 1 else 0
        sep = str(rng.choice(separators))
        text = sep.join(_write_card(c, style) for c in ids)
        if kind == 2:
            text = f"  {text}   # hand {i}"
        if kind == 3:
            from cardlab.cards import format_pbn_hand, parse_pbn_hand

            text = format_pbn_hand(ids)
            ids = [c.id for c in parse_pbn_hand(text)]
        lines.append(text)
        expected.append(ids)
    ends = ["\n", "\r\n"]
    return "".join(line + ends[i % 7 == 0] for i, line in enumerate(lines)), expected


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fast_parser_agrees_with_the_exact_parser(seed: int, monkeypatch) -> None:
    text, expected = _messy_file(3000, seed)
    # the exact route: the per-line parser on the text as the old command read it
    exact = [parse_hand(line.split("#", 1)[0].strip()) for line in text.splitlines()
             if line.split("#", 1)[0].strip()]
    assert exact == expected
    monkeypatch.setattr(ranking, "_BLOCK", 997)  # many blocks, cut at line ends
    ranked = rank_hands(text)
    assert len(ranked) == len(expected)
    got = [row[:k] for row, k in zip(ranked.cards.tolist(), ranked.sizes.tolist())]
    assert got == expected
    for k in (5, 6, 7):
        rows = [i for i, e in enumerate(expected) if len(e) == k]
        want = strengths(np.array([expected[i] for i in rows], dtype=np.uint8))
        assert ranked.strengths[rows].tolist() == want.tolist()


def test_sources_agree(tmp_path: Path) -> None:
    hands = ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c", "2c 3c 4c 5c 6c 7d 8d", "Ah Ad 8c 8s Kd 2d"]
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(hands) + "\n")
    want = rank_hands(hands).strengths.tolist()
    assert want == [hand_value(h).strength for h in hands]
    assert rank_hands(path).strengths.tolist() == want
    assert rank_hands(path.read_bytes()).strengths.tolist() == want
    assert rank_hands("\n".join(hands)).strengths.tolist() == want  # no final line end
    with open(path, "rb") as stream:
        assert rank_hands(stream).strengths.tolist() == want
    array = np.array([parse_hand(h) for h in hands[:2]], dtype=np.uint8)
    assert rank_hands(array).strengths.tolist() == want[:2]


def test_canonical_files_never_reach_the_exact_parser(monkeypatch, tmp_path: Path) -> None:
    """The fix for 'rank --file takes 21 s on 10^6 hands': no per-line Python for plain files."""
    hands = Draw(Deck.standard(), 7).sample(np.random.default_rng(5), 20_000)
    names = np.array([r + s for r in RANKS for s in SUITS])
    path = tmp_path / "hands.txt"
    path.write_text("# seven-card hands\n" + "\n".join(" ".join(row) for row in names[hands]) + "\n")

    def refuse(*args, **kwargs):
        raise AssertionError("the per-line parser ran")

    monkeypatch.setattr(ranking, "parse_hand", refuse)
    ranked = rank_hands(path)
    assert len(ranked) == 20_000 and (ranked.cards[:, :7] == hands).all()


def test_memory_stays_bounded(tmp_path: Path) -> None:
    """200,000 hands parsed, ranked and printed as JSON: the peak stays far below what a
    list of Python objects per hand takes (the old command peaked at 299 MB here, traced the same way)."""
    hands = Draw(Deck.standard(), 5).sample(np.random.default_rng(6), 200_000)
    names = np.array([r + s for r in RANKS for s in SUITS])
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(" ".join(row) for row in names[hands]) + "\n")
    rank_hands(["As Ks Qs Js Ts"]).text("json")  # the evaluator's tables are built once per process
    tracemalloc.start()
    try:
        ranked = rank_hands(path)
        size = sum(len(piece) for piece in ranked.iter_text("json"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert size > 15_000_000
    assert peak < 30e6, f"peak {peak / 1e6:.0f} MB"


@pytest.mark.parametrize("text, line, message", [
    ("As Ks Qs Js Ts\n" * 40 + "As Ks Qs Js As\n", 41, "card As is given twice"),
    ("As Ks Qs Js Ts\n" * 40 + "2c 2d 2h\n", 41, "a hand has 5, 6 or 7 cards; '2c 2d 2h' has 3"),
    ("As Ks Qs Js Ts\n" * 40 + "As Ks Qs Js Tx # bad\n", 41, "unknown symbol 'x'"),
    ("As Ks Qs Js Ts\n\n# note\nAs Ks Qs Js Ts 9s 8s 7s\n", 4, "has 8"),
    ("As Ks Qs Js Ts\nAsKsQsJsT\n", 2, "cannot read a card at 'T'"),
])
def test_errors_name_the_first_bad_line(text: str, line: int, message: str, monkeypatch) -> None:
    monkeypatch.setattr(ranking, "_BLOCK", 64)
    bad_later = text + "Zz\n"  # a later error must not be the one reported
    with pytest.raises(HandError) as info:
        rank_hands(io.BytesIO(bad_later.encode()), name="hands.txt")
    assert str(info.value).startswith(f"hands.txt: line {line}: ") and message in str(info.value)


def test_short_deck_and_repeats() -> None:
    with pytest.raises(HandError, match="hand 2: card 5d is not in the short deck"):
        rank_hands(["As Ks Qs Js Ts", "As 5d 7c 8h 9s"], SHORT_DECK)
    ranked = rank_hands(["As Ks Qs Js Ts", "Ah 6d 7c 8h 9s"], SHORT_DECK)
    assert [Category(c).key for c in ranked.categories] == ["royal_flush", "straight"]
    with pytest.raises(HandError, match="hand 1: card As is given twice"):
        rank_hands(["As As As As As"])
    assert rank_hands(["As As As As As"], repeats=True).categories.tolist() == [Category.FIVE_OF_A_KIND]
    with pytest.raises(HandError, match="hand 2: no cards in ''"):
        rank_hands(["As Ks Qs Js Ts", ""])  # an empty argument is not silently dropped
    with pytest.raises(HandError, match="no hands in 'empty.txt'"):
        rank_hands(io.BytesIO(b"# nothing\n\n"), name="empty.txt")


def test_non_utf8_names_the_line() -> None:
    data = "As Ks Qs Js Ts\n# caf\u00e9\n".encode() + "2c 3c 4c 5c 6c # caf\u00e9\n".encode("latin-1")
    with pytest.raises(HandError, match=r"hands.txt: line 3: not UTF-8 text \(byte 0xe9\)"):
        rank_hands(io.BytesIO(data), name="hands.txt")


def test_formats() -> None:
    ranked = rank_hands(["As Ks Qs Js Ts", "2c 3d 4h 5s 7c", "2c 3c 4c 5c 6c 7d 8d"])
    rows = ranked.rows()
    # independent route: the formats as the command formatted each row before
    width = max(len(r["hand"]) for r in rows)
    assert ranked.table() == "".join(  # the table shows the category's title, JSON and CSV its key
        f"{r['hand']:<{width}}  {r['category'].replace('_', ' ').capitalize():<15}  {r['strength']}\n" for r in rows)
    assert ranked.text("json") == json.dumps(rows, indent=2) + "\n"
    assert list(csv.DictReader(io.StringIO(ranked.to_csv()))) == [
        {k: str(v) for k, v in r.items()} for r in rows]
    assert rows[2] == {"hand": "2c 3c 4c 5c 6c 7d 8d", "category": "straight_flush",
                       "strength": hand_value("2c 3c 4c 5c 6c 7d 8d").strength}
    frame = ranked.to_pandas()
    assert list(frame.columns) == ["hand", "category", "strength"] and frame["strength"].iloc[0] == 10271384
    assert repr(ranked) == "<RankedHands: 3 hands, standard rules>"
    assert "<table>" in ranked._repr_html_() and "straight_flush" in ranked._repr_html_()
    assert repr(ranked[2]) == "hand_value('2c 3c 4c 5c 6c 7d 8d')"
    one = rank_hands(["As Ks Qs Js Ts"])
    assert one.text("json") == json.dumps(one.to_dict(), indent=2) + "\n"
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        ranked.text("xml")


def test_big_strengths_and_every_category_render() -> None:
    hands = ["2c 3d 4h 5s 7c", "2c 2d 4h 5s 7c", "2c 2d 4h 4s 7c", "2c 2d 2h 5s 7c", "Ac 2d 3h 4s 5c",
             "2c 4c 6c 8c Tc", "2c 2d 2h 5s 5c", "2c 2d 2h 2s 7c", "2c 3c 4c 5c 6c", "Ac Kc Qc Jc Tc"]
    ranked = rank_hands(hands)
    assert ranked.text("json") == json.dumps(ranked.to_dict(), indent=2) + "\n"
    assert [r["category"] for r in ranked.rows()] == [c.key for c in STANDARD.order[:10]]
    with_five = rank_hands(["As As As As As"], repeats=True)
    assert with_five.text("csv").splitlines()[1] == f"As As As As As,five_of_a_kind,{with_five.strengths[0]}"


def test_empty_result_renders() -> None:
    empty = RankedHands(np.zeros((0, 7), np.uint8), np.zeros(0, np.uint8), np.zeros(0, np.uint32))
    assert empty.text("json") == "[]\n" and empty.table() == "" and len(empty) == 0


def test_array_and_text_stream_inputs() -> None:
    with pytest.raises(HandError, match=r"^hand 2: card As is given twice in 'As Ks Qs Js As'$"):
        rank_hands(np.array([[51, 47, 43, 39, 35], [51, 47, 43, 39, 51]]))
    with pytest.raises(HandError, match=r"^hand 1: card 2c is not in the short deck$"):
        rank_hands(np.array([[51, 47, 43, 39, 0]]), SHORT_DECK)
    assert len(rank_hands(np.array([[51, 51, 43, 39, 35]]), repeats=True)) == 1
    ranked = rank_hands(io.StringIO("As Ks Qs Js Ts\n2c 2d 2h 7s 7c\n"))
    assert ranked.rows()[1]["category"] == "full_house"
