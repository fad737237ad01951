"""Predicates that recognise the oracle findings F-040..F-069 of findings.toml.

Each takes a counterexample's inputs (the op's neutral arguments) and is registered in
``layoutcheck.findings.PREDICATES`` under its name, the finding's ``match.when``.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.findings import predicate
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = []


def _ints(x, strides_only=False):
    """The integers of an argument (layouts, tilers, ints), optionally strides only."""
    if isinstance(x, LayoutBase):
        return list(leaves(x.stride)) + ([] if strides_only else list(leaves(x.shape)))
    if isinstance(x, tuple):
        return [v for e in x for v in _ints(e, strides_only)]
    if x is None or strides_only:
        return []
    return [x]


@predicate
def has_dynamic_integer(*inputs):
    """Some integer of the inputs is dynamic (written ``4``, not ``_4``)."""
    return any(not isinstance(v, C) for x in inputs for v in _ints(x))


@predicate
def has_dynamic_stride(*inputs):
    """Some stride of an input layout (tilers included) is dynamic."""
    return any(not isinstance(v, C) for x in inputs for v in _ints(x, strides_only=True))


@predicate
def dynamic_zero_stride_in_tiler(A=None, B=None, *rest):
    """The second argument has a dynamic stride 0 (CuTe C++ divides by it at run time)."""
    return any(not isinstance(v, C) and v == 0 for v in _ints(B, strides_only=True))


@predicate
def dynamic_and_not_composable(A=None, B=None, *rest):
    """Dynamic integers, and the paper's composition of A and B does not exist."""
    if B is None or not has_dynamic_integer(A, B):
        return False
    from layoutcheck import spec
    try:
        spec.composition(A, B)
    except LayoutError:
        return True
    return False


@predicate
def empty_layout(L=None, *rest):
    """L is ``():()``."""
    return isinstance(L, LayoutBase) and L.shape == ()


@predicate
def beyond_size_not_coalesced(A=None, B=None, *rest):
    """B reaches past size(A) and A is not written coalesced (CuTe extends A's last
    written mode, pycute and the spec's CuTe reading extend coalesce(A)'s)."""
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return False
    from layoutcheck import spec
    return max(spec.values(B)) >= spec.size(A) and spec.coalesce(A) != A


@predicate
def tiler_is_tuple(A=None, T=None, *rest):
    """The second argument is a CuTe Tile (a tuple of layouts / ints), not one layout."""
    return isinstance(T, tuple)


@predicate
def tile_has_dynamic_multimode_layout(A=None, T=None, *rest):
    """A layout of the tiler has more than one flat mode and a dynamic stride (CuTe C++'s
    complement, used by the divides, static_asserts on those)."""
    def layouts(t):
        if isinstance(t, LayoutBase):
            return [t]
        return [x for e in t for x in layouts(e)] if isinstance(t, tuple) else []
    return any(len(leaves(L.shape)) > 1 and has_dynamic_stride(L) for L in layouts(T))


@predicate
def tuple_tiler_shorter_than_layout(A, B=None, *rest):
    """F-120: composition(A, T) with a tuple tiler of fewer modes than A."""
    return isinstance(B, tuple) and isinstance(getattr(A, "shape", None), tuple) and len(B) < len(A.shape)


@predicate
def rank_one_leaf_and_tuple(A, B=None, *rest):
    """F-121: blocked/raked_product of a rank-1 leaf layout and a rank-1 tuple layout."""
    if not (isinstance(A, LayoutBase) and isinstance(B, LayoutBase)):
        return False

    def r(L):
        return len(L.shape) if isinstance(L.shape, tuple) else 0

    return {r(A), r(B)} == {0, 1}


# --- F-053..F-069 (triage of the cute-cpp fuzz gate) ------------------------------------

def _spec():
    from layoutcheck import spec
    return spec


def _condition(fn, *args, **kw):
    """The ``condition`` of the LayoutError ``fn`` raises (None when it returns)."""
    try:
        fn(*args, **kw)
    except LayoutError as e:
        return e.condition or "raised"
    return None


# F-053 (left_inverse of a non-injective layout) uses ``not_injective`` of fuzz/known.py.


@predicate
def dynamic_and_divide_not_composable(A=None, T=None, *rest):
    """F-054: dynamic integers, and the composition inside CuTe's divide,
    A ∘ (T, comp(T, size A)), does not exist (the spec, CuTe's sense, fails is_composable)."""
    return (T is not None and has_dynamic_integer(A, T)
            and _condition(_spec().logical_divide, A, T, sense="cute") == "is_composable")


@predicate
def dynamic_and_product_not_composable(A=None, B=None, *rest):
    """F-054: dynamic integers, and the composition inside CuTe's product,
    comp(A, size(A) cosize(B)) ∘ B, does not exist (the spec, CuTe's sense)."""
    return (B is not None and has_dynamic_integer(A, B)
            and _condition(_spec().logical_product, A, B, sense="cute") == "is_composable")


def _same_up_to_dynamic_modes(R, E):
    """CuTe's answer R and the spec's E have the same flat modes once each top-level mode is
    coalesced and size-1 modes are dropped, except that R may split one of E's modes into
    neighbours that a runtime integer kept CuTe from merging (s d == d', one of s, d, d'
    dynamic): R differs only in unmerged modes, size-1 modes and how its flat modes are
    grouped into top-level modes (the tiled/flat forms unpack the tile's and the
    complement's modes, which keep runtime size-1 and unmerged modes)."""
    S = _spec()

    def flat(L):
        ms = [L] if not isinstance(L.shape, tuple) else [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]
        return [(s, d) for m in ms for c in [S.coalesce(m)]
                for s, d in zip(leaves(c.shape), leaves(c.stride)) if int(s) != 1]

    r, k = flat(R), 0
    for se, de in flat(E):
        if k >= len(r) or int(r[k][1]) != int(de):
            return False
        (s, d), n = r[k], int(r[k][0])
        k += 1
        while n < int(se) and k < len(r):
            s2, d2 = r[k]
            if int(s) * int(d) != int(d2) or all(isinstance(v, C) for v in (s, d, d2)):
                return False
            (s, d), n, k = (s2, d2), n * int(s2), k + 1
        if n != int(se):
            return False
    return k == len(r)


def _dynamic_modes_only(op):
    def when(*inputs):
        if not has_dynamic_integer(*inputs):
            return False
        from .cute_cpp import remembered
        got = remembered(op, inputs)  # CuTe's answer from this process's run of the case;
        if got is None:  # a predicate never compiles (find_known runs inside every gate)
            return False
        if got.kind != "ok" or not isinstance(got.value, LayoutBase):
            return False
        try:
            want = getattr(_spec(), op)(*inputs, sense="cute")
        except LayoutError:
            return False
        return _same_up_to_dynamic_modes(got.value, want)
    when.__name__ = f"cpp_{op}_dynamic_modes_only"
    when.__doc__ = (f"F-055: dynamic integers, and CuTe C++'s {op} differs from the spec's "
                    "(CuTe's sense) only by unmerged or size-1 modes (its own answer judged).")
    return predicate(when)


for _op in ("composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
            "logical_product", "zipped_product", "tiled_product"):
    _dynamic_modes_only(_op)


@predicate
def product_fails_cute_stride_divisibility(A=None, B=None, *rest):
    """F-056: the spec multiplies (CuTe's sense), but the composition inside,
    comp(A, size(A) cosize(B)) ∘ B, fails CuTe C++'s stride-divisibility check (the spec's
    model ``cute_composition_check``)."""
    S = _spec()
    B = LayoutBase(B) if isinstance(B, int) else B
    if not (isinstance(A, LayoutBase) and isinstance(B, LayoutBase)):
        return False
    try:
        S.logical_product(A, B, sense="cute")
        comp = S.complement(A, S.size(A) * S.cosize(B), sense="cute")
    except LayoutError:
        return False
    return S.cute_composition_check(comp, B) == "Stride Divisibility Condition"


@predicate
def raked_leaves_tuple_rest(A=None, B=None, *rest):
    """F-057: raked_product of two leaf layouts (rank 0 shapes) whose product's second mode,
    comp(A, size(A) cosize(B)) ∘ B, is a tuple: CuTe C++ zips a tuple with a leaf."""
    if not (isinstance(A, LayoutBase) and isinstance(B, LayoutBase)):
        return False
    if isinstance(A.shape, tuple) or isinstance(B.shape, tuple):
        return False
    try:
        P = _spec().logical_product(A, B, sense="cute")
    except LayoutError:
        return False
    return isinstance(P.shape[1], tuple) and len(P.shape[1]) > 1


@predicate
def dynamic_mergeable_modes(L=None, *rest):
    """F-040 (laws): after dropping static size-1 modes, two neighbouring flat modes of L
    satisfy s_i d_i == d_{i+1} with one of s_i, d_i, d_{i+1} dynamic: CuTe C++ decides
    merges at compile time and keeps them apart."""
    if not isinstance(L, LayoutBase):
        return False
    m = [(s, d) for s, d in zip(leaves(L.shape), leaves(L.stride))
         if not (isinstance(s, C) and int(s) == 1)]
    return any(int(s) * int(d) == int(d2) and not all(isinstance(v, C) for v in (s, d, d2))
               for (s, d), (_, d2) in zip(m, m[1:]))


@predicate
def cpp_keeps_trailing_size1_mode(A=None, B=None, *rest):
    """F-058: A's last flat mode has size 1 and a non-zero stride; CuTe C++'s coalesce_x
    keeps it (it preserves A's function past its end, the mode being seeded as 2:d), so the
    stride-divisibility check walks over coalesce(A[:-1])'s modes, where the spec's model
    (on coalesce(A)) sees a rank-1 A and passes.  The spec composes (CuTe's sense)."""
    if B is None or not isinstance(A, LayoutBase) or isinstance(B, (int, tuple)):
        return False
    shapes, strides = list(leaves(A.shape)), list(leaves(A.stride))
    if not shapes or int(shapes[-1]) != 1 or int(strides[-1]) == 0:
        return False
    S = _spec()
    try:
        if S.cute_composition_check(A, B) is not None:
            return False
        S.composition(A, B, sense="cute")
    except LayoutError:
        return False
    x = LayoutBase(tuple(int(v) for v in shapes[:-1]) + (2,), tuple(int(v) for v in strides))
    return S.cute_composition_check(x, B) == "Stride Divisibility Condition"
