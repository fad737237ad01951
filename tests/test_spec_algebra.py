"""Nested layouts (paper 2.3) and CuTe's public algebra: defining properties on generated
layouts (size-1 modes with non-zero strides, zero strides, the empty layout, deep nesting,
non-tractable layouts), preconditions, and the CuTe-sense options."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.oracles.regions import cute_composition_check
from layoutcheck.spec import algebra as A
from layoutcheck.spec import division as DV
from layoutcheck.spec import flat as F
from layoutcheck.spec import nested as N
from layoutcheck.spec import tuples as T
from layoutcheck.spec.algebra import _
from layoutcheck.spec.basic import sort, squeeze
from layoutcheck.spec.layout import Layout, cosize, parse, values

from layoutcheck.errors import LayoutError

SHAPES = st.sampled_from([1, 2, 2, 3, 4])
STRIDES = st.sampled_from([0, 1, 1, 2, 3, 4, 6, 8, 16])


@st.composite
def shapes(draw, depth=3, top=True):
    if not top and (depth == 0 or draw(st.integers(0, 2)) == 0):
        return draw(SHAPES)
    r = draw(st.integers(0 if top else 1, 3))
    return tuple(draw(shapes(depth - 1, False)) for _ in range(r))


@st.composite
def layouts(draw, max_size=96):
    """Nested layouts of size <= max_size; half of them compact-ish (a shuffled, maybe
    dilated column-major stride), the others with arbitrary strides."""
    s = draw(shapes())
    if not isinstance(s, tuple) or T.size(s) > max_size:
        s = (2, 3) if draw(st.booleans()) else ()
    leaves = T.flatten(s)
    if draw(st.booleans()):
        order = draw(st.permutations(range(len(leaves))))
        d, p = [0] * len(leaves), 1
        for i in order:
            d[i] = p
            p *= leaves[i] * draw(st.sampled_from([1, 1, 1, 2]))
    else:
        d = [draw(STRIDES) for _ in leaves]
    stride = N.substitute(d, s)
    if draw(st.integers(0, 4)) == 0 and len(leaves) == 1:  # depth-0 layouts too
        return Layout(leaves[0], d[0])
    return Layout(s, stride)


def fn(L):
    return values(L)


# --- coalesce -------------------------------------------------------------------------------

@given(layouts())
def test_coalesce_keeps_function_is_coalesced_and_idempotent(L):
    c = A.coalesce(L)
    assert fn(c) == fn(L)                              # Prop 2.3.3.14
    assert A.is_coalesced(c)                           # Construction 2.3.3.7
    assert A.coalesce(c) == c
    assert T.depth(c.shape) <= 1                       # Remark 2.3.3.13
    assert all(d == 0 for s, d in F.flat_modes(c) if s == 1)  # Observation 2.3.3.6


@given(layouts(), layouts())
def test_equal_functions_iff_equal_coalesce(L, M):
    assert (fn(L) == fn(M)) == (A.coalesce(L) == A.coalesce(M))


@given(layouts())
def test_relative_coalesce_over_own_shape_and_top_modes(L):
    S = L.shape
    for Sbar in (S, T.size(S), tuple(T.size(x) for x in S) if isinstance(S, tuple) else S):
        R = A.coalesce(L, Sbar)                        # Def 2.3.4.7
        assert fn(R) == fn(L)                          # Lemma 2.3.4.9
        assert N.refines(R.shape, Sbar)                # Remark 2.3.4.8
        assert A.is_coalesced_over(R, Sbar)
        assert A.coalesce(L, Sbar, sense="cute") == R  # CuTe's profile walk agrees


def test_coalesce_styles():
    assert str(A.coalesce(parse("(2,2,2):(1,2,4)"))) == "8:1"          # Example 2.3.3.11
    assert str(A.coalesce(parse("():()"))) == "_1:_0"                  # Example 2.3.3.8
    assert A.coalesce(parse("(2,2,2):(1,2,4)"), sense="flat") == parse("(8):(1)")
    assert A.coalesce(parse("():()"), sense="flat") == parse("():()")
    with pytest.raises(LayoutError) as e:
        A.coalesce(parse("(4,4):(1,4)"), (2, 8))
    assert e.value.condition == "refines"
    # CuTe's walk: a shorter profile keeps the trailing modes
    assert A.coalesce(parse("((2,2),(2,2)):((1,2),(4,8))"), (1,), sense="cute") == \
        parse("(4,(2,2)):(1,(4,8))")


@given(layouts())
def test_filter(L):
    R = A.filter(L)
    kept = [(s, d) for s, d in F.flat_modes(L) if s != 1 and d != 0]
    assert fn(R) == fn(F.flat_layout(kept))
    assert A.is_coalesced(R)


# --- complement ------------------------------------------------------------------------------

@given(layouts(), st.sampled_from([None, 1, 4, 24, 96, 192, 384]))
def test_complement(L, N_):
    if not A.is_complementable(L, N_):
        with pytest.raises(LayoutError) as e:
            A.complement(L, N_)
        assert e.value.condition == "is_complementable"
        return
    c = A.complement(L, N_)
    assert F.is_disjoint(L, c)                          # disjoint: (L, c) compact
    assert F.is_flat_compact(A.make_modes(L, c))
    assert sort(c) == F.flat_layout(F.flat_modes(c))  # ordered (sorted)
    assert A.is_coalesced(c)
    if N_ is not None:
        assert T.size(L.shape) * T.size(c.shape) == N_  # Def 2.3.6.7
    assert fn(c) == fn(F.flat_complement(L, N_))        # Def 2.3.6.5


@given(layouts(), st.sampled_from([None, 5, 24, 100]))
def test_complement_cute_sense(L, N_):
    if A.is_complementable(L, N_, sense="cute"):
        c = A.complement(L, N_, sense="cute")
        nz = F.flat_layout((s, d) for s, d in F.flat_modes(L) if d != 0)
        assert F.is_disjoint(nz, c)
        if N_ is not None:
            assert T.size(nz.shape) * T.size(c.shape) >= N_


# --- composition ----------------------------------------------------------------------------

def _brute_composable(Al, B):
    """Search every layout with shape refining shape(B) (leaves of B split by ordered
    factorisations, strides forced by the unit coordinates) for one with function A∘B."""
    va, vb = fn(Al), fn(B)
    if any(v >= len(va) for v in vb):
        return False
    target = [va[v] for v in vb]
    options = []
    for s, d in zip(T.flatten(B.shape), T.flatten(B.stride)):
        opts = []
        for fac in F._ordered_factorisations(s, 4):
            st_, p = [], 1
            for f in fac:
                st_.append(va[d * p])
                p *= f
            opts.append(list(zip(fac, st_)))
        options.append(opts)
    for choice in itertools.product(*options):
        R = F.flat_layout([m for part in choice for m in part])
        if fn(R) == target:
            return True
    return False


@given(layouts(max_size=48), layouts(max_size=24))
def test_composition_defining_properties(Al, B):
    if A.is_composable(Al, B):
        R = A.composition(Al, B)
        va = fn(Al)
        assert fn(R) == [va[v] for v in fn(B)]          # R(i) == A(B(i))
        assert N.refines(R.shape, B.shape)              # Def 2.3.7.1 (1)
        assert A.is_coalesced_over(R, B.shape)          # Def 2.3.7.1 (2)
        assert A.composition(A.coalesce(Al), B) == R    # Corollary 2.3.7.11
    else:
        with pytest.raises(LayoutError) as e:
            A.composition(Al, B)
        assert e.value.condition == "is_composable"
        assert not _brute_composable(Al, B)             # never a missed composite


@given(layouts(max_size=48), layouts(max_size=24))
def test_composition_cute_sense_extends_A(Al, B):
    if A.is_composable(Al, B):
        assert A.composition(Al, B, sense="cute") == A.composition(Al, B)
    elif A.is_composable(Al, B, sense="cute"):
        R = A.composition(Al, B, sense="cute")
        E = A._extend(Al, max(fn(B)) + 1)
        assert fn(E)[:len(fn(Al))] == fn(Al)            # an extension of A's function
        assert fn(R) == [fn(E)[v] for v in fn(B)]


def test_composition_examples_and_preconditions():
    # the paper forbids, CuTe accepts (image beyond size(A)): finding F-024
    Al, B = parse("(4,2):(1,8)"), parse("4:4")
    assert not A.is_composable(Al, B)
    assert A.is_composable(Al, B, sense="cute")
    assert A.composition(Al, B, sense="cute") == parse("4:8")
    # the paper accepts, CuTe rejects (stride divisibility): finding F-025
    assert A.composition(parse("(3,3,2):(12,1,6)"), parse("(2):(4)")) == parse("(2):(13)")
    # a tiler is applied mode by mode
    assert A.composition(parse("(4,8):(1,4)"), (2, parse("4:2"))) == parse("(2,4):(1,8)")
    with pytest.raises(LayoutError) as e:
        A.composition(parse("8:1"), (2, 2))
    assert e.value.condition == "rank"


# --- division and product ---------------------------------------------------------------------

@given(layouts(max_size=48), layouts(max_size=16))
def test_logical_divide(Al, B):
    n = T.size(Al.shape)
    if not (A.is_complementable(B, n) and A.is_composable(Al, A.make_modes(B, A.complement(B, n)))):
        with pytest.raises(LayoutError):
            DV.logical_divide(Al, B)
        return
    D = DV.logical_divide(Al, B)
    Bc = A.complement(B, n)
    d0, d1 = A.top_modes(D)
    assert d0 == A.composition(Al, B)                   # Def 2.3.8.1
    assert d1 == A.composition(Al, Bc)
    assert T.size(D.shape) == n
    assert sorted(fn(D)) == sorted(fn(Al))              # (B, B^c) is a bijection on [0, n)
    Z = DV.zipped_divide(Al, B)
    assert Z == D                                       # a layout tiler: nothing to unzip
    assert fn(DV.tiled_divide(Al, B)) == fn(D) and fn(DV.flat_divide(Al, B)) == fn(D)


def test_logical_divide_tuple_tiler_and_derived_forms():
    L = parse("(8,16):(1,8)")
    D = DV.logical_divide(L, (2, 4))
    assert D == A.make_modes(DV.logical_divide(parse("8:1"), 2), DV.logical_divide(parse("16:8"), 4))
    Z = DV.zipped_divide(L, (2, 4))
    assert Z == parse("((2,4),(4,4)):((1,8),(2,32))")
    assert DV.tiled_divide(L, (2, 4)) == parse("((2,4),4,4):((1,8),2,32)")
    assert DV.flat_divide(L, (2, 4)) == parse("(2,4,4,4):(1,8,2,32)")
    assert sorted(fn(Z)) == sorted(fn(D))


@given(layouts(max_size=24), layouts(max_size=12))
def test_logical_product(Al, B):
    try:
        Pr = DV.logical_product(Al, B)
    except LayoutError as e:
        assert e.condition in ("is_complementable", "is_composable")
        if e.condition == "is_complementable":
            assert not A.is_complementable(Al)
        return
    p0, p1 = A.top_modes(Pr)
    assert p0 == Al                                     # Def 2.3.9.1
    Ac = A.complement(Al, T.size(Al.shape) * cosize(B)) if A.is_complementable(
        Al, T.size(Al.shape) * cosize(B)) else None
    if Ac is not None:
        assert p1 == A.composition(Ac, B)
    assert T.size(Pr.shape) == T.size(Al.shape) * T.size(B.shape)
    assert F.is_disjoint(Al, p1) == F.is_flat_compact(Pr)
    bp, rp = DV.blocked_product(Al, B), DV.raked_product(Al, B)
    assert T.size(bp.shape) == T.size(rp.shape) == T.size(Pr.shape)


def test_products_examples():
    Al, B = parse("(2,2):(1,2)"), parse("(3,4):(1,3)")
    assert DV.blocked_product(Al, B) == parse("((2,3),(2,4)):((1,4),(2,12))")
    assert DV.raked_product(Al, B) == parse("((3,2),(4,2)):((4,1),(12,2))")
    assert DV.logical_product(parse("4:1"), 3) == parse("(4,3):(1,4)")  # int tiler = 3:1
    # by mode: 2:1 x 3:1 = (2,3):(1,2); 2:2 x 2:1 = (2,2):(2,1) (comp(2:2, 4) = 2:1)
    assert DV.zipped_product(parse("(2,2):(1,2)"), (3, 2)) == parse("((2,2),(3,2)):((1,2),(2,1))")


# --- inverses and slicing ------------------------------------------------------------------------

@given(layouts())
def test_inverses(L):
    R = A.right_inverse(L)
    assert all(L(R(i)) == i for i in range(T.size(R.shape)))
    v = fn(L)
    if len(set(v)) == len(v):
        try:
            Li = A.left_inverse(L)
        except LayoutError as e:
            assert e.condition == "left_inverse_divisibility"
        else:
            assert all(Li(x) == i for i, x in enumerate(v))
    else:
        with pytest.raises(LayoutError) as e:
            A.left_inverse(L)
        assert e.value.condition == "is_injective"


@given(layouts(), st.data())
def test_slice(L, data):
    if not isinstance(L.shape, tuple) or not L.shape:
        return
    keep = [data.draw(st.booleans()) for _ in L.shape]
    fixed = [data.draw(st.integers(0, T.size(s) - 1)) for s in L.shape]
    coord = tuple(_ if k else c for k, c in zip(keep, fixed))
    S = A.slice_(L, coord)
    if not any(keep):
        assert S == A._crd2idx(coord, L.shape, L.stride)
        return
    kept = [i for i, k in enumerate(keep) if k]
    assert S.shape == tuple(L.shape[i] for i in kept)
    # S(j) is L at the kept modes' coordinates (others 0): the slice drops the offset
    zero = tuple(_ if k else 0 for k in keep)
    sub = A.slice_(L, zero)
    assert fn(S) == fn(sub)


def test_slice_nested_and_errors():
    L = parse("(4,(2,8)):(1,(4,8))")
    assert A.slice_(L, (_, (1, _))) == parse("(4,8):(1,8)")
    assert A.slice_(L, (1, 5)) == 1 + 4 * 1 + 8 * 2
    with pytest.raises(LayoutError) as e:
        A.slice_(L, (4, _))
    assert e.value.condition == "in_domain"


# --- tractable ----------------------------------------------------------------------------------

@given(layouts())
def test_tractable_implications(L):
    sq = squeeze(L)
    if F.is_flat_compact(L) or A.is_complementable(L):
        assert A.is_tractable(sq)                        # Examples 2.3.10.5, 2.3.10.7
    assert A.is_tractable(L) == F.is_flat_tractable(F.flat_layout(F.flat_modes(L)))


# --- CuTe's sense against pycute (installed with nvidia-cutlass) ----------------------------

@given(layouts(max_size=48), layouts(max_size=24))
def test_cute_sense_composition_matches_pycute(Al, B):
    """Where pycute answers with a layout of the right size (F-071: it sometimes does not),
    the spec's composition(A, B, sense="cute") has the same function."""
    pycute = pytest.importorskip("pycute")
    try:
        R = pycute.composition(pycute.Layout(Al.shape, Al.stride), pycute.Layout(B.shape, B.stride))
    except AssertionError:
        return  # pycute's own divisibility assert (finding F-025)
    except ValueError:
        assert () in (Al.shape, B.shape) or not T.flatten(B.shape)
        return  # pycute's make_layout cannot build an empty layout
    if pycute.size(R) != T.size(B.shape):
        return  # finding F-071
    got = [R(i) for i in range(pycute.size(R))]
    if A.is_composable(Al, B, sense="cute"):
        assert fn(A.composition(Al, B, sense="cute")) == got
    else:  # pycute returned a layout although no layout has the function A∘B
        ext = fn(A._extend(Al, max(fn(B)) + 1))
        assert got != [ext[v] for v in fn(B)]


def test_cute_composition_check_model():
    """The model of CuTe C++'s static checks on the cases compiled with g++ (F-025, F-030)."""
    assert cute_composition_check(parse("(4,4):(4,2)"), parse("1:6")) == \
        "Stride Divisibility Condition"
    assert cute_composition_check(parse("(3,3,2):(12,1,6)"), parse("2:4")) == \
        "Stride Divisibility Condition"
    # accepted by CuTe, but not composable: CuTe's (2,2):(2,10) is wrong at i = 2 (F-030)
    assert cute_composition_check(parse("(3,4):(1,10)"), parse("4:2")) is None
    assert not A.is_composable(parse("(3,4):(1,10)"), parse("4:2"), sense="cute")
    wrong = parse("(2,2):(2,10)")
    assert wrong(2) == 10 != parse("(3,4):(1,10)")(parse("4:2")(2)) == 11
