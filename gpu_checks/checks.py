"""The GPU checks: run each kernel on generated layouts and compare with the spec.

Every check takes ``make``, a function from a ``KernelSource`` to a module with
``launch(kernel, n, *args)`` (``execute.HostModule`` on the CPU, ``execute.DeviceModule`` on
a GPU), so the same comparison runs through the host shim here and on a device there.
Expected values come from ``layoutcheck.spec`` (and ``layoutcheck.impl`` when it provides
``values``); data movement is checked element by element against numpy.
"""

import random
import time
from dataclasses import dataclass, field

import numpy as np
from layoutcheck.gpu_checks import generate as G
from layoutcheck.gpu_checks.kernels import (
    CuteCase,
    address_source,
    cute_source,
    flat_modes,
    pack_batch,
    specialised_source,
)
from layoutcheck.gpu_checks.toolchain import ARCH, CompileError, compile_device
from layoutcheck.oracles.known import find_known
from layoutcheck.oracles.protocol import Outcome

from layoutcheck import impl, spec
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

__all__ = ["Result", "spec_values", "impl_values", "decode_layout", "check_address",
           "check_sweep", "check_specialised", "check_movement", "check_cute", "cute_cases",
           "run_checks", "workload", "sample_sources", "check_compile"]


@dataclass
class Result:
    """One kernel's outcome: layouts checked, mismatches (text, minimal layouts in CuTe
    notation), notes (differences that are not failures), and metrics."""
    kernel: str
    where: str
    checked: int = 0
    failed: int = 0
    mismatches: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    seconds: float = 0.0
    metrics: dict = field(default_factory=dict)

    @property
    def ok(self):
        return not self.mismatches and not self.failed

    def as_dict(self):
        return {"kernel": self.kernel, "where": self.where, "checked": self.checked,
                "failed": self.failed,
                "mismatches": self.mismatches, "notes": self.notes,
                "seconds": round(self.seconds, 3), **self.metrics}


def spec_values(L):
    """Phi_L over [0, size L) from the executable spec (Construction 2.1.2.19)."""
    return np.asarray(spec.values(spec.as_layout(L)), dtype=np.int64)


def impl_values(L):
    """The same from ``layoutcheck.impl``, or None when impl does not provide it yet."""
    try:
        fn, conv = getattr(impl, "values"), getattr(impl, "as_layout")
    except (ImportError, AttributeError):
        return None
    return np.asarray(fn(conv(L)), dtype=np.int64)


def _expected(L):
    """(spec values, mismatch text or None between spec and impl)."""
    want = spec_values(L)
    other = impl_values(L)
    if other is not None and not np.array_equal(want, other):
        return want, f"impl.values disagrees with spec.values on {L}"
    return want, None


def _first_diff(got, want):
    k = int(np.flatnonzero(got != want)[0]) if got.shape == want.shape else 0
    return f"index {k}: got {got[k] if k < len(got) else '-'}, spec {want[k]}"


def _i64(xs):
    return np.asarray(xs, dtype=np.int64)


def _run_address(module, L):
    s, d = flat_modes(L)
    n = int(np.prod(s, dtype=np.int64))
    out = np.full(n, -1, dtype=np.int64)
    module.launch("lc_address", n, _i64(s), _i64(d), len(s), n, out)
    return out


def timed(result, fn):
    start = time.perf_counter()
    fn()
    result.seconds = time.perf_counter() - start
    return result


def check_address(make, layouts, *, defines=()):
    """lc_address (one thread per index, layout passed as arrays) against the spec (and
    impl, when it provides ``values``)."""
    module = make(address_source(defines))
    res = Result("address", module.where)

    def fails(L):
        return not np.array_equal(_run_address(module, L), spec_values(L))

    def body():
        for L in layouts:
            want, impl_diff = _expected(L)
            if impl_diff:
                res.mismatches.append(impl_diff)
            got = _run_address(module, L)
            res.checked += 1
            if not np.array_equal(got, want):
                res.failed += 1
                small = G.shrink(L, fails)
                res.mismatches.append(f"Phi mismatch on {small} (found on {L}; "
                                      f"{_first_diff(_run_address(module, small), spec_values(small))})")
    return timed(res, body)


def _run_sweep(module, layouts):
    desc, desc_start, out_start = pack_batch(layouts)
    total = out_start[-1]
    out = np.full(total, -1, dtype=np.int64)
    module.launch("lc_sweep", total, _i64(desc), _i64(desc_start), _i64(out_start),
                  len(layouts), total, out)
    return out, out_start


def check_sweep(make, layouts, *, defines=()):
    """lc_sweep: all layouts in one launch (descriptors and offsets concatenated), against
    the spec (and impl); each mismatching layout is shrunk to a minimal one, reported in
    CuTe notation."""
    module = make(address_source(defines))
    res = Result("sweep", module.where)

    def fails(L):
        return not np.array_equal(_run_sweep(module, [L])[0], spec_values(L))

    def body():
        out, starts = _run_sweep(module, layouts)
        res.metrics["launches"] = 1
        res.metrics["addresses"] = int(starts[-1])
        found = set()
        for k, L in enumerate(layouts):
            res.checked += 1
            got = out[starts[k]:starts[k + 1]]
            want, impl_diff = _expected(L)
            if impl_diff:
                res.mismatches.append(impl_diff)
            if not np.array_equal(got, want):
                res.failed += 1
                small = str(G.shrink(L, fails))
                if small not in found:
                    found.add(small)
                    res.mismatches.append(f"{small} (minimal; from {L}: {_first_diff(got, want)})")
    return timed(res, body)


def check_specialised(make, layouts):
    """One kernel per layout with every shape, stride and size a compile-time constant."""
    module = make(specialised_source(layouts))
    res = Result("specialised", module.where)

    def body():
        for k, L in enumerate(layouts):
            want = spec_values(L)
            out = np.full(len(want), -1, dtype=np.int64)
            module.launch(f"lc_special_{k}", len(want), out)
            res.checked += 1
            if not np.array_equal(out, want):
                res.failed += 1
                res.mismatches.append(f"specialised kernel for {L}: {_first_diff(out, want)}")
    return timed(res, body)


def check_movement(make, pairs, *, seed=0):
    """Gather ``out[i] = in[L(i)]``, scatter ``out[L(i)] = in[i]`` and the copy
    ``dst[D(i)] = src[S(i)]`` on real float buffers, element by element against numpy.
    ``pairs`` are (S, D): S any layout, D injective, same shape."""
    module = make(address_source())
    res = Result("data-movement", module.where)
    rng = np.random.default_rng(seed)

    def body():
        for S, D in pairs:
            vs, vd = spec_values(S), spec_values(D)
            n = len(vs)
            s_modes, d_modes = flat_modes(S), flat_modes(D)
            src = rng.standard_normal(int(spec.cosize(S))).astype(np.float32)
            # gather through S
            out = np.full(n, np.nan, dtype=np.float32)
            module.launch("lc_gather", n, _i64(s_modes[0]), _i64(s_modes[1]), len(s_modes[0]),
                          n, src, out)
            ok_g = np.array_equal(out, src[vs])
            # scatter through D (injective)
            vals = rng.standard_normal(n).astype(np.float32)
            dst = np.full(int(spec.cosize(D)), np.nan, dtype=np.float32)
            module.launch("lc_scatter", n, _i64(d_modes[0]), _i64(d_modes[1]), len(d_modes[0]),
                          n, vals, dst)
            want = np.full_like(dst, np.nan)
            want[vd] = vals
            ok_s = np.array_equal(dst, want, equal_nan=True)
            # copy S -> D
            dst2 = np.full(int(spec.cosize(D)), np.nan, dtype=np.float32)
            module.launch("lc_copy", n, _i64(s_modes[0]), _i64(s_modes[1]), len(s_modes[0]),
                          _i64(d_modes[0]), _i64(d_modes[1]), len(d_modes[0]), n, src, dst2)
            want2 = np.full_like(dst2, np.nan)
            want2[vd] = src[vs]
            ok_c = np.array_equal(dst2, want2, equal_nan=True)
            res.checked += 1
            res.failed += not (ok_g and ok_s and ok_c)
            for ok, what in ((ok_g, f"gather through {S}"), (ok_s, f"scatter through {D}"),
                             (ok_c, f"copy {S} -> {D}")):
                if not ok:
                    res.mismatches.append(f"{what}: buffers differ from numpy")
    return timed(res, body)


# ------------------------------------------------------------------------------ CuTe device code

def decode_layout(desc):
    """Inverse of ``lc_describe`` in the CuTe kernels: (tag, value) int64 pairs ->
    a ``LayoutBase`` (tag 0 dynamic leaf, 1 static leaf ``C``, 2 open, 3 close)."""
    na, nb = int(desc[0]), int(desc[1])

    def parse(tokens):
        pos = 0

        def node():
            nonlocal pos
            tag, val = int(tokens[pos]), int(tokens[pos + 1])
            pos += 2
            if tag == 2:
                items = []
                while int(tokens[pos]) != 3:
                    items.append(node())
                pos += 2
                return tuple(items)
            if tag in (0, 1):
                return C(val) if tag == 1 else val
            raise ValueError(f"bad tag {tag} in a CuTe layout description")

        out = node()
        if pos != len(tokens):
            raise ValueError("trailing tokens in a CuTe layout description")
        return out

    return LayoutBase(parse(desc[2:2 + na]), parse(desc[2 + na:2 + na + nb]))


def _spec_op(name):
    return getattr(spec, name, None)


def _structure_note(case, got, name, *args):
    """Compare CuTe's result with spec's operation when spec has it: a structural
    difference (same function, other form) is a note, a different function a mismatch."""
    fn = _spec_op(name)
    if fn is None:
        return None, f"spec.{name} not available yet: {case} compared by layout function only"
    try:
        want = fn(*[spec.as_layout(a) for a in args])
    except Exception as e:  # noqa: BLE001 - spec refusing is itself worth reporting
        return None, f"spec.{name} raised on {case}: {type(e).__name__}: {e}"
    if not isinstance(want, LayoutBase):
        return None, None
    if not np.array_equal(spec_values(want), spec_values(got)):
        return f"{case}: CuTe gives {got}, spec.{name} gives {want} (different functions)", None
    if str(want) != str(got):
        return None, f"{case}: CuTe {got} vs spec {want} (same function, different form)"
    return None, None


def _known_finding(case, result=None):
    """The findings-register id that explains a CuTe disagreement on ``case``, or None.
    The kernels run CuTe C++'s own code, so findings about oracle ``cute-cpp`` apply; the
    kernel's ``result`` layout must be exactly the one the finding produces."""
    for module in ("layoutcheck.oracles.cpp.findings.algebra", "layoutcheck.oracles.pycute_wheel.findings.algebra"):
        try:  # these modules register the predicates that findings' match.when names
            __import__(module)
        except Exception:  # noqa: BLE001 - a missing predicate just means "not known"
            pass
    inputs = (case.a,) if case.b is None else (case.a, case.b)
    answer = None if result is None else Outcome.ok(result)
    return find_known("cute-cpp", case.op, "agreement", inputs, answer)


def check_cute(make, cases):
    """Real CuTe device code: make_layout with static Int<N> and runtime ints, and
    coalesce / composition / logical_divide evaluated in the kernel.  Checked against the
    spec: R(i) for every i, size(R), the printed structure where it must hold."""
    source, dyn = cute_source(cases)
    module = make(source)
    res = Result("cute", module.where)

    def body():
        for k, case in enumerate(cases):
            A, B = spec.as_layout(case.a), case.b and spec.as_layout(case.b)
            n = int(spec.size(B if case.op == "composition" else A))
            pad = 64
            out = np.full(n + pad, -7, dtype=np.int64)
            desc = np.zeros(512, dtype=np.int64)
            module.launch(f"lc_cute_{k}", n, _i64(dyn[k] or [0]), out, desc)
            res.checked += 1
            problems = []
            R = decode_layout(desc)
            got = out[:n]
            if int(spec.size(R)) != n or np.any(out[n:] != -7):
                problems.append(f"size(R) = {spec.size(R)}, expected {n}")
            elif not np.array_equal(got, spec_values(R)):
                problems.append(f"R(i) written on the device differs from R = {R} evaluated "
                                "by the spec")
            va = spec_values(A)
            if case.op == "layout":
                if str(R) != str(case.a) or not np.array_equal(got, va):
                    problems.append(f"make_layout gives {R}, values {_first_diff(got, va)}")
            elif case.op == "coalesce":
                if not np.array_equal(got, va):
                    problems.append(f"coalesce changed the function: {R} vs {case.a}")
            elif case.op == "composition":
                want = va[spec_values(B)]
                if not np.array_equal(got, want):
                    problems.append(f"R(i) != A(B(i)): R = {R}, {_first_diff(got, want)}")
            elif case.op == "logical_divide":
                nt = int(spec.size(B))
                first = va[spec_values(B)]
                if not np.array_equal(got[:nt], first):
                    problems.append(f"first mode != A o T: R = {R}")
                elif not np.array_equal(np.sort(got), np.sort(va)):
                    problems.append(f"R is not A composed with a permutation: R = {R}")
            if problems:
                known = _known_finding(case, R)
                if known:
                    res.notes.append(f"known finding {known} reproduced: {case}: "
                                     + "; ".join(problems))
                    res.metrics["known"] = res.metrics.get("known", 0) + 1
                else:
                    res.failed += 1
                    res.mismatches.append(f"{case}: " + "; ".join(problems))
                continue
            args = (case.a,) if case.b is None else (case.a, case.b)
            if case.op != "layout":
                bad, note = _structure_note(case, R, case.op, *args)
                if bad:
                    res.failed += 1
                    res.mismatches.append(bad)
                if note:
                    res.notes.append(note)
    return timed(res, body)


def cute_cases(rng, count):
    """A mix of the four CuTe computations on generated layouts."""
    cases = []
    for k in range(count):
        op = ("layout", "coalesce", "composition", "logical_divide")[k % 4]
        if op in ("layout", "coalesce"):
            cases.append(CuteCase(op, G.random_layout(rng, max_size=256)))
        elif op == "composition":
            cases.append(CuteCase(op, *G.composable_pair(rng)))
        else:
            cases.append(CuteCase(op, *G.divisible_pair(rng)))
    return cases


def workload(seed=0, count=200, cute_count=24):
    """The generated inputs of one run (deterministic in ``seed``): ``layouts`` for the
    sweep, the first quarter for ``lc_address``, the first tenth ``special``-ised, copy
    ``pairs``, and CuTe ``cases``.  The compile checks build exactly these sources, so the
    execution that follows hits the cache."""
    rng = random.Random(seed)
    layouts = [G.random_layout(rng) for _ in range(count)]
    return {"layouts": layouts, "single": layouts[: max(1, count // 4)],
            "special": layouts[: max(1, count // 10)],
            "pairs": [G.copy_pair(rng) for _ in range(max(1, count // 5))],
            "cases": cute_cases(rng, cute_count)}


def sample_sources(seed=0, count=200, cute_count=24):
    """The kernel sources of ``workload(seed, count, cute_count)``."""
    w = workload(seed, count, cute_count)
    return [address_source(), specialised_source(w["special"]), cute_source(w["cases"])[0]]


def run_checks(make, *, seed=0, count=200, cute_count=24):
    """Every execution check on ``workload(seed, ...)``; returns a list of ``Result``."""
    w = workload(seed, count, cute_count)
    return [check_address(make, w["single"]),
            check_sweep(make, w["layouts"]),
            check_specialised(make, w["special"]),
            check_movement(make, w["pairs"], seed=seed),
            check_cute(make, w["cases"])]


# ------------------------------------------------------------------------------ compilation

def check_compile(sources, backends, deadline=None, unfinished=None, step=None):
    """Compile each source with each backend to PTX and an sm_90 cubin; check that the
    cubin is an ELF image and that the PTX targets sm_90 and defines every kernel.  Past
    ``deadline`` (a ``layoutcheck.deadline.Deadline``) nothing more is compiled: the names of
    what was not go to ``unfinished`` (a list); ``step(name)`` after each compile."""
    results = []
    for source in sources:
        for backend in backends:
            if deadline is not None and deadline.expired():
                if unfinished is not None:
                    unfinished.append(f"compile {source.name} ({backend})")
                continue
            res = Result(f"compile {source.name}", backend)
            start = time.perf_counter()
            if step is not None:
                step(f"compile {source.name} ({backend})")
            try:
                art = compile_device(source.text, source.name, backend=backend,
                                     cute=source.cute, defines=source.defines)
            except CompileError as e:
                if deadline is not None and deadline.expired() and unfinished is not None:
                    unfinished.append(f"compile {source.name} ({backend}; cut by {deadline.what})")
                    continue  # cut by the time limit: not done, not failed
                res.failed = 1
                res.mismatches.append(str(e))
                res.seconds = time.perf_counter() - start
                results.append(res)
                continue
            res.seconds = time.perf_counter() - start
            res.checked = len(source.kernels)
            ptx = art.ptx.decode(errors="replace")
            missing = [k for k in source.kernels if f".entry {k}(" not in ptx]
            if not art.cubin.startswith(b"\x7fELF"):
                res.mismatches.append("the cubin is not an ELF image")
            if f".target {ARCH}" not in ptx:
                res.mismatches.append(f"the PTX does not target {ARCH}")
            if missing:
                res.mismatches.append(f"kernels missing from the PTX: {', '.join(missing)}")
            res.failed = int(bool(res.mismatches))
            res.metrics.update(cached=art.cached, ptx_bytes=len(art.ptx),
                               cubin_bytes=len(art.cubin))
            results.append(res)
    return results
