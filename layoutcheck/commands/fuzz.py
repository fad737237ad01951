"""`layoutcheck fuzz`: the differential and algebraic gate; see layoutcheck.fuzz.campaign.runner.

Every flag is checked before any work (exit 2, one line): the budget is finite, positive
and at most a day; report paths are writable files; ``--case`` has the number of inputs its
check takes.  An oracle named in ``--against`` that cannot run makes the run exit 2 (never
0), as does an oracle that crashed on a case (reported as an error with the case) unless a
crash finding of the register explains that crash.  A known region whose answer was not
checked exits 1 unless ``--accept-regions``.  With ``--baseline ORACLE`` each case is compared
with that oracle's answer too (``fuzz/campaign/baseline.py``): a regression or a change fails
the run, a failure both share is known, a case only the baseline fails is reported as fixed.
"""

import json
import shlex
import sys

from hypothesis import HealthCheck, Phase, given, seed, settings

from layoutcheck import deadline as run_deadline
from layoutcheck.commands.common import (
    MAX_BUDGET_S,
    add_run_limits,
    check_output_path,
    count,
    oracle_names,
    run_limits,
    seconds,
    validate,
    write_output,
)
from layoutcheck.errors import LayoutError
from layoutcheck.fuzz.campaign.cluster import fit_to_machine, parse_cluster
from layoutcheck.fuzz.campaign.exampledb import is_redis, parse_redis_url
from layoutcheck.fuzz.campaign.replay import replay_cases, replay_report
from layoutcheck.fuzz.campaign.runner import (
    exit_status,
    format_failure,
    junit_xml,
    progress_printer,
    run_campaign,
    summary_lines,
)
from layoutcheck.fuzz.checks.catalogue import BY_NAME, CHECKS
from layoutcheck.oracles import OPS, get_oracle
from layoutcheck.oracles.cpp.toolchain import add_cute_include_argument, apply_cute_include
from layoutcheck.reports.html import render

HELP = "fuzz oracles against the spec and the algebra's laws within a time budget (a CI gate)"

MAX_EXAMPLES = 10_000_000
DEFAULT_BUDGET_S = 60.0
MAX_JOBS = 64


def add_arguments(parser):
    parser.add_argument("--against", default=None,
                        help="comma-separated oracles: spec, impl, pycute, nvlabs, nvlabs:PATH, "
                             "module:NAME[@LINEAGE], cute-cpp, cute-dsl (default: pycute)")
    parser.add_argument("--baseline", metavar="ORACLE", default=None,
                        help="compare every case with this oracle too (e.g. cute-cpp@3.8, pycute, "
                             "nvlabs:OLD, module:mylib_v1): a failure it shares is known, one it "
                             "does not is a regression or a change (exit 1), a case only it fails "
                             "is reported as fixed")
    parser.add_argument("--ops", default=None,
                        help="comma-separated operations to check (default: all)")
    parser.add_argument("--allow-unreached", action="store_true",
                        help="exit 0 even when the budget ran out before some check/oracle pairs "
                             "ran (they are reported as not reached; default: exit 2)")
    parser.add_argument("--accept-regions", action="store_true",
                        help="exit 0 on a known region whose answer was not checked (a finding "
                             "recognised by a property of the answer, not the answer itself; "
                             "default: exit 1, since a different wrong answer there looks the same)")
    parser.add_argument("--checks", default=None,
                        help="comma-separated check names (see --list)")
    parser.add_argument("--kind", choices=["differential", "law"], default=None,
                        help="only differential checks (vs spec) or only algebraic laws")
    parser.add_argument("--budget", default=None,
                        help=f"seconds for the whole run, shared across checks (default 60, at "
                             f"most {MAX_BUDGET_S:g}); with --max-examples, a cap: checks not "
                             "started by then are reported as not reached")
    parser.add_argument("--seed", default=0,
                        help="base seed (default 0)")
    parser.add_argument("--max-examples", default=None,
                        help="cases per check instead of a time budget: every check judges the "
                             "same cases on any machine, a function of --seed and the options "
                             "(the mode for CI; the example database is then used only when "
                             f"--db names it) (1..{MAX_EXAMPLES})")
    parser.add_argument("--report", metavar="FILE", help="write the JSON report here")
    parser.add_argument("--junit", metavar="FILE", help="write JUnit XML here")
    parser.add_argument("--replay", metavar="FILE",
                        help="rerun the counterexamples of a saved --report")
    parser.add_argument("--case", nargs="+", metavar=("CHECK", "ARG"),
                        help="rerun one case: a check name and its inputs in CuTe notation")
    parser.add_argument("--jobs", default=1,
                        help=f"workers (1..{MAX_JOBS}) of an embedded Dask cluster (--cluster "
                             "local:N); shards the run by seed and merges the results")
    parser.add_argument("--cluster", metavar="SPEC", default=None,
                        help="run on Dask distributed: local[:N] (an embedded cluster of N "
                             "workers; --jobs N alone means local:N), tcp://HOST:PORT (an "
                             "existing scheduler), processes:N (forked processes, no Dask)")
    parser.add_argument("--db", metavar="URL|FILE", default=None,
                        help="the example database: redis://HOST:PORT/N (shared by every worker "
                             "and machine) or a JSON file (default ./.layoutcheck/failures.json)")
    parser.add_argument("--html", metavar="FILE",
                        help="write a self-contained HTML report (tables, pictures, plot) here")
    parser.add_argument("--no-db", action="store_true",
                        help="neither replay nor store failures in ./.layoutcheck/")
    parser.add_argument("--fail-fast", action="store_true",
                        help="stop at the first new failure")
    parser.add_argument("--no-findings", action="store_true",
                        help="switch the register of findings off: every failure is new (each "
                             "is shrunk as a new failure, none is steered away from)")
    parser.add_argument("--list", action="store_true", help="list the checks and exit")
    add_run_limits(parser, "the whole run (the oracles' start, fuzzing, shrinking, every "
                           "worker), as --budget does; the smaller of the two wins")
    add_cute_include_argument(parser)


def _split(text):
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


def case_arity(check):
    """(lo, hi): how many inputs ``--case CHECK`` takes: the op's arguments for a
    differential check, the length of the drawn tuples for a law."""
    if check.kind == "differential":
        kinds = OPS[check.op]
        return sum(1 for k in kinds if not k.endswith("?")), len(kinds)
    sizes = []

    @settings(max_examples=3, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @seed(0)
    @given(check.strategy())
    def draw(args):
        sizes.append(len(args))
    draw()
    return (min(sizes), max(sizes)) if sizes else (0, 0)


def _check_case(case):
    name, inputs = case[0], case[1:]
    check = BY_NAME.get(name)
    if check is None:
        raise LayoutError(f"--case: unknown check {name!r} (layoutcheck fuzz --list shows them)")
    lo, hi = case_arity(check)
    if not lo <= len(inputs) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise LayoutError(f"--case {name} takes {want} input(s) in CuTe notation, got {len(inputs)}")


def _check_scale_out(args):
    """--cluster, --db and --html, checked before any work (one line, exit 2)."""
    if args.cluster is not None or args.jobs > 1:  # more workers than CPUs: capped, said once
        _, note = fit_to_machine(parse_cluster(args.cluster or f"local:{args.jobs}", args.jobs),
                                 args.max_examples)
        if note:
            print(f"layoutcheck fuzz: {note}", file=sys.stderr)
    if args.db is not None:
        if args.no_db:
            raise LayoutError("--db and --no-db cannot be combined")
        if is_redis(args.db):
            parse_redis_url(args.db)
        else:
            check_output_path(args.db, "--db")
    check_output_path(args.html, "--html")
    outputs = [p for p in (args.report, args.junit, args.html) if p]
    if len(set(outputs)) < len(outputs):
        raise LayoutError("--report, --junit and --html must name different files")


def _smaller(*values):
    values = [v for v in values if v is not None]
    return min(values) if values else None


def _run(args, oracles, command, show_progress):
    """The report: of ``--case``, ``--replay`` or a campaign (within ``--time-limit``)."""
    if args.case:
        return replay_cases([(args.case[0], o, args.case[1:]) for o in oracles], oracles, command,
                            args.baseline, findings=not args.no_findings)
    if args.replay is not None:
        return replay_report(args.replay, oracles if args.against is not None else None, command,
                             args.baseline, findings=not args.no_findings)
    reproducible = args.max_examples is not None
    budget = _smaller(DEFAULT_BUDGET_S if args.budget is None else args.budget, args.time_limit)
    return run_campaign(oracles=oracles, ops=_split(args.ops), budget=budget,
                        time_cap=_smaller(args.budget, args.time_limit) if reproducible else None,
                        seed=args.seed, max_examples=args.max_examples,
                        checks=_split(args.checks), kinds=[args.kind] if args.kind else None,
                        use_db=not args.no_db and (not reproducible or args.db is not None),
                        jobs=args.jobs,
                        progress=progress_printer(sys.stderr) if show_progress else None,
                        command=command, fail_fast=args.fail_fast, cluster=args.cluster,
                        db_path=args.db, findings=not args.no_findings, baseline=args.baseline)


def run(args):

    if args.list:
        for c in CHECKS:
            print(f"{c.name:36s} {c.kind:12s} {c.doc}")
        return 0
    validate(args, budget=seconds(), seed=count(0, 2 ** 64 - 1),
             max_examples=count(1, MAX_EXAMPLES), jobs=count(1, MAX_JOBS))
    limit, show_progress = run_limits(args)
    if args.replay is not None and not args.replay.strip():
        raise LayoutError("--replay needs a file name")
    apply_cute_include(args)
    oracles = oracle_names(args.against, lambda: ["pycute"])
    for name in oracles + ([args.baseline] if args.baseline else []):
        get_oracle(name)  # an unknown name (or a version that cannot be fetched): exit 2 now
    check_output_path(args.report, "--report")
    check_output_path(args.junit, "--junit")
    if args.report and args.junit and args.report == args.junit:
        raise LayoutError("--report and --junit name the same file")
    _check_scale_out(args)
    if args.case and args.replay:
        raise LayoutError("--case and --replay cannot be combined")
    command = "layoutcheck fuzz " + " ".join(shlex.quote(a) for a in sys.argv[2:]) \
        if len(sys.argv) > 1 and sys.argv[1] == "fuzz" else "layoutcheck fuzz"

    if args.case:
        _check_case(args.case)
    with run_deadline.applied(limit):
        report = _run(args, oracles, command, show_progress)
    report["accept_regions"] = bool(args.accept_regions)
    report["exit_status"] = exit_status(report)
    unavailable = [n for n, state in report["oracles"].items() if state != "available"]
    for name in unavailable:
        print(f"oracle {name} unavailable: {report['oracles'][name]}", file=sys.stderr)
    for r in report["results"]:
        if r["counterexample"] and r["status"] in ("fail", "error"):
            print(format_failure(r))
    s = report["summary"]
    for line in summary_lines(report):  # totals, known vs new ground, per-oracle stats
        print(line)
    if args.report:
        write_output(args.report, json.dumps(report, indent=1), "--report")
    if args.junit:
        write_output(args.junit, junit_xml(report), "--junit")
    if args.html:
        write_output(args.html, render(report), "--html")
    for r in report["results"]:  # a lost unit: say so (its rows are errors, never passes)
        if r["status"] == "error" and r["message"].startswith("incomplete:"):
            print(f"ERROR {r['check']} [{r['oracle']}]: {r['message']}", file=sys.stderr)
    status = report["exit_status"]
    if status == 1 and not s["new_failures"]:
        print(f"layoutcheck fuzz: {s['known_unchecked']} known region(s) with the answer not checked "
              "(a different wrong answer there would look the same; --accept-regions accepts them)",
              file=sys.stderr)
    if status == 2 and not s["new_failures"]:
        why = "every check was skipped" if s["skipped"] == s["checks"] else "a check errored"
        print(f"layoutcheck fuzz: {why}", file=sys.stderr)
    elif status == 0 and unavailable:
        print(f"layoutcheck fuzz: {', '.join(unavailable)} could not run (named in --against)",
              file=sys.stderr)
        status = 2
    unreached = [r for r in report["results"] if r.get("not_reached")]
    if status == 0 and unreached and not args.allow_unreached:  # an unrun check is no pass
        print(f"layoutcheck fuzz: {len(unreached)} check/oracle pairs were not reached within the "
              "budget: raise --budget, narrow --checks / --ops, or accept it with --allow-unreached",
              file=sys.stderr)
        status = 2
    return status
