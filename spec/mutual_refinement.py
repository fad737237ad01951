"""Composition of tractable layouts through mutual refinements (paper section 4.1).

``mutual_refinement(T, U)`` is Algorithm 4.1.1; ``compose_by_mutual_refinement(B, A)`` is
Algorithm 4.1.2 followed by the relative coalesce of Theorem 4.1.3.1, giving the paper's
``B ∘ A`` = CuTe's ``composition(B, A)`` (outer layout first, as everywhere in the public
API); ``is_admissible_for_composition(A, B)`` is Def 4.1.6.1 (A the inner layout, as printed).
Everything is built from the morphisms of section 3 (``layoutcheck.spec.categories``), not
from the layout algebra of section 2, so that the two can be checked against each other.
``compose_general(B, A)`` is the extension of section 4.1.5 to a non-tractable B (fractional
diagram entries); it takes coal(B) and the final relative coalesce from ``layoutcheck.spec``.
"""

from fractions import Fraction

from layoutcheck.spec import tuples as T_
from layoutcheck.spec.algebra import coalesce
from layoutcheck.spec.categories import (
    coalesce_morphism,
    compose,
    encoded_layout,
    expansion,
    pullback,
    pushforward,
    relative_mode_morphism,
    representation,
    standard_representation,
)
from layoutcheck.spec.layout import Layout, as_layout
from layoutcheck.spec.limits import check_enumeration
from layoutcheck.spec.nested import refines, relative_modes, substitute

from layoutcheck.errors import LayoutError

__all__ = ["mutual_refinement", "is_mutual_refinement", "has_mutual_refinement",
           "composable_refinement", "weak_composite", "compose_by_mutual_refinement",
           "general_weak_composite", "compose_general", "is_admissible_for_composition", "EXAMPLES_4_1_1"]


def _mode(xs):
    return xs[0] if len(xs) == 1 else tuple(xs)


def mutual_refinement(T, U):
    """Algorithm 4.1.1: a mutual refinement ``(T', U')`` of ``(T, U)``, or ``None``.

    Two places where the printed algorithm is incomplete are made explicit (finding F-101):
    the closing loop runs while ``j <= len(Y)`` (printed ``j < len(Y)`` drops the last entry
    of U, e.g. for the section's own ``(6,6), (12,3,6)``), and when Y runs out before X the
    remaining entries of X must all be 1 (they are then appended to the last mode of U');
    otherwise size(T) > size(U) and there is no mutual refinement.
    """
    X, Y = list(T_.flatten(T)), list(T_.flatten(U))
    Xp, Yp, Xm, Ym = [], [], [], []
    i = j = 0
    while i < len(X) and j < len(Y):
        x, y = X[i], Y[j]
        if x == y:                                   # lines 7-13
            Xp.append(Xm + [x])
            Yp.append(Ym + [y])
            Xm, Ym = [], []
            i, j = i + 1, j + 1
        elif y % x == 0:                             # lines 14-20: entry_i(X) divides entry_j(Y)
            Xp.append(Xm + [x])
            Xm = []
            Ym.append(x)
            Y[j] = y // x
            i += 1
        elif x % y == 0:                             # lines 21-27: entry_j(Y) divides entry_i(X)
            Xm.append(y)
            Yp.append(Ym + [y])
            Ym = []
            X[i] = x // y
            j += 1
        else:                                        # line 29
            return None
    if i < len(X):                                   # Y exhausted first (not in the printed text)
        rest = X[i:]
        if any(x != 1 for x in rest) or Xm or not Yp:
            return None
        for x in rest:
            Xp.append([x])
            Yp[-1].append(x)
    if Ym:                                           # lines 32-36
        Yp.append(Ym + [Y[j]])
        j += 1
    while j < len(Y):                                # lines 37-40 (printed: j < len(Y))
        Yp.append([Y[j]])
        j += 1
    return substitute([_mode(m) for m in Xp], T), substitute([_mode(m) for m in Yp], U)


def is_mutual_refinement(T, U, Tp, Up):
    """Def 3.2.5.19 / 4.1.1.1: T' refines T, U' refines U, and T' divides U' (T'^b is a
    prefix of U'^b, Def 2.1.1.6 on flattenings)."""
    a, b = T_.flatten(Tp), T_.flatten(Up)
    return refines(Tp, T) and refines(Up, U) and b[:len(a)] == a


def has_mutual_refinement(T, U):
    """Whether Algorithm 4.1.1 finds a mutual refinement of (T, U)."""
    return mutual_refinement(T, U) is not None


def _representations(B, A):
    """Step 3 of Algorithm 4.1.2: f = f_A and g = f_{coal(B)}.

    coal(B) is computed as L_{coal(f_B)} (Theorem C, Prop 3.2.6.13), inside section 3.
    """
    A, B = as_layout(A), as_layout(B)
    f = standard_representation(A)
    g = standard_representation(encoded_layout(coalesce_morphism(standard_representation(B))))
    return f, g


def composable_refinement(f, g):
    """Construction 4.1.2.1: from f : S -> T, g : U -> V and a mutual refinement (T', U')
    (Algorithm 4.1.1), the composable f' = i ∘ (T'^* f) : S' -> U' and g' = U'_* g : U' -> V'.

    Raises ``LayoutError(condition="has_mutual_refinement")`` when there is none.
    """
    mr = mutual_refinement(f.codomain, g.domain)
    if mr is None:
        raise LayoutError(f"{f.codomain} and {g.domain} have no mutual refinement "
                          "(Algorithm 4.1.1)", condition="has_mutual_refinement")
    Tp, Up = mr
    fp = compose(expansion(Tp, Up), pullback(f, Tp))
    gp = pushforward(g, Up)
    return fp, gp


def weak_composite(B, A):
    """Algorithm 4.1.2: C = L_{g' ∘ f'}, a weak composite of A and B (Theorem 4.1.3.1).

    Paper's ``B ∘ A`` (first A): C(i) = B(A(i)).  A and B must be tractable.
    """
    f, g = _representations(B, A)
    fp, gp = composable_refinement(f, g)
    return encoded_layout(compose(gp, fp))


def compose_by_mutual_refinement(B, A):
    """B ∘ A = coal(C, shape(A)) with C the weak composite (Theorem 4.1.3.1).

    CuTe's argument order: the result R satisfies R(i) == B(A(i)), as
    ``layoutcheck.spec.composition(B, A)``.  The relative coalesce over shape(A) is done with
    morphisms: each relative mode of ``h = g' ∘ f'`` over shape(A) (Construction 3.2.5.3) is
    coalesced (Def 3.2.6.11), and L_{coal} = coal(L) (Prop 3.2.6.13).
    """
    A = as_layout(A)
    f, g = _representations(B, A)
    fp, gp = composable_refinement(f, g)
    h = compose(gp, fp)
    shapes, strides = [], []
    for k in range(1, T_.length(A.shape) + 1):
        Lk = encoded_layout(coalesce_morphism(relative_mode_morphism(h, A.shape, k)))
        shapes.append(Lk.shape)
        strides.append(Lk.stride)
    return Layout(substitute(shapes, A.shape), substitute(strides, A.shape))




def general_weak_composite(B, A):
    """Section 4.1.5: Algorithm 4.1.2 for a tractable A and *any* layout B.

    B's diagram is Construction 3.1.2.5 on coal(B) with fractional gap entries (the paper's
    "codomain tuple" (3, 8, 7/24, 8) for (8,8):(3,7)); the mutual refinement only involves
    the integer tuples codomain(f_A) and shape(coal(B)), so f' is an honest morphism; g' is
    the pushforward of the diagram and C = L_{g' ∘ f'} through the prefix-product formula.
    coal(B) is ``layoutcheck.spec.coalesce`` (section 2.3): B need not be tractable here.
    """
    A = as_layout(A)
    f = standard_representation(A)
    coalB = coalesce(B)
    U = coalB.shape
    V, beta = representation(coalB, exact=False)
    mr = mutual_refinement(f.codomain, U)
    if mr is None:
        raise LayoutError(f"{f.codomain} and {U} have no mutual refinement (Algorithm 4.1.1)",
                          condition="has_mutual_refinement")
    Tp, Up = mr
    fp = compose(expansion(Tp, Up), pullback(f, Tp))            # S' -> U'
    Um = relative_modes(Up, U)                                 # U'_i, one per entry of U
    where = {b: i for i, b in enumerate(beta) if b is not None}
    Vp, start = [], {}                                         # V' = g_* U', flattened
    for j, v in enumerate(V, 1):
        if j in where:
            start[where[j]] = len(Vp)
            Vp.extend(T_.flatten(Um[where[j]]))
        else:
            Vp.append(v)
    pos = []                                                   # U' position -> V' position
    for i, mode in enumerate(Um):
        n = T_.length(mode)
        pos.extend([None] * n if beta[i] is None else range(start[i], start[i] + n))
    strides = []
    for a in fp.alpha:
        q = None if a is None else pos[a - 1]
        d = 0 if q is None else _product(Vp[:q])
        if Fraction(d).denominator != 1:
            raise LayoutError(f"stride {d} is not an integer", condition="integral")
        strides.append(int(d))
    return Layout(fp.domain, substitute(strides, fp.domain))


def _product(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def compose_general(B, A):
    """B ∘ A = coal(C, shape(A)) for tractable A and any B (section 4.1.5, Theorem 4.1.3.1),
    CuTe's order: R(i) == B(A(i)).  The relative coalesce is ``layoutcheck.spec.coalesce``."""
    A = as_layout(A)
    return coalesce(general_weak_composite(B, A), A.shape)


def _divides(a, b, properly=False):
    return b % a == 0 and (not properly or a != b)


def is_admissible_for_composition(A, B):
    """Def 4.1.6.1: A and B (flat; A with no shape 1 and no stride 0) are admissible for the
    composition B ∘ A (CuTe: ``composition(B, A)``), as in the paper's reference [16].

    1. for each mode s_i:d_i of A there are 1 <= k <= l <= p with (a) u_1..u_{k-1} | d_i,
       (b) d_i | u_1..u_k (properly if k < p), (c) u_1..u_{l-1} | s_i d_i, (d) s_i d_i |
       u_1..u_l (properly if l < p), where shape(B) = (u_1..u_p);
    2. the intervals [d_i, d_i (s_i - 1)] ∩ [1, s_1...s_{m-1}) are pairwise disjoint.

    Transcribed as printed.  The paper calls admissibility sufficient for B ∘ A to exist;
    it is not (finding F-105: A = (2,4):(2,1), B = 4:2 is admissible, but Image(Phi_A)
    reaches 5 >= size(B)).  Theorem 4.1.6.5 (a mutual refinement implies admissible) holds.
    """
    A, B = as_layout(A), as_layout(B)
    if T_.depth(A.shape) > 1 or T_.depth(B.shape) > 1:
        raise LayoutError("Def 4.1.6.1 is stated for flat layouts", condition="is_flat")
    s, d = [int(x) for x in T_.flatten(A.shape)], [int(x) for x in T_.flatten(A.stride)]
    if any(x == 1 for x in s) or any(x == 0 for x in d):
        raise LayoutError(f"Def 4.1.6.1 needs A without shape entries 1 and stride entries 0; "
                          f"got {A}", condition="no_unit_shape_or_zero_stride")
    u = [int(x) for x in T_.flatten(B.shape)]
    p = len(u)
    pre = [1]
    for x in u:
        pre.append(pre[-1] * x)                      # pre[k] = u_1 ... u_k
    for si, di in zip(s, d):
        ok = False
        for k in range(1, p + 1):
            if not (_divides(pre[k - 1], di) and _divides(di, pre[k], properly=k < p)):
                continue
            for ell in range(k, p + 1):
                if (_divides(pre[ell - 1], si * di)
                        and _divides(si * di, pre[ell], properly=ell < p)):
                    ok = True
                    break
            if ok:
                break
        if not ok:
            return False
    bound = 1
    for x in s[:-1]:
        bound *= x
    check_enumeration(sum(max(0, min(di * (si - 1), bound - 1) + 1 - di) for si, di in zip(s, d)),
                      "the interval sets of Def 4.1.6.1")
    sets = [set(range(di, min(di * (si - 1), bound - 1) + 1)) for si, di in zip(s, d)]
    for a in range(len(sets)):
        for b in range(a + 1, len(sets)):
            if sets[a] & sets[b]:
                return False
    return True


# (number, operation, value as the paper prints it, computation), as in categories.EXAMPLES_3
EXAMPLES_4_1_1 = [
    (n, f"mutual_refinement({t}, {u})", v, (lambda t=t, u=u: mutual_refinement(t, u)))
    for n, t, u, v in [
        ("4.1.1.2", (6, 6), (2, 6, 3), "(((2,3),(2,3)),(2,(3,2),3))"),
        ("4.1.1.3", (8, 8, 8), (2, 8, 8, 8), "(((2,4),(2,4),(2,4)),(2,(4,2),(4,2),(4,2)))"),
        ("4.1.1.4", (4, 2, 2, 32), (32, 32), "((4,2,2,(2,16)),((4,2,2,2),(16,2)))"),
        ("4.1.1.5", (8, 8), (3, 8, 8), "None")]
]
