"""Symbolic flat layouts for z3: shapes, strides and domain points as z3 integers.

The layout function is encoded exactly as Construction 2.1.2.19 computes it, with the
colexicographic coordinates obtained by iterated division (x_1 = x mod s_1, then
x_2 = (x div s_1) mod s_2, ...), which is equal to floor(x / (s_1...s_{i-1})) mod s_i
(Def 2.1.2.18) and keeps each query linear in the divisions z3 has to reason about.

A mode may carry a *presence* condition (a z3 Bool): an absent mode is skipped, so that an
operation that removes modes depending on their values (squeeze 2.1.3.6, filter 2.1.3.12)
is one symbolic layout rather than one query per pattern.
"""

import z3

__all__ = ["Mode", "SymLayout", "fresh_layout", "product", "coords", "colex",
           "head_phi", "decode"]


class Mode:
    __slots__ = ("s", "d", "present")

    def __init__(self, s, d, present=True):
        self.s, self.d, self.present = s, d, present


def _when(cond, a, b):
    return a if cond is True else z3.If(cond, a, b)


def product(terms):
    out = z3.IntVal(1)
    for t in terms:
        out = t if _is_one(out) else out * t
    return out


def _is_one(t):
    return z3.is_int_value(t) and t.as_long() == 1


class SymLayout:
    """A flat layout whose shape and stride entries are z3 integer terms."""

    def __init__(self, modes):
        self.modes = list(modes)

    @property
    def rank(self):
        return len(self.modes)

    def size(self):
        return product(_when(m.present, m.s, z3.IntVal(1)) for m in self.modes)

    def cosize(self):
        return 1 + z3.Sum([z3.IntVal(0)] + [_when(m.present, (m.s - 1) * m.d, z3.IntVal(0))
                                            for m in self.modes])

    def coords(self, x):
        """colex^{-1}(x) for the present modes (absent modes get coordinate 0)."""
        out, q = [], x
        for m in self.modes:
            out.append(_when(m.present, q % m.s, z3.IntVal(0)))
            q = _when(m.present, q / m.s, q)
        return out

    def phi(self, xs):
        """Coordinate function phi_L(x) = sum x_i d_i (Construction 2.1.2.13)."""
        return z3.Sum([z3.IntVal(0)] + [_when(m.present, xi * m.d, z3.IntVal(0))
                                        for xi, m in zip(xs, self.modes)])

    def Phi(self, x):
        """Layout function Phi_L(x) = phi_L(colex^{-1}(x)) (Construction 2.1.2.19)."""
        return self.phi(self.coords(x))

    def colex(self, xs):
        """colex(x_1..x_m) = x_1 + x_2 s_1 + ... over the present modes (Def 2.1.2.18)."""
        total, scale = z3.IntVal(0), z3.IntVal(1)
        for xi, m in zip(xs, self.modes):
            total = total + _when(m.present, xi * scale, z3.IntVal(0))
            scale = _when(m.present, scale * m.s, scale)
        return total

    def in_box(self, xs):
        return z3.And([True] + [z3.Implies(m.present, z3.And(0 <= xi, xi < m.s))
                                if m.present is not True else z3.And(0 <= xi, xi < m.s)
                                for xi, m in zip(xs, self.modes)])


def fresh_layout(name, rank, min_shape=1, max_shape=None, min_stride=0, max_stride=None):
    """A rank-``rank`` layout of fresh unknowns and the constraints that make it a layout."""
    S = [z3.Int(f"{name}_s{i}") for i in range(rank)]
    D = [z3.Int(f"{name}_d{i}") for i in range(rank)]
    cons = []
    for s, d in zip(S, D):
        cons += [s >= min_shape, d >= min_stride]
        if max_shape is not None:
            cons.append(s <= max_shape)
        if max_stride is not None:
            cons.append(d <= max_stride)
    return SymLayout(Mode(s, d) for s, d in zip(S, D)), cons


def coords(L, x):
    return L.coords(x)


def colex(L, xs):
    return L.colex(xs)


def head_phi(s, d, tail, x):
    """The head-recursive layout function Phi_{(s:d)::T}(x) = d (x mod s) + Phi_T(x div s)."""
    return d * (x % s) + tail(x / s)


def decode(model, L):
    """The concrete (shape, stride) of the present modes of ``L`` under ``model``."""
    shape, stride = [], []
    for m in L.modes:
        if m.present is not True and not z3.is_true(model.eval(m.present, model_completion=True)):
            continue
        shape.append(model.eval(m.s, model_completion=True).as_long())
        stride.append(model.eval(m.d, model_completion=True).as_long())
    return tuple(shape), tuple(stride)


# ------------------------------------------------------------------ hints
# Facts added to a query to guide z3 through the divisions.  Each is either an instance of
# Euclidean division (for s > 0 and 0 <= a < s: (a + s b) mod s = a and (a + s b) div s = b,
# the definition of z3's div/mod) or of the colex bound (x in [0, S) => 0 <= colex_S(x) <
# size(S), part of colex_inverse, proved for every rank).  Adding valid facts keeps every
# ``unsat`` a proof.

def euclid(t, a, b, s):
    """Euclidean division: t = a + s b with 0 <= a < s gives t mod s = a, t div s = b."""
    return _memo(("euclid", t, a, b, s), lambda: z3.Implies(
        z3.And(s > 0, 0 <= a, a < s, t == a + s * b), z3.And(t % s == a, t / s == b)))


def colex_bound(shape, xs, t):
    """colex bound: x in [0, S) => 0 <= colex_S(x) < size(S)."""
    def build():
        box = z3.And([True] + [z3.And(0 <= x, x < s) for x, s in zip(xs, shape)])
        return z3.Implies(box, z3.And(0 <= t, t < product(shape)))
    return _memo(("colex_bound", t) + tuple(shape) + tuple(xs), build)


MEMO = {}
_MEMO_MAX = 200000


def _key(t):
    # AST ids are per z3 context: the context is part of the key
    return (t.ctx.ref().value, t.get_id()) if z3.is_ast(t) else ("int", int(t))


def _memo(parts, build):
    """The term ``build()`` once per tuple of terms (keyed by their AST ids, the terms kept
    alive with the entry; cleared with each fresh context): the same term either way."""
    key = (parts[0],) + tuple(map(_key, parts[1:]))
    hit = MEMO.get(key)
    if hit is None:
        if len(MEMO) >= _MEMO_MAX:
            MEMO.clear()
        hit = MEMO[key] = (build(), parts)
    return hit[0]


def nested_colex(shape, xs):
    """colex_S(x) in Horner form x_1 + s_1 (x_2 + s_2 (...)); all tails and their hints.

    The tail of a suffix and its two hints depend on that suffix only: they are built once
    per suffix of z3 terms (memo keyed by AST ids, holding the terms alive), so queries
    sharing suffixes (the σ enumerations) share them.  The terms are the same either way."""
    tails, eu, cb = [z3.IntVal(0)], [], []
    for i in reversed(range(len(xs))):
        key = (tuple(map(_key, shape[i:])), tuple(map(_key, xs[i:])))
        hit = MEMO.get(key)
        if hit is None:
            tail = xs[i] + shape[i] * tails[0]
            hit = (tail, euclid(tail, xs[i], tails[0], shape[i]),
                   colex_bound(shape[i:], xs[i:], tail), list(shape[i:]), list(xs[i:]))
            if len(MEMO) >= _MEMO_MAX:
                MEMO.clear()
            MEMO[key] = hit
        tails.insert(0, hit[0])
        eu.insert(0, hit[1])
        cb.insert(0, hit[2])
    return tails, eu + cb


def coord_point(L, name):
    """A domain point given by its coordinates: x = colex(xs), xs in [0, S), with hints.

    Every x in [0, size L) is colex(xs) for exactly one xs in [0, S) (colex_inverse,
    mixed_radix_unique), so quantifying over xs is quantifying over x.
    """
    xs = [z3.Int(f"{name}{i}") for i in range(L.rank)]
    shape = [m.s for m in L.modes]
    tails, hints = nested_colex(shape, xs)
    box = [z3.And(0 <= x, x < s) for x, s in zip(xs, shape)]
    return xs, tails, box + hints


def division_hints(shape, x, cs):
    """Hints for the iterated division of ``x`` by ``shape`` when x = colex_shape(cs)."""
    tails, hints = nested_colex(shape, cs)
    q = x
    for i, s in enumerate(shape):
        hints.append(euclid(q, cs[i], tails[i + 1], s))
        q = q / s
    return hints
