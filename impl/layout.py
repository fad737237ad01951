"""The fast layout value and its evaluation (paper 2.1.2, 2.3.1; seed 000).

``values`` builds the layout function over the whole domain from per-mode offset vectors
(broadcast outer sums, paper Prop. 2.1.3.40: Phi of a concatenation is the sum of the parts'
Phi on the colex split of the index), never by per-element div/mod.  It writes in blocks, so
the working memory beyond the output stays below ``_TABLE`` elements (see ``values``).
"""

from __future__ import annotations

from typing import Any, Iterable, TypeAlias, cast, overload

import numpy as np
import numpy.typing as npt
from layoutcheck.impl import tuples as T

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import IntTuple, LayoutBase, LayoutLike, Tiler, leaves, parse_tile

__all__ = ["Layout", "parse", "parse_tiler", "as_layout", "shape", "stride", "cosize",
           "modes", "colex", "colex_inv", "phi", "Phi", "values", "image", "flatten", "mode", "get",
           "rank", "depth", "size"]

# Largest inner table, in elements (int64: 16 MiB).  Working memory of values() is at most
# about 1.5 tables plus one column of block offsets.
_TABLE = 1 << 21
_I32_MAX = (1 << 31) - 1

# The flattened modes of a layout, (s_i, d_i) left to right (``flat_pairs``).
FlatModes: TypeAlias = tuple[tuple[int, int], ...]


class Layout(LayoutBase):
    """``shape:stride``; ``L(i)`` is Phi_L(i), ``L(coord)`` is phi_L(coord) (CuTe's crd2idx).

    Keeps two normal forms of itself once computed, the value being immutable: its flattened
    modes (``_fm``, see ``flat_modes``) and the modes of its coalesce (``_cm``, see
    ``algebra.coalesced_modes``).
    """

    __slots__ = ("_fm", "_cm")
    _fm: FlatModes
    _cm: tuple[tuple[int, ...], tuple[int, ...]]

    def __call__(self, x: int | np.integer | tuple[Any, ...]) -> int:
        if isinstance(x, tuple):
            return _crd2idx(x, self.shape, self.stride)
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
            raise LayoutError(f"a layout is called with an index or a coordinate, not {x!r}")
        n = T.tuple_size(self.shape)
        if not 0 <= x < n:
            raise LayoutError(f"index {x} is outside the domain [0, {n})")
        x = int(x)
        total = 0
        for s, d in flat_modes(self):
            x, r = divmod(x, s)
            total += r * d
        return total


set_shape = LayoutBase.__dict__["_shape"].__set__   # the slots' own setters: the value
set_stride = LayoutBase.__dict__["_stride"].__set__  # stays immutable to everyone else
_set_fm = Layout.__dict__["_fm"].__set__
set_coalesced_modes = Layout.__dict__["_cm"].__set__
alloc_layout = object.__new__


def new_layout(shape: IntTuple, stride: IntTuple) -> Layout:
    """An impl Layout from parts already known to be valid (results of the algebra, or the
    parts of another checked ``LayoutBase``): skips the re-validation."""
    L = alloc_layout(Layout)
    set_shape(L, shape)
    set_stride(L, stride)
    return L


def fast_leaves(t: IntTuple) -> tuple[int, ...]:
    """The leaves of a nested tuple as a tuple (t itself when t is flat)."""
    if type(t) is not tuple:
        return (t,)  # type: ignore[return-value]  # not a tuple: a leaf
    for x in t:
        if type(x) is tuple:
            out: list[int] = []
            _flatten_into(t, out)
            return tuple(out)
    return t  # type: ignore[return-value]  # a flat tuple: its entries are leaves


def _flatten_into(t, out):
    for x in t:
        if type(x) is tuple:
            _flatten_into(x, out)
        else:
            out.append(x)


# The static one and zero.  The flat modes hold these two objects for every static 1 and 0
# stride (same value, same type), so that the algebra can skip ``_1 * x`` by identity.
C1, C0 = C(1), C(0)


def _canonical(x):
    if type(x) is C:
        if +x == 1:
            return C1
        if +x == 0:
            return C0
    return x


def flat_pairs(shape: IntTuple, stride: IntTuple) -> FlatModes:
    """The modes (s_i, d_i) of the flattening of shape:stride, as a tuple of pairs (static one
    and zero strides as ``C1`` and ``C0``)."""
    if type(shape) is not tuple:
        # (a leaf shape: the stride is a leaf too)
        return ((shape, stride if type(stride) is int else _canonical(stride)),)  # type: ignore[return-value]
    ds: Iterable[int] = fast_leaves(stride)
    if C in map(type, ds):
        ds = map(_canonical, ds)
    return tuple(zip(fast_leaves(shape), ds))


def flat_modes(L: Layout) -> FlatModes:
    """``flat_pairs`` of an impl Layout, kept on it (the value is immutable)."""
    try:
        return L._fm
    except AttributeError:
        return keep_flat_modes(L)


def keep_flat_modes(L: Layout) -> FlatModes:
    """Compute and keep L's flat modes (for a caller that found none kept: ``try: L._fm``)."""
    fm = flat_pairs(L._shape, L._stride)
    _set_fm(L, fm)
    return fm


def parse(text: str) -> Layout:
    """Parse CuTe notation into an impl ``Layout``."""
    return Layout.parse(text)


def parse_tiler(text: str) -> Tiler:
    """Parse a layout or a CuTe Tile (tuple of layouts / ints) into impl values."""
    return parse_tile(text, Layout)


def as_layout(x: LayoutLike) -> Layout:
    """Accept any ``LayoutBase``, CuTe text or ``(shape, stride)``; return an impl Layout."""
    if type(x) is Layout:
        return x
    if isinstance(x, LayoutBase):  # already checked by LayoutBase
        return new_layout(x.shape, x.stride)
    if isinstance(x, str):
        return parse(x)
    if isinstance(x, tuple) and len(x) == 2:
        return Layout(*x)
    raise LayoutError(f"expected a layout, got {x!r}")


def _as_tuple_or_layout(x):
    return as_layout(x) if isinstance(x, (str, LayoutBase)) else x


def shape(L: LayoutLike, *path: int) -> IntTuple:
    """shape<I...>(L) (seed 000)."""
    return T.tuple_get(as_layout(L).shape, *path)


def stride(L: LayoutLike, *path: int) -> IntTuple:
    """stride<I...>(L) (seed 000)."""
    return T.tuple_get(as_layout(L).stride, *path)


def cosize(L: LayoutLike, *path: int) -> int:
    """cosize(L) = 1 + sum (s_i - 1) d_i (Def 2.1.2.9); equals L(size-1) + 1 (seed 000)."""
    L = as_layout(L)
    if path:
        L = new_layout(T.tuple_get(L.shape, *path), T.tuple_get(L.stride, *path))
    total, static = 1, True
    for si, di in flat_modes(L):
        total += (int(si) - 1) * int(di)
        s_c, d_c = type(si) is C, type(di) is C  # seed 003: static op static, and _0 * n
        static = static and ((s_c and (d_c or si == 1)) or (d_c and di == 0))
    return C(total) if static else total


def modes(L: LayoutLike) -> tuple[Layout, ...]:
    """The top-level modes of L as layouts (Def 2.3.1.9); a leaf layout is its own mode."""
    L = as_layout(L)
    if not T.is_tuple(L.shape):
        return (L,)
    return tuple(new_layout(s, d) for s, d in zip(L.shape, cast(tuple, L.stride)))  # congruent


def colex(S: IntTuple, x: Iterable[Any]) -> int:
    """colex_S(x) = x_1 + x_2 s_1 + ... (Def 2.1.2.18)."""
    S = leaves(S)
    x = leaves(tuple(x))
    if len(x) != len(S):
        raise LayoutError(f"coordinate {x} has {len(x)} entries, shape has {len(S)}")
    total, scale = 0, 1
    for xi, si in zip(x, S):
        if not 0 <= xi < si:
            raise LayoutError(f"coordinate {x} is outside [0, {S})")
        total += xi * scale
        scale *= si
    return total


def colex_inv(S: IntTuple, n: int) -> tuple[int, ...]:
    """colex_S^{-1}(n) (Def 2.1.2.18)."""
    S = leaves(S)
    N = T.tuple_size(S)
    if not 0 <= n < N:
        raise LayoutError(f"index {n} is outside the domain [0, {N})")
    out = []
    for si in S:
        n, r = divmod(n, si)
        out.append(r)
    return tuple(out)


def phi(L: LayoutLike, x: Iterable[Any]) -> int:
    """Coordinate function phi_L(x) = sum x_i d_i (Construction 2.1.2.13); flat or nested x."""
    L = as_layout(L)
    s, d = leaves(L.shape), leaves(L.stride)
    x = leaves(tuple(x))
    if len(x) != len(s) or not all(0 <= xi < si for xi, si in zip(x, s)):
        raise LayoutError(f"coordinate {x} is outside the domain [0, {s})")
    return sum(xi * di for xi, di in zip(x, d))


def Phi(L: LayoutLike, n: int) -> int:
    """Layout function Phi_L = phi_L ∘ colex^{-1} (Construction 2.1.2.19)."""
    return as_layout(L)(n)


def _crd2idx(c, s, d):
    """CuTe's coordinate function: a coordinate congruent to the shape, or to a coarsening of
    it (an integer coordinate for a tuple mode is split colexicographically), or flat."""
    if isinstance(s, tuple):
        if isinstance(c, tuple):
            if len(c) == len(s):
                return sum(_crd2idx(ci, si, di) for ci, si, di in zip(c, s, d))
            fs = leaves(s)
            if len(c) == len(fs) and all(isinstance(v, int) for v in c):
                return _crd2idx(c, fs, leaves(d))
            raise LayoutError(f"coordinate {c} does not match shape {s}")
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)):
            raise LayoutError(f"coordinate entry {c!r} is not an integer")
        n = T.tuple_size(s)
        if not 0 <= c < n:
            raise LayoutError(f"coordinate {c} is outside [0, {n}) for mode {s}")
        total = 0
        c = int(c)
        for si, di in zip(leaves(s), leaves(d)):
            c, r = divmod(c, si)
            total += r * di
        return total
    if isinstance(c, tuple):
        if len(c) == 1:
            return _crd2idx(c[0], s, d)
        raise LayoutError(f"coordinate {c} does not match shape {s}")
    if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c < s:
        raise LayoutError(f"coordinate {c!r} is outside [0, {s})")
    return int(c) * d


# --- evaluation over the domain -------------------------------------------------------------

def _dtype_for(L, dtype, out):
    hi = int(cosize(L)) - 1
    if out is not None:
        dt = out.dtype
    elif dtype is not None:
        dt = np.dtype(dtype)
    else:
        dt = np.dtype(np.int32) if hi <= _I32_MAX else np.dtype(np.int64)
    if dt.kind not in "iu":
        raise LayoutError(f"values need an integer dtype, not {dt}")
    if hi > np.iinfo(dt).max:
        raise LayoutError(f"the largest offset {hi} does not fit in {dt}")
    return dt


def _table(modes, dt, out=None):
    """Phi over the domain of the flat ``modes`` as a 1-D array (outer sums, first mode fastest)."""
    acc = np.zeros(1, dtype=dt)
    for k, (s, d) in enumerate(modes):
        col = np.arange(s, dtype=dt) * dt.type(d)
        last = k == len(modes) - 1
        if last and out is not None:
            np.add(col[:, None], acc[None, :], out=out.reshape(s, acc.size))
            return out
        acc = (col[:, None] + acc[None, :]).reshape(-1)
    if out is not None:
        out[...] = acc
        return out
    return acc


def values(L: LayoutLike, indices: npt.ArrayLike | None = None, *, out: np.ndarray | None = None,
           dtype: npt.DTypeLike | None = None) -> np.ndarray:
    """Phi_L as a numpy array: over the whole domain ``[0, size)``, or at ``indices``.

    dtype: int32 when the cosize fits, else int64 (or ``dtype``, or ``out.dtype``).  Over the
    domain, the modes are split into an inner group (a table of at most ``_TABLE`` elements),
    a boundary mode walked in row blocks, and outer modes walked one combination at a time;
    each block is written straight into the output as ``inner + column`` (one broadcast add).
    """
    L = as_layout(L)
    n = int(T.tuple_size(L.shape))
    dt = _dtype_for(L, dtype, out)
    if indices is not None:
        return _values_at(L, indices, dt, out)
    if out is None:
        out = np.empty(n, dtype=dt)
    elif out.size != n or not out.flags.c_contiguous:
        raise LayoutError(f"out must be a contiguous array of {n} elements, "
                          f"got shape {out.shape}")
    flat_out = out.reshape(-1)
    ms = [(int(s), int(d)) for s, d in zip(leaves(L.shape), leaves(L.stride)) if s != 1]
    # inner modes: the longest prefix whose table fits
    P, k = 1, 0
    while k < len(ms) and P * ms[k][0] <= _TABLE:
        P *= ms[k][0]
        k += 1
    if k == len(ms):
        _table(ms, dt, flat_out)
        return out
    inner = _table(ms[:k], dt)
    sk, dk = ms[k]
    rows = max(1, _TABLE // P)
    outer = ms[k + 1:]
    block = P * sk
    coord = [0] * len(outer)
    off = 0
    for q in range(n // block):
        base = q * block
        for t in range(0, sk, rows):
            m = min(rows, sk - t)
            col = np.arange(t, t + m, dtype=dt) * dt.type(dk) + dt.type(off)
            view = flat_out[base + t * P: base + (t + m) * P].reshape(m, P)
            np.add(col[:, None], inner[None, :], out=view)
        # next outer coordinate (colexicographic counter)
        for j, (s, d) in enumerate(outer):
            coord[j] += 1
            off += d
            if coord[j] < s:
                break
            off -= coord[j] * d
            coord[j] = 0
    return out


def _values_at(L, indices, dt, out):
    idx = np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise LayoutError(f"indices must be integers, not {idx.dtype}")
    n = int(T.tuple_size(L.shape))
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise LayoutError(f"an index is outside the domain [0, {n})")
    if out is None:
        out = np.empty(idx.shape, dtype=dt)
    elif out.shape != idx.shape:
        raise LayoutError(f"out has shape {out.shape}, indices have {idx.shape}")
    ms = [(int(s), int(d)) for s, d in zip(leaves(L.shape), leaves(L.stride)) if s != 1]
    flat_i, flat_o = idx.reshape(-1), out.reshape(-1)
    if n <= _TABLE and idx.size >= n // 4:  # cheaper to look the answers up in the table
        table = _table(ms, dt)
        for a in range(0, flat_i.size, _TABLE):
            np.take(table, flat_i[a:a + _TABLE], out=flat_o[a:a + _TABLE])
        return out
    for a in range(0, flat_i.size, _TABLE):
        rest = flat_i[a:a + _TABLE].astype(np.int64)
        acc = np.zeros(rest.size, dtype=np.int64)
        for s, d in ms:
            rest, r = np.divmod(rest, s)
            acc += r * d
        flat_o[a:a + _TABLE] = acc
    return out


def image(L: LayoutLike) -> frozenset[int]:
    """Image(Phi_L) as a frozenset of ints."""
    return frozenset(np.unique(values(L)).tolist())


# --- CuTe's observers on an IntTuple or a layout (seed 000; Def 2.2.1) -----------------------

def _check_int_tuple(x: object) -> LayoutBase | IntTuple:
    if isinstance(x, str):
        return parse(x)
    if isinstance(x, LayoutBase):
        return x
    if isinstance(x, (tuple, int)) and not isinstance(x, bool):
        return x
    raise LayoutError(f"expected an integer, a nested tuple or a layout, got {x!r}")


def flatten(x: LayoutBase | str | IntTuple) -> Layout | tuple[int, ...]:
    """The flattening X^b (seed 001); of a layout: the flat layout S^b:D^b (Def 2.3.1.13)."""
    x = _check_int_tuple(x)
    if isinstance(x, LayoutBase):
        return Layout(leaves(x.shape), leaves(x.stride))
    return leaves(x)


@overload
def mode(x: LayoutBase, i: int) -> Layout: ...
@overload
def mode(x: IntTuple, i: int) -> IntTuple: ...
def mode(x: LayoutBase | IntTuple, i: int) -> Layout | IntTuple:
    """mode_i(X), 0-based: X itself for a leaf and i == 0, else X_i (Def 2.2.1.5)."""
    if isinstance(x, LayoutBase):
        return Layout(mode(x.shape, i), mode(x.stride, i))
    if isinstance(i, bool) or not isinstance(i, int):
        raise LayoutError(f"mode index {i!r} is not an integer")
    if not T.is_tuple(x):
        if i != 0:
            raise LayoutError(f"mode {i} of an integer does not exist (rank 1)")
        return x
    if not isinstance(i, int) or not 0 <= i < len(x):
        raise LayoutError(f"mode {i} does not exist: rank is {len(x)}")
    return x[i]


def get(x: LayoutBase | str | IntTuple, *path: int) -> LayoutBase | IntTuple:
    """CuTe's hierarchical ``get<I,J,...>(x)`` (seed 000); of a layout: a sub-layout."""
    x = _check_int_tuple(x)
    for i in path:
        x = mode(x, i)
    return x


def rank(x: LayoutBase | str | IntTuple, *path: int) -> int:
    """rank<I...>(x): 1 for a leaf, r for an r-tuple (seed 000, Def 2.2.1.3)."""
    x = get(x, *path)
    if isinstance(x, LayoutBase):
        x = x.shape
    return C(len(x) if T.is_tuple(x) else 1)


def depth(x: LayoutBase | str | IntTuple, *path: int) -> int:
    """depth<I...>(x): 0 for a leaf, 1 + max depth of the entries (seed 001)."""
    x = get(x, *path)
    if isinstance(x, LayoutBase):
        x = x.shape
    if not T.is_tuple(x):
        return C(0)
    return C(1 + max((int(depth(e)) for e in x), default=0))


def size(x: LayoutBase | str | IntTuple, *path: int) -> int:
    """size<I...>(x): product of the leaves (Def 2.1.1.1); C times C stays static."""
    x = get(x, *path)
    if isinstance(x, LayoutBase):
        x = x.shape
    p: int = C(1)
    for v in leaves(x):
        p = p * v
    return p
