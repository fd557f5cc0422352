"""cardlab: card-game probabilities and duplicate bridge scoring.

Exact answers where mathematics allows, seeded simulation with honest
confidence intervals where it does not.
"""

from __future__ import annotations

__version__ = "0.1.0"
