"""Profile impl's algebra on a benchmark corpus (cProfile; where the per-call time goes).

    .venv/bin/python benchmarks/profile_ops.py [--corpus tiny|main] [--passes 200] [--top 12] [OP ...]

Runs ``passes`` passes of each operation over its corpus (benchmarks/corpus.py) under
cProfile (gc off, as in the benchmarks) and prints, per operation, the profiled time per
call, the function calls per call, and the functions with the largest own time
(``tottime``), as a share of the total.  cProfile's own overhead is per function call, so
code that makes fewer calls looks (and is) cheaper; the calls per call do not depend on the
load of the machine, the times do.
"""

import argparse
import cProfile
import gc
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402

import layoutcheck.impl as I  # noqa: E402


def profile(op, cases, passes):
    fn = getattr(I, op)
    for args in cases:  # warm the inputs' caches, as the benchmark's first round does
        fn(*args)
    prof = cProfile.Profile()
    gc.disable()  # as in the benchmarks (--benchmark-disable-gc, interleaved passes)
    try:
        prof.enable()
        for _ in range(passes):
            for args in cases:
                fn(*args)
        prof.disable()
    finally:
        gc.enable()
    return pstats.Stats(prof)


def summary(op, stats, calls, top):
    total = stats.total_tt
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]
    out = [f"{op}: {total / calls * 1e6:.2f} µs per call under cProfile, "
           f"{sum(v[1] for v in stats.stats.values()) / calls:.1f} function calls per call"]
    for (path, line, name), (cc, nc, tt, ct, _) in rows:
        where = f"{Path(path).parent.name}/{Path(path).name}:{line}" if line else path
        out.append(f"  {tt / total:6.1%}  {nc / calls:6.2f}/call  {name}  ({where})")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ops", nargs="*", help="operations (default: every op the corpus has)")
    ap.add_argument("--corpus", choices=corpus.CORPORA, default="tiny")
    ap.add_argument("--passes", type=int, default=200)
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args(argv)
    for op in args.ops or corpus.UNARY + corpus.BINARY:
        cases = corpus.cases(op, args.corpus)
        stats = profile(op, cases, args.passes)
        print("\n".join(summary(op, stats, args.passes * len(cases), args.top)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
