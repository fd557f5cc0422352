"""The ``cardlab`` command line: argument parsing and printing only."""
