"""Issue 16's operations on pycute-style modules (hooked into ``oracles/pyapi.py``).

pycute (nvidia-cutlass 4.2.0.0, ``pycute/swizzle.py``) has ``Swizzle(bits, base, shift)``
(``__call__``, ``size()`` = 2^(bits+base+|shift|), ``cosize()``) and ``ComposedLayout(layoutB,
offset, layoutA)`` = ``layoutB(offset + layoutA(c))`` with ``size()`` and ``cosize()``; nothing
else of issue 16 (no algebra on composed layouts, no recast, no tiling helpers).

NVlabs PyCuTe (``pycute/swizzle.py``, ``layout.py``, ``algebra.py``, ``htuple.py``) has
``Swizzle`` (no ``size()``), ``F2`` strides, ``nullspace``, ``make_layout_like``,
``make_ordered_layout``, ``product_each`` and ``recast(layout, scale)``: ``scale = N`` packs N
elements (CuTe's ``upcast<N>``), ``scale = Fraction(1, N)`` unpacks (``downcast<N>``), so
``recast_layout<Old,New>`` is ``recast(L, Fraction(new_bits, old_bits))``.  Neither has a
TiledCopy or a conversion of a Swizzle to F2 strides (NVlabs' ``Swizzle`` is a functor only).
"""

from fractions import Fraction

from layoutcheck.oracles.pyapi import Call

from layoutcheck.composed import ComposedLayoutBase, F2Layout, Swizzle

__all__ = ["VOCAB_CALLS", "nvlabs_vocab_calls", "to_module_vocab"]


def to_module_vocab(api, x):
    """A value of layoutcheck/composed.py as the module's (its Swizzle, ComposedLayout, or a
    Layout with F2 strides); a module without the class gets a TypeError (the call answers
    "raised", but the op is "unsupported" first through its ``needs``)."""
    m = api.mod
    if isinstance(x, Swizzle):
        return m.Swizzle(*x.params)
    if isinstance(x, ComposedLayoutBase):
        outer = api.to_module("layout", x.outer)
        return m.ComposedLayout(outer, int(x.offset), api.to_module("layout", x.inner))
    if isinstance(x, F2Layout):
        F2 = m.F2

        def f2(t):
            return tuple(f2(e) for e in t) if isinstance(t, tuple) else F2(int(t))
        return m.Layout(_plain(x.shape), f2(x.stride))
    raise TypeError(f"{type(x).__name__} has no counterpart in {api.name}")


def _plain(t):
    return tuple(_plain(e) for e in t) if isinstance(t, tuple) else int(t)


def _span(sw):
    return 1 << (sw.bits + sw.base + abs(sw.shift))


_NONE = ("swizzle_composition", "layout_swizzle_composition", "composed_composition",
         "composed_logical_divide", "composed_zipped_divide", "composed_tiled_divide",
         "composed_slice_and_offset", "composed_right_inverse", "composed_upcast",
         "composed_downcast", "bank_conflicts", "upcast", "downcast", "recast_layout",
         "max_common_vector", "max_common_layout", "nullspace", "product_each",
         "make_ordered_layout", "make_layout_like", "tile_to_shape", "local_tile",
         "local_partition", "inner_partition", "outer_partition", "zip_layout", "group_modes",
         "f2_values", "tiled_copy_partition_S", "tiled_copy_partition_D", "swizzle_as_f2")

# pycute (nvidia-cutlass 4.2.0.0): the swizzle functor and ComposedLayout's own methods.
VOCAB_CALLS = {
    "swizzle_apply": Call(("Swizzle",), lambda m, sw, x: sw(x)),
    "swizzle_values": Call(("Swizzle.size",), lambda m, sw: tuple(sw(x) for x in range(sw.size()))),
    "composed_values": Call(("ComposedLayout.size",),
                            lambda m, c: tuple(c(i) for i in range(c.size()))),
    "composed_size": Call(("ComposedLayout.size",), lambda m, c: c.size()),
    "composed_cosize": Call(("ComposedLayout.cosize",), lambda m, c: c.cosize()),
    **{op: None for op in _NONE},
}


def _f2_values(m, L):
    return tuple(int(L(i)) for i in range(int(m.size(L))))


def nvlabs_vocab_calls():
    """NVlabs PyCuTe's differences from VOCAB_CALLS."""
    return {
        "swizzle_values": Call(("Swizzle",), lambda m, sw: tuple(sw(x) for x in range(_span(sw)))),
        "f2_values": Call(("F2", "size"), _f2_values),
        "nullspace": Call(("nullspace",), lambda m, L: m.nullspace(L)),
        "make_layout_like": Call(("make_layout_like",), lambda m, L: m.make_layout_like(L)),
        "make_ordered_layout": Call(("make_ordered_layout",),
                                    lambda m, s, o: m.make_ordered_layout(s, o)),
        "product_each": Call(("product_each",), lambda m, t: m.product_each(t)),
        "upcast": Call(("recast",), lambda m, L, n: m.recast(L, n)),
        "downcast": Call(("recast",), lambda m, L, n: m.recast(L, Fraction(1, n))),
        "recast_layout": Call(("recast",), lambda m, L, o, n: m.recast(L, Fraction(n, o))),
    }
