"""How the fuzzer reaches oracles: ``layoutcheck.oracles`` (issue 5), through one thin seam.

``get_oracle(name)`` and ``compare(op, inputs, expected, actual) -> (level, ok)`` forward to
``layoutcheck.oracles``.  Until that package exports them, a minimal local fallback over its
``pymodule`` classes keeps the fuzzer usable (spec, impl, pycute, module:NAME only).
"""

from collections import OrderedDict
from weakref import WeakKeyDictionary

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

from layoutcheck.fuzz.checks.bounds import EvaluationLimit, bounded, check_size, input_bound, layout_size

__all__ = ["get_oracle", "compare", "reference_for", "SpecReference", "MemoReference", "table",
           "extended", "encode", "decode", "format_arg", "bounded", "input_bound", "layout_size",
           "EvaluationLimit", "case_key", "memo_stats"]


def get_oracle(name):
    try:
        from layoutcheck.oracles import get_oracle as real
    except ImportError:
        real = None
    if real is not None:
        return real(name)
    from layoutcheck.oracles.module.oracle import ModuleOracle, PackageOracle
    if name in ("spec", "impl"):
        return PackageOracle(name)
    if name == "pycute":
        return ModuleOracle("pycute", "pycute")
    if name.startswith("module:") and len(name) > 7:
        return ModuleOracle(name[7:])
    raise LayoutError(f"unknown oracle {name!r} (known here: spec, impl, pycute, module:NAME)")


def compare(op, inputs, expected, actual):
    """(level, ok): the strictest agreement level and whether the op's required level holds
    (ok is None when no verdict is possible, e.g. an unsupported answer)."""
    for value, what in ((actual, "the answer"), (expected, "the reference's answer")):
        _check_sizes(value, what)
    try:
        from layoutcheck.oracles import compare as real
    except ImportError:
        real = None
    if real is not None:
        r = real(op, inputs, expected, actual)
        if isinstance(r, tuple):
            return r[0], r[1]
        return str(r.level), r.ok  # ok is None when there is no verdict
    return _local_compare(op, inputs, expected, actual)


def _check_sizes(value, what):
    """The comparison evaluates layouts: measure each one first (``bounds.check_size``)."""
    if isinstance(value, LayoutBase):
        check_size(value, what)
    elif isinstance(value, tuple) and len(value) <= 64:  # a (layout, offset) pair, a tiler
        for v in value:
            if isinstance(v, (LayoutBase, tuple)):
                _check_sizes(v, what)


class SpecReference:
    """The spec as the reference for CuTe-family oracles: operations that take a ``sense``
    run with ``sense="cute"`` (CuTe's conventions where it differs from the paper, e.g. the
    N of complement rounded up, composition past A's size); the rest as the spec oracle."""

    name = "spec[cute]"

    def __init__(self, spec_oracle):
        self._spec = spec_oracle

    def unavailable_reason(self):
        return self._spec.unavailable_reason()

    def run(self, op, *args):
        import inspect
        import layoutcheck.spec as spec
        fn = getattr(spec, op, None)
        try:
            takes_sense = fn is not None and "sense" in inspect.signature(fn).parameters
        except (TypeError, ValueError):
            takes_sense = False
        if not takes_sense:
            return self._spec.run(op, *args)
        from layoutcheck.oracles import Outcome
        try:
            return Outcome.ok(fn(*args, sense="cute"))
        except LayoutError as e:
            cond = f" [condition {e.condition}]" if e.condition else ""
            return Outcome.raised(f"{e}{cond}")
        except NotImplementedError as e:
            return Outcome.unsupported(str(e))


def reference_for(oracle_name, spec_oracle, memo=True):
    """The reference a differential check compares ``oracle_name`` with: the spec itself
    (paper's sense) for impl, the spec in CuTe's sense for every CuTe-family oracle;
    memoised (``MemoReference``) unless ``memo=False``."""
    ref = spec_oracle if oracle_name in ("spec", "impl") else SpecReference(spec_oracle)
    if spec_oracle is not None:
        ref = SizeFallback(ref, oracle_name, cute=isinstance(ref, SpecReference))
    return MemoReference(ref, spec_oracle) if memo and spec_oracle is not None else ref


class SizeFallback:
    """Where the spec refuses to enumerate an input this large (``condition
    enumeration_limit``, spec/limits.py), that refusal is no precondition: the reference is
    impl then (which never enumerates; its agreement with the spec is tested), as in
    ``layoutcheck op``.  For impl itself there is no independent reference: the case is
    unsupported (skipped), never judged against impl's own answer."""

    def __init__(self, ref, oracle_name, cute):
        self._ref, self.name, self._oracle, self._cute = ref, ref.name, oracle_name, cute

    def unavailable_reason(self):
        return self._ref.unavailable_reason()

    def run(self, op, *args):
        from layoutcheck.spec.limits import ENUMERATION_CONDITION
        out = self._ref.run(op, *args)
        if out.kind != "raised" or f"[condition {ENUMERATION_CONDITION}]" not in (out.message or ""):
            return out
        from layoutcheck.oracles import Outcome, get_oracle
        if self._oracle in ("spec", "impl"):
            return Outcome.unsupported(f"too large for the spec to enumerate ({out.message}); "
                                       "impl has no other reference")
        impl = get_oracle("impl", sense="cute") if self._cute else get_oracle("impl")
        return impl.run(op, *args)

    def run_many(self, cases):
        return [self.run(op, *args) for op, args in cases]


# --- memoised reference: the spec is pure, its inputs immutable ---------------------------

observer = None  # a callable(feature) the campaign sets while it judges a case (or None)

MEMO_SIZE = 8192
_MEMOS = WeakKeyDictionary()  # spec oracle -> {reference name: LRU}; shared by every pair


def case_key(x):
    """A hashable key of a neutral argument that tells static from dynamic integers
    (``LayoutBase ==`` compares values only: ``_4:_1 == 4:1``)."""
    t = type(x)
    if t is int:
        return x
    if t is tuple:
        return tuple(map(case_key, x))
    if isinstance(x, LayoutBase):
        return ("L", case_key(x.shape), case_key(x.stride))
    if isinstance(x, C):
        return ("C", int(x))
    return (t.__name__, x)  # bool, `_`


class MemoReference:
    """The reference oracle behind an LRU keyed by (op, inputs): the spec is a pure function
    of immutable inputs, and hypothesis draws the same small cases again and again (a third
    of all cases in a 30 s run).  Only the reference is memoised, never the oracle under test.
    ``hits`` / ``misses`` are counted per reference."""

    def __init__(self, ref, owner):
        self._ref, self.name = ref, ref.name
        try:
            memos = _MEMOS.setdefault(owner, {})
        except TypeError:  # an owner that cannot be weakly referenced: a private memo
            memos = {}
        self._lru = memos.setdefault(ref.name, _LRU())

    def unavailable_reason(self):
        return self._ref.unavailable_reason()

    def run(self, op, *args):
        lru = self._lru
        key = (op, case_key(args))
        try:
            out = lru.get(key)
        except TypeError:  # an argument that is not hashable: not memoised
            return self._ref.run(op, *args)
        if out is None:
            lru.misses += 1
            out = self._ref.run(op, *args)
            if out.kind != "crashed":  # a crash says nothing about the inputs
                lru.put(key, out)
        else:
            lru.hits += 1
        return out

    def run_many(self, cases):
        return [self.run(op, *args) for op, args in cases]

    def stats(self):
        return {"hits": self._lru.hits, "misses": self._lru.misses}


class _LRU:
    def __init__(self, size=MEMO_SIZE):
        self.size, self.data, self.hits, self.misses = size, OrderedDict(), 0, 0

    def get(self, key):
        out = self.data.get(key)
        if out is not None:
            self.data.move_to_end(key)
        return out

    def put(self, key, value):
        self.data[key] = value
        if len(self.data) > self.size:
            self.data.popitem(last=False)


def memo_stats(spec_oracle):
    """{reference name: {"hits", "misses"}} of the memos built over ``spec_oracle``."""
    try:
        memos = _MEMOS.get(spec_oracle, {})
    except TypeError:
        memos = {}
    return {name: {"hits": m.hits, "misses": m.misses} for name, m in memos.items()}


# --- the trusted evaluator the laws use: independent of spec and impl ------------------------

def table(L):
    """Phi_L on [0, size(L)) as a list: outer sum of per-mode offsets, first mode fastest
    (Construction 2.1.2.19: Phi = phi ∘ colex^{-1}).  The size is checked from the modes
    first (``bounds.check_size``): a layout larger than the case's inputs allow fails the
    check instead of being enumerated."""
    check_size(L)
    vals = [0]
    for s, d in zip(leaves(L.shape), leaves(L.stride)):
        s, d = int(s), int(d)
        vals = [v + k * d for k in range(s) for v in vals]
    return vals


def extended(A, k):
    """A(k) for k possibly >= size(A): colex with the last flat mode unbounded, the way CuTe
    extends a layout's last mode in composition (pycute's idx2crd).  One value, O(rank A):
    it enumerates nothing (callers map it over a ``table``, which is bounded)."""
    s, d = [int(x) for x in leaves(A.shape)], [int(x) for x in leaves(A.stride)]
    total = 0
    for i, (si, di) in enumerate(zip(s, d)):
        if i == len(s) - 1:
            total += k * di
        else:
            total += (k % si) * di
            k //= si
    return total


def _local_compare(op, inputs, expected, actual):
    if isinstance(expected, LayoutBase) and isinstance(actual, LayoutBase):
        if str(expected) == str(actual):
            return "printed", True
        if expected == actual:
            return "structure", True
        same_modes = _top_modes(expected) is not None and \
            [table(m) for m in _top_modes(expected)] == [table(m) for m in (_top_modes(actual) or [])]
        if same_modes:
            return "modes", op not in ()
        if table(expected) == table(actual):
            return "function", op not in ("logical_divide", "logical_product", "zipped_divide",
                                          "zipped_product", "tiled_divide", "tiled_product")
        return "none", False
    same = (int(expected) == int(actual)) if not isinstance(expected, tuple) else \
        tuple(map(int, expected)) == tuple(map(int, actual))
    return ("printed", True) if same else ("none", False)


def _top_modes(L):
    if not isinstance(L.shape, tuple):
        return [L]
    return [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]


# --- counterexamples as text: CuTe notation in, CuTe notation out ----------------------------

def format_arg(x):
    """A layout, a tiler, a coordinate (with ``_``), an IntTuple or an int, in CuTe notation
    (``layoutcheck.oracles.protocol.format_arg``)."""
    from layoutcheck.oracles.protocol import format_arg as fmt
    return fmt(x)


def encode(args):
    """Inputs -> list of CuTe strings (what reports and the example database hold)."""
    return [format_arg(a) for a in args]


def decode(texts):
    """CuTe strings -> neutral inputs (``layoutcheck.oracles.protocol.decode_arg``: a layout,
    a tiler, a coordinate with ``_``, an IntTuple or an int)."""
    from layoutcheck.oracles.protocol import decode_arg
    return tuple(decode_arg(t) for t in texts)
