"""A model of NVlabs PyCuTe's documented algebra, for the nvlabs findings' predicates.

``nv_model(op, A, T)`` is the layout PyCuTe documents for composition, the divides and the
products, built from the spec's composition (Def 2.3.7.1, the trusted function) and the
steps PyCuTe's documentation and tests (github.com/NVlabs/CuTe: docs/04_layout_algebra.md,
test/) describe: a Tile tuple goes mode by mode (composition: the named modes only; divides
and products: the other modes kept); B goes leaf by leaf (A ∘ (B_0, B_1) = (A ∘ B_0, A ∘ B_1),
with no check that the leaves' images add inside A); A is evaluated past its size by its own
last flat mode (as written); the divisor's complement is ``nv_complement`` (extended leaf by
leaf over shape(A)); the product's complement is the minimal one; the divisibility walk is
``nv_walk_fails``.  The model is no copy of PyCuTe: each leaf is composed by the spec, so a
wrong leaf in PyCuTe is not reproduced by it.
"""

from layoutcheck.oracles.postconditions import evaluate

from layoutcheck import spec
from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase, leaves, size

__all__ = ["nv_model", "nv_complement_zero_target", "nv_coalesce_z", "nv_complement", "nv_complement_answer", "nv_left_inverse",
           "nv_walk_fails", "nv_walk", "walk_of",
           "compose_leafwise", "cute_coalesce_pairs", "leaf_sums",
           "coalesce_model", "cute_coalesce", "divisor_pair", "grow", "chain", "rank_of", "modes_of",
           "size_of", "as_layout", "is_underscore", "table", "extended", "pairs_layout", "mk",
           "spec_module"]


def spec_module():
    return spec


def table(L):
    """Phi_L on [0, size(L)) (first mode fastest)."""
    return [evaluate(L, i) for i in range(size(L))]


def extended(L, k):
    """L(k) for any k >= 0, the last flat mode extended (``postconditions.evaluate``)."""
    return evaluate(L, k)


def size_of(L):
    n = 1
    for s in leaves(L.shape):
        n *= int(s)
    return n


def rank_of(L):
    """CuTe's rank: a leaf layout has rank 1, a tuple layout its length."""
    return len(L.shape) if isinstance(L.shape, tuple) else 1


def modes_of(L):
    if not isinstance(L.shape, tuple):
        return [L]
    return [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]


def as_layout(T):
    """A tiler leaf as a layout: an int n is n:1 (CuTe's reading), the rest unchanged."""
    return LayoutBase(int(T), 1) if isinstance(T, int) and not isinstance(T, bool) else T


def is_underscore(x):
    """``_`` (the neutral Underscore) or PyCuTe's None."""
    return x is None or type(x).__name__ == "Underscore"


def cute_coalesce(L, profile):
    """The spec's coalesce(L[, profile]) (CuTe's), or None where it refuses."""
    try:
        S = spec_module()
        return S.coalesce(L) if profile is None else S.coalesce(L, profile)
    except LayoutError:
        return None


def coalesce_model(L, profile=None):
    """PyCuTe's coalesce: the spec's, except that a size-1 result is 1:d with d the stride
    of the last flat mode (what its coalesce_z fold keeps); by mode for a tuple profile."""
    if isinstance(profile, tuple):
        modes = modes_of(L)
        if len(profile) > len(modes):
            return None
        parts = [(coalesce_model(m, p) if i < len(profile) and p is not None else m)
                 for i, (m, p) in enumerate(zip(modes, list(profile) + [None] * len(modes)))]
        if any(p is None for p in parts):
            return None
        return LayoutBase(tuple(p.shape for p in parts), tuple(p.stride for p in parts))
    if size_of(L) == 1:
        ds = leaves(L.stride)
        return LayoutBase(1, int(ds[-1]) if L.shape != () else 0)
    return cute_coalesce(L, None)


def grow(A, reach):
    """A with its last flat mode long enough that A'(k) = A(k) as PyCuTe evaluates it past
    size(A) (its idx2crd gives the excess to the last flat mode), for every k < reach."""
    s, d = [int(x) for x in leaves(A.shape)], [int(x) for x in leaves(A.stride)]
    if not s:
        return None
    s[-1] *= max(1, -(-reach // size_of(A)))
    return LayoutBase(tuple(s), tuple(d))


def compose_leafwise(A, B):
    """PyCuTe's A ∘ B for a layout B: leaf by leaf, each leaf composed by the spec with A
    grown past its size (its special cases: N:0 -> N:0, 1:M -> 1:A(M)); None when a leaf
    fails PyCuTe's walk or has no composition."""
    if isinstance(B.shape, tuple):
        parts = [compose_leafwise(A, m) for m in modes_of(B)]
        if any(p is None for p in parts):
            return None
        return LayoutBase(tuple(p.shape for p in parts), tuple(p.stride for p in parts))
    s, d = int(B.shape), int(B.stride)
    if nv_walk_fails(A, s, d):
        return None
    if d == 0:
        return LayoutBase(s, 0)
    if s == 1:  # its documented special case: A o 1:M = 1:A(M)
        return LayoutBase(1, extended(A, d))
    G = grow(A, (s - 1) * d + 1)
    try:
        return spec_module().composition(G, B)
    except LayoutError:
        return None


def pairs_layout(pairs):
    return LayoutBase(tuple(p[0] for p in pairs), tuple(p[1] for p in pairs))


def mk(parts):
    return LayoutBase(tuple(p.shape for p in parts), tuple(p.stride for p in parts))


def nv_model(op, A, T):
    """The layout PyCuTe documents for ``op(A, T)`` (see above), or None where its walk
    refuses or no layout has the function."""
    if op in ("blocked_product", "raked_product"):
        P = nv_model("logical_product", A, T)
        if P is None or rank_of(A) != rank_of(T):
            return None
        tile, grid = modes_of(P)
        pairs = zip(modes_of(tile), modes_of(grid)) if op == "blocked_product" else \
            zip(modes_of(grid), modes_of(tile))
        return mk([mk([x, y]) for x, y in pairs])
    if is_underscore(T):
        return A
    if isinstance(T, tuple):
        modes = modes_of(A)
        if len(T) > len(modes):
            return None
        if op == "composition":
            parts = [nv_model(op, a, t) for a, t in zip(modes, T)]
        elif op in ("logical_divide", "logical_product"):
            parts = [nv_model(op, a, t) if i < len(T) else a
                     for i, (a, t) in enumerate(zip(modes, list(T) + [None] * len(modes)))]
        else:
            return None  # zipped_divide of a Tile tuple: E-strided tilers, not modelled
        return None if any(p is None for p in parts) else mk(parts)
    B = as_layout(T)
    if op == "composition":
        return compose_leafwise(A, B)
    if op in ("logical_divide", "zipped_divide"):
        C = nv_complement(B, A.shape)
        return None if C is None else compose_leafwise(A, mk([B, pairs_layout(C)]))
    if op == "logical_product":
        C = nv_complement(A)
        if C is None:
            return None
        rest = compose_leafwise(pairs_layout(C), B)
        return None if rest is None else mk([A, rest])
    return None


def walk_of(A, B):
    """The condition ("stride" / "shape") PyCuTe's walk of A ∘ B reports, or None."""
    if not isinstance(A, LayoutBase) or B is None:
        return None
    if isinstance(B, tuple):
        for a, b in zip(modes_of(A), B):
            w = None if is_underscore(b) else walk_of(a, as_layout(b))
            if w:
                return w
        return None
    B = as_layout(B)
    if not isinstance(B, LayoutBase):
        return None
    for s, d in zip(leaves(B.shape), leaves(B.stride)):
        w = nv_walk_fails(A, int(s), int(d))
        if w:
            return w
    return None


def divisor_pair(A, T):
    """(T, T*) as PyCuTe's logical_divide builds it (T* = nv_complement(T, shape(A)))."""
    B = as_layout(T)
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return None
    C = nv_complement(B, A.shape)
    return None if C is None else mk([B, pairs_layout(C)])


def nv_coalesce_z(L):
    """PyCuTe's coalesce_z fold as (shape, stride) pairs: flat modes left to right, a
    size-1 mode dropped when another follows, two modes merged when s_a*d_a == d_b (so a
    trailing size-1 mode stays; docs/04_layout_algebra.md "coalesce vs coalesce_z")."""
    out = []
    for s, d in zip(map(int, leaves(L.shape)), map(int, leaves(L.stride))):
        while out and out[-1][0] == 1:
            out.pop()
        if out and out[-1][0] * out[-1][1] == d:
            out[-1] = (out[-1][0] * s, out[-1][1])
            continue
        out.append((s, d))
    return out


def chain(L):
    """L's flat modes of size > 1 and non-zero stride, by stride, if each stride is at least
    the previous mode's end (PyCuTe's complement precondition); else None."""
    modes = sorted((d, s) for s, d in zip(map(int, leaves(L.shape)), map(int, leaves(L.stride)))
                   if s != 1 and d != 0)
    end = 1
    for d, s in modes:
        if d < end:
            return None
        end = d * s
    return [(s, d) for d, s in modes]


def nv_complement(L, extend=None):
    """PyCuTe's complement of an integer-strided L as (shape, stride) pairs: the minimal
    complement with its trailing 1:e marker, then, with ``extend`` (an int or a shape), the
    marker replaced by one mode per leaf of ``extend`` (each the ceiling of that leaf over
    what is already covered), as its complement(A, extend) does; None outside its
    precondition."""
    links = chain(L)
    if links is None:
        return None
    shapes, strides, end = [], [1], 1
    for s, d in links:
        shapes.append(d // end)
        end = d * s
        strides.append(end)
    pairs = [(a, b) for a, b in zip(shapes + [1], strides)]
    if not extend:
        return pairs
    size_c = strides[-1]
    ext = []
    for s in (leaves(extend) if isinstance(extend, tuple) else (extend,)):
        s = int(s)
        ext.append(-(-s // size_c))
        size_c = -(-size_c // s)
    e, stride_r = strides[-1], []
    for r in ext:
        stride_r.append(e)
        e *= r
    return _nv_coalesced(pairs[:-1] + list(zip(ext, stride_r)))


def _nv_coalesced(pairs):
    """PyCuTe's ``Layout._coalesce()`` of the extended complement, as pairs: size-1 modes
    dropped, s_a d_a == d_b merged; nothing left gives the last mode's stride with size 1."""
    return _merged_pairs(pairs) or [(1, pairs[-1][1])]


def _merged_pairs(pairs):
    """(shape, stride) pairs with size-1 modes dropped and neighbours with s_a d_a == d_b
    merged (coalesce's rule, CuTe and PyCuTe alike); [] when nothing is left."""
    out = []
    for s, d in pairs:
        if s == 1:
            continue
        if out and out[-1][0] * out[-1][1] == d:
            out[-1] = (out[-1][0] * s, out[-1][1])
        else:
            out.append((s, d))
    return out


def nv_walk_fails(A, s, d):
    """PyCuTe's divisibility walk of A ∘ s:d (its composition, Whitepaper Eqs. (20)-(21)):
    None when it composes, else "stride" or "shape", the condition it reports.  A is
    coalesced with coalesce_z; d == 0 or s == 1 is a special case that always composes."""
    return nv_walk(A, s, d)[0]


def nv_walk(A, s, d):
    """(condition or None, the number of A's modes the composed leaf spans)."""
    if d == 0 or s == 1:
        return None, 1
    shapes = [m[0] for m in nv_coalesce_z(A)]
    while len(shapes) > 1 and d % shapes[0] == 0:  # divide out whole modes
        d //= shapes[0]
        shapes = shapes[1:]
    if len(shapes) > 1:
        q, r = divmod(shapes[0], d)
        if r == 0 and q > 0:
            shapes[0] = q
        elif q < s - 1:
            return "stride", 1
    rest = s
    for i, cs in enumerate(shapes[:-1]):  # keep s elements of what remains
        q, r = divmod(rest, cs)
        if q == 0:
            return None, i + 1
        if r != 0:
            return "shape", i + 1
        rest = q
    return None, len(shapes)


def cute_coalesce_pairs(L):
    """CuTe's coalesce(L) as (shape, stride) pairs: size-1 modes dropped, s_a d_a == d_b
    merged, [(1, 0)] when nothing is left (cheap: no enumeration)."""
    return _merged_pairs(zip(map(int, leaves(L.shape)), map(int, leaves(L.stride)))) or [(1, 0)]


def leaf_sums(A, B):
    """For each index i of B: (A(B(i)), sum over B's leaves of A(d_l c_l)), A evaluated past
    its size by its own last flat mode: the composition and its leaf-by-leaf split."""
    shapes, strides = [int(x) for x in leaves(B.shape)], [int(x) for x in leaves(B.stride)]
    out = []
    for i in range(size_of(B)):
        total, parts, k = 0, 0, i
        for s, d in zip(shapes, strides):
            c, k = k % s, k // s
            total += c * d
            parts += extended(A, c * d)
        out.append((extended(A, total), parts))
    return out


def _unwrapped(pairs, drop_trailing_one=False):
    """PyCuTe's ``Layout._set(unwrap(s), unwrap(d))`` of a coalesce_z fold (``_coalesce_z``;
    ``drop_trailing_one``: its ``_coalesce``, which drops a trailing size-1 mode)."""
    if not pairs:
        return LayoutBase(1, 0)
    if drop_trailing_one and len(pairs) > 1 and pairs[-1][0] == 1:
        pairs = pairs[:-1]
    if len(pairs) == 1:
        return LayoutBase(pairs[0][0], pairs[0][1])
    return pairs_layout(pairs)


def nv_complement_answer(L, N=None):
    """PyCuTe's ``complement(L[, N])`` for integer strides, step by step as layout.py
    ``_complement`` computes it: the stride chain walked in stride order (size-1 and stride-0
    modes skipped; a stride below the running end refused), each gap ``d // end`` (floored:
    where the chain is not divisible this is its weak complement, F-143), a trailing ``1:end``,
    folded by ``_coalesce_z``; with ``N`` the trailing mode becomes ``ceil(N / end):end`` and
    the whole is ``_coalesce``d.  None outside its precondition (it raises there)."""
    folded = _folded_complement(L)
    if folded is None:
        return None
    if N is None:
        return _unwrapped(folded)
    if not folded:
        folded = [(1, 0)]
    end = folded[-1][1]
    n = int(N)
    grown = folded[:-1] + [(-(-n // end), end)]
    return _unwrapped(nv_coalesce_z(pairs_layout(grown)), drop_trailing_one=True)


def _folded_complement(L):
    """PyCuTe's complement chain of ``L`` with its trailing ``1:end``, folded by ``_coalesce_z``
    (as pairs; possibly empty); None outside its precondition or for a non-layout."""
    if not isinstance(L, LayoutBase):
        return None
    pairs = nv_complement(L)
    return None if pairs is None else nv_coalesce_z(pairs_layout(pairs))


def nv_complement_zero_target(L):
    """PyCuTe's ``complement(L, 0)``: as ``nv_complement_answer`` with the trailing mode
    ``ceil(0 / end):end`` taken as ``1:end`` and kept (layout.py answers it rather than refusing
    the cotarget 0, F-261); None outside its precondition."""
    folded = _folded_complement(L)
    if folded is None:
        return None
    end = folded[-1][1] if folded else 1
    return _unwrapped(nv_coalesce_z(pairs_layout(list(folded[:-1]) + [(1, end)])))


def nv_left_inverse(L):
    """PyCuTe's ``left_inverse(L)`` for integer strides (layout.py ``_left_inverse``): L
    folded by coalesce_z, its modes sorted by (stride, shape, prefix product), size-1 and
    stride-0 modes skipped (so a non-injective L still gets an answer, F-142); each stride's
    gap over the consumed part pads the previous result mode; folded by ``_coalesce_z``.
    None where PyCuTe raises (a stride the chain does not divide, or an overlap)."""
    if not isinstance(L, LayoutBase):
        return None
    flat = nv_coalesce_z(L)
    pps, run = [], 1
    for s, _ in flat:
        pps.append(run)
        run *= s
    result_s, result_d, curr = [1], [0], 1
    for d, s, p in sorted((d, s, p) for (s, d), p in zip(flat, pps)):
        if d == 0 or s == 1:
            continue
        gap, rem = divmod(d, curr)
        if rem or gap < result_s[-1]:
            return None
        result_s[-1] = gap
        curr *= gap
        result_s.append(s)
        result_d.append(p)
    return _unwrapped(nv_coalesce_z(pairs_layout(list(zip(result_s, result_d)))))
