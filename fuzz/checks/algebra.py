"""The checks the fuzzer runs: differential (oracle vs spec) and algebraic laws (oracle alone).

A check has a name (``diff.<op>`` or ``law.<op>.<law>``), the operation it exercises, a
hypothesis strategy of argument tuples, and ``run(ctx, args)`` which returns normally when
the case is fine and raises ``CheckFailed`` (with both answers) when it is not.
``ctx.oracle`` is the oracle under test and ``ctx.spec`` the reference (``targets.reference_for``:
the spec, in CuTe's sense for CuTe-family oracles).

Laws are evaluated with ``targets.table`` (the layout function, independent of spec and
impl), so they catch bugs even where the oracle and the spec differ in convention.  The
building blocks live in ``checking.py``; the checks of the ops beyond the algebra (coordinates, slices, IntTuples, profiles, ``_`` tilers) in ``api_checks.py``, appended here.
"""

from collections import Counter

import layoutcheck.fuzz.strategies.addition as AD
import layoutcheck.fuzz.strategies.algebra as S
import layoutcheck.fuzz.strategies.coordinates as CS
import layoutcheck.fuzz.strategies.kernels as K
import layoutcheck.spec as spec
from hypothesis import strategies as st
from layoutcheck.fuzz.checks.base import (
    Check,
    CheckFailed,
    Skip,
    answer_of,
    differential,
    fail,
    static_law,
)
from layoutcheck.fuzz.checks.targets import table
from layoutcheck.oracles.postconditions import evaluate as extended

from layoutcheck.layout import LayoutBase, leaves, size

__all__ = ["Check", "CheckFailed", "Skip", "CHECKS", "checks_for"]


def _modes(L):
    if not isinstance(L.shape, tuple):
        return [L]
    return [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]


def _as_layout(t):
    return LayoutBase(t) if isinstance(t, int) else t


# --- algebraic laws (oracle alone) ------------------------------------------------------------

def law_coalesce_function(ctx, args):
    """Coalesce preserves the layout function (2.1.4, 2.3: Phi_coal(L) = Phi_L)."""
    (L,) = args
    R = answer_of(ctx, "coalesce", L)
    if table(R) != table(L):
        fail("coalesce changed the layout function", input=L, coalesce=R)


def law_coalesce_idempotent(ctx, args):
    """coalesce(coalesce(L)) == coalesce(L)."""
    (L,) = args
    R = answer_of(ctx, "coalesce", L)
    R2 = answer_of(ctx, "coalesce", R)
    if R2 != R:
        fail("coalesce is not idempotent", coalesce=R, coalesce_twice=R2)


def law_coalesce_minimal(ctx, args):
    """The coalesced form has minimal rank (2.1.4): flat, no size-1 mode unless size 1, and no
    neighbours with s_i d_i == d_{i+1}."""
    (L,) = args
    R = answer_of(ctx, "coalesce", L)
    s, d = [int(x) for x in leaves(R.shape)], [int(x) for x in leaves(R.stride)]
    bad = any(isinstance(m, tuple) for m in (R.shape if isinstance(R.shape, tuple) else ()))
    bad = bad or (len(s) > 1 and any(x == 1 for x in s))
    bad = bad or any(s[i] * d[i] == d[i + 1] for i in range(len(s) - 1))
    bad = bad or any(x == 1 and y != 0 for x, y in zip(s, d))  # a size-1 mode keeps stride 0
    if bad:
        fail("coalesce left mergeable, nested or size-1 modes", input=L, coalesce=R)


def law_filter_image(ctx, args):
    """filter(L) (CuTe's: drop stride-0 and size-1 modes, coalesce) has L's image, injectively
    when L's stride-non-zero part is injective; its result is coalesced."""
    (L,) = args
    R = answer_of(ctx, "filter", L)
    if set(table(R)) != set(table(L)):
        fail("filter changed the image", input=L, filter=R)
    if any(int(d) == 0 and int(s) > 1 for s, d in zip(leaves(R.shape), leaves(R.stride))):
        fail("filter kept a stride-0 mode", input=L, filter=R)


def law_composition_pointwise(ctx, args):
    """composition(A, B)(i) == A(B(i)) wherever B(i) < size(A) (Def 2.3.7.1), size(R) ==
    size(B), and R has B's top-level rank (CuTe composes mode by mode)."""
    A, B = args
    B = _as_layout(B)
    R = answer_of(ctx, "composition", A, B)
    rv, bv = table(R), table(B)
    if len(rv) != len(bv):
        fail("size(composition(A, B)) != size(B)", A=A, B=B, composition=R)
    n = size(A)  # beyond [0, size A) CuTe extends A's last mode (a convention): not checked
    for i, b in enumerate(bv):
        if b < n and rv[i] != extended(A, b):
            fail(f"composition(A, B)({i}) = {rv[i]} but A(B({i})) = A({b}) = {extended(A, b)}",
                  A=A, B=B, composition=R)
    if isinstance(B.shape, tuple) and (not isinstance(R.shape, tuple) or len(R.shape) != len(B.shape)):
        fail("composition(A, B) does not keep B's modes", A=A, B=B, composition=R)


def _composable(A, B):
    """The precondition of composition (the spec's predicate, CuTe's sense)."""
    try:
        return spec.is_composable(A, B, sense="cute")
    except Exception:  # noqa: BLE001 - a value the spec cannot judge: do not apply the law
        return False


def law_composition_associative(ctx, args):
    """(A∘B)∘C and A∘(B∘C) have the same layout function wherever all four composites are
    defined (composition is associative, section 3's functor; preconditions judged by the
    spec's is_composable, the values by the oracle)."""
    A, B, Cc = args
    AB = answer_of(ctx, "composition", A, B)
    BC = answer_of(ctx, "composition", B, Cc)
    if not (_composable(AB, Cc) and _composable(A, BC)):
        raise Skip("outside the precondition: the law needs all four composites (diff.* checks those)")
    left = answer_of(ctx, "composition", AB, Cc)
    right = answer_of(ctx, "composition", A, BC)
    if table(left) != table(right):
        fail("composition is not associative", A=A, B=B, C=Cc, AB_C=left, A_BC=right)


def law_complement(ctx, args):
    """C = complement(L, N) for complementable L (Def 2.1.6.1, 2.1.6.16): L ⋆ C is compact
    (disjoint images, no gaps), C is ordered (Phi_C increasing), size(L) size(C) >= N."""
    L, N = args
    Cc = answer_of(ctx, "complement", L, N)
    cv = table(Cc)
    if any(cv[i] >= cv[i + 1] for i in range(len(cv) - 1)):
        fail("complement is not ordered (its layout function is not increasing)",
              L=L, N=N, complement=Cc)
    both = table(LayoutBase((L.shape, Cc.shape), (L.stride, Cc.stride)))
    if sorted(both) != list(range(len(both))):
        fail("L and complement(L, N) are not disjoint with a compact union", L=L, N=N,
              complement=Cc)
    if len(both) < int(N):
        fail(f"size(L) * size(complement) = {len(both)} < N = {int(N)}", L=L, N=N, complement=Cc)


def _divide_mode_law(A, T, D, what):
    """D = logical_divide(A, T), T a layout: size and multiset of values of A kept, and mode 0
    of D is A∘T (Def 2.3.8: A / B = A ∘ (B, comp(B, size A))).  A tiler that is not injective
    (a stride 0 over an extent > 1) is divided only in CuTe's sense, where B and its complement
    need not tile A: the law says nothing there."""
    tv = table(T)
    if len(set(tv)) != len(tv):
        raise Skip("the tiler is not injective: logical division by it is CuTe's extension")
    av, dv = table(A), table(D)
    if Counter(av) != Counter(dv):
        fail(f"{what} does not permute A's values", A=A, tiler=T, result=D)
    m = _modes(D)
    if len(m) != 2:
        fail(f"{what} with a layout tiler must have two modes", A=A, tiler=T, result=D)
    want = [extended(A, b) for b in table(T)]
    if table(m[0]) != want:
        fail(f"mode 0 of {what}(A, T) is not A∘T", A=A, tiler=T, result=D)


def law_divide_modes(ctx, args):
    """logical_divide by mode: a tuple tiler divides mode i by T_i and keeps the rest."""
    A, T = args
    D = answer_of(ctx, "logical_divide", A, T)
    if isinstance(T, tuple):
        am, dm = _modes(A), _modes(D)
        if len(dm) != len(am):
            fail("logical_divide with a tuple tiler changed the rank", A=A, tiler=T, result=D)
        for i, (a, d) in enumerate(zip(am, dm)):
            if i < len(T):
                _divide_mode_law(a, _as_layout(T[i]), d, f"mode {i} of logical_divide")
            elif a != d:
                fail(f"logical_divide changed mode {i}, which no tiler covers", A=A, tiler=T,
                      result=D)
    else:
        _divide_mode_law(A, _as_layout(T), D, "logical_divide")


def law_divide_derived(ctx, args):
    """zipped_divide and tiled_divide gather the same modes (CuTe): same layout function, and
    both permute A's values."""
    A, T = args
    Z = answer_of(ctx, "zipped_divide", A, T)
    Td = answer_of(ctx, "tiled_divide", A, T)
    if Counter(table(Z)) != Counter(table(A)):
        fail("zipped_divide does not permute A's values", A=A, tiler=T, zipped_divide=Z)
    if table(Z) != table(Td):
        fail("tiled_divide and zipped_divide differ as functions", A=A, tiler=T,
              zipped_divide=Z, tiled_divide=Td)


def law_product_modes(ctx, args):
    """logical_product(A, B) = (A, comp(A, size(A) cosize(B)) ∘ B) (Def 2.3.9): mode 0 is A,
    size is size(A) size(B), injective when A is complementable and B injective."""
    A, B = args
    P = answer_of(ctx, "logical_product", A, B)
    B = _as_layout(B)
    m = _modes(P)
    if len(m) != 2 or table(m[0]) != table(A):
        fail("mode 0 of logical_product(A, B) is not A", A=A, B=B, logical_product=P)
    pv = table(P)
    if len(pv) != size(A) * size(B):
        fail("size(logical_product(A, B)) != size(A) * size(B)", A=A, B=B, logical_product=P)
    if (len(set(table(B))) == size(B) and spec.is_complementable(A)
            and len(set(pv)) != len(pv)):
        fail("logical_product of a complementable A and an injective B is not injective", A=A, B=B,
              logical_product=P)


def law_right_inverse(ctx, args):
    """L(R(i)) == i for i in [0, size R) (right inverse, CuTe), R(0) == 0."""
    (L,) = args
    R = answer_of(ctx, "right_inverse", L)
    lv, rv = table(L), table(R)
    for i, r in enumerate(rv):
        if not 0 <= r < len(lv) or lv[r] != i:
            fail(f"L(R({i})) != {i}", L=L, right_inverse=R)


def law_left_inverse(ctx, args):
    """For complementable (hence injective) L: Li(L(i)) == i for every i in [0, size L)."""
    (L,) = args
    lv = table(L)
    Li = answer_of(ctx, "left_inverse", L)
    iv = table(Li)
    for i, x in enumerate(lv):
        if not (x < len(iv) and iv[x] == i):
            fail(f"left_inverse(L)(L({i})) != {i}", L=L, left_inverse=Li)


def law_size_cosize_values(ctx, args):
    """The oracle's own evaluation: values(L) is phi_L at colex coordinates (index vs
    coordinate, Construction 2.1.2.19), len(values) == size(L), max+1 == cosize(L) (Def 2.1.2.9)."""
    (L,) = args
    want = tuple(table(L))  # bounded first: the oracle's answer is read only for a table we can build
    v = answer_of(ctx, "values", L)
    if len(v) != len(want):
        fail("len(values(L)) != size(L)", L=L, values=len(v), size=len(want))
    v = tuple(v)
    if v != want:
        fail("the oracle's L(i) is not phi_L(colex^-1(i))", L=L, oracle=list(v), phi=list(want))
    n = answer_of(ctx, "size", L)
    if int(n) != len(want):
        fail("size(L) != number of coordinates", L=L, size=n)
    c = answer_of(ctx, "cosize", L)
    if int(c) != max(want) + 1:
        fail("cosize(L) != max L(i) + 1", L=L, cosize=c, expected=max(want) + 1)


def law_layout_add(ctx, args):
    """layout_add(A, B)(i) == A(i) + B(i) on [0, size(A)), and layout_add(B, A) is the same
    layout (NVlabs' documented post-conditions; where the oracle answers)."""
    A, B = args
    R = answer_of(ctx, "layout_add", A, B)
    ta, tb, tr = table(A), table(B), table(R)
    if len(tr) != len(ta) or len(ta) != len(tb):
        fail(f"size(layout_add(A, B)) = {len(tr)}, size(A) = {len(ta)}, size(B) = {len(tb)}",
             A=A, B=B, layout_add=R)
    bad = next((i for i, (r, a, b) in enumerate(zip(tr, ta, tb)) if r != a + b), None)
    if bad is not None:
        fail(f"layout_add(A, B)({bad}) = {tr[bad]}, A({bad}) + B({bad}) = {ta[bad] + tb[bad]}",
             A=A, B=B, layout_add=R)
    try:
        R2 = answer_of(ctx, "layout_add", B, A)
    except Skip as e:
        fail(f"layout_add(A, B) answers, layout_add(B, A) refuses ({e})", A=A, B=B, layout_add=R)
    if R2 != R:
        fail("layout_add(B, A) != layout_add(A, B)", A=A, B=B, layout_add=R, swapped=R2)


# --- the catalogue -----------------------------------------------------------------------------

def _one(strategy):
    return lambda: st.tuples(strategy)


def _any_pair():
    small = S.layouts(max_size=32, max_leaves=3)
    return st.tuples(small, small)


_general = lambda: S.layouts()  # noqa: E731
STRATS = {
    "coalesce": lambda: st.one_of(_one(_general())(), CS.profile_args()),  # CuTe's trg_profile
    "filter": lambda: st.one_of(_one(_general())(), CS.profile_args()),
    "size": _one(_general()),
    "cosize": _one(_general()),
    "values": _one(_general()),
    "right_inverse": _one(S.inverse_args()),
    "left_inverse": _one(S.inverse_args()),
    "complement": lambda: st.one_of(S.complement_args(), S.complement_args(valid=False)),
    "composition": lambda: st.one_of(S.composable_pairs(sense="paper"),
                                     S.composable_pairs(sense="cute"),
                                     S.composable_pairs(sense="cute", near_miss=True), _any_pair(),
                                     S.divide_args(),  # B a tiler: by-mode composition
                                     CS.underscore_tiler_args(),  # a Tile holding _
                                     K.kernel_composition_args(),  # rank 3-4, Tiles of 3+ modes
                                     K.too_many_modes_args(),  # a refusal
                                     # N:M into a row of W, the commonest composition in a
                                     # kernel (a thread's or a vector's elements): two shares
                                     K.strided_access_args(), K.strided_access_args()),
    "logical_divide": lambda: st.one_of(S.divide_args(), S.divide_args(near_miss=True),
                                        CS.underscore_tiler_args(), K.kernel_divide_args(),
                                        K.too_many_modes_args(), K.strided_access_args()),
    **{op: (lambda: st.one_of(S.divide_args(), CS.underscore_tiler_args(), K.kernel_divide_args(),
                              K.too_many_modes_args(), K.strided_access_args()))
       for op in ("zipped_divide", "tiled_divide", "flat_divide")},
    **{op: (lambda: st.one_of(S.product_args(valid=False),
                              CS.underscore_tiler_args(product=True),
                              K.kernel_product_args(same_rank=False), K.too_many_modes_args()))
       for op in ("logical_product", "zipped_product", "tiled_product")},
    "blocked_product": lambda: st.one_of(S.product_args(ints=False, valid=False),
                                         K.kernel_product_args()),
    "raked_product": lambda: st.one_of(S.product_args(ints=False, valid=False),
                                       K.kernel_product_args()),
    "layout_add": AD.layout_add_args,  # NVlabs PyCuTe's own (spec/addition.py)
}


def _law(name, op, fn, strategy):
    return Check(name, op, "law", strategy, static_law(fn, op), (fn.__doc__ or "").strip().split("\n")[0])


ALGEBRA_CHECKS = [Check(f"diff.{op}", op, "differential", strat, differential(op),
                f"{op}: oracle vs spec at the level {op} requires")
          for op, strat in STRATS.items()] + [
    _law("law.coalesce.function", "coalesce", law_coalesce_function, _one(_general())),
    _law("law.coalesce.idempotent", "coalesce", law_coalesce_idempotent, _one(_general())),
    _law("law.coalesce.minimal", "coalesce", law_coalesce_minimal, _one(_general())),
    _law("law.filter.image", "filter", law_filter_image, _one(_general())),
    _law("law.composition.pointwise", "composition", law_composition_pointwise,
         lambda: st.one_of(S.composable_pairs(sense="paper"), S.composable_pairs(sense="cute"))),
    _law("law.composition.associative", "composition", law_composition_associative,
         lambda: S.composable_triples()),
    _law("law.complement.disjoint_ordered", "complement", law_complement,
         lambda: S.complement_args()),
    _law("law.logical_divide.modes", "logical_divide", law_divide_modes,
         lambda: st.one_of(S.divide_args(), S.divide_args(), K.kernel_divide_args())),
    _law("law.zipped_divide.derived", "zipped_divide", law_divide_derived,
         lambda: st.one_of(S.divide_args(), S.divide_args(), K.kernel_divide_args())),
    _law("law.logical_product.modes", "logical_product", law_product_modes,
         lambda: st.one_of(S.product_args(max_size=32, valid=False),
                           S.product_args(max_size=32, valid=False),
                           K.kernel_product_args(same_rank=False))),
    _law("law.right_inverse.equation", "right_inverse", law_right_inverse,
         _one(S.inverse_args())),
    _law("law.left_inverse.equation", "left_inverse", law_left_inverse,
         _one(S.layouts(complementable=True))),
    _law("law.values.index_vs_coordinate", "values", law_size_cosize_values, _one(_general())),
    _law("law.layout_add.pointwise", "layout_add", law_layout_add, AD.layout_add_args),
]
