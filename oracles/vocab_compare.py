"""Comparison of the answers of issue 16's operations (hooked into ``oracles/compare.py``).

Answer kinds (``ANSWERS`` in protocol.py):
``composed``         a ``ComposedLayoutBase``, or a layout where CuTe decays one (a
                     ``SignedLayout`` when a stride is negative).  Levels: ``printed`` (same
                     text), ``structure`` (same parts, staticness ignored; a composed layout
                     never equals a layout here), ``function`` (the same function on the
                     domain and the same modes up to refinement, as for layouts),
                     ``coalesced`` (same function, other modes), ``property`` (inverses).
``composed_offset``  a pair (composed answer, offset), CuTe's ``slice_and_offset``: its
                     function is S(i) + offset, so two answers that split the same function
                     differently between the layout and the offset agree at ``function``.
``f2layout``          an F2 layout (swizzle_as_f2): ``function`` when it is the same function.
``max_common_layout`` (a layout) is graded by its post-condition: ``property`` when
                     size(R) is the reference's and A(R(i)) == i == B(R(i)) for i < size(R).
``composed_right_inverse``: ``property`` when size(R) is the reference's and C(R(i)) == i.
"""

import numpy as np

from layoutcheck.composed import ComposedLayoutBase, SignedLayout
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["REQUIRED_VOCAB", "handles", "vocab_level", "answer_values"]

REQUIRED_VOCAB = {
    # numbers: one right answer each
    **{op: "structure" for op in ("swizzle_apply", "swizzle_values", "f2_values", "composed_values",
                                  "composed_size", "composed_cosize", "bank_conflicts",
                                  "max_common_vector", "product_each")},
    # layouts: the function and the modes (a size-1 mode's stride carries nothing: CuTe gives
    # a static _1 mode stride _0, NVlabs PyCuTe 1)
    **{op: "function" for op in ("upcast", "downcast", "recast_layout", "nullspace",
                                 "make_ordered_layout", "make_layout_like", "zip_layout",
                                 "group_modes", "swizzle_composition", "layout_swizzle_composition",
                                 "composed_composition", "composed_logical_divide",
                                 "composed_zipped_divide", "composed_tiled_divide",
                                 "composed_upcast", "composed_downcast",
                                 "composed_slice_and_offset", "tile_to_shape", "local_tile",
                                 "local_partition", "inner_partition", "outer_partition")},
    "tiled_copy_partition_S": "function", "tiled_copy_partition_D": "function",
    "swizzle_as_f2": "function",  # an F2 layout: the same function on the same domain size
    "composed_right_inverse": "property",
    "max_common_layout": "property",
}

EVAL_LIMIT = 1 << 22


def handles(op, kind):
    return kind in ("composed", "composed_offset", "f2layout") or op == "max_common_layout"


def _size(s):
    n = 1
    for x in leaves(s):
        n *= int(x)
    return n


def answer_values(x):
    """The function of a composed answer on its whole domain, as an int64 array."""
    from layoutcheck import impl
    if isinstance(x, ComposedLayoutBase) and isinstance(x.inner, SignedLayout):
        inner = answer_values(x.inner) + int(x.offset)
        if isinstance(x.outer, LayoutBase):
            return np.asarray([int(impl.crd2idx(int(v), x.outer.shape, x.outer.stride)) for v in inner],
                              dtype=np.int64)
        B, M, S = x.outer.params  # CuTe's int arithmetic: x ^ shiftr(x & Y, S), any sign
        y = ((1 << B) - 1) << (M + max(0, S))
        t = inner & y
        return inner ^ ((t >> S) if S >= 0 else (t << -S))
    if isinstance(x, ComposedLayoutBase):
        return np.asarray(impl.composed_values(x), dtype=np.int64)
    if isinstance(x, SignedLayout):
        table = np.zeros(1, dtype=np.int64)
        for s, d in zip(leaves(x.shape), leaves(x.stride)):
            table = (np.arange(int(s), dtype=np.int64)[:, None] * int(d) + table[None, :]).reshape(-1)
        return table
    if isinstance(x, LayoutBase):
        return np.asarray(impl.values(x), dtype=np.int64)
    raise TypeError(f"not a composed answer: {x!r}")


def _shape(x):
    return x.shape


def _kind_ok(x):
    return isinstance(x, (ComposedLayoutBase, SignedLayout, LayoutBase))


def _fn_level(e, a, e_off=0, a_off=0):
    from layoutcheck.oracles.compare import _same_modes
    if _size(_shape(e)) > EVAL_LIMIT or _size(_shape(a)) > EVAL_LIMIT:
        return None, f"too large to compare ({_size(_shape(e))} points)"
    ve, va = answer_values(e) + int(e_off), answer_values(a) + int(a_off)
    if ve.shape != va.shape:
        return "none", f"sizes differ: {ve.size} vs {va.size}"
    if not np.array_equal(ve, va):
        k = int(np.nonzero(ve != va)[0][0])
        return "none", f"functions differ (first at index {k}: {int(ve[k])} vs {int(va[k])})"
    if _same_modes(_shape(e), _shape(a)):
        return "function", "structure differs, function equal"
    return "coalesced", "mode structure differs, function equal"


def _structure(e, a):
    if str(e) == str(a):
        return "printed"
    if isinstance(e, ComposedLayoutBase):
        return "structure" if e.same_values(a) else None
    if isinstance(e, (LayoutBase, SignedLayout)) and isinstance(a, (LayoutBase, SignedLayout)):
        if e.shape == a.shape and e.stride == a.stride:
            return "structure"
    return None


def _composed_level(op, inputs, e, a):
    if not _kind_ok(a):
        return "none", f"not a layout or composed layout: {a!r}"
    s = _structure(e, a)
    if s:
        return s, "" if s == "printed" else "same values, staticness differs"
    level, detail = _fn_level(e, a)
    if level in ("function", "coalesced") or level is None:
        return level or "none", detail
    if op == "composed_right_inverse":
        return _rinv_property(inputs, e, a, detail)
    return level, detail


def _rinv_property(inputs, e, a, detail):
    from layoutcheck import impl
    if not inputs or not isinstance(inputs[0], ComposedLayoutBase):
        return "none", detail
    if _size(_shape(a)) != _size(_shape(e)):
        return "none", f"size {_size(_shape(a))} differs from the reference's {_size(_shape(e))}"
    Cl = inputs[0]
    n = _size(Cl.inner.shape)
    r = answer_values(a)
    if r.size and (r.min() < 0 or r.max() >= n):
        return "none", "R maps outside the domain of C"
    c = np.asarray(impl.composed_values(Cl), dtype=np.int64)[r]
    bad = np.nonzero(c != np.arange(r.size))[0]
    if bad.size:
        return "none", f"C(R({int(bad[0])})) = {int(c[bad[0]])}"
    return "property", "a different right inverse that satisfies C(R(i)) == i"


def _pair_level(e, a):
    if not (isinstance(a, tuple) and len(a) == 2 and _kind_ok(a[0])):
        return "none", f"not a (layout, offset) pair: {a!r}"
    if str(e[0]) == str(a[0]) and str(e[1]) == str(a[1]):
        return "printed", ""
    if _structure(e[0], a[0]) and int(e[1]) == int(a[1]):
        return "structure", "same values, staticness differs"
    level, detail = _fn_level(e[0], a[0], e[1], a[1])
    return (level or "none"), detail


def _mcl_level(inputs, e, a):
    from layoutcheck import impl
    if not isinstance(a, LayoutBase):
        return "none", f"not a layout: {a!r}"
    if str(e) == str(a):
        return "printed", ""
    if e == a:
        return "structure", "same values, staticness differs"
    if _size(a.shape) != _size(e.shape):
        return "none", f"size {_size(a.shape)} differs from the reference's {_size(e.shape)}"
    A, B = inputs[0], inputs[1]
    r = np.asarray(impl.values(a), dtype=np.int64)
    for L, name in ((A, "A"), (B, "B")):
        if r.size and r.max() >= _size(L.shape):
            return "none", f"R maps outside the domain of {name}"
        got = np.asarray(impl.values(L, r), dtype=np.int64)
        bad = np.nonzero(got != np.arange(r.size))[0]
        if bad.size:
            return "none", f"{name}(R({int(bad[0])})) = {int(got[bad[0]])}"
    ve, va = np.asarray(impl.values(e), dtype=np.int64), r
    if np.array_equal(ve, va):
        return "function", "structure differs, function equal"
    return "property", "a different common layout that satisfies A(R(i)) == i == B(R(i))"


def _f2_level(e, a):
    """F2 layouts (swizzle_as_f2): ``printed`` as the same text, ``function`` when both map
    every index of one domain size to the same value (the F2 form of a swizzle is not unique:
    one mode per bit and one mode per bit field are the same function)."""
    from layoutcheck import impl
    from layoutcheck.composed import F2Layout
    if not isinstance(a, F2Layout):
        return "none", f"not an F2 layout: {a!r}"
    if str(e) == str(a):
        return "printed", ""
    if _size(e.shape) > EVAL_LIMIT or _size(a.shape) > EVAL_LIMIT:
        return "none", f"too large to compare ({_size(e.shape)} points)"
    ve, va = impl.f2_values(e), impl.f2_values(a)
    if len(ve) != len(va):
        return "none", f"sizes differ: {len(ve)} vs {len(va)}"
    if ve != va:
        k = next(i for i in range(len(ve)) if ve[i] != va[i])
        return "none", f"functions differ (first at index {k}: {ve[k]} vs {va[k]})"
    return "function", "mode structure differs, function equal"


def vocab_level(op, kind, inputs, e, a):
    """(level, detail) of an oracle's answer ``a`` against the reference's ``e``."""
    if op == "max_common_layout":
        return _mcl_level(inputs, e, a)
    if kind == "composed_offset":
        return _pair_level(e, a)
    if kind == "f2layout":
        return _f2_level(e, a)
    return _composed_level(op, inputs, e, a)
