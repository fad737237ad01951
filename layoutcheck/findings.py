"""The findings register (``findings.toml``): load it, and recognise known findings."""

import fnmatch
import tomllib
from functools import lru_cache
from pathlib import Path

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["load", "find_known", "find_region", "match_tables", "PREDICATES", "REGISTER_PATH"]

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


def match_tables(finding):
    """A finding's ``match`` as a list of tables: one table, or an array of them when the
    same finding shows under several oracles or checks (any one table recognises it)."""
    m = finding.get("match")
    return [] if not m else (list(m) if isinstance(m, list) else [m])


def _covers(m, oracle, op, check, inputs):
    if not all(fnmatch.fnmatchcase(val, m.get(key, "*"))
               for key, val in (("oracle", oracle), ("op", op), ("check", check))):
        return False
    when = m.get("when")
    if not when:
        return True
    fn = PREDICATES.get(when)
    return fn is not None and bool(fn(*inputs))


def find_region(oracle, op, check, inputs=()):
    """The id of the first finding whose ``match`` region (``when``) covers these inputs,
    or None (DESIGN.md "Answer-precise findings"; used to steer generation)."""
    _load_predicates()
    for f in load():
        if any(_covers(m, oracle, op, check, inputs) for m in match_tables(f)):
            return f["id"]
    return None


def find_known(oracle, op, check, inputs=(), answer=None, reference=None):
    """The id of the first finding whose ``match`` covers this failure, or None.
    (Stop-18 stub: ``answer``/``reference`` not yet used; see DESIGN.md.)"""
    _load_predicates()
    for f in load():
        if any(_covers(m, oracle, op, check, inputs) for m in match_tables(f)):
            return f["id"]
    return None


# Predicates about the spec's own notions, named by findings' match.when: the algebra findings
# (F-024..F-038), the pycute findings the de-duplication merged (F-073, F-076, F-075), and
# the impl findings (F-120, F-121).  Oracle and fuzz predicates live in oracles/known.py and
# fuzz/known.py.

def _spec():
    from layoutcheck import spec
    return spec


@predicate
def image_beyond_size(A, B=None, *rest):
    """F-024: Image(Phi_B) reaches past size(A)."""
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
def cute_accepts_not_composable(A, B=None, *rest):
    """F-030: CuTe's checks pass, but no layout has A∘B's function."""
    S = _spec()
    return S.cute_composition_check(A, B) is None and not S.is_composable(A, B, sense="cute")


@predicate
def tiler_has_int(A, T=None, *rest):
    """F-076: the tiler is, or contains at any depth, an integer (pycute's logical_product
    sends an int ``n`` to logical_divide(A, n:1), also inside a Tile tuple)."""
    if isinstance(T, tuple):
        return any(tiler_has_int(A, t) for t in T)
    return isinstance(T, int)


@predicate
def has_empty_layout(*inputs):
    """F-034: one of the inputs is the empty layout ():()."""
    return any(isinstance(x, LayoutBase) and x.shape == () for x in inputs)


@predicate
def pycute_right_inverse_stops_early(L=None, *rest):
    """F-073: pycute's right_inverse walks L's flat modes (not coalesce(L)'s) by increasing
    (stride, shape), skips size-1 modes and stops at the first stride that is not the running
    product; that walk covers fewer indices than CuTe's right_inverse (the spec's)."""
    if not isinstance(L, LayoutBase):
        return False
    covered, current = 1, 1
    for d, s in sorted(zip(map(int, leaves(L.stride)), map(int, leaves(L.shape)))):
        if s == 1:
            continue
        if d != current:
            break
        covered, current = covered * s, s * d
    S = _spec()
    try:
        return covered < S.size(S.right_inverse(L))
    except LayoutError:
        return False


@predicate
def tuple_tiler_shorter_than_layout(A=None, T=None, *rest):
    """F-120: the tiler is a Tile tuple with fewer entries than A has top-level modes
    (CuTe C++'s composition drops A's remaining modes)."""
    return (isinstance(A, LayoutBase) and isinstance(A.shape, tuple)
            and isinstance(T, tuple) and len(T) < len(A.shape))


@predicate
def rank_one_leaf_and_tuple(A=None, B=None, *rest):
    """F-121: one operand is a leaf layout (``4:1``), the other a rank-1 tuple layout
    (``(3):(1)``)."""

    def kind(x):
        if not isinstance(x, LayoutBase):
            return None
        if not isinstance(x.shape, tuple):
            return "leaf"
        return "one-tuple" if len(x.shape) == 1 else None
    return {kind(A), kind(B)} == {"leaf", "one-tuple"}


def _only_cute_sense(fn, *args):
    """``fn(*args)`` raises in the paper's sense and returns in CuTe's."""
    try:
        fn(*args)
        return False
    except LayoutError:
        pass
    try:
        fn(*args, sense="cute")
        return True
    except LayoutError:
        return False


@predicate
def complement_only_in_cute_sense(L=None, N=None, *rest):
    """F-035: complement(L, N) exists in CuTe's sense (stride-0 modes skipped, N rounded up
    to a multiple of s_m d_m), not in the paper's (Def 2.1.6.11 / 2.1.6.25)."""
    return L is not None and _only_cute_sense(_spec().complement, L, *(() if N is None else (N,)))


@predicate
def divide_only_in_cute_sense(A=None, T=None, *rest):
    """F-036: logical_divide(A, T) exists in CuTe's sense only (its complement, F-035)."""
    return T is not None and _only_cute_sense(_spec().logical_divide, A, T)


@predicate
def product_only_in_cute_sense(A=None, T=None, *rest):
    """F-037: logical_product(A, T) exists in CuTe's sense only (its complement, F-035)."""
    return T is not None and _only_cute_sense(_spec().logical_product, A, T)


@predicate
def divide_fails_cute_stride_divisibility(A=None, T=None, *rest):
    """F-038: the spec divides (CuTe's sense), but the composition inside CuTe's divide,
    A ∘ (B, comp(B, size A)), fails CuTe C++'s stride-divisibility check (the spec's model)
    or pycute's walk of it (F-025, F-070); a Tile tuple is checked mode by mode."""
    S = _spec()
    if T is None or not isinstance(A, LayoutBase):
        return False
    try:
        S.logical_divide(A, T, sense="cute")
    except LayoutError:
        return False
    if isinstance(T, tuple):
        modes = S.modes(A) if isinstance(A.shape, tuple) else [A]
        return any(divide_fails_cute_stride_divisibility(m, t) for m, t in zip(modes, T))
    B = LayoutBase(T, 1) if not isinstance(T, LayoutBase) else T
    inner = S.make_layout(B, S.complement(B, S.size(A), sense="cute"))
    pycute_walk = PREDICATES.get("stride_divisibility_fails")  # layoutcheck.fuzz.known
    return (S.cute_composition_check(A, inner) == "Stride Divisibility Condition"
            or bool(pycute_walk and pycute_walk(A, inner)))


@predicate
def divide_divisor_not_complementable(A=None, T=None, *rest):
    """F-075 in the divides: CuTe's sense of logical_divide(A, T) fails because the divisor
    has no complement in size(A) (condition is_complementable); CuTe computes one anyway."""
    if T is None:
        return False
    try:
        _spec().logical_divide(A, T, sense="cute")
    except LayoutError as e:
        return e.condition == "is_complementable"
    return False
