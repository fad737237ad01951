"""Correctness guard for spec speed-ups: the spec's answers on a fixed corpus.

    .venv/bin/python benchmarks/spec_answers.py dump CORPUS.json [--per-op 2000] [--seed 7]
    .venv/bin/python benchmarks/spec_answers.py check CORPUS.json

``dump`` draws ``per-op`` cases per algebra operation from the differential checks' own
strategies (hypothesis, fixed seed), runs the spec on each in the paper's sense and in
CuTe's (``sense="cute"`` where the operation takes one) and writes the inputs (CuTe text)
with every answer: the value with its integer types (static ``C`` vs ``int``), or the
refusal (message and condition).  ``check`` decodes the same inputs, runs the spec again
and exits 1 on the first answer that differs (0 when all are identical).
"""

import argparse
import inspect
import json
import sys

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

ALGEBRA = ("coalesce filter size cosize values right_inverse left_inverse complement "
           "composition logical_divide zipped_divide tiled_divide flat_divide logical_product "
           "zipped_product tiled_product blocked_product raked_product").split()


def typed(x):
    """A value as JSON that keeps integer types: ["C", n] for static, n for dynamic."""
    if isinstance(x, LayoutBase):
        return {"L": [typed(x.shape), typed(x.stride)], "cls": type(x).__name__}
    if isinstance(x, C):
        return ["C", int(x)]
    if isinstance(x, bool):
        return {"bool": x}
    if isinstance(x, int):
        return x
    if isinstance(x, (tuple, list)):
        return {type(x).__name__: [typed(v) for v in x]}
    return {"repr": repr(x)}


def answer(op, args, sense):
    import layoutcheck.spec as spec
    fn = getattr(spec, op)
    kw = {"sense": sense} if sense and "sense" in inspect.signature(fn).parameters else {}
    if sense and not kw:
        return None
    try:
        return {"ok": typed(fn(*args, **kw))}
    except LayoutError as e:
        return {"raised": str(e), "condition": e.condition}
    except Exception as e:  # noqa: BLE001 - recorded: an unexpected error must not change
        return {"error": f"{type(e).__name__}: {e}"}


def dump(path, per_op, seed):
    from layoutcheck.fuzz.campaign.batched import draw_cases
    from layoutcheck.fuzz.checks.catalogue import CHECKS
    from layoutcheck.fuzz.checks.targets import decode, encode
    from layoutcheck.oracles.reference import case_key
    rows = []
    for check in CHECKS:
        if check.kind != "differential" or check.op not in ALGEBRA:
            continue
        cases = draw_cases(check.strategy(), per_op, seed)
        for args in cases:
            text = encode(args)
            if case_key(decode(text)) != case_key(args):
                raise SystemExit(f"{check.op}: {text} does not round-trip")
            rows.append({"op": check.op, "args": text,
                         "paper": answer(check.op, args, None),
                         "cute": answer(check.op, args, "cute")})
        print(f"{check.op}: {len(cases)} cases", file=sys.stderr)
    with open(path, "w") as f:
        json.dump(rows, f)
    return 0


def check(path):
    from layoutcheck.fuzz.checks.targets import decode
    with open(path) as f:
        rows = json.load(f)
    for i, row in enumerate(rows):
        args = decode(row["args"])
        for sense, key in ((None, "paper"), ("cute", "cute")):
            got = json.loads(json.dumps(answer(row["op"], args, sense)))
            if got != row[key]:
                print(f"row {i}: {row['op']}({', '.join(row['args'])}) [{key}] differs:\n"
                      f"  before {row[key]}\n  after  {got}")
                return 1
    print(f"{len(rows)} cases, paper and cute answers identical")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("dump", "check"))
    ap.add_argument("path")
    ap.add_argument("--per-op", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    return dump(a.path, a.per_op, a.seed) if a.mode == "dump" else check(a.path)


if __name__ == "__main__":
    raise SystemExit(main())
