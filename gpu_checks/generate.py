"""Deterministic layout generators for the GPU checks, and the shrinker for mismatches.

Seeded ``random.Random`` streams (no hypothesis here): the same seed gives the same layouts,
hence the same kernel sources and the same cache entries on every machine.  Static leaves
are ``layoutcheck.integers.C`` (CuTe ``Int<N>``), the others plain ``int``.
"""

from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves, size

__all__ = ["random_layout", "injective_layout", "composable_pair", "divisible_pair", "copy_pair",
           "shrink", "flat_layout"]


def _mark(rng, values, static_p):
    return [C(v) if rng.random() < static_p else int(v) for v in values]


def _nest(rng, shape, stride, nest_p):
    """Group consecutive modes into sub-tuples at random (a nested layout with the same
    flattening, hence the same layout function; paper 2.3)."""
    if len(shape) == 1:
        if rng.random() < 0.5:
            return shape[0], stride[0]
        return tuple(shape), tuple(stride)
    out_s, out_d, i = [], [], 0
    while i < len(shape):
        j = i + 1
        if rng.random() < nest_p and i + 1 < len(shape):
            j = rng.randint(i + 2, len(shape))
        if j - i == 1:
            out_s.append(shape[i])
            out_d.append(stride[i])
        else:
            out_s.append(tuple(shape[i:j]))
            out_d.append(tuple(stride[i:j]))
        i = j
    return tuple(out_s), tuple(out_d)


def flat_layout(shape, stride):
    """A flat layout: a leaf ``s:d`` for one mode, else the tuple of modes."""
    if len(shape) == 1:
        return LayoutBase(shape[0], stride[0])
    return LayoutBase(tuple(shape), tuple(stride))


def _random_shape(rng, max_rank, max_extent, max_size):
    """Flat extents 1..max_extent, rank 1..max_rank; an extent that would push the size past
    max_size becomes 1."""
    shape = []
    for _ in range(rng.randint(1, max_rank)):
        s = rng.randint(1, max_extent)
        shape.append(1 if size(tuple(shape)) * s > max_size else s)
    return shape


def random_layout(rng, *, max_rank=4, max_extent=8, max_size=512, static_p=0.4, nest_p=0.3):
    """Any layout: extents 1..max_extent, strides from 0 to past the size (aliasing, gaps
    and zero strides included), flattened rank <= max_rank, size <= max_size."""
    shape = _random_shape(rng, max_rank, max_extent, max_size)
    extent = size(tuple(shape))
    stride, prefix = [], 1
    for s in shape:
        kind = rng.random()
        if kind < 0.35:
            stride.append(prefix)  # column-major piece
        elif kind < 0.5:
            stride.append(0)
        else:
            stride.append(rng.randint(1, 2 * extent + 1))
        prefix *= s
    shape, stride = _mark(rng, shape, static_p), _mark(rng, stride, static_p)
    return LayoutBase(*_nest(rng, shape, stride, nest_p))


def injective_layout(rng, *, max_rank=4, max_extent=8, max_size=512, static_p=0.4, gap_p=0.3):
    """An injective layout: the modes of a column-major layout in a random order, with
    optional gaps (strides scaled by 2), so scatters and copies into it do not race."""
    shape = _random_shape(rng, max_rank, max_extent, max_size)
    rank = len(shape)
    order = list(range(rank))
    rng.shuffle(order)
    stride, prefix = [0] * rank, 1
    for m in order:
        stride[m] = prefix
        prefix *= shape[m] * (2 if rng.random() < gap_p else 1)
    return LayoutBase(*_nest(rng, _mark(rng, shape, static_p), _mark(rng, stride, static_p), 0.3))


def _divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def _refined(rng, shape):
    """Split each extent a into two factors (f, a/f): a refinement of the shape."""
    out = []
    for a in shape:
        f = rng.choice(_divisors(a))
        out += [f, a // f]
    return out


def _run(rng, refined):
    """(s, d): d the product of a prefix of ``refined``, s the product of the next run."""
    k = rng.randint(0, len(refined) - 1)
    j = rng.randint(k + 1, len(refined))
    return size(refined[k:j]), size(refined[:k])


def _disjoint_runs(rng, refined, count):
    """``count`` modes (s, d) over disjoint runs of ``refined`` in a random order: B's
    modes then address disjoint digits of A's coordinates, so no carries cross between
    them and A o B is CuTe's mode-by-mode composition."""
    cuts = sorted(rng.sample(range(len(refined) + 1), min(2 * count, len(refined) + 1)))
    modes = [(size(refined[a:b]), size(refined[:a])) for a, b in zip(cuts[::2], cuts[1::2])]
    rng.shuffle(modes)
    return modes or [_run(rng, refined)]


def composable_pair(rng, *, max_rank=3, max_extent=8, max_size=256, static_p=0.5):
    """(A, B) with composition(A, B) defined in CuTe's sense: each mode s:d of B has d a
    product of a prefix of a refinement of shape(A) and s the product of the following
    factors, on disjoint runs, so B's image follows A's modes (paper 2.3, composition; Def of admissibility
    in section 4)."""
    rank = rng.randint(1, max_rank)
    shape = [rng.randint(1, max_extent) for _ in range(rank)]
    while size(shape) > max_size:
        shape[shape.index(max(shape))] //= 2
    stride = [rng.choice([0, 1, 2, 3, 5, 8, 13]) * rng.choice([1, 4, 16]) for _ in shape]
    refined = _refined(rng, shape)
    modes = _disjoint_runs(rng, refined, rng.randint(1, 2))
    A = LayoutBase(*_nest(rng, _mark(rng, shape, static_p), _mark(rng, stride, static_p), 0.3))
    bs, bd = [m[0] for m in modes], [m[1] for m in modes]
    B = flat_layout(_mark(rng, bs, 1.0), _mark(rng, bd, 1.0))
    return A, B


def divisible_pair(rng, *, max_rank=3, max_extent=8, max_size=256, static_p=0.5):
    """(A, T) with logical_divide(A, T) = composition(A, (T, complement(T, size A))) defined
    (paper 2.3, logical division): T = s:d with d and s*d prefix products of a refinement of
    shape(A), so T is complementable within size(A)."""
    A, _ = composable_pair(rng, max_rank=max_rank, max_extent=max_extent, max_size=max_size,
                           static_p=static_p)
    refined = _refined(rng, [int(x) for x in leaves(A.shape)])
    s, d = _run(rng, refined)
    return A, LayoutBase(C(s), C(d))


def shrink(layout, fails, max_steps=500):
    """The smallest layout found (greedily) on which ``fails(layout)`` still holds.

    Starts from the flattening, then tries: dropping a mode, smaller extents, smaller
    strides; keeps any change that still fails.  The result is flat (a leaf for rank 1).
    """
    shape = [int(x) for x in leaves(layout.shape)]
    stride = [int(x) for x in leaves(layout.stride)]
    current = flat_layout(shape, stride)
    if not fails(current):
        return layout
    for _ in range(max_steps):
        for cand_s, cand_d in _candidates(shape, stride):
            cand = flat_layout(cand_s, cand_d)
            if fails(cand):
                shape, stride, current = cand_s, cand_d, cand
                break
        else:
            return current
    return current


def _candidates(shape, stride):
    r = len(shape)
    if r > 1:
        for k in range(r):
            yield shape[:k] + shape[k + 1:], stride[:k] + stride[k + 1:]
    for k in range(r):
        for s in sorted({1, 2, shape[k] // 2, shape[k] - 1}):
            if 1 <= s < shape[k]:
                yield shape[:k] + [s] + shape[k + 1:], stride
    for k in range(r):
        for d in sorted({0, 1, stride[k] // 2, stride[k] - 1}):
            if 0 <= d < stride[k]:
                yield shape, stride[:k] + [d] + stride[k + 1:]


def copy_pair(rng, *, max_rank=4, max_extent=8, max_size=512, static_p=0.4):
    """(S, D) with the same shape: S any strides (reads may alias), D injective (the
    modes of a column-major layout in a random order), as the two sides of a tiled copy."""
    D = injective_layout(rng, max_rank=max_rank, max_extent=max_extent, max_size=max_size,
                         static_p=static_p)
    shape = [int(x) for x in leaves(D.shape)]
    stride = [rng.choice([0, 1, rng.randint(1, 2 * size(shape) + 1)]) for _ in shape]
    S = LayoutBase(*_nest(rng, _mark(rng, shape, static_p), _mark(rng, stride, static_p), 0.3))
    return S, D
