"""Layout operations on symbolic flat modes, split into cases where the values decide.

An operation whose branches depend on the values (coalesce: is s = 1? is s_i d_i = d_{i+1}?;
sort: which stride is smaller?) is computed once per *case*: a list of z3 conditions under
which every branch is fixed, so that the result is a list of terms.  ``Problem.decide``
prunes the branches the assumptions settle; the cases of one operation cover every
assignment (each split adds a condition and its negation).  More than ``LIMIT`` cases is
``TooManyCases`` (the caller answers unknown).
"""

import z3

__all__ = ["TooManyCases", "coalesce_cases", "sorted_squeezed_cases", "complement_cases",
           "cute_check_failure", "LIMIT"]

LIMIT = 64


class TooManyCases(Exception):
    pass


def _simp(t):
    return z3.simplify(t)


def _branches(problem, cond, conds):
    v = problem.decide(cond, conds)
    if v is True:
        return [(True, conds)]
    if v is False:
        return [(False, conds)]
    return [(True, conds + [cond]), (False, conds + [z3.Not(cond)])]


def _check_limit(cases):
    if len(cases) > LIMIT:
        raise TooManyCases(f"more than {LIMIT} cases")


def coalesce_cases(problem, modes, context=()):
    """coal^b (Construction 2.1.4.9: squeeze, then merge runs with s_i d_i = d_{i+1}) as
    [(conditions, [(s, d), ...])]."""
    cases = [(list(context), [])]  # runs: (product of shapes, first stride, last s, last d)
    for s, d in modes:
        new = []
        for conds, runs in cases:
            for one, c1 in _branches(problem, s == 1, conds):
                if one:
                    new.append((c1, runs))
                    continue
                if not runs:
                    new.append((c1, [(s, d, s, d)]))
                    continue
                ps, pd, ls, ld = runs[-1]
                for merge, c2 in _branches(problem, ls * ld == d, c1):
                    if merge:
                        new.append((c2, runs[:-1] + [(_simp(ps * s), pd, s, d)]))
                    else:
                        new.append((c2, runs + [(s, d, s, d)]))
        cases = new
        _check_limit(cases)
    return [(conds, [(ps, pd) for ps, pd, _, _ in runs]) for conds, runs in cases]


def _less(a, b):
    """(d_a, s_a) < (d_b, s_b) lexicographically: a sorts strictly before b."""
    (sa, da), (sb, db) = a, b
    return z3.Or(da < db, z3.And(da == db, sa < sb))


def sorted_squeezed_cases(problem, modes, context=()):
    """sort(squeeze(L)) (Constructions 2.1.3.6, 2.1.3.31: by stride, then shape, then
    index) as [(conditions, [(s, d), ...])]."""
    cases = [(list(context), [])]
    for m in modes:
        new = []
        for conds, out in cases:
            for one, c1 in _branches(problem, m[0] == 1, conds):
                if one:
                    new.append((c1, out))
                    continue
                # insert after every mode not greater than m (stable)
                for p in range(len(out) + 1):
                    parts = []
                    if p > 0:
                        parts.append(z3.Not(_less(m, out[p - 1])))
                    if p < len(out):
                        parts.append(_less(m, out[p]))
                    cond = z3.And(parts) if parts else z3.BoolVal(True)
                    v = problem.decide(cond, c1)
                    if v is False:
                        continue
                    new.append((c1 if v else c1 + [cond], out[:p] + [m] + out[p:]))
        cases = new
        _check_limit(cases)
    return cases


def complement_cases(problem, modes, N, context=(), sense="paper"):
    """comp(A, N) = coal(comp^b(A, N)) (Def 2.3.6.5, Construction 2.1.6.29) as
    [(conditions, complementable, [(s, d), ...])]: ``complementable`` is the z3 condition
    of Def 2.1.6.25 in that case (every d_i > 0, s_i d_i | d_{i+1}, s_m d_m | N), the modes
    are the complement's where it holds.  ``sense="cute"``: stride-0 modes dropped and N
    rounded up to a multiple of s_m d_m first (CuTe's complement)."""
    pre = [(list(context), list(modes))]
    if sense == "cute":
        pre = [(list(context), [])]
        for s, d in modes:
            new = []
            for conds, kept in pre:
                for zero, c1 in _branches(problem, z3.And(d == 0, s != 1), conds):
                    new.append((c1, kept if zero else kept + [(s, d)]))
            pre = new
            _check_limit(pre)
    out = []
    for conds0, ms in pre:
        for conds, m in sorted_squeezed_cases(problem, ms, conds0):
            n = N
            if sense == "cute" and m:
                last = m[-1][0] * m[-1][1]
                n = _simp(((N + last - 1) / last) * last)
            ok = [d > 0 for _, d in m]
            ok += [m[i + 1][1] % (m[i][0] * m[i][1]) == 0 for i in range(len(m) - 1)]
            if m:
                last = m[-1][0] * m[-1][1]
                ok += [last > 0, n % last == 0]
            if not m:
                flat = [(n, z3.IntVal(1))]
            else:
                flat = [(m[0][1], z3.IntVal(1))]
                for i in range(1, len(m)):
                    prev = _simp(m[i - 1][0] * m[i - 1][1])
                    flat.append((_simp(m[i][1] / prev), prev))
                last = _simp(m[-1][0] * m[-1][1])
                flat.append((_simp(n / last), last))
            good = z3.And(ok) if ok else z3.BoolVal(True)
            v = problem.decide(good, conds)
            if v is False:
                out.append((conds, z3.BoolVal(False), None))
                continue
            # the complement's coalesce, split only where the condition holds
            for c2, res in coalesce_cases(problem, flat, conds if v else conds + [good]):
                out.append((c2, good, res))
            if v is None:
                out.append((conds + [z3.Not(good)], good, None))
            _check_limit(out)
    return out


def _ceil_div(a, b):
    return (a + b - 1) / b


def cute_check_failure(lhs, leaves):
    """The z3 condition under which CuTe C++'s static checks in ``composition_impl``
    reject ``composition(A, B)`` (spec.cute_composition_check, followed step by step):
    ``lhs`` the modes of coalesce(A), ``leaves`` the leaves s:d of B.  Each step is
    guarded by the path that reaches it; the values after a failed step do not matter
    (the disjunction is already true)."""
    fails = []
    if len(lhs) <= 1:
        return z3.BoolVal(False)
    for rest_shape, rest_stride in leaves:
        active = rest_stride != 0
        for curr_shape, _ in lhs[:-1]:
            fails.append(z3.And(active, z3.Not(z3.Or(rest_stride % curr_shape == 0,
                                                     rest_stride < curr_shape))))
            next_shape = _ceil_div(curr_shape, rest_stride)
            next_stride = _ceil_div(rest_stride, curr_shape)
            go = z3.And(next_shape != 1, rest_shape != 1)
            new_shape = z3.If(next_shape < rest_shape, next_shape, rest_shape)
            fails.append(z3.And(active, go, rest_shape % new_shape != 0))
            rest_shape = z3.If(go, rest_shape / new_shape, rest_shape)
            rest_stride = next_stride
    return z3.Or(fails) if fails else z3.BoolVal(False)
