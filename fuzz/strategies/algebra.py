"""Public hypothesis strategies for CuTe layouts (``layoutcheck.fuzz.strategies.algebra``).

Every strategy returns values in the neutral form (``layoutcheck.layout.LayoutBase``,
nested tuples of ``int`` / static ``C``, tilers as in DESIGN.md), so any oracle accepts them.

They are *constructive*: a strategy asked for complementable layouts builds one (sorted
strides with ``s_i d_i | d_{i+1}``, Def 2.1.6.11) instead of filtering random ones, and the
pair strategies build the second argument out of the first one's shape.  Everything shrinks
toward few modes, shape 1, stride 0/1 and no nesting, and the awkward cases are drawn on
purpose: size-1 modes with non-zero strides, zero strides, empty tuples (opt-in), deep
nesting, static and dynamic integers mixed, and strides that *just* fail divisibility.

Use them in your own tests::

    from hypothesis import given
    import layoutcheck.fuzz.strategies.algebra as lst

    @given(lst.layouts(max_size=64, injective=True))
    def test_my_coalesce(L): ...

How they are built (drawing was most of a campaign's CPU time): each public
strategy is one ``@st.composite`` over plain helpers that take ``draw`` (no nested
strategy objects per draw, no spans of their own), and each logical choice is one integer
choice where that keeps the distribution: a leaf shape is an index into a table of small
values followed by the rest, a stride is one integer that encodes its kind and value, the
staticness of a layout's leaves is one bit mask.  The factories memoise their strategies
by argument (a strategy is an immutable description; building one costs more than a draw).
"""

import builtins
from functools import lru_cache, wraps
from math import prod

from hypothesis import assume
from hypothesis import strategies as st
from layoutcheck.fuzz.strategies.choices import BOOL_CHOICE, draw_bool, draw_int, draw_ints  # noqa: F401  (one choice each; re-exported)

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["integers", "profiles", "nested_tuples", "shapes", "layouts", "flat_layouts",
           "composable_pairs", "composable_triples", "tilers", "divide_args", "product_args",
           "complement_args", "inverse_args", "coordinates_of", "atoms"]

_SMALL_SHAPES = (2, 1, 4, 3, 8, 6, 16, 5)


def _memoised(factory):
    """The factory with its strategies memoised by (hashable) arguments, types included
    (``static=True`` and ``static=1`` are different keys)."""
    cache = {}

    @wraps(factory)
    def make(*args, **kw):
        key = (tuple((type(a), a) for a in args),
               tuple(builtins.sorted((k, type(v), v) for k, v in kw.items())))
        try:
            return cache[key]
        except KeyError:
            pass
        except TypeError:  # an argument that is not hashable: not memoised
            return factory(*args, **kw)
        if len(cache) > 4096:
            cache.clear()
        cache[key] = s = factory(*args, **kw)
        return s
    return make


# --- one choice each ---------------------------------------------------------------------

def pick(draw, values):
    """One of ``values`` (a sequence): one choice, shrinking toward the first."""
    return values[draw_int(draw, 0, len(values) - 1)]


@lru_cache(maxsize=4096)
def _shape_table(lo, hi):
    """Leaf shapes in [lo, hi] for one choice: the small / power-of-two values first (so
    shrinking goes to the smallest of them), repeated until they are about half of the
    table, then every other value (half of the draws: a small value, half: anything)."""
    small = builtins.sorted({x for x in _SMALL_SHAPES if lo <= x <= hi} or {lo})
    rest = [v for v in range(lo, max(lo, hi) + 1) if v not in small]
    return tuple(small * max(1, -(-len(rest) // len(small))) + rest)


def _shape_value(draw, lo, hi):
    return pick(draw, _shape_table(lo, hi))


def _static_flags(draw, n, static):
    """n staticness flags: one bit mask (shrinks toward all dynamic), or all ``static``."""
    if static is not None:
        return [static] * n
    mask = draw_int(draw, 0, (1 << n) - 1)
    return [bool(mask >> i & 1) for i in range(n)]


def as_int(value, is_static):
    return C(value) if is_static else int(value)


def integers(min_value=1, max_value=16, static=None):
    """One CuTe integer: dynamic ``int`` or static ``C`` (``static=None`` draws which).

    Small and power-of-two values come first, so shrinking goes to ``min_value``.
    """
    small = [v for v in _SMALL_SHAPES if min_value <= v <= max_value]
    values = st.one_of(st.sampled_from(builtins.sorted(small)), st.integers(min_value, max_value)) \
        if small else st.integers(min_value, max_value)
    flags = st.booleans() if static is None else st.just(static)
    return st.builds(as_int, values, flags)


# --- nesting ---------------------------------------------------------------------------

def _group(draw, items, max_rank, depth_left, empty, top=True):
    """Nest a flat list of leaves into a tuple tree of depth <= depth_left (top rank <=
    max_rank; an inner group's rank too where its depth allows a fold)."""
    out, rest = [], list(items)
    while rest:
        if depth_left > 1 and len(rest) > 1 and draw_int(draw, 0, 3) == 3:
            k = draw_int(draw, 2, len(rest))
            out.append(_group(draw, rest[:k], max_rank, depth_left - 1, empty, top=False))
            rest = rest[k:]
        else:
            out.append(rest.pop(0))
        if empty and draw_int(draw, 0, 7) == 7:
            out.append(())
    if len(out) > max_rank and (top or depth_left > 1):  # fold the tail into one nested mode
        tail = out[max_rank - 1:]
        if depth_left > 1 and max(map(_depth, tail)) > depth_left - 2:
            tail = [x for t in tail for x in leaves(t)]  # so that the fold's level fits
        out = out[:max_rank - 1] + [tuple(tail)]
    return tuple(out)


def _depth(t):
    """The nesting depth (spec/tuples.py ``depth``, without its checks: drawing is hot)."""
    return 1 + max(map(_depth, t), default=0) if isinstance(t, tuple) else 0


def _rebuild(template, flat):
    """A nested tuple shaped like ``template`` whose leaves are taken from ``flat`` in order."""
    it = iter(flat)

    def go(t):
        return tuple(go(x) for x in t) if isinstance(t, tuple) else next(it)
    return go(template)


def _nest(draw, flat, max_rank, max_depth, empty):
    if max_depth == 0:
        return flat[0] if len(flat) == 1 else tuple(flat)
    if len(flat) == 1 and draw_bool(draw):
        return flat[0]  # a bare leaf (``8:1``), as opposed to ``(8):(1)``
    return _group(draw, flat, max_rank, max_depth, empty)


@_memoised
@st.composite
def nested_tuples(draw, elements=None, max_leaves=6, max_rank=4, max_depth=2, empty=False,
                  min_leaves=1):
    """A nested tuple (Def 2.2.1) whose leaves come from ``elements`` (default: small ints).

    With ``max_depth=0`` a single leaf; the top level is a bare leaf or a tuple.
    """
    elements = integers() if elements is None else elements
    n = draw_int(draw, min_leaves, max_leaves)
    vals = [draw(elements) for _ in range(n)]
    if max_depth == 0 or (n == 1 and draw_bool(draw)):
        if n == 1:
            return vals[0]
        return tuple(vals)
    return _group(draw, vals, max_rank, max_depth, empty)


def profiles(max_leaves=6, max_rank=4, max_depth=2, empty=False):
    """A profile: a nested tuple whose leaves are ``'*'`` (seed 001)."""
    return nested_tuples(_STAR, max_leaves, max_rank, max_depth, empty, min_leaves=1)


_STAR = st.just("*")


# --- shapes and strides ------------------------------------------------------------------

def _flat_shape(draw, n_min, n_max, max_size, degenerate, static):
    """A flat list of leaf shapes with product <= max_size (leaves >= 2 unless degenerate)."""
    flags = _static_flags(draw, n_max, static)  # first, so that lowering n leaves it alone
    n = draw_int(draw, n_min, n_max)
    out, room, lo = [], max_size, 1 if degenerate else 2
    for k in range(n):
        if room < lo:
            break
        v = _shape_value(draw, lo, min(room, 64))
        room //= v
        out.append(as_int(v, flags[k]))
    if not out and n_min > 0:
        out.append(as_int(1 if degenerate else min(2, max_size), flags[0]))
    return out


@_memoised
@st.composite
def shapes(draw, max_leaves=5, max_rank=4, max_depth=2, max_size=256, degenerate=True,
           static=None, empty=False):
    """A shape: nested tuple of positive integers with size <= max_size."""
    flat = _flat_shape(draw, 1, max_leaves, max_size, degenerate, static)
    return _nest(draw, flat, max_rank, max_depth, empty)


def _stride_like(value, shape_leaf):
    """A stride leaf that is static exactly when its shape leaf is."""
    return as_int(value, isinstance(shape_leaf, C))


_STRIDE_KINDS = 6
_POWERS = (1, 2, 4, 8, 16)


def _general_strides(draw, flat_shape, max_stride, zero_strides):
    """Strides of every kind: compact prefix products, multiples, zeros, near-misses (+1).

    One choice per stride: u = kind + 6 * k, the six kinds equally likely and k the kind's
    own value, so that shrinking u goes to kind 0 (column-major), then to small values."""
    lo = 0 if zero_strides else 1
    width = max(1, max_stride - lo + 1)  # the arbitrary strides: lo .. max_stride
    out, pre = [], 1
    for s in flat_shape:
        u = draw_int(draw, 0, _STRIDE_KINDS * width - 1)
        kind, k = u % _STRIDE_KINDS, u // _STRIDE_KINDS
        if kind == 0:
            d = pre                                   # column-major
        elif kind == 1:
            d = lo + k                                # anything
        elif kind == 2:
            d = pre * (1 + k % 4)                     # a multiple: still divisible
        elif kind == 3:
            d = pre + 1                               # just fails divisibility
        elif kind == 4:
            d = 0 if zero_strides else 1              # broadcast
        else:
            d = _POWERS[k % len(_POWERS)]
        out.append(_stride_like(d, s))
        pre = pre * int(s)
    return out


def permutation(draw, n):
    """A permutation of range(n) (Fisher-Yates: n - 1 choices, shrinking to the identity)."""
    order = list(range(n))
    for i in range(n - 1):
        j = draw_int(draw, i, n - 1)
        order[i], order[j] = order[j], order[i]
    return order


def _ordered_strides(draw, flat_shape, kind, zero_strides):
    """Strides in a drawn order, each mode starting where the previous one ends (times a gap).

    kind: "compact" (gap 1: Prop 2.1.5.6), "complementable" (multiplicative gap: Def 2.1.6.11),
    "injective" (additive gap: d_{k+1} >= s_k d_k), "tractable" (complementable, plus zero
    strides allowed).  Size-1 modes get an arbitrary stride: they change nothing but stay awkward.
    """
    n = len(flat_shape)
    order = permutation(draw, n)
    strides = [0] * n
    cur = 1 if kind == "compact" else pick(draw, (1, 2, 3, 4))
    for k in order:
        s = int(flat_shape[k])
        if s == 1 and kind != "tractable":  # tractable sorts without squeezing (Def 2.1.8.1)
            strides[k] = pick(draw, (0, 1, cur, cur + 1, 7))
            continue
        if kind == "tractable" and zero_strides and draw_int(draw, 0, 4) == 0:
            strides[k] = 0
            continue
        strides[k] = cur
        if kind == "compact":
            cur = cur * s
        elif kind == "injective":
            cur = cur * s + pick(draw, (0, 0, 1, 2, 3))
        else:
            cur = cur * s * pick(draw, (1, 1, 2, 3, 4))
    return [_stride_like(d, s) for d, s in zip(strides, flat_shape)]


# --- layouts -------------------------------------------------------------------------------

def layouts(*, max_leaves=5, max_size=256, max_stride=64, degenerate=True, **kw):
    """A layout ``shape:stride`` with the requested properties (all constructive).

    max_leaves / max_rank / max_depth bound the flattening's length, the top-level rank and
    the nesting; max_size bounds size(L); max_stride bounds the freely drawn strides
    (constructed strides such as complementable gaps may exceed it).  degenerate allows
    size-1 modes, zero_strides allows stride 0, static is True/False/None (mixed), empty
    allows ``()`` modes (and the empty layout when min_leaves=0), flat gives a flat tuple.
    injective / compact / complementable / tractable (2.1.5, 2.1.6, 2.1.8) build strides
    that satisfy the property; sorted orders the flat modes (Def 2.1.3.23); coalesced gives
    CuTe's coalesced form (Def 2.1.4).  Bad bounds raise LayoutError.
    """
    _check_bounds(max_leaves, max_size, max_stride, degenerate)
    return _layouts(max_leaves=max_leaves, max_size=max_size, max_stride=max_stride,
                    degenerate=degenerate, **kw)


def _check_bounds(max_leaves, max_size, max_stride, degenerate):
    if max_leaves < 1:
        raise LayoutError(f"max_leaves must be at least 1, got {max_leaves}")
    if max_size < (1 if degenerate else 2):
        raise LayoutError(f"max_size must be at least {1 if degenerate else 2}"
                          f"{'' if degenerate else ' without degenerate modes'}, got {max_size}")
    if max_stride < 0:
        raise LayoutError(f"max_stride must be non-negative, got {max_stride}")


@_memoised
@st.composite
def _layouts(draw, **kw):
    return _layout(draw, **kw)


def _layout(draw, *, max_leaves=5, max_rank=4, max_depth=2, max_size=256, max_stride=64,
            degenerate=True, zero_strides=True, static=None, empty=False, flat=False,
            injective=False, compact=False, sorted=False, coalesced=False, tractable=False,
            complementable=False, min_leaves=1, cls=LayoutBase):
    """One layout drawn with ``draw`` (the body of ``layouts``; its bounds already checked)."""
    if coalesced:
        return _coalesced_layout(draw, max_leaves, max_size, max_stride, static, cls)
    if min_leaves == 0 and draw_int(draw, 0, 9) == 0:
        return cls((), ())
    fs = _flat_shape(draw, max(1, min_leaves), max_leaves, max_size, degenerate, static)
    kind = ("compact" if compact else "complementable" if complementable else
            "injective" if injective else "tractable" if tractable else None)
    if kind:
        fd = _ordered_strides(draw, fs, kind, zero_strides)
    else:
        fd = _general_strides(draw, fs, max_stride, zero_strides)
    if sorted:
        pairs = _sorted_modes(fs, fd)
        fs, fd = [p[0] for p in pairs], [p[1] for p in pairs]
    if flat:
        shape = fs[0] if len(fs) == 1 and draw_bool(draw) else tuple(fs)
    else:
        shape = _nest(draw, fs, max_rank, max_depth, empty)
    stride = _rebuild(shape, fd) if isinstance(shape, tuple) else fd[0]
    return cls(shape, stride)


def _sorted_modes(fs, fd):
    """Flat modes in the order of Def 2.1.3.23: by stride, then by shape."""
    return builtins.sorted(zip(fs, fd), key=lambda p: (int(p[1]), int(p[0])))


def flat_layouts(**kw):
    """Flat layouts (2.1.2): a flat tuple shape (or a single integer)."""
    return layouts(flat=True, **kw)


def _coalesced_layout(draw, max_leaves, max_size, max_stride, static, cls):
    """CuTe's coalesced form: ``_1:_0``, a single mode, or a flat tuple of modes with
    shape >= 2 where no neighbours merge (s_i d_i != d_{i+1}) and no stride-0... merges."""
    fs = _flat_shape(draw, 1, max_leaves, max_size, False, static)
    fs = [s for s in fs if int(s) > 1]
    if not fs:
        return cls(C(1), C(0))
    fd = []
    for i, s in enumerate(fs):
        d = draw_int(draw, 0, max_stride)
        if i and d == int(fs[i - 1]) * int(fd[-1]):
            d += 1
        fd.append(_stride_like(d, s))
    if len(fs) == 1:
        return cls(fs[0], fd[0])
    return cls(tuple(fs), tuple(fd))


def coordinates_of(L):
    """A coordinate in the domain of L, congruent to its shape (natural coordinate)."""
    def go(s):
        if isinstance(s, tuple):
            return st.tuples(*(go(x) for x in s))
        return st.integers(0, int(s) - 1)
    return go(L.shape)


# --- the shape's prime atoms: the building block of admissible second arguments ------------

@lru_cache(maxsize=1024)
def _primes(n):
    out, p = [], 2
    while n > 1 and p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    if n > 1:
        out.append(n)
    return tuple(out)


def atoms(shape):
    """The prime factors of the flat shape, in colex order, each with its stride in [0, size)."""
    out, pre = [], 1
    for s in leaves(shape):
        for p in _primes(int(s)):
            out.append((p, pre))
            pre *= p
    return out


def atom_runs(draw, shape, max_modes=4, cover=False):
    """Disjoint runs of consecutive atoms: each run is a mode (product of its atoms : first
    atom's stride), in a drawn order.  cover=True uses every atom (so the runs tile [0, size));
    else 1..max_modes of them."""
    at = atoms(shape)
    if not at:
        return []
    i, runs = 0, []
    while i < len(at):
        j = draw_int(draw, i + 1, len(at))
        runs.append((prod(p for p, _ in at[i:j]), at[i][1]))
        i = j
    order = permutation(draw, len(runs))
    if not cover:
        order = order[:draw_int(draw, 1, min(max_modes, len(runs)))]
    return [runs[k] for k in order]


def layout_of_modes(modes, draw, static, max_rank=3, max_depth=2):
    """A layout from a list of (shape, stride) modes, nested by a drawn grouping."""
    if not modes:
        return LayoutBase(C(1), C(0))
    is_static = draw_bool(draw) if static is None else static
    fs = [as_int(s, is_static) for s, _ in modes]
    fd = [as_int(d, is_static) for _, d in modes]
    shape = _nest(draw, fs, max_rank, max_depth, False)
    stride = _rebuild(shape, fd) if isinstance(shape, tuple) else fd[0]
    return LayoutBase(shape, stride)


def draw_layout(draw, kw):
    """``draw(layouts(**kw))`` without building a strategy (the bounds checked first)."""
    _check_bounds(kw.get("max_leaves", 5), kw.get("max_size", 256), kw.get("max_stride", 64),
                  kw.get("degenerate", True))
    return _layout(draw, **kw)


def _composable_pair(draw, sense="paper", max_size=256, static=None, near_miss=False, **kw):
    A = draw_layout(draw, dict(kw, max_size=max_size, static=static))
    modes = atom_runs(draw, A.shape)
    extra = draw_int(draw, 0, 3)
    if extra == 1:
        modes.append((pick(draw, (2, 3, 4)), 0))        # broadcast mode
    elif extra == 2:
        modes.insert(0, (1, pick(draw, (0, 1, 5))))     # size-1 mode, any stride
    elif extra == 3 and sense == "cute":
        modes.append((pick(draw, (2, 3)), prod(int(x) for x in leaves(A.shape))))
    if near_miss and modes:
        k = draw_int(draw, 0, len(modes) - 1)
        s, d = modes[k]
        modes[k] = (max(s, 2), d + 1)
    B = layout_of_modes([modes[i] for i in permutation(draw, len(modes))], draw, static)
    return A, B


@_memoised
@st.composite
def composable_pairs(draw, sense="paper", max_size=256, static=None, near_miss=False, **kw):
    """``(A, B)`` with ``composition(A, B, sense=sense)`` defined (CuTe names: result(i) =
    A(B(i))); the default sense is ``composition``'s own, the paper's.

    B's modes are runs of the prime atoms of A's shape (any order, repeats allowed, plus
    stride-0 and size-1 modes), so its image lies in [0, size A) and every mode is admissible:
    composable in the paper's sense (Def 2.3.7.1, 4) and in CuTe's.  sense="cute" may also
    run past A's domain along A's last mode (CuTe extends it; the paper forbids it).
    near_miss=True perturbs one stride by +1 so the pair *just* fails divisibility (then
    the pair may not compose: that is the point).
    """
    return _composable_pair(draw, sense, max_size, static, near_miss, **kw)


@_memoised
@st.composite
def composable_triples(draw, max_size=128, static=None):
    """``(A, B, C)`` with A∘B and (A∘B)∘C composable (for the associativity law)."""
    A, B = _composable_pair(draw, "paper", max_size, static)
    return A, B, layout_of_modes(atom_runs(draw, B.shape), draw, static)


def draw_tiler(draw, A, static=None, by_mode=None):
    rank = len(A.shape) if isinstance(A.shape, tuple) else 1
    if (by_mode or (by_mode is None and draw_int(draw, 0, 3) == 0)) and rank >= 1 \
            and isinstance(A.shape, tuple) and rank > 0:
        k = draw_int(draw, 1, rank)
        return tuple(draw_tiler(draw, LayoutBase(A.shape[i], A.stride[i]), static, by_mode=False)
                     for i in range(k))
    modes = atom_runs(draw, A.shape)
    if draw_int(draw, 0, 4) == 0 and modes:
        return int(modes[0][0]) if modes[0][1] == 1 else layout_of_modes(modes, draw, static)
    return layout_of_modes(modes, draw, static)


@st.composite
def tilers(draw, A, static=None, by_mode=None):
    """A tiler for ``logical_divide(A, T)``: a layout made of disjoint atom runs of A's shape
    (injective, complementable within size(A), admissible), an int ``n`` dividing size(A),
    or (by_mode) a tuple of such tilers, one per leading mode of A."""
    return draw_tiler(draw, A, static, by_mode)


@_memoised
@st.composite
def divide_args(draw, max_size=256, static=None, near_miss=False, **kw):
    """``(A, T)`` for logical_divide and the derived divides (zipped/tiled/flat)."""
    A = draw_layout(draw, dict(kw, max_size=max_size, static=static))
    T = draw_tiler(draw, A, static)
    if near_miss and isinstance(T, LayoutBase):
        fs, fd = leaves(T.shape), leaves(T.stride)
        T = LayoutBase(tuple(fs), tuple(int(d) + 1 for d in fd))
    return A, T


@_memoised
@st.composite
def product_args(draw, max_size=64, static=None, ints=True, valid=True, sense="paper"):
    """``(A, B)`` for logical_product: A complementable (so comp(A, size(A) cosize(B))
    exists, Def 2.3.9), B compact or injective and small, or an int n (meaning n:1).

    valid=True (default): only pairs that ``logical_product(A, B, sense=sense)`` accepts
    (the inner composition comp(A, size(A) cosize(B)) ∘ B must exist; judged by the spec,
    by impl where the spec refuses to enumerate).  valid=False also yields the pairs it
    rejects (about a quarter), for tests of the refusal."""
    A = _layout(draw, max_size=max_size, complementable=True, max_leaves=3, static=static,
                degenerate=draw_bool(draw))
    if ints and draw_int(draw, 0, 5) == 0:
        B = draw_int(draw, 1, 4)  # an int tiler n means n:1 (CuTe's Tile)
    else:
        B = _layout(draw, max_size=16, max_leaves=3, static=static, compact=draw_bool(draw),
                    injective=True)
    if valid:
        assume(_multiplies(A, B, sense))
    return A, B


def _multiplies(A, B, sense):

    for ref in (spec, impl):
        try:
            ref.logical_product(A, B, sense=sense)
            return True
        except LayoutError as e:
            if e.condition != ENUMERATION_CONDITION:
                return False
    return False


@_memoised
@st.composite
def complement_args(draw, max_size=256, static=None, valid=True, **kw):
    """``(L, N)`` for ``complement(L, N)``: L complementable (Def 2.1.6.11) and N a multiple of
    cosize(L), a value just above it, or 1.  valid=False draws any layout (often not
    complementable: the spec must refuse it)."""
    L = draw_layout(draw, dict(kw, max_size=max_size, static=static, complementable=valid))
    fs, fd = leaves(L.shape), leaves(L.stride)
    cos = 1 + sum((int(s) - 1) * int(d) for s, d in zip(fs, fd))
    how = draw_int(draw, 0, 4)
    if how == 0:
        N = cos
    elif how == 1:
        N = cos * draw_int(draw, 2, 4)
    elif how == 2:
        N = cos + 1
    elif how == 3:
        N = 1
    else:
        N = draw_int(draw, 1, 2 * cos + 2)
    return L, N


@_memoised
def inverse_args(max_size=256, static=None):
    """Layouts for right/left inverse: compact ones (true inverses exist) and injective ones."""
    return st.one_of(layouts(max_size=max_size, compact=True, static=static),
                     layouts(max_size=max_size, injective=True, static=static),
                     layouts(max_size=max_size, static=static))


from layoutcheck.spec.limits import ENUMERATION_CONDITION

from layoutcheck import impl, spec
