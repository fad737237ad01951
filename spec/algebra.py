"""Nested layouts (section 2.3 of the paper) and CuTe's public layout algebra.

Names and argument order are CuTe's: ``composition(A, B)(i) == A(B(i))`` (the paper writes
this layout ``A ∘ B`` with A and B swapped in its definitions: its ``B ∘ A`` is our
``composition(B, A)``).  Each operation is transcribed from its definition, computed by
enumeration where the definition is a characterisation, and checked on its whole domain.
Outside its precondition an operation raises ``LayoutError(condition=NAME)``, where NAME is
the predicate that failed; it never returns a wrong layout.

Where CuTe and the paper differ, the spec follows the paper by default and offers CuTe's
behaviour under ``sense="cute"`` (see ``composition``, ``complement``, ``coalesce``):

* composition: the paper needs Image(Phi_B) ⊆ [0, size A) (Remark 2.3.7.2); CuTe evaluates A
  beyond its size by extending the last mode of coalesce(A) (pycute ``composition``,
  CuTe ``composition_impl``).
* complement: the paper needs A to be N-complementable (Def 2.1.6.25); CuTe ignores stride-0
  modes and rounds N up to a multiple of s_m d_m (``ceil_div``).
* coalesce with a profile: the paper needs shape(L) to refine the profile (Def 2.3.4.7);
  CuTe walks the profile mode by mode and leaves the modes past its end untouched.

Integer types (seeds 000, 003; finding F-110): results carry CuTe's staticness.  The spec
computes with the ``C`` values so that static op static stays static; an integer the spec
finds by search (a factor of a shape, a stride read off A's function) is typed by
``flat.from_sources`` or evaluated in CuTe arithmetic by ``flat.evaluate``.  With every
input static every integer of the result is static; staticness never changes a value.
"""

from __future__ import annotations

from typing import Any, Callable, cast

from layoutcheck.spec import flat as F
from layoutcheck.spec import tuples as T
from layoutcheck.spec.basic import make_layout, sort, squeeze
from layoutcheck.spec.integers import is_constant
from layoutcheck.spec.layout import Layout, as_layout, assembled, images, values
from layoutcheck.spec.limits import check_enumeration
from layoutcheck.spec.memo import memoised
from layoutcheck.spec.nested import refines, substitute_layouts

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import Coord, IntTuple, LayoutBase, LayoutLike, TilerOrNone

__all__ = ["coalesce", "is_coalesced", "filter", "complement", "is_complementable",
           "composition", "is_composable", "right_inverse", "left_inverse", "slice_", "_",
           "Underscore", "is_tractable", "relative_coalesce", "is_coalesced_over", "is_tiler",
           ]

_SENSES = ("paper", "cute")


def _check_sense(sense):
    if sense not in _SENSES:
        raise LayoutError(f"sense must be 'paper' or 'cute', got {sense!r}")


from layoutcheck.spec.layout import parse_tiler
from layoutcheck.spec.nested import layout_relative_modes

from layoutcheck.layout import Underscore, _  # noqa: E402  one sentinel for the package

make_modes = make_layout  # CuTe's make_layout(L_1, ..., L_k): the modes side by side (Def 2.3.2.5)


def top_modes(L: LayoutLike) -> list[Layout]:
    L = as_layout(L)
    if not isinstance(L.shape, tuple):
        return [L]
    return [assembled(s, d) for s, d in zip(L.shape, cast(tuple, L.stride))]  # congruent


def layout_size(L: LayoutLike) -> int:
    return T.size(as_layout(L).shape)


# --- 2.3.3 / 2.3.4 coalesce ----------------------------------------------------------

def _from_flat(pairs):
    """Construction 2.3.3.7 on a coalesced flat form: m > 1 -> the flat layout,
    m = 1 -> s:d (depth 0), m = 0 -> 1:0."""
    pairs = list(pairs)
    if len(pairs) > 1:
        return F.flat_layout(pairs)
    if len(pairs) == 1:
        return Layout(pairs[0][0], pairs[0][1])
    return Layout(C(1), C(0))


def is_coalesced(L: LayoutLike) -> bool:
    """Def 2.3.3.1: L = 1:0, or depth 0 and shape > 1, or depth 1, rank > 1 and coalesced
    as a flat layout (Def 2.1.4.1).  The empty layout and ``(64):(2)`` are not coalesced."""
    L = as_layout(L)
    if not isinstance(L.shape, tuple):
        return L.shape > 1 or (L.shape == 1 and L.stride == 0)
    if T.depth(L.shape) == 1 and len(L.shape) > 1:
        return F.is_flat_coalesced(L)
    return False


def is_coalesced_over(L: LayoutLike, Sbar: IntTuple) -> bool:
    """Def 2.3.4.4: each relative mode mode_i(L, S̄) is coalesced."""
    return all(is_coalesced(m) for m in layout_relative_modes(L, Sbar))


def relative_coalesce(L: LayoutLike, Sbar: IntTuple) -> Layout:
    """coal(L, S̄) = (coal(L_1), ..., coal(L_m))_P, L_i = mode_i(L, S̄) (Def 2.3.4.7)."""
    return substitute_layouts([coalesce(m) for m in layout_relative_modes(L, Sbar)], Sbar)


def coalesce(L: LayoutLike, profile: IntTuple | LayoutBase | None = None, sense: str = "paper") -> Layout:
    """coal(L) (Construction 2.3.3.7) and CuTe's ``coalesce(L[, profile])``.

    Without a profile the paper and CuTe agree: the coalesced flat form, printed ``8:1``
    (not ``(8):(1)``) when it has one mode, and ``_1:_0`` for size 1 (the empty layout
    included).  ``sense="flat"`` gives the paper's flat coal^b (Construction 2.1.4.9)
    instead: always a tuple, ``():()`` for size 1.

    With a profile S̄, ``sense="paper"`` is the relative coalesce coal(L, S̄) of Def 2.3.4.7
    and needs shape(L) to refine S̄ (condition ``refines``); ``sense="cute"`` is CuTe's
    walk: a tuple profile is applied mode by mode (modes past its end are kept as they
    are), a leaf of the profile coalesces the whole mode there.  When shape(L) refines S̄
    the two coincide.
    """
    if sense not in ("paper", "cute", "flat"):
        raise LayoutError(f"sense must be 'paper', 'cute' or 'flat', got {sense!r}")
    L = as_layout(L)
    if sense == "flat":
        if profile is not None:
            raise LayoutError("the flat coalesce (Construction 2.1.4.9) takes no profile")
        return F.flat_coalesce(L)
    if profile is None:
        return _from_flat(F.flat_modes(F.flat_coalesce(L)))
    if isinstance(profile, LayoutBase):
        profile = profile.shape
    if sense == "paper":
        if not refines(L.shape, profile):
            raise LayoutError(f"shape {L.shape} does not refine {profile} (Def 2.3.4.7)",
                              condition="refines")
        return relative_coalesce(L, profile)

    def walk(M, p):
        if not isinstance(p, tuple):
            return coalesce(M)
        ms = top_modes(M)
        if len(p) > len(ms):
            raise LayoutError(f"profile {p} has more modes than {M}", condition="rank")
        return make_modes(*([walk(m, q) for m, q in zip(ms, p)] + ms[len(p):]))

    return walk(L, profile)


def filter(L: LayoutLike) -> Layout:  # noqa: A001  (CuTe's name)
    """CuTe's ``filter``: drop the modes with stride 0 or size 1, then coalesce; ``_1:_0``
    if nothing is left.  (The paper's ``filter`` is ``filter_zeros``.)"""
    kept = [(s, d) for s, d in F.flat_modes(L) if s != 1 and d != 0]
    return coalesce(F.flat_layout(kept))


# --- 2.3.6 complement ----------------------------------------------------------------

def _cute_complement_input(A, N):
    """CuTe's reading: drop stride-0 modes; round N up to a multiple of s_m d_m."""
    A = F.flat_layout((s, d) for s, d in F.flat_modes(A) if d != 0)
    if N is not None:
        m = F.flat_modes(sort(squeeze(A)))
        if m:
            last = m[-1][0] * m[-1][1]
            N = -(-N // last) * last
    return A, N


def is_complementable(L: LayoutLike, N: int | None = None, sense: str = "paper") -> bool:
    """Def 2.3.6.3 / 2.3.6.8: L^b is (N-)complementable (Def 2.1.6.11 / 2.1.6.25).
    ``sense="cute"``: after dropping stride-0 modes and rounding N up (CuTe's complement)."""
    _check_sense(sense)
    if N is not None and (isinstance(N, bool) or not isinstance(N, int) or N < 1):
        raise LayoutError(f"N must be a positive integer, got {N!r}")
    if sense == "cute":
        L, N = _cute_complement_input(L, N)
    return F.is_flat_complementable(L, N)


def complement(L: LayoutLike, N: int | None = None, sense: str = "paper") -> Layout:
    """comp(A) = coal(comp^b(A^b)) and comp(A, N) = coal(comp^b(A^b, N)) (Def 2.3.6.5).

    CuTe's ``complement(L, N)``; with ``N=None`` CuTe uses cosize(L), which gives the same
    layout as the paper's comp(A).  Precondition: ``is_complementable(L, N, sense)``."""
    _check_sense(sense)
    if not is_complementable(L, N, sense):
        what = "complementable" if N is None else f"{N}-complementable"
        raise LayoutError(f"{as_layout(L)} is not {what} (Def 2.1.6.11/2.1.6.25: with "
                          "sort(squeeze(L)) = (s):(d), every d_i > 0, s_i*d_i divides d_(i+1)"
                          + ("" if N is None else ", and s_m*d_m divides N") + ")",
                          condition="is_complementable")
    if sense == "cute":
        L, N = _cute_complement_input(L, N)
    return coalesce(F.flat_complement(L, N))


# --- 2.3.7 composition ---------------------------------------------------------------

def _fit(vals):
    """The coalesced flat layout whose function is ``vals`` on [0, len(vals)), or None.

    The first mode of a coalesced layout (t_1, ...):(d_1, ...) has d_1 = g(1) and t_1 the
    first i with g(i) != i d_1 (t_1 d_1 != d_2 by Def 2.1.4.1); the rest is the function
    k -> g(k t_1).  Every step is checked on the whole domain, so a returned layout has
    exactly this function, and it is coalesced, hence the unique one (Prop 2.1.4.19).
    """
    n = len(vals)
    if n == 1:
        return [] if vals[0] == 0 else None
    d = vals[1]
    t = 1
    while t < n and vals[t] == t * d:
        t += 1
    if n % t:
        return None
    rest = [vals[k * t] for k in range(n // t)]
    if any(vals[i + k * t] != vals[i] + rest[k] for k in range(n // t) for i in range(t)):
        return None
    sub = _fit(rest)
    return None if sub is None else [(t, d)] + sub


def _extend(A, n):
    """A's function beyond its size as CuTe evaluates it: coalesce(A) with the last mode
    made long enough that the domain covers [0, n) (n typed by the caller)."""
    m = F.flat_modes(F.flat_coalesce(A)) or [(F.from_sources(1, A), F.from_sources(0, A))]
    prefix = T.size(tuple(s for s, _ in m[:-1]))
    s, d = m[-1]
    m[-1] = (max(s, -(-n // prefix)), d)
    return F.flat_layout(m)


def _typed_leaf(fit, s, d, A):
    """The modes ``fit`` of i -> A(d i) on [0, s) with CuTe's integer types (seed 003).

    Each stride is A(d p), p the product of the shapes before it, evaluated in CuTe
    arithmetic (``F.evaluate``: static when d, p and A are; ``_0`` when d is ``_0``).  A leaf
    that is not split keeps B's shape s itself; the factors of a split s are found by
    search, so they are typed from s and A (``F.from_sources``).  A size-1 leaf is s:0 (the
    paper's 1:0, Def 2.3.7.1; CuTe keeps a stride there, F-028), the 0 typed from d and A,
    and ``_0`` when d is (seed 003: ``_0 * n -> _0``).  Values are unchanged.
    """
    if not fit:  # s = 1: the leaf is s:0
        return [(s, d if is_constant(0, d) else F.from_sources(0, d, A))]
    if len(fit) == 1:  # one mode: its shape is s
        return [(s, F.evaluate(A, d * C(1)))]
    out, p = [], C(1)
    for t, _stride in fit:
        t = F.from_sources(t, s, A)
        out.append((t, F.evaluate(A, d * p)))
        p = p * t
    return out


def is_tiler(T_: object) -> bool:
    """A CuTe Tile: a layout, an int n (meaning n:1), ``_`` / None, or a tuple of tilers."""
    if isinstance(T_, (LayoutBase, Underscore)) or T_ is None:
        return True
    if isinstance(T_, int) and not isinstance(T_, bool):
        return T_ >= 1
    if isinstance(T_, tuple):
        return all(is_tiler(x) for x in T_)
    return False


def as_tiler(T_: TilerOrNone | str) -> Layout | Underscore | tuple[TilerOrNone, ...] | None:
    """Normalise a tiler: text is parsed; an int n becomes n:1."""
    if isinstance(T_, str):
        T_ = parse_tiler(T_)
    if not is_tiler(T_):
        raise LayoutError(f"{T_!r} is not a layout or a tiler (layout, int, or tuple of tilers)")
    if isinstance(T_, int):
        return Layout(T_, C(1))
    if isinstance(T_, LayoutBase):
        return as_layout(T_)
    return T_


def by_mode(op: Callable[..., Layout], A: LayoutLike, Ts: tuple[TilerOrNone, ...], *args: Any) -> Layout:
    """CuTe's by-mode application of a tuple tiler: op on the first len(Ts) modes of A,
    the other modes kept."""
    ms = top_modes(A)
    if len(Ts) > len(ms):
        raise LayoutError(f"the tiler has {len(Ts)} modes, {as_layout(A)} has rank {len(ms)}",
                          condition="rank")
    return make_modes(*([op(m, t, *args) for m, t in zip(ms, Ts)] + ms[len(Ts):]))


def composition(A: LayoutLike, B: TilerOrNone | str, sense: str = "paper") -> Layout:
    """CuTe's ``composition(A, B)``: the layout R with R(i) == A(B(i)), which is the paper's
    composite A ∘ B of Def 2.3.7.1: shape(R) refines shape(B), R is coalesced over
    shape(B), and Phi_R = Phi_A ∘ Phi_B.

    Computed literally: each leaf s:d of B is replaced by the coalesced layout of
    i -> A(d i) on [0, s) (that is coal of the relative mode, Def 2.3.4.7), the leaves are
    substituted back into shape(B), and R(i) == A(B(i)) is checked on the whole domain.
    Precondition ``is_composable(A, B, sense)``: for the paper, Image(Phi_B) ⊆ [0, size A)
    (Remark 2.3.7.2) and such an R exists.  ``sense="cute"`` evaluates A beyond its size as
    CuTe does (last mode of coalesce(A) extended).  B may be a tiler (CuTe's Tile: a tuple
    is applied mode by mode, an int n means n:1).
    """
    _check_sense(sense)
    A = as_layout(A)
    B = as_tiler(B)
    if B is None or isinstance(B, Underscore):
        return A
    if isinstance(B, tuple):
        return by_mode(memo_composition, A, B, sense)
    vb = values(B)
    nA = layout_size(A)
    if sense == "paper" and any(v >= nA for v in vb):
        raise LayoutError(f"{A} and {B} are not composable: Image(Phi_B) reaches {max(vb)}, "
                          f"outside [0, size(A)) = [0, {nA}) (Remark 2.3.7.2)",
                          condition="is_composable")
    if sense == "paper" or max(vb, default=0) < nA:
        Aext = A
    else:  # the extent max(Image B) + 1 is found by search: typed from B (F.from_sources)
        Aext = _extend(A, F.from_sources(max(vb) + 1, B))
    # Phi_A at the points below: read from A's memoised table, else point by point (images)
    leaves = []
    for s, d in zip(T.flatten(B.shape), T.flatten(B.stride)):
        fit = _fit(images(Aext, range(0, int(d) * int(s), int(d)) if d else [0] * int(s)))
        if fit is None:
            raise LayoutError(f"{A} and {B} are not composable: i -> A({d}*i) on [0, {s}) is "
                              "not the function of any layout (Def 2.3.7.1)",
                              condition="is_composable")
        leaves.append(_from_flat(_typed_leaf(fit, s, d, Aext)))
    R = substitute_layouts(leaves, B.shape)
    if values(R) != images(Aext, vb):
        raise LayoutError(f"{A} and {B} are not composable: no layout with shape refining "
                          f"{B.shape} has the function A∘B (Def 2.3.7.1)",
                          condition="is_composable")
    return R


# The operations' answers on the sub-layouts they meet inside other operations (a mode of
# a by-mode tiler, the complement of a tiler within size(A), the composite A ∘ (B, B^c)),
# memoised (spec/memo.py): the same small sub-layouts recur across fuzz cases.  The public
# functions are not memoised: the fuzzer memoises whole cases itself (fuzz/checks/targets.py).
memo_composition = memoised(composition)
memo_complement = memoised(complement)


def is_composable(A: LayoutLike, B: TilerOrNone | str, sense: str = "paper") -> bool:
    """Whether ``composition(A, B, sense)`` exists (Def 2.3.7.1; ``sense="cute"``: with A
    extended beyond its size as CuTe does)."""
    try:
        composition(A, B, sense)
    except LayoutError as e:
        if e.condition in ("is_composable", "rank"):
            return False
        raise
    return True




# --- inverses ------------------------------------------------------------------------

def _coalesced_pairs(L):
    return F.flat_modes(F.flat_coalesce(L)) or [(C(1), C(0))]


def right_inverse(L: LayoutLike) -> Layout:
    """CuTe's ``right_inverse``: with coalesce(L) = (s_i):(d_i) and p_i = s_1...s_{i-1},
    walk the modes by increasing stride; a mode whose stride equals the running product
    ``curr`` (starting at 1) contributes s_i:p_i and sets curr = s_i d_i; others are
    skipped.  Result R: L(R(i)) == i for all i < size(R) (checked)."""
    L = as_layout(L)
    m = _coalesced_pairs(L)
    prefix, p = [], C(1)  # prefix products from a static _1 (seed 003: static stays static)
    for s, _d in m:
        prefix.append(p)
        p = p * s
    out, curr = [], 1
    for i in sorted(range(len(m)), key=lambda i: int(m[i][1])):
        s, d = m[i]
        if d == curr:
            out.append((s, prefix[i]))
            curr = s * d
    R = coalesce(F.flat_layout(out))
    check_enumeration(layout_size(R), lambda: f"the domain of right_inverse({L}) = {R}")
    if images(L, images(R, range(layout_size(R)))) != list(range(layout_size(R))):  # pragma: no cover (a spec bug)
        raise AssertionError(f"right_inverse({L}) = {R} fails L(R(i)) == i")
    return R


def left_inverse(L: LayoutLike) -> Layout:
    """CuTe's ``left_inverse``: with coalesce(L) = (s_i):(d_i) and p_i = s_1...s_{i-1},
    the modes with non-zero stride by increasing stride give shapes d_i / (product so far)
    (which must divide: condition ``left_inverse_divisibility``) and strides p_i, after a
    leading stride 0; the last mode's shape closes it.  Precondition ``is_injective``; the
    result R satisfies R(L(i)) == i (checked)."""
    L = as_layout(L)
    v = values(L)
    if len(set(v)) != len(v):
        raise LayoutError(f"{L} is not injective, so it has no left inverse",
                          condition="is_injective")
    m = _coalesced_pairs(L)
    prefix, p = [], C(1)  # as in right_inverse
    for s, _d in m:
        prefix.append(p)
        p = p * s
    order = sorted(range(len(m)), key=lambda i: int(m[i][1]))
    shapes: list[int] = []
    strides: list[int] = [C(0)]
    for i in order:
        s, d = m[i]
        if d == 0:
            continue
        have = T.size(tuple(shapes))
        if d % have:
            raise LayoutError(f"{L}: stride {d} is not a multiple of {have} (CuTe's left "
                              "inverse divisibility condition)",
                              condition="left_inverse_divisibility")
        shapes.append(d // have)
        strides.append(prefix[i])
    shapes.append(m[order[-1]][0])
    R = coalesce(Layout(tuple(shapes), tuple(strides)))
    if images(R, v) != list(range(len(v))):  # pragma: no cover (a spec bug)
        raise AssertionError(f"left_inverse({L}) = {R} fails R(L(i)) == i")
    return R


# --- slicing -------------------------------------------------------------------------

def slice_tuple(c: Coord, t: IntTuple) -> tuple[IntTuple, ...]:
    """CuTe's ``slice(c, t)``: the entries of t where c has ``_``, each nested tuple of c
    contributing its own slice (concatenated, as CuTe's filter_tuple does)."""
    if isinstance(c, tuple):
        if not isinstance(t, tuple) or len(c) != len(t):
            raise LayoutError(f"coordinate {c!r} does not match {t}", condition="congruent")
        out: tuple[IntTuple, ...] = ()
        for ci, ti in zip(c, t):
            out = out + slice_tuple(ci, ti)
        return out
    if isinstance(c, Underscore):
        return (t,)
    return ()


def check_coord(c: Coord, s: IntTuple) -> None:
    if isinstance(c, Underscore):
        return
    if isinstance(c, tuple):
        if not isinstance(s, tuple) or len(c) != len(s):
            raise LayoutError(f"coordinate {c!r} does not match shape {s}", condition="congruent")
        for ci, si in zip(c, s):
            check_coord(ci, si)
        return
    if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < T.size(s):
        raise LayoutError(f"coordinate entry {c!r} is outside [0, {T.size(s)})",
                          condition="in_domain")


def _crd2idx(c, s, d):
    """CuTe's crd2idx: a tuple coordinate goes mode by mode; an integer addressing a tuple
    mode is first split colexicographically (Def 2.1.2.18)."""
    if isinstance(c, tuple):  # sums start at a static _0, so static terms stay static
        return sum((_crd2idx(ci, si, di) for ci, si, di in zip(c, s, d)), C(0))
    if isinstance(s, tuple):
        total, rest = C(0), c
        for si, di in zip(s, d):
            n = T.size(si)
            total += _crd2idx(rest % n, si, di)
            rest //= n
        return total
    return c * d


def _has_underscore(c):
    if isinstance(c, tuple):
        return any(_has_underscore(x) for x in c)
    return isinstance(c, Underscore)


def slice_(L: LayoutLike, coord: Coord) -> Layout | int:
    """CuTe's ``L(coord)`` with ``_`` in the coordinate: the sublayout of the ``_`` modes
    (shape slice(coord, shape), stride slice(coord, stride)).  Without ``_`` it is the
    coordinate function, an integer."""
    L = as_layout(L)
    check_coord(coord, L.shape)
    if not _has_underscore(coord):
        return _crd2idx(coord, L.shape, L.stride)
    if isinstance(coord, Underscore):
        return L
    return Layout(slice_tuple(coord, L.shape), slice_tuple(coord, L.stride))


# --- 2.3.10 tractable ----------------------------------------------------------------

def is_tractable(L: LayoutLike) -> bool:
    """Def 2.3.10.1: L^b is tractable (Def 2.1.8.1)."""
    return F.is_flat_tractable(L)
