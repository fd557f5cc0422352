"""The columnar fast path for big CSV files gives exactly what the line-by-line path gives."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cardlab.scoring import load_results
from cardlab.scoring.columns import LazyBoards, read_csv_columns, score_columns
from cardlab.scoring.csv_travellers import read_travellers
from cardlab.scoring.output import iter_session_json, session_json
from cardlab.scoring.session import score_session

COMBOS = ["4S,N,10", "4S,S,9", "3NT,E,9", "2H,W,8", "3NT,N,11", "PASS,,", "4SX,N,9",
          "6NT,S,12", "1NT,E,7", ",,"]


def _text(seed: int, boards: int, tables: int, vul: bool) -> str:
    rng = np.random.default_rng(seed)
    rows = ["board,ns,ew,contract,declarer,tricks,score,lead" + (",vul" if vul else "")]
    for b in range(1, boards + 1):
        for t in range(1, tables + 1):
            combo = COMBOS[int(rng.integers(len(COMBOS)))]
            score = "A6040" if combo == ",," else ""
            extra = "," + ["None", "NS", "EW", "All"][b % 4] if vul else ""
            lead = ["", "HK", "S2"][int(rng.integers(3))] if combo != ",," else ""
            rows.append(f"{b},{t},{(t + b) % tables + 1},{combo},{score},{lead}{extra}")
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("seed, vul, method", [(1, False, "mp"), (2, True, "mp"),
                                               (3, False, "cross-imps"), (4, False, "butler")])
def test_fast_path_equals_line_by_line(seed: int, vul: bool, method: str) -> None:
    text = _text(seed, 12, 5, vul)
    cols = read_csv_columns(text)
    assert cols is not None
    fast = score_columns(cols, method=method, scale="ebu")
    slow = score_session(read_travellers(text), method=method, scale="ebu")
    assert fast is not None and isinstance(fast.boards, LazyBoards)
    assert [(p.key, p.boards, p.place) for p in fast.pairs] == [
        (p.key, p.boards, p.place) for p in slow.pairs]
    assert [p.total for p in fast.pairs] == pytest.approx([p.total for p in slow.pairs])
    assert fast.movement is slow.movement and fast.top == slow.top
    assert list(fast.boards) == list(slow.boards)
    assert json.loads("".join(iter_session_json(fast))) == session_json(slow)
    assert fast.to_csv() == slow.to_csv()


def test_what_the_fast_path_leaves_to_the_line_by_line_reader() -> None:
    header = "board,ns,ew,contract,declarer,tricks,score\n"
    assert read_csv_columns(header + '1,1,1,"4S",N,10,\n') is None       # quotes
    assert read_csv_columns(header + "1,1,1,4S,N,10,\n\n1,2,2,4S,N,10,\n") is None  # blank
    assert read_csv_columns(header + "1,1,1,4S,N,14,\n") is None         # a bad line
    # ... so the message is the usual one, naming the line.
    with pytest.raises(ValueError, match="t.csv: line 3: pair NS 1 appears twice on board 1"):
        load_results((header + "1,1,1,4S,N,10,\n1,1,2,4S,N,10,\n").encode(),
                     source="t.csv").score()
    with pytest.raises(ValueError, match="t.csv: line 2: tricks must be"):
        load_results((header + "1,1,1,4S,N,14,\n").encode(), source="t.csv")


def test_html_page_is_the_same_from_columns_and_from_lines(tmp_path) -> None:
    """The fast traveller renderer (over the columns of a big CSV) writes exactly what the
    renderer over scored lines writes, and the page is valid HTML."""
    import html5lib

    from cardlab.report.scoring_html import session_html
    from cardlab.scoring import load_results
    from cardlab.scoring.session import score_session

    rows = ["board,ns,ew,contract,declarer,tricks,score"]
    rows += [f"{b},{p},{(p + b) % 6 + 1},{c},{d},{t}," for b in range(1, 9) for p in range(1, 7)
             for c, d, t in [(("3NT", "4S", "2H", "1NT", "3C", "4HX")[(b * p) % 6], "NESW"[(b + p) % 4],
                              7 + (b * p) % 5)]]
    rows.append("9,1,2,,,,A6040")
    rows.append("9,2,3,2S,N,8,")
    path = tmp_path / "s.csv"
    path.write_text("\n".join(rows) + "\n")
    fast = load_results(path).score()
    assert hasattr(fast.boards, "board_slices")
    lines = [fast.boards.columns.line(i) for i in range(fast.boards.columns.size)]
    slow = score_session(lines, scale=fast.scale, movement=fast.movement)
    page = session_html(fast)
    assert page == session_html(slow)
    html5lib.HTMLParser(strict=True).parse(page)
    assert "adjusted A6040" in page and page.count("<section>") == 9
