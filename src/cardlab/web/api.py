"""The workbench's JSON API: each page's question as ``POST /api/<page>``, answered with the body
``cardlab ... --format json`` prints for the same question (docs/workbench.md, "The JSON API").

A request's body is a JSON object of the page's form fields (the same names and spellings as the
form: text, numbers, ``true`` for a ticked box). It goes through the page's own ``prepare`` and
the same job runner (a worker process, the time and memory limits, the session's job limit), so
the limits, the isolation and the messages are the page's. ``GET /api/openapi.json`` describes
every endpoint (OpenAPI 3.1); ``GET /api`` is the page documenting them.

>>> sorted(ENDPOINTS)
['blackjack', 'blackjack-shoe', 'casino', 'dd', 'icm', 'poker-board', 'poker-equity', 'pushfold', 'solve', 'stats', 'suits']
>>> body_fields(b'{"kind": "points", "given_hcp": 12}', ENDPOINTS["stats"])
{'kind': 'points', 'given_hcp': '12'}
>>> body_fields(b'[1, 2]', ENDPOINTS["stats"])
Traceback (most recent call last):
...
cardlab.errors.WebInputError: the body must be a JSON object of the form's fields, e.g. {"kind": "points", "given_hcp": "12"}
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from cardlab.board import SEAT_WORDS
from cardlab.errors import WebInputError

__all__ = ["Endpoint", "ENDPOINTS", "body_fields", "openapi", "MAX_BODY"]

#: Largest JSON body read (a pasted PBN file fits; an upload goes to the page).
MAX_BODY = 4 * 1024 * 1024
_SEAT_FIELDS = tuple(SEAT_WORDS)  # north, east, south, west: the form fields of the seats
_RULE_FIELDS = ("decks", "shoe", "dealer", "double", "das", "peek", "pays", "surrender")  # a blackjack table's


@dataclass(frozen=True)
class Endpoint:
    """One endpoint: the page it asks (``slug``), its fields, an example body and the command
    line that prints the same JSON (``command``)."""

    slug: str
    summary: str
    fields: tuple[str, ...]
    example: dict[str, str]
    command: str


ENDPOINTS: dict[str, Endpoint] = {e.slug: e for e in (
    Endpoint("stats", "Hand statistics: bridge hcp, shape or joint (kind: points, shape or joint).",
             ("kind", "scheme", "cards", "given", "given_hcp", "shape", "by", "simulate", "seed"),
             {"kind": "points", "given_hcp": "12"}, "cardlab bridge hcp --given-hcp 12 --format json"),
    Endpoint("suits", "Suit play or splits: bridge suitplay (mode play) or bridge split (mode split).",
             ("mode", "north", "south", "target", "entries", "defence", "scoring", "n", "cards", "vacant", "played"),
             {"mode": "play", "north": "AQ10", "south": "432"}, "cardlab bridge suitplay AQ10 432 --format json"),
    Endpoint("dd", "Double dummy: bridge dd (mode table), bridge makes (mode makes) or bridge lead (mode lead).",
             ("mode", "deal", "dealer", "vul", "contract", "by", "vulnerable", "hand", "deals", "seed",
              *_SEAT_FIELDS, *(f"{s}_cards" for s in _SEAT_FIELDS)),
             {"mode": "table", "deal": "N:AKQ2.T98.765.432 JT98.AK7.AK2.T98 7653.J65.QJT.AKQ 4.Q432.9843.J765"},
             "cardlab bridge dd 'N:AKQ2.T98.765.432 JT98.AK7.AK2.T98 7653.J65.QJT.AKQ 4.Q432.9843.J765' --format json"),
    Endpoint("poker-equity", "Poker equity: poker equity (player1 to player9, board, dead, game (holdem, shortdeck, "
                             "omaha, omaha5, omaha6, stud, stud8, razz, 27, a5, badugi), hilo, draws; mode exact "
                             "or simulate with trials and seed).",
             (*(f"player{n}" for n in range(1, 10)), "board", "dead", "game", "hilo", "draws", "mode", "trials", "seed"),
             {"player1": "AKs", "player2": "QQ"}, "cardlab poker equity AKs QQ --format json"),
    Endpoint("icm", "Tournament equity: poker icm (stacks, payouts, model, allin).",
             ("stacks", "payouts", "model", "allin"), {"stacks": "5000,3000,2000", "payouts": "50,30,20"},
             "cardlab poker icm 5000,3000,2000 --payouts 50,30,20 --format json"),
    Endpoint("pushfold", "Push or fold: poker pushfold (stack, ante, payouts, players: 2 or 3; hand: the verdict "
                         "on the page).",
             ("stack", "ante", "payouts", "players", "hand"), {"stack": "10"}, "cardlab poker pushfold --stack 10 --format json"),
    Endpoint("poker-board", "Board statistics: poker board (range, board, dead, game).",
             ("range", "board", "dead", "game"), {"range": "QQ+, AK", "board": "Qh 9c 2d"},
             "cardlab poker board 'QQ+, AK' --board 'Qh 9c 2d' --format json"),
    Endpoint("solve", "Postflop solver: poker solve (oop, ip, board: a river, turn or small flop spot; pot, stack, oop_bet, "
                      "oop_raise, ip_bet, ip_raise, the later streets' turn_oop_bet ... river_ip_raise and oop_donk "
                      "(empty: as the CLI without the option; none: the CLI's ''), rake, rake_cap, allin_threshold, "
                      "max_raises; node: actions and dealt cards, e.g. X,X,3c; target, time_limit, max_iterations, "
                      "memory_limit; lock: one NODE=ACTION:FREQ,... a line; or solve_file: a saved solve as base64 "
                      "text, solve_file_name: the name its messages give it).",
             ("oop", "ip", "board", "pot", "stack", "oop_bet", "oop_raise", "ip_bet", "ip_raise",
              *(f"{street}_{k}" for street in ("turn", "river") for k in ("oop_bet", "oop_raise", "ip_bet", "ip_raise")),
              "oop_donk", "rake", "rake_cap", "allin_threshold", "max_raises", "node", "target", "time_limit",
              "max_iterations", "memory_limit", "lock", "solve_file", "solve_file_name"),
             {"oop": "QQ+, AK", "ip": "JJ-99, AQs", "board": "Ks 9d 5c 2h 3s", "pot": "10", "stack": "50",
              "oop_bet": "50%", "ip_bet": "50%, a"},
             "cardlab poker solve --oop 'QQ+, AK' --ip 'JJ-99, AQs' --board 'Ks 9d 5c 2h 3s' --pot 10 --stack 50 "
             "--oop-bet 50% --oop-raise '' --ip-bet '50%, a' --ip-raise '' --time-limit 20 --memory-limit 512 "
             "--format json"),
    Endpoint("casino", "Casino table games: casino analyse (game: a built-in game's name, or game_file: a TOML "
                       "game description of your own as text, game_file_name: the name its messages give it, "
                       "game.toml by default; ties: fold or bet).",
             ("game", "game_file", "game_file_name", "ties"), {"game": "three-card-poker"},
             "cardlab casino analyse three-card-poker --format json"),
    Endpoint("blackjack", "Blackjack by combinatorial analysis: casino blackjack (decks 1-8 or shoe: ten counts "
                          "A,2,...,9,T; dealer: s17 or h17; double: any, 9-11 or 10-11; das: yes or no; peek: peek or "
                          "no-hole-card; pays: 3:2 or 6:5; surrender: none, late or early; split_hands: 2, 3 or 4; "
                          "resplit_aces: no or yes; post_split: cdp1 or cdz; removal: no or yes; hands: no or yes; "
                          "count: a count's name or ten tags).",
             (*_RULE_FIELDS, "split_hands", "resplit_aces", "post_split", "removal", "hands", "count"),
             {"decks": "6", "dealer": "h17", "surrender": "late"},
             "cardlab casino blackjack --decks 6 --h17 --surrender --format json"),
    Endpoint("blackjack-shoe", "Blackjack shoe simulator: casino shoe (the blackjack rules but post_split, which the "
                               "table's strategy decides; penetration 0 to 0.99, count, spread e.g. 1,2:2,3:4,4:8, "
                               "bankroll, rounds, seed).",
             (*_RULE_FIELDS, "split_hands", "resplit_aces", "penetration", "count", "spread", "bankroll", "rounds", "seed"),
             {"penetration": "0", "rounds": "100000", "seed": "1"},
             "cardlab casino shoe --penetration 0 --rounds 100000 --seed 1 --format json"),
)}


def body_fields(body: bytes, endpoint: Endpoint) -> dict[str, str]:
    """The form fields of a JSON body, checked: an object of known fields whose values are text,
    finite numbers, ``true``/``false`` or ``null`` (left out). A bad body raises a
    :class:`~cardlab.errors.WebInputError` saying what is wrong."""
    example = json.dumps(endpoint.example)
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise WebInputError("the body is not UTF-8 text; send a JSON object") from None
    except RecursionError:
        raise WebInputError("the body is nested too deeply to be a JSON object of fields") from None
    except ValueError as error:
        raise WebInputError(f"the body is not JSON ({str(error)[:100]}); send e.g. {example}") from None
    if not isinstance(data, dict):
        raise WebInputError(f"the body must be a JSON object of the form's fields, e.g. {example}")
    fields: dict[str, str] = {}
    for name, value in data.items():
        if name not in endpoint.fields:
            raise WebInputError(f"unknown field {name[:40]!r}; the fields of /api/{endpoint.slug} are "
                                + ", ".join(endpoint.fields))
        if value is None or value is False:
            continue
        if value is True:
            fields[name] = "on"
        elif isinstance(value, str):
            fields[name] = value
        elif isinstance(value, int):
            fields[name] = str(value)
        elif isinstance(value, float) and math.isfinite(value):
            fields[name] = repr(value)
        else:
            raise WebInputError(f"{name}: expected text, a number or true/false, not {type(value).__name__}")
    return fields


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def openapi(version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 description of the endpoints (served as ``/api/openapi.json``)."""
    error = {"description": "the question cannot be answered: one message saying why",
             "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    paths: dict[str, Any] = {}
    for e in ENDPOINTS.values():
        paths[f"/api/{e.slug}"] = {"post": {
            "summary": e.summary,
            "description": f"The form fields of the /{e.slug} page; the answer is what the command line prints "
                           f"with --format json, e.g. `{e.command}`.",
            "operationId": e.slug.replace("-", "_"),
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"type": "object", "additionalProperties": False,
                           "properties": {f: {"type": ["string", "number", "boolean", "null"]} for f in e.fields}},
                "example": e.example}}},
            "responses": {"200": {"description": "the command line's --format json body",
                                  "content": {"application/json": {"schema": {}}}},
                          "400": {**error, "description": "a bad body or field: one message naming it"},
                          "413": {**error, "description": "the body is larger than the limit"},
                          "422": {**error, "description": "the library refused the question, or the job "
                                                          "failed or ran over its limits"}}}}
    return {"openapi": "3.1.0",
            "info": {"title": "cardlab workbench API", "version": version,
                     "description": "Each workbench page's question as a POST of its form fields; the answer is "
                                    "the body `cardlab ... --format json` prints for the same question."},
            "paths": paths,
            "components": {"schemas": {"Error": {"type": "object", "required": ["error"],
                                                 "properties": {"error": {"type": "string"}}}}}}
