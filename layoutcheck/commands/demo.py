"""`layoutcheck demo`: the main job on an embedded default.

A quick run of every part of the harness, ending in one readable report: the paper's
examples, the oracles and what they answer on a few classic operations, a short fuzz
campaign, a handful of z3 lemmas, and the GPU kernels' host-shim check.  Each section says
"passed", "FAILED", "skipped" or "not run" with the reason; nothing is reported as passed
unless something was compared.
"""

import json
import time

HELP = "quick fuzz + proof + oracle run on an embedded default, ending in a report"

# Classic cases from CuTe's documentation and the paper, run on every available oracle.
DEFAULT_OPS = [
    ("coalesce", ["(2,(1,6)):(1,(6,2))"]),
    ("composition", ["(6,2):(8,2)", "(4,3):(3,1)"]),
    ("complement", ["(2,2):(1,6)", "24"]),
    ("logical_divide", ["(4,2,3):(2,1,8)", "4:2"]),
    ("logical_product", ["(2,2):(4,1)", "6:1"]),
    ("right_inverse", ["(4,(2,2)):(2,(1,8))"]),
]


def add_arguments(parser):
    parser.add_argument("--budget", type=float, default=30.0,
                        help="seconds for the fuzz campaign (default 30; each check runs at "
                             "least one batch, so many checks x oracles can take longer)")
    parser.add_argument("--seed", type=int, default=0, help="fuzz seed (default 0)")
    parser.add_argument("--against", default=None,
                        help="oracles for the op table and the fuzz (default: all available)")
    parser.add_argument("--max-rank", type=int, default=3, help="rank bound for the proofs (default 3)")
    parser.add_argument("--report", metavar="FILE", help="also write the report as JSON")


def _clip(text, width=150):
    return text if len(text) <= width else text[:width - 3] + "..."


def _section(title, fn):
    t0 = time.perf_counter()
    try:
        status, lines, data = fn()
    except Exception as e:  # a part that cannot run is reported, never hidden
        status, lines, data = "not run", [f"{type(e).__name__}: {e}"], None
    return {"section": title, "status": status, "lines": lines, "data": data,
            "seconds": round(time.perf_counter() - t0, 2)}


def _examples():
    from layoutcheck.spec import examples as ex
    rows = ex.run_examples()
    agree = sum(r["status"] == "agrees" for r in rows)
    bad = [r for r in rows if r["status"] != "agrees"]
    unknown = [r for r in bad if not r.get("finding")]
    lines = [f"{len(rows)} numbered examples of the paper: {agree} agree, {len(bad)} disagree "
             f"({len(bad) - len(unknown)} registered in the findings register)"]
    lines += [_clip(f"  {r['example']} [{r.get('finding') or 'NEW'}]: paper {r['paper']}  "
                    f"computed {r['computed']}") for r in bad]
    if not rows:
        return "not run", ["no examples in the catalogue"], rows
    return ("FAILED" if unknown else "passed"), lines, rows


def _oracles(names):
    from layoutcheck import oracles
    from layoutcheck.layout import parse_tile

    from layoutcheck import spec

    lines, data, failed = [], [], False
    usable = []
    for name in names or oracles.ORACLE_NAMES:
        o = oracles.get_oracle(name)
        reason = o.unavailable_reason()
        lines.append(f"{name:10s} {'available' if reason is None else 'unavailable: ' + reason}")
        if reason is None and name != "spec":
            usable.append(o)
    reference = oracles.get_oracle("spec")
    compared = 0
    cases = [(op, tuple(parse_tile(a, spec.Layout) for a in args)) for op, args in DEFAULT_OPS]
    answers = {o.name: o.run_many(cases) for o in usable}  # one batch (one compile) per oracle
    for k, (op, parsed) in enumerate(cases):
        want = reference.run(op, *parsed)
        cells = []
        for o in usable:
            got = answers[o.name][k]
            cmp = oracles.compare(op, parsed, want, got)
            word, finding = oracles.verdict(o.name, op, parsed, cmp)
            compared += cmp.ok is not None
            failed |= word == "disagree"
            cells.append(f"{o.name}: {cmp.level}" + (f" (known {finding})" if finding else
                                                     " DISAGREES" if word == "disagree" else ""))
            data.append({"op": op, "args": DEFAULT_OPS[k][1], "oracle": o.name,
                         "level": cmp.level, "verdict": word, "finding": finding,
                         "answer": str(got.value) if got.kind == "ok" else f"{got.kind}: {got.message}"})
        shown = want.value if want.kind == "ok" else f"<{want.kind}: {want.message}>"
        lines.append(f"{op}({', '.join(DEFAULT_OPS[k][1])}) = {shown}")
        lines.append("    " + "; ".join(cells))
    if not compared:
        return "skipped", lines + ["no oracle besides spec answered: nothing compared"], data
    return ("FAILED" if failed else "passed"), lines, data


def _fuzz(names, budget, seed):
    from layoutcheck import oracles
    from layoutcheck.fuzz import run_campaign
    note = []
    if not names:  # the in-process implementations; CuTe C++ compiles per batch, so it is opt-in
        names = [n for n in oracles.available_oracles() if n not in ("spec", "cute-cpp")]
        note = ["cute-cpp is fuzzed on demand: layoutcheck fuzz --against cute-cpp --budget 60 "
                "(one g++ compile per batch)"]
    names = [n for n in names if n != "spec"]  # the spec is the reference, not a candidate
    report = run_campaign(against=names, budget=budget, seed=seed)
    s = report["summary"]
    lines = [f"against {', '.join(names)}: {s.get('checks', len(report['results']))} checks, "
             f"{s.get('cases', sum(r['cases'] for r in report['results']))} cases in "
             f"{budget:g} s: " + ", ".join(f"{k} {v}" for k, v in s.items()
                                          if k in ("pass", "fail", "known", "error", "skipped"))]
    for r in report["results"]:
        if r["status"] in ("fail", "error"):
            case = r["counterexample"]
            case = f"{r['op']}({', '.join(map(str, case))})" if isinstance(case, (list, tuple)) else case
            lines.append(f"  {r['status'].upper()} {r['check']} vs {r['oracle']}: {case}"
                         + (f" [known {r['known_finding']}]" if r.get("known_finding") else ""))
    new_fail = any(r["status"] in ("fail", "error") and not r.get("known_finding")
                   for r in report["results"])
    lines += note
    return ("FAILED" if new_fail else "passed"), lines, report


def _proofs(max_rank):
    from layoutcheck import proofs
    rows = proofs.run(max_rank=max_rank, timeout=10, quick=True)
    counts = {}
    for r in rows:
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    unexpected = [r for r in rows if not r.get("as_expected", True)]
    lines = [f"{len(rows)} lemma/rank queries up to rank {max_rank}: "
             + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))]
    lines += [f"  refuted as the findings register expects: {r['lemma']} rank {r['rank']}: "
              f"{r['counterexample']}" for r in rows if r["result"] == "refuted"
              and r.get("as_expected", True)]
    lines += [f"  UNEXPECTED {r['lemma']} rank {r['rank']}: {r['result']}" for r in unexpected]
    return ("FAILED" if unexpected else "passed"), lines, rows


def _gpu():
    from layoutcheck.gpu_checks.run import run_all
    report = run_all(count=40, cute_count=3, sizes=())
    lines = [f"execution: {report['execution']}"]
    if not report["environment"]["device"]:
        lines.append("device: NOT run (kernels compiled and executed on the CPU host shim only)")
    for r in report["results"]:
        lines.append(f"{r['kernel']:<24}{r['where']:<18}{r['checked']:>6} checked, "
                     f"{r['failed']} mismatches")
    return ("passed" if report["ok"] else "FAILED"), lines, report


def run(args):
    names = [n.strip() for n in args.against.split(",")] if args.against else None
    t0 = time.perf_counter()
    sections = [
        _section("paper examples (spec)", _examples),
        _section("oracles", lambda: _oracles(names)),
        _section("fuzz campaign", lambda: _fuzz(names, args.budget, args.seed)),
        _section("z3 proofs", lambda: _proofs(args.max_rank)),
        _section("gpu kernels", _gpu),
    ]
    print("layoutcheck demo report")
    print("=" * 23)
    for s in sections:
        print(f"\n[{s['status']}] {s['section']}  ({s['seconds']} s)")
        for line in s["lines"]:
            print(f"  {line}")
    failed = [s["section"] for s in sections if s["status"] == "FAILED"]
    not_run = [s["section"] for s in sections if s["status"] in ("not run", "skipped")]
    print(f"\nsummary: {len(sections) - len(failed) - len(not_run)} passed, {len(failed)} failed, "
          f"{len(not_run)} not run or skipped, in {time.perf_counter() - t0:.1f} s")
    if args.report:
        with open(args.report, "w") as f:
            json.dump({"sections": sections}, f, indent=2, default=str)
    return 1 if failed else 0
