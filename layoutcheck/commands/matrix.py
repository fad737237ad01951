"""`layoutcheck matrix --against VERSIONS`: every registered finding's cases on every version.

``--against cute-cpp@3.3..4.2,cute-dsl@4.2.0..4.8.1`` (ranges and lists of versioned oracles,
oldest first per implementation; ``cute-cpp@main=DIR`` adds a header tree under a name) runs the
cases of every finding registered for each implementation (``--findings`` narrows them) on
every version, one version per unit on ``--cluster``, and prints a table per implementation:
P present, D a different wrong answer, A absent (agrees with the spec, a refusal where the spec
refuses), ? cannot tell (``fuzz/versions/matrix.py``), with the version each finding was
introduced in and fixed in.  ``--json``, ``--html`` write the matrix; ``--write`` also writes
``layoutcheck/versions.toml`` (the register's versions; the implementations this run did not test
are kept) and the generated part of ``docs/versions.md``.

``--campaign`` runs a fuzz campaign instead: its drawn cases run on each pair of adjacent
versions (``fuzz --against NEWER --baseline OLDER``), and every case where they answer
differently is reported, shrunk, as a regression, a fix or a change (``fuzz/versions/across.py``).

Exit 0 when the matrix was made (with ``--campaign``: when no regression or change was found, 1
otherwise), 2 on bad input or a version that cannot be fetched.
"""

import json
import shlex
import sys
from pathlib import Path

from layoutcheck.commands.common import (
    check_output_path,
    count,
    oracle_names,
    read_json,
    seconds,
    validate,
    write_output,
)
from layoutcheck.errors import LayoutError
from layoutcheck.findings import VERSIONS_PATH, load, versions_data
from layoutcheck.fuzz.campaign.cluster import parse_cluster
from layoutcheck.fuzz.versions.across import run_across, summary_lines
from layoutcheck.fuzz.versions.matrix import assemble, run_matrix
from layoutcheck.oracles.versions import expand, is_versioned
from layoutcheck.reports.versions import DOC_BEGIN, DOC_END, docs_section, html_page, terminal, toml_text

HELP = "run every registered finding's cases on every version of CuTe C++, pycute or the DSL (a version matrix)"

DOCS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "versions.md"


def add_arguments(parser):
    parser.add_argument("--from", dest="saved", metavar="FILE[,FILE]",
                        help="render (and with --write record) matrices saved with --json instead of "
                             "running one; several are merged")
    parser.add_argument("--against", metavar="VERSIONS",
                        help="versioned oracles, oldest first: cute-cpp@3.3..4.2, pycute@3.5,pycute@4.2, "
                             "cute-dsl@4.7.0..4.8.1, cute-cpp@main=DIR")
    parser.add_argument("--findings", metavar="F-NNN,...", help="only these findings (default: every one)")
    parser.add_argument("--json", metavar="FILE", help="write the matrix (every case's answer) as JSON")
    parser.add_argument("--html", metavar="FILE", help="write the matrix as a self-contained HTML page")
    parser.add_argument("--write", action="store_true",
                        help="write layoutcheck/versions.toml (the register's introduced_in / fixed_in) "
                             "and the generated part of docs/versions.md")
    parser.add_argument("--cluster", metavar="SPEC",
                        help="run one version per unit on Dask: local[:N], tcp://HOST:PORT, processes:N")
    parser.add_argument("--campaign", action="store_true",
                        help="fuzz adjacent versions against each other instead (see --budget)")
    parser.add_argument("--budget", default=60.0,
                        help="with --campaign: seconds for the whole campaign, shared by the pairs")
    parser.add_argument("--seed", default=0, help="with --campaign: the base seed")
    parser.add_argument("--ops", default=None, help="with --campaign: only these operations")
    parser.add_argument("--checks", default=None, help="with --campaign: only these checks")


def _names(text):
    names = expand(oracle_names(text, list))
    unversioned = [n for n in names if not is_versioned(n)]
    if unversioned:
        raise LayoutError(f"--against {', '.join(unversioned)}: the matrix needs versions "
                          "(cute-cpp@3.8, pycute@3.3..4.2, cute-dsl@4.8.1, cute-cpp@NAME=DIR)")
    return names


def _recorded(argv=None):
    """The command line that made the matrix (``argv``: its words after ``layoutcheck
    matrix``), without the options that only say where its output went or where it ran."""
    if argv is None:
        argv = sys.argv[2:] if len(sys.argv) > 1 and sys.argv[1] == "matrix" else []
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a in ("--json", "--html", "--cluster", "--from"):
            skip = True
        elif a != "--write" and not a.startswith(("--json=", "--html=", "--cluster=", "--from=")):
            out.append(a)
    return "layoutcheck matrix " + " ".join(shlex.quote(a) for a in out)


def run(args):
    validate(args, budget=seconds(), seed=count(0, 2 ** 64 - 1))
    for path, option in ((args.json, "--json"), (args.html, "--html")):
        check_output_path(path, option)
    if args.cluster:
        parse_cluster(args.cluster)
    findings = None
    if args.findings:
        findings = [x.strip() for x in args.findings.split(",") if x.strip()]
        ids = {f["id"] for f in load()}
        unknown = [x for x in findings if x not in ids]
        if unknown:
            raise LayoutError(f"--findings: no {', '.join(unknown)} in the register")
    if args.saved:
        return _render(_merged(args.saved), args, findings)
    if not args.against:
        raise LayoutError("name the versions: --against cute-cpp@3.3..4.2 (or --from FILE)")
    names = _names(args.against)
    if args.campaign:
        split = lambda t: [x.strip() for x in t.split(",") if x.strip()] if t else None  # noqa: E731
        result = run_across(names, budget=args.budget, seed=args.seed, ops=split(args.ops),
                            checks=split(args.checks), cluster=args.cluster,
                            progress=lambda line: print(line, file=sys.stderr, flush=True))
        for line in summary_lines(result):
            print(line)
        if args.json:
            write_output(args.json, json.dumps(result, indent=1), "--json")
        return result["exit_status"]
    m = run_matrix(names, findings, cluster=args.cluster,
                   progress=lambda r: print(f"{r['oracle']}: {len(r['rows'])} cases in {r['seconds']} s",
                                            file=sys.stderr, flush=True))
    m["commands"] = {lineage: _recorded() for lineage in m["versions"]}
    return _render(m, args, findings)


def _merged(files):
    """The matrices saved in ``files`` (comma-separated), as one, assembled again from every
    case's answer (``fuzz/versions/matrix.assemble``)."""
    out = {}
    for path in [p.strip() for p in files.split(",") if p.strip()]:
        m = read_json(path, "--from")
        if not isinstance(m, dict) or not isinstance(m.get("findings"), dict) or "versions" not in m:
            raise LayoutError(f"--from {path}: not a matrix saved by layoutcheck matrix --json")
        if "commands" not in m and m.get("command"):  # saved before commands were kept per implementation
            m["commands"] = {k: _recorded(shlex.split(m["command"])[2:]) for k in m["versions"]}
        for key, value in m.items():
            if isinstance(value, dict):
                out.setdefault(key, {}).update(value)
    results = [{"oracle": n, "lineage": lineage, "label": out["labels"][n], "loaded": out["loaded"].get(n),
                "seconds": out["seconds"].get(n), "rows": out["cases"][n]}
               for lineage, names in out["versions"].items() for n in names]
    return dict(assemble(results), commands=out.get("commands", {}))


def _render(m, args, findings):
    print(terminal(m), end="")
    if args.json:
        write_output(args.json, json.dumps(m, indent=1), "--json")
    if args.html:
        write_output(args.html, html_page(m), "--html")
    if args.write:
        if findings:
            raise LayoutError("--write records the whole register: leave out --findings")
        write_output(str(VERSIONS_PATH), toml_text(m, "", versions_data()), "--write")
        load.cache_clear()
        if DOCS_PAGE.is_file():
            page = DOCS_PAGE.read_text()
            if DOC_BEGIN in page and DOC_END in page:
                head, rest = page.split(DOC_BEGIN, 1)
                tail = rest.split(DOC_END, 1)[1]
                write_output(str(DOCS_PAGE), head + docs_section().rstrip("\n") + tail, "--write")
        print(f"wrote {VERSIONS_PATH}" + (f" and {DOCS_PAGE}" if DOCS_PAGE.is_file() else ""))
    return 0
