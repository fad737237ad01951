"""Swizzles, F2 strides, composed layouts and bank conflicts: the fast implementation.

Same API as ``layoutcheck.spec`` (spec/swizzle.py, spec/banks.py); never imports it.  A
swizzle is evaluated with its two masks (``x ^ ((x & Y) >> S)``, vectorised over numpy
arrays); an F2 layout XORs per-mode offset tables; a composed layout evaluates its inner
layout with ``impl.values`` and applies the outer function to the whole array; the algebra on
composed layouts acts on the inner layout with impl's own ops; bank conflicts are counted
with numpy over the 32 threads of the warp.
"""

import numpy as np
from layoutcheck.impl import layout as T
from layoutcheck.impl.algebra import right_inverse
from layoutcheck.impl.compose import composition
from layoutcheck.impl.coords import crd2idx, slice_and_offset
from layoutcheck.impl.divide import logical_divide, tiled_divide, zipped_divide
from layoutcheck.impl.layout import as_layout, values
from layoutcheck.impl.recast import downcast, upcast

from layoutcheck.composed import (
    ComposedLayoutBase,
    F2Layout,
    Swizzle,
    parse_composed,
    parse_f2,
    parse_swizzle,
)
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C

__all__ = ["Swizzle", "ComposedLayout", "as_swizzle", "as_composed", "swizzle_apply",
           "swizzle_values", "swizzle_span", "is_bijection_on", "is_involution", "make_swizzle",
           "clmul", "f2_eval", "f2_values", "swizzle_as_f2", "as_f2", "composed_eval",
           "composed_values", "composed_size", "composed_cosize", "make_composed_layout",
           "swizzle_composition", "layout_swizzle_composition", "composed_composition",
           "composed_logical_divide", "composed_zipped_divide", "composed_tiled_divide",
           "composed_slice_and_offset", "composed_right_inverse", "swizzle_upcast",
           "swizzle_downcast", "composed_upcast", "composed_downcast", "bank_conflicts",
           "bank_of", "bank_grid"]

_VALUES_LIMIT = 1 << 26


class ComposedLayout(ComposedLayoutBase):
    __slots__ = ()

    def __call__(self, x):
        return composed_eval(self, x)


def as_swizzle(sw):
    if isinstance(sw, Swizzle):
        return sw
    if isinstance(sw, str):
        return parse_swizzle(sw)
    if isinstance(sw, tuple) and len(sw) == 3:
        return Swizzle(*sw)
    raise LayoutError(f"expected a swizzle, got {sw!r}")


def as_composed(x):
    if isinstance(x, str):
        x = parse_composed(x)
    if isinstance(x, ComposedLayout):
        return x
    if isinstance(x, ComposedLayoutBase):
        return ComposedLayout(x.outer, x.offset, x.inner)
    raise LayoutError(f"expected a composed layout, got {x!r}")


def _masks(sw):
    B, M, S = sw.params
    f = (1 << B) - 1
    return f << (M + max(0, S)), f << (M - min(0, S)), S


def _apply(sw, x):
    """x ^ shiftr(x & Y, S) on an int or an int64 array (cute/swizzle.hpp ``apply``)."""
    y, _z, s = _masks(sw)
    t = x & y
    return x ^ ((t >> s) if s >= 0 else (t << -s))


def swizzle_apply(sw, offset):
    sw = as_swizzle(sw)
    if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)) or offset < 0:
        raise LayoutError(f"a swizzle maps offsets >= 0, got {offset!r}", condition="in_domain")
    return int(_apply(sw, int(offset)))


def swizzle_span(sw):
    return as_swizzle(sw).span


def _domain(k):
    if k > 26:
        raise LayoutError(f"2^{k} offsets are more than impl evaluates at once",
                          condition="enumeration_limit")
    return np.arange(1 << k, dtype=np.int64)


def swizzle_values(sw):
    sw = as_swizzle(sw)
    return tuple(int(v) for v in _apply(sw, _domain(sw.span)))


def is_bijection_on(sw, k):
    """A swizzle (disjoint fields) is an involution of the integers, so it is a bijection of
    [0, 2^k) iff it maps [0, 2^k) into itself: no Y bit below k xors into a Z bit at or
    above k."""
    sw = as_swizzle(sw)
    B, M, S = sw.params
    y0, z0 = M + max(0, S), M - min(0, S)
    return not any(y0 + j < k <= z0 + j for j in range(B))


def is_involution(sw):
    as_swizzle(sw)
    return True  # |S| >= B: the fields are disjoint, so the xor reads bits it never writes


def _popcount(x):
    return bin(x).count("1")


def _tz(x):
    return 32 if x == 0 else (x & -x).bit_length() - 1


def make_swizzle(Y, Z):
    if _popcount(Y) != _popcount(Z):
        raise LayoutError(f"make_swizzle<{Y},{Z}>: masks with different bit counts",
                          condition="make_swizzle")
    B, M, S = _popcount(Y), min(_tz(Y), _tz(Z)) % 32, _tz(Y) - _tz(Z)
    try:
        sw = Swizzle(B, M, S)
    except LayoutError as e:
        raise LayoutError(f"make_swizzle<{Y},{Z}>: {e}", condition="make_swizzle") from None
    y, z, _s = _masks(sw)
    if (Y | Z) != (y | z):
        raise LayoutError(f"make_swizzle<{Y},{Z}>: not the fields of {sw}", condition="make_swizzle")
    return sw


# --- F2 -------------------------------------------------------------------------------------

def clmul(a, b):
    out = 0
    while a:
        low = a & -a
        out ^= b * low  # b << (bit index of low): low is a power of two
        a ^= low
    return out


def as_f2(F):
    if isinstance(F, F2Layout):
        return F
    if isinstance(F, str):
        return parse_f2(F)
    raise LayoutError(f"expected an F2 layout, got {F!r}")


def _f2_table(F):
    """XOR of per-mode tables (each mode's carry-less multiples of its stride)."""
    shape, stride = T.flatten(F.shape), T.flatten(F.stride)
    n = T.size(F.shape)
    if n > _VALUES_LIMIT:
        raise LayoutError(f"{F} has {n} points, more than impl evaluates at once",
                          condition="enumeration_limit")
    table = np.zeros(1, dtype=np.int64)
    for s, d in zip(shape, stride):  # colex: the new mode varies slowest so far
        mode = np.array([clmul(c, int(d)) for c in range(int(s))], dtype=np.int64)
        table = (mode[:, None] ^ table[None, :]).reshape(-1)
    return table


def f2_eval(F, i):
    F = as_f2(F)
    n = T.size(F.shape)
    if not 0 <= i < n:
        raise LayoutError(f"index {i} is outside [0, {n})", condition="in_domain")
    out, rest = 0, int(i)
    for s, d in zip(T.flatten(F.shape), T.flatten(F.stride)):
        rest, c = divmod(rest, int(s))
        out ^= clmul(c, int(d))
    return out


def f2_values(F):
    return tuple(int(v) for v in _f2_table(as_f2(F)))


def swizzle_as_f2(sw):
    """By bit fields, not bits: [0, M), the lower field, the gap, the higher field (B, |S|-B,
    B bits); F2 stride 2^start each, and the YYY field's stride also carries its ZZZ partner
    bit (its bits are xored there)."""
    sw = as_swizzle(sw)
    B, M, S = sw.params
    if sw.span == 0:
        return F2Layout(C(1), C(0))
    z0 = M - min(0, S)
    y_field = 3 if S >= 0 else 1  # which of the two B-bit fields is YYY
    fields = [(0, M), (M, B), (M + B, abs(S) - B), (M + abs(S), B)]
    shapes, strides = [], []
    for k, (start, width) in enumerate(fields):
        d = (1 << start) | ((1 << z0) if k == y_field and width else 0)
        shapes.append(C(1 << width))
        strides.append(C(d))
    return F2Layout(tuple(shapes), tuple(strides))


# --- ComposedLayout ---------------------------------------------------------------------------

def _outer_apply(outer, arr):
    if isinstance(outer, Swizzle):
        return _apply(outer, arr)
    return np.asarray(values(outer, arr), dtype=np.int64) if np.all(arr < T.size(outer.shape)) \
        else np.array([crd2idx(int(a), outer.shape, outer.stride) for a in arr], dtype=np.int64)


def composed_eval(Cl, x):
    Cl = as_composed(Cl)
    if isinstance(x, (tuple, list)):
        inner = crd2idx(tuple(x), Cl.inner.shape, Cl.inner.stride)
    else:
        n = T.size(Cl.inner.shape)
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not 0 <= x < n:
            raise LayoutError(f"index {x!r} is outside [0, {n})", condition="in_domain")
        inner = as_layout(Cl.inner)(int(x))
    return int(_outer_apply(Cl.outer, np.array([int(Cl.offset) + int(inner)], dtype=np.int64))[0])


def _composed_array(Cl):
    Cl = as_composed(Cl)
    n = T.size(Cl.inner.shape)
    if n > _VALUES_LIMIT:
        raise LayoutError(f"{Cl} has {n} points, more than impl evaluates at once",
                          condition="enumeration_limit")
    inner = np.asarray(values(as_layout(Cl.inner)), dtype=np.int64) + int(Cl.offset)
    return _outer_apply(Cl.outer, inner)


def composed_values(Cl):
    return tuple(int(v) for v in _composed_array(Cl))


def composed_size(Cl):
    return T.size(as_composed(Cl).inner.shape)


def composed_cosize(Cl):
    return int(_composed_array(Cl).max()) + 1


def make_composed_layout(outer, offset, inner):
    outer = as_swizzle(outer) if isinstance(outer, (str, tuple)) else outer
    return ComposedLayout(outer, offset, as_layout(inner))


def swizzle_composition(sw, L):
    sw, L = as_swizzle(sw), as_layout(L)
    return L if sw.bits == 0 else ComposedLayout(sw, C(0), L)


def layout_swizzle_composition(L, sw):
    """CuTe's construction make_swizzle<L(Y), L(Z)> o L, accepted only when it is L o Sw on
    L's domain (checked with numpy over the domain)."""
    L, sw = as_layout(L), as_swizzle(sw)
    y, z, _s = _masks(sw)
    new = make_swizzle(crd2idx(y, L.shape, L.stride), crd2idx(z, L.shape, L.stride))
    n = T.size(L.shape)
    if n > _VALUES_LIMIT:
        raise LayoutError(f"{L} has {n} points", condition="enumeration_limit")
    x = np.arange(n, dtype=np.int64)
    lhs = _apply(new, np.asarray(values(L), dtype=np.int64))
    sx = _apply(sw, x)
    inside = sx < n
    rhs = np.empty(n, dtype=np.int64)
    if inside.all():
        rhs[:] = np.asarray(values(L, sx), dtype=np.int64)
    else:
        rhs[:] = [crd2idx(int(v), L.shape, L.stride) for v in sx]
    bad = np.nonzero(lhs != rhs)[0]
    if bad.size:
        i = int(bad[0])
        raise LayoutError(f"composition({L}, {sw}): {new} o {L} is not L o Sw (at {i})",
                          condition="swizzle_conjugate")
    return swizzle_composition(new, L)


def _on_inner(op, Cl, *args):
    Cl = as_composed(Cl)
    return ComposedLayout(Cl.outer, Cl.offset, op(Cl.inner, *args, sense="cute"))


def composed_composition(Cl, T_):
    return _on_inner(composition, Cl, T_)


def composed_logical_divide(Cl, T_):
    return _on_inner(logical_divide, Cl, T_)


def composed_zipped_divide(Cl, T_):
    return _on_inner(zipped_divide, Cl, T_)


def composed_tiled_divide(Cl, T_):
    return _on_inner(tiled_divide, Cl, T_)


def composed_slice_and_offset(Cl, coord):
    Cl = as_composed(Cl)
    sliced, off = slice_and_offset(Cl.inner, coord)
    return (ComposedLayout(Cl.outer, Cl.offset + off, sliced), C(0))


def composed_right_inverse(Cl):
    Cl = as_composed(Cl)
    if not isinstance(Cl.outer, Swizzle) or int(Cl.offset) != 0:
        raise LayoutError(f"right_inverse({Cl}): Sw o 0 o L only", condition="offset_zero")
    R = layout_swizzle_composition(right_inverse(Cl.inner), Cl.outer)
    r = _composed_array(R) if isinstance(R, ComposedLayoutBase) else \
        np.asarray(values(as_layout(R)), dtype=np.int64)
    n = T.size(Cl.inner.shape)
    ok = bool(r.size == 0 or (r.min() >= 0 and r.max() < n))
    if ok:
        ok = bool(np.array_equal(_composed_array(Cl)[r], np.arange(r.size)))
    if not ok:
        raise LayoutError(f"right_inverse({Cl}): {R} is no right inverse", condition="right_inverse")
    return R


def _log2(N):
    if isinstance(N, bool) or not isinstance(N, int) or N < 1 or N & (N - 1):
        raise LayoutError(f"N = {N!r} must be a power of two", condition="power_of_two")
    return int(N).bit_length() - 1


def swizzle_upcast(sw, N):
    sw = as_swizzle(sw)
    B, M, S = sw.params
    m = M - _log2(N)
    return Swizzle(B, m, S) if m >= 0 else Swizzle(max(B + m, 0), 0, S)


def swizzle_downcast(sw, N):
    sw = as_swizzle(sw)
    B, M, S = sw.params
    return Swizzle(B, M + _log2(N), S)


def composed_upcast(Cl, N):
    Cl = as_composed(Cl)
    _log2(N)
    if int(Cl.offset) % int(N):
        raise LayoutError(f"upcast<{N}> of the offset {Cl.offset}", condition="divisibility")
    outer = swizzle_upcast(Cl.outer, N) if isinstance(Cl.outer, Swizzle) else upcast(Cl.outer, N)
    return ComposedLayout(outer, Cl.offset // C(int(N)), upcast(Cl.inner, N))


def composed_downcast(Cl, N):
    Cl = as_composed(Cl)
    _log2(N)
    outer = swizzle_downcast(Cl.outer, N) if isinstance(Cl.outer, Swizzle) else downcast(Cl.outer, N)
    return ComposedLayout(outer, Cl.offset * C(int(N)), downcast(Cl.inner, N))


# --- bank conflicts (the model of spec/banks.py) ----------------------------------------------

ELEMENT_BYTES = (1, 2, 4, 8, 16)


def bank_of(byte_address):
    return (byte_address >> 2) & 31


def _offsets(smem, idx):
    if isinstance(smem, ComposedLayoutBase):
        Cl = as_composed(smem)
        inner = np.asarray(values(as_layout(Cl.inner), idx), dtype=np.int64) + int(Cl.offset)
        return _outer_apply(Cl.outer, inner), T.size(Cl.inner.shape)
    L = as_layout(smem)
    return np.asarray(values(L, idx), dtype=np.int64), T.size(L.shape)


def bank_conflicts(smem, threads, element_bytes):
    if isinstance(element_bytes, bool) or not isinstance(element_bytes, int) \
            or int(element_bytes) not in ELEMENT_BYTES:
        raise LayoutError(f"element width {element_bytes!r}: expected one of {ELEMENT_BYTES}",
                          condition="element_bytes")
    w = int(element_bytes)
    thr = as_layout(threads)
    if T.size(thr.shape) != 32:
        raise LayoutError(f"the thread layout {thr} is not one warp", condition="warp_size")
    idx = np.asarray(values(thr), dtype=np.int64)
    n = T.size(smem.inner.shape if isinstance(smem, ComposedLayoutBase) else as_layout(smem).shape)
    if idx.max() >= n:
        raise LayoutError(f"a thread reads index {int(idx.max())} outside [0, {n})",
                          condition="in_domain")
    off, _n = _offsets(smem, idx)
    words_per = max(1, w // 4)
    first = (off * w) >> 2                                    # first word of each thread
    words = first[:, None] + np.arange(words_per)[None, :]    # (32, words per thread)
    per_phase = 32 // words_per
    out = []
    for p in range(32 // per_phase):
        wds = np.unique(words[p * per_phase:(p + 1) * per_phase].reshape(-1))
        out.append(int(np.bincount(wds & 31, minlength=32).max()))
    return tuple(out)


def bank_grid(smem, element_bytes):
    inner = smem.inner if isinstance(smem, ComposedLayoutBase) else as_layout(smem)
    if not isinstance(inner.shape, tuple) or len(inner.shape) != 2:
        raise LayoutError(f"bank_grid needs a rank-2 layout, got {smem}", condition="rank")
    rows, cols = T.size(inner.shape[0]), T.size(inner.shape[1])
    idx = np.arange(rows * cols, dtype=np.int64)
    off, _n = _offsets(smem, idx)
    banks = bank_of(off * int(element_bytes)).reshape(cols, rows).T
    return banks.tolist()
