"""`layoutcheck gpu`: compile the CUDA kernels of ``layoutcheck.gpu_checks`` for sm_90 and
check the addresses they compute against the spec: on the CPU through the host shim, and
on a GPU when one is present (with throughput for large layouts).  ``--swizzle`` adds issue
16's swizzle and bank-conflict kernels (gpu_checks/swizzle_gpu.py)."""

import sys

from layoutcheck import deadline as run_deadline
from layoutcheck.commands.common import (
    add_run_limits,
    check_output_path,
    count,
    run_limits,
    unfinished_status,
    validate,
)
from layoutcheck.errors import LayoutError
from layoutcheck.gpu_checks import swizzle_gpu
from layoutcheck.gpu_checks.run import render, run_all, write_report
from layoutcheck.oracles.cpp.toolchain import add_cute_include_argument, apply_cute_include
from layoutcheck.progress import Progress

HELP = "compile the CUDA address kernels (sm_90) and check them against the spec"


def add_arguments(parser):
    parser.add_argument("--compile-only", action="store_true",
                        help="compile every kernel source (NVRTC and nvcc), execute nothing")
    parser.add_argument("--report", metavar="FILE",
                        help="also write the report to FILE (JSON if it ends in .json, else text)")
    parser.add_argument("--seed", default=0,
                        help="seed of the generated layouts")
    parser.add_argument("--count", default=200,
                        help="layouts in the sweep (default 200, 1..100000; others scale from it)")
    parser.add_argument("--cute-count", default=24,
                        help="CuTe device computations (default 24, 1..10000)")
    parser.add_argument("--sizes", default="24,26,28,30",
                        help="log2 sizes of the large layouts timed on a device (default "
                             "24,26,28,30; empty for none)")
    parser.add_argument("--backend", choices=["nvrtc", "nvcc", "all"], default="all",
                        help="device compiler(s) to check (default: every usable one)")
    parser.add_argument("--swizzle", action="store_true",
                        help="also run the swizzle and bank-conflict kernels "
                             "(gpu_checks/swizzle_gpu.py; a cold kernel cache compiles them "
                             "for more than 100 s)")
    add_run_limits(parser, "the checks: no compile or phase starts past it (one compile in "
                           "flight is cut there too)")
    add_cute_include_argument(parser)


def _sizes(text):
    try:
        sizes = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise LayoutError(f"--sizes {text!r} is not a comma-separated list of integers") from None
    bad = [k for k in sizes if not 10 <= k <= 31]
    if bad:
        raise LayoutError(f"--sizes: log2 sizes must lie in 10..31, got {bad}")
    return sizes


def _add_swizzle(report, args):
    """Append the swizzle kernels' results (``gpu_checks.swizzle_gpu.run`` with its own case
    count, as run_on_device.sh runs it; the same backends and seed) to the report; its verdict
    joins ``report["ok"]``."""

    sw = swizzle_gpu.run(compile_only=args.compile_only, seed=args.seed,
                         backends=None if args.backend == "all" else [args.backend],
                         log=lambda msg: print(f"layoutcheck gpu: {msg}", file=sys.stderr))
    report["results"] += sw["results"]
    report["swizzle"] = {"ok": sw["ok"], "device": sw.get("device", "not run (--compile-only)"),
                         "seconds": sw["seconds"]}
    report["ok"] = bool(report["ok"] and sw["ok"])
    report["seconds"] = round(report["seconds"] + sw["seconds"], 2)


def run(args):

    apply_cute_include(args)
    validate(args, seed=count(0, 2 ** 63 - 1), count=count(1, 100_000),
             cute_count=count(1, 10_000))
    check_output_path(args.report, "--report")
    sizes = _sizes(args.sizes)
    limit, show_progress = run_limits(args)
    with run_deadline.applied(limit), Progress("layoutcheck gpu", deadline=limit,
                                               enabled=show_progress) as bar:
        report = run_all(compile_only=args.compile_only, seed=args.seed, count=args.count,
                         cute_count=args.cute_count, sizes=sizes,
                         backends=None if args.backend == "all" else [args.backend],
                         log=lambda msg: print(f"layoutcheck gpu: {msg}", file=sys.stderr),
                         deadline=limit, step=lambda what: bar.update(1, note=what))
        if args.swizzle:
            if limit is not None and limit.expired():
                report["unfinished"].append("the swizzle kernels (--swizzle)")
            else:
                _add_swizzle(report, args)
    print(render(report))
    if args.report:
        try:
            write_report(report, args.report)
        except OSError as e:
            raise LayoutError(f"cannot write --report {args.report}: {e.strerror or e}") from None
    return unfinished_status("layoutcheck gpu", not report["ok"], report["unfinished"], limit)
