"""IntTuples and CuTe's observers (paper 2.1.1 and 2.2; seeds 000, 001).

A nested tuple is an ``int`` (a leaf, static ``C`` or dynamic) or a Python ``tuple`` of nested
tuples.  The observers take an IntTuple or a layout and a CuTe-style hierarchical path
(``rank(x, 1, 0)`` is CuTe's ``rank<1,0>(x)``); paths and mode numbers are 0-based.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["is_tuple", "flatten", "profile", "length", "mode", "get", "concat_tuples",
           "divides", "permute_tuple", "domain", "rank", "depth", "size"]


def is_tuple(x):
    return isinstance(x, tuple)


def _check_int_tuple(x):
    if isinstance(x, str):
        from layoutcheck.impl.layout import parse
        return parse(x)
    if isinstance(x, LayoutBase):
        return x
    if isinstance(x, (tuple, int)) and not isinstance(x, bool):
        return x
    raise LayoutError(f"expected an integer, a nested tuple or a layout, got {x!r}")


def flatten(x):
    """The flattening X^b (seed 001); of a layout: the flat layout S^b:D^b (Def 2.3.1.13)."""
    x = _check_int_tuple(x)
    if isinstance(x, LayoutBase):
        from layoutcheck.impl.layout import Layout
        return Layout(leaves(x.shape), leaves(x.stride))
    return leaves(x)


def profile(x):
    """prof(X): ``'*'`` for a leaf, else the tuple of the entries' profiles (Def 2.2.1.1)."""
    if isinstance(x, LayoutBase):
        x = x.shape
    if not is_tuple(x):
        return "*"
    return tuple(profile(e) for e in x)


def length(x):
    """len(X), the number of leaves (Def 2.2.1.3)."""
    if isinstance(x, LayoutBase):
        x = x.shape
    return len(leaves(x))


def mode(x, i):
    """mode_i(X), 0-based: X itself for a leaf and i == 0, else X_i (Def 2.2.1.5)."""
    if isinstance(x, LayoutBase):
        from layoutcheck.impl.layout import Layout
        return Layout(mode(x.shape, i), mode(x.stride, i))
    if isinstance(i, bool) or not isinstance(i, int):
        raise LayoutError(f"mode index {i!r} is not an integer")
    if not is_tuple(x):
        if i != 0:
            raise LayoutError(f"mode {i} of an integer does not exist (rank 1)")
        return x
    if not isinstance(i, int) or not 0 <= i < len(x):
        raise LayoutError(f"mode {i} does not exist: rank is {len(x)}")
    return x[i]


def get(x, *path):
    """CuTe's hierarchical ``get<I,J,...>(x)`` (seed 000); of a layout: a sub-layout."""
    x = _check_int_tuple(x)
    for i in path:
        x = mode(x, i)
    return x


def rank(x, *path):
    """rank<I...>(x): 1 for a leaf, r for an r-tuple (seed 000, Def 2.2.1.3)."""
    x = get(x, *path)
    if isinstance(x, LayoutBase):
        x = x.shape
    return C(len(x) if is_tuple(x) else 1)


def depth(x, *path):
    """depth<I...>(x): 0 for a leaf, 1 + max depth of the entries (seed 001)."""
    x = get(x, *path)
    if isinstance(x, LayoutBase):
        x = x.shape
    if not is_tuple(x):
        return C(0)
    return C(1 + max((int(depth(e)) for e in x), default=0))


def size(x, *path):
    """size<I...>(x): product of the leaves (Def 2.1.1.1); C times C stays static."""
    x = get(x, *path)
    if isinstance(x, LayoutBase):
        x = x.shape
    p = C(1)
    for v in leaves(x):
        p = p * v
    return p


def concat_tuples(*ts):
    """X ⋆ Y (Def 2.1.1.3); a leaf counts as a 1-tuple."""
    out = ()
    for t in ts:
        out += t if is_tuple(t) else tuple(t) if isinstance(t, list) else (t,)
    return out


def divides(xp, x):
    """X' divides X iff X' ⋆ X'' = X for some X'' (Def 2.1.1.6), i.e. X' is a prefix."""
    xp, x = concat_tuples(xp), concat_tuples(x)
    return tuple(x[:len(xp)]) == tuple(xp)


def permute_tuple(x, sigma):
    """X^σ = (x_σ(1), ..., x_σ(m)) (Def 2.1.1.8); sigma is 0-based, sigma[i] = σ(i)."""
    x, sigma = concat_tuples(x), tuple(sigma)
    if sorted(sigma) != list(range(len(x))):
        raise LayoutError(f"{sigma} is not a permutation of 0..{len(x) - 1} (0-based)",
                          condition="is_permutation")
    return tuple(x[j] for j in sigma)


def domain(s):
    """[0, S) (Notation 2.1.1.10) in colexicographic order: the k-th entry is colex^-1(k)."""
    from itertools import product
    s = leaves(s)
    return [tuple(reversed(c)) for c in product(*(range(v) for v in reversed(s)))]
