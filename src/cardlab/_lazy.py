"""Package re-exports imported on first use (PEP 562), so that importing a package (and starting
the command line) does not load numpy and every engine behind the names it lists.

:data:`EXPORTS` is the one table of them: for each lazily re-exporting package, each public name
and the module that defines it. The package's ``__all__`` lists the same names (and its own), its
``TYPE_CHECKING`` imports give mypy the same ones, and ``tests/test_exports.py`` checks that the
three agree and that every module named here really defines the name.

>>> getattr_, dir_ = lazy_exports("demo", {"sqrt": "math"})
>>> getattr_("sqrt")(9.0)
3.0
>>> EXPORTS["cardlab.poker"]["poker_odds"]
'cardlab.poker.odds'
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

__all__ = ["lazy_exports", "EXPORTS"]


def _names(module: str, *names: str) -> dict[str, str]:
    return dict.fromkeys(names, module)


#: package -> {public name -> the module defining it}; imported on first use.
EXPORTS: dict[str, dict[str, str]] = {
    "cardlab": {
        **_names("cardlab.cards", "Card", "Rank", "Suit", "parse_cards", "format_cards"),
        **_names("cardlab.dealing", "Deck", "Draw", "Reels"),
        **_names("cardlab.distribution", "Distribution", "Simulation"),
        **_names("cardlab.tabulation", "Tabulation"),
        **_names("cardlab.engine", "exact", "simulate", "tabulate"),
        **_names("cardlab.errors", "CardlabError", "CardError", "DeckError", "SchemeError", "TooLargeError"),
    },
    # ``cardlab.bridge.tables`` (``cardlab bridge hcp``) does not load the deal generator, and
    # ``cardlab.bridge.dd`` does not load the hand tables.
    "cardlab.bridge": {
        **_names("cardlab.bridge.conditional", "given_points"),
        **_names("cardlab.bridge.deals", "Deal", "parse_constraint", "parse_pbn_deal", "random_deals"),
        **_names("cardlab.bridge.features", "Joint", "LongestSuit", "Pattern", "Points", "SuitLengths"),
        **_names("cardlab.bridge.schemes", "SCHEMES", "PointScheme", "parse_scheme"),
        **_names("cardlab.bridge.tables", "points_table", "shape_table", "joint_table"),
        **_names("cardlab.bridge.dd", "DDTable", "DDTables", "dd_table", "dd_tables"),
        **_names("cardlab.bridge.dd_sim", "makes", "leads", "MakesResult", "LeadResult"),
        **_names("cardlab.bridge.strategy", "compare_strategies", "StrategyResult"),
        **_names("cardlab.bridge.splits", "suit_split", "card_layouts", "SplitTable"),
        **_names("cardlab.bridge.boardsets", "deal_board_set", "BoardSet", "BoardSetResult", "parse_mix"),
        **_names("cardlab.bridge.levels", "parse_levels", "script_levels", "natural_frequencies", "LevelReport"),
    },
    # ``cardlab poker rank`` loads the ranking, not the odds and equity engines. No name here may
    # be a submodule's name: importing ``cardlab.poker.equity`` binds the module to that
    # attribute, so the function ``equity`` is imported from ``cardlab.poker.equity`` itself.
    "cardlab.poker": {
        **_names("cardlab.poker.comparison", "Comparison", "HandValue", "compare", "hand_value"),
        **_names("cardlab.poker.equity", "game_named", "parse_players"),
        **_names("cardlab.poker.equity_result", "EquityResult", "PlayerEquity"),
        **_names("cardlab.poker.evaluator", "evaluate", "hand_array", "parse_hand", "strengths"),
        **_names("cardlab.poker.odds", "PokerCategory", "category_counts", "category_odds", "poker_odds"),
        **_names("cardlab.poker.ranking", "RankedHands", "rank_hands"),
        **_names("cardlab.poker.ranges", "Range", "parse_range"),
        **_names("cardlab.poker.rules", "SHORT_DECK", "STANDARD", "Category", "Rules", "rules_named"),
    },
}


def lazy_exports(package: str, where: dict[str, str], namespace: dict[str, Any] | None = None
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module ``__getattr__`` and ``__dir__`` giving each name of ``where`` (name -> module) from
    its module when first asked for; ``namespace`` (the package's ``globals()``) keeps the value
    once loaded and adds its own names to ``dir()``."""

    def get(name: str) -> Any:
        if name in where:
            value = getattr(importlib.import_module(where[name]), name)
            if namespace is not None:
                namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def names() -> list[str]:
        return sorted(set(where) | set(namespace or ()))

    return get, names
