"""Each lemma evaluated on one concrete layout with ``layoutcheck.spec`` (plain evaluation).

A check returns True when the statement holds for the input, False when the input is a
counterexample, and None when the lemma's hypothesis does not apply.  These re-check z3's
counterexamples before a refutation is reported and re-validate every proof by fuzzing.
"""

import itertools

from layoutcheck import spec
from layoutcheck.errors import LayoutError


def _op(name):
    f = getattr(spec, name, None)
    if f is None:
        raise LayoutError(f"layoutcheck.spec has no {name} (needed to re-check this lemma)")
    return f


def _L(x):
    if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], tuple):
        return spec.Layout(*x)
    return spec.as_layout(x)


def _flat(L):
    return spec.flatten(L.shape), spec.flatten(L.stride)


def squeeze_size(L):
    L = _L(L)
    return spec.size(_op("squeeze")(L)) == spec.size(L)


def squeeze_cosize(L):
    L = _L(L)
    return spec.cosize(_op("squeeze")(L)) == spec.cosize(L)


def squeeze_phi(L):
    L = _L(L)
    return spec.values(_op("squeeze")(L)) == spec.values(L)


def filter_image(L):
    L = _L(L)
    return spec.image(_op("filter_zeros")(L)) == spec.image(L)


def _perms(r):
    if r <= 4:
        return list(itertools.permutations(range(r)))
    return [tuple(range(r))[::-1], tuple(range(1, r)) + (0,)]


def permute_image(L):
    L = _L(L)
    s, _ = _flat(L)
    img = spec.image(L)
    permute = _op("permute")
    return all(spec.image(permute(L, sigma)) == img for sigma in _perms(len(s)))


def sort_image(L):
    L = _L(L)
    return spec.image(_op("sort")(L)) == spec.image(L)


def restrict_image(L):
    L = _L(L)
    s, _ = _flat(L)
    img = spec.image(L)
    restrict = _op("restrict")
    return all(spec.image(restrict(L, I)) <= img
               for k in range(len(s) + 1) for I in itertools.combinations(range(len(s)), k))


def _splits(L):
    s, d = _flat(L)
    for k in range(len(s) + 1):
        yield spec.Layout(s[:k], d[:k]), spec.Layout(s[k:], d[k:])


def concat_phi(L):
    L = _L(L)
    vals = spec.values(L)
    for A, B in _splits(L):
        if _op("concat")(A, B) != L:
            return False
        n1 = spec.size(A)
        if vals != [spec.Phi(A, x % n1) + spec.Phi(B, x // n1) for x in range(len(vals))]:
            return False
    return True


def concat_cosize(L):
    L = _L(L)
    return all(spec.cosize(_op("concat")(A, B)) == spec.cosize(A) + spec.cosize(B) - 1
               for A, B in _splits(L))


def colmajor_identity(L):
    L = _op("layout_left")(_L(L).shape)
    return spec.values(L) == list(range(spec.size(L)))


def _colmajor_max(L):
    """The largest value of the column-major layout of the first rank-1 shapes, and size."""
    s, _ = _flat(L)
    first = spec.cosize(_op("layout_left")(tuple(s[:-1]))) - 1 if len(s) > 1 else 0
    return first, spec.size(spec.Layout(tuple(s), tuple(0 for _ in s)))


def colmajor_max(L):
    s, _ = _flat(_L(L))
    first, _ = _colmajor_max(_L(L))
    return first == spec.size(spec.Layout(tuple(s[:-1]), tuple(0 for _ in s[:-1]))) - 1


def colmajor_max_as_printed(L):
    first, total = _colmajor_max(_L(L))
    return first == total - 1


def colex_inverse(L):
    S = _L(L).shape
    s = spec.flatten(S)
    n = spec.size(S)
    if any(spec.colex(S, spec.colex_inv(S, i)) != i for i in range(n)):
        return False
    return all(spec.colex_inv(S, spec.colex(S, x)) == x
               for x in itertools.product(*(range(si) for si in s)))


def _coalesce(L):
    """The paper's flat coalesce coal^b (Construction 2.1.4.9)."""
    return _op("flat_coalesce")(L)


def coalesce_phi(L):
    L = _L(L)
    return spec.values(_coalesce(L)) == spec.values(L)


def coalesce_coalesced(L):
    L = _L(L)
    return _op("is_flat_coalesced")(_coalesce(L))


def coalesce_idempotent(L):
    L = _L(L)
    C = _coalesce(L)
    return _coalesce(C) == C


def compact_iff_colmajor(L):
    L = _L(L)
    Q = _op("squeeze")(L)
    r = len(_flat(Q)[0])
    permute, is_cm = _op("permute"), _op("is_column_major")
    some = any(is_cm(permute(Q, sigma)) for sigma in itertools.permutations(range(r)))
    return _op("is_compact")(L) == some


def _comp(A, N):
    """comp^b(A, N) (Construction 2.1.6.29)."""
    return _op("flat_complement")(A, N)


def complement_disjoint(AN):
    A, N = AN
    A = _L(A)
    if not _op("is_flat_complementable")(A, N):
        return None
    return spec.image(A) & spec.image(_comp(A, N)) == {0}


def complement_compact(AN):
    A, N = AN
    A = _L(A)
    if not _op("is_flat_complementable")(A, N):
        return None
    C = _comp(A, N)
    AC = _op("concat")(A, C)
    return _op("is_compact")(AC) and spec.size(AC) == N


def complementable_increasing(AN):
    A, N = AN
    A = _op("sort")(_L(A))
    if not _op("is_flat_complementable")(A, N):
        return None
    v = spec.values(A)
    return all(a < b for a, b in zip(v, v[1:]))


def composition_phi(AB):
    A, B = AB
    A, B = _L(A), _L(B)
    R = _op("composition")(A, B)
    return spec.size(R) == spec.size(B) and \
        all(R(i) == A(B(i)) for i in range(spec.size(B)))


def _nondecreasing(L):
    v = spec.values(L)
    return all(a <= b for a, b in zip(v, v[1:]))


def sorted_literal(L):
    L = _L(L)
    return (not _nondecreasing(L)) or _op("is_sorted")(L)


def sorted_squeezed(L):
    L = _L(L)
    if any(si < 2 for si in _flat(L)[0]):
        return None
    return sorted_literal(L)


def sorted_corrected(L):
    L = _L(L)
    s, d = _flat(L)
    if any(si < 2 for si in s) or not _nondecreasing(L):
        return None
    return all(d[i] < d[i + 1] or (d[i] == d[i + 1] and (d[i] == 0 or s[i] <= s[i + 1]))
               for i in range(len(s) - 1))
