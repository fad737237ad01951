"""Tuples and nested tuples (paper 2.1.1 and 2.2; seeds 000 and 001).

A nested tuple is a Python ``int`` (a leaf, profile ``*``) or a ``tuple`` of nested tuples.
"""

from layoutcheck.errors import LayoutError

__all__ = ["is_tuple", "flatten", "profile", "rank", "depth", "size", "length", "mode",
           "get", "concat_tuples", "divides", "permute_tuple", "domain"]


def is_tuple(x):
    return isinstance(x, tuple)


def flatten(x):
    """The flattening X^b of a nested tuple (seed 001, 'nested tuple')."""
    if not is_tuple(x):
        return (x,)
    out = ()
    for e in x:
        out = out + flatten(e)
    return out


def profile(x):
    """prof(X): ``'*'`` for a leaf, else the tuple of the entries' profiles (seed 001)."""
    if not is_tuple(x):
        return "*"
    return tuple(profile(e) for e in x)


def rank(x):
    """rank(P) = 1 for a leaf, r for (P_1, ..., P_r) (seed 001; seed 000 'rank')."""
    return len(x) if is_tuple(x) else 1


def depth(x):
    """depth(*) = 0, depth((P_1..P_r)) = 1 + max depth(P_i) (seed 001); depth(()) = 1."""
    if not is_tuple(x):
        return 0
    return 1 + max((depth(e) for e in x), default=0)


def length(x):
    """len(X) = number of leaves (seed 001)."""
    return len(flatten(x))


def size(x):
    """size(X) = product of the flattening (Def 2.1.1.1; empty product is 1)."""
    p = 1
    for v in flatten(x):
        p = p * v
    return p


def mode(x, i):
    """mode_i(P), 0-based here: P itself at depth 0, else P_i (seed 001)."""
    if not is_tuple(x):
        if i != 0:
            raise LayoutError(f"mode {i} of an integer does not exist (rank 1)")
        return x
    if not 0 <= i < len(x):
        raise LayoutError(f"mode {i} does not exist: rank is {len(x)}")
    return x[i]


def get(x, *path):
    """Hierarchical ``get<I,J,...>`` (seed 000)."""
    for i in path:
        x = mode(x, i)
    return x


def concat_tuples(*ts):
    """X ⋆ Y (Def 2.1.1.3)."""
    out = ()
    for t in ts:
        out = out + (t if is_tuple(t) else (t,))
    return out


def divides(xp, x):
    """X' divides X iff X' ⋆ X'' = X for some tuple X'' (Def 2.1.1.6): X' is a prefix of X."""
    return tuple(x[:len(xp)]) == tuple(xp)


def permute_tuple(x, sigma):
    """X^σ = (x_σ(1), ..., x_σ(m)) (Def 2.1.1.8); ``sigma`` is 0-based, sigma[i] = σ(i)."""
    if sorted(sigma) != list(range(len(x))):
        raise LayoutError(f"{tuple(sigma)} is not a permutation of {len(x)} entries")
    return tuple(x[sigma[i]] for i in range(len(x)))


def domain(s):
    """[0, S) = [0,s_1) × ... × [0,s_m) (Notation 2.1.1.10), in colexicographic order.

    Listed in the order colex enumerates it (first coordinate fastest), so that the k-th
    element is colex^{-1}(k).
    """
    s = flatten(s) if is_tuple(s) else (s,)
    out = [()]
    for si in s:  # build so that the first coordinate varies fastest
        out = [c + (v,) for v in range(si) for c in out]
    return out
