"""Flat layouts, sections 2.1.4-2.1.8 of the paper (arXiv 2601.05972).

Every operation here takes a layout (CuTe text or any ``LayoutBase``) and works on its
flattening L^b (Def 2.3.1.13): a flat layout is ``(s_1,...,s_m):(d_1,...,d_m)`` and the
results are flat layouts (depth 1, the empty layout ``():()`` included).  The constructions
are transcribed literally; the characterisations the paper proves are given as executable
predicates (``check_*``) that enumerate, so that the tests can check them instead of
assuming them.

The paper writes composition as ``B ∘ A`` with ``Phi_{B∘A} = Phi_B ∘ Phi_A``; here, as in
CuTe, ``flat_composition(B, A)`` is that layout: its function is ``i -> B(A(i))``.
"""

from itertools import permutations

from layoutcheck.spec import tuples as T
from layoutcheck.spec.basic import concat, sort, squeeze
from layoutcheck.spec.layout import Layout, as_layout, flat_modes_of, values
from layoutcheck.spec.limits import check_enumeration

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

__all__ = ["flat_modes", "flat_layout", "is_flat_coalesced", "flat_coalesce", "is_flat_compact", "is_disjoint",
           "is_flat_complementable", "flat_complement", "is_flat_composable",
           "flat_composition", "is_flat_tractable",
           "same_function", "check_coalesce_characterisation", "check_coalesce_minimal",
           "check_compact_characterisation", "check_complement_uniqueness",
           "is_N_complement"]


# --- CuTe integer types of computed results (seeds 000, 003) ---------------------------

def _leaves(x):
    if isinstance(x, LayoutBase):
        return T.flatten(x.shape) + T.flatten(x.stride)
    return T.flatten(x)


def from_sources(value, *sources):
    """The integer ``value``, typed as CuTe would type it when it is computed from
    ``sources`` (integers, IntTuples or layouts) by a rule that is not plain arithmetic
    (a shape found by factoring, an extent found by search): static ``C(value)`` when every
    integer of every source is static, else a dynamic ``int``.

    This is seed 003's rule ("static op static -> static; static op dynamic -> dynamic")
    applied to the whole computation: its result can be known from the types alone exactly
    when all its inputs can.  It is the one place where the spec decides staticness by
    rule; everywhere else the spec computes with the ``C`` values themselves (see
    ``evaluate``), so that ``C``'s operators propagate staticness, seed 003's special cases
    (``_0 * n -> _0``) included.
    """
    static = all(isinstance(v, C) for src in sources for v in _leaves(src))
    return C(value) if static else int(value)


def evaluate(L, x):
    """Phi_L(x) (Construction 2.1.2.19) computed in CuTe integer arithmetic (seed 003):
    x_i = (x / p_i) % s_i with p_1 = ``_1`` and p_(i+1) = p_i s_i, except the last
    coordinate x_m = x / p_m (no ``% s_m``: x is in the domain; CuTe's crd2idx does the
    same), and Phi = ``_0`` + sum x_i d_i.

    Same value as ``L(x)``; the type follows the operands: static when x and every entry of
    L are (and, as in CuTe, a dynamic last shape does not make the last term dynamic), and
    ``_0`` when every term is a product with a static zero (x = ``_0``, or every stride
    ``_0``).  x must lie in [0, size(L)).
    """
    L = as_layout(L)
    if not 0 <= x < T.size(L.shape):
        raise LayoutError(f"index {x} is outside the domain [0, {T.size(L.shape)}) of {L}")
    m = flat_modes(L)
    total, p = C(0), C(1)
    for i, (s, d) in enumerate(m):
        xi = x // p if i == len(m) - 1 else (x // p) % s
        total = total + xi * d
        p = p * s
    return total


# --- helpers on (shape, stride) pairs ------------------------------------------------

def flat_modes(L):
    """The modes (s_i, d_i) of the flattening L^b (Def 2.3.1.13), as a list of pairs."""
    s, d = flat_modes_of(as_layout(L))  # kept on the layout once computed
    return list(zip(s, d))


def flat_layout(pairs):
    """The flat layout ``(s_1..s_m):(d_1..d_m)`` with the given modes (``():()`` if none).

    squeeze, sort and concatenation (2.1.3) are the foundation's ``spec.basic`` functions,
    which work through the flattening as well."""
    pairs = list(pairs)
    return Layout(tuple(s for s, _ in pairs), tuple(d for _, d in pairs))


def same_function(A, B):
    """Phi_A = Phi_B as functions (same domain [0, size) and same values), by enumeration."""
    return values(A) == values(B)


# --- 2.1.4 coalesce ----------------------------------------------------------------

def is_flat_coalesced(L):
    """Def 2.1.4.1: no s_i = 1, and s_i d_i != d_{i+1} for 1 <= i < m."""
    m = flat_modes(L)
    if any(s == 1 for s, _ in m):
        return False
    return all(m[i][0] * m[i][1] != m[i + 1][1] for i in range(len(m) - 1))


def flat_coalesce(L):
    """coal^b(L), Construction 2.1.4.9: squeeze, then merge the runs with s_i d_i = d_{i+1}.

    The equivalence classes of i ~ i+1 (when s_i d_i = d_{i+1}) are consecutive runs; each
    run becomes one mode with the product of the shapes and the first stride.
    """
    runs = []  # each run: [shapes], first stride, last (s, d)
    for s, d in flat_modes(squeeze(L)):
        if runs and runs[-1][2][0] * runs[-1][2][1] == d:
            runs[-1][0].append(s)
            runs[-1][2] = (s, d)
        else:
            runs.append([[s], d, (s, d)])
    return flat_layout((T.size(tuple(shapes)), d) for shapes, d, _ in runs)


def check_coalesce_characterisation(A, B):
    """Prop 2.1.4.18 as a predicate: (Phi_A = Phi_B) == (coal^b(A) = coal^b(B))."""
    return same_function(A, B) == (flat_coalesce(A) == flat_coalesce(B))


def _ordered_factorisations(n, max_len):
    """All tuples of integers > 1 whose product is n, of length <= max_len."""
    if n == 1:
        yield ()
        return
    if max_len == 0:
        return
    for f in range(2, n + 1):
        if n % f == 0:
            for rest in _ordered_factorisations(n // f, max_len - 1):
                yield (f,) + rest


def check_coalesce_minimal(L):
    """Prop 2.1.4.19 as a predicate: coal^b(L) is the unique flat layout of minimal rank
    whose layout function is Phi_L.

    Enumerates every squeezed flat layout of rank <= rank(coal^b(L)) with the same size; a
    layout with the function Phi_L has its strides forced (d_i = Phi_L(s_1...s_{i-1})), so
    the enumeration over shapes is exhaustive.  (Layouts with a size-1 mode have a squeezed
    form of smaller rank, so they are covered.)
    """
    c = flat_coalesce(L)
    vals = values(L)
    r = len(flat_modes(c))
    found = []
    for shape in _ordered_factorisations(len(vals), r):
        strides, prefix = [], 1
        for s in shape:
            strides.append(vals[prefix] if prefix < len(vals) else 0)
            prefix *= s
        cand = Layout(shape, tuple(strides))
        if values(cand) == vals:
            found.append(cand)
    minimal = [x for x in found if len(x.shape) == min(len(y.shape) for y in found)]
    return minimal == [c]


# --- 2.1.5 compact -----------------------------------------------------------------

def flat_cosize(L):
    total = C(1)
    for s, d in flat_modes(L):
        total += (s - 1) * d
    return total


def is_flat_compact(L):
    """Def 2.1.5.1: Phi_L : [0, size) -> [0, cosize) is a bijection (checked by enumeration)."""
    check_enumeration(flat_cosize(L), lambda: f"the codomain [0, cosize) of {L}")
    return sorted(values(L)) == list(range(flat_cosize(L)))


def check_compact_characterisation(L):
    """Prop 2.1.5.6 as a predicate: L compact iff some permutation of squeeze(L) is
    column-major (d_σ(i) = s_σ(1)...s_σ(i-1)); the permutations are enumerated."""
    m = flat_modes(squeeze(L))
    by_perm = False
    for p in permutations(m):
        prefix, ok = 1, True
        for s, d in p:
            if d != prefix:
                ok = False
                break
            prefix *= s
        if ok:
            by_perm = True
            break
    return by_perm == is_flat_compact(L)


# --- 2.1.6 complements -------------------------------------------------------------

def is_disjoint(A, B):
    """A ⊥ B (Def 2.1.6.1, Def 2.3.6.1, Lemma 2.3.6.2): the concatenation A^b ⋆ B^b is
    compact.  (CuTe has no name for it; "disjoint" is the harness's name for ⊥.)"""
    return is_flat_compact(concat(A, B))


def sorted_squeezed(A):
    """The modes of sort(squeeze(A)), kept on A (the complement's predicate and construction
    and the product's choice of N each read them)."""
    A = as_layout(A)
    m = getattr(A, "_sorted_squeezed", None)
    if m is None:
        m = tuple(flat_modes(sort(squeeze(A))))
        object.__setattr__(A, "_sorted_squeezed", m)
    return list(m)


def is_flat_complementable(A, N=None):
    """Def 2.1.6.11 (N is None) and Def 2.1.6.25 (N-complementable): with
    sort(squeeze(A)) = (s_i):(d_i), s_i d_i divides d_{i+1}, and s_m d_m divides N."""
    m = sorted_squeezed(A)
    if any(d == 0 for _, d in m):
        # Example 2.1.6.15: a mode with s_i != 1 and d_i = 0 has no complement.  Def
        # 2.1.6.11 read literally misses a lone stride-0 mode (finding F-012).
        return False
    for i in range(len(m) - 1):
        s, d = m[i]
        if m[i + 1][1] % (s * d) != 0:
            return False
    if N is not None:
        if not isinstance(N, int) or N < 1:
            raise LayoutError(f"N must be a positive integer, got {N!r}")
        if m:
            s, d = m[-1]
            if s * d == 0 or N % (s * d) != 0:
                return False
    return True


def flat_complement(A, N=None):
    """comp^b(A) (Construction 2.1.6.16) or comp^b(A, N) (Construction 2.1.6.29):
    coal^b of C = (d_1, d_2/(s_1 d_1), ..., [N/(s_m d_m)]) : (1, s_1 d_1, ..., [s_m d_m])."""
    if not is_flat_complementable(A, N):
        what = "complementable" if N is None else f"{N}-complementable"
        raise LayoutError(f"{as_layout(A)} is not {what} (Def 2.1.6.11/2.1.6.25: with "
                          "sort(squeeze(A)) = (s):(d), s_i*d_i must divide d_(i+1)"
                          + ("" if N is None else " and s_m*d_m must divide N") + ")",
                          condition="is_complementable")
    m = sorted_squeezed(A)
    one = C(1)  # the complement starts at stride _1 (CuTe: a static 1)
    if not m:
        modes = [(one if N is None else N, one)]
    else:
        modes = [(m[0][1], one)]
        for i in range(1, len(m)):
            prev = m[i - 1][0] * m[i - 1][1]
            modes.append((m[i][1] // prev, prev))
        if N is not None:
            last = m[-1][0] * m[-1][1]
            modes.append((N // last, last))
    return flat_coalesce(flat_layout(modes))


def is_N_complement(A, B, N):
    """B is an N-complement of A (Def 2.1.6.24): A ⊥ B and size(A) size(B) = N."""
    return is_disjoint(A, B) and T.size(as_layout(A).shape) * T.size(as_layout(B).shape) == N


def check_complement_uniqueness(A, B, N=None):
    """Prop 2.1.6.23 / 2.1.6.33 as a predicate: a sorted, coalesced (N-)complement B of A of
    the right size equals comp^b(A[, N])."""
    c = flat_complement(A, N)
    Bf = flat_layout(flat_modes(B))
    size_ok = (T.size(Bf.shape) == T.size(c.shape)) if N is None else is_N_complement(A, Bf, N)
    premise = is_disjoint(A, Bf) and size_ok and is_flat_coalesced(Bf) and sort(Bf) == Bf
    return (not premise) or Bf == c


# --- 2.1.7 composition, flat division, flat product --------------------------------

def _unit_strides(B, A):
    """The strides B(A(e_i)) forced by Def 2.1.7.1 (0 on size-1 modes: non-degenerate),
    evaluated in CuTe arithmetic (``evaluate``); the 0 of a size-1 mode is typed from s."""
    out, prefix = [], C(1)
    for s, _ in flat_modes(A):
        out.append(from_sources(0, s) if s == 1 else evaluate(B, evaluate(A, prefix)))
        prefix = prefix * s
    return out


def is_flat_composable(B, A):
    """Def 2.1.7.1 has a solution: Image(Phi_A) ⊆ [0, size B) and the flat layout with
    shape(A) and the forced strides B(A(e_i)) has the function B ∘ A (enumerated)."""
    A, B = as_layout(A), as_layout(B)
    va = values(A)
    nb = T.size(B.shape)
    if any(not 0 <= v < nb for v in va):
        return False
    R = flat_layout(zip(T.flatten(A.shape), _unit_strides(B, A)))
    return values(R) == [B(v) for v in va]


def flat_composition(B, A):
    """The flat composition B ∘ A of Def 2.1.7.1 (function i -> B(A(i))): the unique
    non-degenerate flat layout with shape(A) and Phi = Phi_B ∘ Phi_A^{size B}."""
    if not is_flat_composable(B, A):
        raise LayoutError(f"no flat layout R with shape {T.flatten(as_layout(A).shape)} has the "
                          f"function {as_layout(B)} ∘ {as_layout(A)} (Def 2.1.7.1)",
                          condition="is_composable")
    return flat_layout(zip(T.flatten(as_layout(A).shape), _unit_strides(B, A)))


# --- 2.1.8 tractable ---------------------------------------------------------------

def is_flat_tractable(L):
    """Def 2.1.8.1: with sort(L) = (s_i):(d_i), for each i < m: d_i = 0 or s_i d_i | d_{i+1}."""
    m = flat_modes(sort(L))
    return all(m[i][1] == 0 or m[i + 1][1] % (m[i][0] * m[i][1]) == 0
               for i in range(len(m) - 1))
