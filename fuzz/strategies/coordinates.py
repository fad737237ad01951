"""Hypothesis strategies for the ops beyond the algebra: coordinates, slices,
IntTuple helpers, profiles and tilers holding ``_``.

Every strategy returns an argument tuple in the neutral form of ``OPS`` (``oracles/protocol.py``):
coordinates are nested tuples of ints with ``_`` (``layoutcheck.layout._``), IntTuples
nested tuples of ints.  Coordinates are drawn against a shape, at every node either the
node's integer index (an int into a tuple mode is its colexicographic index, Def 2.1.2.18),
or, for a tuple node, one entry per sub-mode: natural (congruent), partly integral
(hierarchical) and plain integer coordinates all occur.  Out-of-domain integers are drawn
only where CuTe defines them (``crd2idx`` / ``L(c)``: an integer coordinate runs along the
last mode).  Re-exported by ``layoutcheck.fuzz.strategies.algebra``.
"""

from math import prod

import layoutcheck.fuzz.strategies.algebra as S
import layoutcheck.fuzz.strategies.kernels as K
from hypothesis import strategies as st

from layoutcheck.layout import _, leaves, size

__all__ = ["coordinate_for", "misfit", "eval_coord_args", "get_mode_args", "crd2idx_args", "idx2crd_args",
           "crd2crd_args", "slice_args", "layout_left_args", "shape_div_args",
           "prefix_product_args", "inttuple_args", "inner_product_args", "elem_scale_args",
           "shape_pair_args", "profile_args", "underscore_tiler_args", "int_tuples"]

_SMALL = st.integers(1, 6)


@st.composite
def coordinate_for(draw, shape, underscore=False, need_underscore=False, beyond=False):
    """A coordinate of ``shape``: at each tuple node either an integer (that mode's colex
    index) or a tuple with one entry per sub-mode; ``underscore`` lets any node be ``_``;
    ``need_underscore`` guarantees one; ``beyond`` may push the top-level integer (or the
    last mode's) past the domain, which CuTe's crd2idx extends along the last mode."""
    def go(s, top):
        kinds = ["int", "tuple", "tuple"] if isinstance(s, tuple) else ["int"]
        if underscore and (not top or draw(st.integers(0, 7)) == 0):  # a bare _ is rare
            kinds += ["_"] * (len(kinds) if not top else 8)
        kind = draw(st.sampled_from(kinds))
        if kind == "_":
            return _
        if kind == "tuple":
            return tuple(go(x, False) for x in s)
        hi = size(s) - 1
        if beyond and top and draw(st.integers(0, 3)) == 0:
            return draw(st.integers(hi + 1, 2 * hi + 3))
        return draw(st.integers(0, hi))

    c = go(shape, True)
    if need_underscore and not _holds(c):
        c = _plant(draw, c, shape)
    return c


@st.composite
def misfit(draw, c, shape):
    """``c`` made a coordinate of the wrong rank for ``shape`` at one node: a tuple entry
    added or dropped where the shape has a tuple, or a tuple where it has an integer.  CuTe
    refuses every such coordinate ("Mismatched Ranks"): a check expects a refusal."""
    nodes = []  # (path, shape node, coordinate node)

    def walk(cn, sn, path):
        nodes.append((path, sn, cn))
        if isinstance(cn, tuple) and isinstance(sn, tuple) and len(cn) == len(sn):
            for k, (x, y) in enumerate(zip(cn, sn)):
                walk(x, y, path + (k,))
    walk(c, shape, ())
    path, sn, cn = nodes[draw(st.integers(0, len(nodes) - 1))]
    if not isinstance(sn, tuple):
        bad = (0, 0)
    elif isinstance(cn, tuple) and len(cn) > 1 and draw(st.booleans()):
        bad = cn[:-1]
    else:
        bad = (cn if isinstance(cn, tuple) else tuple(0 for _s in sn)) + (0,)

    def put(x, p):
        if not p:
            return bad
        return tuple(put(e, p[1:]) if i == p[0] else e for i, e in enumerate(x))
    return put(c, path)


def _holds(c):
    return c is _ or (isinstance(c, tuple) and any(map(_holds, c)))


def _plant(draw, c, shape, top=True):
    """Replace one node of c by ``_`` (descending through tuple nodes; the whole c rarely)."""
    if not isinstance(c, tuple) and isinstance(shape, tuple) and top:
        c = tuple(0 for _s in shape)  # an integer for a tuple shape: open it up first
    if not isinstance(c, tuple) or (not top and draw(st.booleans())):
        return _
    k = draw(st.integers(0, len(c) - 1))
    return c[:k] + (_plant(draw, c[k], shape[k], False),) + c[k + 1:]


def small_layouts(max_size=64):
    return S.layouts(max_size=max_size, max_leaves=4)


def _sometimes_misfit(draw, c, shape):
    """c, or one time in ten a coordinate of the wrong rank (``misfit``)."""
    return draw(misfit(c, shape)) if draw(st.integers(0, 9)) == 0 else c


@st.composite
def eval_coord_args(draw):
    """(L, c): L(c) at a natural, hierarchical or integer coordinate, sometimes past the end
    (an integer coordinate runs along the last mode), sometimes of the wrong rank (refused);
    a quarter of the layouts of rank 3 or 4 (an integer coordinate split over 3+ modes)."""
    L = draw(small_layouts()) if draw(st.integers(0, 3)) else draw(K.kernel_layouts())
    return L, _sometimes_misfit(draw, draw(coordinate_for(L.shape, beyond=True)), L.shape)


@st.composite
def get_mode_args(draw):
    """(L, i), i in [0, rank] (rank itself does not exist: both must refuse)."""
    L = draw(small_layouts())
    r = len(L.shape) if isinstance(L.shape, tuple) else 1
    return L, draw(st.integers(0, r))


@st.composite
def crd2idx_args(draw):
    """(c, shape) or (c, shape, stride): c may hold ``_`` (it counts as 0) and run past the
    end; the stride is LayoutLeft's when absent, else any congruent stride."""
    L = draw(small_layouts()) if draw(st.integers(0, 3)) else draw(K.kernel_layouts())
    c = draw(coordinate_for(L.shape, underscore=draw(st.booleans()), beyond=True))
    c = _sometimes_misfit(draw, c, L.shape)
    if draw(st.booleans()):
        return c, L.shape
    return c, L.shape, L.stride


@st.composite
def idx2crd_args(draw):
    """(i, shape) with i in [0, size); or (i, shape, stride) with positive strides (compact
    strides, LayoutRight-like or arbitrary) and any i >= 0."""
    shape = draw(S.shapes(max_size=64, max_leaves=4))
    n = size(shape)
    if draw(st.booleans()):
        return draw(st.integers(0, n - 1)), shape
    how = draw(st.integers(0, 2))
    flat = [int(x) for x in leaves(shape)]
    if how == 0:
        strides, p = [], 1
        for s in flat:
            strides.append(p)
            p *= s
    elif how == 1:
        strides, p = [0] * len(flat), 1
        for k in reversed(range(len(flat))):
            strides[k], p = p, p * flat[k]
    else:
        strides = [draw(st.integers(1, 12)) for _ in flat]
    return draw(st.integers(0, 2 * n)), shape, _rebuild(shape, strides)


def _rebuild(template, flat):
    it = iter(flat)

    def go(t):
        return tuple(go(x) for x in t) if isinstance(t, tuple) else next(it)
    return go(template)


@st.composite
def _regroup(draw, shape, top=True):
    """A shape of the same size as ``shape``, mode by mode: below the top a tuple mode is
    often collapsed to its size (an int), a leaf sometimes split in two; at the top level
    the whole shape is sometimes one int or two factors."""
    n = size(shape)
    if isinstance(shape, tuple) and (not top or draw(st.integers(0, 2))):
        if not top and draw(st.booleans()):
            return n
        return tuple(draw(_regroup(s, False)) for s in shape)
    f = next((d for d in range(2, n + 1) if n % d == 0), n)
    if n == 1 or f == n or draw(st.booleans()):
        return n
    return (f, n // f)


@st.composite
def crd2crd_args(draw):
    """(c, dst) with an integer c < size(dst); or (c, dst, src): c a coordinate of src (any
    mixture of integer and tuple entries), dst a regrouping of src of the same sizes."""
    src = draw(S.shapes(max_size=64, max_leaves=4))
    dst = draw(_regroup(src))
    if draw(st.integers(0, 3)) == 0:
        return draw(st.integers(0, size(dst) - 1)), dst
    return draw(coordinate_for(src)), dst, src


@st.composite
def slice_args(draw, need_underscore=True):
    """(L, c): a coordinate of L's domain with ``_`` at any depth (always one when
    ``need_underscore``: slice_ without a ``_`` is the coordinate function)."""
    L = draw(small_layouts())
    c = draw(coordinate_for(L.shape, underscore=True, need_underscore=need_underscore))
    return L, _sometimes_misfit(draw, c, L.shape)


def layout_left_args():
    return st.tuples(S.shapes(max_size=256))


def int_tuples(max_leaves=5, elements=_SMALL, max_depth=2):
    """IntTuples: an int or a nested tuple of ints (the empty tuple too), nested up to
    ``max_depth`` levels."""
    return st.one_of(S.nested_tuples(elements, max_leaves=max_leaves, max_depth=max_depth),
                     st.just(()))


def inttuple_args():
    """(a,) for product / flatten, nested up to 3 levels (a flatten that goes one level only
    shows from depth 3 on)."""
    return st.tuples(int_tuples(max_depth=3))


@st.composite
def shape_div_args(draw):
    """(a, b): b a tuple congruent to a, an int built from a's leading products or their
    divisors (CuTe's weak divisibility holds), or any small int (may fail it)."""
    a = draw(S.shapes(max_size=256, max_leaves=4))
    how = draw(st.integers(0, 3))
    if how == 0 and isinstance(a, tuple):
        return a, tuple(draw(st.sampled_from(_divisors(size(x)) + [size(x) * 2])) for x in a)
    flat = [int(x) for x in leaves(a)]
    if how <= 1:
        k = draw(st.integers(0, len(flat)))
        head = prod(flat[:k])
        return a, head * draw(st.sampled_from(_divisors(flat[k]) if k < len(flat) else [1, 2]))
    return a, draw(st.integers(1, 12))


def _divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


@st.composite
def prefix_product_args(draw):
    """(a,), (a, init) with an int init, or (a, init) with a tuple init of a's top rank."""
    a = draw(S.shapes(max_size=256, max_leaves=4))
    how = draw(st.integers(0, 5))
    if how <= 1:
        return (a,)
    if how == 5:  # an integer with a tuple init: refused (pycute asserts, CuTe static_asserts)
        return draw(st.integers(1, 8)), tuple(draw(st.integers(1, 8)) for _ in range(2))
    if how == 2 or not isinstance(a, tuple):
        return a, draw(st.integers(1, 8))
    return a, tuple(draw(st.integers(1, 8)) for _ in a)


@st.composite
def inner_product_args(draw):
    """(a, b) congruent (the op's precondition) most of the time; else b of a's rank with
    the nesting dropped, one entry short, or an int against a tuple (all refused)."""
    a = draw(int_tuples())
    b = _rebuild(a, [draw(st.integers(0, 9)) for _ in leaves(a)]) if a != () else ()
    how = draw(st.integers(0, 9))
    if how == 0 and isinstance(a, tuple) and a:
        b = tuple(size(x) for x in b)  # same rank, nesting dropped
    elif how == 1 and isinstance(a, tuple) and len(a) > 1:
        b = b[:-1]
    elif how == 2:
        a, b = draw(st.integers(0, 9)), tuple(draw(st.lists(_SMALL, min_size=1, max_size=3)))
    return (a, b) if draw(st.integers(0, 3)) else (b, a)


@st.composite
def elem_scale_args(draw):
    """(a, b): b of a's top-level rank with any nesting below, or an IntTuple for an int a."""
    a = draw(int_tuples(max_leaves=4))
    if isinstance(a, tuple) and draw(st.integers(0, 4)):
        return a, tuple(draw(int_tuples(max_leaves=2)) for _ in a)
    return a, draw(int_tuples(max_leaves=3))


@st.composite
def shape_pair_args(draw):
    """(a, b) for congruent / compatible: b a regrouping of a (compatible one way), a copy
    with other values (congruent), or an unrelated IntTuple."""
    a = draw(S.shapes(max_size=64, max_leaves=4))
    how = draw(st.integers(0, 3))
    if how == 0:
        b = draw(_refine(a))
    elif how == 1:
        b = _rebuild(a, [draw(_SMALL) for _ in leaves(a)])
    elif how == 2:
        b = draw(_regroup(a))
    else:
        b = draw(int_tuples())
    return (b, a) if draw(st.booleans()) else (a, b)


@st.composite
def _refine(draw, shape):
    """A shape whose leaves split shape's leaves (so compatible(shape, result) holds)."""
    if isinstance(shape, tuple):
        return tuple(draw(_refine(s)) for s in shape)
    n = int(shape)
    f = next((d for d in range(2, n) if n % d == 0), None)
    if f is None or draw(st.booleans()):
        return n
    return (f, n // f)


@st.composite
def profile_args(draw):
    """(L, profile) for coalesce / filter by mode: a profile following a prefix of L's mode
    tree (a leaf coalesces the whole mode), sometimes one mode too many (both refuse)."""
    L = S.draw_layout(draw, dict(max_size=128, max_leaves=5, max_depth=3))  # no own span

    def walk(s, depth):
        if not isinstance(s, tuple) or depth == 0 or S.draw_int(draw, 0, 3) == 0:
            return 1
        k = S.draw_int(draw, 0, len(s)) if S.draw_bool(draw) else len(s)
        return tuple(walk(s[i], depth - 1) for i in range(k))

    rank = len(L.shape) if isinstance(L.shape, tuple) else 1
    p = walk(L.shape, 3)
    if not isinstance(p, tuple) and S.draw_bool(draw):
        p = (1,) * rank
    if S.draw_int(draw, 0, 9) == 0:
        p = (1,) * (rank + 1)
    return L, p


@st.composite
def underscore_tiler_args(draw, product=False):
    """(A, T) with a Tile tuple holding ``_`` ("leave this mode alone") at any position and
    depth, for every divide, product and composition with a Tile: T is built mode by mode
    (``strategies.tilers(A, by_mode=True)``: each entry admissible for its mode; for products
    A complementable) and some entries, always at least one, are replaced by ``_``.  One case
    in six has one or two entries past A's modes (a Tile written for a layout of higher rank,
    ``_`` or an int): CuTe refuses it ("Too many modes in tiler")."""
    A = S.draw_layout(draw, dict(max_size=64, max_leaves=4, complementable=product,
                                  degenerate=S.draw_bool(draw)))
    too_many = S.draw_int(draw, 0, 5) == 0
    extra = tuple(S.pick(draw, (_, 2, 1)) for _k in range(S.draw_int(draw, 1, 2))) if too_many else ()
    if not isinstance(A.shape, tuple):
        return A, (_,) + extra
    T = S.draw_tiler(draw, A, None, by_mode=True)  # tilers(A, by_mode=True) without a new strategy

    def put(t):
        if isinstance(t, tuple):
            return tuple(put(x) for x in t)
        return _ if S.draw_int(draw, 0, 2) == 0 else t

    T = put(T)
    if len(T) < len(A.shape) and S.draw_bool(draw):
        T = T + (_,)
    if not any(x is _ for x in leaves(T)):
        k = S.draw_int(draw, 0, len(T) - 1)
        T = T[:k] + (_,) + T[k + 1:]
    if too_many:
        T = T + (_,) * (len(A.shape) - len(T)) + extra
    return A, T
