"""Profile impl's algebra on a benchmark corpus (cProfile; where the per-call time goes).

    .venv/bin/python benchmarks/profile_ops.py [--corpus tiny|main] [--passes 200] [--top 12] [OP ...]
    .venv/bin/python benchmarks/profile_ops.py --package spec --cases CORPUS.json [--passes 1] [OP ...]

Runs ``passes`` passes of each operation over its corpus (benchmarks/corpus.py) under
cProfile (gc off, as in the benchmarks) and prints, per operation, the profiled time per
call, the function calls per call, and the functions with the largest own time
(``tottime``), as a share of the total.  cProfile's own overhead is per function call, so
code that makes fewer calls looks (and is) cheaper; the calls per call do not depend on the
load of the machine, the times do.

``--package spec --cases CORPUS.json`` profiles the spec instead, on the fuzz cases that
``benchmarks/spec_answers.py dump`` wrote (the differential checks' own strategies), each
distinct case once per pass (the campaign memoises whole cases; what recurs is sub-layouts).
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

from layoutcheck.errors import LayoutError  # noqa: E402


def _quiet(fn):
    def call(*args):
        try:
            return fn(*args)
        except (LayoutError, TypeError):  # a refusal is an answer too (TypeError: an op
            # the package spells differently for these arguments, e.g. filter with a profile)
            return None
    return call


def fuzz_cases(path):
    """{op: [args, ...]}: the distinct inputs of a ``spec_answers.py dump`` corpus, decoded."""
    import json

    from layoutcheck.fuzz.checks.targets import decode
    out, seen = {}, set()
    with open(path) as f:
        for row in json.load(f):
            key = (row["op"], tuple(row["args"]))
            if key not in seen:
                seen.add(key)
                out.setdefault(row["op"], []).append(decode(row["args"]))
    return out


def profile(op, cases, passes, package=I, warm=True):
    fn = _quiet(getattr(package, op))
    if warm:
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
    ap.add_argument("--package", choices=("impl", "spec"), default="impl")
    ap.add_argument("--cases", help="a spec_answers.py corpus (JSON) instead of --corpus")
    args = ap.parse_args(argv)
    package = I
    if args.package == "spec":
        import layoutcheck.spec as package
    fuzz = fuzz_cases(args.cases) if args.cases else None
    for op in args.ops or (list(fuzz) if fuzz else corpus.UNARY + corpus.BINARY):
        cases = fuzz[op] if fuzz else corpus.cases(op, args.corpus)
        # fuzz cases are fresh objects each time: no warming (the spec's own memos start cold)
        stats = profile(op, cases, args.passes, package, warm=not fuzz)
        print("\n".join(summary(op, stats, args.passes * len(cases), args.top)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
