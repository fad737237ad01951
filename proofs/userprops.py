"""Properties of one layout (or two), as violation queries with spec re-checks.

Each property gives ``checks()``: ``Check`` objects whose ``assertions`` describe a
violation (``unsat`` for every check is a proof) and whose ``confirm(env, val)`` re-checks
a z3 model by plain evaluation on ``layoutcheck.spec`` (``env`` the assignment, ``val``
reads a z3 term off the model): it returns a description of the violation, or None when
the spec does not confirm it.  ``holds(env)`` is the whole property on the spec by
enumeration, for small sizes (``TooLarge`` otherwise): the second re-check of a refutation
and the test of ``--exhaustive``.

Domain points are coordinates in the box [0, S) (Image(Phi_L) = phi_L([0, S)) since
colex^-1 is a bijection: colex_inverse, mixed_radix_unique); a point of a second layout at
the same index is its coordinates with colex_B(y) = colex_A(x), which determines them.
Surjectivity uses an explicit witness: the greedy coordinates from the largest stride down.
"""

import itertools
from dataclasses import dataclass
from typing import Callable

import z3
from layoutcheck.proofs.expr import Expr, parse_tree
from layoutcheck.proofs.problem import leaves
from layoutcheck.proofs.symbolic import SymLayout
from layoutcheck.proofs.symops import coalesce_cases, sorted_squeezed_cases

from layoutcheck import spec
from layoutcheck.errors import LayoutError

__all__ = ["Check", "TooLarge", "SIZE_LIMIT", "UNARY", "build_unary", "coords",
           "colex_value", "concrete_size"]

SIZE_LIMIT = 1 << 15   # the whole-property re-check enumerates at most this many points


class TooLarge(Exception):
    pass


@dataclass
class Check:
    label: str
    assertions: list
    confirm: Callable


fresh_name = itertools.count()


def coords(L, tag):
    """Fresh coordinates for the flat modes of L and their box."""
    k = next(fresh_name)
    xs = [z3.Int(f"{tag}{k}_{i}") for i in range(L.sym.rank)]
    return xs, [L.sym.in_box(xs)]


def colex_value(shapes, xs):
    """colex over concrete shapes (Def 2.1.2.18)."""
    out, scale = 0, 1
    for x, s in zip(xs, shapes):
        out += x * scale
        scale *= s
    return out


def concrete_size(L):
    return spec.size(L)


def _flat_shapes(Lc):
    return list(spec.flatten(Lc.shape))


def small_cases(*Ls):
    if sum(concrete_size(L) for L in Ls) > SIZE_LIMIT:
        raise TooLarge
    return True


def _differ(xs, ys):
    return z3.Or([a != b for a, b in zip(xs, ys)]) if xs else z3.BoolVal(False)


def _index(L, env, val, xs):
    Lc = L.concrete(env)
    return Lc, colex_value(_flat_shapes(Lc), [val(x) for x in xs])


# ---------------------------------------------------------------- checks shared by properties

def _plain_name(A):
    return lambda Lc, i, env: f"{A.name}({i})"


def injective_check(A, label="two indices map to one offset", name=None):
    xs, bx = coords(A, "x")
    ys, by = coords(A, "y")
    name = name or _plain_name(A)

    def confirm(env, val):
        Lc, i = _index(A, env, val, xs)
        _, j = _index(A, env, val, ys)
        if i != j and max(i, j) < spec.size(Lc) and Lc(i) == Lc(j):
            return f"{name(Lc, i, env)} = {name(Lc, j, env)} = {Lc(i)}"
        return None
    return Check(label, bx + by + [_differ(xs, ys), A.sym.phi(xs) == A.sym.phi(ys)], confirm)


def bounds_check(A, N, Ntext, label=None, name=None):
    xs, bx = coords(A, "x")
    name = name or _plain_name(A)

    def confirm(env, val):
        Lc, i = _index(A, env, val, xs)
        n = Ntext.evaluate(env)
        if i < spec.size(Lc) and not 0 <= Lc(i) < n:
            return f"{name(Lc, i, env)} = {Lc(i)}, outside [0, {Ntext}) = [0, {n})"
        return None
    p = A.sym.phi(xs)
    return Check(label or f"an offset outside [0, {Ntext})", bx + [z3.Or(p < 0, p >= N)], confirm)


def size_check(A, N, Ntext):
    def confirm(env, val):
        Lc = A.concrete(env)
        n = Ntext.evaluate(env)
        if spec.size(Lc) != n:
            return f"size({A.name}) = {spec.size(Lc)} != {Ntext} = {n}"
        return None
    return Check(f"size != {Ntext}", [A.sym.size() != N], confirm)


def equal_function_checks(A, B):
    """Phi_A = Phi_B: equal sizes, and equal values at every index."""
    def size_confirm(env, val):
        a, b = spec.size(A.concrete(env)), spec.size(B.concrete(env))
        return f"size({A.name}) = {a} != size({B.name}) = {b}" if a != b else None
    xs, bx = coords(A, "x")
    ys, by = coords(B, "y")

    def confirm(env, val):
        Ac, i = _index(A, env, val, xs)
        Bc = B.concrete(env)
        if i < min(spec.size(Ac), spec.size(Bc)) and Ac(i) != Bc(i):
            return f"{A.name}({i}) = {Ac(i)} but {B.name}({i}) = {Bc(i)}"
        return None
    same = [A.sym.size() == B.sym.size(), A.sym.colex(xs) == B.sym.colex(ys)]
    return [Check("the sizes differ", [A.sym.size() != B.sym.size()], size_confirm),
            Check("an index where the values differ",
                  bx + by + same + [A.sym.phi(xs) != B.sym.phi(ys)], confirm)]


def _greedy_surjective(problem, A):
    """For each stride order: y in [0, cosize) whose greedy coordinates (largest stride
    first, x_k = min(s_k - 1, r div d_k)) miss it.  Unsat for every order: surjective."""
    out = []
    modes = [(m.s, m.d) for m in A.modes]
    for conds, order in sorted_squeezed_cases(problem, modes):
        y = z3.Int(f"y{next(fresh_name)}")
        r, cons, phi = y, [], z3.IntVal(0)
        for s, d in reversed(order):  # largest stride first
            w = z3.Int(f"w{next(fresh_name)}")
            cons.append(z3.If(d == 0, w == 0, z3.If((s - 1) * d <= r, w == s - 1,
                                                     z3.And(0 <= w, w * d <= r, r < (w + 1) * d))))
            r = r - w * d
            phi = phi + w * d
        assertions = conds + [0 <= y, y < A.sym.cosize()] + cons + [r != 0]

        def confirm(env, val, y=y):
            Lc = A.concrete(env)
            small_cases(Lc)
            v = val(y)
            if 0 <= v < spec.cosize(Lc) and v not in spec.image(Lc):
                return f"{v} is in [0, cosize) = [0, {spec.cosize(Lc)}) but no index maps to it"
            return None
        out.append(Check("an offset in [0, cosize) that no index reaches (greedy witness)",
                         assertions, confirm))
    return out


# ---------------------------------------------------------------- the properties of one layout

class Unary:
    """``name`` with an optional argument; ``method`` says how it is proved."""

    def __init__(self, problem, A, name, arg=None, tile=None):
        self.problem, self.A, self.name, self.arg, self.tile = problem, A, name, arg, tile
        self.method = _METHODS[name]

    def checks(self):
        A, p = self.A, self.problem
        if self.name == "injective":
            return [injective_check(A)]
        if self.name == "in-bounds":
            return [bounds_check(A, self.arg[1], self.arg[0])]
        if self.name in ("bijective-onto", "covers"):
            N, Nt = self.arg[1], self.arg[0]
            name = _tv_name if self.name == "covers" else None
            return [size_check(A, N, Nt), bounds_check(A, N, Nt, name=name),
                    injective_check(A, name=name)]
        if self.name == "compact":
            def confirm(env, val):
                Lc = A.concrete(env)
                s, c = spec.size(Lc), spec.cosize(Lc)
                return f"size = {s} != cosize = {c}" if s != c else None
            return [Check("size != cosize", [A.sym.size() != A.sym.cosize()], confirm),
                    injective_check(A)]
        if self.name == "surjective":
            return _greedy_surjective(p, A)
        if self.name == "sorted":
            M = A.modes
            bad = [z3.Not(z3.Or(M[i].d < M[i + 1].d, z3.And(M[i].d == M[i + 1].d,
                                                              M[i].s <= M[i + 1].s)))
                   for i in range(len(M) - 1)]
            return [Check("two neighbouring modes out of order (Def 2.1.3.23)",
                          [z3.Or(bad)] if bad else [z3.BoolVal(False)],
                          lambda env, val: None if spec.is_sorted(A.concrete(env))
                          else f"{A.concrete(env)} is not sorted")]
        if self.name == "non-degenerate":
            bad = [z3.And(m.s == 1, m.d != 0) for m in A.modes]
            return [Check("a mode of size 1 with a non-zero stride (Def 2.1.2.27)",
                          [z3.Or(bad)] if bad else [z3.BoolVal(False)],
                          lambda env, val: None if spec.is_non_degenerate(A.concrete(env))
                          else f"{A.concrete(env)} has a size-1 mode with a non-zero stride")]
        if self.name == "no-write-conflicts":
            return [_conflict_check(A)]
        raise AssertionError(self.name)

    def holds(self, env):
        Lc = self.A.concrete(env)
        n = self.name
        if n == "sorted":
            return spec.is_sorted(Lc)
        if n == "non-degenerate":
            return spec.is_non_degenerate(Lc)
        small_cases(Lc)
        v = spec.values(Lc)
        if n == "injective":
            return len(set(v)) == len(v)
        if n == "surjective":
            return spec.is_surjective(Lc)
        if n == "compact":
            return spec.is_compact(Lc)
        if n == "in-bounds":
            N = self.arg[0].evaluate(env)
            return all(0 <= x < N for x in v)
        if n in ("bijective-onto", "covers"):
            return sorted(v) == list(range(self.arg[0].evaluate(env)))
        if n == "no-write-conflicts":
            T = spec.size(spec.Layout(*_top(Lc)[0]))
            seen = {}
            for i, x in enumerate(v):
                if seen.setdefault(x, i % T) != i % T:
                    return False
            return True
        raise AssertionError(n)


def _tv_name(Lc, i, env):
    """Index i of a thread-value layout as (thread, value)."""
    T = spec.size(spec.Layout(*_top(Lc)[0]))
    return f"(thread {i % T}, value {i // T})"


def _top(Lc):
    return list(zip(Lc.shape, Lc.stride))


def _conflict_check(A):
    """Two different threads (mode 0) write one offset (any values, mode 1)."""
    nt = len(_leaves_of(A.shape[0]))
    xs, bx = coords(A, "x")
    ys, by = coords(A, "y")

    def confirm(env, val):
        Lc = A.concrete(env)
        (ts, _), (vs, _) = _top(Lc)
        tshape, vshape = spec.flatten(ts), spec.flatten(vs)
        tshape = tshape if isinstance(tshape, tuple) else (tshape,)
        vshape = vshape if isinstance(vshape, tuple) else (vshape,)
        t1, t2 = (colex_value(tshape, [val(x) for x in c[:nt]]) for c in (xs, ys))
        v1, v2 = (colex_value(vshape, [val(x) for x in c[nt:]]) for c in (xs, ys))
        T = spec.size(ts)
        a, b = Lc(t1 + T * v1), Lc(t2 + T * v2)
        if t1 != t2 and a == b:
            return (f"thread {t1} (value {v1}) and thread {t2} (value {v2}) both write "
                    f"offset {a}")
        return None
    return Check("two threads write one offset",
                 bx + by + [_differ(xs[:nt], ys[:nt]), A.sym.phi(xs) == A.sym.phi(ys)],
                 confirm)


def _leaves_of(t):
    return [x for y in t for x in _leaves_of(y)] if isinstance(t, tuple) else [t]


_METHODS = {
    "injective": "coordinates x != y in the box with phi(x) = phi(y)",
    "in-bounds": "a coordinate in the box with phi outside [0, N)",
    "bijective-onto": "size = N, offsets in [0, N), injective (an injection of [0, N) "
                      "into itself is onto)",
    "covers": "(thread, value) -> offset: size = size(TILE), offsets in [0, size(TILE)), "
              "injective; the offset is the tile coordinate in column-major order",
    "compact": "size = cosize and injective (Def 2.1.5.1; the image lies in [0, cosize))",
    "surjective": "greedy witness coordinates, one query per stride order",
    "sorted": "neighbouring modes in the order of Def 2.1.3.23",
    "non-degenerate": "no size-1 mode with a non-zero stride (Def 2.1.2.27)",
    "no-write-conflicts": "coordinates of two different threads (mode 0) with one offset",
}

UNARY = tuple(_METHODS)


def build_unary(problem, A, name, arg_text=None):
    """The property ``name`` of layout A; ``arg_text`` the N of in-bounds / bijective-onto,
    the TILE of covers."""
    arg = None
    if name in ("in-bounds", "bijective-onto"):
        arg = problem.expr(arg_text, f"the N of {name}")
    if name in ("covers", "no-write-conflicts"):
        if not isinstance(A.shape, tuple) or len(A.shape) != 2:
            raise LayoutError(f"{name} needs a thread-value layout (thread mode, value mode), "
                              f"got rank {len(A.shape) if isinstance(A.shape, tuple) else 0}")
    if name == "covers":
        tile = parse_tree(arg_text, "tile")
        sizes = leaves(tile)
        total = sizes[0]
        for s in sizes[1:]:
            total = Expr("bin", [total, s], "*")
        for s in sizes:
            problem.implicit_condition(f"{s} >= 1", problem.env.term(s) >= 1,
                                       problem.env.plain(s) >= 1)
        arg = (total, problem.env.term(total))
        prop = Unary(problem, A, name, arg, tile)
        return prop
    return Unary(problem, A, name, arg)


# ---------------------------------------------------------------- relations with a second layout

class Relation:
    """equal OTHER, refines OTHER, coalesces-to OTHER."""

    def __init__(self, problem, A, name, B):
        self.problem, self.A, self.B, self.name = problem, A, B, name
        self.method = {"equal": "equal sizes and values at every index (coordinates of both "
                                "layouts at one index)",
                       "refines": "shape(A) refines shape(OTHER) (Def 2.2.4.1) and each "
                                  "relative mode has OTHER's leaf function",
                       "coalesces-to": "coalesce(A) (Construction 2.3.3.7) case by case, "
                                       "compared entry by entry"}[name]

    def holds(self, env):
        Ac, Bc = self.A.concrete(env), self.B.concrete(env)
        if self.name == "coalesces-to":
            return spec.coalesce(Ac) == Bc
        if self.name == "refines" and not spec.refines(Ac.shape, Bc.shape):
            return False
        small_cases(Ac, Bc)
        return spec.values(Ac) == spec.values(Bc)

    def checks(self):
        if self.name == "equal":
            return equal_function_checks(self.A, self.B)
        if self.name == "refines":
            return _refines_checks(self.A, self.B, self)
        return _coalesces_checks(self.problem, self.A, self.B)


def structural(label, text):
    """A check that fails for every assignment (a mismatch of the trees)."""
    return Check(label, [], lambda env, val: text)


def _refines_checks(A, B, rel):
    groups = _groups(A.shape, B.shape)
    if groups is None:
        return [structural("shape(A) does not refine shape(OTHER) as trees",
                           f"the tree of {A.shape_text()} does not refine {B.shape_text()}")]
    out, k = [], 0
    for j, (bm, n) in enumerate(zip(B.modes, groups)):
        g = A.modes[k:k + n]
        k += n
        G = SymLayout(g)

        def size_confirm(env, val, j=j):
            Ac, Bc = A.concrete(env), B.concrete(env)
            return None if spec.refines(Ac.shape, Bc.shape) else \
                f"{Ac.shape} does not refine {Bc.shape} (leaf {j} of OTHER)"
        out.append(Check(f"leaf {j}: the size of A's relative mode differs",
                         [G.size() != bm.s], size_confirm))
        zs = [z3.Int(f"z{next(fresh_name)}") for _ in g]
        first = k - n

        def confirm(env, val, zs=zs, first=first):
            Ac, Bc = A.concrete(env), B.concrete(env)
            c = [0] * first + [val(z) for z in zs]
            c += [0] * (len(_flat_shapes(Ac)) - len(c))
            i = colex_value(_flat_shapes(Ac), c)
            if i < spec.size(Ac) and i < spec.size(Bc) and Ac(i) != Bc(i):
                return f"A({i}) = {Ac(i)} but OTHER({i}) = {Bc(i)}"
            return None
        out.append(Check(f"leaf {j}: the relative mode's function differs",
                         [G.in_box(zs), G.phi(zs) != bm.d * G.colex(zs)], confirm))
    return out


def _groups(fine, coarse):
    """Number of leaves of ``fine`` under each leaf of ``coarse`` when the trees refine
    (Def 2.2.4.1 without the sizes), else None."""
    if not isinstance(coarse, tuple):
        return [len(_leaves_of(fine))]
    if not isinstance(fine, tuple) or len(fine) != len(coarse):
        return None
    out = []
    for f, c in zip(fine, coarse):
        g = _groups(f, c)
        if g is None:
            return None
        out += g
    return out


def _coalesces_checks(problem, A, B):
    """coalesce(A) == B: per case of coalesce, the form of Construction 2.3.3.7 (1:0 for
    none, s:d for one mode, a flat tuple otherwise) and equal entries."""
    out = []
    for conds, modes in coalesce_cases(problem, [(m.s, m.d) for m in A.modes]):
        m = len(modes)
        flat_ok = isinstance(B.shape, tuple) and all(not isinstance(x, tuple) for x in B.shape)
        form_ok = (not isinstance(B.shape, tuple)) if m <= 1 else (flat_ok and len(B.shape) == m)
        confirm = (lambda env, val: None if spec.coalesce(A.concrete(env)) == B.concrete(env)
                   else f"coalesce(A) = {spec.coalesce(A.concrete(env))}")
        if not form_ok:
            out.append(Check(f"coalesce(A) has {m} modes here, OTHER's form differs",
                             list(conds), confirm))
            continue
        want = modes if m else [(z3.IntVal(1), z3.IntVal(0))]
        diff = z3.Or([z3.Or(s != b.s, d != b.d) for (s, d), b in zip(want, B.modes)])
        out.append(Check(f"coalesce(A) with {m} modes: an entry differs", list(conds) + [diff],
                         confirm))
    return out
