"""Predicates of the findings of issue 16 on recast, vectorization and tiling (F-210..F-225,
F-229 in the block "swizzles, recast, tiling" of findings.toml; swizzles and composed layouts:
oracles/cpp/findings/composed.py).  Symptoms recompute what the implementation does -- CuTe's upcast /
downcast / tile_to_shape arithmetic without its checks, NVlabs PyCuTe's tie-breaking -- and
are True only when the answer is exactly that.
"""

from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.errors import LayoutError
from layoutcheck.findings import predicate, symptom
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

from layoutcheck.oracles.cpp.findings.composed import _fn, _ok, _raised, _size, _spec, _sw

__all__ = ["unchecked_upcast", "unchecked_downcast"]


# --- F-210, F-211, F-220, F-222: recast without CuTe's checks --------------------------------

def _leafwise(L, fn):
    def go(s, d):
        if isinstance(s, tuple):
            parts = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        return fn(int(s), int(d), isinstance(d, C))
    return LayoutBase(*go(L.shape, L.stride))


def unchecked_upcast(L, N, dynamic_floor=False):
    """upcast<N> by layout.hpp's arithmetic with no divisibility check; ``dynamic_floor``:
    CuTe C++'s dynamic rule (shape kept, stride / N truncated) for dynamic strides."""
    def leaf(s, d, static):
        if static and d == 0:
            return s, 0
        if static or not dynamic_floor:
            k = -(-N // d) if d else 1
            return -(-s // k), -(-d // N)
        return s, d // N
    return _leafwise(L, leaf)


def unchecked_downcast(L, N):
    return _leafwise(L, lambda s, d, static: (s * N, d) if d == 1 else (s, d * N))


def _recast(L, old, new, up, down):
    from math import gcd
    g = gcd(new, old)
    num, den = new // g, old // g
    if num == den == 1:
        return L
    if num == 1:
        return down(L, den)
    if den == 1:
        return up(L, num)
    return down(up(L, num), den)


def _same_layout(answer, want):
    return _ok(answer) and isinstance(answer.value, LayoutBase) and \
        answer.value.shape == want.shape and answer.value.stride == want.stride


def _recast_model(op, inputs, up, down):
    if op == "upcast":
        return up(inputs[0], int(inputs[1]))
    if op == "downcast":
        return down(inputs[0], int(inputs[1]))
    if op == "recast_layout":
        return _recast(inputs[0], int(inputs[1]), int(inputs[2]), up, down)
    return None


@symptom
def unchecked_recast(inputs, answer, reference, op=None):
    """F-210 / F-220: the layout of CuTe's upcast / downcast arithmetic with its checks
    (divisibility, a static stride-1 mode) skipped; composed layouts part by part."""
    if op in ("composed_upcast", "composed_downcast"):
        Cl, N = inputs[0], int(inputs[1])
        if not (_ok(answer) and isinstance(answer.value, ComposedLayoutBase)):
            return False
        S = _spec()
        f = unchecked_upcast if op == "composed_upcast" else unchecked_downcast
        inner = f(Cl.inner, N)
        got = answer.value
        return got.inner.shape == inner.shape and got.inner.stride == inner.stride and \
            _fn(got) == [_sw(S.swizzle_upcast(Cl.outer, N) if op == "composed_upcast"
                             else S.swizzle_downcast(Cl.outer, N), v + int(got.offset))
                         for v in _fn(inner)] if isinstance(Cl.outer, Swizzle) else False
    want = _recast_model(op, inputs, unchecked_upcast, unchecked_downcast)
    return want is not None and _same_layout(answer, want)


unchecked_recast.wants_op = True


@symptom
def dynamic_stride_truncated(inputs, answer, reference, op=None):
    """F-222: CuTe C++ divides a dynamic stride by N with no check (safe_div's assert is
    commented out): stride d // N, shape kept."""
    def up(L, N):
        return unchecked_upcast(L, N, dynamic_floor=True)
    want = _recast_model(op, inputs, up, unchecked_downcast)
    return want is not None and _same_layout(answer, want)


dynamic_stride_truncated.wants_op = True


@predicate
def dynamic_stride_not_divisible(L=None, N=None, *rest):
    """F-222: a dynamic (runtime) stride that N does not divide."""
    if not isinstance(L, LayoutBase) or not isinstance(N, int):
        return False
    n = int(N) if len(rest) == 0 else None
    if n is None:  # recast_layout(L, old, new): the upcast factor
        from math import gcd
        old, new = int(N), int(rest[0])
        n = new // gcd(new, old)
    return any(not isinstance(d, C) and int(d) % n for d in leaves(L.stride))


@predicate
def recast_args(*inputs):
    return bool(inputs) and isinstance(inputs[0], (LayoutBase, ComposedLayoutBase))


@predicate
def tile_to_shape_not_divisible(block=None, trg=None, *rest):
    """F-211: a static target whose per-mode sizes the block's do not divide."""
    if not isinstance(block, LayoutBase):
        return False
    S = _spec()
    try:
        S.tile_to_shape(block, trg, *rest)
    except LayoutError as e:
        return e.condition == "divisibility"
    return False


@symptom
def tile_to_shape_unchecked(inputs, answer, reference):
    """blocked_product(block, make_ordered_layout(ceil_div(target, block), order)) built
    without the divisibility check."""
    S = _spec()
    block, trg = inputs[0], inputs[1]
    order = inputs[2] if len(inputs) > 2 else None
    from layoutcheck.spec.algebra import _append_to
    R = len(trg) if isinstance(trg, tuple) else 1
    padded = _append_to(S.as_layout(block), R)
    bs = S.product_each(padded.shape if isinstance(padded.shape, tuple) else (padded.shape,))
    ts = S.product_each(trg)
    q = tuple(C(-(-int(t) // int(b))) for t, b in zip(ts, bs))
    tiler = S.make_ordered_layout(q, order if order is not None else tuple(C(i) for i in range(R)))
    want = S.blocked_product(padded, tiler, sense="cute")
    return _ok(answer) and isinstance(answer.value, LayoutBase) and _fn(answer.value) == _fn(want) \
        and _size(answer.value.shape) == _size(want.shape)


# --- small API conventions and bugs ------------------------------------------------------------

def _tile_to_shape_product(block, trg, order=None):
    """(padded block, tiler): the blocked_product inside CuTe's tile_to_shape (layout.hpp:
    blocked_product(append<R>(block), make_ordered_layout(ceil_div(target, block), order)))."""
    S = _spec()
    from layoutcheck.spec.algebra import _append_to
    R = len(trg) if isinstance(trg, tuple) else 1
    padded = _append_to(S.as_layout(block), R)
    bs = S.product_each(padded.shape if isinstance(padded.shape, tuple) else (padded.shape,))
    ts = S.product_each(trg if isinstance(trg, tuple) else (trg,))
    q = tuple(C(-(-int(t) // int(b))) for t, b in zip(ts, bs))
    return padded, S.make_ordered_layout(q, order if order is not None else tuple(C(i) for i in range(R)))


def _static_inner_product(block, trg, order):
    from layoutcheck.oracles.cpp.findings.algebra import has_dynamic_integer
    if not isinstance(block, LayoutBase) or has_dynamic_integer(block, trg):
        return None
    try:
        return _tile_to_shape_product(block, trg, order)
    except (LayoutError, TypeError, ValueError, ZeroDivisionError):
        return None


@predicate
def tile_to_shape_product_not_composable(block=None, trg=None, order=None, *rest):
    """F-059 (C++) / F-082 (DSL) inside tile_to_shape: every integer static, and the
    blocked_product inside is one whose composition CuTe accepts though it does not exist
    (oracles/pycute/findings/algebra.py: product_cute_accepts_not_composable)."""
    from layoutcheck.findings import PREDICATES
    pair = _static_inner_product(block, trg, order)
    return pair is not None and bool(PREDICATES["product_cute_accepts_not_composable"](*pair))


@predicate
def cpp_tile_to_shape_product_not_complementable(block=None, trg=None, order=None, *rest):
    """F-075 inside tile_to_shape (CuTe C++): every integer static, and the blocked_product
    inside needs a complement that does not exist in CuTe's sense, which CuTe computes
    anyway (oracles/cpp/findings/algebra.py: cpp_not_complementable)."""
    from layoutcheck.findings import PREDICATES
    pair = _static_inner_product(block, trg, order)
    return pair is not None and bool(PREDICATES["cpp_not_complementable"](*pair, op="blocked_product"))


def _same_as_model_product(inputs, answer, model):
    """The answer has the function and size of ``model``'s blocked_product of the pair inside
    tile_to_shape (CuTe's own, wrong, product)."""
    pair = _static_inner_product(*(tuple(inputs) + (None,) * 3)[:3])
    want = None if pair is None else model("blocked_product", *pair)
    if want is None or want.kind != "ok" or not _ok(answer) or not isinstance(answer.value, LayoutBase):
        return False
    return _fn(answer.value) == _fn(want.value) and _size(answer.value.shape) == _size(want.value.shape)


@symptom
def cpp_tile_to_shape_wrong_product(inputs, answer, reference):
    """CuTe C++'s product inside tile_to_shape (oracles/cpp/model.py)."""
    import layoutcheck.oracles.cpp.model as models_cpp
    return _same_as_model_product(inputs, answer, models_cpp.answer)


@symptom
def dsl_tile_to_shape_wrong_product(inputs, answer, reference):
    """The DSL's product inside tile_to_shape (oracles/dsl/findings/algebra.py's model)."""
    import layoutcheck.oracles.dsl.findings.algebra as known_dsl
    return _same_as_model_product(inputs, answer, known_dsl.answer)


@predicate
def leaf_layout(L=None, *rest):
    return isinstance(L, LayoutBase) and not isinstance(L.shape, tuple)


@symptom
def dsl_len_of_int(inputs, answer, reference):
    return _raised(answer, "has no len()")


@predicate
def integer_inttuple(t=None, *rest):
    return isinstance(t, int) and not isinstance(t, bool)


@symptom
def product_each_keeps_the_integer(inputs, answer, reference):
    return _ok(answer) and not isinstance(answer.value, tuple) and int(answer.value) == int(inputs[0])


@symptom
def product_each_not_iterable(inputs, answer, reference):
    return _raised(answer, "not iterable")


@predicate
def empty_group(L=None, b=None, e=None, *rest):
    return isinstance(b, int) and b == e


@symptom
def dsl_begin_before_end(inputs, answer, reference):
    return _raised(answer, "Expected begin < end")


@predicate
def integer_tile_coordinate(L=None, T=None, coord=None, *rest):
    return isinstance(coord, int) and not isinstance(coord, bool)


@symptom
def dsl_wants_rest_rank_coordinate(inputs, answer, reference):
    return _raised(answer, "coordinate of rank", "valid coordinate")


@predicate
def short_tile_tuple(Cl=None, T=None, *rest):
    """F-216: a Tile tuple with fewer entries than the inner layout's rank."""
    if not (isinstance(Cl, ComposedLayoutBase) and isinstance(T, tuple)):
        return False
    r = len(Cl.inner.shape) if isinstance(Cl.inner.shape, tuple) else 1
    return len(T) < r


@symptom
def composed_drops_untiled_modes(inputs, answer, reference):
    """The DSL composes the inner layout's first len(T) modes by mode and drops the rest
    (F-087 inside a composed layout)."""
    Cl, T = inputs[0], inputs[1]
    S = _spec()
    k = len(T)
    inner = Cl.inner
    head = LayoutBase(inner.shape[:k], inner.stride[:k])
    try:
        want = S.composition(head, T, sense="cute")
    except LayoutError:
        return False
    got = answer.value if _ok(answer) else None
    return (isinstance(got, ComposedLayoutBase) and got.inner == want
            and got.offset == Cl.offset and _same_outer(got.outer, Cl.outer))


def _same_outer(a, b):
    """The same outer function: equal, or two identity swizzles (B = 0; the DSL prints any
    Sw<0,M,S> as its own canonical Sw<0,4,3>)."""
    if a == b:
        return True
    return all(isinstance(x, Swizzle) and x.bits == 0 for x in (a, b))


@predicate
def integer_tiler(Cl=None, T=None, *rest):
    return isinstance(T, int) and not isinstance(T, bool)


@symptom
def dsl_tiler_not_a_value(inputs, answer, reference):
    return _raised(answer, "must be a Value")


@predicate
def dynamic_integer_in_pair(A=None, B=None, *rest):
    """F-223: A or B holds a runtime integer."""
    return any(isinstance(L, LayoutBase) and any(not isinstance(x, C)
                                                  for x in leaves(L.shape) + leaves(L.stride))
               for L in (A, B))


@symptom
def static_identity_only(inputs, answer, reference, op=None):
    """CuTe keeps only a *static* stride-1 first mode of coalesce(A o right_inverse(B)):
    with runtime integers max_common_vector is _1 and max_common_layout _1:_0."""
    if not _ok(answer):
        return False
    if op == "max_common_layout":
        return isinstance(answer.value, LayoutBase) and _size(answer.value.shape) == 1
    return not isinstance(answer.value, tuple) and int(answer.value) == 1


static_identity_only.wants_op = True


@predicate
def common_composition_rejected(A=None, B=None, *rest):
    """F-224: composition(A, right_inverse(B)) fails CuTe's static checks (the spec's model of
    them, or the CuTe C++ model of oracles/cpp/model.py, which also knows coalesce_x, F-058)."""
    if not (isinstance(A, LayoutBase) and isinstance(B, LayoutBase)):
        return False
    S = _spec()
    R = S.right_inverse(B)
    if S.cute_composition_check(A, R) is not None:
        return True
    from layoutcheck.oracles.cpp.model import answer
    out = answer("composition", A, LayoutBase(R.shape, R.stride), static=True)
    return out is not None and out.kind == "raised"


@symptom
def composition_refused(inputs, answer, reference):
    return _raised(answer, "Divisibility Condition", "unable to compute the following composition")


@predicate
def tied_static_orders(shape=None, order=None, *rest):
    flat = leaves(order) if isinstance(order, tuple) else (order,)
    vals = [int(o) for o in flat]
    return len(set(vals)) != len(vals)


@symptom
def ties_broken_by_position(inputs, answer, reference):
    """NVlabs PyCuTe: equal orders are laid out left to right (its docstring's
    (0,2,3,0) -> (1,4,12,2)), where CuTe starts them at the same stride."""
    shape, order = inputs[0], inputs[1]
    flat_s = [_size(m) for m in (shape if isinstance(shape, tuple) else (shape,))]
    flat_o = [int(o) for o in (order if isinstance(order, tuple) else (order,))]
    rank = sorted(range(len(flat_o)), key=lambda i: (flat_o[i], i))
    starts, run = [0] * len(rank), 1
    for i in rank:
        starts[i] = run
        run *= flat_s[i]
    S = _spec()
    modes = shape if isinstance(shape, tuple) else (shape,)
    want = LayoutBase(tuple(modes), tuple(S.compact_col_major(m, C(st)) for m, st in zip(modes, starts)))
    return _ok(answer) and isinstance(answer.value, LayoutBase) and _fn(answer.value) == _fn(want)


# --- F-225 (make_layout_like), F-229: NVlabs PyCuTe's orders ---------------------------------------

@predicate
def tied_static_strides(L=None, *rest):
    """F-225: two non-zero static strides of L are equal (CuTe orders them as tied)."""
    if not isinstance(L, LayoutBase):
        return False
    d = [int(x) for x in leaves(L.stride) if int(x) != 0]
    return len(set(d)) != len(d)


@symptom
def like_ties_broken_by_position(inputs, answer, reference):
    """NVlabs: size-1 and zero-stride modes get stride 0, the others compact strides by
    (stride, position)."""
    L = inputs[0]
    s, d = [int(x) for x in leaves(L.shape)], [int(x) for x in leaves(L.stride)]
    live = sorted((i for i in range(len(s)) if s[i] > 1 and d[i] != 0), key=lambda i: (d[i], i))
    out, run = [0] * len(s), 1
    for i in live:
        out[i] = run
        run *= s[i]
    got = answer.value if _ok(answer) else None
    return isinstance(got, LayoutBase) and [int(x) for x in leaves(got.shape)] == s and \
        [int(x) if int(y) > 1 else 0 for x, y in zip(leaves(got.stride), leaves(got.shape))] == out


@predicate
def order_coarser_than_shape(shape=None, order=None, *rest):
    """F-229: the order's profile is coarser than the shape's (CuTe's weak congruence)."""
    from layoutcheck.layout import congruent
    return order is not None and not congruent(shape, order)


@symptom
def nvlabs_wants_congruent_order(inputs, answer, reference):
    return _raised(answer, "not congruent")


@predicate
def non_injective_block(block=None, *rest):
    """F-231: the tile_to_shape block is not injective (its offsets overlap)."""
    if not isinstance(block, LayoutBase):
        return False
    v = _spec().values(block)
    return len(set(v)) != len(v)


@symptom
def dsl_process_died_tile(inputs, answer, reference):
    """The DSL dies (SIGFPE): a crash, always an error at a gate; named so that the campaign
    steers away from the region."""
    return answer is not None and answer.kind == "crashed"
