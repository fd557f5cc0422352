"""Postflop solver: ``cardlab poker solve`` from a page (the same calls,
:func:`cardlab.solver.river_game` and :meth:`cardlab.solver.Solution.solve`): two ranges, the
board (a river or turn spot; a flop spot when its tree is small enough to solve within the page's
time limit), pot, stack and bet sizes (per street and per player, donk bets), rake, the limits,
node locks, or a saved solve to show instead (:mod:`cardlab.web.pages.solve_spot` reads the form);
the memory estimate and the exploitability beside the answer, each range's EV and equity, the
strategy at the chosen node as a table and on the 13 x 13 grid coloured by how often each class
takes the first action, a selector of other nodes (a turn or river card's too), a form locking
the node shown, and the solve file to download."""

from __future__ import annotations

from typing import Any

from cardlab.errors import WebInputError
from cardlab.web.page import Answer, JobSpec, Page
from cardlab.web.pages.solve_spot import MAX_SECONDS, MEMORY_MB, command_line, form_fields, read_form
from cardlab.web.uploads import Form

__all__ = ["PAGE", "compute", "strategy_grid", "node_choices", "lock_text", "MAX_SECONDS", "MEMORY_MB",
           "FLOP_MEMORY_MB", "INLINE_SOLVE_FILE"]

#: The largest flop spot a page solves (MB of the memory estimate): QQ+, AK against JJ-99, AQs,
#: one bet size, no raises, reached 0.3% of the pot in 10 s on the loaded 2-core machine; its
#: estimate was about 70 MB with 8-byte tables and is about 35 MB with the 4-byte ones (the limit
#: follows the tables' size so the page still refuses what it cannot solve in its time).
FLOP_MEMORY_MB = 50.0
#: Seconds Cancel waits for the partial solve: the engine sees Ctrl-C between two runs of about a
#: second, then measures the exploitability (a best response) and the page reports the node.
CANCEL_GRACE = 6.0
#: The decision nodes offered by the node selector (a big tree lists its first ones; any path can be typed).
MAX_NODES_LISTED = 200
#: The largest loaded solve file the answer's node selector carries along (bytes, as base64 in the form).
INLINE_SOLVE_FILE = 4 * 1024 * 1024


def prepare(form: Form) -> JobSpec:
    """The form as a solve job (:func:`~cardlab.web.pages.solve_spot.read_form`): numbers and
    sizes checked as the command line checks them; the ranges, board, node and locks by the
    library in the job (its messages name the bad token)."""
    kwargs = read_form(form)
    title = f"showing {kwargs['saved'][1][:40]}" if kwargs["saved"] else f"solving {kwargs['spot']['board'][:20]}"
    return JobSpec("cardlab.web.pages.solve:compute", kwargs, title, time_limit=MAX_SECONDS + 30,
                   cancel_grace=CANCEL_GRACE)


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


def lock_text(node: str, actions: list[str], rows: list[dict[str, Any]]) -> str:
    """The lock (``--lock``'s text) that the answer's "Lock this node" form starts from: each
    action's share over the classes at the node, weighted by their combos, in hundredths summing
    to 1 (the largest takes the rounding), for the user to change.

    >>> lock_text("X", ["X", "B5"], [{"combos": 6, "X": 0.25, "B5": 0.75}, {"combos": 2, "X": 1.0, "B5": 0.0}])
    'X=X:0.44,B5:0.56'
    """
    total = sum(r["combos"] for r in rows) or 1
    shares = [round(100 * sum(r["combos"] * r[a] for r in rows) / total) for a in actions]
    top = max(range(len(actions)), key=lambda k: shares[k])
    shares[top] += 100 - sum(shares)
    return f"{node}=" + ",".join(f"{a}:{v / 100:g}" for a, v in zip(actions, shares))


def _solved(progress: Any, spot: dict[str, Any], index_of: str, kwargs: dict[str, Any]) -> tuple[Any, str, bytes | None]:
    """The spot solved as the command solves it (the memory line first, the locks by the CLI's
    parser); the solution, the memory line and the solve file (None when too large to offer)."""
    import os
    import tempfile

    from cardlab.cards import parse_card_ids
    from cardlab.cli.output import about_option
    from cardlab.cli.poker_solve import apply_lock, memory_line
    from cardlab.solver import Solution, river_game
    from cardlab.solver.engine import Engine, solve
    from cardlab.web.pages.solve_spot import MAX_SOLVE_FILE

    game = river_game(**spot)
    game.tree.find(index_of)  # a bad node is refused before the solve
    megabytes = game.memory_bytes() / 2**20
    if len(parse_card_ids(spot["board"])) == 3 and megabytes > FLOP_MEMORY_MB:
        raise WebInputError(f"Board: this flop spot needs about {megabytes:,.0f} MB, more than the page solves in "
                            f"{MAX_SECONDS:g} s ({FLOP_MEMORY_MB:g} MB): solve it with {command_line(kwargs)}")
    line = memory_line(game, kwargs["memory_mb"])
    progress(0.05, line)
    engine = Engine.new(game, kwargs["memory_mb"])
    for text in kwargs["locks"]:
        with about_option("Locks"):
            apply_lock(engine, text)
    solve(game, target=kwargs["target"], time_limit=kwargs["time_limit"], max_iterations=kwargs["max_iterations"],
          engine=engine)
    solution = Solution(engine)
    if engine.interrupted or engine.regrets.nbytes + engine.sums.nbytes > MAX_SOLVE_FILE:
        return solution, line, None  # cancelled (no downloads then), or the tables alone over what the page reads back
    handle, path = tempfile.mkstemp(suffix=".npz")
    try:
        os.close(handle)
        solution.save(path)
        data: bytes | None = None
        if os.path.getsize(path) <= MAX_SOLVE_FILE:
            with open(path, "rb") as saved:
                data = saved.read()
    finally:
        os.unlink(path)
    return solution, line, data


def compute(progress: Any, *, spot: dict[str, Any] | None, node: str, target: float, time_limit: float,
            max_iterations: int, memory_mb: float, locks: list[str], saved: tuple[bytes, str] | None) -> Answer:
    """The solve (or the saved solve) and the node's strategy; the CLI's text, CSV and JSON
    (``--node``, ``--by class``), and the solve file (``--save``)."""
    from cardlab.solver import load_solution
    from cardlab.web.pages.solve_spot import MAX_SOLVE_FILE
    from cardlab.web.answers import Cell, FigureTable, cli_text, figure_table, partial_note, percent
    from cardlab.web.render import fragment

    kwargs = {"spot": spot, "node": node, "target": target, "time_limit": time_limit,
              "max_iterations": max_iterations, "memory_mb": memory_mb, "locks": locks, "saved": saved}
    data: bytes | None
    if saved is not None:
        progress(0.05, f"reading {saved[1][:40]}")
        solution, line, data = load_solution(saved[0], name=saved[1], memory_mb=memory_mb), "", saved[0]
    else:
        assert spot is not None
        solution, line, data = _solved(progress, spot, node, kwargs)
    tree, spec = solution.game.tree, solution.game.spec
    index = tree.find(node)
    report = solution.report(node)
    s = report.summary
    actions: list[str] = list(s.get("actions", [])) if s.get("player") else []
    pot, stack = spec.get("pot", tree.pot), spec.get("stack", "")
    ranges = figure_table(FigureTable(
        f"Each range over the whole spot (pot {pot:g}, stack {stack:g})" if stack != "" else "Each range over the whole spot",
        ("player", "EV", "share of the pot", "equity", "range"),
        [(Cell(name), Cell(f"{s['ev'][p]:.4f}", key=False), Cell(percent(s["ev"][p] / tree.pot)),
          Cell(percent(s["equity"][p])), Cell(str(spec.get(name.lower(), "")))) for p, name in enumerate(("OOP", "IP"))],
        frozenset({1, 2, 3}), "ranges"))
    strategy = ""
    if actions:
        body = [(Cell(r["class"]), *(Cell(percent(r[a], 1), key=(k == 0)) for k, a in enumerate(actions)),
                 Cell(str(r["combos"])), Cell("-" if r["ev"] is None else f"{r['ev']:.3f}"),
                 Cell("-" if r["equity"] is None else percent(r["equity"], 1))) for r in report.rows]
        strategy = figure_table(FigureTable(f"Node {s['node']}: {s['player']} to act, each class's strategy",
                                            ("class", *actions, "combos", "EV", "equity"), body,
                                            frozenset(range(1, len(actions) + 4)), "strategy"))
    text = report.table()
    command = command_line(kwargs)
    fields = form_fields(kwargs) if saved is None or len(saved[0]) <= INLINE_SOLVE_FILE else None
    locks_now = [lock for lock in locks if lock.rpartition("=")[0].strip() != node]
    lock = "\n".join([*locks_now, lock_text(node, actions, report.rows)]) if actions and saved is None else ""
    downloads = {"solve.csv": report.to_csv().encode(), "solve.json": report.to_json().encode()}
    if data is not None and saved is None:
        downloads["solve.npz"] = data
    # cancelled: the solve so far, marked partial as the CLI marks it after Ctrl-C
    partial = partial_note(f"{s['iterations']:,} iterations were run; the strategy and exploitability are those "
                           "of the solve so far") if s["interrupted"] else ""
    html = partial + fragment("solve_answer.html", s=s, ranges=ranges, strategy=strategy, memory=line,
                              grid=strategy_grid(report.rows, actions) if actions else None,
                              first=actions[0] if actions else None, nodes=node_choices(tree, index), node=node,
                              fields=fields, lock=lock, loaded=saved[1] if saved else None,
                              offered="solve.npz" in downloads, limit=MAX_SOLVE_FILE // 2**20,
                              exploitability=f"{s['exploitability_pct']:.4f}%") \
        + cli_text(text, command)
    return Answer(html, downloads, {"table": text, "json": report.to_dict()})


PAGE = Page(
    slug="solve", title="Postflop solver",
    summary="A heads-up no-limit hold'em river or turn spot (a small flop spot too) solved (Discounted CFR): each class's "
            "strategy at any node, on the range grid too, each range's EV and equity, and the exploitability beside the "
            "answer; sizes per street, donk bets, rake, node locking, solves saved and loaded.",
    template="solve.html", prepare=prepare, uploads=("file",),
    defaults={"oop": "22+, A2s+, K9s+, QTs+, JTs, ATo+, KJo+", "ip": "22+, A2s+, KTs+, QTs+, JTs, T9s, AJo+, KQo",
              "board": "Ks 9d 5c 2h 3s", "pot": "10", "stack": "50", "oop_bet": "33%, 75%", "oop_raise": "60%",
              "ip_bet": "33%, 75%", "ip_raise": "60%", "node": "", "target": "0.3", "max_iterations": "100000",
              "time_limit": f"{MAX_SECONDS:g}", "memory_limit": f"{MEMORY_MB:g}", "allin_threshold": "0.15",
              "max_raises": "3", "rake": "0", "rake_cap": "0"},
)
