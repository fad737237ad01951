"""The whole GPU check as one call: compile, execute (host shim; device when present),
measure (device), and a report (a JSON-able dict plus its text rendering).
"""

import json
import platform
import time
import traceback

from layoutcheck.gpu_checks import toolchain as T
from layoutcheck.gpu_checks.checks import Result, check_compile, run_checks, sample_sources
from layoutcheck.gpu_checks.execute import DeviceModule, HostModule, device_unavailable_reason
from layoutcheck.gpu_checks.throughput import measure

from layoutcheck.errors import LayoutError

__all__ = ["run_all", "render", "environment"]


def environment():
    """What this machine offers the GPU checks, each with the reason when it is missing."""
    env = {"host": platform.node(), "python": platform.python_version(),
           "nvrtc": T.nvrtc_unavailable_reason() or "13.0 (cupy_backends)",
           "nvcc": T.nvcc_unavailable_reason() or str(T.cuda_home() / "bin" / "nvcc"),
           "cute_include": T.cute_description(),
           "cache": str(T.cache_dir()), "arch": T.ARCH}
    why = device_unavailable_reason()
    env["device"] = why is None
    if why is None:
        import cupy
        props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        name = props["name"]
        env["device_name"] = name.decode() if isinstance(name, bytes) else str(name)
    else:
        env["device_reason"] = why
    return env


def run_all(*, compile_only=False, seed=0, count=200, cute_count=24, sizes=(24, 26, 28, 30),
            backends=None, host=True, log=None, deadline=None, step=None):
    """Run the GPU checks; returns the report dict (``report["ok"]`` is the verdict).  Past
    ``deadline`` (``layoutcheck.deadline.Deadline``) no compile or phase starts, and
    ``report["unfinished"]`` names what did not run; ``step(what)`` as each compile or
    phase starts."""
    say = log or (lambda msg: None)
    unfinished = []

    def due(phase):  # False, and noted as unfinished, once the deadline has passed
        if deadline is not None and deadline.expired():
            unfinished.append(phase)
            return False
        if step is not None:
            step(phase)
        return True
    start = time.perf_counter()
    env = environment()
    report = {"environment": env, "seed": seed, "count": count, "cute_count": cute_count,
              "results": []}
    usable = T.backends()
    backends = list(backends or usable)
    if not backends:
        raise LayoutError("no CUDA compiler usable: "
                          f"NVRTC: {T.nvrtc_unavailable_reason()}; nvcc: {T.nvcc_unavailable_reason()}")
    missing = [b for b in backends if b not in usable]
    if missing:
        raise LayoutError(f"compiler backend {', '.join(missing)} unavailable here "
                          f"(usable: {', '.join(usable) or 'none'})")
    sources = sample_sources(seed, count, cute_count)
    say(f"compiling {len(sources)} kernel sources for {T.ARCH} with {', '.join(backends)}")
    report["results"] += [r.as_dict() for r in check_compile(sources, backends, deadline,
                                                              unfinished, step)]
    if compile_only:
        report["execution"] = "not run (--compile-only)"
    else:
        if host and due("host execution"):
            say("executing the kernel sources on the CPU through the host shim")
            report["results"] += _guarded("host execution", lambda: run_checks(
                HostModule, seed=seed, count=count, cute_count=cute_count))
        if env["device"]:
            if due("device execution"):
                say(f"executing on the device ({env['device_name']})")
                report["results"] += _guarded("device execution", lambda: run_checks(
                    DeviceModule, seed=seed, count=count, cute_count=cute_count))
            if sizes and due("device throughput"):
                say(f"measuring throughput for 2^{', 2^'.join(map(str, sizes))} elements")
                report["results"] += _guarded("device throughput", lambda: measure(
                    DeviceModule(sources[0]), tuple(sizes)))
            report["execution"] = f"host shim and device ({env['device_name']})"
        else:
            report["execution"] = ("host shim only; device execution NOT run: "
                                    f"{env['device_reason']}")
    report["ok"] = all(not r["failed"] and not r["mismatches"] for r in report["results"])
    report["unfinished"] = unfinished
    report["seconds"] = round(time.perf_counter() - start, 2)
    return report


def _guarded(what, fn):
    """Results of ``fn()`` as dicts; an exception becomes one failed result naming it, so
    one broken phase does not hide the others in the report."""
    try:
        return [r.as_dict() for r in fn()]
    except Exception as e:  # noqa: BLE001 - reported, and fails the run
        res = Result(what, "error", failed=1,
                     mismatches=[f"{type(e).__name__}: {e}"],
                     notes=[traceback.format_exc(limit=6)])
        return [res.as_dict()]


def _rate(x):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.2f}{unit}"
    return f"{x:.0f}"


def render(report):
    """The report as text: one line per kernel, then mismatches, notes and throughput."""
    env = report["environment"]
    lines = [f"layoutcheck gpu: arch {env['arch']}, NVRTC: {env['nvrtc']}, nvcc: {env['nvcc']}",
             f"  device: {env.get('device_name') or 'none -- ' + env.get('device_reason', '')}",
             f"  execution: {report.get('execution')}"]
    if "swizzle" in report:  # `layoutcheck gpu --swizzle` (gpu_checks/swizzle_gpu.py)
        sw = report["swizzle"]
        lines.append(f"  swizzle kernels: {'ok' if sw['ok'] else 'FAILED'}, device {sw['device']}")
    lines += ["",
              f"{'kernel':<24}{'where':<18}{'checked':>8}{'mismatches':>11}{'seconds':>9}"]
    for r in report["results"]:
        lines.append(f"{r['kernel']:<24}{r['where']:<18}{r['checked']:>8}{r['failed']:>11}"
                     f"{r['seconds']:>9.2f}")
        for size in r.get("sizes", []):
            frac = size["fraction_of_peak"]
            lines.append(f"    2^{size['log2_elements']:<3} {_rate(size['addresses_per_s'])} "
                         f"addresses/s, {size['GBps']:.0f} GB/s"
                         + (f" ({100 * frac:.0f}% of {r['peak_GBps']:.0f} GB/s peak)" if frac else ""))
        for m in r["mismatches"]:
            lines.append(f"    MISMATCH {m}")
        for n in r["notes"][:5]:
            lines.append(f"    note: {n}")
        if len(r["notes"]) > 5:
            lines.append(f"    note: ... {len(r['notes']) - 5} more in the JSON report")
    lines.append("")
    verdict = "FAILED" if not report["ok"] else "NOT FINISHED" if report.get("unfinished") else "OK"
    lines.append(f"{verdict} in {report['seconds']} s"
                 + (f" ({len(report['unfinished'])} steps not run)" if report.get("unfinished") else ""))
    return "\n".join(lines)


def write_report(report, path):
    """JSON when ``path`` ends in .json, else the text rendering."""
    with open(path, "w") as f:
        if str(path).endswith(".json"):
            json.dump(report, f, indent=1, default=str)
        else:
            f.write(render(report) + "\n")
