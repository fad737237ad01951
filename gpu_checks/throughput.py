"""Throughput of the address and data-movement kernels on large layouts (device only).

For each size 2^k (k in 24..30 by default) a transposing layout of that size is run
through ``lc_address`` (8 bytes written per address), ``lc_gather`` and ``lc_copy`` (4 bytes
read + 4 written per element).  Every launch is verified in full against
``reference_offsets`` (a third, independent formula: a broadcast sum of per-mode offsets)
computed on the device, and on a sample of indices against the spec.  Rates are reported in
addresses/s and GB/s, against the device's peak memory bandwidth.
"""

import numpy as np
from layoutcheck.gpu_checks.checks import Result
from layoutcheck.gpu_checks.generate import flat_layout
from layoutcheck.gpu_checks.kernels import flat_modes

from layoutcheck import spec

__all__ = ["reference_offsets", "large_layouts", "peak_bandwidth", "measure"]


def reference_offsets(L, xp=np):
    """Phi_L over its whole domain as a broadcast sum: mode m contributes x_m * d_m and the
    colex index is x_1 + s_1 (x_2 + s_2 (...)), so the table is built mode by mode as an
    outer sum (paper Construction 2.1.2.19 read as a mixed-radix table)."""
    shapes, strides = flat_modes(L)
    table = xp.zeros(1, dtype=xp.int64)
    for s, d in zip(shapes, strides):
        table = (table[None, :] + (xp.arange(s, dtype=xp.int64) * d)[:, None]).reshape(-1)
    return table


def large_layouts(log2_size):
    """(S, D) of size 2^k: S column-major (a, b, c), D the same shape with its modes laid
    out in the order (b, c, a) -- a transpose, the access pattern of a tiled copy."""
    a = log2_size // 3
    b = log2_size // 3
    c = log2_size - a - b
    sa, sb, sc = 1 << a, 1 << b, 1 << c
    S = flat_layout([sa, sb, sc], [1, sa, sa * sb])
    D = flat_layout([sa, sb, sc], [sb * sc, 1, sb])
    return S, D


def peak_bandwidth(cupy):
    """(GB/s, how it was found): 2 x memory clock x bus width, from the device attributes."""
    rt = cupy.cuda.runtime
    dev = cupy.cuda.Device().id
    props = rt.getDeviceProperties(dev)
    clock = props.get("memoryClockRate")  # kHz
    width = props.get("memoryBusWidth")  # bits
    how = "cudaDeviceProp"
    if not clock or not width:
        clock = rt.deviceGetAttribute(36, dev)  # cudaDevAttrMemoryClockRate
        width = rt.deviceGetAttribute(37, dev)  # cudaDevAttrGlobalMemoryBusWidth
        how = "cudaDeviceGetAttribute"
    if not clock or not width:
        return None, "the device reports no memory clock or bus width"
    return 2.0 * clock * 1e3 * width / 8 / 1e9, how


def _time(cp, fn, reps):
    fn()  # warm-up
    cp.cuda.runtime.deviceSynchronize()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) / 1e3)
    return float(np.median(times))


def _sample_ok(L, got_host_sample, idx):
    return all(int(spec.Phi(spec.as_layout(L), int(i))) == int(v)
               for i, v in zip(idx, got_host_sample))


def measure(module, log2_sizes=(24, 26, 28, 30), reps=3, samples=256):
    """One ``Result`` per kernel (address, gather, copy) over the given sizes.

    ``module`` is a ``DeviceModule`` of ``address_source()``.
    """
    cp = module.cupy
    peak, how = peak_bandwidth(cp)
    rows = {name: Result(f"{name} (large)", "device") for name in ("address", "gather", "copy")}
    rng = np.random.default_rng(0)
    for k in log2_sizes:
        S, D = large_layouts(k)
        n = 1 << k
        s_s, s_d = (cp.asarray(np.asarray(x, np.int64)) for x in flat_modes(S))
        d_s, d_d = (cp.asarray(np.asarray(x, np.int64)) for x in flat_modes(D))
        rank = len(flat_modes(D)[0])
        idx = rng.integers(0, n, size=samples)

        # addresses of D
        out = cp.empty(n, dtype=cp.int64)
        t = _time(cp, lambda: module.launch_device("lc_address", n, d_s, d_d, rank, n, out), reps)
        ref_d = reference_offsets(D, cp)
        ok = bool(cp.array_equal(out, ref_d)) and _sample_ok(D, cp.asnumpy(out[idx]), idx)
        _add(rows["address"], f"{D}", n, ok, t, 8 * n, peak)
        del out

        # gather through D
        src = cp.random.standard_normal(n, dtype=cp.float32)
        dst = cp.empty(n, dtype=cp.float32)
        t = _time(cp, lambda: module.launch_device("lc_gather", n, d_s, d_d, rank, n, src, dst),
                  reps)
        ok = bool(cp.array_equal(dst, src[ref_d]))
        _add(rows["gather"], f"{D}", n, ok, t, 8 * n, peak)

        # copy S -> D (a transpose)
        ref_s = reference_offsets(S, cp)
        t = _time(cp, lambda: module.launch_device("lc_copy", n, s_s, s_d, rank, d_s, d_d, rank,
                                                   n, src, dst), reps)
        want = cp.empty_like(dst)
        want[ref_d] = src[ref_s]
        ok = bool(cp.array_equal(dst, want))
        _add(rows["copy"], f"{S} -> {D}", n, ok, t, 8 * n, peak)
        del src, dst, want, ref_d, ref_s
        cp.get_default_memory_pool().free_all_blocks()
    for r in rows.values():
        r.metrics["peak_GBps"] = round(peak, 1) if peak else None
        r.metrics["peak_source"] = how
    return list(rows.values())


def _add(res, what, n, ok, seconds, nbytes, peak):
    res.checked += 1
    res.seconds += seconds
    if not ok:
        res.failed += 1
        res.mismatches.append(f"{what}: device output differs from the reference")
    gbps = nbytes / seconds / 1e9
    res.metrics.setdefault("sizes", []).append({
        "log2_elements": int(n).bit_length() - 1, "layout": what,
        "seconds": seconds, "addresses_per_s": n / seconds, "GBps": gbps,
        "fraction_of_peak": (gbps / peak) if peak else None})
