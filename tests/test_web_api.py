"""Issue 39: the workbench's JSON API (src/cardlab/web/api.py) on a running ``cardlab serve``.

Each endpoint's answer equals the JSON the command line prints for the same question
(``--format json``, run in this process); the OpenAPI description lists every endpoint; hostile
bodies (not JSON, too deep, too large, unknown fields, values of the wrong kind, NaN) are refused
with one message and the server carries on."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from cardlab.cli.main import main
from web_helpers import Server, served  # noqa: F401  (served: the fixture)

DEAL = "N:AKQ2.T98.765.432 JT98.AK7.AK2.T98 7653.J65.QJT.AKQ 4.Q432.9843.J765"


def _post(served: Server, question: str, body: Any, raw: bytes | None = None,
          kind: str = "application/json") -> tuple[int, Any]:
    data = raw if raw is not None else json.dumps(body).encode()
    status, _, answer = served.request("POST", f"/api/{question}", data, {"Content-Type": kind})
    return status, json.loads(answer)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


CASES = [
    ("stats", {"kind": "points", "given_hcp": 12}, ["bridge", "hcp", "--given-hcp", "12"]),
    ("stats", {"kind": "shape", "shape": "longest", "given": "AKQJT.98765.432."},
     ["bridge", "shape", "--longest", "--given", "AKQJT.98765.432."]),
    ("stats", {"kind": "joint", "by": "longest"}, ["bridge", "joint", "--by", "longest"]),
    ("suits", {"mode": "play", "north": "AQ10", "south": "432"}, ["bridge", "suitplay", "AQ10", "432"]),
    ("suits", {"mode": "split", "cards": "KJ54"}, ["bridge", "split", "--cards", "KJ54"]),
    ("dd", {"mode": "table", "deal": DEAL, "vul": "All"}, ["bridge", "dd", DEAL, "--vul", "All"]),
    ("dd", {"mode": "makes", "contract": "3NT,4S", "by": "S", "deals": 30, "seed": 3, "north": "hcp=15-17"},
     ["bridge", "makes", "--contract", "3NT", "--contract", "4S", "--by", "S", "-n", "30", "--seed", "3", "--north", "hcp=15-17",
      "--workers", "1"]),
    ("dd", {"mode": "lead", "hand": "AKQ2.T98.765.432", "contract": "3NT", "by": "S", "deals": 20, "seed": 5},
     ["bridge", "lead", "--hand", "AKQ2.T98.765.432", "--contract", "3NT", "--by", "S", "-n", "20", "--seed", "5",
      "--workers", "1"]),
    ("poker-equity", {"player1": "AKs", "player2": "QQ"}, ["poker", "equity", "AKs", "QQ"]),
    ("poker-equity", {"player1": "AhKh", "player2": "random", "board": "Kd 7c 2s", "mode": "simulate",
                      "trials": 200000, "seed": 9},
     ["poker", "equity", "AhKh", "random", "--board", "Kd 7c 2s", "--simulate", "200000", "--seed", "9"]),
    ("poker-equity", {"player1": "As 2d 3c 7h 9s", "player2": "Kh Qh 4d 5c 6s", "game": "razz"},
     ["poker", "equity", "As 2d 3c 7h 9s", "Kh Qh 4d 5c 6s", "--game", "razz"]),
    ("icm", {"stacks": "5000,3000,2000", "payouts": "50,30,20", "allin": "A:AsKs B:QQ"},
     ["poker", "icm", "5000,3000,2000", "--payouts", "50,30,20", "--allin", "A:AsKs B:QQ"]),
    ("icm", {"stacks": "4000,2500,2500,1000", "payouts": "50,30,20", "model": "malmuth-weitzman"},
     ["poker", "icm", "4000,2500,2500,1000", "--payouts", "50,30,20", "--model", "malmuth-weitzman"]),
    ("pushfold", {"stack": 7.5, "ante": "0.1", "hand": "A5o"}, ["poker", "pushfold", "--stack", "7.5", "--ante", "0.1"]),
    ("pushfold", {"stack": "12", "payouts": "65,35"}, ["poker", "pushfold", "--stack", "12", "--payouts", "65,35"]),
    ("pushfold", {"stack": "10", "players": 3}, ["poker", "pushfold", "--stack", "10", "--players", "3"]),
    ("poker-board", {"range": "QQ+, AK", "board": "Qh 9c 2d"}, ["poker", "board", "QQ+, AK", "--board", "Qh 9c 2d"]),
    ("casino", {"game": "three-card-poker"}, ["casino", "analyse", "three-card-poker"]),
    ("casino", {"game": "let-it-ride", "ties": "bet"}, ["casino", "analyse", "let-it-ride", "--ties", "bet"]),
    ("blackjack", {"decks": 6, "dealer": "h17", "surrender": "late"}, ["casino", "blackjack", "--decks", "6", "--h17", "--surrender"]),
    ("blackjack", {"shoe": "1,1,1,1,1,1,1,1,1,4", "double": "10-11", "peek": "no-hole-card", "pays": "6:5", "count": "zen",
                   "hands": True},
     ["casino", "blackjack", "--shoe", "1,1,1,1,1,1,1,1,1,4", "--double", "10-11", "--no-peek", "--blackjack-pays", "6:5",
      "--count", "zen", "--hands"]),
    ("blackjack", {"shoe": "2,2,2,2,2,2,2,2,2,8", "surrender": "early", "das": "no", "split_hands": 4, "resplit_aces": "yes",
                   "post_split": "cdz"},
     ["casino", "blackjack", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--early-surrender", "--no-das", "--split-hands", "4", "--resplit-aces",
      "--post-split", "cdz"]),
    ("blackjack-shoe", {"penetration": 0.75, "spread": "1,2:2,3:4,4:8", "bankroll": 1000, "rounds": 200000, "seed": 1},
     ["casino", "shoe", "--penetration", "0.75", "--spread", "1,2:2,3:4,4:8", "--bankroll", "1000", "--rounds", "200000",
      "--seed", "1"]),
    ("blackjack-shoe", {"shoe": "2,2,2,2,2,2,2,2,2,8", "penetration": 0, "dealer": "h17", "surrender": "late",
                        "count": "hi-opt-ii", "rounds": 100000, "seed": 4},
     ["casino", "shoe", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--penetration", "0", "--h17", "--surrender", "--count", "hi-opt-ii",
      "--rounds", "100000", "--seed", "4"]),
    ("solve", {"oop": "QQ+, AK", "ip": "JJ-99, AQs", "board": "Ks 9d 5c 2h 3s", "pot": 10, "stack": 50, "oop_bet": "50%",
               "ip_bet": "50%, a", "node": "X", "target": 0, "max_iterations": 300},
     ["poker", "solve", "--oop", "QQ+, AK", "--ip", "JJ-99, AQs", "--board", "Ks 9d 5c 2h 3s", "--pot", "10", "--stack", "50",
      "--oop-bet", "50%", "--oop-raise", "", "--ip-bet", "50%, a", "--ip-raise", "", "--node", "X", "--target", "0",
      "--max-iterations", "300"]),
    ("solve", {"oop": "QQ+, AK", "ip": "JJ-99, AQs", "board": "Ks 9d 5c 2h", "pot": 10, "stack": 30, "oop_bet": "50%",
               "ip_bet": "50%", "node": "X,X,Ad,B5", "target": 0, "max_iterations": 300},
     ["poker", "solve", "--oop", "QQ+, AK", "--ip", "JJ-99, AQs", "--board", "Ks 9d 5c 2h", "--pot", "10", "--stack", "30",
      "--oop-bet", "50%", "--oop-raise", "", "--ip-bet", "50%", "--ip-raise", "", "--node", "X,X,Ad,B5", "--target", "0",
      "--max-iterations", "300"]),
    # issue 44's parity: sizes per street, donk bets, rake with its cap and a lock
    ("solve", {"oop": "QQ+, AK, 76s", "ip": "JJ-99, AQs", "board": "Ks 9d 5c 2h", "pot": 10, "stack": 30,
               "oop_bet": "50%", "ip_bet": "50%", "river_oop_bet": "75%", "river_ip_bet": "33%, a", "river_ip_raise": "none",
               "oop_donk": "25%", "rake": 0.05, "rake_cap": 1, "lock": "=X:0.5,B5:0.5\nX=X:0.25,B5:0.75",
               "node": "X,B5,C,7c", "target": 0, "max_iterations": 60, "max_raises": 2, "allin_threshold": 0.2},
     ["poker", "solve", "--oop", "QQ+, AK, 76s", "--ip", "JJ-99, AQs", "--board", "Ks 9d 5c 2h", "--pot", "10",
      "--stack", "30", "--oop-bet", "50%", "--oop-raise", "", "--ip-bet", "50%", "--ip-raise", "", "--river-oop-bet", "75%",
      "--river-ip-bet", "33%, a", "--river-ip-raise", "", "--oop-donk", "25%", "--rake", "0.05", "--rake-cap", "1",
      "--lock", "=X:0.5,B5:0.5", "--lock", "X=X:0.25,B5:0.75", "--node", "X,B5,C,7c", "--target", "0",
      "--max-iterations", "60", "--max-raises", "2", "--allin-threshold", "0.2"]),
]


@pytest.mark.parametrize("question,body,argv", CASES, ids=[" ".join(c[2][:2]) + f" {i}" for i, c in enumerate(CASES)])
def test_each_endpoint_answers_the_cli_json(served: Server, capsys: pytest.CaptureFixture[str], question: str,
                                            body: dict[str, Any], argv: list[str]) -> None:
    status, answer = _post(served, question, body)
    assert status == 200, answer
    cli = _cli(capsys, *argv)
    if question == "solve":  # the solve's seconds are the machine's; the iterations are fixed by max_iterations
        assert answer.pop("seconds") >= 0 and cli.pop("seconds") >= 0 and cli["iterations"] == body["max_iterations"]
    assert _same_figures(answer, cli), (answer, cli)


def _same_figures(a: Any, b: Any) -> bool:
    """Equal JSON, except that two floats may differ in their last bits: the job's process and
    this one may sum in another order (numpy's BLAS picks its threads per process; the three-handed
    push/fold's EVs differed at 1e-16 relative in one CI run)."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_figures(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_figures(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def test_solve_file_posted_as_base64_answers_the_cli_load(served: Server, capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Any) -> None:
    import base64

    saved = tmp_path / "spot.npz"
    _cli(capsys, "poker", "solve", "--oop", "QQ+, AK", "--ip", "JJ-99, AQs", "--board", "Ks 9d 5c 2h", "--pot", "10",
         "--stack", "30", "--oop-bet", "50%", "--ip-bet", "50%", "--oop-raise", "", "--ip-raise", "",
         "--lock", "X=X:1", "--max-iterations", "30", "--target", "0", "--save", str(saved))
    status, answer = _post(served, "solve", {"solve_file": base64.b64encode(saved.read_bytes()).decode(),
                                             "solve_file_name": "spot.npz", "node": "X,X,Ad"})
    assert status == 200, answer
    cli = _cli(capsys, "poker", "solve", "--load", str(saved), "--node", "X,X,Ad")
    assert _same_figures(answer, cli) and cli["iterations"] == 30


def test_same_figures_tolerates_rounding_only() -> None:
    assert _same_figures({"ev": [0.2417452328917738, "AA"]}, {"ev": [0.24174523289177774, "AA"]})
    assert not _same_figures({"ev": [0.2417]}, {"ev": [0.2418]})
    assert not _same_figures({"n": 1}, {"n": 1.0}) and not _same_figures({"a": 1}, {"b": 1})


def test_openapi_describes_every_endpoint_and_the_page_documents_them(served: Server) -> None:
    from cardlab.web.api import ENDPOINTS

    status, headers, body = served.get("/api/openapi.json")
    assert status == 200 and headers["content-type"].startswith("application/json")
    spec = json.loads(body)
    assert spec["openapi"].startswith("3.1")
    assert set(spec["paths"]) == {f"/api/{slug}" for slug in ENDPOINTS}
    for slug, endpoint in ENDPOINTS.items():
        post = spec["paths"][f"/api/{slug}"]["post"]
        schema = post["requestBody"]["content"]["application/json"]["schema"]
        assert set(schema["properties"]) == set(endpoint.fields) and schema["additionalProperties"] is False
        assert set(post["responses"]) == {"200", "400", "413", "422"}
    status, _, page = served.get("/api")
    assert status == 200
    for slug in ENDPOINTS:
        assert f"POST /api/{slug}".encode() in page
    # every example on the page is a body the endpoint answers
    for slug, endpoint in ENDPOINTS.items():
        status, answer = _post(served, slug, endpoint.example)
        assert status == 200, (slug, answer)


HOSTILE = [
    ("stats", None, b"{not json", "application/json", 400, "the body is not JSON"),
    ("stats", None, b"[" * 100_000 + b"]" * 100_000, "application/json", 400, "nested too deeply"),
    ("stats", None, b'{"kind": NaN}', "application/json", 400, "NaN is not a number JSON allows"),
    ("stats", None, b"\xff\xfe\x00garbage", "application/json", 400, "not UTF-8"),
    ("stats", [1, 2], None, "application/json", 400, "must be a JSON object"),
    ("stats", {"kind": "points", "evil": "x"}, None, "application/json", 400, "unknown field 'evil'"),
    ("stats", {"kind": {"$gt": 1}}, None, "application/json", 400, "kind: expected text, a number or true/false"),
    ("stats", {"kind": "points", "cards": "1e400"}, None, "application/json", 400, "Cards in the hand: expected"),
    ("stats", {"kind": "points", "given": "AsZd"}, None, "application/json", 422, "unknown symbol 'Z' in 'AsZd'"),
    ("suits", {"mode": "split", "cards": "KJ54", "n": 5}, None, "application/json", 422, "names 4 cards"),
    ("poker-equity", {"player1": "AsAh", "player2": "AsKd"}, None, "application/json", 422, "given twice"),
    ("casino", {"game": "../../etc/passwd"}, None, "application/json", 400, "Game: expected one of baccarat"),
    ("casino", {"game": "baccarat", "file": "x"}, None, "application/json", 400, "unknown field 'file'"),
    ("solve", {"oop": "QQ+", "ip": "JJ", "board": "Ks 9d 5c 2h 3s", "pot": "1e400", "stack": 50}, None,
     "application/json", 400, "Pot:"),
    ("solve", {"oop": "QQ+", "ip": "JJ", "board": "Ks 9d 5c 2h 3s", "pot": 10, "stack": 50, "max_iterations": 10**12}, None,
     "application/json", 400, "Iterations: expected a whole number"),
    ("solve", {"oop": "QQ+", "ip": "JJ", "board": "Ks 9d 5c 2h", "pot": 10, "stack": 50, "node": "X,X,Zz"}, None,
     "application/json", 422, "no action 'Zz' at node 'X,X'"),
    ("solve", {"oop": "QQ+", "ip": "JJ", "board": "Ks 9d 5c 2h 3s", "pot": 10, "stack": 50, "node": "R999"}, None,
     "application/json", 422, "R999"),
    ("solve", {"oop": "QQ+", "ip": "JJ", "board": "Ks 9d 5c 2h", "pot": 10, "stack": 50, "river_oop_bet": "33%, lots"},
     None, "application/json", 400, "River: OOP bets: cannot read bet size 'lots' in '33%, lots'"),
    ("solve", {"oop": "QQ+", "ip": "JJ", "board": "Ks 9d 5c 2h", "pot": 10, "stack": 50, "oop_bet": "50%", "lock": "=Q:1"},
     None, "application/json", 422, "Locks: no action 'Q' at node 'root': the actions there are X, B5"),
    ("solve", {"solve_file": "bm90IGEgemlw", "solve_file_name": "mine.npz"}, None, "application/json", 422,
     "cannot read solve file 'mine.npz'"),
    ("solve", {"solve_file": "not base64!"}, None, "application/json", 400, "Solve file: expected the file's bytes"),
    ("blackjack", {"decks": 0}, None, "application/json", 400, "Decks: expected a whole number from 1 to 8, got '0'"),
    ("blackjack", {"shoe": "4,4,x"}, None, "application/json", 400, "Shoe: a shoe is ten counts (A,2,...,9,T), got '4,4,x'"),
    ("blackjack-shoe", {"spread": "1,2:x"}, None, "application/json", 400, "Spread: a spread is a base bet then"),
    ("blackjack-shoe", {"shoe": "1,1,1,1,1,1,1,1,1,4"}, None, "application/json", 422,
     "the simulated shoe needs at least 20 cards, this one has 13"),
    ("stats", {"kind": "points"}, None, "text/plain", 415, "Content-Type: application/json"),
    ("nosuch", {}, None, "application/json", 404, "the questions are /api/stats"),
    ("dd", None, b'{"deal": "' + b"x" * (5 * 1024 * 1024) + b'"}', "application/json", 413, "larger than the limit"),
]


@pytest.mark.parametrize("question,body,raw,kind,status,message", HOSTILE)
def test_hostile_bodies_are_refused_with_a_message(served: Server, question: str, body: Any, raw: bytes | None,
                                                   kind: str, status: int, message: str) -> None:
    got, answer = _post(served, question, body, raw, kind)
    assert got == status and message in answer["error"], (got, answer)
    assert "Traceback" not in answer["error"]
    assert _post(served, "suits", {"mode": "split", "n": 2})[0] == 200  # the server carries on


def _game_text() -> str:
    """Three Card Poker's description with Pair Plus paying 35 for a straight flush (its own game)."""
    from cardlab.casino.game import game_file

    text = game_file("three-card-poker").read_text()
    assert "pays = 40" in text
    return text.replace("pays = 40", "pays = 35", 1)


def test_casino_takes_a_posted_game_description_as_the_cli_takes_the_file(
        served: Server, capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """Issue 39: a TOML game description posted as text is analysed as ``casino analyse FILE``
    analyses the same file, and named as the command line names it."""
    path = tmp_path / "mine.toml"
    path.write_text(_game_text())
    status, answer = _post(served, "casino", {"game_file": _game_text(), "game_file_name": "mine.toml"})
    assert status == 200, answer
    cli = _cli(capsys, "casino", "analyse", str(path))
    assert answer == cli
    pair_plus = next(b for b in answer["bets"] if b["bet"] == "Pair Plus")
    # by hand: the 35-for-a-straight-flush table loses 5 x 48/22,100 more than the 40 table's 2.32%
    # (Wizard of Odds: Pair Plus 40-30-6-4-1 edge 2.32%, 48 straight flushes among 22,100 hands)
    assert abs(pair_plus["house_edge"] - (0.023167 + 5 * 48 / 22_100)) < 1e-5


@pytest.mark.parametrize("text,name", [
    ("game = [unclosed", "game.toml"),
    ('name = "x"\ngame = "no-such-kind"\n', "bad.toml"),
    ("# " + "x" * (1 << 20) + "\n", "game.toml"),
])
def test_a_posted_game_is_refused_with_the_cli_message(served: Server, capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Any, text: str, name: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    capsys.readouterr()
    assert main(["casino", "analyse", str(path)]) == 2
    said = capsys.readouterr().err.strip().removeprefix("cardlab: ").removeprefix("error: ")
    status, answer = _post(served, "casino", {"game_file": text, **({"game_file_name": name} if name != "game.toml" else {})})
    assert status == 400 and answer["error"] == said, (answer, said)
