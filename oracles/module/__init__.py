"""``module:NAME``: any importable Python module with pycute's API (your own layout library),
run in a worker process; ``module:NAME@LINEAGE`` is a copy of a known implementation and
inherits that implementation's findings and conventions."""
