"""The lemmas of the paper's sections 2.1.4-2.1.7, encoded for z3: coalesce, compact layouts,
complements, and composition with CuTe's checks."""

import itertools

import z3
from layoutcheck.proofs.query import Query, coords_of, differ, head_vars, select, uninterpreted
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

# ---------------------------------------------------------------- coalesce (2.1.4.9-2.1.4.17)


def coalesce_patterns(r, ones_last=False):
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


def q_coalesce_phi(r):
    out = []
    for ones, kept, merges in coalesce_patterns(r):
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


def q_coalesce_coalesced(r, every_pattern=False):
    out = []
    for pat in coalesce_patterns(r, ones_last=not every_pattern):
        L, c, R, label = _coalesce_branch(r, *pat)
        out.append(Query(label, c + [_not_coalesced(R)], L))
    return out


def q_coalesce_idempotent(r, every_pattern=False):
    # coal(R) = R exactly when Construction 2.1.4.9 applied to R removes no mode and merges no
    # neighbours, i.e. when R's own branch is the identity one: ask for R taking any other.
    out = []
    for pat in coalesce_patterns(r, ones_last=not every_pattern):
        L, c, R, label = _coalesce_branch(r, *pat)
        out.append(Query(label + ": coal(R) takes a non-identity branch", c + [_not_coalesced(R)], L))
    return out


def ind_coalesce_phi():
    s, d, n, c = head_vars()
    t = z3.Int("t")
    F = uninterpreted("Phi_T")
    x = z3.Int("x")
    merged_tail = lambda y: head_phi(t, s * d, F, y)  # noqa: E731
    return [Query("step: dropping a size-1 head mode", c + [0 <= x, x < n,
                                                            head_phi(1, d, F, x) != F(x)]),
            Query("step: merging head modes s:d, t:sd into st:d",
                  c + [t >= 1, 0 <= x, x < s * t * n,
                       head_phi(s, d, merged_tail, x) != head_phi(s * t, d, F, x)])]


COALESCE_ARG = ("Observation 2.1.4.10: coal(L) is reached from L by dropping size-1 modes and "
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
        s, d = select(S, p[k]), select(D, p[k])
        # modes of size 1 are removed by squeeze: they take no place in the column-major order
        cons.append(z3.Or(s == 1, d == scale))
        scale = scale * s
    return cons


def compact_if_patterns(r, every_pattern=False):
    """The (size-1 modes, σ of the other modes) patterns that q_compact_if asks.

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


def q_compact_if(r, every_pattern=False):
    """'<=': one pair of queries per (size-1 modes, σ of the other modes), up to the symmetry
    of compact_if_patterns (what does not depend on the pattern is built once: the same
    terms)."""
    (L, c0), out = fresh_layout("L", r), []
    M = L.modes
    size_is = {True: [m.s == 1 for m in M], False: [m.s >= 2 for m in M]}
    xs, ys = coords_of("x", L), coords_of("y", L)
    cosize = [L.cosize() != L.size()]
    inj = [L.in_box(xs), L.in_box(ys), differ(xs, ys), L.phi(xs) == L.phi(ys)]
    for ones, perm in compact_if_patterns(r, every_pattern):
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


def q_compact_only_if(r, bound=3):
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


def q_complement_disjoint(r):
    A, C, N, c = _complement_setup(r)
    xs, ys = coords_of("x", A), coords_of("y", C)
    return [Query("phi_A(x) = phi_comp(y) != 0", c + [A.in_box(xs), C.in_box(ys),
                  A.phi(xs) == C.phi(ys), A.phi(xs) != 0], A)]


def q_complement_compact(r):
    A, C, N, c = _complement_setup(r)
    AC = SymLayout(A.modes + C.modes)
    xs, ys = coords_of("x", AC), coords_of("y", AC)
    # the order C_0, A_1, C_1, ..., A_m, C_m is column-major (proof of Lemma 2.1.6.31):
    # Euclidean hints on colex over that order
    order = [r] + [i for j in range(r) for i in (j, r + 1 + j)]
    shape = [AC.modes[i].s for i in order]
    hints = nested_colex(shape, [xs[i] for i in order])[1] + \
        nested_colex(shape, [ys[i] for i in order])[1]
    return [Query("size(A ⋆ comp) != N", c + [AC.size() != N], A),
            Query("cosize(A ⋆ comp) != N", c + [AC.cosize() != N], A),
            Query("phi_{A ⋆ comp} not injective on [0, S)", c + [
                AC.in_box(xs), AC.in_box(ys), differ(xs, ys), AC.phi(xs) == AC.phi(ys)] + hints, A)]


def q_complementable_increasing(r):
    """In coordinate form, one query per top differing mode k, plus the query that these
    cases cover x < y (colex order is lexicographic from the last mode)."""
    out = []
    for k in range(r):
        A, C, N, c = _complement_setup(r)
        xs, ys = coords_of("x", A), coords_of("y", A)
        same = [xs[j] == ys[j] for j in range(k + 1, r)]
        out.append(Query(f"top differing mode {k + 1}: x_k < y_k but phi_A(x) >= phi_A(y)",
                         c + same + [A.in_box(xs), A.in_box(ys), xs[k] < ys[k],
                                     A.phi(xs) >= A.phi(ys)], A))
    L, c = fresh_layout("S", r)
    xs, ys = coords_of("x", L), coords_of("y", L)
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


def q_composition(r):
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
