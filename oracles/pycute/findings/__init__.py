"""The predicates that recognise pycute's registered findings (``oracles/predicates.py``), by
concept, each symptom recomputing pycute's answer with its model (``oracles/pycute/model.py``)."""

from layoutcheck.oracles.predicates import collect
from layoutcheck.oracles.pycute.findings import algebra, composed, coordinates

REGIONS, SYMPTOMS = collect(algebra, composed, coordinates)
