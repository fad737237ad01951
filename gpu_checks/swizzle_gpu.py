"""GPU checks of swizzles: swizzled addresses and shared-memory bank conflicts.

Three kernel sources, each compiled with NVRTC and nvcc for sm_90 (``--compile-only``) and
executed through the host shim on the CPU (here) or with CuPy on a device:

- ``swizzle_addr`` (plain CUDA): one thread per index computes Sw(offset + L(i)) from the
  swizzle's masks and the flattened inner layout, as a hand-written kernel would;
- ``swizzle_cute`` (CuTe device code): ``composition(Swizzle<B,M,S>{}, L)`` evaluated in the
  kernel at every index, and ``slice_and_offset`` of it (CuTe's decay to a normal layout):
  S(i) + offset at every index of the slice;
- ``bank`` (CuTe device code): each lane of a warp forms the byte address
  ``C(T(lane)) * W`` of its shared-memory access with CuTe's types and writes it out; on a
  device every warp of a 1024-thread block then repeats that access with ``W``-byte loads,
  timed with ``clock64`` against a conflict-free control (lane reads byte ``lane * W``).

Every address is compared with ``layoutcheck.spec`` (``composed_values``; the bank-conflict
count of the addresses the kernel formed is compared with ``spec.bank_conflicts``).  On a
device the measured time ratio (pattern / control) is recorded next to the predicted
wavefront ratio; a conflict-free pattern must time like the control and a pattern with k
times the control's wavefronts must be clearly slower.

    python -m layoutcheck.gpu_checks.swizzle_gpu [--compile-only] [--report FILE]
"""

import argparse
import json
import random
import sys
import time

import numpy as np
from layoutcheck.gpu_checks import toolchain as T
from layoutcheck.gpu_checks.checks import Result, check_compile, timed
from layoutcheck.gpu_checks.execute import DeviceModule, HostModule, device_unavailable_reason
from layoutcheck.gpu_checks.kernels import KernelSource, include_local

from layoutcheck import spec
from layoutcheck import spec as S
from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["SwizzleCase", "BankCase", "swizzle_cases", "bank_cases", "sources", "check_addr",
           "check_cute", "check_bank_addresses", "measure_banks", "run", "main", "cache_is_warm"]

SMEM_BYTES = 48 * 1024


class SwizzleCase:
    """Sw o _0 o L (and a slice coordinate for the CuTe kernel's slice_and_offset)."""

    def __init__(self, sw, L, coord):
        self.sw, self.L, self.coord = sw, L, coord
        self.C = ComposedLayoutBase(sw, C(0), L)

    def __str__(self):
        return str(self.C)


class BankCase:
    """One warp's access: lane t reads the W-byte element C(T(t)) of a shared-memory layout."""

    def __init__(self, smem, threads, width):
        self.smem, self.threads, self.width = smem, threads, width

    def __str__(self):
        return f"bank_conflicts({self.smem}, {self.threads}, {self.width})"


def _atom(rng):
    r, c = 1 << rng.randint(0, 4), 1 << rng.randint(2, 6)
    if rng.random() < 0.5:
        return LayoutBase((C(r), C(c)), (C(c), C(1)))
    return LayoutBase((C(r), C(c)), (C(1), C(r)))


def swizzle_cases(seed=0, count=24):
    """Power-of-two atoms (CuTe's own use) under random swizzles; a row/column slice."""
    rng = random.Random(seed)
    out = []
    for _k in range(count):
        L = _atom(rng)
        b = rng.randint(0, 3)
        m = rng.randint(0, 4)
        s = rng.choice([1, -1]) * rng.randint(max(b, 1), b + 3) if b else rng.randint(0, 3)
        sw = Swizzle(b, m, s)
        r, c = int(L.shape[0]), int(L.shape[1])
        coord = (rng.randrange(r), spec._) if rng.random() < 0.5 else (spec._, rng.randrange(c))
        out.append(SwizzleCase(sw, L, coord))
    return out


def bank_cases():
    """The classic shared-memory patterns: a half-precision 8x64 row-major tile, plain and
    Sw<3,3,3>-swizzled, read by columns and rows (2- and 4-byte elements); the same tile
    recast to 16-byte vectors (upcast<8>: (8,8) and Sw<3,0,3>) read ldmatrix-like, 8 rows of
    one vector column per quarter-warp, and to 8-byte vectors (upcast<4>); a 32x32 float tile
    plain and with Sw<5,0,5>."""
    tile = LayoutBase((C(8), C(64)), (C(64), C(1)))
    f32 = LayoutBase((C(32), C(32)), (C(32), C(1)))
    sw16 = ComposedLayoutBase(Swizzle(3, 3, 3), C(0), tile)
    sw32 = ComposedLayoutBase(Swizzle(5, 0, 5), C(0), f32)
    col = LayoutBase(C(32), C(1))                           # lane t: (t % 8, t / 8)
    row = LayoutBase(C(32), C(8))                           # lane t: row 0, column t
    ldm = LayoutBase((C(8), C(4)), (C(1), C(8)))            # 8 rows of vector columns 0..3
    ld8 = LayoutBase((C(8), C(4)), (C(1), C(16)))
    out = []
    for smem in (tile, sw16):
        out += [BankCase(smem, col, 2), BankCase(smem, row, 2), BankCase(smem, col, 4)]
    for v16, v8 in ((S.upcast(tile, 8), S.upcast(tile, 4)),
                    (S.composed_upcast(sw16, 8), S.composed_upcast(sw16, 4))):
        out += [BankCase(_neutral(v16), ldm, 16), BankCase(_neutral(v8), ld8, 8)]
    out += [BankCase(f32, col, 4), BankCase(sw32, col, 4), BankCase(f32, row, 4)]
    return out


def _neutral(x):
    if isinstance(x, ComposedLayoutBase):
        return ComposedLayoutBase(x.outer, x.offset, LayoutBase(x.inner.shape, x.inner.stride))
    return LayoutBase(x.shape, x.stride)


# --- sources ----------------------------------------------------------------------------------

def _flat(L):
    return [int(x) for x in leaves(L.shape)], [int(x) for x in leaves(L.stride)]


_ADDR = r"""#include "lc_layout.cuh"
// params: B, M, S, offset, rank, shape[rank], stride[rank]
extern "C" __global__ void lc_swizzle_addr(const long long* params, long long* out, long long n) {
  const long long B = params[0], M = params[1], S = params[2], off = params[3];
  const int rank = (int)params[4];
  const long long ylo = M + (S > 0 ? S : 0);
  const long long ymask = ((1LL << B) - 1) << ylo;
  LC_FOR_EACH_INDEX(i, n) {
    long long x = off + lc_phi(i, rank, params + 5, params + 5 + rank);
    long long y = x & ymask;
    out[i] = x ^ (S >= 0 ? (y >> S) : (y << -S));
  }
}
"""


def addr_source():
    return KernelSource("swizzle_addr", include_local(_ADDR),
                        {"lc_swizzle_addr": ("const long long*", "long long*", "long long")})


_SHIM = r"""#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
inline void __syncthreads() {}
inline long long clock64() { return 0; }
#endif
"""


def _cxx(x):
    if isinstance(x, tuple):
        return "cute::make_tuple(" + ", ".join(_cxx(e) for e in x) + ")"
    return f"cute::Int<{int(x)}>{{}}"


def _cxx_layout(L):
    return f"cute::make_layout({_cxx(L.shape)}, {_cxx(L.stride)})"


def _cxx_smem(x):
    if isinstance(x, ComposedLayoutBase):
        b, m, s = x.outer.params
        return f"cute::composition(cute::Swizzle<{b},{m},{s}>{{}}, {_cxx_layout(x.inner)})"
    return _cxx_layout(x)


def _cxx_coord(c):
    return "cute::make_coord(" + ", ".join("cute::_" if e is spec._ else f"cute::Int<{e}>{{}}"
                                           for e in c) + ")"


def cute_source(cases):
    lines = ["#include <cute/swizzle_layout.hpp>", '#include "lc_layout.cuh"', ""]
    kernels = {}
    for k, case in enumerate(cases):
        lines += [f"// {case}; slice at {case.coord}",
                  f'extern "C" __global__ void lc_swz_{k}(long long* out, long long* sliced) {{',
                  f"  auto Cl = {_cxx_smem(case.C)};",
                  "  LC_FOR_EACH_INDEX(i, cute::size(Cl)) { out[i] = Cl(i); }",
                  f"  auto so = cute::slice_and_offset({_cxx_coord(case.coord)}, Cl);",
                  "  auto S = cute::get<0>(so);",
                  "  LC_FOR_EACH_INDEX(i, cute::size(S)) { sliced[i] = S(i) + cute::get<1>(so); }",
                  "}"]
        kernels[f"lc_swz_{k}"] = ("long long*", "long long*")
    return KernelSource("swizzle_cute", include_local("\n".join(lines) + "\n"), kernels, cute=True)


_LOADS = r"""// W-byte shared-memory loads that the compiler keeps (volatile asm on a device)
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
__device__ __forceinline__ unsigned lc_sa(const unsigned char* p) {
  return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ unsigned lc_ld1(const unsigned char* p) {
  unsigned a; asm volatile("ld.shared.u8 %0, [%1];" : "=r"(a) : "r"(lc_sa(p))); return a;
}
__device__ __forceinline__ unsigned lc_ld2(const unsigned char* p) {
  unsigned a; asm volatile("ld.shared.u16 %0, [%1];" : "=r"(a) : "r"(lc_sa(p))); return a;
}
__device__ __forceinline__ unsigned lc_ld4(const unsigned char* p) {
  unsigned a; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(a) : "r"(lc_sa(p))); return a;
}
__device__ __forceinline__ unsigned lc_ld8(const unsigned char* p) {
  unsigned a, b;
  asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "r"(lc_sa(p)));
  return a ^ b;
}
__device__ __forceinline__ unsigned lc_ld16(const unsigned char* p) {
  unsigned a, b, c, d;
  asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(lc_sa(p)));
  return a ^ b ^ c ^ d;
}
#else
template <int W> inline unsigned lc_ldw(const unsigned char* p) {
  unsigned acc = 0;
  for (int j = 0; j < W; ++j) acc ^= (unsigned)p[j] << (8 * (j % 4));
  return acc;
}
inline unsigned lc_ld1(const unsigned char* p) { return lc_ldw<1>(p); }
inline unsigned lc_ld2(const unsigned char* p) { return lc_ldw<2>(p); }
inline unsigned lc_ld4(const unsigned char* p) { return lc_ldw<4>(p); }
inline unsigned lc_ld8(const unsigned char* p) { return lc_ldw<8>(p); }
inline unsigned lc_ld16(const unsigned char* p) { return lc_ldw<16>(p); }
#endif
"""


def _kernel(name, addr_expr, width):
    return [f'extern "C" __global__ void {name}(long long* addrs, long long* cycles, '
            "long long* sink, int reps) {",
            f"  __shared__ __align__(16) unsigned char smem[{SMEM_BYTES}];",
            "  int lane = threadIdx.x % 32;",
            f"  long long byte = {addr_expr};",
            "  if (threadIdx.x < 32) addrs[lane] = byte;",
            f"  for (int j = threadIdx.x; j < {SMEM_BYTES // 4}; j += blockDim.x) "
            "((unsigned*)smem)[j] = (unsigned)j;",
            "  __syncthreads();",
            "  unsigned acc = 0;",
            "  long long t0 = clock64();",
            "  for (int r = 0; r < reps; ++r) {",
            "#pragma unroll",
            f"    for (int u = 0; u < 8; ++u) acc ^= lc_ld{width}(smem + byte);",
            "  }",
            "  __syncthreads();",
            "  long long t1 = clock64();",
            "  if (threadIdx.x == 0) cycles[0] = t1 - t0;",
            "  sink[threadIdx.x] = acc;",
            "}"]


def bank_source(cases):
    """lc_bank_K(addrs, cycles, sink, reps) per case and lc_bank_ctl_W per width."""
    lines = ["#include <cute/swizzle_layout.hpp>", _SHIM, _LOADS]
    kernels = {}
    sig = ("long long*", "long long*", "long long*", "int")
    for k, case in enumerate(cases):
        expr = (f"(long long)({_cxx_smem(case.smem)})({_cxx_layout(case.threads)}(lane)) * "
                f"{case.width}")
        lines += [f"// {case}"] + _kernel(f"lc_bank_{k}", expr, case.width)
        kernels[f"lc_bank_{k}"] = sig
    for w in sorted({c.width for c in cases}):
        lines += _kernel(f"lc_bank_ctl_{w}", f"(long long)lane * {w}", w)
        kernels[f"lc_bank_ctl_{w}"] = sig
    return KernelSource("bank", "\n".join(lines) + "\n", kernels, cute=True)


def sources(seed=0, count=24):
    return [addr_source(), cute_source(swizzle_cases(seed, count)), bank_source(bank_cases())]


# --- checks ------------------------------------------------------------------------------------

def _want(Cl):
    return np.asarray(spec.composed_values(Cl), dtype=np.int64)


def check_addr(make, cases):
    module = make(addr_source())
    res = Result("swizzle_addr", module.where)

    def body():
        for case in cases:
            s, d = _flat(case.L)
            params = np.asarray([*case.sw.params, 0, len(s), *s, *d], dtype=np.int64)
            n = len(_want(case.C))
            out = np.full(n, -1, dtype=np.int64)
            module.launch("lc_swizzle_addr", n, params, out, n)
            res.checked += 1
            want = _want(case.C)
            if not np.array_equal(out, want):
                k = int(np.nonzero(out != want)[0][0])
                res.failed += 1
                res.mismatches.append(f"{case}: at {k} the kernel formed {int(out[k])}, the spec "
                                      f"{int(want[k])}")
    return timed(res, body)


def check_cute(make, cases):
    module = make(cute_source(cases))
    res = Result("swizzle_cute", module.where)

    def body():
        for k, case in enumerate(cases):
            want = _want(case.C)
            sliced, off = spec.composed_slice_and_offset(case.C, case.coord)
            want_s = np.asarray(spec.composed_values(sliced), dtype=np.int64) + int(off)
            out = np.full(len(want), -1, dtype=np.int64)
            got_s = np.full(len(want_s), -1, dtype=np.int64)
            module.launch(f"lc_swz_{k}", len(want), out, got_s)
            res.checked += 1
            if not np.array_equal(out, want):
                res.failed += 1
                res.mismatches.append(f"{case}: CuTe's composed layout differs from the spec")
            elif not np.array_equal(got_s, want_s):
                res.failed += 1
                res.mismatches.append(f"{case}: slice_and_offset({case.coord}) on the device "
                                      "differs from the spec")
    return timed(res, body)


def _phases(addrs, width):
    words_per = max(1, width // 4)
    per = 32 // words_per
    out = []
    for p in range(32 // per):
        words = {a // 4 + j for a in addrs[p * per:(p + 1) * per] for j in range(words_per)}
        banks = {}
        for w in words:
            banks.setdefault(w % 32, set()).add(w)
        out.append(max(len(v) for v in banks.values()))
    return tuple(out)


def check_bank_addresses(make, cases):
    """The byte addresses each lane forms with CuTe's types equal the spec's, and so does the
    bank-conflict count computed from them."""
    module = make(bank_source(cases))
    res = Result("bank_addresses", module.where)

    def body():
        for k, case in enumerate(cases):
            addrs = np.full(32, -1, dtype=np.int64)
            module.launch(f"lc_bank_{k}", 32, addrs, np.zeros(1, dtype=np.int64),
                          np.zeros(1024, dtype=np.int64), 1, **_one_warp(module))
            res.checked += 1
            f = (lambda i: spec.composed_eval(case.smem, i)) if isinstance(case.smem, ComposedLayoutBase) \
                else spec.as_layout(case.smem)
            thr = spec.as_layout(case.threads)
            want = [f(thr(t)) * case.width for t in range(32)]
            if addrs.tolist() != want:
                res.failed += 1
                res.mismatches.append(f"{case}: the kernel's addresses differ from the spec's")
                continue
            predicted = spec.bank_conflicts(case.smem, case.threads, case.width)
            from_kernel = _phases(addrs.tolist(), case.width)
            if from_kernel != predicted:
                res.failed += 1
                res.mismatches.append(f"{case}: {from_kernel} wavefronts from the kernel's "
                                      f"addresses, the spec predicts {predicted}")
            res.metrics.setdefault("wavefronts", []).append([str(case), list(predicted)])
    return timed(res, body)


def _one_warp(module):
    return {"grid": 1, "block": 32} if module.where.startswith("host") else {"block": 32}


def measure_banks(module, cases, reps=256):
    """Device only: cycles of every pattern and of the conflict-free control of its width
    (1024 threads, ``reps`` x 8 loads each), the measured ratio and the predicted one."""
    cp = module.cupy
    res = Result("bank_timing", module.where)
    ctl = {}

    def cycles(name):
        addrs, cyc = cp.zeros(32, dtype=cp.int64), cp.zeros(1, dtype=cp.int64)
        sink = cp.zeros(1024, dtype=cp.int64)
        best = None
        for _r in range(5):
            fn = module._module.get_function(name)
            fn((1,), (1024,), (addrs, cyc, sink, np.int32(reps)))
            cp.cuda.runtime.deviceSynchronize()
            v = int(cyc.get()[0])
            best = v if best is None else min(best, v)
        return best

    def body():
        rows = []
        for k, case in enumerate(cases):
            w = case.width
            if w not in ctl:
                ctl[w] = cycles(f"lc_bank_ctl_{w}")
            got = cycles(f"lc_bank_{k}")
            pred = sum(spec.bank_conflicts(case.smem, case.threads, w)) / (32 // (32 // max(1, w // 4)))
            ratio = got / max(1, ctl[w])
            rows.append({"case": str(case), "cycles": got, "control_cycles": ctl[w],
                         "measured_ratio": round(ratio, 3), "predicted_ratio": pred})
            res.checked += 1
            if pred == 1 and ratio > 1.6:
                res.failed += 1
                res.mismatches.append(f"{case}: predicted conflict-free, measured {ratio:.2f}x the control")
            if pred >= 4 and ratio < 2:
                res.failed += 1
                res.mismatches.append(f"{case}: predicted {pred}x the control's wavefronts, "
                                      f"measured only {ratio:.2f}x")
        res.metrics["timings"] = rows
    return timed(res, body)


def cache_is_warm(seed=0, count=24, backends=None, host=True):
    """True when every kernel of ``run(seed=seed, count=count)`` is in the kernel cache
    (``toolchain.cache_dir()``): each source compiled by each backend and, with ``host``,
    built with the host shim; nothing is compiled to find out.  A cold run compiles the CuTe
    sources for more than 100 s, which is why ``layoutcheck gpu`` runs them on request only
    (``--swizzle``)."""
    for src in sources(seed, count):
        for backend in backends or T.backends():
            if T.compile_device(src.text, src.name, backend=backend, cute=src.cute,
                                defines=src.defines, cached_only=True) is None:
                return False
        if host and T.build_host_library(src.text, src.host_wrappers(), src.name, cute=src.cute,
                                         defines=src.defines, cached_only=True) is None:
            return False
    return True


def run(compile_only=False, seed=0, count=24, device=None, log=None, backends=None):
    """Compile every source (with ``backends``, default every usable one: NVRTC and nvcc),
    run the checks on the host shim and, when a device is usable (or ``device`` is True), on
    the device with the timing."""
    say = log or (lambda m: None)
    t0 = time.perf_counter()
    srcs = sources(seed, count)
    report = {"results": []}
    say(f"compiling {len(srcs)} swizzle kernel sources")
    report["results"] += [r.as_dict() for r in check_compile(srcs, list(backends or T.backends()))]
    if not compile_only:
        cases, banks = swizzle_cases(seed, count), bank_cases()
        say("executing on the CPU through the host shim")
        for fn, arg in ((check_addr, cases), (check_cute, cases), (check_bank_addresses, banks)):
            report["results"].append(fn(HostModule, arg).as_dict())
        why = device_unavailable_reason()
        if why is None and device is not False:
            say("executing on the device")
            for fn, arg in ((check_addr, cases), (check_cute, cases), (check_bank_addresses, banks)):
                report["results"].append(fn(DeviceModule, arg).as_dict())
            report["results"].append(measure_banks(DeviceModule(bank_source(banks)), banks).as_dict())
            report["device"] = "run"
        else:
            report["device"] = f"NOT run: {why or 'disabled'}"
    report["ok"] = all(not r["failed"] and not r["mismatches"] for r in report["results"])
    report["seconds"] = round(time.perf_counter() - t0, 2)
    return report


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m layoutcheck.gpu_checks.swizzle_gpu",
                                description="the GPU checks on swizzles, composed layouts, recast and tiling: swizzled addresses, bank conflicts")
    p.add_argument("--compile-only", action="store_true")
    p.add_argument("--report", metavar="FILE")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--count", type=int, default=24)
    a = p.parse_args(argv)
    rep = run(a.compile_only, a.seed, a.count, log=lambda m: print(m, file=sys.stderr))
    for r in rep["results"]:
        state = "ok" if not r["failed"] and not r["mismatches"] else "FAILED"
        print(f"{r['kernel']:<16} {r['where']:<18} {state:<7} checked {r['checked']}"
              + "".join(f"\n  {m}" for m in r["mismatches"][:5]))
    print(f"device: {rep.get('device', 'not run (--compile-only)')}; "
          f"{'ok' if rep['ok'] else 'FAILED'} in {rep['seconds']} s")
    if a.report:
        with open(a.report, "w") as f:
            json.dump(rep, f, indent=2, default=str)
    return 0 if rep["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
