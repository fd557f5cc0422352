"""Casino table games: ``cardlab casino analyse GAME`` from a page (the same call,
:func:`cardlab.casino.analysis.analyse`): a built-in game or an uploaded TOML game file; each
bet's house edge first (its exact fraction beside it), the element of risk, the standard
deviation, the optimal strategy as rules, and each bet's outcomes with their exact probabilities."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from cardlab.casino.table_rules import TIES
from cardlab.errors import WebInputError
from cardlab.web.page import Answer, JobSpec, Page, field_choice, field_text
from cardlab.web.uploads import Form

__all__ = ["PAGE", "compute", "bets_table", "outcome_table"]

def _games() -> tuple[str, ...]:
    from cardlab.casino.game import builtin_games

    return tuple(builtin_games())


def prepare(form: Form) -> JobSpec:
    """The form as an analysis job: the uploaded game file when one is given (read by the
    library's own reader, which names the file in its messages), else the chosen built-in game."""
    from cardlab.casino.game import read_game

    ties = field_choice(form, "ties", "Ties", TIES)
    upload = form.files.get("file")
    posted = form.get("game_file")  # the API's game description: TOML text in a JSON body
    if posted or (upload is not None and upload.data):
        if posted:
            name = field_text(form, "game_file_name", "Game file name", max_length=200) or "game.toml"
            data = posted.encode("utf-8")
        else:
            assert upload is not None
            name, data = upload.filename or "game.toml", upload.data
        read_game(data, name)  # refused here, at once, with the command line's message (size, TOML, rules)
        return JobSpec("cardlab.web.pages.casino:compute", {"game": None, "data": data, "name": name, "ties": ties},
                       f"analysing {name}")
    games = _games()
    game = field_choice(form, "game", "Game", games)
    return JobSpec("cardlab.web.pages.casino:compute", {"game": game, "data": None, "name": None, "ties": ties},
                   f"analysing {game}")


def _ratio(value: Fraction) -> str:
    return f"{value.numerator:,}/{value.denominator:,}"


def bets_table(result: Any) -> str:
    """Each bet of a :class:`~cardlab.casino.result.GameAnalysis` as a row: the house edge first
    (the exact expected loss in its tooltip and a column of its own), element of risk, standard
    deviation and the average bet."""
    from cardlab.web.answers import Cell, FigureTable, figure_table, percent

    rows = [(Cell(b.name), Cell(percent(b.house_edge, 4), _ratio(-b.expected), key=True),
             Cell(percent(b.element_of_risk, 4), _ratio(-b.expected / b.average_bet)), Cell(f"{b.sd:.4f}"),
             Cell(f"{float(b.average_bet):.4f}", _ratio(b.average_bet)), Cell(_ratio(-b.expected)))
            for b in result.bets]
    columns = ("bet", "house edge", "element of risk", "standard deviation", "average bet", "exact edge")
    return figure_table(FigureTable(f"{result.game}: each bet under the optimal strategy", columns, rows,
                                    frozenset(range(1, len(columns))), "bets"))


def outcome_table(bet: Any, ident: str) -> str:
    """A bet's outcomes (:class:`~cardlab.casino.result.BetAnalysis`): the probability of each
    first (6 decimals, as the command line prints it; the exact fraction beside it), the count and
    what it nets per unit.

    >>> from cardlab.casino.result import BetAnalysis, OutcomeRow
    >>> bet = BetAnalysis("Pair Plus", Fraction(-512, 22100), Fraction(1), 0.0, 22100,
    ...                   (OutcomeRow("pair", 3744, Fraction(1)), OutcomeRow("nothing", 18356, Fraction(-1))))
    >>> html = outcome_table(bet, "pp")
    >>> 'data-key="0.169412"' in html, 'title="72/425"' in html
    (True, True)
    """
    from cardlab.web.answers import Cell, FigureTable, figure_table

    rows = [(Cell(o.name), Cell(f"{o.count / bet.total:.6f}", _ratio(Fraction(o.count, bet.total)), key=True),
             Cell(_ratio(Fraction(o.count, bet.total))), Cell(f"{o.count:,}"),
             Cell("varies" if o.net is None else f"{float(o.net):+g}", None if o.net is None else str(o.net)))
            for o in bet.outcomes]
    rows.append((Cell("total"), Cell("1"), Cell("1"), Cell(f"{bet.total:,}"), Cell("")))
    return figure_table(FigureTable(f"{bet.name}: its outcomes", ("outcome", "probability", "exact", "count", "net"),
                                    rows, frozenset({1, 2, 3, 4}), ident, sortable=False))  # the total last


def compute(progress: Any, *, game: str | None, data: bytes | None, name: str | None, ties: str) -> Answer:
    """The bets, the strategy and the outcome tables; the CLI's text, CSV and JSON."""
    from cardlab.casino.analysis import analyse
    from cardlab.casino.game import read_game
    from cardlab.web.answers import cli_text
    from cardlab.web.render import fragment

    if game is None:
        if data is None or name is None:
            raise WebInputError("Game file: choose a TOML game file to upload, or a built-in game")
        result = analyse(read_game(data, name), ties=ties)
        argv = f"cardlab casino analyse {name}"
    else:
        result = analyse(game, ties=ties)
        argv = f"cardlab casino analyse {game}"
    if ties != "fold":
        argv += f" --ties {ties}"
    text = result.table()
    decides = bool(result.strategy) and (len(result.strategy) > 1 or "no decisions" not in result.strategy[0])
    outcomes = [outcome_table(b, f"outcomes-{i}") for i, b in enumerate(result.bets)]
    html = fragment("casino_answer.html", r=result, bets=bets_table(result), decides=decides,
                    outcomes=zip(result.bets, outcomes), command=argv) + cli_text(text, argv)
    return Answer(html, {"casino.csv": result.to_csv().encode(), "casino.json": result.to_json().encode()},
                  {"table": text, "json": result.to_dict()})


PAGE = Page(
    slug="casino", title="Casino table games",
    summary="A table game's exact house edge, element of risk, standard deviation and optimal strategy: "
            "Three Card Poker, Let It Ride, Mississippi Stud, baccarat, casino war, or your own TOML game file.",
    template="casino.html", prepare=prepare, uploads=("file",),
    defaults={"game": "three-card-poker", "ties": "fold"},
)
