"""Claims about operations on the user's layouts: composition, composability, division,
complement; violation queries with spec re-checks (see userprops).

A symbolic layout here is a ``SymTree``: a tree of leaf numbers (the nesting) and the z3
(shape, stride) of each leaf.  ``composition(A, B) == R`` is the paper's composite (Def
2.3.7.1, the one CuTe's ``composition`` returns): Image(Phi_B) ⊆ [0, size A), shape(R)
refines shape(B) with R coalesced over shape(B) (CuTe's shape post-condition: a leaf of B
of size s becomes a leaf or a flat tuple of size s), and Phi_R = Phi_A ∘ Phi_B at every
index.  A composite exists (composable in the paper's sense) exactly when the image lies
in [0, size A), each leaf s:d of B gives a layout function i -> Phi_A(d i) on [0, s), and
Phi_A(Phi_B(y)) = sum_j Phi_A(d_j y_j) (the leaves add up): the leaf functions are shown
layout functions by explicit candidates, each verified pointwise in its own query.
"""

import z3
from layoutcheck.proofs.expr import Expr, TileLayout
from layoutcheck.proofs.problem import UserLayout, concrete_tree
from layoutcheck.proofs.symbolic import Mode, SymLayout
from layoutcheck.proofs.symops import coalesce_cases, complement_cases, cute_check_failure
from layoutcheck.proofs.userprops import Check, colex_value, fresh_name, structural

from layoutcheck import spec
from layoutcheck.errors import LayoutError

__all__ = ["SymTree", "tree_of", "composition_checks", "composable_checks", "cute_checks",
           "divide_checks", "complement_checks"]


class SymTree:
    def __init__(self, tree, modes):
        self.tree, self.modes = tree, list(modes)
        self.sym = SymLayout(Mode(s, d) for s, d in self.modes)

    def leaf_trees(self):
        """The subtree of each top-level mode (the tree itself at depth 0)."""
        return list(self.tree) if isinstance(self.tree, tuple) else [self.tree]

    def sub(self, t):
        idx = _indices(t)
        return SymTree(_renumber(t, idx[0] if idx else 0), [self.modes[i] for i in idx])


def _indices(t):
    return [i for x in t for i in _indices(x)] if isinstance(t, tuple) else [t]


def _renumber(t, base):
    return tuple(_renumber(x, base) for x in t) if isinstance(t, tuple) else t - base


def tree_of(L):
    """The SymTree of a UserLayout."""
    count = iter(range(len(L.modes)))

    def go(t):
        return tuple(go(x) for x in t) if isinstance(t, tuple) else next(count)
    return SymTree(go(L.shape), [(m.s, m.d) for m in L.modes])


def make_layout(*parts):
    """Modes side by side (CuTe's make_layout): one SymTree."""
    tree, modes = [], []
    for p in parts:
        tree.append(_renumber(p.tree, -len(modes)))
        modes += p.modes
    return SymTree(tuple(tree), modes)


def _coords(n, tag):
    k = next(fresh_name)
    return [z3.Int(f"{tag}{k}_{i}") for i in range(n)]


def _at_index(A, b):
    """Coordinates of A (a SymTree or a SymLayout) at index b (unique:
    mixed_radix_unique): their box and colex = b."""
    S = A.sym if isinstance(A, SymTree) else A
    xs = _coords(S.rank, "a")
    return xs, [S.in_box(xs), S.colex(xs) == b]


def _confirm_fn(test):
    """A confirm that re-runs ``test(env)`` (a description or None) on the spec."""
    def confirm(env, val):
        try:
            return test(env)
        except LayoutError as e:
            return str(e).split("\n")[0]
    return confirm


# ---------------------------------------------------------------- composability (paper)

def image_check(A, B, confirm, ctx=()):
    ys = _coords(B.sym.rank, "y")
    return Check("Image(Phi_B) reaches outside [0, size A) (Remark 2.3.7.2)",
                 list(ctx) + [B.sym.in_box(ys), B.sym.phi(ys) >= A.sym.size()], confirm)


def _leaf_candidates(am, n, e):
    """Branches (condition, candidate modes) for the leaf n:e (n >= 2, e >= 1) over the
    modes am of coalesce(A): e = a_1..a_{k-1} c lands in mode k; it stays there (n c <=
    a_k, or k is the last mode) or runs on through modes k+1..j (a_k = c u,
    n = u a_{k+1}..a_{j-1} v, v <= a_j unless j is last).  c, u, v are quotients, exact
    under their branch's condition (no quantifiers)."""
    m, out = len(am), []
    pre = z3.IntVal(1)
    for k in range(m):
        ak, dk = am[k]
        c = e / pre
        base = [e % pre == 0, c >= 1]
        stay = base + ([n * c <= ak] if k < m - 1 else [])
        out.append((z3.And(stay), [(n, c * dk)]))
        if k < m - 1:
            u = ak / c
            mids = z3.IntVal(1)
            for j in range(k + 1, m):
                v = n / (u * mids)
                cond = base + [ak % c == 0, n % (u * mids) == 0, v >= 1]
                cond += [v <= am[j][0]] if j < m - 1 else []
                cand = [(u, c * dk)] + [am[i] for i in range(k + 1, j)] + [(v, am[j][1])]
                out.append((z3.And(cond), cand))
                mids = mids * am[j][0]
        pre = pre * ak
    return out


def leaf_checks(A_cases, B, confirm, ctx=()):
    """Each leaf n:e of B gives a layout function i -> Phi_A(e i) on [0, n)."""
    out = []
    for conds, am in A_cases:
        if len(am) <= 1:
            continue  # A is linear on [0, size A): every leaf function is n:(e d)
        Ac = SymLayout(Mode(s, d) for s, d in am)
        for j, (n, e) in enumerate(B.modes):
            cands = _leaf_candidates(am, n, e)
            nontrivial = [n >= 2, e >= 1]
            none = [z3.Not(cond) for cond, _ in cands]
            out.append(Check(f"leaf {j} of B: i -> A(d i) has no layout form here",
                             list(ctx) + conds + nontrivial + none, confirm))
            for cond, cand in cands:
                R = SymLayout(Mode(s, d) for s, d in cand)
                rs = _coords(R.rank, "r")
                i = R.colex(rs)
                xs, at = _at_index(Ac, e * i)
                out.append(Check(f"leaf {j} of B: a candidate form misses A(d i)",
                                 list(ctx) + conds + nontrivial + [cond, R.in_box(rs)] + at +
                                 [R.phi(rs) != Ac.phi(xs)], confirm))
    return out


def additivity_check(A, B, confirm, ctx=()):
    """Phi_A(sum_j d_j y_j) = sum_j Phi_A(d_j y_j) on B's box."""
    ys = _coords(B.sym.rank, "y")
    xs, at = _at_index(A, B.sym.phi(ys))
    parts, cons = [], []
    for y, (s, d) in zip(ys, B.modes):
        xj, atj = _at_index(A, d * y)
        parts.append(A.sym.phi(xj))
        cons += atj
    return Check("the leaves of B do not add up under A",
                 list(ctx) + [B.sym.in_box(ys)] + at + cons + [A.sym.phi(xs) != z3.Sum(parts)],
                 confirm)


def composable_checks(problem, A, B, confirm, ctx=()):
    cases = coalesce_cases(problem, A.modes, ctx)
    return [image_check(A, B, confirm, ctx)] + leaf_checks(cases, B, confirm, ctx) + \
        ([additivity_check(A, B, confirm, ctx)] if any(len(m) > 1 for _, m in cases) else [])


def cute_checks(problem, A, B, confirm):
    """CuTe C++'s static checks in composition_impl hold for every value."""
    return [Check(f"CuTe's divisibility static_assert fails (coalesce(A) of rank {len(am)})",
                  conds + [cute_check_failure(am, B.modes)], confirm)
            for conds, am in coalesce_cases(problem, A.modes)]


# ---------------------------------------------------------------- composition(A, B) == R

def _subtrees(fine, coarse):
    """fine's subtree under each leaf of coarse, or None when the trees do not refine."""
    if not isinstance(coarse, tuple):
        return [fine]
    if not isinstance(fine, tuple) or len(fine) != len(coarse):
        return None
    out = []
    for f, c in zip(fine, coarse):
        s = _subtrees(f, c)
        if s is None:
            return None
        out += s
    return out


def composition_checks(problem, A, B, R, confirm, ctx=()):
    """composition(A, B) == R (the paper's composite; see the module docstring)."""
    out = [image_check(A, B, confirm, ctx)]
    subs = _subtrees(R.tree, B.tree)
    if subs is None:
        return out + [structural("shape(R) does not refine shape(B) as trees",
                                 "the tree of R does not refine the tree of B")]
    for t in subs:
        if isinstance(t, tuple) and (len(t) < 2 or any(isinstance(x, tuple) for x in t)):
            return out + [structural("R is not coalesced over shape(B)", "a relative mode of "
                                     "R is a nested or one-element tuple (Def 2.3.4.4)")]
    ys = _coords(B.sym.rank, "y")
    rcoords = []
    for j, (t, (s, d)) in enumerate(zip(subs, B.modes)):
        g = [R.modes[i] for i in _indices(t)]
        G = SymLayout(Mode(a, b) for a, b in g)
        out.append(Check(f"leaf {j} of B: size of R's relative mode != {j}-th leaf size",
                         list(ctx) + [G.size() != s], confirm))
        if len(g) == 1:
            bad = z3.And(g[0][0] == 1, g[0][1] != 0)
            rcoords.append(([ys[j]], []))
        else:
            bad = z3.Or([a == 1 for a, _ in g] +
                        [g[i][0] * g[i][1] == g[i + 1][1] for i in range(len(g) - 1)])
            zs = _coords(len(g), "z")
            rcoords.append((zs, [G.in_box(zs), G.colex(zs) == ys[j]]))
        out.append(Check(f"leaf {j} of B: R's relative mode is not coalesced (Def 2.3.3.1)",
                         list(ctx) + [bad], confirm))
    xs, at = _at_index(A, B.sym.phi(ys))
    rs, cons = [], []
    for (zs, c), t in zip(rcoords, subs):  # R's leaves in order, subtree by subtree
        cons += c
        rs += list(zip(_indices(t), zs))
    rs = [z for _, z in sorted(rs, key=lambda p: p[0])]
    out.append(Check("an index where R differs from A∘B",
                     list(ctx) + [B.sym.in_box(ys)] + at + cons + [R.sym.phi(rs) != A.sym.phi(xs)],
                     confirm))
    return out


# ---------------------------------------------------------------- logical_divide, complement

def _tile_tree(problem, t):
    """A tiler entry (Expr n -> n:1, TileLayout) as a SymTree and its concrete maker."""
    if isinstance(t, Expr):
        L = UserLayout(f"{t}:1", problem, "tile", (t, Expr("int", value=1, static=True)))
    else:
        assert isinstance(t, TileLayout)
        L = UserLayout(str(t), problem, "tile", (t.shape, t.stride))
    return tree_of(L)


def divide_checks(problem, A, T, confirm, R=None, sense="paper"):
    """logical_divide(A, T) is defined (paper), stays in the tensor and passes CuTe's
    checks (sense="cute"), or equals R (paper): CuTe's tiler applied mode by mode."""
    if isinstance(T, tuple):
        ms = A.leaf_trees() if isinstance(A.tree, tuple) else [A.tree]
        if len(T) > len(ms):
            return [structural("the tiler has more modes than A",
                               f"the tiler has {len(T)} modes, A has {len(ms)}")]
        rs = None
        if R is not None:
            rs = R.leaf_trees() if isinstance(R.tree, tuple) else [R.tree]
            if len(rs) != len(ms):
                return [structural("R's rank differs", f"R has {len(rs)} modes, A {len(ms)}")]
        out = []
        for k, m in enumerate(ms):
            sub_r = None if rs is None else R.sub(rs[k])
            if k < len(T) and T[k] != "_":
                out += divide_checks(problem, A.sub(m), T[k], confirm, sub_r, sense)
            elif sub_r is not None:
                out += _equal_trees(A.sub(m), sub_r, confirm, f"mode {k} (kept)")
        return out
    if T == "_":
        return [] if R is None else _equal_trees(A, R, confirm, "the layout (kept)")
    tile = _tile_tree(problem, T)
    N = A.sym.size()
    out = []
    for conds, good, comp in complement_cases(problem, tile.modes, N, sense=sense):
        if comp is None:
            out.append(Check("the tile has no complement in size(A) (Def 2.1.6.25)",
                             conds + [z3.Not(good)], confirm))
            continue
        C = SymTree(0 if len(comp) <= 1 else tuple(range(len(comp))),
                    comp or [(z3.IntVal(1), z3.IntVal(0))])
        B = make_layout(tile, C)
        if sense == "cute":
            ys = _coords(B.sym.rank, "y")
            out.append(Check("the tiled layout runs past the tensor: (tile, complement) "
                             "reaches an index >= size(A)",
                             conds + [B.sym.in_box(ys), B.sym.phi(ys) >= N], confirm))
            out += [Check(c.label, conds + c.assertions, confirm) for c in cute_checks(
                problem, A, B, confirm)]
        elif R is None:
            out += composable_checks(problem, A, B, confirm, conds)
        else:
            out += composition_checks(problem, A, B, R, confirm, conds)
    return out


def _equal_trees(A, R, confirm, what):
    if _shape_of(A.tree) != _shape_of(R.tree):
        return [structural(f"{what}: R's nesting differs", f"{what}: R's nesting differs")]
    diff = z3.Or([z3.Or(a[0] != b[0], a[1] != b[1]) for a, b in zip(A.modes, R.modes)])
    return [Check(f"{what}: an entry of R differs", [diff], confirm)]


def _shape_of(t):
    return tuple(_shape_of(x) for x in t) if isinstance(t, tuple) else None


def complement_checks(problem, A, N, R, confirm, sense="paper"):
    """complement(A, N) == R: per case, complementable, and coal(comp^b(A, N)) in the form
    of Construction 2.3.3.7 (1:0, s:d, or a flat tuple) equal to R entry by entry."""
    out = []
    for conds, good, comp in complement_cases(problem, A.modes, N, sense=sense):
        if comp is None:
            out.append(Check("A is not N-complementable (Def 2.1.6.25)", conds + [z3.Not(good)],
                             confirm))
            continue
        m = len(comp)
        flat = isinstance(R.tree, tuple) and all(not isinstance(x, tuple) for x in R.tree)
        if (m <= 1 and isinstance(R.tree, tuple)) or (m > 1 and not (flat and len(R.tree) == m)):
            out.append(Check(f"the complement has {m} modes here; R's form differs", conds,
                             confirm))
            continue
        want = comp if m else [(z3.IntVal(1), z3.IntVal(0))]
        diff = z3.Or([z3.Or(s != r[0], d != r[1]) for (s, d), r in zip(want, R.modes)])
        out.append(Check(f"complement with {m} modes: an entry of R differs", conds + [diff],
                         confirm))
    return out


def concrete_tiler(T, env):
    """The tiler under ``env`` as layoutcheck.spec takes it."""
    if isinstance(T, tuple):
        return tuple(concrete_tiler(t, env) for t in T)
    if T == "_":
        return spec._
    if isinstance(T, Expr):
        return T.evaluate(env)
    return spec.Layout(concrete_tree(T.shape, env), concrete_tree(T.stride, env))


__all__ += ["concrete_tiler", "colex_value"]
