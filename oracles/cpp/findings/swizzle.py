"""Predicates of cute-cpp findings on swizzles and composed layouts, from the triage of
``layoutcheck fuzz --against cute-cpp --budget 300 --seed 7`` (F-234..F-238, F-240's
to_mixed_bits row, and rows of F-205, F-208, F-222).  Same contract as ``known_cpp_api.py``:
``when`` predicates and ``answer`` symptoms that recompute what CuTe C++ (cutlass 4.2 headers)
does, True only for exactly that answer.  Written for this harness; nothing is copied.
"""

import layoutcheck.oracles.cpp.model as M
import layoutcheck.spec as spec
from layoutcheck.oracles.compare import compare
from layoutcheck.oracles.cpp.findings.composed import (
    has_underscore,
    projection_fails,
    signed_eval,
    slice_parts,
    thread_slice,
    zy_layouts,
)
from layoutcheck.oracles.cpp.findings.coordinates import Refused, flat_leaves
from layoutcheck.oracles.cpp.findings.recast import dynamic_stride_not_divisible
from layoutcheck.oracles.predicates import answered, raised_with_all, region, symptom
from layoutcheck.oracles.predicates import inner_finding as find_known
from layoutcheck.oracles.protocol import Outcome
from layoutcheck.oracles.regions import swizzle_value, unchecked_upcast

from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore, leaves

__all__ = ["cpp_index_is_static"]


# --- F-234: composition(Layout, Swizzle) needs the swizzle's masks static -------------------

class _T:
    """A CuTe integer: its value and whether its type is static (integral_constant.hpp)."""

    def __init__(self, v, s):
        self.v, self.s = int(v), bool(s)

    @staticmethod
    def of(x):
        return _T(x, isinstance(x, C))

    def __mul__(self, o):  # C<0> * u and u * C<0> are C<0>
        return _T(self.v * o.v, (self.s and o.s) or (self.s and self.v == 0) or (o.s and o.v == 0))

    def __add__(self, o):
        return _T(self.v + o.v, self.s and o.s)


def _t_product(s):
    out = _T(1, True)
    for x in leaves(s) if isinstance(s, tuple) else [s]:
        out = out * _T.of(x)
    return out


def _t_crd2idx(c, shape, stride):
    """stride.hpp crd2idx(c, s, d) for an integral coordinate c: c * d at a leaf; across the
    modes of a tuple, divmod by product(s0) (``C<0> / u`` and ``u % C<1>`` are ``C<0>``) except
    at the last mode, and all ``_0`` when c is a static 0."""
    if not isinstance(shape, tuple):
        return c * _T.of(stride)
    if len(shape) == 1:
        return _t_crd2idx(c, shape[0], stride[0])
    if c.s and c.v == 0:
        return _T(0, True)
    p = _t_product(shape[0])
    div = _T(c.v // p.v, (c.s and p.s) or (c.s and c.v == 0))
    mod = _T(c.v % p.v, (c.s and p.s) or (p.s and p.v == 1) or (c.s and c.v == 0))
    return _t_crd2idx(mod, shape[0], stride[0]) + _t_crd2idx(div, shape[1:], stride[1:])


def _masks(sw):
    B, M, S = sw.params
    f = (1 << B) - 1
    return f << (M + max(0, S)), f << (M - min(0, S))


def cpp_index_is_static(L, mask):
    """Whether CuTe's ``L(Int<mask>{})`` has a static type."""
    return _t_crd2idx(_T(mask, True), L.shape, L.stride).s


@region
def swizzle_masks_not_static(L=None, sw=None, *rest):
    """F-234: composition(L, Sw) where L(yyy_msk) or L(zzz_msk) is a runtime value, which
    cannot be the template argument of ``make_swizzle<active_Y, active_Z>()``."""
    if not (isinstance(L, LayoutBase) and isinstance(sw, Swizzle)) or rest:
        return False
    y, z = _masks(sw)
    return not (cpp_index_is_static(L, y) and cpp_index_is_static(L, z))


@symptom
def cpp_make_swizzle_of_runtime_masks(inputs, answer, reference):
    return raised_with_all(answer, "no matching function for call to 'make_swizzle<active_Y, active_Z>()'")


# --- F-235: slicing a swizzled layout whose diced part holds a runtime integer --------------

def _all_underscore(c):
    return all(isinstance(x, Underscore) for x in flat_leaves(c))


@region
def swizzle_slice_runtime_diced(Cl=None, coord=None, *rest):
    """F-235: slice_and_offset(c, Sw o O o L) takes the decay path (c is not all ``_``) and
    the diced part dice(c, L) holds a runtime integer: swizzle_layout.hpp passes
    composition(swizzle_only_zy, diced) to ``to_mixed_bits``, whose integral case reads
    ``decltype(shape*stride)::value`` (swizzle.hpp: 'Requires pow2 shape*stride')."""
    if not (isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle)) or coord is None:
        return False
    if _all_underscore(coord):
        return False
    try:
        diced = spec.dice(Cl.inner, coord)
    except LayoutError:
        return False
    return any(not isinstance(x, C) for x in leaves(diced.shape) + leaves(diced.stride))


@symptom
def cpp_mixed_bits_of_runtime_layout(inputs, answer, reference):
    """The compile error of ``to_mixed_bits`` on runtime shape and stride types."""
    return raised_with_all(answer, "'value' is not a member of 'int'", "swizzle.hpp")


# --- F-236: composition(Sw<0,M,S>, _0, L) is L ('Ignore identity case') ---------------------

_INNER_OP = {"composed_composition": "composition", "composed_logical_divide": "logical_divide",
             "composed_zipped_divide": "zipped_divide", "composed_tiled_divide": "tiled_divide"}


@region
def identity_swizzle_static_zero_offset(Cl=None, *rest):
    """F-236: Sw<0,M,S> o _0 o L (a static zero offset: the overload takes ``Int<0>``)."""
    return isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle) and \
        Cl.outer.bits == 0 and isinstance(Cl.offset, C) and int(Cl.offset) == 0


@symptom
def cpp_identity_swizzle_dropped(inputs, answer, reference, op=None):
    """CuTe computes composition(Sw<0,M,S>, _0, op(L, T)), which swizzle_layout.hpp returns
    as op(L, T) itself: the answer is a plain layout, and it is CuTe's op(L, T) -- the spec's
    (the same layout) or an answer a finding of the layout algebra explains (F-055, F-120, ...)."""
    inner_op = _INNER_OP.get(op)
    Cl = inputs[0] if inputs else None
    if inner_op is None or not answered(answer) or not isinstance(answer.value, LayoutBase) \
            or not identity_swizzle_static_zero_offset(Cl):
        return False
    args = (LayoutBase(Cl.inner.shape, Cl.inner.stride),) + tuple(inputs[1:])
    try:
        ref = Outcome.ok(getattr(spec, inner_op)(*args, sense="cute"))
    except LayoutError as e:
        ref = Outcome.raised(str(e))
    if ref.kind == "ok" and compare(inner_op, args, ref.value, answer.value).ok:
        return True
    return find_known("cute-cpp", inner_op, "agreement", args, answer, ref) is not None


# --- F-222 inside a composed layout: upcast<N>(Sw o O o L) = upcast(Sw) o O/N o upcast(L) -----

@region
def composed_dynamic_stride_not_divisible(Cl=None, N=None, *rest):
    """F-222 in composed_upcast: the inner layout has a runtime stride N does not divide
    (layout_composed.hpp upcast: composition(upcast<N>(A), upcast<N>(O), upcast<N>(B)))."""
    return isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle) and not rest \
        and isinstance(Cl.offset, C) and dynamic_stride_not_divisible(Cl.inner, N)


@symptom
def cpp_composed_upcast_truncated(inputs, answer, reference):
    """The inner layout is F-222's (runtime strides d // N, shapes kept), the swizzle is
    swizzle_layout.hpp's upcast<N>, the offset O / N; where that swizzle is the identity and
    the offset _0, composition(Sw<0,M,S>, _0, L) is L itself (F-236's rule)."""
    Cl, N = inputs[0], int(inputs[1])
    if not answered(answer):
        return False
    inner = unchecked_upcast(Cl.inner, N, dynamic_floor=True)
    sw, off = spec.swizzle_upcast(Cl.outer, N), int(Cl.offset) // N
    got = answer.value
    if isinstance(got, LayoutBase):
        return sw.bits == 0 and off == 0 and (got.shape, got.stride) == (inner.shape, inner.stride)
    return isinstance(got, ComposedLayoutBase) and isinstance(got.outer, Swizzle) and \
        got.outer.params == sw.params and int(got.offset) == off and \
        (got.inner.shape, got.inner.stride) == (inner.shape, inner.stride)


# --- F-205 at a full coordinate: the swizzle's projection does not compose with dice(c, L) ---

@region
def swizzle_full_coordinate_projection_fails(Cl=None, coord=None, *rest):
    """F-205's cause where F-208's region is (a coordinate without ``_``): swizzle_layout.hpp
    composes the Y/Z projection with the diced layout (all of L here) before it reaches the
    empty slice, and that composition fails CuTe's divisibility checks (static_asserts: the
    diced layout is static; a runtime one is F-235's region)."""
    if not (isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle)) or \
            coord is None or has_underscore(coord) or swizzle_slice_runtime_diced(Cl, coord):
        return False
    try:
        return projection_fails(Cl, coord)
    except LayoutError:
        return False


# --- F-208, another first error of the same decay: to_mixed_bits of a non-pow2 projection ----

@symptom
def cpp_decay_needs_pow2_projection(inputs, answer, reference):
    """F-208 at a full coordinate whose diced projection composition(swizzle_only_zy, L) has
    a mode whose shape*stride is no power of two: swizzle.hpp to_mixed_bits static_asserts
    'Requires pow2 shape*stride.' before the decay reaches F-208's make_layout()."""
    return raised_with_all(answer, "static assertion failed: Requires pow2 shape*stride.")


# --- F-237: right_inverse(Sw o _0 o L) = composition(right_inverse(L), Sw), unchecked --------

@region
def composed_right_inverse_not_inverse(Cl=None, *rest):
    """F-237: the spec refuses right_inverse(Sw o _0 o L) with condition right_inverse: CuTe's
    construction composition(right_inverse(L), Sw) maps some index outside L's domain, or
    (condition swizzle_conjugate) is F-227's make_swizzle<R(Y), R(Z)> o R, not R o Sw."""
    if not (isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle)) or rest:
        return False
    try:
        spec.composed_right_inverse(Cl)
    except LayoutError as e:
        return e.condition in ("right_inverse", "swizzle_conjugate")
    return False


@symptom
def cpp_swizzle_right_inverse_construction(inputs, answer, reference):
    """swizzle_layout.hpp right_inverse(ComposedLayout<Swizzle,_0,L>): composition(R, Sw) with
    R = right_inverse(L), i.e. make_swizzle<R(yyy), R(zzz)> o _0 o R (composition(Layout,
    Swizzle)), or R itself where that swizzle is the identity ('Ignore identity case')."""
    S, Cl = spec, inputs[0]
    if not answered(answer):
        return False
    try:
        R = S.right_inverse(LayoutBase(Cl.inner.shape, Cl.inner.stride))
        y, z = _masks(Cl.outer)
        sw = S.make_swizzle(S.crd2idx(y, R.shape, R.stride), S.crd2idx(z, R.shape, R.stride))
    except LayoutError:
        return False
    got = answer.value
    if isinstance(got, LayoutBase):
        return sw.bits == 0 and got == R
    return isinstance(got, ComposedLayoutBase) and got.outer == sw and int(got.offset) == 0 and \
        got.inner == R


# --- to_mixed_bits of a diced projection that is not a pow2 layout (F-240, F-242) ---------

def diced_projection_not_pow2(Cl, coord):
    """swizzle_layout.hpp slice_and_offset(c, Sw o O o L) off the all-``_`` path composes
    swizzle_anti_zy and swizzle_only_zy with dice(c, L) (both pass CuTe's checks,
    oracles/cpp/model.py) and hands the only_zy one to swizzle.hpp to_mixed_bits, whose
    integral case static_asserts 'Requires pow2 shape*stride.': some static leaf has
    shape*stride neither 0 nor 2^k.  That comes before the sliced composition (F-205)."""
    if not (isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle)) or \
            coord is None or _all_underscore(coord):
        return False
    shape, anti, only = zy_layouts(Cl.outer)
    try:
        diced = spec.dice(Cl.inner, coord)
        M.run("composition", LayoutBase(tuple(map(C, shape)), tuple(map(C, anti))), diced)
        P = M.run("composition", LayoutBase(tuple(map(C, shape)), tuple(map(C, only))), diced)
    except (M.Reject, M.Abort, LayoutError):
        return False
    pairs = list(zip(flat_leaves(P.shape), flat_leaves(P.stride)))
    if not all(isinstance(x, C) for p in pairs for x in p):
        return False  # runtime: F-235's 'value' is not a member of 'int'
    return any(int(s) * int(d) and (int(s) * int(d)) & (int(s) * int(d) - 1) for s, d in pairs)


@region
def tiled_copy_thread_dice_not_pow2(L=None, thr=None, val=None, index=None, *rest):
    """F-240's slice (index, _, (_, ..)) of Sw o O o tidfrg(B) (ThrCopy::partition_S / _D)
    whose diced projection -- the thread mode's -- is not pow2 (``diced_projection_not_pow2``)."""
    sl = thread_slice(L, thr, val, index)
    return sl is not None and not rest and diced_projection_not_pow2(*sl)


@region
def swizzle_slice_diced_not_pow2(Cl=None, coord=None, *rest):
    """F-242: slice_and_offset(c, Sw o O o L) at a coordinate with both ``_`` and integers
    whose diced projection is not pow2 (``diced_projection_not_pow2``; a full coordinate is
    F-208's region, the thread slices of a TiledCopy F-240's)."""
    return not rest and coord is not None and has_underscore(coord) and \
        diced_projection_not_pow2(Cl, coord)


# --- F-238: slice_and_offset of Sw o O o L with a runtime sliced layout always decays --------

def _runtime(L):
    return any(not isinstance(x, C) for x in leaves(L.shape) + leaves(L.stride))


def cpp_runtime_sliced_decay(Cl, coord):
    """swizzle_layout.hpp slice_and_offset where slice(c, L) holds a runtime integer: the
    'Y AND Z' test ``is_constant<0, decltype(not (active & ~swizzle(active)))>`` is never a
    constant, so CuTe always decays -- composition(swizzle_layout, sliced) with strides from
    make_swizzle_strides, a runtime composition that skips the divisibility checks (F-054) --
    and offsets by swizzle(offset_only_zy) + offset_anti_zy.  (layout, offset) or Refused."""
    S, sw, O = spec, Cl.outer, Cl.offset
    B, Mb, Sh = sw.params
    shape, anti, only = zy_layouts(sw)
    sliced, diced, dcoord = slice_parts(Cl, coord)
    try:  # the diced projections (static: F-235 is the runtime case) must compile
        for pr in (anti, only):
            M.run("composition", LayoutBase(tuple(map(C, shape)), tuple(map(C, pr))), diced)
    except (M.Reject, M.Abort, LayoutError) as e:
        raise Refused(str(e))
    d_at = int(S.crd2idx(dcoord, diced.shape, diced.stride)) if flat_leaves(dcoord) else 0
    off_zy = int(O) ^ signed_eval(shape, only, d_at)
    off_anti = signed_eval(shape, anti, d_at)
    y, z = _masks(sw)
    Z, Y = z & -z, y & -y
    typ = C if isinstance(O, C) else int  # conditional_return on a runtime offset is runtime

    def strides(flag):
        if flag:
            return tuple(typ(Z << i if not off_zy & (Y << i) else -(Z << i)) for i in range(B))
        return tuple(typ((Y + Z) << i if not off_zy & (Z << i) else (Y - Z) << i) for i in range(B))
    a = abs(Sh)
    two = tuple(C(2) for _i in range(B))
    dec = LayoutBase((C(1 << Mb), two, C(1 << (a - B)), two, C(1)),
                     (C(1), strides(Z < Y), C(1 << (Mb + B)), strides(Z > Y), C(1 << (Mb + B + a))))
    try:
        R = M.run("composition", dec, sliced)
    except (M.Reject, M.Abort, LayoutError) as e:
        raise Refused(str(e))
    return R, swizzle_value(sw, off_zy) + off_anti


@region
def swizzle_slice_runtime_sliced(Cl=None, coord=None, *rest):
    """F-238: slice_and_offset(c, Sw o O o L), c holding ``_`` but not all ``_``, where the
    sliced part slice(c, L) holds a runtime integer and the diced part is static (F-235's
    region is the runtime one); CuTe's decay (``cpp_runtime_sliced_decay``) compiles."""
    if rest or not (isinstance(Cl, ComposedLayoutBase) and isinstance(Cl.outer, Swizzle)) or \
            coord is None or not has_underscore(coord) or _all_underscore(coord) or \
            swizzle_slice_runtime_diced(Cl, coord):
        return False
    try:
        if not _runtime(spec.slice_(Cl.inner, coord)):
            return False
        cpp_runtime_sliced_decay(Cl, coord)
    except (LayoutError, Refused):
        return False
    return True


@symptom
def cpp_runtime_decayed_slice(inputs, answer, reference):
    """The answer is that decay: its layout's function and its offset's value."""
    if not answered(answer) or not isinstance(answer.value, tuple) or len(answer.value) != 2:
        return False
    got, off = answer.value
    try:
        want, woff = cpp_runtime_sliced_decay(*inputs[:2])
    except (LayoutError, Refused):
        return False
    S = spec
    return isinstance(got, LayoutBase) and int(off) == woff and \
        S.size(got) == S.size(want) and S.values(got) == S.values(want)

# --- planted cases (tests/test_planted.py): each finding's answer as the oracle prints it --------
# (finding, oracle, op, argument texts, answer[, static]); recorded from the real oracle; another
# wrong answer in the region (tests/planted_support.py planted) must be new.

PLANTED = [
    ("F-234", "cute-cpp", "layout_swizzle_composition", ["6:4", "SW_3_1_4"], "raised: compile-time rejection: no matching function for call to 'make_swizzle<active_Y, active_Z>()' (swizzle_layout.hpp:340)"),
    ("F-235", "cute-cpp", "composed_slice_and_offset", ["SW_3_4_3 o _0 o 53:2", "29"], "raised: compile-time rejection: 'value' is not a member of 'int' (swizzle.hpp:442)"),
    ("F-235", "cute-cpp", "composed_slice_and_offset", ["SW_3_4_3 o _0 o (53,2):(2,106)", "(3,_)"], "raised: compile-time rejection: 'value' is not a member of 'int' (swizzle.hpp:442)"),
    ("F-236", "cute-cpp", "composed_tiled_divide", ["SW_0_0_-4 o _0 o (8,8):(1,8)", "8"], "((8,1),1,8):((1,8),8,8)"),
    ("F-236", "cute-cpp", "composed_composition", ["SW_0_2_-1 o _0 o (43,3):(2,43)", "(43:1)"], "(43):(2)"),
    ("F-237", "cute-cpp", "composed_right_inverse", ["SW_1_1_1 o _0 o (_53):(_1)"], "Sw<1,1,1> o _0 o _53:_1"),
]
