"""The solver page's form (cardlab.web.pages.solve) read as ``cardlab poker solve`` reads its
options: the spot (:func:`cardlab.solver.river_game`'s arguments, per-street and donk sizes,
rake, the all-in threshold), the solve's limits, the locks, or a saved solve to show instead;
and back again, as the form's fields (the answer's forms ask the same spot again) and as the
command line that gives the same answer.

Sizes are the CLI's text, read by the solver's own parser (:meth:`~cardlab.solver.BetSizes.parse`,
its message after the field's label). A form cannot tell an empty field from one left alone, so
``none`` stands for the CLI's ``''`` (no sizes) where empty means "as the first street" (a later
street's sizes) or "the usual sizes" (donk bets).

>>> kwargs = read_form({"oop": "AA", "ip": "KK", "board": "Ks 9d 5c 2h", "pot": "10", "stack": "30",
...                     "river_ip_raise": "none", "oop_donk": "50%", "rake": "0.05", "lock": "=X:1"})
>>> kwargs["spot"]["river"], kwargs["spot"]["oop_donk"], kwargs["locks"]
({'ip_raise': ''}, '50%', ['=X:1'])
>>> read_form(form_fields(kwargs)) == kwargs
True
>>> print(command_line(kwargs))  # doctest: +NORMALIZE_WHITESPACE
cardlab poker solve --oop AA --ip KK --board 'Ks 9d 5c 2h' --pot 10 --stack 30 --oop-bet '' --oop-raise ''
--ip-bet '' --ip-raise '' --river-ip-raise '' --oop-donk 50% --rake 0.05 --lock =X:1 --target 0.3
--time-limit 20 --memory-limit 512
>>> read_form({"oop": "AA", "ip": "KK", "board": "Ks 9d 5c 2h", "pot": "10", "stack": "30", "turn_oop_bet": "33%, lots"})
Traceback (most recent call last):
...
cardlab.errors.WebInputError: Turn: OOP bets: cannot read bet size 'lots' in '33%, lots': a size is a percentage of the pot such as 75% or a (all-in)
"""

from __future__ import annotations

from typing import Any

from cardlab.errors import CardlabError, WebInputError
from cardlab.web.page import field_decimal, field_number, field_text

__all__ = ["read_form", "form_fields", "command_line", "SIZE_FIELDS", "STREETS", "MAX_SECONDS", "MEMORY_MB",
           "MAX_LOCKS", "MAX_SOLVE_FILE"]

#: The longest a page's solve runs (the CLI's --time-limit, at most): the answer so far is shown after it.
MAX_SECONDS = 20.0
#: The largest tree a page solves (the CLI's --memory-limit, at most, MB): river spots need far less.
MEMORY_MB = 512.0
#: The most locks a page takes (the CLI's --lock, repeated).
MAX_LOCKS = 16
#: The largest saved solve a page reads (bytes): the upload limit of the server's default.
MAX_SOLVE_FILE = 20 * 1024 * 1024
#: The size fields and their labels (the CLI's --oop-bet, --oop-raise, --ip-bet, --ip-raise).
SIZE_FIELDS = {"oop_bet": "OOP bets", "oop_raise": "OOP raises", "ip_bet": "IP bets", "ip_raise": "IP raises"}
#: The later streets whose sizes may differ (the CLI's --turn-oop-bet ... --river-ip-raise).
STREETS = ("turn", "river")
_NONE = "none"
_DEFAULTS: dict[str, float] = {"target": 0.3, "allin_threshold": 0.15}
_ITERATIONS, _RAISES = 100_000, 3  # the CLI's defaults


def _decimal(form: Any, name: str, label: str, low: float, high: float, default: float | None, *,
             low_open: bool = False) -> float:
    """A number read by the CLI's own option type (its spellings and its range message); required
    when there is no ``default``."""
    value = field_decimal(form, name, label, low, high, default=default, low_open=low_open, required=default is None)
    assert value is not None  # a required field is never empty
    return value


def _sizes(form: Any, name: str, label: str, *, optional: bool) -> str | None:
    """A size field's text, checked by the solver's parser: ``none`` is the CLI's ``''``; empty
    is ``''`` too, or None (not given) where ``optional``."""
    from cardlab.solver.tree import BetSizes

    text = field_text(form, name, label, max_length=200)
    if text.lower() == _NONE:
        return ""
    if not text:
        return None if optional else ""
    try:
        BetSizes.parse("", text) if name.endswith("raise") else BetSizes.parse(text, "")
    except CardlabError as error:
        raise WebInputError(f"{label}: {error}") from None
    return text


def _saved(form: Any) -> tuple[bytes, str] | None:
    """The saved solve asked for: an uploaded file, or (the API's and the answer's forms) its bytes
    as base64 text in ``solve_file`` with its name in ``solve_file_name``."""
    import base64
    import binascii

    upload = form.files.get("file") if hasattr(form, "files") else None
    posted = field_text(form, "solve_file", "Solve file", max_length=MAX_SOLVE_FILE * 4 // 3 + 4)
    if upload is not None:
        data, name = upload.data, upload.filename or "solve.npz"
        if not data:
            raise WebInputError(f"Solve file: '{name}' is empty")
    elif posted:
        try:
            data = base64.b64decode(posted, validate=True)
        except (binascii.Error, ValueError):
            raise WebInputError("Solve file: expected the file's bytes as base64 text") from None
        name = field_text(form, "solve_file_name", "Solve file name", max_length=200) or "solve.npz"
    else:
        return None
    if len(data) > MAX_SOLVE_FILE:
        raise WebInputError(f"Solve file: '{name}' is larger than the limit of {MAX_SOLVE_FILE // 2**20} MB")
    return data, name


def read_form(form: Any) -> dict[str, Any]:
    """The form as the solve job's arguments: ``spot`` (:func:`~cardlab.solver.river_game`'s
    arguments; None when a saved solve is shown), ``node``, ``target``, ``time_limit``,
    ``max_iterations``, ``memory_mb``, ``locks`` and ``saved`` (the solve file's bytes and name)."""
    run = {
        "node": field_text(form, "node", "Node", max_length=400),
        "target": _decimal(form, "target", "Target", 0, 100, _DEFAULTS["target"]),
        "time_limit": _decimal(form, "time_limit", "Time limit", 0, MAX_SECONDS, MAX_SECONDS, low_open=True),
        "max_iterations": field_number(form, "max_iterations", "Iterations", 0, 10**6,
                                       default=_ITERATIONS),
        "memory_mb": _decimal(form, "memory_limit", "Memory limit", 1, MEMORY_MB, MEMORY_MB),
    }
    saved = _saved(form)
    if saved is not None:
        return {"spot": None, **run, "locks": [], "saved": saved}
    locks = [line.strip() for line in field_text(form, "lock", "Locks", max_length=4_000).splitlines() if line.strip()]
    if len(locks) > MAX_LOCKS:
        raise WebInputError(f"Locks: at most {MAX_LOCKS} (one a line), not {len(locks)}")
    spot: dict[str, Any] = {
        "oop": field_text(form, "oop", "OOP range", required=True, max_length=2_000),
        "ip": field_text(form, "ip", "IP range", required=True, max_length=2_000),
        "board": field_text(form, "board", "Board", required=True, max_length=60),
        "pot": _decimal(form, "pot", "Pot", 0, 1e9, None, low_open=True),
        "stack": _decimal(form, "stack", "Stack", 0, 1e9, None),
        **{k: _sizes(form, k, label, optional=False) for k, label in SIZE_FIELDS.items()},
    }
    for street in STREETS:
        given = {k: _sizes(form, f"{street}_{k}", f"{street.title()}: {label}", optional=True)
                 for k, label in SIZE_FIELDS.items()}
        spot[street] = {k: v for k, v in given.items() if v is not None}
    spot.update(oop_donk=_sizes(form, "oop_donk", "OOP donk bets", optional=True),
                rake=_decimal(form, "rake", "Rake", 0, 0.99, 0.0),
                rake_cap=_decimal(form, "rake_cap", "Rake cap", 0, 1e9, 0.0),
                allin_threshold=_decimal(form, "allin_threshold", "All-in threshold", 0, 10,
                                         _DEFAULTS["allin_threshold"]),
                max_raises=field_number(form, "max_raises", "Raises", 0, 16, default=_RAISES))
    return {"spot": spot, **run, "locks": locks, "saved": None}


def _number(value: float) -> str:
    """A number as the form and the command line take it back exactly."""
    short = f"{value:g}"
    return short if float(short) == value else repr(value)


def _none(text: str) -> str:
    return text if text else _NONE


def form_fields(kwargs: dict[str, Any]) -> dict[str, str]:
    """The form's fields that ask for ``kwargs`` (:func:`read_form`'s) again, the node left out
    (the answer's forms choose it); a saved solve as base64 text."""
    import base64

    run = {"target": _number(kwargs["target"]), "time_limit": _number(kwargs["time_limit"]),
           "max_iterations": str(kwargs["max_iterations"]), "memory_limit": _number(kwargs["memory_mb"])}
    if kwargs["saved"] is not None:
        data, name = kwargs["saved"]
        return {**run, "solve_file": base64.b64encode(data).decode("ascii"), "solve_file_name": name}
    spot = kwargs["spot"]
    out = {"oop": spot["oop"], "ip": spot["ip"], "board": spot["board"], "pot": _number(spot["pot"]),
           "stack": _number(spot["stack"]), **{k: spot[k] for k in SIZE_FIELDS}}
    for street in STREETS:
        out.update({f"{street}_{k}": _none(v) for k, v in spot[street].items()})
    if spot["oop_donk"] is not None:
        out["oop_donk"] = _none(spot["oop_donk"])
    out.update(rake=_number(spot["rake"]), rake_cap=_number(spot["rake_cap"]),
               allin_threshold=_number(spot["allin_threshold"]), max_raises=str(spot["max_raises"]),
               lock="\n".join(kwargs["locks"]))
    return {**out, **run}


def command_line(kwargs: dict[str, Any]) -> str:
    """The ``cardlab poker solve`` command that prints the same answer as the page for ``kwargs``."""
    import shlex

    node = ["--node", kwargs["node"]] if kwargs["node"] else []
    if kwargs["saved"] is not None:
        argv = ["poker", "solve", "--load", kwargs["saved"][1], *node]
    else:
        spot = kwargs["spot"]
        argv = ["poker", "solve", "--oop", spot["oop"], "--ip", spot["ip"], "--board", spot["board"],
                "--pot", _number(spot["pot"]), "--stack", _number(spot["stack"])]
        argv += [x for k in SIZE_FIELDS for x in (f"--{k.replace('_', '-')}", spot[k])]
        argv += [x for street in STREETS for k, v in spot[street].items()
                 for x in (f"--{street}-{k.replace('_', '-')}", v)]
        argv += ["--oop-donk", spot["oop_donk"]] if spot["oop_donk"] is not None else []
        argv += ["--rake", _number(spot["rake"])] if spot["rake"] else []
        argv += ["--rake-cap", _number(spot["rake_cap"])] if spot["rake_cap"] else []
        argv += ["--allin-threshold", _number(spot["allin_threshold"])] \
            if spot["allin_threshold"] != _DEFAULTS["allin_threshold"] else []
        argv += ["--max-raises", str(spot["max_raises"])] if spot["max_raises"] != _RAISES else []
        argv += [x for lock in kwargs["locks"] for x in ("--lock", lock)]
        argv += [*node, "--target", _number(kwargs["target"]), "--time-limit", _number(kwargs["time_limit"])]
        if kwargs["max_iterations"] != _ITERATIONS:
            argv += ["--max-iterations", str(kwargs["max_iterations"])]
    argv += ["--memory-limit", _number(kwargs["memory_mb"])]
    return "cardlab " + " ".join(shlex.quote(a) for a in argv)
