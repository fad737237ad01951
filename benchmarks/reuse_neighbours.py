"""How many reuse-pool neighbours keep a compiled C++ type, without compiling.

    .venv/bin/python benchmarks/reuse_neighbours.py [--width 8] [--tries 300] [--checks C,C]

A reuse batch (fuzz/campaign/pairs.py) runs the cases of a pool whose cute-cpp kernel is already
compiled; most of a pool are *neighbours* of reusable cases (``batched.neighbour``: their
hypothesis choices with one or two integer choices redrawn).  A neighbour is reusable when
its all-runtime kernel (``oracles/cpp_codegen.kernel``, the key of its C++ type) is one of
its bases' kernels.  This script draws 40 bases per check, then ``--tries`` neighbours, and
prints per check the distinct valid neighbours and the reusable ones, and in all: reusable
neighbours per draw and milliseconds of drawing per reusable neighbour.  ``--width``:
``batched.NEIGHBOUR_WIDTH`` for the run (0: any bounded integer choice is redrawn).
"""

import argparse
import random
import time

CHECKS = ("diff.composition,diff.coalesce,diff.complement,diff.logical_divide,"
          "diff.logical_product,diff.right_inverse,diff.left_inverse,diff.crd2idx,"
          "diff.blocked_product,diff.zipped_divide,law.composition.associative,diff.upcast,"
          "diff.tile_to_shape,diff.values")


def kernel_key(op, args):
    from layoutcheck.oracles.cpp.cases import retype, staticness
    from layoutcheck.oracles.cpp.codegen import kernel
    from layoutcheck.oracles.protocol import OPS
    dyn = retype(tuple(args), False)
    if staticness(dyn) != "dynamic":
        return None
    try:
        return kernel(op, dyn, OPS[op])[0].key
    except Exception:  # noqa: BLE001 - no C++ counterpart: never reusable
        return None


def measure(name, tries, seed=5):
    import layoutcheck.fuzz.campaign.batched as batched
    from layoutcheck.fuzz.checks.catalogue import BY_NAME
    from layoutcheck.oracles.reference import case_key
    neighbour = getattr(batched, "neighbour", None) or batched._neighbour  # either name
    check = BY_NAME[name]
    strategy = check.strategy()
    bases = [(a, n) for a, n in batched.draw_pool(strategy, 100, 1) if kernel_key(check.op, a)][:40]
    if not bases:
        return None
    keys = {kernel_key(check.op, a) for a, _ in bases}
    rnd, seen, reusable = random.Random(seed), set(), 0
    t = time.perf_counter()
    for _ in range(tries):
        _, nodes = bases[rnd.randrange(len(bases))]
        got = batched._recorded(strategy, rnd, neighbour(nodes, rnd))
        if got is None or got[0] is None or case_key(got[0]) in seen:
            continue
        seen.add(case_key(got[0]))
        reusable += kernel_key(check.op, got[0]) in keys
    return len(seen), reusable, time.perf_counter() - t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=None)
    ap.add_argument("--tries", type=int, default=300)
    ap.add_argument("--checks", default=CHECKS)
    args = ap.parse_args(argv)
    import layoutcheck.fuzz.campaign.batched as batched
    if args.width is not None:
        batched.NEIGHBOUR_WIDTH = args.width
    valid = reusable = tries = 0
    seconds = 0.0
    for name in args.checks.split(","):
        got = measure(name, args.tries)
        if got is None:
            print(f"{name:32s} no reusable base")
            continue
        v, r, s = got
        valid, reusable, tries, seconds = valid + v, reusable + r, tries + args.tries, seconds + s
        print(f"{name:32s} {v:4d} distinct neighbours, {r:4d} reusable")
    print(f"width {batched.NEIGHBOUR_WIDTH}: {reusable / max(tries, 1):.2f} reusable neighbours per "
          f"draw, {1000 * seconds / max(reusable, 1):.2f} ms of drawing per reusable one "
          f"({reusable} of {tries} draws)")
    return 0 if reusable else 1


if __name__ == "__main__":
    from results import recording  # benchmarks/results.py: the entry in RESULTS.md
    with recording("Reuse-pool neighbours"):
        raise SystemExit(main())
