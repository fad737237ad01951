"""The lemmas of the paper's sections 2.1.2-2.1.3 on flat layouts, encoded for z3: squeeze,
filter zeros, permute and sort, restriction and concatenation, column-major and colex, and
Lemma 2.1.3.29 (as printed and corrected)."""

import itertools

import z3
from layoutcheck.proofs.query import (
    Query,
    coords_of,
    differ,
    head_vars,
    image_queries,
    point,
    precedes_or_equal,
    uninterpreted,
    with_layout,
)
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

# ---------------------------------------------------------------- squeeze (2.1.3.6, 2.1.3.11)


def _squeezed(L):
    return SymLayout(Mode(m.s, m.d, m.s != 1) for m in L.modes)


def q_squeeze_size(r):
    L, c = fresh_layout("L", r)
    return [Query("size(squeeze L) != size(L)", c + [_squeezed(L).size() != L.size()], L)]


def q_squeeze_cosize(r):
    L, c = fresh_layout("L", r)
    return [Query("cosize(squeeze L) != cosize(L)", c + [_squeezed(L).cosize() != L.cosize()], L)]


def q_squeeze_phi(r):
    L, c = fresh_layout("L", r)
    x, cx = point("x", L)
    return [Query("Phi_squeeze(L)(x) != Phi_L(x)", c + cx + [_squeezed(L).Phi(x) != L.Phi(x)], L)]


def ind_squeeze_size():
    s, d, n, c = head_vars()
    n2 = z3.Int("N_sqT")
    return [Query("step: size((s:d)::T) with IH size(squeeze T) = size(T)",
                  c + [n2 == n, z3.If(s != 1, s * n2, n2) != s * n])]


def ind_squeeze_cosize():
    s, d, n, c = head_vars()
    k, k2 = z3.Ints("cos_T cos_sqT")
    return [Query("step: cosize((s:d)::T) with IH",
                  c + [k2 == k, z3.If(s != 1, (s - 1) * d + k2, k2) != (s - 1) * d + k])]


def ind_squeeze_phi():
    s, d, n, c = head_vars()
    F, G = uninterpreted("Phi_T"), uninterpreted("Phi_sqT")
    x = z3.Int("x")
    y = x / s
    return [Query("step: Phi_squeeze((s:d)::T) = Phi_(s:d)::T with IH at x div s",
                  c + [0 <= x, x < s * n, G(y) == F(y),
                       z3.If(s != 1, head_phi(s, d, G, x), G(x)) != head_phi(s, d, F, x)])]


SQUEEZE_ARG = ("Rank 0: squeeze(()) = (), equal values.  Step: for L = (s:d)::T, "
                "squeeze(L) = squeeze(T) if s = 1 else (s:d)::squeeze(T) (Construction 2.1.3.6); "
                "the step query proves the statement for L from the statement for T (the "
                "induction hypothesis, used at the one point it is needed).")


# ---------------------------------------------------------------- filter zeros (2.1.3.12)


def _filtered(L):
    return SymLayout(Mode(m.s, m.d, m.d != 0) for m in L.modes)


def q_filter_image(r):
    L, c = fresh_layout("L", r)
    F = _filtered(L)
    return with_layout(image_queries("filter", L, F, lambda xs: xs, _zero_absent(F)), L, c)


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


def ind_filter_image():
    s, d, n, c = head_vars()
    ng = z3.Int("N_fT")
    F, G, g, h = uninterpreted("Phi_T"), uninterpreted("Phi_fT"), uninterpreted("w_T"), uninterpreted("w_fT")
    keep = _image_step("keep s:d, d>0", s, d, True, F, G, n, ng, g, h)
    drop = _image_step("drop s:0", s, z3.IntVal(0), False, F, G, n, ng, g, h)
    for q in keep:
        q.assertions = c + [ng >= 1, d > 0] + q.assertions
    for q in drop:
        q.assertions = c + [ng >= 1] + q.assertions
    return keep + drop


IMAGE_ARG = ("Rank 0: equal images {0}.  Step: for L = (s:d)::T the operation keeps the head "
              "mode or drops it; given witness maps between the domains of T and op(T) that "
              "preserve values (the induction hypothesis), the step queries build the witnesses "
              "for L in both directions.")


# ---------------------------------------------------------------- permute, sort (2.1.3.18, 2.1.3.35)


def perm_image(r, sort):
    """One pair of queries per σ (symbolic σ with If-selections stops at rank 4-5): the
    queries of image_queries(L, L^σ) with witnesses x∘σ and y∘σ^-1, built from per-mode
    pieces made once (the same terms as image_queries builds: And and Sum of the same
    arguments; tests compare them)."""
    (L, c0), out = fresh_layout("L", r), []
    M = L.modes  # sort: σ is the permutation of Construction 2.1.3.31: ⪯ order, ties by index
    before = {(a, b): z3.Or(M[a].d < M[b].d, z3.And(M[a].d == M[b].d, M[a].s < M[b].s),
                            z3.And(M[a].d == M[b].d, M[a].s == M[b].s, a < b))
              for a in range(r) for b in range(r) if sort and a != b}
    label = "sort" if sort else "permute"
    xs, ys = coords_of(f"{label}_x", L), coords_of(f"{label}_y", L)
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


def ind_swap():
    a, b, s, t, d, e, rest = z3.Ints("a b s t d e rest")
    return [Query("step: swapping adjacent modes (s:d),(t:e) in coordinate form",
                  [0 <= a, a < s, 0 <= b, b < t,
                   a * d + b * e + rest != b * e + a * d + rest])]


PERM_ARG = ("Every permutation is a product of adjacent transpositions; swapping two adjacent "
             "modes together with their coordinates is a bijection of the coordinate boxes "
             "that keeps phi (the step query), so Image(Phi) = phi(box) is unchanged.  sort(L) "
             "is L^sigma for one sigma (Construction 2.1.3.31), hence the same for sort.")


# ---------------------------------------------------------------- restriction, concatenation


def q_restrict_image(r):
    L, c = fresh_layout("L", r)
    b = [z3.Bool(f"in_I{i}") for i in range(r)]
    R = SymLayout(Mode(m.s, m.d, bi) for m, bi in zip(L.modes, b))
    q = image_queries("restrict", R, L, _zero_absent(R), _zero_absent(R))[0]
    q.label = "Image(L|_I) ⊆ Image(L)"
    return with_layout([q], L, c)


def ind_restrict_image():
    s, d, n, c = head_vars()
    ng = z3.Int("N_IT")
    F, G, g, h = uninterpreted("Phi_T"), uninterpreted("Phi_T|I"), uninterpreted("w_T"), uninterpreted("w_T|I")
    out = []
    for keep in (True, False):  # the head mode is in I, or not; any stride
        q = _image_step("head in I" if keep else "head not in I", s, d, keep, F, G, n, ng, g, h)[1]
        q.assertions = c + [ng >= 1] + q.assertions
        out.append(q)
    return out


def q_concat_phi(r):
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


def q_concat_cosize(r):
    out = []
    for k in range(r + 1):
        L, c = fresh_layout("L", r)
        A, B = SymLayout(L.modes[:k]), SymLayout(L.modes[k:])
        out.append(Query(f"split after mode {k}: cosize", c + [
            L.cosize() != A.cosize() + B.cosize() - 1], L))
    return out


def ind_concat_phi():
    s, d, n, c = head_vars()
    nb = z3.Int("N_B")
    F, B, G = uninterpreted("Phi_T"), uninterpreted("Phi_B"), uninterpreted("Phi_TB")
    x = z3.Int("x")
    y = x / s
    n1 = s * n
    return [Query("step: ((s:d)::T) ⋆ B from T ⋆ B (IH at x div s)",
                  c + [nb >= 1, 0 <= x, x < n1 * nb, G(y) == F(y % n) + B(y / n),
                       head_phi(s, d, G, x) != head_phi(s, d, F, x % n1) + B(x / n1)])]


CONCAT_ARG = ("Induction on rank(L1): L1 = () gives Phi_B(x) on both sides; for "
               "L1 = (s:d)::T, (L1 ⋆ B) = (s:d)::(T ⋆ B), and the step query derives the law "
               "for L1 from the law for T.  Observation 2.1.3.39 (L = L|_<k> ⋆ L|_rest) makes "
               "this the restriction law for every split.")


# ---------------------------------------------------------------- column-major, colex (2.1.2.18, 2.1.2.25)


def q_colmajor(r):
    L, c = fresh_layout("L", r)
    scale = z3.IntVal(1)
    for m in L.modes:
        c.append(m.d == scale)
        scale = scale * m.s
    x, cx = point("x", L)
    return [Query("column-major L with Phi_L(x) != x", c + cx + [L.Phi(x) != x], L)]


def ind_colmajor():
    s, d, n, c = head_vars()
    G = uninterpreted("Phi_colmajor_T")
    x = z3.Int("x")
    return [Query("step: Phi_(s:1)::(s*colmajor(T))(x) = (x mod s) + s*Phi_colmajor(T)(x div s)",
                  c + [0 <= x, x < s * n, G(x / s) == x / s, (x % s) + s * G(x / s) != x])]


def q_colex_inverse(r):
    L, c = fresh_layout("S", r)
    n, cn = point("n", L)
    xs, tails, cx = coord_point(L, "x")
    back = L.coords(L.colex(xs))
    return [Query("colex(colex^-1(n)) != n", c + cn + [L.colex(L.coords(n)) != n], L),
            Query("colex^-1(colex(x)) != x (Euclidean hints on the Horner form)",
                  c + cx + [L.colex(xs) == tails[0], differ(back, xs)], L)]


def q_mixed_radix(r):
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


def ind_colmajor_max():
    P, s = z3.Ints("P s")
    return [Query("step: (P - 1) + (s - 1) P != s P - 1", [P >= 1, s >= 1,
                                                            (P - 1) + (s - 1) * P != s * P - 1])]


def ind_colex():
    s, _, n, c = head_vars()
    K = uninterpreted("colex_T_of_colex_inv_T")
    m, x0, X = z3.Ints("n x0 X")
    return [Query("step: colex(colex^-1(n)) = (n mod s) + s*colex_T(colex_T^-1(n div s))",
                  c + [0 <= m, m < s * n, K(m / s) == m / s, (m % s) + s * K(m / s) != m]),
            Query("step: x0 in [0,s), X in [0,N_T) => 0 <= x0 + s X < s N_T (colex bound)",
                  c + [0 <= x0, x0 < s, 0 <= X, X < n,
                       z3.Not(z3.And(0 <= x0 + s * X, x0 + s * X < s * n))])]


def ind_mixed_radix():
    s, _, n, c = head_vars()
    x0, y0, X, Y = z3.Ints("x0 y0 X Y")
    return [Query("step: x0 + s X = y0 + s Y, x0, y0 in [0,s) => x0 = y0 and X = Y",
                  c + [0 <= x0, x0 < s, 0 <= y0, y0 < s, X >= 0, Y >= 0,
                       x0 + s * X == y0 + s * Y, z3.Or(x0 != y0, X != Y)])]


COLEX_ARG = ("Rank 0 is trivial.  colex((x0)::X) = x0 + s colex_T(X) and "
              "colex^-1(n) = (n mod s)::colex_T^-1(n div s); the step queries reduce rank m+1 "
              "to rank m (the hypothesis at n div s, resp. the tails X, Y) for "
              "colex(colex^-1(n)) = n, the bound colex(x) < size, and uniqueness; "
              "colex^-1(colex(x)) = x follows from the first and uniqueness.")


def q_colmajor_max(r, printed=False):
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


# ---------------------------------------------------------------- sorted (Lemma 2.1.3.29)


def _not_sorted(L):
    M = L.modes
    return z3.Or([False] + [z3.Not(precedes_or_equal(M[i].s, M[i].d, M[i + 1].s, M[i + 1].d))
                            for i in range(len(M) - 1)])


def q_sorted_literal(r, min_shape=1, bound=3):
    L, c = fresh_layout("L", r, min_shape=min_shape, max_shape=bound, max_stride=bound)
    pts = [L.Phi(z3.IntVal(x)) for x in range(bound ** r)]
    nondecreasing = [z3.Implies(x + 1 < L.size(), pts[x] <= pts[x + 1])
                     for x in range(bound ** r - 1)]
    return [Query("Phi_L non-decreasing and L not sorted", c + nondecreasing + [_not_sorted(L)], L)]


def q_sorted_squeezed(r):
    return q_sorted_literal(r, min_shape=2)


def _sorted_corrected_violation(M, i, prefix):
    """The two pairs of points of the paper's proof for modes i, i+1 and their failure."""
    s, d, t, e = M[i].s, M[i].d, M[i + 1].s, M[i + 1].d
    return s, d, t, e, [(prefix, prefix * s), ((s - 1) * prefix, (t - 1) * prefix * s)]


def q_sorted_corrected(r):
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


def ind_sorted_corrected():
    P, s, t, d, e, X, Y = z3.Ints("P s t d e X Y")
    # the points used have all coordinates 0 outside modes i, i+1: their values are
    # d, e, (s-1) d, (t-1) e whatever the other modes are (colex_inverse, proved).
    c = [P >= 1, s >= 2, t >= 2, d >= 0, e >= 0]
    return [Query("local step: modes i, i+1 after a prefix of size P >= 1",
                  c + [z3.Implies(P <= P * s, d <= e),
                       z3.Implies((s - 1) * P <= (t - 1) * P * s, (s - 1) * d <= (t - 1) * e),
                       z3.Or(d > e, z3.And(d == e, d > 0, s > t))])]
