"""`layoutcheck fuzz`: the differential and algebraic gate (issue 6); see layoutcheck.fuzz.campaign."""

import json
import shlex
import sys

from layoutcheck.errors import LayoutError

HELP = "fuzz oracles against the spec and the algebra's laws within a time budget (a CI gate)"


def add_arguments(parser):
    parser.add_argument("--against", default="pycute",
                        help="comma-separated oracles: spec, impl, pycute, module:NAME, cute-cpp, "
                             "cute-dsl (default: pycute)")
    parser.add_argument("--ops", default=None,
                        help="comma-separated operations to check (default: all)")
    parser.add_argument("--checks", default=None,
                        help="comma-separated check names (see --list)")
    parser.add_argument("--kind", choices=["differential", "law"], default=None,
                        help="only differential checks (vs spec) or only algebraic laws")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="seconds for the whole run, shared across checks (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument("--max-examples", type=int, default=None,
                        help="cases per check instead of a time budget: the run is then "
                             "a function of --seed only")
    parser.add_argument("--report", metavar="FILE", help="write the JSON report here")
    parser.add_argument("--junit", metavar="FILE", help="write JUnit XML here")
    parser.add_argument("--replay", metavar="FILE",
                        help="rerun the counterexamples of a saved --report")
    parser.add_argument("--case", nargs="+", metavar=("CHECK", "ARG"),
                        help="rerun one case: a check name and its inputs in CuTe notation")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes; shards the run by seed and merges the results")
    parser.add_argument("--no-db", action="store_true",
                        help="neither replay nor store failures in ./.layoutcheck/")
    parser.add_argument("--fail-fast", action="store_true",
                        help="stop at the first new failure")
    parser.add_argument("--list", action="store_true", help="list the checks and exit")


def _split(text):
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


def run(args):
    from layoutcheck.fuzz.campaign import (format_failure, junit_xml, progress_printer,
                                           replay_cases, replay_report, run_campaign)
    from layoutcheck.fuzz.properties import CHECKS

    if args.list:
        for c in CHECKS:
            print(f"{c.name:36s} {c.kind:12s} {c.doc}")
        return 0
    if args.budget <= 0:
        raise LayoutError(f"--budget must be positive, got {args.budget}")
    if args.max_examples is not None and args.max_examples < 1:
        raise LayoutError(f"--max-examples must be at least 1, got {args.max_examples}")
    if args.jobs < 1:
        raise LayoutError(f"--jobs must be at least 1, got {args.jobs}")
    oracles = _split(args.against)
    if not oracles:
        raise LayoutError("--against names no oracle")
    command = "layoutcheck fuzz " + " ".join(shlex.quote(a) for a in sys.argv[2:]) \
        if len(sys.argv) > 1 and sys.argv[1] == "fuzz" else "layoutcheck fuzz"

    if args.case:
        report = replay_cases([(args.case[0], o, args.case[1:]) for o in oracles], oracles, command)
    elif args.replay:
        report = replay_report(args.replay, oracles if args.against != "pycute" else None, command)
    else:
        report = run_campaign(oracles=oracles, ops=_split(args.ops), budget=args.budget,
                              seed=args.seed, max_examples=args.max_examples,
                              checks=_split(args.checks), kinds=[args.kind] if args.kind else None,
                              use_db=not args.no_db, jobs=args.jobs,
                              progress=progress_printer(sys.stderr), command=command,
                              fail_fast=args.fail_fast)
    for name, state in report["oracles"].items():
        if state != "available":
            print(f"oracle {name} unavailable: {state}", file=sys.stderr)
    for r in report["results"]:
        if r["counterexample"] and r["status"] in ("fail", "error"):
            print(format_failure(r))
    s = report["summary"]
    print(f"{s['checks']} checks: {s['pass']} pass, {s['new_failures']} new failures, "
          f"{s['known']} known findings, {s['error']} errors, {s['skipped']} skipped; "
          f"{s['cases']} cases in {s['seconds']} s")
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1)
    if args.junit:
        with open(args.junit, "w") as f:
            f.write(junit_xml(report))
    if report["exit_status"] == 2 and not s["new_failures"]:
        why = "every check was skipped" if s["skipped"] == s["checks"] else "a check errored"
        print(f"layoutcheck fuzz: {why}", file=sys.stderr)
    return report["exit_status"]
