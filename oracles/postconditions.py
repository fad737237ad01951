"""What CuTe promises about each operation's result: the post-conditions, in one place.

``violation(op, inputs, answer)`` is None when ``answer`` (the neutral value an oracle
returned for ``op`` on ``inputs``) keeps every post-condition below, else one line naming
the first that breaks.  ``compare`` applies it wherever it would grade an answer at the
``function``, ``coalesced`` or ``property`` level (an answer with the right layout function
but a broken structure is no agreement).  Sources, per op:

* coalesce: ``cute/layout.hpp`` ``@post size(result) == size(layout)``, ``depth(result) <= 1``
  (CuTe docs, "Layout Algebra", Coalesce); minimal (paper Prop 2.1.4.x: the coalesced form
  has no size-1 mode and no mergeable neighbours s_i d_i = d_{i+1}).  With a target
  profile: the walk keeps the profile's top-level structure (rank(L) modes; modes under a
  leaf of the profile are coalesced, modes past its end are L's).
* filter: flat, no stride-0 or size-1 mode unless the result is ``1:0`` (CuTe's filter =
  coalesce after dropping them).
* complement(L, N): ``cute/layout.hpp`` ``@post size(result) >= N / size(filter(L))``,
  result(i-1) < result(i) and result(i) not in the image of L for i >= 1; flat (it is a
  coalesce); paper Def 2.1.6.
* composition(A, B): ``cute/layout.hpp`` ``@post compatible(B, result)`` (so size(result) ==
  size(B), and a rank-1 B cannot give a rank-0 ``()`` or integral result); with a Tile
  tuple, mode by mode (CuTe docs, "By-mode composition"): mode i is composition(A_i, T_i),
  ``_`` keeps A_i, the modes past the tiler are A's.
* logical_divide / logical_product with a layout (or int n = n:1) tiler T: the result has
  the two modes (tile, rest) of Def 2.3.8 / 2.3.9 (A ⊘ T = A ∘ (T, T*), A ⊗ T = (A, A* ∘ T)):
  the divide's tile mode is compatible with T, the product's mode 0 is A and its mode 1
  compatible with T.  A Tile tuple: mode by mode as composition.
* zipped / tiled / flat forms (CuTe docs, "Zipped, tiled, flat divides"): zipped is
  ((tiles), (rests)), tiled ((tiles), rest_0, ...), flat (tile_0, ..., rest_0, ...); with a
  Tile tuple of k entries: k tiles, the rests then A's untiled modes.
* blocked_product / raked_product: ``cute/layout.hpp`` ``@post rank(result) == max(rank(A),
  rank(B))``.
* right_inverse / left_inverse: flat (CuTe builds them by coalesce).
* The ops beyond the algebra (coordinates, slicing, IntTuples) are graded by structure, which is
  stronger than any post-condition, so none is listed here.
"""

from layoutcheck import impl, spec
from layoutcheck.layout import LayoutBase, Underscore, leaves, size
from layoutcheck.notation import format_tuple

__all__ = ["violation", "compatible_shapes", "POSTCONDITIONS"]


def _rank(L):
    return len(L.shape) if isinstance(L.shape, tuple) else 1


def _depth(s):
    return 1 + max((_depth(x) for x in s), default=0) if isinstance(s, tuple) else 0


def _modes(L):
    if not isinstance(L.shape, tuple):
        return [L]
    return [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]


def _as_layout(t):
    return LayoutBase(t, 1) if isinstance(t, int) else t


def compatible_shapes(a, b):
    """CuTe's ``compatible(a, b)`` (``cute/int_tuple.hpp``): sizes equal and every
    coordinate of a is one of b (tuples of equal rank mode by mode; a leaf a matches any
    sub-tree of b of its size; a tuple a never matches a leaf b)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(compatible_shapes(x, y) for x, y in zip(a, b))
    if isinstance(a, tuple):
        return False
    return int(a) == size(b)


def _values(L):
    return impl.values(L).tolist()


def _flat_minimal(R, what):
    if _depth(R.shape) > 1:
        return f"{what} {R} is nested (depth {_depth(R.shape)} > 1)"
    s, d = [int(x) for x in leaves(R.shape)], [int(x) for x in leaves(R.stride)]
    if len(s) > 1 and 1 in s:
        return f"{what} {R} keeps a size-1 mode"
    if any(s[i] * d[i] == d[i + 1] for i in range(len(s) - 1)):
        return f"{what} {R} has mergeable neighbour modes (s_i d_i == d_i+1)"
    return None


# --- per op --------------------------------------------------------------------------------

def _coalesce(inputs, R):
    L = inputs[0]
    if size(R.shape) != size(L.shape):
        return f"size {size(R.shape)} != size(L) = {size(L.shape)}"
    profile = inputs[1] if len(inputs) > 1 else None
    if not isinstance(profile, tuple):
        return _flat_minimal(R, "coalesce result")
    return _walk(_coalesce_mode, L, profile, R, "coalesce")


def _coalesce_mode(m, r):
    return _flat_minimal(r, "coalesced mode") if size(r.shape) == size(m.shape) else \
        f"a coalesced mode {r} has not the size of {m}"


def _filter(inputs, R):
    profile = inputs[1] if len(inputs) > 1 else None
    if isinstance(profile, tuple):
        return _walk(lambda m, r: _filtered(r), inputs[0], profile, R, "filter")
    return _filtered(R)


def _filtered(R):
    bad = _flat_minimal(R, "filter result")
    if bad:
        return bad
    if any(int(d) == 0 and int(s) > 1 for s, d in zip(leaves(R.shape), leaves(R.stride))):
        return f"filter result {R} keeps a stride-0 mode"
    return None


def _walk(check_mode, L, profile, R, what):
    """The target-profile walk of coalesce / filter: rank(L) modes, modes under a leaf of
    the profile checked by ``check_mode``, modes past its end unchanged (CuTe's
    transform_layout)."""
    lm, rm = _modes(L), _modes(R)
    if len(rm) != len(lm) or not isinstance(R.shape, tuple):
        return f"{what} with profile {profile} gave {R}: not the {len(lm)} top-level modes of L"
    for i, (m, r) in enumerate(zip(lm, rm)):
        if i >= len(profile):
            if r != m:
                return f"mode {i} is past the profile but changed: {m} -> {r}"
        elif isinstance(profile[i], tuple):
            bad = _walk(check_mode, m, profile[i], r, what)
            if bad:
                return f"mode {i}: {bad}"
        else:
            bad = check_mode(m, r)
            if bad:
                return f"mode {i}: {bad}"
    return None


def _complement(inputs, R):
    L, N = inputs[0], (inputs[1] if len(inputs) > 1 else None)
    if _depth(R.shape) > 1:
        return f"complement {R} is nested"
    rv = _values(R)
    if any(rv[i - 1] >= rv[i] for i in range(1, len(rv))):
        return f"complement {R} is not ordered (result(i-1) < result(i) fails)"
    image = set(_values(L))
    if any(v in image for v in rv[1:]):
        return f"complement {R} meets the image of L"
    kept = size(tuple(s for s, d in zip(leaves(L.shape), leaves(L.stride)) if int(d) != 0 and int(s) != 1))
    target = int(N) if N is not None else max(_values(L)) + 1
    if len(rv) * kept < target:
        return f"size {len(rv)} < N / size(filter(L)) = {target} / {kept}"
    return None


def _composition(inputs, R):
    A, T = inputs[0], inputs[1]
    return _compose_like(A, T, R, "composition", _compose_leaf)


def _compose_leaf(A, B, R):
    if not compatible_shapes(B.shape, R.shape):
        return f"shape {_fmt(R.shape)} is not compatible with B's shape {_fmt(B.shape)}"
    return None


def _compose_like(A, T, R, what, leaf_check):
    """Tile tuples go mode by mode (``_`` keeps the mode, modes past the tiler are A's);
    a layout or int tiler is checked by ``leaf_check(A, layout, R)``."""
    if isinstance(T, Underscore) or T is None:
        return None if R == A else f"{what} with _ changed {A} into {R}"
    if not isinstance(T, tuple):
        return leaf_check(A, _as_layout(T), R)
    am, rm = _modes(A), _modes(R)
    if not isinstance(R.shape, tuple) or len(rm) != len(am):
        return f"{what} with a Tile of {len(T)} modes gave {R}: not the {len(am)} modes of A"
    for i, (a, r) in enumerate(zip(am, rm)):
        bad = _compose_like(a, T[i], r, what, leaf_check) if i < len(T) else (
            None if r == a else f"mode {i} is past the tiler but changed: {a} -> {r}")
        if bad:
            return f"mode {i}: {bad}"
    return None


def _two_modes(R, what):
    if not isinstance(R.shape, tuple) or len(R.shape) != 2:
        return f"{what} {R} is not a rank-2 (tile, rest) layout"
    return None


def _divide_leaf(A, B, R):
    return _two_modes(R, "logical_divide") or (
        None if compatible_shapes(B.shape, R.shape[0]) else
        f"tile mode {_fmt(R.shape[0])} is not compatible with the tiler's shape {_fmt(B.shape)}")


def _product_leaf(A, B, R):
    bad = _two_modes(R, "logical_product")
    if bad:
        return bad
    m0, m1 = _modes(R)
    if m0 != A:
        return f"mode 0 of the product is {m0}, not A = {A}"
    if not compatible_shapes(B.shape, m1.shape):
        return f"mode 1 {_fmt(m1.shape)} is not compatible with the tiler's shape {_fmt(B.shape)}"
    return None


def _logical(leaf):
    def check(inputs, R):
        return _compose_like(inputs[0], inputs[1], R, "the by-mode op", leaf)
    return check


def _gathered(form, leaf):
    """zipped / tiled / flat forms.  A layout tiler: zipped is the logical form itself
    (``leaf``), tiled keeps it as mode 0 (the divide's tile compatible with T, the product's
    A); a Tile tuple of k entries on A of rank r: k tiles and r rests (one per tiled mode,
    then A's untiled modes)."""
    def check(inputs, R):
        A, T = inputs[0], inputs[1]
        if not isinstance(R.shape, tuple):
            return f"{form} result {R} is not a tuple of modes"
        if not isinstance(T, tuple):
            if form == "zipped":
                return leaf(A, _as_layout(T), R)
            if form == "tiled" and leaf is _divide_leaf and not compatible_shapes(
                    _as_layout(T).shape, R.shape[0]):
                return f"tile mode {_fmt(R.shape[0])} is not compatible with the tiler's shape"
            if form == "tiled" and leaf is _product_leaf and _modes(R)[0] != A:
                return f"mode 0 of the tiled product is {_modes(R)[0]}, not A = {A}"
            return None
        k, r = len(T), _rank(A)
        if form == "zipped":
            got = tuple(_rank(m) for m in _modes(R))
            return None if got == (k, r) else f"zipped result has {got} (tiles, rests) modes, not {(k, r)}"
        if form == "tiled":
            ok = _rank(_modes(R)[0]) == k and len(R.shape) == 1 + r
            return None if ok else f"tiled result {R}: want (({k} tiles), {r} rests)"
        return None if len(R.shape) == k + r else f"flat result {R}: want {k} tiles and {r} rests"
    return check


def _rank_max(inputs, R):
    A, B = inputs[0], inputs[1]
    want = max(_rank(A), _rank(B))
    return None if _rank(R) == want else f"rank {_rank(R)} != max(rank A, rank B) = {want}"


def _flat(inputs, R):
    return None if _depth(R.shape) <= 1 else f"{R} is nested (CuTe's inverses are coalesced)"


def _fmt(s):
    return format_tuple(s)


POSTCONDITIONS = {
    "coalesce": _coalesce, "filter": _filter, "complement": _complement,
    "composition": _composition,
    "logical_divide": _logical(_divide_leaf), "logical_product": _logical(_product_leaf),
    "zipped_divide": _gathered("zipped", _divide_leaf),
    "tiled_divide": _gathered("tiled", _divide_leaf),
    "flat_divide": _gathered("flat", _divide_leaf),
    "zipped_product": _gathered("zipped", _product_leaf),
    "tiled_product": _gathered("tiled", _product_leaf),
    "blocked_product": _rank_max, "raked_product": _rank_max,
    "right_inverse": _flat, "left_inverse": _flat,
}


def violation(op, inputs, answer):
    """None, or the first post-condition of ``op`` that ``answer`` breaks (one line)."""
    check = POSTCONDITIONS.get(op)
    if check is None or not isinstance(answer, LayoutBase) or not inputs:
        return None
    return check(tuple(inputs), answer)


def evaluate(L, x):
    """L at any index x >= 0 as CuTe evaluates an integer: flat modes first-fastest, the last
    mode taking what is left (so past size(L) its last mode extends)."""
    shapes, strides = [int(s) for s in leaves(L.shape)], [int(d) for d in leaves(L.stride)]
    total = 0
    for k, (s, d) in enumerate(zip(shapes, strides)):
        if k == len(shapes) - 1:
            return total + x * d
        total += (x % s) * d
        x //= s
    return total


def is_quasi_inverse(L, R):
    """CuTe's documented left_inverse post-condition (layout.hpp: 'the quasi-inverse of a
    layout (left-inverse when layout is injective)'): L(R(L(i))) == L(i) for i < size(L)."""
    return all(evaluate(L, evaluate(R, evaluate(L, i))) == evaluate(L, i) for i in range(size(L)))


def is_left_inverse(L, R):
    return all(evaluate(R, evaluate(L, i)) == i for i in range(size(L)))


def is_weak_complement(L, R, N=None):
    """CuTe's documented complement post-condition (layout.hpp, Complement: size(R) >=
    cotarget / size(filter(L)); R(i) increasing; R(i) != L(j) for i >= 1): what CuTe
    promises without requiring L to be complementable."""
    f = spec.filter(L)
    N = spec.cosize(f) if N is None else int(N)
    nR = size(R)
    rv = [evaluate(R, i) for i in range(nR)]
    image = {evaluate(L, j) for j in range(size(L))}
    return (nR * size(f) >= N and all(a < b for a, b in zip(rv, rv[1:]))
            and not any(v in image for v in rv[1:]))
