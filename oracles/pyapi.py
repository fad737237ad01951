"""Every oracle operation mapped onto a pycute-style Python API (DESIGN.md table).

A ``PyApi`` wraps an imported module: it converts the neutral arguments into the module's
values by their kind (``OPS`` in ``protocol.py``: a layout becomes ``mod.Layout(shape,
stride)`` with plain ints, ``_`` becomes the module's placeholder, pycute's ``None``), calls
the module's function for the op, and converts the answer back into the neutral form by
the op's answer kind (``ANSWERS``).  An op whose function (or ``Layout`` method) the module
lacks is "unsupported"; an exception of the module is "raised" with its type and message.

The mapping is a table of ``Call(needs, fn)`` entries, one per op: ``needs`` names the
module attributes (``"Layout.__len__"`` for a method) that must exist, ``fn(mod, *args)``
does the call on converted arguments.  ``PYCUTE_CALLS`` is pycute's (nvidia-cutlass 4.2:
``int_tuple.py`` and ``layout.py``); another pycute-like module passes ``overrides``
(op -> Call, or None for "this module has no such op") and, if its placeholder differs,
``underscore``.
"""

import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from layoutcheck.oracles.protocol import ANSWERS, OPS, Outcome

from layoutcheck.composed import ComposedLayoutBase, F2Layout, Swizzle, is_composed_value
from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase, Underscore

__all__ = ["Call", "PyApi", "PYCUTE_CALLS", "describe", "package_function", "COMPOSED_CALLS", "nvlabs_composed_calls", "to_module_value"]


@dataclass(frozen=True)
class Call:
    needs: tuple          # module attributes the call uses ("crd2idx", "Layout.__call__")
    fn: Callable          # fn(mod, *converted_args) -> the module's raw answer


def _opt(name):
    """``mod.name(x, *rest)``, the optional trailing argument passed only when given."""
    return Call((name,), lambda m, *a: getattr(m, name)(*a))


def _values(m, L):
    n = m.size(L) if hasattr(m, "size") else L.size()
    return tuple(L(i) for i in range(n))


def _slice_layout(m, L, c):
    """pycute's documented slice of a layout: ``L(c)`` with ``None`` in ``c`` (layout.py
    ``Layout.__call__``: "Slice the layout and return the sublayout"); without a ``None`` it
    is the coordinate function, as CuTe's ``operator()``."""
    return L(c)


# pycute's API (nvidia-cutlass 4.2.0.0), one entry per op of OPS; a module without the
# named function (pycute has no dice, congruent, compatible) answers "unsupported".
PYCUTE_CALLS = {
    "coalesce": _opt("coalesce"),
    "filter": _opt("filter"),
    "complement": _opt("complement"),
    **{op: _opt(op) for op in ("composition", "logical_divide", "zipped_divide", "tiled_divide",
                               "flat_divide", "logical_product", "zipped_product",
                               "tiled_product", "blocked_product", "raked_product",
                               "right_inverse", "left_inverse", "size", "cosize")},
    "values": Call(("Layout.__call__",), _values),
    "eval_coord": Call(("Layout.__call__",), lambda m, L, c: L(c)),
    "get_mode": Call(("Layout.__getitem__",), lambda m, L, i: L[i]),
    "rank": Call(("Layout.__len__",), lambda m, L: len(L)),
    "crd2idx": _opt("crd2idx"),
    "idx2crd": _opt("idx2crd"),
    "crd2crd": _opt("crd2crd"),
    "slice_": Call(("Layout.__call__",), _slice_layout),
    "dice": Call(("dice",), lambda m, L, c: m.dice(c, L)),  # CuTe's dice(c, L); not in pycute
    "slice_and_offset": Call(("slice_and_offset",), lambda m, L, c: m.slice_and_offset(c, L)),
    "layout_left": Call(("Layout",), lambda m, s: m.Layout(s)),
    "shape_div": _opt("shape_div"),
    "prefix_product": _opt("prefix_product"),
    "product": _opt("product"),
    "inner_product": _opt("inner_product"),
    "elem_scale": _opt("elem_scale"),
    "congruent": _opt("congruent"),     # CuTe's; not in pycute (unsupported there)
    "compatible": _opt("compatible"),
    "flatten": _opt("flatten"),
}


class BadResult(Exception):
    """The module answered something that is not a value of the op's answer kind (its
    message starts with ``protocol.INVALID_ANSWER``, "returned ...")."""


def describe(e):
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else f"{type(e).__name__} (no message)"


def _plain(t):
    if isinstance(t, (tuple, list)):
        return tuple(_plain(e) for e in t)
    if isinstance(t, bool) or not _is_int(t):
        raise BadResult(f"{t!r} is not an integer")
    return int(t)


def _is_int(x):
    try:
        return isinstance(x, numbers.Integral) and not isinstance(x, bool)
    except ImportError:  # pragma: no cover
        return isinstance(x, int)


class PyApi:
    """The op table of one pycute-style module (see the module docstring)."""

    def __init__(self, mod, name=None, overrides=None, underscore=None):
        self.mod = mod
        self.name = name or getattr(mod, "__name__", "module")
        self.calls = dict(PYCUTE_CALLS)
        self.calls.update(overrides or {})
        self.underscore = underscore

    # --- neutral -> module ------------------------------------------------------------------
    def to_module(self, kind, x):
        """A neutral argument of ``kind`` (an OPS argument kind) as the module's value."""
        if isinstance(x, Underscore):
            return self.underscore
        if is_composed_value(x):  # a swizzle, composed or F2 layout
            return to_module_value(self, x)
        if isinstance(x, LayoutBase):
            return self.mod.Layout(_plain(x.shape), _plain(x.stride))
        if isinstance(x, tuple):
            return tuple(self.to_module(kind, e) for e in x)
        return int(x)

    # --- module -> neutral ------------------------------------------------------------------
    def from_module(self, kind, r):
        """The module's answer as a neutral value of answer ``kind`` (``ANSWERS``)."""
        if kind == "values":
            try:
                return tuple(_plain(v) for v in r)
            except BadResult as e:
                raise BadResult(f"returned values that are not integers ({e})") from None
        if kind == "layout_offset":
            if not isinstance(r, (tuple, list)) or len(r) != 2:
                raise BadResult(f"returned {r!r}, not a (layout, offset) pair")
            return (self._layout(r[0]), self._int(r[1]))
        if kind == "bool":
            if isinstance(r, bool) or type(r).__name__ == "bool_":
                return bool(r)
            raise BadResult(f"returned {type(r).__name__} {r!r}, not a bool")
        if kind == "inttuple":
            if isinstance(r, LayoutBase) or hasattr(r, "stride"):
                raise BadResult(f"returned a layout {r}, not an IntTuple")
            try:
                return _plain(r)
            except BadResult as e:
                raise BadResult(f"returned {r!r}, not an IntTuple ({e})") from None
        if kind == "int":
            return self._int(r)
        # "layout": a layout, or (slice_ without a placeholder) the coordinate function's int
        if hasattr(r, "shape") and hasattr(r, "stride"):
            return self._layout(r)
        return self._int(r)

    def _layout(self, r):
        if not (hasattr(r, "shape") and hasattr(r, "stride")):
            raise BadResult(f"returned {type(r).__name__} {r!r}, not a layout")
        try:
            return LayoutBase(_plain(r.shape), _plain(r.stride))
        except (LayoutError, BadResult) as e:
            raise BadResult(f"returned an invalid layout {r}: {e}") from None

    def _int(self, r):
        if _is_int(r):
            return int(r)
        raise BadResult(f"returned {type(r).__name__} {r!r}, not an integer")

    # --- one call ---------------------------------------------------------------------------
    def missing(self, op):
        """None when the module has what ``op`` needs, else the reason it is unsupported."""
        call = self.calls.get(op)
        if call is None:
            return f"{self.name} has no {op}"
        for need in call.needs:
            owner, _, attr = need.partition(".")
            obj = getattr(self.mod, owner, None)
            if obj is None or (attr and not hasattr(obj, attr)):
                return f"{self.name} has no {need if attr else op}"
        return None

    def call(self, op, args):
        """One case: an ``Outcome`` in the neutral form."""
        reason = self.missing(op)
        if reason:
            return Outcome.unsupported(reason)
        kinds = OPS[op]
        try:
            margs = [self.to_module(k.rstrip("?"), a) for k, a in zip(kinds, args)]
            raw = self.calls[op].fn(self.mod, *margs)
            return Outcome.ok(self.from_module(ANSWERS[op], raw))
        except BadResult as e:
            return Outcome.raised(str(e))
        except RecursionError:
            return Outcome.raised("RecursionError: maximum recursion depth exceeded")
        except Exception as e:  # noqa: BLE001 - the module's own error is its answer
            return Outcome.raised(describe(e))


def package_function(mod, op, args):
    """The function of this package (``layoutcheck.spec`` / ``layoutcheck.impl``) that answers
    ``op`` on ``args``: the op's namesake, except the profile forms of coalesce (CuTe's walk
    of the target profile, ``sense="cute"``) and filter (``filter_profile``)."""
    if op == "coalesce" and len(args) == 2:
        return lambda L, profile: mod.coalesce(L, profile, sense="cute")
    if op == "filter" and len(args) == 2:
        return getattr(mod, "filter_profile", None)
    return getattr(mod, op, None)


# --- swizzles, composed layouts, F2 layouts, recast and tiling helpers -------------------------
# the operations on swizzles, composed layouts, recast and tiling on pycute-style modules (hooked into ``oracles/pyapi.py``).
#
# pycute (nvidia-cutlass 4.2.0.0, ``pycute/swizzle.py``) has ``Swizzle(bits, base, shift)``
# (``__call__``, ``size()`` = 2^(bits+base+|shift|), ``cosize()``) and ``ComposedLayout(layoutB,
# offset, layoutA)`` = ``layoutB(offset + layoutA(c))`` with ``size()`` and ``cosize()``; nothing
# else of the vocabulary beyond the algebra (no algebra on composed layouts, no recast, no tiling helpers).
#
# NVlabs PyCuTe (``pycute/swizzle.py``, ``layout.py``, ``algebra.py``, ``htuple.py``) has
# ``Swizzle`` (no ``size()``), ``F2`` strides, ``nullspace``, ``make_layout_like``,
# ``make_ordered_layout``, ``product_each`` and ``recast(layout, scale)``: ``scale = N`` packs N
# elements (CuTe's ``upcast<N>``), ``scale = Fraction(1, N)`` unpacks (``downcast<N>``), so
# ``recast_layout<Old,New>`` is ``recast(L, Fraction(new_bits, old_bits))``.  Neither has a
# TiledCopy or a conversion of a Swizzle to F2 strides (NVlabs' ``Swizzle`` is a functor only).

def to_module_value(api, x):
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
        return m.Layout(_to_ints(x.shape), f2(x.stride))
    raise TypeError(f"{type(x).__name__} has no counterpart in {api.name}")


def _to_ints(t):
    return tuple(_to_ints(e) for e in t) if isinstance(t, tuple) else int(t)


def _span(sw):
    return 1 << (sw.bits + sw.base + abs(sw.shift))


_NONE = ("swizzle_composition", "layout_swizzle_composition", "composed_composition",
         "composed_logical_divide", "composed_zipped_divide", "composed_tiled_divide",
         "composed_slice_and_offset", "composed_right_inverse", "composed_upcast",
         "composed_downcast", "bank_conflicts", "upcast", "downcast", "recast_layout",
         "max_common_vector", "max_common_layout", "nullspace", "product_each",
         "make_ordered_layout", "make_layout_like", "tile_to_shape", "local_tile",
         "local_partition", "inner_partition", "outer_partition", "zip_layout", "group_modes",
         "f2_values", "tiled_copy_partition_S", "tiled_copy_partition_D", "swizzle_as_f2",
         "layout_add")

# pycute (nvidia-cutlass 4.2.0.0): the swizzle functor and ComposedLayout's own methods.
COMPOSED_CALLS = {
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


def nvlabs_composed_calls():
    """NVlabs PyCuTe's differences from COMPOSED_CALLS."""
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
        "layout_add": Call(("layout_add",), lambda m, A, B: m.layout_add(A, B)),
    }


PYCUTE_CALLS.update(COMPOSED_CALLS)
assert set(PYCUTE_CALLS) == set(OPS), set(OPS) ^ set(PYCUTE_CALLS)
