"""Checks of recast and vectorization: upcast, downcast, recast_layout, max_common_vector,
max_common_layout, nullspace (a differential check per operation and laws on the oracle alone)."""


import layoutcheck.fuzz.strategies.recast as RC
from hypothesis import strategies as st
from layoutcheck.fuzz.checks.base import Check, Skip, answer_of, differential, fail, static_law
from layoutcheck.fuzz.checks.targets import table

from layoutcheck.integers import C
from layoutcheck.layout import leaves, size

__all__ = ["RECAST_CHECKS", "RECAST_STRATEGIES"]


def law_recast_roundtrip(ctx, args):
    """downcast<N>(upcast<N>(L)) == L when L's static stride-1 modes have sizes divisible by N
    and every other stride is a static multiple of N other than N itself (or 0: a stride N
    would become a second unit stride)."""
    L, N = args
    s, d = leaves(L.shape), leaves(L.stride)
    ok = any(isinstance(x, C) and x == 1 for x in d) and all(
        isinstance(y, C) and (y == 0 or (y == 1 and int(x) % N == 0) or
                              (y != 1 and y % N == 0 and y != N))
        for x, y in zip(s, d))
    if not ok or N == 1:
        raise Skip("outside the round-trip's conditions")
    U = answer_of(ctx, "upcast", L, N)
    D = answer_of(ctx, "downcast", U, N)
    if D != L:
        fail("downcast<N>(upcast<N>(L)) != L", L=L, N=N, upcast=U, downcast=D)


def law_mcv_contiguous(ctx, args):
    """N = max_common_vector(A, B), R = max_common_layout(A, B): size(R) == N, A(R(i)) == i ==
    B(R(i)) for i < N (the common vector is contiguous in both), and, for injective B, N is
    maximal: N is no value of B, or A takes another value than N where B takes N."""
    A, B = args
    N = int(answer_of(ctx, "max_common_vector", A, B))
    R = answer_of(ctx, "max_common_layout", A, B)
    ta, tb, tr = table(A), table(B), table(R)
    if len(tr) != N:
        fail(f"size(max_common_layout) = {len(tr)}, but max_common_vector = {N}", A=A, B=B,
              common_layout=R)
    for i, x in enumerate(tr):
        if not (x < len(ta) and x < len(tb) and ta[x] == i and tb[x] == i):
            fail(f"at {i}: A(R(i)) or B(R(i)) is not {i}", A=A, B=B, common_layout=R)
    if len(set(tb)) == len(tb) and N in tb:
        j = tb.index(N)
        if j < len(ta) and ta[j] == N:
            fail(f"a common vector of {N + 1} elements exists, max_common_vector says {N}",
                  A=A, B=B, max_common_vector=N)


def law_mcv_symmetric(ctx, args):
    """For injective A and B, max_common_vector(A, B) == max_common_vector(B, A)."""
    A, B = args
    if len(set(table(A))) != size(A.shape) or len(set(table(B))) != size(B.shape):
        raise Skip("symmetry holds for injective layouts")
    x, y = answer_of(ctx, "max_common_vector", A, B), answer_of(ctx, "max_common_vector", B, A)
    if int(x) != int(y):
        fail(f"max_common_vector(A, B) = {x} but (B, A) gives {y}", A=A, B=B)


def law_nullspace(ctx, args):
    """L(K(i)) == 0 for i < size(K), K injective, size(K) = product of the static-zero modes."""
    (L,) = args
    K = answer_of(ctx, "nullspace", L)
    tl, tk = table(L), table(K)
    if any(not 0 <= k < len(tl) or tl[k] != 0 for k in tk):
        fail("L(nullspace(L)(i)) != 0", L=L, nullspace=K)
    if len(set(tk)) != len(tk):
        fail("nullspace(L) is not injective", L=L, nullspace=K)
    want = 1
    for s, d in zip(leaves(L.shape), leaves(L.stride)):
        if isinstance(d, C) and d == 0:
            want *= int(s)
    if len(tk) != want:
        fail(f"size(nullspace) = {len(tk)}, the static-zero modes have {want} points", L=L,
              nullspace=K)


# --- the catalogue ------------------------------------------------------------------------------

def _one(strategy):
    return lambda: st.tuples(strategy)


def _law(name, op, fn, strategy):
    return Check(name, op, "law", strategy, static_law(fn, op), (fn.__doc__ or "").strip().split("\n")[0])


RECAST_STRATEGIES = {
    "upcast": RC.recast_args,
    "downcast": RC.recast_args,
    "recast_layout": RC.recast_layout_args,
    "max_common_vector": RC.vector_pairs,
    "max_common_layout": RC.vector_pairs,
    "nullspace": RC.nullspace_args,
}

RECAST_CHECKS = [Check(f"diff.{op}", op, "differential", strat, differential(op),
                   f"{op}: oracle vs spec at the level {op} requires")
              for op, strat in RECAST_STRATEGIES.items()] + [
    _law("law.upcast.roundtrip", "upcast", law_recast_roundtrip, RC.recast_args),
    _law("law.max_common_vector.contiguous", "max_common_vector", law_mcv_contiguous,
         RC.vector_pairs),
    _law("law.max_common_vector.symmetric", "max_common_vector", law_mcv_symmetric,
         RC.vector_pairs),
    _law("law.nullspace.kernel", "nullspace", law_nullspace, RC.nullspace_args),
]
