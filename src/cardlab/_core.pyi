"""Types of the compiled kernels (csrc/); each family adds its functions here."""

import numpy as np

Buffer = np.ndarray | bytes | bytearray | memoryview

def build_info() -> dict[str, object]: ...

# csrc/poker_eval.c: the poker evaluator (cardlab.poker.evaluator is the wrapper)
def poker_tables(counts: Buffer, values: Buffer, flush: Buffer, categories: bytes) -> object: ...
def poker_evaluate(tables: object, hands: Buffer, k: int, strengths: Buffer, categories: Buffer | None,
                   check: bool) -> int: ...
def poker_count_subsets(tables: object, cards: Buffer, k: int, counts: Buffer) -> None: ...

# csrc/poker_sim.c: simulated hands counted by category (cardlab.poker.odds)
def poker_simulate(tables: object, cards: Buffer, k: int, n: int, seed: Buffer, counts: Buffer,
                   spill: Buffer) -> int: ...

# csrc/poker_equity.c: exact and simulated equity (cardlab.poker.equity)
def poker_equity_exact(tables: object, game: tuple[int, int, bool, bool], deals: Buffer, board: Buffer,
                       deck: Buffer, acc: Buffer) -> None: ...
def poker_equity_simulate(tables: object, game: tuple[int, int, bool, bool], combos: Buffer, offsets: Buffer,
                          cumulative: Buffer, deals: Buffer, deal_cumulative: Buffer, board: Buffer,
                          common: Buffer, classes: Buffer, n: int, seed: Buffer, acc: Buffer,
                          grid: Buffer) -> int: ...
