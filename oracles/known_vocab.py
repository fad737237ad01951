"""Predicates of the findings of issue 16 (swizzles, composed layouts, recast, tiling):
F-200..F-225 in the block "swizzles, recast, tiling" of findings.toml.

Region predicates (``when``: ``fn(*inputs)``) and symptoms (``answer``: ``fn(inputs, answer,
reference)``), per DESIGN.md "Answer-precise findings": a symptom recomputes what the
implementation's bug or convention produces -- from its source (CuTe's swizzle_layout.hpp
decay in ``cute_swizzle_slice``, pycute's ComposedLayout.cosize, the DSL's unchecked recast)
-- and is True only when the answer is exactly that (by value, or for layouts with
negative strides by function, which is all a slice's answer is judged by).
"""

from layoutcheck.composed import ComposedLayoutBase, SignedLayout, Swizzle
from layoutcheck.errors import LayoutError
from layoutcheck.findings import predicate, symptom
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore, leaves

__all__ = ["cute_swizzle_slice", "unchecked_upcast", "unchecked_downcast"]


def _spec():
    from layoutcheck import spec
    return spec


def _ok(answer):
    return answer is not None and answer.kind == "ok"


def _raised(answer, *needles):
    return answer is not None and answer.kind == "raised" and \
        any(n in answer.message for n in needles)


def _size(s):
    n = 1
    for x in leaves(s):
        n *= int(x)
    return n


def _has_underscore(c):
    return isinstance(c, Underscore) or (isinstance(c, tuple) and any(map(_has_underscore, c)))


def _eval(shape, stride, x):
    """A (signed) layout at an integer x >= 0, the last mode taking the rest."""
    s, d = [int(v) for v in leaves(shape)], [int(v) for v in leaves(stride)]
    total = 0
    for i, (si, di) in enumerate(zip(s, d)):
        if i == len(s) - 1:
            return total + x * di
        total += (x % si) * di
        x //= si
    return total


def _fn(x):
    from layoutcheck.oracles.vocab_compare import answer_values
    return [int(v) for v in answer_values(x)]


def _sw(sw, x):
    B, M, S = sw.params
    y = ((1 << B) - 1) << (M + max(0, S))
    t = x & y
    return x ^ (t >> S if S >= 0 else t << -S)


def _masks(sw):
    B, M, S = sw.params
    f = (1 << B) - 1
    return f << (M + max(0, S)), f << (M - min(0, S))


# --- F-200 / F-201: pycute's swizzle.py ------------------------------------------------------

def _swizzles_in(x):
    if isinstance(x, Swizzle):
        yield x
    elif isinstance(x, ComposedLayoutBase):
        yield from _swizzles_in(x.outer)
    elif isinstance(x, tuple):
        for e in x:
            yield from _swizzles_in(e)


@predicate
def swizzle_shift_zero(*inputs):
    """F-200: a swizzle with SShift = 0 (only B = 0 allows it: the identity)."""
    return any(sw.shift == 0 for sw in _swizzles_in(inputs))


@symptom
def python_recursion_error(inputs, answer, reference):
    """pycute's shiftr/shiftl call each other for a shift of 0 until the stack overflows."""
    return _raised(answer, "RecursionError")


@predicate
def composed_argument(Cl=None, *rest):
    return isinstance(Cl, ComposedLayoutBase)


@predicate
def composed_with_layout_outer(Cl=None, *rest):
    return isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, LayoutBase)


@symptom
def cosize_of_outer(inputs, answer, reference):
    """pycute's ComposedLayout.cosize() is cosize(layoutB), its outer function: a Swizzle's
    2^(B+M+|S|), or the outer layout's cosize."""
    Cl = inputs[0]
    if not _ok(answer) or not isinstance(Cl, ComposedLayoutBase):
        return False
    want = 1 << Cl.outer.span if isinstance(Cl.outer, Swizzle) else int(_spec().cosize(Cl.outer))
    return int(answer.value) == want


@symptom
def cosize_of_inner(inputs, answer, reference):
    """F-202: CuTe's cosize(ComposedLayout) is cosize(layout_b), the inner layout's."""
    Cl = inputs[0]
    return _ok(answer) and isinstance(Cl, ComposedLayoutBase) and \
        int(answer.value) == int(_spec().cosize(Cl.inner))


@symptom
def dsl_no_cosize_for_affine_outer(inputs, answer, reference):
    return _raised(answer, "can't derive meaningful cosize")


# --- F-205, F-207, F-208: CuTe's slice_and_offset of Sw o O o L (swizzle_layout.hpp) ---------

def _zy_layouts(sw):
    B, M, S = sw.params
    a = abs(S)
    shape = (1 << M, 1 << B, 1 << (a - B), 1 << B, 1)
    anti = (1, 0, 1 << (M + B), 0, 1 << (M + B + a))
    only = (0, 1 << M, 0, 1 << (M + a), 0)
    return shape, anti, only


def _parts(Cl, coord):
    S = _spec()
    sliced, _off = S.slice_and_offset(Cl.inner, coord)
    diced = S.dice(Cl.inner, coord)
    return sliced, diced, _dice_coord(coord)


def _dice_coord(c):
    """CuTe's dice(c, c): the integer entries of c, as a flat tuple of what dice keeps."""
    if isinstance(c, tuple):
        out = ()
        for e in c:
            d = _dice_coord(e)
            out += d if isinstance(d, tuple) else (d,)
        return out
    return () if isinstance(c, Underscore) else c


def _projection_fails(Cl, coord):
    S = _spec()
    shape, _anti, only = _zy_layouts(Cl.outer)
    proj = LayoutBase(tuple(C(x) for x in shape), tuple(C(x) for x in only))
    sliced, diced, _dc = _parts(Cl, coord)
    return any(S.cute_composition_check(proj, L) for L in (sliced, diced) if _size(L.shape) > 1)


@predicate
def swizzle_slice_projection_fails(Cl=None, coord=None, *rest):
    """F-205 (#3454): CuTe's slice of Sw o O o L composes the swizzle's Y/Z projection
    (2^M, 2^B, 2^(|S|-B), 2^B):(0, 2^M, 0, 2^(M+|S|)) with the sliced (or diced) layout, and
    that composition fails CuTe's divisibility checks (e.g. a 10-row layout)."""
    if not (isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle)
            and _has_underscore(coord)):
        return False
    try:
        return _projection_fails(Cl, coord)
    except LayoutError:
        return False


@symptom
def cute_divisibility_rejection(inputs, answer, reference):
    return _raised(answer, "Divisibility Condition")


@predicate
def dynamic_integer_in_composed(Cl=None, *rest):
    """F-206: the composed layout's inner layout holds a runtime integer."""
    return isinstance(Cl, ComposedLayoutBase) and any(
        not isinstance(x, C) for x in leaves(Cl.inner.shape) + leaves(Cl.inner.stride))


@symptom
def dsl_process_died(inputs, answer, reference):
    """The DSL's native code aborted (the worker died): never a finding's answer at a gate
    (a crash is always an error), named so that the campaign steers away from the region."""
    return answer is not None and answer.kind == "crashed"


def cute_swizzle_slice(Cl, coord):
    """The function CuTe's swizzle_layout.hpp slice_and_offset returns for Sw o O o L at a
    coordinate holding ``_``, as (values of S(i) + offset, size): its decay to a normal layout
    when the sliced part hits Y or Z alone (strides from the offset's Y/Z bits, assuming the
    offset plus the layout adds without carries) or the composed form when it hits both."""
    S = _spec()
    sw, O = Cl.outer, int(Cl.offset)
    B, M, Sh = sw.params
    shape, anti, only = _zy_layouts(sw)
    sliced, diced, dcoord = _parts(Cl, coord)
    d_at = S.crd2idx(dcoord, diced.shape, diced.stride) if _size(diced.shape) else 0
    off_zy = O ^ _eval(shape, only, int(d_at))
    off_anti = _eval(shape, anti, int(d_at))
    n = _size(sliced.shape)
    pts = [int(S.crd2idx(i, sliced.shape, sliced.stride)) for i in range(n)]
    active = _eval(shape, only, pts[-1]) if pts else 0
    if active & ~_sw(sw, active):  # hits Y and Z: Sw o off_zy o sliced, offset off_anti
        return [_sw(sw, off_zy + p) + off_anti for p in pts]
    y, z = _masks(sw)
    Z, Y = z & -z, y & -y

    def strides(flag):
        if flag:
            return [Z << i if not off_zy & (Y << i) else -(Z << i) for i in range(B)]
        return [(Y + Z) << i if not off_zy & (Z << i) else (Y - Z) << i for i in range(B)]
    lo, hi = strides(Z < Y), strides(Z > Y)
    a = abs(Sh)
    dshape = (1 << M, *([2] * B), 1 << (a - B), *([2] * B), 1)
    dstride = (1, *lo, 1 << (M + B), *hi, 1 << (M + B + a))
    base = _sw(sw, off_zy) + off_anti
    return [_eval(dshape, dstride, p) + base for p in pts]


@predicate
def swizzle_offset_in_fields(Cl=None, coord=None, *rest):
    """F-207: Sw o O o L with O setting bits of the swizzle's Y or Z field, sliced at a
    coordinate holding ``_`` (outside F-205's region)."""
    if not (isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle)
            and _has_underscore(coord)):
        return False
    y, z = _masks(Cl.outer)
    return bool(int(Cl.offset) & (y | z)) and not swizzle_slice_projection_fails(Cl, coord)


@symptom
def cute_decayed_slice_function(inputs, answer, reference):
    """The answer's function S(i) + offset is CuTe's decay (``cute_swizzle_slice``)."""
    Cl, coord = inputs[0], inputs[1]
    if not _ok(answer) or not isinstance(answer.value, tuple):
        return False
    S, off = answer.value
    try:
        return [v + int(off) for v in _fn(S)] == cute_swizzle_slice(Cl, coord)
    except LayoutError:
        return False


@predicate
def swizzle_full_coordinate(Cl=None, coord=None, *rest):
    """F-208: Sw o O o L sliced at a coordinate without ``_``."""
    return isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle) and \
        not _has_underscore(coord)


@symptom
def cpp_rejects_at_compile_time(inputs, answer, reference):
    """CuTe C++ does not compile the case (its decay code instantiates calls that fail:
    'no matching function for call to make_layout()', or a divisibility static_assert)."""
    return _raised(answer, "compile error", "compile-time rejection")


@symptom
def dsl_prints_x(inputs, answer, reference):
    return _raised(answer, "x:x")


@symptom
def dsl_offset_twice(inputs, answer, reference):
    """F-209: the DSL's slice_and_offset returns (A o (O + off) o slice, A(O + off)): the
    composed part keeps the new offset and the pair's offset applies it again."""
    Cl, coord = inputs[0], inputs[1]
    if not (_ok(answer) and isinstance(Cl, ComposedLayoutBase) and isinstance(answer.value, tuple)):
        return False
    S = _spec()
    sliced, off = S.slice_and_offset(Cl.inner, coord)
    new = int(Cl.offset) + int(off)
    outer = (lambda v: _sw(Cl.outer, v)) if isinstance(Cl.outer, Swizzle) else \
        (lambda v: _eval(Cl.outer.shape, Cl.outer.stride, v))
    got, got_off = answer.value
    want = [outer(new + int(S.crd2idx(i, sliced.shape, sliced.stride)))
            for i in range(_size(sliced.shape))]
    return int(got_off) == outer(new) and _fn(got) == want and int(got_off) != 0


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
    return isinstance(got, ComposedLayoutBase) and got.inner == want and got.outer == Cl.outer


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
    them, or the CuTe C++ model of oracles/models_cpp.py, which also knows coalesce_x, F-058)."""
    if not (isinstance(A, LayoutBase) and isinstance(B, LayoutBase)):
        return False
    S = _spec()
    R = S.right_inverse(B)
    if S.cute_composition_check(A, R) is not None:
        return True
    from layoutcheck.oracles.models_cpp import answer
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


# --- F-226: a composed layout's algebra inherits the inner layout's findings -------------------

def _outcome(fn):
    from layoutcheck.oracles.protocol import Outcome
    try:
        return Outcome.ok(fn())
    except LayoutError as e:
        return Outcome.raised(str(e))


_INNER_OP = {"composed_composition": "composition", "composed_logical_divide": "logical_divide",
             "composed_zipped_divide": "zipped_divide", "composed_tiled_divide": "tiled_divide"}


def _inner_known(oracle, inputs, answer, op):
    from layoutcheck.findings import find_known
    from layoutcheck.oracles.protocol import Outcome
    inner_op = _INNER_OP.get(op)
    Cl = inputs[0] if inputs else None
    if op == "composed_right_inverse":
        inner_op = "right_inverse"
    if inner_op is None or not isinstance(Cl, ComposedLayoutBase) or answer is None:
        return None
    args = (LayoutBase(Cl.inner.shape, Cl.inner.stride),) + tuple(inputs[1:])
    if inner_op == "right_inverse":  # composition(right_inverse(L), Sw): only a decayed answer
        S = _spec()                  # (the swizzle gone) is right_inverse(L) itself
        ref = _outcome(lambda: S.right_inverse(args[0]))
        if answer.kind == "ok" and isinstance(answer.value, LayoutBase) and _size(answer.value.shape) == 1:
            return find_known(oracle, inner_op, "agreement", args, answer, ref)
        return None
    S = _spec()
    try:
        ref = Outcome.ok(getattr(S, inner_op)(*args, sense="cute"))
    except LayoutError as e:
        ref = Outcome.raised(str(e))
    if answer.kind == "ok":
        got = answer.value
        if not (isinstance(got, ComposedLayoutBase) and got.outer == Cl.outer
                and int(got.offset) == int(Cl.offset) and isinstance(got.inner, LayoutBase)):
            return None
        inner_answer = Outcome.ok(got.inner)
    elif answer.kind == "raised":
        inner_answer = answer
    else:
        return None
    return find_known(oracle, inner_op, "agreement", args, inner_answer, ref)


@predicate
def composed_algebra(Cl=None, *rest):
    """F-226: a composed layout under composition or a divide."""
    return isinstance(Cl, ComposedLayoutBase)


@symptom
def cpp_inner_finding(inputs, answer, reference, op=None):
    """CuTe C++ computes A o O o op(B, T): the answer keeps A and O and its inner part is
    CuTe C++'s op(B, T), which a finding of the layout algebra explains."""
    return _inner_known("cute-cpp", inputs, answer, op) is not None


cpp_inner_finding.wants_op = True


@symptom
def dsl_inner_finding(inputs, answer, reference, op=None):
    """The same for the DSL (its op on the inner layout, explained by a DSL finding)."""
    return _inner_known("cute-dsl", inputs, answer, op) is not None


dsl_inner_finding.wants_op = True


# --- F-224, F-227, F-228 -------------------------------------------------------------------------

@predicate
def swizzle_conjugate_fails(L=None, sw=None, *rest):
    """F-227: CuTe's Sw' = make_swizzle<L(Y), L(Z)> is a swizzle, but Sw' o L is not L o Sw on
    L's domain (the spec refuses with condition swizzle_conjugate)."""
    if not (isinstance(L, LayoutBase) and isinstance(sw, Swizzle)):
        return False
    try:
        _spec().layout_swizzle_composition(L, sw)
    except LayoutError as e:
        return e.condition == "swizzle_conjugate"
    return False


@symptom
def cute_swizzle_construction(inputs, answer, reference):
    """CuTe C++'s composition(Layout, Swizzle): make_swizzle<L(yyy), L(zzz)> o _0 o L."""
    L, sw = inputs[0], inputs[1]
    S = _spec()
    y, z = _masks(sw)
    try:
        new = S.make_swizzle(S.crd2idx(y, L.shape, L.stride), S.crd2idx(z, L.shape, L.stride))
    except LayoutError:
        return False
    got = answer.value if _ok(answer) else None
    return isinstance(got, ComposedLayoutBase) and got.outer == new and int(got.offset) == 0 \
        and got.inner == L


@predicate
def composed_runtime_offset(Cl=None, *rest):
    """F-228: the composed layout's offset is a runtime integer."""
    return isinstance(Cl, ComposedLayoutBase) and not isinstance(Cl.offset, C)
