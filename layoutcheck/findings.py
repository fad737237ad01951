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
def _load_predicates():
    """Import the modules that register the predicates findings name in ``match.when``."""
    import importlib
    for name in PREDICATE_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


PREDICATE_MODULES = ("layoutcheck.oracles.known", "layoutcheck.fuzz.known", "layoutcheck.spec.known")


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
    _load_predicates()
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


# Predicates about the spec's own notions (the algebra findings F-024..F-034).

def _spec():
    from layoutcheck import spec
    return spec


@predicate
def image_beyond_size(A, B=None, *rest):
    """F-024: Image(Phi_B) reaches past size(A)."""
    from layoutcheck.layout import LayoutBase
    if not isinstance(B, LayoutBase):
        return False
    S = _spec()
    return max(S.values(B)) >= S.size(A)


@predicate
def cute_rejects_composable(A, B=None, *rest):
    """F-025: the paper composes A and B; CuTe's static checks reject them."""
    S = _spec()
    return S.is_composable(A, B) and S.cute_composition_check(A, B) is not None


@predicate
def cute_shape_check_fails(A, B=None, *rest):
    """F-027: CuTe's shape-divisibility check fails (pycute does not make it)."""
    return _spec().cute_composition_check(A, B) == "Shape Divisibility Condition"


@predicate
def cute_accepts_not_composable(A, B=None, *rest):
    """F-030: CuTe's checks pass, but no layout has A∘B's function."""
    S = _spec()
    return S.cute_composition_check(A, B) is None and not S.is_composable(A, B, sense="cute")


@predicate
def tiler_has_int(A, T=None, *rest):
    """F-026: the tiler is, or contains, an integer."""
    if isinstance(T, tuple):
        return any(tiler_has_int(A, t) for t in T)
    return isinstance(T, int)


@predicate
def has_empty_layout(*inputs):
    """F-034: one of the inputs is the empty layout ():()."""
    from layoutcheck.layout import LayoutBase
    return any(isinstance(x, LayoutBase) and x.shape == () for x in inputs)
