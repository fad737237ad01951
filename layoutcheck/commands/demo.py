"""`layoutcheck demo`: the main job on an embedded default.

A quick run of every part of the harness, ending in one readable report: the paper's
examples, the oracles and what they answer on a few classic operations, a short fuzz
campaign, a handful of z3 lemmas, and the GPU kernels' host-shim check.  Each section says
"passed", "FAILED", "skipped" or "not run" with the reason, or "ERROR" when the section
itself broke (exit 2 then, unless something FAILED: exit 1); nothing is reported as passed
unless something was compared.  Each section prints as soon as it ends; on a terminal a
progress line on stderr says what is running.  An oracle named in ``--against`` must be
known and available (exit 2 at once otherwise); one that crashes on a case fails its section
unless a crash finding of the register explains that crash (its signal, in its region), and a
known region whose answer was not checked fails it too.
"""

import json
import sys
import time

from layoutcheck import oracles, proofs, spec
from layoutcheck.commands.common import (
    check_output_path,
    count,
    oracle_names,
    seconds,
    validate,
    write_output,
)
from layoutcheck.errors import LayoutError
from layoutcheck.fuzz.campaign import run_campaign
from layoutcheck.fuzz.campaign.runner import progress_printer
from layoutcheck.gpu_checks.run import run_all
from layoutcheck.layout import parse_tile
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.cpp.toolchain import add_cute_include_argument, apply_cute_include
from layoutcheck.reports.html import render
from layoutcheck.spec import examples as ex

HELP = "quick fuzz + proof + oracle run on an embedded default, ending in a report"

MAX_RANK = 6

# Classic cases from CuTe's documentation and the paper, run on every available oracle.
DEFAULT_OPS = [
    ("coalesce", ["(2,(1,6)):(1,(6,2))"]),
    ("composition", ["(6,2):(8,2)", "(4,3):(3,1)"]),
    ("complement", ["(2,2):(1,6)", "24"]),
    ("logical_divide", ["(4,2,3):(2,1,8)", "4:2"]),
    ("logical_product", ["(2,2):(4,1)", "6:1"]),
    ("right_inverse", ["(4,(2,2)):(2,(1,8))"]),
]


# The fuzz campaign judges this many cases per check and oracle: the same cases on any machine
# (a function of --seed), so the demo's verdict does not depend on how fast the machine is.
DEMO_CASES = 12


def add_arguments(parser):
    parser.add_argument("--cases", default=DEMO_CASES,
                        help=f"cases per check and oracle in the fuzz campaign (default {DEMO_CASES}, "
                             "at most 10000): the same cases on any machine for the same --seed")
    parser.add_argument("--budget", default=600.0,
                        help="a cap in seconds on the fuzz campaign (default 600, at most 3600): "
                             "checks not started by then are reported as not reached, and the "
                             "demo exits 2 instead of claiming them")
    parser.add_argument("--seed", default=0, help="fuzz seed (default 0)")
    parser.add_argument("--against", default=None,
                        help="oracles for the op table and the fuzz (default: all available)")
    parser.add_argument("--max-rank", default=3,
                        help=f"rank bound for the proofs (default 3, 1..{MAX_RANK})")
    parser.add_argument("--report", metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--html", metavar="FILE",
                        help="also write a self-contained HTML report (sections, the fuzz "
                             "campaign's tables, pictures of its failures, a throughput plot)")
    add_cute_include_argument(parser)


def _clip(text, width=150):
    return text if len(text) <= width else text[:width - 3] + "..."


def _section(title, fn):
    t0 = time.perf_counter()
    try:
        status, lines, data = fn()
    except Exception as e:  # a section that broke is an error, never hidden nor passed
        status, lines, data = "ERROR", [f"{type(e).__name__}: {' '.join(str(e).split())[:500]}"], None
    return {"section": title, "status": status, "lines": lines, "data": data,
            "seconds": round(time.perf_counter() - t0, 2)}


def _examples():
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
            word, finding = oracles.verdict(o.name, op, parsed, cmp, got, want)
            if got.kind == "crashed" and word != "known":  # a crash no crash finding explains
                word, finding = "crashed", None
            compared += cmp.ok is not None
            failed |= word in ("disagree", "crashed", "known region")
            cells.append(f"{o.name}: {cmp.level}" + (
                f" (known {finding}{', crashed' if got.kind == 'crashed' else ''})" if word == "known" else
                f" (KNOWN REGION {finding}, answer not checked)" if word == "known region" else
                " DISAGREES" if word == "disagree" else
                f" CRASHED ({got.message})" if word == "crashed" else ""))
            data.append({"op": op, "args": DEFAULT_OPS[k][1], "oracle": o.name,
                         "level": cmp.level, "verdict": word, "finding": finding,
                         "answer": str(got.value) if got.kind == "ok" else f"{got.kind}: {got.message}"})
        shown = want.value if want.kind == "ok" else f"<{want.kind}: {want.message}>"
        lines.append(f"{op}({', '.join(DEFAULT_OPS[k][1])}) = {shown}")
        lines.append("    " + "; ".join(cells))
    if not compared:
        return "skipped", lines + ["no oracle besides spec answered: nothing compared"], data
    return ("FAILED" if failed else "passed"), lines, data


def _fuzz(names, cases, cap, seed, progress=None):
    note = []
    if not names:  # the in-process implementations; CuTe C++ compiles per batch, so it is opt-in
        names = [n for n in oracles.available_oracles() if n not in ("spec", "cute-cpp")]
        note = ["cute-cpp is fuzzed on demand: layoutcheck fuzz --against cute-cpp --budget 60 "
                "(one g++ compile per batch)"]
    names = [n for n in names if n != "spec"]  # the spec is the reference, not a candidate
    if not names:
        return "skipped", ["no oracle besides the spec to fuzz"], None
    t0 = time.perf_counter()
    report = run_campaign(against=names, max_examples=cases, time_cap=cap, seed=seed,
                          progress=progress, use_db=False)
    wall = time.perf_counter() - t0
    s = report["summary"]
    lines = [f"against {', '.join(names)}: {s['checks']} check/oracle pairs, {cases} cases each "
             f"(seed {seed}; the same cases on any machine), {s['cases']} judged in {wall:.1f} s: "
             + ", ".join(f"{k} {s.get(k, 0)}" for k in ("pass", "known", "known_unchecked", "new_failures",
                                                         "error", "skipped"))]
    unreached = sum(1 for r in report["results"] if r.get("not_reached"))
    if unreached:  # cut by the cap: said, and never a pass
        lines.append(f"  {unreached} check/oracle pairs were not reached within the {cap:g} s cap "
                     "(raise --budget): the campaign is incomplete")
    for r in report["results"]:
        case = r["counterexample"]
        case = f"{r['op']}({', '.join(map(str, case))})" if isinstance(case, (list, tuple)) else case
        if r["status"] in ("fail", "error") and r.get("known_finding"):
            tag = ("KNOWN REGION (answer not checked)" if r.get("answer_checked") is False else "known")
            lines.append(f"  {tag} {r['known_finding']} {r['check']} vs {r['oracle']}: {case}")
        elif r["status"] in ("fail", "error"):
            lines.append(f"  {r['status'].upper()} {r['check']} vs {r['oracle']}: {case}"
                         + (f" ({r['message']})" if r.get("message") else ""))
    errors = any(r["status"] == "error" for r in report["results"])
    new_fail = any(r["status"] == "fail" and (not r.get("known_finding") or r.get("answer_checked") is False)
                   for r in report["results"])  # a known region whose answer was not checked fails too
    lines += note
    if new_fail or errors:
        return "FAILED", lines, report
    return ("ERROR" if unreached else "passed"), lines, report


def _proofs(max_rank):
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
    report = run_all(count=40, cute_count=3, sizes=())
    lines = [f"execution: {report['execution']}"]
    if not report["environment"]["device"]:
        lines.append("device: NOT run (kernels compiled and executed on the CPU host shim only)")
    for r in report["results"]:
        lines.append(f"{r['kernel']:<24}{r['where']:<18}{r['checked']:>6} checked, "
                     f"{r['failed']} mismatches")
    return ("passed" if report["ok"] else "FAILED"), lines, report


SECTIONS = ("paper examples (spec)", "oracles", "fuzz campaign", "z3 proofs", "gpu kernels")


def _check_oracles(against):
    """The names of --against (None: every available one); unknown or unavailable: exit 2."""
    if against is None:
        return None
    names = oracle_names(against, lambda: [])
    for n in names:
        reason = get_oracle(n).unavailable_reason()
        if reason:
            raise LayoutError(f"oracle {n} is unavailable: {reason}")
    return names


def run(args):
    validate(args, budget=seconds(3600), cases=count(1, 10_000), seed=count(0, 2 ** 64 - 1),
             max_rank=count(1, MAX_RANK))
    apply_cute_include(args)
    names = _check_oracles(args.against)
    check_output_path(args.report, "--report")
    check_output_path(args.html, "--html")
    if args.report and args.html and args.report == args.html:
        raise LayoutError("--report and --html name the same file")
    tty = sys.stderr.isatty()
    fuzz_progress = None
    if tty:
        fuzz_progress = progress_printer(sys.stderr)
    parts = [lambda: _examples(), lambda: _oracles(names),
             lambda: _fuzz(names, args.cases, args.budget, args.seed, fuzz_progress),
             lambda: _proofs(args.max_rank), lambda: _gpu()]
    t0 = time.perf_counter()
    print("layoutcheck demo report")
    print("=" * 23, flush=True)
    sections = []
    for k, (title, part) in enumerate(zip(SECTIONS, parts)):
        if tty:
            sys.stderr.write(f"[{k + 1}/{len(SECTIONS)}] {title} ... "
                             f"({time.perf_counter() - t0:.0f} s so far)\n")
            sys.stderr.flush()
        s = _section(title, part)
        sections.append(s)
        print(f"\n[{s['status']}] {s['section']}  ({s['seconds']} s)")
        for line in s["lines"]:
            print(f"  {line}")
        sys.stdout.flush()
    failed = [s["section"] for s in sections if s["status"] == "FAILED"]
    errors = [s["section"] for s in sections if s["status"] == "ERROR"]
    not_run = [s["section"] for s in sections if s["status"] in ("not run", "skipped")]
    passed = len(sections) - len(failed) - len(errors) - len(not_run)
    print(f"\nsummary: {passed} passed, {len(failed)} failed, {len(errors)} errors, "
          f"{len(not_run)} not run or skipped, in {time.perf_counter() - t0:.1f} s")
    if args.report:
        write_output(args.report, json.dumps({"sections": sections}, indent=2, default=str),
                     "--report")
    if args.html:
        fuzz = next((s["data"] for s in sections if s["section"] == "fuzz campaign"
                     and isinstance(s["data"], dict) and "results" in s["data"]), None)
        write_output(args.html, render(fuzz, title="layoutcheck demo report", preface=[
            (s["status"], s["section"], s["lines"]) for s in sections]), "--html")
    return 1 if failed else 2 if errors else 0
