"""`layoutcheck report F-NNN | --from-report r.json --check CHECK`: an upstream-ready report.

Writes what a maintainer needs (layoutcheck/reports/reproducers.py): title, versions, the minimal
case, expected (the spec) vs actual (the implementation, run here) with the brute-force
evidence, and a standalone reproducer (a .cpp for CuTe C++, a Python script for pycute,
NVlabs PyCuTe and the DSL) that exits 1 while the bug is present.  ``--write DIR`` also
saves the reproducer(s) there; ``--run`` builds and runs them here and says, per case and
version, bug present, absent (agrees with the spec: where the spec refuses, a refusal by CuTe
at compile time counts) or cannot tell (the toolchain failed otherwise).  ``--against
VERSIONS`` studies and runs each case on those versions of its implementation (fetched into
the cache).  Exit 0 when the report was written (with ``--run``: 1 when the bug is present on
a version, else 2 when one cannot tell, else 0), 2 for an unknown finding, a finding without a
``repro`` case or bad input.
"""

from pathlib import Path

import layoutcheck.reports.reproducers as R
from layoutcheck import deadline as run_deadline
from layoutcheck.commands.common import (
    add_run_limits,
    check_output_path,
    oracle_names,
    read_json,
    run_limits,
    unfinished_status,
    write_output,
)
from layoutcheck.errors import LayoutError
from layoutcheck.findings import base_oracle, load
from layoutcheck.oracles.cpp.toolchain import add_cute_include_argument, apply_cute_include
from layoutcheck.oracles.versions import expand
from layoutcheck.progress import Progress

HELP = "write an upstream-ready report with a standalone reproducer for a finding or a fuzz failure"


def add_arguments(parser):
    parser.add_argument("finding", metavar="F-NNN", nargs="?",
                        help="a finding of the register with a repro case")
    parser.add_argument("--from-report", metavar="FILE", help="a fuzz --report JSON file")
    parser.add_argument("--check", metavar="CHECK", help="with --from-report: the failed check")
    parser.add_argument("--oracle", metavar="NAME", help="with --from-report: the oracle (default: "
                        "the first with a counterexample for CHECK)")
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    parser.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    parser.add_argument("--write", metavar="DIR", help="save the reproducer file(s) in DIR")
    parser.add_argument("--run", action="store_true",
                        help="build and run the reproducer(s) here: bug present (exit 1), absent "
                             "(exit 0) or cannot tell (exit 2), per version")
    parser.add_argument("--against", metavar="VERSIONS",
                        help="the versions to study and run the cases on (cute-cpp@3.3..4.2, "
                             "pycute@3.8, cute-dsl@4.4.0, cute-cpp@main=DIR; default: the environment's)")
    add_run_limits(parser, "--run: no reproducer starts past it, and one running is cut there")
    add_cute_include_argument(parser)


def _on_versions(cases, against):
    """Each case once per requested version of its implementation (``--against``)."""
    if not against:
        return cases
    versions = expand(oracle_names(against, list))
    out = [R.Case(v, c.op, c.texts) for c in cases for v in versions
           if base_oracle(v) == base_oracle(c.oracle)]
    if not out:
        have = ", ".join(sorted({c.oracle for c in cases}))
        raise LayoutError(f"--against {against}: no case of this finding is on those implementations "
                          f"(its cases are on {have})")
    return out


def _meta_and_cases(args):
    if args.finding and args.from_report:
        raise LayoutError("give a finding id or --from-report, not both")
    if args.finding:
        f = next((x for x in load() if x["id"] == args.finding), None)
        if f is None:
            raise LayoutError(f"no finding {args.finding!r} in the register")
        meta = {k: f.get(k) for k in ("id", "title", "kind", "status", "seen_on", "introduced_in",
                                      "fixed_in", "upstream", "versions", "evidence")}
        return meta, R.cases_of_finding(f)
    if not args.from_report or not args.check:
        raise LayoutError("give a finding id (F-NNN), or --from-report FILE with --check CHECK")
    report = read_json(args.from_report, "--from-report")
    case, row = R.case_from_report(report, args.check, args.oracle)
    status = "known " + row["known_finding"] if row.get("known_finding") else "new failure"
    meta = dict(id=f"{args.check} on {case.oracle}", title=(row.get("message") or "a failed check")[:200],
                kind=f"fuzz {row.get('status', '?')} ({status})", status=None,
                seen_on=[f"layoutcheck fuzz report {args.from_report}"], upstream=None)
    return meta, [case]


def run(args):
    apply_cute_include(args)
    check_output_path(args.output, "--output")
    limit, show_progress = run_limits(args)
    with run_deadline.applied(limit):
        return _report(args, limit, show_progress)


def _report(args, limit, show_progress):
    meta, cases = _meta_and_cases(args)
    cases = _on_versions(cases, args.against)
    studies = []
    for case in cases:
        s = R.study(case, args.cute_include)
        s["reproducer"] = R.reproducer(case, s["claims"], f"{meta['id']}: {meta['title']}",
                                       meta.get("seen_on") or [], s["expected"].kind == "ok")
        studies.append(s)
    status = 0
    if args.write:
        folder = Path(args.write)
        folder.mkdir(parents=True, exist_ok=True)
        for k, s in enumerate(studies):
            name, text = s["reproducer"]
            stem, ext = name.rsplit(".", 1)
            (folder / (f"{stem}-{k + 1}.{ext}" if len(studies) > 1 else name)).write_text(text)
    text = R.render(meta, studies, args.format)
    unfinished = []
    if args.run:
        lines, verdicts = [], []
        with Progress("layoutcheck report --run", total=len(studies), unit="reproducers",
                      deadline=limit, enabled=show_progress) as bar:
            for s in studies:
                if limit is not None and limit.expired():
                    unfinished.append(f"the reproducer of {s['case'].text()} on {s['case'].oracle}")
                    continue
                bar.update(0, note=s["case"].oracle)
                rc, out = R.run_reproducer(s["case"], *s["reproducer"],
                                           cute_include=args.cute_include)
                bar.update(1)
                v, why = R.repro_verdict(s, rc, out)
                verdicts.append(v)
                where = f"reproducer of {s['case'].text()} on {s['case'].oracle}"
                lines.append(f"{where}: bug {v} (exit {rc}: {why})" if v != "cannot tell" else
                             f"{where}: cannot tell (exit {rc}: {why})")
                lines += ["  " + ln for ln in out.strip().splitlines()[:14]]
        status = 1 if "present" in verdicts else 2 if "cannot tell" in verdicts else 0
        text += "\n" + "\n".join(lines) + "\n"
    if args.output:
        write_output(args.output, text, "--output")
    else:
        print(text, end="")
    if unfinished:  # cut by --time-limit: never 0
        return unfinished_status("layoutcheck report", status == 1, unfinished, limit)
    return status
