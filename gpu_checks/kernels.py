"""The kernel sources of the GPU checks and their signatures.

* ``address_source()``: ``address.cu`` (layouts passed at run time as shape/stride arrays):
  ``lc_address``, ``lc_sweep`` (many layouts per launch), ``lc_gather``, ``lc_scatter``,
  ``lc_copy``.
* ``specialised_source(layouts)``: one kernel per layout with shape and stride baked in as
  compile-time constants (the way CuTe kernels see static layouts).
* ``cute_source(cases)``: device code on the real CuTe headers; see ``CuteCase``.

A ``KernelSource`` is the text plus a signature table (kernel name -> C parameter types)
from which the host shim's entry points and the launch argument checks are derived.
"""

import hashlib
from dataclasses import dataclass, field

from layoutcheck.gpu_checks.toolchain import SOURCE_DIR

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["MAX_RANK", "KernelSource", "address_source", "specialised_source", "CuteCase",
           "cute_source", "flat_modes", "pack_batch", "CUTE_OPS"]

MAX_RANK = 16  # LC_MAX_RANK in lc_layout.cuh: flattened rank bound of run-time layouts

_SHAPE = ("const long long*", "const long long*", "int")
ADDRESS_KERNELS = {
    "lc_address": _SHAPE + ("long long", "long long*"),
    "lc_sweep": ("const long long*", "const long long*", "const long long*", "int", "long long",
                 "long long*"),
    "lc_gather": _SHAPE + ("long long", "const float*", "float*"),
    "lc_scatter": _SHAPE + ("long long", "const float*", "float*"),
    "lc_copy": _SHAPE + _SHAPE + ("long long", "const float*", "float*"),
}


@dataclass(frozen=True)
class KernelSource:
    """CUDA source text, its kernels' signatures, and whether it needs the CuTe headers."""
    name: str
    text: str
    kernels: dict = field(hash=False)
    cute: bool = False
    defines: tuple = ()

    @property
    def digest(self):
        return hashlib.sha256(self.text.encode()).hexdigest()[:12]

    def host_wrappers(self):
        """``extern "C" void host_K(unsigned grid, unsigned block, params...)`` per kernel."""
        out = []
        for kname, params in self.kernels.items():
            decl = ", ".join(f"{t} a{j}" for j, t in enumerate(params))
            args = ", ".join(f"a{j}" for j in range(len(params)))
            sep = ", " if params else ""
            out.append(f'extern "C" void host_{kname}(unsigned grid, unsigned block{sep}{decl}) '
                       f'{{ lc_host_launch({kname}, grid, block{sep}{args}); }}')
        return "\n".join(out) + "\n"


def include_local(text):
    """Inline ``#include "lc_layout.cuh"`` so the text is self-contained (one hash)."""
    header = (SOURCE_DIR / "lc_layout.cuh").read_text()
    return text.replace('#include "lc_layout.cuh"', header)


def address_source(defines=()):
    text = include_local((SOURCE_DIR / "address.cu").read_text())
    return KernelSource("address", text, dict(ADDRESS_KERNELS), defines=tuple(defines))


def flat_modes(layout):
    """The flattened (shapes, strides) of a layout, checked against the rank bound."""
    if not isinstance(layout, LayoutBase):
        raise LayoutError(f"expected a layout, got {layout!r}")
    shapes, strides = leaves(layout.shape), leaves(layout.stride)
    if len(shapes) > MAX_RANK:
        raise LayoutError(f"layout {layout} has flattened rank {len(shapes)}; the GPU kernels "
                          f"take at most {MAX_RANK} modes")
    return [int(s) for s in shapes], [int(d) for d in strides]


def pack_batch(layouts):
    """Concatenate layouts' descriptors for ``lc_sweep``.

    Returns (desc, desc_start, out_start) as int64 lists: layout k's descriptor
    (rank, s_1..s_r, d_1..d_r) starts at desc[desc_start[k]]; its offsets fill
    [out_start[k], out_start[k+1]).
    """
    desc, desc_start, out_start = [], [], [0]
    for L in layouts:
        s, d = flat_modes(L)
        desc_start.append(len(desc))
        desc += [len(s), *s, *d]
        size = 1
        for x in s:
            size *= x
        out_start.append(out_start[-1] + size)
    return desc, desc_start, out_start


def specialised_source(layouts):
    """One kernel ``lc_special_K(long long* out)`` per layout, all constants baked in.

    Each body is the colex decomposition of Construction 2.1.2.19 unrolled over the modes,
    with every shape, stride and the size written as literals.
    """
    lines = ['#include "lc_layout.cuh"', ""]
    kernels = {}
    for k, L in enumerate(layouts):
        s, d = flat_modes(L)
        size = 1
        for x in s:
            size *= x
        lines.append(f"// {L}")
        lines.append(f'extern "C" __global__ void lc_special_{k}(long long* out) {{')
        lines.append(f"  LC_FOR_EACH_INDEX(i, {size}LL) {{")
        lines.append("    long long r = i, o = 0;")
        for sm, dm in zip(s, d):
            lines.append(f"    o += (r % {sm}LL) * {dm}LL; r /= {sm}LL;")
        lines.append("    out[i] = o;")
        lines.append("  }")
        lines.append("}")
        kernels[f"lc_special_{k}"] = ("long long*",)
    return KernelSource("specialised", include_local("\n".join(lines) + "\n"), kernels)


# ----------------------------------------------------------------------------- CuTe kernels

CUTE_OPS = ("layout", "coalesce", "composition", "logical_divide")
DESC_LEN = 512  # int64 slots for one serialised result layout

_CUTE_PRELUDE = r"""#include <cute/layout.hpp>
#include "lc_layout.cuh"

// Serialise a CuTe IntTuple as (tag, value) int64 pairs: tag 0 dynamic leaf, 1 static
// leaf, 2 open tuple, 3 close tuple.  Decoded by gpu_checks/checks.py.
template <class T>
__host__ __device__ int lc_serialise(T const& t, long long* buf, int j) {
  if constexpr (cute::is_tuple<T>::value) {
    buf[j++] = 2; buf[j++] = 0;
    cute::for_each(t, [&](auto const& e) { j = lc_serialise(e, buf, j); });
    buf[j++] = 3; buf[j++] = 0;
  } else {
    buf[j++] = cute::is_static<T>::value ? 1 : 0;
    buf[j++] = (long long)t;
  }
  return j;
}

// desc = [n_shape_slots, n_stride_slots, shape pairs..., stride pairs...]
template <class L>
__host__ __device__ void lc_describe(L const& layout, long long* desc) {
  int a = lc_serialise(layout.shape(), desc + 2, 0);
  int b = lc_serialise(layout.stride(), desc + 2 + a, 0);
  desc[0] = a; desc[1] = b;
}
"""


@dataclass(frozen=True)
class CuteCase:
    """One CuTe device computation: ``op`` in CUTE_OPS on layouts ``a`` (and ``b``).

    ``layout``: a itself; ``coalesce``: coalesce(a); ``composition``: composition(a, b);
    ``logical_divide``: logical_divide(a, b) with b a layout tiler.  Static integers
    (``layoutcheck.integers.C``) become ``Int<N>{}``; dynamic ones are read at run time from
    the kernel's ``dyn`` array, so CuTe sees a real runtime ``int``.
    """
    op: str
    a: LayoutBase
    b: LayoutBase = None

    def __post_init__(self):
        if self.op not in CUTE_OPS:
            raise LayoutError(f"unknown CuTe operation {self.op!r}; known: {', '.join(CUTE_OPS)}")
        if (self.b is None) != (self.op in ("layout", "coalesce")):
            raise LayoutError(f"CuTe operation {self.op} takes "
                              f"{'one layout' if self.b is None else 'two layouts'}")

    def __str__(self):
        return f"{self.op}({self.a})" if self.b is None else f"{self.op}({self.a}, {self.b})"


def _cxx_tuple(t, dyn, maker):
    """C++ for an IntTuple: ``cute::Int<N>{}`` for static leaves, ``int(dyn[k])`` for
    dynamic ones (appending the value to ``dyn``), ``cute::<maker>(...)`` for tuples."""
    if isinstance(t, tuple):
        return f"cute::{maker}(" + ", ".join(_cxx_tuple(x, dyn, maker) for x in t) + ")"
    if isinstance(t, C):
        return f"cute::Int<{int(t)}>{{}}"
    dyn.append(int(t))
    return f"int(dyn[{len(dyn) - 1}])"


def _cxx_layout(L, dyn):
    shape = _cxx_tuple(L.shape, dyn, "make_shape")
    stride = _cxx_tuple(L.stride, dyn, "make_stride")
    return f"cute::make_layout({shape}, {stride})"


def cute_source(cases):
    """One kernel ``lc_cute_K(const long long* dyn, long long* out, long long* desc)`` per
    case: writes R(i) for i < size(R) into ``out`` and R's structure into ``desc``.

    Returns (KernelSource, dyn_values): dyn_values[K] is the ``dyn`` array of case K.
    """
    lines = [_CUTE_PRELUDE]
    kernels, dyn_values = {}, []
    for k, case in enumerate(cases):
        dyn = []
        a = _cxx_layout(case.a, dyn)
        b = _cxx_layout(case.b, dyn) if case.b is not None else None
        expr = {"layout": "A", "coalesce": "cute::coalesce(A)",
                "composition": "cute::composition(A, B)",
                "logical_divide": "cute::logical_divide(A, B)"}[case.op]
        lines.append(f"// {case}")
        lines.append(f'extern "C" __global__ void lc_cute_{k}(const long long* dyn, '
                     "long long* out, long long* desc) {")
        lines.append(f"  auto A = {a};")
        if b is not None:
            lines.append(f"  auto B = {b};")
        lines.append(f"  auto R = {expr};")
        lines.append("  LC_FOR_EACH_INDEX(i, cute::size(R)) { out[i] = R(i); }")
        lines.append("  if (blockIdx.x == 0 && threadIdx.x == 0) lc_describe(R, desc);")
        lines.append("}")
        kernels[f"lc_cute_{k}"] = ("const long long*", "long long*", "long long*")
        dyn_values.append(dyn)
    text = include_local("\n".join(lines) + "\n")
    return KernelSource("cute", text, kernels, cute=True), dyn_values
