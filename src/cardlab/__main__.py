"""``python -m cardlab`` runs the command line."""

import sys

from cardlab.cli.main import main

sys.exit(main())
