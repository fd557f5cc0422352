"""Casino table games, exactly: a game's rules and pay tables in, its house edge and optimal
strategy out (docs/casino.md).

:func:`cardlab.casino.analysis.analyse` enumerates every deal (folded by suit symmetry, in the
compiled core); :func:`cardlab.casino.simulation.simulate` plays seeded random deals, the second
route. Games are described in TOML (:mod:`cardlab.casino.game`); the built-in ones ship as such
files in ``cardlab/casino/data``. Importing this package loads nothing else.
"""

__all__: list[str] = []
