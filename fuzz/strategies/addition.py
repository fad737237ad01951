"""Hypothesis strategies for ``layout_add(A, B)`` (NVlabs PyCuTe's pointwise sum, R(i) = A(i) +
B(i)): pairs of layouts of one size, drawn the ways a user adds two layouts.

A sum exists when the two shapes share an ordered factorisation (after coalescing), and often
does not otherwise; the strategy draws both kinds in steady shares:

- the same grid with other strides (a thread layout plus a value layout of one shape);
- one shape a refinement of the other (modes split or merged), or the same function
  refactorised (a mode s:d written as (a, s/a):(d, a d));
- a broadcast: B with stride-0 modes, or n:0;
- an unrelated factorisation of the same size (the factors in another order, or regrouped),
  where the sum mostly does not exist and the implementation must refuse;
- and, rarely, two sizes that differ (the precondition).

Size-1 modes (with any stride) and nesting are mixed in, and A and B swap at random.  Sizes
stay at most ``max_size`` (256 by default: the spec's enumeration of ordered factorisations
stays cheap).  One ``@st.composite`` over ``draw_int`` choices; shrinks toward two modes of 2.
"""

from math import prod

from hypothesis import strategies as st
from layoutcheck.fuzz.strategies.algebra import layout_of_modes, permutation, pick
from layoutcheck.fuzz.strategies.choices import draw_bool, draw_int

__all__ = ["layout_add_args", "ADD_KINDS"]

_FACTORS = (2, 3, 4, 2, 6, 8, 5, 3, 16)
# how B is drawn from A's modes (``layout_add_args(kind=...)`` picks one, for the tests), and
# each one's share of 16 draws: a third reorders the factors (mostly no sum: a refusal)
ADD_KINDS = ("same_shape", "split", "merge", "refactorised", "broadcast", "reordered",
             "regrouped", "sizes_differ")
_SHARES = (2, 2, 1, 2, 2, 3, 3, 1)
_KIND_OF_DRAW = tuple(k for k, n in enumerate(_SHARES) for _ in range(n))


def _flat_shape(draw, max_size, max_factors=4):
    """1..max_factors factors > 1 with product <= max_size."""
    out, room = [], max_size
    for _k in range(draw_int(draw, 1, max_factors)):
        fits = [f for f in _FACTORS if f <= room]
        if not fits:
            break
        f = pick(draw, fits)
        out.append(f)
        room //= f
    return out or [2]


def _strides(draw, shape, spread=False):
    """Strides for a flat shape: column-major, column-major with gaps, or each one drawn (0, 1,
    a small value, or a multiple of the previous extent); ``spread``: never column-major (a
    layout that does not coalesce to one mode)."""
    how = draw_int(draw, 1 if spread else 0, 3)
    out, cur = [], 1
    for s in shape:
        if how == 0:
            out.append(cur)
        elif how == 1:
            cur += draw_int(draw, 1 if spread else 0, 2)
            out.append(cur)
        else:
            out.append(pick(draw, (0, 1, cur, 2, 3, 4, 8, draw_int(draw, 0, 40))))
        cur = out[-1] * s if out[-1] else cur * s
    return out


def _split(draw, shape):
    """A refinement: one factor that is not prime split into two (a, s/a)."""
    ks = [k for k, s in enumerate(shape) if any(s % a == 0 for a in range(2, s))]
    if not ks:
        return list(shape)
    k = pick(draw, ks)
    s = shape[k]
    a = pick(draw, [a for a in range(2, s) if s % a == 0])
    return shape[:k] + [a, s // a] + shape[k + 1:]


def _merge(draw, shape):
    """A coarsening: two neighbouring factors multiplied."""
    if len(shape) < 2:
        return list(shape)
    k = draw_int(draw, 0, len(shape) - 2)
    return shape[:k] + [shape[k] * shape[k + 1]] + shape[k + 2:]


def _regrouped(draw, shape):
    """The prime factors of the size, in a drawn order, grouped into runs."""
    primes = []
    for s in shape:
        p, x = 2, s
        while x > 1:
            while x % p == 0:
                primes.append(p)
                x //= p
            p += 1
    primes = [primes[i] for i in permutation(draw, len(primes))]
    out, i = [], 0
    while i < len(primes):
        j = draw_int(draw, i + 1, len(primes))
        out.append(prod(primes[i:j]))
        i = j
    return out


def _with_ones(draw, modes):
    """Sometimes a size-1 mode (any stride) somewhere."""
    if draw_int(draw, 0, 3):
        return modes
    k = draw_int(draw, 0, len(modes))
    return modes[:k] + [(1, draw_int(draw, 0, 9))] + modes[k:]


@st.composite
def layout_add_args(draw, max_size=256, static=None, kind=None):
    """``(A, B)`` of one size (rarely of two sizes) for ``layout_add``: see the module
    docstring.  ``kind``: one of ``ADD_KINDS`` (default: drawn)."""
    how = ADD_KINDS.index(kind) if kind else _KIND_OF_DRAW[draw_int(draw, 0, len(_KIND_OF_DRAW) - 1)]
    reorder = how in (5, 6)
    shape = _flat_shape(draw, max_size // 2 if reorder else max_size)
    if reorder and len(set(shape)) < 2:  # two factors that differ, to reorder
        shape = shape + [3 if shape[0] % 3 else 2]
    a_modes = list(zip(shape, _strides(draw, shape, spread=reorder)))
    if how == 0:  # same grid, other strides
        b_shape = list(shape)
    elif how == 1:
        b_shape = _split(draw, shape)
    elif how == 2:
        b_shape = _merge(draw, shape)
    elif how == 3:  # the same function written with a mode split: 2A, and A + A' for A' ~ A
        b_shape = None
        b_modes = []
        for s, d in a_modes:
            divs = [a for a in range(2, s) if s % a == 0]
            if divs and draw_bool(draw):
                a = pick(draw, divs)
                b_modes += [(a, d), (s // a, a * d)]
            else:
                b_modes.append((s, d))
    elif how == 4:  # broadcast: stride-0 modes
        b_shape = _split(draw, shape) if draw_bool(draw) else list(shape)
        b_modes = [(s, 0 if draw_int(draw, 0, 2) else d) for s, d in zip(b_shape, _strides(draw, b_shape))]
        if draw_int(draw, 0, 3) == 0:
            b_modes = [(prod(shape), 0)]
        b_shape = None
    elif how in (5, 6):  # the same factors in another order, or regrouped
        b_shape = [shape[i] for i in permutation(draw, len(shape))] if how == 5 else \
            _regrouped(draw, shape)
        if b_shape == shape:  # rotated instead (shape has two factors that differ)
            b_shape = shape[1:] + shape[:1]
    else:  # another size: the precondition
        b_shape = list(shape) + [pick(draw, (2, 3))]
    if b_shape is not None:
        b_modes = list(zip(b_shape, _strides(draw, b_shape, spread=reorder)))
    A = layout_of_modes(_with_ones(draw, a_modes), draw, static, max_rank=3)
    B = layout_of_modes(_with_ones(draw, b_modes), draw, static, max_rank=3)
    return (B, A) if draw_bool(draw) else (A, B)
