"""What a solve gives: the strategy at any node (per combo and per hand class), each combo's and
each range's expected value and equity, the exploitability beside them; saved and reloaded.

EV is a combo's *share of the pot* in chips: what it takes from the pot at the end less what it
put in on this street, averaged over the opponent's combos that share no card with it (a combo
that always checks down takes its equity times the pot). Equity is its showdown share against
the opponent's whole range.

>>> from cardlab.solver.games import clairvoyance
>>> s = Solution.solve(clairvoyance(1.0), target=0.001)
>>> r = s.report("X", by="combo")
>>> [row["combo"] for row in r.rows], [round(row["B1"], 2) for row in r.rows]
(['9h9d', '6d5d'], [1.0, 0.5])
>>> print(r.table().splitlines()[0])
river spot: OOP KhQh, IP 9h9d:1.0, 6d5d:1.0, board 2c 3d 7h 9s Kc, pot 1, stack 10
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardlab.cards import format_cards
from cardlab.errors import CardlabError, SolverError
from cardlab.poker.ranges import class_label, combo_classes
from cardlab.results import JsonText, csv_rows
from cardlab.solver.engine import DEFAULT_MEMORY_MB, Engine, solve
from cardlab.solver.game import Game, river_game
from cardlab.solver.tree import CHANCE, DECISION, BetSizes, build_tree
from cardlab.textformat import percent, text_table

__all__ = ["Solution", "NodeReport", "load_solution"]

_PLAYERS = ("OOP", "IP")
_FORMAT = 1  # the version of the saved file's layout
_MAX_META = 4 * 2**20  # bytes of the spot's text in a saved file (4 bytes a character)


@dataclass(eq=False)
class Solution:
    """A solved (or partly solved) game: its :class:`~cardlab.solver.engine.Engine`."""

    engine: Engine

    @classmethod
    def solve(cls, game: Game, *, target: float = 0.3, time_limit: float = 60.0, max_iterations: int = 100_000,
              memory_mb: float = DEFAULT_MEMORY_MB) -> Solution:
        """Solve ``game`` (:func:`cardlab.solver.engine.solve`)."""
        return cls(solve(game, target=target, time_limit=time_limit, max_iterations=max_iterations,
                         memory_mb=memory_mb))

    @property
    def game(self) -> Game:
        """The game solved."""
        return self.engine.game

    def strategy(self, node: int) -> np.ndarray:
        """The average strategy at decision ``node``: (actions, combos of the player acting)."""
        tree = self.game.tree
        if tree.kind[node] != DECISION:
            raise SolverError(f"node '{tree.path(node)}' ends the hand: there is no strategy there")
        n = len(self.game.hands[int(tree.player[node])])
        off = int(self.game.offsets[node])
        table = self.engine.sums[off:off + int(tree.count[node]) * n].reshape(-1, n).astype(np.float64)
        total = table.sum(axis=0)
        out: np.ndarray = np.where(total > 0, table / np.where(total > 0, total, 1), 1.0 / len(table))
        return out

    def reach(self, node: int, player: int) -> np.ndarray:
        """How often each of ``player``'s combos plays to ``node`` (its own actions on the way)."""
        tree = self.game.tree
        out = np.ones(len(self.game.hands[player]))
        while node > 0:
            parent = int(tree.parent[node])
            if tree.player[parent] == player:
                out = out * self.strategy(parent)[tree.kids(parent).index(node)]
            node = parent
        return out

    def ev(self, player: int) -> np.ndarray:
        """Each combo's EV in chips (its share of the pot), both playing the average strategy."""
        compatible = self.engine.values(player, 4)
        gain = self.engine.values(player) / np.where(compatible > 0, compatible, 1)
        out: np.ndarray = gain + self.game.tree.pot / 2
        return out

    def equity(self, player: int, node: int = 0) -> np.ndarray:
        """Each combo's showdown equity against the other's range at ``node`` (0..1; on a turn
        spot, over the river cards still to come): the same engine walks the spot with every
        street checked down, from the board of ``node``."""
        tree = self.game.tree
        if tree.dealer is not None:
            down = build_tree(2.0, 0.0, (BetSizes(), BetSizes()), dealer=tree.dealer)
        else:  # a tree built by hand (Leduc): its cards, each with the chance the game deals it
            rivers = sorted({int(b) - 1 for b in tree.board if b > 0})
            down = build_tree(2.0, 0.0, (BetSizes(), BetSizes()), river_cards=rivers)
            down.amount[down.kind == CHANCE] = tree.amount[tree.kind == CHANCE][0] if rivers else 0
        checked = Engine.new(Game(down, self.game.hands))
        dealt = tree.dealt(node)
        start = checked.game.tree.find(",".join(["X", "X"] + [format_cards([c]) for c in dealt])) if dealt else 0
        reach = self._node_reach(node, player)
        compatible = checked.values(player, 4, reach=reach)
        margin = checked.values(player, node=start, reach=reach)
        out: np.ndarray = (compatible + margin) / np.where(compatible > 0, 2 * compatible, 1)
        return out

    def node_ev(self, player: int, node: int) -> np.ndarray:
        """Each combo's EV in chips (its share of the pot) given that play reached ``node``, both
        playing the average strategy from there; NaN for a combo the opponent's range there
        leaves no deal against."""
        reach = self._node_reach(node, player)
        compatible = self.engine.values(player, 4, reach=reach)
        gain = self.engine.values(player, node=node, reach=reach)
        out: np.ndarray = np.where(compatible > 0, gain / np.where(compatible > 0, compatible, 1), np.nan)
        return out + self.game.tree.pot / 2

    def _node_reach(self, node: int, player: int) -> tuple[np.ndarray, np.ndarray]:
        """Both players' combo weights at ``node`` (``player``'s first): range weight times own
        reach, the combos holding a river card dealt on the way left out."""
        tree = self.game.tree
        out = []
        for p in (player, 1 - player):
            hands = self.game.hands[p]
            out.append(hands.weights * self.reach(node, p) * _live(hands.cards, tree.dealt(node)))
        return out[0], out[1]

    def range_share(self, player: int, per_combo: np.ndarray) -> float:
        """A per-combo figure averaged over the deals (combo weight times compatible weight)."""
        mass = self.game.hands[player].weights * self.engine.values(player, 4)
        return float(mass @ per_combo / mass.sum())

    def report(self, node: str = "", *, by: str = "class") -> NodeReport:
        """The strategy at the node the actions ``node`` reach (``''`` the root), a row per combo
        (``by='combo'``) or hand class (``'class'``), with EV and equity; the summary beside it."""
        if by not in ("class", "combo"):
            raise SolverError(f"rows are by 'class' or 'combo', not '{by}'")
        game, tree = self.game, self.game.tree
        index = tree.find(node)
        summary = self.summary()
        summary["node"] = tree.path(index) or "root"
        if tree.kind[index] != DECISION:
            summary["actions"] = tree.actions(index)  # a chance node's cards; none where the hand ends
            summary["chance"] = bool(summary["actions"])
            if summary["chance"]:
                summary["street"] = "turn" if len(tree.dealt(index)) + len(str(game.spec.get("board", "")).split()) == 3 \
                    else "river"
            return NodeReport(summary, [])
        player = int(tree.player[index])
        actions = tree.actions(index)
        summary.update(player=_PLAYERS[player], actions=actions)
        hands = game.hands[player]
        sigma = self.strategy(index)
        live = _live(hands.cards, tree.dealt(index))  # not holding a card dealt on the way
        reach = self.reach(index, player)
        mass = hands.weights * reach * self.engine.values(player, 4) * live
        ev, equity = self.node_ev(player, index), self.equity(player, index)
        if by == "combo":
            keep = np.flatnonzero(mass > 0)
            rows = [{"combo": hands.labels[h], "weight": float(hands.weights[h]),
                     "reach": float(reach[h]),
                     **{a: float(sigma[k, h]) for k, a in enumerate(actions)},
                     "ev": _number(ev[h]), "equity": _number(equity[h])} for h in keep]
        else:
            rows = _class_rows(hands.cards, mass, sigma, actions, ev, equity)
        return NodeReport(summary, rows)

    def range_text(self, node: str, player: int) -> str:
        """``player``'s range at the node the actions ``node`` reach, in cardlab's range syntax:
        each combo's weight times how often it plays to there (its own actions on the way)."""
        from cardlab.cards import parse_card_ids
        from cardlab.solver.range_text import weighted_range_text

        tree = self.game.tree
        index = tree.find(node)
        hands = self.game.hands[player]
        if (hands.cards > 51).any():
            raise SolverError("only a hold'em spot's ranges are written as range text")
        board = parse_card_ids(str(self.game.spec.get("board", "")))
        dead = board + tree.dealt(index)
        weights = hands.weights * self.reach(index, player) * ~np.isin(hands.cards, dead).any(axis=1)
        return weighted_range_text(hands.cards, weights, dead)

    def summary(self) -> dict[str, Any]:
        """The spot, the tree's size, the solve's work and its exploitability, each range's EV and equity."""
        game, e = self.game, self.engine
        return {"spot": _spot_text(game.spec), "nodes": game.tree.size, "decisions": game.tree.decision_count,
                "memory_mb": game.memory_bytes() / 2**20, "iterations": e.iterations, "seconds": e.seconds,
                "interrupted": e.interrupted,
                "exploitability_chips": e.exploitability, "exploitability_pct": e.exploitability_pct,
                "pot": game.tree.pot,
                "ev": [self.range_share(p, self.ev(p)) for p in (0, 1)],
                "equity": [self.range_share(p, self.equity(p)) for p in (0, 1)]}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the solve to ``path`` (a .npz file: the spot as JSON, the regrets and sums)."""
        if "game" not in self.game.spec:
            raise SolverError("only a game built from its spec (river_game, kuhn, leduc) can be saved")
        assert self.engine.nodes is not None
        meta = {"format": _FORMAT, "spec": self.game.spec, "iterations": self.engine.iterations,
                "seconds": self.engine.seconds, "exploitability": self.engine.exploitability,
                "locked": [int(i) for i in np.flatnonzero(self.engine.nodes[:, 5])]}
        with open(path, "wb") as handle:
            np.savez_compressed(handle, meta=np.array(json.dumps(meta)), regrets=self.engine.regrets,
                                sums=self.engine.sums)


def load_solution(path: str | os.PathLike[str] | bytes, *, name: str | None = None,
                  memory_mb: float = DEFAULT_MEMORY_MB) -> Solution:
    """A solve written by :meth:`Solution.save`: the game is rebuilt from its spec and checked
    against the saved tables. ``path`` is the file, or its bytes (an upload); ``name`` is what the
    messages call it (default: the path). A spot whose memory estimate is over ``memory_mb``, or
    tables of another size than its spot's, are refused before the tables are read.

    >>> load_solution(b"not a zip", name="mine.npz")
    Traceback (most recent call last):
    ...
    cardlab.errors.SolverError: cannot read solve file 'mine.npz': ...
    """
    import io

    label = name if name is not None else "(bytes)" if isinstance(path, bytes) else str(path)
    unreadable = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)
    try:
        archive = np.load(io.BytesIO(path) if isinstance(path, bytes) else Path(path), allow_pickle=False)
        with archive as data:
            shape, kind = _declared(data, "meta")
            if shape != () or kind.itemsize > _MAX_META:
                raise SolverError(f"solve file '{label}': its spot is not one text of at most {_MAX_META // 4:,} "
                                  f"characters")
            meta = json.loads(str(data["meta"]))
            shapes = [_declared(data, k)[0] for k in ("regrets", "sums")]
    except SolverError:
        raise
    except unreadable as error:
        raise SolverError(f"cannot read solve file '{label}': {error}") from None
    if not isinstance(meta, dict) or meta.get("format") != _FORMAT or not isinstance(meta.get("spec"), dict):
        raise SolverError(f"'{label}' is not a solve file of this version")
    _check_sizes(meta["spec"], label)
    game = _game_of(meta["spec"])
    need = game.memory_bytes() / 2**20
    if need > memory_mb:
        raise SolverError(f"solve file '{label}': its spot needs about {need:,.2f} MB, over the limit of "
                          f"{memory_mb:,g} MB")
    if any(shape != (game.table_size,) for shape in shapes):
        raise SolverError(f"solve file '{label}' does not match its spot")
    try:
        with np.load(io.BytesIO(path) if isinstance(path, bytes) else Path(path), allow_pickle=False) as data:
            regrets, sums = np.array(data["regrets"], dtype=np.float64), np.array(data["sums"], dtype=np.float64)
    except unreadable as error:
        raise SolverError(f"cannot read solve file '{label}': {error}") from None
    if regrets.shape != (game.table_size,) or sums.shape != (game.table_size,) or not np.isfinite(sums).all():
        raise SolverError(f"solve file '{label}' does not match its spot")
    iterations, seconds = meta.get("iterations"), meta.get("seconds")
    if not isinstance(iterations, int) or iterations < 0 or not isinstance(seconds, (int, float)) or seconds < 0:
        raise SolverError(f"solve file '{label}': its iterations and seconds are not numbers from 0 up")
    engine = Engine(game, regrets, sums, iterations, float(seconds))
    locked = meta.get("locked", [])  # the locked nodes play their saved strategy, as in the solve
    if not isinstance(locked, list) or not all(type(i) is int and 0 <= i < game.tree.size
                                               and game.tree.kind[i] == DECISION for i in locked):
        raise SolverError(f"solve file '{label}': its locked nodes are not decision nodes of its spot")
    for node in locked:
        engine.lock(node, Solution(engine).strategy(node))
    engine.measure()
    return Solution(engine)


def _declared(data: Any, key: str) -> tuple[tuple[int, ...], np.dtype[Any]]:
    """The shape and type the header of array ``key`` in an open .npz declares, read without the array."""
    with data.zip.open(f"{key}.npy") as handle:
        version = np.lib.format.read_magic(handle)
        reader = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, kind = reader(handle)
    return tuple(shape), np.dtype(kind)


_SIZE_KEYS = ("oop_bet", "oop_raise", "ip_bet", "ip_raise")


def _check_sizes(spec: dict[str, Any], label: str) -> None:
    """The sizes a solve file records, checked before the game is rebuilt from them: each text
    (of at most 200 characters) as ``BetSizes.parse`` reads it, a later street's only under its
    four keys and only where the spot has that street (the message names the file and the field).

    >>> _check_sizes({"game": "river", "oop_bet": "50%", "oop_raise": "", "ip_bet": "50%", "ip_raise": "",
    ...               "river": {"oop_bet": 3}}, "spot.npz")
    Traceback (most recent call last):
    ...
    cardlab.errors.SolverError: solve file 'spot.npz': it records river sizes, but a river spot has no river to come
    """
    if spec.get("game") not in ("river", "turn", "flop"):
        return
    later = {"river": spec["game"] in ("turn", "flop"), "turn": spec["game"] == "flop"}
    where: list[tuple[str, Any]] = [(k, spec.get(k)) for k in _SIZE_KEYS]
    for street, allowed in later.items():
        given = spec.get(street) or {}
        if given and not allowed:
            raise SolverError(f"solve file '{label}': it records {street} sizes, but a {spec['game']} spot has no "
                              f"{street} to come")
        if not isinstance(given, dict) or not set(given) <= set(_SIZE_KEYS) \
                or not all(isinstance(v, str) for v in given.values()):
            raise SolverError(f"solve file '{label}': its {street} sizes must be text under "
                              f"{', '.join(_SIZE_KEYS[:3])} and {_SIZE_KEYS[3]}")
        where += [(f"{street} {k}", v) for k, v in given.items()]
    if spec.get("oop_donk") is not None:
        where.append(("oop_donk", spec["oop_donk"]))
    for field_name, text in where:
        if not isinstance(text, str) or len(text) > 200:
            raise SolverError(f"solve file '{label}': its {field_name} sizes are not text of at most 200 characters")
        try:
            BetSizes.parse("", text) if field_name.endswith("raise") else BetSizes.parse(text, "")
        except SolverError as error:
            raise SolverError(f"solve file '{label}': its {field_name} sizes: {error}") from None


def _game_of(spec: dict[str, Any]) -> Game:
    from cardlab.solver.games import kuhn, leduc

    if spec.get("game") in ("kuhn", "leduc"):
        return kuhn() if spec["game"] == "kuhn" else leduc()
    if spec.get("game") not in ("river", "turn", "flop"):
        raise SolverError("a solve file names a river, turn or flop spot, kuhn or leduc")
    try:
        return river_game(spec["oop"], spec["ip"], spec["board"], pot=float(spec["pot"]), stack=float(spec["stack"]),
                          oop_bet=spec["oop_bet"], oop_raise=spec["oop_raise"], ip_bet=spec["ip_bet"],
                          ip_raise=spec["ip_raise"], allin_threshold=float(spec["allin_threshold"]),
                          max_raises=int(spec["max_raises"]), river=spec.get("river") or None,
                          turn=spec.get("turn") or None, suits=bool(spec.get("suits", True)),
                          oop_donk=spec.get("oop_donk"), rake=float(spec.get("rake", 0.0)),
                          rake_cap=float(spec.get("rake_cap", 0.0)))
    except (KeyError, TypeError) as error:
        raise SolverError(f"a solve file's spot lacks {error}") from None
    except CardlabError:
        raise
    except ValueError as error:  # a pot, stack or limit that is not a number
        raise SolverError(f"a solve file's spot has a value that is not a number ({error})") from None


def _number(value: float) -> float | None:
    """A figure for the rows: None where it is not defined (JSON has no NaN)."""
    return float(value) if np.isfinite(value) else None


def _live(cards: np.ndarray, dealt: list[int]) -> np.ndarray:
    """The combos holding none of the cards ``dealt``."""
    out: np.ndarray = np.asarray(~np.isin(cards, dealt).any(axis=1))
    return out


def _spot_text(spec: dict[str, Any]) -> str:
    if spec.get("game") not in ("river", "turn", "flop"):
        return str(spec.get("game", "game"))
    rake = float(spec.get("rake", 0.0))
    cap = float(spec.get("rake_cap", 0.0))
    return (f"{spec['game']} spot: OOP {spec['oop']}, IP {spec['ip']}, board {spec['board']}, pot {spec['pot']:g}, "
            f"stack {spec['stack']:g}" + (f", rake {100 * rake:g}%" + (f" (cap {cap:g})" if cap else "") if rake else ""))


def _class_rows(cards: np.ndarray, mass: np.ndarray, sigma: np.ndarray, actions: list[str], ev: np.ndarray,
                equity: np.ndarray) -> list[dict[str, Any]]:
    real: np.ndarray = np.asarray((cards < 52).all(axis=1))
    classes = np.where(real, combo_classes(np.where(real[:, None], cards, 0)), -1)
    rows = []
    for c in sorted(set(int(x) for x in classes[mass > 0]), key=lambda c: (c < 0, c)):
        members = (classes == c) & (mass > 0)
        m = mass[members] / mass[members].sum()
        known = np.isfinite(ev[members])  # NaN: no deal left against the combo at this node
        rows.append({"class": class_label(c) if c >= 0 else "other", "combos": int(members.sum()),
                     **{a: float(sigma[k, members] @ m) for k, a in enumerate(actions)},
                     "ev": _number(ev[members][known] @ m[known] / m[known].sum()) if known.any() else None,
                     "equity": _number(equity[members][known] @ m[known] / m[known].sum()) if known.any() else None})
    return rows


@dataclass(frozen=True)
class NodeReport(JsonText):
    """The strategy at one node (``rows``) and the solve's ``summary``; a command's result object."""

    summary: dict[str, Any]
    rows: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """The summary and the rows, JSON-ready."""
        return {**self.summary, "rows": self.rows}

    def to_csv(self) -> str:
        """A line per row: the combo or class, the action frequencies, EV and equity."""
        return csv_rows(self.rows, ["combo", "ev", "equity"])

    def table(self) -> str:
        """The summary lines, then the strategy table."""
        s = self.summary
        lines = [s["spot"],
                 f"tree: {s['nodes']:,} nodes ({s['decisions']:,} decisions), memory about {s['memory_mb']:.2f} MB; "
                 f"{s['iterations']:,} iterations in {s['seconds']:.2f} s" + (" (interrupted)" if s["interrupted"] else ""),
                 f"exploitability: {s['exploitability_pct']:.4f}% of the pot ({s['exploitability_chips']:.4g} chips)",
                 f"EV (share of the pot): OOP {s['ev'][0]:.4f}, IP {s['ev'][1]:.4f}; "
                 f"equity: OOP {percent(s['equity'][0])}, IP {percent(s['equity'][1])}",
                 f"node {s['node']}" + (f": {s['player']} to act" if s.get("player") else
                                        f": the {s.get('street', 'river')} card is dealt ({len(s['actions'])} cards; add one to the "
                                        f"node, e.g. '{s['node']},{s['actions'][-1]}')" if s.get("chance") else
                                        ": the hand is over")]
        if not self.rows:
            return "\n".join(lines)
        key = "combo" if "combo" in self.rows[0] else "class"
        actions = s["actions"]
        header = [key, *(["reach"] if key == "combo" else ["combos"]), *actions, "EV", "equity"]
        body = [[r[key], f"{r['reach']:.3f}" if key == "combo" else str(r["combos"]),
                 *(percent(r[a], 1) for a in actions), "-" if r["ev"] is None else f"{r['ev']:.3f}",
                 "-" if r["equity"] is None else percent(r["equity"], 1)] for r in self.rows]
        return "\n".join(lines) + "\n\n" + text_table(header, body)
