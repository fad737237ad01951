"""Predicates of the findings on swizzles and composed layouts (F-200..F-209,
F-226..F-228 in the block "swizzles, recast, tiling" of findings.toml; recast, vectorization
and tiling: oracles/dsl/findings/recast.py).

Region predicates (``when``: ``fn(*inputs)``) and symptoms (``answer``: ``fn(inputs, answer,
reference)``), per DESIGN.md "Answer-precise findings": a symptom recomputes what the
implementation's bug or convention produces -- from its source (CuTe's swizzle_layout.hpp
decay in ``cute_swizzle_slice``, pycute's ComposedLayout.cosize, the DSL's unchecked recast)
-- and is True only when the answer is exactly that (by value, or for layouts with
negative strides by function, which is all a slice's answer is judged by).
"""

from types import SimpleNamespace

import layoutcheck.spec as spec
from layoutcheck.oracles.postconditions import evaluate
from layoutcheck.oracles.predicates import answered, raised_with_any, region, symptom
from layoutcheck.oracles.predicates import inner_finding as find_known
from layoutcheck.oracles.protocol import Outcome
from layoutcheck.oracles.regions import cute_composition_check, function_values, swizzle_value

from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore, size

__all__ = ["cute_swizzle_slice", "PLANTED"]


def has_underscore(c):
    return isinstance(c, Underscore) or (isinstance(c, tuple) and any(map(has_underscore, c)))


def signed_eval(shape, stride, x):
    """A (signed) layout at an integer x >= 0, the last mode taking the rest
    (``findings.evaluate`` on the bare modes: a signed stride is no LayoutBase)."""
    return evaluate(SimpleNamespace(shape=shape, stride=stride), x)


def _same_outer(a, b):
    """Equal outer functions: the same value, or two identity swizzles (B = 0; the DSL prints
    every identity swizzle as S<0,4,3>)."""
    if isinstance(a, Swizzle) and isinstance(b, Swizzle) and a.bits == b.bits == 0:
        return True
    return a == b


def _masks(sw):
    B, M, S = sw.params
    f = (1 << B) - 1
    return f << (M + max(0, S)), f << (M - min(0, S))


# --- F-200 / F-201: pycute's swizzle.py ------------------------------------------------------


@symptom
def cosize_of_inner(inputs, answer, reference):
    """F-202: CuTe's cosize(ComposedLayout) is cosize(layout_b), the inner layout's."""
    Cl = inputs[0]
    return answered(answer) and isinstance(Cl, ComposedLayoutBase) and \
        int(answer.value) == int(spec.cosize(Cl.inner))


# --- F-205, F-207, F-208: CuTe's slice_and_offset of Sw o O o L (swizzle_layout.hpp) ---------

def zy_layouts(sw):
    B, M, S = sw.params
    a = abs(S)
    shape = (1 << M, 1 << B, 1 << (a - B), 1 << B, 1)
    anti = (1, 0, 1 << (M + B), 0, 1 << (M + B + a))
    only = (0, 1 << M, 0, 1 << (M + a), 0)
    return shape, anti, only


def slice_parts(Cl, coord):
    S = spec
    sliced, _off = S.slice_and_offset(Cl.inner, coord)
    diced = S.dice(Cl.inner, coord)
    return sliced, diced, dice_coord(coord)


def dice_coord(c):
    """CuTe's dice(c, c): the integer entries of c, as a flat tuple of what dice keeps."""
    if isinstance(c, tuple):
        out = ()
        for e in c:
            d = dice_coord(e)
            out += d if isinstance(d, tuple) else (d,)
        return out
    return () if isinstance(c, Underscore) else c


def projection_fails(Cl, coord):
    S = spec
    shape, _anti, only = zy_layouts(Cl.outer)
    proj = LayoutBase(tuple(C(x) for x in shape), tuple(C(x) for x in only))
    sliced, diced, _dc = slice_parts(Cl, coord)
    return any(cute_composition_check(proj, L) for L in (sliced, diced) if size(L.shape) > 1)


@region
def swizzle_slice_projection_fails(Cl=None, coord=None, *rest):
    """F-205 (#3454): CuTe's slice of Sw o O o L composes the swizzle's Y/Z projection
    (2^M, 2^B, 2^(|S|-B), 2^B):(0, 2^M, 0, 2^(M+|S|)) with the sliced (or diced) layout, and
    that composition fails CuTe's divisibility checks (e.g. a 10-row layout)."""
    if not (isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle)
            and has_underscore(coord)):
        return False
    try:
        return projection_fails(Cl, coord)
    except LayoutError:
        return False


def _projection_fails_x(Cl, coord):
    """projection_fails as CuTe's composition sees the projection: layout.hpp composition
    coalesces its left side with detail::coalesce_x, which turns a trailing size-1 mode into
    size 2 ("preserves the Layout function ... outside" the domain), so the 2^B mode of Z / Y
    before it is no longer the last, unchecked one (a 6-row slice fails on it)."""
    S = spec
    shape, _anti, only = zy_layouts(Cl.outer)
    proj = LayoutBase(tuple(C(x) for x in shape[:-1] + (2,)), tuple(C(x) for x in only))
    sliced, diced, _dc = slice_parts(Cl, coord)
    return any(cute_composition_check(proj, L) for L in (sliced, diced) if size(L.shape) > 1)


def thread_slice(L, thr, val, index):
    """ThrCopy::partition_S / _D of a swizzled tensor L = Sw o O o B as the slice it is:
    (Sw o O o tidfrg(B), (index, _, (_, ..))) -- tidfrg(B) = (Thr, (FrgV, FrgX), Rest) of
    spec/tiling.py (the unfold at ((_, _), _) is all ``_``: CuTe reshapes without a
    projection); None outside (no swizzle, no integer index, no TiledCopy of these layouts)."""
    if not (isinstance(L, ComposedLayoutBase) and isinstance(L.outer, Swizzle)
            and isinstance(index, int) and not isinstance(index, bool)):
        return None
    try:
        frg = spec.tiled_copy_tidfrg(L.inner, thr, val)
    except LayoutError:
        return None
    n = len(L.inner.shape) if isinstance(L.inner.shape, tuple) else 1
    rest = Underscore() if n == 1 else tuple(Underscore() for _k in range(n))
    return ComposedLayoutBase(L.outer, L.offset, frg), (index, Underscore(), rest)


@region
def tiled_copy_slice_projection_fails(L=None, thr=None, val=None, index=None, *rest):
    """F-240: the thread's slice (``thread_slice``) fails F-205's projection check, with
    CuTe's coalesce_x of the projection."""
    sl = thread_slice(L, thr, val, index)
    try:
        return sl is not None and _projection_fails_x(*sl)
    except LayoutError:
        return False


@region
def tiled_copy_offset_in_fields(L=None, thr=None, val=None, index=None, *rest):
    """F-207 through ThrCopy::partition_S / _D: the thread's slice is Sw o O' o tidfrg(B) with
    O' (the tensor's offset) setting bits of the swizzle's fields, outside F-240's region."""
    sl = thread_slice(L, thr, val, index)
    return sl is not None and swizzle_offset_in_fields(*sl) and \
        not tiled_copy_slice_projection_fails(L, thr, val, index)


@symptom
def cute_decayed_thread_slice(inputs, answer, reference):
    """F-207's decay (``cute_swizzle_slice``) of the thread's slice: the partition's function."""
    sl = thread_slice(*inputs[:4]) if len(inputs) >= 4 else None
    return sl is not None and cute_decayed_slice_function(sl, answer, reference)


@symptom
def cute_divisibility_rejection(inputs, answer, reference):
    return raised_with_any(answer, "Divisibility Condition")


def cute_swizzle_slice(Cl, coord):
    """The function CuTe's swizzle_layout.hpp slice_and_offset returns for Sw o O o L at a
    coordinate holding ``_``, as (values of S(i) + offset, size): its decay to a normal layout
    when the sliced part hits Y or Z alone (strides from the offset's Y/Z bits, assuming the
    offset plus the layout adds without carries) or the composed form when it hits both."""
    S = spec
    sw, O = Cl.outer, int(Cl.offset)
    B, M, Sh = sw.params
    shape, anti, only = zy_layouts(sw)
    sliced, diced, dcoord = slice_parts(Cl, coord)
    d_at = S.crd2idx(dcoord, diced.shape, diced.stride) if size(diced.shape) else 0
    off_zy = O ^ signed_eval(shape, only, int(d_at))
    off_anti = signed_eval(shape, anti, int(d_at))
    n = size(sliced.shape)
    pts = [int(S.crd2idx(i, sliced.shape, sliced.stride)) for i in range(n)]
    active = signed_eval(shape, only, pts[-1]) if pts else 0
    if active & ~swizzle_value(sw, active):  # hits Y and Z: Sw o off_zy o sliced, offset off_anti
        return [swizzle_value(sw, off_zy + p) + off_anti for p in pts]
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
    base = swizzle_value(sw, off_zy) + off_anti
    return [signed_eval(dshape, dstride, p) + base for p in pts]


@region
def swizzle_offset_in_fields(Cl=None, coord=None, *rest):
    """F-207: Sw o O o L with O setting bits of the swizzle's Y or Z field, sliced at a
    coordinate holding ``_`` (outside F-205's region)."""
    if not (isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle)
            and has_underscore(coord)):
        return False
    y, z = _masks(Cl.outer)
    return bool(int(Cl.offset) & (y | z)) and not swizzle_slice_projection_fails(Cl, coord)


@symptom
def cute_decayed_slice_function(inputs, answer, reference):
    """The answer's function S(i) + offset is CuTe's decay (``cute_swizzle_slice``)."""
    Cl, coord = inputs[0], inputs[1]
    if not answered(answer) or not isinstance(answer.value, tuple):
        return False
    S, off = answer.value
    try:
        return [v + int(off) for v in function_values(S)] == cute_swizzle_slice(Cl, coord)
    except LayoutError:
        return False


@region
def swizzle_full_coordinate(Cl=None, coord=None, *rest):
    """F-208: Sw o O o L sliced at a coordinate without ``_``."""
    return isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle) and \
        not has_underscore(coord)


@symptom
def cpp_decay_does_not_compile(inputs, answer, reference):
    """F-208: CuTe C++'s slice of a swizzled layout at a full coordinate does not compile --
    its decay code calls make_layout() with no modes, or divides a stride it cannot."""
    return raised_with_any(answer, "no matching function for call to 'make_layout()'",
                   "static assertion failed: Stride Divisibility Condition")


@symptom
def cpp_upcast_of_runtime_offset(inputs, answer, reference):
    """F-228: CuTe C++'s upcast (or downcast) of a composed layout instantiates upcast<N>
    (downcast<N>) on the runtime int offset, which has no overload."""
    return raised_with_any(answer, "no matching function for call to 'upcast<",
                   "no matching function for call to 'downcast<")


# --- F-226: a composed layout's algebra inherits the inner layout's findings -------------------

def _outcome(fn):
    try:
        return Outcome.ok(fn())
    except LayoutError as e:
        return Outcome.raised(str(e))


_INNER_OP = {"composed_composition": "composition", "composed_logical_divide": "logical_divide",
             "composed_zipped_divide": "zipped_divide", "composed_tiled_divide": "tiled_divide"}


def inner_known(oracle, inputs, answer, op):
    inner_op = _INNER_OP.get(op)
    Cl = inputs[0] if inputs else None
    if op == "composed_right_inverse":
        inner_op = "right_inverse"
    if inner_op is None or not isinstance(Cl, ComposedLayoutBase) or answer is None:
        return None
    args = (LayoutBase(Cl.inner.shape, Cl.inner.stride),) + tuple(inputs[1:])
    if inner_op == "right_inverse":  # composition(right_inverse(L), Sw): only a decayed answer
        S = spec                  # (the swizzle gone) is right_inverse(L) itself
        ref = _outcome(lambda: S.right_inverse(args[0]))
        if answer.kind == "ok" and isinstance(answer.value, LayoutBase) and size(answer.value.shape) == 1:
            return find_known(oracle, inner_op, "agreement", args, answer, ref)
        return None
    S = spec
    try:
        ref = Outcome.ok(getattr(S, inner_op)(*args, sense="cute"))
    except LayoutError as e:
        ref = Outcome.raised(str(e))
    if answer.kind == "ok":
        got = answer.value
        if not (isinstance(got, ComposedLayoutBase) and _same_outer(got.outer, Cl.outer)
                and int(got.offset) == int(Cl.offset) and isinstance(got.inner, LayoutBase)):
            return None
        inner_answer = Outcome.ok(got.inner)
    elif answer.kind == "raised":
        inner_answer = answer
    else:
        return None
    return find_known(oracle, inner_op, "agreement", args, inner_answer, ref)


@region
def composed_algebra(Cl=None, *rest):
    """F-226: a composed layout under composition or a divide."""
    return isinstance(Cl, ComposedLayoutBase)


@symptom
def cpp_inner_finding(inputs, answer, reference, op=None):
    """CuTe C++ computes A o O o op(B, T): the answer keeps A and O and its inner part is
    CuTe C++'s op(B, T), which a finding of the layout algebra explains."""
    return inner_known("cute-cpp", inputs, answer, op) is not None






# --- F-224, F-227, F-228 -------------------------------------------------------------------------

@region
def swizzle_conjugate_fails(L=None, sw=None, *rest):
    """F-227: CuTe's Sw' = make_swizzle<L(Y), L(Z)> is a swizzle, but Sw' o L is not L o Sw on
    L's domain (the spec refuses with condition swizzle_conjugate)."""
    if not (isinstance(L, LayoutBase) and isinstance(sw, Swizzle)):
        return False
    try:
        spec.layout_swizzle_composition(L, sw)
    except LayoutError as e:
        return e.condition == "swizzle_conjugate"
    return False


@symptom
def cute_swizzle_construction(inputs, answer, reference):
    """CuTe C++'s composition(Layout, Swizzle): make_swizzle<L(yyy), L(zzz)> o _0 o L; where
    that swizzle is the identity (L maps both masks to 0), composition(Swizzle<0,..>, L) is
    L itself (swizzle_layout.hpp's identity case, F-236's rule)."""
    L, sw = inputs[0], inputs[1]
    S = spec
    y, z = _masks(sw)
    try:
        new = S.make_swizzle(S.crd2idx(y, L.shape, L.stride), S.crd2idx(z, L.shape, L.stride))
    except LayoutError:
        return False
    got = answer.value if answered(answer) else None
    if isinstance(got, LayoutBase):
        return new.bits == 0 and got == L
    return isinstance(got, ComposedLayoutBase) and got.outer == new and int(got.offset) == 0 \
        and got.inner == L


@region
def composed_runtime_offset(Cl=None, *rest):
    """F-228: the composed layout's offset is a runtime integer."""
    return isinstance(Cl, ComposedLayoutBase) and not isinstance(Cl.offset, C)


# --- F-230: the DSL's upcast of a swizzle below its base ---------------------------------------


# --- planted answers (tests/planted_support.py, tests/test_planted.py) -------------------------
# What CuTe C++ and the DSL answered on each finding's case, as they print it (re-run live by
# tests/test_composed_findings.py with LAYOUTCHECK_SLOW=1): (finding, oracle, op, [arguments],
# answer, static inputs).  The register must recognise each as exactly its finding, and any
# other answer in the same region as new.
PLANTED = [
    # finding, oracle, op, arguments, the oracle's answer (as it printed it), static inputs
    ("F-202", "cute-cpp", "composed_cosize", ["Sw<1,0,1> o _0 o _3:_1"], "_3", False),
    ("F-202", "cute-cpp", "composed_cosize", ["_16:_4 o _0 o _24:_1"], "_24", False),
    ("F-202", "cute-dsl", "composed_cosize", ["Sw<1,4,-3> o _0 o (_43,_2):(_1,_86)"], "_129", True),
    ("F-203", "cute-dsl", "composed_cosize", ["_16:_4 o _0 o _24:_1"],
     "raised: MLIRError: error: unknown: can't derive meaningful cosize of composed layout when inner is affine", True),
    ("F-205", "cute-cpp", "composed_slice_and_offset", ["Sw<3,4,3> o _0 o (_10,_2):(_2,_1)", "(_,0)"],
     "raised: compile-time rejection: static assertion failed: Shape Divisibility Condition", False),
    ("F-207", "cute-cpp", "composed_slice_and_offset", ["Sw<3,3,3> o _16 o (_8,_64):(_64,_1)", "(2,_)"],
     "((_8,_2,_2,_2)):((_1,8,-16,32))|128", False),
    ("F-207", "cute-dsl", "composed_slice_and_offset", ["Sw<3,3,3> o _16 o (_8,_64):(_64,_1)", "(2,_)"],
     "Sw<0,4,3> o _0 o ((_16,_2,_2)):((_1,-16,_32))|_128", True),
    ("F-208", "cute-cpp", "composed_slice_and_offset", ["Sw<3,3,3> o _16 o (_8,_64):(_64,_1)", "(2,3)"],
     "raised: compile-time rejection: no matching function for call to 'make_layout()'", False),
    ("F-238", "cute-cpp", "composed_slice_and_offset", ["Sw<3,4,3> o _0 o (6,_17,_1):(56,_0,_0)", "(_,0,0)"],
     "((3,2,1)):((56,144,1024))|_0", False),
    ("F-208", "cute-dsl", "composed_slice_and_offset", ["Sw<3,3,3> o _16 o (_8,_64):(_64,_1)", "(2,3)"],
     "raised: unparseable output 'x:x o 0 o x:x|131'", True),
    ("F-209", "cute-dsl", "composed_slice_and_offset", ["_64:_1 o _5 o (_4,_8):(_1,_4)", "(2,_)"],
     "_64:_1 o _7 o (_8):(_4)|_7", True),
    ("F-209", "cute-dsl", "composed_slice_and_offset", ["Sw<2,1,4> o _0 o (8,64):(64,1)", "(5,_)"],
     "Sw<2,1,4> o _64 o (_64):(_1)|_324", True),
    ("F-216", "cute-dsl", "composed_composition", ["Sw<0,1,0> o _0 o (2,4):(4,1)", "(2)"],
     "Sw<0,4,3> o _0 o (_2):(_4)", True),
    ("F-230", "cute-dsl", "composed_upcast", ["Sw<1,1,5> o _0 o (4,64):(1,4)", "8"],
     "raised: unparseable output 'S<1,4294 o 0 o (1,32):(1,1)': malformed notation", True),
    ("F-210", "cute-dsl", "upcast", ["(_1,_58,_2):(_4,_58,_59)", "2"], "(_1,_58,_2):(_2,_29,_30)", True),
    ("F-210", "cute-dsl", "recast_layout", ["_16:_3", "8", "2"], "_16:_12", True),
    ("F-211", "cute-dsl", "tile_to_shape", ["_5:_2", "(_6,_3)"], "((_5,_2),(_1,_3)):((_2,_1),(_0,_10))", True),
    ("F-212", "cute-dsl", "nullspace", ["_8:_0"], "raised: TypeError: object of type 'int' has no len()", True),
    ("F-213", "cute-dsl", "product_each", ["_4"], "_4", True),
    ("F-214", "cute-dsl", "group_modes", ["_7:_64", "1", "1"], "raised: ValueError: Expected begin < end, but got 1 >= 1", True),
    ("F-215", "cute-dsl", "local_tile", ["(_4,_4):(_1,_4)", "(_2,_2)", "1"],
     "raised: MLIRError: error: unknown: expected a coordinate of rank 2 but got #cute.coord<\"1\">", True),
    ("F-216", "cute-dsl", "composed_composition", ["(1):(1) o 1 o (1,2):(1,1)", "(_1:_0)"],
     "(_1):(_1) o _1 o (_1):(_0)", True),
    ("F-217", "cute-dsl", "composed_zipped_divide", ["_8:_1 o _0 o _8:_1", "2"],
     "raised: ValueError: Operand 1 of operation \"cute.zipped_divide\" must be a Value (is not a Value)", True),
    ("F-222", "cute-cpp", "upcast", ["(8,64):(64,1)", "2"], "(8,64):(32,0)", False),
    ("F-223", "cute-cpp", "max_common_vector", ["(8,64):(64,1)", "(8,64):(64,1)"], "_1", False),
    ("F-224", "cute-cpp", "max_common_vector", ["((_35,_1),_1):((_0,_35),_36)", "((_50,_1)):((_1,_4))"],
     "raised: compile-time rejection: static assertion failed: Shape Divisibility Condition (config.hpp:126)", False),
    ("F-224", "cute-dsl", "max_common_layout", ["((35,1),1):((0,35),36)", "((_50,1)):((_1,4))"],
     "raised: MLIRError: error: unknown: unable to compute the following composition: '!cute.layout<\"((35,1),1):((0,35),36)\">' o '!cute.layout<\"50:1\">'", True),
    ("F-226", "cute-cpp", "composed_logical_divide", ["Sw<0,0,1> o _0 o 51:1", "(17,3):(3,1)"],
     "raised: compile-time rejection: static assertion failed: Dynamic-stride complement only for rank-1 layouts", False),
    ("F-226", "cute-cpp", "composed_tiled_divide", ["Sw<3,4,3> o _0 o (1,4):(4,1)", "2"],
     "Sw<3,4,3> o _0 o ((1,2),1,2):((4,1),8,2)", False),
    ("F-226", "cute-cpp", "composed_composition", ["(1):(1) o 1 o (1,2):(1,1)", "(_1:_0)"],
     "(1):(1) o 1 o (_1):(_0)", False),
    ("F-226", "cute-cpp", "composed_right_inverse", ["Sw<0,0,-1> o _0 o (4,8):(1,4)"], "_1:_0", False),
    ("F-227", "cute-cpp", "layout_swizzle_composition", ["((_57,_2)):((_0,_171))", "Sw<1,1,4>"],
     "((_57,_2)):((_0,_171))", False),
    ("F-227", "cute-cpp", "layout_swizzle_composition", ["(_16,_8):(_8,_1)", "Sw<1,4,3>"],
     "Sw<1,0,3> o _0 o (_16,_8):(_8,_1)", False),
    ("F-228", "cute-cpp", "composed_upcast", ["Sw<1,2,3> o 16 o (_8,_64):(_64,_1)", "2"],
     "raised: compile-time rejection: no matching function for call to 'upcast<2>(const int&)'", False),
    ("F-208", "cute-cpp", "composed_slice_and_offset", ["Sw<1,2,5> o _0 o (_4):(_4)", "(3)"],
     "raised: compile-time rejection: static assertion failed: Stride Divisibility Condition", False),
    ("F-242", "cute-cpp", "composed_slice_and_offset", ["Sw<3,3,3> o _0 o ((_4,_22)):((_1,_16))", "((_,11))"],
     "raised: compile-time rejection: static assertion failed: Requires pow2 shape*stride. (swizzle.hpp:442)", False),
    ("F-240", "cute-cpp", "tiled_copy_partition_D", ["SW_1_1_-4 o _0 o (_8,_6):(_1,_8)", "(_8,_2):(_1,_8)", "(_1,_1):(_1,_1)", "4"], "raised: compile-time rejection: static assertion failed: Shape Divisibility Condition (config.hpp:126)"),
]
