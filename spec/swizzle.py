"""Swizzles, F2 strides and composed layouts: the executable specification.

Literal and enumerating, like the rest of the spec.  Sources (CuTe features the paper lacks):
- ``cute/swizzle.hpp`` (CUTLASS 4.2 headers of the nvidia-cutlass wheel; unchanged in 4.7):
  the bit-field picture of ``Swizzle<B,M,S>`` -- keep the M least significant bits, the B-bit
  field YYY at M + max(0,S) is xored into the B-bit field ZZZ at M - min(0,S) ("AA = ZZ xor
  YY"); ``make_swizzle<Y,Z>`` rebuilds a swizzle from its two masks.
- ``cute/layout_composed.hpp``: ``ComposedLayout`` ``A o O o B`` maps c to A(O + B(c)); its
  shape, size and rank are B's; composition with a tiler, the divides, the products, coalesce
  and filter act on B ("applying each operation to LayoutB only as LayoutB defines the
  domain"); ``slice_and_offset`` moves B's offset into O.
- ``cute/swizzle_layout.hpp``: ``composition(Swizzle, Layout)`` is ``Sw o _0 o L`` (a
  ``Swizzle<0,M,S>`` decays to the layout itself); ``composition(Layout, Swizzle)`` rebuilds a
  swizzle from the layout's images of the two masks; ``right_inverse`` of ``Sw o _0 o L`` is
  ``composition(right_inverse(L), Sw)``; ``upcast`` / ``downcast`` of a swizzle move M.
- NVlabs PyCuTe ``pycute/swizzle.py`` (its ``F2`` docstring, the behaviour under test): an F2
  stride adds by XOR and multiplies carry-less, so an F2-strided layout maps a coordinate c to
  XOR_i clmul(c_i, d_i).
- The CuTe docs (01_layout.md): cosize is "the size of the Layout function's codomain"; the
  spec's ``composed_cosize`` is max C(i) + 1 over the domain (what a buffer must hold).
"""

from layoutcheck.spec import tuples as T
from layoutcheck.spec.algebra import composition, right_inverse
from layoutcheck.spec.coords import crd2idx, slice_and_offset
from layoutcheck.spec.division import logical_divide, tiled_divide, zipped_divide
from layoutcheck.spec.layout import as_layout
from layoutcheck.spec.limits import check_enumeration
from layoutcheck.spec.recast import downcast, upcast

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
           "swizzle_downcast", "composed_upcast", "composed_downcast"]


class ComposedLayout(ComposedLayoutBase):
    """A ComposedLayout that evaluates: ``C(i)`` / ``C(coord)`` = outer(offset + inner(..))."""

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
    """A spec ComposedLayout from a ComposedLayoutBase or its text."""
    if isinstance(x, str):
        x = parse_composed(x)
    if isinstance(x, ComposedLayoutBase):
        return x if isinstance(x, ComposedLayout) else ComposedLayout(x.outer, x.offset, x.inner)
    raise LayoutError(f"expected a composed layout, got {x!r}")


# --- Swizzle<B,M,S> as a function on offsets (cute/swizzle.hpp) ----------------------------

def _bit(x, j):
    return (x >> j) & 1


def swizzle_apply(sw, offset):
    """Sw(offset): bit by bit, ZZZ_j ^= YYY_j for j < B, where YYY starts at bit
    M + max(0, S) and ZZZ at bit M - min(0, S) (the picture of cute/swizzle.hpp); every other
    bit is kept.  Offsets are integers >= 0."""
    sw = as_swizzle(sw)
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise LayoutError(f"a swizzle maps offsets >= 0, got {offset!r}", condition="in_domain")
    B, M, S = sw.params
    y0, z0 = M + max(0, S), M - min(0, S)
    out = int(offset)
    for j in range(B):
        if _bit(offset, y0 + j):           # the original YYY bit, not a rewritten one
            out ^= 1 << (z0 + j)
    return out


def swizzle_span(sw):
    """B + M + |S|: bits at or above it are never read nor written."""
    return as_swizzle(sw).span


def swizzle_values(sw):
    """(Sw(0), ..., Sw(2^span - 1)): the swizzle on pycute's domain [0, 2^(B+M+|S|))."""
    sw = as_swizzle(sw)
    n = 1 << sw.span
    check_enumeration(n, lambda: f"the domain of {sw}")
    return tuple(swizzle_apply(sw, x) for x in range(n))


def is_bijection_on(sw, k):
    """Sw maps [0, 2^k) onto itself one to one (by enumeration)."""
    sw = as_swizzle(sw)
    n = 1 << k
    check_enumeration(n, lambda: f"[0, 2^{k})")
    return sorted(swizzle_apply(sw, x) for x in range(n)) == list(range(n))


def is_involution(sw):
    """Sw(Sw(x)) == x for every x in [0, 2^span) (higher bits are untouched)."""
    sw = as_swizzle(sw)
    n = 1 << sw.span
    check_enumeration(n, lambda: f"the domain of {sw}")
    return all(swizzle_apply(sw, swizzle_apply(sw, x)) == x for x in range(n))


def _popcount(x):
    return bin(x).count("1")


def _trailing_zeros(x):
    """countr_zero of a 32-bit value (32 for 0, as CuTe's)."""
    if x == 0:
        return 32
    n = 0
    while not _bit(x, n):
        n += 1
    return n


def _masks(sw):
    B, M, S = sw.params
    field = (1 << B) - 1
    return field << (M + max(0, S)), field << (M - min(0, S))


def make_swizzle(Y, Z):
    """CuTe's ``make_swizzle<Y,Z>()``: B = popcount(Y) = popcount(Z), M = min of the trailing
    zeros (mod 32), S = tz(Y) - tz(Z), and Y | Z must be exactly that swizzle's two masks
    (its static_asserts; ``condition="make_swizzle"`` otherwise)."""
    if _popcount(Y) != _popcount(Z):
        raise LayoutError(f"make_swizzle<{Y},{Z}>: the masks have {_popcount(Y)} and {_popcount(Z)} "
                          "bits (cute/swizzle.hpp: 'Number of bits in Y and Z don't match')",
                          condition="make_swizzle")
    B = _popcount(Y)
    M = min(_trailing_zeros(Y), _trailing_zeros(Z)) % 32
    S = _trailing_zeros(Y) - _trailing_zeros(Z)
    try:
        sw = Swizzle(B, M, S)
    except LayoutError as e:
        raise LayoutError(f"make_swizzle<{Y},{Z}>: {e}", condition="make_swizzle") from None
    y, z = _masks(sw)
    if (Y | Z) != (y | z):
        raise LayoutError(f"make_swizzle<{Y},{Z}>: the masks are not the two fields of {sw} "
                          "(cute/swizzle.hpp: 'Something went wrong.')", condition="make_swizzle")
    return sw


# --- F2 strides (NVlabs PyCuTe pycute/swizzle.py) ------------------------------------------

def clmul(a, b):
    """The carry-less product: XOR of b << j over the set bits j of a."""
    out, j = 0, 0
    while a >> j:
        if _bit(a, j):
            out ^= b << j
        j += 1
    return out


def as_f2(F):
    if isinstance(F, F2Layout):
        return F
    if isinstance(F, str):
        return parse_f2(F)
    raise LayoutError(f"expected an F2 layout, got {F!r}")


def f2_eval(F, i):
    """F(i) for an index i in [0, size F): the natural coordinate c of i (colexicographic,
    Def 2.1.2.18), then XOR over the leaves of clmul(c_k, d_k)."""
    F = as_f2(F)
    shape, stride = T.flatten(F.shape), T.flatten(F.stride)
    n = T.size(F.shape)
    if not 0 <= i < n:
        raise LayoutError(f"index {i} is outside [0, {n})", condition="in_domain")
    out, rest = 0, int(i)
    for s, d in zip(shape, stride):
        c, rest = rest % int(s), rest // int(s)
        out ^= clmul(c, int(d))
    return out


def f2_values(F):
    F = as_f2(F)
    n = T.size(F.shape)
    check_enumeration(n, lambda: f"the domain of {F}")
    return tuple(f2_eval(F, i) for i in range(n))


def swizzle_as_f2(sw):
    """The F2 layout of a swizzle on [0, 2^span): one mode of size 2 per bit j, F2 stride
    Sw(2^j).  A swizzle is F2-linear (it xors bits into bits), so this is the same function
    (the correspondence ``law.swizzle.f2`` checks through the oracle's ``f2_values``; this
    function itself is checked against impl's by tests/test_swizzle.py)."""
    sw = as_swizzle(sw)
    if sw.span == 0:
        return F2Layout(C(1), C(0))
    k = sw.span
    return F2Layout(tuple(C(2) for _ in range(k)),
                    tuple(C(swizzle_apply(sw, 1 << j)) for j in range(k)))


# --- ComposedLayout (cute/layout_composed.hpp, swizzle_layout.hpp) --------------------------

def _outer_eval(outer, x):
    if isinstance(outer, Swizzle):
        return swizzle_apply(outer, x)
    # a layout as the outer function: CuTe's L(int), total on integers >= 0 (stride.hpp)
    return crd2idx(x, outer.shape, outer.stride)


def _inner_eval(inner, x):
    if isinstance(x, (tuple, list)):
        return crd2idx(tuple(x), inner.shape, inner.stride)
    n = T.size(inner.shape)
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < n:
        raise LayoutError(f"index {x!r} is outside [0, {n})", condition="in_domain")
    return as_layout(inner)(x)


def composed_eval(Cl, x):
    """(A o O o B)(x) = A(O + B(x)) (layout_composed.hpp ``operator()``); x an index of B's
    domain or a coordinate of B's shape."""
    Cl = as_composed(Cl)
    return _outer_eval(Cl.outer, Cl.offset + _inner_eval(Cl.inner, x))


def composed_values(Cl):
    """(C(0), ..., C(size - 1))."""
    Cl = as_composed(Cl)
    n = T.size(Cl.inner.shape)
    check_enumeration(n, lambda: f"the domain of {Cl}")
    return tuple(composed_eval(Cl, i) for i in range(n))


def composed_size(Cl):
    """size(B) (layout_composed.hpp: ``size<Is...>(layout.layout_b())``)."""
    return T.size(as_composed(Cl).inner.shape)


def composed_cosize(Cl):
    """The size of the codomain the function reaches: max C(i) + 1 over the domain (01_layout.md:
    cosize is the codomain's size; a buffer of this many elements holds every offset)."""
    return max(composed_values(Cl)) + 1


def make_composed_layout(outer, offset, inner):
    """``make_composed_layout(A, O, B)`` (layout_composed.hpp)."""
    outer = as_swizzle(outer) if isinstance(outer, (str, tuple)) else outer
    return ComposedLayout(outer, offset, as_layout(inner))


def swizzle_composition(sw, L):
    """``composition(Swizzle, Layout)`` (swizzle_layout.hpp): ``Sw o _0 o L``; a swizzle with
    B = 0 is the identity and the result decays to L itself."""
    sw, L = as_swizzle(sw), as_layout(L)
    if sw.bits == 0:
        return L
    return ComposedLayout(sw, C(0), L)


def layout_swizzle_composition(L, sw):
    """``composition(Layout, Swizzle)``: the function x -> L(Sw(x)) on L's domain.  CuTe
    (swizzle_layout.hpp) writes it as Sw' o _0 o L with Sw' = make_swizzle<L(Y), L(Z)> (Y, Z
    the swizzle's masks), which "works in simple cases"; the spec builds the same and checks
    the defining property Sw'(L(x)) == L(Sw(x)) for every x of the domain, refusing
    (``condition="swizzle_conjugate"``) where it fails, and where make_swizzle does."""
    L, sw = as_layout(L), as_swizzle(sw)
    y, z = _masks(sw)
    new = make_swizzle(crd2idx(y, L.shape, L.stride), crd2idx(z, L.shape, L.stride))
    n = T.size(L.shape)
    check_enumeration(n, lambda: f"the domain of {L}")
    for x in range(n):
        want = crd2idx(swizzle_apply(sw, x), L.shape, L.stride)
        got = swizzle_apply(new, L(x))
        if got != want:
            raise LayoutError(f"composition({L}, {sw}): {new} o {L} is not L o Sw (at {x}: "
                              f"{got} vs L(Sw({x})) = {want})", condition="swizzle_conjugate")
    return swizzle_composition(new, L)


def _on_inner(op, Cl, *args):
    Cl = as_composed(Cl)
    return ComposedLayout(Cl.outer, Cl.offset, op(Cl.inner, *args, sense="cute"))


def composed_composition(Cl, T_):
    """``composition(ComposedLayout, Tiler)`` = A o O o composition(B, T) (CuTe's reading of
    composition, ``sense="cute"``)."""
    return _on_inner(composition, Cl, T_)


def composed_logical_divide(Cl, T_):
    """``logical_divide(A o O o B, T)`` = A o O o logical_divide(B, T)."""
    return _on_inner(logical_divide, Cl, T_)


def composed_zipped_divide(Cl, T_):
    return _on_inner(zipped_divide, Cl, T_)


def composed_tiled_divide(Cl, T_):
    return _on_inner(tiled_divide, Cl, T_)


def composed_slice_and_offset(Cl, coord):
    """``slice_and_offset(c, A o O o B)`` = (A o (O + off) o slice(c, B), 0) where
    (slice, off) = slice_and_offset(c, B) (layout_composed.hpp).  The defining property, which
    the comparison checks: S(c') + offset == C(c with c' in its ``_`` entries)."""
    Cl = as_composed(Cl)
    sliced, off = slice_and_offset(Cl.inner, coord)
    return (ComposedLayout(Cl.outer, Cl.offset + off, sliced), C(0))


def composed_right_inverse(Cl):
    """``right_inverse(Sw o _0 o L)`` = composition(right_inverse(L), Sw) (swizzle_layout.hpp),
    checked: R must satisfy C(R(i)) == i for i < size(R) (else ``condition="right_inverse"``).  Offsets other than 0 and outer functions that
    are not swizzles are refused (``condition="offset_zero"``: CuTe's answer there is no
    ComposedLayout of a layout)."""
    Cl = as_composed(Cl)
    if not isinstance(Cl.outer, Swizzle) or int(Cl.offset) != 0:
        raise LayoutError(f"right_inverse({Cl}): the spec covers Sw o 0 o L only",
                          condition="offset_zero")
    R = layout_swizzle_composition(right_inverse(Cl.inner), Cl.outer)
    n = composed_size(Cl)
    vals = composed_values(as_composed(R)) if isinstance(R, ComposedLayoutBase) else \
        tuple(R(i) for i in range(T.size(R.shape)))
    for i, r in enumerate(vals):  # the defining property, C(R(i)) == i
        if not 0 <= r < n or composed_eval(Cl, r) != i:
            raise LayoutError(f"right_inverse({Cl}): CuTe's composition(right_inverse(L), Sw) = {R} "
                              f"is no right inverse (C(R({i})) != {i}): the swizzle moves "
                              "offsets out of L's image", condition="right_inverse")
    return R


def _log2_pow2(N):
    if isinstance(N, bool) or not isinstance(N, int) or N < 1 or N & (N - 1):
        raise LayoutError(f"N = {N!r} must be a power of two (swizzle_layout.hpp: 'N must be a power "
                          "of two')", condition="power_of_two")
    return int(N).bit_length() - 1


def swizzle_upcast(sw, N):
    """``upcast<N>(Swizzle<B,M,S>)``: M - log2 N when that is >= 0, else
    Swizzle<max(B + M - log2 N, 0), 0, S> (swizzle_layout.hpp)."""
    sw = as_swizzle(sw)
    B, M, S = sw.params
    m = M - _log2_pow2(N)
    return Swizzle(B, m, S) if m >= 0 else Swizzle(max(B + m, 0), 0, S)


def swizzle_downcast(sw, N):
    """``downcast<N>(Swizzle<B,M,S>)`` = Swizzle<B, M + log2 N, S>."""
    sw = as_swizzle(sw)
    B, M, S = sw.params
    return Swizzle(B, M + _log2_pow2(N), S)


def _outer_cast(outer, N, up):
    if isinstance(outer, Swizzle):
        return swizzle_upcast(outer, N) if up else swizzle_downcast(outer, N)
    return upcast(outer, N) if up else downcast(outer, N)


def composed_upcast(Cl, N):
    """``upcast<N>(A o O o B)`` = upcast<N>(A) o upcast<N>(O) o upcast<N>(B)
    (layout_composed.hpp); an integer offset upcasts by safe_div (exact division)."""
    Cl = as_composed(Cl)
    _log2_pow2(N)
    if int(Cl.offset) % int(N):
        raise LayoutError(f"upcast<{N}> of the offset {Cl.offset}: not divisible",
                          condition="divisibility")
    off = Cl.offset // C(int(N))  # CuTe divides by the static C<N>
    return ComposedLayout(_outer_cast(Cl.outer, N, True), off, upcast(Cl.inner, N))


def composed_downcast(Cl, N):
    """``downcast<N>(A o O o B)`` = downcast<N>(A) o O*N o downcast<N>(B)."""
    Cl = as_composed(Cl)
    _log2_pow2(N)
    return ComposedLayout(_outer_cast(Cl.outer, N, False), Cl.offset * C(int(N)),
                          downcast(Cl.inner, N))
