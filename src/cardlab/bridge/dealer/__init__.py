"""The ``dealer`` program's script language, run vectorised in Python.

Scripts written for Hans van Staveren's ``dealer`` (Debian package ``dealer``) run
unchanged: :func:`parse_script` reads one (errors name the line and column),
:func:`run_script` deals through the engine's chunk runner and streams the
produced deals in the script's print formats, returning the statistics.

>>> script = parse_script('''
... generate 10000
... opener = hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)
... condition opener
... action average "south hcp" hcp(south)
... ''')
>>> result = run_script(script, seed=7)
>>> result.generated, result.produced
(10000, 483)
"""

from cardlab.bridge.dealer.functions import FUNCTIONS, FunctionSpec, Hands, Tables, register
from cardlab.bridge.dealer.parser import Script, parse_script
from cardlab.bridge.dealer.holdings import HoldingTable, holding_table
from cardlab.bridge.dealer.runner import AverageStat, DealerResult, FrequencyStat, run_script, write_run
from cardlab.bridge.dealer.saved import read_saved_deals
from cardlab.bridge.dealer.stats import BucketStat, CorrelationStat

__all__ = ["parse_script", "run_script", "write_run", "Script", "DealerResult", "AverageStat", "FrequencyStat", "FUNCTIONS",
           "FunctionSpec", "Hands", "Tables", "register", "CorrelationStat", "BucketStat", "HoldingTable",
           "holding_table", "read_saved_deals"]
