"""Tuples and nested tuples (paper 2.1.1 and 2.2; seeds 000 and 001).

A nested tuple (CuTe's IntTuple) is a Python ``int`` (a leaf, profile ``*``) or a ``tuple``
of nested tuples.  These functions take IntTuples only; the public observers of
``layoutcheck.spec`` (``rank``, ``depth``, ``size``, ``get``, ``flatten``) also take layouts
and are defined in ``spec/layout.py`` on top of these.

Indices are 0-based, like CuTe's template indices (``get<1,0>`` is ``get(x, 1, 0)``); the
paper's ``mode_i`` and ``<m>`` are 1-based, so the paper's ``mode_2`` is ``mode(x, 1)``.
Observers that CuTe computes from the type alone (``rank``, ``depth``) return static
integers ``C``; ``size`` is static exactly when every leaf is.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from layoutcheck.spec.limits import check_enumeration

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C, IntTuple

__all__ = ["is_tuple", "flatten", "profile", "rank", "depth", "size", "length", "mode",
           "get", "concat_tuples", "divides", "permute_tuple", "domain"]


def is_tuple(x: object) -> TypeGuard[tuple[Any, ...]]:
    return isinstance(x, tuple)


def flatten(x: IntTuple) -> tuple[int, ...]:
    """The flattening X^b of a nested tuple (seed 001 'nested tuple'; paper 2.2).

    Always a tuple: ``flatten(3) == (3,)`` as in the seed (``X = 3, X^b = (3)``).  CuTe's
    ``flatten`` returns an integer unchanged; the layout version in ``spec/layout.py`` says
    how that is handled.
    """
    if not isinstance(x, tuple):
        return (x,)
    for e in x:
        if isinstance(e, tuple):
            break
    else:  # already flat: its own flattening (a tuple of leaves, unchanged)
        return tuple(x)
    out = []
    _leaves_into(x, out)
    return tuple(out)


def _leaves_into(x, out):
    """Append the leaves of the nested tuple x to ``out``, left to right."""
    for e in x:
        if isinstance(e, tuple):
            _leaves_into(e, out)
        else:
            out.append(e)


def profile(x):
    """prof(X): ``'*'`` for a leaf, else the tuple of the entries' profiles (seed 001)."""
    if not is_tuple(x):
        return "*"
    return tuple(profile(e) for e in x)


def mode(x, i):
    """mode_i(P), 0-based: P itself when depth(P) = 0 (only i = 0), else P_i (seed 001)."""
    if isinstance(i, bool) or not isinstance(i, int):
        raise LayoutError(f"mode index {i!r} is not an integer")
    if not is_tuple(x):
        if i != 0:
            raise LayoutError(f"mode {i} of the integer {x} does not exist (rank 1)")
        return x
    if not 0 <= i < len(x):
        raise LayoutError(f"mode {i} does not exist: rank is {len(x)}")
    return x[i]


def get(x, *path):
    """Hierarchical ``get<I,J,...>(x)`` (seed 000): ``get(x, 1, 0)`` is ``get<0>(get<1>(x))``.

    ``get<0>`` of an integer is the integer (seed 000: ``get<0>(t1) = 2`` for ``t1 = 2``).
    """
    for i in path:
        x = mode(x, i)
    return x


def rank(x, *path):
    """``rank<path>(x)``: 1 for an integer, r for (x_1..x_r) (seed 000 table; seed 001)."""
    x = get(x, *path)
    return C(len(x) if is_tuple(x) else 1)


def depth(x, *path):
    """``depth<path>(x)``: 0 for an integer, 1 + max depth of the entries (seed 000, 001).

    The empty tuple has depth 1 (an empty max counts as 0).
    """
    x = get(x, *path)
    if not is_tuple(x):
        return C(0)
    return C(1 + max((int(depth(e)) for e in x), default=0))


def length(x):
    """len(X) = number of leaves = len(X^b) (seed 001)."""
    return len(flatten(x))


def size(x, *path):
    """``size<path>(x)`` = product of the leaves (Def 2.1.1.1; seed 000); size(()) = 1.

    The product starts from the static ``_1``, so it is static when every leaf is.
    """
    p = C(1)
    for v in flatten(get(x, *path)):
        p = p * v
    return p


def concat_tuples(*ts):
    """X ⋆ Y ⋆ ... (Def 2.1.1.3), flat: an integer argument counts as a rank-1 tuple, a list
    as a tuple."""
    out = ()
    for t in ts:
        out = out + (t if is_tuple(t) else tuple(t) if isinstance(t, list) else (t,))
    return out


def divides(xp, x):
    """X' divides X iff X' ⋆ X'' = X for some tuple X'' (Def 2.1.1.6): X' is a prefix of X.

    Tuple divisibility, not integer divisibility: (81, 9) divides (81, 9, 64, 8) (2.1.1.7).
    """
    xp, x = concat_tuples(xp), concat_tuples(x)
    return len(xp) <= len(x) and x[:len(xp)] == xp


def check_permutation(sigma, m):
    sigma = tuple(sigma)
    if sorted(sigma) != list(range(m)):
        raise LayoutError(f"{sigma} is not a permutation of 0..{m - 1} (0-based)",
                          condition="is_permutation")
    return sigma


def permute_tuple(x, sigma):
    """X^σ = (x_σ(1), ..., x_σ(m)) (Def 2.1.1.8); sigma is 0-based: ``sigma[i]`` = σ(i+1)-1.

    The paper's σ = (1 2)(3 4) is ``(1, 0, 3, 2)`` here (Example 2.1.1.9).
    """
    x = concat_tuples(x)
    sigma = check_permutation(sigma, len(x))
    return tuple(x[sigma[i]] for i in range(len(x)))


def domain(s):
    """[0, S) = [0,s_1) × ... × [0,s_m) (Notation 2.1.1.10), listed in colexicographic order.

    Nested S is taken through its flattening.  The first coordinate varies fastest, so the
    k-th element is colex_S^{-1}(k); [0, ()) = {()}.
    """
    check_enumeration(size(s), lambda: f"[0, {s})")
    out = [()]
    for si in flatten(s):
        out = [c + (v,) for v in range(si) for c in out]
    return out
