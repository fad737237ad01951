"""Shared-memory bank conflicts of one warp-wide access: the executable specification.

The model (CUDA C++ Programming Guide, "Shared Memory" for compute capability 5.x and later,
Hopper included): shared memory has 32 banks and successive 32-bit words map to successive
banks; threads of a request that touch the same 32-bit word do not conflict (the word is
broadcast); a request of wider than 32-bit elements is served in phases -- 64-bit accesses
by half-warps (2 phases), 128-bit accesses by quarter-warps (4 phases).  A phase takes as
many wavefronts as the largest number of distinct words any one bank must deliver in it.

``bank_conflicts(smem, threads, element_bytes)``: thread t of the warp (t < 32) reads the
element at logical index ``threads(t)`` of the shared-memory layout ``smem`` (a layout or a
composed, e.g. swizzled, layout), i.e. the ``element_bytes`` bytes at byte address
``smem(threads(t)) * element_bytes``.  The answer is the tuple of wavefronts per phase; the
access is conflict-free when every entry is 1, and ``sum(answer) - len(answer)`` is the
number of extra (conflict) wavefronts.  Enumerated literally: every thread, every word.
"""

from layoutcheck.spec import tuples as T
from layoutcheck.spec.layout import as_layout
from layoutcheck.spec.limits import check_enumeration
from layoutcheck.spec.swizzle import composed_eval

from layoutcheck.composed import ComposedLayoutBase
from layoutcheck.errors import LayoutError

__all__ = ["bank_conflicts", "bank_of", "bank_grid", "WARP", "BANKS", "BANK_BYTES",
           "ELEMENT_BYTES"]

WARP = 32
BANKS = 32
BANK_BYTES = 4
ELEMENT_BYTES = (1, 2, 4, 8, 16)


def _offset_fn(smem):
    if isinstance(smem, ComposedLayoutBase):
        return lambda i: composed_eval(smem, i)
    L = as_layout(smem)
    return L


def _check_width(w):
    if isinstance(w, bool) or not isinstance(w, int) or int(w) not in ELEMENT_BYTES:
        raise LayoutError(f"element width {w!r} bytes: expected one of {ELEMENT_BYTES}",
                          condition="element_bytes")
    return int(w)


def bank_of(byte_address):
    """The bank of a byte address: its 32-bit word modulo 32."""
    return (byte_address // BANK_BYTES) % BANKS


def bank_conflicts(smem, threads, element_bytes):
    """Wavefronts per phase (see the module docstring)."""
    w = _check_width(element_bytes)
    thr = as_layout(threads)
    if T.size(thr.shape) != WARP:
        raise LayoutError(f"the thread layout {thr} has size {T.size(thr.shape)}, not one warp "
                          f"({WARP})", condition="warp_size")
    f = _offset_fn(smem)
    n = T.size(smem.inner.shape if isinstance(smem, ComposedLayoutBase) else as_layout(smem).shape)
    per_phase = WARP // max(1, w // BANK_BYTES)
    out = []
    for phase in range(WARP // per_phase):
        words_in_bank = {}
        for t in range(phase * per_phase, (phase + 1) * per_phase):
            i = thr(t)
            if not 0 <= i < n:
                raise LayoutError(f"thread {t} reads index {i}, outside the shared-memory layout's "
                                  f"domain [0, {n})", condition="in_domain")
            start = f(i) * w
            for word in range(start // BANK_BYTES, (start + w - 1) // BANK_BYTES + 1):
                words_in_bank.setdefault(word % BANKS, set()).add(word)
        out.append(max(len(s) for s in words_in_bank.values()))
    return tuple(out)


def bank_grid(smem, element_bytes):
    """The bank of every cell of a rank-2 (shared-memory) layout: rows = mode 0, columns =
    mode 1; cell (r, c) holds bank_of(smem((r, c)) * element_bytes)."""
    w = _check_width(element_bytes)
    inner = smem.inner if isinstance(smem, ComposedLayoutBase) else as_layout(smem)
    if not isinstance(inner.shape, tuple) or len(inner.shape) != 2:
        raise LayoutError(f"bank_grid needs a rank-2 layout, got {smem}", condition="rank")
    f = _offset_fn(smem)
    rows, cols = T.size(inner.shape[0]), T.size(inner.shape[1])
    check_enumeration(rows * cols, lambda: f"the grid of {inner}")
    return [[bank_of(f((r, c)) * w) for c in range(cols)] for r in range(rows)]
