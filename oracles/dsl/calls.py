"""the operations on swizzles, composed layouts, recast and tiling on the CuTe DSL at trace time (hooked into ``oracles/dsl/oracle.py``).

nvidia-cutlass-dsl 4.8.1: ``cute.make_swizzle(b, m, s)``; ``cute.make_composed_layout(inner,
offset, outer)`` -- the DSL calls the swizzle (applied last) ``inner`` and the layout (applied
first) ``outer``, CuTe C++ calls them layout_a and layout_b; printed ``S<3,4,3> o 0 o
(8,64):(64,1)``.  A ``Swizzle`` is not callable in the DSL, so a swizzle is applied through
``Sw o 0 o n:1``.  ``composition``, ``logical_divide``, ``zipped_divide``, ``tiled_divide``,
``slice_and_offset``, ``size``, ``cosize`` accept composed layouts; ``right_inverse`` takes a
Layout only (its signature), ``composition``'s left operand is a Layout or a Tensor (its
docstring: no Swizzle), ``recast_layout(new_bits, old_bits, layout)`` is upcast / downcast,
``local_tile`` / ``local_partition`` take a Tensor (here one over an integer iterator, so the
result's iterator is the offset: ``tensor<34 o (2,4):(1,8)>``); a TiledCopy is
``make_tiled_copy_tv(make_copy_atom(CopyUniversalOp(), T), thr, val)``, built and
partitioned at trace time (``get_slice(i).partition_D(tensor)``).  Ops the DSL lacks (F2
strides, bank conflicts, inner/outer_partition, zip) are unsupported.
"""

import re

from layoutcheck.composed import ComposedLayoutBase, F2Layout, SignedLayout, Swizzle, parse_value
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase
from layoutcheck.notation import parse_tuple

__all__ = ["DSL_CALLS", "UNSUPPORTED_DSL", "to_dsl", "dsl_answer", "dsl_case"]


def to_dsl(cute, x, convert):
    """A value of layoutcheck/composed.py as the DSL's (``convert`` handles the rest)."""
    if isinstance(x, Swizzle):
        return cute.make_swizzle(*x.params)
    if isinstance(x, ComposedLayoutBase):
        return cute.make_composed_layout(convert(x.outer), int(x.offset), convert(x.inner))
    if isinstance(x, F2Layout):
        raise TypeError("the CuTe DSL has no F2 strides")
    return None


def _through(cute, sw, n):
    return cute.make_composed_layout(sw, 0, cute.make_layout(n))


def _colmajor(s):
    """CuTe's default order of tile_to_shape (LayoutLeft): modes in order 0, 1, ..."""
    return tuple(range(len(s))) if isinstance(s, tuple) else 0


def _vals(cute, L):
    return " ".join(str(L(i)) for i in range(cute.size(L)))


def _tensor(fn):
    def call(cute, L, *rest):
        return str(fn(cute, cute.make_tensor(0, L), *rest))
    return call


def _tiled_copy(which):
    """``make_tiled_copy_tv(make_copy_atom(CopyUniversalOp(), Int32), thr, val).get_slice(i)
    .partition_S / _D`` of the tensor over the integer iterator 0: ``layout|iterator`` (a
    composed layout keeps the thread's offset inside, ``S<..> o 17 o L``, the iterator is 0)."""
    def call(cute, L, thr, val, i):
        import cutlass
        atom = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Int32)
        thr_copy = cute.make_tiled_copy_tv(atom, thr, val).get_slice(int(i))
        part = getattr(thr_copy, which)(cute.make_tensor(0, L))
        return f"{part.layout}|{part.iterator}"
    return call


def _local_partition(cute, t, thr, i):
    import cutlass
    return cute.local_partition(t, thr, cutlass.Int32(i))


DSL_CALLS = {
    "swizzle_apply": {2: lambda cute, sw, x: str(_through(cute, sw, x + 1)(x))},
    "swizzle_values": {2: lambda cute, sw, n: _vals(cute, _through(cute, sw, n))},
    "composed_values": {1: _vals},
    "composed_size": {1: lambda cute, c: str(cute.size(c))},
    "composed_cosize": {1: lambda cute, c: str(cute.cosize(c))},
    "composed_composition": {2: lambda cute, c, t: str(cute.composition(c, t))},
    "composed_logical_divide": {2: lambda cute, c, t: str(cute.logical_divide(c, t))},
    "composed_zipped_divide": {2: lambda cute, c, t: str(cute.zipped_divide(c, t))},
    "composed_tiled_divide": {2: lambda cute, c, t: str(cute.tiled_divide(c, t))},
    "composed_slice_and_offset": {2: lambda cute, c, k: "{}|{}".format(*cute.slice_and_offset(k, c))},
    "composed_upcast": {2: lambda cute, c, n: str(cute.recast_layout(n, 1, c))},
    "composed_downcast": {2: lambda cute, c, n: str(cute.recast_layout(1, n, c))},
    "upcast": {2: lambda cute, L, n: str(cute.recast_layout(n, 1, L))},
    "downcast": {2: lambda cute, L, n: str(cute.recast_layout(1, n, L))},
    "recast_layout": {3: lambda cute, L, o, n: str(cute.recast_layout(n, o, L))},
    "max_common_vector": {2: lambda cute, a, b: str(cute.max_common_vector(a, b))},
    "max_common_layout": {2: lambda cute, a, b: str(cute.max_common_layout(a, b))},
    "nullspace": {1: lambda cute, L: str(cute.nullspace(L))},
    "product_each": {1: lambda cute, t: str(cute.product_each(t))},
    "make_ordered_layout": {2: lambda cute, s, o: str(cute.make_ordered_layout(s, order=o))},
    "make_layout_like": {1: lambda cute, L: str(cute.make_layout_like(L))},
    "tile_to_shape": {2: lambda cute, L, s: str(cute.tile_to_shape(L, s, order=_colmajor(s))),
                      3: lambda cute, L, s, o: str(cute.tile_to_shape(L, s, order=o))},
    "local_tile": {3: _tensor(lambda cute, t, tiler, c: cute.local_tile(t, tiler, c))},
    "local_partition": {3: _tensor(_local_partition)},
    "group_modes": {3: lambda cute, L, b, e: str(cute.group_modes(L, b, e))},
    "tiled_copy_partition_S": {4: _tiled_copy("partition_S")},
    "tiled_copy_partition_D": {4: _tiled_copy("partition_D")},
}

UNSUPPORTED_DSL = {
    "f2_values": "the CuTe DSL has no F2 strides",
    "bank_conflicts": "the CuTe DSL has no bank-conflict count",
    "swizzle_composition": "the DSL's composition takes a Layout or Tensor on the left (its "
                           "docstring); a swizzled layout is make_composed_layout(sw, 0, L)",
    "layout_swizzle_composition": "the DSL's composition documents no Swizzle on the right, and "
                                  "cute.composition(L, Swizzle) kills the process (SIGSEGV, F-204)",
    "composed_right_inverse": "the DSL's right_inverse takes a Layout only (its signature)",
    "inner_partition": "cutlass.cute has no inner_partition",
    "outer_partition": "cutlass.cute has no outer_partition",
    "zip_layout": "cutlass.cute has no zip of a layout",
    "swizzle_as_f2": "the CuTe DSL has no F2 strides",
    "layout_add": "the CuTe DSL has no layout_add (NVlabs PyCuTe's own operation)",
}


def dsl_case(op, args):
    """(args the DSL call takes, or an unsupported reason): swizzle_values gets the span the
    neutral swizzle has (the DSL prints an identity swizzle as S<0,4,3>, whatever its M and
    S); up/downcast by 1 is no recast_layout (recast_layout(1, 1, L) is L itself)."""
    if op == "swizzle_values":
        return (args[0], 1 << args[0].span), None
    if op in ("upcast", "downcast", "composed_upcast", "composed_downcast") and int(args[1]) == 1:
        return args, "the DSL has no upcast / downcast but recast_layout, and recast_layout(1, 1, L) is L"
    return args, None


def _static(x):
    if isinstance(x, tuple):
        return tuple(_static(e) for e in x)
    if isinstance(x, LayoutBase):
        return LayoutBase(_static(x.shape), _static(x.stride))
    if isinstance(x, ComposedLayoutBase):
        return ComposedLayoutBase(_static(x.outer), _static(x.offset), _static(x.inner))
    if isinstance(x, SignedLayout):
        return SignedLayout(_static(x.shape), _static(x.stride))
    if isinstance(x, int) and not isinstance(x, (bool, C)):
        return C(x)
    return x


def _text(t):
    return t.replace(" ", "").replace(",)", ")") if " o " not in t else \
        " o ".join(p.replace(" ", "").replace(",)", ")") for p in t.split(" o "))


def _composed(t):
    # the DSL 4.8.1 prints a negative shift without its '>' ("S<1,1,-5 o 0 o ..."): read both
    t = re.sub(r"^S<\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)(?:\s*>)?", r"Sw<\1,\2,\3>", t.strip())
    return _static(parse_value(_text(t)))


def dsl_answer(op, kind, text):
    """The DSL's text as a neutral value of ``kind`` (every integer static: trace time)."""
    if kind == "values":
        return tuple(C(int(x)) for x in text.split())
    if kind in ("int", "inttuple"):
        v = parse_tuple(_text(text))
        if kind == "int" and isinstance(v, tuple):
            raise LayoutError(f"expected an integer, got {text!r}")
        return _static(v)
    if kind == "composed_offset":
        layout, _, off = text.rpartition("|")
        return _composed(layout), _static(parse_tuple(off))
    if kind == "layout_offset":
        m = re.fullmatch(r"\s*tensor<\s*(\d+)\s+o\s+(.*)>\s*", text)
        if not m:
            raise LayoutError(f"expected tensor<OFFSET o LAYOUT>, got {text!r}")
        return _static(LayoutBase.parse(_text(m.group(2)))), C(int(m.group(1)))
    return _composed(text)
