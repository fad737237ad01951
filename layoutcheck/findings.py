"""The findings register (``findings.toml``): load it, and recognise known findings."""

import fnmatch
import tomllib
from functools import lru_cache
from pathlib import Path

__all__ = ["load", "find_known", "PREDICATES", "REGISTER_PATH"]

REGISTER_PATH = Path(__file__).with_name("findings.toml")

# Predicates a finding's match.when may name; each takes the check's input layouts (a
# tuple of LayoutBase / tiler values) and returns True when the finding explains them.
PREDICATES = {}


def predicate(fn):
    PREDICATES[fn.__name__] = fn
    return fn


@lru_cache(maxsize=1)
def load():
    """All findings, as a tuple of dicts, in file order."""
    with open(REGISTER_PATH, "rb") as f:
        data = tomllib.load(f)
    findings = tuple(data.get("finding", ()))
    ids = [x["id"] for x in findings]
    if len(ids) != len(set(ids)):
        raise ValueError(f"duplicate finding ids in {REGISTER_PATH}")
    return findings


def find_known(oracle, op, check, inputs=()):
    """The id of the first finding whose ``match`` covers this failure, or None."""
    for f in load():
        m = f.get("match")
        if not m:
            continue
        if not all(fnmatch.fnmatchcase(val, m.get(key, "*"))
                   for key, val in (("oracle", oracle), ("op", op), ("check", check))):
            continue
        when = m.get("when")
        if when:
            fn = PREDICATES.get(when)
            if fn is None or not fn(*inputs):
                continue
        return f["id"]
    return None
