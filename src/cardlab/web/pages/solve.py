"""Postflop solver: ``cardlab poker solve`` from a page (the same calls,
:func:`cardlab.solver.river_game` and :meth:`cardlab.solver.Solution.solve`): two ranges, the
board (a river or turn spot; a flop spot when its tree is small enough to solve within the page's
time limit), pot, stack and bet sizes; the exploitability beside the answer, each range's EV and
equity, the strategy at the chosen node as a table and on the 13 x 13 grid coloured by how often
each class takes the first action, and a selector of other nodes (a turn or river card's too)."""

from __future__ import annotations

from typing import Any

from cardlab.errors import WebInputError
from cardlab.web.page import Answer, JobSpec, Page, field_number, field_text
from cardlab.web.uploads import Form

__all__ = ["PAGE", "compute", "strategy_grid", "node_choices", "MAX_SECONDS", "MEMORY_MB", "FLOP_MEMORY_MB"]

#: The longest a page's solve runs (the CLI's --time-limit); the answer so far is shown after it.
MAX_SECONDS = 20.0
#: The largest tree a page solves (the CLI's --memory-limit, MB): river spots need far less.
MEMORY_MB = 512.0
#: The largest flop spot a page solves (MB of the memory estimate): about 70 MB (QQ+, AK against
#: JJ-99, AQs, one bet size, no raises) reached 0.3% of the pot in 10 s on the loaded 2-core machine.
FLOP_MEMORY_MB = 100.0
#: Seconds Cancel waits for the partial solve: the engine sees Ctrl-C between two runs of about a
#: second, then measures the exploitability (a best response) and the page reports the node.
CANCEL_GRACE = 6.0
#: The decision nodes offered by the node selector (a big tree lists its first ones; any path can be typed).
MAX_NODES_LISTED = 200
#: The size fields and their labels (the CLI's --oop-bet, --oop-raise, --ip-bet, --ip-raise).
_SIZES = {"oop_bet": "OOP bets", "oop_raise": "OOP raises", "ip_bet": "IP bets", "ip_raise": "IP raises"}


def _decimal(form: Form, name: str, label: str, low: float, high: float, default: float | None, *,
             low_open: bool = False) -> float:
    import argparse

    from cardlab.cli.options import decimal_number

    text = field_text(form, name, label, required=default is None, max_length=40)
    if not text and default is not None:
        return default
    try:
        return float(decimal_number(low, high, low_open=low_open)(text))
    except argparse.ArgumentTypeError as error:
        raise WebInputError(f"{label}: {error}") from None


def prepare(form: Form) -> JobSpec:
    """The form as a solve job: numbers checked as the command line checks them; the ranges,
    board and sizes by the library (its messages name the bad token)."""
    kwargs: dict[str, Any] = {
        "oop": field_text(form, "oop", "OOP range", required=True, max_length=2_000),
        "ip": field_text(form, "ip", "IP range", required=True, max_length=2_000),
        "board": field_text(form, "board", "Board", required=True, max_length=60),
        "pot": _decimal(form, "pot", "Pot", 0, 1e9, None, low_open=True),
        "stack": _decimal(form, "stack", "Stack", 0, 1e9, None),
        **{k: field_text(form, k, label, max_length=200) for k, label in _SIZES.items()},
        "node": field_text(form, "node", "Node", max_length=400),
        "target": _decimal(form, "target", "Target", 0, 100, 0.3),
        "max_iterations": field_number(form, "max_iterations", "Iterations", 0, 10**6, default=100_000),
    }
    return JobSpec("cardlab.web.pages.solve:compute", kwargs, f"solving {kwargs['board'][:20]}",
                   time_limit=MAX_SECONDS + 30, cancel_grace=CANCEL_GRACE)


def strategy_grid(rows: list[dict[str, Any]], actions: list[str]) -> list[list[dict[str, Any]]]:
    """The 13 x 13 grid of a node's rows by class (:meth:`~cardlab.solver.Solution.report`):
    each class in the range coloured by the share of the first action (``band`` 0-9), the share
    in the cell (``equity``: the text the equity page's grid shows) and every action's share in its tooltip; the classes not there left blank.

    >>> g = strategy_grid([{"class": "AA", "combos": 6, "X": 0.25, "B5": 0.75}], ["X", "B5"])
    >>> g[0][0]["equity"], g[0][0]["band"], g[0][0]["title"], g[0][1]["equity"]
    ('25%', 2, 'AA: X 25.0%, B5 75.0% (6 combos)', None)
    """
    from cardlab.poker.ranges import class_label

    by_class = {r["class"]: r for r in rows}
    grid = []
    for r in range(13):
        cells: list[dict[str, Any]] = []
        for c in range(13):
            label = class_label(r * 13 + c)
            row = by_class.get(label)
            if row is None or not actions:
                cells.append({"label": label, "equity": None, "band": None, "title": label})
                continue
            share = float(row[actions[0]])
            said = ", ".join(f"{a} {row[a]:.1%}" for a in actions)
            cells.append({"label": label, "equity": f"{share:.0%}", "band": min(9, int(share * 10)),
                          "title": f"{label}: {said} ({row['combos']} combos)"})
        grid.append(cells)
    return grid


def node_choices(tree: Any, index: int) -> list[str]:
    """The paths the node selector offers: on a river tree every decision node (the first
    :data:`MAX_NODES_LISTED`); on a turn or flop tree the way back to the root, the node ``index``
    and the nodes one step on, with a chance node's cards (its suit-isomorphic cards left out:
    each is solved as its twin, and the path field takes it to say so).

    >>> from cardlab.solver import river_game
    >>> g = river_game("AA", "KK", "Ah 7c 5d 2s", pot=10, stack=10, oop_bet="100%", ip_bet="", oop_raise="", ip_raise="")
    >>> node_choices(g.tree, g.tree.find("X"))[:4]
    ['', 'X', 'X,X', 'X,X,2c']
    """
    from cardlab.solver.tree import CHANCE, DECISION, ISO

    if not (tree.kind == CHANCE).any():
        return [tree.path(i) for i in range(tree.size) if tree.kind[i] == DECISION][:MAX_NODES_LISTED]
    way, at = [index], index
    while at > 0:
        at = int(tree.parent[at])
        way.append(at)
    out = way[::-1]
    for kid in tree.kids(index):
        out.append(kid)
        if tree.kind[kid] == CHANCE:
            out.extend(k for k in tree.kids(kid) if tree.kind[k] != ISO)
    return [tree.path(i) for i in out if i == index or tree.kind[i] in (DECISION, CHANCE)][:MAX_NODES_LISTED]


def compute(progress: Any, *, oop: str, ip: str, board: str, pot: float, stack: float, oop_bet: str,
            oop_raise: str, ip_bet: str, ip_raise: str, node: str, target: float, max_iterations: int) -> Answer:
    """The solve and the node's strategy; the CLI's text, CSV and JSON (``--node``, ``--by class``)."""
    from cardlab.cards import parse_card_ids
    from cardlab.solver import Solution, river_game
    from cardlab.solver.engine import Engine, solve
    from cardlab.web.answers import Cell, FigureTable, cli_text, figure_table, partial_note, percent
    from cardlab.web.render import fragment

    game = river_game(oop, ip, board, pot=pot, stack=stack, oop_bet=oop_bet, oop_raise=oop_raise, ip_bet=ip_bet,
                      ip_raise=ip_raise)
    sizes = {"oop_bet": oop_bet, "oop_raise": oop_raise, "ip_bet": ip_bet, "ip_raise": ip_raise}
    tree = game.tree
    index = tree.find(node)  # a bad node is refused before the solve
    argv = ["poker", "solve", "--oop", oop, "--ip", ip, "--board", board, "--pot", f"{pot:g}", "--stack", f"{stack:g}",
            *(x for k in _SIZES for x in (f"--{k.replace('_', '-')}", sizes[k])),
            *(["--node", node] if node else []), "--target", f"{target:g}",
            *(["--max-iterations", str(max_iterations)] if max_iterations != 100_000 else [])]
    command = "cardlab " + " ".join(_quote(a) for a in argv)
    megabytes = game.memory_bytes() / 2**20
    if len(parse_card_ids(board)) == 3 and megabytes > FLOP_MEMORY_MB:
        raise WebInputError(f"Board: this flop spot needs about {megabytes:,.0f} MB, more than the page solves in "
                            f"{MAX_SECONDS:g} s ({FLOP_MEMORY_MB:g} MB): solve it with {command}")
    progress(0.05, f"solving a tree of {tree.size:,} nodes, {len(game.hands[0]):,} x {len(game.hands[1]):,} combos")
    engine = Engine.new(game, MEMORY_MB)
    solve(game, target=target, time_limit=MAX_SECONDS, max_iterations=max_iterations, engine=engine)
    report = Solution(engine).report(node)
    s = report.summary
    actions: list[str] = list(s.get("actions", [])) if s.get("player") else []
    ranges = figure_table(FigureTable(
        f"Each range over the whole spot (pot {pot:g}, stack {stack:g})", ("player", "EV", "share of the pot", "equity", "range"),
        [(Cell(name), Cell(f"{s['ev'][p]:.4f}", key=False), Cell(percent(s["ev"][p] / pot)), Cell(percent(s["equity"][p])),
          Cell(spec)) for p, (name, spec) in enumerate((("OOP", oop), ("IP", ip)))],
        frozenset({1, 2, 3}), "ranges"))
    strategy = ""
    if actions:
        body = [(Cell(r["class"]), *(Cell(percent(r[a], 1), key=(k == 0)) for k, a in enumerate(actions)),
                 Cell(str(r["combos"])), Cell("-" if r["ev"] is None else f"{r['ev']:.3f}"),
                 Cell("-" if r["equity"] is None else percent(r["equity"], 1))) for r in report.rows]
        strategy = figure_table(FigureTable(f"Node {s['node']}: {s['player']} to act, each class's strategy",
                                            ("class", *actions, "combos", "EV", "equity"), body,
                                            frozenset(range(1, len(actions) + 4)), "strategy"))
    nodes = node_choices(tree, index)
    text = report.table()
    spot = {"oop": oop, "ip": ip, "board": board, "pot": f"{pot:g}", "stack": f"{stack:g}", "target": f"{target:g}",
            "max_iterations": str(max_iterations), **sizes}
    # cancelled: the solve so far, marked partial as the CLI marks it after Ctrl-C
    partial = partial_note(f"{s['iterations']:,} iterations were run; the strategy and exploitability are those "
                           "of the solve so far") if s["interrupted"] else ""
    html = partial + fragment("solve_answer.html", s=s, ranges=ranges, strategy=strategy,
                              grid=strategy_grid(report.rows, actions) if actions else None,
                              first=actions[0] if actions else None, nodes=nodes, node=node, spot=spot,
                              exploitability=f"{s['exploitability_pct']:.4f}%") \
        + cli_text(text, command)
    return Answer(html, {"solve.csv": report.to_csv().encode(), "solve.json": report.to_json().encode()},
                  {"table": text, "json": report.to_dict()})


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


PAGE = Page(
    slug="solve", title="Postflop solver",
    summary="A heads-up no-limit hold'em river or turn spot (a small flop spot too) solved (Discounted CFR): each class's strategy at any node, "
            "on the range grid too, each range's EV and equity, and the exploitability beside the answer.",
    template="solve.html", prepare=prepare,
    defaults={"oop": "22+, A2s+, K9s+, QTs+, JTs, ATo+, KJo+", "ip": "22+, A2s+, KTs+, QTs+, JTs, T9s, AJo+, KQo",
              "board": "Ks 9d 5c 2h 3s", "pot": "10", "stack": "50", "oop_bet": "33%, 75%", "oop_raise": "60%",
              "ip_bet": "33%, 75%", "ip_raise": "60%", "node": "", "target": "0.3",
              "max_iterations": "100000"},
)
