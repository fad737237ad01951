"""The findings register (``findings.toml``): load it, and recognise known findings.

A finding's ``match`` tables (DESIGN.md, "Answer-precise findings") each name the exact
``oracles`` (lineages) they apply to, fnmatch patterns for ``op`` and ``check``, a *region*
``when`` (``PREDICATES[name](*inputs) -> bool``) and a *symptom* ``answer``
(``SYMPTOMS[name](inputs, answer, reference) -> bool``, True only when the oracle's answer is
exactly what that bug or convention produces).  ``find_known`` needs both; ``find_region``
uses the region only (the campaign steers generation with it).  Tables of paper findings
(``oracles = ["paper"]``) are about a printed statement, not an oracle's answer, and have no
``answer``.
"""

import fnmatch
import inspect
import tomllib
from functools import lru_cache
from pathlib import Path

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["load", "find_known", "find_region", "explain", "match_tables", "lineage", "PREDICATES",
           "SYMPTOMS", "REGISTER_PATH", "STATUSES"]

REGISTER_PATH = Path(__file__).with_name("findings.toml")
STATUSES = ("confirmed-bug", "convention", "upstream-reported", "fixed", "erratum")

# Region predicates a table's ``when`` names: fn(*inputs) -> bool (one that declares a keyword
# ``op`` also gets the op).
PREDICATES = {}
# Symptom predicates a table's ``answer`` names: fn(inputs, answer, reference) -> bool, where
# answer and reference are Outcomes; a symptom that declares a keyword ``op`` also gets the op.
SYMPTOMS = {}


def predicate(fn):
    PREDICATES[fn.__name__] = fn
    fn.wants_op = _takes_op(fn)
    return fn


def _takes_op(fn):
    try:
        return "op" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def symptom(fn):
    SYMPTOMS[fn.__name__] = fn
    fn.wants_op = _takes_op(fn)
    return fn


@lru_cache(maxsize=1)
def _load_predicates():
    """Import the modules that register the predicates and symptoms the register names."""
    import importlib
    for name in PREDICATE_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


PREDICATE_MODULES = ("layoutcheck.oracles.cpp.findings.algebra", "layoutcheck.oracles.pycute.findings.algebra", "layoutcheck.oracles.dsl.findings.algebra",
                     "layoutcheck.spec.known", "layoutcheck.oracles.nvlabs.findings",
                     "layoutcheck.oracles.pycute.findings.coordinates", "layoutcheck.oracles.cpp.findings.composed",
                     "layoutcheck.oracles.dsl.findings.recast", "layoutcheck.oracles.cpp.findings.coordinates",
                     "layoutcheck.oracles.cpp.findings.swizzle")


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


def lineage(oracle):
    """The name findings are registered under: ``module:NAME@LINEAGE`` -> LINEAGE (a patched
    copy of an implementation inherits its findings); a plain ``module:NAME`` has none
    (nothing matches by a substring of a name); any other oracle is its own lineage."""
    oracle = str(oracle)
    if oracle.startswith("module:"):
        return oracle.rsplit("@", 1)[1] if "@" in oracle else None
    if oracle.startswith("nvlabs:"):  # another copy of NVlabs PyCuTe (nvlabs:PATH)
        return "nvlabs"
    return oracle


def _applies(m, oracle, op, check):
    """The table is about this oracle's lineage, op and check (its region aside)."""
    line = lineage(oracle)
    if line is None or line not in m.get("oracles", ()):
        return False
    return all(fnmatch.fnmatchcase(val, m.get(key, "*")) for key, val in (("op", op), ("check", check)))


_TABLES = {}  # (oracle, op, check) -> (register, [(finding, table)])


def _tables_for(register, oracle, op, check):
    """[(finding, table)] of ``register`` (``load()``) that apply to (oracle, op, check), in
    register order: the campaign asks for the same few triples for every case it draws
    (a register loaded again is a new object: its tables are recomputed)."""
    key = (oracle, op, check)
    got = _TABLES.get(key)
    if got is None or got[0] is not register:
        if len(_TABLES) > 4096:
            _TABLES.clear()
        got = _TABLES[key] = (register, tuple(
            (f, m) for f in register for m in match_tables(f) if _applies(m, oracle, op, check)))
    return got[1]


def _in_region(m, oracle, op, check, inputs, applies=None):
    if not (_applies(m, oracle, op, check) if applies is None else applies):
        return False
    when = m.get("when")
    if not when:
        return True
    fn = PREDICATES.get(when)
    try:
        if fn is not None and getattr(fn, "wants_op", False):
            return bool(fn(*inputs, op=op))
        return fn is not None and bool(fn(*inputs))
    except Exception:  # noqa: BLE001 - a predicate that cannot judge these inputs: not covered
        return False


def _shows_symptom(m, op, inputs, answer, reference):
    name = m.get("answer")
    if name is None:
        return m.get("oracles") == ["paper"]  # a printed statement: no answer to judge
    fn = SYMPTOMS.get(name)
    if fn is None or answer is None:
        return False
    from layoutcheck.oracles.protocol import Outcome
    answer = answer if isinstance(answer, Outcome) else Outcome.ok(answer)
    if reference is not None and not isinstance(reference, Outcome):
        reference = Outcome.ok(reference)
    try:
        if fn.wants_op:
            return bool(fn(tuple(inputs), answer, reference, op=op))
        return bool(fn(tuple(inputs), answer, reference))
    except Exception:  # noqa: BLE001 - a symptom that cannot judge this answer: not known
        return False


def find_region(oracle, op, check, inputs=()):
    """The id of the first finding whose region (``when``) covers these inputs, or None
    (DESIGN.md "Answer-precise findings"; used to steer generation, never to pass a gate)."""
    _load_predicates()
    for f, m in _tables_for(load(), str(oracle), op, check):
        if _in_region(m, oracle, op, check, inputs, applies=True):
            return f["id"]
    return None


def explain(oracle, op, check, inputs=(), answer=None, reference=None):
    """(finding, table) of the first table whose region covers the inputs *and* whose
    symptom is the oracle's ``answer`` (an Outcome), or None."""
    _load_predicates()
    inputs = tuple(inputs)
    for f, m in _tables_for(load(), str(oracle), op, check):
        if _in_region(m, oracle, op, check, inputs, applies=True) \
                and _shows_symptom(m, op, inputs, answer, reference):
            return f, m
    return None


def find_known(oracle, op, check, inputs=(), answer=None, reference=None):
    """The id of the finding that explains this failure, or None: the inputs lie in one of
    its tables' region and the answer is exactly its symptom.  Without ``answer`` only paper
    findings (no oracle answer to judge) can match."""
    hit = explain(oracle, op, check, inputs, answer, reference)
    return hit[0]["id"] if hit else None


# Predicates about the spec's own notions, named by findings' match.when: the algebra findings
# (F-024..F-038), the pycute findings the de-duplication merged (F-073, F-076, F-075), and
# the impl findings (F-120, F-121).  Oracle and fuzz predicates live in oracles/cpp/findings/algebra.py and
# oracles/pycute/findings/algebra.py.

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
    pycute_walk = PREDICATES.get("stride_divisibility_fails")  # layoutcheck.oracles.pycute.findings.algebra
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


# --- helpers the oracle families' predicates share -----------------------------------------

def evaluate(L, x):
    """L at any index x >= 0 as CuTe evaluates an integer: flat modes first-fastest, the last
    mode taking what is left (so past size(L) its last mode extends)."""
    shapes, strides = [int(s) for s in leaves(L.shape)], [int(d) for d in leaves(L.stride)]
    total = 0
    for k, (s, d) in enumerate(zip(shapes, strides)):
        if k == len(shapes) - 1:
            return total + x * d
        total += (x % s) * d
        x //= s
    return total


def _size_of(L):
    n = 1
    for s in leaves(L.shape):
        n *= int(s)
    return n


def is_quasi_inverse(L, R):
    """CuTe's documented left_inverse post-condition (layout.hpp: 'the quasi-inverse of a
    layout (left-inverse when layout is injective)'): L(R(L(i))) == L(i) for i < size(L)."""
    return all(evaluate(L, evaluate(R, evaluate(L, i))) == evaluate(L, i) for i in range(_size_of(L)))


def is_left_inverse(L, R):
    return all(evaluate(R, evaluate(L, i)) == i for i in range(_size_of(L)))


def is_weak_complement(L, R, N=None):
    """CuTe's documented complement post-condition (layout.hpp, Complement: size(R) >=
    cotarget / size(filter(L)); R(i) increasing; R(i) != L(j) for i >= 1): what CuTe
    promises without requiring L to be complementable."""
    from layoutcheck import spec
    f = spec.filter(L)
    N = spec.cosize(f) if N is None else int(N)
    nR = _size_of(R)
    rv = [evaluate(R, i) for i in range(nR)]
    image = {evaluate(L, j) for j in range(_size_of(L))}
    return (nR * _size_of(f) >= N and all(a < b for a, b in zip(rv, rv[1:]))
            and not any(v in image for v in rv[1:]))


@symptom
def agrees_with_cute_sense(inputs, answer, reference=None, op=None):
    """The answer is CuTe's reading of the op, which the spec models with ``sense="cute"``:
    it agrees with ``spec.<op>(..., sense="cute")`` at the level the op requires (the
    conventions where CuTe and the paper differ: composing past the end of A, complements
    and the divides / products built on them that exist only in CuTe's sense)."""
    from layoutcheck.oracles.compare import compare
    if answer.kind != "ok":
        return False
    want = cute_reference(op, *inputs)
    return want.kind == "ok" and compare(op, inputs, want, answer).ok is True


@lru_cache(maxsize=1)
def _cute_reference():
    from layoutcheck.fuzz.checks.targets import reference_for
    from layoutcheck.oracles import get_oracle
    return reference_for("cute-cpp", get_oracle("spec"), memo=False)


def cute_reference(op, *args):
    """The spec's answer in CuTe's sense (the fuzzer's reference for CuTe oracles) as an
    Outcome: the predicates that compare an implementation with CuTe's reading use it."""
    return _cute_reference().run(op, *args)
