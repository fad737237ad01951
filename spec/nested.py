"""Nested tuples, section 2.2 of the paper: profiles, substitution, congruence, refinement
and relative modes.

A nested tuple is an ``int`` (a leaf) or a Python ``tuple`` of nested tuples (Remark
2.2.2.5).  A profile is ``"*"`` or a tuple of profiles (Def 2.2.1.1); wherever a profile is
expected, a nested tuple may be given instead and stands for its profile.
"""

from layoutcheck.spec import tuples as T
from layoutcheck.spec.layout import Layout, as_layout, assembled

from layoutcheck.errors import LayoutError

__all__ = ["as_profile", "profile_length", "substitute", "is_congruent", "refines",
           "relative_modes", "relative_flatten", "entries", "layout_relative_modes",
           "substitute_layouts"]


def as_profile(P):
    """The profile of a nested tuple or profile (``"*"`` for a leaf, Def 2.2.1.1)."""
    if isinstance(P, tuple):
        return tuple(as_profile(x) for x in P)
    if P == "*" or (isinstance(P, int) and not isinstance(P, bool)):
        return "*"
    raise LayoutError(f"{P!r} is neither a profile nor a nested tuple")


def profile_length(P):
    """len(P) (Def 2.2.1.3): the number of leaves."""
    P = as_profile(P)
    return 1 if P == "*" else sum(profile_length(x) for x in P)


def entries(X):
    """entry_i(X), the flattening X^b (Def 2.2.2.14)."""
    return T.flatten(X)


def substitute(Xs, Q):
    """(X_1, ..., X_m)_Q, Q-substitution (Def 2.2.1.8 for profiles, Def 2.2.3.1 for nested
    tuples): replace the i-th leaf of Q by X_i.  Q may be a profile or a nested tuple."""
    Xs = list(Xs)
    Q = as_profile(Q)
    if profile_length(Q) != len(Xs):
        raise LayoutError(f"substitution needs {profile_length(Q)} nested tuples for profile "
                          f"{Q}, got {len(Xs)}", condition="profile_length")
    it = iter(Xs)

    def go(q):
        if q == "*":
            return next(it)
        return tuple(go(x) for x in q)

    return go(Q)


def is_congruent(X1, X2):
    """Def 2.2.2.19: prof(X1) = prof(X2)."""
    return as_profile(X1) == as_profile(X2)


def refines(Xp, X):
    """X' ↠ X (Def 2.2.4.1): X is the integer size(X'), or both have depth > 0, the same
    rank, and each mode of X' refines the corresponding mode of X."""
    if not isinstance(X, tuple):
        return T.size(Xp) == X
    if not isinstance(Xp, tuple) or len(Xp) != len(X):
        return False
    return all(refines(a, b) for a, b in zip(Xp, X))


def _split(Xp, X, parallel=None):
    """The relative modes (Construction 2.2.4.5), and the congruent pieces of ``parallel``
    (a nested tuple congruent to Xp, e.g. a stride) when it is given."""
    if not refines(Xp, X):
        raise LayoutError(f"{Xp} does not refine {X} (Def 2.2.4.1)", condition="refines")
    out = []

    def go(xp, x, d):
        if not isinstance(x, tuple):
            out.append((xp, d))
            return
        for i in range(len(x)):
            go(xp[i], x[i], None if d is None else d[i])

    go(Xp, X, parallel)
    return out


def relative_modes(Xp, X):
    """mode_i(X', X) for 1 <= i <= len(X) (Construction 2.2.4.5), as a tuple."""
    return tuple(m for m, _ in _split(Xp, X))


def relative_flatten(Xp, X):
    """flat(X', X) = (X'_1, ..., X'_m) (Def 2.2.4.11)."""
    return relative_modes(Xp, X)


def layout_relative_modes(L, Sbar):
    """mode_i(L, S̄) (Def 2.3.4.1): the layouts S'_i : D'_i over the leaves of S̄, which
    shape(L) must refine."""
    L = as_layout(L)
    return tuple(Layout(s, d) for s, d in _split(L.shape, Sbar, L.stride))


def substitute_layouts(Ls, Q):
    """(L_1, ..., L_m)_Q (Def 2.3.2.12 / Observation 2.3.4.3): substitute the shapes and the
    strides of the layouts into Q."""
    Ls = [as_layout(x) for x in Ls]  # checked layouts, substituted into the same Q: congruent
    return assembled(substitute([x.shape for x in Ls], Q), substitute([x.stride for x in Ls], Q))
