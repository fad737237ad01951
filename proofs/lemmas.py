"""The lemma catalogue: each lemma of the paper's sections 2.1.2-2.1.7, encoded for z3.

Every query asks z3 for a *violation* of the statement: ``unsat`` means the statement holds
for every layout of that rank (within the stated bounds), ``sat`` gives a counterexample.
Shapes and strides are unbounded z3 integers unless the lemma's ``bound`` says otherwise.
Image statements use explicit witness coordinates (no quantifier alternation), in
coordinate form: Image(Phi_L) = phi_L([0, S)) since colex^-1 is a bijection (colex_inverse).
Algorithms with branches (coalesce; the cases of composition; σ) get one query per branch.
Queries may carry *hints* (symbolic.euclid, symbolic.colex_bound): valid facts about
division that steer z3, never assumptions about the statement.  Where an
induction exists, ``induction`` gives the step queries over the head-recursive form
``Phi_{(s:d)::T}(x) = d (x mod s) + Phi_T(x div s)`` with ``Phi_T`` an uninterpreted
function; the induction hypothesis is used only at the one point the step needs, so each
step is quantifier-free.  The argument that turns the steps into a proof for every rank is
the lemma's ``induction_argument``.
"""

import itertools
from dataclasses import dataclass
from typing import Callable, Optional

import z3
from layoutcheck.proofs import checks
from layoutcheck.proofs.symbolic import (
    Mode,
    SymLayout,
    colex_bound,
    coord_point,
    division_hints,
    fresh_layout,
    head_phi,
    nested_colex,
    product,
)

from layoutcheck.errors import LayoutError

__all__ = ["Query", "Lemma", "CATALOGUE", "get_lemma"]


@dataclass
class Query:
    """One satisfiability question: ``assertions`` describe a violation."""
    label: str
    assertions: list
    layout: Optional[SymLayout] = None   # decoded into the counterexample on ``sat``


@dataclass(frozen=True)
class Lemma:
    name: str
    ref: str                      # the paper's number
    statement: str
    queries: Callable             # rank -> [Query]
    check: Callable               # concrete layout -> True (holds) / False (violated) / None (n/a)
    expected: str = "proved"      # or "refuted" (a literal erratum)
    bound: str = "unbounded"
    induction: Optional[Callable] = None      # () -> [Query], the steps
    induction_argument: str = ""
    min_rank: int = 1
    max_rank: Optional[int] = None            # the encoding enumerates; not attempted beyond
    strategy: str = "layout"      # which concrete inputs the re-validation draws


# ---------------------------------------------------------------- helpers

def _point(name, L):
    x = z3.Int(name)
    return x, [0 <= x, x < L.size()]


def _select(items, idx):
    out = items[-1]
    for k in range(len(items) - 2, -1, -1):
        out = z3.If(idx == k, items[k], out)
    return out


def _precedes_or_equal(s1, d1, s2, d2):
    """s1:d1 ⪯ s2:d2 (Def 2.1.3.23)."""
    return z3.Or(d1 < d2, z3.And(d1 == d2, s1 <= s2))


def _uf(name):
    return z3.Function(name, z3.IntSort(), z3.IntSort())


def _coords(name, L):
    return [z3.Int(f"{name}{i}") for i in range(L.rank)]


def _image_queries(label, A, B, to_b, to_a):
    """Image(Phi_A) = Image(Phi_B), both inclusions, in coordinate form with witnesses.

    Image(Phi_L) = phi_L([0, S)) because colex^-1 is a bijection [0, size) -> [0, S)
    (colex_inverse, mixed_radix_unique), so each inclusion is: for every coordinate of one
    side, the witness coordinate (a fixed map) lies in the other box with the same value.
    """
    xs = _coords(f"{label}_x", A)
    yw = to_b(xs)
    q1 = Query(f"{label}: Image(A) ⊆ Image(B)",
               [A.in_box(xs), z3.Not(z3.And(B.in_box(yw), B.phi(yw) == A.phi(xs)))])
    ys = _coords(f"{label}_y", B)
    xw = to_a(ys)
    q2 = Query(f"{label}: Image(B) ⊆ Image(A)",
               [B.in_box(ys), z3.Not(z3.And(A.in_box(xw), A.phi(xw) == B.phi(ys)))])
    return [q1, q2]


def _with_layout(qs, L, cons):
    for q in qs:
        q.assertions = cons + q.assertions
        q.layout = L
    return qs


# ---------------------------------------------------------------- squeeze (2.1.3.6, 2.1.3.11)

def _squeezed(L):
    return SymLayout(Mode(m.s, m.d, m.s != 1) for m in L.modes)


def _q_squeeze_size(r):
    L, c = fresh_layout("L", r)
    return [Query("size(squeeze L) != size(L)", c + [_squeezed(L).size() != L.size()], L)]


def _q_squeeze_cosize(r):
    L, c = fresh_layout("L", r)
    return [Query("cosize(squeeze L) != cosize(L)", c + [_squeezed(L).cosize() != L.cosize()], L)]


def _q_squeeze_phi(r):
    L, c = fresh_layout("L", r)
    x, cx = _point("x", L)
    return [Query("Phi_squeeze(L)(x) != Phi_L(x)", c + cx + [_squeezed(L).Phi(x) != L.Phi(x)], L)]


def _head_vars():
    s, d, n = z3.Ints("s d N_T")
    return s, d, n, [s >= 1, d >= 0, n >= 1]


def _ind_squeeze_size():
    s, d, n, c = _head_vars()
    n2 = z3.Int("N_sqT")
    return [Query("step: size((s:d)::T) with IH size(squeeze T) = size(T)",
                  c + [n2 == n, z3.If(s != 1, s * n2, n2) != s * n])]


def _ind_squeeze_cosize():
    s, d, n, c = _head_vars()
    k, k2 = z3.Ints("cos_T cos_sqT")
    return [Query("step: cosize((s:d)::T) with IH",
                  c + [k2 == k, z3.If(s != 1, (s - 1) * d + k2, k2) != (s - 1) * d + k])]


def _ind_squeeze_phi():
    s, d, n, c = _head_vars()
    F, G = _uf("Phi_T"), _uf("Phi_sqT")
    x = z3.Int("x")
    y = x / s
    return [Query("step: Phi_squeeze((s:d)::T) = Phi_(s:d)::T with IH at x div s",
                  c + [0 <= x, x < s * n, G(y) == F(y),
                       z3.If(s != 1, head_phi(s, d, G, x), G(x)) != head_phi(s, d, F, x)])]


_SQUEEZE_ARG = ("Rank 0: squeeze(()) = (), equal values.  Step: for L = (s:d)::T, "
                "squeeze(L) = squeeze(T) if s = 1 else (s:d)::squeeze(T) (Construction 2.1.3.6); "
                "the step query proves the statement for L from the statement for T (the "
                "induction hypothesis, used at the one point it is needed).")


# ---------------------------------------------------------------- filter zeros (2.1.3.12)

def _filtered(L):
    return SymLayout(Mode(m.s, m.d, m.d != 0) for m in L.modes)


def _q_filter_image(r):
    L, c = fresh_layout("L", r)
    F = _filtered(L)
    return _with_layout(_image_queries("filter", L, F, lambda xs: xs, _zero_absent(F)), L, c)


def _zero_absent(R):
    """Coordinates of R's present modes, 0 on the removed modes."""
    return lambda ys: [z3.If(m.present, y, 0) for y, m in zip(ys, R.modes)]


def _image_step(label, s, d, keep, F, G, n_t, n_g, g, h):
    """Step for a head mode that ``keep``s or drops: IH as witness maps g: T -> op(T), h back."""
    x, y = z3.Int("step_x"), z3.Int("step_y")
    q = x / s
    if keep:
        yw = x % s + s * g(q)
        rhs = head_phi(s, d, G, yw)
        dom_y = z3.And(0 <= yw, yw < s * n_g)
    else:
        yw = g(q)
        rhs = G(yw)
        dom_y = z3.And(0 <= yw, yw < n_g)
    ih1 = z3.Implies(z3.And(0 <= q, q < n_t), z3.And(0 <= g(q), g(q) < n_g, G(g(q)) == F(q)))
    q1 = Query(f"step ({label}, ⊆)", [0 <= x, x < s * n_t, ih1,
                                      z3.Not(z3.And(dom_y, rhs == head_phi(s, d, F, x)))])
    if keep:
        p = y / s
        xw = y % s + s * h(p)
        lhs, dom_x, ylim = head_phi(s, d, G, y), z3.And(0 <= xw, xw < s * n_t), s * n_g
    else:
        p = y
        xw = s * h(p)
        lhs, dom_x, ylim = G(y), z3.And(0 <= xw, xw < s * n_t), n_g
    ih2 = z3.Implies(z3.And(0 <= p, p < n_g), z3.And(0 <= h(p), h(p) < n_t, F(h(p)) == G(p)))
    q2 = Query(f"step ({label}, ⊇)", [0 <= y, y < ylim, ih2,
                                      z3.Not(z3.And(dom_x, head_phi(s, d, F, xw) == lhs))])
    return [q1, q2]


def _ind_filter_image():
    s, d, n, c = _head_vars()
    ng = z3.Int("N_fT")
    F, G, g, h = _uf("Phi_T"), _uf("Phi_fT"), _uf("w_T"), _uf("w_fT")
    keep = _image_step("keep s:d, d>0", s, d, True, F, G, n, ng, g, h)
    drop = _image_step("drop s:0", s, z3.IntVal(0), False, F, G, n, ng, g, h)
    for q in keep:
        q.assertions = c + [ng >= 1, d > 0] + q.assertions
    for q in drop:
        q.assertions = c + [ng >= 1] + q.assertions
    return keep + drop


_IMAGE_ARG = ("Rank 0: equal images {0}.  Step: for L = (s:d)::T the operation keeps the head "
              "mode or drops it; given witness maps between the domains of T and op(T) that "
              "preserve values (the induction hypothesis), the step queries build the witnesses "
              "for L in both directions.")


# ---------------------------------------------------------------- permute, sort (2.1.3.18, 2.1.3.35)

def _perm_image(r, sort):
    """One pair of queries per σ (symbolic σ with If-selections stops at rank 4-5): the
    queries of _image_queries(L, L^σ) with witnesses x∘σ and y∘σ^-1, built from per-mode
    pieces made once (the same terms as _image_queries builds: And and Sum of the same
    arguments; tests compare them)."""
    (L, c0), out = fresh_layout("L", r), []
    M = L.modes  # sort: σ is the permutation of Construction 2.1.3.31: ⪯ order, ties by index
    before = {(a, b): z3.Or(M[a].d < M[b].d, z3.And(M[a].d == M[b].d, M[a].s < M[b].s),
                            z3.And(M[a].d == M[b].d, M[a].s == M[b].s, a < b))
              for a in range(r) for b in range(r) if sort and a != b}
    label = "sort" if sort else "permute"
    xs, ys = _coords(f"{label}_x", L), _coords(f"{label}_y", L)
    # coordinate x_i in mode i, and y_k (the k-th mode of L^σ) in mode j of L
    box_x = [z3.And(0 <= x, x < m.s) for x, m in zip(xs, M)]
    val_x = [x * m.d for x, m in zip(xs, M)]
    box_y = [[z3.And(0 <= y, y < m.s) for m in M] for y in ys]
    val_y = [[y * m.d for m in M] for y in ys]
    zero = z3.IntVal(0)
    in_a, phi_a = z3.And([True] + box_x), z3.Sum([zero] + val_x)
    for perm in itertools.permutations(range(r)):
        c = c0 + [before[a, b] for a, b in zip(perm, perm[1:]) if sort]
        inv = [perm.index(i) for i in range(r)]
        tag = "σ=" + "".join(str(i + 1) for i in perm) + ": " + label
        # Image(A) ⊆ Image(B): x in [0, S), witness y = x∘σ
        in_b = z3.And([True] + [box_x[q] for q in perm])
        phi_b = z3.Sum([zero] + [val_x[q] for q in perm])
        q1 = Query(f"{tag}: Image(A) ⊆ Image(B)",
                   c + [in_a, z3.Not(z3.And(in_b, phi_b == phi_a))], L)
        # Image(B) ⊆ Image(A): y in [0, S^σ), witness x = y∘σ^-1
        in_y = z3.And([True] + [box_y[k][q] for k, q in enumerate(perm)])
        phi_y = z3.Sum([zero] + [val_y[k][q] for k, q in enumerate(perm)])
        in_w = z3.And([True] + [box_y[inv[i]][i] for i in range(r)])
        phi_w = z3.Sum([zero] + [val_y[inv[i]][i] for i in range(r)])
        q2 = Query(f"{tag}: Image(B) ⊆ Image(A)",
                   c + [in_y, z3.Not(z3.And(in_w, phi_w == phi_y))], L)
        out += [q1, q2]
    return out


def _ind_swap():
    a, b, s, t, d, e, rest = z3.Ints("a b s t d e rest")
    return [Query("step: swapping adjacent modes (s:d),(t:e) in coordinate form",
                  [0 <= a, a < s, 0 <= b, b < t,
                   a * d + b * e + rest != b * e + a * d + rest])]


_PERM_ARG = ("Every permutation is a product of adjacent transpositions; swapping two adjacent "
             "modes together with their coordinates is a bijection of the coordinate boxes "
             "that keeps phi (the step query), so Image(Phi) = phi(box) is unchanged.  sort(L) "
             "is L^sigma for one sigma (Construction 2.1.3.31), hence the same for sort.")


# ---------------------------------------------------------------- restriction, concatenation

def _q_restrict_image(r):
    L, c = fresh_layout("L", r)
    b = [z3.Bool(f"in_I{i}") for i in range(r)]
    R = SymLayout(Mode(m.s, m.d, bi) for m, bi in zip(L.modes, b))
    q = _image_queries("restrict", R, L, _zero_absent(R), _zero_absent(R))[0]
    q.label = "Image(L|_I) ⊆ Image(L)"
    return _with_layout([q], L, c)


def _ind_restrict_image():
    s, d, n, c = _head_vars()
    ng = z3.Int("N_IT")
    F, G, g, h = _uf("Phi_T"), _uf("Phi_T|I"), _uf("w_T"), _uf("w_T|I")
    out = []
    for keep in (True, False):  # the head mode is in I, or not; any stride
        q = _image_step("head in I" if keep else "head not in I", s, d, keep, F, G, n, ng, g, h)[1]
        q.assertions = c + [ng >= 1] + q.assertions
        out.append(q)
    return out


def _q_concat_phi(r):
    out = []
    for k in range(r + 1):
        L, c = fresh_layout("L", r)
        A, B = SymLayout(L.modes[:k]), SymLayout(L.modes[k:])
        xs, tails, cx = coord_point(L, "x")
        x, n1 = tails[0], A.size()
        ca, cb = A.colex(xs[:k]), B.colex(xs[k:])
        sa, sb = [m.s for m in A.modes], [m.s for m in B.modes]
        hints = [colex_bound(sa, xs[:k], ca), colex_bound(sb, xs[k:], cb)]
        hints += division_hints([n1, B.size()], x, [ca, cb])
        hints += division_hints(sa, x % n1, xs[:k]) + division_hints(sb, x / n1, xs[k:])
        out.append(Query(f"split after mode {k}: Phi_L(x) != Phi_L1(x mod N1) + Phi_L2(x div N1)",
                         c + cx + hints + [L.Phi(x) != A.Phi(x % n1) + B.Phi(x / n1)], L))
    return out


def _q_concat_cosize(r):
    out = []
    for k in range(r + 1):
        L, c = fresh_layout("L", r)
        A, B = SymLayout(L.modes[:k]), SymLayout(L.modes[k:])
        out.append(Query(f"split after mode {k}: cosize", c + [
            L.cosize() != A.cosize() + B.cosize() - 1], L))
    return out


def _ind_concat_phi():
    s, d, n, c = _head_vars()
    nb = z3.Int("N_B")
    F, B, G = _uf("Phi_T"), _uf("Phi_B"), _uf("Phi_TB")
    x = z3.Int("x")
    y = x / s
    n1 = s * n
    return [Query("step: ((s:d)::T) ⋆ B from T ⋆ B (IH at x div s)",
                  c + [nb >= 1, 0 <= x, x < n1 * nb, G(y) == F(y % n) + B(y / n),
                       head_phi(s, d, G, x) != head_phi(s, d, F, x % n1) + B(x / n1)])]


_CONCAT_ARG = ("Induction on rank(L1): L1 = () gives Phi_B(x) on both sides; for "
               "L1 = (s:d)::T, (L1 ⋆ B) = (s:d)::(T ⋆ B), and the step query derives the law "
               "for L1 from the law for T.  Observation 2.1.3.39 (L = L|_<k> ⋆ L|_rest) makes "
               "this the restriction law for every split.")


# ---------------------------------------------------------------- column-major, colex (2.1.2.18, 2.1.2.25)

def _q_colmajor(r):
    L, c = fresh_layout("L", r)
    scale = z3.IntVal(1)
    for m in L.modes:
        c.append(m.d == scale)
        scale = scale * m.s
    x, cx = _point("x", L)
    return [Query("column-major L with Phi_L(x) != x", c + cx + [L.Phi(x) != x], L)]


def _ind_colmajor():
    s, d, n, c = _head_vars()
    G = _uf("Phi_colmajor_T")
    x = z3.Int("x")
    return [Query("step: Phi_(s:1)::(s*colmajor(T))(x) = (x mod s) + s*Phi_colmajor(T)(x div s)",
                  c + [0 <= x, x < s * n, G(x / s) == x / s, (x % s) + s * G(x / s) != x])]


def _q_colex_inverse(r):
    L, c = fresh_layout("S", r)
    n, cn = _point("n", L)
    xs, tails, cx = coord_point(L, "x")
    back = L.coords(L.colex(xs))
    return [Query("colex(colex^-1(n)) != n", c + cn + [L.colex(L.coords(n)) != n], L),
            Query("colex^-1(colex(x)) != x (Euclidean hints on the Horner form)",
                  c + cx + [L.colex(xs) == tails[0], _differ(back, xs)], L)]


def _q_mixed_radix(r):
    L, c = fresh_layout("S", r)
    xs = [z3.Int(f"x{i}") for i in range(r)]
    ys = [z3.Int(f"y{i}") for i in range(r)]
    shape = [m.s for m in L.modes]
    tx, hx = nested_colex(shape, xs)
    ty, hy = nested_colex(shape, ys)
    return [Query("colex(x) = colex(y) with x != y (Euclidean hints on the Horner form)",
                  c + hx + hy + [L.in_box(xs), L.in_box(ys), L.colex(xs) == L.colex(ys),
                                 L.colex(xs) == tx[0], L.colex(ys) == ty[0],
                                 z3.Or([False] + [a != b for a, b in zip(xs, ys)])], L)]


def _ind_colmajor_max():
    P, s = z3.Ints("P s")
    return [Query("step: (P - 1) + (s - 1) P != s P - 1", [P >= 1, s >= 1,
                                                            (P - 1) + (s - 1) * P != s * P - 1])]


def _ind_colex():
    s, _, n, c = _head_vars()
    K = _uf("colex_T_of_colex_inv_T")
    m, x0, X = z3.Ints("n x0 X")
    return [Query("step: colex(colex^-1(n)) = (n mod s) + s*colex_T(colex_T^-1(n div s))",
                  c + [0 <= m, m < s * n, K(m / s) == m / s, (m % s) + s * K(m / s) != m]),
            Query("step: x0 in [0,s), X in [0,N_T) => 0 <= x0 + s X < s N_T (colex bound)",
                  c + [0 <= x0, x0 < s, 0 <= X, X < n,
                       z3.Not(z3.And(0 <= x0 + s * X, x0 + s * X < s * n))])]


def _ind_mixed_radix():
    s, _, n, c = _head_vars()
    x0, y0, X, Y = z3.Ints("x0 y0 X Y")
    return [Query("step: x0 + s X = y0 + s Y, x0, y0 in [0,s) => x0 = y0 and X = Y",
                  c + [0 <= x0, x0 < s, 0 <= y0, y0 < s, X >= 0, Y >= 0,
                       x0 + s * X == y0 + s * Y, z3.Or(x0 != y0, X != Y)])]


_COLEX_ARG = ("Rank 0 is trivial.  colex((x0)::X) = x0 + s colex_T(X) and "
              "colex^-1(n) = (n mod s)::colex_T^-1(n div s); the step queries reduce rank m+1 "
              "to rank m (the hypothesis at n div s, resp. the tails X, Y) for "
              "colex(colex^-1(n)) = n, the bound colex(x) < size, and uniqueness; "
              "colex^-1(colex(x)) = x follows from the first and uniqueness.")


def _q_colmajor_max(r, printed=False):
    """sum_{j<i} (s_j - 1) s_1..s_{j-1} for i = r: = s_1..s_{i-1} - 1 (printed: s_1..s_i - 1)."""
    L, c = fresh_layout("L", r, min_shape=2 if printed else 1, max_shape=3 if printed else None)
    scale = z3.IntVal(1)
    for m in L.modes:
        c.append(m.d == scale)
        scale = scale * m.s
    M = L.modes
    total = z3.Sum([z3.IntVal(0)] + [(M[j].s - 1) * M[j].d for j in range(r - 1)])
    claim = product(m.s for m in M) - 1 if printed else product(m.s for m in M[:-1]) - 1
    return [Query("sum_{j<i} (s_j - 1)(s_1..s_{j-1}) != claimed maximum", c + [total != claim], L)]


# ---------------------------------------------------------------- coalesce (2.1.4.9-2.1.4.17)

def _coalesce_patterns(r, ones_last=False):
    """Every branch of Construction 2.1.4.9 at rank r: (size-1 modes, merges of neighbours).

    ``ones_last``: only the patterns whose size-1 modes are the last ones, for a query in
    which a size-1 mode's unknowns occur only in s_i >= 1, d_i >= 0 and s_i = 1 (the branch
    of coalesce_coalesced / coalesce_idempotent: coal drops the mode, R and the merge
    conditions are built from the kept modes in their order).  Renaming the unknowns
    (s_i, d_i) by the permutation that moves the kept modes, in their order, to the front
    and the size-1 modes to the back carries the query of any pattern onto the query of the
    pattern with the same merges and its size-1 modes last (up to the order of the
    conjunction), and keeps (un)satisfiability: one query per (number of size-1 modes,
    merges) covers every branch.  Not for coalesce_phi, whose Phi_L divides through every
    mode in order."""
    for ones in itertools.product((False, True), repeat=r):
        kept = [i for i in range(r) if not ones[i]]
        if ones_last and ones != tuple(i >= len(kept) for i in range(r)):
            continue
        for merges in itertools.product((False, True), repeat=max(len(kept) - 1, 0)):
            yield ones, kept, merges


def _coalesce_branch(r, ones, kept, merges):
    L, c = fresh_layout("L", r)
    M = L.modes
    for i in range(r):
        c.append(M[i].s == 1 if ones[i] else M[i].s >= 2)
    groups = [[kept[0]]] if kept else []
    for j, merge in enumerate(merges):
        a, b = kept[j], kept[j + 1]
        cond = M[a].s * M[a].d == M[b].d
        c.append(cond if merge else z3.Not(cond))
        if merge:
            groups[-1].append(b)
        else:
            groups.append([b])
    R = SymLayout(Mode(product(M[i].s for i in g), M[g[0]].d) for g in groups)
    label = "ones=" + "".join("1" if o else "." for o in ones) + " merge=" + \
        "".join("m" if m else "." for m in merges)
    return L, c, R, label


def _q_coalesce_phi(r):
    out = []
    for ones, kept, merges in _coalesce_patterns(r):
        L, c, R, label = _coalesce_branch(r, ones, kept, merges)
        xs, tails, cx = coord_point(L, "x")
        # R's coordinate of x on a merged group is the colex of the group's coordinates
        gs, group = [], [kept[0]] if kept else []
        for j, merge in enumerate(merges):
            if not merge:
                gs.append(group)
                group = []
            group.append(kept[j + 1])
        if group:
            gs.append(group)
        gcs = [SymLayout(L.modes[i] for i in g).colex([xs[i] for i in g]) for g in gs]
        hints = division_hints([m.s for m in R.modes], tails[0], gcs)
        hints += [colex_bound([L.modes[i].s for i in g], [xs[i] for i in g], gc)
                  for g, gc in zip(gs, gcs)]
        hints += [z3.And([True] + [xs[i] == 0 for i in range(r) if ones[i]])]
        out.append(Query(label, c + cx + hints + [R.Phi(tails[0]) != L.Phi(tails[0])], L))
    return out


def _not_coalesced(R):
    """The negation of Def 2.1.4.1: some shape 1, or some s_i d_i = d_{i+1}."""
    M = R.modes
    bad = [m.s == 1 for m in M] + [M[i].s * M[i].d == M[i + 1].d for i in range(len(M) - 1)]
    return z3.Or([False] + bad)


def _q_coalesce_coalesced(r, every_pattern=False):
    out = []
    for pat in _coalesce_patterns(r, ones_last=not every_pattern):
        L, c, R, label = _coalesce_branch(r, *pat)
        out.append(Query(label, c + [_not_coalesced(R)], L))
    return out


def _q_coalesce_idempotent(r, every_pattern=False):
    # coal(R) = R exactly when Construction 2.1.4.9 applied to R removes no mode and merges no
    # neighbours, i.e. when R's own branch is the identity one: ask for R taking any other.
    out = []
    for pat in _coalesce_patterns(r, ones_last=not every_pattern):
        L, c, R, label = _coalesce_branch(r, *pat)
        out.append(Query(label + ": coal(R) takes a non-identity branch", c + [_not_coalesced(R)], L))
    return out


def _ind_coalesce_phi():
    s, d, n, c = _head_vars()
    t = z3.Int("t")
    F = _uf("Phi_T")
    x = z3.Int("x")
    merged_tail = lambda y: head_phi(t, s * d, F, y)  # noqa: E731
    return [Query("step: dropping a size-1 head mode", c + [0 <= x, x < n,
                                                            head_phi(1, d, F, x) != F(x)]),
            Query("step: merging head modes s:d, t:sd into st:d",
                  c + [t >= 1, 0 <= x, x < s * t * n,
                       head_phi(s, d, merged_tail, x) != head_phi(s * t, d, F, x)])]


_COALESCE_ARG = ("Observation 2.1.4.10: coal(L) is reached from L by dropping size-1 modes and "
                 "merging neighbours s_i,s_{i+1}:d_i,s_i d_i.  Each step at the head keeps Phi "
                 "(step queries); at mode k it is a head step on the second factor of "
                 "L|_<k> ⋆ L|_rest, which keeps Phi by the concatenation law (proved for all "
                 "ranks, concat_phi).")


# ---------------------------------------------------------------- compact (2.1.5.6)

def _squeeze_perm_colmajor(L, p):
    """squeeze(L)^sigma is column-major, for squeeze as presence and sigma given by ``p``."""
    r = L.rank
    S, D = [m.s for m in L.modes], [m.d for m in L.modes]
    cons, scale = [], z3.IntVal(1)
    for k in range(r):
        s, d = _select(S, p[k]), _select(D, p[k])
        # modes of size 1 are removed by squeeze: they take no place in the column-major order
        cons.append(z3.Or(s == 1, d == scale))
        scale = scale * s
    return cons


def _compact_if_patterns(r, every_pattern=False):
    """The (size-1 modes, σ of the other modes) patterns that _q_compact_if asks.

    Symmetry (Prop 2.1.5.6, '<='): the query of a pattern (ones, σ) is the query of
    (ones = the last k modes, σ = identity on the first r - k) with the modes' unknowns
    (s_i, d_i, x_i, y_i) renamed by a permutation τ of <r>, up to the order of the terms of
    its commutative sums, products, conjunctions and disjunctions: the layout conditions,
    size, cosize (Def 2.1.5.1), the boxes, x != y and phi_L (Construction 2.1.2.13) are
    symmetric in the modes, and the pattern's own parts (s_i = 1 / s_i >= 2, the
    column-major chain d_σ(1) = 1, d_σ(j+1) = s_σ(j) d_σ(j), the Horner hints over the σ
    order) are carried onto each other by τ (S_r acts transitively on the ordered lists of
    r - k of the r modes).  Renaming unknowns keeps (un)satisfiability, so the one query
    pair per number k of size-1 modes is unsat exactly when every pair of the full
    enumeration is (every_pattern=True gives that enumeration: tests compare the two)."""
    for ones in itertools.product((False, True), repeat=r):
        kept = [i for i in range(r) if not ones[i]]
        if not every_pattern and ones != tuple(i >= len(kept) for i in range(r)):
            continue
        for perm in (itertools.permutations(kept) if every_pattern else [tuple(kept)]):
            yield ones, perm


def _q_compact_if(r, every_pattern=False):
    """'<=': one pair of queries per (size-1 modes, σ of the other modes), up to the symmetry
    of _compact_if_patterns (what does not depend on the pattern is built once: the same
    terms)."""
    (L, c0), out = fresh_layout("L", r), []
    M = L.modes
    size_is = {True: [m.s == 1 for m in M], False: [m.s >= 2 for m in M]}
    xs, ys = _coords("x", L), _coords("y", L)
    cosize = [L.cosize() != L.size()]
    inj = [L.in_box(xs), L.in_box(ys), _differ(xs, ys), L.phi(xs) == L.phi(ys)]
    for ones, perm in _compact_if_patterns(r, every_pattern):
        c, scale = c0 + [size_is[ones[i]][i] for i in range(r)], z3.IntVal(1)
        for q in perm:  # squeeze(L)^σ is column-major
            c.append(M[q].d == scale)
            scale = scale * M[q].s
        shape = [M[q].s for q in perm]  # phi_L(x) is colex over the σ order (size-1
        # coordinates are 0): Euclidean hints on that Horner form give unique coordinates
        hx = nested_colex(shape, [xs[q] for q in perm])[1]
        hy = nested_colex(shape, [ys[q] for q in perm])[1]
        tag = "ones=" + "".join("1" if o else "." for o in ones) + \
            " σ=" + "".join(str(q + 1) for q in perm)
        out += [Query(f"{tag}: squeeze(L)^σ column-major but cosize != size", c + cosize, L),
                Query(f"{tag}: squeeze(L)^σ column-major but phi_L not injective",
                      c + hx + hy + inj, L)]
    return out


def _differ(xs, ys):
    return z3.Or([False] + [a != b for a, b in zip(xs, ys)])


def _q_compact_only_if(r, bound=3):
    L, c = fresh_layout("L", r, max_shape=bound)
    M = L.modes
    boxes = list(itertools.product(range(bound), repeat=r))
    inside = lambda a: z3.And([z3.IntVal(ai) < m.s for ai, m in zip(a, M)])  # noqa: E731
    val = lambda a: z3.Sum([z3.IntVal(0)] + [ai * m.d for ai, m in zip(a, M)])  # noqa: E731
    injective = [z3.Implies(z3.And(inside(a), inside(b)), val(a) != val(b))
                 for a, b in itertools.combinations(boxes, 2)]
    none_colmajor = []
    for perm in itertools.permutations(range(r)):
        pv = [z3.IntVal(q) for q in perm]
        none_colmajor.append(z3.Not(z3.And(_squeeze_perm_colmajor(L, pv))))
    return [Query("L compact (injective, cosize = size) but no squeeze(L)^σ column-major",
                  c + injective + [L.cosize() == L.size()] + none_colmajor, L)]


# ---------------------------------------------------------------- complement (2.1.6.29-31)

def _complement_setup(r):
    """A = sort(squeeze(A)) complementable for N, and C (Construction 2.1.6.29) before coal."""
    A, c = fresh_layout("A", r, min_shape=2, min_stride=1)
    k = [z3.Int(f"k{i}") for i in range(r)]
    M = A.modes
    c += [ki >= 1 for ki in k]
    for i in range(r - 1):
        c.append(M[i + 1].d == M[i].s * M[i].d * k[i])
    C = SymLayout([Mode(M[0].d, z3.IntVal(1))] + [Mode(k[i], M[i].s * M[i].d) for i in range(r)])
    N = M[-1].s * M[-1].d * k[-1]
    return A, C, N, c


def _q_complement_disjoint(r):
    A, C, N, c = _complement_setup(r)
    xs, ys = _coords("x", A), _coords("y", C)
    return [Query("phi_A(x) = phi_comp(y) != 0", c + [A.in_box(xs), C.in_box(ys),
                  A.phi(xs) == C.phi(ys), A.phi(xs) != 0], A)]


def _q_complement_compact(r):
    A, C, N, c = _complement_setup(r)
    AC = SymLayout(A.modes + C.modes)
    xs, ys = _coords("x", AC), _coords("y", AC)
    # the order C_0, A_1, C_1, ..., A_m, C_m is column-major (proof of Lemma 2.1.6.31):
    # Euclidean hints on colex over that order
    order = [r] + [i for j in range(r) for i in (j, r + 1 + j)]
    shape = [AC.modes[i].s for i in order]
    hints = nested_colex(shape, [xs[i] for i in order])[1] + \
        nested_colex(shape, [ys[i] for i in order])[1]
    return [Query("size(A ⋆ comp) != N", c + [AC.size() != N], A),
            Query("cosize(A ⋆ comp) != N", c + [AC.cosize() != N], A),
            Query("phi_{A ⋆ comp} not injective on [0, S)", c + [
                AC.in_box(xs), AC.in_box(ys), _differ(xs, ys), AC.phi(xs) == AC.phi(ys)] + hints, A)]


def _q_complementable_increasing(r):
    """In coordinate form, one query per top differing mode k, plus the query that these
    cases cover x < y (colex order is lexicographic from the last mode)."""
    out = []
    for k in range(r):
        A, C, N, c = _complement_setup(r)
        xs, ys = _coords("x", A), _coords("y", A)
        same = [xs[j] == ys[j] for j in range(k + 1, r)]
        out.append(Query(f"top differing mode {k + 1}: x_k < y_k but phi_A(x) >= phi_A(y)",
                         c + same + [A.in_box(xs), A.in_box(ys), xs[k] < ys[k],
                                     A.phi(xs) >= A.phi(ys)], A))
    L, c = fresh_layout("S", r)
    xs, ys = _coords("x", L), _coords("y", L)
    shape = [m.s for m in L.modes]
    tx, hx = nested_colex(shape, xs)
    ty, hy = nested_colex(shape, ys)
    cases = [z3.And([xs[k] < ys[k]] + [xs[j] == ys[j] for j in range(k + 1, r)])
             for k in range(r)]
    out.append(Query("colex(x) < colex(y) without a top differing mode k with x_k < y_k",
                     c + hx + hy + [L.in_box(xs), L.in_box(ys), tx[0] < ty[0],
                                    z3.Not(z3.Or(cases))], L))
    return out


# ---------------------------------------------------------------- composition (2.1.7.1, CuTe)

def _q_composition(r):
    """A∘(n:e) for each branch (k, j): e = s_1..s_{k-1} c with c | s_k; n ends in mode j."""
    out = []
    for k in range(r):
        for j in range(k, r):
            A, cons = fresh_layout("A", r)
            M = A.modes
            n, e, cdiv, u, v = z3.Ints("n e c u v")
            pre = product(m.s for m in M[:k])
            cons += [cdiv >= 1, u >= 1, v >= 1, M[k].s == cdiv * u, e == pre * cdiv]
            if j == k:
                cons += [u == n * (u / n), n >= 1]
                R = SymLayout([Mode(n, cdiv * M[k].d)])
            else:
                mids = [m.s for m in M[k + 1:j]]
                cons += [n == u * product(mids) * v, M[j].s == v * (M[j].s / v)]
                R = SymLayout([Mode(u, cdiv * M[k].d)] + [Mode(m.s, m.d) for m in M[k + 1:j]]
                              + [Mode(v, M[j].d)])
            ys, tails, cy = coord_point(R, "y")
            x = tails[0]
            # the coordinates of e x in A: 0 before mode k, c y_0 in mode k, then y_1.. (hints)
            acs = [z3.IntVal(0)] * k + [cdiv * ys[0]] + ys[1:] + [z3.IntVal(0)] * (r - j - 1)
            hints = division_hints([m.s for m in M], e * x, acs)
            out.append(Query(f"B = n:e lands in modes {k + 1}..{j + 1}: "
                             "Phi_R(x) != Phi_A(e x)",
                             cons + cy + hints + [R.Phi(x) != A.Phi(e * x)], A))
    return out


# ---------------------------------------------------------------- sorted (Lemma 2.1.3.29)

def _not_sorted(L):
    M = L.modes
    return z3.Or([False] + [z3.Not(_precedes_or_equal(M[i].s, M[i].d, M[i + 1].s, M[i + 1].d))
                            for i in range(len(M) - 1)])


def _q_sorted_literal(r, min_shape=1, bound=3):
    L, c = fresh_layout("L", r, min_shape=min_shape, max_shape=bound, max_stride=bound)
    pts = [L.Phi(z3.IntVal(x)) for x in range(bound ** r)]
    nondecreasing = [z3.Implies(x + 1 < L.size(), pts[x] <= pts[x + 1])
                     for x in range(bound ** r - 1)]
    return [Query("Phi_L non-decreasing and L not sorted", c + nondecreasing + [_not_sorted(L)], L)]


def _q_sorted_squeezed(r):
    return _q_sorted_literal(r, min_shape=2)


def _sorted_corrected_violation(M, i, prefix):
    """The two pairs of points of the paper's proof for modes i, i+1 and their failure."""
    s, d, t, e = M[i].s, M[i].d, M[i + 1].s, M[i + 1].d
    return s, d, t, e, [(prefix, prefix * s), ((s - 1) * prefix, (t - 1) * prefix * s)]


def _q_sorted_corrected(r):
    L, c = fresh_layout("L", r, min_shape=2)
    M = L.modes
    hyps, bad, prefix = [], [], z3.IntVal(1)
    shape = [m.s for m in M]

    def unit(k, v):  # the coordinate vector with v at mode k, 0 elsewhere
        return [v if j == k else z3.IntVal(0) for j in range(r)]
    for i in range(r - 1):
        s, d, t, e, pairs = _sorted_corrected_violation(M, i, prefix)
        coords = [(unit(i, 1), unit(i + 1, 1)), (unit(i, s - 1), unit(i + 1, t - 1))]
        for (a, b), (ca, cb) in zip(pairs, coords):
            hyps += division_hints(shape, a, ca) + division_hints(shape, b, cb)
            hyps.append(z3.Implies(a <= b, L.Phi(a) <= L.Phi(b)))
        bad.append(z3.Or(d > e, z3.And(d == e, d > 0, s > t)))
        prefix = prefix * s
    return [Query("shapes >= 2, Phi_L non-decreasing, strides out of order (or equal "
                  "non-zero strides with decreasing shapes)", c + hyps + [z3.Or([False] + bad)], L)]


def _ind_sorted_corrected():
    P, s, t, d, e, X, Y = z3.Ints("P s t d e X Y")
    # the points used have all coordinates 0 outside modes i, i+1: their values are
    # d, e, (s-1) d, (t-1) e whatever the other modes are (colex_inverse, proved).
    c = [P >= 1, s >= 2, t >= 2, d >= 0, e >= 0]
    return [Query("local step: modes i, i+1 after a prefix of size P >= 1",
                  c + [z3.Implies(P <= P * s, d <= e),
                       z3.Implies((s - 1) * P <= (t - 1) * P * s, (s - 1) * d <= (t - 1) * e),
                       z3.Or(d > e, z3.And(d == e, d > 0, s > t))])]


# ---------------------------------------------------------------- the catalogue

CATALOGUE = [
    Lemma("squeeze_size", "2.1.3.11(1)", "size(squeeze(L)) = size(L)",
          _q_squeeze_size, checks.squeeze_size, induction=_ind_squeeze_size,
          induction_argument=_SQUEEZE_ARG),
    Lemma("squeeze_cosize", "2.1.3.11(2)", "cosize(squeeze(L)) = cosize(L)",
          _q_squeeze_cosize, checks.squeeze_cosize, induction=_ind_squeeze_cosize,
          induction_argument=_SQUEEZE_ARG),
    Lemma("squeeze_phi", "2.1.3.11(3)", "Phi_squeeze(L) = Phi_L",
          _q_squeeze_phi, checks.squeeze_phi, induction=_ind_squeeze_phi,
          induction_argument=_SQUEEZE_ARG),
    Lemma("filter_image", "2.1.3.12", "Image(Phi_filter(L)) = Image(Phi_L) (filter zeros)",
          _q_filter_image, checks.filter_image, induction=_ind_filter_image,
          induction_argument=_IMAGE_ARG, bound="unbounded; witness coordinates"),
    Lemma("permute_image", "2.1.3.18", "Image(Phi_{L^σ}) = Image(Phi_L) for every σ",
          lambda r: _perm_image(r, sort=False), checks.permute_image, induction=_ind_swap,
          induction_argument=_PERM_ARG, bound="unbounded; σ enumerated; witness coordinates",
          max_rank=6),
    Lemma("sort_image", "2.1.3.35", "Image(Phi_sort(L)) = Image(Phi_L), both inclusions "
          "(the printed proof names the wrong inclusion, F-002)",
          lambda r: _perm_image(r, sort=True), checks.sort_image, induction=_ind_swap,
          induction_argument=_PERM_ARG, bound="unbounded; σ enumerated; witness coordinates",
          max_rank=6),
    Lemma("restrict_image", "2.1.3.1", "Image(Phi_{L|I}) ⊆ Image(Phi_L) for every I ⊆ <m>",
          _q_restrict_image, checks.restrict_image, bound="unbounded; I symbolic",
          induction=_ind_restrict_image, induction_argument=_IMAGE_ARG),
    Lemma("concat_phi", "2.1.3.39-40", "Phi_{L1⋆L2}(x) = Phi_L1(x mod N1) + Phi_L2(x div N1); "
          "with L1 = L|<k>, L2 = L|rest this is the restriction law L = L|<k> ⋆ L|rest",
          _q_concat_phi, checks.concat_phi, induction=_ind_concat_phi,
          induction_argument=_CONCAT_ARG),
    Lemma("concat_cosize", "2.1.3.41(3)", "cosize(L1⋆L2) = cosize(L1) + cosize(L2) - 1",
          _q_concat_cosize, checks.concat_cosize),
    Lemma("colmajor_identity", "2.1.2.25", "L column-major => Phi_L is the identity on [0, size)",
          _q_colmajor, checks.colmajor_identity, induction=_ind_colmajor,
          induction_argument="The column-major layout of (s)::S is (s:1)::(s * colmajor(S)); "
          "the step query closes the induction on rank."),
    Lemma("colmajor_max", "2.1.5.6", "sum_{j<i} (s_j - 1) s_1..s_{j-1} = s_1..s_{i-1} - 1 "
          "(the largest value of the first i-1 column-major modes)", _q_colmajor_max,
          checks.colmajor_max, induction=_ind_colmajor_max, min_rank=2,
          induction_argument="Adding mode i-1 adds (s_{i-1} - 1) P_{i-2} to P_{i-2} - 1, "
          "giving P_{i-1} - 1 (the step query)."),
    Lemma("colmajor_max_as_printed", "2.1.6.21", "the same sum = s_1..s_i - 1, as printed in the "
          "proofs of Prop 2.1.6.21 and 2.1.6.32 (F-090)",
          lambda r: _q_colmajor_max(r, printed=True), checks.colmajor_max_as_printed,
          expected="refuted", bound="shapes 2..3", min_rank=2, max_rank=3),
    Lemma("colex_inverse", "2.1.2.18", "colex_S and colex_S^-1 are inverse to each other",
          _q_colex_inverse, checks.colex_inverse, induction=_ind_colex,
          induction_argument=_COLEX_ARG),
    Lemma("mixed_radix_unique", "2.1.2.18", "colex_S is injective on [0, S) "
          "(mixed-radix coordinates are unique)", _q_mixed_radix, checks.colex_inverse,
          induction=_ind_mixed_radix, induction_argument=_COLEX_ARG),
    Lemma("coalesce_phi", "2.1.4.17", "Phi_coal(L) = Phi_L",
          _q_coalesce_phi, checks.coalesce_phi, induction=_ind_coalesce_phi,
          induction_argument=_COALESCE_ARG, bound="one query per branch pattern"),
    Lemma("coalesce_coalesced", "2.1.4.15", "coal(L) is coalesced (Def 2.1.4.1)",
          _q_coalesce_coalesced, checks.coalesce_coalesced,
          bound="one query per branch pattern, size-1 modes last"),
    Lemma("coalesce_idempotent", "2.1.4.16", "coal(coal(L)) = coal(L)",
          _q_coalesce_idempotent, checks.coalesce_idempotent,
          bound="one query per branch pattern, size-1 modes last"),
    Lemma("compact_if_colmajor", "2.1.5.6", "squeeze(L)^σ column-major for some σ => L "
          "compact (Phi_L injective and cosize = size)", _q_compact_if,
          checks.compact_iff_colmajor, bound="unbounded; size-1 modes, σ up to relabelling",
          max_rank=6),
    Lemma("compact_only_if_colmajor", "2.1.5.6", "L compact => squeeze(L)^σ column-major for "
          "some σ", _q_compact_only_if, checks.compact_iff_colmajor,
          bound="shapes <= 3 (every coordinate pair expanded); σ enumerated", max_rank=3),
    Lemma("complement_disjoint", "2.1.6.29-31", "A N-complementable: "
          "Image(Phi_A) ∩ Image(Phi_comp(A,N)) = {0}", _q_complement_disjoint,
          checks.complement_disjoint, bound="A = sort(squeeze(A)); comp before coal",
          strategy="complementable"),
    Lemma("complement_compact", "2.1.6.31", "A N-complementable: A ⋆ comp(A, N) is compact "
          "of size N", _q_complement_compact, checks.complement_compact,
          bound="A = sort(squeeze(A)); comp before coal", strategy="complementable"),
    Lemma("complementable_increasing", "2.1.6.22", "A complementable and sorted => Phi_A "
          "increasing", _q_complementable_increasing, checks.complementable_increasing,
          bound="A = sort(squeeze(A)); one query per top differing mode",
          strategy="complementable"),
    Lemma("composition_phi", "2.1.7.1", "Phi_{A∘B} = Phi_A ∘ Phi_B on [0, size B) for B = n:e "
          "with e and n dividing through shape(A) (CuTe's composable rank-1 B)",
          _q_composition, checks.composition_phi, bound="one query per branch (k, j)",
          strategy="composable"),
    Lemma("sorted_literal", "2.1.3.29", "Phi_L non-decreasing => L sorted (as printed)",
          _q_sorted_literal, checks.sorted_literal, expected="refuted",
          bound="shapes, strides <= 3", min_rank=2, max_rank=3),
    Lemma("sorted_squeezed", "2.1.3.29", "squeezed L (shapes >= 2), Phi_L non-decreasing "
          "=> L sorted", _q_sorted_squeezed, checks.sorted_squeezed, expected="refuted",
          bound="shapes 2..3, strides <= 3", min_rank=2, max_rank=2),
    Lemma("sorted_corrected", "2.1.3.29", "shapes >= 2 and Phi_L non-decreasing => "
          "d_i <= d_{i+1}, and s_i <= s_{i+1} where d_i = d_{i+1} > 0 (sorted up to "
          "zero-stride modes)", _q_sorted_corrected, checks.sorted_corrected, min_rank=2,
          induction=_ind_sorted_corrected,
          induction_argument="The violation at modes i, i+1 is witnessed at points whose "
          "coordinates vanish outside i, i+1; the local query with the prefix size P free "
          "covers every rank and every i."),
]


def get_lemma(name):
    for lemma in CATALOGUE:
        if lemma.name == name:
            return lemma
    raise LayoutError(f"no lemma named {name!r}; `layoutcheck prove --list` lists them")
