"""The predicates that recognise pycute's registered findings (``oracles/predicates.py``), by
concept, each symptom recomputing pycute's answer with its model (``oracles/pycute_wheel/model.py``)."""

from layoutcheck.oracles.predicates import collect
from layoutcheck.oracles.pycute_wheel.findings import algebra, composed, coordinates

REGIONS, SYMPTOMS = collect(algebra, composed, coordinates)
