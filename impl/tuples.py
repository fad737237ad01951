"""IntTuples (paper 2.1.1 and 2.2; seeds 000, 001); the observers that also take a layout
(``flatten``, ``mode``, ``get``, ``rank``, ``depth``, ``size``) are in ``impl/layout.py``.

A nested tuple is an ``int`` (a leaf, static ``C`` or dynamic) or a Python ``tuple`` of nested
tuples.  The observers take an IntTuple or a layout and a CuTe-style hierarchical path
(``rank(x, 1, 0)`` is CuTe's ``rank<1,0>(x)``); paths and mode numbers are 0-based.
"""

from __future__ import annotations

from itertools import product
from typing import Any, TypeGuard

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["is_tuple", "profile", "length", "concat_tuples", "divides", "permute_tuple", "domain",
           "tuple_get", "tuple_size"]


def is_tuple(x: object) -> TypeGuard[tuple[Any, ...]]:
    return isinstance(x, tuple)


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
    s = leaves(s)
    return [tuple(reversed(c)) for c in product(*(range(v) for v in reversed(s)))]


def tuple_get(x, *path):
    """The sub-tuple of an IntTuple at a CuTe-style path (``get<I,J,...>``)."""
    for i in path:
        if not is_tuple(x):
            if i != 0:
                raise LayoutError(f"mode {i} of an integer does not exist (rank 1)")
            continue
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(x):
            raise LayoutError(f"mode {i} does not exist: rank is {len(x)}")
        x = x[i]
    return x


def tuple_size(x):
    """The product of an IntTuple's leaves (Def 2.1.1.1); C times C stays static."""
    p = C(1)
    for v in leaves(x):
        p = p * v
    return p
